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


def _corner_pair_beside_with_different_progress(board):
    """Two corner spaces of Monaco joined by a ``beside`` contact whose progress differs."""
    for a, b, kind in sorted(board.track.contacts.edges(data="kind")):
        i, j = sorted((board.index[a], board.index[b]), key=lambda k: board.progress[k])
        if (
            kind == "beside"
            and board.corner[i] is not None
            and board.corner[j] is not None
            and board.progress[i] < board.progress[j]
        ):
            return i, j
    raise AssertionError("Monaco has side-by-side corner spaces with different progress")


def test_T2_side_by_side_in_a_corner_higher_gear_first_though_progress_differs():
    """T-2: beside each other in a corner (the track's ``beside`` contact), not the same
    progress: the car behind in progress but in a higher gear plays first."""
    from pathlib import Path

    from fdlab.track import load_track

    board = compile_board(load_track(Path(__file__).parents[2] / "tracks" / "monaco.json"))
    behind, ahead = _corner_pair_beside_with_different_progress(board)
    cars = [CarState(space=ahead, gear=2), CarState(space=behind, gear=4)]
    assert turn_order(board, cars, inside=inside_ranks(board)) == (1, 0)
    cars = [CarState(space=ahead, gear=4), CarState(space=behind, gear=2)]
    assert turn_order(board, cars, inside=inside_ranks(board)) == (0, 1)


@pytest.mark.parametrize(("turn", "first"), [("left", 0), ("right", 1)])
def test_T3_side_by_side_with_different_progress_same_gear_inside_first(turn, first):
    """T-3 applies to cars side by side even when their spaces' progress differs."""
    board = bent_board(turn)
    outside = 3 if turn == "left" else 2  # lane 1 is outside of a left-hand corner
    track = board.track
    track.space(outside)["progress"] += 0.3  # outer lane spaces sit a little further on
    board = compile_board(track)
    cars = [CarState(space=board.index[2], gear=3), CarState(space=board.index[3], gear=3)]
    order = turn_order(board, cars, inside=inside_ranks(board))
    assert board.lane[cars[order[0]].space] == first


def test_T2_cars_not_side_by_side_keep_race_order():
    board = compile_board(from_ascii(TWO_LANES, corners={1: 1}))
    cars = [CarState(space=board.index[4], gear=1), CarState(space=board.index[1], gear=6)]
    assert turn_order(board, cars, inside=inside_ranks(board)) == (0, 1)
