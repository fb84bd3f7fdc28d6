"""Setting up, drawing, the market and the turn (FF-1, FF-2, FF-3, FF-14)."""

import pytest

from fdlab.fun.actions import (
    Draw,
    EndTurn,
    PlaySponsor,
    PutOnMarket,
    StartAuction,
)
from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.errors import CardNotAvailableError, DrawError, MarketError, PhaseError


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ff1_deal_five_cards_and_twenty_million(players):
    """FF-1: each player starts with 5 cards and 20 M$."""
    s = new_game(players, seed=11)
    assert [p.money for p in s.players] == [20] * players
    assert [len(p.hand) for p in s.players] == [5] * players
    assert len(s.draw_pile) == len(s.deck) - 5 * players
    assert s.phase == "draw" and s.turn == s.first_player and s.turn_number == 1


@pytest.mark.parametrize("players", [0, 1, 5])
def test_ff1_two_to_four_players(players):
    """FF-1: Formula Fun is for 2-4 players."""
    with pytest.raises(ValueError, match="FF-1"):
        new_game(players)


def test_ff1_first_player_drawn_at_random_and_reproducible():
    """FF-1: the first player is drawn at random; the same seed deals the same game."""
    firsts = {new_game(4, seed=seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_game(4, seed=5) == new_game(4, seed=5)
    assert new_game(4, seed=5).draw_pile != new_game(4, seed=6).draw_pile


def test_ff1_play_goes_clockwise(arrange):
    """FF-1: after a turn ends, the next player (index + 1, wrapping) is on turn."""
    s = arrange(3, turn=2)
    s, _ = step(s, EndTurn())
    assert s.turn == 0 and s.phase == "draw" and s.turn_number == 2
    s, _ = step(s, Draw(1))
    s, _ = step(s, EndTurn())
    assert s.turn == 1


@pytest.mark.parametrize("count, cost", [(1, 0), (2, 1), (3, 2)])
def test_ff2_draw_costs(arrange, count, cost):
    """FF-2: draw 1 card free, 2 cards for 1 M$, 3 cards for 2 M$."""
    s = arrange(2, phase="draw", hands={0: ()})
    top = s.draw_pile[-count:]
    s2, events = step(s, Draw(count))
    assert s2.players[0].money == 20 - cost
    assert sorted(s2.players[0].hand) == sorted(top)
    assert s2.phase == "play"
    assert sum(e.amount for e in events if e.kind == "money") == -cost


def test_ff2_cannot_afford_draw(arrange):
    """FF-2: drawing 3 cards needs 2 M$."""
    s = arrange(2, phase="draw", money={0: 1})
    with pytest.raises(DrawError, match="FF-2: drawing 3 cards costs 2 M\\$ and you have 1"):
        step(s, Draw(3))
    assert Draw(3) not in legal_actions(s) and Draw(2) in legal_actions(s)
    with pytest.raises(DrawError, match="FF-2"):
        step(s, Draw(4))


def test_ff2_draw_once_then_play_in_any_order(arrange, cid):
    """FF-2: the turn starts with one draw; then any cards, in any order."""
    s = arrange(2, phase="draw", hands={0: (cid("V12", 0), cid("Pizza Napoli"))})
    with pytest.raises(PhaseError, match="FF-2: start your turn by drawing"):
        step(s, PutOnMarket(cid("V12")))
    s, _ = step(s, Draw(1))
    with pytest.raises(PhaseError, match="FF-2: draw only once"):
        step(s, Draw(1))
    a, _ = step(step(s, PlaySponsor(cid("Pizza Napoli")))[0], PutOnMarket(cid("V12")))
    b, _ = step(step(s, PutOnMarket(cid("V12")))[0], PlaySponsor(cid("Pizza Napoli")))
    assert a.players == b.players and a.market == b.market


def test_ff3_parts_go_to_the_market_facing_the_player(arrange, cid):
    """FF-3: drivers, engines, chassis in hand are not owned; they go on the market."""
    hand = (cid("Rocco Vela"), cid("V12"), cid("Carbon"), cid("Pizza Napoli"))
    s = arrange(2, turn=1, hands={1: hand})
    for card in hand[:3]:
        s, events = step(s, PutOnMarket(card))
        assert events[0].kind == "market"
    assert s.market == ((hand[0], 1), (hand[1], 1), (hand[2], 1))
    assert s.players[1].hand == (hand[3],)
    assert s.players[1].in_play == ()
    with pytest.raises(MarketError, match="FF-3: only drivers, engines and chassis"):
        step(s, PutOnMarket(hand[3]))
    with pytest.raises(
        CardNotAvailableError,
        match=r"FF-3: #\d+ V12 \(engine 6\) is not in your hand, so you cannot put it on the market",
    ):
        step(s, PutOnMarket(cid("V12", 1)))


def test_ff3_no_action_puts_a_part_from_hand_into_the_team(arrange, cid):
    """FF-3: the only legal action with a part in hand is putting it on the market."""
    s = arrange(2, hands={0: (cid("V12"),)})
    with_card = [a for a in legal_actions(s) if getattr(a, "card", None) == cid("V12")]
    assert with_card == [PutOnMarket(cid("V12"))]


def test_ff14_start_of_turn_discards_market_cards_facing_the_player(arrange, cid):
    """FF-14: cards put on the market in the previous round and unsold are discarded."""
    mine, theirs = cid("V12"), cid("Carbon")
    s = arrange(2, turn=1, market=[(mine, 0), (theirs, 1)])
    s, events = step(s, EndTurn())
    assert s.turn == 0
    assert s.market == ((theirs, 1),)
    assert s.discard[-1] == mine
    assert any(e.kind == "market_cleanup" and "FF-14" in e.text for e in events)


def test_ff14_market_cards_stay_for_one_round(arrange, cid):
    """FF-14: a card put on the market can be auctioned by the others until its owner's next turn."""
    s = arrange(2, turn=0, phase="draw", hands={0: (cid("V12"),)})
    s, _ = step(s, Draw(1))
    s, _ = step(s, PutOnMarket(cid("V12")))
    s, _ = step(s, EndTurn())
    s, _ = step(s, Draw(1))
    assert StartAuction(cid("V12"), 1) in legal_actions(s)
    s, _ = step(s, EndTurn())
    assert cid("V12") not in s.market_cards and cid("V12") in s.discard


def test_errors_name_the_card_as_the_table_shows_it(arrange, cid):
    """Illegal-action messages name the card (#id, name, kind and value), even a bad id."""
    s = arrange(2, hands={0: (cid("Pizza Napoli"),)})
    with pytest.raises(
        CardNotAvailableError,
        match=r"^FF-3: #\d+ Carbon \(chassis 5\) is not in your hand, so you cannot put it on",
    ):
        step(s, PutOnMarket(cid("Carbon")))
    with pytest.raises(CardNotAvailableError, match=r"^FF-4: #999 \(no such card in this deck\)"):
        step(s, StartAuction(999, 1))
