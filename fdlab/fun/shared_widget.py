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
event loop (an ``asyncio`` task: no thread; no callback waits more than a
quarter of a second for the file's lock), redraws when something changed,
and plays the bots' seats at the set pace: every player's table tries, the
first to append wins, the others replay its move. *Undo* is not offered (a
shared game is not taken back). A click on a table the log has moved past
is refused with what landed first, and the table shows the game as it is.
"""

from __future__ import annotations

import asyncio
import html
import os
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as w

from fdlab._shell import Buttons, bug_report, reported, row, running_loop
from fdlab.errors import FdlabError
from fdlab.fun.bots import Bot
from fdlab.fun.events import player_name
from fdlab.fun.shared import FunSeatError, SharedFunGame
from fdlab.fun.widgets import FunTable, FunTableController, MenuKey

__all__ = ["LOCK_WAIT", "POLL_SECONDS", "SharedFunController", "SharedFunTable", "join_fun_table"]

#: How often a table reads the shared game log, in seconds.
POLL_SECONDS = 0.5
#: The longest a button waits for the log's lock (a callback never blocks the page longer).
LOCK_WAIT = 0.25

#: The tables of this kernel, by (log, player): a table joined again stops the one before.
_LIVE: weakref.WeakValueDictionary[tuple[str, str], SharedFunTable] = weakref.WeakValueDictionary()


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
        self._poller: asyncio.Task[None] | None = None
        self._stopped = False
        self._last_change = 0.0
        self._drawn = -1  # the record the table was last drawn at
        self._drawn_actions = -1  # and the actions it showed
        self._poll_error: str | None = None
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
        key = (os.path.realpath(shared.path), shared.player)
        older = _LIVE.get(key)
        if older is not None and older is not self:
            older.stop()
        _LIVE[key] = self
        self._start_polling()

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
        self.owners_line.value = _owners_html(shared)
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
        loop = running_loop()
        self._last_change = loop.time() if loop is not None else 0.0
        played = self._drawn_actions != len(self.shared.actions)
        self.refresh()
        if played and self.messages.last_error is None:
            self.announce()

    def poll_once(self) -> bool:
        """Read the log, play a bot whose seat is to act (at the pace), redraw; True if
        anything changed. In a notebook this runs by itself every :attr:`poll_seconds`."""
        shared = self.shared
        before = shared.seq
        try:
            shared.sync()
            loop = running_loop()
            now = loop.time() if loop is not None else float("inf")
            if shared.bots_to_play and now - self._last_change >= self.bot_delay:
                shared.play_bot()
            self._poll_error = None
        except FdlabError as error:
            self._poll_trouble(str(error), "")
        except Exception as error:  # the polling task must not die of a bug
            self._poll_trouble(*bug_report(error))
        if shared.seq != before or self._drawn != shared.seq:
            self._changed()
            return True
        return False

    def _poll_trouble(self, message: str, details: str) -> None:
        if message != self._poll_error:  # said once, not twice a second
            self._poll_error = message
            self.messages.refuse(message, details)

    def _start_polling(self) -> None:
        loop = running_loop()
        if loop is None or self._stopped or (self._poller is not None and not self._poller.done()):
            return
        self._poller = loop.create_task(self._poll())

    async def _poll(self) -> None:
        while not self._stopped:
            self.poll_once()
            pause = self.poll_seconds
            if self.shared.bots_to_play:  # the next bot decision at the pace, not a poll later
                loop = asyncio.get_running_loop()
                due = self._last_change + self.bot_delay - loop.time()
                pause = min(pause, max(due, 0.05))
            await asyncio.sleep(pause * (4 if self._poll_error else 1))

    def stop(self) -> None:
        """Stop reading the log (a table joined again in this kernel stops the one before)."""
        self._stopped = True
        if self._poller is not None and not self._poller.done():
            self._poller.cancel()
        self._poller = None

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


def _owners_html(shared: SharedFunGame) -> str:
    """``You: Ana · P1: Ana (you) · P2: Ben · P3: manager bot``, the seat to act in bold,
    then whose decision it is."""
    to_act = shared.to_act
    parts = [f"You: <b>{html.escape(shared.player)}</b>"]
    for k in range(len(shared.seats)):
        text = f"{player_name(k)}: {html.escape(shared.seat_label(k))}"
        parts.append(f"<b>{text}</b>" if k == to_act else text)
    log = html.escape(Path(shared.path).name)
    return (
        f"<div style='font-size:0.85em;line-height:1.4'>{' · '.join(parts)} "
        f"<span style='color:#666'>(shared game: {log})</span><br>"
        f"<span class='fdlab-fun-prompt'>{html.escape(shared.prompt())}</span></div>"
    )
