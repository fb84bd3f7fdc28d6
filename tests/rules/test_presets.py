"""Rules presets as data (R-1..R-5)."""

import dataclasses

import pytest

from fdlab.rules.actions import ChooseGear
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import DiceError, PresetError
from fdlab.rules.presets import ADVANCED, BASIC, PRESETS, STREET, get_preset
from fdlab.track import from_ascii


def test_R1_basic_is_one_lap_with_structure_points():
    """R-1: basic rules, one lap, 18 SP, basic start and tie break."""
    assert BASIC.laps == 1 and not BASIC.pits
    assert BASIC.pools == (("SP", 18),)
    assert BASIC.start_flying_min == 17 and BASIC.tie_break == "inside"
    assert not BASIC.street and BASIC.model == "basic"


def test_R2_basic_with_laps_adds_pits():
    """R-2: basic with laps=2 opens the pits (P)."""
    two = BASIC.with_laps(2)
    assert two.laps == 2 and two.pits
    assert get_preset("basic", laps=2) == two
    with pytest.raises(ValueError, match="P-1"):
        BASIC.with_laps(0)


def test_R3_street_is_basic_plus_street_rules():
    """R-3: street = basic + X."""
    assert STREET.street and STREET.model == "basic" and STREET.pools == BASIC.pools


def test_R4_advanced_uses_wear_points_and_its_own_start():
    """R-4: advanced uses A instead of D, S-3 start, lowest grid roll on pole."""
    assert ADVANCED.pool_names == ("tires", "brakes", "fuel", "body", "engine")
    assert ADVANCED.grid_order == "low" and ADVANCED.start_flying_min == 20
    assert ADVANCED.tie_break == "previous"
    assert ADVANCED.with_laps(2).with_laps(1).pools == ADVANCED.pools


def test_R5_a_designer_changes_dice_faces_and_the_engine_uses_them():
    """R-5: presets are plain data; a copy with other 1st-gear faces rolls them."""
    house = dataclasses.replace(BASIC, name="house", gear_faces=((3, 3), *BASIC.gear_faces[1:]))
    board = compile_board(from_ascii(". . . . . . . .", finish=7))
    engine = Engine(board, house, ["A"])
    state = engine.position([{"space": 0}])
    moved, _ = engine.step(state, ChooseGear(1), LoadedDice([3]))
    assert moved.roll == 3
    standard = Engine(board, BASIC, ["A"])
    with pytest.raises(DiceError, match="not a face of the 1st gear die"):
        standard.step(standard.position([{"space": 0}]), ChooseGear(1), LoadedDice([3]))


def test_R5_pools_and_costs_are_data():
    """R-5: a variant with more SP and free downshifts."""
    gentle = dataclasses.replace(BASIC, pools=(("SP", 30),), downshift_costs={})
    board = compile_board(from_ascii(". . . . . . . .", finish=7))
    engine = Engine(board, gentle, ["A"])
    state = engine.position([{"space": 0, "gear": 5}])
    state, events = engine.step(state, ChooseGear(1), LoadedDice([1]))
    assert state.cars[0].pools == (30,)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pools": (("SP", 0),)}, "field pools: pool 'SP' starts with 0"),
        ({"pools": (("SP", 18), ("SP", 4))}, "field pools: pool names repeat"),
        ({"brake_pool": "brakes"}, "field brake_pool: no pool named 'brakes' (its pools: SP)"),
        ({"downshift_costs": {2: {"XP": 1}}}, "field downshift_costs: no pool named 'XP'"),
        ({"downshift_costs": {5: {"SP": 4}}}, "5 gears dropped: costs are for 2 to 4 gears"),
        ({"gear_faces": ((), *BASIC.gear_faces[1:])}, "the 1st gear die needs faces of 1 or more"),
        ({"gear_faces": BASIC.gear_faces[:5]}, "field engine_triggers: there is no gear 6"),
        (
            {"gear_faces": (*BASIC.gear_faces[:5], (21, 22, 23, 24, 25))},
            "the 6th gear die has no face 30, so it never triggers",
        ),
        ({"laps": 0}, "field laps: a race has at least one lap, not 0 (P-1)"),
        ({"tie_break": "coin"}, "field tie_break: 'coin' is not 'inside' or 'previous'"),
        ({"model": "sim"}, "field model: 'sim' is not 'basic' or 'advanced'"),
    ],
)
def test_R5_a_house_rules_variant_that_does_not_fit_together_is_refused(changes, message):
    """R-5: a designer's mistake in a copied preset names the field at once, not mid-race."""
    with pytest.raises(PresetError) as refused:
        dataclasses.replace(BASIC, name="house", **changes)
    text = str(refused.value)
    assert text.startswith("preset 'house', field ") and text.endswith("(R-5)")
    assert message in text


def test_R5_the_shipped_presets_and_their_longer_races_are_sound():
    for preset in PRESETS.values():
        for laps in (1, 2, 3):
            assert preset.with_laps(laps).laps == laps
    street_advanced = dataclasses.replace(ADVANCED, name="house")  # street_pool unused
    assert street_advanced.pool_names == ADVANCED.pool_names
    with pytest.raises(PresetError, match="field street_pool: no pool named 'SP'"):
        dataclasses.replace(ADVANCED, name="house", street=True)


def test_get_preset_names_the_choices():
    assert set(PRESETS) == {"basic", "street", "advanced"}
    with pytest.raises(PresetError, match="choose one of"):
        get_preset("formula-e")
