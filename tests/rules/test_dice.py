"""Dice: exact chance outcomes (G-1), seeded and loaded sources."""

from collections import Counter
from fractions import Fraction

import pytest

from fdlab.rules.dice import Die, LoadedDice, SeededDice, make_dice
from fdlab.rules.errors import DiceError
from fdlab.rules.presets import BASIC


def test_G1_gear_dice_ranges_and_faces():
    """G-1: the six gear dice have the faces of rules.md."""
    ranges = [(die.low, die.high, len(die.faces)) for die in BASIC.gear_dice]
    assert ranges == [(1, 2, 4), (2, 4, 6), (4, 8, 8), (7, 12, 12), (11, 20, 20), (21, 30, 30)]
    assert BASIC.gear_dice[1].faces == (2, 3, 3, 4, 4, 4)
    assert Counter(BASIC.gear_dice[5].faces)[21] == 3


@pytest.mark.parametrize("gear", range(1, 7))
def test_G1_chance_outcomes_are_exact_and_sum_to_one(gear):
    die = BASIC.gear_dice[gear - 1]
    outcomes = die.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert [v for v, _ in outcomes] == sorted(set(die.faces))


def test_third_gear_probabilities():
    outcomes = dict(BASIC.gear_dice[2].chance_outcomes())
    assert outcomes == {
        4: Fraction(1, 8),
        5: Fraction(1, 8),
        6: Fraction(1, 4),
        7: Fraction(1, 4),
        8: Fraction(1, 4),
    }


def test_seeded_dice_repeat_with_the_same_seed_and_differ_otherwise():
    black = BASIC.black_die
    a = [SeededDice(5).roll(black) for _ in range(1)]
    first = SeededDice(5)
    second = SeededDice(5)
    other = SeededDice(6)
    rolls = [first.roll(black) for _ in range(50)]
    assert rolls == [second.roll(black) for _ in range(50)]
    assert rolls != [other.roll(black) for _ in range(50)]
    assert a[0] == rolls[0]


def test_seeded_dice_give_every_face():
    dice = SeededDice(1)
    seen = Counter(dice.roll(BASIC.black_die) for _ in range(2000))
    assert set(seen) == set(range(1, 21))
    assert max(seen.values()) < 3 * min(seen.values())


def test_snapshot_and_restore_rewind_the_rolls():
    for dice in (SeededDice(3), LoadedDice([1, 2, 3, 4])):
        die = Die("d4", (1, 2, 3, 4))
        mark = dice.snapshot()
        first = [dice.roll(die) for _ in range(3)]
        dice.restore(mark)
        assert [dice.roll(die) for _ in range(3)] == first


def test_loaded_dice_check_faces_and_run_out_with_a_clear_message():
    dice = LoadedDice([25])
    with pytest.raises(DiceError, match="not a face of the black die"):
        dice.roll(BASIC.black_die)
    empty = LoadedDice([])
    with pytest.raises(DiceError, match="ran out after 0 rolls"):
        empty.roll(BASIC.black_die)


def test_make_dice_prefers_the_injected_source():
    loaded = LoadedDice([1])
    assert make_dice(seed=3, dice=loaded) is loaded
    assert isinstance(make_dice(seed=3), SeededDice)


def test_die_needs_faces():
    with pytest.raises(DiceError):
        Die("none", ())
