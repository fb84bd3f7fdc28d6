"""Value iteration of the solo solver, level by level (:func:`fdlab.par.solve.solve_par`).

The graph of moves between positions is cut into levels (:func:`_levels`):
strongly connected groups of positions, each one level above the highest group
it leads to. A level is solved at once, its positions' rows as one table; the
rows leaving a group land on final values and are reduced once, and only the
rows inside a group are iterated to a fixed point. A state table with a margin
for eliminated cars and a finish-line position (:class:`_Store`) makes every
landing one lookup. :func:`_start_values` adds the start roll (S-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from fdlab.par.model import FINISHED, OptionRows, SoloModel
from fdlab.par.rows import _rows_of, _Tables

#: Value of a state not computed yet (larger than any real value).
_UNKNOWN = 1e15


#: Largest number of (from, to) pairs :func:`_pairs` marks in a dense table (bytes).
_DENSE_PAIRS = 1 << 25


#: Option rows of the levels :func:`_solve_levels` prepares at once.
_BATCH_ROWS = 1 << 15

#: :func:`_solve_part` stops a level's iterations as soon as the next one cannot change
#: anything (on Monaco, nearly every level: 192 iterations and 192 evaluations instead of
#: 381 of each); ``False`` iterates the plain way, until the values stop changing (the
#: same values to the last bit, tested).
_SETTLE_EARLY = True


def _moves(n: int, targets: list[NDArray[np.int64]]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The moves ``p -> q`` between ``n`` positions, once each, sorted by ``p`` then ``q``,
    from the positions each position's options lead to (``targets[p]``, with
    :data:`~fdlab.par.model.FINISHED` left out).

    Examples
    --------
    >>> src, dst = _moves(3, [np.array([2, 1, 2, -1]), np.array([-1]), np.array([0])])
    >>> src.tolist(), dst.tolist()
    ([0, 0, 2], [1, 2, 0])
    """
    if not targets:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    counts = np.fromiter((len(t) for t in targets), np.int64, len(targets))
    dst = np.concatenate(targets).astype(np.int64, copy=False)  # a new array: changed in place
    src = np.repeat(np.arange(len(targets), dtype=np.int64), counts)
    # FINISHED (-1) is kept as a column n of its own, dropped at the end
    dst[dst == FINISHED] = n
    return _pairs(n, src, dst, n + 1, drop_last=True)


def _pairs(
    n: int, src: NDArray[np.int64], dst: NDArray[np.int64], width: int, drop_last: bool = False
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct pairs ``(src, dst)``, sorted by ``src`` then ``dst``; ``src`` is below
    ``n`` and ``dst`` below ``width`` (the pairs with ``dst == width - 1`` left out when
    ``drop_last``).

    A dense ``n`` by ``width`` table of marks, read in order, gives them without the sort
    of :func:`numpy.unique` (on Monaco 0.8 M moves between 836 positions: 5 ms instead
    of 25); a table too large for that falls back to the sort.

    Examples
    --------
    >>> src, dst = _pairs(3, np.array([2, 0, 2, 0]), np.array([1, 3, 1, 0]), 4, drop_last=True)
    >>> src.tolist(), dst.tolist()
    ([0, 2], [0, 1])
    """
    if n * width <= _DENSE_PAIRS:
        marks = np.zeros((n, width), dtype=bool)
        marks[src, dst] = True
        if drop_last:
            marks = marks[:, : width - 1]
        first, second = np.nonzero(marks)
        return first.astype(np.int64), second.astype(np.int64)
    if drop_last:
        kept = dst != width - 1
        src, dst = src[kept], dst[kept]
    code = np.unique(src * width + dst)
    return code // width, code % width


def _levels(
    rows: list[OptionRows | None],
) -> tuple[NDArray[np.int32], NDArray[np.bool_], list[NDArray[np.intp]]]:
    """Strongly connected groups of positions, and the positions level by level, sinks first.

    Positions ``p -> q`` are joined when an option of ``p`` leads to ``q``.
    A group's level is one more than the highest level of the groups it
    leads to (0 when it leads to none): the groups of a level depend only on
    lower levels, so a level is solved at once, after every lower one.

    Returns
    -------
    label : ndarray of int
        The group of each position.
    loops : ndarray of bool
        Per group: it has a cycle (several positions, or an option that
        stays where it is), so its values are iterated to a fixed point.
    levels : list of ndarray of int
        The positions of each level, lowest level first.
    """
    n = len(rows)
    empty = np.zeros(0, dtype=np.int64)
    # a position solved earlier (no rows) is a sink here
    src, dst = _moves(n, [empty if r is None else r.target for r in rows])
    graph = csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    count, label = connected_components(graph, directed=True, connection="strong")
    cross = label[src] != label[dst]
    # the condensed graph: group a leads to group b, once per pair, sorted by a and by b
    lead, led = _pairs(
        count, label[src][cross].astype(np.int64), label[dst][cross].astype(np.int64), count
    )
    successors = np.split(led, np.searchsorted(lead, np.arange(1, count)))
    by_target = np.argsort(led, kind="stable")
    predecessors = np.split(lead[by_target], np.searchsorted(led[by_target], np.arange(1, count)))
    waiting = np.bincount(lead, minlength=count)
    loops = np.bincount(label, minlength=count) > 1
    loops[label[src[src == dst]]] = True
    level = np.zeros(count, dtype=np.int64)
    ready = np.flatnonzero(waiting == 0).tolist()
    while ready:
        c = ready.pop()
        if len(successors[c]):
            level[c] = 1 + level[successors[c]].max()
        before = predecessors[c]
        if len(before):
            waiting[before] -= 1
            ready.extend(before[waiting[before] == 0].tolist())
    of_position = level[label]
    order = np.argsort(of_position, kind="stable")
    bounds = np.searchsorted(of_position[order], np.arange(1, int(of_position.max(initial=0)) + 1))
    return label, loops, [part for part in np.split(order, bounds) if len(part)]


class _Store:
    """Value, finish probability and E[turns * 1{finish}] of every state, with margins.

    Each array is kept as ``(positions + 1, gears + 1, 2 * (pool + 1))``: the
    first ``pool + 1`` columns of the last axis are a margin for pool values
    below 0 (the car is eliminated: the penalty, not finished, no turns), the
    others hold pool values 0 to the full pool; the extra position (index
    ``len(positions)``) is the finish line (no turns left, finished). So the
    value of any landing, eliminated, finished or not, is one lookup.
    ``value``, ``finish`` and ``turns`` are views of the states themselves.
    """

    def __init__(self, model: SoloModel, penalty: float) -> None:
        n = len(model.positions)
        width = model.preset.gears + 1
        self.margin = pools = model.pool_max + 1
        shape = (n + 1, width, 2 * pools)
        self.value_store = np.zeros(shape)
        self.finish_store = np.zeros(shape)
        self.turns_store = np.zeros(shape)
        self.value_store[:, :, :pools] = penalty
        self.value_store[:n, :, pools:] = _UNKNOWN
        self.value_store[:n, :, pools] = penalty  # no pool left
        self.finish_store[n, :, pools:] = 1.0
        if model.pool_dies_at_zero:  # crossing the line with 0 left is an elimination
            self.value_store[n, :, pools] = penalty
            self.finish_store[n, :, pools] = 0.0
        self.value = self.value_store[:n, :, pools:]
        self.finish = self.finish_store[:n, :, pools:]
        self.turns = self.turns_store[:n, :, pools:]
        self.policy = np.zeros(self.value.shape, dtype=np.int8)
        #: the values' windows of a row's pool values (:func:`_windows`), made once
        self.value_windows = _windows(self.value_store, pools)

    def take(self, positions: NDArray[np.intp], earlier: NDArray[np.intp], other: _Store) -> None:
        """Copy the states of ``positions`` from those of ``earlier`` in ``other``."""
        self.value_store[positions] = other.value_store[earlier]
        self.finish_store[positions] = other.finish_store[earlier]
        self.turns_store[positions] = other.turns_store[earlier]
        self.policy[positions] = other.policy[earlier]


@dataclass
class _Landing:
    """Where some option rows land, per element of a (rows or groups, pool values) grid.

    ``flat`` indexes a flattened :class:`_Store` array at the landing state
    (the margin for an eliminated car, the finish line for a finished one);
    ``checked`` marks the elements followed by an engine check (D-6), and
    ``flat_below`` gives, for those elements in order, the state one point lower.
    """

    flat: NDArray[np.int64]
    checked: NDArray[np.bool_] | None
    flat_below: NDArray[np.int64]
    #: probability that an engine check costs a point (D-6), where there are checks
    hit: float = 0.0

    def part(self, lo: int, hi: int, below_at: NDArray[np.int64]) -> _Landing:
        """The landing of rows ``lo`` to ``hi``; ``below_at`` counts the checked elements
        before each row (:meth:`below_counts`)."""
        if self.checked is None:
            return _Landing(self.flat[lo:hi], None, self.flat_below)
        first, last = int(below_at[lo]), int(below_at[hi])
        if first == last:
            return _Landing(self.flat[lo:hi], None, self.flat_below[:0])
        return _Landing(
            self.flat[lo:hi], self.checked[lo:hi], self.flat_below[first:last], self.hit
        )

    def below_counts(self) -> NDArray[np.int64]:
        """The number of checked elements before each row, and in all (for :meth:`part`)."""
        counts = np.zeros(len(self.flat) + 1, dtype=np.int64)
        if self.checked is not None:
            np.cumsum(self.checked.sum(axis=1), out=counts[1:])
        return counts


class _Rows:
    """The option rows of one position with their gear and engine check (D-6) per row."""

    def __init__(
        self, model: SoloModel, tables: _Tables, rows: OptionRows, gear: int | None = None
    ) -> None:
        self.rows = rows
        finished = rows.target == FINISHED
        if gear is None:
            self.gear = tables.gear_of_group[rows.group]
            self.check = tables.trigger[rows.group] & ~rows.exempt & ~finished
        else:  # a flying start: a fixed roll in ``gear``, no die, no engine check
            self.gear = np.full(len(rows.group), gear, dtype=np.int64)
            self.check = np.zeros(len(rows.group), dtype=bool)
        top = model.pool_max
        # rows that eliminate the car at every pool value
        self.gone = rows.doomed | (
            ~rows.restore & (rows.loss >= (top if model.pool_dies_at_zero else top + 1))
        )
        self.position = np.where(finished, len(model.positions), rows.target)
        margin = top + 1
        width = model.preset.gears + 1
        # flat index of the landing state with pool 0 (restored: the full pool)
        self.base = (self.position * width + self.gear) * (2 * margin) + margin
        #: probability that an engine check costs a point (D-6), asked once
        self.hit = model.engine_hit()

    def land(self, model: SoloModel, idx: NDArray[np.intp]) -> _Landing:
        """Landing of rows ``idx`` (shape ``(n, 1)`` for whole rows, or ``(groups, pool + 1)``
        for one row per element) at every pool value."""
        if idx.ndim == 2 and idx.shape[1] == 1:
            return self._land_rows(model, idx[:, 0])
        rows = self.rows
        top = model.pool_max
        pools = np.arange(top + 1)[None, :]
        left = np.where(rows.restore[idx], top, pools - rows.loss[idx])
        flat = self.base[idx] + left
        flat[:, 0] = 0  # a car with no pool left is eliminated (the margin)
        gone = self.gone[idx]
        if gone.any():
            flat = np.where(gone, 0, flat)
        check = self.check[idx] & ~gone
        if not check.any():
            return _Landing(flat, None, np.zeros(0, dtype=np.int64))
        alive = (left > 0) if model.pool_dies_at_zero else (left >= 0)
        check = check & alive & (pools > 0)
        return _Landing(flat, check, flat[check] - 1, self.hit)

    def _land_rows(self, model: SoloModel, r: NDArray[np.intp]) -> _Landing:
        """:meth:`land` of whole rows ``r``: the same indices, in fewer passes over the grid."""
        rows = self.rows
        top = model.pool_max
        pools = np.arange(top + 1)
        base = self.base[r]
        flat = (base - rows.loss[r])[:, None] + pools[None, :]
        restore = rows.restore[r]
        if restore.any():
            flat[restore] = (base[restore] + top)[:, None]
        gone = self.gone[r]
        if gone.any():
            flat[gone] = 0
        flat[:, 0] = 0  # a car with no pool left is eliminated (the margin)
        check = self.check[r] & ~gone
        if not check.any():
            return _Landing(flat, None, np.zeros(0, dtype=np.int64))
        at = np.flatnonzero(check)
        left = np.where(restore[at, None], top, pools[None, :] - rows.loss[r][at, None])
        alive = (left > 0) if model.pool_dies_at_zero else (left >= 0)
        checked = np.zeros(flat.shape, dtype=bool)
        checked[at] = alive & (pools[None, :] > 0)
        return _Landing(flat, checked, flat[checked] - 1, self.hit)

    def row_values(
        self, model: SoloModel, r: NDArray[np.intp], store: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        """``_values(model, self.land(model, r[:, None]), store)`` for a landing used once.

        Row ``r`` lands, at pool values 0 to the full pool, on consecutive
        states of one gear of one position: a window of the flat ``store``
        taken whole, instead of one index per element (:class:`_Reads`).
        """
        return self.reads(model, r).read(model, store, 0, len(r))

    def reads(self, model: SoloModel, r: NDArray[np.intp]) -> _Reads:
        """Where rows ``r`` read their values at every pool value (:meth:`row_values`)."""
        rows = self.rows
        top = model.pool_max
        base = self.base[r]
        gone = self.gone[r]
        restore = rows.restore[r]
        loss = rows.loss[r]
        start = base - loss
        start[gone | restore] = 0
        at = np.flatnonzero(self.check[r] & ~gone)
        pools = np.arange(top + 1)[None, :]
        left = pools - loss[at, None]
        below = (start[at] - 1)[:, None] + pools
        boxed = np.flatnonzero(restore[at])
        if len(boxed):  # the pool restored: one state, whatever the pool before
            left[boxed] = top
            below[boxed] = (base[at[boxed]] + top - 1)[:, None]
        alive = (left > 0) if model.pool_dies_at_zero else (left >= 0)
        restored = np.flatnonzero(restore)
        return _Reads(
            start=start,
            restored=restored,
            restored_flat=base[restored] + top,
            gone=np.flatnonzero(gone),
            checked_rows=at,
            checked=alive & (pools > 0),
            below=below,
            hit=self.hit,
        )


@dataclass
class _Reads:
    """Where some option rows (:class:`_Rows`) read their values, at pool values 0 to the
    full pool, in a flattened :class:`_Store` array; made once, read for any rows
    ``lo`` to ``hi`` of them (:meth:`read`).

    A row reads the window of ``pool + 1`` states from ``start``; a row into the box
    (P-2), the state of the full pool (``restored``, at ``restored_flat``); a row that
    eliminates the car at every pool value (``gone``), and every row at pool 0, the
    margin. The rows ``checked_rows`` are followed by an engine check (D-6) where
    ``checked``: their value is averaged with the state one point lower (``below``).
    """

    start: NDArray[np.int64]
    restored: NDArray[np.intp]
    restored_flat: NDArray[np.int64]
    gone: NDArray[np.intp]
    checked_rows: NDArray[np.intp]
    checked: NDArray[np.bool_]
    below: NDArray[np.int64]
    #: probability that an engine check costs a point (D-6)
    hit: float

    def read(
        self,
        model: SoloModel,
        store: NDArray[np.float64],
        lo: int,
        hi: int,
        windows: NDArray[np.float64] | None = None,
    ) -> NDArray[np.float64]:
        """The values of rows ``lo`` to ``hi`` in ``store``: ``(rows, pool + 1)``;
        ``windows`` are those of ``store`` (:func:`_windows`) if made already."""
        flat = store.reshape(-1)
        if windows is None:
            windows = _windows(store, model.pool_max + 1)
        out: NDArray[np.float64] = windows[self.start[lo:hi]]
        some = _within(self.restored, lo, hi)
        if some.start != some.stop:
            out[self.restored[some] - lo] = flat[self.restored_flat[some]][:, None]
        some = _within(self.gone, lo, hi)
        if some.start != some.stop:
            out[self.gone[some] - lo] = flat[0]
        out[:, 0] = flat[0]  # a car with no pool left is eliminated (the margin)
        some = _within(self.checked_rows, lo, hi)
        if some.start == some.stop:
            return out
        at = self.checked_rows[some] - lo
        hit = self.hit
        mixed = out[at]
        below = flat[self.below[some]]
        out[at] = np.where(self.checked[some], (1 - hit) * mixed + hit * below, mixed)
        return out


def _windows(store: NDArray[np.float64], width: int) -> NDArray[np.float64]:
    """Every window of ``width`` consecutive states of the flattened ``store``, as the rows
    of a view (no copy; read only)."""
    flat = store.reshape(-1)
    windows: NDArray[np.float64] = np.lib.stride_tricks.as_strided(
        flat,
        shape=(len(flat) - width + 1, width),
        strides=(flat.strides[0],) * 2,
        writeable=False,
    )
    return windows


def _within(rows: NDArray[np.intp], lo: int, hi: int) -> slice:
    """The part of the sorted ``rows`` from ``lo`` to ``hi`` (excluded)."""
    first, last = np.searchsorted(rows, (lo, hi)).tolist()
    return slice(first, last)


def _values(model: SoloModel, land: _Landing, store: NDArray[np.float64]) -> NDArray[np.float64]:
    """A :class:`_Store` array at the landing states, the engine check averaged in."""
    flat = store.reshape(-1)
    out: NDArray[np.float64] = flat[land.flat]
    if land.checked is not None:
        hit = land.hit
        out[land.checked] = (1 - hit) * out[land.checked] + hit * flat[land.flat_below]
    return out


class _LevelRows:
    """The option rows of the positions of some levels, level after level, as one table.

    What does not depend on values is made once for these levels, not
    level by level (on Monaco, 192 levels of 1 to 12 positions): the rows
    joined, their landings' parts (:class:`_Rows`), which rows stay inside
    their group (braking to a standstill, waiting in the pit lane), where
    those that leave it read their values (:class:`_Reads`) and their face
    groups. Level ``k`` holds the positions ``positions[slots[k]:slots[k + 1]]``
    and a contiguous block of the rows.
    """

    def __init__(
        self,
        model: SoloModel,
        tables: _Tables,
        levels: list[NDArray[np.intp]],
        label: NDArray[np.int32],
    ) -> None:
        self.positions = positions = (
            np.concatenate(levels).astype(np.intp) if levels else np.zeros(0, dtype=np.intp)
        )
        self.slots = np.concatenate([[0], np.cumsum([len(part) for part in levels])]).astype(
            np.int64
        )
        parts = [_rows_of(model, tables, p) for p in positions.tolist()]
        counts = np.fromiter((len(r.group) for r in parts), np.int64, len(parts))
        slot = np.repeat(np.arange(len(parts), dtype=np.int64), counts)

        def joined(name: str, dtype: type) -> NDArray[Any]:
            if not parts:
                return np.zeros(0, dtype=dtype)
            return np.concatenate([getattr(r, name) for r in parts])

        rows = OptionRows(
            group=joined("group", np.int64),
            target=joined("target", np.int64),
            loss=joined("loss", np.int64),
            doomed=joined("doomed", bool),
            restore=joined("restore", bool),
            exempt=joined("exempt", bool),
            starts=np.zeros(0, dtype=np.int64),
        )
        self.every = _Rows(model, tables, rows)
        self.n_rows = len(rows.group)
        self.n_groups = n_groups = len(model.groups)
        #: face group of every row in the table (slot, then face group): non-decreasing
        self.face = slot * n_groups + rows.group
        target = rows.target
        self.group_of_slot = label[positions]
        # per level: every group is one position (on Monaco, all of them: a car braking to
        # a standstill stays where it is), its change is its position's
        shared = np.bincount(self.group_of_slot, minlength=len(label))[self.group_of_slot] > 1
        self.alone = ~np.logical_or.reduceat(shared, self.slots[:-1]) if len(shared) else shared
        # the group of each row's target; FINISHED (-1) reads a group no position is in
        internal = np.append(label, -1)[target] == self.group_of_slot[slot]
        first_row = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        level_rows = first_row[self.slots]
        self.outer = np.flatnonzero(~internal)
        #: where the rows leaving their group read their values (each level reads its part)
        self.outer_reads = self.every.reads(model, self.outer)
        self.inner = np.flatnonzero(internal)
        self.outer_at = np.searchsorted(self.outer, level_rows)
        self.inner_at = np.searchsorted(self.inner, level_rows)
        # a face group's rows are consecutive and within one level: so are its segments
        self.outer_faces, self.outer_starts = _segments(self.face[self.outer])
        self.inner_faces, self.inner_starts = _segments(self.face[self.inner])
        self.outer_segments = np.searchsorted(self.outer_starts, self.outer_at)
        self.outer_lengths = np.diff(np.append(self.outer_starts, len(self.outer)))
        #: where the rows inside their group land (each level lands its part)
        self.inner_land = self.every.land(model, self.inner[:, None])
        self.inner_below_at = self.inner_land.below_counts()
        self.inner_segments = np.searchsorted(self.inner_starts, self.inner_at)

    def part(
        self, k: int, inner: bool
    ) -> tuple[NDArray[np.intp], NDArray[np.int64], NDArray[np.int64]]:
        """Level ``k``'s rows that leave their group (or, ``inner``, that stay in it): the
        rows, and their face groups' places in the level's ``(slots * face groups)`` and
        first rows (among these rows)."""
        rows, at, faces, starts, segments = (
            (self.inner, self.inner_at, self.inner_faces, self.inner_starts, self.inner_segments)
            if inner
            else (
                self.outer,
                self.outer_at,
                self.outer_faces,
                self.outer_starts,
                self.outer_segments,
            )
        )
        lo = int(at[k])
        some = slice(int(segments[k]), int(segments[k + 1]))
        face_lo = int(self.slots[k]) * self.n_groups
        return rows[lo : int(at[k + 1])], faces[some] - face_lo, starts[some] - lo


def _solve_levels(
    model: SoloModel,
    tables: _Tables,
    levels: list[NDArray[np.intp]],
    label: NDArray[np.int32],
    loops: NDArray[np.bool_],
    store: _Store,
    penalty: float,
    tolerance: float,
) -> int:
    """Solve the positions of each level (:func:`_levels`), lowest first; returns the iterations.

    The option rows of every position of a level are taken as one table.
    Rows leaving their group land on values already final: their least
    value per face group and pool, and the first row reaching it, are
    computed once. Each iteration lands only the rows inside a group
    (braking to a standstill, waiting in the pit lane) and updates the
    groups that have not converged; a group stops when its values change
    by at most ``tolerance``, as if solved alone. Minima are exact, so the
    values are those of Bellman updates over all the rows. Then the chosen
    row of every face group and pool (the first of least value) is fixed and
    the finish probability and turns are evaluated the same way. What does
    not depend on values is made once for a run of levels (:class:`_LevelRows`,
    :class:`_Gears`), of about ``_BATCH_ROWS`` rows: far fewer calls than level
    by level, on arrays that stay in the processor's caches.
    """
    levels = [part for part in levels if len(part)]
    counts = [
        sum(len(r.group) for r in (tables.rows[p] for p in part.tolist()) if r is not None)
        for part in levels
    ]
    iterations = 0
    first = 0
    while first < len(levels):
        last, rows = first + 1, counts[first]
        while last < len(levels) and rows + counts[last] <= _BATCH_ROWS:
            rows += counts[last]
            last += 1
        table = _LevelRows(model, tables, levels[first:last], label)
        gears = _Gears(model, tables, table.positions, penalty)
        for k in range(last - first):
            iterations += _solve_part(model, tables, table, gears, k, loops, store, tolerance)
        first = last
    return iterations


def _solve_part(
    model: SoloModel,
    tables: _Tables,
    table: _LevelRows,
    gears: _Gears,
    k: int,
    loops: NDArray[np.bool_],
    store: _Store,
    tolerance: float,
) -> int:
    """Solve level ``k`` of ``table`` (:func:`_solve_levels`); returns the iterations."""
    value, policy, finish, turns = store.value, store.policy, store.finish, store.turns
    lo, hi = int(table.slots[k]), int(table.slots[k + 1])
    positions = table.positions[lo:hi]
    n_slots = hi - lo
    n_groups = len(model.groups)
    pools = model.pool_max + 1
    every = table.every
    n = table.n_rows  # past every row: no row yet
    face_lo = lo * n_groups
    outer, faces, starts = table.part(k, inner=False)
    inner, inner_faces, inner_starts = table.part(k, inner=True)
    outer_best = np.full((n_slots * n_groups, pools), np.inf)
    outer_first = np.full((n_slots * n_groups, pools), n, dtype=np.int64)
    if len(outer):
        o_lo = int(table.outer_at[k])
        w = table.outer_reads.read(
            model, store.value_store, o_lo, o_lo + len(outer), store.value_windows
        )
        some = slice(int(table.outer_segments[k]), int(table.outer_segments[k + 1]))
        least_w, first = _least(w, starts, table.outer_lengths[some])
        outer_best[faces] = least_w
        outer_first[faces] = outer[first]
    i_lo = int(table.inner_at[k])
    inner_land = table.inner_land.part(i_lo, i_lo + len(inner), table.inner_below_at)
    inner_face = table.face[inner] - face_lo

    def best() -> tuple[NDArray[np.float64] | None, NDArray[np.float64]]:
        if not len(inner):
            return None, outer_best
        w = _values(model, inner_land, store.value_store)
        least = outer_best.copy()
        least[inner_faces] = np.minimum(least[inner_faces], _group_minima(w, inner_starts))
        return w, least

    group_of_slot = table.group_of_slot[lo:hi]
    cyclic = loops[group_of_slot]

    alone = bool(table.alone[k])

    def still_changing(change: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Per slot: its group changed by more than the tolerance (and has a cycle)."""
        if alone:
            return cyclic & (change > tolerance)
        most = np.zeros(len(loops))
        np.maximum.at(most, group_of_slot, change)
        return cyclic & (most[group_of_slot] > tolerance)

    iterations = 0
    active = np.ones(n_slots, dtype=bool)
    inner_w, least = best()
    for _ in range(10_000):
        iterations += 1
        expected = _expected(tables, least.reshape(n_slots, n_groups, pools))
        q_value, gear_choice = gears.choose(expected, lo)
        change = np.abs(q_value - value[positions]).max(axis=(1, 2))
        update = positions[active]
        value[update] = q_value[active]
        policy[update] = gear_choice[active]
        active &= still_changing(change)
        inner_w, again = best()
        if not active.any():
            break
        if _SETTLE_EARLY and np.array_equal(again, least):
            # the next iteration would give these values again: no change, every group
            # stops (the values, and so the minima, are those of a last iteration)
            iterations += 1
            break
        least = again
    # the values of the level are final (``least`` is their minima): the chosen row of
    # every face group is fixed
    least = again
    chosen = np.where(outer_best == least, outer_first, n)
    reads_level = False  # a chosen row lands inside the level's own groups
    if inner_w is not None:
        marked = np.where(inner_w == least[inner_face], inner[:, None], n)
        first = np.minimum.reduceat(marked, inner_starts, axis=0)
        from_inner = first < chosen[inner_faces]
        chosen[inner_faces] = np.where(from_inner, first, chosen[inner_faces])
        # with no pool left a row lands on the margin, whatever the row
        reads_level = bool(from_inner[:, 1:].any())
    land = every.land(model, chosen)
    active = np.ones(n_slots, dtype=bool)
    shape = (n_slots, n_groups, pools)
    through, read = gears.through(policy[positions], lo)
    for _ in range(10_000):
        f_group = _values(model, land, store.finish_store).reshape(shape)
        a_group = _values(model, land, store.turns_store).reshape(shape)
        f, a = gears.follow(through, read, _expected(tables, f_group), _expected(tables, a_group))
        change = np.maximum(
            np.abs(f - finish[positions]).max(axis=(1, 2)),
            np.abs(a - turns[positions]).max(axis=(1, 2)),
        )
        update = positions[active]
        finish[update] = f[active]
        turns[update] = a[active]
        active &= still_changing(change)
        if not active.any() or (_SETTLE_EARLY and not reads_level):
            # no chosen row reads this level's states: one pass is the fixed point
            break
    return iterations


def _segments(group: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct values of a sorted array and where each begins (for ``reduceat``)."""
    if not len(group):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    begins = np.flatnonzero(np.diff(group)) + 1
    starts = np.concatenate([[0], begins]).astype(np.int64)
    return group[starts].astype(np.int64), starts


def _expected(tables: _Tables, best: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each gear's expected value after its roll, from the best row value of every face.

    ``best`` is ``(face groups, pool)``, or ``(positions, face groups, pool)``.
    """
    if best.ndim == 2:
        return np.add.reduceat(tables.prob[:, None] * best, tables.gear_starts, axis=0)
    return np.add.reduceat(tables.prob[None, :, None] * best, tables.gear_starts, axis=1)


class _Gears:
    """The gear choice (G-3, G-4) of ``positions``, its lookups made once.

    Every ``(position, previous gear, pool)`` reads each gear's expected
    value at the pool left after that gear's downshift loss; where it reads
    does not change from one iteration to the next, only what it reads.
    The lookups index a flat array of the expected values of every
    ``(position, gear, pool)``, with two slots past its end: the penalty
    (the shift eliminates the car) and infinity (the gear is not legal).
    A level, positions ``lo`` to ``lo + n`` (:class:`_LevelRows`), writes
    and reads its part of that array.
    """

    def __init__(
        self, model: SoloModel, tables: _Tables, positions: NDArray[np.intp], penalty: float
    ) -> None:
        top = model.pool_max
        self.penalty = penalty
        self.pools = pools = top + 1
        legal = tables.legal[positions]  # (positions, previous, gears)
        self.shift = shift = tables.shift_loss[positions]
        n, _, gears = legal.shape
        self.gears = gears
        self.size = size = n * gears * pools
        left = np.arange(pools)[None, None, None, :] - shift[:, :, :, None]
        self.dies_at_zero = model.pool_dies_at_zero
        dies = (left <= 0) if self.dies_at_zero else (left < 0)
        at = (np.arange(n)[:, None, None, None] * gears + np.arange(gears)[None, None, :, None]) * (
            pools
        )
        index = np.where(dies, size, at + np.minimum(np.maximum(left, 0), top))
        index = np.where(legal[:, :, :, None], index, size + 1)
        # gears last: the choice is a minimum along the last axis
        self.index = np.ascontiguousarray(index.transpose(0, 1, 3, 2))
        self.read = np.empty(size + 2)
        self.read[size] = penalty
        self.read[size + 1] = np.inf

    def choose(
        self, expected: NDArray[np.float64], lo: int
    ) -> tuple[NDArray[np.float64], NDArray[np.int8]]:
        """Best gear for every position, previous gear and pool, given each gear's expected value.

        ``expected`` is ``(positions, gears, pool)`` of positions ``lo`` to ``lo + n``;
        returns the values and the gears, each ``(positions, previous gear, pool)``: one plus
        the least value over the legal gears (the first gear of least value), the penalty
        and no gear (0) at pool 0.
        """
        n = len(expected)
        read = self.read
        step = self.gears * self.pools
        read[lo * step : (lo + n) * step] = expected.reshape(-1)
        cand = read[self.index[lo : lo + n]]
        cand += 1.0
        choice = np.argmin(cand, axis=3)
        # the least value is the one at the choice: one read per state, not a reduction
        # along an axis of six
        flat = cand.reshape(-1)
        q_value = flat[np.arange(0, flat.size, self.gears) + choice.reshape(-1)].reshape(
            choice.shape
        )
        q_value[:, :, 0] = self.penalty
        gear = choice.astype(np.int8)
        gear += 1
        gear[:, :, 0] = 0
        return q_value, gear

    def through(
        self, gear_policy: NDArray[np.int8], lo: int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """Where each state of ``gear_policy`` (``(positions, previous gear, pool)``, positions
        ``lo`` to ``lo + n``) reads its gear's per-gear values (:meth:`follow`): the slot past
        the end, 0, where the car is eliminated (by the shift, or with no pool)."""
        n, width, pools = gear_policy.shape
        top = pools - 1
        gear = np.maximum(gear_policy.astype(np.int64), 1) - 1
        at = np.arange(n)[:, None, None]
        shift = self.shift[lo : lo + n]
        left = np.arange(pools)[None, None, :] - shift[at, np.arange(width)[None, :, None], gear]
        dies = (left <= 0) if self.dies_at_zero else (left < 0)
        size = n * self.gears * pools
        # np.clip's own overhead is that of several ufuncs on these small arrays
        index = (at * self.gears + gear) * pools + np.minimum(np.maximum(left, 0), top)
        index = np.where(dies, size, index)
        index[:, :, 0] = size
        read = np.empty(size + 1)
        read[size] = 0.0
        return index, read

    @staticmethod
    def follow(
        index: NDArray[np.intp],
        read: NDArray[np.float64],
        f_gear: NDArray[np.float64],
        a_gear: NDArray[np.float64],
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Finish probability and E[turns * 1{finish}] (``(positions, previous gear, pool)``)
        of the chosen gears, from the per-gear values ``f_gear``, ``a_gear`` (``(positions,
        gears, pool)``, before this turn) and the lookups of :meth:`through`."""
        size = len(read) - 1
        read[:size] = f_gear.reshape(-1)
        f = read[index]
        read[:size] = a_gear.reshape(-1)
        a = read[index]
        a += f
        return f, a


def _first_true(
    mask: NDArray[np.bool_], starts: NDArray[np.int64], lengths: NDArray[np.int64] | None = None
) -> NDArray[np.int64]:
    """Per group of rows (rows ``starts[k]`` to ``starts[k+1]``) and column, the first
    row where ``mask`` is true; every group must have one in every column. ``lengths``:
    the groups' numbers of rows, if known.

    Each element is marked with its row's place in its group, plus a high bit where
    ``mask`` is false, as a 16-bit number: the least mark of a group is its first true
    row. One pass in row order, no transpose, on numbers a quarter the size of row
    indices (groups of 32768 rows or more mark the rows themselves).

    Examples
    --------
    >>> mask = np.array([[False, True], [True, True], [False, False], [True, True]])
    >>> _first_true(mask, np.array([0, 2])).tolist()
    [[1, 0], [3, 3]]
    """
    n = len(mask)
    if lengths is None:
        lengths = np.diff(np.append(starts, n))
    if not n or int(lengths.max()) >= _FALSE_MARK:
        return _first_true_by_row(mask, starts)
    place = np.arange(n, dtype=np.int64) - np.repeat(starts, lengths)
    marks = np.invert(mask).view(np.uint8).astype(np.uint16)
    marks <<= 15
    marks |= place.astype(np.uint16)[:, None]
    first = np.minimum.reduceat(marks, starts, axis=0).astype(np.int64)
    first += starts[:, None]
    return first


#: The high bit of :func:`_first_true`'s 16-bit marks: set where the mask is false.
_FALSE_MARK = 1 << 15


def _first_true_by_row(mask: NDArray[np.bool_], starts: NDArray[np.int64]) -> NDArray[np.int64]:
    """:func:`_first_true` marking each true element with its row, the others with a row
    past the end (for groups of any length; the plain way the tests compare it with)."""
    n = len(mask)
    marks = np.where(mask, np.arange(n, dtype=np.int64)[:, None], n)
    first: NDArray[np.int64] = np.minimum.reduceat(marks, starts, axis=0)
    return first


def _group_minima(w: NDArray[np.float64], starts: NDArray[np.int64]) -> NDArray[np.float64]:
    """``np.minimum.reduceat(w, starts, axis=0)`` for values that are never negative nor NaN.

    The solver's values (turns, the elimination penalty, finish probabilities)
    never are, and the bit patterns of such floats, read as integers, are
    ordered as the floats themselves. numpy reduces integers along the first
    axis several times faster than floats (whose minimum must also look for
    NaN): on Monaco, 18 ms instead of 60.

    Examples
    --------
    >>> w = np.array([[3.0, np.inf], [2.5, 1.0], [0.0, 1000.0]])
    >>> _group_minima(w, np.array([0, 2])).tolist()
    [[2.5, 1.0], [0.0, 1000.0]]
    """
    least: NDArray[np.float64] = np.minimum.reduceat(w.view(np.int64), starts, axis=0).view(
        np.float64
    )
    return least


def _least(
    w: NDArray[np.float64],
    starts: NDArray[np.int64],
    lengths: NDArray[np.int64] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Per group (rows ``starts[k]`` to ``starts[k+1]``) and column, the least value and
    the first row that has it; ``lengths``, the groups' numbers of rows, if known.

    Examples
    --------
    >>> w = np.array([[3.0, 1.0], [2.0, 1.0], [5.0, 0.5], [4.0, 0.5]])
    >>> best, first = _least(w, np.array([0, 2]))
    >>> best.tolist(), first.tolist()
    ([[2.0, 1.0], [4.0, 0.5]], [[1, 0], [3, 2]])
    """
    best = _group_minima(w, starts)
    if lengths is None:
        lengths = np.diff(np.append(starts, len(w)))
    return best, _first_true(w == np.repeat(best, lengths, axis=0), starts, lengths)


def _first_argmin(w: NDArray[np.float64], starts: NDArray[np.int64]) -> NDArray[np.int64]:
    """Per group (rows ``starts[k]`` to ``starts[k+1]``) and column, the first row of least value."""
    return _least(w, starts)[1]


def _start_values(
    model: SoloModel,
    tables: _Tables,
    store: _Store,
    penalty: float,
) -> tuple[float, float, float, float]:
    """Objective, finish probability, expected turns and E[turns * 1{finish}] from pole (S-2).

    The first turn is the start roll: a stall (the car stays, next turn 1st
    gear without the roll), a normal start (the 1st-gear die) or a flying
    start (a fixed number of spaces in 1st gear, no die rolled).
    """
    preset = model.preset
    value, finish, turns = store.value, store.finish, store.turns
    p = model.index[model.start]
    top = model.pool_max
    faces = preset.black_faces
    n = len(faces)
    stall = sum(1 for f in faces if f <= preset.start_stall_max) / n
    flying = sum(1 for f in faces if f >= preset.start_flying_min) / n
    normal = 1.0 - stall - flying

    # normal start: the 1st-gear die from pole, healthy
    start = _Rows(model, tables, _rows_of(model, tables, p))
    w = _values(
        model, start.land(model, np.arange(len(start.rows.group))[:, None]), store.value_store
    )
    expected = _expected(tables, _group_minima(w, start.rows.starts))
    land = start.land(model, _first_argmin(w, start.rows.starts))
    f_group = _values(model, land, store.finish_store)
    a_group = _values(model, land, store.turns_store)
    first = slice(tables.gear_starts[0], tables.gear_starts[1])
    normal_value = float(expected[0, top])
    f_norm = float(np.sum(tables.prob[first] * f_group[first, top]))
    a_norm = float(np.sum(tables.prob[first] * a_group[first, top]))
    # flying start: a fixed roll in 1st gear, no engine check
    fly = _Rows(model, tables, model.start_rows(p), gear=1)
    fly_land = fly.land(model, np.arange(len(fly.rows.group))[:, None])
    fly_w = _values(model, fly_land, store.value_store)
    k = int(np.argmin(fly_w[:, top]))
    fly_value = float(fly_w[k, top])
    fly_f = float(_values(model, fly_land, store.finish_store)[k, top])
    fly_a = float(_values(model, fly_land, store.turns_store)[k, top])

    objective = 1.0 + stall * value[p, 0, top] + normal * normal_value + flying * fly_value
    fin = stall * finish[p, 0, top] + normal * f_norm + flying * fly_f
    tot = fin + stall * turns[p, 0, top] + normal * a_norm + flying * fly_a
    # expected turns of every race: the objective without the penalty part
    expected_turns = objective - penalty * (1.0 - fin)
    return float(objective), float(fin), float(expected_turns), float(tot)
