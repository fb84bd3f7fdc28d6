"""Exact solo par (fdlab.par.solve) and the solo-optimal bot (fdlab.bots.solo)."""

from __future__ import annotations

import dataclasses
import random
import statistics
from pathlib import Path

import pytest
from par_boards import pit_ring

from fdlab.bots.solo import SoloOptimalBot
from fdlab.par import SoloModelError, solve_par
from fdlab.par.model import FINISHED, SoloModel, _Searched
from fdlab.rules.actions import ChooseGear
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.movement import move_options
from fdlab.rules.presets import ADVANCED, BASIC
from fdlab.rules.simulate import simulate
from fdlab.track import from_ascii

#: Every start is a normal start: no stall, no flying start (S-2 thresholds moved).
NO_START_LUCK = dataclasses.replace(
    BASIC, name="no start luck", start_stall_max=0, start_flying_min=21
)


def ring(stops=(2, 1, 1)):
    """A closed two-lane ring with three corners, grid at the last column."""
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    return from_ascii(
        "\n".join([row] * 2),
        corners={1: stops[0], 2: stops[1], 3: stops[2]},
        closed=True,
        grid=[64, 65],
    )


def test_par_of_a_short_straight_is_computed_by_hand():
    """S-2: stall 1/20 (three turns), normal 15/20 (two turns), flying 4/20 (one turn)."""
    track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    solution = solve_par(track)
    assert solution.par == pytest.approx((1 * 3 + 15 * 2 + 4 * 1) / 20, abs=1e-12)
    assert solution.finish_probability == pytest.approx(1.0)


def test_par_without_start_luck_needs_one_turn_per_two_spaces():
    """G-1, G-3: 1st gear moves 1-2, then 2nd moves 2-4: four spaces take two or three turns."""
    track = from_ascii(". . . . . . . . . .", grid=[0], finish=4)
    solution = solve_par(track, NO_START_LUCK)
    # turn 1 in 1st: roll 1 (1/2) leaves 3 to go, roll 2 (1/2) leaves 2.
    # turn 2 in 2nd: from 3 to go, a 2 (1/6) leaves 1 (one more turn), 3 or 4 finish;
    # from 2 to go every face finishes.
    expected = 1 + 0.5 * (1 + 1 / 6) + 0.5 * 1
    assert solution.par == pytest.approx(expected, abs=1e-12)


def test_c4_the_solver_brakes_rather_than_leave_a_two_stop_corner_unstopped():
    """C-4 and D-3: a roll of 2 would leave the 2-stop corner with no stop; braking 1 SP is better."""
    track = from_ascii(". 1 . . . .", corners={1: 2}, grid=[0], finish=2)
    solution = solve_par(track, NO_START_LUCK)
    assert solution.par == pytest.approx(2.0, abs=1e-12)
    assert solution.finish_probability == pytest.approx(1.0)
    model = solution.model
    corner_stop = model.index[(1, 1, 1)]
    # after turn 1 the car is in the corner with one stop, 18 or 17 SP: one more turn
    assert solution.value[corner_stop, 1, 18] == pytest.approx(1.0)
    assert solution.value[corner_stop, 1, 17] == pytest.approx(1.0)


def test_d6_engine_check_is_priced_in_fifth_gear():
    """D-6: with 1 SP a 20 in 5th may end the race, so the value of 5th is worse than with 2 SP."""
    solution = solve_par(ring())
    p = solution.model.index[solution.model.start]
    assert solution.value[p, 4, 1] >= solution.value[p, 4, 2]


def test_option_rows_match_a_direct_search_for_every_face():
    """D-4 / P-2 / C-2: the solver's option rows for each face equal move_options for that roll.

    The rows derive every face's options from one wide search with the
    vectorised :func:`fdlab.rules.movement.braking`; this checks them, face by
    face, against the engine's own search, successor and cost for that roll.
    """
    model = SoloModel(compile_board(ring()), BASIC)
    rng = random.Random(5)
    for p in rng.sample(range(len(model.positions)), 25):
        position = model.positions[p]
        rows = model.rows(p)
        for k in rng.sample(range(len(model.groups)), 6):
            _, roll, _ = model.groups[k]
            mine = rows.group == k
            got = sorted(zip(rows.target[mine].tolist(), rows.loss[mine].tolist(), strict=True))
            direct = move_options(model.board, position[0], roll, model._rules(position))
            expected = []
            for option in direct:
                nxt = model.successor(position, option)
                if nxt == FINISHED:
                    cost = model.finish_cost(position[0], option)
                    expected.append((FINISHED, cost.total))
                else:
                    expected.append((model.index[nxt], model.cost(position[0], option).total))
            assert got == sorted(expected)


def test_solo_races_average_the_par_within_their_confidence_interval():
    """The solver and the engine agree: simulated solo races of the optimal bot average the par."""
    board = compile_board(ring())
    solution = solve_par(board)
    bot = SoloOptimalBot(solution)
    turns = []
    for seed in range(400):
        result = simulate(board, [bot], seed=seed)
        assert result.finished == (0,)
        turns.append(result.rounds)
    mean = statistics.mean(turns)
    error = statistics.stdev(turns) / len(turns) ** 0.5
    assert abs(mean - solution.par) < 3 * error + 1e-9
    assert solution.finish_probability > 0.999


def test_solo_optimal_bot_is_not_beaten_by_the_heuristic_bot():
    """Par is a floor: the heuristic bot needs at least as many turns on average."""
    from fdlab.bots import HeuristicBot

    board = compile_board(ring())
    solution = solve_par(board)
    heuristic = [simulate(board, [HeuristicBot()], seed=s).rounds for s in range(200)]
    assert statistics.mean(heuristic) >= solution.par - 3 * statistics.stdev(heuristic) / 200**0.5


def test_preset_with_five_pools_is_refused_with_the_reason():
    with pytest.raises(SoloModelError, match="one damage pool"):
        SoloModel(compile_board(ring()), ADVANCED)


def test_board_without_grid_is_refused():
    with pytest.raises(SoloModelError, match="no grid spot"):
        solve_par(from_ascii(". . . ."))


def test_two_lap_par_with_a_pit_lane_agrees_with_simulation():
    """P-2..P-5: with the pits open the solver may restore SP in the box; the engine agrees."""
    track = pit_ring()
    board = compile_board(track)
    solution = solve_par(board, laps=2)
    assert solution.model.positions and any(
        board.kind[s] == "box" for s, _, _ in solution.model.positions
    )
    bot = SoloOptimalBot(solution)
    results = [simulate(board, [bot], laps=2, seed=seed) for seed in range(300)]
    turns = [r.rounds for r in results if r.finished]
    assert len(turns) == 300
    error = statistics.stdev(turns) / len(turns) ** 0.5
    assert abs(statistics.mean(turns) - solution.par) < 3 * error


TRACKS = Path(__file__).resolve().parents[2] / "tracks"


@pytest.mark.skipif(not (TRACKS / "training.json").exists(), reason="tracks/ not built")
def test_par_of_the_shipped_training_ring_agrees_with_simulation():
    from fdlab.track import load_track

    board = compile_board(load_track(TRACKS / "training.json"))
    solution = solve_par(board)
    bot = SoloOptimalBot(solution)
    turns = [simulate(board, [bot], seed=seed).rounds for seed in range(300)]
    error = statistics.stdev(turns) / len(turns) ** 0.5
    assert abs(statistics.mean(turns) - solution.par) < 3 * error


def test_s4_a_corner_past_the_line_costs_nothing_on_the_last_lap():
    """S-4: the engine charges nothing past the finish line on the last lap; nor does the solver.

    Two spaces before the line, in 4th gear with 1 SP left, every roll of 3rd
    gear (4-8) runs over the line into a 3-stop corner and out of it. Were
    the corner charged (C-4, or braking to stay out of it), the car would
    be eliminated; the engine finishes it, so one turn is left.
    """
    row = ". . . . . . 1 . . . . . . . . . . . . . . . . . ."
    track = from_ascii(row, corners={1: 3}, grid=[0], finish=5)
    solution = solve_par(track)
    p = solution.model.index[(3, 1, 0)]
    assert solution.value[p, 4, 1] == pytest.approx(1.0, abs=1e-12)
    assert solution.gear_policy[p, 4, 1] in (3, 4, 5)
    # the engine agrees: that car finishes the race in one turn, whatever it rolls
    board = compile_board(track)
    engine = Engine(board, BASIC, ["Solo"])
    state = engine.position([{"space": 3, "gear": 4, "pools": (1,), "lap": 1}])
    for roll in range(4, 9):
        rolled, _ = engine.step(state, ChooseGear(3), LoadedDice([roll]))
        over_the_line = [c for o, c in engine.legal_moves(rolled) if "finish" in o.lines]
        assert over_the_line and all(not c.eliminated and c.total == 0 for c in over_the_line)


@pytest.mark.skipif(not (TRACKS / "monaco.json").exists(), reason="tracks/ not built")
def test_par_of_the_shipped_monaco_agrees_with_simulation_within_one_percent():
    """The issue's check on a real board: solo races of the optimal bot average the par (1%)."""
    from fdlab.track import load_track

    board = compile_board(load_track(TRACKS / "monaco.json"))
    solution = solve_par(board)
    bot = SoloOptimalBot(solution)
    turns = [simulate(board, [bot], seed=seed).rounds for seed in range(400)]
    mean = statistics.mean(turns)
    error = statistics.stdev(turns) / len(turns) ** 0.5
    assert abs(mean - solution.par) < 3 * error
    assert abs(mean - solution.par) < 0.01 * solution.par
    assert 3 * error < 0.01 * solution.par  # the interval is tight enough to tell 1%


def test_box_slot_gives_the_solver_that_cars_own_box():
    """P-2: a car may only enter its own box; the solo model uses the box of car ``box_slot``."""
    board = compile_board(pit_ring(boxes=2))
    boxes = {board.box[i]: i for i in range(len(board.ids)) if board.kind[i] == "box"}
    preset = BASIC.with_laps(2)
    assert SoloModel(board, preset).own_box == boxes[1]
    second = solve_par(board, laps=2, box_slot=2)
    assert second.model.own_box == boxes[2]
    assert any(space == boxes[2] for space, _, _ in second.model.positions)
    assert not any(space == boxes[1] for space, _, _ in second.model.positions)
    with pytest.raises(SoloModelError, match="box_slot"):
        SoloModel(board, preset, box_slot=11)


def test_solo_bot_solved_for_another_cars_box_is_refused_not_stalled():
    """Solved for car 1's box, driving car 2 in a two-lap race, the bot says so.

    (It used to wait forever in the pit lane for a box it may not enter.)
    """
    from fdlab.bots import HeuristicBot

    board = compile_board(pit_ring(boxes=2))
    bot = SoloOptimalBot(solve_par(board, laps=2))
    with pytest.raises(ValueError, match=r"box of car 1 but drives car 2.*box_slot=2"):
        simulate(board, [HeuristicBot(), bot], laps=2, seed=0)


def test_shared_searches_give_each_position_the_engines_options_and_successors():
    """Positions share a search only where the rules make it identical (P-7: the pits
    are open on lap 1 only, which matters only where a step into the pit lane is in
    reach); every option leads where :meth:`SoloModel.successor` says (C-2, C-6, S-4)."""
    board = compile_board(pit_ring(boxes=2))
    model = SoloModel(board, BASIC.with_laps(2))
    searches = {id(found) for found in model._search_of}
    assert len(searches) < len(model.positions)  # laps 0 and 2, and far from the pits
    for p, position in enumerate(model.positions):
        found = model._search_of[p]
        direct = move_options(board, position[0], model.max_roll, model._rules(position))
        assert found.destination.tolist() == [o.destination for o in direct]
        assert found.moved.tolist() == [o.moved for o in direct]
        assert found.boxed.tolist() == [o.boxed for o in direct]
        assert found.overshoots == [o.overshoots for o in direct]
        for option, target in zip(direct, model._targets[p].tolist(), strict=True):
            nxt = model.successor(position, option)
            assert target == (FINISHED if nxt == FINISHED else model.index[nxt])


@pytest.mark.parametrize(
    ("track", "laps_round"),
    [
        (ring(stops=(3, 2, 1)), False),
        # 14 spaces a lap: a 30 moves round it twice, leaving the 3-stop corner twice
        (
            from_ascii(". 1 1 . . . . . . . 2 . . .", corners={1: 3, 2: 1}, closed=True, grid=[13]),
            True,
        ),
    ],
)
def test_c3_a_car_with_some_stops_made_takes_the_search_with_none_made(track, laps_round):
    """C-2, C-3: in a corner, a position with fewer stops made than needed reuses the
    search made for no stops; its options, overshoots (stops made recorded on leaving
    the corner, not on a second lap round it), stop counts and cost classes are those of
    a search of its own."""
    board = compile_board(track)
    model = SoloModel(board, BASIC, batched=False)  # the batch makes every count itself
    some_made = [
        p
        for p, (space, _, stops) in enumerate(model.positions)
        if board.corner[space] is not None and 0 < stops < board.stops[board.corner[space]]
    ]
    assert len(some_made) >= 3
    for p in some_made:
        position = model.positions[p]
        shared = model._search_of[p]
        own = _Searched(model, position[0], shared._rules)
        assert shared._rules.stops_made == position[2]
        assert shared.overshoots == own.overshoots
        assert shared.capped_stops.tolist() == own.capped_stops.tolist()
        assert shared.classes.tolist() == own.classes.tolist()
        assert shared.destination.tolist() == own.destination.tolist()
        assert shared.moved.tolist() == own.moved.tolist()
    twice = [o for p in some_made for o in model._search_of[p].overshoots if len(o) > 1]
    left_twice = any(len({o.corner for o in overs}) < len(overs) for overs in twice)
    assert left_twice == laps_round


def test_solve_par_pauses_the_cycle_collector_and_switches_it_back_on():
    """No collector passes while solving (speed: the default thresholds make dozens here).

    One pass may follow the solve, when the collector is back on.
    """
    import gc

    from fdlab.track import from_ascii

    passes = []

    def count(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    row = " ".join(["."] * 4 + ["1"] * 3 + ["."] * 14 + ["2"] * 3 + ["."] * 16)
    track = from_ascii("\n".join([row] * 3), corners={1: 1, 2: 2}, closed=True, grid=[117, 118])
    gc.callbacks.append(count)
    try:
        gc.collect()
        passes.clear()
        solution = solve_par(track)
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled() and len(passes) <= 1 and solution.finish_probability > 0.99


def test_a_solved_model_frees_its_option_lists_and_searches_again_when_asked():
    """After the solve the model keeps arrays, not options; rows are the same made again."""
    board = compile_board(ring())
    model = SoloModel(board, BASIC)
    before = [model.rows(p) for p in range(len(model.positions))]
    solution = solve_par(board)
    again = solution.model
    assert all(found._options is None for found in again._searches.values())
    assert all(found._paths is None for found in again._searches.values())
    for p, rows in enumerate(before):
        found = again._search_of[p]
        assert found.options == move_options(
            board, again.positions[p][0], again.max_roll, again._rules(again.positions[p])
        )
        other = again.rows(p)
        for name in ("group", "target", "loss", "doomed", "restore", "exempt", "starts"):
            assert (getattr(other, name) == getattr(rows, name)).all(), name


def test_a_model_keeps_each_distinct_overshoot_tuple_once():
    """Equal overshoots of options are one object, so the collector has little to pass over
    (a kept Monaco model held 400,000 overshoot named tuples, a full collection 0.2 s); the
    options still carry the overshoots the engine's own search gives them."""
    board = compile_board(ring())
    model = SoloModel(board, BASIC)
    overshoots = [o for found in model._searches.values() for o in found.overshoots if o]
    assert len(overshoots) > len(set(overshoots)) > 1
    assert len({id(o) for o in overshoots}) == len(set(overshoots))
    for (space, rules), found in model._searches.items():
        searched = move_options(board, space, model.max_roll, rules)
        assert found.overshoots == [option.overshoots for option in searched]


def test_row_values_read_the_same_states_as_the_landing_of_whole_rows():
    """A landing used once (:meth:`_Rows.row_values`) is the general landing's values, exactly,
    with pit stops restoring the pool (P-2) and engine checks (D-6) in the rows."""
    import numpy as np

    from fdlab.par.rows import _rows_of, _tables
    from fdlab.par.values import _Rows, _Store, _values

    track = pit_ring()
    model = SoloModel(compile_board(track), BASIC.with_laps(2))
    tables = _tables(model)
    store = _Store(model, 1000.0)
    store.value_store[:] = np.random.default_rng(7).random(store.value_store.shape)
    restored = checked = 0
    for p in range(len(model.positions)):
        rows = _Rows(model, tables, _rows_of(model, tables, p))
        every = np.arange(len(rows.rows.group))
        general = _values(model, rows.land(model, every[:, None]), store.value_store)
        assert np.array_equal(rows.row_values(model, every, store.value_store), general)
        restored += int(rows.rows.restore.sum())
        checked += int(rows.check.sum())
    assert restored and checked


@pytest.mark.parametrize(
    ("size", "bound"),
    [
        (0, 1),
        (1, 1),
        (7, 3),
        (4000, 50),
        (4000, 2**16),
        (4000, 2**16 + 1),
        (4000, 2**20),
        (4000, 2**20 + 1),
        (4000, 2**61),
    ],
)
def test_stable_order_is_the_stable_argsort(size, bound):
    """The sort behind ``_distinct`` orders like a stable argsort, equal values in their
    order: 16-bit values by counting, others packed with their place in 32 bits where they
    fit (4000 places take 12 bits: values below 2**20) and in 64 otherwise; values too
    large to pack fall back to the argsort itself."""
    import numpy as np

    from fdlab.par.ordering import stable_order

    rng = np.random.default_rng(size)
    values = rng.integers(0, bound, size, dtype=np.int64)
    want = np.argsort(values, kind="stable")
    assert stable_order(values, bound).tolist() == want.tolist()


@pytest.mark.parametrize("name", ["ring", "training", "pit ring"])
def test_distinct_rows_made_from_the_options_are_those_of_all_the_rows(name):
    """The solver's rows of each position, made from its search's options, are those
    ``_distinct`` keeps of all its rows (P-2 boxes and two laps in the pit ring)."""
    from fdlab.par.rows import _distinct, _distinct_rows
    from fdlab.track import load_track

    laps = 2 if name == "pit ring" else 1
    if name == "ring":
        track = ring()
    elif name == "pit ring":
        track = pit_ring(boxes=2)
    else:
        track = load_track(TRACKS / "training.json")
    model = SoloModel(compile_board(track), BASIC.with_laps(laps))
    for p in range(len(model.positions)):
        want, got = _distinct(model, model.rows(p)), _distinct_rows(model, p)
        for column in ("group", "target", "loss", "doomed", "restore", "exempt", "starts"):
            assert getattr(got, column).tolist() == getattr(want, column).tolist(), column


def test_first_true_is_the_first_row_of_each_group_and_column():
    """The solver's first row of least value (ties: the option listed first) per face."""
    import numpy as np

    from fdlab.par.values import _first_true

    rng = np.random.default_rng(3)
    mask = rng.random((60, 5)) < 0.3
    starts = np.array([0, 7, 8, 30, 41])
    ends = np.append(starts[1:], len(mask))
    for a, b in zip(starts, ends, strict=True):
        mask[a, rng.integers(0, 5)] = True
        mask[b - 1, :] = True  # every group has a true element in every column
    first = _first_true(mask, starts)
    for k, (a, b) in enumerate(zip(starts, ends, strict=True)):
        for c in range(5):
            assert first[k, c] == a + int(np.argmax(mask[a:b, c]))


def test_a_solution_says_how_long_each_part_of_the_solve_took():
    """benchmarks/par.py prints where a solve spends its time: the parts add up to it."""
    solution = solve_par(compile_board(ring()))
    assert list(solution.phases) == ["model", "tables", "values"]
    assert all(seconds >= 0 for seconds in solution.phases.values())
    assert sum(solution.phases.values()) == pytest.approx(solution.seconds)


@pytest.mark.parametrize("name", ["ring", "training"])
def test_the_rows_kept_give_every_group_minimum_of_all_the_rows(name):
    """_distinct drops a row only where another row of its face group is as good at every
    pool value: the group minima over the kept rows are those over all the rows, for any
    values that do not rise with the pool (a lone car's values never do)."""
    import numpy as np

    from fdlab.par.rows import _distinct, _tables
    from fdlab.par.values import _Rows, _Store
    from fdlab.track import load_track

    track = ring() if name == "ring" else load_track(TRACKS / "training.json")
    model = SoloModel(compile_board(track), BASIC)
    tables = _tables(model)
    store = _Store(model, 1000.0)
    rng = np.random.default_rng(5)
    steps = rng.exponential(size=store.value.shape)
    store.value[...] = 50.0 + np.cumsum(steps[:, :, ::-1], axis=2)[:, :, ::-1]
    dropped = 0
    for p in range(len(model.positions)):
        rows = model.rows(p)
        kept = _distinct(model, rows)
        dropped += len(rows.group) - len(kept.group)
        least = []
        for some in (rows, kept):
            w = _Rows(model, tables, some).row_values(
                model, np.arange(len(some.group)), store.value_store
            )
            least.append(np.minimum.reduceat(w, some.starts, axis=0))
        assert np.array_equal(least[0], least[1]), model.positions[p]
    assert dropped > 0


def _distinct_reference(model, rows):
    """:func:`fdlab.par.solve._distinct` as first written: a sort per column (lexsort)."""
    import numpy as np

    top = model.pool_max
    doomed = rows.doomed | (
        ~rows.restore & (rows.loss >= (top if model.pool_dies_at_zero else top + 1))
    )
    loss = np.where(doomed | rows.restore, 0, rows.loss)
    n_targets = len(model.positions) + 2
    kind = np.where(doomed, 0, ((rows.target + 2) * 2 + rows.restore) * 2 + rows.exempt)
    key = rows.group.astype(np.int64) * (n_targets * 4 + 1) + kind
    order = np.lexsort((loss, key))
    head = np.ones(len(order), dtype=bool)
    head[1:] = key[order[1:]] != key[order[:-1]]
    return np.sort(order[head])


@pytest.mark.parametrize("name", ["ring", "pit ring", "training"])
def test_the_distinct_rows_are_those_of_the_plain_reference(name):
    """_distinct keeps, row for row, what the column-by-column sort kept (the cheapest
    row of each face group and landing, the first among equals), on every position;
    two laps with the pits open on the pit ring (rows that restore the pool)."""
    import numpy as np

    from fdlab.par.rows import _distinct
    from fdlab.rules.presets import get_preset
    from fdlab.track import load_track

    laps = 1
    if name == "ring":
        track = ring()
    elif name == "pit ring":
        track, laps = pit_ring(boxes=2), 2
    else:
        track = load_track(TRACKS / "training.json")
    model = SoloModel(compile_board(track), get_preset("basic", laps))
    for p in range(len(model.positions)):
        rows = model.rows(p)
        kept = _distinct(model, rows)
        keep = _distinct_reference(model, rows)
        for name_ in ("group", "target", "loss", "doomed", "restore", "exempt"):
            assert np.array_equal(getattr(kept, name_), getattr(rows, name_)[keep])


def test_a_move_that_costs_less_than_nothing_is_refused(monkeypatch):
    """The cost tables mark what is not priced yet with a negative loss, and the rows'
    sort packs losses as they are: a cost below zero (a house rule that gives points
    back, say) is refused with the preset's name, not solved wrongly."""
    import fdlab.par.model as par_model

    real = par_model.move_costs

    def generous(board, preset, car, options):
        return [dataclasses.replace(cost, loss=(-1,)) for cost in real(board, preset, car, options)]

    monkeypatch.setattr(par_model, "move_costs", generous)
    with pytest.raises(SoloModelError, match="a move costs less than nothing under 'basic'"):
        solve_par(from_ascii(". . . . . . . .", grid=[0], finish=3), reuse=False)
