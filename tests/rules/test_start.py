"""Grid, start and finish (S-1..S-4)."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove, RollGrid
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import IllegalGearError, RuleError
from fdlab.rules.presets import ADVANCED, BASIC
from fdlab.track import from_ascii

# two lanes, ids column * 2 + lane; grid spots pole first
TRACK = from_ascii("\n".join([" ".join(["."] * 12)] * 2), finish=11, grid=[7, 6, 5, 4, 3, 2])
BOARD = compile_board(TRACK)


def grid_spaces(state):
    return [BOARD.ids[car.space] for car in state.cars]


def test_S1_basic_highest_roll_takes_pole_and_ties_reroll():
    """S-1: highest roll on pole; tied cars roll again between themselves."""
    engine = Engine(BOARD, BASIC, ["A", "B", "C"])
    dice = LoadedDice([5, 17, 5, 3, 9])
    state, events = engine.step(engine.initial_state(), RollGrid(), dice)
    assert dice.remaining == 0
    assert grid_spaces(state) == [5, 7, 6]  # B pole, C second, A third
    assert state.order == (2, 1, 0) and state.phase == "gear"  # B and C level: lane 0 first (T-3)
    assert "A 5/3, B 17, C 5/9" in str(events[0])
    assert str(events[0]).endswith("(tied cars roll again: A rolled 5, then 3)")  # the slash said


def test_S1_no_tie_no_word_on_ties():
    engine = Engine(BOARD, BASIC, ["A", "B"])
    _, events = engine.step(engine.initial_state(), RollGrid(), LoadedDice([5, 17]))
    assert str(events[0]).endswith("A 5, B 17") and "tied" not in str(events[0])


def test_S1_advanced_lowest_roll_takes_pole():
    """S-1: in the advanced rules the lowest roll takes pole."""
    engine = Engine(BOARD, ADVANCED, ["A", "B", "C"])
    state, _ = engine.step(engine.initial_state(), RollGrid(), LoadedDice([5, 17, 5, 3, 9]))
    assert grid_spaces(state) == [7, 5, 6]  # A pole, C second, B third


def test_S1_not_enough_grid_spots_is_an_error():
    board = compile_board(from_ascii(". . . .", finish=3, grid=[1]))
    engine = Engine(board, BASIC, ["A", "B"])
    with pytest.raises(RuleError, match="S-1: the board has 1 grid spots for 2 cars"):
        engine.step(engine.initial_state(), RollGrid(), LoadedDice([]))


def started(engine, start_roll, *rolls):
    state = engine.position([{"space": 7, "started": False}])
    return engine.step(state, ChooseGear(1), LoadedDice([start_roll, *rolls]))


def test_S2_every_car_starts_in_first():
    """S-2: the first move is in 1st gear."""
    engine = Engine(BOARD, BASIC, ["A"])
    state = engine.position([{"space": 7, "started": False}])
    assert engine.legal_gears(state) == [1]
    with pytest.raises(IllegalGearError, match="S-2"):
        engine.step(state, ChooseGear(2), LoadedDice([]))


def test_S2_a_start_roll_of_1_stalls():
    """S-2: 1 stalls: no move this turn, next turn 1st gear without the black die."""
    engine = Engine(BOARD, BASIC, ["A"])
    state, events = started(engine, 1)
    assert state.phase == "gear" and state.round == 2
    assert state.cars[0].space == BOARD.index[7] and "stalls" in str(events[0])
    assert engine.legal_gears(state) == [1]
    dice = LoadedDice([2])  # the 1st-gear die only
    state, _ = engine.step(state, ChooseGear(1), dice)
    assert dice.remaining == 0 and state.roll == 2


@pytest.mark.parametrize("start_roll", [2, 16])
def test_S2_rolls_2_to_16_are_a_normal_start(start_roll):
    """S-2: 2-16: roll the 1st-gear die."""
    engine = Engine(BOARD, BASIC, ["A"])
    state, events = started(engine, start_roll, 1)
    assert state.phase == "move" and state.roll == 1 and "normal start" in str(events[0])


@pytest.mark.parametrize("start_roll", [17, 20])
def test_S2_rolls_17_to_20_are_a_flying_start(start_roll):
    """S-2: 17-20: move 4 spaces without rolling, still in 1st; 2nd allowed next turn."""
    engine = Engine(BOARD, BASIC, ["A"])
    state, events = started(engine, start_roll)
    assert state.roll == 4 and state.cars[0].gear == 1 and "flying start" in str(events[0])
    state, _ = engine.step(state, ChooseMove(15), LoadedDice([]))
    assert engine.legal_gears(state) == [1, 2]


def test_S2_flying_start_may_change_lane_to_avoid_a_car():
    """S-2: one or two lane changes to avoid cars during the flying start."""
    engine = Engine(BOARD, BASIC, ["A", "B"])
    state = engine.position([{"space": 7, "started": False}, {"space": 11}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(1), LoadedDice([18]))
    reachable = {BOARD.ids[o.destination] for o, _ in engine.legal_moves(state) if o.moved == 4}
    assert 14 in reachable  # lane 0, four columns on, around B in lane 1


def test_S3_advanced_start():
    """S-3: 1 stalls, 20 is a rocket start (4 spaces), 2-19 normal."""
    engine = Engine(BOARD, ADVANCED, ["A"])
    assert "stalls" in str(started(engine, 1)[1][0])
    assert "normal start" in str(started(engine, 19, 2)[1][0])
    state, events = started(engine, 20)
    assert state.roll == 4 and "rocket start" in str(events[0])


def test_S4_first_across_wins_and_the_race_goes_on_until_all_have_crossed():
    """S-4: cars crossing in the same round rank in the order they moved."""
    board = compile_board(from_ascii(" ".join(["."] * 12), finish=11))
    engine = Engine(board, BASIC, ["A", "B"])
    # lap 1 on an open board: the next crossing is the last one
    state = engine.position(
        [{"space": 8, "gear": 2, "lap": 1}, {"space": 6, "gear": 3, "lap": 1}], order=(0, 1)
    )
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(11), LoadedDice([]))
    assert state.finished == (0,) and not state.over
    assert "A crosses the finish line: 1st place (S-4)" in [str(e) for e in events]
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    state, _ = engine.step(state, ChooseMove(11), LoadedDice([]))
    assert state.finished == (0, 1) and state.over


def test_S1_a_car_alone_takes_pole_without_a_roll():
    """S-1: with one car nobody rolls for the grid, and the log says so."""
    from fdlab.rules import Race

    race = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=["Blue"], dice=LoadedDice([]))
    assert race.log[0] == "Grid (S-1): Blue is alone and takes pole without a roll"


def test_S5_a_grid_spot_inside_a_corner_starts_with_the_corner_stops_made():
    """S-5 (decision): a car on a grid spot inside a corner has that corner's stops made,
    so it leaves the corner on its first move without an overshoot (C-3)."""
    track = from_ascii(". . 1 1 . . . . . . . .", corners={1: 2}, finish=11, grid=[3, 1])
    board = compile_board(track)
    engine = Engine(board, BASIC, ["A", "B"])
    state, _ = engine.step(engine.initial_state(), RollGrid(), LoadedDice([18, 4]))
    on_corner, behind = state.cars
    assert board.ids[on_corner.space] == 3 and on_corner.stops == 2  # grid spot 1, corner 1
    assert board.ids[behind.space] == 1 and behind.stops == 0
    state, _ = engine.step(state, ChooseGear(1), LoadedDice([10, 2]))  # normal start, move 2
    [(option, cost)] = [m for m in engine.legal_moves(state) if board.ids[m[0].destination] == 5]
    assert option.overshoots == () and cost.total == 0


def test_S5_the_solo_par_starts_from_the_same_stops():
    from fdlab.par.model import SoloModel

    board = compile_board(from_ascii(". . 1 1 . . . . . .", corners={1: 2}, finish=9, grid=[3]))
    model = SoloModel(board, BASIC)
    assert model.start == (board.index[3], model.engine.grid_lap(board.index[3]), 2)
