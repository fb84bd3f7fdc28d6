"""Damage in the basic rules (D-1..D-6): structure points."""

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.presets import BASIC
from fdlab.rules.view import RaceView
from fdlab.track import from_ascii

LONG = compile_board(from_ascii(" ".join(["."] * 60), finish=59))


def test_D1_every_car_starts_with_18_sp():
    """D-1: 18 SP each."""
    engine = Engine(LONG, BASIC, ["A", "B", "C"])
    assert [car.pools for car in engine.initial_state().cars] == [(18,)] * 3


def test_D1_a_car_at_0_sp_is_eliminated():
    """D-1: braking 2 with 2 SP left takes it to 0: out."""
    engine = Engine(LONG, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 2, "pools": (2,)}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    state, events = engine.step(state, ChooseMove(2), LoadedDice([]))
    assert state.cars[0].status == "eliminated" and state.eliminated == (0,)
    assert any(e.kind == "eliminated" for e in events)


def test_D2_eliminating_moves_are_listed_marked_and_avoided_by_bots():
    """D-2: the engine lists eliminating options; no bot picks one when another exists."""
    engine = Engine(LONG, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 2, "pools": (2,)}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    moves = engine.legal_moves(state)
    marked = {engine.board.ids[o.destination]: cost.eliminated for o, cost in moves}
    assert marked == {4: False, 3: False, 2: True, 1: True, 0: True}
    view = RaceView(engine, state, 0)
    for bot in (RandomBot(1), RandomBot(2), HeuristicBot()):
        choice = bot.choose_move(view, moves)
        assert engine.board.ids[choice.destination] in (3, 4)


def test_D3_roll_3_move_1_costs_2_sp():
    """D-3 (seed example): rolled 3, moved 1 to avoid a collision: 2 SP."""
    engine = Engine(LONG, BASIC, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 2}, {"space": 10}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(1), LoadedDice([]))
    assert state.cars[0].pools == (16,)
    assert "A loses 2 SP (D-3 braking 2 spaces: -2 SP)" in [str(e) for e in events]


def test_D4_blocked_car_moves_as_far_as_it_can_and_pays_the_rest():
    """D-4: one lane, a car two spaces ahead, roll 4: move 1, pay 3."""
    engine = Engine(LONG, BASIC, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 2}, {"space": 2}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    moves = engine.legal_moves(state)
    # D-4: it moves as far as it can (1 space), blocked; staying put is braking 4 (D-3)
    assert [(o.moved, o.blocked) for o, _ in moves] == [(1, True), (0, False)]
    assert moves[1][1].reasons == ("D-3 braking 4 spaces: -4 SP",)
    # stopping right behind B touches it: collision rolls (D-5) follow
    state, events = engine.step(state, ChooseMove(1), LoadedDice([20, 20]))
    assert state.cars[0].pools == (15,)
    assert any("D-4 blocked 3 spaces" in str(e) for e in events)


def _collision_board():
    # three lanes; ids are column * 3 + lane
    return compile_board(from_ascii("\n".join([" ".join(["."] * 8)] * 3), finish=7))


def test_D5_car_stopping_next_to_three_cars_seed_example():
    """D-5 (seed example): A stops next to B, C and D: B, C, D roll once, then A three times."""
    board = _collision_board()
    engine = Engine(board, BASIC, ["A", "B", "C", "D"])
    # A in the middle lane at column 0; B and C beside column 2; D ahead at column 3
    state = engine.position(
        [{"space": 1, "gear": 2}, {"space": 6}, {"space": 8}, {"space": 10}],
        order=(0, 3, 1, 2),
    )
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    dice = LoadedDice([1, 20, 20, 20, 3, 20])
    state, events = engine.step(state, ChooseMove(7), dice)
    assert dice.remaining == 0
    rollers = [e.text.split()[0] for e in events if e.kind == "check" and "rolls" in e.text]
    assert rollers[:3] == ["D", "B", "C"] and rollers[3:] == ["A", "A", "A"]
    assert [car.pools[0] for car in state.cars] == [17, 18, 18, 17]


def test_D5_a_car_directly_ahead_is_not_touching_the_one_behind():
    """D-5: touching is "behind or beside": ending ahead of a car is no collision."""
    board = compile_board(from_ascii(" ".join(["."] * 10), finish=9))
    engine = Engine(board, BASIC, ["A", "B"])
    state = engine.position([{"space": 2, "gear": 2}, {"space": 1}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    dice = LoadedDice([])
    state, events = engine.step(state, ChooseMove(4), dice)
    assert not any(e.kind == "check" for e in events)


def test_D6_engine_check_on_20_in_fifth():
    """D-6: a 20 on the 5th-gear die: every car in 5th or 6th rolls, the roller first; 1-4 costs 1 SP."""
    engine = Engine(LONG, BASIC, ["A", "B", "C", "D"])
    state = engine.position(
        [
            {"space": 0, "gear": 5},
            {"space": 30, "gear": 6},
            {"space": 40, "gear": 4},
            {"space": 50, "gear": 5},
        ],
        order=(0, 3, 2, 1),
    )
    state, _ = engine.step(state, ChooseGear(5), LoadedDice([20]))
    dice = LoadedDice([4, 1, 5])
    state, events = engine.step(state, ChooseMove(20), dice)
    assert dice.remaining == 0
    checks = [str(e) for e in events if e.text.startswith("engine check")]
    assert checks == [
        "engine check: A rolls 4 (D-6 engine)",
        "engine check: D rolls 1 (D-6 engine)",
        "engine check: B rolls 5, safe",
    ]
    assert [car.pools[0] for car in state.cars] == [17, 18, 18, 17]


def test_D6_no_engine_check_below_the_top_face():
    """D-6: a 19 in 5th is not the limit."""
    engine = Engine(LONG, BASIC, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 5}, {"space": 50, "gear": 5}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(5), LoadedDice([19]))
    state, events = engine.step(state, ChooseMove(19), LoadedDice([]))
    assert not any("engine" in str(e) for e in events)


def test_D6_the_engine_check_happens_even_if_the_roller_is_eliminated():
    """D-6: a 20 that also eliminates the roller (overshoot) still makes the others roll."""
    board = compile_board(
        from_ascii(" ".join(["."] * 5 + ["1", "1"] + ["."] * 40), corners={1: 2}, finish=46)
    )
    engine = Engine(board, BASIC, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 5}, {"space": 40, "gear": 5}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(5), LoadedDice([20]))
    dice = LoadedDice([3])  # only B rolls: A is out (C-4, 2-stop corner passed)
    state, events = engine.step(state, ChooseMove(20), dice)
    assert state.cars[0].status == "eliminated"
    assert dice.remaining == 0 and state.cars[1].pools == (17,)


def test_D2_elimination_reasons_say_what_is_needed_and_what_is_left():
    """D-2: braking 3 with 2 SP needs more than the car has; braking 2 takes it to 0."""
    engine = Engine(LONG, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 2, "pools": (2,)}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    reasons = {
        engine.board.ids[o.destination]: cost.reasons for o, cost in engine.legal_moves(state)
    }
    assert "D-2 needs 3 SP, the car has 2: eliminated" in reasons[1]
    assert "D-2 SP 2 - 2 reaches 0: eliminated" in reasons[2]


def test_D2_a_car_that_cannot_pay_loses_its_last_points_and_the_log_says_so():
    """D-2: braking 3 spaces with 2 SP: the log says the car lost its last 2 of the 3
    needed, never that a 3 SP cost took 2."""
    engine = Engine(LONG, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 2, "pools": (2,)}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    state, events = engine.step(state, ChooseMove(1), LoadedDice([]))
    texts = [str(e) for e in events]
    assert state.cars[0].status == "eliminated"
    assert any(t.startswith("A loses its last 2 SP of the 3 needed (D-3 braking 3") for t in texts)
    assert not any(t.startswith("A loses 2 SP") for t in texts), texts
