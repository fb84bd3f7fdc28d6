"""What a notebook user may type at a race: every wrong value is one plain error, never a crash.

``race.odds("3")``, ``table.set_seat(1.5, "par")``, ``choose_gear(None)``:
each is refused with an error of fdlab's (a ``ValueError`` naming the
parameter, or the clause for a gear), and the race is unchanged.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fdlab.rules import Race
from fdlab.rules.actions import ChooseGear
from fdlab.rules.arguments import whole_number
from fdlab.rules.errors import (
    IllegalGearError,
    IllegalMoveError,
    RaceOverError,
    RuleError,
    WrongPhaseError,
)
from fdlab.table import TableController
from fdlab.table.errors import TableError
from fdlab.track.examples import two_corner_ring

TRACK = two_corner_ring(stops=(1, 1), cars=2)

#: Values a slip of the keyboard gives: not whole numbers, or far out of range.
WRONG = [None, "x", "3", 1.5, 2.0, math.inf, math.nan, True, -1, 10**30, [1]]


def _race_at_gear_phase() -> Race:
    race = Race(TRACK, cars=2, seed=1)
    assert race.phase == "gear"
    return race


@pytest.mark.parametrize("gear", WRONG + [0, 7])
def test_G1_a_wrong_gear_at_the_table_is_refused_by_the_rule(gear):
    """G-1: the table hands the gear to the engine as typed; 1.7 no longer plays 1st."""
    table = TableController(_race_at_gear_phase(), ["person", "person"])
    before = table.race.state
    with pytest.raises(IllegalGearError, match="G-1"):
        table.choose_gear(gear)
    assert table.race.state is before


@pytest.mark.parametrize("gear", [g for g in WRONG if g is not None] + [0, 7])
def test_G1_odds_of_a_gear_that_does_not_exist_are_refused(gear):
    """G-1 (``odds(None)`` asks for every legal gear, so it is not among them)."""
    with pytest.raises(IllegalGearError, match="G-1: the gear must be a whole number from 1 to 6"):
        _race_at_gear_phase().odds(gear)


def test_S1_odds_before_the_grid_roll_say_to_roll_first():
    """S-1: before the grid roll nobody is on turn, but the race is not over either."""
    race = Race(TRACK, cars=2, seed=1, roll_grid=False)
    with pytest.raises(WrongPhaseError, match="S-1: .*roll for the grid first"):
        race.odds(3)


def test_S4_odds_and_actions_after_the_race_name_the_clause():
    """S-4: after the finish, ``race.play(9)`` and ``race.odds()`` say the race is over."""
    race = Race(TRACK, cars=2, seed=1)
    race.play_bots(["random", "random"])
    with pytest.raises(RaceOverError, match="S-4: the race is over"):
        race.play(9)
    with pytest.raises(RaceOverError, match="S-4"):
        race.odds()


def test_S1_a_value_played_before_the_grid_roll_names_the_clause():
    """S-1: with ``roll_grid=False``, ``race.play(9)`` says to roll for the grid first."""
    race = Race(TRACK, cars=2, seed=1, roll_grid=False)
    for value in (9, "x", 10**5000):
        with pytest.raises(WrongPhaseError, match="S-1: roll for the grid first"):
            race.play(value)
    assert race.actions == [] and race.phase == "grid"


def test_S1_actor_and_undo_before_any_action_name_the_clause():
    """S-1: nothing has been played before the grid roll, so nothing can be taken back."""
    race = Race(TRACK, cars=2, seed=1, roll_grid=False)
    with pytest.raises(WrongPhaseError, match="S-1: no action has been played yet"):
        race.actor(0)
    with pytest.raises(WrongPhaseError, match=r"nothing to undo: .*\(S-1: "):
        race.undo()


def test_S4_a_number_too_long_to_print_after_the_race_is_refused_by_the_clause():
    """S-4: ``race.play(10**5000)`` after the finish is the rule's error, not Python's."""
    race = Race(TRACK, cars=2, seed=1)
    race.play_bots(["random", "random"])
    with pytest.raises(RaceOverError, match="S-4: .*an integer of about 5000 digits"):
        race.play(10**5000)


@pytest.mark.parametrize("call", ["play", "gear", "odds", "to"])
def test_G1_M1_a_number_too_long_to_print_is_refused_by_the_rule(call):
    """G-1 (a gear), M-1 (a space): a 5001-digit number is described, never printed
    (Python refuses to print it: a plain ``ValueError`` would escape)."""
    race = _race_at_gear_phase()
    huge = 10**5000
    if call == "to":
        race.play(1)
        with pytest.raises(IllegalMoveError, match="M-1: .*an integer of about 5000 digits"):
            race.play(to=huge, path=[huge])
        return
    with pytest.raises(IllegalGearError, match="G-1: .*an integer of about 5000 digits"):
        {"play": race.play, "gear": lambda g: race.play(gear=g), "odds": race.odds}[call](huge)


def test_whole_number_describes_a_number_too_long_to_print():
    """The argument check raises the error it was given, with the number described."""
    words = "n must be a whole number from 0 to 9, not an integer of about 5000 digits"
    with pytest.raises(RuleError, match=words):
        whole_number(10**5000, "n", low=0, high=9, error=RuleError)
    with pytest.raises(IllegalGearError, match="a list holding an integer too long"):
        whole_number([10**5000], "gear", error=IllegalGearError)


@pytest.mark.parametrize("damage", ["x", -1, 1.5, None])
def test_a_wrong_max_damage_is_refused(damage):
    with pytest.raises(RuleError, match="max_damage must be a whole number of 0 or more"):
        _race_at_gear_phase().odds(3, max_damage=damage)


@pytest.mark.parametrize("index", ["1", 1.5, -1, 10**9, None])
def test_the_actor_of_an_action_that_does_not_exist_is_refused(index):
    with pytest.raises(RuleError, match="the action's number must be a whole number"):
        _race_at_gear_phase().actor(index)


@pytest.mark.parametrize("count", ["2", 1.5, None, True])
def test_undo_to_a_count_that_is_not_a_number_is_refused(count):
    race = _race_at_gear_phase()
    with pytest.raises(RuleError, match="count must be a whole number"):
        race.undo_to(count)
    assert len(race.actions) == 1


@pytest.mark.parametrize("rounds", ["x", -1, 1.5, math.inf])
def test_play_bots_for_a_wrong_number_of_rounds_is_refused(rounds):
    race = _race_at_gear_phase()
    with pytest.raises(RuleError, match="rounds must be a whole number of 0 or more"):
        race.play_bots(["random", "random"], rounds=rounds)
    assert len(race.actions) == 1


@pytest.mark.parametrize("index", ["x", None, 1.5, -1, 2, True])
def test_a_seat_that_does_not_exist_is_refused(index):
    table = TableController(_race_at_gear_phase(), ["person", "person"])
    with pytest.raises(TableError, match="at this table: cars are 0 to 1"):
        table.set_seat(index, "random")
    assert table.seats == ["person", "person"]


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.lists(st.integers(0, 9), max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(value=VALUES, which=st.integers(0, 6))
@example(value="²", which=0)  # a digit that is not a decimal: int() refuses it
def test_any_value_to_any_entry_point_is_one_fdlab_error_or_a_valid_play(value, which):
    """Random values to every public action of a race and a table: an fdlab error (a
    ``ValueError`` of the rules or the table) and the race unchanged, or a legal play."""
    race = _race_at_gear_phase()
    table = TableController(race, ["person", "person"])
    before = race.state
    calls = [
        lambda: race.play(value),
        lambda: race.play(ChooseGear(value)),
        lambda: race.odds(value),
        lambda: race.actor(value),
        lambda: race.undo_to(value),
        lambda: table.choose_gear(value),
        lambda: table.set_seat(value, "random"),
    ]
    try:
        calls[which]()
    except (RuleError, TableError) as error:
        assert str(error)
        assert race.state is before or which == 4
    else:
        assert race.state.phase in ("gear", "move", "over")
