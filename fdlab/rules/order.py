"""Turn order (T-1..T-4, P-6) and the geometry it needs.

Race order is by race distance (laps done times lap length plus the space's
progress), then gear (T-2), then the tie break of the preset (T-3), for cars
on the same progress and for cars side by side (the board's
:attr:`~fdlab.rules.board.Board.beside`, which in corners differ in progress): the car
nearer the inside of the next corner (basic) or the car that played first
last round (advanced). Cars in the pit zone play after the track cars that
are level with or past the pit entry (P-6).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from fdlab.rules.board import Board
from fdlab.rules.state import CarState
from fdlab.track.model import CornerId


def race_distance(board: Board, car: CarState) -> float:
    """Laps done times the lap length plus the progress of the car's space.

    Never decreases along a race: progress rises along every step except the
    one crossing the finish line, which adds a lap.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . .", closed=True))
    >>> race_distance(board, CarState(space=board.index[3], lap=0))
    3.0
    >>> race_distance(board, CarState(space=board.index[1], lap=1))
    5.0
    """
    return car.lap * board.lap_length + board.progress[car.space]


def corner_turns(board: Board) -> dict[Any, Any]:
    """Corner id -> +1 for a left-hand corner, -1 for a right-hand one, 0 if straight.

    The turn is the sign of the cross product of the heading into the corner
    (from the spaces before it to the corner's centre) and the heading out of
    it (from the centre to the spaces after it).

    Examples
    --------
    >>> corner_turns(compile_board(from_ascii(". 1 .", corners={1: 1})))
    {1: 0}
    """
    nodes = board.track.graph.nodes
    members: dict[Any, Any] = {}
    for i, c in enumerate(board.corner):
        if c is not None:
            members.setdefault(c, []).append(i)

    def centre(indices: Sequence[int]) -> tuple[float, float] | None:
        if not indices:
            return None
        xs = [nodes[board.ids[i]]["x"] for i in indices]
        ys = [nodes[board.ids[i]]["y"] for i in indices]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    predecessors: dict[int, list[int]] = {}
    for i, steps in enumerate(board.steps):
        for j, _, _ in steps:
            predecessors.setdefault(j, []).append(i)
    turns = {}
    for c, inside in members.items():
        before = sorted(
            {p for i in inside for p in predecessors.get(i, ()) if board.corner[p] != c}
        )
        after = sorted({j for i in inside for j, _, _ in board.steps[i] if board.corner[j] != c})
        p, m, n = centre(before), centre(inside), centre(after)
        if p is None or n is None or m is None:
            turns[c] = 0
            continue
        cross = (m[0] - p[0]) * (n[1] - m[1]) - (m[1] - p[1]) * (n[0] - m[0])
        turns[c] = 1 if cross > 1e-9 else -1 if cross < -1e-9 else 0
    return turns


def next_corners(board: Board) -> tuple[CornerId | None, ...]:
    """Per index, the corner the car is in or the next one ahead (``None`` if none).

    Follows the first step out of each space (an ``ahead`` step when there is
    one).

    Examples
    --------
    >>> board = compile_board(from_ascii(". . 1 .", corners={1: 1}))
    >>> next_corners(board)
    (1, 1, 1, None)
    """
    n = len(board.ids)
    result: list[CornerId | None] = [None] * n
    done = [False] * n
    for i in range(n):
        chain = []
        j = i
        seen = set()
        while not done[j] and board.corner[j] is None and j not in seen:
            seen.add(j)
            chain.append(j)
            steps = board.steps[j]
            ahead = [k for k, kind, _ in steps if kind == "ahead"] or [k for k, _, _ in steps]
            if not ahead:
                break
            j = ahead[0]
        if done[j]:
            found = result[j]
        elif board.corner[j] is not None:
            found = board.corner[j]
        else:
            found = None
        for k in chain:
            result[k] = found
            done[k] = True
        if board.corner[i] is not None:
            result[i] = board.corner[i]
            done[i] = True
    return tuple(result)


def inside_ranks(board: Board) -> tuple[Any, ...]:
    """Per index, a number that is smaller nearer the inside of the next corner (T-3).

    Lane 0 is the leftmost lane: inside for a left-hand corner; for a
    right-hand corner the highest lane is inside. Decision (T-3): a straight
    "corner" counts as left-hand.

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . 1 .
    ...     . 1 .
    ... ''', corners={1: 1}))
    >>> inside_ranks(board)[:2]  # lanes 0 and 1 of the first column
    (0, 1)
    """
    ranks = _INSIDE.get(board)
    if ranks is None:
        turns = corner_turns(board)
        nxt = next_corners(board)
        ranks = _INSIDE[board] = tuple(
            -board.lane[i] if nxt[i] is not None and turns.get(nxt[i], 0) < 0 else board.lane[i]
            for i in range(len(board.ids))
        )
    return ranks


#: Board -> its inside ranks (boards are immutable; every race's engine asks).
_INSIDE: weakref.WeakKeyDictionary[Board, tuple[Any, ...]] = weakref.WeakKeyDictionary()


def turn_order(
    board: Board,
    cars: Sequence[CarState],
    *,
    inside: Sequence[int],
    tie_break: str = "inside",
    previous: Sequence[int] = (),
) -> tuple[int, ...]:
    """Indices of the racing cars in playing order for a new round (T-1..T-4, P-6).

    Parameters
    ----------
    board : Board
    cars : sequence of CarState
    inside : sequence of int
        :func:`inside_ranks` of the board.
    tie_break : {"inside", "previous"}
        T-3 rule of the preset.
    previous : sequence of int
        Last round's order (for ``"previous"``).

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . . .
    ...     . . . .
    ... '''))
    >>> cars = [CarState(space=2, gear=2), CarState(space=3, gear=3), CarState(space=6)]
    >>> turn_order(board, cars, inside=inside_ranks(board))  # T-1, then T-2
    (2, 1, 0)
    """
    rank_previous = {c: k for k, c in enumerate(previous)}

    def key(c: int) -> tuple[Any, ...]:
        car = cars[c]
        distance = round(race_distance(board, car), 6)
        primary = distance if car.pit_entry is None else round(car.pit_entry, 6) - 0.5
        if tie_break == "previous":
            tie = rank_previous.get(c, len(previous) + c)
        else:
            tie = inside[car.space]
        return (-primary, -distance, -car.gear, tie, c)

    racing = [c for c, car in enumerate(cars) if car.racing and car.space >= 0]
    order = sorted(racing, key=key)
    # T-2/T-3 for cars side by side whose spaces differ in progress (corners): the
    # higher gear, then the tie break, plays first. Only neighbours in the order that
    # are side by side swap, so a car never passes one it is not beside.
    beside = board.beside

    def second(c: int) -> tuple[Any, ...]:
        return key(c)[2:4]

    swapped = True
    while swapped:
        swapped = False
        for k in range(len(order) - 1):
            a, b = cars[order[k]], cars[order[k + 1]]
            if (
                a.pit_entry is None
                and b.pit_entry is None
                and b.space in beside[a.space]
                and second(order[k + 1]) < second(order[k])
            ):
                order[k], order[k + 1] = order[k + 1], order[k]
                swapped = True
    return tuple(order)
