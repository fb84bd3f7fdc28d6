"""Eliminations by cause (bot mistake, no safe option, chance) and the bots' solo gap in the report."""

from __future__ import annotations

from fdlab.analysis.playtest import playtest
from fdlab.analysis.racelog import CAUSES, _safe_gear, play_logged_race
from fdlab.analysis.report import circuit_report
from fdlab.analysis.stats import corner_table
from fdlab.bots import HeuristicBot
from fdlab.rules import Engine, compile_board
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
        causes += [row[-2] for row in log.turns if row[-3]]  # eliminated -> cause
    assert causes and set(causes) <= set(CAUSES)
    assert "mistake" in causes


def test_a_car_with_no_safe_gear_is_the_circuits_danger():
    """In 6th gear, three spaces before a 3-stop corner, with 2 SP: every roll eliminates."""
    engine = Engine(compile_board(TRAP), BASIC, ["A"])
    trapped = engine.position([{"space": 30, "gear": 6, "pools": (2,)}])
    assert not _safe_gear(engine, trapped, 0)
    easy = engine.position([{"space": 2, "gear": 2, "pools": (18,)}])
    assert _safe_gear(engine, easy, 0)


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
    split = table["bot_mistakes"] + table["no_safe_option"] + table["by_chance"]
    assert (split == table["eliminations"]).all()
    assert table["eliminations"].sum() > 0
    report = circuit_report(result, solo_races=4)
    assert {"solo_turns", "solo_gap", "solo_eliminated"} <= set(report.bots.columns)
    assert set(report.bots.index) == {"par", "heuristic:reckless", "random"}
    bots_line = next(line for line in report.sentences() if line.startswith("Bots:"))
    assert "2 x par" in bots_line and "over par" in bots_line
