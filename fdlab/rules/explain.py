"""Why a destination is not a legal move, in plain words with the clause id.

:func:`explain_illegal` reruns the move search of
:mod:`fdlab.rules.movement` with rules switched off one at a time (cars,
then the lane-change limit, then zig-zag, then the lane lock after an
overshoot) and names the first rule that makes the destination unreachable.
It is meant for error messages and lessons, not for the hot path.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

from fdlab.rules.board import STEP_TUNNEL, Board
from fdlab.rules.movement import FREE_RUN, MovementError, MoveRules, move_options

__all__ = ["explain_illegal"]


def explain_illegal(
    board: Board,
    start: int,
    roll: int,
    destination: int,
    rules: MoveRules = FREE_RUN,
) -> str | None:
    """Say why ``destination`` cannot end a move of ``roll`` from ``start``.

    Parameters
    ----------
    board, start, roll
        As for :func:`fdlab.rules.movement.move_options`.
    destination : int
        Board index of the requested final space.
    rules : MoveRules
        As for :func:`fdlab.rules.movement.move_options`.

    Returns
    -------
    str or None
        None when the destination is legal (braking included); otherwise one
        sentence naming the spaces by id and the rule clause (M-1, M-2, M-3,
        M-4, M-5, M-6, C-5, P-2...).

    Raises
    ------
    MovementError
        When ``start`` or ``destination`` is not a board index.

    Examples
    --------
    >>> from fdlab.rules.movement import MoveRules
    >>> board = compile_board(from_ascii('''
    ...     . . . . .
    ...     . . . . .
    ... '''))
    >>> print(explain_illegal(board, 0, 2, 4, MoveRules(occupied=frozenset({2, 3}))))
    every way to space 4 with at most 2 spaces passes through a car (on space 2): no jumping over cars (M-2)
    >>> explain_illegal(board, 0, 2, 4) is None
    True
    """
    n = len(board.ids)
    if not isinstance(destination, int) or not 0 <= destination < n:
        raise MovementError(f"destination {destination!r} is not a board index (0..{n - 1})")
    ids = board.ids
    here, there = repr(ids[start]), repr(ids[destination])
    occupied, own_box, max_lane_changes = rules.occupied, rules.own_box, rules.max_lane_changes

    def routes(**changes: Any) -> list[Any]:
        options = move_options(board, start, roll, replace(rules, **changes))
        return [o for o in options if o.destination == destination]

    if routes():
        return None
    if destination in occupied and destination != start:
        return f"space {there} is occupied by another car: a move may not end on a car (M-2)"
    exit_portal = board.tunnel_exit[destination]
    if exit_portal >= 0:
        return (
            f"space {there} is a tunnel entry: a move that reaches it continues from the "
            f"exit, space {ids[exit_portal]!r}, and cannot end there (M-6)"
        )
    if board.kind[destination] == "box" and destination != own_box:
        return (
            f"space {there} is the box of car {board.box[destination]}: a car may only "
            f"enter its own box (P-2)"
        )

    relaxed = {
        "cars_block": False,
        "no_zigzag": False,
        "lane_lock": False,
        "max_lane_changes": roll + 1,
    }
    if not routes(**relaxed, pit_allowed=True):
        return _unreachable(board, start, roll, destination)
    if not routes(**relaxed):
        return (
            f"space {there} can only be reached through the pit lane, which this car may "
            f"not enter now (P-2: only between laps; P-7: not on the last lap nor from the grid)"
        )
    free = routes(**relaxed)
    if not routes(**{**relaxed, "cars_block": True}):
        cars = sorted({repr(ids[i]) for o in free for i in o.path if i in occupied})
        on = f" (on space {', '.join(cars)})" if cars else ""
        return (
            f"every way to space {there} with at most {roll} spaces passes through a car"
            f"{on}: no jumping over cars (M-2)"
        )
    del relaxed["cars_block"]
    if not routes(**{**relaxed, "max_lane_changes": max_lane_changes}):
        return (
            f"space {there} needs more than {max_lane_changes} lane change(s) on straights "
            f"from space {here}; at most {max_lane_changes} are allowed in one move (M-3)"
        )
    del relaxed["max_lane_changes"]
    if not routes(**{**relaxed, "no_zigzag": True}):
        return (
            f"every way to space {there} changes lane and comes back to the lane it left "
            f"without overtaking a car there: no zig-zag on straights (M-4)"
        )
    overshot = sorted({repr(x.corner) for o in routes(**relaxed) for x in o.overshoots})
    corners = ", ".join(overshot) or "a corner"
    return (
        f"after overshooting corner {corners} the car may not change lane for the rest of "
        f"the move, and space {there} is not ahead in its lane (C-5)"
    )


def _unreachable(board: Board, start: int, roll: int, destination: int) -> str:
    """The message for a destination that no walk of at most ``roll`` spaces reaches."""
    ids = board.ids
    here, there = repr(ids[start]), repr(ids[destination])
    distance = _distance(board, start, destination)
    ahead = board.progress[destination] - board.progress[start]
    behind = -ahead
    if board.wraps and board.lap_length > 0:  # on an open board nothing wraps round the lap
        ahead %= board.lap_length
        behind %= board.lap_length
    if behind > 0 and (ahead <= 0 or behind < ahead):
        return (
            f"space {there} is behind space {here}: cars move forward along the track and "
            f"never reverse (M-1)"
        )
    near = 0 < ahead <= roll
    corner = board.corner[destination]
    if near and (distance is None or distance > roll) and corner is not None:
        return (
            f"no arrow of corner {corner!r} leads from space {here} to space {there} within "
            f"{roll} spaces: inside a corner a car may only follow the arrows (M-5)"
        )
    if distance is None:
        return (
            f"no steps lead from space {here} to space {there}: cars move forward along the "
            f"track and never reverse (M-1)"
        )
    if distance > roll:
        return (
            f"space {there} is too far ahead: {distance} spaces from space {here}, and the "
            f"roll is {roll} (M-1)"
        )
    return (
        f"space {there} is {distance} spaces from space {here}, but no walk of {roll} "
        f"spaces along the steps ends there (M-1)"
    )


def _distance(board: Board, start: int, destination: int) -> int | None:
    """Fewest spaces from start to destination along any steps (tunnels free), or None."""
    best = {start: 0}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for j, code in board.moves[v]:
            cost = best[v] + (0 if code == STEP_TUNNEL else 1)
            if j not in best or cost < best[j]:
                best[j] = cost
                if cost == best[v]:
                    queue.appendleft(j)
                else:
                    queue.append(j)
    return best.get(destination)
