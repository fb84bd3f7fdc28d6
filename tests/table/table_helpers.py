"""What a person does at a table, for the tests: a whole turn, or play on to the end."""

from __future__ import annotations

from fdlab.table import TableController


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
