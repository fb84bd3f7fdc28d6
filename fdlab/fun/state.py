"""Immutable Formula Fun game state.

Everything is a frozen dataclass of ints, strings and tuples; cards are
referred to by their id in the :class:`~fdlab.fun.deck.Deck`. The state holds
its random seed and a counter of the random draws made so far, so
:func:`fdlab.fun.engine.step` is a pure function and a game replays exactly
from its seed and actions. :meth:`GameState.to_dict` gives a JSON-ready
mapping (including the deck) and :meth:`GameState.from_dict` reads it back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from fdlab.fun.deck import Deck, deck_from_dict
from fdlab.fun.errors import ArgumentError, check_int
from fdlab.fun.quoting import quoted

__all__ = [
    "Auction",
    "CarResult",
    "FunRules",
    "GameState",
    "PlayerState",
    "FunRaceResult",
]

#: A turn phase (:data:`PHASES`).
Phase = Literal["draw", "play", "auction", "return_driver", "over"]
#: Turn phases. ``draw``: the player on turn must draw; ``play``: they play
#: cards; ``auction``: a bid or pass is awaited; ``return_driver``: an
#: auction winner with two drivers picks one to return; ``over``: finished.
PHASES: tuple[Phase, ...] = ("draw", "play", "auction", "return_driver", "over")
#: Why a championship ended (:attr:`GameState.ended`).
Ending = Literal["races", "turn_limit"]

#: Seeds are integers of at most this many digits (so that every seed can be printed).
MAX_SEED_DIGITS = 100


def check_players(players: object) -> int:
    """Return ``players`` if it is a number of players the rules allow (FF-1: 2 to 4).

    Raises
    ------
    ArgumentError
        Naming the parameter ``players``; ``True`` is not a number of players.

    Examples
    --------
    >>> check_players(4)
    4
    >>> check_players(2.5)
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: players must be an integer from 2 to 4 (FF-1: Formula Fun is for 2-4 players), got 2.5
    """
    return check_int("players", players, 2, 4, why="FF-1: Formula Fun is for 2-4 players")


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is an integer of at most :data:`MAX_SEED_DIGITS` digits.

    Raises
    ------
    ArgumentError
        Naming the parameter ``seed``.

    Examples
    --------
    >>> check_seed(-7)
    -7
    >>> check_seed("7")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: seed must be an integer of at most 100 digits, got '7'
    """
    if isinstance(seed, int) and not isinstance(seed, bool) and abs(seed) < 10**MAX_SEED_DIGITS:
        return seed
    raise ArgumentError(
        "seed", f"seed must be an integer of at most {MAX_SEED_DIGITS} digits, got {quoted(seed)}"
    )


@dataclass(frozen=True)
class FunRules:
    """The numbers of the rules, as data a designer can change (house rules).

    Parameters
    ----------
    start_money : int
        M$ per player at the start (FF-1).
    start_cards : int
        Cards dealt per player at the start (FF-1).
    draw_costs : tuple of int
        ``draw_costs[n - 1]`` is the price of drawing ``n`` cards (FF-2).
    max_drivers : int
        Drivers per team (FF-5).
    max_sponsors : int
        Sponsors in play per player (FF-8).
    hand_limit : int
        Cards in hand at the end of a turn (FF-13).
    circuit_hand : int
        Holding this many circuit cards forces the show-discard-draw rule (FF-13).
    circuit_hand_redraw : int
        Cards drawn after showing them (FF-13).
    races : int
        Championship length (FF-15).
    max_races : int
        Longest championship special cards can make (FF-15).
    max_turns : int
        fdlab safeguard, not a rule: a championship that has not finished
        after this many turns ends where it stands (so bot games always end),
        with ``ended == "turn_limit"``. Sensible bots finish in a few dozen
        turns (rarely more than a hundred); random bots, which throw money
        away on bids they cannot pay, sometimes need thousands (see the
        engine's notes on droughts), so their games may stop here.

    Examples
    --------
    >>> FunRules().draw_costs
    (0, 1, 2)

    Numbers that would make a championship impossible are refused:

    >>> FunRules(races=0)
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: FunRules.races: must be an integer of at least 1, got 0

    Raises
    ------
    ArgumentError
        Naming the field, e.g. ``FunRules.hand_limit: ...``.
    """

    start_money: int = 20
    start_cards: int = 5
    draw_costs: tuple[int, ...] = (0, 1, 2)
    max_drivers: int = 2
    max_sponsors: int = 2
    hand_limit: int = 5
    circuit_hand: int = 6
    circuit_hand_redraw: int = 5
    races: int = 6
    max_races: int = 8
    max_turns: int = 1000

    def __post_init__(self) -> None:
        def fail(name: str, message: str) -> ArgumentError:
            return ArgumentError(name, f"FunRules.{name}: {message}")

        minimum = {
            "start_money": 0,
            "start_cards": 0,
            "max_drivers": 1,
            "max_sponsors": 0,
            "circuit_hand": 1,
            "circuit_hand_redraw": 0,
            "races": 1,
            "max_races": 1,
            "max_turns": 1,
        }
        for name, low in minimum.items():
            value = getattr(self, name)
            if not _small_int(value) or value < low:
                raise fail(name, f"must be an integer of at least {low}, got {quoted(value)}")
        costs = self.draw_costs
        if (
            not isinstance(costs, tuple | list)
            or not costs
            or not all(_small_int(c) and c >= 0 for c in costs)
        ):
            raise fail(
                "draw_costs", f"must be a list of prices of 0 M$ or more, got {quoted(costs)}"
            )
        if costs[0] != 0:
            raise fail(
                "draw_costs",
                f"drawing one card must be free (FF-2), so that a player without money can "
                f"start a turn; got {costs[0]} M$",
            )
        object.__setattr__(self, "draw_costs", tuple(costs))
        if self.max_races < self.races:
            raise fail("max_races", f"must be at least races ({self.races}), got {self.max_races}")
        if not _small_int(self.hand_limit) or self.hand_limit < self.circuit_hand - 1:
            raise fail(
                "hand_limit",
                f"must be at least {self.circuit_hand - 1} (circuit_hand - 1): a player may "
                "hold that many circuit cards, which cannot be discarded while a team could "
                f"race (FF-13), so a smaller limit could make a turn impossible to end; "
                f"got {quoted(self.hand_limit)}",
            )


@dataclass(frozen=True)
class PlayerState:
    """One player's hand, money, team in play and points.

    Examples
    --------
    >>> PlayerState(money=20, hand=(1, 2)).complete
    False
    """

    money: int
    hand: tuple[int, ...] = ()
    drivers: tuple[int, ...] = ()
    engine: int | None = None
    chassis: int | None = None
    sponsors: tuple[int, ...] = ()
    points: int = 0

    @property
    def complete(self) -> bool:
        """Whether the team has an engine, a chassis and a driver, so it races (FF-10)."""
        return self.engine is not None and self.chassis is not None and bool(self.drivers)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Every card this player has in play (team and sponsors)."""
        parts = [c for c in (self.engine, self.chassis) if c is not None]
        return (*self.drivers, *parts, *self.sponsors)


@dataclass(frozen=True)
class Auction:
    """A running auction (FF-4, FF-6).

    Parameters
    ----------
    card : int
        The market card being sold.
    high_bid : int
        Highest bid so far (0 when a restarted auction has no bid yet).
    high_bidder : int or None
        Who holds the highest bid.
    active : tuple of int
        Players still in the auction, in clockwise order.
    to_act : int
        Player whose bid or pass is awaited.
    """

    card: int
    high_bid: int
    high_bidder: int | None
    active: tuple[int, ...]
    to_act: int


@dataclass(frozen=True)
class CarResult:
    """One car's result in a race."""

    player: int
    driver: int
    value: int
    points: int


@dataclass(frozen=True)
class FunRaceResult:
    """A race: its circuit card and the cars in finishing order."""

    number: int
    circuit: int
    cars: tuple[CarResult, ...]


@dataclass(frozen=True)
class GameState:
    """The whole state of a Formula Fun championship.

    Use :func:`fdlab.fun.engine.new_game` to make one and
    :func:`fdlab.fun.engine.step` to advance it. In a notebook it shows the
    table (standings, teams, last race, market; hands hidden).

    Parameters
    ----------
    deck : Deck
        Card definitions; every other field refers to cards by id.
    seed : int
        Seed of every random draw of the game.
    chance : int
        Number of random draws made so far (shuffles and lots).
    rules : FunRules
        Rule numbers.
    players : tuple of PlayerState
        Players in clockwise order.
    draw_pile : tuple of int
        Face-down deck; the last card is the top.
    discard : tuple of int
        Discard pile, oldest first.
    market : tuple of (int, int)
        ``(card, facing)`` pairs: the card and the player it faces (FF-14).
    first_player : int
        Who played the first turn (FF-1).
    turn : int
        Player on turn.
    turn_number : int
        Turns begun so far (1 on the first turn).
    phase : {"draw", "play", "auction", "return_driver", "over"}
        The phase of the turn (:data:`PHASES`).
    sponsor_played, circuit_played : bool
        Whether the free sponsor (FF-8) and the circuit card (FF-10) of this
        turn have been played.
    auction : Auction or None
        The running auction.
    pending_driver : tuple of (int, int) or None
        ``(player, card)``: an auction winner who must return a driver before
        the bought driver joins the team (FF-5).
    length : int
        Races in this championship (FF-15).
    races : tuple of FunRaceResult
        Races run so far.
    ended : {"races", "turn_limit"} or None
        ``"races"`` when the last race was run, ``"turn_limit"`` when the
        :attr:`FunRules.max_turns` safeguard stopped the game.

    Raises
    ------
    ArgumentError
        If ``phase`` is not one of :data:`PHASES`, or ``auction`` (``pending_driver``)
        is set outside the ``auction`` (``return_driver``) phase or missing in it.
    """

    deck: Deck
    seed: int
    chance: int
    rules: FunRules
    players: tuple[PlayerState, ...]
    draw_pile: tuple[int, ...]
    discard: tuple[int, ...]
    market: tuple[tuple[int, int], ...]
    first_player: int
    turn: int
    turn_number: int
    phase: Phase
    sponsor_played: bool = False
    circuit_played: bool = False
    auction: Auction | None = None
    pending_driver: tuple[int, int] | None = None
    length: int = 6
    races: tuple[FunRaceResult, ...] = field(default=())
    ended: Ending | None = None

    def __post_init__(self) -> None:
        """Refuse a phase that does not match the pending decision, so that the engine can
        tell the phase by the running auction or the driver choice waiting."""
        if self.phase not in PHASES:
            raise ArgumentError(
                "phase", f"phase must be one of {', '.join(PHASES)}, got {quoted(self.phase)}"
            )
        if (self.phase == "auction") != (self.auction is not None):
            raise ArgumentError(
                "auction",
                "auction must be the running auction in the auction phase and None in any "
                f"other phase; got {'None' if self.auction is None else 'an auction'} in "
                f"phase {self.phase}",
            )
        if (self.phase == "return_driver") != (self.pending_driver is not None):
            raise ArgumentError(
                "pending_driver",
                "pending_driver must be (player, driver) in the return_driver phase and None "
                f"in any other phase; got {quoted(self.pending_driver)} in phase {self.phase}",
            )

    @property
    def n_players(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def is_over(self) -> bool:
        """Whether the championship is over (FF-15)."""
        return self.phase == "over"

    @property
    def to_act(self) -> int | None:
        """The player whose decision is awaited, or None when the game is over."""
        if self.phase == "over":
            return None
        if self.auction is not None:  # exactly in the auction phase (__post_init__)
            return self.auction.to_act
        if self.pending_driver is not None:  # exactly in the return_driver phase
            return self.pending_driver[0]
        return self.turn

    @property
    def market_cards(self) -> tuple[int, ...]:
        """Card ids on the market."""
        return tuple(card for card, _ in self.market)

    @property
    def race_possible(self) -> bool:
        """Whether at least one team could race (engine, chassis, a driver; FF-10, FF-13)."""
        return any(p.complete for p in self.players)

    @property
    def points(self) -> tuple[int, ...]:
        """Championship points per player."""
        return tuple(p.points for p in self.players)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n_players} players, turn {self.turn_number} "
            f"(P{self.turn + 1}, {self.phase}), races {len(self.races)}/{self.length}, "
            f"points {list(self.points)}, money {[p.money for p in self.players]}>"
        )

    def _repr_html_(self) -> str:
        """The table as everyone sees it: standings, teams, last race, market (no hands)."""
        from fdlab.fun.html import state_html

        return state_html(self)

    def winners(self) -> tuple[int, ...]:
        """Players with the most points (several on a tie; FF-15).

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> new_game(3, seed=1).winners()
        (0, 1, 2)
        """
        best = max(self.points)
        return tuple(i for i, p in enumerate(self.points) if p == best)

    def card_locations(self) -> dict[int, str]:
        """Map every card id to where it is (``draw_pile``, ``hand:0``, ``team:2``, ...).

        Used by the invariant checks: every card of the deck is in exactly one place.
        """
        where: dict[int, str] = {}

        def put(cards: tuple[int, ...] | list[int], place: str) -> None:
            for card in cards:
                if card in where:
                    raise AssertionError(f"card {card} is both in {where[card]} and {place}")
                where[card] = place

        put(self.draw_pile, "draw_pile")
        put(self.discard, "discard")
        put(self.market_cards, "market")
        for index, player in enumerate(self.players):
            put(player.hand, f"hand:{index}")
            put(player.in_play, f"team:{index}")
        return where

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-serialisable mapping of the state (including the deck).

        Examples
        --------
        >>> import json
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=3)
        >>> s.from_dict(json.loads(json.dumps(s.to_dict()))) == s
        True
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "deck":
                out["deck"] = dict(value.source)
            elif f.name in ("rules", "auction") and value is not None:
                out[f.name] = asdict(value)
            elif f.name == "players":
                out[f.name] = [asdict(p) for p in value]
            elif f.name == "races":
                out[f.name] = [asdict(r) for r in value]
            else:
                out[f.name] = value
        return {k: _lists(v) for k, v in out.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output."""
        d = dict(data)
        d["deck"] = deck_from_dict(d["deck"], source="saved game")
        d["rules"] = FunRules(**_tuples(d["rules"]))
        d["players"] = tuple(PlayerState(**_tuples(p)) for p in d["players"])
        d["auction"] = Auction(**_tuples(d["auction"])) if d.get("auction") else None
        d["races"] = tuple(
            FunRaceResult(r["number"], r["circuit"], tuple(CarResult(**c) for c in r["cars"]))
            for r in d["races"]
        )
        for key in ("draw_pile", "discard", "pending_driver"):
            if d.get(key) is not None:
                d[key] = tuple(d[key])
        d["market"] = tuple(tuple(m) for m in d["market"])
        return cls(**d)

    def replace(self, **changes: Any) -> GameState:
        """Return a copy with some fields changed."""
        return replace(self, **changes)


def _small_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value


def _tuples(d: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
