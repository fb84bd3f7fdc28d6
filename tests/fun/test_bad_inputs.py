"""Issue 29: bad values given to Formula Fun are one fdlab error, never a broken game.

Every action's fields are checked against the rules before any rule reads
them (FF-2, FF-4, FF-6 ...): one :class:`IllegalActionError` naming the
clause, after which the game goes on. A function given a value its parameter
cannot take raises one :class:`ArgumentError` naming the parameter. The deck
loader and the saved-game loader read through :mod:`fdlab.untrusted` and
raise one :class:`DeckError` / :class:`SavedGameError` naming the file, for
random bytes, random JSON, special files and edited files alike.

Hangs are caught by a harness limit (``hang_limit.time_limit``), never by a timing
assertion.
"""

from __future__ import annotations

import ast
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hang_limit import time_limit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdlab.fun import actions as fun_actions
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
from fdlab.fun.deck import default_deck, load_deck
from fdlab.fun.engine import MAX_PRICE, _Work, legal_actions, new_game, replay, step
from fdlab.fun.errors import (
    ArgumentError,
    AuctionError,
    CardNotAvailableError,
    DeckError,
    DrawError,
    GameOverError,
    IllegalActionError,
    PaymentError,
    SavedGameError,
)
from fdlab.fun.game import Game, play_championship
from fdlab.fun.invariants import check_invariants
from fdlab.fun.manager import ManagerBot
from fdlab.fun.opponents import make_opponent
from fdlab.fun.state import GameState

FUN = Path(__file__).resolve().parents[2] / "fdlab" / "fun"

#: A harness limit: a test still running after this many seconds has hung.
HANG_LIMIT_SECONDS = 120

#: Hypothesis settings of the property tests: a moderate number of examples, no
#: deadline (a slow example on a busy machine is not a failure; a hang is, see
#: the alarm fixture).
PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(autouse=True)
def _no_hang():
    """Fail a test that blocks (a FIFO opened for reading, /dev/zero read to the end)."""
    with time_limit(HANG_LIMIT_SECONDS):
        yield


# --------------------------------------------------------------------------- positions


def _positions() -> list[GameState]:
    """States of one bot championship: the first of every phase and a sample of the rest."""
    g = Game(3, seed=0, bots={0: ManagerBot(0), 1: SensibleBot(0), 2: FunRandomBot(0)})
    g.run_bots()
    chosen: dict[str, GameState] = {}
    for state in g.history:
        chosen.setdefault(state.phase, state)
    assert set(chosen) == {"draw", "play", "auction", "return_driver", "over"}
    return [*chosen.values(), *g.history[7::23]]


POSITIONS = _positions()


def _in_phase(phase: str) -> GameState:
    return next(s for s in POSITIONS if s.phase == phase)


def _auction_game() -> Game:
    """Player 1 of two has auctioned market card 19 at 1 M$; player 2 (20 M$) bids next."""
    g = Game(2, seed=1)
    for action in ("draw 1", "market 19", "auction 19 1"):
        g.play(action)
    assert g.state.phase == "auction"
    return g


def _assert_goes_on(state: GameState) -> None:
    """The game can go on from ``state``: the legal actions are listed, the invariants hold."""
    legal = legal_actions(state)
    assert state.is_over or legal
    for action in legal[:50]:
        for value in vars(action).values():
            assert value is None or (isinstance(value, int) and not isinstance(value, bool))
    check_invariants(state)


def _assert_one_illegal_action_error(err: IllegalActionError) -> None:
    assert err.__cause__ is None
    assert str(err).startswith(f"{err.clause}: ")
    assert err.clause.startswith("FF-")


# --------------------------------------------------------------------------- the items


@pytest.mark.parametrize("amount", [2.5, math.nan, math.inf, -math.inf, "10", None, [3], True])
def test_ff4_a_bid_that_is_not_a_whole_number_is_refused_and_the_game_goes_on(amount):
    """FF-4: Bid(2.5) and Bid(nan) were accepted, then legal_actions raised TypeError; a bid
    is a whole number of M$ (a bool is not), refused with one AuctionError naming FF-4."""
    g = _auction_game()
    before = g.state
    with pytest.raises(AuctionError, match=r"^FF-4: a bid is a whole number of M\$") as info:
        g.play(Bid(amount))
    _assert_one_illegal_action_error(info.value)
    assert g.state == before
    _assert_goes_on(g.state)
    g.play(Bid(2))  # the auction goes on
    _assert_goes_on(g.state)


@pytest.mark.parametrize(
    "amount", [10**30, 10**5000, MAX_PRICE + 1], ids=["1e30", "1e5000", "max+1"]
)
def test_ff4_a_bid_beyond_the_largest_amount_is_refused(amount):
    """FF-4: no ceiling in the rules, but fdlab takes bids up to MAX_PRICE, so that every
    amount can be printed (10**5000 broke the log and the saved game)."""
    g = _auction_game()
    with pytest.raises(AuctionError, match=r"^FF-4: a bid is a whole number of M\$ \(at most"):
        g.play(Bid(amount))
    g.play(Bid(MAX_PRICE))
    assert g.state.auction is not None and g.state.auction.high_bid == MAX_PRICE
    assert legal_actions(g.state) == [Pass()]  # nobody can bid more


@pytest.mark.parametrize("amount", [21, 41, 100, MAX_PRICE])
def test_ff6_a_bid_above_the_money_ends_in_a_failed_payment_never_in_debt(amount):
    """FF-6: a bid above the bidder's money is legal; if it wins, the sale is off and the
    bidder pays half the price or all their money. Money never goes negative."""
    g = _auction_game()
    bidder = g.state.to_act
    g.play(Bid(amount))
    g.play(Pass())
    money = g.state.players[bidder].money
    assert money == max(0, 20 - (amount + 1) // 2)
    assert any(e.kind == "failed_payment" for e in g.log)
    _assert_goes_on(g.state)


def test_ff16_a_payment_beyond_the_money_is_refused_not_asserted():
    """FF-16 (no loans): the bank's collection refused a payment beyond the player's money
    only with a bare assert, gone under ``python -O``; it is one PaymentError now."""
    w = _Work(new_game(2, seed=1))
    with pytest.raises(PaymentError, match=r"^FF-16: P1 cannot pay 21 M\$ \(test\) with 20 M\$"):
        w.pay(0, 21, "test")
    assert w.players[0].money == 20


def test_ff6_under_python_O_money_never_goes_negative():
    """FF-6: the same failed payments under ``python -O`` (asserts off) keep money >= 0."""
    script = textwrap.dedent(
        """
        import math
        from fdlab.fun.actions import Bid, Pass
        from fdlab.fun.engine import legal_actions
        from fdlab.fun.errors import IllegalActionError
        from fdlab.fun.game import Game
        assert False, "asserts are on: this is not python -O"
        for amount in (25, 41, 10**9, 2.5, math.nan, math.inf):
            g = Game(2, seed=1)
            for action in ("draw 1", "market 19", "auction 19 1"):
                g.play(action)
            try:
                g.play(Bid(amount))
                g.play(Pass())
            except IllegalActionError:
                pass
            if not all(isinstance(p.money, int) and p.money >= 0 for p in g.state.players):
                raise SystemExit(f"money {[p.money for p in g.state.players]} after {amount}")
            legal_actions(g.state)
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize(
    "make, error, clause",
    [
        (lambda s: Draw("2"), DrawError, "FF-2"),
        (lambda s: Draw(2.0), DrawError, "FF-2"),
        (lambda s: Draw(True), DrawError, "FF-2"),
        (lambda s: Discard([1]), CardNotAvailableError, "FF-13"),
        (lambda s: StartAuction("x", 1), CardNotAvailableError, "FF-4"),
        (lambda s: StartAuction(s.market_cards[0], "x"), AuctionError, "FF-4"),
        (lambda s: StartAuction(s.market_cards[0], 2.5), AuctionError, "FF-4"),
        (lambda s: PutOnMarket(None), CardNotAvailableError, "FF-3"),
        (lambda s: PlaySponsor(1.0), CardNotAvailableError, "FF-8"),
        (lambda s: PlayCircuit(False), CardNotAvailableError, "FF-10"),
        (lambda s: PlaySpecial("40"), CardNotAvailableError, "FF-9"),
        (lambda s: PlaySpecial(s.players[s.turn].hand[0], 1.5), CardNotAvailableError, "FF-9"),
        (lambda s: PlaySpecial(s.players[s.turn].hand[0], 1, [2]), CardNotAvailableError, "FF-8"),
        (lambda s: ReturnDriver("3"), CardNotAvailableError, "FF-5"),
    ],
)
def test_ff2_ff4_every_action_field_is_checked_before_the_rules_read_it(make, error, clause):
    """FF-2, FF-4 ...: Draw("2"), Discard([1]), StartAuction("x", 1) failed with comparison
    TypeErrors inside the engine; each field that is not a whole number (card numbers,
    cards to draw, M$) is one illegal-action error naming the action's clause."""
    g = Game(2, seed=1)
    for action in ("draw 1", "market 19"):
        g.play(action)
    state = g.state
    action = make(state)
    with pytest.raises(error) as info:
        step(state, action)
    _assert_one_illegal_action_error(info.value)
    assert info.value.clause == clause
    assert "not " in str(info.value)  # says what it got
    _assert_goes_on(state)


def test_ff4_a_card_number_out_of_the_deck_is_named_even_when_huge():
    """FF-4: a card number far out of the deck is named without printing all its digits."""
    s = Game(2, seed=1).state
    s, _ = step(s, Draw(1))
    with pytest.raises(CardNotAvailableError, match=r"^FF-4: #a 5001-digit number \(no such"):
        step(s, StartAuction(10**5000, 1))
    with pytest.raises(CardNotAvailableError, match=r"^FF-3: #-1 \(no such card"):
        step(s, PutOnMarket(-1))


def test_play_refuses_what_is_not_an_action_with_one_error():
    """Game.play and step take an action or (Game.play) its text; anything else is one
    ArgumentError naming the parameter."""
    g = Game(2, seed=1)
    for junk in (None, 5, 2.5, ["draw 1"], b"draw 1", Draw):
        with pytest.raises(ArgumentError, match=r"^action must be a Formula Fun action") as info:
            g.play(junk)  # type: ignore[arg-type]
        assert info.value.parameter == "action"
    for text in ("", "fly", "draw x", "bid 2.5", "draw \u0663", "bid " + "9" * 5000):
        with pytest.raises(ArgumentError, match=r"^text ") as info:
            g.play(text)
        assert info.value.parameter == "text" and len(str(info.value)) < 300
    with pytest.raises(ArgumentError, match=r"^text must be an action's notation"):
        parse_action(None)  # type: ignore[arg-type]
    assert g.actions == [] and legal_actions(g.state)


@pytest.mark.parametrize("count", ["1", 2.5, -1, True, None, 2])
def test_undo_takes_a_whole_number_of_actions_played(count):
    """Game.undo("1") raised TypeError, undo(-1) did nothing, undo(True) undid one."""
    g = Game(2, seed=1)
    g.play("draw 1")
    with pytest.raises(ArgumentError, match=r"^count must be ") as info:
        g.undo(count)
    assert info.value.parameter == "count"
    assert len(g.actions) == 1 and len(g.history) == 2
    g.undo(0)
    g.undo(1)
    assert g.actions == [] and len(g.history) == 1


@pytest.mark.parametrize("max_actions", [-1, 0, "5", 2.5, True, None])
def test_run_bots_takes_a_positive_number_of_actions(max_actions):
    """run_bots(max_actions=-1) raised 'bots did not finish within -1 actions'."""
    g = Game(2, seed=1, bots="random")
    with pytest.raises(ArgumentError, match=r"^max_actions must be an integer of at least 1"):
        g.run_bots(max_actions=max_actions)
    assert g.actions == []


def test_run_bots_stopping_on_the_human_at_the_limit_is_not_an_error():
    """The bots played exactly max_actions and the human is to act: done, not 'did not
    finish' (the loop raised after its last action without looking)."""
    g = Game(2, seed=4, bots={1: make_opponent("simple", 1)}, human=0)
    while g.state.to_act != 1:
        g.play(g.legal_actions()[0])
    needed = Game.replay(4, 2, g.actions, bots={1: make_opponent("simple", 1)})
    needed.run_bots()
    count = len(needed.actions) - len(g.actions)
    g.run_bots(max_actions=count)
    assert g.state.to_act == 0
    with pytest.raises(RuntimeError, match="did not finish"):
        Game(2, seed=0, bots="random").run_bots(max_actions=1)


@pytest.mark.parametrize("players", ["3", 2.5, True, False, None, 1, 5, 10**100, [3]])
def test_ff1_new_game_takes_two_to_four_players(players):
    """FF-1: new_game("3") and new_game(2.5) raised TypeError, new_game(True) said 'got
    True' as a plain ValueError; one ArgumentError naming the parameter now."""
    with pytest.raises(ArgumentError) as info:
        new_game(players)
    assert info.value.parameter == "players"
    assert str(info.value).startswith("players must be an integer from 2 to 4 (FF-1")
    with pytest.raises(ArgumentError, match=r"^players must be"):
        Game(players)


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda: new_game(2, seed="x"), "seed"),
        (lambda: new_game(2, seed=10**200), "seed"),
        (lambda: new_game(2, seed=1.5), "seed"),
        (lambda: new_game(2, deck="deck.json"), "deck"),
        (lambda: new_game(2, rules={"races": 3}), "rules"),
        (lambda: Game(2, names=["Ada"]), "names"),
        (lambda: Game(2, names="Ada"), "names"),
        (lambda: Game(2, human=2), "human"),
        (lambda: Game(2, you="0"), "you"),
        (lambda: Game(2, bots="genius"), "bots"),
        (lambda: Game(2, bots={5: make_opponent("simple")}), "bots"),
        (lambda: Game(2, bots={1: "simple"}), "bots"),
        (lambda: Game(2, bots=[make_opponent("simple")]), "bots"),
        (lambda: Game(2).log_lines(last=-1), "last"),
        (lambda: Game(2).log_lines(last="3"), "last"),
        (lambda: Game.replay(1, 2, "draw 1"), "actions"),
        (lambda: replay(1, 2, "draw 1"), "actions"),
        (lambda: play_championship([make_opponent("simple")]), "bots"),
        (lambda: play_championship("simple"), "bots"),
        (lambda: make_opponent("genius"), "name"),
        (lambda: make_opponent("simple", seed="1"), "seed"),
        (lambda: load_deck(None), "path"),
        (lambda: Game.load(3), "path"),
    ],
)
def test_every_parameter_is_checked_with_one_clear_error(call, parameter):
    """The other public entry points: one ArgumentError naming the parameter and what it
    must be."""
    with pytest.raises(ArgumentError) as info:
        call()
    assert info.value.parameter == parameter
    assert str(info.value).startswith(f"{parameter} must be")


def test_log_lines_last_zero_is_no_line():
    g = Game(2, seed=1)
    g.play("draw 2")
    assert g.log_lines(last=0) == [] and len(g.log_lines(last=10)) == 2


def test_a_state_whose_phase_does_not_match_its_decision_is_refused():
    """The engine tells the phase by the running auction or the driver choice waiting, so a
    state may not claim an auction phase without an auction (nor the reverse)."""
    auction = _in_phase("auction")
    with pytest.raises(ArgumentError, match=r"^auction must be the running auction"):
        auction.replace(auction=None)
    with pytest.raises(ArgumentError, match=r"^auction must be"):
        _in_phase("play").replace(auction=auction.auction)
    with pytest.raises(ArgumentError, match=r"^pending_driver must be"):
        _in_phase("return_driver").replace(pending_driver=None)
    with pytest.raises(ArgumentError, match=r"^phase must be one of"):
        _in_phase("play").replace(phase="lunch")


def test_bots_asked_to_play_a_finished_game_say_it_is_over():
    """FF-15: a bot asked for a decision after the last race raises GameOverError."""
    over = _in_phase("over")
    for bot in (SensibleBot(0), ManagerBot(0)):
        with pytest.raises(GameOverError, match="^FF-15"):
            bot.choose(over, [])


def test_no_bare_assert_guards_the_rules():
    """No ``assert`` statement in fdlab/fun: under ``python -O`` it would vanish."""
    found = []
    for path in sorted(FUN.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.name}:{n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert found == []


# --------------------------------------------------------------------------- property tests

#: Anything a caller might pass: numbers of every kind, text, containers, None, bools.
JUNK = st.one_of(
    st.integers(min_value=-3, max_value=80),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 10**5000, MAX_PRICE, MAX_PRICE + 1, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, 1.0, 2.0]),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.lists(st.integers(min_value=0, max_value=70), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
#: Mostly small whole numbers (card numbers, counts, M$), so that some actions are legal.
FIELD = st.one_of(st.integers(min_value=-2, max_value=75), JUNK)

ACTION_FIELDS = {
    Draw: 1,
    PutOnMarket: 1,
    StartAuction: 2,
    Bid: 1,
    Pass: 0,
    ReturnDriver: 1,
    PlaySponsor: 1,
    PlaySpecial: 3,
    PlayCircuit: 1,
    Discard: 1,
    EndTurn: 0,
}


def test_the_property_tests_cover_every_action():
    assert set(ACTION_FIELDS) == {getattr(fun_actions, n) for n in fun_actions.__all__} - {
        fun_actions.Action,
        parse_action,
    }


@PROPERTY
@given(
    state=st.sampled_from(POSITIONS),
    kind=st.sampled_from(sorted(ACTION_FIELDS, key=lambda k: k.__name__)),
    values=st.lists(FIELD, min_size=3, max_size=3),
)
def test_random_fields_give_one_illegal_action_error_or_a_game_that_goes_on(state, kind, values):
    """Every action built from random values: one IllegalActionError naming its clause, or
    a new state whose legal actions are listed and whose invariants hold."""
    action = kind(*values[: ACTION_FIELDS[kind]])
    try:
        after, events = step(state, action)
    except IllegalActionError as err:
        _assert_one_illegal_action_error(err)
        return
    _assert_goes_on(after)
    assert all(str(e) for e in events)
    assert parse_action(str(action)) == action  # a legal action can be saved


@PROPERTY
@given(state=st.sampled_from(POSITIONS), data=st.data())
def test_legal_actions_with_one_field_replaced_by_junk(state, data):
    """A legal action with one field replaced by a random value: one error or a valid state
    (reaches the rules' own checks, behind the field checks)."""
    legal = legal_actions(state)
    if not legal:
        return
    action = data.draw(st.sampled_from(legal))
    fields = dict(vars(action))
    if fields:
        name = data.draw(st.sampled_from(sorted(fields)))
        fields[name] = data.draw(FIELD)
    try:
        after, _ = step(state, type(action)(**fields))
    except IllegalActionError as err:
        _assert_one_illegal_action_error(err)
        return
    _assert_goes_on(after)


@PROPERTY
@given(value=st.one_of(JUNK, st.text(max_size=30), st.just("bid 3"), st.just("draw 1")))
def test_game_play_with_random_values(value):
    """Game.play of any value: one fdlab error (illegal action or argument) or an action
    played, the game going on."""
    g = Game(2, seed=1, names=["Ada", "Bea"])
    try:
        g.play(value)
    except IllegalActionError as err:
        _assert_one_illegal_action_error(err)
        assert g.actions == []
    except ArgumentError as err:
        assert err.parameter in ("action", "text") and err.__cause__ is None
        assert g.actions == []
    else:
        assert len(g.actions) == 1
    _assert_goes_on(g.state)


@PROPERTY
@given(
    players=st.one_of(st.integers(2, 4), FIELD),
    seed=st.one_of(st.integers(0, 9), FIELD),
    count=st.one_of(st.integers(0, 3), FIELD),
    max_actions=st.one_of(st.integers(1, 30), FIELD),
    last=FIELD,
)
def test_entry_points_with_random_arguments(players, seed, count, max_actions, last):
    """new_game, Game, undo, run_bots, log_lines with random arguments: one ArgumentError
    naming the parameter, or a result."""
    try:
        g = Game(players, seed=seed, bots={1: make_opponent("simple", 1)}, human=0)
    except ArgumentError as err:
        assert err.parameter in ("players", "seed", "bots")
        with pytest.raises(ArgumentError):
            new_game(players, seed=seed)
        return
    try:
        g.run_bots(max_actions=max_actions)
    except ArgumentError as err:
        assert err.parameter == "max_actions"
    except RuntimeError as err:  # a small limit: the safeguard says so
        assert "did not finish" in str(err)
    try:
        g.undo(count)
    except ArgumentError as err:
        assert err.parameter == "count"
    try:
        assert isinstance(g.log_lines(last=last), list)
    except ArgumentError as err:
        assert err.parameter == "last"
    _assert_goes_on(g.state)
    assert len(g.history) == len(g.actions) + 1


# --------------------------------------------------------------------------- loaders


def _saved_game() -> dict:
    g = Game(3, seed=2, bots={0: SensibleBot(0), 1: ManagerBot(1), 2: FunRandomBot(2)})
    for _ in range(60):
        who = g.state.to_act
        g.play(g.bots[who].choose(g.state, g.legal_actions()))
    return json.loads(g.to_json())


SAVED_GAME = _saved_game()
DECK_DOC = json.loads(json.dumps(default_deck().source))

#: JSON values, NaN and Infinity included (json.dumps writes them; JSON does not allow them).
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
#: Values a hand edit might leave in a field: near-valid ones too.
EDITS = st.one_of(
    JSON_VALUES,
    st.sampled_from([0, -1, 1, 7, 99, 10**400, 1.5, "", "engine", [], {}, None, True]),
    st.sampled_from(["draw 4", "bid 2.5", "auction 999 1", "pass", "end", "special 1 2 3"]),
)


def _slots(doc, skip: str | None = None) -> list[tuple[object, object]]:
    """Every (container, key or index) of a JSON document, without recursion; the top-level
    field ``skip`` is a slot but not looked into."""
    out, stack = [], [doc]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node))
        for key in keys:
            out.append((node, key))
            if isinstance(node[key], dict | list) and not (node is doc and key == skip):
                stack.append(node[key])
    return out


def _edited(doc, data) -> bytes:
    """``doc`` with one field replaced by a random value or removed, as file bytes; half the
    time outside the deck (which holds most of a saved game's fields)."""
    doc = json.loads(json.dumps(doc))
    slots = _slots(doc, skip="deck" if data.draw(st.booleans(), label="skip deck") else None)
    node, key = slots[data.draw(st.integers(0, len(slots) - 1), label="slot")]
    if data.draw(st.booleans(), label="remove") and isinstance(node, dict):
        del node[key]
    else:
        node[key] = data.draw(EDITS, label="value")
    return json.dumps(doc).encode()


def _load_deck_or_error(path: Path) -> None:
    try:
        deck = load_deck(path)
    except DeckError as err:
        assert err.__cause__ is None
        assert err.source == path.name and str(err).startswith(f"{path.name}: ")
    else:
        if len(deck) >= 10:
            new_game(2, deck=deck)


def _load_game_or_error(path: Path) -> None:
    try:
        game = Game.load(path)
    except SavedGameError as err:
        assert err.__cause__ is None
        assert err.source == path.name and str(err).startswith(f"{path.name}: ")
    else:
        _assert_goes_on(game.state)
        assert Game.from_json(game.to_json()).state == game.state


@PROPERTY
@given(data=st.binary(max_size=200))
def test_random_bytes_to_the_loaders(tmp_path, data):
    """Random bytes as a deck file and as a saved game: one error naming the file."""
    path = tmp_path / "random.json"
    path.write_bytes(data)
    _load_deck_or_error(path)
    _load_game_or_error(path)


@PROPERTY
@given(value=JSON_VALUES)
def test_random_json_to_the_loaders(tmp_path, value):
    """Random JSON (NaN and Infinity included) as a deck file and as a saved game."""
    path = tmp_path / "random.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    _load_deck_or_error(path)
    _load_game_or_error(path)


@PROPERTY
@given(data=st.data())
def test_a_deck_file_with_one_field_edited(tmp_path, data):
    """The shipped deck with one field replaced by a random value or removed."""
    path = tmp_path / "house.json"
    path.write_bytes(_edited(DECK_DOC, data))
    _load_deck_or_error(path)


@PROPERTY
@given(data=st.data())
def test_a_saved_game_with_one_field_edited(tmp_path, data):
    """A saved game 60 actions in, with one field (seed, rules, an action, a deck card...)
    replaced by a random value or removed: one SavedGameError naming the file and the field,
    or a game that goes on."""
    path = tmp_path / "game.json"
    path.write_bytes(_edited(SAVED_GAME, data))
    _load_game_or_error(path)


@PROPERTY
@given(text=st.one_of(st.text(max_size=40), st.binary(max_size=40), JUNK))
def test_game_from_json_with_random_text(text):
    try:
        Game.from_json(text)
    except SavedGameError as err:
        assert err.__cause__ is None and str(err).startswith("saved game: ")


def test_a_saved_deck_error_names_the_game_file_and_the_deck_field(tmp_path):
    doc = json.loads(json.dumps(SAVED_GAME))
    doc["deck"]["cards"][3]["value"] = 9
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SavedGameError) as info:
        Game.load(path)
    assert info.value.where == "deck.cards[3].value"
    assert str(info.value).startswith("season.json: deck.cards[3].value: must be an integer")


def test_save_and_load_a_game(tmp_path):
    g = Game.from_json(json.dumps(SAVED_GAME))
    g.save(tmp_path / "g.json")
    assert Game.load(tmp_path / "g.json").state == g.state


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 64 levels deep"),
        (b'{"seed": NaN}', "NaN is not a number JSON allows"),
        (b'{"seed": 1e400}', "too large"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "too long"),
    ],
)
def test_hostile_json_to_the_loaders_is_one_error_naming_the_file(tmp_path, content, message):
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    with pytest.raises(SavedGameError, match=rf"^hostile\.json: .*{message}"):
        Game.load(path)
    if not content.startswith(b"\xff\xfe"):  # the deck loader says UTF-16 there
        with pytest.raises(DeckError, match=rf"^hostile\.json: .*{message}"):
            load_deck(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_given_to_each_loader_is_refused_at_once(tmp_path):
    """A named pipe with no writer blocked a reader forever; one error now, no hang."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(DeckError, match=r"^pipe\.json: cannot read the deck file \(it is a named"):
        load_deck(fifo)
    with pytest.raises(SavedGameError, match=r"^pipe\.json: cannot read the file \(it is a named"):
        Game.load(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_given_to_each_loader_is_refused_at_once():
    """/dev/zero was read until the memory ran out; one error now."""
    with pytest.raises(DeckError, match=r"^zero: cannot read the deck file \(it is a character"):
        load_deck("/dev/zero")
    with pytest.raises(SavedGameError, match=r"^zero: cannot read the file \(it is a character"):
        Game.load("/dev/zero")


def test_a_folder_or_a_missing_file_given_to_each_loader(tmp_path):
    with pytest.raises(DeckError, match=r"cannot read the deck file \(it is a folder"):
        load_deck(tmp_path)
    with pytest.raises(SavedGameError, match=r"cannot read the file \(it is a folder"):
        Game.load(tmp_path)
    with pytest.raises(DeckError, match=r"^missing\.json: cannot read the deck file \(it does"):
        load_deck(tmp_path / "missing.json")
    with pytest.raises(SavedGameError, match=r"^missing\.json: cannot read the file \(No such"):
        Game.load(tmp_path / "missing.json")


def test_a_file_too_big_for_a_deck_is_refused_before_it_is_read(tmp_path):
    from fdlab.fun.deck import MAX_DECK_BYTES

    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(MAX_DECK_BYTES + 1)
    with pytest.raises(DeckError, match=r"^big\.json: the file is too big for a deck file"):
        load_deck(path)
