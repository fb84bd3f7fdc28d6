"""The race table across computers: a :class:`RaceTable` over a shared game log.

:class:`SharedRaceTable` is the race table of :mod:`fdlab.table.widget`
played through a :class:`~fdlab.table.shared.SharedTable`: each player opens
it in their own notebook (``RaceTable.join(path, player="Ana", seat="Blue")``)
and the buttons append to the log instead of playing on the table alone.
In a notebook the table reads the log every half second in the kernel's
event loop (an ``asyncio`` task, :class:`fdlab._shell.Poller`, as the bots'
pace is kept: no thread, and no callback waits more than a quarter of a
second for the file's lock),
redraws when something changed, and plays the bots' seats at the set pace:
every player's table tries, the first to append wins, the others replay
its move. Above the turn a line says who holds which seat; the buttons come
only on this player's turns. Undo and redo, Load and New race are not
offered (a shared race is not taken back: :mod:`fdlab.table.shared`); Save
writes the race so far as a game file, and the replay page works as usual.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import ipywidgets as w

from fdlab._shell import (
    LOCK_WAIT,
    POLL_SECONDS,
    Poller,
    load_bokehjs,
    owners_html,
    reported,
    row,
    running_loop,
)
from fdlab.rules.race import Race
from fdlab.table.controller import TableController
from fdlab.table.errors import TableError
from fdlab.table.shared import SharedTable
from fdlab.table.widget import RaceTable, _dashboard_html

__all__ = ["POLL_SECONDS", "SharedRaceTable"]


class SharedRaceTable(RaceTable):
    """The race table for one player of a shared race (see the module's documentation).

    Parameters
    ----------
    shared : SharedTable
        The race, read from its game log as this player.
    seat : int or str, optional
        A car (name or index) to take at once (or take back: one's own seat).
    poll : float
        Seconds between two reads of the log in a notebook.
    bot_delay, width, path
        As for :class:`~fdlab.table.widget.RaceTable`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "race.log"
    >>> track = sprint()
    >>> _ = SharedTable.create(log, track, cars=["Blue", "Red"], seed=4)
    >>> ana = RaceTable.join(log, player="Ana", seat="Blue")
    >>> ben = RaceTable.join(log, player="Ben", seat="Red")
    >>> ana.grid_button.click()  # S-1: any player holding a seat rolls for the grid
    >>> _ = ben.poll_once()  # in a notebook this happens by itself, twice a second
    >>> ben.prompt.value.endswith("Blue (Ana) is deciding</b>")
    True
    >>> ben.grid_button.layout.display, len(ben.gear_buttons.children)
    ('none', 0)
    """

    def __init__(
        self,
        shared: SharedTable,
        *,
        seat: int | str | None = None,
        poll: float = POLL_SECONDS,
        bot_delay: float = 0.6,
        width: int = 700,
        path: str = "game.json",
    ) -> None:
        self.shared = shared
        shared.lock_timeout = min(shared.lock_timeout, LOCK_WAIT)
        self.poll_seconds = float(poll)
        self._drawn = -1  # the record the table was last drawn at
        self._drawn_actions = len(shared.race.actions)  # and the actions it showed
        # one poller a table: this one stops the one of this log and player joined before
        key = ("race", os.path.realpath(shared.path), shared.player)
        if Poller.of(key) is not None:  # joined again in this kernel: a page opened anew?
            load_bokehjs(again=True)
        self.poller = Poller(self, key=key, pace=self._bot_pace, expected=TableError)
        super().__init__(
            shared.race, shared.controller.seats, bot_delay=bot_delay, width=width, path=path
        )
        if seat is not None:
            self.take_seat(seat)
        self.poller.start()

    def _make_controller(self, race: Race, seats: Any) -> TableController:
        return self.shared.controller

    # -- building ---------------------------------------------------------------------
    def _build_controls(self, bot_delay: float, path: str) -> None:
        super()._build_controls(bot_delay, path)
        self.owners_line = w.HTML(layout=w.Layout(width="100%"))
        self.owners_line.add_class("fdlab-owners")
        self.seat_menu = w.Dropdown(
            options=[], description="Seat", layout=w.Layout(width="12em"),
            style={"description_width": "3em"},
        )  # fmt: skip
        self.seat_menu.add_class("fdlab-seat-menu")
        self.take_button = self.buttons.make(
            "Take seat", "fdlab-take-seat", self.take_seat, "drive this car: only you act for it"
        )
        self.leave_button = self.buttons.make(
            "Leave my seats", "fdlab-leave-seat", self.leave_seats, "another player may take them"
        )
        self.claim_row = row(self.seat_menu, self.take_button)
        # a shared race is not taken back, nor replaced from here; seats are taken, not set
        for control in (
            self.undo_button, self.redo_button, self.load_button, self.new_race_button,
            self.discard,
        ):  # fmt: skip
            control.layout.display = "none"
        for box in self.seat_boxes:
            box.disabled = True
            box.tooltip = "set when the shared race was created"
        _board, panel = self.widget.children
        by_class = {css: child for child in panel.children for css in child._dom_classes}
        turn = by_class["fdlab-turn"]
        turn.children = [self.owners_line, self.claim_row, *turn.children]
        body = by_class["fdlab-seats-section"].children[1]
        body.children = [*body.children, self.leave_button]

    # -- what this player sees ----------------------------------------------------------
    def _may_decide(self) -> bool:
        return self.shared.my_turn

    def _prompt_text(self) -> str:
        return self.shared.prompt()

    def _player(self) -> _AsSeen:
        """The log, with the race as this table last drew it: a click on a view that the
        log has moved past since is refused, saying what landed first."""
        return _AsSeen(self.shared, self._drawn_actions)

    def refresh(self) -> None:
        """Redraw everything from the race as the log has it, and who holds which seat."""
        super().refresh()
        shared, c = self.shared, self.controller
        labels = [shared.seat_label(k) for k in range(len(self.race.names))]
        self.dashboard.value = _dashboard_html(c, labels)
        self.owners_line.value = owners_html(
            shared.player,
            list(zip(self.race.names, labels, strict=True)),
            self.race.state.current,
            f"shared race: {Path(shared.path).name}",
        )
        free = shared.free_seats()
        self.seat_menu.options = [(self.race.names[k], k) for k in free]
        self.claim_row.layout.display = "" if free else "none"
        self.leave_button.layout.display = "" if shared.mine else "none"
        self._drawn = shared.seq
        self._drawn_actions = len(self.race.actions)

    @property
    def help_text(self) -> str:
        """What to do now: this player's turn, or whom the table waits for."""
        shared, race = self.shared, self.race
        if race.over or shared.my_turn:
            return super().help_text
        current = race.state.current
        seats = f" You drive {_names(race, shared.mine)}." if shared.mine else ""
        if current is None:
            return (
                "**Take a seat to play:** pick a free car under *Seat* and press *Take seat*; "
                "any player holding a seat rolls for the grid (S-1)."
                if shared.controller.people and not shared.mine
                else "**The bots roll for the grid** (S-1)."
            )
        name = race.names[current]
        owner = shared.owner(current)
        if shared.controller.seats[current] != "person":
            return f"**{name} ({shared.seat_label(current)}) is playing.**{seats}"
        if owner is None:
            return (
                f"**{name}'s seat is free:** the race waits for a player to take it "
                f"(*Seat*, *Take seat*).{seats}"
            )
        return f"**{owner} is deciding for {name}.**{seats} The table shows each move as it lands."

    # -- seats ------------------------------------------------------------------------
    @reported
    def take_seat(self, seat: int | str | None = None) -> None:
        """Take car ``seat``'s seat (default: the one picked in the *Seat* menu)."""
        chosen = self.seat_menu.value if seat is None else seat
        if chosen is None:
            raise TableError("no free seat to take")
        self.shared.claim(chosen)
        self.messages.say(f"{self.shared.player}: you drive {_names(self.race, self.shared.mine)}")
        self._changed()

    @reported
    def leave_seats(self) -> None:
        """Leave every seat this player holds."""
        for k in self.shared.mine:
            self.shared.release(k)
        self.messages.say("you left your seats")
        self._changed()

    # -- the log ----------------------------------------------------------------------
    def play_bots(self) -> None:
        """The bots play from the log: at the set pace in a notebook, at once elsewhere."""
        if running_loop() is None:
            self._bots_now()
        else:
            self.poller.start()

    @reported
    def _bots_now(self) -> None:
        self.shared.play_bots()
        self._changed()

    def after_callback(self) -> None:
        """Redraw when a refused action read the log anew (someone else's move landed)."""
        if self._drawn != self.shared.seq:
            self._changed()

    def _changed(self) -> None:
        self.poller.changed()
        self.refresh()

    def _bot_pace(self) -> float | None:
        """The bots' delay when a bot is on turn (the poller plays it on time), else None."""
        return float(self.bot_delay.value) if self.shared.bots_to_play else None

    def poll_once(self) -> bool:
        """Read the log, play a bot whose turn it is (at the pace), redraw; True if anything changed.

        In a notebook this runs by itself every :attr:`poll_seconds`.
        """
        shared = self.shared
        before = shared.seq
        with self.poller.reporting():  # a trouble said once; the polling goes on
            shared.sync()
            waiting = shared.controller.bot_waiting()
            if waiting is not None and not waiting.ready:
                self.messages.say(self._solving_text())
            elif self.poller.due():  # a bot on turn, at the pace
                if waiting is not None:
                    waiting.wait()  # solved: a failed solve raises here, and is shown
                    self.messages.clear()
                shared.play_bot()
        if shared.seq != before or self._drawn != shared.seq:
            self._changed()
            return True
        return False

    def stop(self) -> None:
        """Stop reading the log (a table joined again in this kernel stops the one before)."""
        self.poller.stop()

    async def wait(self) -> None:
        """Wait until no bot is on turn (for code that drives the table in a notebook)."""
        while self.shared.bots_to_play and not self.poller.stopped:
            await asyncio.sleep(self.poll_seconds / 5)

    def __repr__(self) -> str:
        return (
            f"<SharedRaceTable {str(self.shared.path)!r} as {self.shared.player!r}: {self.race!r}>"
        )


class _AsSeen:
    """A player's decisions as the table's buttons make them: on the race the table showed."""

    def __init__(self, shared: SharedTable, seen: int) -> None:
        self.shared = shared
        self.seen = seen

    def roll_grid(self) -> None:
        self.shared.roll_grid(seen=self.seen)

    def start_roll(self) -> int:
        return self.shared.start_roll(seen=self.seen)

    def choose_gear(self, gear: int) -> None:
        self.shared.choose_gear(gear, seen=self.seen)

    def choose_move(self, destination: Any) -> None:
        self.shared.choose_move(destination, seen=self.seen)

    def use_nitro(self) -> None:
        self.shared.use_nitro(seen=self.seen)

    def into_box(self) -> None:
        self.shared.into_box(seen=self.seen)


def _names(race: Race, cars: list[int]) -> str:
    return " and ".join(race.names[k] for k in cars)
