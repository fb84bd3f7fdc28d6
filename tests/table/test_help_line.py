"""The help line says what to do now, phase by phase (issue 27).

A seeded race on the ring played through :class:`RaceTable` in plain Python:
the grid roll, the start roll, the move after it, a gear, a bot on turn (in an
event loop, where the bots play at their pace), a bot waiting for its board to
be solved, and the end of the race. The line keeps its link to the rules text.
"""

from __future__ import annotations

import asyncio

from table_helpers import finish

from fdlab.rules import Race
from fdlab.table import RaceTable

GRID = (
    "**Roll for the grid:** press *Roll for the grid*: every car rolls the black die and "
    "the highest roll takes pole position (S-1)."
)
START = (
    "**Blue: make your start roll.** Press *Start roll*: the black die decides. 1 stalls "
    "(the turn ends), 17-20 is a flying start of 4 spaces, anything else a normal start "
    "with the 1st-gear die (S-2)."
)
MOVE = (
    "**Blue: choose where to go.** Click a space outlined in pink (blue: free, orange: costs "
    "SP, black hatched: eliminates, dotted: a collision check that may cost SP; hover for the "
    "cost and the risk) or pick a move in the list and press *Move*."
)
GEAR = (
    "**Blue: choose a gear.** Each button tells the shift's cost, the chance to be eliminated "
    "(OUT), the SP you may lose braking and overshooting, and the corner ahead (hover for "
    "more); collisions and engine rolls may cost more, and the move list says which moves "
    "bring them. Press one to roll."
)


def shown(table: RaceTable) -> str:
    """The Markdown the help line shows (its one output)."""
    (output,) = table.help_line.outputs
    return output["data"]["text/markdown"]


def test_the_help_line_follows_a_race_from_the_grid_to_a_gear(ring):
    # seed 3: the bots start first, then Blue starts normally, moves, and shifts
    race = Race(ring, cars=3, seed=3, roll_grid=False)
    table = RaceTable(race, ["person", "heuristic", "random"])
    assert table.help_text == GRID
    assert shown(table).startswith(GRID) and "The rules, clause by clause:" in shown(table)
    table.grid_button.click()
    assert table.controller.on_turn == "Blue" and table.help_text == START
    table.start_button.click()
    assert table.race.phase == "move" and table.help_text == MOVE
    table.move_button.click()  # the list's first move; the bots play on to Blue's gear
    assert table.controller.on_turn == "Blue" and table.race.phase == "gear"
    assert table.help_text == GEAR and shown(table).startswith(GEAR)


def test_the_advanced_game_says_lowest_roll_rocket_start_and_wp(ring):
    race = Race(ring, cars=2, preset="advanced", seed=2, roll_grid=False)
    table = RaceTable(race, ["person", "person"])
    assert "the lowest roll takes pole position (S-1)" in table.help_text
    table.grid_button.click()
    assert "20 is a rocket start of 4 spaces" in table.help_text
    assert table.help_text.endswith("(S-3).")


def test_the_help_line_names_the_bot_that_is_playing(ring):
    """In a notebook the bots play at their pace: meanwhile the line says who plays."""

    async def scenario() -> None:
        race = Race(ring, cars=3, seed=4)  # Red, a bot, starts the round
        table = RaceTable(race, ["heuristic", "person", "random"], bot_delay=0.01)
        assert table.controller.on_turn == "Blue"
        assert table.help_text == (
            "**Blue (heuristic) is playing.** The bots play at the *Bot pace* set under "
            "*Seats*; the buttons come back on your turn."
        )
        await table.wait()
        assert table.controller.on_turn == "Red"
        assert table.help_text.startswith("**Red: make your start roll.**")

    asyncio.run(scenario())


def test_the_help_line_says_a_bot_waits_for_its_board(ring, held):

    async def scenario() -> None:
        table = RaceTable(Race(ring, cars=2, seed=5), ["person", "heuristic"], bot_delay=0)
        await table.wait()
        table.seat_boxes[0].value = "par"  # Blue, on turn, becomes a bot still being made
        assert table.help_text == (
            "**Blue (par) waits for its board to be solved** (once per board, then cached): "
            "the race goes on as soon as it is done."
        )
        held.finish()
        await table.wait()

    asyncio.run(scenario())


def test_after_the_race_the_line_names_the_winner_and_what_comes_next(ring):
    table = RaceTable(Race(ring, cars=3, seed=13), ["person", "heuristic:bold", "random"])
    file_fold = table._file_section.children[0]
    assert not file_fold.value  # folded while the race is on
    finish(table.controller)
    table.refresh()
    race = table.race
    winner = race.names[race.state.finished[0]]
    assert table.help_text == (
        f"**The race is over: {winner} wins.** Next, under *Game file*: *Save* the game, "
        "write a *Replay page* to watch it again, or start a *New race* with the same cars "
        "and seats."
    )
    assert "Choose a gear" not in shown(table) and "docs/rules.md" in shown(table)
    assert file_fold.value  # the section with Save, Replay page and New race opens


def test_a_race_of_bots_alone_ends_with_the_result_too(ring):
    table = RaceTable(Race(ring, cars=2, seed=7), ["heuristic", "random"])
    assert table.race.over and table.help_text.startswith("**The race is over: ")
