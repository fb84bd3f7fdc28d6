"""The bots play at their pace in a notebook, and a person who acts quickly never stalls them.

The table's task plays one bot step, sleeps for the *Bot pace*, and plays the
next. A person whose turn the last bot step made may act while the task still
sleeps; when that action ends their turn (a stalled start, S-2) the bots after
them must play on. Once seen in a real browser as "Green (lookahead:bold) is
playing" for ever.
"""

from __future__ import annotations

import asyncio

from fdlab.rules import Race
from fdlab.table import RaceTable


def _act_as_the_person(table: RaceTable) -> None:
    """One action of the person on turn: whatever the phase asks for."""
    c = table.controller
    if c.start_roll_due:
        table.start_roll()
    elif c.phase == "gear":
        table.choose_gear(c.gear_choices()[0].gear)
    else:
        table.click_space(c.move_choices()[0].destination)


SEED = 1  # Blue stalls at the start while the bots pause (a seed that stalled the old table)


async def _play_quickly(seed: int, ring) -> tuple[Race, bool]:
    """Blue acts the moment their turn comes, a dozen times; True if a start stalled."""
    race = Race(ring, cars=3, seed=seed)
    table = RaceTable(race, ["person", "heuristic", "random"], bot_delay=0.05)
    c = table.controller
    stalled = False
    for _ in range(12):
        for _ in range(500):
            if not c.bots_to_play:
                break
            await asyncio.sleep(0.005)
        if race.over:
            break
        assert c.on_turn == "Blue"
        pausing = table._task is not None and not table._task.done()
        _act_as_the_person(table)
        stalled |= pausing and c.bots_to_play  # Blue's turn ended while the bots paused
        await table.wait()
        assert not c.bots_to_play, f"{c.on_turn} is on turn and no bot plays"
    return race, stalled


def test_a_person_acting_while_the_bots_pause_does_not_stall_them(ring):
    race, stalled = asyncio.run(_play_quickly(SEED, ring))
    assert stalled, "the seed no longer gives Blue a stalled start while the bots pause"
    assert len(race.actions) > 12
