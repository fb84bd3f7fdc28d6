"""Eliminations by cause (bot mistake, worn out, no safe option, chance) and the bots' solo gap in the report."""

from __future__ import annotations

import dataclasses

from fdlab.analysis.playtest import playtest
from fdlab.analysis.racelog import CAUSES, TURN_COLUMNS, _cause, _safe_gear, play_logged_race
from fdlab.analysis.report import circuit_report
from fdlab.analysis.stats import corner_table
from fdlab.bots import HeuristicBot
from fdlab.rules import Engine, compile_board
from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.dice import LoadedDice
from fdlab.rules.loop import RaceStep
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii

#: A long straight into a one-column 3-stop corner: fast cars cannot stop in time.
TRAP = from_ascii(
    "\n".join([". . . . . . . . . . . . . . . . . . 1 . . . . . ."] * 2),
    corners={1: 3},
    finish=24,
    grid=[1, 0],
)


class Kamikaze(HeuristicBot):
    """Takes the longest move, eliminating or not: its eliminations are its own mistakes."""

    def choose_gear(self, view):
        return max(view.legal_gears())

    def choose_move(self, view, moves):
        return max(moves, key=lambda pair: pair[0].moved)[0]


def test_an_elimination_with_a_safe_choice_is_the_bots_mistake():
    board = compile_board(TRAP)
    causes = []
    for seed in range(6):
        log = play_logged_race(board, BASIC, [Kamikaze()], ["k"], race=seed, seed=seed)
        rows = [dict(zip(TURN_COLUMNS, row, strict=True)) for row in log.turns]
        causes += [row["cause"] for row in rows if row["eliminated"]]
    assert causes and set(causes) <= set(CAUSES)
    assert "mistake" in causes


def trapped(preset=BASIC, pools=(2,), roll=21):
    """6th gear, three spaces before a 3-stop corner: the turn's start and its longest move."""
    engine = Engine(compile_board(TRAP), preset, ["A"])
    before = engine.position([{"space": 30, "gear": 6, "pools": pools}])
    moving, _ = engine.step(before, ChooseGear(6), LoadedDice([roll]))
    option, cost = max(engine.legal_moves(moving), key=lambda move: move[0].moved)
    action = ChooseMove.of(option, engine.board.ids)
    return engine, before, RaceStep(0, action, moving, moving, [], option, cost)


def test_a_car_with_no_safe_gear_but_full_pools_would_have_one_is_worn_out():
    """With 2 SP of 18 every gear has an eliminating roll; with 18 SP it could drop gears."""
    engine, before, move = trapped()
    assert not _safe_gear(engine, before, 0)
    assert all(cost.eliminated for _, cost in engine.legal_moves(move.before))
    assert _cause(engine, before, 0, move) == "worn out"
    assert _cause(engine, before, 0, None) == "worn out"  # eliminated before its move
    easy = engine.position([{"space": 2, "gear": 2, "pools": (18,)}])
    assert _safe_gear(engine, easy, 0)


def test_a_car_with_no_safe_option_even_with_full_pools_is_the_circuits_danger():
    """The same spot when 2 SP is all a car ever has: no healthier car would survive it."""
    poor = dataclasses.replace(BASIC, name="poor", pools=(("SP", 2),))
    engine, before, move = trapped(poor)
    assert move.cost.eliminated
    assert _cause(engine, before, 0, move) == "no safe option"
    assert _cause(engine, before, 0, None) == "no safe option"


def test_a_healthy_car_that_chose_the_trap_made_a_mistake():
    engine, before, move = trapped(pools=(18,))
    assert move.cost.eliminated  # the longest move; shorter ones were safe
    assert _cause(engine, before, 0, move) == "mistake"


def test_every_cause_is_one_of_the_four():
    assert CAUSES == ("mistake", "worn out", "no safe option", "chance")


def test_corner_table_splits_eliminations_by_cause_and_the_report_names_the_bots():
    track = from_ascii(
        "\n".join([". . . . . . . . . . . . 1 . . . . 2 2 . . . . . . ."] * 2),
        corners={1: 3, 2: 1},
        closed=True,
        grid=[50, 51, 48, 49],
        name="Trap loop",
    )
    result = playtest(track, ["par", "heuristic:reckless", "random", "par"], races=12,
                      workers=1, progress=False)  # fmt: skip
    table = corner_table(result)
    causes = ["bot_mistakes", "worn_out", "no_safe_option", "by_chance"]
    split = table[causes].sum(axis=1)
    assert (split == table["eliminations"]).all()
    assert table["eliminations"].sum() > 0
    report = circuit_report(result, solo_races=4)
    assert {"solo_turns", "solo_gap", "solo_eliminated"} <= set(report.bots.columns)
    assert set(report.bots.index) == {"par", "heuristic:reckless", "random"}
    bots_line = next(line for line in report.sentences() if line.startswith("Bots:"))
    assert "2 x `par`" in bots_line
    assert any(f"{side} par" in bots_line for side in ("over", "under", "at"))


def test_the_report_names_worn_out_cars_apart_from_the_circuits_danger():
    from fdlab.analysis.examples import small_playtest

    report = circuit_report(small_playtest(), solo_races=0)
    corners = report.corners.copy()
    first = corners.index[0]
    counts = {"bot_mistakes": 1, "worn_out": 2, "no_safe_option": 0, "by_chance": 0}
    corners.loc[first, "eliminations"] = sum(counts.values())
    for column, n in counts.items():
        corners.loc[first, column] = n
    line = next(
        line
        for line in dataclasses.replace(report, corners=corners).sentences()
        if line.startswith("Eliminations at")
    )
    assert "2 worn out" in line and "earlier driving" in line and "1 bot mistake" in line
    assert "circuit's danger" not in line and "by chance" not in line  # none of those
