"""The Formula Fun table's header and headline (issue 27): one header names whose decision it
is, once; a change of the number of races is explained; what a bot did to the person's cards
is in the headline (the message line at the top), not only in the log."""

import re

import ipywidgets as w
import pytest

from fdlab.fun.actions import Action, Draw, EndTurn, PlaySpecial
from fdlab.fun.bots import SimpleBot
from fdlab.fun.html import state_html
from fdlab.fun.state import GameState
from fdlab.fun.widgets import FunTable


def _texts(widget, skip):
    """The HTML of every HTML widget inside ``widget`` but ``skip``, in order."""
    if widget is skip:
        return []
    if isinstance(widget, w.HTML):
        return [widget.value]
    children = getattr(widget, "children", ())
    return [text for child in children for text in _texts(child, skip)]


def _shown(table):
    """What the table shows of the game, as one text (tags and all): everything but the
    rules text, which explains the header in general words."""
    return "\n".join(_texts(table.widget, table.rules))


class _Saboteur:
    """A bot that plays the special card ``special`` (on ``target``, if given) as soon as it
    may, and otherwise plays as the simple bot."""

    name = "saboteur"

    def __init__(self, special: int, target: int | None = None) -> None:
        self.special, self.target = special, target
        self.fallback = SimpleBot(0)

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        wanted = PlaySpecial(self.special, self.target)
        if wanted in legal:
            return wanted
        if Draw(1) in legal:
            return Draw(1)
        return EndTurn() if EndTurn() in legal else self.fallback.choose(state, legal)


def _table_at(state, bot):
    """A 2-player table at ``state``: the person in seat 0, ``bot`` in seat 1."""
    table = FunTable(players=2, seed=0, human=0, bots={1: bot})
    game = table.controller.game
    game.history, game.actions, game.event_batches = [state], [], []
    table.refresh()
    table.announce()
    return table


def _end_turn(table):
    """Click *Play* on "End the turn"; the bot plays its turn, then the person decides."""
    table.choices.value = next(i for i, (_, k) in enumerate(table._entries) if k == EndTurn())
    table.play_button.click()
    assert table.messages.last_error is None, table.messages.last_error
    assert table.controller.game.state.to_act == 0


def test_the_header_names_the_decider_exactly_once():
    """While a bot's auction waits for the person's bid, the table says once that it is the
    person's decision and whose auction it is; it no longer says "P2's turn" above "Your
    decision", nor the decision twice."""
    table = FunTable(players=4, seed=3, human=0)
    c = table.controller
    for choice in ("Draw 1 card (free)", "Discard Caffè Turbo (sponsor 2 M$)", "End the turn"):
        c.act(dict(c.menu())[choice], amount=None)
    table.refresh()
    state = c.game.state
    assert state.phase == "auction" and state.turn == 1 and state.to_act == 0
    shown = _shown(table)
    assert shown.count("decision") == 1 and shown.count("Your decision") == 1
    assert "is deciding" not in shown and "'s turn" not in shown and "Your move" not in shown
    header = table.header.value
    assert header.startswith("<b>Turn 2</b> · 0 of 6 races run<br><b>Your decision</b> (P1): bid")
    assert header.endswith("P2 (manager bot) opened it.")
    assert table.widget.children[0] is table.header  # the header is the top of the table


def test_the_header_names_a_bot_deciding(arrange):
    """Seen by someone else (or in a saved game's view), the header names the player deciding,
    once, and not "Your"."""
    s = arrange(3, turn=2, phase="draw")
    view = state_html(s, ["Ada", "Bea", "Cy"], show_hand=0)
    assert view.count("is deciding") == 1 and "<b>Cy</b> is deciding: draw" in view
    assert "Your decision" not in view and "decision" not in view


def test_a_race_added_by_a_card_is_explained(arrange, cid):
    """FF-15: when a bot plays Extended season the season grows from 6 to 7 races; the
    headline says which card did it and the header keeps saying why there are 7."""
    season = cid("Extended season")
    s = arrange(2, turn=0, hands={1: (season,)})
    table = _table_at(s, _Saboteur(season))
    assert "0 of 6 races run" in table.header.value
    _end_turn(table)
    assert table.controller.game.state.length == 7
    assert table.messages.last_message == (
        "P2 (saboteur bot) played Extended season: a card added a race; the championship now "
        "lasts 7 races (FF-15)"
    )
    assert "0 of 7 races run (6, and 1 added by a special card, FF-15)" in table.header.value
    assert table.widget.children[1] is table.message  # the headline, just below the header


def test_the_person_adding_a_race_is_told_too(arrange, cid):
    season = cid("Extended season")
    s = arrange(2, turn=0, hands={0: (season,)})
    table = _table_at(s, _Saboteur(season))
    table.choices.value = next(
        i for i, (_, k) in enumerate(table._entries) if k == PlaySpecial(season)
    )
    table.play_button.click()
    assert table.messages.last_message == (
        "You played Extended season: a card added a race; the championship now lasts 7 races "
        "(FF-15)"
    )


@pytest.mark.parametrize(
    ("special", "target", "said"),
    [
        ("Engine failure", "V8", "destroyed your engine (V8) with Engine failure"),
        ("Crash", "Carbon", "destroyed your chassis (Carbon) with Crash"),
        ("Driver poached", "Nico Rami", "removed your driver (Nico Rami) with Driver poached"),
    ],
)
def test_what_a_bot_did_to_your_cards_is_in_the_headline(arrange, cid, special, target, said):
    """The person buys a V8; on its turn the bot plays Engine failure on it. The message line
    at the top says so, naming the bot, the card and the special card, not only the log."""
    team = {"engine": cid("V8"), "chassis": cid("Carbon"), "drivers": (cid("Nico Rami"),)}
    s = arrange(2, turn=0, hands={1: (cid(special),)}, teams={0: team})
    table = _table_at(s, _Saboteur(cid(special), cid(target)))
    assert table.messages.last_message is None
    _end_turn(table)
    assert table.messages.last_message == f"P2 (saboteur bot) {said}"
    assert cid(target) not in table.controller.game.state.players[0].in_play
    # the log still has the plain event
    assert re.search(rf"[Yy]our {target} \(\w+ \d\) is discarded", table.log.value)
    # the next move of the person clears the headline: it is news only once
    table.choices.value = next(i for i, (_, k) in enumerate(table._entries) if k == Draw(1))
    table.play_button.click()
    assert table.messages.last_message is None


def test_money_a_bot_took_with_a_card_is_in_the_headline(arrange, cid):
    audit = cid("Tax audit")
    s = arrange(2, turn=0, hands={1: (audit,)})
    table = _table_at(s, _Saboteur(audit))
    _end_turn(table)
    assert table.messages.last_message == "P2 (saboteur bot)'s Tax audit took 2 M$ from you"


def test_the_headline_leaves_a_refusal_alone():
    """A move the rules refuse shows its reason on the message line; the redraw after the
    click does not overwrite it with news."""
    table = FunTable(players=4, seed=3, human=0)
    c = table.controller
    for choice in ("Draw 1 card (free)", "Discard Caffè Turbo (sponsor 2 M$)", "End the turn"):
        c.act(dict(c.menu())[choice], amount=None)
    table.refresh()
    table.choices.value = next(i for i, (_, k) in enumerate(table._entries) if k == ("bid", 0))
    table.amount.value = 1  # below the high bid
    table.play_button.click()
    assert table.messages.last_error is not None and "FF-4" in table.messages.last_error
