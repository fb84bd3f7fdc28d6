"""The Formula Fun rules engine: a pure function from state and action to new state.

``new_game`` deals a championship, ``legal_actions`` lists the decisions open
to the player whose turn it is to decide, and ``step`` applies one action,
returning the new state and the events it caused. Illegal actions raise a
subclass of :class:`~fdlab.fun.errors.IllegalActionError` naming the clause.

Randomness (shuffles, the first player, lots) comes from the state's seed and
its counter of random draws, so a championship replays exactly from its seed
and its actions.

Decisions the rules leave open, taken here (all documented in the docstrings
of the functions that apply them):

- The opening price of an auction is the bid of the player on turn, at least
  1 M$; players without money take no part in auctions (FF-4, FF-6).
- Bids and opening prices are whole numbers of M$, at most :data:`MAX_PRICE`
  (a fdlab limit, not a rule: FF-4 sets no ceiling, and no player comes near
  it). A bid above the bidder's money is legal: if it wins, the sale fails
  and the bidder pays half the price or all their money (FF-6).
- Every field of an action is checked before any rule reads it: card fields
  are card numbers (``int``, never ``bool``), a draw is a whole number of
  cards; anything else is one :class:`~fdlab.fun.errors.IllegalActionError`
  naming the clause of the action.
- An auction restarted after a failed payment (FF-6) has no opening bid: the
  players with money bid clockwise from the player on turn; if all pass, the
  card stays on the market.
- A card returned to the market by a purchase (FF-5) faces its former owner,
  so it is cleaned up at the start of their next turn if unsold (FF-14).
- Sponsors pay after a race before driver clauses are settled (FF-7, FF-8); a
  clause the owner cannot pay in full is not paid; a special card's payment
  takes what the player has.
- A circuit card may be played only when at least one car can race (FF-10).
- Ties (FF-11) compare the hands as they are when the race is run, after the
  circuit card has left its player's hand.
- The hand limit (FF-13) counts every card. The seed says drivers, engines
  and chassis "must be put on the market or kept by the player": fdlab reads
  *kept* as kept within the five cards, so a player over the limit puts parts
  on the market (they never go to the discard pile); likewise a circuit card
  that may not be discarded is kept within the five. A legal way to end the
  turn always exists: five circuit cards at most can be held (six are shown
  and replaced), and every other card can be marketed, played or discarded.
- No rule is added against droughts. Money enters only from the bank
  (sponsors when signed and after races, driver clauses, special cards); if
  every player has spent or forfeited it (failed payments, FF-6) while no
  team is complete, nothing can be bought and no race run until a sponsor is
  signed or a money special played. The seed has no rule for this case (no
  loans, no free auctions), and none is needed: the discard pile is
  reshuffled (FF-13), so sponsors and money specials come back and the game
  goes on. Random bots waste money this way and can take thousands of
  turns (``benchmarks/fun_championships.py`` prints how many reach the
  :attr:`~fdlab.fun.state.FunRules.max_turns` safeguard, which is not a rule).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

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
from fdlab.fun.cards import Card, Effect
from fdlab.fun.deck import Deck, default_deck
from fdlab.fun.errors import (
    ArgumentError,
    AuctionError,
    CardNotAvailableError,
    CircuitCardError,
    DiscardError,
    DrawError,
    GameOverError,
    HandLimitError,
    MarketError,
    PaymentError,
    PhaseError,
    SpecialCardError,
    SponsorError,
)
from fdlab.fun.events import FunEvent, mention
from fdlab.fun.quoting import quoted
from fdlab.fun.race import classify, entrants, ties
from fdlab.fun.state import (
    Auction,
    CarResult,
    FunRaceResult,
    FunRules,
    GameState,
    PlayerState,
    check_players,
    check_seed,
)

__all__ = ["MAX_PRICE", "legal_actions", "new_game", "replay", "step"]

#: The most M$ a bid or an opening price may name: a fdlab limit, not a rule (FF-4 sets
#: no ceiling and no player comes near it); it keeps every amount printable.
MAX_PRICE = 10**9


# --------------------------------------------------------------------------- setup


def new_game(
    players: int,
    seed: int = 0,
    deck: Deck | None = None,
    rules: FunRules | None = None,
) -> GameState:
    """Deal a new championship (FF-1).

    Every player gets ``rules.start_cards`` cards and ``rules.start_money``
    M$; the first player is drawn at random; play goes clockwise (player
    index order).

    Parameters
    ----------
    players : int
        Number of players, 2 to 4.
    seed : int
        Seed of every random draw in the game.
    deck : Deck, optional
        Card definitions; :func:`~fdlab.fun.deck.default_deck` by default.
    rules : FunRules, optional
        Rule numbers; the standard ones by default.

    Returns
    -------
    GameState
        The first player's turn, waiting for them to draw.

    Raises
    ------
    ArgumentError
        If ``players`` is not an integer from 2 to 4 (FF-1), ``seed`` not an
        integer, ``deck`` or ``rules`` of the wrong type, or the deck too
        small to deal; the message names the parameter.

    Examples
    --------
    >>> s = new_game(3, seed=7)
    >>> [p.money for p in s.players], [len(p.hand) for p in s.players]
    ([20, 20, 20], [5, 5, 5])
    >>> s.phase, s.to_act == s.first_player
    ('draw', True)
    >>> new_game("3")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: players must be an integer from 2 to 4 (FF-1: Formula Fun is for 2-4 players), got '3'
    """
    check_players(players)
    check_seed(seed)
    if deck is not None and not isinstance(deck, Deck):
        raise ArgumentError(
            "deck", f"deck must be a Deck (see load_deck) or None, got {quoted(deck)}"
        )
    if rules is not None and not isinstance(rules, FunRules):
        raise ArgumentError("rules", f"rules must be a FunRules or None, got {quoted(rules)}")
    deck = deck if deck is not None else default_deck()
    rules = rules if rules is not None else FunRules()
    if len(deck) < players * rules.start_cards:
        raise ArgumentError(
            "deck",
            f"deck has {len(deck)} cards, too few to deal {rules.start_cards} to each of "
            f"{players} players (FF-1)",
        )
    rng = random.Random(_seed_text(seed, 0))
    pile = list(range(len(deck)))
    rng.shuffle(pile)
    hands = []
    for _ in range(players):
        hands.append(tuple(pile[-rules.start_cards :][::-1]))
        del pile[-rules.start_cards :]
    first = rng.randrange(players)
    return GameState(
        deck=deck,
        seed=seed,
        chance=1,
        rules=rules,
        players=tuple(PlayerState(money=rules.start_money, hand=h) for h in hands),
        draw_pile=tuple(pile),
        discard=(),
        market=(),
        first_player=first,
        turn=first,
        turn_number=1,
        phase="draw",
        length=rules.races,
    )


def _seed_text(seed: int, draw: int) -> str:
    return f"fdlab.fun:{seed}:{draw}"


# --------------------------------------------------------------------------- working copy


class _Player:
    __slots__ = ("money", "hand", "drivers", "engine", "chassis", "sponsors", "points")

    def __init__(self, p: PlayerState) -> None:
        self.money = p.money
        self.hand = list(p.hand)
        self.drivers = list(p.drivers)
        self.engine = p.engine
        self.chassis = p.chassis
        self.sponsors = list(p.sponsors)
        self.points = p.points

    def freeze(self) -> PlayerState:
        return PlayerState(
            money=self.money,
            hand=tuple(self.hand),
            drivers=tuple(self.drivers),
            engine=self.engine,
            chassis=self.chassis,
            sponsors=tuple(self.sponsors),
            points=self.points,
        )

    def in_play(self) -> list[int]:
        parts = [c for c in (self.engine, self.chassis) if c is not None]
        return [*self.drivers, *parts, *self.sponsors]

    @property
    def complete(self) -> bool:
        return self.engine is not None and self.chassis is not None and bool(self.drivers)


class _Players:
    """The players of a step, copied to mutable form only when touched."""

    __slots__ = ("_frozen", "_live")

    def __init__(self, frozen: tuple[PlayerState, ...]) -> None:
        self._frozen = frozen
        self._live: list[_Player | None] = [None] * len(frozen)

    def __getitem__(self, index: int) -> _Player:
        live = self._live[index]
        if live is None:
            live = self._live[index] = _Player(self._frozen[index])
        return live

    def __len__(self) -> int:
        return len(self._frozen)

    def __iter__(self) -> Iterator[_Player]:
        return (self[i] for i in range(len(self._frozen)))

    def freeze(self) -> tuple[PlayerState, ...]:
        return tuple(
            f if live is None else live.freeze()
            for f, live in zip(self._frozen, self._live, strict=True)
        )


class _Work:
    """A mutable copy of the state used inside one step, then frozen."""

    def __init__(self, s: GameState) -> None:
        self.s = s
        self.deck = s.deck
        self.rules = s.rules
        self.players = _Players(s.players)
        self.draw_pile = list(s.draw_pile)
        self.discard = list(s.discard)
        self.market = list(s.market)
        self.chance = s.chance
        self.turn = s.turn
        self.turn_number = s.turn_number
        self.phase = s.phase
        self.sponsor_played = s.sponsor_played
        self.circuit_played = s.circuit_played
        self.auction = s.auction
        self.pending_driver = s.pending_driver
        self.length = s.length
        self.races = list(s.races)
        self.ended = s.ended
        self.events: list[FunEvent] = []

    def freeze(self) -> GameState:
        return GameState(
            deck=self.deck,
            seed=self.s.seed,
            chance=self.chance,
            rules=self.rules,
            players=self.players.freeze(),
            draw_pile=tuple(self.draw_pile),
            discard=tuple(self.discard),
            market=tuple(self.market),
            first_player=self.s.first_player,
            turn=self.turn,
            turn_number=self.turn_number,
            phase=self.phase,
            sponsor_played=self.sponsor_played,
            circuit_played=self.circuit_played,
            auction=self.auction,
            pending_driver=self.pending_driver,
            length=self.length,
            races=tuple(self.races),
            ended=self.ended,
        )

    # --- helpers
    def rng(self) -> random.Random:
        rng = random.Random(_seed_text(self.s.seed, self.chance))
        self.chance += 1
        return rng

    def log(
        self,
        kind: str,
        text: str,
        player: int | None = None,
        *,
        amount: int = 0,
        card: int | None = None,
    ) -> None:
        self.events.append(FunEvent.said(kind, text, player, amount=amount, card=card))

    def gain(self, who: int, amount: int, why: str) -> None:
        """The bank pays ``who``."""
        if amount <= 0:
            return
        self.players[who].money += amount
        self.log("money", f"the bank pays {mention(who)} {amount} M$ ({why})", who, amount=amount)

    def pay(self, who: int, amount: int, why: str) -> None:
        """``who`` pays the bank; callers make sure they can, and a payment beyond the
        player's money is refused (FF-16: no loans), so money is never negative."""
        if amount <= 0:
            return
        money = self.players[who].money
        if money < amount:
            raise PaymentError(
                "FF-16",
                f"{mention(who)} cannot pay {amount} M$ ({why}) with {money} M$: money only "
                "moves between a player and the bank, there are no loans",
            )
        self.players[who].money -= amount
        self.log("money", f"{mention(who)} pays the bank {amount} M$ ({why})", who, amount=-amount)

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]

    def to_market(self, card_id: int, facing: int) -> None:
        self.market.append((card_id, facing))

    def from_market(self, card_id: int) -> None:
        self.market = [m for m in self.market if m[0] != card_id]

    def draw_cards(self, who: int, count: int) -> None:
        """Draw for ``who``, reshuffling the discard pile when the deck runs out (FF-13)."""
        got = 0
        for _ in range(count):
            if not self.draw_pile:
                if not self.discard:
                    self.log("draw", "the deck and the discard pile are empty", who)
                    break
                pile = list(self.discard)
                self.rng().shuffle(pile)
                self.draw_pile = pile
                self.discard = []
                self.log("reshuffle", "the discard pile is shuffled into a new deck (FF-13)")
            self.players[who].hand.append(self.draw_pile.pop())
            got += 1
        if got:
            self.log("draw", f"{mention(who)} draws {got} card{'s' if got != 1 else ''}", who)
        self.check_circuit_hand(who)

    def check_circuit_hand(self, who: int) -> None:
        """FF-13: a player holding six circuit cards shows and discards them, then draws five."""
        hand = self.players[who].hand
        circuits = [c for c in hand if self.card(c).kind == "circuit"]
        if len(circuits) < self.rules.circuit_hand:
            return
        self.players[who].hand = [c for c in hand if self.card(c).kind != "circuit"]
        self.discard.extend(circuits)
        self.log(
            "six_circuits",
            f"{mention(who)} shows {len(circuits)} circuit cards, discards them "
            f"and draws {self.rules.circuit_hand_redraw} (FF-13)",
            who,
        )
        self.draw_cards(who, self.rules.circuit_hand_redraw)

    def race_possible(self) -> bool:
        return any(p.complete for p in self.players)

    def owner_in_play(self, card_id: int) -> int | None:
        for index, p in enumerate(self.players):
            if card_id in p.in_play():
                return index
        return None

    def remove_in_play(self, owner: int, card_id: int) -> None:
        p = self.players[owner]
        if p.engine == card_id:
            p.engine = None
        elif p.chassis == card_id:
            p.chassis = None
        elif card_id in p.drivers:
            p.drivers.remove(card_id)
        else:
            p.sponsors.remove(card_id)


# --------------------------------------------------------------------------- step


def step(state: GameState, action: Action) -> tuple[GameState, tuple[FunEvent, ...]]:
    """Apply one action; return the new state and the events it caused.

    Parameters
    ----------
    state : GameState
        The current state (not modified).
    action : Action
        The decision of :attr:`GameState.to_act`.

    Returns
    -------
    state : GameState
        The state after the action.
    events : tuple of FunEvent
        What happened, in order.

    Raises
    ------
    IllegalActionError
        A subclass naming the rules clause the action breaks, also for a field
        that is not a value the rules speak of (``Bid(2.5)``, ``Draw("2")``).
    ArgumentError
        If ``action`` is not a Formula Fun action.

    Examples
    --------
    >>> from fdlab.fun.actions import Draw, EndTurn
    >>> s = new_game(2, seed=1)
    >>> s, events = step(s, Draw(2))
    >>> s.players[s.turn].money, len(s.players[s.turn].hand)
    (19, 7)
    >>> step(s, EndTurn())
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.HandLimitError: FF-13: end the turn with at most 5 cards in hand; you hold 7: put drivers, engines or chassis on the market, play or discard the rest
    >>> step(s, Bid(2.5))
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.AuctionError: FF-4: a bid is a whole number of M$ (at most 1,000,000,000), not 2.5
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise ArgumentError(
            "action",
            "action must be a Formula Fun action such as Bid(6) (fdlab.fun.actions), "
            f"got {quoted(action)}",
        )
    if state.phase == "over":
        raise GameOverError("FF-15", "the championship is over; no more actions")
    w = _Work(state)
    _check_fields(w, action)
    handler(w, action)
    return w.freeze(), tuple(w.events)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The clause and the words for the card field of each action with a single card.
_CARD_FIELD: dict[type, tuple[str, str]] = {
    PutOnMarket: ("FF-3", "the card to put on the market"),
    ReturnDriver: ("FF-5", "the driver to return"),
    PlaySponsor: ("FF-8", "the sponsor to sign"),
    PlayCircuit: ("FF-10", "the circuit card to play"),
    Discard: ("FF-13", "the card to discard"),
}


def _check_fields(w: _Work, action: Action) -> None:
    """Refuse an action whose fields are not what the rules speak of, before any rule reads
    them: card numbers of the deck, a whole number of cards to draw (FF-2), whole numbers of
    M$ up to :data:`MAX_PRICE` (FF-4). Ranges that depend on the state (the hand, the money,
    the highest bid) are the rules' checks, made by the handlers."""
    if isinstance(action, Draw):
        if not _is_int(action.count):
            raise DrawError(
                "FF-2",
                f"draw 1 to {len(w.rules.draw_costs)} cards; the number of cards is a whole "
                f"number, not {quoted(action.count)}",
            )
    elif isinstance(action, StartAuction):
        _card_field(w, action.card, "FF-4", "the card to auction")
        _price_field(action.price, "the opening price")
    elif isinstance(action, Bid):
        _price_field(action.amount, "a bid")
    elif isinstance(action, PlaySpecial):
        _card_field(w, action.card, "FF-9", "the special card to play")
        if action.target is not None:
            _card_field(w, action.target, "FF-9", "the target of a special card")
        if action.with_card is not None:
            _card_field(w, action.with_card, "FF-8", "the sponsor that replaces it")
    elif isinstance(action, PutOnMarket | ReturnDriver | PlaySponsor | PlayCircuit | Discard):
        clause, what = _CARD_FIELD[type(action)]
        _card_field(w, action.card, clause, what)


def _card_field(w: _Work, value: object, clause: str, what: str) -> None:
    if not _is_int(value):
        raise CardNotAvailableError(
            clause,
            f"{what} is given by its card number (0 to {len(w.deck) - 1} in this deck), "
            f"not {quoted(value)}",
        )


def _price_field(value: object, what: str) -> None:
    if not (isinstance(value, int) and not isinstance(value, bool) and value <= MAX_PRICE):
        raise AuctionError(
            "FF-4", f"{what} is a whole number of M$ (at most {MAX_PRICE:,}), not {quoted(value)}"
        )


def _need_phase(w: _Work, action: Action) -> None:
    """Raise PhaseError if the action does not fit the phase.

    A running auction is set exactly in the ``auction`` phase and a pending driver
    exactly in the ``return_driver`` phase (:class:`GameState` refuses anything else),
    so their presence tells the phase."""
    phase = w.phase
    if isinstance(action, Draw):
        if phase != "draw":
            raise PhaseError("FF-2", "draw only once, at the start of your turn")
        return
    if phase == "draw":
        raise PhaseError("FF-2", "start your turn by drawing 1, 2 or 3 cards")
    if isinstance(action, Bid | Pass):
        _running_auction(w)
        return
    if w.auction is not None:
        raise PhaseError(
            "FF-4",
            f"an auction is running: {mention(w.auction.to_act)} must bid more than "
            f"{w.auction.high_bid} M$ or pass",
        )
    if isinstance(action, ReturnDriver):
        _pending_driver(w)
        return
    if w.pending_driver is not None:
        raise PhaseError(
            "FF-5",
            f"{mention(w.pending_driver[0])} bought a third driver and must first choose "
            "which of the two drivers in that team returns to the market",
        )


def _running_auction(w: _Work) -> Auction:
    """The running auction (FF-4); PhaseError if none is."""
    if w.auction is None:
        raise PhaseError("FF-4", "no auction is running: bids and passes wait for one")
    return w.auction


def _pending_driver(w: _Work) -> tuple[int, int]:
    """``(player, bought driver)`` waiting for a driver to return (FF-5); PhaseError if
    no such choice is waiting."""
    if w.pending_driver is None:
        raise PhaseError("FF-5", "no purchase of a third driver is waiting for a choice")
    return w.pending_driver


def _named(w: _Work, card: int) -> str:
    """A card as the table shows it (``#12 Prince Kasimir (driver 1)``), for messages."""
    if 0 <= card < len(w.deck):
        return f"#{card} {w.card(card).label}"
    return f"#{quoted(card)} (no such card in this deck)"


def _listed(w: _Work, cards: Sequence[int]) -> str:
    """Card labels as a list in words: ``V8 (engine 4) and Nico Rami (driver 2)``."""
    labels = [w.card(c).label for c in cards]
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _hand_card(w: _Work, card: int, clause: str, verb: str) -> Card:
    """The card ``card`` from the hand of the player on turn; ``verb`` names the use
    (``"play it"``) in the error raised when it is not there."""
    if card not in w.players[w.turn].hand:
        raise CardNotAvailableError(
            clause, f"{_named(w, card)} is not in your hand, so you cannot {verb}"
        )
    return w.card(card)


def _do_draw(w: _Work, a: Draw) -> None:
    _need_phase(w, a)
    costs = w.rules.draw_costs
    if not 1 <= a.count <= len(costs):
        raise DrawError("FF-2", f"draw 1 to {len(costs)} cards, not {quoted(a.count)}")
    cost = costs[a.count - 1]
    me = w.players[w.turn]
    if me.money < cost:
        raise DrawError(
            "FF-2", f"drawing {a.count} cards costs {cost} M$ and you have {me.money} M$"
        )
    available = len(w.draw_pile) + len(w.discard)
    if a.count > 1 and available < a.count:
        raise DrawError("FF-2", f"only {available} cards are left in the deck and discard pile")
    w.pay(w.turn, cost, f"drawing {a.count} cards")
    w.draw_cards(w.turn, a.count)
    w.phase = "play"


def _do_market(w: _Work, a: PutOnMarket) -> None:
    _need_phase(w, a)
    card = _hand_card(w, a.card, "FF-3", "put it on the market")
    if not card.is_part:
        raise MarketError(
            "FF-3",
            f"only drivers, engines and chassis go on the market; {card.label} is a {card.kind}",
        )
    w.players[w.turn].hand.remove(a.card)
    w.to_market(a.card, w.turn)
    w.log("market", f"{mention(w.turn)} puts {card.label} on the market", w.turn, card=a.card)


def _clockwise_with_money(w: _Work, start: int) -> list[int]:
    n = len(w.players)
    order = [(start + k) % n for k in range(n)]
    return [p for p in order if w.players[p].money > 0]


def _next_bidder(w: _Work, auction: Auction, after: int) -> int | None:
    """The next player clockwise after ``after`` still in the auction, skipping the high bidder."""
    n = len(w.players)
    for k in range(1, n + 1):
        p = (after + k) % n
        if p in auction.active and p != auction.high_bidder:
            return p
    return None


def _do_auction(w: _Work, a: StartAuction) -> None:
    _need_phase(w, a)
    if a.card not in (m[0] for m in w.market):
        raise CardNotAvailableError("FF-4", f"{_named(w, a.card)} is not on the market")
    if a.price < 1:
        raise AuctionError(
            "FF-4", f"the starting price must be at least 1 M$, not {quoted(a.price)}"
        )
    me = w.players[w.turn]
    if me.money <= 0:
        raise AuctionError("FF-6", "a player without money takes no part in auctions")
    card = w.card(a.card)
    active = tuple(_clockwise_with_money(w, w.turn))
    w.log(
        "auction",
        f"{mention(w.turn)} auctions {card.label}, opening at {a.price} M$",
        w.turn,
        amount=a.price,
        card=a.card,
    )
    auction = Auction(a.card, a.price, w.turn, active, w.turn)
    nxt = _next_bidder(w, auction, w.turn)
    if nxt is None:
        _settle(w, auction)
    else:
        w.auction = Auction(a.card, a.price, w.turn, active, nxt)
        w.phase = "auction"


def _do_bid(w: _Work, a: Bid) -> None:
    _need_phase(w, a)
    auction = _running_auction(w)
    if a.amount <= auction.high_bid:
        raise AuctionError(
            "FF-4",
            f"a bid must beat the highest bid of {auction.high_bid} M$, not {quoted(a.amount)} M$",
        )
    bidder = auction.to_act
    w.log("bid", f"{mention(bidder)} bids {a.amount} M$", bidder, amount=a.amount)
    raised = Auction(auction.card, a.amount, bidder, auction.active, bidder)
    nxt = _next_bidder(w, raised, bidder)
    if nxt is None:
        _settle(w, raised)
    else:
        w.auction = Auction(auction.card, a.amount, bidder, auction.active, nxt)


def _do_pass(w: _Work, a: Pass) -> None:
    _need_phase(w, a)
    auction = _running_auction(w)
    who = auction.to_act
    w.log("pass", f"{mention(who)} passes", who)
    active = tuple(p for p in auction.active if p != who)
    left = Auction(auction.card, auction.high_bid, auction.high_bidder, active, who)
    nxt = _next_bidder(w, left, who)
    if nxt is None:
        _settle(w, left)
    else:
        w.auction = Auction(auction.card, auction.high_bid, auction.high_bidder, active, nxt)


def _settle(w: _Work, auction: Auction) -> None:
    """Everyone else passed: sell the card, or apply FF-6 if the winner cannot pay."""
    card = w.card(auction.card)
    w.auction = None
    w.phase = "play"
    winner, price = auction.high_bidder, auction.high_bid
    if winner is None:
        w.log("no_sale", f"nobody bids for {card.label}; it stays on the market", card=card.id)
        return
    buyer = w.players[winner]
    if buyer.money >= price:
        w.pay(winner, price, f"buying {card.label}")
        w.log(
            "sale",
            f"{mention(winner)} buys {card.label} for {price} M$",
            winner,
            amount=price,
            card=card.id,
        )
        _install(w, winner, card)
        return
    fine = min((price + 1) // 2, buyer.money)
    w.log(
        "failed_payment",
        f"{mention(winner)} cannot pay {price} M$: the sale is cancelled and "
        f"{mention(winner)} pays {fine} M$ (FF-6)",
        winner,
        amount=fine,
        card=card.id,
    )
    w.pay(winner, fine, "failed payment")
    active = tuple(_clockwise_with_money(w, w.turn))
    if not active:
        w.log("no_sale", f"nobody has money left; {card.label} stays on the market", card=card.id)
        return
    w.log(
        "auction",
        f"the auction of {card.label} restarts without an opening bid (FF-6)",
        card=card.id,
    )
    w.auction = Auction(card.id, 0, None, active, active[0])
    w.phase = "auction"


def _install(w: _Work, owner: int, card: Card) -> None:
    """Put a bought card in its owner's team (FF-5)."""
    p = w.players[owner]
    if card.kind == "driver" and len(p.drivers) >= w.rules.max_drivers:
        w.pending_driver = (owner, card.id)
        w.phase = "return_driver"
        return
    w.from_market(card.id)
    if card.kind == "driver":
        p.drivers.append(card.id)
        return
    old = p.engine if card.kind == "engine" else p.chassis
    if card.kind == "engine":
        p.engine = card.id
    else:
        p.chassis = card.id
    if old is not None:
        w.to_market(old, owner)
        w.log(
            "return",
            f"{mention(owner)}'s old {w.card(old).label} returns to the market (FF-5)",
            owner,
            card=old,
        )


def _do_return(w: _Work, a: ReturnDriver) -> None:
    _need_phase(w, a)
    owner, new = _pending_driver(w)
    p = w.players[owner]
    if a.card not in p.drivers:
        names = ", ".join(f"{d} ({w.card(d).label})" for d in p.drivers)
        raise AuctionError("FF-5", f"return one of your two drivers in play: {names}")
    p.drivers.remove(a.card)
    w.to_market(a.card, owner)
    w.from_market(new)
    p.drivers.append(new)
    w.pending_driver = None
    w.phase = "play"
    w.log(
        "return",
        f"{mention(owner)} returns {w.card(a.card).label} to the market (FF-5)",
        owner,
        card=a.card,
    )


def _do_sponsor(w: _Work, a: PlaySponsor) -> None:
    _need_phase(w, a)
    card = _hand_card(w, a.card, "FF-8", "play it")
    if card.kind != "sponsor":
        raise SponsorError("FF-8", f"{card.label} is not a sponsor")
    if w.sponsor_played:
        raise SponsorError("FF-8", "one sponsor may be played per turn")
    me = w.players[w.turn]
    if len(me.sponsors) >= w.rules.max_sponsors:
        raise SponsorError(
            "FF-8",
            f"at most {w.rules.max_sponsors} sponsors per player; a sponsor in play is only "
            "replaced through a special card",
        )
    me.hand.remove(a.card)
    me.sponsors.append(a.card)
    w.sponsor_played = True
    w.log("sponsor", f"{mention(w.turn)} signs {card.label}", w.turn, card=a.card)
    w.gain(w.turn, card.income, f"{card.name} signs")


def _special_targets(w: _Work, card: Card, a: PlaySpecial) -> None:
    """Check a special card's target fields (FF-9); raise SpecialCardError if wrong."""
    targeted = [e for e in card.effects if e.needs_target]
    if not targeted:
        if a.target is not None or a.with_card is not None:
            raise SpecialCardError("FF-9", f"{card.name} takes no target")
    else:
        effect = targeted[0]
        if a.target is None:
            raise SpecialCardError("FF-9", f"{card.name} needs a target: {effect.text}")
        if effect.op == "discard_in_play":
            if a.with_card is not None:
                raise SpecialCardError("FF-9", f"{card.name} takes a single target")
            _check_discard_target(w, card, effect, a.target)
        else:
            _check_replace_sponsor(w, a, a.target)
    for effect in card.effects:
        if effect.op == "extend" and w.length >= w.rules.max_races:
            raise SpecialCardError(
                "FF-15", f"the championship already has {w.length} races, the most allowed"
            )


def _check_discard_target(w: _Work, special: Card, effect: Effect, target: int) -> None:
    owner = w.owner_in_play(target)
    if owner is None:
        raise SpecialCardError("FF-9", f"{_named(w, target)} is not in play")
    kind = w.card(target).kind
    if kind not in effect.kinds:
        wanted = " or ".join(_a(k) for k in effect.kinds)
        raise SpecialCardError("FF-9", f"{special.name} removes {wanted} in play, not {_a(kind)}")
    if effect.whose == "others" and owner == w.turn:
        raise SpecialCardError(
            "FF-9", f"{special.name} removes a rival's card, not your own {w.card(target).label}"
        )
    if effect.whose == "own" and owner != w.turn:
        raise SpecialCardError(
            "FF-9",
            f"{special.name} removes one of your own cards, not "
            f"{mention(owner)}'s {w.card(target).label}",
        )


def _check_replace_sponsor(w: _Work, a: PlaySpecial, target: int) -> None:
    me = w.players[w.turn]
    if target not in me.sponsors:
        raise SpecialCardError("FF-8", f"{_named(w, target)} is not one of your sponsors in play")
    if a.with_card is None or a.with_card not in me.hand or a.with_card == a.card:
        raise SpecialCardError("FF-8", "name the sponsor in your hand that replaces it")
    if w.card(a.with_card).kind != "sponsor":
        raise SpecialCardError("FF-8", f"{w.card(a.with_card).label} is not a sponsor")


def _do_special(w: _Work, a: PlaySpecial) -> None:
    _need_phase(w, a)
    card = _hand_card(w, a.card, "FF-9", "play it")
    if card.kind != "special":
        raise SpecialCardError("FF-9", f"{card.label} is not a special card")
    _special_targets(w, card, a)
    me = w.turn
    w.players[me].hand.remove(a.card)
    w.log("special", f"{mention(me)} plays {card.name}: {card.text}", me, card=a.card)
    for effect in card.effects:
        _apply_effect(w, effect, a)
    w.discard.append(a.card)


def _take(w: _Work, who: int, amount: int, why: str) -> None:
    """``who`` pays the bank ``amount``, or all they have if less."""
    w.pay(who, min(amount, w.players[who].money), why)


def _apply_effect(w: _Work, effect: Effect, a: PlaySpecial) -> None:
    me = w.turn
    if effect.op == "discard_in_play":
        # _special_targets checked the target: in play, of a kind and an owner the card names
        owner = None if a.target is None else w.owner_in_play(a.target)
        if a.target is None or owner is None:
            raise SpecialCardError("FF-9", "the target of a special card must be a card in play")
        w.remove_in_play(owner, a.target)
        w.discard.append(a.target)
        w.log(
            "discard_in_play",
            f"{mention(owner)}'s {w.card(a.target).label} is discarded",
            owner,
            card=a.target,
        )
    elif effect.op == "replace_sponsor":
        if a.target is None or a.with_card is None:  # _check_replace_sponsor refused it
            raise SpecialCardError("FF-8", "name your sponsor in play and the one replacing it")
        player = w.players[me]
        player.sponsors.remove(a.target)
        w.discard.append(a.target)
        player.hand.remove(a.with_card)
        player.sponsors.append(a.with_card)
        new = w.card(a.with_card)
        w.log(
            "sponsor",
            f"{mention(me)} replaces {w.card(a.target).label} with {new.label}",
            me,
            card=a.with_card,
        )
        w.gain(me, new.income, f"{new.name} signs")
    elif effect.op == "money":
        n = len(w.players)
        who = {"self": [me], "others": [p for p in range(n) if p != me], "all": list(range(n))}
        for p in who[effect.who]:
            if effect.amount > 0:
                w.gain(p, effect.amount, "special card")
            else:
                _take(w, p, -effect.amount, "special card")
    elif effect.op == "draw":
        w.draw_cards(me, effect.count)
    elif effect.op == "extend":
        w.length = min(w.length + effect.count, w.rules.max_races)
        w.log("extend", f"the championship now lasts {w.length} races (FF-15)")
    elif effect.op == "clear_market":
        gone = [c for c, _ in w.market]
        w.discard.extend(gone)
        w.market = []
        if gone:
            w.log("market_cleanup", f"the market is cleared: {_listed(w, gone)} discarded")
        else:
            w.log("market_cleanup", "the market was empty: nothing is discarded")


def _do_circuit(w: _Work, a: PlayCircuit) -> None:
    _need_phase(w, a)
    card = _hand_card(w, a.card, "FF-10", "play it")
    if card.kind != "circuit":
        raise CircuitCardError("FF-10", f"{card.label} is not a circuit card")
    if w.circuit_played:
        raise CircuitCardError("FF-10", "at most one circuit card may be played per turn")
    if not w.race_possible():
        raise CircuitCardError(
            "FF-10", "no team has an engine, a chassis and a driver in play, so no race can be run"
        )
    me = w.turn
    w.players[me].hand.remove(a.card)
    w.circuit_played = True
    _run_race(w, card, me)
    w.discard.append(a.card)
    if len(w.races) >= w.length:
        w.phase = "over"
        w.ended = "races"
        _log_end(w)


def _run_race(w: _Work, circuit: Card, by: int) -> None:
    """FF-10 .. FF-12, then sponsor income (FF-8) and driver clauses (FF-7); ``by`` played
    the circuit card."""
    frozen = [p.freeze() for p in w.players]
    cars = entrants(w.deck, frozen, circuit.id)
    number = len(w.races) + 1
    hand_sizes = [len(p.hand) for p in w.players]
    results, _ = classify(cars, hand_sizes, w.rng())
    w.log(
        "race",
        f"race {number} of {w.length}: {mention(by)} plays {circuit.name} ({circuit.text}), "
        f"{len(results)} car{'s' if len(results) != 1 else ''}",
        by,
        card=circuit.id,
    )
    for group in ties(results):
        _log_tie(w, group, hand_sizes)
    for pos, r in enumerate(results, start=1):
        w.players[r.player].points += r.points
        w.log(
            "car",
            f"{pos}. {mention(r.player)} with {w.card(r.driver).name}: "
            f"value {r.value}, {r.points} point{'s' if r.points != 1 else ''}",
            r.player,
            amount=r.points,
            card=r.driver,
        )
    w.races.append(FunRaceResult(number, circuit.id, results))
    for index, p in enumerate(w.players):
        for sponsor in p.sponsors:
            w.gain(index, w.card(sponsor).income, f"{w.card(sponsor).name} after the race")
    winner = results[0]
    for index, p in enumerate(w.players):
        for driver in list(p.drivers):
            for clause in w.card(driver).clauses:
                if clause.on == "win" and not (winner.player == index and winner.driver == driver):
                    continue
                name = w.card(driver).name
                when = "a race won" if clause.on == "win" else "every race"
                if clause.money > 0:
                    w.gain(index, clause.money, f"{name}'s clause, {when}")
                elif p.money >= -clause.money:
                    w.pay(index, -clause.money, f"{name}'s clause, {when}")
                else:
                    w.log(
                        "clause",
                        f"{mention(index)} cannot pay {name}'s clause of "
                        f"{-clause.money} M$, so nothing is paid (FF-7)",
                        index,
                        card=driver,
                    )


def _log_tie(w: _Work, group: tuple[CarResult, ...], hand_sizes: list[int]) -> None:
    """Say which cars tied on value and what put them in order (FF-11)."""
    cars = [f"{mention(c.player)}'s {w.card(c.driver).name}" for c in group]
    listed = f"{', '.join(cars[:-1])} and {cars[-1]}"
    hands = [hand_sizes[c.player] for c in group]
    if len(set(hands)) == len(hands):
        order = "; ".join(
            f"{mention(c.player)} holds {h} card{'s' if h != 1 else ''}"
            for c, h in zip(group, hands, strict=True)
        )
        why = f"more cards in hand finish ahead ({order})"
    elif len(set(hands)) == 1:
        why = f"the players hold {hands[0]} cards each, so lots decide the order"
    else:
        why = "more cards in hand finish ahead, lots decide between equal hands"
    w.log(
        "tie" if len(set(hands)) == len(hands) else "lots",
        f"{listed} tie on value {group[0].value}: {why} (FF-11)",
        group[0].player,
        amount=group[0].value,
    )


def _log_end(w: _Work) -> None:
    best = max(p.points for p in w.players)
    top = [mention(i) for i, p in enumerate(w.players) if p.points == best]
    reason = "after the last race" if w.ended == "races" else f"after {w.rules.max_turns} turns"
    if len(top) == 1:
        result = f"{top[0]} wins with {best} points"
    else:
        result = f"{', '.join(top[:-1])} and {top[-1]} share the title with {best} points each"
    w.log("game_over", f"championship over {reason}: {result}")


def _do_discard(w: _Work, a: Discard) -> None:
    _need_phase(w, a)
    card = _hand_card(w, a.card, "FF-13", "discard it")
    me = w.players[w.turn]
    if len(me.hand) <= w.rules.hand_limit:
        raise DiscardError(
            "FF-13", f"only cards over the hand limit of {w.rules.hand_limit} may be discarded"
        )
    if card.is_part:
        raise DiscardError(
            "FF-13",
            "drivers, engines and chassis may not be discarded: put them on the market "
            "or keep them",
        )
    if card.kind == "circuit" and w.race_possible():
        raise DiscardError("FF-13", "a circuit card may not be discarded while a team could race")
    me.hand.remove(a.card)
    w.discard.append(a.card)
    w.log("discard", f"{mention(w.turn)} discards {card.label}", w.turn, card=a.card)


def _do_end(w: _Work, a: EndTurn) -> None:
    _need_phase(w, a)
    me = w.players[w.turn]
    if len(me.hand) > w.rules.hand_limit:
        raise HandLimitError(
            "FF-13",
            f"end the turn with at most {w.rules.hand_limit} cards in hand; you hold "
            f"{len(me.hand)}: put drivers, engines or chassis on the market, play or discard "
            "the rest",
        )
    if w.turn_number >= w.rules.max_turns:
        w.phase = "over"
        w.ended = "turn_limit"
        _log_end(w)
        return
    w.turn = (w.turn + 1) % len(w.players)
    w.turn_number += 1
    w.phase = "draw"
    w.sponsor_played = False
    w.circuit_played = False
    w.log("turn", f"turn {w.turn_number}: {mention(w.turn)} to play", w.turn)
    stale = [c for c, facing in w.market if facing == w.turn]
    if stale:
        w.market = [m for m in w.market if m[1] != w.turn]
        w.discard.extend(stale)
        w.log(
            "market_cleanup",
            f"{mention(w.turn)} discards the unsold market "
            f"card{'s' if len(stale) != 1 else ''} facing them: {_listed(w, stale)} (FF-14)",
            w.turn,
        )


#: The handler of each action type; a handler takes the action of the type it is filed under.
_HANDLERS: dict[type, Callable[[_Work, Any], None]] = {
    Draw: _do_draw,
    PutOnMarket: _do_market,
    StartAuction: _do_auction,
    Bid: _do_bid,
    Pass: _do_pass,
    ReturnDriver: _do_return,
    PlaySponsor: _do_sponsor,
    PlaySpecial: _do_special,
    PlayCircuit: _do_circuit,
    Discard: _do_discard,
    EndTurn: _do_end,
}


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: GameState) -> list[Action]:  # noqa: C901 (one branch per phase of a turn, as rules.md lists them)
    """List the legal actions of the player whose decision is awaited.

    Bids and opening prices are listed from the lowest legal amount up to one
    more than the bidder's money (and at most :data:`MAX_PRICE`): higher
    amounts are legal too (:func:`step` accepts them) but, like ``money + 1``,
    cannot be paid and end in a failed payment (FF-6), so listing them would
    only lengthen the list.

    Parameters
    ----------
    state : GameState

    Returns
    -------
    list of Action
        Empty when the game is over.

    Examples
    --------
    >>> s = new_game(2, seed=1)
    >>> legal_actions(s)
    [Draw(count=1), Draw(count=2), Draw(count=3)]
    """
    phase = state.phase
    if phase == "over":
        return []
    deck = state.deck
    if phase == "draw":
        me = state.players[state.turn]
        available = len(state.draw_pile) + len(state.discard)
        return [
            Draw(n)
            for n, cost in enumerate(state.rules.draw_costs, start=1)
            if me.money >= cost and (n == 1 or available >= n)
        ]
    auction = state.auction
    if auction is not None:  # set exactly in the auction phase (GameState checks it)
        money = state.players[auction.to_act].money
        top = min(max(auction.high_bid + 1, money + 1), MAX_PRICE)
        return [Pass(), *(Bid(v) for v in range(auction.high_bid + 1, top + 1))]
    if state.pending_driver is not None:  # exactly in the return_driver phase
        owner = state.pending_driver[0]
        return [ReturnDriver(d) for d in state.players[owner].drivers]
    me = state.players[state.turn]
    out: list[Action] = []
    race_possible = state.race_possible
    for card_id in me.hand:
        card = deck[card_id]
        if card.is_part:
            out.append(PutOnMarket(card_id))
        elif card.kind == "sponsor":
            if not state.sponsor_played and len(me.sponsors) < state.rules.max_sponsors:
                out.append(PlaySponsor(card_id))
        elif card.kind == "circuit":
            if not state.circuit_played and race_possible:
                out.append(PlayCircuit(card_id))
        else:
            out.extend(_special_actions(state, card))
    if me.money > 0:
        for card_id, _ in state.market:
            top = min(me.money + 1, MAX_PRICE)
            out.extend(StartAuction(card_id, price) for price in range(1, top + 1))
    if len(me.hand) > state.rules.hand_limit:
        for card_id in me.hand:
            card = deck[card_id]
            if card.is_part or (card.kind == "circuit" and race_possible):
                continue
            out.append(Discard(card_id))
    else:
        out.append(EndTurn())
    return out


def _special_actions(state: GameState, card: Card) -> list[PlaySpecial]:
    if any(e.op == "extend" for e in card.effects) and state.length >= state.rules.max_races:
        return []
    targeted = [e for e in card.effects if e.needs_target]
    if not targeted:
        return [PlaySpecial(card.id)]
    effect = targeted[0]
    me = state.turn
    if effect.op == "replace_sponsor":
        player = state.players[me]
        hand_sponsors = [c for c in player.hand if state.deck[c].kind == "sponsor"]
        return [PlaySpecial(card.id, s, h) for s in player.sponsors for h in hand_sponsors]
    out = []
    for owner, player in enumerate(state.players):
        if (effect.whose == "others" and owner == me) or (effect.whose == "own" and owner != me):
            continue
        for target in player.in_play:
            if state.deck[target].kind in effect.kinds:
                out.append(PlaySpecial(card.id, target))
    return out


def replay(
    seed: int,
    players: int,
    actions: Sequence[Action],
    deck: Deck | None = None,
    rules: FunRules | None = None,
) -> GameState:
    """Replay a championship from its seed and actions.

    Parameters
    ----------
    seed, players, deck, rules
        As for :func:`new_game`.
    actions : sequence of Action
        The actions, in order.

    Returns
    -------
    GameState

    Raises
    ------
    ArgumentError
        If a parameter has a value it cannot take (``actions`` a string, ...).
    IllegalActionError
        If an action breaks the rules where it is played.

    Examples
    --------
    >>> from fdlab.fun.actions import Draw
    >>> s = replay(5, 2, [Draw(1)])
    >>> s.phase
    'play'
    """
    if isinstance(actions, str | bytes) or not isinstance(actions, Sequence):
        raise ArgumentError(
            "actions", f"actions must be a list of actions such as Draw(1), got {quoted(actions)}"
        )
    state = new_game(players, seed=seed, deck=deck, rules=rules)
    for action in actions:
        state, _ = step(state, action)
    return state
