"""Immutable race state: the cars and whose turn it is.

A :class:`RaceState` is a frozen value. :func:`fdlab.rules.engine.step`
takes one and an action and returns a new one, sharing every unchanged
car. Spaces are board indices (``board.ids[i]`` is the space id; ``-1``
means off the board: not yet on the grid, finished or eliminated).
``to_json``/``from_json`` round-trip through plain JSON types.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: Phases of a race.
PHASES = ("grid", "gear", "move", "over")

#: Car statuses.
RACING, FINISHED, ELIMINATED = "racing", "finished", "eliminated"

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
    def from_json(cls, data: dict[str, Any]) -> CarState:
        """Inverse of :meth:`to_json`."""
        values = dict(data)
        values["pools"] = tuple(values["pools"])
        values["police"] = tuple(tuple(crossing) for crossing in values.get("police", ()))
        return cls(**values)


@dataclass(frozen=True, slots=True)
class RaceState:
    """The whole race at one moment.

    Attributes
    ----------
    cars : tuple of CarState
        Indexed by car number - 1.
    phase : str
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
    phase: str = "grid"
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
        ValueError
            In the grid phase or once the race is over (no car is on turn).

        Examples
        --------
        >>> RaceState(cars=(CarState(),), phase="gear", order=(0,)).on_turn
        0
        """
        if self.phase in ("gear", "move"):
            return self.order[self.turn]
        raise ValueError(f"no car is on turn in the {self.phase!r} phase")

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
        """Inverse of :meth:`to_json`."""
        return cls(
            cars=tuple(CarState.from_json(c) for c in data["cars"]),
            phase=data["phase"],
            round=data["round"],
            order=tuple(data["order"]),
            turn=data["turn"],
            roll=data["roll"],
            die_roll=data["die_roll"],
            nitro=data["nitro"],
            finished=tuple(data["finished"]),
            eliminated=tuple(data["eliminated"]),
            previous_order=tuple(data["previous_order"]),
            police_awarded=data["police_awarded"],
        )
