"""Solving again after an edit: the move searches the edit did not touch are kept.

A designer changes a corner's stops, lengthens a corner, moves the grid, and
the board is solved again (the editor's verdict, ``fdlab suggest``, a par
seat). Most of a solve is the move search from every space
(:class:`fdlab.par.model.SoloModel`), and an edit changes only the searches
that can reach what it changed. This module remembers the searches of the
last few models solved in this process and hands a new model those that are
still valid:

* the boards must have the same spaces in the same order (an edit of
  attributes, not of the graph's shape); anything else is solved afresh;
* a space is *changed* when anything the board holds for it that a move
  can read differs (:func:`space_signatures`: its steps, corner and stop
  count, lane, kind, progress, contacts...), or when a space side by side
  with it changed (the M-4 test looks at neighbours); its grid number is
  not read (it only says where the race starts), so moving the grid keeps
  every search;
* a search from ``s`` reads only the spaces within its walk (and looks one
  step past its end), so it is kept when no changed space is within
  ``roll + 1`` spaces moved from ``s``, a tunnel pair counting as one space
  (:func:`untouched_spaces`).

The solver (:mod:`fdlab.par.solve`) keeps with each model its solution and
the option rows it made: a position that reaches the edit is valued again,
but when its own search was kept its rows are the earlier ones, only the
positions they lead to renumbered.

Costs (:func:`fdlab.rules.costs.move_cost`) depend on the option's braking,
overshoots and pit zone, never on the board itself, so a model's cost tables
carry over whole. The reuse changes nothing in the result: a test solves
edited boards with and without it and compares every value.

Examples
--------
>>> track = from_ascii(". . 1 1 . . . .", corners={1: 1}, grid=[0], finish=6)
>>> slower = track.copy()
>>> slower.corners[1]["stops"] = 2
>>> untouched_spaces(compile_board(track), compile_board(slower), reach=1).tolist()
[False, False, False, False, True, True, True, True]
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from fdlab.rules.board import STEP_TUNNEL, Board
from fdlab.rules.presets import Preset

if TYPE_CHECKING:
    from fdlab.par.model import SoloModel

__all__ = [
    "Earlier",
    "closest_model",
    "forget_models",
    "remember_model",
    "remembers",
    "space_signatures",
    "untouched_spaces",
]


@dataclass(frozen=True)
class Earlier:
    """A remembered model of an earlier version of a board, and what it can give a new one.

    Attributes
    ----------
    model : SoloModel
    untouched : ndarray of bool
        Per space of the new board: its searches are the earlier model's
        (:func:`untouched_spaces`).
    solved : object
        What the solver kept of the earlier model's solution (its values),
        ``None`` if it kept nothing.
    """

    model: SoloModel
    untouched: NDArray[np.bool_]
    solved: Any


#: Models remembered for reuse, with their solutions (the most recent last).
_KEPT = 3
_RECENT: deque[tuple[SoloModel, Any]] = deque(maxlen=_KEPT)
#: Solves run in background threads (the editor's verdict, a par seat): one at a time here.
_LOCK = threading.Lock()


def space_signatures(board: Board) -> list[tuple[Any, ...]]:
    """Everything the board holds for each space that a move can read, one tuple per index.

    Two boards whose spaces have equal signatures give the same move
    search from them (the search reads nothing else of the board). The grid
    number is left out: it says where the race starts (the solver's start
    positions), and no move reads it.

    Examples
    --------
    >>> board = compile_board(from_ascii(". 1 .", corners={1: 2}))
    >>> space_signatures(board)[1][3:5]
    (1, 2)
    """
    signatures = []
    for i in range(len(board.ids)):
        corner = board.corner[i]
        signatures.append(
            (
                board.ids[i],
                board.steps[i],
                board.moves[i],
                corner,
                None if corner is None else board.stops[corner],
                board.lane[i],
                board.progress[i],
                board.kind[i],
                board.hazard[i],
                board.tunnel[i],
                board.box[i],
                board.level[i],
                frozenset(board.touching[i]),  # its order follows the track's copy history
                frozenset(board.abreast[i]) if board.abreast else frozenset(),
                board.tunnel_exit[i] if board.tunnel_exit else -1,
                board.danger_space[i] if board.danger_space else False,
                tuple(board.step_lines.get((i, j), frozenset()) for j, _ in board.moves[i]),
            )
        )
    return signatures


def untouched_spaces(old: Board, new: Board, reach: int) -> NDArray[np.bool_] | None:
    """Per space of ``new``: no change of the edit lies within ``reach + 1`` spaces moved.

    ``reach`` is the farthest a car moves in one turn. ``None`` when the two
    boards do not have the same spaces in the same order, or a different
    lap length: then nothing is shared.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . ."))
    >>> untouched_spaces(board, board, reach=3).all()
    np.True_
    """
    if old.ids != new.ids or old.lap_length != new.lap_length:
        return None
    before, after = _signatures(old), _signatures(new)
    n = len(new.ids)
    changed = np.fromiter((a != b for a, b in zip(before, after, strict=True)), bool, n)
    # M-4 looks at the spaces side by side with those on the way
    for i in np.flatnonzero(changed).tolist():
        for board in (old, new):
            for j in board.abreast[i] if board.abreast else ():
                changed[j] = True
    # spaces from which a changed one is within reach: walk the steps backwards, a tunnel
    # step free (its pair of portals is one space moved), every other step one space
    back: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for board in (old, new):
        for v in range(n):
            for j, code in board.moves[v]:
                back[j].append((v, 0 if code == STEP_TUNNEL else 1))
    distance = np.where(changed, 0, reach + 2)
    queue = deque(np.flatnonzero(changed).tolist())
    while queue:
        j = queue.popleft()
        for v, cost in back[j]:
            d = distance[j] + cost
            if d < distance[v] and d <= reach + 1:
                distance[v] = d
                if cost:
                    queue.append(v)
                else:
                    queue.appendleft(v)
    untouched: NDArray[np.bool_] = distance > reach + 1
    return untouched


_SIGNED: dict[int, tuple[Board, list[tuple[Any, ...]]]] = {}


def _signatures(board: Board) -> list[tuple[Any, ...]]:
    """:func:`space_signatures`, kept for the boards of the remembered models."""
    kept = _SIGNED.get(id(board))
    if kept is not None and kept[0] is board:
        return kept[1]
    signatures = space_signatures(board)
    with _LOCK:
        live = {id(model.board) for model, _ in _RECENT} | {id(board)}
        for key in [k for k in _SIGNED if k not in live]:
            del _SIGNED[key]
        _SIGNED[id(board)] = (board, signatures)
    return signatures


def remember_model(model: SoloModel, solved: Any = None) -> None:
    """Keep ``model``'s searches (and ``solved``, its solution) for the next models of this process.

    Only the last few models are kept.

    Examples
    --------
    >>> forget_models()
    """
    with _LOCK:
        for kept in [k for k in _RECENT if k[0] is model]:
            _RECENT.remove(kept)
        _RECENT.append((model, solved))


def remembers(board: Board, preset: Preset, box_slot: int = 1) -> bool:
    """Whether a model of ``board`` as it is now (every space alike) is remembered.

    Then the solves of its edited versions reuse it; when a cache gave the
    board's table, no model is behind it (:func:`fdlab.par.table.solve_to_reuse`).

    Examples
    --------
    >>> forget_models()
    >>> board = compile_board(from_ascii(". . . . . . . .", grid=[0], finish=3))
    >>> remembers(board, BASIC)
    False
    >>> from fdlab.par.model import SoloModel
    >>> remember_model(SoloModel(board, BASIC))
    >>> remembers(board, BASIC), remembers(compile_board(board.track), BASIC)
    (True, True)
    """
    with _LOCK:
        recent = [model for model, _ in _RECENT]
    for model in recent:
        if model.preset != preset or model.box_slot != box_slot:
            continue
        if model.board is board or (
            model.board.ids == board.ids and _signatures(model.board) == _signatures(board)
        ):
            return True
    return False


def closest_model(board: Board, preset: Preset, box_slot: int, reach: int) -> Earlier | None:
    """The remembered model that shares the most searches with a model of ``board``.

    Only models of the same preset, box slot and widest roll qualify;
    ``None`` when no remembered model shares any search.

    Examples
    --------
    >>> forget_models()
    >>> closest_model(compile_board(from_ascii(". . .")), BASIC, 1, 30) is None
    True
    """
    with _LOCK:
        recent = list(_RECENT)
    best: Earlier | None = None
    for model, solved in reversed(recent):
        if model.preset != preset or model.box_slot != box_slot or model.max_roll != reach:
            continue
        untouched = untouched_spaces(model.board, board, reach)
        if untouched is None or not untouched.any():
            continue
        if best is None or untouched.sum() > best.untouched.sum():
            best = Earlier(model, untouched, solved)
    if best is not None:  # the last used is the last forgotten (the board before the edits)
        remember_model(best.model, best.solved)
    return best


def forget_models() -> None:
    """Forget the remembered models (the next solve starts cold).

    Examples
    --------
    >>> forget_models()
    """
    with _LOCK:
        _RECENT.clear()
        _SIGNED.clear()
