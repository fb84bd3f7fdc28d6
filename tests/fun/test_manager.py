"""The manager, fdlab's default opponent (issue 16): it values a card by what it adds to the
team, bids to that value, denies a rival a card it needs, keeps cards in hand for ties, and
has two styles. ``benchmarks/fun_bots.py`` measures how it fares; these tests pin its stated
behaviour on exact positions."""

import pytest

from fdlab.fun.actions import Bid, EndTurn, Pass, PlayCircuit, ReturnDriver, StartAuction
from fdlab.fun.engine import legal_actions, step
from fdlab.fun.game import Game, play_championship
from fdlab.fun.invariants import check_invariants
from fdlab.fun.manager import ManagerBot
from fdlab.fun.opponents import BOTS, DEFAULT_OPPONENT, make_opponent


def _team(cid, engine, chassis, *drivers, copy=0):
    """A team of named cards; ``copy=1`` takes the second card of a name (two teams with a
    V10 need both V10 cards)."""
    return {
        "engine": cid(engine, copy) if engine else None,
        "chassis": cid(chassis, copy) if chassis else None,
        "drivers": tuple(cid(d) for d in drivers),
    }


def _highest_bid(arrange, cid, bot, card, teams, money=None, players=2):
    """Player 1 opens an auction of ``card`` at 1 M$ and keeps raising by 1 M$ while player 0
    (``bot``) bids; return the highest bid player 0 makes (0 if it passes at once)."""
    s = arrange(players, turn=1, teams=teams, money=money or {}, market=[(cid(card), 1)])
    s, _ = step(s, StartAuction(cid(card), 1))
    best = 0
    while s.phase == "auction":
        if s.to_act == 0:
            action = bot.choose(s, legal_actions(s))
            if isinstance(action, Bid):
                best = action.amount
        elif s.auction.high_bidder == 0 and s.auction.high_bid < 19:
            action = Bid(s.auction.high_bid + 1)
        else:
            action = Pass()
        s, _ = step(s, action)
    return best


def test_the_manager_is_the_default_opponent_and_the_other_bots_stay_by_name():
    assert DEFAULT_OPPONENT == "manager" and make_opponent("manager").name == "manager"
    assert {"manager", "manager-bold", "simple", "sensible", "random"} <= set(BOTS)
    game = Game(3, seed=1, bots="manager", human=0)
    assert sorted(game.bots) == [1, 2] and all(
        isinstance(b, ManagerBot) for b in game.bots.values()
    )
    assert game.names[1] == "P2 (manager bot)"
    with pytest.raises(ValueError, match="unknown style 'wild'"):
        ManagerBot(style="wild")


def test_manager_pays_more_for_a_card_that_completes_its_team(arrange, cid):
    """A V12 for a team with a chassis and a driver makes a car: worth far more than the
    same engine to a team without either."""
    bot = ManagerBot(0)
    completing = _highest_bid(
        arrange, cid, bot, "V12", {0: _team(cid, None, "Carbon", "Yuki Arden")}
    )
    lonely = _highest_bid(arrange, cid, bot, "V12", {0: _team(cid, None, None)})
    assert completing >= 5 and completing > lonely + 2


def test_manager_never_bids_more_than_it_can_pay(arrange, cid):
    bot = ManagerBot(0, style="bold")
    team = {0: _team(cid, None, "Carbon", "Yuki Arden")}
    assert _highest_bid(arrange, cid, bot, "V12", team, money={0: 4}) <= 4


def test_manager_denies_a_rival_the_card_it_needs(arrange, cid):
    """A weak second driver adds little to the manager's team, but the rival lacks only a
    driver: the manager bids well above the card's use to itself to keep the rival off the
    grid. Against a rival who has two drivers already it bids much less."""
    mine = _team(cid, "V12", "Wind-tunnel carbon", "Ines Marlow")
    needy = _team(cid, "V10", "Carbon")
    full = _team(cid, "V10", "Carbon", "Rocco Vela", "Tomas Kreid")
    bot = ManagerBot(0)
    denying = _highest_bid(arrange, cid, bot, "Nico Rami", {0: mine, 1: needy})
    only_use = _highest_bid(arrange, cid, bot, "Nico Rami", {0: mine, 1: full})
    assert denying >= only_use + 3


def test_manager_denies_only_heads_up(arrange, cid):
    """With three players, outbidding one rival to keep a card from it spends money the third
    player keeps: the careful manager's limit is the card's use to itself, whatever the rival
    needs. Heads-up it adds what the rival would gain; the bold manager denies the rival
    expected to finish strongest at any table."""
    mine = _team(cid, "V12", "Wind-tunnel carbon", "Ines Marlow")
    needy = _team(cid, "V10", "Carbon")
    third = _team(cid, "Lawnmower", "Go-kart frame", "Dino Sacco")
    nico = cid("Nico Rami")
    market = [(nico, 1)]

    def use_and_limit(bot, state):
        own = bot.own_gain(state, 0, state.deck[nico], bot.point_price(state, 0))
        return own, bot.bid_limit(state, 0, state.deck[nico])

    three = arrange(3, turn=1, teams={0: mine, 1: needy, 2: third}, market=market)
    two = arrange(2, turn=1, teams={0: mine, 1: needy}, market=market)
    own, limit = use_and_limit(ManagerBot(0), three)
    assert limit == pytest.approx(own)
    own, limit = use_and_limit(ManagerBot(0), two)
    assert own + 2 < limit <= 3 * own  # denial counts, at most twice the use (issue 27)
    bold = ManagerBot(0, style="bold")
    assert bold.rivals_to_deny(three, 0) == [1]
    own, limit = use_and_limit(bold, three)
    assert own + 3 < limit <= 3 * own


def test_bold_manager_bids_higher_than_careful(arrange, cid):
    teams = {0: _team(cid, None, "Carbon", "Yuki Arden")}
    careful = _highest_bid(arrange, cid, ManagerBot(0, "careful"), "V12", teams)
    bold = _highest_bid(arrange, cid, ManagerBot(0, "bold"), "V12", teams)
    assert bold > careful


def test_manager_returns_the_driver_it_misses_least(arrange, cid):
    """FF-5: buying a third driver returns one; of two drivers of value 2 it keeps Baron von
    Geld, whose clause brings 2 M$ after every race, and returns Nico Rami."""
    team = _team(cid, "V8", "Monocoque", "Baron von Geld", "Nico Rami")
    s = arrange(2, turn=0, teams={0: team}, market=[(cid("Yuki Arden"), 1)])
    s, _ = step(s, StartAuction(cid("Yuki Arden"), 1))
    s, _ = step(s, Pass())
    assert s.phase == "return_driver"
    assert ManagerBot(0).choose(s, legal_actions(s)) == ReturnDriver(cid("Nico Rami"))


def test_manager_does_not_buy_back_what_it_gave_up(arrange, cid):
    """Issue 16's loop: with two clause drivers and a third on the market, the manager buys at
    most once and keeps its money."""
    team = _team(cid, "V8", "Monocoque", "Baron von Geld", "Prince Kasimir")
    s = arrange(2, teams={0: team}, money={0: 20, 1: 0}, market=[(cid("Dino Sacco"), 1)])
    bot = ManagerBot(0)
    sales = 0
    while s.to_act == 0:
        action = bot.choose(s, legal_actions(s))
        if isinstance(action, EndTurn):
            break
        s, events = step(s, action)
        sales += sum(e.kind == "sale" for e in events)
    assert sales <= 1 and s.players[0].money >= 17


def test_manager_races_when_ahead_and_hand_size_decides_a_tie(arrange, cid):
    """FF-11: cars of equal value finish in order of cards in hand. Holding three cards to
    the rival's one, the manager races before signing a sponsor (after it, the hands would
    be level and lots would decide); holding fewer cards than the rival, it does not race."""
    mine = _team(cid, "V10", "Carbon", "Yuki Arden")  # 15
    theirs = _team(cid, "V10", "Carbon", "Tomas Kreid", copy=1)  # 15 too
    monza = cid("Monza")
    pizza, gelato = (cid("Pizza Napoli", 0), cid("Pizza Napoli", 1)), cid("Gelato Stella")
    bot = ManagerBot(0)
    ahead = arrange(2, hands={0: (monza, *pizza), 1: (gelato,)}, teams={0: mine, 1: theirs})
    assert bot.choose(ahead, legal_actions(ahead)) == PlayCircuit(monza)
    after, _ = step(ahead, PlayCircuit(monza))
    assert after.races[0].cars[0].player == 0
    behind = arrange(2, hands={0: (monza,), 1: (gelato, *pizza)}, teams={0: mine, 1: theirs})
    assert PlayCircuit(monza) in legal_actions(behind)
    assert bot.choose(behind, legal_actions(behind)) == EndTurn()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_manager_championships_keep_every_invariant(players):
    """Managers of both styles against the other bots finish their championships."""
    kinds = ["manager", "manager-bold", "simple", "random"][:players]
    for seed in range(3):
        bots = [make_opponent(k, seed * 10 + i) for i, k in enumerate(kinds)]
        final = play_championship(bots, seed=seed, check=check_invariants)
        assert final.ended == "races"
