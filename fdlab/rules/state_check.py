"""Does a race state fit its race? :func:`check_state` for states from outside.

A :class:`~fdlab.rules.state.RaceState` read from JSON (a saved position, a
lesson, a tampered file) is checked field by field by ``from_json``; this
module checks it against the board and the rules preset of an engine: one
car per space, spaces that exist, pools not above their start. States the
engine makes itself always pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fdlab.rules.errors import RuleTypeError, StateError
from fdlab.rules.state import OFF_BOARD, RaceState

if TYPE_CHECKING:
    from fdlab.rules.engine import Engine

__all__ = ["check_state"]


def check_state(engine: Engine, state: RaceState) -> None:
    """Raise :class:`StateError` if ``state`` cannot happen in ``engine``'s race.

    Examples
    --------
    >>> from fdlab.rules import Race
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), cars=2, seed=1)
    >>> data = race.state.to_json()
    >>> data["cars"][1]["space"] = data["cars"][0]["space"]
    >>> Race(race.track, cars=2, start=data)
    Traceback (most recent call last):
    ...
    fdlab.rules.errors.StateError: cars[1].space: Red is on space 0 with Blue (M-2: one car a space)
    """
    if not isinstance(state, RaceState):
        raise RuleTypeError(f"a race state is a RaceState, not {type(state).__name__}")
    names = engine.names
    if len(state.cars) != engine.n_cars:
        raise StateError(f"cars: the state has {len(state.cars)} cars, the race {engine.n_cars}")
    board = engine.board
    pools = engine.preset.pools
    holder: dict[int, int] = {}
    for c, car in enumerate(state.cars):
        where = f"cars[{c}]"
        if car.space >= len(board.ids):
            raise StateError(
                f"{where}.space: the board has spaces 0 to {len(board.ids) - 1} (indices), "
                f"not {car.space}"
            )
        if car.racing and state.phase in ("gear", "move") and car.space == OFF_BOARD:
            raise StateError(f"{where}.space: {names[c]} is racing, so it is on the board")
        if car.space != OFF_BOARD:
            if car.space in holder:
                other = names[holder[car.space]]
                raise StateError(
                    f"{where}.space: {names[c]} is on space {board.ids[car.space]!r} with "
                    f"{other} (M-2: one car a space)"
                )
            holder[car.space] = c
        if len(car.pools) != len(pools):
            raise StateError(
                f"{where}.pools: preset {engine.preset.name!r} has {len(pools)} pools "
                f"({', '.join(n for n, _ in pools)}), not {len(car.pools)}"
            )
        for value, (name, start) in zip(car.pools, pools, strict=True):
            if not 0 <= value <= start:
                raise StateError(
                    f"{where}.pools: {name} is {value}; it starts at {start} and never goes "
                    "above it or below 0 (D-1, A-1)"
                )
        if car.lap > engine.preset.laps + 1:
            raise StateError(f"{where}.lap: {car.lap} crossings in a {engine.preset.laps}-lap race")
