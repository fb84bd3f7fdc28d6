"""What a move costs a healthy car, by kind of move and braking: the look-ahead's price table.

A bot weighing a gear prices every option of every face of the die. The
certain cost of an option (:func:`fdlab.rules.costs.move_cost`) reads only
its *kind* (overshoots, whether it ends in the box, whether it starts or
ends in the pit zone, whether it crosses the finish line and the car is on
its last lap) and how far it brakes, blocked or not. So the prices of a
healthy car (full pools: the pool left then decides elimination, as in the
solver) form a table by ``(kind, blocked, braked)``, filled as kinds and
braking amounts are met and shared by every bot on the same board under the
same rules.
"""

from __future__ import annotations

import weakref
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from fdlab.rules.board import Board
from fdlab.rules.costs import move_cost
from fdlab.rules.movement import MoveOption, Overshoot
from fdlab.rules.presets import Preset
from fdlab.rules.state import CarState

__all__ = ["HealthyPrices", "prices_for"]

#: Kinds kept before a table starts afresh (a bot driving for ever).
KINDS_KEPT = 50_000

#: A kind of move: ``(overshoots, boxed, starts or ends in the pit zone, crosses the finish
#: line, on the last lap)`` (:meth:`HealthyPrices.kind_ids`).
_Kind: TypeAlias = tuple[tuple[Overshoot, ...], bool, bool, bool, bool]


class HealthyPrices:
    """The table of healthy-car move costs for one board and one preset.

    Examples
    --------
    >>> from fdlab.rules.movement import move_options
    >>> board = compile_board(from_ascii(". . . . ."))
    >>> prices = HealthyPrices(board, BASIC)
    >>> kinds = np.array(prices.kind_ids(move_options(board, 0, 1)[:1], False, True))
    >>> car = CarState(space=0, pools=(18,))
    >>> loss, doomed = prices.losses(car, kinds, np.array([[3]]), np.array([[False]]))
    >>> int(loss[0, 0]), bool(doomed[0, 0])  # braking 3 costs 3 SP (D-3)
    (3, False)
    """

    def __init__(self, board: Board, preset: Preset) -> None:
        self.board = board
        self.preset = preset
        self._kinds: dict[_Kind, int] = {}
        self._examples: list[MoveOption] = []
        self._table = np.full((0, 2, 0), -1, dtype=np.int64)

    def kind_ids(self, options: list[MoveOption], pit_start: bool, last_lap: bool) -> list[int]:
        """The table row of each option's kind of move (``pit_start``: the car starts in the pit zone).

        A kind is ``(overshoots, boxed, starts or ends in the pit zone,
        crosses the finish line, on the last lap)``; the first option met of
        a kind stands for it when its prices are worked out.

        Examples
        --------
        >>> from fdlab.rules.movement import move_options
        >>> board = compile_board(from_ascii(". . . . ."))
        >>> prices = HealthyPrices(board, BASIC)
        >>> prices.kind_ids(move_options(board, 0, 2), False, True)  # three moves of one kind
        [0, 0, 0]
        """
        kinds = self._kinds
        examples = self._examples
        pit_zone = self.board.kind
        found = []
        for option in options:
            pit = pit_start or pit_zone[option.destination] != "track"  # in_pit_zone, inlined
            kind = (option.overshoots, option.boxed, pit, "finish" in option.lines, last_lap)
            known = kinds.get(kind)
            if known is None:
                known = kinds[kind] = len(examples)
                examples.append(option)
            found.append(known)
        return found

    def losses(
        self,
        healthy: CarState,
        kinds: NDArray[np.int64],
        braked: NDArray[np.int64],
        blocked: NDArray[np.bool_],
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """Loss and "eliminates whatever the pool" of each (row, option) cell.

        ``kinds`` holds one row number per option (:meth:`kind_ids`), ``braked`` and ``blocked``
        one value per cell. The entries the table lacks are priced first
        (``move_cost`` for ``healthy``, the car at the start with full pools).
        """
        width = braked.size and int(braked.max()) + 1
        rows = len(self._examples)
        table = self._table
        if table.shape[0] < rows or table.shape[2] < width:
            grown = np.full(
                (max(rows, 2 * table.shape[0]), 2, max(width, table.shape[2])), -1, dtype=np.int64
            )
            grown[: table.shape[0], :, : table.shape[2]] = table
            table = self._table = grown
        flag = blocked.astype(np.int64)
        found = table[kinds, flag, braked]
        missing = found < 0
        if missing.any():
            row = np.broadcast_to(kinds, braked.shape)
            cells = zip(
                row[missing].tolist(), flag[missing].tolist(), braked[missing].tolist(), strict=True
            )
            for kind, was_blocked, amount in set(cells):
                example = self._examples[kind]
                if example.braked != amount or example.blocked != bool(was_blocked):
                    example = example._replace(braked=amount, blocked=bool(was_blocked))
                cost = move_cost(self.board, self.preset, healthy, example)
                eliminates = cost.eliminated or not cost.allowed
                table[kind, was_blocked, amount] = 2 * cost.total + eliminates
            found = table[kinds, flag, braked]
        return found >> 1, (found & 1).astype(bool)

    def __repr__(self) -> str:
        return f"<HealthyPrices {self.preset.name}: {len(self._examples)} kinds of move>"


#: Board -> preset id -> its table (presets compared by identity).
_PRICES: weakref.WeakKeyDictionary[Board, dict[int, HealthyPrices]] = weakref.WeakKeyDictionary()


def prices_for(board: Board, preset: Preset) -> HealthyPrices:
    """The price table every bot on ``board`` under ``preset`` shares.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . ."))
    >>> prices_for(board, BASIC) is prices_for(board, BASIC)
    True
    """
    by_preset = _PRICES.get(board)
    if by_preset is None:
        by_preset = _PRICES[board] = {}
    prices = by_preset.get(id(preset))
    if prices is None or prices.preset is not preset or len(prices._examples) >= KINDS_KEPT:
        prices = by_preset[id(preset)] = HealthyPrices(board, preset)
    return prices
