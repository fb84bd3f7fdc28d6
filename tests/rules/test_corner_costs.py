"""The engine side of corners: stops counted (C-2, C-6), overshoot costs (C-3), elimination (C-4)."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii

#           0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
ROW = ". . 1 1 . . . . 2 2 2 . . . . ."


def board_with(stops_2=2):
    return compile_board(from_ascii(ROW, corners={1: 1, 2: stops_2}, finish=15))


def move(engine, state, gear, roll, to, dice=()):
    state, _ = engine.step(state, ChooseGear(gear), LoadedDice([roll]))
    return engine.step(state, ChooseMove(to), LoadedDice(dice))


def test_C2_a_move_ending_in_a_corner_is_a_stop_and_stops_add_up():
    """C-2: ending on a corner space counts one stop; a second move ending there counts two."""
    engine = Engine(board_with(), BASIC, ["A"])
    state = engine.position([{"space": 6, "gear": 2}])
    state, _ = move(engine, state, 2, 2, 8)
    assert state.cars[0].stops == 1
    state, _ = move(engine, state, 1, 1, 9)
    assert state.cars[0].stops == 2
    # C-2: with its stops made it leaves the corner freely
    state, events = move(engine, state, 2, 3, 12)
    assert state.cars[0].pools == (18,) and state.cars[0].stops == 0


def test_C3_overshoot_costs_one_sp_per_space_beyond_the_exit():
    """C-3: a 1-stop corner passed without stopping, 3 spaces beyond its exit: 3 SP."""
    engine = Engine(board_with(), BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 3}])
    state, events = move(engine, state, 3, 6, 6)
    assert state.cars[0].pools == (15,)
    assert any("C-3 overshoot of corner 1 by 3" in str(e) for e in events)


def test_C4_two_stop_corner_with_no_stop_eliminates():
    """C-4 (seed example): a 2-stop corner left with no stop eliminates the car."""
    engine = Engine(board_with(2), BASIC, ["A"])
    state = engine.position([{"space": 6, "gear": 3}])
    state, events = move(engine, state, 3, 6, 12)
    assert state.cars[0].status == "eliminated"
    assert any("C-4" in str(e) for e in events)


@pytest.mark.parametrize(("stops", "out"), [(1, True), (2, False)])
def test_C4_three_stop_corner_left_with_at_most_one_stop_eliminates(stops, out):
    """C-4: a 3-stop corner left after one stop eliminates; after two it costs SP only."""
    engine = Engine(board_with(3), BASIC, ["A"])
    state = engine.position([{"space": 9, "gear": 2, "stops": stops}])
    state, _ = move(engine, state, 2, 3, 12)
    car = state.cars[0]
    assert (car.status == "eliminated") is out
    if not out:
        assert car.pools == (16,)


def test_C6_leaving_a_corner_resets_its_count_and_the_next_corner_starts_at_one():
    """C-6: stops are per corner; leaving resets the count."""
    engine = Engine(board_with(2), BASIC, ["A"])
    state = engine.position([{"space": 3, "gear": 2, "stops": 1}])
    state, _ = move(engine, state, 2, 2, 5)
    assert state.cars[0].stops == 0
    state, _ = move(engine, state, 2, 3, 8)
    assert state.cars[0].stops == 1


def test_double_overshoot_pays_each_corner():
    """C-3 decision: leaving two corners short pays the spaces beyond each exit line."""
    board = compile_board(from_ascii(". 1 . 2 . . . .", corners={1: 1, 2: 1}, finish=7))
    engine = Engine(board, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 3}])
    state, events = move(engine, state, 3, 6, 6)
    # beyond corner 1: spaces 2..6 (5); beyond corner 2: spaces 4..6 (3)
    assert state.cars[0].pools == (18 - 5 - 3,)
    assert sum("overshoot" in str(e) for e in events) == 1
