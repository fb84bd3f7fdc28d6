"""A Formula Fun championship shared across computers: one game log every player reaches.

Several people, each in their own notebook (their own kernel, on one
Jupyter server or on computers that see one shared folder), play one
championship. It lives in one file, the *shared game log*
(:mod:`fdlab.shared_log`, the log the race table's shared races keep too):
every kernel replays it on a :class:`~fdlab.fun.game.Game` of its own and
appends what its player does. Reading the file is how a player sees the
others' moves (the table reads it twice a second:
:mod:`fdlab.fun.shared_widget`).

The file
--------
Line 1 is the header: ``{"format": "fdlab-shared-fun", "version": 1,
"game": GAME, "seats": [...]}`` where ``GAME`` is a saved game with no
actions yet (:meth:`Game.to_json <fdlab.fun.game.Game.to_json>`: seed,
players, deck, rules, names; read back and checked by
:meth:`Game.from_json <fdlab.fun.game.Game.from_json>`) and ``seats`` says,
seat by seat, ``"person"`` (a player takes it) or the bot that plays it by
name (:data:`fdlab.fun.opponents.BOTS`). Every other line is one record::

    {"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"}
    {"seq": 2, "kind": "action", "seat": 0, "by": "Ana", "action": "draw 2"}
    {"seq": 3, "kind": "action", "seat": 1, "by": "Ana", "action": "draw 1"}
    {"seq": 4, "kind": "release", "seat": 0, "by": "Ana"}

``action`` is an action in the text notation of a saved game
(:func:`~fdlab.fun.actions.parse_action`), played by ``seat``, which must be
the player to act (``game.state.to_act``): the auctions are open bids in
turn (FF-4, FF-5), so a bid is an ordinary action of the bidder to act.
``by`` is who wrote the record: a seat's owner, or for a bot's seat
whichever player's kernel played the bot first (Ana's, above).

What the log guarantees
-----------------------
*Compare-and-append* (:class:`~fdlab.shared_log.SharedLog`): a record is
written under the file's lock after reading every record before it. An
action also carries the position its player decided on (``seen``, the
number of actions they saw): if another action landed since, it is refused
(:class:`StaleGameError`, "Ben bids 4 M$ before you: ..."), the player's
game has read the log and they decide again. So when two click at once,
one action lands and the other is refused, saying why: none lost without a
word, none played twice.

*Seats.* A person's seat belongs to one player name (one seat a player):
only they act for it, and only when it is the seat to act. Claiming a seat
someone holds is refused, naming them; claiming one's own seat again is
allowed and writes nothing: a player who closed the tab joins again under
the same name and finds the game where it is. Names tell players apart;
they are no password. Each player sees their own hand only (the table of
:mod:`fdlab.fun.shared_widget`); the log itself holds every card, as a saved
game does, so it is no place to hide hands from someone who reads the file.

*Bots once.* Every kernel plays the bots' seats, and the first append wins;
the others replay it. Each bot is the one a hot-seat :class:`Game` makes
(``make_opponent(name, seed * 10 + seat)``) and every kernel asks it for
every one of its decisions, in order, while replaying the log, so its
memory and random draws are the same in every kernel: whoever plays a bot
plays the same move, and the shared game is the hot-seat game with the
same people's decisions.

*No undo*: everyone has seen the move; the log only grows.

*Reading* executes nothing: each record's fields are checked, each claim
against the seats, each action against the player to act, the seat's owner
and the rules (:meth:`Game.play <fdlab.fun.game.Game.play>`, which names
the clause). A line that fails is one :class:`~fdlab.shared_log.GameLogError`
naming the file and the line.

Examples
--------
>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
>>> _ = SharedFunGame.create(path, players=3, seed=3, seats=["person", "person", "manager"])
>>> ana = SharedFunGame.join(path, player="Ana")
>>> ana.claim(0)
>>> ben = SharedFunGame.join(path, player="Ben")  # another kernel, another computer
>>> ben.claim(1)
>>> ana.sync()
True
>>> ana.owners, ana.prompt()
(['Ana', 'Ben', None], 'Ana (P1): your decision')
>>> ana.act("draw 1")
>>> ben.claim(0)
Traceback (most recent call last):
...
fdlab.fun.shared.FunSeatError: P1 is taken by Ana: take a free seat, or ask Ana to leave it
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from fdlab.errors import FdlabError
from fdlab.fun.actions import Action, parse_action
from fdlab.fun.bots import Bot
from fdlab.fun.deck import Deck
from fdlab.fun.errors import ArgumentError, IllegalActionError, SavedGameError
from fdlab.fun.events import FunEvent, player_name
from fdlab.fun.game import MAX_GAME_BYTES, Game
from fdlab.fun.opponents import BOTS, make_opponent
from fdlab.fun.quoting import quoted
from fdlab.fun.state import FunRules
from fdlab.shared_log import LOCK_TIMEOUT, RECORD_KINDS, GameLogError, SharedLog, name_problem

__all__ = [
    "FORMAT",
    "KINDS",
    "PERSON",
    "VERSION",
    "FunSeatError",
    "NotYourDecisionError",
    "SharedFunGame",
    "StaleGameError",
]

#: The ``format`` of a shared Formula Fun log's header.
FORMAT = "fdlab-shared-fun"
#: The version of the layout written and read.
VERSION = 1
#: The kinds of record after the header (every shared log's).
KINDS = RECORD_KINDS
#: A seat a player takes (the others are bots, by name).
PERSON = "person"
#: The longest record line (an action is a few words).
MAX_RECORD_BYTES = 4096

_OVER = "FF-15: the championship is over; no more actions"
_HINTS = {
    "fdlab-shared-race": " (a shared race: join it with fdlab.table.RaceTable.join)",
}


class FunSeatError(FdlabError):
    """A seat that cannot be taken or left: someone else's, a bot's, not at the table.

    Examples
    --------
    >>> issubclass(FunSeatError, FdlabError)
    True
    """


class NotYourDecisionError(FdlabError):
    """An action for a seat the player does not hold, or when another seat is to act.

    Examples
    --------
    >>> issubclass(NotYourDecisionError, FdlabError)
    True
    """


class StaleGameError(FdlabError):
    """An action decided on a game that has moved on since: another action landed first.

    Nothing was played; the game has read the log and shows it as it is.

    Examples
    --------
    >>> issubclass(StaleGameError, FdlabError)
    True
    """


class SharedFunGame:
    """One player's view of a championship shared through a game log (see the module).

    Use :meth:`create` to start one and :meth:`join` (or the constructor) to
    take part: the log is read and replayed at once.

    Parameters
    ----------
    path : str or os.PathLike
        The shared game log.
    player : str
        This player's name (1 to 40 printable characters), as the others see it.
    lock_timeout : float
        How long a write waits for the file's lock, in seconds.

    Attributes
    ----------
    game : Game
        The championship as the log has it, replayed here (never played on directly).
    seats : list of str
        Per seat, ``"person"`` or the bot's name.
    owners : list of str or None
        Per seat, the player holding it (None: free, or a bot's).
    log : SharedLog
        The file.

    Raises
    ------
    GameLogError
        When the file cannot be read or a line does not check out.
    FunSeatError
        When ``player`` is not a player's name.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
    >>> host = SharedFunGame.create(path, players=2, seed=1, seats=["person", "simple"])
    >>> host.free_seats(), host.seat_label(1)
    ([0], 'simple bot')
    """

    def __init__(
        self, path: str | os.PathLike[str], player: str, *, lock_timeout: float = LOCK_TIMEOUT
    ) -> None:
        problem = name_problem(player)
        if problem:
            raise FunSeatError(f"player: {problem}")
        self.player = player
        self.log = SharedLog(
            path,
            format=FORMAT,
            version=VERSION,
            max_bytes=MAX_GAME_BYTES,
            max_record_bytes=MAX_RECORD_BYTES,
            lock_timeout=lock_timeout,
            hints=_HINTS,
        )
        self.source = self.log.source
        self.path = self.log.path
        self.game, self.seats = self._start(self.log.header)
        self.base_names = list(self.game.names)
        players = len(self.seats)
        self.bots: dict[int, Bot] = {
            k: make_opponent(kind, self.game.seed * 10 + k)
            for k, kind in enumerate(self.seats)
            if kind != PERSON
        }
        self.owners: list[str | None] = [None] * players
        #: the bot's decision asked for at (the number of actions), until it is played
        self._choice: tuple[int, Action] | None = None
        #: (actions after it, its events) of the last actions read
        self._landed: list[tuple[int, tuple[FunEvent, ...]]] = []
        self.log.read_new(self._apply)

    # -- making and joining ----------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        players: int = 4,
        seed: int = 0,
        seats: Sequence[str] | None = None,
        *,
        names: Sequence[str] | None = None,
        deck: Deck | None = None,
        rules: FunRules | None = None,
        player: str = "host",
    ) -> SharedFunGame:
        """Start a shared championship in a new file; returns it joined as ``player``.

        Parameters
        ----------
        path : str or os.PathLike
            The new game log (refused if the file exists).
        players : int
            Number of players, 2-4.
        seed : int
            The championship's seed (the deals, and the bots' seeds).
        seats : sequence of str, optional
            One per player: ``"person"`` for a seat a player takes, or a bot
            by name (``"manager"``, ``"simple"``...). Default: every seat a person's.
        names : sequence of str, optional
            The seats' names (default ``P1``... and the bot's name:
            ``P2 (manager bot)``); a player holding a seat is called by their own name.
        deck, rules : optional
            As for :class:`~fdlab.fun.game.Game` (kept in the header).
        player : str
            Who this object plays as (the creator need not take a seat).

        Raises
        ------
        GameLogError
            When the file exists or cannot be written.
        ArgumentError
            For seats that are not a person or a bot by name, or a wrong parameter.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> SharedFunGame.create(path, 2, seats=["person", "genius"])
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.ArgumentError: seats must be 'person' or a bot (manager, manager-bold, simple, sensible, random) for each seat, got 'genius'
        """
        seats = [PERSON] * players if seats is None else seats
        if isinstance(seats, str) or not isinstance(seats, Sequence) or len(seats) != players:
            raise ArgumentError(
                "seats", f"seats must be a list of {players} seats ('person' or a bot's name), "
                f"got {quoted(seats)}"
            )  # fmt: skip
        for kind in seats:
            if kind != PERSON and kind not in BOTS:
                raise ArgumentError(
                    "seats",
                    f"seats must be 'person' or a bot ({', '.join(BOTS)}) for each seat, "
                    f"got {quoted(kind)}",
                )
        if names is None:
            names = [
                player_name(k) if kind == PERSON else f"{player_name(k)} ({kind} bot)"
                for k, kind in enumerate(seats)
            ]
        game = Game(players, seed=seed, deck=deck, rules=rules, names=names)
        header = {"game": json.loads(game.to_json()), "seats": list(seats)}
        SharedLog.create(path, header, format=FORMAT, version=VERSION, max_bytes=MAX_GAME_BYTES)
        return cls(path, player)

    @classmethod
    def join(
        cls, path: str | os.PathLike[str], player: str, *, lock_timeout: float = LOCK_TIMEOUT
    ) -> SharedFunGame:
        """Take part in the championship in ``path`` as ``player`` (read and replayed at once).

        Joining again under the same name (after closing the tab, in another
        notebook) finds the game where it is, with the player's seat.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> SharedFunGame.create(path, 2, player="Ana").claim(1)
        >>> SharedFunGame.join(path, "Ana").seat
        1
        """
        return cls(path, player, lock_timeout=lock_timeout)

    # -- what there is to see --------------------------------------------------------
    @property
    def seq(self) -> int:
        """How many records have been read (or written) here."""
        return self.log.seq

    @property
    def mine(self) -> list[int]:
        """The seats this player holds (one at most)."""
        return [k for k, owner in enumerate(self.owners) if owner == self.player]

    @property
    def seat(self) -> int | None:
        """This player's seat, or None."""
        mine = self.mine
        return mine[0] if mine else None

    def owner(self, seat: int | str) -> str | None:
        """The player holding ``seat`` (an index or a seat's name), or None."""
        return self.owners[self._seat(seat)]

    def free_seats(self) -> list[int]:
        """The people's seats nobody holds."""
        return [k for k, o in enumerate(self.owners) if o is None and self.seats[k] == PERSON]

    @property
    def to_act(self) -> int | None:
        """The seat to act (None: the championship is over)."""
        return self.game.state.to_act

    @property
    def my_turn(self) -> bool:
        """This player decides now."""
        seat = self.to_act
        return seat is not None and self._problem("action", seat, self.player, person=True) is None

    @property
    def bots_to_play(self) -> bool:
        """A bot's seat is to act."""
        seat = self.to_act
        return seat is not None and self.seats[seat] != PERSON

    def seat_label(self, seat: int) -> str:
        """Who plays ``seat``: its player (``Ana (you)``), ``free seat`` or the bot.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> g = SharedFunGame.create(path, 3, seats=["person", "person", "manager"], player="Ana")
        >>> g.claim(0)
        >>> [g.seat_label(k) for k in range(3)]
        ['Ana (you)', 'free seat', 'manager bot']
        """
        if self.seats[seat] != PERSON:
            return f"{self.seats[seat]} bot"
        owner = self.owners[seat]
        if owner is None:
            return "free seat"
        return f"{owner} (you)" if owner == self.player else owner

    def prompt(self) -> str:
        """Whose decision the game waits for, in a few words.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> SharedFunGame.create(path, 2, seed=1).prompt()
        'P1 (free seat): waiting for a player to take the seat'
        """
        seat = self.to_act
        if seat is None:
            return "The championship is over."
        base = self.base_names[seat]
        if self.seats[seat] != PERSON:
            return f"{base} is playing"
        owner = self.owners[seat]
        if owner is None:
            return f"{base} (free seat): waiting for a player to take the seat"
        if owner != self.player:
            return f"{owner} ({base}) is deciding"
        return f"{owner} ({base}): your decision"

    @property
    def actions(self) -> list[Action]:
        """The actions played so far, in order."""
        return self.game.actions

    # -- reading ---------------------------------------------------------------------
    def sync(self) -> bool:
        """Read the records appended since the last read and replay them; True if any.

        Raises
        ------
        GameLogError
            When the file is gone, was replaced, or a new line does not check out
            (the game stays at the last good record).
        """
        return bool(self.log.read_new(self._apply))

    def _start(self, header: dict[str, Any]) -> tuple[Game, list[str]]:
        """The game before any record, and the seats, from the header's fields."""
        fail = self.log.fail
        extra = sorted(set(header) - {"game", "seats"})
        if extra:
            raise fail(1, f"{extra[0]}: not a field of the header (format, version, game, seats)")
        doc = header.get("game")
        if not isinstance(doc, dict):
            raise fail(1, f"game: a saved game with no actions, not {quoted(doc)}")
        if doc.get("actions") != []:
            raise fail(1, "game.actions: a shared game starts with no actions (they are "
                       "the records after the header)")  # fmt: skip
        try:
            game = Game.from_json(json.dumps(doc), source=f"{self.source}: line 1: game")
        except SavedGameError as error:
            raise GameLogError(str(error), source=self.source, line=1) from None
        seats = header.get("seats")
        players = game.state.n_players
        if not isinstance(seats, list) or len(seats) != players:
            raise fail(1, f"seats: a list of {players} seats ('person' or a bot's name), "
                       f"not {quoted(seats)}")  # fmt: skip
        for k, kind in enumerate(seats):
            if kind != PERSON and kind not in BOTS:
                raise fail(1, f"seats[{k}]: 'person' or a bot ({', '.join(BOTS)}), "
                           f"not {quoted(kind)}")  # fmt: skip
        return game, list(seats)

    def _apply(self, line: int, record: dict[str, Any]) -> None:
        """Check one record read from the log and replay it (raising names the line)."""
        fail = self.log.fail
        kind, by = self.log.envelope(line, record, quoted)
        seat = record["seat"]
        players = len(self.seats)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise fail(line, f"seat: a seat, 0 to {players - 1}, not {quoted(seat)}")
        problem = self._problem(kind, seat, by, person=False)
        if problem:
            raise fail(line, problem)
        if kind != "action":
            self._seat_record(kind, seat, by)
            return
        text = record["action"]
        try:
            action = parse_action(text)
        except ArgumentError as error:
            raise fail(line, f"action: {error}") from None
        if seat in self.bots:
            self._bot_choice(seat)  # the bot sees each of its decisions, in every kernel
        try:
            self._play(action)
        except IllegalActionError as error:
            raise fail(line, f"the action {quoted(text)} cannot be played: {error}") from None

    def _problem(self, kind: str, seat: int, by: str, *, person: bool) -> str | None:
        """Why ``by`` may not write this record now (None: they may).

        ``person``: a player's own action, not a bot's played by their kernel.
        """
        base, owner = self.base_names[seat], self.owners[seat]
        if kind == "claim":
            if self.seats[seat] != PERSON:
                return f"{base} is a bot's seat: no player takes it"
            if owner is not None:
                if owner == by:
                    return f"{base} is {by}'s already"
                return f"{base} is taken by {owner}: take a free seat, or ask {owner} to leave it"
            held = [self.base_names[k] for k, o in enumerate(self.owners) if o == by]
            if held:
                return f"{by} holds {held[0]} already: one seat a player (leave it first)"
            return None
        if kind == "release":
            return None if owner == by else f"{base} is not {by}'s seat"
        to_act = self.to_act
        if to_act is None:
            return _OVER
        if seat != to_act:
            return f"{self.base_names[to_act]} is to act, not {base}"
        if self.seats[seat] != PERSON:
            return f"{base} is a bot's seat: it plays by itself" if person else None
        if owner is None:
            return f"{base}'s seat is free: {by} takes it first (Take seat)"
        if owner != by:
            return f"{base} is {owner}'s seat: only {owner} plays it"
        return None

    def _seat_record(self, kind: str, seat: int, by: str) -> None:
        self.owners[seat] = by if kind == "claim" else None
        self._rename()

    def _rename(self) -> None:
        """The game's names: a held seat's player by name, the others by the seat's name."""
        for k, owner in enumerate(self.owners):
            self.game.names[k] = owner if owner is not None else self.base_names[k]
        self.game.you = self.seat

    def _play(self, action: Action) -> None:
        """Play a checked action here (an illegal one raises, nothing changed)."""
        events = self.game.play(action)
        self._choice = None
        self._landed = [*self._landed[-30:], (len(self.game.actions), events)]

    def _bot_choice(self, seat: int) -> Action:
        """The bot's decision here, asked once per decision in this kernel."""
        count = len(self.game.actions)
        if self._choice is None or self._choice[0] != count:
            bot = self.bots[seat]
            self._choice = (count, bot.choose(self.game.state, self.game.legal_actions()))
        return self._choice[1]

    # -- writing ---------------------------------------------------------------------
    def claim(self, seat: int | str) -> None:
        """Take ``seat`` (its index or name); one's own seat again is allowed, and writes nothing.

        Raises
        ------
        FunSeatError
            When another player holds it, a bot plays it, or this player holds another.
        """
        k = self._seat(seat)
        with self.log.locked(self._apply):
            if self.owners[k] == self.player:
                return
            self._write_seat("claim", k)

    def release(self, seat: int | str | None = None) -> None:
        """Leave ``seat`` (default: this player's): another player may take it.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> g = SharedFunGame.create(path, 2, player="Ana")
        >>> g.claim(0); g.release(); g.free_seats()
        [0, 1]
        """
        if seat is None and self.seat is None:
            raise FunSeatError(f"{self.player} holds no seat to leave")
        k = self._seat(self.seat if seat is None else seat)
        with self.log.locked(self._apply):
            self._write_seat("release", k)

    def _write_seat(self, kind: str, seat: int) -> None:
        problem = self._problem(kind, seat, self.player, person=True)
        if problem:
            raise FunSeatError(problem)
        self.log.append({"kind": kind, "seat": seat, "by": self.player})
        self._seat_record(kind, seat, self.player)

    def act(self, action: Action | str, *, seen: int | None = None) -> None:
        """Play ``action`` (or its text, ``"bid 4"``) for this player's seat, which is to act.

        Parameters
        ----------
        action : Action or str
        seen : int, optional
            How many actions the game had when the player decided (default:
            as many as it has here now).

        Raises
        ------
        StaleGameError
            When another action landed in the log since: the game has read it
            and is as it is now; nothing was played.
        NotYourDecisionError
            When the seat to act is not this player's.
        IllegalActionError
            When the rules refuse the action (naming the clause).
        """
        if isinstance(action, str):
            action = parse_action(action)
        seen = len(self.actions) if seen is None else seen
        seat = self.to_act
        if len(self.actions) == seen:  # on what the player sees
            problem = (
                _OVER if seat is None else self._problem("action", seat, self.player, person=True)
            )
            if problem:
                raise NotYourDecisionError(problem)
        self._commit(action, seen, person=True)

    def _commit(self, action: Action, seen: int, *, person: bool) -> None:
        with self.log.locked(self._apply):
            self._up_to_date(seen)
            seat = self.to_act
            if seat is None:
                raise NotYourDecisionError(_OVER)
            problem = self._problem("action", seat, self.player, person=person)
            if problem:
                raise NotYourDecisionError(problem)
            self._play(action)  # an illegal action raises here, with its clause
            try:
                self.log.append(
                    {"kind": "action", "seat": seat, "by": self.player, "action": str(action)}
                )
            except GameLogError:
                self.game.undo()
                self._landed.pop()
                raise

    def _up_to_date(self, seen: int) -> None:
        """Refuse an action decided on a game that has moved on since (``seen`` actions)."""
        if seen == len(self.actions):
            return
        names = self.game.names
        landed = [
            events[0].told(names) if events else "an action"
            for count, events in self._landed
            if count > seen
        ]
        raise StaleGameError(
            f"{'; '.join(landed[-3:]) or 'another action landed'} before you: your action was "
            "not played; the game now shows what happened"
        )

    def play_bot(self) -> bool:
        """Play the next bot decision if a bot's seat is to act; True if this kernel wrote it.

        The bot decides on the game as read now; if another player's kernel
        wrote its action first, this one is dropped (and the log replayed:
        the same decision, asked of the bot once).
        """
        self.sync()
        seat = self.to_act
        if seat is None or seat not in self.bots:
            return False
        count = len(self.actions)
        action = self._bot_choice(seat)
        try:
            self._commit(action, count, person=False)
        except StaleGameError:
            return False
        return True

    def play_bots(self) -> int:
        """Play the bots until a person's seat is to act or the game ends; how many written.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "fun.log"
        >>> g = SharedFunGame.create(path, 2, seed=2, seats=["simple", "simple"])
        >>> g.play_bots() == len(g.actions), g.game.state.is_over
        (True, True)
        """
        written = 0
        while self.bots_to_play:
            written += self.play_bot()
        return written

    def undo(self) -> None:
        """Refused: a shared game is not taken back (see the module's documentation)."""
        raise NotYourDecisionError(
            "a shared game is not taken back: every player has seen the move, and the game "
            "log only grows"
        )

    # -- helpers ---------------------------------------------------------------------
    def _seat(self, seat: int | str | None) -> int:
        players = len(self.seats)
        if isinstance(seat, str) and seat in self.base_names:
            return self.base_names.index(seat)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
            return seat
        raise FunSeatError(
            f"no seat {seat!r} at this table: a seat's name ({', '.join(self.base_names)}) or "
            f"0 to {players - 1}"
        )

    def __repr__(self) -> str:
        return (
            f"<SharedFunGame {self.source!r} as {self.player!r}: {self.game!r}, {self.seq} records>"
        )
