"""Rules presets as plain data (R-1..R-5).

A :class:`Preset` holds every number the engine uses: dice faces, damage
pools, costs and thresholds. The engine reads them and never hard-codes
them, so a designer makes a house-rules variant with
:func:`dataclasses.replace`::

    >>> import dataclasses
    >>> gentle = dataclasses.replace(BASIC, name="gentle", pools=(("SP", 24),))
    >>> gentle.pool_max
    (24,)

The four presets of ``rules.md``:

* ``basic`` (R-1): gears, turn order, movement, corners, structure points
  (D), basic start (S-2), one lap;
* ``basic`` with laps (R-2): ``BASIC.with_laps(2)`` adds pits (P);
* ``street`` (R-3): basic plus the street rules (X);
* ``advanced`` (R-4): five wear-point pools (A) instead of D, advanced
  grid and start (S-1, S-3).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from fdlab._text import counted
from fdlab.rules.dice import Die
from fdlab.rules.errors import PresetError

#: G-1: the faces of the six gear dice.
GEAR_FACES: tuple[tuple[int, ...], ...] = (
    (1, 1, 2, 2),
    (2, 3, 3, 4, 4, 4),
    (4, 5, 6, 6, 7, 7, 8, 8),
    tuple(v for v in range(7, 13) for _ in range(2)),
    tuple(v for v in range(11, 21) for _ in range(2)),
    tuple(v for v in range(21, 31) for _ in range(3)),
)

#: The black die, a d20.
BLACK_FACES: tuple[int, ...] = tuple(range(1, 21))

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``...

    Examples
    --------
    >>> ordinal(2), ordinal(5)
    ('2nd', '5th')
    """
    return ORDINALS.get(n, f"{n}th")


@dataclass(frozen=True)
class Preset:
    """Every rule number of one variant (R-5). Copy with :func:`dataclasses.replace`.

    Parameters
    ----------
    name : str
        Shown in race logs and tables.
    model : {"basic", "advanced"}
        Damage model: structure points (D) or wear points (A).
    laps : int
        Race length (P-1); pits (P) are open in races of two laps or more.
    gear_faces : tuple of tuple of int
        Faces of the gear dice, 1st to 6th (G-1).
    black_faces : tuple of int
        Faces of the black die.
    pools : tuple of (name, start value)
        Damage pools and their starting (and maximum) values (D-1, A-1).
    eliminate_at_zero : tuple of str
        Pools whose reaching 0 eliminates the car (D-1, A-8, A-9).
    max_downshift : int
        Most gears dropped in one turn (G-4: four).
    downshift_costs : mapping
        Gears dropped -> ``{pool: loss}`` (G-4, A-7); one gear is free.
    brake_pool, overshoot_pool : str
        Pool paying per space braked (D-3, A-5) and per space overshot (C-3, A-2).
    blocked_costs : mapping or None
        Advanced blocked table (A-6): spaces short -> ``{pool: loss}``; more
        than its largest key eliminates. ``None``: blocked spaces are paid as
        braking (D-4).
    spin_pool : str or None
        Pool whose reaching exactly 0 makes the car spin (A-3).
    missing_stops_eliminate : int
        Leaving a corner this many stops short (or more) eliminates (C-4).
    collision_pool, collision_fail : str, int
        Contact rolls at or below ``collision_fail`` cost 1 (D-5, A-8).
    engine_pool, engine_fail : str, int
        Engine check rolls at or below ``engine_fail`` cost 1 (D-6, A-9).
    engine_triggers : mapping
        Gear -> die face that triggers the engine check (D-6).
    engine_gears : tuple of int
        Gears whose cars take the engine check.
    grid_order : {"high", "low"}
        Whether the highest or the lowest grid roll takes pole (S-1).
    start_stall_max, start_flying_min, start_flying_spaces : int
        Start roll thresholds (S-2, S-3).
    tie_break : {"inside", "previous"}
        Turn-order tie break of cars level in the same gear (T-3).
    pit_exit_max_gear : int
        Highest gear to leave the box in (P-3).
    pit_restore : tuple of str
        Pools restored to their start value in the own box (P-2, A-10).
    max_lane_changes : int
        Lane changes per move on straights (M-3).
    street : bool
        Street rules (X-1..X-6).
    shooting_min, shooting_loss : int
        Shooting space: a black roll at or above ``shooting_min`` costs
        ``shooting_loss`` (X-2).
    danger_fail, danger_loss : int
        Danger space: a black roll at or below ``danger_fail`` costs
        ``danger_loss`` (X-3).
    police_bonus, checkpoint_bonus : int
        Street bonuses (X-4, X-6).
    street_pool : str
        Pool that street damage and bonuses apply to.
    """

    name: str
    model: str = "basic"
    laps: int = 1
    gear_faces: tuple[tuple[int, ...], ...] = GEAR_FACES
    black_faces: tuple[int, ...] = BLACK_FACES
    pools: tuple[tuple[str, int], ...] = (("SP", 18),)
    eliminate_at_zero: tuple[str, ...] = ("SP",)
    max_downshift: int = 4
    downshift_costs: Mapping[int, Mapping[str, int]] = field(
        default_factory=lambda: {2: {"SP": 1}, 3: {"SP": 2}, 4: {"SP": 3}}
    )
    brake_pool: str = "SP"
    overshoot_pool: str = "SP"
    blocked_costs: Mapping[int, Mapping[str, int]] | None = None
    spin_pool: str | None = None
    missing_stops_eliminate: int = 2
    collision_pool: str = "SP"
    collision_fail: int = 4
    engine_pool: str = "SP"
    engine_fail: int = 4
    engine_triggers: Mapping[int, int] = field(default_factory=lambda: {5: 20, 6: 30})
    engine_gears: tuple[int, ...] = (5, 6)
    grid_order: str = "high"
    start_stall_max: int = 1
    start_flying_min: int = 17
    start_flying_spaces: int = 4
    tie_break: str = "inside"
    pit_exit_max_gear: int = 4
    pit_restore: tuple[str, ...] = ("SP",)
    max_lane_changes: int = 2
    street: bool = False
    shooting_min: int = 11
    shooting_loss: int = 2
    danger_fail: int = 4
    danger_loss: int = 1
    police_bonus: int = 2
    checkpoint_bonus: int = 10
    street_pool: str = "SP"

    def __post_init__(self) -> None:
        """Refuse a variant whose numbers do not fit together (R-5).

        Raises
        ------
        PresetError
            Naming the preset, the field and what is wrong.

        Examples
        --------
        >>> import dataclasses
        >>> dataclasses.replace(BASIC, name="house", brake_pool="brakes")
        Traceback (most recent call last):
        ...
        fdlab.rules.errors.PresetError: preset 'house', field brake_pool: no pool named 'brakes' (its pools: SP) (R-5)
        """
        for field_name, problem in _preset_problems(self):
            raise PresetError(f"preset {self.name!r}, field {field_name}: {problem} (R-5)")

    # -- derived values (cached on the frozen instance) -------------------------
    @cached_property
    def gear_dice(self) -> tuple[Die, ...]:
        """The six gear dice as :class:`~fdlab.rules.dice.Die` objects (G-1)."""
        return tuple(
            Die(f"{ordinal(g)} gear", tuple(faces)) for g, faces in enumerate(self.gear_faces, 1)
        )

    @property
    def unit(self) -> str:
        """What damage is counted in, in words: ``"SP"``, or ``"WP"`` under the advanced rules.

        Examples
        --------
        >>> get_preset("basic").unit, get_preset("advanced").unit
        ('SP', 'WP')
        """
        return "WP" if self.model == "advanced" else "SP"

    @cached_property
    def black_die(self) -> Die:
        """The black d20."""
        return Die("black", tuple(self.black_faces))

    @cached_property
    def pool_names(self) -> tuple[str, ...]:
        """Names of the damage pools, in order."""
        return tuple(name for name, _ in self.pools)

    @cached_property
    def pool_max(self) -> tuple[int, ...]:
        """Start (and maximum) value of each pool."""
        return tuple(value for _, value in self.pools)

    @cached_property
    def pool_index(self) -> dict[str, int]:
        """Pool name -> position in a car's pools."""
        return {name: i for i, (name, _) in enumerate(self.pools)}

    @property
    def gears(self) -> int:
        """Number of gears."""
        return len(self.gear_faces)

    @property
    def pits(self) -> bool:
        """Pits are open in races of two laps or more (R-2)."""
        return self.laps > 1

    def with_laps(self, laps: int) -> Preset:
        """The same rules for a race of ``laps`` laps (P-1, R-2).

        Decision (A-1): advanced pools grow with the race; each extra lap adds
        half the one-lap value, rounded up (tires 4 -> 6 for two laps).

        Examples
        --------
        >>> BASIC.with_laps(2).laps, BASIC.with_laps(2).pits
        (2, True)
        >>> dict(ADVANCED.with_laps(2).pools)
        {'tires': 6, 'brakes': 5, 'fuel': 3, 'body': 3, 'engine': 3}
        """
        if laps < 1:
            raise PresetError(f"P-1: a race has at least one lap, not {laps}")
        pools = self.pools
        if self.model == "advanced" and laps != self.laps:
            base = tuple((n, _one_lap_value(v, self.laps)) for n, v in pools)
            pools = tuple((n, v + (laps - 1) * math.ceil(v / 2)) for n, v in base)
        return dataclasses.replace(self, laps=laps, pools=pools)

    def __repr__(self) -> str:
        return f"<Preset {self.name!r}: {self.model} rules, {counted(self.laps, 'lap')}>"

    def _repr_html_(self) -> str:
        """A table of the dice and pools for a notebook.

        Examples
        --------
        >>> "<table>" in BASIC._repr_html_()
        True
        """
        from fdlab.plot.tables import preset_html

        return preset_html(self)


def _is_count(value: object, least: int = 0) -> bool:
    """A whole number (not a bool) of at least ``least``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _preset_problems(preset: Preset) -> Iterator[tuple[str, str]]:  # noqa: C901 (one flat check per preset field)
    """Every (field, problem) of a preset, most basic first; none for a sound preset."""
    if preset.model not in ("basic", "advanced"):
        yield "model", f"{preset.model!r} is not 'basic' or 'advanced'"
    if not _is_count(preset.laps, 1):
        yield "laps", f"a race has at least one lap, not {preset.laps!r} (P-1)"
    if not preset.gear_faces:
        yield "gear_faces", "no gears: give the faces of at least one gear die (G-1)"
    for gear, faces in enumerate(preset.gear_faces, 1):
        if not faces or not all(_is_count(v, 1) for v in faces):
            yield (
                "gear_faces",
                f"the {ordinal(gear)} gear die needs faces of 1 or more, not {faces!r}",
            )
    if not preset.black_faces or not all(_is_count(v, 1) for v in preset.black_faces):
        yield "black_faces", f"the black die needs faces of 1 or more, not {preset.black_faces!r}"
    names = [name for name, _ in preset.pools]
    if not names:
        yield "pools", "no damage pools (D-1, A-1)"
    if len(set(names)) != len(names):
        yield "pools", f"pool names repeat: {names}"
    for name, value in preset.pools:
        if not _is_count(value, 1):
            yield "pools", f"pool {name!r} starts with {value!r}; a pool starts with 1 or more"
    known = set(names)
    listing = ", ".join(names)
    referenced: list[tuple[str, object]] = [
        ("brake_pool", preset.brake_pool),
        ("overshoot_pool", preset.overshoot_pool),
        ("collision_pool", preset.collision_pool),
        ("engine_pool", preset.engine_pool),
        *(("eliminate_at_zero", name) for name in preset.eliminate_at_zero),
        *(("pit_restore", name) for name in preset.pit_restore),
        *(("downshift_costs", n) for cost in preset.downshift_costs.values() for n in cost),
        *(("blocked_costs", n) for cost in (preset.blocked_costs or {}).values() for n in cost),
    ]
    if preset.spin_pool is not None:
        referenced.append(("spin_pool", preset.spin_pool))
    if preset.street:
        referenced.append(("street_pool", preset.street_pool))
    for field_name, pool in referenced:
        if pool not in known:
            yield field_name, f"no pool named {pool!r} (its pools: {listing})"
    gears = len(preset.gear_faces)
    if not _is_count(preset.max_downshift, 1) or preset.max_downshift >= max(gears, 2):
        yield "max_downshift", f"{preset.max_downshift!r} is not between 1 and {gears - 1} (G-4)"
    for dropped in preset.downshift_costs:
        if not _is_count(dropped, 2) or dropped > preset.max_downshift:
            yield (
                "downshift_costs",
                f"{dropped!r} gears dropped: costs are for 2 to {preset.max_downshift} gears (G-4)",
            )
    for gear, face in preset.engine_triggers.items():
        if not _is_count(gear, 1) or gear > gears:
            yield "engine_triggers", f"there is no gear {gear!r} (1 to {gears})"
        elif face not in preset.gear_faces[gear - 1]:
            yield (
                "engine_triggers",
                f"the {ordinal(gear)} gear die has no face {face!r}, so it never triggers (D-6)",
            )
    for gear in preset.engine_gears:
        if not _is_count(gear, 1) or gear > gears:
            yield "engine_gears", f"there is no gear {gear!r} (1 to {gears})"
    if not _is_count(preset.pit_exit_max_gear, 1) or preset.pit_exit_max_gear > gears:
        yield "pit_exit_max_gear", f"there is no gear {preset.pit_exit_max_gear!r} (P-3)"
    if preset.grid_order not in ("high", "low"):
        yield "grid_order", f"{preset.grid_order!r} is not 'high' or 'low' (S-1)"
    if preset.tie_break not in ("inside", "previous"):
        yield "tie_break", f"{preset.tie_break!r} is not 'inside' or 'previous' (T-3)"
    if not _is_count(preset.max_lane_changes, 0):
        yield "max_lane_changes", f"{preset.max_lane_changes!r} is not a count (M-3)"


def _one_lap_value(value: int, laps: int) -> int:
    """Invert the pool scaling of :meth:`Preset.with_laps` for ``laps`` laps."""
    if laps == 1:
        return value
    for base in range(value + 1):
        if base + (laps - 1) * math.ceil(base / 2) == value:
            return base
    return value


#: R-1: the basic rules, one lap.
BASIC = Preset(name="basic")

#: R-3: basic plus street racing (nitro, shooting, danger, police, tunnel, checkpoint).
STREET = Preset(name="street", street=True)

#: R-4: the advanced rules with five wear-point pools.
ADVANCED = Preset(
    name="advanced",
    model="advanced",
    pools=(("tires", 4), ("brakes", 3), ("fuel", 2), ("body", 2), ("engine", 2)),
    eliminate_at_zero=("body", "engine"),
    downshift_costs={
        2: {"fuel": 1},
        3: {"fuel": 1, "brakes": 1},
        4: {"fuel": 1, "brakes": 1, "engine": 1},
    },
    brake_pool="brakes",
    overshoot_pool="tires",
    blocked_costs={
        1: {"brakes": 1},
        2: {"brakes": 2},
        3: {"brakes": 3},
        4: {"brakes": 3, "tires": 1},
        5: {"brakes": 3, "tires": 2},
        6: {"brakes": 3, "tires": 3},
    },
    spin_pool="tires",
    collision_pool="body",
    collision_fail=1,
    engine_pool="engine",
    grid_order="low",
    start_flying_min=20,
    tie_break="previous",
    pit_restore=("tires", "brakes"),
)

PRESETS: dict[str, Preset] = {"basic": BASIC, "street": STREET, "advanced": ADVANCED}


def get_preset(preset: str | Preset = "basic", laps: int | None = None) -> Preset:
    """A preset by name (``basic``, ``street``, ``advanced``) or as given, with ``laps``.

    Examples
    --------
    >>> get_preset("advanced").model
    'advanced'
    >>> get_preset("basic", laps=2).laps
    2
    """
    if isinstance(preset, str):
        try:
            preset = PRESETS[preset]
        except KeyError:
            raise PresetError(
                f"no rules preset {preset!r}; choose one of {sorted(PRESETS)} "
                "or pass a Preset object"
            ) from None
    if laps is not None and laps != preset.laps:
        preset = preset.with_laps(laps)
    return preset
