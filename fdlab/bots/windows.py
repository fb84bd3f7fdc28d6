"""How far away a corner is, in legal moves: the corner windows every heuristic reads.

A bot that wants to stop in a corner needs the fewest and the most spaces
after which a move can end in it. Walking the board's steps one by one
overstates that on boards where a lane change gains half a row: a walk may
change lanes at every step, a move may not (M-3: at most two lane changes
on straights; M-4: no zig-zag). So the windows here are read off the legal
moves themselves: one search of :func:`fdlab.rules.movement.move_options`
with a roll of :data:`HORIZON` spaces from the start, on an empty board
(cars come and go; they only take options away), lists every destination
with the spaces moved to reach it, for every braking amount at once.

Windows are cached per board (boards are immutable) and lane-change limit,
and shared by every bot in the process.
"""

from __future__ import annotations

import weakref

from fdlab.rules.board import Board
from fdlab.rules.movement import MoveRules, move_options
from fdlab.track.model import CornerId

__all__ = ["HORIZON", "corner_window", "corner_windows"]

#: Farthest look-ahead, in spaces moved, when measuring the way to a corner.
HORIZON = 40

#: Board -> {(start, max lane changes): {corner: (fewest, most)}}.
_CACHE: weakref.WeakKeyDictionary[Board, dict[tuple[int, int], dict[CornerId, tuple[int, int]]]] = (
    weakref.WeakKeyDictionary()
)


def corner_windows(
    board: Board, start: int, max_lane_changes: int = 2
) -> dict[CornerId, tuple[int, int]]:
    """Per corner ahead, the fewest and most spaces a legal move from ``start`` ends in it.

    The car is alone on the board and, if ``start`` is in a corner, has made
    its stops there (it may leave without overshooting). Only the first
    stretch of moves that end in a corner counts (a corner met again on a
    later lap within :data:`HORIZON` spaces is not listed twice). The corner
    of ``start`` itself has a window starting at 0.

    Parameters
    ----------
    board : Board
    start : int
        Board index of the car.
    max_lane_changes : int
        The preset's M-3 limit.

    Returns
    -------
    dict
        Corner id -> ``(fewest, most)`` spaces moved.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . 1 1 1 . . 2 .", corners={1: 2, 2: 1}))
    >>> corner_windows(board, 0)  # corner 2 only after stopping in corner 1 (C-5)
    {1: (3, 5)}
    >>> corner_windows(board, 4)  # in corner 1, its stops made
    {1: (0, 1), 2: (4, 4)}
    """
    per_board = _CACHE.get(board)
    if per_board is None:
        per_board = _CACHE[board] = {}
    key = (start, max_lane_changes)
    windows = per_board.get(key)
    if windows is None:
        windows = per_board[key] = _windows(board, start, max_lane_changes)
    return windows


def corner_window(
    board: Board, start: int, corner: CornerId, max_lane_changes: int = 2
) -> tuple[int, int] | None:
    """Fewest and most spaces of a legal move from ``start`` that ends in ``corner``.

    ``None`` when no legal move of at most :data:`HORIZON` spaces ends there.
    See :func:`corner_windows`.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . 1 1 1 . .", corners={1: 2}))
    >>> corner_window(board, 0, 1), corner_window(board, 4, 1), corner_window(board, 6, 1)
    ((3, 5), (0, 1), None)
    """
    return corner_windows(board, start, max_lane_changes).get(corner)


def _windows(board: Board, start: int, max_lane_changes: int) -> dict[CornerId, tuple[int, int]]:
    here = board.corner[start]
    rules = MoveRules(
        stops_made=board.stops[here] if here is not None else 0,
        max_lane_changes=max_lane_changes,
    )
    depths: dict[CornerId, set[int]] = {}
    for option in move_options(board, start, HORIZON, rules):
        corner = board.corner[option.destination]
        if corner is not None and option.stop_counts and not option.boxed:
            depths.setdefault(corner, set()).add(option.moved)
    windows = {}
    for corner, moved in depths.items():
        low = min(moved)
        high = low
        while high + 1 in moved:  # the first stretch only: not the same corner a lap later
            high += 1
        windows[corner] = (low, high)
    return dict(sorted(windows.items(), key=lambda item: item[1]))
