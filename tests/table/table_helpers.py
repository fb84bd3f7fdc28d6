"""What a person does at a table, for the tests: a whole turn, a race half played, or play
on to the end."""

from __future__ import annotations

from fdlab.rules import Race
from fdlab.table import TableController
from fdlab.track import Track


def person_turn(table: TableController, top_gear: bool = False) -> None:
    """A person's whole turn: the start roll or a gear (the middle one, or the highest),
    then the first (farthest, cheapest) move."""
    if table.start_roll_due:
        table.start_roll()
    else:
        gears = table.gear_choices()
        table.choose_gear(gears[-1 if top_gear else len(gears) // 2].gear)
    if table.phase == "move" and table.person_on_turn:
        table.choose_move(table.move_choices()[0].destination)


def finish(table: TableController) -> None:
    """Play to the end: the bots by themselves, the people a middle gear and the farthest move."""
    while not table.race.over:
        table.run_bots()
        if table.race.over:
            break
        person_turn(table)


def half_played(ring: Track, person_turns: int) -> TableController:
    """A race on ``ring`` played some turns: a person (Blue, top gears), a bold heuristic
    bot and a random bot, stopped at the person's next decision."""
    race = Race(ring, cars=3, seed=13)
    table = TableController(race, ["person", "heuristic:bold", "random"])
    for _ in range(person_turns):
        table.run_bots()
        person_turn(table, top_gear=True)
    table.run_bots()
    return table
