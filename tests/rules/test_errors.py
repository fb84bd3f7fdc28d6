"""Every illegal action raises a RuleError subclass naming the clause, and leaves the state alone."""

from pathlib import Path

import pytest

from fdlab.rules import (
    ChooseGear,
    ChooseMove,
    Engine,
    IllegalGearError,
    IllegalMoveError,
    IllegalNitroError,
    LoadedDice,
    RaceOverError,
    RollGrid,
    RuleError,
    UseNitro,
    WrongPhaseError,
    compile_board,
)
from fdlab.rules.presets import BASIC
from fdlab.rules.race import Race
from fdlab.track import from_ascii
from fdlab.track.io import load_track

REPO = Path(__file__).resolve().parents[2]

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


@pytest.mark.parametrize("gear", ["fast", 2.5, "4th", True])
def test_G1_a_gear_that_is_not_a_whole_number_is_refused_in_plain_words(gear):
    """G-1: a typo in a notebook (``race.play("fast")``) names the rule, not a Python error."""
    race = Race(BOARD.track, cars=["A", "B"], seed=1)
    with pytest.raises(IllegalGearError, match=r"G-1: a gear is a whole number from 1 to 6, not "):
        race.play(gear=gear) if gear is True else race.play(gear)
    assert race.actions == [RollGrid()]
    race.play("1")  # a digit string is the gear it spells
    assert race.phase == "move"


MONACO = REPO / "tracks" / "monaco.json"


@pytest.mark.skipif(not MONACO.exists(), reason="tracks/monaco.json not shipped")
def test_illegal_actions_on_monaco_name_their_clause():
    """G-1, G-3, G-4, S-2, X-1, M-1, M-2, P-7 refused on the shipped board, the race unchanged."""
    track = load_track(MONACO)
    race = Race(track, cars=["Blue", "Red"], laps=2, seed=4)
    refusals = {
        3: r"S-2: every car starts in 1st gear, not 3rd",
        7: r"G-1: gears are 1st to 6th, there is no gear 7",
    }
    for gear, message in refusals.items():
        with pytest.raises(IllegalGearError, match=message):
            race.play(gear)
    with pytest.raises(IllegalNitroError, match="X-1: nitro is a street-racing rule"):
        race.play(nitro=True)
    with pytest.raises(WrongPhaseError, match="G-2: .* must announce a gear before moving"):
        race.play(to=5)
    race.play(1)
    with pytest.raises(IllegalMoveError, match="M-1: there is no space 'nowhere'"):
        race.play("nowhere")

    entry, pit = next((u, v) for u, v, k in track.graph.edges(data="kind") if k == "pit_in")
    fast = Race.from_position(
        track, {"Blue": {"space": entry, "gear": 6, "lap": 1}, "Red": {"space": 5}}, laps=2
    )
    with pytest.raises(IllegalGearError, match="G-4: .* from 6th you may choose 2nd-6th, not 1st"):
        fast.play(1)
    with pytest.raises(IllegalGearError, match="G-3: .* not 4th"):
        Race.from_position(track, {"Blue": {"space": entry, "gear": 2}}).play(4)
    for lap, allowed in ((1, True), (2, False)):
        race = Race.from_position(
            track, {"Blue": {"space": entry, "gear": 2, "lap": lap}}, laps=2, seed=1
        )
        race.play(2)
        if allowed:
            race.play(pit)
            assert race.state.cars[0].space == race.board.index[pit]
        else:
            with pytest.raises(IllegalMoveError, match="P-7: not on the last lap"):
                race.play(pit)
            assert race.phase == "move" and len(race.actions) == 1
