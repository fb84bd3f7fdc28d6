"""The Formula Fun table across computers: a :class:`~fdlab.fun.widgets.FunTable` over a
shared game log.

:class:`SharedFunTable` is the table of :mod:`fdlab.fun.widgets` played
through a :class:`~fdlab.fun.shared.SharedFunGame`: each player opens it in
their own notebook (``FunTable.join(path, player="Ana", seat=0)``) and *Play*
appends to the log instead of playing on the table alone. It shows only
this player's hand (the others' are counted, as the one-screen table does
for its bots). Above the board, a line says who holds which seat and whose
decision it is; a *Seat* menu and *Take seat* take a free seat, *Leave my
seat* leaves it. The choices come only when this player's seat is to act;
an auction (FF-4, FF-5) is bid in turn, each bid an action of the bidder
to act, seen by the others within about a second.

In a notebook the table reads the log every half second in the kernel's
event loop (an ``asyncio`` task, :class:`fdlab._shell.Poller`, as the race
table's: no thread; no callback waits more than a quarter of a second for
the file's lock), redraws when something changed,
and plays the bots' seats at the set pace: every player's table tries, the
first to append wins, the others replay its move. *Undo* is not offered (a
shared game is not taken back). A click on a table the log has moved past
is refused with what landed first, and the table shows the game as it is.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as w

from fdlab._shell import LOCK_WAIT, POLL_SECONDS, Buttons, Poller, owners_html, reported, row
from fdlab.fun.bots import Bot
from fdlab.fun.events import player_name
from fdlab.fun.shared import FunSeatError, SharedFunGame
from fdlab.fun.widgets import FunTable, FunTableController, MenuKey

__all__ = ["LOCK_WAIT", "POLL_SECONDS", "SharedFunController", "SharedFunTable", "join_fun_table"]


class SharedFunController(FunTableController):
    """The table's logic for one player of a shared game: their seat, their hand, the log.

    Parameters
    ----------
    shared : SharedFunGame
        The championship, read from its log as this player.

    Attributes
    ----------
    seen : int
        How many actions the game had when the table was last drawn: a
        choice is played on that position or refused (:class:`~fdlab.fun.shared.StaleGameError`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
    >>> shared = SharedFunGame.create(log, players=2, seed=1, player="Ana")
    >>> c = SharedFunController(shared)
    >>> c.menu(), c.human  # no seat yet: no choices, every hand hidden
    ([], None)
    >>> shared.claim(0)
    >>> c.menu()[0][0]
    'Draw 1 card (free)'
    """

    def __init__(self, shared: SharedFunGame) -> None:
        # not FunTableController.__init__: the game is the log's, replayed by ``shared``
        self.shared = shared
        self.game = shared.game
        self.human = shared.seat
        self.seen = len(shared.actions)

    def menu(self) -> list[tuple[str, MenuKey]]:
        """The choices when this player's seat is to act (none otherwise)."""
        self.human = self.shared.seat
        return super().menu() if self.shared.my_turn else []

    def act(self, key: MenuKey, amount: int | None) -> None:
        """Append the choice to the log, decided on the game as last drawn (:attr:`seen`).

        Raises
        ------
        StaleGameError
            When another action landed since the table was drawn.
        NotYourDecisionError, IllegalActionError
            As :meth:`SharedFunGame.act <fdlab.fun.shared.SharedFunGame.act>` says.
        """
        self.shared.act(self.action_for(key, amount), seen=self.seen)

    def undo(self) -> None:
        """Refused: a shared game is not taken back."""
        self.shared.undo()


class SharedFunTable(FunTable):
    """The Formula Fun table for one player of a shared game (see the module's documentation).

    Parameters
    ----------
    shared : SharedFunGame
        The championship, read from its game log as this player.
    seat : int or str, optional
        A seat (index or ``"P2"``) to take at once (or take back: one's own).
    poll : float
        Seconds between two reads of the log in a notebook.
    bot_delay : float
        Seconds between two bot decisions in a notebook.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
    >>> _ = SharedFunGame.create(log, players=2, seed=1)
    >>> ana = join_fun_table(log, player="Ana", seat=0)
    >>> ben = join_fun_table(log, player="Ben", seat=1)
    >>> ana.choices.value = 0  # Draw 1 card (free)
    >>> ana.play_button.click()
    >>> _ = ben.poll_once()  # in a notebook this happens by itself, twice a second
    >>> "Ana draws 1 card" in ben.log.value, ben.play_button.disabled
    (True, True)
    """

    def __init__(
        self,
        shared: SharedFunGame,
        *,
        seat: int | str | None = None,
        poll: float = POLL_SECONDS,
        bot_delay: float = 0.5,
    ) -> None:
        self.shared = shared
        shared.log.lock_timeout = min(shared.log.lock_timeout, LOCK_WAIT)
        self.poll_seconds = float(poll)
        self.bot_delay = float(bot_delay)
        self._drawn = -1  # the record the table was last drawn at
        self._drawn_actions = -1  # and the actions it showed
        # one poller a table: this one stops the one of this log and player joined before
        key = ("fun", os.path.realpath(shared.path), shared.player)
        self.poller = Poller(self, key=key, pace=self._bot_pace)
        buttons = Buttons()
        self.owners_line = w.HTML(layout=w.Layout(width="100%"))
        self.owners_line.add_class("fdlab-owners")
        self.seat_menu = w.Dropdown(
            options=[], description="Seat", layout=w.Layout(width="12em"),
            style={"description_width": "3em"},
        )  # fmt: skip
        self.seat_menu.add_class("fdlab-seat-menu")
        self.take_button = buttons.make(
            "Take seat", "fdlab-take-seat", self.take_seat, "play this seat: only you act for it"
        )
        self.leave_button = buttons.make(
            "Leave my seat", "fdlab-leave-seat", self.leave_seat, "another player may take it"
        )
        self.claim_row = row(self.seat_menu, self.take_button, self.leave_button)
        players = shared.game.state.n_players
        super().__init__(players=players, seed=shared.game.seed, human=0, bots={})
        self.undo_button.layout.display = "none"  # a shared game is not taken back
        self.widget.children = [self.owners_line, self.claim_row, *self.widget.children]
        self.widget.add_class("fdlab-fun-shared")
        if seat is not None:
            self.take_seat(seat)
        self.poller.start()

    def _make_controller(
        self, players: int, seed: int, human: int, bots: str | Mapping[int, Bot]
    ) -> FunTableController:
        self.shared_controller = SharedFunController(self.shared)
        return self.shared_controller

    # -- what this player sees --------------------------------------------------------
    def refresh(self) -> None:
        """Redraw from the game as the log has it, and who holds which seat.

        A choice picked in the list (and the amount typed) stays when nothing
        was played since (a seat taken by someone does not reset it).
        """
        shared = self.shared
        same = self._drawn_actions == len(shared.actions) and self.controller.human == shared.seat
        picked, amount, options = self.choices.value, self.amount.value, self.choices.options
        self.controller.human = shared.seat
        super().refresh()
        if same and picked is not None and self.choices.options == options:
            self.choices.value = picked
            self.amount.value = amount
        self.shared_controller.seen = len(shared.actions)
        seats = [(player_name(k), shared.seat_label(k)) for k in range(len(shared.seats))]
        prompt = f"<br><span class='fdlab-fun-prompt'>{html.escape(shared.prompt())}</span>"
        self.owners_line.value = owners_html(
            shared.player, seats, shared.to_act, f"shared game: {Path(shared.path).name}", prompt
        )
        free = shared.free_seats()
        self.seat_menu.options = [(shared.base_names[k], k) for k in free]
        can_take = bool(free) and shared.seat is None
        self.seat_menu.layout.display = self.take_button.layout.display = "" if can_take else "none"
        self.leave_button.layout.display = "" if shared.seat is not None else "none"
        self._drawn = shared.seq
        self._drawn_actions = len(shared.actions)

    # -- seats ------------------------------------------------------------------------
    @reported
    def take_seat(self, seat: int | str | None = None) -> None:
        """Take ``seat`` (default: the one picked in the *Seat* menu)."""
        chosen = self.seat_menu.value if seat is None else seat
        if chosen is None:
            raise FunSeatError("no free seat to take")
        self.shared.claim(chosen)
        mine = self.shared.seat
        seat_name = self.shared.base_names[mine] if mine is not None else "no seat"
        self.messages.say(f"{self.shared.player}: you play {seat_name}")
        self._changed()

    @reported
    def leave_seat(self) -> None:
        """Leave this player's seat: another player may take it."""
        self.shared.release()
        self.messages.say("you left your seat")
        self._changed()

    # -- the log ----------------------------------------------------------------------
    def _changed(self) -> None:
        self.poller.changed()
        played = self._drawn_actions != len(self.shared.actions)
        self.refresh()
        if played and self.messages.last_error is None:
            self.announce()

    def poll_once(self) -> bool:
        """Read the log, play a bot whose seat is to act (at the pace), redraw; True if
        anything changed. In a notebook this runs by itself every :attr:`poll_seconds`."""
        shared = self.shared
        before = shared.seq
        with self.poller.reporting():  # a trouble said once; the polling goes on
            shared.sync()
            if self.poller.due():  # a bot's seat to act, at the pace
                shared.play_bot()
        if shared.seq != before or self._drawn != shared.seq:
            self._changed()
            return True
        return False

    def _bot_pace(self) -> float | None:
        """The bots' delay when a bot's seat is to act (played on time), else None."""
        return self.bot_delay if self.shared.bots_to_play else None

    def stop(self) -> None:
        """Stop reading the log (a table joined again in this kernel stops the one before)."""
        self.poller.stop()

    def __repr__(self) -> str:
        shared = self.shared
        return f"<SharedFunTable {str(shared.path)!r} as {shared.player!r}: {shared.game!r}>"


def join_fun_table(
    path: str | os.PathLike[str], player: str, *, seat: int | str | None = None, **options: Any
) -> SharedFunTable:
    """A table on the championship shared in ``path``, played as ``player`` (see
    :meth:`FunTable.join <fdlab.fun.widgets.FunTable.join>`).

    ``options`` go to :class:`SharedFunTable` (``poll``, ``bot_delay``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
    >>> _ = SharedFunGame.create(log, players=2, seed=1)
    >>> join_fun_table(log, "Ana", seat="P2").shared.seat
    1
    """
    return SharedFunTable(SharedFunGame.join(path, player), seat=seat, **options)
