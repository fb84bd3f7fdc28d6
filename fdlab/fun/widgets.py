"""Play Formula Fun against bots in JupyterLab with ipywidgets.

:class:`FunTableController` is plain Python (menu entries, playing, undo) and is
tested without a browser; :class:`FunTable` puts it on screen with the widget
shell the editor and the race table share (:mod:`fdlab._shell`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from fdlab._shell import Buttons, MessageLine, reported, table_row
from fdlab.fun.actions import Action, Bid, PlaySpecial, StartAuction
from fdlab.fun.bots import Bot
from fdlab.fun.events import FunEvent, mention, tell
from fdlab.fun.game import Game
from fdlab.fun.html import decision_html, describe_action, header_html, log_html, state_html
from fdlab.fun.opponents import DEFAULT_OPPONENT
from fdlab.fun.rulebook import rules_html

if TYPE_CHECKING:
    from fdlab.fun.shared_widget import SharedFunTable

__all__ = ["FunTable", "FunTableController", "play_widget"]

#: Menu key of an entry whose amount comes from the amount box.
MenuKey = Action | tuple[str, int]


class FunTableController:
    """The logic behind the widget: one human seat, bots in the others.

    Parameters
    ----------
    players : int
        Number of players (2-4).
    seed : int
        Seed of the championship.
    human : int
        The human's seat.
    bots : str or Mapping of int to Bot
        A bot name (:data:`fdlab.fun.opponents.BOTS`) for every other seat,
        the default opponent (``"manager"``) unless told, or explicit bots.

    Examples
    --------
    >>> c = FunTableController(players=3, seed=2, human=0)
    >>> c.game.state.to_act
    0
    >>> label, key = c.menu()[0]
    >>> c.act(key, amount=None) is None
    True
    """

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        human: int = 0,
        bots: str | Mapping[int, Bot] = DEFAULT_OPPONENT,
    ) -> None:
        #: the seat whose hand the table shows (None: a shared game watched from no seat)
        self.human: int | None = human
        self.game = Game(players, seed=seed, bots=bots, human=human, you=human)
        self.game.names[human] = "You"
        self.game.run_bots()

    def menu(self) -> list[tuple[str, MenuKey]]:
        """Entries for the human: ``(label, key)``; auctions and bids take the amount box."""
        state = self.game.state
        if state.to_act != self.human:
            return []
        entries: list[tuple[str, MenuKey]] = []
        auctioned: set[int] = set()
        bid_entry = False
        for action in self.game.legal_actions():
            if isinstance(action, StartAuction):
                if action.card not in auctioned:
                    auctioned.add(action.card)
                    label = f"Auction {state.deck[action.card].label} (opening bid = amount)"
                    entries.append((label, ("auction", action.card)))
            elif isinstance(action, Bid):
                if not bid_entry:
                    bid_entry = True
                    label = f"Bid the amount (at least {action.amount} M$)"
                    entries.append((label, ("bid", 0)))
            else:
                entries.append((describe_action(state, action), action))
        return entries

    def suggested_amount(self) -> int:
        """A sensible default for the amount box: one more than the high bid."""
        auction = self.game.state.auction
        return auction.high_bid + 1 if auction is not None else 1

    def act(self, key: MenuKey, amount: int | None) -> None:
        """Play the human's choice, then let the bots play until the human decides again.

        Raises
        ------
        IllegalActionError
            If the choice breaks a rule (the game is unchanged).
        """
        self.game.play(self.action_for(key, amount))
        self.game.run_bots()

    def action_for(self, key: MenuKey, amount: int | None) -> Action:
        """The action a menu entry's key stands for, with the amount box's value.

        Examples
        --------
        >>> FunTableController(players=2, seed=1).action_for(("bid", 0), 4)
        Bid(amount=4)
        """
        if isinstance(key, tuple):
            kind, card = key
            value = amount if amount is not None else self.suggested_amount()
            return StartAuction(card, value) if kind == "auction" else Bid(value)
        return key

    def undo(self) -> None:
        """Take back the human's last decision (and the bot moves after it)."""
        self.game.undo_to_human()
        if self.game.state.to_act != self.human:
            self.game.run_bots()

    def view_html(self, header: bool = True) -> str:
        """HTML of the table as the human sees it (only their own hand); without the
        :meth:`header` if ``header`` is false (the widget shows it above the board).

        Examples
        --------
        >>> c = FunTableController(players=2, seed=1, human=0)
        >>> c.header() in c.view_html(), c.header() in c.view_html(header=False)
        (True, False)
        """
        return state_html(
            self.game.state, self.game.names, self.human, you=self.human, header=header
        )

    def decision(self) -> str:
        """HTML sentence: whose decision the game waits for and what it is.

        Examples
        --------
        >>> FunTableController(players=2, seed=1, human=0).decision()[:32]
        '<b>Your decision</b> (P1): draw '
        """
        return decision_html(self.game.state, self.game.names, self.human)

    def header(self) -> str:
        """HTML of the table's one header: the turn, the races and whose decision it is
        (:func:`fdlab.fun.html.header_html`).

        Examples
        --------
        >>> FunTableController(players=2, seed=1, human=0).header()[:63]
        '<b>Turn 1</b> · 0 of 6 races run<br><b>Your decision</b> (P1): '
        """
        return header_html(self.game.state, self.game.names, self.human)

    def _since_decision(self) -> int | None:
        """Index of the human's previous decision in :attr:`Game.actions` (None if none)."""
        game = self.game
        for index in range(len(game.actions) - 1, -1, -1):
            if game.history[index].to_act == self.human:
                return index
        return None

    def news(self) -> list[str]:
        """What happened since the human's previous decision that they must not miss.

        Sentences, the players named as the table names them: a card of the
        human's that another player removed with a special card, and with which
        card; money a special card took from them; a race added to the
        championship (FF-15), by whom and how many races it now lasts; the end
        of the championship.

        Examples
        --------
        >>> FunTableController(players=2, seed=1, human=0).news()  # nothing happened yet
        []
        """
        game = self.game
        names, you = game.names, self.human
        if you is None:  # a shared game watched from no seat: no cards of one's own
            return ["The championship is over."] if game.state.is_over else []
        told: list[str] = []
        for index in range(self._since_decision() or 0, len(game.actions)):
            before, after = game.history[index], game.history[index + 1]
            action = game.actions[index]
            if not isinstance(action, PlaySpecial):
                continue
            by = before.turn
            special = before.deck[action.card].name
            if after.length > before.length:
                added = after.length - before.length
                races = "a race" if added == 1 else f"{added} races"
                told.append(
                    f"{mention(by)} played {special}: a card added {races}; the championship "
                    f"now lasts {after.length} races (FF-15)"
                )
            if by == you:
                continue
            for event in game.event_batches[index]:
                if event.player != you:
                    continue
                if event.kind == "discard_in_play" and event.card is not None:
                    card = before.deck[event.card]
                    verb = "destroyed" if card.kind in ("engine", "chassis") else "removed"
                    told.append(
                        f"{mention(by)} {verb} {mention(you)}'s {card.kind} ({card.name}) "
                        f"with {special}"
                    )
                elif event.kind == "money" and event.amount < 0:
                    told.append(
                        f"{mention(by)}'s {special} took {-event.amount} M$ from {mention(you)}"
                    )
        if game.state.is_over:
            told.append("The championship is over.")
        return [tell(text, names, you) for text in told]

    def headline(self) -> str:
        """The :meth:`news` in one line, for the table's message line ("" if none).

        Examples
        --------
        >>> FunTableController(players=2, seed=1, human=0).headline()
        ''
        """
        return " · ".join(self.news())

    def rules_html(self) -> str:
        """HTML of the rules text shipped with fdlab (:mod:`fdlab.fun.rulebook`)."""
        return rules_html()

    def recent_events(self, last: int = 15) -> list[FunEvent]:
        """Every event since the human's previous decision, and at least the ``last`` ones.

        Between two decisions of the human the bots may play whole turns and
        run races; all of that is shown, not only the latest lines.

        Examples
        --------
        >>> c = FunTableController(players=4, seed=3, human=0)
        >>> for choice in ("Draw 1 card (free)", "Discard Caffè Turbo (sponsor 2 M$)",
        ...                "End the turn"):
        ...     c.act(dict(c.menu())[choice], amount=None)
        >>> events = c.recent_events(last=1)  # from your end of turn to your next decision
        >>> len(events), events[0].text, events[-1].text
        (9, 'turn 2: P2 to play', 'P4 bids 3 M$')
        """
        game = self.game
        log = game.log
        index = self._since_decision()
        if index is None:
            return log[-last:]
        since = sum(len(batch) for batch in game.event_batches[:index])
        return log[min(since, max(len(log) - last, 0)) :]

    def log_html(self, last: int = 15) -> str:
        """HTML of :meth:`recent_events`, in a box that scrolls when it is long."""
        events = self.recent_events(last)
        return (
            '<div class="fdlab-fun-log" style="max-height:22em;overflow-y:auto">'
            f"{log_html(events, last=len(events), names=self.game.names, you=self.human)}</div>"
        )


class FunTable:
    """An ipywidgets table: header, headline, standings, teams, market, hand, actions, log.

    From the top: the header (turn, races run, whose decision it is, said once),
    the message line (the headline: what other players did to your cards, a race
    added, a move refused), the board, the choices with the amount box, *Play*
    and *Undo*, the log since your last move, and the rules.

    Parameters
    ----------
    players, seed, human, bots
        As for :class:`FunTableController`.

    Examples
    --------
    >>> table = FunTable(players=2, seed=1)
    >>> table.header.value == table.controller.header()
    True
    """

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        human: int = 0,
        bots: str | Mapping[int, Bot] = DEFAULT_OPPONENT,
    ) -> None:
        self.controller = self._make_controller(players, seed, human, bots)
        self.messages = MessageLine()
        buttons = Buttons()
        self.header = w.HTML()
        self.header.add_class("fdlab-fun-header")
        self.board = w.HTML()
        self.choices = w.Select(rows=10, layout=w.Layout(width="100%"))
        self.amount = w.BoundedIntText(value=1, min=0, max=999)
        decide = table_row(buttons, [
            ("Amount M$", "fdlab-amount", self.amount, "the amount of a bid or an opening price"),
            ("Play", "fdlab-play", self.play, "play the choice picked in the list"),
            ("Undo", "fdlab-undo", self.undo, "back to your last decision"),
        ])  # fmt: skip
        _amount, self.play_button, self.undo_button = decide.children
        self.play_button.button_style = "primary"
        self.message = self.messages.widget
        self.log = w.HTML()
        self.rules = w.Accordion(
            children=[
                w.HTML(
                    '<div style="max-height:30em;overflow-y:auto">'
                    f"{self.controller.rules_html()}</div>"
                )
            ]
        )
        self.rules.set_title(0, "Rules of Formula Fun (FF-1 to FF-17)")
        self.rules.selected_index = None
        self.widget = w.VBox(
            [
                self.header,
                self.message,
                self.board,
                self.choices,
                decide,
                w.HTML("<b>Since your last move</b>"),
                self.log,
                self.rules,
            ]
        )
        self.widget.add_class("fdlab-fun-table")
        self.refresh()
        self.announce()

    def _make_controller(
        self, players: int, seed: int, human: int, bots: str | Mapping[int, Bot]
    ) -> FunTableController:
        """The game behind the table (a shared game's table plays the log's instead)."""
        return FunTableController(players, seed, human, bots)

    @classmethod
    def join(
        cls, path: str | os.PathLike[str], player: str, *, seat: int | str | None = None,
        **options: Any,
    ) -> SharedFunTable:  # fmt: skip
        """A table on the championship shared in the game log ``path``, played as ``player``.

        Every player joins the same file from their own notebook (one Jupyter
        server, or a shared folder): each sees the others' moves within
        about a second, only their own hand, and acts only for the seat they
        hold. ``seat`` (an index or ``"P2"``) is taken at once, or taken back
        when it is this player's already. The game is started with
        :meth:`SharedFunGame.create <fdlab.fun.shared.SharedFunGame.create>`;
        see :mod:`fdlab.fun.shared` for what the log guarantees, and
        :class:`~fdlab.fun.shared_widget.SharedFunTable` for the options.

        Raises
        ------
        GameLogError
            When the file cannot be read or does not replay. (A ``seat``
            another player holds is refused on the table's message line.)

        Examples
        --------
        >>> import pathlib, tempfile
        >>> from fdlab.fun.shared import SharedFunGame
        >>> log = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> _ = SharedFunGame.create(log, players=2, seed=1)
        >>> FunTable.join(log, player="Ana", seat=0).shared.owners
        ['Ana', None]
        """
        from fdlab.fun.shared_widget import join_fun_table

        return join_fun_table(path, player, seat=seat, **options)

    def refresh(self) -> None:
        """Redraw from the game state (the message line is left as it is)."""
        c = self.controller
        self.header.value = c.header()
        self.board.value = c.view_html(header=False)
        entries = c.menu()
        self.choices.options = [(label, i) for i, (label, _) in enumerate(entries)]
        self._entries = entries
        if entries:
            self.choices.value = 0
        self.amount.value = c.suggested_amount()
        self.log.value = c.log_html()
        self.play_button.disabled = c.game.state.is_over or not entries

    def announce(self) -> None:
        """Put the :meth:`FunTableController.headline` on the message line (empty if none)."""
        headline = self.controller.headline()
        if headline:
            self.messages.say(headline)
        else:
            self.messages.clear()

    @reported
    def play(self) -> None:
        """Play the chosen menu entry with the amount in the box (the *Play* button)."""
        if self.choices.value is None:
            return
        _, key = self._entries[self.choices.value]
        self.messages.clear()
        self.controller.act(key, self.amount.value)
        self.announce()

    @reported
    def undo(self) -> None:
        """Take back the person's last decision (the *Undo* button)."""
        self.messages.clear()
        self.controller.undo()
        self.announce()

    def after_callback(self) -> None:
        """Redraw after every click, refused or not."""
        self.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        show: Callable[[Any], None] = display  # IPython's display() is unannotated
        show(self.widget)


def play_widget(
    players: int = 4, seed: int = 0, human: int = 0, bots: str = DEFAULT_OPPONENT
) -> FunTable:
    """Return a :class:`FunTable` to play a championship against bots.

    Examples
    --------
    >>> play_widget(players=3, seed=5)  # doctest: +SKIP
    """
    return FunTable(players=players, seed=seed, human=human, bots=bots)
