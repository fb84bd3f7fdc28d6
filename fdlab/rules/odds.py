"""Exact odds a teacher can show: "38% to stop in this corner in 4th".

The gear die's chance outcomes (:meth:`fdlab.rules.dice.Die.chance_outcomes`)
are combined with the move generator: for each face, is there a legal move
that ends in the corner (its stop counting) at no more than a given
certain cost?
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from fdlab.rules.costs import move_cost
from fdlab.rules.engine import Engine
from fdlab.rules.movement import move_options_for_rolls
from fdlab.rules.order import next_corners
from fdlab.rules.presets import ordinal
from fdlab.rules.state import RaceState

_NEXT_CORNER_CACHE: dict[int, tuple[Any, ...]] = {}


def target_corner(engine: Engine, state: RaceState, car_index: int) -> Any:
    """The corner the car must stop in next: its own if stops are missing, else the next one.

    Returns ``None`` when no corner lies ahead.

    Examples
    --------
    >>> board = compile_board(from_ascii(". 1 1 . 2 .", corners={1: 2, 2: 1}))
    >>> engine = Engine(board, BASIC, ["A"])
    >>> target_corner(engine, engine.position([{"space": 1, "stops": 1}]), 0)
    1
    >>> target_corner(engine, engine.position([{"space": 2, "stops": 2}]), 0)
    2
    """
    board = engine.board
    car = state.cars[car_index]
    here = board.corner[car.space]
    if here is not None and car.stops < board.stops[here]:
        return here
    key = id(board)
    if key not in _NEXT_CORNER_CACHE or _NEXT_CORNER_CACHE[key][0] is not board:
        _NEXT_CORNER_CACHE[key] = (board, next_corners(board))
    table = _NEXT_CORNER_CACHE[key][1]
    if here is None:
        return table[car.space]
    # in a corner with its stops made: look past its spaces
    seen = {car.space}
    frontier = [car.space]
    while frontier:
        nxt = []
        for i in frontier:
            for j, _, _ in board.steps[i]:
                if j in seen:
                    continue
                seen.add(j)
                if board.corner[j] != here:
                    return table[j]
                nxt.append(j)
        frontier = nxt
    return None


def stop_odds(
    engine: Engine,
    state: RaceState,
    car_index: int,
    gear: int,
    *,
    corner: Any = None,
    max_damage: int = 0,
) -> Fraction:
    """Exact probability that, in ``gear``, the car can end its move in ``corner``.

    The move must be legal, its stop must count (C-2, C-5) and its certain
    cost (braking, overshoot) at most ``max_damage`` pool points; random
    damage (collisions) is not counted.

    Parameters
    ----------
    engine : Engine
    state : RaceState
    car_index : int
        The car (it need not be on turn; other cars stay where they are).
    gear : int
    corner : corner id, optional
        Default: :func:`target_corner`.
    max_damage : int

    Examples
    --------
    >>> from fdlab.rules.state import CarState, RaceState
    >>> board = compile_board(from_ascii(". . . . 1 1 . .", corners={1: 1}))
    >>> engine = Engine(board, BASIC, ["Solo"])
    >>> state = RaceState(cars=(CarState(space=0, pools=(18,)),), phase="gear", order=(0,))
    >>> stop_odds(engine, state, 0, 2)  # 2nd gear: only a 4 (1/2) reaches the corner
    Fraction(1, 2)
    """
    board = engine.board
    car = state.cars[car_index]
    if corner is None:
        corner = target_corner(engine, state, car_index)
    if corner is None:
        return Fraction(0)
    die = engine.preset.gear_dice[gear - 1]
    outcomes = die.chance_outcomes()
    rules = replace(engine.move_rules(state, car_index), pit_allowed=False)
    by_face = move_options_for_rolls(board, car.space, [v for v, _ in outcomes], rules)
    total = Fraction(0)
    probe = replace(car, gear=gear)
    for value, p in outcomes:
        for option in by_face[value]:
            if board.corner[option.destination] != corner or not option.stop_counts:
                continue
            cost = move_cost(board, engine.preset, probe, option)
            if cost.allowed and not cost.eliminated and cost.total <= max_damage:
                total += p
                break
    return total


@dataclass(frozen=True)
class GearOdds:
    """Odds of stopping in a corner for each gear, ready to show in a notebook.

    Attributes
    ----------
    corner : corner id
    car : str
    odds : dict
        Gear -> exact probability (:class:`fractions.Fraction`).
    max_damage : int
        The certain damage the stop may cost (0: a stop at no cost).
    """

    corner: object
    car: str
    odds: dict[Any, Any]
    max_damage: int = 0

    def __str__(self) -> str:
        return "\n".join(
            f"{float(p):.0%} to stop in corner {self.corner!r} in {ordinal(g)}"
            for g, p in self.odds.items()
        )

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import gear_odds_html

        return gear_odds_html(self)
