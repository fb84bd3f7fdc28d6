"""Circuit cards, races, ties, points and the championship length (FF-10 .. FF-12, FF-15)."""

import random
from collections import Counter
from dataclasses import replace

import pytest

from fdlab.fun.actions import EndTurn, PlayCircuit, PlaySpecial
from fdlab.fun.engine import legal_actions, step
from fdlab.fun.errors import CircuitCardError, GameOverError, SpecialCardError
from fdlab.fun.race import Car, classify


def _team(cid, engine, chassis, *drivers):
    return {
        "engine": cid(engine),
        "chassis": cid(chassis),
        "drivers": tuple(cid(d) for d in drivers),
    }


def test_ff12_seed_worked_example(arrange, cid):
    """FF-10, FF-12: the seed's example on "+2 to cars with a driver of 5 or 6".

    A: 4+4+5 and +2 = 15; B: 3+6+4 = 13 and 3+6+3 = 12. A scores 4, B 2 and 1.
    """
    silverstone = cid("Silverstone")
    s = arrange(
        2,
        hands={0: (silverstone,)},
        teams={
            0: _team(cid, "engine 4", "chassis 4", "Yuki Arden"),
            1: _team(cid, "V12", "chassis 3", "Lena Hart", "Marco Fiume"),
        },
    )
    assert s.deck[silverstone].text == "+2 to cars with a driver of 5 or 6"
    s, events = step(s, PlayCircuit(silverstone))
    race = s.races[0]
    assert [(c.player, c.value, c.points) for c in race.cars] == [
        (0, 15, 4),
        (1, 13, 2),
        (1, 12, 1),
    ]
    assert s.points == (4, 3)
    assert [e.amount for e in events if e.kind == "car"] == [4, 2, 1]
    assert s.discard[-1] == silverstone


def test_ff10_every_complete_team_races_one_car_per_driver(arrange, cid):
    """FF-10: teams with engine, chassis and 1-2 drivers must race; the others cannot."""
    monza = cid("Monza")
    s = arrange(
        4,
        hands={0: (monza,)},
        teams={
            0: _team(cid, "V6", "Aluminium", "Lena Hart", "Marco Fiume"),
            1: _team(cid, "V8", "Monocoque", "Yuki Arden"),
            2: {"engine": cid("V12"), "drivers": (cid("Rocco Vela"),)},  # no chassis
        },
    )
    s, _ = step(s, PlayCircuit(monza))
    cars = s.races[0].cars
    assert sorted(c.player for c in cars) == [0, 0, 1]
    assert [c.points for c in cars] == [4, 2, 1]


def test_ff10_modifiers_change_values(arrange, cid):
    """FF-10: value = chassis + engine + driver plus the circuit's modifier."""
    teams = {
        0: _team(cid, "V12", "chassis 1", "Dino Sacco"),
        1: _team(cid, "engine 1", "Carbon", "Ines Marlow"),
    }
    expected = {
        "Monza": (6 + 1 + 1 + 2, 1 + 5 + 6),
        "Silverstone": (8, 12 + 2),
        "Monaco": (8 + 1, 12 + 6),
        "Spa": (8 + 1, 12 + 1),
        "Hungaroring": (8 + 2, 12 + 2),
        "Interlagos in the rain": (8 + 3, 12),
    }
    for name, values in expected.items():
        s = arrange(2, hands={0: (cid(name),)}, teams=teams)
        s, _ = step(s, PlayCircuit(cid(name)))
        by_player = {c.player: c.value for c in s.races[0].cars}
        assert (by_player[0], by_player[1]) == values, name


def test_ff10_one_circuit_per_turn_and_only_when_a_race_is_possible(arrange, cid):
    """FF-10: at most one circuit card per turn; none without a car to race."""
    monza, spa = cid("Monza"), cid("Spa")
    empty = arrange(2, hands={0: (monza,)})
    with pytest.raises(
        CircuitCardError, match="FF-10: no team has an engine, a chassis and a driver"
    ):
        step(empty, PlayCircuit(monza))
    assert PlayCircuit(monza) not in legal_actions(empty)
    s = arrange(2, hands={0: (monza, spa)}, teams={1: _team(cid, "V6", "Aluminium", "Lena Hart")})
    s, _ = step(s, PlayCircuit(monza))
    with pytest.raises(
        CircuitCardError, match="FF-10: at most one circuit card may be played per turn"
    ):
        step(s, PlayCircuit(spa))
    assert PlayCircuit(spa) not in legal_actions(s)
    s, _ = step(s, EndTurn())
    assert not s.circuit_played


def test_ff11_tie_goes_to_the_player_with_more_cards_in_hand(arrange, cid):
    """FF-11: equal value, the player with more cards in hand finishes ahead."""
    monza = cid("Monza")
    teams = {
        0: _team(cid, "V6", "Aluminium", "Lena Hart"),
        1: _team(cid, "V6", "Aluminium", "Paolo Brisa"),
    }
    teams[1]["engine"], teams[1]["chassis"] = cid("V6", 1), cid("Aluminium", 1)
    more = (cid("Pizza Napoli"), cid("Pizza Napoli", 1))
    s = arrange(2, hands={0: (monza,), 1: more}, teams=teams)
    s, events = step(s, PlayCircuit(monza))
    assert [c.player for c in s.races[0].cars] == [1, 0]
    assert not any(e.kind == "lots" for e in events)
    tie = next(e for e in events if e.kind == "tie")  # the log says which cars tied and why
    assert tie.text == (
        "P2's Paolo Brisa and P1's Lena Hart tie on value 10: more cards in hand finish ahead "
        "(P2 holds 2 cards; P1 holds 0 cards) (FF-11)"
    )
    s = arrange(2, hands={0: (monza, *more, cid("Gelato Stella"))}, teams=teams)
    s, _ = step(s, PlayCircuit(monza))
    assert [c.player for c in s.races[0].cars] == [0, 1]


def test_ff11_still_tied_lots_are_drawn_reproducibly(arrange, cid):
    """FF-11: same value and same hand size: lots, different by seed, fixed for a seed."""
    monza = cid("Monza")
    teams = {
        0: _team(cid, "V6", "Aluminium", "Lena Hart"),
        1: _team(cid, "V6", "Aluminium", "Paolo Brisa"),
    }
    teams[1]["engine"], teams[1]["chassis"] = cid("V6", 1), cid("Aluminium", 1)
    winners = Counter()
    for seed in range(30):
        s = arrange(2, seed=seed, hands={0: (monza,)}, teams=teams)
        after, events = step(s, PlayCircuit(monza))
        assert any(
            e.kind == "lots" and "tie on value" in e.text and "lots decide" in e.text
            for e in events
        )
        assert step(s, PlayCircuit(monza))[0] == after
        winners[after.races[0].cars[0].player] += 1
    assert set(winners) == {0, 1}


def test_ff11_classify_orders_by_value_then_hand():
    """FF-11: the pure classification function."""
    cars = [Car(0, 1, 10), Car(1, 2, 12), Car(2, 3, 10)]
    results, lots = classify(cars, [1, 0, 4], random.Random(0))
    assert [r.player for r in results] == [1, 2, 0] and not lots
    assert [r.points for r in results] == [4, 2, 1]


def test_ff15_championship_ends_after_six_races(arrange, cid):
    """FF-15: six races, most points wins; nothing more can be played."""
    monza, spa = cid("Monza"), cid("Spa")
    teams = {
        0: _team(cid, "V12", "Carbon", "Rocco Vela"),
        1: _team(cid, "V6", "Aluminium", "Lena Hart"),
    }
    s = arrange(2, hands={0: (monza,)}, teams=teams)
    for n in range(1, 7):
        card = monza if n % 2 else spa
        s = s.replace(
            players=(replace(s.players[0], hand=(card,)), s.players[1]),
            circuit_played=False,
            draw_pile=tuple(c for c in s.draw_pile if c != card),
            discard=tuple(c for c in s.discard if c != card),
        )
        s, events = step(s, PlayCircuit(card))
        assert (s.phase == "over") == (n == 6)
    assert s.ended == "races" and len(s.races) == 6
    assert s.points == (6 * 3, 6 * 1) and s.winners() == (0,)
    assert events[-1].kind == "game_over" and "P1 win" in events[-1].text
    assert legal_actions(s) == [] and s.to_act is None
    with pytest.raises(GameOverError, match="FF-15"):
        step(s, EndTurn())


def test_ff15_special_lengthens_the_championship_to_at_most_eight(arrange, cid):
    """FF-15: a special card adds a race, to at most eight."""
    extend = cid("Extended season")
    s = arrange(2, hands={0: (extend,)})
    after, events = step(s, PlaySpecial(extend))
    assert after.length == 7 and any("FF-15" in e.text for e in events)
    full = s.replace(length=8)
    with pytest.raises(SpecialCardError, match="FF-15: the championship already has 8 races"):
        step(full, PlaySpecial(extend))
    assert PlaySpecial(extend) not in legal_actions(full)
