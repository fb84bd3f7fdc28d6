"""The manager: fdlab's default Formula Fun opponent.

It values everything by one measure, the *worth* of a position to it, in M$:

- the championship margin it expects over its strongest rival: points so
  far plus, for each race left, the points per race its team expects
  against the teams in play (:func:`fdlab.fun.outlook.race_outlook`),
  converted to M$ at a rate that grows as the races run out (money left at
  the end buys nothing);
- its money and the money its sponsors and driver clauses will bring;
- less part of its rivals' money (money they cannot bid with);
- a little for every card in hand (cards in hand settle ties, FF-11).

A card on the market is worth to it what the worth gains if it buys the
card (its :meth:`~ManagerBot.valuation`); in a two-player game, more when the
rival needs the card (what the rival would gain is what buying it denies
them; with more players, money spent to outbid one rival is money the others
keep, so the careful style does not). The denial counts at most twice the
valuation (issue 27), so it never bids more than three times what the card
is worth to it, nor for a card of no use to it, and never more than it can
pay. It does not put up for auction a part a rival would outbid it for.
It races when the circuit in hand gives it more points than any rival, signs
sponsors, plays a special card when the card raises its worth, and over the
hand limit gives up the cards it misses least.

Two styles: ``careful`` races only when ahead and keeps its parts from
rivals who would outbid it; ``bold`` spends more freely, denies the strongest
rival at any table and races on a level result too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace

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
from fdlab.fun.deck import Deck
from fdlab.fun.engine import step
from fdlab.fun.errors import ArgumentError, GameOverError
from fdlab.fun.outlook import (
    TeamValues,
    distinct_circuits,
    expected_points,
    outlook_by_values,
    team_values,
)
from fdlab.fun.state import Auction, GameState, PlayerState

__all__ = ["STYLES", "ManagerBot", "Style"]

#: The parts in play of a team: engine, chassis and drivers (card ids).
_Team = tuple[int | None, int | None, tuple[int, ...]]
#: What a valuation depends on (:meth:`ManagerBot._position`): the deck's id, the races
#: left, and each player's money, engine, chassis, drivers, sponsors, points and hand size.
_Position = tuple[
    int,
    int,
    tuple[tuple[int, int | None, int | None, tuple[int, ...], tuple[int, ...], int, int], ...],
]


@dataclass(frozen=True)
class Style:
    """The numbers behind a playing style.

    Parameters
    ----------
    spread : float
        Sets the M$ a point of expected margin is worth
        (:meth:`ManagerBot.point_price`). Lower spends more.
    reserve : int
        M$ kept back from bids.
    draw_reserve : int
        M$ that must remain after paying for extra cards.
    denial : float
        Share of a rival's gain counted when bidding against them.
    rival_money : float
        Worth of one M$ in a rival's hands, against one's own.
    hand_card : float
        Worth of a card in hand (it settles ties).
    race_level : bool
        Race on a circuit that scores as much as the best rival, not only more.
    cushion : float
        M$ added to the money to come when pricing a point, so the price does
        not swing with every M$ spent.
    deny : {"heads-up", "leader", "all"}
        Whom it outbids to deny a card (:meth:`ManagerBot.rivals_to_deny`).
    denial_cap : float
        Denial counts at most this many times the card's use to the bot itself
        (:meth:`ManagerBot.valuation`), so the most it bids is ``1 + denial_cap``
        times that use, and a card of no use to it is never bought only to keep
        it from a rival.
    outbid : float
        Share of what a part would add to a rival (:meth:`ManagerBot.gain`) the
        rival is taken to bid for it. A part a rival would outbid the bot for is
        not put up for auction: the auction would only hand it to the rival
        (:meth:`ManagerBot.outbid`). 0 puts every part it wants up for auction.
    """

    spread: float
    reserve: int
    draw_reserve: int
    denial: float
    rival_money: float
    hand_card: float
    race_level: bool
    cushion: float = 8.0
    deny: str = "heads-up"
    denial_cap: float = 2.0
    outbid: float = 0.0


#: The styles by name.
STYLES: dict[str, Style] = {
    "careful": Style(
        spread=3.0,
        reserve=0,
        draw_reserve=0,
        denial=0.7,
        rival_money=0.3,
        hand_card=0.4,
        race_level=False,
        cushion=4.0,
        outbid=0.5,
    ),
    "bold": Style(
        spread=2.0,
        reserve=0,
        draw_reserve=1,
        denial=1.0,
        rival_money=0.3,
        hand_card=0.3,
        race_level=True,
        deny="leader",
    ),
}


def _install(state: GameState, team: PlayerState, card: Card, drop: int | None) -> PlayerState:
    """``team`` with ``card`` bought (giving back driver ``drop`` for a third driver)."""
    engine, chassis, drivers = team.engine, team.chassis, team.drivers
    if card.kind == "engine":
        engine = card.id
    elif card.kind == "chassis":
        chassis = card.id
    else:
        drivers = (*(d for d in drivers if d != drop), card.id)
    # the constructor, not dataclasses.replace: this runs thousands of times a game
    return PlayerState(team.money, team.hand, drivers, engine, chassis, team.sponsors, team.points)


class _OutlookCache:
    """Race outlooks by the part values of the teams, for one deck at a time."""

    def __init__(self) -> None:
        self.deck: Deck | None = None
        self.values: dict[_Team, TeamValues] = {}
        self.outlooks: dict[tuple[TeamValues, ...], list[float]] = {}

    def reset(self, deck: Deck) -> None:
        self.deck, self.values, self.outlooks = deck, {}, {}


#: The outlooks every manager of the process shares (a pure function of the teams).
_OUTLOOKS = _OutlookCache()


class ManagerBot:
    """fdlab's default opponent: values every card by what it adds to the team.

    See the module notes for how it plays.

    Parameters
    ----------
    rng : random.Random or int
        Breaks ties between equally good choices.
    style : {"careful", "bold"}
        How freely it spends and races (:data:`STYLES`).

    Examples
    --------
    >>> from fdlab.fun.engine import new_game, legal_actions
    >>> s = new_game(2, seed=0)
    >>> bot = ManagerBot(style="bold")
    >>> bot.name, bot.choose(s, legal_actions(s))
    ('manager-bold', Draw(count=3))
    """

    def __init__(self, rng: random.Random | int = 0, style: str = "careful") -> None:
        if style not in STYLES:
            raise ArgumentError(
                "style", f"unknown style {style!r}: choose one of {', '.join(STYLES)}"
            )
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.style_name = style
        self.style = STYLES[style]
        self.name = "manager" if style == "careful" else f"manager-{style}"
        self._bought: tuple[int, set[int]] = (0, set())
        # cards in this bot's team at some point of the current turn: one it gave back is
        # not bought again in the same turn (issue 16's buy-back loop)
        self._team_cards: set[int] = set()
        self._seen_turn = -1
        self._incomes: dict[tuple[int, tuple[int, ...], tuple[int, ...]], float] = {}
        # valuations by position (:meth:`_position`): the bot asks the same questions many
        # times a turn, and the answers depend on nothing else
        self._memo: dict[tuple[Hashable, ...], float] = {}

    # ------------------------------------------------------------------ worth
    def _position(self, state: GameState) -> _Position:
        """What a valuation depends on: the teams, money, points, sponsors and hand sizes,
        and the races left."""
        return (
            id(state.deck),
            state.length - len(state.races),
            tuple(
                (p.money, p.engine, p.chassis, p.drivers, p.sponsors, p.points, len(p.hand))
                for p in state.players
            ),
        )

    def _remember(self, key: tuple[Hashable, ...], compute: Callable[[], float]) -> float:
        """The value remembered for ``key``, computed by ``compute`` the first time."""
        value = self._memo.get(key)
        if value is None:
            if len(self._memo) > 100_000:
                self._memo.clear()
            value = self._memo[key] = compute()
        return value

    def races_left(self, state: GameState) -> int:
        """Races still to run in the championship."""
        return max(state.length - len(state.races), 0)

    def income(self, state: GameState, player: PlayerState) -> float:
        """M$ a player's sponsors and driver clauses bring per race (win clauses at a third)."""
        key = (id(state.deck), player.sponsors, player.drivers)
        money = self._incomes.get(key)
        if money is None:
            deck = state.deck
            money = float(sum(deck[s].income for s in player.sponsors))
            for d in player.drivers:
                for clause in deck[d].clauses:
                    money += clause.money * (1.0 if clause.on == "race" else 0.35)
            if len(self._incomes) > 10_000:
                self._incomes.clear()
            self._incomes[key] = money
        return money

    def future_money(self, state: GameState, player: PlayerState) -> float:
        """M$ a player has and will receive in time to spend: income after the last race
        buys nothing, and income comes a race at a time, so it counts at a discount."""
        left = state.length - len(state.races)
        if left <= 1:
            return float(player.money)
        return player.money + self.income(state, player) * (left - 1) * 0.6

    def point_price(self, state: GameState, me: int) -> float:
        """M$ one point of expected championship margin is worth to ``me`` now.

        The money to come (:meth:`future_money`, plus the style's cushion)
        spread over the races left, divided by the style's ``spread`` and by
        half the number of players (more cars score more points a race).

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> round(ManagerBot().point_price(s, 0), 2)  # (20 + 4) M$ / (6 races * 3 * 2 / 2)
        1.33
        """
        left = self.races_left(state)
        if left == 0:
            return 0.0
        money = max(self.future_money(state, state.players[me]), 0.0) + self.style.cushion
        return money / (left * self.style.spread * state.n_players / 2)

    def margin(self, state: GameState, me: int, players: Sequence[PlayerState]) -> float:
        """Expected final points of ``me`` minus those of the strongest rival (blended with
        the rivals' mean when there are several).

        The races to come are run with hands nobody knows yet, so their ties count as
        settled by lots; what a card in hand is worth for ties is the style's
        ``hand_card``.
        """
        outlook = self._outlook(state, players)
        left = self.races_left(state)
        final = [p.points + left * e for p, e in zip(players, outlook, strict=True)]
        mine = final.pop(me)
        return mine - 0.6 * max(final) - 0.4 * sum(final) / len(final)

    def _outlook(self, state: GameState, players: Sequence[PlayerState]) -> list[float]:
        """:func:`~fdlab.fun.outlook.race_outlook` of ``players``, ties settled by lots.

        It depends only on the values of the teams' parts, so it is remembered by
        them, for every manager of the process and from game to game
        (:data:`_OUTLOOKS`).
        """
        deck = state.deck
        shared = _OUTLOOKS
        if shared.deck is not deck:
            shared.reset(deck)
        values = shared.values
        key = []
        for p in players:
            team = (p.engine, p.chassis, p.drivers)
            v = values.get(team)
            if v is None:
                v = values[team] = team_values(deck, p)
            key.append(v)
        signature = tuple(key)
        outlook = shared.outlooks.get(signature)
        if outlook is None:
            if len(shared.outlooks) > 500_000:
                shared.outlooks.clear()
            outlook = outlook_by_values(deck, signature, self._circuits(state))
            shared.outlooks[signature] = outlook
        return outlook

    def worth(
        self,
        state: GameState,
        me: int,
        players: Sequence[PlayerState] | None = None,
        price: float | None = None,
    ) -> float:
        """The worth of a position to ``me`` in M$ (see the module notes).

        ``players`` replaces the state's players (a position imagined after a
        purchase); ``price`` fixes the M$ value of a point, so positions
        compared for one decision use one price.
        """
        players = state.players if players is None else players
        price = self.point_price(state, me) if price is None else price
        style = self.style
        money = [self.future_money(state, p) for p in players]
        mine = money.pop(me)
        return (
            price * self.margin(state, me, players)
            + mine
            - style.rival_money * sum(money) / len(money)
            + style.hand_card * len(players[me].hand)
        )

    def _circuits(self, state: GameState) -> tuple[Card, ...]:
        cached = getattr(self, "_circuit_cache", None)
        if cached is None or cached[0] is not state.deck:
            cached = (state.deck, distinct_circuits(state.deck))
            self._circuit_cache = cached
        return cached[1]

    # ------------------------------------------------------------------ cards
    def with_card(self, state: GameState, owner: int, card: Card) -> tuple[PlayerState, ...]:
        """The players after ``owner`` buys ``card`` (giving back the driver it misses least)."""
        players = list(state.players)
        team = players[owner]
        if card.kind == "driver" and len(team.drivers) >= state.rules.max_drivers:
            drop = self.driver_to_return(state, owner, card.id)
        else:
            drop = None
        players[owner] = _install(state, team, card, drop)
        return tuple(players)

    def driver_to_return(self, state: GameState, owner: int, bought: int) -> int:
        """Which driver ``owner`` gives back after buying driver ``bought`` (FF-5): the one
        whose loss, clause included, leaves ``owner`` the best position.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> team = PlayerState(money=9, drivers=(10, 12), engine=25, chassis=37)
        >>> s = s.replace(players=(team, s.players[1]))
        >>> # Yuki Arden (5) joins; Baron von Geld (2, 2 M$ a race) goes, not Prince
        >>> # Kasimir (1, 3 M$ a race)
        >>> ManagerBot().driver_to_return(s, 0, 4)
        10
        """
        card = state.deck[bought]
        team = state.players[owner]
        price = self.point_price(state, owner)
        best, best_worth = team.drivers[0], None
        for drop in team.drivers:
            players = list(state.players)
            players[owner] = _install(state, team, card, drop)
            value = self.worth(state, owner, players, price)
            if best_worth is None or value > best_worth:
                best, best_worth = drop, value
        return best

    def gain(self, state: GameState, who: int, card: Card) -> float:
        """M$ that owning ``card`` adds to ``who``'s worth, as this bot judges worth."""
        return self._remember(
            ("gain", self._position(state), who, card.id), lambda: self._gain(state, who, card)
        )

    def _gain(self, state: GameState, who: int, card: Card) -> float:
        price = self.point_price(state, who)
        return self.worth(state, who, self.with_card(state, who, card), price) - self.worth_now(
            state, who, price
        )

    def worth_now(self, state: GameState, who: int, price: float) -> float:
        """:meth:`worth` of the position as it is (remembered: every valuation starts here)."""
        return self._remember(
            ("now", self._position(state), who, price), lambda: self.worth(state, who, None, price)
        )

    def after_purchase(self, state: GameState, me: int, card: Card) -> tuple[PlayerState, ...]:
        """The players after ``me`` buys ``card``, counting what happens to the part it gives
        back (FF-5): on the market, the rival who needs it most buys it."""
        players = self.with_card(state, me, card)
        before, after = state.players[me], players[me]
        returned = [c for c in before.in_play if c not in after.in_play]
        if not returned:
            return players
        part = state.deck[returned[0]]
        best, best_gain = None, 1.0
        for rival in range(state.n_players):
            if rival != me and state.players[rival].money > 0:
                gain = self.gain(state, rival, part)
                if gain > best_gain:
                    best, best_gain = rival, gain
        if best is None:
            return players
        taken = list(players)
        shifted = state.replace(players=players)
        taken[best] = self.with_card(shifted, best, part)[best]
        return tuple(taken)

    def own_gain(self, state: GameState, me: int, card: Card, price: float) -> float:
        """M$ buying ``card`` adds to this bot's worth, the part it gives back included."""
        return self._remember(
            ("own", self._position(state), me, card.id, price),
            lambda: self._own_gain(state, me, card, price),
        )

    def _own_gain(self, state: GameState, me: int, card: Card, price: float) -> float:
        after = self.after_purchase(state, me, card)
        return self.worth(state, me, after, price) - self.worth_now(state, me, price)

    def valuation(self, state: GameState, me: int, card: Card) -> float:
        """M$ ``card`` is worth to ``me`` for its own use: what buying it adds to the worth,
        the part it gives back included (:meth:`own_gain` at today's point price).

        Denial is not in it: :meth:`bid_limit` adds that, bounded by this.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> ManagerBot().valuation(s, 0, s.deck[25]) > 0  # a V12 for an empty team
        True
        """
        return self.own_gain(state, me, card, self.point_price(state, me))

    def bid_limit(self, state: GameState, me: int, card: Card) -> float:
        """The most ``me`` pays for ``card``: its :meth:`valuation`, plus what keeping it from
        a rival who needs it is worth (the denial), the denial at most the style's
        ``denial_cap`` times the valuation.

        So the limit is never above ``1 + denial_cap`` times the card's use to ``me``
        (three times with both styles), and a card of no use to ``me`` gets no bid.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> bot, v12 = ManagerBot(), s.deck[25]
        >>> bot.valuation(s, 0, v12) <= bot.bid_limit(s, 0, v12) <= 3 * bot.valuation(s, 0, v12)
        True
        """
        return self._remember(
            ("limit", self._position(state), me, card.id),
            lambda: self._bid_limit(state, me, card),
        )

    def expected_finals(self, state: GameState) -> list[float]:
        """Points each player expects at the end: points so far plus the races left times
        the points per race its team expects (:func:`fdlab.fun.outlook.race_outlook`)."""
        outlook = self._outlook(state, state.players)
        left = self.races_left(state)
        return [p.points + left * e for p, e in zip(state.players, outlook, strict=True)]

    def rivals_to_deny(self, state: GameState, me: int) -> list[int]:
        """The rivals worth paying to keep a card from: the style's ``deny`` says whom.

        ``"heads-up"`` denies the rival of a two-player game only: with more
        players, money spent to outbid one rival is money the others keep
        (``benchmarks/fun_bots.py`` measured a field of managers that denied
        each other losing to a lone simple bot). ``"leader"`` denies the rival
        expected to finish strongest (:meth:`expected_finals`); ``"all"``
        every rival.

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> ManagerBot().rivals_to_deny(new_game(2, seed=0), 0)
        [1]
        >>> ManagerBot().rivals_to_deny(new_game(3, seed=0), 0)
        []
        """
        rivals = [i for i in range(state.n_players) if i != me]
        if self.style.deny == "all" or len(rivals) == 1:
            return rivals
        if self.style.deny == "heads-up":
            return []
        finals = self.expected_finals(state)
        return [max(rivals, key=lambda i: (finals[i], state.players[i].money, -i))]

    def _bid_limit(self, state: GameState, me: int, card: Card) -> float:
        price = self.point_price(state, me)
        now = self.worth_now(state, me, price)
        mine = self.own_gain(state, me, card, price)
        if mine <= 0:
            return mine
        denied = 0.0
        for rival in self.rivals_to_deny(state, me):
            if state.players[rival].money <= 0:
                continue
            if self.gain(state, rival, card) <= 1.0:
                continue  # the rival would not bid much for it
            loss = now - self.worth(state, me, self.with_card(state, rival, card), price)
            denied = max(denied, loss * self.style.denial)
        return mine + min(denied, self.style.denial_cap * mine)

    # ------------------------------------------------------------------ decisions
    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        """Return the chosen action among ``legal``."""
        me = state.to_act
        if me is None:
            raise GameOverError("FF-15", "the championship is over; no more actions")
        if self._seen_turn != state.turn_number:
            self._seen_turn = state.turn_number
            self._team_cards = set()
        self._team_cards.update(state.players[me].in_play)
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
        costs = state.rules.draw_costs
        draws = sorted((a for a in legal if isinstance(a, Draw)), key=lambda a: -a.count)
        for a in draws:
            if a.count == 1 or money - costs[a.count - 1] >= self.style.draw_reserve:
                return a
        return draws[-1]

    def _bid(self, state: GameState, me: int, auction: Auction, legal: Sequence[Action]) -> Action:
        limit = min(
            self.bid_limit(state, me, state.deck[auction.card]),
            state.players[me].money - self.style.reserve,
        )
        bid = auction.high_bid + 1
        given_back = auction.card in self._team_cards
        if bid <= limit and Bid(bid) in legal and not given_back:
            return Bid(bid)
        return Pass()

    def _play(self, state: GameState, me: int, legal: Sequence[Action]) -> Action:
        deck = state.deck
        player = state.players[me]
        if self._bought[0] != state.turn_number:
            self._bought = (state.turn_number, set())

        sponsors = [a for a in legal if isinstance(a, PlaySponsor)]
        if sponsors:
            race = self._race_before_hand_shrinks(state, me, legal)
            if race is not None:
                return race
            return max(sponsors, key=lambda a: (deck[a.card].income, -a.card))

        special = self._best_special(state, me, legal, before_race=True)
        if special is not None:
            return special

        purchase = self._best_purchase(state, me, legal)
        if purchase is not None:
            return purchase

        circuit = self._best_circuit(state, me, legal)
        if circuit is not None:
            return circuit

        special = self._best_special(state, me, legal, before_race=False)
        if special is not None:
            return special

        if len(player.hand) > state.rules.hand_limit:
            return self._shed(state, me, legal)
        if EndTurn() in legal:
            return EndTurn()
        return self.rng.choice(list(legal))

    def _best_special(
        self, state: GameState, me: int, legal: Sequence[Action], before_race: bool
    ) -> Action | None:
        """The special card that raises the worth most (clearing the market waits until the
        bot's own purchases are done)."""
        options = [a for a in legal if isinstance(a, PlaySpecial)]
        if not options:
            return None
        price = self.point_price(state, me)
        # a card played leaves the hand: compare with the hand it would have
        now = self.worth(state, me, None, price) - self.style.hand_card
        best, best_gain = None, 0.25
        for a in options:
            effects = {e.op for e in state.deck[a.card].effects}
            if before_race == ("clear_market" in effects):
                continue
            after, _ = step(state, a)
            value = self.worth(after, me, None, price)
            if "clear_market" in effects:
                value += self._market_threat(state, me, price)
            if value - now > best_gain:
                best, best_gain = a, value - now
        return best

    def _market_threat(self, state: GameState, me: int, price: float) -> float:
        """M$ the market's cards would add to the rivals' side, were they bought."""
        now = self.worth(state, me, None, price)
        threat = 0.0
        for card_id in state.market_cards:
            card = state.deck[card_id]
            for rival in range(state.n_players):
                if rival != me and state.players[rival].money > 0:
                    loss = now - self.worth(state, me, self.with_card(state, rival, card), price)
                    threat = max(threat, loss)
        return threat * 0.5

    def _best_purchase(self, state: GameState, me: int, legal: Sequence[Action]) -> Action | None:
        """Put on the market or auction the part worth most to the team, if worth a bid."""
        deck = state.deck
        player = state.players[me]
        if player.money - self.style.reserve < 1:
            return None
        bought = self._bought[1]
        price = self.point_price(state, me)
        bought.update(c for c in state.market_cards if c in self._team_cards)
        candidates: list[tuple[float, int, Action]] = []
        for a in legal:
            if isinstance(a, PutOnMarket):
                gain = self.own_gain(state, me, deck[a.card], price)
                if gain >= 1.0:
                    candidates.append((gain, a.card, a))
        for card_id in state.market_cards:
            if card_id in bought:
                continue
            gain = self.own_gain(state, me, deck[card_id], price)
            if gain >= 1.0 and StartAuction(card_id, 1) in legal:
                candidates.append((gain, card_id, StartAuction(card_id, 1)))
        candidates = [t for t in candidates if not self.outbid(state, me, deck[t[1]])]
        if not candidates:
            return None
        gain, card_id, action = max(candidates, key=lambda t: (t[0], -t[1]))
        if isinstance(action, StartAuction):
            bought.add(card_id)
        return action

    def outbid(self, state: GameState, me: int, card: Card) -> bool:
        """Whether a rival would outbid ``me`` for ``card``: the style's ``outbid`` share of
        what the card adds to the rival (:meth:`gain`), up to the rival's money, is more
        than ``me`` would bid. Such a part stays in the hand, or on the market, rather than
        be auctioned to a rival (``benchmarks/fun_bots.py``: a third of the parts the
        manager auctioned went to a rival before this check).

        Examples
        --------
        >>> from fdlab.fun.engine import new_game
        >>> s = new_game(2, seed=0)
        >>> ManagerBot().outbid(s, 0, s.deck[25]), ManagerBot(style="bold").outbid(s, 0, s.deck[25])
        (False, False)
        """
        share = self.style.outbid
        if share <= 0:
            return False
        mine = min(self.bid_limit(state, me, card), state.players[me].money - self.style.reserve)
        return any(
            min(p.money, share * self.gain(state, rival, card)) > mine
            for rival, p in enumerate(state.players)
            if rival != me and p.money > 0
        )

    def race_result(self, state: GameState, me: int, circuit: int) -> tuple[float, float]:
        """Points ``me`` expects if ``circuit`` is raced now, and what its rivals score (the
        best rival's points, blended with the rivals' mean when there are several)."""
        hands = [len(p.hand) - (i == me) for i, p in enumerate(state.players)]
        points = expected_points(state.deck, state.players, state.deck[circuit], hands)
        rivals = [p for i, p in enumerate(points) if i != me]
        return points[me], 0.6 * max(rivals) + 0.4 * sum(rivals) / len(rivals)

    def _race_before_hand_shrinks(
        self, state: GameState, me: int, legal: Sequence[Action]
    ) -> Action | None:
        """The race to run before playing another card, if one card fewer in hand would lose a
        tie in it (FF-11: cars of equal value finish in order of cards in hand)."""
        race = self._best_circuit(state, me, legal)
        if race is None:
            return None
        players = list(state.players)
        players[me] = replace(players[me], hand=players[me].hand[1:])
        if self.race_result(state.replace(players=tuple(players)), me, race.card) < (
            self.race_result(state, me, race.card)
        ):
            return race
        return None

    def _best_circuit(
        self, state: GameState, me: int, legal: Sequence[Action]
    ) -> PlayCircuit | None:
        best, best_margin = None, None
        last = self.races_left(state) == 1
        for a in legal:
            if not isinstance(a, PlayCircuit):
                continue
            mine, rival = self.race_result(state, me, a.card)
            if mine <= 0:
                continue
            margin = mine - rival
            if last:
                hands = [len(p.hand) - (i == me) for i, p in enumerate(state.players)]
                points = expected_points(state.deck, state.players, state.deck[a.card], hands)
                final = [p.points + x for p, x in zip(state.players, points, strict=True)]
                if final[me] <= max(f for i, f in enumerate(final) if i != me):
                    continue  # the last race must make it champion
            elif margin < 0 or (margin == 0 and not self.style.race_level):
                continue
            if best_margin is None or margin > best_margin:
                best, best_margin = a, margin
        return best

    def _shed(self, state: GameState, me: int, legal: Sequence[Action]) -> Action:
        """Over the hand limit: give up the card missed least (parts go to the market)."""
        deck = state.deck
        options: list[tuple[float, int, Action]] = []
        left = self.races_left(state)
        for a in legal:
            if isinstance(a, PutOnMarket):
                card = deck[a.card]
                threat = max(
                    (
                        self.gain(state, r, card)
                        for r in range(state.n_players)
                        if r != me and state.players[r].money > 0
                    ),
                    default=0.0,
                )
                options.append((1.0 + max(threat, 0.0), a.card, a))
            elif isinstance(a, Discard):
                card = deck[a.card]
                if card.kind == "sponsor":
                    room = len(state.players[me].sponsors) < state.rules.max_sponsors
                    keep = card.income * left if room else 0.2 * card.income
                elif card.kind == "circuit":
                    keep = 1.0
                else:
                    keep = 0.5
                options.append((keep, a.card, a))
        if not options:
            return self.rng.choice(list(legal))
        return min(options, key=lambda t: (t[0], t[1]))[2]
