"""A Formula Fun championship object for notebooks: history, undo, replay, bots.

:class:`Game` keeps the list of states and actions of one championship over
the pure engine; :meth:`Game.save` and :meth:`Game.load` keep it in a file.
:func:`play_championship` runs a bots-only championship quickly, without
keeping history.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from fdlab.championship import Standings
from fdlab.files import atomic_write
from fdlab.fun.actions import Action, parse_action
from fdlab.fun.bots import Bot
from fdlab.fun.deck import MAX_DECK_BYTES, Deck, deck_from_dict
from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.errors import (
    ArgumentError,
    BotLimitError,
    DeckError,
    IllegalActionError,
    SavedGameError,
    check_int,
)
from fdlab.fun.events import FunEvent, player_name
from fdlab.fun.html import log_html, state_html
from fdlab.fun.opponents import BOTS, make_opponent
from fdlab.fun.quoting import quoted
from fdlab.fun.state import FunRules, GameState, check_players, check_seed
from fdlab.untrusted import UntrustedInputError, parse_json, read_file

__all__ = ["MAX_GAME_BYTES", "Game", "play_championship"]

#: Largest saved game read: its deck (at most a deck file's size) and its actions.
MAX_GAME_BYTES = MAX_DECK_BYTES + 15_000_000


class Game:
    """One Formula Fun championship with its history.

    Parameters
    ----------
    players : int
        Number of players, 2-4.
    seed : int
        Seed of every random draw (with the actions, it replays the game).
    bots : Mapping of int to Bot, or str, optional
        Players driven by bots; the others are decided by :meth:`play`. A bot
        name (a key of :data:`fdlab.fun.opponents.BOTS`, e.g. ``"manager"``,
        the default opponent) puts that bot in every seat but ``human``'s.
    deck : Deck, optional
        Card definitions (the default deck otherwise).
    rules : FunRules, optional
        Rule numbers.
    names : sequence of str, optional
        Display names.
    human : int, optional
        The player whose hand :meth:`_repr_html_` shows (all hands hidden if None).
    you : int, optional
        The player the log and error messages address in the second person
        ("You pass", "your V12"), as the table of :mod:`fdlab.fun.widgets`
        does for the person playing; by name if None.

    Raises
    ------
    ArgumentError
        If a parameter has a value it cannot take (``Game("3")``, names of
        the wrong number, a seat that is not at the table); the message
        names the parameter.

    Examples
    --------
    >>> g = Game(3, seed=4, bots="manager", human=0, names=["Ada", "Bea", "Cy"])
    >>> g.run_bots()  # bots play until player 0 must decide
    >>> g.state.to_act
    0
    >>> events = g.play(g.legal_actions()[0])
    >>> g.undo()
    >>> g.state.to_act, len(g.actions) == len(g.history) - 1
    (0, True)
    """

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        bots: Mapping[int, Bot] | str | None = None,
        deck: Deck | None = None,
        rules: FunRules | None = None,
        names: Sequence[str] | None = None,
        human: int | None = None,
        you: int | None = None,
    ) -> None:
        check_players(players)
        check_seed(seed)
        _check_seat("human", human, players)
        _check_seat("you", you, players)
        if names is not None and (
            isinstance(names, str)
            or not isinstance(names, Sequence)
            or len(names) != players
            or not all(isinstance(n, str) for n in names)
        ):
            raise ArgumentError(
                "names", f"names must be a list of {players} strings, got {quoted(names)}"
            )
        self.seed = seed
        if isinstance(bots, str):
            if bots not in BOTS:
                raise ArgumentError(
                    "bots",
                    f"bots must be a bot name ({', '.join(BOTS)}) or a mapping of seats to "
                    f"bots, got {quoted(bots)}",
                )
            name = bots
            bots = {i: make_opponent(name, seed * 10 + i) for i in range(players) if i != human}
        self.bots: dict[int, Bot] = _checked_bots(bots, players)
        start = new_game(players, seed=seed, deck=deck, rules=rules)
        self.history: list[GameState] = [start]
        self.actions: list[Action] = []
        self.event_batches: list[tuple[FunEvent, ...]] = []
        default = [
            f"{player_name(i)} ({self.bots[i].name} bot)" if i in self.bots else player_name(i)
            for i in range(players)
        ]
        self.names = list(names) if names is not None else default
        self.human = human
        self.you = you

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> GameState:
        """The current state."""
        return self.history[-1]

    @property
    def log(self) -> list[FunEvent]:
        """Every event so far, in order."""
        return [e for batch in self.event_batches for e in batch]

    def log_lines(self, last: int | None = None) -> list[str]:
        """The log as sentences, players named as the table names them (:attr:`names`).

        Examples
        --------
        >>> g = Game(2, seed=1, names=["Ada", "Bea"])
        >>> _ = g.play("draw 2")
        >>> g.log_lines()
        ['Ada pays the bank 1 M$ (drawing 2 cards)', 'Ada draws 2 cards']
        >>> g.log_lines(last=1)
        ['Ada draws 2 cards']
        """
        lines = [e.told(self.names, self.you) for e in self.log]
        if last is None:
            return lines
        last = check_int("last", last, 0)
        return lines[len(lines) - last :] if last < len(lines) else lines

    def legal_actions(self) -> list[Action]:
        """The legal actions now (see :func:`fdlab.fun.engine.legal_actions`)."""
        return legal_actions(self.state)

    def standings(self) -> Standings:
        """Standings built from the races so far (the shared championship table).

        Examples
        --------
        >>> Game(2).standings().points
        {0: 0, 1: 0}
        """
        s = Standings.empty(range(self.state.n_players))
        for race in self.state.races:
            s = s.add_race([car.player for car in race.cars])
        return s

    # ------------------------------------------------------------------ moves
    def play(self, action: Action | str) -> tuple[FunEvent, ...]:
        """Apply an action (or its text notation) for the player to act.

        Returns
        -------
        tuple of FunEvent

        Raises
        ------
        IllegalActionError
            If the rules forbid it, also for a field that is not a value the
            rules speak of (``Bid(2.5)``); the game is unchanged. The message
            names the players as the table does (:attr:`names`).
        ArgumentError
            If ``action`` is neither an action nor the text of one.

        Examples
        --------
        >>> g = Game(2, seed=1, names=["Ada", "Bea"])
        >>> for action in ("draw 1", "market 19", "auction 19 1"):
        ...     _ = g.play(action)
        >>> g.play("end")
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.PhaseError: FF-4: an auction is running: Bea must bid more than 1 M$ or pass
        """
        if isinstance(action, str):
            action = parse_action(action)
        try:
            state, events = step(self.state, action)
        except IllegalActionError as err:
            raise err.name_players(self.names, self.you) from None
        self.history.append(state)
        self.actions.append(action)
        self.event_batches.append(events)
        return events

    def run_bots(self, max_actions: int = 100_000) -> None:
        """Let bots decide until a non-bot player must act or the game ends.

        Parameters
        ----------
        max_actions : int
            The most actions the bots may play (at least 1), a safeguard.

        Raises
        ------
        ArgumentError
            If ``max_actions`` is not an integer of at least 1.
        BotLimitError
            If a bot must still act after ``max_actions`` actions (a ``RuntimeError`` too).

        Examples
        --------
        >>> g = Game(2, seed=1, bots={1: make_opponent("simple", 1)})
        >>> g.run_bots(max_actions=-1)
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.ArgumentError: max_actions must be an integer of at least 1, got -1
        """
        check_int("max_actions", max_actions, 1)
        for _ in range(max_actions):
            who = self.state.to_act
            if who is None or who not in self.bots:
                return
            self.play(self.bots[who].choose(self.state, self.legal_actions()))
        if self.state.to_act in self.bots:
            raise BotLimitError(f"bots did not finish within {max_actions} actions")

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` actions.

        Raises
        ------
        ArgumentError
            If ``count`` is not an integer from 0 to the number of actions played.

        Examples
        --------
        >>> g = Game(2, seed=1)
        >>> _ = g.play("draw 1")
        >>> g.undo("1")
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.ArgumentError: count must be an integer from 0 to 1 (the actions played), got '1'
        >>> g.undo(2)
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.ArgumentError: count must be at most 1: cannot undo 2 actions, only 1 played
        """
        played = len(self.actions)
        if isinstance(count, int) and not isinstance(count, bool) and count > played:
            raise ArgumentError(
                "count",
                f"count must be at most {played}: cannot undo {quoted(count)} actions, "
                f"only {played} played",
            )
        check_int("count", count, 0, played, why="the actions played")
        for _ in range(count):
            self.history.pop()
            self.actions.pop()
            self.event_batches.pop()

    def undo_to_human(self) -> None:
        """Undo back to (before) the last decision a non-bot player made."""
        while self.actions:
            who = self.history[-2].to_act
            self.undo()
            if who not in self.bots:
                return

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> str:
        """Return the game as JSON: seed, players, actions in text notation, deck, rules.

        Examples
        --------
        >>> g = Game(2, seed=9)
        >>> _ = g.play("draw 1")
        >>> Game.from_json(g.to_json()).state == g.state
        True
        """
        s = self.history[0]
        return json.dumps(
            {
                "seed": self.seed,
                "players": s.n_players,
                "actions": [str(a) for a in self.actions],
                "deck": dict(s.deck.source),
                "rules": s.to_dict()["rules"],
                "names": self.names,
            }
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the game to the file ``path`` (the text of :meth:`to_json`), all at once.

        A crash while saving leaves the file as it was (:func:`fdlab.files.atomic_write`);
        :meth:`load` reads it back.

        Raises
        ------
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import os, tempfile
        >>> g = Game(2, seed=9)
        >>> _ = g.play("draw 1")
        >>> path = os.path.join(tempfile.mkdtemp(), "game.json")
        >>> g.save(path)
        >>> Game.load(path).state == g.state
        True
        """
        atomic_write(path, self.to_json().encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike[str], bots: Mapping[int, Bot] | None = None) -> Game:
        """Read a game written by :meth:`save`, replaying its actions.

        The file is read through :func:`fdlab.untrusted.read_file`: a folder, a
        named pipe (FIFO), a device such as ``/dev/zero`` or a file larger than
        :data:`MAX_GAME_BYTES` is refused at once, without waiting or filling
        the memory.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        bots : Mapping of int to Bot, optional
            Bots for some seats, as for :class:`Game`.

        Returns
        -------
        Game

        Raises
        ------
        SavedGameError
            Naming the file, and the field when one is wrong: a file that
            cannot be read, is not UTF-8 JSON or not a saved game (see
            :meth:`from_json`).

        Examples
        --------
        >>> Game.load("/dev/zero")
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.SavedGameError: zero: cannot read the file (it is a character device, not a file)
        """
        source = _file_name(path)
        try:
            data = read_file(path, limit=MAX_GAME_BYTES, what="saved game")
        except UntrustedInputError as err:
            raise SavedGameError(source, "", str(err)) from None
        return cls.from_json(data, bots=bots, source=source)

    @classmethod
    def from_json(  # noqa: C901 (one flat check per field of a saved game)
        cls,
        text: str | bytes,
        bots: Mapping[int, Bot] | None = None,
        source: str = "saved game",
    ) -> Game:
        """Rebuild a game saved with :meth:`to_json`, replaying its actions.

        The text is read through :func:`fdlab.untrusted.parse_json`: bytes that
        are not UTF-8, ``NaN`` or ``Infinity``, numbers too long to print and
        lists or objects nested without end are refused.

        Parameters
        ----------
        text : str or bytes
            The saved game's JSON.
        bots : Mapping of int to Bot, optional
            Bots for some seats, as for :class:`Game`.
        source : str
            The name errors give the text (:meth:`load` gives the file's name).

        Returns
        -------
        Game

        Raises
        ------
        SavedGameError
            If the text is not a saved game or a field is wrong (impossible
            rules such as ``races: 0``, a deck card of value 9, an action the
            rules forbid, ...); the message names ``source`` and the field
            (``deck.cards[3].value``, ``actions[12]``).

        Examples
        --------
        >>> Game.from_json('{"seed": 1, "players": 9, "actions": [], "rules": {}}')
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.SavedGameError: saved game: players: must be an integer from 2 to 4, got 9
        >>> Game.from_json('{"seed": NaN}', source="mine.json")
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.SavedGameError: mine.json: not valid JSON: NaN is not a number JSON allows
        """
        if not isinstance(source, str):
            raise ArgumentError("source", f"source must be a string, got {quoted(source)}")

        def fail(where: str, message: str) -> SavedGameError:
            return SavedGameError(source, where, message)

        if not isinstance(text, str | bytes):
            raise fail("", f"a saved game is JSON text (str or bytes), not {quoted(text)}")
        try:
            data = parse_json(text)
        except UntrustedInputError as err:
            raise fail("", str(err)) from None
        if not isinstance(data, dict):
            raise fail("", "must be an object with seed, players, actions, deck and rules")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise fail("seed", f"must be an integer, got {type(seed).__name__}")
        try:
            check_seed(seed)
        except ArgumentError as err:
            raise fail("seed", str(err).removeprefix("seed ")) from None
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise fail("players", f"must be an integer from 2 to 4, got {quoted(players)}")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise fail("actions", "must be a list of action texts such as 'draw 2'")
        deck = None
        if "deck" in data:
            try:
                deck = deck_from_dict(data["deck"], source=source)
            except DeckError as err:
                raise fail(_deck_field(err.where), err.message) from None
        rules = _rules_from(data.get("rules", {}), fail)
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != players
            or not all(isinstance(n, str) for n in names)
        ):
            raise fail("names", f"must be a list of {players} names")
        try:
            game = cls(players, seed=seed, bots=bots, deck=deck, rules=rules, names=names)
        except ArgumentError as err:
            if err.parameter in ("bots", "human", "you"):
                raise  # the caller's arguments, not the file's
            raise fail(err.parameter, str(err).removeprefix(f"{err.parameter} ")) from None
        for index, action in enumerate(actions):
            try:
                game.play(action)
            except IllegalActionError as err:
                raise fail(
                    f"actions[{index}]", f"{quoted(action)} is not legal there: {err}"
                ) from None
            except ValueError as err:
                raise fail(f"actions[{index}]", str(err)) from None
        return game

    @classmethod
    def replay(
        cls,
        seed: int,
        players: int,
        actions: Sequence[Action | str],
        deck: Deck | None = None,
        rules: FunRules | None = None,
        bots: Mapping[int, Bot] | None = None,
        names: Sequence[str] | None = None,
    ) -> Game:
        """Rebuild a game from its seed and actions; it ends in exactly the same state.

        Examples
        --------
        >>> g = Game(2, seed=3)
        >>> _ = g.play("draw 2")
        >>> Game.replay(3, 2, g.actions).state == g.state
        True
        """
        if isinstance(actions, str | bytes) or not isinstance(actions, Sequence):
            raise ArgumentError(
                "actions",
                f"actions must be a list of actions or their texts, got {quoted(actions)}",
            )
        game = cls(players, seed=seed, bots=bots, deck=deck, rules=rules, names=names)
        for action in actions:
            game.play(action)
        return game

    # ------------------------------------------------------------------ display
    def _repr_html_(self) -> str:
        return state_html(self.state, self.names, self.human) + log_html(
            self.log, last=8, names=self.names, you=self.you
        )

    def __repr__(self) -> str:
        s = self.state
        return (
            f"<Game {s.n_players} players, seed {self.seed}, turn {s.turn_number}, "
            f"races {len(s.races)}/{s.length}, points {list(s.points)}>"
        )


def _file_name(path: object) -> str:
    """The name errors give a file: its last part (the whole path if that is empty)."""
    if not isinstance(path, str | os.PathLike):
        raise ArgumentError("path", f"path must be a file path, got {quoted(path)}")
    return Path(path).name or str(path)


def _deck_field(where: str) -> str:
    """A deck's field (``cards[3].value``) as the field of a saved game (``deck.cards[3].value``)."""
    where = where.removeprefix("(top level)")
    return f"deck.{where.lstrip('.')}" if where else "deck"


def _check_seat(parameter: str, value: object, players: int) -> None:
    if value is not None:
        check_int(parameter, value, 0, players - 1, why="a seat at the table, or None")


def _checked_bots(bots: object, players: int) -> dict[int, Bot]:
    """The bots of a Game: a mapping of seats at the table to objects with ``choose``."""
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise ArgumentError(
            "bots",
            f"bots must be a bot name ({', '.join(BOTS)}) or a mapping of seats to bots, "
            f"got {quoted(bots)}",
        )
    for seat, bot in bots.items():
        check_int("bots", seat, 0, players - 1, why="each key is a seat at the table")
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentError(
                "bots",
                f"bots must be a mapping of seats to bots (objects with choose), got {quoted(bot)}",
            )
    return dict(bots)


def _rules_from(raw: Any, fail: Callable[[str, str], SavedGameError]) -> FunRules:
    """The rules of a saved game; errors name the rule (``rules.races``)."""
    if not isinstance(raw, dict):
        raise fail("rules", "must be an object of rule numbers")
    known = {f.name for f in fields(FunRules)}
    for key in raw:
        if key not in known:
            raise fail(f"rules.{key}", f"unknown rule; the rules are {', '.join(sorted(known))}")
    try:
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()}
        return FunRules(**values)
    except (TypeError, ValueError) as err:
        name, _, message = str(err).partition(": ")
        field = name.removeprefix("FunRules.")
        raise fail(f"rules.{field}", message or str(err)) from None


def play_championship(
    bots: Sequence[Bot],
    seed: int = 0,
    deck: Deck | None = None,
    rules: FunRules | None = None,
    check: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play a whole championship between bots; return the final state.

    Parameters
    ----------
    bots : sequence of Bot
        One bot per player, in seating order (2-4).
    seed : int
        Seed of the game's random draws (the bots have their own).
    deck, rules : optional
        As for :func:`fdlab.fun.engine.new_game`.
    check : callable, optional
        Called with every state, e.g. :func:`fdlab.fun.invariants.check_invariants`.

    Returns
    -------
    GameState
        A finished championship.

    Examples
    --------
    >>> from fdlab.fun.bots import SensibleBot
    >>> from fdlab.fun.manager import ManagerBot
    >>> final = play_championship([ManagerBot(1), SensibleBot(2)], seed=5)
    >>> final.is_over, len(final.races) == final.length or final.ended == "turn_limit"
    (True, True)
    """
    if (
        isinstance(bots, str | bytes)
        or not isinstance(bots, Sequence)
        or not 2 <= len(bots) <= 4
        or not all(callable(getattr(bot, "choose", None)) for bot in bots)
    ):
        raise ArgumentError(
            "bots", f"bots must be a list of 2 to 4 bots, one per player (FF-1), got {quoted(bots)}"
        )
    state = new_game(len(bots), seed=seed, deck=deck, rules=rules)
    if check is not None:
        check(state)
    while (who := state.to_act) is not None:
        state, _ = step(state, bots[who].choose(state, legal_actions(state)))
        if check is not None:
            check(state)
    return state
