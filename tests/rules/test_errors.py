"""Every illegal action raises a RuleError subclass naming the clause, and leaves the state alone."""

import pytest

from fdlab.rules import (
    ChooseGear,
    ChooseMove,
    Engine,
    IllegalMoveError,
    LoadedDice,
    RaceOverError,
    RollGrid,
    RuleError,
    UseNitro,
    WrongPhaseError,
    compile_board,
)
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii

BOARD = compile_board(from_ascii(" ".join(["."] * 12), finish=11, grid=[1, 0]))


def test_rule_errors_are_value_errors():
    assert issubclass(RuleError, ValueError)


def test_grid_twice_and_moves_before_the_grid():
    engine = Engine(BOARD, BASIC, ["A", "B"])
    state = engine.initial_state()
    with pytest.raises(WrongPhaseError, match="S-1: roll for the grid first"):
        engine.step(state, ChooseGear(1), LoadedDice([]))
    state, _ = engine.step(state, RollGrid(), LoadedDice([3, 9]))
    with pytest.raises(WrongPhaseError, match="S-1: the grid has already been set"):
        engine.step(state, RollGrid(), LoadedDice([]))


def test_gear_twice_and_nitro_before_the_roll():
    engine = Engine(BOARD, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 2}])
    with pytest.raises(RuleError, match="X-1"):
        engine.step(state, UseNitro(), LoadedDice([]))
    rolled, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    with pytest.raises(WrongPhaseError, match="A has already rolled; choose a move"):
        engine.step(rolled, ChooseGear(2), LoadedDice([]))


def test_M2_ending_on_a_car_is_refused_in_plain_words():
    """M-2: the message says the space holds another car."""
    engine = Engine(BOARD, BASIC, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 2}, {"space": 3}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    with pytest.raises(IllegalMoveError, match="M-2: space 3 holds another car"):
        engine.step(state, ChooseMove(3), LoadedDice([]))


def test_after_the_race():
    engine = Engine(BOARD, BASIC, ["A"])
    state = engine.position([{"space": 9, "gear": 2, "lap": 1}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    state, _ = engine.step(state, ChooseMove(11), LoadedDice([]))
    assert state.over
    with pytest.raises(RaceOverError, match="S-4: the race is over"):
        engine.step(state, ChooseGear(1), LoadedDice([]))


def test_engine_set_up_errors():
    with pytest.raises(RuleError, match="1 to 10 cars, not 11"):
        Engine(BOARD, BASIC, [str(i) for i in range(11)])
    engine = Engine(BOARD, BASIC, ["A", "B"])
    with pytest.raises(RuleError, match="1 placements for 2 cars"):
        engine.position([{"space": 0}])
    with pytest.raises(TypeError, match="not an action"):
        engine.step(engine.position([{"space": 0}, {"space": 2}]), "gear 1", LoadedDice([]))
