"""Undo and redo of centreline point drags, in turn with the board's own edits.

A dragged centreline point is not an edit of the board (the board follows
the line only at the next *Rebuild from centreline*), so the controller's
history does not hold it. Yet a designer who drags the wrong point and
presses *Undo* expects the point back, not the board edit made before it.
:class:`LineMoves` keeps the drags beside the controller's history: each
drag remembers which board edit was the last one when it was made (its
*marker*), and *Undo* takes the drag back exactly while that edit is still
the last one, so drags and board edits are undone in the order they were
made.

Examples
--------
>>> moves = LineMoves()
>>> first, second = object(), object()  # two edits of the board
>>> moves.moved([(0.0, 0.0), (5.0, 0.0)], [(0.0, 0.0), (6.0, 1.0)], marker=first)
>>> moves.can_undo(second)  # a board edit came after the drag: it goes first
False
>>> moves.can_undo(first)
True
>>> moves.undo()
[(0.0, 0.0), (5.0, 0.0)]
>>> moves.can_redo(first), moves.redo()
(True, [(0.0, 0.0), (6.0, 1.0)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["LineMoves"]

Points = list[tuple[float, float]]


@dataclass(frozen=True)
class _Move:
    marker: object
    before: Points
    after: Points


class LineMoves:
    """The centreline drags that *Undo* and *Redo* can take back and make again."""

    def __init__(self) -> None:
        self._undo: list[_Move] = []
        self._redo: list[_Move] = []

    def moved(
        self,
        before: Sequence[tuple[float, float]],
        after: Sequence[tuple[float, float]],
        marker: object,
    ) -> None:
        """Remember a drag that changed the line from ``before`` to ``after``.

        ``marker`` is the board's last edit at the time
        (:attr:`fdlab.editor.controller.EditorController.last_edit`), compared
        by identity.
        """
        self._undo.append(_Move(marker, list(before), list(after)))
        self._redo.clear()

    def board_edited(self) -> None:
        """A new board edit was made: the drags taken back can no longer be made again.

        Examples
        --------
        >>> moves = LineMoves()
        >>> moves.moved([(0.0, 0.0)], [(1.0, 0.0)], marker=None)
        >>> _ = moves.undo(); moves.board_edited(); moves.can_redo(None)
        False
        """
        self._redo.clear()

    def can_undo(self, marker: object) -> bool:
        """Whether *Undo* now takes back a drag (no board edit came after the last one)."""
        return bool(self._undo) and self._undo[-1].marker is marker

    def can_redo(self, marker: object) -> bool:
        """Whether *Redo* now makes a drag again (the board is back where it was then)."""
        return bool(self._redo) and self._redo[-1].marker is marker

    def undo(self) -> Points:
        """Take the last drag back; the line as it was before it."""
        move = self._undo.pop()
        self._redo.append(move)
        return list(move.before)

    def redo(self) -> Points:
        """Make the last drag taken back again; the line as it was after it."""
        move = self._redo.pop()
        self._undo.append(move)
        return list(move.after)

    def clear(self) -> None:
        """Forget every drag (another board was opened)."""
        self._undo.clear()
        self._redo.clear()
