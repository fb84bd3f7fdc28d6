"""The board builder's pipeline: options -> :class:`BuildSpec` -> board.

The centreline is resampled and smoothed (:class:`LapPath`, tight bends
eased and cramped parts pushed apart so lanes fit); corners are found from
curvature or given, then widened until every lane holds enough spaces for
the stop count (:mod:`fdlab.track.build.corners`); the lap is cut into
stretches, straights and corners (:mod:`~fdlab.track.build.stretches`);
every lane of a stretch is cut into spaces, aligned columns on straights and
more spaces on the outside of corners (:mod:`~fdlab.track.build.cells`);
then steps (lane changes diagonally forward, M-3) and contacts
(:mod:`~fdlab.track.build.steps`), the grid (:mod:`~fdlab.track.build.grid`),
the pit lane with entry and exit on straights (:mod:`~fdlab.track.build.pit`),
street features (:mod:`~fdlab.track.build.street`) and bridges for figure
eights (:mod:`~fdlab.track.build.bridges`) are added.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from fdlab.track.build.bridges import _raise_bridges
from fdlab.track.build.cells import _cut_cells, _number
from fdlab.track.build.centreline import Centreline, centreline_from_geojson, point_tuples
from fdlab.track.build.corner_fit import REFERENCE_SPACES_PER_LAP, table_spaces_per_lap
from fdlab.track.build.corners import _corner_stretches, _fit_corners, _short_corners
from fdlab.track.build.grid import _mark_grid
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.pit import _pit_lane
from fdlab.track.build.spec import (
    BuildSpec,
    CornerSpec,
    PitSpec,
    StreetSpec,
    Stretch,
    _check_spec,
)
from fdlab.track.build.steps import _add_contacts, _lines_crossed, _track_steps
from fdlab.track.build.street import _apply_hazards, _apply_tunnels, _police_position
from fdlab.track.build.stretches import _lap_stretches
from fdlab.track.corners import update_corner_counts
from fdlab.track.errors import BuildError
from fdlab.track.model import Track, add_space, add_step, new_graph

#: Number of spaces along the centre of a lap of typical shape: the printed boards have
#: about 154 a lane whatever the circuit's length (they are drawn to fit a table),
#: the outside lanes of their corners being longer than the centre; a lap that winds
#: about gets more (:func:`default_spaces_per_lap`).
DEFAULT_SPACES_PER_LAP = REFERENCE_SPACES_PER_LAP
#: Lane width as a fraction of the space length (spaces are longer than wide).
LANE_WIDTH_RATIO = 0.45
#: Builds tried before giving up on lengthening corners whose shortest path is too short.
_MAX_CORNER_ROUNDS = 4


def build_track(  # noqa: PLR0913 (the public builder: one keyword option per BuildSpec field)
    centreline: BuildSpec | Centreline | Sequence[Sequence[float]] | Mapping[str, Any] | str | Path,
    *,
    name: str | None = None,
    feature: str | None = None,
    lanes: int = 3,
    space_length: float | None = None,
    spaces_per_lap: int | None = None,
    lane_width: float | None = None,
    lane_counts: Sequence[tuple[Stretch | Sequence[float], int]] = (),
    corners: Sequence[CornerSpec | Sequence[float]] | None = None,
    stops: Sequence[int] | None = None,
    pit: PitSpec | bool | None = None,
    street: StreetSpec | None = None,
    grid: int = 10,
    laps: int = 1,
    description: str = "",
    finish: float = 0.0,
) -> Track:
    """Build a Formula D board from a closed centreline.

    Parameters
    ----------
    centreline : BuildSpec, Centreline, sequence of (x, y), GeoJSON mapping or path
        The lap in the direction of travel; its first point is the finish
        line. Points are metres; GeoJSON (lon/lat) is projected. A
        :class:`BuildSpec` holds the lap and every option below at once
        (``make_spec`` makes one, ``track.graph.graph["build"]`` keeps one);
        the options are then left out.
    name : str, optional
        The board's name; defaults to the circuit's ``Name`` (GeoJSON
        properties), else its ``Location``, else "untitled".
    feature : str, optional
        Which LineString of a GeoJSON FeatureCollection to build, by id or
        name (see :func:`~fdlab.track.build.centreline_from_geojson`).
    lanes : int
        Lane count, 2-4.
    space_length : float, optional
        Length of a space along the centreline in metres. Default: the lap
        divided by ``spaces_per_lap``; if not given either, as many as a
        printed board of the lap's shape has (:func:`default_spaces_per_lap`:
        107-193, 144 for a lap three times as long as the 3:2 table it fits,
        lanes of about 154 spaces).
    spaces_per_lap : int, optional
        Wanted number of spaces along the centre of the lap.
    lane_width : float, optional
        Metres; default 0.45 of the space length.
    lane_counts : sequence of (Stretch or (start, end), int)
        Other lane counts (2-4) on stretches of the lap (lap fractions).
        Lane 0 (leftmost) keeps its place; lanes are added or dropped on the
        right.
    corners : sequence of CornerSpec or (start, end), optional
        Corner stretches in lap fractions, replacing the detected ones.
    stops : sequence of int, optional
        Stop counts of the corners in running order (overrides suggestions).
    pit : PitSpec or True, optional
        Add a pit lane (``True``: beside the finish straight, 10 boxes).
    street : StreetSpec, optional
        Hazard spaces, police line and tunnels.
    grid : int
        Number of grid spots behind the finish line.
    laps : int
        Default race length.
    description : str
        One or two sentences for someone choosing a board.
    finish : float
        Where the finish line goes, as a fraction of the centreline's lap
        from its first point. All other lap fractions count from the finish
        line.

    Returns
    -------
    Track
        Spaces with polygons, steps, contacts, corners (with computed
        ``long``/``short``), grid, pit lane and street features. The spec is
        kept as JSON data in ``track.graph.graph["build"]``.

    Raises
    ------
    BuildError
        When the options cannot make a board (the message names the option).

    Notes
    -----
    Every corner is widened along the lap, evenly around its apex, until each
    lane holds at least two spaces and its shortest path at least its stop
    count; two corners too close together for that become one corner (their
    names joined, the larger stop count). Every ``lane_change`` step gains
    half a space to two spaces of progress, about as much as the ``ahead``
    step beside it.

    Examples
    --------
    >>> import math
    >>> oval = [(400 * math.sin(t / 50 * math.pi), -100 * math.cos(t / 50 * math.pi))
    ...         for t in range(100)]
    >>> track = build_track(oval, name="Oval", spaces_per_lap=60, pit=True)
    >>> track.lap_length, len(track.grid_spots()), len(track.corners), len(track.boxes())
    (60.0, 10, 2, 10)
    >>> [c["stops"] for c in track.corners.values()]  # half turns, but gradual: the ends of an ellipse
    [1, 1]
    >>> spec = make_spec(oval, name="Oval", spaces_per_lap=60, pit=True)
    >>> build_track(spec) == track  # the same board from one spec object
    True
    """
    if isinstance(centreline, BuildSpec):
        given = _options_given(
            name=name, feature=feature, lanes=lanes, space_length=space_length,
            spaces_per_lap=spaces_per_lap, lane_width=lane_width, lane_counts=lane_counts,
            corners=corners, stops=stops, pit=pit, street=street, grid=grid, laps=laps,
            description=description, finish=finish,
        )  # fmt: skip
        if given:
            raise BuildError(
                f"build_track: a BuildSpec holds every option; give it alone, not with "
                f"{', '.join(given)} (change a spec with dataclasses.replace, or rebuild)"
            )
        return build_from_spec(centreline)
    spec = make_spec(
        centreline,
        name=name,
        feature=feature,
        lanes=lanes,
        space_length=space_length,
        spaces_per_lap=spaces_per_lap,
        lane_width=lane_width,
        lane_counts=lane_counts,
        corners=corners,
        stops=stops,
        pit=pit,
        street=street,
        grid=grid,
        laps=laps,
        description=description,
        finish=finish,
    )
    return build_from_spec(spec)


def _options_given(**options: Any) -> list[str]:
    """The options of :func:`build_track` set to something other than their default."""
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(build_track).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    }
    return [name for name, value in options.items() if _differs(value, defaults[name])]


def _differs(value: Any, default: Any) -> bool:
    if value is default:
        return False
    try:
        return bool(value != default)
    except (TypeError, ValueError):  # an array compares element by element
        return True


def make_spec(
    centreline: Centreline | Sequence[Sequence[float]] | Mapping[str, Any] | str | Path,
    **options: Any,
) -> BuildSpec:
    """A :class:`BuildSpec` from the arguments of :func:`build_track`.

    Examples
    --------
    >>> spec = make_spec([(0, 0), (300, 0), (300, 200), (0, 200)], name="Box", lanes=2)
    >>> spec.lanes, spec.centreline.length
    (2, 1000.0)
    """
    feature = options.pop("feature", None)
    if isinstance(centreline, Centreline):
        line = centreline
    elif isinstance(centreline, str | Path | Mapping):
        line = centreline_from_geojson(centreline, feature=feature)
    else:
        line = Centreline(point_tuples(centreline))
    if options.get("name") is None:
        options["name"] = circuit_name(line)
    pit = options.get("pit")
    options["pit"] = PitSpec() if pit is True else (None if pit is False else pit)
    options["lane_counts"] = tuple(
        (s if isinstance(s, Stretch) else Stretch(*s), int(n))
        for s, n in options.get("lane_counts", ())
    )
    if options.get("corners") is not None:
        options["corners"] = tuple(
            c if isinstance(c, CornerSpec) else CornerSpec(*c) for c in options["corners"]
        )
    if options.get("stops") is not None:
        options["stops"] = tuple(int(s) for s in options["stops"])
    return BuildSpec(centreline=line, **options)


def circuit_name(line: Centreline) -> str:
    """The name of a board built from ``line``: its ``Name`` (or ``name``), else its ``Location``.

    Examples
    --------
    >>> circuit_name(Centreline([(0, 0), (1, 0), (0, 1)], {"Name": "Circuit de Monaco",
    ...                                                     "Location": "Monaco"}))
    'Circuit de Monaco'
    """
    properties = line.properties
    return str(
        properties.get("Name") or properties.get("name") or properties.get("Location") or "untitled"
    )


def rebuild(track: Track, **changes: Any) -> Track:
    """Build ``track`` again from its stored spec, with some options changed.

    Examples
    --------
    >>> track = build_track([(0, 0), (600, 0), (600, 300), (0, 300)], name="Box")
    >>> rebuild(track) == track, len(rebuild(track, lanes=2)) < len(track)
    (True, True)
    """
    if "build" not in track.graph.graph:
        raise BuildError(f"track {track.name!r} has no stored build spec (graph attribute 'build')")
    spec = BuildSpec.from_json(track.graph.graph["build"])
    if "centreline" in changes and not isinstance(changes["centreline"], Centreline):
        changes["centreline"] = Centreline(point_tuples(changes["centreline"]))
    return build_from_spec(replace(spec, **changes))


def build_from_spec(spec: BuildSpec) -> Track:
    """Build the board described by a :class:`BuildSpec` (see :func:`build_track`).

    Examples
    --------
    >>> from fdlab.track.build import BuildSpec, Centreline
    >>> box = Centreline([(250, 0), (500, 0), (500, 250), (0, 250), (0, 0)])  # finish mid-straight
    >>> spec = BuildSpec(box, name="Box")
    >>> track = build_from_spec(spec)
    >>> track.name, len(track.corners), track.graph.graph["build"] == spec.to_json()
    ('Box', 4, True)
    """
    _check_spec(spec)
    nominal_lap = spec.centreline.length
    space_length = float(
        spec.space_length or nominal_lap / (spec.spaces_per_lap or default_spaces_per_lap(spec))
    )
    width = float(spec.lane_width or LANE_WIDTH_RATIO * space_length)
    most_lanes = max([spec.lanes, *(n for _, n in spec.lane_counts)])
    offsets = [((spec.lanes - 1) / 2 - j) * width for j in range(most_lanes)]
    half_road = max(abs(d) for d in offsets) + width / 2
    with np.errstate(invalid="ignore", divide="ignore"):  # a road too wide: checked below
        path = LapPath(
            spec.centreline.starting_at(spec.finish).points,
            step=space_length / 8,
            smoothing=space_length / 4,
            min_radius=1.15 * half_road,
            separation=2.3 * half_road,
        )
    lap = path.length
    if not (
        math.isfinite(lap) and np.isfinite(path.xy).all() and np.isfinite(path.curvature).all()
    ):
        raise BuildError(
            f"the road ({most_lanes} lanes of {width:.3g} m) is too wide to follow this "
            f"centreline's bends; use fewer lanes, a narrower lane_width or more spaces per lap"
        )
    found = _corner_stretches(spec, path, space_length)
    extra = [0] * len(found)
    for _ in range(_MAX_CORNER_ROUNDS):
        corner_stretches = _fit_corners(spec, path, found, offsets, space_length, extra)
        if len(corner_stretches) < len(found):  # corners merged: go on from the merged ones
            found, extra = corner_stretches, [0] * len(corner_stretches)
        stretches = _lap_stretches(spec, corner_stretches, lap, space_length, extra)
        cells = _cut_cells(path, stretches, offsets, width)
        lap_length = float(sum(s.columns for s in stretches))
        tunnel_pairs = _apply_tunnels(spec.street, cells, lap)
        steps = _track_steps(cells, lap, lap_length, tunnel_pairs)
        too_short = _short_corners(cells, steps, corner_stretches)
        if not too_short:
            break
        for number in too_short:
            extra[number - 1] += 1

    graph = new_graph(
        spec.name,
        description=spec.description,
        laps=spec.laps,
        units="m",
        space_length=round(space_length, 3),
        lap_length=lap_length,
    )
    for number, (_, _, stops, corner_name) in enumerate(corner_stretches, start=1):
        graph.graph["corners"][number] = {"stops": stops, "name": corner_name or f"Corner {number}"}

    for entry, exit_ in tunnel_pairs:
        steps.append((entry, exit_, "tunnel"))
    _mark_grid(cells, spec.grid, corner_stretches, lap)
    pit_cells, pit_steps = _pit_lane(spec.pit, path, cells, stretches, offsets, width, lap)
    steps.extend(pit_steps)
    all_cells = cells + pit_cells
    _number(all_cells)
    _apply_hazards(spec.street, cells, lap)
    _raise_bridges(path, cells, half_road, space_length)
    police = _police_position(spec.street, stretches, lap)

    for cell in sorted(all_cells, key=lambda c: c.ident):
        add_space(
            graph,
            cell.ident,
            x=_snap(cell.centre[0], 2),
            y=_snap(cell.centre[1], 2),
            polygon=cell.polygon,
            lane=cell.lane,
            progress=_snap(cell.progress, 4),
            kind=cell.kind,
            corner=cell.corner,
            hazard=cell.hazard,
            tunnel=cell.tunnel,
            grid=cell.grid,
            box=cell.box,
            level=cell.level,
        )
    for a, b, kind in steps:
        add_step(graph, a.ident, b.ident, kind, _lines_crossed(a, b, kind, police, lap))
    update_corner_counts(graph)
    graph.graph["build"] = spec.to_json()
    track = Track(graph)
    _add_contacts(track, cells, steps)
    return track


def default_spaces_per_lap(spec: BuildSpec) -> int:
    """Spaces along the centre of the lap when neither ``spaces_per_lap`` nor
    ``space_length`` is given: as many as a printed board of the circuit's shape has
    (:func:`~fdlab.track.build.corner_fit.table_spaces_per_lap`; about 144, lanes of
    about 154 spaces)."""
    return table_spaces_per_lap(spec.centreline.points, spec.centreline.length)


def _snap(value: float, decimals: int) -> float:
    """``value`` rounded as a track file keeps it, never ``-0.0`` (a hair below zero
    rounds to ``-0.0``, which a file would keep apart from ``0.0``).

    >>> _snap(-0.00001, 4), _snap(2.34567, 2)
    (0.0, 2.35)
    """
    return round(float(value), decimals) + 0.0
