"""What a player of a shared race does in a real browser: the race, a seat, its turns.

Used by the browser tests of the shared table in JupyterLab
(``test_browser_shared.py``) and of the class app served by Voila
(``test_browser_class.py``): the same race (a two-lane sprint, seed 6, Blue
and Red for people, Green a heuristic bot), played the same way.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from fdlab.rules import Race
from fdlab.table import TableController
from fdlab.track import from_ascii

CARS = ["Blue", "Red", "Green"]
SEATS = ["person", "person", "heuristic"]
# Seed 6 on the sprint: Red, Green and Blue in turn; the race ends in 19 actions.
SEED = 6
PLAYERS = {"Ana": "Blue", "Ben": "Red"}


def sprint():
    """Two lanes of 11 spaces, three grid spots: a race of a few turns a car."""
    lane = " ".join(["."] * 11)
    return from_ascii(f"{lane}\n{lane}", grid=[12, 1, 0], finish=10, name="Sprint")


def hot_seat() -> list:
    """The same race at one table, people choosing the middle gear and the first move."""
    sys.path.insert(0, str(Path(__file__).parent))
    from table_helpers import finish

    table = TableController(Race(sprint(), cars=CARS, seed=SEED, roll_grid=False), SEATS)
    table.roll_grid()
    finish(table)
    return list(table.race.actions)


# The table's board is drawn on the page (BokehJS loaded, the figure's view made).
BOARD_DRAWN = """
() => !!window.Bokeh && window.Bokeh.index.roots.some((v) => v.model.name === "fdlab-race-board")
"""


class Seat:
    """One player's page: their table and what they do on their turn."""

    def __init__(self, page, player: str, car: str | None = None) -> None:
        self.page = page
        self.player = player
        self.car = car or PLAYERS[player]
        self.table = page.locator(".fdlab-race-table").first
        self.prompt = self.table.locator(".fdlab-prompt")
        self.log = self.table.locator(".fdlab-log")
        self.message = self.table.locator(".fdlab-message")

    def on_turn(self) -> bool:
        return f"{self.car} ({self.player}):" in self.prompt.inner_text()

    def play(self) -> None:
        """One decision as shown: start roll, the middle gear, or the first move; then wait for
        the log to show it."""
        from playwright.sync_api import expect

        text = self.prompt.inner_text()
        before = self.log.inner_text()
        if "make the start roll" in text:
            self.table.locator("button.fdlab-start-roll").click()
        elif "choose a gear" in text:
            gears = self.table.locator("button.fdlab-gear")
            expect(gears.first).to_be_visible()  # the prompt may come a moment before them
            gears.nth(gears.count() // 2).click()
        elif "click a highlighted space" in text:
            # the first move of the list, as hot_seat plays it (the list may start on a safer one)
            first = self.table.locator(".fdlab-move-list input").first
            first.check()
            expect(first).to_be_checked()
            self.table.locator("button.fdlab-move").click()
        else:
            raise AssertionError(f"{self.player}: nothing to do at {text!r}")
        expect(self.log).not_to_have_text(before)
        # the log may be redrawn a moment before the prompt: read the next decision from a
        # prompt that has caught up, not from the one this decision answered
        expect(self.prompt).not_to_have_text(text)
        assert "Error" not in self.message.inner_text(), self.message.inner_text()


def play_until(seats: list[Seat], done, deadline: float) -> None:
    while not done():
        assert time.monotonic() < deadline, [s.prompt.inner_text() for s in seats]
        acted = False
        for seat in seats:
            if seat.on_turn():
                seat.play()
                acted = True
        if not acted:
            seats[0].page.wait_for_timeout(100)


def wait_for_any(seats: list[Seat], said: re.Pattern[str]) -> list[str]:
    """The message lines once one of them says ``said`` (within 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        texts = [seat.message.inner_text() for seat in seats]
        if any(said.search(text) for text in texts) or time.monotonic() > deadline:
            return texts
        seats[0].page.wait_for_timeout(100)
