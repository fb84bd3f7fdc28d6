"""Driver clauses, sponsors and special cards (FF-7, FF-8, FF-9)."""

import pytest

from fdlab.fun.actions import Bid, Pass, PlayCircuit, PlaySpecial, PlaySponsor, StartAuction
from fdlab.fun.engine import legal_actions, step
from fdlab.fun.errors import CardNotAvailableError, PhaseError, SpecialCardError, SponsorError
from fdlab.fun.invariants import check_invariants


def _team(cid, engine, chassis, *drivers, sponsors=()):
    return {
        "engine": cid(engine),
        "chassis": cid(chassis),
        "drivers": tuple(cid(d) for d in drivers),
        "sponsors": tuple(cid(s) for s in sponsors),
    }


def test_ff7_win_clause_paid_only_by_the_winner(arrange, cid):
    """FF-7: Rocco Vela costs 3 M$ after each race he wins; nothing when he loses."""
    circuit = cid("Monza")
    winner = arrange(
        2,
        hands={0: (circuit,)},
        teams={
            0: _team(cid, "V12", "Carbon", "Rocco Vela"),
            1: _team(cid, "V6", "Aluminium", "Lena Hart"),
        },
    )
    s, events = step(winner, PlayCircuit(circuit))
    assert s.races[0].cars[0].driver == cid("Rocco Vela")
    assert s.players[0].money == 17 and s.players[1].money == 20
    assert any(e.kind == "money" and "Rocco Vela's clause" in e.text for e in events)

    loser = arrange(
        2,
        hands={0: (circuit,)},
        teams={
            0: _team(cid, "V6", "Aluminium", "Rocco Vela"),
            1: _team(cid, "V12", "Carbon", "Lena Hart"),
        },
    )
    s, _ = step(loser, PlayCircuit(circuit))
    assert s.races[0].cars[0].player == 1
    assert s.players[0].money == 20


def test_ff7_race_clauses_every_race_and_unpaid_when_short(arrange, cid):
    """FF-7: clauses act after every race while in play; an owner without enough pays nothing."""
    circuit = cid("Monza")
    s = arrange(
        2,
        hands={0: (circuit,)},
        money={0: 20, 1: 0},
        teams={
            0: _team(cid, "V6", "Aluminium", "Prince Kasimir", "Baron von Geld"),
            1: _team(cid, "V12", "Carbon", "Giulia Sprint"),
        },
    )
    s, events = step(s, PlayCircuit(circuit))
    assert s.players[0].money == 20 + 3 + 2  # the pay drivers bring money
    assert s.players[1].money == 0  # Giulia Sprint's 1 M$ cannot be paid: nothing is paid
    assert any(e.kind == "clause" and "FF-7" in e.text for e in events)


def test_ff7_clause_inactive_when_driver_not_in_play(arrange, cid):
    """FF-7: a clause is active only while the card is in play (not in hand)."""
    circuit = cid("Monza")
    s = arrange(
        2,
        hands={0: (circuit,), 1: (cid("Prince Kasimir"),)},
        teams={0: _team(cid, "V6", "Aluminium", "Lena Hart")},
    )
    s, _ = step(s, PlayCircuit(circuit))
    assert s.players[1].money == 20


def test_ff8_sponsor_pays_when_played_and_after_every_race(arrange, cid):
    """FF-8: a sponsor pays its amount when played and after every race."""
    pizza, circuit = cid("Petrolio Grande"), cid("Monza")
    s = arrange(
        2,
        hands={0: (pizza, circuit)},
        teams={1: _team(cid, "V6", "Aluminium", "Lena Hart", sponsors=("Banca Rossa",))},
    )
    s, events = step(s, PlaySponsor(pizza))
    assert s.players[0].money == 24 and s.players[0].sponsors == (pizza,)
    assert [e.amount for e in events if e.kind == "money"] == [4]
    s, _ = step(s, PlayCircuit(circuit))
    # player 0 does not race but its sponsor still pays; so does player 1's
    assert s.players[0].money == 28 and s.players[1].money == 23


def test_ff8_one_sponsor_per_turn_and_two_at_most(arrange, cid):
    """FF-8: one sponsor may be played free per turn; at most two per player."""
    a, b, c = cid("Pizza Napoli"), cid("Pizza Napoli", 1), cid("Caffè Turbo")
    s = arrange(2, hands={0: (a, b, c)}, teams={0: {"sponsors": (cid("Banca Rossa"),)}})
    s, _ = step(s, PlaySponsor(a))
    with pytest.raises(SponsorError, match="FF-8: one sponsor may be played per turn"):
        step(s, PlaySponsor(b))
    s = s.replace(sponsor_played=False)
    with pytest.raises(SponsorError, match="FF-8: at most 2 sponsors per player"):
        step(s, PlaySponsor(b))
    assert not any(isinstance(x, PlaySponsor) for x in legal_actions(s))
    with pytest.raises(SponsorError, match="FF-8: .* is not a sponsor"):
        step(arrange(2, hands={0: (cid("Monza"),)}), PlaySponsor(cid("Monza")))


def test_ff8_sponsor_replaced_only_through_a_special_card(arrange, cid):
    """FF-8: a sponsor in play is replaced only through a special card (New sponsor deal)."""
    deal, old, old2, new = (
        cid("New sponsor deal"),
        cid("Pizza Napoli"),
        cid("Gelato Stella"),
        cid("Petrolio Grande"),
    )
    s = arrange(2, hands={0: (deal, new)}, teams={0: {"sponsors": (old, old2)}})
    assert PlaySponsor(new) not in legal_actions(s)
    assert PlaySpecial(deal, old, new) in legal_actions(s)
    s2, _ = step(s, PlaySpecial(deal, old, new))
    assert s2.players[0].sponsors == (old2, new)
    assert s2.players[0].money == 24
    assert s2.discard[-2:] == (old, deal)
    with pytest.raises(
        SpecialCardError,
        match=r"FF-8: #\d+ Petrolio Grande \(sponsor 4 M\$\) is not one of your sponsors",
    ):
        step(s, PlaySpecial(deal, new, old))
    with pytest.raises(SpecialCardError, match="FF-8: name the sponsor"):
        step(s, PlaySpecial(deal, old))


def test_ff9_special_removes_a_card_in_play_and_is_discarded(arrange, cid):
    """FF-9: the player on turn plays a special, follows it and discards it; 'remove' means discard."""
    failure, v12 = cid("Engine failure"), cid("V12")
    s = arrange(2, hands={0: (failure,)}, teams={1: {"engine": v12}})
    s, events = step(s, PlaySpecial(failure, v12))
    assert s.players[1].engine is None
    assert s.discard[-2:] == (v12, failure)
    assert [e.kind for e in events] == ["special", "discard_in_play"]
    check_invariants(s)


def test_ff9_special_targets_are_checked(arrange, cid):
    """FF-9: a special's target must fit its text (kind, whose card, in play)."""
    failure, scandal = cid("Engine failure"), cid("Sponsor scandal")
    mine, theirs, sponsor = cid("V12"), cid("V12", 1), cid("Banca Rossa")
    s = arrange(
        2,
        hands={0: (failure, scandal)},
        teams={0: {"engine": mine, "sponsors": (sponsor,)}, 1: {"engine": theirs}},
    )
    with pytest.raises(
        SpecialCardError, match="FF-9: Engine failure removes a rival's card, not your own V12"
    ):
        step(s, PlaySpecial(failure, mine))
    with pytest.raises(
        SpecialCardError, match="FF-9: Engine failure removes an engine in play, not a sponsor"
    ):
        step(s, PlaySpecial(failure, sponsor))
    with pytest.raises(SpecialCardError, match="FF-9: Engine failure needs a target"):
        step(s, PlaySpecial(failure))
    with pytest.raises(SpecialCardError, match=r"FF-9: #0 Rocco Vela \(driver 6\) is not in play"):
        step(s, PlaySpecial(failure, 0))
    # "any": a sponsor scandal may hit your own sponsor
    own, _ = step(s, PlaySpecial(scandal, sponsor))
    assert own.players[0].sponsors == ()
    targets = {
        a.target for a in legal_actions(s) if isinstance(a, PlaySpecial) and a.card == failure
    }
    assert targets == {theirs}


def test_ff9_untargeted_specials(arrange, cid):
    """FF-9: money, draw and market specials; money moves only with the bank."""
    prize, audit, scout, crash = (
        cid("Prize money"),
        cid("Tax audit"),
        cid("Scouting"),
        cid("Market crash"),
    )
    s = arrange(3, hands={0: (prize, audit, scout, crash)}, money={1: 1}, market=[(cid("V12"), 1)])
    with pytest.raises(SpecialCardError, match="FF-9: Prize money takes no target"):
        step(s, PlaySpecial(prize, cid("V12")))
    s, _ = step(s, PlaySpecial(prize))
    assert s.players[0].money == 23
    s, _ = step(s, PlaySpecial(audit))
    assert [p.money for p in s.players] == [23, 0, 18]
    s, _ = step(s, PlaySpecial(scout))
    assert len(s.players[0].hand) == 1 + 2
    s, _ = step(s, PlaySpecial(crash))
    assert s.market == ()
    check_invariants(s)


def test_ff9_only_the_player_on_turn_plays_specials(arrange, cid):
    """FF-9: during an auction (another player deciding) no special can be played."""
    prize, v12 = cid("Prize money"), cid("V12")
    s = arrange(2, turn=0, hands={1: (prize,)}, market=[(v12, 0)])
    s, _ = step(s, StartAuction(v12, 1))
    assert s.to_act == 1
    with pytest.raises(PhaseError):
        step(s, PlaySpecial(prize))
    assert PlaySpecial(prize) not in legal_actions(s)
    s, _ = step(s, Bid(2))
    s, _ = step(s, Pass())
    assert s.phase == "play" and s.players[1].engine == v12
    # back on player 0's turn: player 1's card is not in the hand of the player on turn
    with pytest.raises(CardNotAvailableError, match="FF-9"):
        step(s, PlaySpecial(prize))
