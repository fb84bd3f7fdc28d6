"""Plain HTML views of a Formula Fun state (standings, teams, market, hand).

No widget library here: :class:`fdlab.fun.game.Game` uses these for
``_repr_html_`` and :mod:`fdlab.fun.widgets` puts them in ``HTML`` widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from fdlab.fun.cards import Card
from fdlab.fun.deck import Deck
from fdlab.fun.events import FunEvent, player_name
from fdlab.fun.state import GameState

__all__ = [
    "card_html",
    "decision_html",
    "deck_html",
    "describe_action",
    "header_html",
    "log_html",
    "races_html",
    "state_html",
]

_COLOURS = {
    "driver": "#d6eaff",
    "engine": "#ffe3c7",
    "chassis": "#e4e4e4",
    "sponsor": "#dff5d8",
    "special": "#f6d9f2",
    "circuit": "#fff6bf",
}


def card_html(card: Card) -> str:
    """Return a small coloured chip for a card, its rules text as tooltip.

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> "V12" in card_html(default_deck()[25])
    True
    """
    tip = escape(card.text or card.kind)
    return (
        f'<span title="{tip}" style="background:{_COLOURS[card.kind]};border-radius:4px;'
        f'padding:1px 5px;margin:1px;display:inline-block;white-space:nowrap">'
        f"<small>#{card.id}</small> {escape(card.label)}</span>"
    )


def deck_html(deck: Deck) -> str:
    """Return a table of a deck's distinct cards: kind, name, value or income, text, count.

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> html = deck_html(default_deck())
    >>> html.count("<tr>") - 1  # distinct cards (a header row, then one row each)
    49
    """
    rows: dict[tuple[str, str, int | str, str], int] = {}
    for card in deck.cards:
        key = (card.kind, card.name, card.value or card.income or "", card.text)
        rows[key] = rows.get(key, 0) + 1
    body = "".join(
        f'<tr><td><span style="background:{_COLOURS[kind]};padding:0 4px">{kind}</span></td>'
        f"<td>{escape(name)}</td><td>{number}</td><td>{escape(text)}</td><td>{count}</td></tr>"
        for (kind, name, number, text), count in rows.items()
    )
    return (
        f"<div><b>{escape(deck.name)}</b>: {len(deck.cards)} cards<table><tr><th>kind</th>"
        "<th>name</th><th>value / M$</th><th>text</th><th>count</th></tr>"
        f"{body}</table></div>"
    )


def _cards(state: GameState, ids: Sequence[int]) -> str:
    return " ".join(card_html(state.deck[c]) for c in ids) or "<i>none</i>"


def state_html(
    state: GameState,
    names: Sequence[str] | None = None,
    show_hand: int | None = None,
    you: int | None = None,
    *,
    header: bool = True,
) -> str:
    """Return an HTML summary: header, standings with teams, the last race, market, one hand.

    Parameters
    ----------
    state : GameState
    names : sequence of str, optional
        Display names per player.
    show_hand : int, optional
        Player whose hand is shown (others show only a count).
    you : int, optional
        The person looking at the table, addressed in the second person
        ("Your decision", "You win"); ``show_hand`` if not given.
    header : bool
        Start with the :func:`header_html` (turn, races, whose decision it
        is); false for a table that shows the header elsewhere.

    Returns
    -------
    str

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> s = new_game(2, seed=0)
    >>> "Standings" in state_html(s)
    True
    >>> state_html(s).count("Turn 1"), state_html(s, header=False).count("Turn 1")
    (1, 0)
    """
    names = list(names) if names else [player_name(i) for i in range(state.n_players)]
    viewer = you if you is not None else show_hand
    status = f"<p>{header_html(state, names, viewer)}</p>" if header else ""
    rows = []
    order = sorted(range(state.n_players), key=lambda i: -state.players[i].points)
    for i in order:
        p = state.players[i]
        team = [c for c in (p.engine, p.chassis) if c is not None] + list(p.drivers)
        rows.append(
            f"<tr><td>{escape(names[i])}</td><td><b>{p.points}</b></td><td>{p.money} M$</td>"
            f"<td>{_cards(state, team)}</td><td>{_cards(state, p.sponsors)}</td>"
            f"<td>{len(p.hand)}</td></tr>"
        )
    market = " ".join(
        f'<span title="{escape(_facing_tip(names[f], f == you))}">{card_html(state.deck[c])}'
        f"<small>&rarr;{escape(names[f])}</small></span>"
        for c, f in state.market
    )
    if market:
        market += (
            "<br><small>&rarr; name: the player a card faces, who put it on the market "
            "(or gave it back, FF-5). Anyone on turn may auction it; unsold, it is "
            "discarded when that player's next turn starts (FF-14).</small>"
        )
    last_race = ""
    if state.races:
        race = state.races[-1]
        cars = ", ".join(
            f"{pos}. {escape(names[car.player])} with {escape(state.deck[car.driver].name)} "
            f"({car.value}): {car.points} pt{'s' if car.points != 1 else ''}"
            for pos, car in enumerate(race.cars, start=1)
        )
        last_race = (
            f"<p><b>Last race</b> ({race.number} of {state.length}, "
            f"{escape(state.deck[race.circuit].name)}): {cars}</p>"
        )
    hand = ""
    if show_hand is not None:
        whose_hand = "Your" if show_hand == you else f"{escape(names[show_hand])}'s"
        hand = f"<p><b>{whose_hand} hand:</b> {_cards(state, state.players[show_hand].hand)}</p>"
    return (
        f"<div>{status}"
        "<table><thead><tr><th>Standings</th><th>Points</th><th>Money</th><th>Team</th>"
        f"<th>Sponsors</th><th>Hand</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"{last_race}<p><b>Market:</b> {market or '<i>empty</i>'}</p>{hand}</div>"
    )


def _facing_tip(name: str, yours: bool = False) -> str:
    if yours:
        return "faces you: discarded at the start of your next turn if still unsold (FF-14)"
    return f"faces {name}: discarded at the start of {name}'s next turn if still unsold (FF-14)"


def races_html(state: GameState) -> str:
    """Return how many races are run, of how many, and why there are more than the rules say.

    A special card can lengthen the championship (FF-15); the count says so for as long
    as it lasts, not only when it happens.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> s = new_game(2, seed=1)
    >>> races_html(s)
    '0 of 6 races run'
    >>> races_html(s.replace(length=8))
    '0 of 8 races run (6, and 2 added by special cards, FF-15)'
    """
    text = f"{len(state.races)} of {state.length} races run"
    added = state.length - state.rules.races
    if added > 0:
        cards = "a special card" if added == 1 else "special cards"
        text += f" ({state.rules.races}, and {added} added by {cards}, FF-15)"
    return text


def header_html(
    state: GameState, names: Sequence[str] | None = None, you: int | None = None
) -> str:
    """Return the table's header: the turn, the races, and whose decision the game waits for.

    The one place the table says whose decision it is: "Your decision" when it is
    the person's (``you``), "P3 is deciding" when it is someone else's, even during
    an auction on another player's turn.

    Parameters
    ----------
    state : GameState
    names : sequence of str, optional
        Display names per player.
    you : int, optional
        The person looking at the table.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> s = new_game(2, seed=1)
    >>> header_html(s, ["Ada", "Bea"], you=s.turn)
    '<b>Turn 1</b> · 0 of 6 races run<br><b>Your decision</b> (Ada): draw 1 card (free), 2 cards (1 M$) or 3 cards (2 M$).'
    """
    names = list(names) if names else [player_name(i) for i in range(state.n_players)]
    if state.is_over:
        best = max(state.points)
        winners = state.winners()
        won = " and ".join("you" if i == you else names[i] for i in winners)
        won = won[0].upper() + won[1:]
        verb = "share the title" if len(winners) > 1 else "win" if winners[0] == you else "wins"
        return (
            f"Championship over: <b>{escape(won)}</b> {verb} with {best} points"
            f" · {races_html(state)}"
        )
    return (
        f"<b>Turn {state.turn_number}</b> · {races_html(state)}"
        f"<br>{decision_html(state, names, you)}"
    )


def decision_html(
    state: GameState, names: Sequence[str] | None = None, you: int | None = None
) -> str:
    """Return one sentence saying whose decision the game waits for, and what it is.

    Parameters
    ----------
    state : GameState
    names : sequence of str, optional
        Display names per player.
    you : int, optional
        The person looking at the table: their decision reads "Your decision",
        their seat in brackets (their name, unless the table calls them "You").

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> s = new_game(2, seed=1)
    >>> decision_html(s, ["You", "Bea"], you=s.turn)
    '<b>Your decision</b> (P1): draw 1 card (free), 2 cards (1 M$) or 3 cards (2 M$).'
    >>> decision_html(s, ["Ada", "Bea"], you=1 - s.turn)
    '<b>Ada</b> is deciding: draw 1 card (free), 2 cards (1 M$) or 3 cards (2 M$).'
    """
    who = state.to_act
    if who is None:
        return "The championship is over."
    names = list(names) if names else [player_name(i) for i in range(state.n_players)]
    deck = state.deck
    if state.phase == "draw":
        costs = state.rules.draw_costs
        options = [
            f"{n} card{'s' if n != 1 else ''} ({f'{c} M$' if c else 'free'})"
            for n, c in enumerate(costs, start=1)
        ]
        task = f"draw {', '.join(options[:-1])} or {options[-1]}"
    elif state.auction is not None:  # exactly in the auction phase
        a = state.auction
        card = card_html(deck[a.card])
        if a.high_bidder is None:
            task = f"bid for {card} (no bid yet) or pass"
        else:
            high = "you" if a.high_bidder == you else escape(names[a.high_bidder])
            task = f"bid more than {a.high_bid} M$ for {card} (high bid by {high}) or pass"
        if state.turn != who:
            opener = "you" if state.turn == you else escape(names[state.turn])
            task += f"; {opener} opened it"
    elif state.pending_driver is not None:  # exactly in the return_driver phase
        card = card_html(deck[state.pending_driver[1]])
        task = f"choose which driver returns to the market to make room for {card} (FF-5)"
    else:
        task = "play cards from the hand, auction market cards, race, or end the turn"
    if who == you:
        seat = names[who] if names[who] != "You" else player_name(who)
        return f"<b>Your decision</b> ({escape(seat)}): {task}."
    return f"<b>{escape(names[who])}</b> is deciding: {task}."


def log_html(
    events: Sequence[FunEvent],
    last: int = 12,
    names: Sequence[str] | None = None,
    you: int | None = None,
) -> str:
    """Return the last events as an HTML list, players named by ``names`` (seat order).

    Examples
    --------
    >>> from fdlab.fun.events import mention
    >>> log_html([FunEvent.said("turn", f"turn 2: {mention(1)} to play", 1)], names=["Ada", "Bea"])
    '<ul style="margin:0"><li>turn 2: Bea to play</li></ul>'
    """
    items = "".join(f"<li>{escape(e.told(names, you))}</li>" for e in list(events)[-last:])
    return f'<ul style="margin:0">{items}</ul>'


def describe_action(state: GameState, action: object) -> str:
    """Return a plain-English description of an action for menus and logs.

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> from fdlab.fun.actions import Draw, PlaySpecial
    >>> s = new_game(2, seed=0)
    >>> describe_action(s, Draw(2))
    'Draw 2 cards (1 M$)'
    >>> describe_action(s, PlaySpecial(52, 25))
    'Play Engine failure on V12 (engine 6)'
    """
    from fdlab.fun import actions as a

    deck = state.deck
    if isinstance(action, a.Draw):
        cost = state.rules.draw_costs[action.count - 1] if action.count <= 3 else "?"
        plural = "s" if action.count != 1 else ""
        return (
            f"Draw {action.count} card{plural} ({cost} M$)"
            if cost
            else f"Draw {action.count} card{plural} (free)"
        )
    if isinstance(action, a.PutOnMarket):
        return f"Put {deck[action.card].label} on the market"
    if isinstance(action, a.StartAuction):
        return f"Auction {deck[action.card].label} from {action.price} M$"
    if isinstance(action, a.Bid):
        return f"Bid {action.amount} M$"
    if isinstance(action, a.Pass):
        return "Pass"
    if isinstance(action, a.ReturnDriver):
        return f"Return {deck[action.card].label} to the market"
    if isinstance(action, a.PlaySponsor):
        return f"Sign {deck[action.card].label}"
    if isinstance(action, a.PlaySpecial):
        text = f"Play {deck[action.card].name}"
        if action.target is not None:
            text += f" on {deck[action.target].label}"
        if action.with_card is not None:
            text += f" with {deck[action.with_card].label}"
        return text
    if isinstance(action, a.PlayCircuit):
        card = deck[action.card]
        return f"Race at {card.name} ({card.text})"
    if isinstance(action, a.Discard):
        return f"Discard {deck[action.card].label}"
    if isinstance(action, a.EndTurn):
        return "End the turn"
    return str(action)
