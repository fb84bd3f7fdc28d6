"""The solver's tables: each position's distinct option rows and gear rules.

:func:`_tables` makes, for every position of a :class:`~fdlab.par.model.SoloModel`,
the option rows the value iteration (:mod:`fdlab.par.values`) reads: the rows of
each face group that another row of the group does not make useless
(:func:`_distinct`), and the legal gears and downshift losses of its space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from fdlab.par.model import OptionRows, SoloModel, _numbered
from fdlab.par.ordering import stable_order


@dataclass
class _Tables:
    """Per-position arrays shared by the value and the policy-evaluation passes."""

    rows: list[OptionRows | None]  # None for a position whose values an earlier solve gave
    legal: NDArray[np.bool_]  # (positions, previous gear, gear)
    shift_loss: NDArray[np.int64]  # same shape
    trigger: NDArray[np.bool_]  # per face group: engine check on this face (D-6)
    prob: NDArray[np.float64]  # per face group
    gear_of_group: NDArray[np.int64]  # per face group, 1-based
    gear_starts: NDArray[np.intp]  # first group of each gear


def _rows_of(model: SoloModel, tables: _Tables, p: int) -> OptionRows:
    """The rows of position ``p`` (made now if an earlier solve gave its values)."""
    rows = tables.rows[p]
    return rows if rows is not None else _distinct_rows(model, p)


def _tables(
    model: SoloModel,
    settled: NDArray[np.bool_] | None = None,
    made: dict[int, OptionRows] | None = None,
    carried: dict[int, OptionRows] | None = None,
) -> _Tables:
    """Gear tables of every position, and option rows of those not ``settled`` (default: all).

    ``made`` and ``carried`` hold distinct rows already made (position -> :func:`_distinct`
    rows).
    """
    if settled is None:
        settled = np.zeros(len(model.positions), dtype=bool)
    made = made or {}
    carried = carried or {}
    groups = model.groups
    gear_of_group = np.asarray([g for g, _, _ in groups], dtype=np.int64)
    gear_starts = np.searchsorted(gear_of_group, np.arange(1, model.preset.gears + 1))
    #: (in a box, in the pit zone) -> the gear table of such a space
    categories: dict[tuple[bool, bool], tuple[NDArray[np.bool_], NDArray[np.int64]]] = {}
    legal, shift = [], []
    board = model.board
    for space, _, _ in model.positions:
        key = (board.kind[space] == "box", board.kind[space] != "track")
        if key not in categories:
            categories[key] = model.gear_table(space)
        legal.append(categories[key][0])
        shift.append(categories[key][1])
    # positions that share a search one after the other: its rows are shaped once
    order = sorted(range(len(model.positions)), key=lambda p: id(model._search_of[p]))
    rows: list[OptionRows | None] = [None] * len(order)
    for p in order:
        if settled[p]:
            continue
        known = carried.get(p)
        if known is None:
            known = made.get(p)
        rows[p] = known if known is not None else _distinct_rows(model, p)
    return _Tables(
        rows=rows,
        legal=np.stack(legal) if legal else np.zeros((0, 1, 1), dtype=bool),
        shift_loss=np.stack(shift) if shift else np.zeros((0, 1, 1), dtype=np.int64),
        trigger=np.asarray([model.engine_check(g, r) for g, r, _ in groups]),
        prob=np.asarray([p for _, _, p in groups]),
        gear_of_group=gear_of_group,
        gear_starts=gear_starts,
    )


def _distinct(model: SoloModel, rows: OptionRows) -> OptionRows:
    """``rows`` without the rows another row of their face group makes useless.

    A row is dropped when an earlier row of its group lands exactly like
    it (the same position, pool change and engine check), or when a row
    of its group reaches the same position with the same engine check
    and the same box (P-2) for a smaller loss: a lone car's value never
    rises with more pool (whatever it could do with less it can do with
    more), so the cheaper row is at least as good at every pool value.
    Every row that eliminates the car at every pool value is
    interchangeable with every other such row. The rows kept, in the
    original order, give every group minimum unchanged, from fewer rows
    (on Monaco, 0.8 M of 3.3 M); where rows tie, the cheaper one is
    chosen.

    Examples
    --------
    Two lanes to a one-stop corner and the line: from the grid, 482 rows
    (every face of every gear, every option within its roll), 291 useful.

    >>> board = from_ascii(". . 1 1 . . . .\\n. . 1 1 . . . .", corners={1: 1}, grid=[0], finish=6)
    >>> model = SoloModel(compile_board(board), BASIC)
    >>> rows = model.rows(0)
    >>> len(rows.group), len(_distinct(model, rows).group)
    (482, 291)
    """
    kind = ((rows.target + 2) * 2 + rows.restore) * 2 + rows.exempt
    bound = (len(model.positions) + 2) * 4
    keep = _kept(model, rows.group, rows.loss, rows.doomed, rows.restore, kind, bound)
    if len(keep) == len(rows.group):
        return rows
    group = rows.group[keep]
    return OptionRows(
        group=group,
        target=rows.target[keep],
        loss=rows.loss[keep],
        doomed=rows.doomed[keep],
        restore=rows.restore[keep],
        exempt=rows.exempt[keep],
        starts=np.searchsorted(group, np.arange(len(rows.starts))).astype(np.int64),
    )


def _kept(
    model: SoloModel,
    group: NDArray[np.int32],
    loss: NDArray[np.int64],
    doomed: NDArray[np.bool_],
    restore: NDArray[np.bool_] | None,
    kind: NDArray[np.int64],
    kinds: int,
) -> NDArray[np.intp]:
    """The rows :func:`_distinct` keeps, in order, from each row's face group, loss, doom,
    restore (P-2; ``None``: no row restores the pool) and landing kind (target, restore
    and engine-check exemption as one number, from 1 to ``kinds - 1``)."""
    top = model.pool_max
    limit = top if model.pool_dies_at_zero else top + 1
    if restore is not None and restore.any():
        doomed = doomed | (~restore & (loss >= limit))
        # in the box the pool is restored whatever the move cost: such rows differ in nothing else
        loss = np.where(doomed | restore, 0, loss)
    else:  # no row ends in the box (most positions): the same, in fewer passes
        doomed = doomed | (loss >= limit)
        loss = np.where(doomed, 0, loss)
    # per key (group, then kind; every row that eliminates the car one key per group) the
    # cheapest row, the first of them: one stable sort of one number, key then loss
    # (costs are never negative, and below ``limit`` here), instead of a sort per column
    key = np.where(doomed, 0, kind)
    key += group * kinds
    order = stable_order(key * limit + loss, len(model.groups) * kinds * limit)
    in_order = key[order]
    head = np.ones(len(order), dtype=bool)
    head[1:] = in_order[1:] != in_order[:-1]
    # the rows kept, in row order: marked, then read in order (no sort)
    marked = np.zeros(len(order), dtype=bool)
    marked[order[head]] = True
    keep: NDArray[np.intp] = np.flatnonzero(marked)
    return keep


def _distinct_rows(model: SoloModel, p: int) -> OptionRows:
    """``_distinct(model, model.rows(p))``, made from the options of ``p``'s search: what
    a row lands on is worked out once per option, and only the rows kept are made."""
    found, group, idx, loss, doomed = model.row_parts(p)
    restore_option = found.boxed & model.restores
    # most positions reach no box: no row restores the pool
    restore = restore_option[idx] if restore_option.any() else None
    target = model.targets(p)
    # the kinds of the options numbered from 1 (few: the keys, and so the sort, are short)
    kinds, kind = _numbered(((target + 2) * 2 + restore_option) * 2 + found.pit)
    kind += 1
    keep = _kept(model, group, loss, doomed, restore, kind[idx], len(kinds) + 1)
    kept_group = group[keep]
    option = idx[keep]
    return OptionRows(
        group=kept_group,
        target=target[option],
        loss=loss[keep],
        doomed=doomed[keep],
        restore=np.zeros(len(keep), dtype=bool) if restore is None else restore[keep],
        exempt=found.pit[option],
        starts=np.searchsorted(kept_group, model.group_numbers),
    )
