"""Gears (G-1..G-5): what may be announced and what a downshift costs."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import IllegalGearError, WrongPhaseError
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii

BOARD = compile_board(from_ascii(" ".join(["."] * 40), finish=39))


def engine_with(gear, **car):
    engine = Engine(BOARD, BASIC, ["Blue"])
    return engine, engine.position([{"space": 0, "gear": gear, **car}])


def test_G2_announce_then_roll_that_gears_die():
    """G-2: the car announces a gear, then rolls that gear's die and moves."""
    engine, state = engine_with(3)
    dice = LoadedDice([6])
    state, events = engine.step(state, ChooseGear(4), LoadedDice([9]))
    assert state.phase == "move" and state.roll == 9 and state.cars[0].gear == 4
    assert str(events[-1]) == "Blue, 4th gear, rolls 9"
    state, _ = engine.step(state, ChooseMove(9), dice)
    assert state.cars[0].space == BOARD.index[9]


def test_G2_moving_before_announcing_a_gear_is_refused():
    engine, state = engine_with(3)
    with pytest.raises(WrongPhaseError, match="G-2"):
        engine.step(state, ChooseMove(5), LoadedDice([]))


def test_G3_upshift_one_gear_at_most():
    """G-3: from 2nd, 4th is illegal and the message says what is allowed."""
    engine, state = engine_with(2)
    assert engine.legal_gears(state) == [1, 2, 3]
    with pytest.raises(IllegalGearError) as err:
        engine.step(state, ChooseGear(4), LoadedDice([]))
    assert str(err.value) == (
        "G-3: you can shift up only one gear per turn: from 2nd you may choose 1st-3rd, not 4th"
    )


def test_G1_no_seventh_gear():
    """G-1: gears are 1 to 6."""
    engine, state = engine_with(6)
    with pytest.raises(IllegalGearError, match="G-1"):
        engine.step(state, ChooseGear(7), LoadedDice([]))


def test_G4_fourth_to_first_costs_two_sp():
    """G-4 (seed example): 4th to 1st drops three gears, one is free: 2 SP."""
    engine, state = engine_with(4)
    state, events = engine.step(state, ChooseGear(1), LoadedDice([2]))
    assert state.cars[0].pools == (16,)
    assert "Blue loses 2 SP (G-4 drop from 4th to 1st)" in [str(e) for e in events]


@pytest.mark.parametrize(("start", "gear", "loss"), [(5, 4, 0), (5, 3, 1), (6, 2, 3)])
def test_G4_one_sp_per_extra_gear_dropped(start, gear, loss):
    """G-4: one gear down is free, then one SP per extra gear."""
    engine, state = engine_with(start)
    face = BASIC.gear_dice[gear - 1].faces[0]
    state, _ = engine.step(state, ChooseGear(gear), LoadedDice([face]))
    assert state.cars[0].pools == (18 - loss,)


def test_G4_sixth_to_first_is_illegal():
    """G-4: five gears at once (6th to 1st) is not allowed."""
    engine, state = engine_with(6)
    assert engine.legal_gears(state) == [2, 3, 4, 5, 6]
    with pytest.raises(IllegalGearError, match="G-4: you can drop at most 4 gears"):
        engine.step(state, ChooseGear(1), LoadedDice([]))


def test_G4_a_downshift_that_takes_the_last_sp_is_listed_but_eliminates():
    """G-4 with D-1: 2 SP left, 6th to 2nd costs 3: the car is out."""
    engine, state = engine_with(6, pools=(2,))
    assert 2 in engine.legal_gears(state)
    assert engine.gear_eliminates(state.cars[0], 2)
    state, events = engine.step(state, ChooseGear(2), LoadedDice([]))
    assert state.cars[0].status == "eliminated" and state.over


def test_G5_keeping_the_gear_is_always_allowed_and_free():
    """G-5: the same gear again."""
    for gear in range(1, 7):
        engine, state = engine_with(gear)
        assert gear in engine.legal_gears(state)
        face = BASIC.gear_dice[gear - 1].faces[0]
        state, _ = engine.step(state, ChooseGear(gear), LoadedDice([face]))
        assert state.cars[0].pools == (18,)
