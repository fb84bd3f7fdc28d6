"""The risk before the roll on the gear buttons (issue 27): GearChoice's figures, the short
label and the tooltip, for a person at the race table."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from fdlab.rules import Race
from fdlab.rules.odds import gear_risks
from fdlab.table import GearChoice, RaceTable, TableController
from fdlab.track import from_ascii, load_track

ROOT = Path(__file__).resolve().parents[2]

# Two lanes: corner 1 (one stop) on columns 6-8, corner 2 (two stops) on columns 30-31.
_ROW = ". . . . . . 1 1 1 " + ". " * 21 + "2 2 " + ". " * 12
LANES = from_ascii("\n".join([_ROW, _ROW]), corners={1: 1, 2: 2}, name="lanes")


def choices_at(column: int, gear: int, pools: tuple[int, ...] | None = None, preset="basic"):
    blue = {"space": 2 * column, "gear": gear, **({"pools": pools} if pools else {})}
    race = Race.from_position(LANES, {"Blue": blue}, preset=preset, seed=1)
    return race, {c.gear: c for c in TableController(race, ["person"]).gear_choices()}


def test_choices_carry_the_figures_of_race_odds():
    """C-2, C-3: each GearChoice holds the figures race.odds() and gear_risks give."""
    race, choices = choices_at(2, 3)
    odds = race.odds()
    risks = gear_risks(race.engine, race.state, 0)
    for gear, choice in choices.items():
        risk = odds.risks[gear]
        assert risk == risks[gear] and choice.risk == risk
        assert (choice.elimination, choice.loss, choice.unit) == (
            risk.elimination,
            risk.loss,
            "SP",
        )
        assert choice.corner == 1 and choice.corner_outcome == risk.corner_words()
        assert choice.odds == odds.odds[gear]  # the old figure is still there


def test_certain_overshoot_reads_as_such_c3():
    """C-3: in 5th from column 4 every roll overshoots corner 1: the button says so, with the
    expected SP, and the tooltip gives the range in spaces."""
    _, choices = choices_at(4, 5)
    five = choices[5]
    assert five.label == f"5th · free · −{_amount(five.loss)} SP · overshoots"
    assert "certain to overshoot it by" in five.tip and "spaces" in five.tip
    assert "Collisions and engine rolls are not counted" in five.tip


def test_certain_elimination_reads_100_out_d2():
    """D-2: with 4 SP 6th eliminates the car on every roll: ``6th · 100% OUT``."""
    _, choices = choices_at(4, 5, pools=(4,))
    assert choices[6].label == "6th · 100% OUT" and choices[6].elimination == 1
    assert "every roll leaves only moves that eliminate the car" in choices[6].tip
    assert "% OUT" in choices[4].label and 0 < choices[4].elimination < 1


def test_corner_out_of_reach_says_cant_reach():
    """C-2: from column 24 corner 2 (column 30) is out of reach in 1st and 2nd, not in 3rd."""
    _, choices = choices_at(24, 3)
    assert choices[1].label == "1st · 1 SP · can't reach corner 2"
    assert choices[2].label == "2nd · free · can't reach corner 2"
    assert choices[2].corner_outcome == "corner 2: can't reach it"
    assert "can't reach" not in choices[3].label + choices[4].label


def test_no_gear_reaches_the_corner_leaves_the_corner_out():
    """C-2: when no gear can reach the corner, the buttons do not all say so."""
    _, choices = choices_at(10, 2)
    assert [c.label for c in choices.values()] == ["1st · free", "2nd · free", "3rd · free"]
    assert all(c.corner_outcome == "" for c in choices.values())
    assert "Corner 2: can't reach it" in choices[2].tip  # the tooltip still says it


def test_downshift_alone_eliminates_g4():
    """G-4, D-2: 6th to 3rd costs 2 SP, all the car has: the button reads 100% OUT."""
    _, choices = choices_at(10, 6, pools=(2,))
    assert choices[3].eliminates and choices[3].label == "3rd · 100% OUT"
    assert "downshift alone" in choices[3].tip
    assert choices[4].label.startswith("4th · 1 SP")


def test_advanced_rules_count_wear_points_a2():
    """A-2, A-7: advanced rules count WP, summed over the pools."""
    _, choices = choices_at(4, 4, preset="advanced")
    assert {c.unit for c in choices.values()} == {"WP"}
    assert "WP" in choices[5].label and "WP lost on average" in choices[5].tip


def test_mirabeau_buttons_from_the_issue():
    """C-3, D-2 (issue 27): before Mirabeau with 6 SP, 5th overshoots on every roll and 6th
    eliminates the car whatever the roll."""
    monaco = load_track(ROOT / "tracks" / "monaco.json")
    race = Race.from_position(monaco, {"Blue": {"space": 147, "gear": 5, "pools": (6,)}})
    choices = {c.gear: c for c in TableController(race, ["person"]).gear_choices()}
    assert choices[6].label == "6th · 100% OUT"
    assert choices[5].label.startswith("5th · free · 80% OUT · −") and choices[5].label.endswith(
        "overshoots"
    )
    assert choices[5].corner_outcome == "corner 4: certain to overshoot it by 4-13 spaces"


def test_a_label_without_risk_keeps_the_old_form():
    """A GearChoice made by hand without the risk still reads as before."""
    assert GearChoice(3, "free", Fraction(5, 8)).label == "3rd · free · 62% stop"
    assert GearChoice(2, "1 SP", None, eliminates=True).label == "2nd · OUT"


def test_buttons_show_label_tooltip_and_danger():
    """The widget's gear buttons: the label, the tooltip, red for a certain elimination and
    orange for a possible one."""
    race = Race.from_position(LANES, {"Blue": {"space": 8, "gear": 5, "pools": (4,)}}, seed=1)
    table = RaceTable(race, ["person"])
    choices = {c.gear: c for c in table.controller.gear_choices()}
    buttons = {
        c.gear: b for c, b in zip(choices.values(), table.gear_buttons.children, strict=True)
    }
    for gear, button in buttons.items():
        assert button.description == choices[gear].label
        assert button.tooltip == choices[gear].tip
    assert buttons[6].button_style == "danger"
    assert buttons[4].button_style == "warning"


def _amount(x: Fraction) -> str:
    value = float(x)
    text = f"{value:.0f}" if value >= 10 else f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
