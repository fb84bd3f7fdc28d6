"""The solo solution as a compact table: what a bot needs, cheap to send to worker processes.

A :class:`ParTable` keeps, of a :class:`~fdlab.par.solve.ParSolution`, the
positions, the value of every ``(position, gear, pool)`` and the optimal
gear, and nothing of the model's option lists: a few hundred kilobytes
that pickle in milliseconds, so a playtest solves a board once and sends
the table to every worker. Its methods take the compiled board, which
every race has anyway.

:func:`solo_table` solves once per board *content* (a hash of the track's
JSON form, not the object), preset and pit box, and remembers the table
for the life of the process and on disk (:mod:`fdlab.par.store`), so a
new Python session reads the table of a board met before instead of
solving it again; :func:`remember` stores tables solved elsewhere (a
worker receiving them from the playtest's process) and
:func:`forget_tables` empties the in-memory cache.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from fdlab.par import store
from fdlab.par.approx import solo_preset
from fdlab.par.model import FINISHED, Position
from fdlab.rules.board import Board
from fdlab.rules.movement import MoveOption, after_move
from fdlab.rules.presets import Preset

__all__ = [
    "ParTable",
    "board_key",
    "forget_tables",
    "known_table",
    "remember",
    "solve_to_reuse",
    "solo_table",
    "table_key",
]

#: Successors a table remembers before it starts afresh (see :meth:`ParTable.successors`).
SUCCESSORS_KEPT = 200_000


class _Unseen(enum.Enum):
    """A successor not worked out yet (``None`` is an answer: the solver never went there)."""

    UNSEEN = enum.auto()


_UNSEEN: Final = _Unseen.UNSEEN


@dataclass
class ParTable:
    """Values and gears of the exact solo solution, indexed by position.

    Attributes
    ----------
    board_key : str
        :func:`board_key` of the board it was solved on.
    preset : Preset
        The preset the solver modelled (for the street and advanced rules a
        one-pool approximation, :func:`fdlab.par.approx.solo_preset`).
    box_slot : int
        The car number whose pit box the car uses.
    positions : tuple of (space, lap, stops)
    value : ndarray, shape (positions, gears + 1, pool + 1)
        Expected turns still to play (plus the elimination penalty).
    gear_policy : ndarray of int8, same shape
    par, finish_probability, elimination_penalty : float
    """

    board_key: str
    preset: Preset
    box_slot: int
    positions: tuple[Position, ...]
    value: NDArray[np.float64]
    gear_policy: NDArray[np.int8]
    par: float
    finish_probability: float
    elimination_penalty: float
    index: dict[Position, int] = field(default_factory=dict, repr=False)
    #: A bot's copy of :attr:`value` as nested lists (:meth:`fdlab.bots.parbot.ParBot._rows`),
    #: set on first use, never pickled: absent until then (no default, not an argument).
    _rows_list: list[list[list[float]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.index:
            self.index = {position: p for p, position in enumerate(self.positions)}
        self.pool_max = self.preset.pool_max[0]
        self.dies_at_zero = self.preset.pool_names[0] in self.preset.eliminate_at_zero
        self.restores = self.preset.pool_names[0] in self.preset.pit_restore
        self._successors: dict[tuple[int, int, int], dict[tuple[int, ...], int | None]] = {}
        self._remembered = 0

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["index"] = {}  # rebuilt on arrival: half the size
        state["_successors"] = {}  # a memo of this process
        state["_remembered"] = 0
        state.pop("_rows_list", None)  # a bot's copy of the values as lists
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.index = {position: p for p, position in enumerate(self.positions)}
        self._successors = {}
        self._remembered = 0

    def cap(self, board: Board, space: int, stops: int) -> int:
        """Stops capped at the requirement of the space's corner (0 off corners)."""
        corner = board.corner[space]
        return 0 if corner is None else min(stops, board.stops[corner])

    def position_index(self, board: Board, space: int, lap: int, stops: int) -> int | None:
        """Index of a position, ``None`` if a lone car never gets there."""
        return self.index.get((space, lap, self.cap(board, space, stops)))

    def best_gear(
        self, board: Board, space: int, lap: int, stops: int, gear: int, pool: int
    ) -> int | None:
        """The optimal gear, or ``None`` where the solver never went."""
        p = self.position_index(board, space, lap, stops)
        if p is None or not 1 <= pool <= self.pool_max:
            return None
        return int(self.gear_policy[p, gear, pool]) or None

    def successor(
        self, board: Board, space: int, lap: int, stops: int, option: MoveOption
    ) -> int | None:
        """Index of the position ``option`` leads to, :data:`~fdlab.par.model.FINISHED`, or None.

        A position the solver never reached (a stop count only traffic
        gives) falls back to the same space with fewer stops counted.
        ``option`` is one of the moves of a car on ``space`` with ``stops``
        made (see :meth:`successors`).
        """
        return self.successors(board, space, lap, stops, (option,))[0]

    def successors(
        self, board: Board, space: int, lap: int, stops: int, options: Iterable[MoveOption]
    ) -> list[int | None]:
        """:meth:`successor` of each of a car's options: a move list in one call.

        The options are moves of a car on ``space`` with ``stops`` made (a
        move list's), so a path decides the rest: the answers are remembered
        by ``(space, lap, stops)`` and path, and races on the same board ask
        again and again.

        Examples
        --------
        >>> from fdlab.rules.movement import move_options
        >>> board = compile_board(from_ascii(". . . . . . . .", grid=[0], finish=3))
        >>> table = solo_table(board, BASIC)
        >>> options = move_options(board, 0, 4)  # 4, 3, 2, 1 or 0 spaces
        >>> [q == FINISHED for q in table.successors(board, 0, 1, 0, options)]  # line after 3
        [True, True, False, False, False]
        """
        by_start = self._successors.get((space, lap, stops))
        if by_start is None:
            if self._remembered >= SUCCESSORS_KEPT:
                self._successors.clear()
                self._remembered = 0
            by_start = self._successors[space, lap, stops] = {}
        found = []
        for option in options:
            q = by_start.get(option.path, _UNSEEN)
            if q is _UNSEEN:
                q = by_start[option.path] = self._successor(board, space, lap, stops, option)
                self._remembered += 1
            found.append(q)
        return found

    def _successor(
        self, board: Board, space: int, lap: int, stops: int, option: MoveOption
    ) -> int | None:
        new_stops, new_lap = after_move(board, space, stops, lap, option)
        if new_lap > self.preset.laps:
            return FINISHED
        dest = option.destination
        for s in range(self.cap(board, dest, new_stops), -1, -1):
            q = self.index.get((dest, new_lap, s))
            if q is not None:
                return q
        return None

    def value_at(self, q: int, gear: int, pool: int) -> float:
        """Value of position ``q`` after a move in ``gear`` with ``pool`` left.

        A pool at 0 (when the pool's end eliminates) or below is an elimination.
        """
        if pool < 0 or (pool == 0 and self.dies_at_zero):
            return self.elimination_penalty
        if q == FINISHED:
            return 0.0
        return float(self.value[q, gear, min(pool, self.pool_max)])

    def __repr__(self) -> str:
        return (
            f"<ParTable {self.preset.name} box {self.box_slot}: par {self.par:.3f}, "
            f"{len(self.positions)} positions>"
        )


#: Board -> content hash (boards are immutable).
_KEYS: weakref.WeakKeyDictionary[Board, str] = weakref.WeakKeyDictionary()

#: (board key, preset key, box slot) -> table, for the life of the process.
_TABLES: dict[tuple[str, str, int], ParTable] = {}


def board_key(board: Board) -> str:
    """A hash of the board's content (its track's JSON form): equal boards, equal keys.

    Examples
    --------
    >>> a = compile_board(from_ascii(". . . .", grid=[0]))
    >>> b = compile_board(from_ascii(". . . .", grid=[0]))
    >>> a is b, board_key(a) == board_key(b)
    (False, True)
    """
    key = _KEYS.get(board)
    if key is None:
        from fdlab.track.io import track_to_dict

        key = keyed_board(board, track_to_dict(board.track))
    return key


def content_key(track_dict: dict[str, Any]) -> str:
    """The hash :func:`board_key` gives a board whose track's JSON form is ``track_dict``.

    Examples
    --------
    >>> from fdlab.track import track_to_dict
    >>> track = from_ascii(". . . .", grid=[0])
    >>> content_key(track_to_dict(track)) == board_key(compile_board(track))
    True
    """
    text = json.dumps(track_dict, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def keyed_board(board: Board, track_dict: dict[str, Any]) -> str:
    """Record that ``board`` was compiled from the track whose JSON form is ``track_dict``.

    :func:`board_key` then answers without writing the track out again (on
    a Monaco-size board that is most of a tenth of a second). Returns the key.

    Examples
    --------
    >>> from fdlab.track import track_to_dict
    >>> track = from_ascii(". . . .", grid=[0])
    >>> board = compile_board(track)
    >>> keyed_board(board, track_to_dict(track)) == board_key(board)
    True
    """
    return name_board(board, content_key(track_dict))


def name_board(board: Board, key: str) -> str:
    """Give ``board`` the key ``key`` (a hash that names its content; its par tables are
    kept under it). For a board made from a known one by a known edit, the key can
    name the pair (:func:`fdlab.analysis.suggest` does): the same key must never
    name two contents. Returns the key.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . .", grid=[0]))
    >>> name_board(board, "ring, one corner slower") == board_key(board)
    True
    """
    _KEYS[board] = key
    return key


def _preset_key(preset: Preset) -> str:
    """A hash of the preset's fields (not of its cached properties)."""
    values = tuple(getattr(preset, f.name) for f in dataclasses.fields(preset))
    return hashlib.sha256(repr(values).encode()).hexdigest()


def table_key(board: Board, preset: Preset, box_slot: int = 1) -> tuple[str, str, int]:
    """The cache key of a table: board content, modelled preset, box (only with pits)."""
    model = solo_preset(preset)
    return (board_key(board), _preset_key(model), box_slot if model.pits else 1)


def remember(tables: dict[tuple[str, str, int], ParTable]) -> None:
    """Store tables solved in another process (keys from :func:`table_key`)."""
    _TABLES.update(tables)


def solo_table(board: Board, preset: Preset, box_slot: int = 1) -> ParTable:
    """The solo table of a board for car ``box_slot``, solved once per board content.

    The preset is modelled as :func:`fdlab.par.approx.solo_preset` says.
    The table is looked up in memory (this process), then on disk
    (:mod:`fdlab.par.store`: the user's cache folder, ``FDLAB_CACHE_DIR``,
    switched off by ``FDLAB_CACHE=off``), and solved only if neither has it;
    a table solved here is kept in both.

    Examples
    --------
    >>> track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    >>> first = solo_table(compile_board(track), BASIC)
    >>> first is solo_table(compile_board(track), BASIC), round(first.par, 2)
    (True, 1.85)
    """
    from fdlab.par.solve import solve_par

    table = known_table(board, preset, box_slot)
    if table is None:
        key = table_key(board, preset, box_slot)
        table = solve_par(board, solo_preset(preset), box_slot=key[2]).table(key[0])
        store.save(key, table)
        _TABLES[key] = table
    return table


def solve_to_reuse(board: Board, preset: Preset, box_slot: int = 1) -> ParTable:
    """Solve ``board`` in this process even when a cache holds its table.

    A cached table has no model behind it; solved here, the board's move
    searches and values are remembered (:mod:`fdlab.par.reuse`), so the
    solves of its edited versions that follow (:func:`fdlab.analysis.suggest`,
    the editor's verdict) reuse what their edit did not touch.

    Examples
    --------
    >>> track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    >>> round(solve_to_reuse(compile_board(track), BASIC).par, 2)
    1.85
    """
    from fdlab.par.solve import solve_par

    key = table_key(board, preset, box_slot)
    table = solve_par(board, solo_preset(preset), box_slot=key[2]).table(key[0])
    _TABLES[key] = table
    return table


def known_table(board: Board, preset: Preset, box_slot: int = 1) -> ParTable | None:
    """The table :func:`solo_table` would return, if this process or the disk cache has it.

    Never solves: ``None`` when the table still has to be solved (a
    playtest then solves the tables it lacks side by side).

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . . . . .", grid=[0], finish=4))
    >>> table = solo_table(board, BASIC)  # solved, or read from a cache
    >>> known_table(board, BASIC) is table
    True
    """
    key = table_key(board, preset, box_slot)
    table = _TABLES.get(key)
    if table is None:
        table = store.load(key, solo_preset(preset), spaces=len(board.ids))
        if table is not None:
            _TABLES[key] = table
    return table


def forget_tables() -> None:
    """Empty the in-memory cache of :func:`solo_table` (the disk cache stays).

    Examples
    --------
    >>> forget_tables()
    """
    _TABLES.clear()
