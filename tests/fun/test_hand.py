"""End of turn: hand limit, discards, six circuit cards, reshuffle (FF-13)."""

import pytest

from fdlab.fun.actions import Discard, Draw, EndTurn, PlaySpecial
from fdlab.fun.engine import legal_actions, step
from fdlab.fun.errors import DiscardError, HandLimitError
from fdlab.fun.invariants import check_invariants
from fdlab.fun.state import PlayerState


def test_ff13_hand_limit_five_at_end_of_turn(arrange, cid):
    """FF-13: the turn passes only with at most 5 cards in hand; the excess is discarded."""
    hand = tuple(cid(n) for n in ("Pizza Napoli", "Prize money", "Scouting", "Crash", "Tax audit"))
    extra = cid("Caffè Turbo")
    s = arrange(2, hands={0: (*hand, extra)})
    with pytest.raises(
        HandLimitError, match="FF-13: end the turn with at most 5 cards in hand; you hold 6"
    ):
        step(s, EndTurn())
    assert EndTurn() not in legal_actions(s)
    s, _ = step(s, Discard(extra))
    assert s.discard[-1] == extra
    with pytest.raises(DiscardError, match="FF-13: only cards over the hand limit of 5"):
        step(s, Discard(hand[0]))
    assert not any(isinstance(a, Discard) for a in legal_actions(s))
    s, _ = step(s, EndTurn())
    assert s.turn == 1


def test_ff13_parts_may_not_be_discarded(arrange, cid):
    """FF-13: drivers, engines and chassis go on the market or stay in hand, never the discard."""
    parts = [
        cid("driver 1"),
        cid("driver 2"),
        cid("engine 1"),
        cid("engine 2"),
        cid("chassis 1"),
        cid("chassis 2"),
    ]
    s = arrange(2, hands={0: parts})
    with pytest.raises(
        DiscardError, match="FF-13: drivers, engines and chassis may not be discarded"
    ):
        step(s, Discard(parts[0]))
    assert not any(isinstance(a, Discard) for a in legal_actions(s))


def test_ff13_circuit_not_discarded_while_a_race_is_possible(arrange, cid):
    """FF-13: a circuit card may not be discarded while some team could race."""
    cards = [
        cid("Monza"),
        cid("Pizza Napoli"),
        cid("Pizza Napoli", 1),
        cid("Gelato Stella"),
        cid("Gelato Stella", 1),
        cid("Crash"),
    ]
    team = {"engine": cid("V6"), "chassis": cid("Aluminium"), "drivers": (cid("Lena Hart"),)}
    racing = arrange(2, hands={0: cards}, teams={1: team})
    with pytest.raises(
        DiscardError, match="FF-13: a circuit card may not be discarded while a team could race"
    ):
        step(racing, Discard(cards[0]))
    assert Discard(cards[0]) not in legal_actions(racing)
    idle = arrange(2, hands={0: cards}, teams={1: {"engine": cid("V6")}})
    assert Discard(cards[0]) in legal_actions(idle)
    after, _ = step(idle, Discard(cards[0]))
    assert after.discard[-1] == cards[0]


def test_ff13_six_circuit_cards_are_shown_discarded_and_replaced(arrange, cid):
    """FF-13: a player holding all six circuit cards shows them, discards them and draws five."""
    circuits = [c.id for c in arrange(2).deck.of_kind("circuit")]
    s = arrange(2, phase="draw", hands={0: circuits[:5]})
    s = s.replace(draw_pile=tuple(c for c in s.draw_pile if c != circuits[5]) + (circuits[5],))
    check_invariants(s)
    after, events = step(s, Draw(1))
    assert any(e.kind == "six_circuits" and "FF-13" in e.text for e in events)
    hand = after.players[0].hand
    assert len(hand) == 5 and not set(hand) & set(circuits)
    assert set(circuits) <= set(after.discard)
    check_invariants(after)


def test_ff13_discard_pile_reshuffled_when_deck_runs_out(arrange, cid):
    """FF-13: when the deck runs out, the discard pile is shuffled into a new deck."""
    s = arrange(2, phase="draw")
    pile = s.draw_pile
    s = s.replace(draw_pile=pile[:1], discard=pile[1:])
    after, events = step(s, Draw(3))
    kinds = [e.kind for e in events]
    assert "reshuffle" in kinds and any("FF-13" in e.text for e in events)
    assert len(after.players[0].hand) == 3 and after.players[0].hand[0] == pile[0]
    assert after.discard == () and len(after.draw_pile) == len(pile) - 3
    check_invariants(after)
    other_seed = arrange(2, seed=1, phase="draw").replace(draw_pile=pile[:1], discard=pile[1:])
    assert step(other_seed, Draw(3))[0].draw_pile != after.draw_pile


def test_ff13_empty_deck_and_discard_draws_nothing(arrange, cid):
    """FF-13: with no card anywhere to draw, the free draw draws nothing; paid draws are refused."""
    s = arrange(2, phase="draw")
    everything = s.draw_pile
    s = s.replace(
        draw_pile=(),
        players=(
            PlayerState(money=20, hand=everything[:4]),
            PlayerState(money=20, hand=everything[4:]),
        ),
    )
    assert legal_actions(s) == [Draw(1)]
    after, _ = step(s, Draw(1))
    assert after.players[0].hand == everything[:4] and after.phase == "play"


def test_ff13_scouting_draw_also_checks_six_circuits(arrange, cid):
    """FF-13: the six-circuit rule applies to any draw, also a special's."""
    circuits = [c.id for c in arrange(2).deck.of_kind("circuit")]
    scout = cid("Scouting")
    s = arrange(2, hands={0: (*circuits[:4], scout)})
    s = s.replace(
        draw_pile=tuple(c for c in s.draw_pile if c not in circuits[4:]) + tuple(circuits[4:])
    )
    after, events = step(s, PlaySpecial(scout))
    assert any(e.kind == "six_circuits" for e in events)
    assert not set(after.players[0].hand) & set(circuits)
