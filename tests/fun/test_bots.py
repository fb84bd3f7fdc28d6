"""The bots' stated behaviour: the random bot plays legal moves; the sensible bot bids by
what a card adds to its team, keeps a money reserve, signs its best sponsor and races
when ahead."""

import random

from fdlab.fun.actions import Bid, EndTurn, Pass, PlayCircuit, PlaySponsor, StartAuction
from fdlab.fun.bots import FunRandomBot, SensibleBot, team_strength
from fdlab.fun.engine import legal_actions, step


def _team(cid, engine, chassis, *drivers):
    return {
        "engine": cid(engine) if engine else None,
        "chassis": cid(chassis) if chassis else None,
        "drivers": tuple(cid(d) for d in drivers),
    }


def _bid_for(arrange, cid, card, team, money=20):
    """Player 1 opens an auction of ``card`` at 1 M$; return player 0's (the bot's) answer."""
    s = arrange(2, turn=1, teams={0: team}, money={0: money}, market=[(cid(card), 1)])
    s, _ = step(s, StartAuction(cid(card), 1))
    assert s.to_act == 0
    return SensibleBot(0).choose(s, legal_actions(s))


def test_sensible_bot_bids_for_the_card_that_completes_its_team(arrange, cid):
    """A V12 for a team with a chassis and a driver (it makes a car) is worth a bid."""
    assert _bid_for(arrange, cid, "V12", _team(cid, None, "Carbon", "Yuki Arden")) == Bid(2)


def test_sensible_bot_passes_on_a_card_that_adds_nothing(arrange, cid):
    """A weaker engine than its own adds nothing to its team: it passes."""
    team = _team(cid, "V12", "Carbon", "Yuki Arden")
    assert _bid_for(arrange, cid, "Lawnmower", team) == Pass()


def test_sensible_bot_keeps_a_reserve_and_never_risks_a_failed_payment(arrange, cid):
    """With 4 M$ and a reserve of 3 M$, the bot bids at most 1 M$: it passes at 2."""
    team = _team(cid, None, "Carbon", "Yuki Arden")
    assert _bid_for(arrange, cid, "V12", team, money=4) == Pass()
    bot = SensibleBot(0)
    bought = 0
    for seed in range(10):
        rng = random.Random(seed)
        cap = rng.randint(6, 19)  # how far the rivals go this time
        s = arrange(3, seed=seed, turn=1, teams={0: team}, market=[(cid("V12"), 1)])
        s, _ = step(s, StartAuction(cid("V12"), 1))
        while s.phase == "auction":
            if s.to_act == 0:
                action = bot.choose(s, legal_actions(s))
            elif s.auction.high_bid < cap:
                action = Bid(s.auction.high_bid + 1)  # rivals push the price up
            else:
                action = Pass()
            if isinstance(action, Bid) and s.to_act == 0:
                assert action.amount <= s.players[0].money - bot.reserve
            s, events = step(s, action)
            assert not any(e.kind == "failed_payment" and e.player == 0 for e in events)
        bought += s.players[0].engine == cid("V12")
    assert 0 < bought < 10, "the bot wins some of these auctions and lets others go"


def test_sensible_bot_signs_its_richest_sponsor_first(arrange, cid):
    s = arrange(2, hands={0: (cid("Pizza Napoli"), cid("Petrolio Grande"), cid("Caffè Turbo"))})
    assert SensibleBot(0).choose(s, legal_actions(s)) == PlaySponsor(cid("Petrolio Grande"))


def test_sensible_bot_races_when_ahead_and_not_when_behind(arrange, cid):
    """It plays a circuit card when its cars would score at least as much as any rival's."""
    strong = _team(cid, "V12", "Wind-tunnel carbon", "Ines Marlow")
    weak = _team(cid, "Lawnmower", "Go-kart frame", "Nico Rami")
    monza = cid("Monza")
    ahead = arrange(2, hands={0: (monza,)}, teams={0: strong, 1: weak})
    assert SensibleBot(0).choose(ahead, legal_actions(ahead)) == PlayCircuit(monza)
    behind = arrange(2, hands={0: (monza,)}, teams={0: weak, 1: strong})
    assert PlayCircuit(monza) in legal_actions(behind)
    assert SensibleBot(0).choose(behind, legal_actions(behind)) == EndTurn()


def test_team_strength_rewards_complete_teams(arrange, cid, deck):
    s = arrange(2)
    parts = _team(cid, "V12", "Carbon", "Yuki Arden")
    from fdlab.fun.state import PlayerState

    complete = PlayerState(money=0, **parts)
    no_engine = PlayerState(money=0, chassis=parts["chassis"], drivers=parts["drivers"])
    assert team_strength(s, complete) == 6 + 5 + 5
    assert team_strength(s, no_engine) < team_strength(s, complete) / 2


def test_random_bot_always_picks_a_legal_action(arrange, cid):
    s = arrange(3, hands={0: (cid("V12"), cid("Monza"), cid("Pizza Napoli"))})
    bot = FunRandomBot(4)
    legal = legal_actions(s)
    picks = {bot.choose(s, legal) for _ in range(200)}
    assert picks <= set(legal) and len({type(a) for a in picks}) >= 3


def _bot_turn(state, bot):
    """Let ``bot`` (player 0, on turn) play until it ends its turn; return the events."""
    events = []
    while state.to_act == 0 and not state.is_over:
        action = bot.choose(state, legal_actions(state))
        if isinstance(action, EndTurn):
            break
        state, happened = step(state, action)
        events.extend(happened)
    return state, events


def test_sensible_bot_does_not_buy_back_the_driver_it_just_returned(arrange, cid):
    """Issue 16: with two clause drivers, buying a third and returning one must not start a
    loop of buy-backs (it used to spend 16 M$ in one turn trading Dino Sacco and Prince
    Kasimir back and forth: the value of a driver ignored the clause of the one given up)."""
    team = {
        **_team(cid, "V8", "Monocoque", "Baron von Geld", "Prince Kasimir"),
    }
    s = arrange(2, teams={0: team}, money={0: 20, 1: 0}, market=[(cid("Dino Sacco"), 1)])
    s, events = _bot_turn(s, SensibleBot(0))
    sales = [e for e in events if e.kind == "sale"]
    assert len(sales) <= 1, [e.text for e in sales]
    assert s.players[0].money >= 19
    # Prince Kasimir (3 M$ after every race) is worth more than Dino Sacco (1 M$): he stays
    assert cid("Prince Kasimir") in s.players[0].drivers
