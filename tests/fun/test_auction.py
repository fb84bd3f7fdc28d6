"""Auctions, replacing parts, the third driver and failed payment (FF-4, FF-5, FF-6)."""

import pytest

from fdlab.fun.actions import Bid, Draw, EndTurn, Pass, PlaySponsor, ReturnDriver, StartAuction
from fdlab.fun.engine import legal_actions, step
from fdlab.fun.errors import AuctionError, CardNotAvailableError, PhaseError
from fdlab.fun.invariants import check_invariants


def test_ff4_bidding_goes_clockwise_from_the_player_on_turn(arrange, cid):
    """FF-4: the player on turn opens; the others bid in turn clockwise."""
    v12 = cid("V12")
    s = arrange(4, turn=2, market=[(v12, 0)])
    s, _ = step(s, StartAuction(v12, 3))
    assert s.phase == "auction" and s.auction.high_bidder == 2 and s.auction.high_bid == 3
    order = []
    for action in (Bid(4), Pass(), Bid(5), Pass()):
        order.append(s.to_act)
        s, _ = step(s, action)
    # 3 bids, 0 passes, 1 bids, 2 (the opener, outbid) passes; then 3 must answer
    assert order == [3, 0, 1, 2]
    assert s.to_act == 3
    s, events = step(s, Pass())
    assert s.phase == "play" and s.players[1].engine == v12
    assert s.players[1].money == 15
    assert [e.kind for e in events][-2:] == ["money", "sale"]
    check_invariants(s)


def test_ff4_opener_buys_at_opening_price_when_all_pass(arrange, cid):
    """FF-4: the opening price is the opener's bid; if nobody outbids, they buy."""
    carbon = cid("Carbon")
    s = arrange(3, turn=1, market=[(carbon, 0)])
    s, _ = step(s, StartAuction(carbon, 2))
    s, _ = step(s, Pass())
    s, _ = step(s, Pass())
    assert s.players[1].chassis == carbon and s.players[1].money == 18
    assert carbon not in s.market_cards


def test_ff4_bids_must_rise_and_only_the_turn_player_starts(arrange, cid):
    """FF-4: a bid beats the highest; no new auction while one runs; one card at a time."""
    v12, carbon = cid("V12"), cid("Carbon")
    s = arrange(2, turn=0, market=[(v12, 1), (carbon, 1)])
    with pytest.raises(AuctionError, match="FF-4: the starting price must be at least 1"):
        step(s, StartAuction(v12, 0))
    with pytest.raises(
        CardNotAvailableError, match=r"FF-4: #0 Rocco Vela \(driver 6\) is not on the market"
    ):
        step(s, StartAuction(0, 3))
    with pytest.raises(PhaseError, match="FF-4: no auction is running"):
        step(s, Bid(3))
    s, _ = step(s, StartAuction(v12, 3))
    with pytest.raises(AuctionError, match="FF-4: a bid must beat the highest bid of 3"):
        step(s, Bid(3))
    with pytest.raises(PhaseError, match="FF-4: an auction is running: P2 must bid"):
        step(s, StartAuction(carbon, 1))
    with pytest.raises(PhaseError, match="FF-4"):
        step(s, EndTurn())
    legal = legal_actions(s)
    assert Pass() in legal and Bid(4) in legal and Bid(3) not in legal
    assert all(isinstance(a, Bid | Pass) for a in legal)


def test_ff4_several_auctions_in_one_turn(arrange, cid):
    """FF-4: the player on turn may run any number of auctions, one after the other."""
    v12, carbon = cid("V12"), cid("Carbon")
    s = arrange(2, turn=0, market=[(v12, 1), (carbon, 1)])
    for card in (v12, carbon):
        s, _ = step(s, StartAuction(card, 1))
        s, _ = step(s, Pass())
    assert s.players[0].engine == v12 and s.players[0].chassis == carbon
    assert s.players[0].money == 18 and s.phase == "play"


def test_ff5_new_engine_returns_old_one_to_the_market(arrange, cid):
    """FF-5: buying an engine or chassis returns the old one to the market."""
    old_e, new_e, old_c, new_c = cid("V6"), cid("V12"), cid("Go-kart frame"), cid("Carbon")
    s = arrange(
        2,
        turn=0,
        teams={0: {"engine": old_e, "chassis": old_c}},
        market=[(new_e, 1), (new_c, 1)],
    )
    for card in (new_e, new_c):
        s, _ = step(s, StartAuction(card, 1))
        s, _ = step(s, Pass())
    assert s.players[0].engine == new_e and s.players[0].chassis == new_c
    assert set(s.market) == {(old_e, 0), (old_c, 0)}
    check_invariants(s)


def test_ff5_third_driver_returns_one_of_the_owners_choice(arrange, cid):
    """FF-5: buying a third driver returns one of the two, chosen by the owner."""
    d1, d2, new = cid("Marco Fiume"), cid("Lena Hart"), cid("Rocco Vela")
    s = arrange(2, turn=1, teams={0: {"drivers": (d1, d2)}}, market=[(new, 1)])
    s, _ = step(s, StartAuction(new, 2))
    s, _ = step(s, Bid(3))  # player 0 outbids
    s, _ = step(s, Pass())
    assert s.phase == "return_driver" and s.to_act == 0
    assert s.players[0].drivers == (d1, d2) and s.players[0].money == 17
    assert sorted(legal_actions(s), key=str) == sorted(
        [ReturnDriver(d1), ReturnDriver(d2)], key=str
    )
    check_invariants(s)
    with pytest.raises(AuctionError, match="FF-5: return one of your two drivers"):
        step(s, ReturnDriver(new))
    with pytest.raises(PhaseError, match="FF-5: P1 bought a third driver"):
        step(s, EndTurn())
    s, _ = step(s, ReturnDriver(d2))
    assert s.players[0].drivers == (d1, new)
    assert (d2, 0) in s.market and new not in s.market_cards
    assert s.phase == "play" and s.to_act == 1
    check_invariants(s)


def test_ff5_team_holds_one_engine_one_chassis_two_drivers(arrange, cid):
    """FF-5: whatever is bought, the team never exceeds its slots."""
    drivers = [cid("Rocco Vela"), cid("Lena Hart"), cid("Marco Fiume")]
    s = arrange(2, turn=0, market=[(d, 1) for d in drivers])
    for d in drivers:
        s, _ = step(s, StartAuction(d, 1))
        s, _ = step(s, Pass())
    assert s.phase == "return_driver"
    s, _ = step(s, legal_actions(s)[0])
    assert len(s.players[0].drivers) == 2


def test_ff6_winner_who_cannot_pay_pays_half_rounded_up(arrange, cid):
    """FF-6: the sale is cancelled and the winner pays half the bid, rounded up."""
    v12 = cid("V12")
    s = arrange(2, turn=0, money={0: 20, 1: 20}, market=[(v12, 1)])
    s, _ = step(s, StartAuction(v12, 25))
    s, events = step(s, Pass())
    assert s.players[0].money == 20 - 13
    assert s.players[0].engine is None and v12 in s.market_cards
    assert any(e.kind == "failed_payment" and "FF-6" in e.text for e in events)
    # the auction restarts without an opening bid, among players with money
    assert s.phase == "auction" and s.auction.high_bidder is None and s.auction.high_bid == 0
    assert s.auction.active == (0, 1) and s.to_act == 0
    s, _ = step(s, Pass())
    s, _ = step(s, Bid(2))
    assert s.players[1].engine == v12 and s.players[1].money == 18


def test_ff6_winner_with_less_than_half_pays_everything(arrange, cid):
    """FF-6: if they have less than half the bid, they give all their money."""
    v12 = cid("V12")
    s = arrange(3, turn=0, money={0: 4, 1: 0, 2: 9}, market=[(v12, 1)])
    s, _ = step(s, StartAuction(v12, 6))
    assert s.to_act == 2  # player 1 has no money and takes no part
    s, _ = step(s, Bid(30))
    s, _ = step(s, Pass())
    assert s.players[2].money == 0
    # the auction restarts without players who have no money
    assert s.phase == "auction" and s.auction.active == (0,)
    s, _ = step(s, Pass())
    assert s.phase == "play" and v12 in s.market_cards
    assert [p.money for p in s.players] == [4, 0, 0]


def test_ff6_player_without_money_cannot_open(arrange, cid):
    """FF-6: players without money take no part in auctions, not even as opener."""
    v12 = cid("V12")
    s = arrange(2, turn=0, money={0: 0}, market=[(v12, 1)])
    with pytest.raises(AuctionError, match="FF-6"):
        step(s, StartAuction(v12, 1))
    assert not any(isinstance(a, StartAuction) for a in legal_actions(s))


def test_ff6_opener_alone_with_money_buys_or_fails_at_once(arrange, cid):
    """FF-6: with nobody else able to bid, the opener's bid settles immediately."""
    v12 = cid("V12")
    s = arrange(2, turn=0, money={0: 5, 1: 0}, market=[(v12, 1)])
    bought, _ = step(s, StartAuction(v12, 5))
    assert bought.phase == "play" and bought.players[0].engine == v12
    failed, _ = step(s, StartAuction(v12, 8))
    assert failed.players[0].money == 1 and failed.phase == "auction"


def test_ff4_sponsor_cannot_be_played_during_an_auction(arrange, cid):
    """FF-4: while an auction runs only bids and passes are legal."""
    v12, pizza = cid("V12"), cid("Pizza Napoli")
    s = arrange(2, turn=0, hands={0: (pizza,)}, market=[(v12, 1)])
    s, _ = step(s, StartAuction(v12, 2))
    with pytest.raises(PhaseError):
        step(s, PlaySponsor(pizza))
    with pytest.raises(PhaseError):
        step(s, Draw(1))
