"""The default bot (ParBot): guided by the exact solo solution, adjusted for the other cars."""

from __future__ import annotations

import random

import pytest

from fdlab.bots import HeuristicBot
from fdlab.bots.parbot import ParBot, care_of
from fdlab.bots.roster import DEFAULT_BOT, make_bot
from fdlab.par import solo_table, solve_par
from fdlab.par.approx import solo_pool, solo_preset
from fdlab.rules import ChooseGear, Engine, LoadedDice, compile_board, simulate
from fdlab.rules.presets import BASIC, get_preset
from fdlab.rules.view import RaceView
from fdlab.track import from_ascii

LOOP = compile_board(
    from_ascii(
        "\n".join([". . . 1 1 . . . . . . . . 2 2 2 . . . . . . 3 3 . . . ."] * 3),
        corners={1: 1, 2: 2, 3: 1},
        closed=True,
        grid=[81, 82, 83, 78, 79, 80, 75, 76, 77, 72],
    )
)

PITS = compile_board(
    from_ascii(
        """
        . . . . 1 1 . . . . . . . . . . . . 2 2 . . . .
        . . . . 1 1 . . . . . . . . . . . . 2 2 . . . .
        x x x x x x x x x x x x x x p p p p p p p x x x
        x x x x x x x x x x x x x x x B B B x x x x x x
        """,
        corners={1: 1, 2: 2},
        closed=True,
        finish=19,
        grid=[72, 73, 68, 69],
    )
)


def view_at(engine, placements, gear=None, roll=None):
    state = engine.position(placements, order=tuple(range(len(placements))))
    if roll is not None:
        state, _ = engine.step(state, ChooseGear(gear), LoadedDice([roll]))
    return RaceView(engine, state, state.current)


def track_spaces(board):
    return [i for i in range(len(board)) if board.kind[i] == "track"]


def test_par_is_the_default_bot_of_playtests():
    assert DEFAULT_BOT == "par"
    bot = make_bot("par:cautious", board=LOOP, preset=BASIC, seed=0)
    assert isinstance(bot, ParBot) and bot.care == care_of("cautious") > care_of("balanced")


def test_D2_never_an_eliminating_move_nor_gear_when_a_safe_one_exists():
    """Over random positions, pools and rolls (other cars around): the choice is safe if one is."""
    rng = random.Random(3)
    table = solo_table(LOOP, BASIC)
    engine = Engine(LOOP, BASIC, ["A", "B", "C"])
    spaces = track_spaces(LOOP)
    risky = 0
    for _ in range(150):
        at = rng.sample(spaces, 3)
        gear = rng.randint(1, 6)
        pools = (rng.randint(1, 4),)
        ids = LOOP.ids
        others = [{"space": ids[s], "gear": 2} for s in at[1:]]
        view = view_at(engine, [{"space": ids[at[0]], "gear": gear, "pools": pools}, *others])
        bot = ParBot(table, rng.choice(["cautious", "balanced", "reckless"]))
        chosen = bot.choose_gear(view)
        if any(not view.gear_eliminates(g) for g in view.legal_gears()):
            assert not view.gear_eliminates(chosen)
        faces = sorted(set(BASIC.gear_faces[chosen - 1]))
        moved = view_at(
            engine,
            [{"space": ids[at[0]], "gear": gear, "pools": pools}, *others],
            gear=chosen,
            roll=rng.choice(faces),
        )
        moves = moved.legal_moves()
        option = bot.choose_move(moved, moves)
        cost = next(c for o, c in moves if o is option)
        if any(not c.eliminated for _, c in moves):
            risky += any(c.eliminated for _, c in moves)
            assert not cost.eliminated
    assert risky > 10  # the positions did offer eliminating moves


def test_alone_it_plays_the_solvers_policy():
    """A lone reckless ParBot (no extra care) picks the solver's gear and a least-value move."""
    solution = solve_par(LOOP)
    bot = ParBot(solution.table(), "reckless")
    engine = Engine(LOOP, BASIC, ["A"])
    rng = random.Random(5)
    checked = 0
    for space in rng.sample(track_spaces(LOOP), 40):
        if solution.position_index(space, 1, 0) is None:
            continue  # a corner space: a lone car there has made a stop
        pool = rng.randint(2, 18)
        gear = rng.randint(1, 5)
        placement = [{"space": LOOP.ids[space], "gear": gear, "lap": 1, "pools": (pool,)}]
        view = view_at(engine, placement)
        lap = 1
        chosen = bot.choose_gear(view)
        assert chosen == solution.best_gear(space, lap, 0, gear, pool)
        roll = rng.choice(BASIC.gear_faces[chosen - 1])
        moved = view_at(engine, placement, chosen, roll)
        moves = moved.legal_moves()
        option = bot.choose_move(moved, moves)
        values = [solution.option_value(space, lap, 0, chosen, pool, o, c, roll) for o, c in moves]
        mine = values[[o for o, _ in moves].index(option)]
        assert mine == pytest.approx(min(values))
        checked += 1
    assert checked >= 20


def test_P2_it_pits_exactly_when_the_par_solution_says_so():
    """Two laps with pits: where the solver's best move is the box, the bot takes it, and only there."""
    preset = BASIC.with_laps(2)
    solution = solve_par(PITS, preset)
    bot = ParBot(solution.table(), "reckless")
    engine = Engine(PITS, preset, ["A"])
    boxed = not_boxed = 0
    for space in track_spaces(PITS):
        for pool in (2, 5, 9, 18):
            for gear, roll in ((2, 3), (3, 6), (3, 8), (4, 10)):
                placement = [{"space": PITS.ids[space], "gear": gear, "lap": 1, "pools": (pool,)}]
                try:
                    view = view_at(engine, placement, gear, roll)
                except ValueError:
                    continue  # an illegal gear here
                moves = view.legal_moves()
                if solution.position_index(space, 1, 0) is None or not moves:
                    continue
                values = [
                    solution.option_value(space, 1, 0, gear, pool, o, c, roll) for o, c in moves
                ]
                best = min(values)
                if len({o.boxed for (o, _), v in zip(moves, values, strict=True) if v == best}) > 1:
                    continue  # box and track tie: either is right
                solver_boxes = moves[values.index(best)][0].boxed
                assert bot.choose_move(view, moves).boxed == solver_boxes
                boxed += solver_boxes
                not_boxed += not solver_boxes
    assert boxed > 0 and not_boxed > 0


def test_in_traffic_it_gears_down_behind_a_blocking_car():
    """One lane, a car 5 spaces ahead: high gears would be blocked and pay braking (D-4).

    With 4 SP left that braking could eliminate the car; alone it keeps its gear.
    """
    board = compile_board(from_ascii(" ".join(["."] * 60), grid=[1, 0], finish=59))
    table = solo_table(board, BASIC)
    engine = Engine(board, BASIC, ["A", "B"])
    alone = view_at(
        engine, [{"space": 10, "gear": 4, "lap": 1, "pools": (4,)}, {"space": 50, "gear": 1}]
    )
    free_gear = ParBot(table).choose_gear(alone)
    behind = view_at(
        engine, [{"space": 10, "gear": 4, "lap": 1, "pools": (4,)}, {"space": 15, "gear": 1}]
    )
    assert table.position_index(board, 10, 1, 0) is not None
    blocked_gear = ParBot(table).choose_gear(behind)
    assert free_gear >= 4 and blocked_gear <= 3


@pytest.mark.parametrize("preset", ["basic", "basic2", "street", "advanced"])
def test_races_of_par_bots_end_under_every_preset(preset):
    rules = BASIC.with_laps(2) if preset == "basic2" else get_preset(preset)
    bots = [make_bot("par", board=PITS, preset=rules, seed=k, slot=k + 1) for k in range(3)]
    bots.append(HeuristicBot())
    result = simulate(PITS, bots, rules, seed=11)
    assert result.state.over and len(result.ranking) == 4


def test_approximations_for_street_and_advanced_keep_one_pool():
    advanced = get_preset("advanced")
    model = solo_preset(advanced)
    assert len(model.pools) == 1 and not model.street
    assert solo_pool(advanced, advanced.pool_max) == model.pool_max[0]
    assert solo_preset(BASIC) is BASIC


def test_par_bots_finish_a_six_car_race_more_often_than_heuristic_bots():
    """Six cars on the loop with a 2-stop corner: par bots lose no more cars than heuristic ones."""
    table = solo_table(LOOP, BASIC)
    par_out = heuristic_out = 0
    for seed in range(6):
        par_out += len(simulate(LOOP, [ParBot(table) for _ in range(6)], seed=seed).eliminated)
        heuristic_out += len(
            simulate(LOOP, [HeuristicBot() for _ in range(6)], seed=seed).eliminated
        )
    assert par_out <= heuristic_out


@pytest.mark.parametrize("preset", ["basic", "street"])
def test_after_a_look_ahead_the_move_is_the_one_the_full_choice_makes(preset):
    """The move a look-ahead found for each face is the choice the scoring of every move makes.

    Cars around on LOOP (traffic, so the look-ahead runs); for each face of
    the chosen gear the planned move is compared with the full choice.
    """
    rules = get_preset(preset)
    table = solo_table(LOOP, rules)
    engine = Engine(LOOP, rules, ["A", "B", "C", "D"])
    rng = random.Random(7)
    spaces = track_spaces(LOOP)
    planned = 0
    for _ in range(25):
        mine, *others = rng.sample(spaces, 4)
        placements = [{"space": mine, "gear": rng.randint(2, 5), "lap": 1}]
        placements += [{"space": s, "gear": 3} for s in others]
        view = view_at(engine, placements)
        bot = ParBot(table, rng.choice(["cautious", "balanced", "reckless"]))
        gear = bot.choose_gear(view)
        plan = bot._plan
        if plan is None or plan.gear != gear:
            continue
        for roll in sorted(plan.best):
            bot._plan = plan
            state, _ = engine.step(view.state, ChooseGear(gear), LoadedDice([roll]))
            rolled = RaceView(engine, state, state.current)
            moves = rolled.legal_moves()
            bot._occupied = state.occupied(skip=rolled.car_index)
            from_plan = bot._planned(rolled, moves)
            full = bot._lean_choice(rolled, moves, gear, roll)
            if from_plan is not None:
                planned += 1
                assert from_plan is full
    assert planned > 20


#: LOOP with danger and shooting spaces (street rules, X-2 / X-3).
STREET_LOOP = compile_board(
    from_ascii(
        "\n".join(
            [
                ". . . 1 1 . . . . . . . . 2 2 2 . . . . . . 3 3 . . . .",
                ". . . 1 1 . . D . . S . . 2 2 2 . . D D . . 3 3 . . . .",
                ". . . 1 1 . . . . D . . . 2 2 2 . . . . . . 3 3 . S . .",
            ]
        ),
        corners={1: 1, 2: 2, 3: 1},
        closed=True,
        grid=[81, 82, 83, 78, 79, 80, 75, 76, 77, 72],
    )
)


@pytest.mark.parametrize(("preset", "board"), [("basic", LOOP), ("street", STREET_LOOP)])
def test_D5_contacts_and_chances_are_counted_as_the_cars_stand(preset, board):
    """D-5 / X-2 / X-3: the cars a destination touches, kept per car placement,
    are the count of ``board.touching`` at that moment, and the remembered
    chances of damage are those worked out from scratch, move by move."""
    rules = get_preset(preset)
    table = solo_table(board, rules)
    engine = Engine(board, rules, ["A", "B", "C", "D", "E"])
    rng = random.Random(11)
    spaces = track_spaces(board)
    bot = ParBot(table)
    kinds = set()
    for _ in range(15):
        mine, *others = rng.sample(spaces, 5)
        placements = [{"space": mine, "gear": 3, "lap": 1}] + [{"space": s} for s in others]
        view = view_at(engine, placements, gear=4, roll=rng.randint(7, 12))
        bot._occupied = view.state.occupied(skip=view.car_index)
        for space in spaces:
            touched = sum(1 for s in board.touching[space] if s in bot._occupied)
            assert bot._touched(board, space) == touched
        for option, _ in view.legal_moves():
            fresh = ParBot(table)
            fresh._occupied = bot._occupied
            chances = bot._chances(view, option)
            assert chances == fresh._chances(view, option)
            kinds.add(chances)
    assert len(kinds) >= (4 if preset == "street" else 2)


def test_the_look_ahead_reads_as_far_down_each_row_as_it_needs(monkeypatch):
    """Rows are read from a short head first: a head of one option gives the same gears and plans."""
    from fdlab.bots import parbot

    table = solo_table(LOOP, BASIC)
    engine = Engine(LOOP, BASIC, ["A", "B", "C", "D"])
    rng = random.Random(5)
    spaces = track_spaces(LOOP)
    seen = []
    for head in (parbot._HEAD, 1):
        monkeypatch.setattr(parbot, "_HEAD", head)
        rng.seed(5)
        plans = []
        for _ in range(20):
            mine, *others = rng.sample(spaces, 4)
            placements = [{"space": mine, "gear": rng.randint(2, 5), "lap": 1}]
            placements += [{"space": s, "gear": 3} for s in others]
            bot = ParBot(table, rng.choice(["cautious", "balanced", "reckless"]))
            gear = bot.choose_gear(view_at(engine, placements))
            plan = bot._plan
            plans.append((gear, None if plan is None else (plan.gear, plan.best)))
        seen.append(plans)
    assert seen[0] == seen[1]
    assert sum(plan is not None for _, plan in seen[0]) > 10


def test_A3_it_prices_a_spin_as_a_restart_in_first_gear():
    """A-3: a move that leaves the tires at exactly 0 spins the car, which restarts in 1st.

    With 1 tire WP left, a roll of 5 from two spaces before a one-stop corner
    offers an overshoot by 1 that spins the car (a brake WP and the last tire)
    or braking 2 spaces into the corner. Both cost the one-pool model about
    the same points, and the overshoot goes a space farther; the spin makes
    it the worse move.
    """
    cells = ["."] * 40
    cells[10] = cells[11] = "1"
    board = compile_board(from_ascii(" ".join(cells), corners={1: 1}, grid=[1, 0], finish=39))
    advanced = get_preset("advanced")
    engine = Engine(board, advanced, ["A"])
    view = view_at(engine, [{"space": 8, "gear": 3, "lap": 1, "pools": (1, 3, 2, 2, 2)}], 3, 5)
    moves = view.legal_moves()
    spins = [option.moved for option, cost in moves if cost.spin]
    assert spins == [4]
    chosen = ParBot(solo_table(board, advanced)).choose_move(view, moves)
    assert chosen.moved == 3 and chosen.braked == 2


def test_A7_under_the_advanced_rules_it_checks_the_solvers_gear_with_the_exact_costs(monkeypatch):
    """R-4, A-7: the solver models the advanced rules with one pool (tires and brakes) and
    leaves fuel out, so a drop of two gears is free to it. Alone, the bot checks the
    solver's gear with the look-ahead's exact costs every turn; when that gear costs fuel,
    the gears up to the car's own are weighed too (a one-gear drop costs nothing)."""
    advanced = get_preset("advanced")
    table = solo_table(LOOP, advanced)
    engine = Engine(LOOP, advanced, ["A"])
    weighed = []
    real = ParBot._look_ahead

    def spy(self, view, gears):
        weighed.append(list(gears))
        return real(self, view, gears)

    monkeypatch.setattr(ParBot, "_look_ahead", spy)
    space = 3  # before corner 1: from 5th, the solver drops to 2nd
    assert table.best_gear(LOOP, space, 1, 0, 5, 7) == 2
    view = view_at(engine, [{"space": space, "gear": 5, "lap": 1}])
    assert engine.downshift_cost(view.car, 2)["fuel"] == 1
    gear = ParBot(table).choose_gear(view)
    assert 4 in weighed[-1] and gear in weighed[-1]
    free = view_at(engine, [{"space": space, "gear": 3, "lap": 1}])
    solver = table.best_gear(LOOP, space, 1, 0, 3, 7)
    assert not engine.downshift_cost(free.car, solver).get("fuel")
    ParBot(table).choose_gear(free)
    assert solver in weighed[-1] and max(weighed[-1]) == solver


def test_R4_alone_under_the_advanced_rules_it_never_brings_the_car_to_a_corner_it_cannot_pay():
    """R-4, A-2: the one-pool model lets brake points pay for an overshoot; the exact costs do
    not. On the loop, a car alone that trusted the solver's gear reached the last corner in 4th
    with 2 tires, where every roll overshoots it by 4 up to the line (seed 3)."""
    advanced = get_preset("advanced")
    table = solo_table(LOOP, advanced)
    results = [simulate(LOOP, [ParBot(table)], advanced, seed=seed) for seed in range(12)]
    assert all(result.finished for result in results)


def test_D5_the_least_score_skips_random_damage_only_where_it_cannot_win():
    """A-8, D-5: under several pools a face's best move is the least score of its moves;
    the look-ahead works out the chances of contact only while a move can still win, and
    finds the same least score as scoring every move with them."""
    from fdlab.rules.costs import move_costs
    from fdlab.rules.movement import move_options_for_rolls
    from fdlab.rules.state import CarState

    advanced = get_preset("advanced")
    table = solo_table(LOOP, advanced)
    engine = Engine(LOOP, advanced, ["A", "B", "C", "D"])
    rng = random.Random(8)
    spaces = track_spaces(LOOP)
    compared = with_contact = 0
    for _ in range(40):
        picked = rng.sample(spaces, 4)
        pools = (rng.randint(1, 4), rng.randint(0, 3), rng.randint(0, 2), rng.randint(1, 2), 2)
        placements = [{"space": picked[0], "gear": 4, "lap": 1, "pools": pools}]
        placements += [{"space": s, "gear": 3, "lap": 1} for s in picked[1:]]
        view = view_at(engine, placements)
        bot = ParBot(table)
        bot._occupied = view.state.occupied(skip=view.car_index)
        car = view.car
        if table.position_index(LOOP, car.space, car.lap, car.stops) is None:
            continue
        rules = engine.move_rules(view.state, view.car_index)
        for roll, options in move_options_for_rolls(LOOP, car.space, [7, 9, 12], rules).items():
            probe = CarState(space=car.space, gear=4, lap=1, pools=pools, started=True)
            costs = move_costs(LOOP, advanced, probe, options)
            pairs = zip(options, costs, strict=True)
            every = [bot._score(view, pools, o, c, 4, roll) for o, c in pairs]
            assert bot._least_score(view, pools, options, costs, 4, roll) == min(every)
            compared += 1
            with_contact += any(bot._hits(view, o, 4, roll) for o in options)
    assert compared > 50 and with_contact > 10
