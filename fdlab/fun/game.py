"""A Formula Fun championship object for notebooks: history, undo, replay, bots.

:class:`Game` keeps the list of states and actions of one championship over
the pure engine. :func:`play_championship` runs a bots-only championship
quickly, without keeping history.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from fdlab.championship import Standings
from fdlab.fun.actions import Action, parse_action
from fdlab.fun.bots import Bot
from fdlab.fun.deck import Deck, deck_from_dict
from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.errors import GameFileError, IllegalActionError
from fdlab.fun.events import Event, player_name
from fdlab.fun.html import log_html, state_html
from fdlab.fun.opponents import make_bot
from fdlab.fun.quoting import quoted
from fdlab.fun.state import FunRules, GameState

__all__ = ["Game", "play_championship"]


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
        self.seed = seed
        if isinstance(bots, str):
            name = bots
            bots = {i: make_bot(name, seed * 10 + i) for i in range(players) if i != human}
        self.bots: dict[int, Bot] = dict(bots or {})
        start = new_game(players, seed=seed, deck=deck, rules=rules)
        self.history: list[GameState] = [start]
        self.actions: list[Action] = []
        self.event_batches: list[tuple[Event, ...]] = []
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
    def log(self) -> list[Event]:
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
        """
        lines = [e.told(self.names, self.you) for e in self.log]
        return lines if last is None else lines[-last:]

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
    def play(self, action: Action | str) -> tuple[Event, ...]:
        """Apply an action (or its text notation) for the player to act.

        Returns
        -------
        tuple of Event

        Raises
        ------
        IllegalActionError
            If the rules forbid it; the game is unchanged. The message names
            the players as the table does (:attr:`names`).

        Examples
        --------
        >>> g = Game(2, seed=1, names=["Ada", "Bea"])
        >>> for action in ("draw 1", "market 19", "auction 19 1"):
        ...     _ = g.play(action)
        >>> g.play("end")
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.WrongPhaseError: FF-4: an auction is running: Bea must bid more than 1 M$ or pass
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
        """Let bots decide until a non-bot player must act or the game ends."""
        for _ in range(max_actions):
            who = self.state.to_act
            if who is None or who not in self.bots:
                return
            self.play(self.bots[who].choose(self.state, self.legal_actions()))
        raise RuntimeError(f"bots did not finish within {max_actions} actions")

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` actions.

        Raises
        ------
        ValueError
            If there are fewer actions than that.
        """
        if count > len(self.actions):
            raise ValueError(f"cannot undo {count} actions: only {len(self.actions)} played")
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

    @classmethod
    def from_json(cls, text: str, bots: Mapping[int, Bot] | None = None) -> Game:
        """Rebuild a game saved with :meth:`to_json`, replaying its actions.

        Raises
        ------
        GameFileError
            If the text is not a saved game or a field is wrong (impossible
            rules such as ``races: 0``, an action the rules forbid, ...); the
            message names the field.
        DeckError
            If the saved deck is not a valid deck.

        Examples
        --------
        >>> Game.from_json('{"seed": 1, "players": 9, "actions": [], "rules": {}}')
        Traceback (most recent call last):
        ...
        fdlab.fun.errors.GameFileError: saved game: players: must be an integer from 2 to 4, got 9
        """
        source = "saved game"

        def fail(where: str, message: str) -> GameFileError:
            return GameFileError(source, where, message)

        try:
            data = json.loads(text)
        except RecursionError:
            raise fail("", "nested too deeply to be a saved game") from None
        except json.JSONDecodeError as err:
            raise fail(
                "", f"not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})"
            ) from None
        except ValueError as err:  # e.g. an integer of thousands of digits
            raise fail("", f"not a saved game ({err})") from None
        if not isinstance(data, dict):
            raise fail("", "must be an object with seed, players, actions, deck and rules")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise fail("seed", f"must be an integer, got {type(seed).__name__}")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise fail("players", f"must be an integer from 2 to 4, got {quoted(players)}")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise fail("actions", "must be a list of action texts such as 'draw 2'")
        deck = deck_from_dict(data["deck"], source=source) if "deck" in data else None
        rules = _rules_from(data.get("rules", {}), fail)
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != players
            or not all(isinstance(n, str) for n in names)
        ):
            raise fail("names", f"must be a list of {players} names")
        game = cls(players, seed=seed, bots=bots, deck=deck, rules=rules, names=names)
        for index, action in enumerate(actions):
            try:
                game.play(action)
            except IllegalActionError as err:
                raise fail(f"actions[{index}]", f"{action!r} is not legal there: {err}") from None
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


def _rules_from(raw: Any, fail: Callable[[str, str], GameFileError]) -> FunRules:
    """The rules of a saved game; errors name the rule (``rules.races``)."""
    if not isinstance(raw, dict):
        raise fail("rules", "must be an object of rule numbers")
    known = {f.name for f in fields(FunRules)}
    for key in raw:
        if key not in known:
            raise fail(f"rules.{key}", f"unknown rule; the rules are {', '.join(sorted(known))}")
    try:
        return FunRules(**{k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()})
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
    state = new_game(len(bots), seed=seed, deck=deck, rules=rules)
    if check is not None:
        check(state)
    while state.phase != "over":
        who = state.to_act
        assert who is not None
        state, _ = step(state, bots[who].choose(state, legal_actions(state)))
        if check is not None:
            check(state)
    return state
