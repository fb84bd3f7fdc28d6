"""Formula Fun bots: a random legal player and a sensible one.

A bot is any object with ``choose(state, legal) -> action``; randomness comes
from the ``random.Random`` it is given, so a bot championship replays from its
seeds.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol, cast, runtime_checkable

from fdlab.fun.actions import (
    Action,
    Bid,
    Discard,
    Draw,
    EndTurn,
    Pass,
    PlayCircuit,
    PlaySpecial,
    PlaySponsor,
    PutOnMarket,
    ReturnDriver,
    StartAuction,
)
from fdlab.fun.cards import Card
from fdlab.fun.errors import GameOverError
from fdlab.fun.race import classify, entrants
from fdlab.fun.state import Auction, GameState, PlayerState

__all__ = ["Bot", "FunRandomBot", "SensibleBot", "SimpleBot", "ValuingBot", "team_strength"]


class Bot(Protocol):
    """What the game needs from a bot."""

    name: str

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``."""
        ...


@runtime_checkable
class ValuingBot(Bot, Protocol):
    """A bot that bids by what a card is worth to it (issue 27).

    Its bid for a card is never above its :meth:`valuation` plus what keeping the
    card from a rival is worth (the denial), and the denial is at most twice the
    valuation: no bid above three times the valuation, none for a card of no use
    to it. ``benchmarks/fun_bots.py`` and ``tests/fun/test_bid_bounds.py`` measure
    the prices bots pay against it. The random bot has no valuation.

    Examples
    --------
    >>> from fdlab.fun.manager import ManagerBot
    >>> [isinstance(bot, ValuingBot) for bot in (SimpleBot(), ManagerBot(), FunRandomBot())]
    [True, True, False]
    """

    def valuation(self, state: GameState, me: int, card: Card) -> float:
        """M$ ``card`` is worth to player ``me`` for its own use (denial not included)."""
        ...


class FunRandomBot:
    """Picks a legal action at random: first a kind of action, then one of that kind.

    Choosing the kind first keeps the long lists of bids and opening prices
    from drowning the other decisions.

    Parameters
    ----------
    rng : random.Random or int
        Source of randomness, or a seed for one.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game, legal_actions
    >>> s = new_game(2, seed=0)
    >>> FunRandomBot(1).choose(s, legal_actions(s)) in legal_actions(s)
    True
    """

    name = "random"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        groups: dict[str, list[Action]] = defaultdict(list)
        for action in legal:
            groups[type(action).__name__].append(action)
        kind = self.rng.choice(sorted(groups))
        return self.rng.choice(groups[kind])


def team_strength(state: GameState, team: PlayerState) -> float:
    """Rough strength of a team: the sum of its cars' base values.

    An incomplete team counts its parts at a discount, so a card that
    completes a team is worth a lot.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> from fdlab.fun.state import PlayerState
    >>> s = new_game(2, seed=0)
    >>> team_strength(s, PlayerState(money=0, drivers=(0,), engine=25, chassis=37))
    18.0
    """
    deck = state.deck
    engine = deck[team.engine].value if team.engine is not None else 0
    chassis = deck[team.chassis].value if team.chassis is not None else 0
    drivers = [deck[d].value for d in team.drivers]
    if team.complete:
        return float(sum(engine + chassis + d for d in drivers))
    return 0.35 * (engine + chassis + sum(drivers))


def _with_card(
    state: GameState, team: PlayerState, card: Card, drop: int | None = None
) -> tuple[PlayerState, int | None]:
    """The team after buying ``card``; a third driver sends ``drop`` back (the weakest if None)."""
    deck = state.deck
    if card.kind == "engine":
        return PlayerState(team.money, (), team.drivers, card.id, team.chassis), None
    if card.kind == "chassis":
        return PlayerState(team.money, (), team.drivers, team.engine, card.id), None
    drivers = list(team.drivers)
    dropped = None
    if len(drivers) >= state.rules.max_drivers:
        dropped = drop if drop is not None else min(drivers, key=lambda d: deck[d].value)
        drivers.remove(dropped)
    drivers.append(card.id)
    return PlayerState(team.money, (), tuple(drivers), team.engine, team.chassis), dropped


class SensibleBot:
    """A bot with simple, explainable priorities.

    - Draws more cards when it can afford them and still keep a reserve.
    - Bids up to the value a card adds to its team (strength gained times
      ``price_per_point``), never above its money minus a reserve kept for
      draws and clauses, and never risks a failed payment.
    - Plays its best sponsor as soon as it may, and keeps sponsors rather
      than discarding them.
    - Plays a circuit card when it is ahead: when its own cars would score at
      least as many points as any rival's in that race, picking the best circuit;
      also when it holds two or more circuit cards and would score at all.
    - Plays money and draw specials at once; aims removal cards at the
      leader's best card; extends the championship only when leading.

    Parameters
    ----------
    rng : random.Random or int
        Breaks ties between equally good choices.
    price_per_point : float
        M$ a point of team strength is worth.
    reserve : int
        M$ kept back from bids.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game, legal_actions
    >>> s = new_game(2, seed=0)
    >>> SensibleBot().choose(s, legal_actions(s))
    Draw(count=3)
    """

    name = "sensible"

    def __init__(
        self, rng: random.Random | int = 0, price_per_point: float = 1.2, reserve: int = 3
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.price_per_point = price_per_point
        self.reserve = reserve

    # ------------------------------------------------------------------ valuation
    def team_value(self, state: GameState, team: PlayerState) -> float:
        """M$ a team in play is worth: its strength, plus the money its drivers' clauses
        bring (or cost) over the next races."""
        races_left = max(state.length - len(state.races), 0)
        clauses = sum(
            c.money * (1.0 if c.on == "race" else 0.4)
            for d in team.drivers
            for c in state.deck[d].clauses
        )
        return (
            team_strength(state, team) * self.price_per_point + clauses * min(races_left, 3) * 0.5
        )

    def card_value(self, state: GameState, me: int, card: Card, base: float | None = None) -> float:
        """M$ that owning ``card`` is worth to player ``me``: what the team is worth with it
        minus what it is worth now (``base``, if known). It can be negative: buying a third
        driver gives one back, clause and all, and the driver given back is the one the team
        misses least (:meth:`driver_to_return`)."""
        team = state.players[me]
        if base is None:
            base = self.team_value(state, team)
        return self._best_with(state, team, card)[0] - base

    def valuation(self, state: GameState, me: int, card: Card) -> float:
        """M$ ``card`` is worth to player ``me``: :meth:`card_value`. It bids up to this
        (and its money less the reserve), never more: it denies nobody.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> round(SensibleBot().valuation(s, 0, s.deck[25]), 2)  # a V12, empty team: 0.35 * 6 * 1.2
        2.52
        """
        return self.card_value(state, me, card)

    def _best_with(
        self, state: GameState, team: PlayerState, card: Card
    ) -> tuple[float, int | None]:
        """The team's value after buying ``card``, and the driver it would give back."""
        if card.kind != "driver" or len(team.drivers) < state.rules.max_drivers:
            return self.team_value(state, _with_card(state, team, card)[0]), None
        options = [
            (self.team_value(state, _with_card(state, team, card, drop)[0]), drop)
            for drop in team.drivers
        ]
        return max(options, key=lambda t: (t[0], -state.deck[t[1]].value))

    def driver_to_return(self, state: GameState, owner: int, bought: int) -> int:
        """Which of ``owner``'s drivers to give back after buying driver ``bought`` (FF-5):
        the one whose loss, clause included, leaves the most valuable team.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> from fdlab.fun.state import PlayerState
        >>> s = new_game(2, seed=0)
        >>> team = PlayerState(money=9, drivers=(10, 12), engine=25, chassis=37)
        >>> s = s.replace(players=(team, s.players[1]))
        >>> SensibleBot().driver_to_return(s, 0, 13)  # keeps Prince Kasimir's 3 M$ a race
        10
        """
        team = state.players[owner]
        # asked when the owner already has the most drivers, so _best_with names one to drop
        return cast(int, self._best_with(state, team, state.deck[bought])[1])

    def race_points(self, state: GameState, circuit: int) -> list[int]:
        """Expected points per player if ``circuit`` were raced now (ties by hand size)."""
        cars = entrants(state.deck, state.players, circuit)
        points = [0] * state.n_players
        if not cars:
            return points
        hands = [len(p.hand) for p in state.players]
        results, _ = classify(cars, hands, random.Random(0))
        for r in results:
            points[r.player] += r.points
        return points

    # ------------------------------------------------------------------ decisions
    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        me = state.to_act
        if me is None:
            raise GameOverError("FF-15", "the championship is over; no more actions")
        if state.phase == "draw":
            return self._draw(state, me, legal)
        if state.auction is not None:  # exactly in the auction phase
            return self._bid(state, me, state.auction, legal)
        if state.pending_driver is not None:  # exactly in the return_driver phase
            owner, bought = state.pending_driver
            return ReturnDriver(self.driver_to_return(state, owner, bought))
        return self._play(state, me, legal)

    def _draw(self, state: GameState, me: int, legal: Sequence[Action]) -> Action:
        money = state.players[me].money
        draws = {a.count: a for a in legal if isinstance(a, Draw)}
        for count in (3, 2):
            if count in draws and money - state.rules.draw_costs[count - 1] >= 2 * self.reserve:
                return draws[count]
        return draws[1]

    def _bid(self, state: GameState, me: int, auction: Auction, legal: Sequence[Action]) -> Action:
        card = state.deck[auction.card]
        limit = min(self.valuation(state, me, card), state.players[me].money - self.reserve)
        step = auction.high_bid + 1
        if step <= limit and Bid(step) in legal:
            return Bid(step)
        return Pass()

    def _play(self, state: GameState, me: int, legal: Sequence[Action]) -> Action:
        deck = state.deck
        player = state.players[me]
        by_type: dict[type, list[Action]] = defaultdict(list)
        for a in legal:
            by_type[type(a)].append(a)

        # 1. sponsors: the richest one first
        sponsors = [a for a in by_type[PlaySponsor] if isinstance(a, PlaySponsor)]
        if sponsors:
            return max(sponsors, key=lambda a: deck[a.card].income)

        # 2. circuit card when ahead in that race
        best = self._best_circuit(state, me, by_type[PlayCircuit])
        if best is not None:
            return best

        # 3. special cards
        special = self._special(state, me, by_type[PlaySpecial])
        if special is not None:
            return special

        # 4. parts that would improve the team go to the market, to be auctioned
        base = self.team_value(state, player)
        for a in by_type[PutOnMarket]:
            if isinstance(a, PutOnMarket) and self.card_value(state, me, deck[a.card], base) >= 1.0:
                return a

        # 5. auction the market card worth most to us, opening at 1 M$
        if player.money > self.reserve:
            # (money > reserve >= 0, so opening at 1 M$ on any market card is legal)
            worth = {c: self.card_value(state, me, deck[c], base) for c in state.market_cards}
            affordable = [c for c, v in worth.items() if v >= 1.0]
            if affordable:
                return StartAuction(max(affordable, key=lambda c: (worth[c], -c)), 1)

        # 6. hand limit: market the weakest parts, then discard the least useful cards
        if len(player.hand) > state.rules.hand_limit:
            markets = [a for a in by_type[PutOnMarket] if isinstance(a, PutOnMarket)]
            if markets:
                return min(markets, key=lambda a: deck[a.card].value)
            discards = [a for a in by_type[Discard] if isinstance(a, Discard)]
            if discards:
                order = {"special": 0, "circuit": 1, "sponsor": 2}
                return min(
                    discards, key=lambda a: (order.get(deck[a.card].kind, 3), deck[a.card].income)
                )
        return EndTurn() if EndTurn() in legal else self.rng.choice(list(legal))

    def _best_circuit(self, state: GameState, me: int, options: list[Action]) -> Action | None:
        best, best_margin = None, None
        for a in options:
            if not isinstance(a, PlayCircuit):
                continue
            points = self.race_points(state, a.card)
            rivals = max(p for i, p in enumerate(points) if i != me)
            margin = points[me] - rivals
            if points[me] > 0 and margin >= 0 and (best_margin is None or margin > best_margin):
                best, best_margin = a, margin
        if best is None and len(options) >= 2:
            # circuit cards clog the hand (they may not be discarded while a team could
            # race): run the race that is best for us if we score at all
            scored = [
                (self.race_points(state, a.card), a) for a in options if isinstance(a, PlayCircuit)
            ]
            points, choice = max(scored, key=lambda t: t[0][me])
            if points[me] > 0:
                return choice
        return best

    def _special(self, state: GameState, me: int, options: list[Action]) -> Action | None:
        if not options:
            return None
        deck = state.deck
        leader = max(
            (i for i in range(state.n_players) if i != me),
            key=lambda i: (state.players[i].points, team_strength(state, state.players[i])),
        )
        leading = state.players[me].points >= max(p.points for p in state.players)
        scored: list[tuple[float, int, Action]] = []
        for a in options:
            if not isinstance(a, PlaySpecial):
                continue
            card = deck[a.card]
            score = 0.0
            for e in card.effects:
                if e.op == "money":
                    mine = e.amount if e.who in ("self", "all") else 0
                    theirs = e.amount if e.who in ("others", "all") else 0
                    score += mine - theirs * 0.5
                elif e.op == "draw":
                    score += 1.0 if len(state.players[me].hand) < state.rules.hand_limit else -1
                elif e.op == "extend":
                    score += 2.0 if leading else -5.0
                elif e.op == "clear_market":
                    score += -1.0
                elif e.op == "discard_in_play" and a.target is not None:
                    owner = next(i for i, p in enumerate(state.players) if a.target in p.in_play)
                    value = deck[a.target].value or deck[a.target].income
                    sign = -1.0 if owner == me else 1.0
                    score += sign * value * (1.5 if owner == leader else 1.0)
                elif e.op == "replace_sponsor" and a.with_card is not None and a.target is not None:
                    score += deck[a.with_card].income * 2 - deck[a.target].income
            if score > 0.5:
                scored.append((score, -a.card, a))
        if not scored:
            return None
        return max(scored, key=lambda t: (t[0], t[1]))[2]


class SimpleBot(SensibleBot):
    """The baseline of issue 16: about 2 M$ per point of team strength, 1 M$ kept back.

    The sensible bot's play with other numbers: it bids up to 2 M$ per point
    a card adds to its team strength (parts of an incomplete team count at a
    discount, a third driver's purchase counts the clause of the driver given
    back), keeps only 1 M$ back, and draws three cards whenever it can pay
    for them. A yardstick for stronger bots: a bot worth playing beats it.

    Parameters
    ----------
    rng : random.Random or int
        Breaks ties between equally good choices.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game, legal_actions
    >>> s = new_game(2, seed=0)
    >>> bot = SimpleBot()
    >>> bot.price_per_point, bot.reserve, bot.choose(s, legal_actions(s))
    (2.0, 1, Draw(count=3))
    """

    name = "simple"

    def __init__(self, rng: random.Random | int = 0) -> None:
        super().__init__(rng, price_per_point=2.0, reserve=1)

    def _draw(self, state: GameState, me: int, legal: Sequence[Action]) -> Action:
        draws = [a for a in legal if isinstance(a, Draw)]
        return max(draws, key=lambda a: a.count)
