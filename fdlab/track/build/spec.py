"""What to build: the options of the board builder as JSON-native dataclasses.

Positions along the lap are *lap fractions* (0 at the finish line, 1 one lap
later), so a spec keeps its meaning when the centreline is dragged or the
space length changed. A stretch may wrap past the finish (``start > end``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from fdlab.track.build.centreline import Centreline
from fdlab.track.build.corner_fit import REFERENCE_SPACES_PER_LAP
from fdlab.track.errors import BuildError, CentrelineError


@dataclass(frozen=True)
class Stretch:
    """A stretch of the lap between two lap fractions.

    Examples
    --------
    >>> Stretch(0.9, 0.1).contains(0.95), Stretch(0.9, 0.1).contains(0.5)
    (True, False)
    """

    start: float
    end: float

    def __post_init__(self) -> None:
        for label in ("start", "end"):
            value = getattr(self, label)
            if not 0.0 <= float(value) <= 1.0:
                raise BuildError(f"stretch {label} must be a lap fraction in [0, 1], got {value!r}")
            object.__setattr__(self, label, float(value))

    def contains(self, fraction: float) -> bool:
        """Whether a lap fraction lies in the stretch."""
        if self.start <= self.end:
            return self.start <= fraction < self.end
        return fraction >= self.start or fraction < self.end


@dataclass(frozen=True)
class CornerSpec:
    """A corner drawn by the designer: a stretch and, optionally, its stop count and name.

    Examples
    --------
    >>> CornerSpec(0.2, 0.25, stops=3, name="Hairpin").stops
    3
    """

    start: float
    end: float
    stops: int | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        Stretch(self.start, self.end)
        if self.stops is not None and self.stops not in (1, 2, 3):
            raise BuildError(
                f"corner at {self.start:.3f}: stops must be 1, 2 or 3, got {self.stops!r}"
            )


@dataclass(frozen=True)
class PitSpec:
    """The pit lane: where it runs, on which side, and how many boxes.

    Parameters
    ----------
    start, end : float, optional
        Lap fractions of the pit entry and exit. By default the pit lane runs
        along the whole straight that holds the finish line. The finish line
        must lie between them (cars pit between laps, P-2; the validator
        reports ``pit_misses_finish`` otherwise): to put the pits on another
        straight, move the finish line there with ``build_track(finish=...)``.
    side : {"left", "right"}, optional
        Side of the track; by default the outside of the circuit.
    boxes : int
        One box per car.

    Examples
    --------
    >>> PitSpec(side="left", boxes=6)
    PitSpec(start=None, end=None, side='left', boxes=6)
    """

    start: float | None = None
    end: float | None = None
    side: str | None = None
    boxes: int = 10

    def __post_init__(self) -> None:
        if self.side not in (None, "left", "right"):
            raise BuildError(f"pit side must be 'left' or 'right', got {self.side!r}")
        if (self.start is None) != (self.end is None):
            raise BuildError("pit: give both start and end, or neither")
        if self.start is not None:
            Stretch(self.start, self.end)  # type: ignore[arg-type]
        if not 1 <= int(self.boxes) <= 20:
            raise BuildError(f"pit boxes must be 1-20, got {self.boxes!r}")


@dataclass(frozen=True)
class StreetSpec:
    """Street-rules features.

    Parameters
    ----------
    shooting, danger : sequence of Stretch or int
        Hazard spaces: a stretch marks every track space whose middle lies in
        it; an int names one space id of the built board.
    police : float, optional
        Lap fraction of the police line (snapped to the nearest space edge).
    tunnels : sequence of Stretch
        The spaces of each stretch are removed; in every lane the spaces
        just before and after become a pair of portals joined by a
        ``tunnel`` step.

    Examples
    --------
    >>> street = StreetSpec(shooting=[(0.3, 0.35), 12], police=0.8, tunnels=[(0.5, 0.55)])
    >>> street.shooting
    (Stretch(start=0.3, end=0.35), 12)
    """

    shooting: tuple[Stretch | int, ...] = ()
    danger: tuple[Stretch | int, ...] = ()
    police: float | None = None
    tunnels: tuple[Stretch, ...] = ()

    def __post_init__(self) -> None:
        for label in ("shooting", "danger"):
            items = tuple(_stretch_or_id(item, label) for item in getattr(self, label))
            object.__setattr__(self, label, items)
        tunnels = tuple(_stretch_or_id(item, "tunnels") for item in self.tunnels)
        if any(isinstance(t, int) for t in tunnels):
            raise BuildError("tunnels are stretches of the lap (start, end), not space ids")
        object.__setattr__(self, "tunnels", tunnels)
        if self.police is not None and not 0.0 <= self.police < 1.0:
            raise BuildError(f"police line must be a lap fraction in [0, 1), got {self.police!r}")


def _stretch_or_id(item: Any, label: str) -> Stretch | int:
    if isinstance(item, Stretch | int) and not isinstance(item, bool):
        return item
    if isinstance(item, Mapping):
        return Stretch(item["start"], item["end"])
    if isinstance(item, Sequence) and len(item) == 2:
        return Stretch(*item)
    raise BuildError(
        f"street {label}: expected a Stretch, (start, end) or a space id, got {item!r}"
    )


@dataclass(frozen=True)
class BuildSpec:
    """Everything :func:`fdlab.track.build.build_track` needs, as plain data.

    ``to_json`` gives JSON-native data stored in ``track.graph.graph["build"]``;
    ``from_json`` reads it back, so an edited centreline can be rebuilt.

    Examples
    --------
    >>> import json
    >>> spec = BuildSpec(Centreline([(0, 0), (300, 0), (300, 200)]), name="T", pit=PitSpec())
    >>> BuildSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    True
    """

    centreline: Centreline
    name: str = "untitled"
    lanes: int = 3
    space_length: float | None = None
    spaces_per_lap: int | None = None
    lane_width: float | None = None
    lane_counts: tuple[tuple[Stretch, int], ...] = ()
    corners: tuple[CornerSpec, ...] | None = None
    stops: tuple[int, ...] | None = None
    pit: PitSpec | None = None
    street: StreetSpec | None = None
    grid: int = 10
    laps: int = 1
    description: str = ""
    finish: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-native data (dicts, lists, numbers, strings, None)."""
        data = {k: v for k, v in asdict(self).items() if k != "centreline"}
        data["centreline"] = self.centreline.to_json()
        data["lane_counts"] = [[asdict(s), n] for s, n in self.lane_counts]
        data["corners"] = None if self.corners is None else [asdict(c) for c in self.corners]
        data["stops"] = None if self.stops is None else list(self.stops)
        if self.street is not None:
            data["street"] = {
                "shooting": [_item_json(i) for i in self.street.shooting],
                "danger": [_item_json(i) for i in self.street.danger],
                "police": self.street.police,
                "tunnels": [asdict(t) for t in self.street.tunnels],
            }
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BuildSpec:
        """Read the data written by :meth:`to_json`."""
        values = dict(data)
        values["centreline"] = Centreline.from_json(values["centreline"])
        values["lane_counts"] = tuple(
            (Stretch(**s), int(n)) for s, n in values.get("lane_counts", ())
        )
        if values.get("corners") is not None:
            values["corners"] = tuple(CornerSpec(**c) for c in values["corners"])
        if values.get("stops") is not None:
            values["stops"] = tuple(values["stops"])
        if values.get("pit") is not None:
            values["pit"] = PitSpec(**values["pit"])
        if values.get("street") is not None:
            values["street"] = StreetSpec(**values["street"])
        return cls(**values)


def _item_json(item: Stretch | int) -> Any:
    return item if isinstance(item, int) else asdict(item)


#: Most and fewest spaces along the centre of a lap a build may have (a real board has
#: about 80; each space costs memory and time, so 10^7 would run for minutes).
MAX_SPACES_PER_LAP = 1000
MIN_SPACES_PER_LAP = 20
#: Most grid spots and laps a build may ask for (a race has at most 10 cars).
MAX_GRID = 60
MAX_LAPS = 100
#: Shortest space a build may make, in metres: a board keeps centres to the centimetre
#: and the space length to the millimetre, so a smaller space would not survive saving.
MIN_SPACE_LENGTH = 1.0
#: A centreline no wider than this share of its length, across its main direction, lies
#: on one straight line (to rounding): its lap would fold back onto itself.
_FLAT_SHARE = 1e-9


def _whole(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def _check_not_flat(line: Centreline, lap: float) -> None:
    """Refuse a centreline whose points all lie on one straight line (a lap that folds)."""
    xy = np.asarray(line.points, dtype=float)
    centred = xy - xy.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    across = float(np.ptp(centred @ axes[-1]))
    if across <= _FLAT_SHARE * lap:
        raise CentrelineError(
            f"the centreline's {len(xy)} points lie on one straight line, so its lap would run "
            "out and fold back onto itself; draw the circuit round an area (for example "
            "[(0, 0), (300, 0), (300, 200), (0, 200)])"
        )


def _check_spacing(spec: BuildSpec, lap: float) -> None:
    """Refuse a spaces_per_lap or space_length out of range, and spaces shorter than
    :data:`MIN_SPACE_LENGTH` (a lap of micrometres)."""
    if spec.spaces_per_lap is not None and (
        not _whole(spec.spaces_per_lap)
        or not MIN_SPACES_PER_LAP <= spec.spaces_per_lap <= MAX_SPACES_PER_LAP
    ):
        raise BuildError(
            f"spaces_per_lap must be a whole number from {MIN_SPACES_PER_LAP} to "
            f"{MAX_SPACES_PER_LAP}, got {spec.spaces_per_lap!r}"
        )
    if spec.space_length is not None:
        if not _real(spec.space_length) or spec.space_length <= 0:
            raise BuildError(
                f"space_length must be a positive number of metres, got {spec.space_length!r}"
            )
        count = lap / spec.space_length
        if count < MIN_SPACES_PER_LAP:
            raise BuildError(
                f"space_length {spec.space_length:g} m cuts this {lap:.0f} m lap into only "
                f"{count:.3g} spaces; at least {MIN_SPACES_PER_LAP} (space_length at most "
                f"{lap / MIN_SPACES_PER_LAP:.3g} m)"
            )
        if count > MAX_SPACES_PER_LAP:
            raise BuildError(
                f"space_length {spec.space_length:g} m cuts this {lap:.0f} m lap into about "
                f"{count:.3g} spaces; at most {MAX_SPACES_PER_LAP} (space_length at least "
                f"{lap / MAX_SPACES_PER_LAP:.3g} m)"
            )
    wanted = spec.spaces_per_lap or REFERENCE_SPACES_PER_LAP
    space = spec.space_length or lap / wanted
    if space >= MIN_SPACE_LENGTH:
        return
    if spec.space_length is not None:
        raise BuildError(
            f"space_length must be at least {MIN_SPACE_LENGTH:g} m (a board keeps positions "
            f"to the centimetre), got {spec.space_length:g}"
        )
    if lap / MIN_SPACE_LENGTH >= MIN_SPACES_PER_LAP:
        advice = (
            f"ask for at most {math.floor(lap / MIN_SPACE_LENGTH)} spaces_per_lap, or scale "
            "the circuit up"
        )
    else:
        advice = (
            f"scale the circuit up to a lap of at least {wanted * MIN_SPACE_LENGTH:g} m "
            "(a real circuit's lap is a few km)"
        )
    raise BuildError(
        f"this centreline's lap is {lap:.3g} m long, so {wanted} spaces would each be "
        f"{space:.3g} m; a space is at least {MIN_SPACE_LENGTH:g} m (the points are metres): "
        f"{advice}"
    )


def _check_spec(spec: BuildSpec) -> None:
    """Refuse options that cannot make a sound board, naming the option, before any work."""
    for label in ("name", "description"):
        value = getattr(spec, label)
        if not isinstance(value, str):
            raise BuildError(f"{label} must be a string, got {value!r}")
    for label, value in [
        ("lanes", spec.lanes),
        *((f"lane_counts[{i}]", n) for i, (_, n) in enumerate(spec.lane_counts)),
    ]:
        if not _whole(value) or not 2 <= value <= 4:
            raise BuildError(f"{label}: lane count must be 2-4, got {value!r}")
    lap = spec.centreline.length
    if not (math.isfinite(lap) and lap > 0):
        raise BuildError(
            f"the centreline's lap length must be a finite number of metres, got {lap}"
        )
    _check_not_flat(spec.centreline, lap)
    _check_spacing(spec, lap)
    if spec.lane_width is not None:
        if not _real(spec.lane_width) or spec.lane_width <= 0:
            raise BuildError(
                f"lane_width must be a positive number of metres, got {spec.lane_width!r}"
            )
        space = spec.space_length or lap / (spec.spaces_per_lap or 80)
        if spec.lane_width > space:
            raise BuildError(
                f"lane_width {spec.lane_width:g} m is wider than a space is long ({space:.3g} m); "
                "spaces are longer than wide (the default is 0.45 of the space length)"
            )
    if not _whole(spec.grid) or not 1 <= spec.grid <= MAX_GRID:
        raise BuildError(
            f"grid must be a whole number of spots from 1 to {MAX_GRID}, got {spec.grid!r}"
        )
    if not _whole(spec.laps) or not 1 <= spec.laps <= MAX_LAPS:
        raise BuildError(f"laps must be a whole number from 1 to {MAX_LAPS}, got {spec.laps!r}")
    if not _real(spec.finish) or not 0.0 <= spec.finish < 1.0:
        raise BuildError(f"finish must be a lap fraction in [0, 1), got {spec.finish!r}")
