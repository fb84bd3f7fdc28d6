"""Turn order (T-1..T-4)."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.order import corner_turns, inside_ranks, turn_order
from fdlab.rules.presets import ADVANCED, BASIC
from fdlab.rules.state import CarState
from fdlab.track import from_ascii

TWO_LANES = "\n".join([". . . . . . 1 1 . . . ."] * 2)


def bent_board(turn):
    """Two lanes with corner 1 at columns 6-7; the road after it bends left or right."""
    track = from_ascii(TWO_LANES, corners={1: 1})
    for sid, data in track.graph.nodes(data=True):
        column = sid // 2
        if column >= 8:
            data["y"] += 3.0 * (column - 7) * (1 if turn == "left" else -1)
    return compile_board(track)


def test_T1_leader_first_laps_before_progress():
    """T-1: race order is laps completed, then progress along the lap."""
    board = compile_board(from_ascii(". . . . . . . .", closed=True, finish=0))
    cars = [
        CarState(space=board.index[6], lap=1),  # progress 6 on lap 1
        CarState(space=board.index[1], lap=2),  # progress 1 on lap 2: ahead
        CarState(space=board.index[3], lap=1),
    ]
    assert turn_order(board, cars, inside=inside_ranks(board)) == (1, 0, 2)


def test_T2_level_cars_higher_gear_first():
    """T-2: side by side, the higher gear plays first."""
    board = compile_board(from_ascii(TWO_LANES, corners={1: 1}))
    cars = [CarState(space=board.index[0], gear=2), CarState(space=board.index[1], gear=3)]
    assert turn_order(board, cars, inside=inside_ranks(board)) == (1, 0)


@pytest.mark.parametrize(("turn", "first"), [("left", 0), ("right", 1)])
def test_T3_basic_same_gear_inside_of_the_next_corner_first(turn, first):
    """T-3 (basic): level and in the same gear, the car nearer the inside of the next corner."""
    board = bent_board(turn)
    assert corner_turns(board) == {1: 1 if turn == "left" else -1}
    cars = [CarState(space=board.index[2], gear=3), CarState(space=board.index[3], gear=3)]
    order = turn_order(board, cars, inside=inside_ranks(board))
    assert board.lane[cars[order[0]].space] == first


def test_T3_advanced_same_gear_previous_round_first():
    """T-3 (advanced): the car that played first in the previous round plays first."""
    board = compile_board(from_ascii(TWO_LANES, corners={1: 1}))
    cars = [CarState(space=board.index[2], gear=3), CarState(space=board.index[3], gear=3)]
    inside = inside_ranks(board)
    assert turn_order(board, cars, inside=inside, tie_break="previous", previous=(1, 0)) == (1, 0)
    assert turn_order(board, cars, inside=inside, tie_break="previous", previous=(0, 1)) == (0, 1)


def test_T3_advanced_engine_keeps_last_rounds_order_for_ties():
    """T-3 (advanced) through the engine: the tie follows the round before."""
    board = compile_board(from_ascii("\n".join([" ".join(["."] * 12)] * 2), finish=11))
    engine = Engine(board, ADVANCED, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 2}, {"space": 1, "gear": 2}], order=(1, 0))
    dice = LoadedDice([3, 3, 20, 20])  # two gear rolls, then a collision check (D-5)
    for _ in range(2):
        c = state.current
        state, _ = engine.step(state, ChooseGear(2), dice)
        state, _ = engine.step(state, ChooseMove(c + 6), dice)
    assert state.round == 2 and state.order == (1, 0)


def test_T4_order_is_recomputed_each_round():
    """T-4: a car that passed another plays before it next round."""
    board = compile_board(from_ascii("\n".join([" ".join(["."] * 20)] * 2), finish=19))
    engine = Engine(board, BASIC, ["A", "B"])
    state = engine.position([{"space": 8, "gear": 1}, {"space": 1, "gear": 3}])
    assert state.order == (0, 1)
    state, _ = engine.step(state, ChooseGear(1), LoadedDice([1]))
    state, _ = engine.step(state, ChooseMove(10), LoadedDice([]))
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([8]))
    state, _ = engine.step(state, ChooseMove(17), LoadedDice([]))
    assert state.round == 2 and state.order == (1, 0)
