"""The log and the table explain themselves (issue 16): players named as the table names
them, who played the circuit card, which cards a clean-up or a market crash discarded, which
cars tied, who pays whom; whose decision it is; what the market arrows mean; the rules at
hand."""

import re
import tomllib
from pathlib import Path

import pytest

from fdlab.fun.actions import EndTurn, Pass, PlayCircuit, PlaySpecial
from fdlab.fun.engine import step
from fdlab.fun.errors import PhaseError
from fdlab.fun.events import FunEvent, mention, tell
from fdlab.fun.game import Game
from fdlab.fun.html import log_html, state_html
from fdlab.fun.rulebook import rules_html, rules_text
from fdlab.fun.state import FunRules
from fdlab.fun.widgets import FunTableController

REPO = Path(__file__).resolve().parents[2]


def _team(cid, engine, chassis, *drivers, copy=0):
    return {
        "engine": cid(engine, copy),
        "chassis": cid(chassis, copy),
        "drivers": tuple(cid(d) for d in drivers),
    }


def test_the_log_names_players_as_the_table_does():
    g = Game(3, seed=4, bots="manager", names=["Ada", "Bea", "Cy"])
    g.run_bots()
    lines = g.log_lines()
    assert g.state.is_over
    assert re.search(r": (Ada|Bea|Cy) wins with \d+ points$|share the title", lines[-1])
    assert not any(re.search(r"\bP[123]\b", line) for line in lines)
    assert any(line.startswith("Bea buys") for line in lines)
    html_log = g._repr_html_()
    assert "Cy " in html_log and not re.search(r"<li>[^<]*\bP[123]\b", html_log)
    # the events keep the seat names for programs: text is "P1 ..."
    assert any(e.text.startswith("P2 buys") for e in g.log)


def test_the_end_says_p1_wins(arrange, cid):
    """One champion 'wins'; a shared title says so."""
    strong = _team(cid, "V12", "Wind-tunnel carbon", "Ines Marlow")
    weak = _team(cid, "Lawnmower", "Go-kart frame", "Nico Rami")
    one_race = FunRules(races=1)
    s = arrange(2, hands={0: (cid("Monza"),)}, teams={0: strong, 1: weak}, length=1, rules=one_race)
    _, events = step(s, PlayCircuit(cid("Monza")))
    assert events[-1].text == "championship over after the last race: P1 wins with 3 points"
    assert events[-1].told(["Ada", "Bea"]).endswith("Ada wins with 3 points")


def test_the_race_log_says_who_played_the_circuit_and_who_pays_whom(arrange, cid):
    rocco = _team(cid, "V12", "Wind-tunnel carbon", "Rocco Vela")
    baron = _team(cid, "Lawnmower", "Go-kart frame", "Baron von Geld")
    s = arrange(2, turn=1, hands={1: (cid("Monaco"),)}, teams={0: rocco, 1: baron})
    _, events = step(s, PlayCircuit(cid("Monaco")))
    texts = [e.told(["Ada", "Bea"]) for e in events]
    assert texts[0].startswith("race 1 of 6: Bea plays Monaco (the driver counts double)")
    assert "Ada pays the bank 3 M$ (Rocco Vela's clause, a race won)" in texts
    assert "the bank pays Bea 2 M$ (Baron von Geld's clause, every race)" in texts
    rocco_card = s.deck[cid("Rocco Vela")]
    assert rocco_card.text == "the owner pays the bank 3 M$ after each race this driver wins"


def test_clean_up_and_market_crash_name_the_cards_discarded(arrange, cid):
    v8, nico = cid("V8"), cid("Nico Rami")
    s = arrange(2, turn=1, market=[(v8, 0), (nico, 0)])
    s, events = step(s, EndTurn())
    assert events[-1].text == (
        "P1 discards the unsold market cards facing them: V8 (engine 4) and Nico Rami "
        "(driver 2) (FF-14)"
    )
    crash = cid("Market crash")
    s = arrange(2, hands={0: (crash,)}, market=[(v8, 1)])
    _, events = step(s, PlaySpecial(crash))
    assert "the market is cleared: V8 (engine 4) discarded" in [e.text for e in events]


def test_the_table_says_whose_decision_it_is():
    """While a bot's turn waits for the person's bid, the table asks the person to bid: it
    no longer says only 'P3 on turn'."""
    c = FunTableController(players=4, seed=3, human=0)
    for choice in ("Draw 1 card (free)", "Discard Caffè Turbo (sponsor 2 M$)", "End the turn"):
        c.act(dict(c.menu())[choice], amount=None)
    state = c.game.state
    assert state.phase == "auction" and state.turn != 0 and state.to_act == 0
    view = c.view_html()
    assert "<b>Your decision</b> (P1): bid more than 3 M$ for" in view
    assert "(high bid by P4 (manager bot)) or pass; P2 (manager bot) opened it." in view
    assert "on turn, phase" not in view
    assert c.decision() in view
    other = state_html(state, ["Ada", "Bea", "Cy", "Di"], show_hand=None)
    assert "<b>Ada</b> is deciding: bid more than 3 M$" in other


def test_the_market_explains_its_arrows(arrange, cid):
    s = arrange(3, market=[(cid("V8"), 2)])
    view = state_html(s, ["Ada", "Bea", "Cy"])
    assert "&rarr;Cy" in view
    assert "the player a card faces" in view and "FF-14" in view
    assert "discarded at the start of Cy&#x27;s next turn if still unsold" in view
    assert "the player a card faces" not in state_html(arrange(2), ["Ada", "Bea"])


def test_the_rules_text_is_package_data_with_every_clause():
    text = rules_text()
    for n in range(1, 18):
        assert f"**FF-{n}**" in text
    html_text = rules_html()
    assert "<h3>Formula Fun: the rules</h3>" in html_text and "<b>FF-12</b>" in html_text
    assert "**" not in html_text
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "*.md" in data["tool"]["setuptools"]["package-data"]["fdlab.fun"]
    assert (REPO / "fdlab" / "fun" / "rules.md").read_text(encoding="utf-8") == text


def test_the_table_has_the_rules_at_hand():
    pytest.importorskip("ipywidgets")
    from fdlab.fun.widgets import FunTable

    table = FunTable(players=2, seed=1)
    assert table.rules in table.widget.children
    assert table.rules.get_title(0) == "Rules of Formula Fun (FF-1 to FF-17)"
    assert "<b>FF-17</b>" in table.rules.children[0].value
    assert "<b>Your decision</b>" in table.header.value


def test_log_html_without_names_keeps_seat_names():
    assert "P1" in log_html([FunEvent("turn", "turn 1: P1 to play")])


def _person_bids(c):
    """Play the person's first turn at the 4-player table of seed 3 until a bot's auction
    waits for the person's bid."""
    for choice in ("Draw 1 card (free)", "Discard Caffè Turbo (sponsor 2 M$)", "End the turn"):
        c.act(dict(c.menu())[choice], amount=None)
    assert c.game.state.phase == "auction" and c.game.state.to_act == c.human


def test_the_table_speaks_to_the_person_in_the_second_person():
    """The person at the table is "You": "You pass", "You draw", "your turn", never
    "You (P1) passes"."""
    c = FunTableController(players=4, seed=3, human=0)
    assert c.game.names[0] == "You" and "<b>Your decision</b> (P1)" in c.view_html()
    assert "<b>Your hand:</b>" in c.view_html()
    _person_bids(c)
    c.act(Pass(), amount=None)
    assert "<li>You pass</li>" in c.log_html()
    lines = c.game.log_lines()
    assert "You pass" in lines and "You draw 1 card" in lines
    assert not any(re.search(r"\bYou (passes|draws|pays|buys|bids|discards)\b", x) for x in lines)
    assert not any("You (" in x or re.search(r"\bP1\b", x) for x in lines)


def test_second_person_sentences_read_right():
    m = mention
    assert tell(f"{m(0)} pays the bank 1 M$ (drawing 2 cards)", ["Ada"], you=0) == (
        "You pay the bank 1 M$ (drawing 2 cards)"
    )
    assert tell(f"the bank pays {m(0)} 2 M$", ["Ada"], you=0) == "the bank pays you 2 M$"
    assert tell(f"1. {m(0)} with Yuki", ["Ada"], you=0) == "1. You with Yuki"
    assert tell(f"{m(1)} holds 3 cards; {m(0)}'s V12", ["Ada", "Bea"], you=0) == (
        "Bea holds 3 cards; your V12"
    )
    assert tell(f"{m(0)} discards the unsold market cards facing them: V8", ["Ada"], you=0) == (
        "You discard the unsold market cards facing you: V8"
    )
    assert tell(f"championship over: {m(0)} wins with 9 points", ["Ada"], you=0).endswith(
        "you win with 9 points"
    )


def test_illegal_moves_name_players_as_the_table_does():
    """An illegal move's message names the players by the table's names, not P1..Pn."""
    g = Game(2, seed=1, names=["Ada", "Bea"])
    for action in ("draw 1", "market 19", "auction 19 1"):
        g.play(action)
    with pytest.raises(PhaseError, match="FF-4: an auction is running: Bea must bid more"):
        g.play("end")
    g.you, g.names = 1, ["Ada", "You"]
    with pytest.raises(PhaseError, match="running: you must bid more than 1 M\\$ or pass"):
        g.play("end")
    # the engine alone still says P2
    with pytest.raises(PhaseError, match="P2 must bid"):
        step(g.state, EndTurn())


def test_the_table_names_the_person_champion(arrange, cid):
    strong = _team(cid, "V12", "Wind-tunnel carbon", "Ines Marlow")
    weak = _team(cid, "Lawnmower", "Go-kart frame", "Nico Rami")
    s = arrange(
        2, hands={0: (cid("Monza"),)}, teams={0: strong, 1: weak}, length=1, rules=FunRules(races=1)
    )
    final, _ = step(s, PlayCircuit(cid("Monza")))
    assert "Championship over: <b>You</b> win with 3 points" in state_html(
        final, ["You", "Bea"], show_hand=0, you=0
    )
    assert "Championship over: <b>Ada</b> wins with 3 points" in state_html(
        final, ["Ada", "You"], show_hand=1, you=1
    )
