"""Never a freeze: a par seat's board is solved in the background (issue 26).

The solve runs in a worker thread; the race goes on; the bot's first
decision waits for what is left of the solve; a race replays the same
whether its bots were made in the background or not.
"""

from __future__ import annotations

import asyncio

import pytest

from fdlab.rules import Race
from fdlab.table import RaceTable, TableController
from fdlab.table.errors import SeatError
from fdlab.table.solving import PendingBot


def test_a_par_seat_returns_at_once_and_its_car_waits_for_the_solve(ring, held):
    table = TableController(Race(ring, cars=2, seed=3), ["person", "person"])
    table.set_seat(1, "par", background=True)
    assert isinstance(table.policies[1], PendingBot)
    assert table.solving == [table.race.names[1]]
    assert held.queued, "the solve was handed to the worker, not run in the call"
    held.finish()
    assert table.solving == [] and table.bot_waiting() is None


def test_a_wrong_name_is_refused_at_once_even_in_the_background(ring, held):
    table = TableController(Race(ring, cars=2, seed=3), ["person", "person"])
    with pytest.raises(SeatError, match=f"seat of {table.race.names[1]}"):
        table.set_seat(1, "par:fearless", background=True)
    assert not held.queued


def test_a_race_with_a_bot_made_in_the_background_replays_as_one_made_at_once(ring):
    def race_with(background: bool) -> list:
        race = Race(ring, cars=3, seed=8)
        table = TableController(race, ["heuristic", "heuristic", "heuristic"])
        table.set_seat(2, "par:cautious", background=background)
        table.run_bots()
        assert race.over
        return list(race.actions)

    assert race_with(background=True) == race_with(background=False)


def test_the_table_stays_live_while_the_board_is_solved(ring, held):
    """In a notebook (an event loop) picking a par seat returns at once and says so; the
    bots' task waits for the solve without blocking the loop, then the bot plays."""

    async def scenario() -> None:
        table = RaceTable(Race(ring, cars=2, seed=5), ["person", "heuristic"], bot_delay=0)
        await table.wait()
        table.seat_boxes[0].value = "par"
        assert table.last_error is None
        assert f"solving the board for {table.race.names[0]}" in table.message.value
        for _ in range(3):  # the loop runs: the waiting task never holds it
            await asyncio.sleep(0.01)
        assert table._task is not None and not table._task.done()
        held.finish()
        await table.wait()
        assert table.controller.solving == [] and "solving" not in table.message.value

    asyncio.run(scenario())


def test_joining_a_shared_race_with_a_par_seat_returns_at_once(ring, held, tmp_path):
    """A shared race's par seat is made in the background when the table joins from a
    notebook: the log is read at once, the bot plays once its board is solved."""
    from fdlab.table import SharedTable

    log = tmp_path / "race.log"
    SharedTable.create(log, ring, cars=["Blue", "Red"], seats=["person", "par"], seed=4)
    ana = SharedTable.join(log, "Ana", background=True)
    assert isinstance(ana.controller.policies[1], PendingBot)
    assert held.queued and ana.controller.solving == ["Red"]
    ana.claim("Blue")
    ana.roll_grid()
    assert ana.bots_to_play  # seed 4: Red first, and its bot waits for the solve
    assert ana.play_bot() is False
    held.finish()
    while not ana.my_turn and not ana.race.over:
        ana.play_bot()
    assert ana.race.actions == SharedTable.join(log, "Referee").race.actions


def test_a_shared_table_in_a_notebook_says_its_bot_waits_for_the_solve(ring, held, tmp_path):
    from fdlab.table import SharedTable

    async def scenario() -> None:
        log = tmp_path / "race.log"
        SharedTable.create(log, ring, cars=["Blue", "Red"], seats=["person", "par"], seed=4)
        table = RaceTable.join(log, player="Ana", seat="Blue", bot_delay=0, poll=0.01)
        assert held.queued, "joining handed the solve to the worker"
        table.grid_button.click()
        for _ in range(5):
            await asyncio.sleep(0.02)  # the page stays live while the board is solved
        assert table.shared.bots_to_play  # seed 4: Red first
        assert "solving the board for Red" in table.messages.last_message
        held.finish()
        await table.wait()
        assert table.shared.my_turn or table.race.over
        table.stop()

    asyncio.run(scenario())


def test_the_solving_message_stays_while_a_person_plays_on(ring, held):
    """Issue 26: the start roll (or any move) does not wipe "solving the board for ..."."""

    async def scenario() -> None:
        table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"], bot_delay=0)
        await table.wait()
        table.seat_boxes[1].value = "par"
        assert table.controller.on_turn == table.race.names[0]  # seed 1: Blue, a person
        table.start_button.click()
        assert table.last_error is None
        assert f"solving the board for {table.race.names[1]}" in table.message.value
        held.finish()
        await table.wait()

    asyncio.run(scenario())
