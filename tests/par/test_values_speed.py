"""The value iteration's faster routines (fdlab.par.values, fdlab.par.rows) against plain ones: same results.

Each routine made faster is compared, on random inputs and on edge cases
(nothing, a single row), with a plain implementation written here: the
solver's results must stay the same to the last bit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from par_boards import pit_ring

from fdlab.par import rows as par_rows
from fdlab.par import solve_par
from fdlab.par import values as par_values
from fdlab.par.errors import SoloModelError
from fdlab.par.model import FINISHED, SoloModel
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii, load_track

TRACKS = Path(__file__).resolve().parents[2] / "tracks"


# --- moves: distinct pairs without a sort -------------------------------------------------


def plain_moves(n, targets):
    pairs = sorted({(p, int(q)) for p, t in enumerate(targets) for q in t if q != FINISHED})
    return [p for p, _ in pairs], [q for _, q in pairs]


@pytest.mark.parametrize("dense", [True, False])
def test_moves_are_the_distinct_pairs_in_order_dense_or_sorted(dense, monkeypatch):
    if not dense:  # every table too large: the np.unique path
        monkeypatch.setattr(par_values, "_DENSE_PAIRS", 0)
    rng = np.random.default_rng(11)
    for n in (1, 2, 7, 40):
        for _ in range(20):
            targets = [
                rng.integers(-1, n, size=int(rng.integers(0, 12))).astype(np.int64)
                for _ in range(n)
            ]
            src, dst = par_values._moves(n, targets)
            assert src.dtype == dst.dtype == np.int64
            assert (src.tolist(), dst.tolist()) == plain_moves(n, targets)


@pytest.mark.parametrize("dense", [True, False])
def test_moves_of_nothing_and_of_finishing_moves_only(dense, monkeypatch):
    if not dense:
        monkeypatch.setattr(par_values, "_DENSE_PAIRS", 0)
    src, dst = par_values._moves(0, [])
    assert len(src) == len(dst) == 0
    empty = np.zeros(0, dtype=np.int64)
    src, dst = par_values._moves(2, [empty, np.array([FINISHED, FINISHED])])
    assert len(src) == len(dst) == 0
    src, dst = par_values._moves(1, [np.array([0, 0, FINISHED])])
    assert (src.tolist(), dst.tolist()) == ([0], [0])


@pytest.mark.parametrize("dense", [True, False])
def test_pairs_match_a_sort_of_the_pairs(dense, monkeypatch):
    if not dense:
        monkeypatch.setattr(par_values, "_DENSE_PAIRS", 0)
    rng = np.random.default_rng(12)
    for n, width in ((1, 1), (3, 5), (30, 30), (50, 9)):
        for drop_last in (False, True):
            size = int(rng.integers(0, 200))
            src = rng.integers(0, n, size=size).astype(np.int64)
            dst = rng.integers(0, width, size=size).astype(np.int64)
            first, second = par_values._pairs(n, src, dst, width, drop_last=drop_last)
            pairs = sorted(
                {(a, b) for a, b in zip(src.tolist(), dst.tolist(), strict=True)}
                - ({(a, width - 1) for a in range(n)} if drop_last else set())
            )
            assert list(zip(first.tolist(), second.tolist(), strict=True)) == pairs


# --- the first row of least value per group ----------------------------------------------


def plain_least(w, starts):
    ends = np.append(starts[1:], len(w)).astype(int)
    best = np.zeros((len(starts), w.shape[1]))
    first = np.zeros((len(starts), w.shape[1]), dtype=np.int64)
    for k, (a, b) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
        for c in range(w.shape[1]):
            column = w[a:b, c].tolist()
            best[k, c] = min(column)
            first[k, c] = a + column.index(best[k, c])
    return best, first


def random_groups(rng, rows, columns):
    """Values with many ties (few distinct values), cut into groups of 1 or more rows."""
    w = rng.integers(0, 4, size=(rows, columns)).astype(float) / 3
    cuts = np.flatnonzero(rng.random(rows - 1) < 0.3) + 1 if rows > 1 else np.zeros(0, int)
    return w, np.concatenate([[0], cuts]).astype(np.int64)


def test_least_is_the_least_value_and_its_first_row_per_group_and_column():
    rng = np.random.default_rng(13)
    for rows in (1, 2, 5, 60, 300):
        for columns in (1, 4, 19):
            w, starts = random_groups(rng, rows, columns)
            best, first = par_values._least(w, starts)
            want_best, want_first = plain_least(w, starts)
            assert np.array_equal(best, want_best)
            assert np.array_equal(first, want_first)
            assert np.array_equal(par_values._first_argmin(w, starts), want_first)
            every_row = np.ones(w.shape, dtype=bool)  # the first row of each group
            assert np.array_equal(
                par_values._first_true(every_row, starts), np.repeat(starts[:, None], columns, 1)
            )


def test_least_of_a_single_row_and_of_no_rows():
    w = np.array([[2.0, np.inf, 0.0]])
    best, first = par_values._least(w, np.array([0]))
    assert best.tolist() == [[2.0, np.inf, 0.0]] and first.tolist() == [[0, 0, 0]]
    best, first = par_values._least(np.zeros((0, 3)), np.zeros(0, dtype=np.int64))
    assert best.shape == first.shape == (0, 3)


def test_first_true_by_place_in_group_is_the_first_true_by_row(monkeypatch):
    """:func:`_first_true` marks rows by their place in the group (16 bits): the same rows
    as marking them by row, for random masks and for groups as long as the marks allow
    (and longer, where the row marks are used)."""
    rng = np.random.default_rng(16)
    for rows in (1, 3, 50, 400):
        for columns in (1, 19):
            _, starts = random_groups(rng, rows, columns)
            mask = rng.random((rows, columns)) < 0.3
            mask[np.append(starts[1:], rows) - 1] = True  # a true row in every group
            want = par_values._first_true_by_row(mask, starts)
            assert np.array_equal(par_values._first_true(mask, starts), want)
    for length in (par_values._FALSE_MARK - 1, par_values._FALSE_MARK):
        mask = np.zeros((length + 2, 2), dtype=bool)
        mask[length - 1, 0] = mask[length - 1 :, 1] = mask[length + 1, 0] = True
        mask[length, 1] = True
        starts = np.array([0, length])
        got = par_values._first_true(mask, starts)
        assert got.tolist() == [[length - 1, length - 1], [length + 1, length]]


def test_group_minima_are_the_float_minima_of_never_negative_values():
    """``_group_minima`` reduces the values' bit patterns as integers: the same minima as
    numpy's float reduction, for every value the solver has (0, turns, the penalty,
    the unknown value, infinity)."""
    rng = np.random.default_rng(15)
    special = np.array([0.0, 1e-300, 0.5, 1.0, 17.25, 1000.0, par_values._UNKNOWN, np.inf])
    for rows in (1, 2, 9, 200):
        for columns in (1, 19):
            w, starts = random_groups(rng, rows, columns)
            w = np.where(rng.random(w.shape) < 0.5, rng.choice(special, w.shape), w * 40)
            got = par_values._group_minima(w, starts)
            want = np.minimum.reduceat(w, starts, axis=0)
            assert got.dtype == np.float64
            assert np.array_equal(got, want)


@pytest.mark.parametrize("penalty", [-1.0, float("nan"), float("inf"), "1000"])
def test_solve_par_refuses_a_penalty_that_is_not_a_finite_number_of_at_least_0(penalty):
    """The solver's values are never negative (its minima rely on it, ``_group_minima``):
    a negative, infinite or missing penalty is refused, naming the parameter."""
    track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    with pytest.raises(SoloModelError, match="elimination_penalty must be a finite number"):
        solve_par(track, elimination_penalty=penalty, reuse=False)
    with pytest.raises(SoloModelError, match="tolerance must be"):
        solve_par(track, tolerance=-1e-9, reuse=False)


def test_first_true_of_random_masks_is_the_plain_first_true_row():
    rng = np.random.default_rng(14)
    for rows in (1, 3, 50):
        w, starts = random_groups(rng, rows, 7)
        mask = rng.random(w.shape) < 0.4
        mask[np.append(starts[1:], rows) - 1] = True  # a true row in every group
        ends = np.append(starts[1:], rows)
        want = [
            [a + int(np.argmax(mask[a:b, c])) for c in range(7)]
            for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
        ]
        assert par_values._first_true(mask, starts).tolist() == want


# --- the gear choice (G-3, G-4) ----------------------------------------------------------


def plain_gear_choice(model, tables, positions, expected, penalty):
    """The gear choice as first written: fancy indexing of (positions, previous, gear, pool)."""
    top = model.pool_max
    pools = np.arange(top + 1)
    legal = tables.legal[positions]
    shift = tables.shift_loss[positions]
    left = pools[None, None, None, :] - shift[:, :, :, None]
    dies = (left <= 0) if model.pool_dies_at_zero else (left < 0)
    at = np.arange(len(positions))[:, None, None, None]
    g_index = np.arange(legal.shape[2])[None, None, :, None]
    reach = expected[at, g_index, np.clip(left, 0, top)]
    cand = np.where(dies, 1.0 + penalty, 1.0 + reach)
    cand = np.where(legal[:, :, :, None], cand, np.inf)
    choice = np.argmin(cand, axis=2)
    q_value = np.take_along_axis(cand, choice[:, :, None, :], axis=2)[:, :, 0, :]
    q_value[:, :, 0] = penalty
    gear = (choice + 1).astype(np.int8)
    gear[:, :, 0] = 0
    return q_value, gear


def plain_through_gear(model, tables, positions, gear_policy, f_gear, a_gear):
    top = model.pool_max
    pools = np.arange(top + 1)[None, None, :]
    gear = np.maximum(gear_policy.astype(np.int64), 1) - 1
    at = np.arange(len(positions))[:, None, None]
    prev = np.arange(gear_policy.shape[1])[None, :, None]
    left = pools - tables.shift_loss[positions][at, prev, gear]
    dies = (left <= 0) if model.pool_dies_at_zero else (left < 0)
    idx = np.clip(left, 0, top)
    f = np.where(dies, 0.0, f_gear[at, gear, idx])
    a = np.where(dies, 0.0, a_gear[at, gear, idx])
    f[:, :, 0] = 0.0
    a[:, :, 0] = 0.0
    return f, f + a


@pytest.mark.parametrize("laps", [1, 2])
def test_gears_choose_and_follow_as_the_plain_gear_choice(laps):
    """Random expected values with ties (a gear as good as another: the first is chosen)."""
    model = SoloModel(compile_board(pit_ring()), BASIC.with_laps(laps))
    tables = par_rows._tables(model)
    rng = np.random.default_rng(15)
    everyone = rng.permutation(len(model.positions))
    gears = par_values._Gears(model, tables, everyone, 1000.0)
    n_gears = tables.legal.shape[2]
    shape = (n_gears, model.pool_max + 1)
    for lo, hi in ((0, 1), (1, 4), (4, 4 + len(everyone) // 2), (len(everyone) - 1, len(everyone))):
        positions = everyone[lo:hi]
        expected = rng.integers(0, 5, size=(len(positions), *shape)).astype(float) / 4
        q_value, gear = gears.choose(expected, lo)
        want_q, want_gear = plain_gear_choice(model, tables, positions, expected, 1000.0)
        assert np.array_equal(q_value, want_q) and np.array_equal(gear, want_gear)
        f_gear = rng.random((len(positions), *shape))
        a_gear = rng.random((len(positions), *shape))
        index, read = gears.through(gear, lo)
        f, a = gears.follow(index, read, f_gear, a_gear)
        want_f, want_a = plain_through_gear(model, tables, positions, gear, f_gear, a_gear)
        assert np.array_equal(f, want_f) and np.array_equal(a, want_a)


# --- where rows read their values ---------------------------------------------------------


def test_reads_of_a_part_of_the_rows_are_the_general_landing_of_those_rows():
    """Pit stops restoring the pool (P-2), engine checks (D-6), rows that eliminate the car:
    every part ``lo`` to ``hi`` of the rows reads what the general landing does."""
    model = SoloModel(compile_board(pit_ring()), BASIC.with_laps(2))
    tables = par_rows._tables(model)
    store = par_values._Store(model, 1000.0)
    store.value_store[:] = np.random.default_rng(16).random(store.value_store.shape)
    rng = np.random.default_rng(17)
    for p in range(0, len(model.positions), 3):
        rows = par_values._Rows(model, tables, par_rows._rows_of(model, tables, p))
        some = np.sort(rng.choice(len(rows.rows.group), size=len(rows.rows.group) // 2))
        reads = rows.reads(model, some)
        for lo, hi in ((0, len(some)), (0, 1), (len(some) // 3, len(some)), (2, 2)):
            lo, hi = min(lo, len(some)), min(hi, len(some))
            general = par_values._values(
                model, rows.land(model, some[lo:hi, None]), store.value_store
            )
            assert np.array_equal(reads.read(model, store.value_store, lo, hi), general)


# --- the levels solved as one table -------------------------------------------------------


def solved_level_by_level(model, tables, levels, label, loops):
    store = par_values._Store(model, 1000.0)
    for part in levels:
        par_values._solve_levels(model, tables, [part], label, loops, store, 1000.0, 1e-10)
    return store


@pytest.mark.parametrize("batch", [1, 2_000, 1 << 30])
@pytest.mark.parametrize(("name", "laps"), [("ring", 2), ("training", 1)])
def test_levels_solved_together_are_the_levels_solved_one_by_one(name, laps, batch, monkeypatch):
    """:class:`_LevelRows` slices one table of several levels (``batch`` rows or more):
    the same as a table per level."""
    monkeypatch.setattr(par_values, "_BATCH_ROWS", batch)
    track = pit_ring() if name == "ring" else load_track(TRACKS / "training.json")
    model = SoloModel(compile_board(track), BASIC.with_laps(laps))
    tables = par_rows._tables(model)
    label, loops, levels = par_values._levels(tables.rows)
    one_by_one = solved_level_by_level(model, tables, levels, label, loops)
    together = par_values._Store(model, 1000.0)
    par_values._solve_levels(model, tables, levels, label, loops, together, 1000.0, 1e-10)
    for field in ("value_store", "finish_store", "turns_store", "policy"):
        assert np.array_equal(getattr(together, field), getattr(one_by_one, field)), field


@pytest.mark.parametrize(("name", "laps"), [("ring", 2), ("training", 1), ("monaco", 1)])
def test_levels_settled_early_are_the_levels_iterated_until_nothing_changes(
    name, laps, monkeypatch
):
    """A level stops as soon as the next iteration cannot change its values, and its
    finish and turns are evaluated once where no chosen row reads the level itself
    (``_SETTLE_EARLY``): the same values, policy, finish, turns and iteration count,
    to the last bit, as iterating until the values stop changing."""
    board = pit_ring() if name == "ring" else load_track(TRACKS / f"{name}.json")
    model = SoloModel(compile_board(board), BASIC.with_laps(laps))
    tables = par_rows._tables(model)
    label, loops, levels = par_values._levels(tables.rows)
    solved = {}
    for early in (True, False):
        monkeypatch.setattr(par_values, "_SETTLE_EARLY", early)
        store = par_values._Store(model, 1000.0)
        count = par_values._solve_levels(model, tables, levels, label, loops, store, 1000.0, 1e-10)
        solved[early] = store, count
    (early, early_count), (plain, plain_count) = solved[True], solved[False]
    assert early_count == plain_count
    for field in ("value_store", "finish_store", "turns_store", "policy"):
        assert np.array_equal(getattr(early, field), getattr(plain, field)), field


def test_no_level_to_solve_is_no_iteration():
    model = SoloModel(compile_board(pit_ring()), BASIC)
    tables = par_rows._tables(model)
    label, loops, levels = par_values._levels(tables.rows)
    store = par_values._Store(model, 1000.0)
    empty = np.zeros(0, dtype=np.intp)
    assert par_values._solve_levels(model, tables, [], label, loops, store, 1.0, 1e-10) == 0
    assert par_values._solve_levels(model, tables, [empty], label, loops, store, 1.0, 1e-10) == 0


def test_a_board_of_one_straight_is_solved_as_before():
    """The module's example: par (3 + 30 + 4) / 20, from three levels of one position."""
    track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    assert round(solve_par(track, reuse=False).par, 6) == 1.85


def test_a_part_of_a_landing_is_the_landing_of_those_rows():
    """:meth:`_Landing.part` (the rows inside their group, landed once for every level)."""
    model = SoloModel(compile_board(pit_ring()), BASIC.with_laps(2))
    tables = par_rows._tables(model)
    store = par_values._Store(model, 1000.0)
    store.value_store[:] = np.random.default_rng(18).random(store.value_store.shape)
    checked = 0
    for p in range(0, len(model.positions), 5):
        rows = par_values._Rows(model, tables, par_rows._rows_of(model, tables, p))
        every = np.arange(len(rows.rows.group))
        land = rows.land(model, every[:, None])
        below_at = land.below_counts()
        checked += int(below_at[-1])
        for lo, hi in ((0, len(every)), (0, 1), (len(every) // 2, len(every)), (3, 3)):
            lo, hi = min(lo, len(every)), min(hi, len(every))
            alone = par_values._values(
                model, rows.land(model, every[lo:hi, None]), store.value_store
            )
            part = par_values._values(model, land.part(lo, hi, below_at), store.value_store)
            assert np.array_equal(part, alone)
    assert checked


def test_a_group_of_several_positions_changes_by_its_most_changed_position():
    """No shipped board has a group of several positions (a position's only cycle is a car
    staying where it is): two positions of one level made one group here. The level is then
    not ``alone`` and its group iterates until both positions settle: the values agree
    with the solve of separate groups within the tolerance."""
    model = SoloModel(compile_board(pit_ring()), BASIC.with_laps(2))
    tables = par_rows._tables(model)
    label, loops, levels = par_values._levels(tables.rows)
    k = next(k for k, part in enumerate(levels) if len(part) >= 2 and loops[label[part]].all())
    a, b = levels[k][:2]
    merged = label.copy()
    merged[merged == label[b]] = label[a]
    table = par_values._LevelRows(model, tables, levels, merged)
    assert not table.alone[k] and table.alone[np.arange(len(levels)) != k].all()
    assert par_values._LevelRows(model, tables, levels, label).alone.all()
    apart = par_values._Store(model, 1000.0)
    par_values._solve_levels(model, tables, levels, label, loops, apart, 1000.0, 1e-10)
    together = par_values._Store(model, 1000.0)
    par_values._solve_levels(model, tables, levels, merged, loops, together, 1000.0, 1e-10)
    assert np.allclose(together.value, apart.value, rtol=0, atol=1e-8)
    assert np.allclose(together.finish, apart.finish, rtol=0, atol=1e-8)


# --- rows of a search: their cost-table index without braking() row by row -----------------

ROW_BOARDS = {
    "monaco": lambda: (compile_board(load_track(TRACKS / "monaco.json")), BASIC),
    "pit ring, two laps (into the box)": lambda: (
        compile_board(pit_ring(2)),
        replace(BASIC, laps=2),
    ),
    "open end (blocked rolls)": lambda: (
        compile_board(
            from_ascii(". . . 1 1 . . . .\n. . . 1 1 . . . .", corners={1: 1}, grid=[0], finish=6)
        ),
        BASIC,
    ),
}


@pytest.mark.parametrize("name", list(ROW_BOARDS))
def test_row_codes_equal_braking_row_by_row(name):
    """D-4 / A-6 / P-2: each row's (cost class, braked, blocked) index, made per option and
    per face group, is the one ``braking`` gives row by row, on every search of the board."""
    board, preset = ROW_BOARDS[name]()
    model = SoloModel(board, preset)
    boxed = blocked = 0
    for found in model._searches.values():
        fast = model._row_codes(found)
        plain = model._row_codes_by_braking(found)
        for a, b in zip(fast, plain, strict=True):
            np.testing.assert_array_equal(a, b)
        boxed += int(found.boxed[plain[1]].sum())
        blocked += int((plain[2] & 1).sum())
    if "box" in name:
        assert boxed, "the board must have rows into the box"
    if "blocked" in name:
        assert blocked, "the board must have blocked rows"
