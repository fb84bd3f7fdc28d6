"""Immutable race state: the cars and whose turn it is.

A :class:`RaceState` is a frozen value. :meth:`fdlab.rules.engine.Engine.step`
(and :meth:`~fdlab.rules.engine.Engine.push`) takes one and an action and
returns a new one, sharing every unchanged car. Spaces are board indices (``board.ids[i]`` is the space id; ``-1``
means off the board: not yet on the grid, finished or eliminated).
``to_json``/``from_json`` round-trip through plain JSON types.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypeAlias, get_args

from fdlab.rules.errors import StateError, WrongPhaseError

#: A phase of a race (:data:`PHASES`).
Phase: TypeAlias = Literal["grid", "gear", "move", "over"]
#: Phases of a race. ``grid``: roll for the grid; ``gear``: the car on turn
#: chooses a gear; ``move``: it has rolled and chooses a move; ``over``: finished.
PHASES: tuple[Phase, ...] = get_args(Phase)

#: Car statuses.
RACING, FINISHED, ELIMINATED = "racing", "finished", "eliminated"
STATUSES = (RACING, FINISHED, ELIMINATED)

#: The highest gear (G-1).
TOP_GEAR = 6

OFF_BOARD = -1


@dataclass(frozen=True, slots=True)
class CarState:
    """One car: where it is, its gear, its damage pools and its flags.

    Attributes
    ----------
    space : int
        Board index of the car's space, ``-1`` when off the board.
    gear : int
        Current gear (1-6); 0 after a stalled start (S-2): 1st is the only
        choice next turn.
    pools : tuple of int
        Damage pools, in the order of ``preset.pools`` (SP, or the five WP).
    lap : int
        Finish-line crossings so far; the race is won on crossing number
        ``laps + 1`` from a grid behind the line (docs/schema.md).
    stops : int
        Stops made in the corner the car is in (C-2, C-6).
    status : str
        ``racing``, ``finished`` or ``eliminated``.
    started : bool
        The start roll has been made (S-2, S-3).
    spun : bool
        The car spun (A-3) and restarts in 1st gear next turn.
    nitro_lap : int
        The lap in which nitro was last used, ``-1`` if never (X-1).
    police : tuple of (int, int)
        ``(speed, stamp)`` of each police-line crossing (X-4); the stamp
        orders crossings in time (round * 100 + turn).
    pit_entry : float or None
        Race distance of the pit entry while the car is in the pit zone
        (P-6 ordering); ``None`` on the track.
    """

    space: int = OFF_BOARD
    gear: int = 1
    pools: tuple[int, ...] = ()
    lap: int = 0
    stops: int = 0
    status: str = RACING
    started: bool = False
    spun: bool = False
    nitro_lap: int = -1
    police: tuple[tuple[int, int], ...] = ()
    pit_entry: float | None = None

    @property
    def racing(self) -> bool:
        """Still in the race (neither finished nor eliminated)."""
        return self.status == RACING

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types."""
        data = asdict(self)
        data["pools"] = list(self.pools)
        data["police"] = [list(crossing) for crossing in self.police]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str = "car") -> CarState:
        """Inverse of :meth:`to_json`; every field is checked (:class:`StateError` names it).

        Missing fields take their defaults. Whether the car fits a board and
        a preset (its space exists, its pools are not above their start) is
        :func:`fdlab.rules.state_check.check_state`'s job.

        Examples
        --------
        >>> CarState.from_json({"space": 3, "gear": 9, "pools": [18]}, "cars[0]")
        Traceback (most recent call last):
        ...
        fdlab.rules.errors.StateError: cars[0].gear: must be a whole number from 0 to 6, not 9
        """
        if not isinstance(data, dict):
            raise StateError(f"{where}: must be an object, not {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise StateError(
                f"{where}.{unknown[0]}: unknown field; a car has {', '.join(sorted(known))}"
            )
        values = dict(data)
        checks: dict[str, tuple[Callable[[Any], bool], str]] = {
            "space": (lambda v: _whole(v, OFF_BOARD), f"a space index (>= {OFF_BOARD})"),
            "gear": (lambda v: _whole(v, 0, TOP_GEAR), f"a whole number from 0 to {TOP_GEAR}"),
            "lap": (lambda v: _whole(v, 0), "a whole number >= 0"),
            "stops": (lambda v: _whole(v, 0), "a whole number >= 0"),
            "status": (lambda v: v in STATUSES, f"one of {', '.join(STATUSES)}"),
            "started": (lambda v: isinstance(v, bool), "true or false"),
            "spun": (lambda v: isinstance(v, bool), "true or false"),
            "nitro_lap": (lambda v: _whole(v, -1), "a lap number (or -1: never)"),
            "pit_entry": (
                lambda v: v is None or (_number(v) and math.isfinite(v)),
                "null or a race distance",
            ),
        }
        for key, (ok, expected) in checks.items():
            if key in values and not ok(values[key]):
                raise StateError(f"{where}.{key}: must be {expected}, not {values[key]!r}")
        pools = values.get("pools", [])
        if not isinstance(pools, (list, tuple)) or not all(_whole(v) for v in pools):
            raise StateError(f"{where}.pools: must be a list of whole numbers, not {pools!r}")
        negative = [v for v in pools if v < 0]
        if negative:
            raise StateError(f"{where}.pools: a damage pool cannot go below 0, not {negative[0]}")
        police = values.get("police", [])
        if not isinstance(police, (list, tuple)) or not all(
            isinstance(c, (list, tuple)) and len(c) == 2 and all(_whole(v, 0) for v in c)
            for c in police
        ):
            raise StateError(
                f"{where}.police: must be a list of [speed, stamp] pairs, not {police!r}"
            )
        values["pools"] = tuple(pools)
        values["police"] = tuple(tuple(crossing) for crossing in police)
        return cls(**values)


@dataclass(frozen=True, slots=True)
class RaceState:
    """The whole race at one moment.

    Attributes
    ----------
    cars : tuple of CarState
        Indexed by car number - 1.
    phase : Phase
        ``grid`` (roll for the grid), ``gear`` (the car on turn chooses a
        gear), ``move`` (it has rolled and chooses a move) or ``over``.
    round : int
        Round number, 1 for the first round of moves.
    order : tuple of int
        Car indices in this round's turn order (T-1..T-4).
    turn : int
        Position in ``order`` of the car on turn.
    roll : int
        Spaces to move this turn (die result, plus nitro), in the ``move`` phase.
    die_roll : int
        The gear die result alone (police speed, engine trigger), 0 for a
        flying start.
    nitro : bool
        Nitro used this turn (X-1).
    finished : tuple of int
        Car indices in finishing order (S-4).
    eliminated : tuple of int
        Car indices in order of elimination.
    previous_order : tuple of int
        Last round's order (advanced tie break, T-3).
    police_awarded : int
        Police bonuses already awarded (one per lap, X-4).

    Examples
    --------
    >>> state = RaceState(cars=(CarState(pools=(18,)),) * 2)
    >>> RaceState.from_json(state.to_json()) == state
    True
    """

    cars: tuple[CarState, ...]
    phase: Phase = "grid"
    round: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0
    roll: int = 0
    die_roll: int = 0
    nitro: bool = False
    finished: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    previous_order: tuple[int, ...] = field(default=())
    police_awarded: int = 0

    @property
    def current(self) -> int | None:
        """Index of the car on turn, ``None`` outside the gear and move phases."""
        if self.phase in ("gear", "move"):
            return self.order[self.turn]
        return None

    @property
    def on_turn(self) -> int:
        """Index of the car on turn, for code that runs only in the gear and move phases.

        Raises
        ------
        WrongPhaseError
            In the grid phase or once the race is over (no car is on turn).

        Examples
        --------
        >>> RaceState(cars=(CarState(),), phase="gear", order=(0,)).on_turn
        0
        """
        if self.phase in ("gear", "move"):
            return self.order[self.turn]
        raise WrongPhaseError(f"no car is on turn in the {self.phase!r} phase")

    @property
    def over(self) -> bool:
        """Every car has finished or been eliminated."""
        return self.phase == "over"

    def occupied(self, skip: int | None = None) -> frozenset[int]:
        """Board indices holding a car, except car ``skip``."""
        return frozenset(
            car.space for i, car in enumerate(self.cars) if car.space >= 0 and i != skip
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types (lists, ints, strings, bools, floats, None)."""
        return {
            "cars": [car.to_json() for car in self.cars],
            "phase": self.phase,
            "round": self.round,
            "order": list(self.order),
            "turn": self.turn,
            "roll": self.roll,
            "die_roll": self.die_roll,
            "nitro": self.nitro,
            "finished": list(self.finished),
            "eliminated": list(self.eliminated),
            "previous_order": list(self.previous_order),
            "police_awarded": self.police_awarded,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RaceState:
        """Inverse of :meth:`to_json`; a tampered or broken state is refused.

        Every field is checked for its type and range, and the fields for
        each other (car numbers in ``order``, the car on turn still racing...);
        :class:`StateError` names the field. Whether the state fits a board and
        a preset is checked by :func:`fdlab.rules.state_check.check_state`
        (``Race(start=...)`` does both).

        Examples
        --------
        >>> good = RaceState(cars=(CarState(pools=(18,)),) * 2).to_json()
        >>> RaceState.from_json(good | {"phase": "lunch"})
        Traceback (most recent call last):
        ...
        fdlab.rules.errors.StateError: phase: must be one of grid, gear, move, over, not 'lunch'
        """
        if not isinstance(data, dict):
            raise StateError(f"a race state is an object, not {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        for key in names:
            if key not in data:
                raise StateError(f"{key}: missing (a race state has {', '.join(names)})")
        unknown = sorted(set(data) - set(names), key=str)
        if unknown:
            raise StateError(f"{unknown[0]}: unknown field; a race state has {', '.join(names)}")
        if not isinstance(data["cars"], (list, tuple)) or not data["cars"]:
            raise StateError(f"cars: must be a list of cars, not {data['cars']!r}")
        cars = tuple(CarState.from_json(c, f"cars[{i}]") for i, c in enumerate(data["cars"]))
        if data["phase"] not in PHASES:
            raise StateError(f"phase: must be one of {', '.join(PHASES)}, not {data['phase']!r}")
        for key in ("round", "turn", "roll", "die_roll", "police_awarded"):
            if not _whole(data[key], 0):
                raise StateError(f"{key}: must be a whole number >= 0, not {data[key]!r}")
        if not isinstance(data["nitro"], bool):
            raise StateError(f"nitro: must be true or false, not {data['nitro']!r}")
        lists = {}
        for key in ("order", "finished", "eliminated", "previous_order"):
            value = data[key]
            if not isinstance(value, (list, tuple)) or not all(
                _whole(c, 0, len(cars) - 1) for c in value
            ):
                raise StateError(
                    f"{key}: must be a list of car indices 0 to {len(cars) - 1}, not {value!r}"
                )
            if len(set(value)) != len(value):
                raise StateError(f"{key}: names a car twice: {value!r}")
            lists[key] = tuple(value)
        state = cls(
            cars=cars,
            phase=data["phase"],
            round=data["round"],
            order=lists["order"],
            turn=data["turn"],
            roll=data["roll"],
            die_roll=data["die_roll"],
            nitro=data["nitro"],
            finished=lists["finished"],
            eliminated=lists["eliminated"],
            previous_order=lists["previous_order"],
            police_awarded=data["police_awarded"],
        )
        _check_consistent(state)
        return state


def _check_consistent(state: RaceState) -> None:
    """The fields of a state agree with each other (whatever the board)."""
    cars = state.cars
    if state.phase in ("gear", "move"):
        if state.turn >= len(state.order):
            raise StateError(f"turn: {state.turn} is past the end of order {list(state.order)}")
        current = state.on_turn
        if not cars[current].racing:
            raise StateError(
                f"order: car {current} is on turn but {cars[current].status}, not racing"
            )
    for key, status in (("finished", FINISHED), ("eliminated", ELIMINATED)):
        listed = set(getattr(state, key))
        for c, car in enumerate(cars):
            if (car.status == status) != (c in listed):
                raise StateError(
                    f"{key}: car {c} is {car.status} but {'' if c in listed else 'not '}listed in {key}"
                )
    for c, car in enumerate(cars):
        if not car.racing and car.space != OFF_BOARD:
            raise StateError(f"cars[{c}].space: a {car.status} car is off the board ({OFF_BOARD})")


def _whole(value: Any, low: int | None = None, high: int | None = None) -> bool:
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
