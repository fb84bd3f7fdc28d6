"""The Game object, action notation, HTML views, the widget controller and doctests."""

import doctest
import html
import importlib
import json
import subprocess
import sys

import pytest

from fdlab.fun.actions import (
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
    parse_action,
)
from fdlab.fun.bots import FunRandomBot, SensibleBot
from fdlab.fun.errors import IllegalActionError
from fdlab.fun.game import Game
from fdlab.fun.html import describe_action
from fdlab.fun.study import run_championships
from fdlab.fun.widgets import FunTableController

ALL_ACTIONS = [
    Draw(2),
    PutOnMarket(17),
    StartAuction(17, 4),
    Bid(6),
    Pass(),
    ReturnDriver(3),
    PlaySponsor(30),
    PlaySpecial(40),
    PlaySpecial(40, 12),
    PlaySpecial(40, 12, 31),
    PlayCircuit(66),
    Discard(33),
    EndTurn(),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=str)
def test_action_notation_round_trips(action):
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "fly 3", "draw", "draw x", "auction 3", "special 1 2 3 4"])
def test_bad_action_notation(text):
    with pytest.raises(ValueError):
        parse_action(text)


def test_game_play_undo_replay_and_json():
    g = Game(3, seed=21, bots={1: SensibleBot(1), 2: FunRandomBot(2)}, human=0)
    g.run_bots()
    assert g.state.to_act == 0
    before = g.state
    events = g.play(g.legal_actions()[-1])
    assert events and g.log[-len(events) :] == list(events)
    g.run_bots()
    g.undo_to_human()
    assert g.state == before
    with pytest.raises(IllegalActionError):
        g.play(EndTurn() if g.state.phase == "draw" else Draw(1))
    assert g.state == before  # an illegal action leaves the game unchanged
    with pytest.raises(ValueError, match="cannot undo"):
        g.undo(len(g.actions) + 1)
    g.bots[0] = SensibleBot(0)
    g.run_bots()
    assert g.state.is_over
    copy = Game.from_json(g.to_json())
    assert copy.state == g.state and [str(a) for a in copy.actions] == [str(a) for a in g.actions]
    standings = g.standings()
    assert tuple(standings.points[i] for i in range(3)) == g.state.points
    assert set(standings.leaders()) == set(g.state.winners())


def test_game_html_shows_standings_market_and_only_the_humans_hand():
    g = Game(2, seed=4, human=0)
    g.play("draw 1")
    html = g._repr_html_()
    assert "Standings" in html and "Market" in html and "P1's hand" in html
    hidden = Game(2, seed=4)._repr_html_()
    assert "'s hand" not in hidden
    assert "points [0, 0]" in repr(g)


def test_describe_every_action_kind():
    g = Game(2, seed=0)
    texts = {describe_action(g.state, a) for a in ALL_ACTIONS}
    assert len(texts) == len(ALL_ACTIONS)


def test_widget_controller_plays_for_the_human_and_bots_answer():
    c = FunTableController(players=3, seed=8, human=1)
    assert c.game.state.to_act == 1
    plays = 0
    while not c.game.state.is_over and plays < 400:
        menu = c.menu()
        assert menu, "the human always has a choice when it is their decision"
        labels = [label for label, _ in menu]
        key = menu[labels.index("End the turn")][1] if "End the turn" in labels else menu[0][1]
        if isinstance(key, tuple) and key[0] == "bid":
            key = next((k for _, k in menu if k == Pass()), key)
        c.act(key, amount=None)
        plays += 1
        assert c.game.state.to_act in (1, None)
    assert plays > 5
    assert "<td>You</td>" in c.view_html() and c.game.names[1] == "You"
    c.undo()
    assert c.game.state.to_act == 1


def test_widget_controller_auction_amount_and_illegal_bid():
    c = FunTableController(players=2, seed=3, human=0)
    c.act(Draw(1), None)
    # put a part on the market if we hold one, then auction it at the typed amount
    parts = [k for _, k in c.menu() if isinstance(k, PutOnMarket)]
    assert parts, "seed 3 deals player 0 a driver, engine or chassis"
    c.act(parts[0], None)
    auction = [k for _, k in c.menu() if isinstance(k, tuple) and k[0] == "auction"]
    money = c.game.state.players[0].money
    c.act(auction[0], amount=2)
    assert any(isinstance(a, StartAuction) and a.price == 2 for a in c.game.actions)
    assert c.game.state.players[0].money <= money


def test_fun_table_widget_builds_and_clicks():
    pytest.importorskip("ipywidgets")
    from fdlab.fun.widgets import FunTable

    table = FunTable(players=2, seed=5)
    assert "Standings" in table.board.value
    table.play_button.click()
    table.undo_button.click()
    assert table.controller.game.state.to_act == 0
    table.amount.value = 0
    table.choices.value = 0
    table.play_button.click()  # whatever the choice, the table stays consistent
    assert table.controller.game.state.to_act in (0, None)


def test_engine_modules_do_not_import_widget_libraries():
    code = (
        "import sys, fdlab.fun, fdlab.fun.game, fdlab.fun.study; "
        "print(any(m.split('.')[0] in ('ipywidgets', 'bokeh') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_study_rows_explain_results():
    rows = run_championships(6, ["sensible", "random", "sensible"], seed=10)
    assert len(rows) == 18
    for game in range(6):
        mine = [r for r in rows if r["game"] == game]
        assert sum(r["won"] for r in mine) == pytest.approx(1.0)
        assert sorted(r["bot"] for r in mine) == ["random", "sensible", "sensible"]
        assert {r["seat_after_first"] for r in mine} == {0, 1, 2}
    assert json.dumps(rows)


MODULES = [
    "fdlab.fun.actions",
    "fdlab.fun.bots",
    "fdlab.fun.cards",
    "fdlab.fun.deck",
    "fdlab.fun.engine",
    "fdlab.fun.errors",
    "fdlab.fun.events",
    "fdlab.fun.game",
    "fdlab.fun.html",
    "fdlab.fun.invariants",
    "fdlab.fun.manager",
    "fdlab.fun.opponents",
    "fdlab.fun.outlook",
    "fdlab.fun.race",
    "fdlab.fun.rulebook",
    "fdlab.fun.state",
    "fdlab.fun.study",
    "fdlab.fun.widgets",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_widget_shows_everything_the_bots_did_since_the_humans_move():
    """The table's log holds every event since the human's last decision (bots may play
    whole turns and races in between), and the board shows the last race's result."""
    c = FunTableController(players=4, seed=3, human=0)
    longest = 0
    while not c.game.state.is_over and len(c.game.state.races) < 2:
        before = len(c.game.log)
        keys = [k for _, k in c.menu()]
        c.act(EndTurn() if EndTurn() in keys else Pass() if Pass() in keys else keys[0], None)
        new = c.game.log[before:]
        shown = c.recent_events()
        assert shown[-len(new) :] == new and len(shown) >= min(15, len(c.game.log))
        longest = max(longest, len(new))
        for event in new:
            assert html.escape(event.told(c.game.names, you=c.human)) in c.log_html()
    assert longest > 15, "some bot rounds make more than 15 events"
    race = c.game.state.races[-1]
    assert f"Last race</b> ({race.number} of" in c.view_html()


def test_widget_bid_entry_names_the_lowest_bid():
    c = FunTableController(players=3, seed=2, human=0)
    while c.game.state.phase != "auction" and not c.game.state.is_over:
        keys = [k for _, k in c.menu()]
        c.act(EndTurn() if EndTurn() in keys else keys[0], None)
    labels = [label for label, _ in c.menu()]
    low = c.game.state.auction.high_bid + 1
    assert f"Bid the amount (at least {low} M$)" in labels
    assert c.suggested_amount() == low


def _select(table, action):
    """Select the menu entry of ``action`` in a FunTable and fill the amount box."""
    entries = table._entries
    if isinstance(action, StartAuction):
        key, table.amount.value = ("auction", action.card), action.price
    elif isinstance(action, Bid):
        key, table.amount.value = ("bid", 0), action.amount
    else:
        key = action
    table.choices.value = next(i for i, (_, k) in enumerate(entries) if k == key)


def test_fun_table_a_whole_championship_by_clicking_play():
    """A person plays a whole championship with the widgets only: pick an entry, type an
    amount, click Play (here the choices a sensible player would make)."""
    pytest.importorskip("ipywidgets")
    from fdlab.fun.widgets import FunTable

    table = FunTable(players=3, seed=11, human=0)
    advisor = SensibleBot(5)
    clicks = 0
    while not table.controller.game.state.is_over:
        game = table.controller.game
        assert game.state.to_act == 0 and not table.play_button.disabled
        _select(table, advisor.choose(game.state, game.legal_actions()))
        table.play_button.click()
        assert "color:#b00" not in table.message.value, table.message.value
        clicks += 1
        assert clicks < 500
    state = table.controller.game.state
    assert state.ended == "races" and len(state.races) == state.length
    assert any(car.player == 0 for race in state.races for car in race.cars)
    assert "Championship over" in table.header.value and "over" in table.message.value
    assert table.play_button.disabled and table.choices.options == ()


def test_fun_table_refuses_an_illegal_amount_with_the_rule():
    """A bid below the highest bid is refused in the message line; the game is unchanged."""
    pytest.importorskip("ipywidgets")
    from fdlab.fun.widgets import FunTable

    table = FunTable(players=3, seed=2, human=0)
    while table.controller.game.state.phase != "auction":
        labels = [label for label, _ in table.choices.options]
        table.choices.value = labels.index("End the turn") if "End the turn" in labels else 0
        table.play_button.click()
    before = table.controller.game.state
    table.choices.value = [k for _, k in table._entries].index(("bid", 0))
    table.amount.value = before.auction.high_bid
    table.play_button.click()
    assert "FF-4: a bid must beat the highest bid" in table.message.value
    assert table.controller.game.state == before
    table.undo_button.click()
    assert table.controller.game.state.to_act == 0 and table.message.value == ""


def test_state_and_deck_display_themselves_briefly():
    """In a notebook a state shows the table (hands hidden) and a deck its card list;
    their reprs are one line, not the 10,000 characters of every card field."""
    from fdlab.fun.deck import default_deck
    from fdlab.fun.engine import new_game

    state = new_game(3, seed=2)
    assert repr(state).startswith("<GameState 3 players, turn 1") and len(repr(state)) < 200
    html_text = state._repr_html_()
    assert "Standings" in html_text and "'s hand" not in html_text
    deck = default_deck()
    assert repr(deck).startswith("<Deck 'Formula Fun (fdlab default)': 70 cards (14 driver")
    table = deck._repr_html_()
    assert table.count("<tr>") == 1 + len({(c.kind, c.name, c.text) for c in deck.cards})
    assert html.escape("+2 to cars with a driver of 5 or 6") in table


@pytest.mark.parametrize(
    "change, where",
    [
        ({"rules": {"races": 0}}, "rules.races"),
        ({"rules": {"hand_limit": -1}}, "rules.hand_limit"),
        ({"rules": {"draw_costs": [1, 2]}}, "rules.draw_costs"),
        ({"rules": {"wings": 2}}, "rules.wings"),
        ({"players": 7}, "players"),
        ({"seed": "x"}, "seed"),
        ({"actions": ["draw 2", "fly"]}, "actions[1]"),
        ({"actions": ["draw 2", "draw 2"]}, "actions[1]"),
        ({"names": ["Ada"]}, "names"),
    ],
)
def test_a_bad_saved_game_is_one_clear_error(change, where):
    """Issue 15: Game.from_json refuses impossible rules (races=0, hand_limit=-1), wrong
    fields and actions the rules forbid, naming the field; nothing half-loads."""
    from fdlab.fun.errors import SavedGameError

    data = json.loads(Game(2, seed=3).to_json())
    for key, value in change.items():
        if key == "rules":
            data["rules"] = {**data["rules"], **value}
        else:
            data[key] = value
    with pytest.raises(SavedGameError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.where == where
    assert str(info.value).startswith(f"saved game: {where}: ")


def test_a_saved_game_that_is_not_json_is_one_clear_error():
    from fdlab.fun.errors import SavedGameError

    with pytest.raises(SavedGameError, match=r"^saved game: not valid JSON"):
        Game.from_json('{"seed": ')
    with pytest.raises(SavedGameError, match=r"^saved game: nested more than 64 levels deep"):
        Game.from_json("[" * 100_000)
    with pytest.raises(SavedGameError, match=r"^saved game: must be an object"):
        Game.from_json("[1, 2]")


def test_fun_rules_refuse_impossible_numbers():
    from fdlab.fun.state import FunRules

    with pytest.raises(ValueError, match=r"^FunRules\.races: must be an integer of at least 1"):
        FunRules(races=0)
    with pytest.raises(ValueError, match=r"FunRules\.max_races: must be at least races \(6\)"):
        FunRules(max_races=5)
    with pytest.raises(ValueError, match=r"^FunRules\.hand_limit: must be at least 5"):
        FunRules(hand_limit=-1)
