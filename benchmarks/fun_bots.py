"""Benchmark: how the Formula Fun bots fare, and what they pay for cards.

Usage::

    python benchmarks/fun_bots.py [--games N] [--jobs J] [--seed S]
    python benchmarks/fun_bots.py --tables [--games N] [--players 2,3,4] [--bots a,b,...]
                                  [--against NAME] [--jobs J] [--seed S] [--quick]

The goal of issue 27 (the default)
----------------------------------
Plays ``--games`` 4-player championships (2,000 by default: under a minute with
two jobs on two free cores) of **the default opponent alone against three
``simple`` bots**, its seat moving round the table from game to game; game g
is dealt from seed ``--seed + g`` and every bot seeded from it, so a run
replays. It prints:

- the games played;
- the default bot's **share of the titles** (a title shared by a tie counts in
  part) with its 95% interval, beside the fair share of 25% and the goal of
  at least 40%;
- the **largest price/value ratio paid by any bot**: for every sale, the price
  over what the card was worth to the buyer for its own use when it bought it
  (its ``valuation``, :class:`fdlab.fun.bots.ValuingBot`; denial not
  included), goal at most 3. A card bought at a price while worth nothing or
  less to the buyer counts as an infinite ratio;
- the same largest ratio at tables where bots deny, which the goal's table
  does not have (a careful manager denies only heads-up): ``--denial-games``
  (200) heads-up games of two managers and as many 4-player games of four
  bold managers;
- the seconds the run took.

The pairwise tables (``--tables``)
----------------------------------
For every ordered pair of bots (A, B) and every number of players N, it
plays ``--games`` championships (1,000 by default; ``--quick`` plays 100) with
**one A and N - 1 B** at the table (the seat mix). A's seat moves round the
table from game to game (so A plays first as often as any B), and game g of
every mix is dealt from the same seed, so the mixes meet the same cards.

The figure is **A's share of the titles** beside the **fair share 1/N** a bot
as good as the field would win: 50% with two players, 33.3% with three, 25%
with four. A share well above the fair share means A beats B's field; well
below, B beats A. The 95% interval is printed with every share.

With two players the mix (A alone, B alone) is one head-to-head match, so
only one order of each pair is played. The tables print each bot's share
as the lone bot (rows) against a field of each other bot (columns).

``--against NAME`` plays only the mixes with that bot (alone or as the
field). ``--profile`` plays ten 4-player games of one simple bot against
three of the default opponent (the slowest table) under ``cProfile`` and
prints where the time goes, instead of the tables. Then, per bot, how often
it bought the same card twice in one turn (the buy-back loop of issue 16),
the largest price/value ratio it paid, and the championships per second.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import itertools
import math
import os
import pstats
import time
from collections import Counter, defaultdict
from multiprocessing import Pool

from tqdm import tqdm

from fdlab.fun.bots import Bot, ValuingBot
from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.opponents import BOTS, DEFAULT_OPPONENT, make_opponent
from fdlab.fun.state import GameState

#: The most a bot may pay for a card, in multiples of what the card is worth to it.
RATIO_GOAL = 3.0
#: The share of titles the default opponent must win alone against three simple bots.
SHARE_GOAL = 0.40

#: The largest price/value ratio of one game or run: (ratio, bot kind, card, price, value).
Paid = tuple[float, str, str, int, float]
NOTHING_PAID: Paid = (0.0, "", "", 0, 0.0)


def seating(lone: str, field: str, players: int, game: int) -> list[str]:
    """The bot kinds seat by seat in game ``game``: ``lone`` in seat ``game % players``.

    Examples
    --------
    >>> seating("manager", "simple", 3, 4)
    ['simple', 'manager', 'simple']
    """
    return [lone if seat == game % players else field for seat in range(players)]


def price_ratio(price: int, value: float) -> float:
    """A price over the card's value to the buyer; infinite if it was worth nothing to it.

    Examples
    --------
    >>> price_ratio(6, 2.0), price_ratio(1, 0.0)
    (3.0, inf)
    """
    return price / value if value > 0 else math.inf


def _paid(bot: Bot, kind: str, before: GameState, buyer: int, card: int, price: int) -> Paid:
    """The ratio of one sale, from the state in which the auction was settled (the buyer's
    valuation depends on the position, which an auction does not change)."""
    if not isinstance(bot, ValuingBot):
        return NOTHING_PAID  # the random bot has no valuation to measure against
    value = bot.valuation(before, buyer, before.deck[card])
    return (price_ratio(price, value), kind, before.deck[card].label, price, value)


def play(job: tuple[str, str, int, int, int]) -> tuple[tuple[str, str, int], float, Counter, Paid]:
    """Play game ``game`` of one mix; return the mix, the lone bot's share of the title,
    the buy-backs per kind (same card bought twice by one player in one turn) and the
    largest price/value ratio paid in the game."""
    lone, field, players, game, seed = job
    kinds = seating(lone, field, players, game)
    game_seed = seed + game
    bots = [make_opponent(k, game_seed * 10 + i) for i, k in enumerate(kinds)]
    state = new_game(players, seed=game_seed)
    bought: set[tuple[int, int, int]] = set()
    repeats: Counter = Counter()
    worst = NOTHING_PAID
    while not state.is_over:
        turn = state.turn_number
        before = state
        state, events = step(state, bots[state.to_act].choose(state, legal_actions(state)))
        for e in events:
            if e.kind == "sale" and e.player is not None and e.card is not None:
                key = (turn, e.player, e.card)
                if key in bought:
                    repeats[kinds[e.player]] += 1
                bought.add(key)
                paid = _paid(bots[e.player], kinds[e.player], before, e.player, e.card, e.amount)
                worst = max(worst, paid)
    winners = state.winners()
    share = sum(1 for w in winners if w == game % players) / len(winners)
    return (lone, field, players), share, repeats, worst


def interval(share: float, games: int) -> float:
    """Half-width of a 95% interval on a share measured over ``games`` games.

    Examples
    --------
    >>> round(interval(0.5, 1000), 3)
    0.031
    """
    return 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / games)


def mixes(kinds: list[str], players: int, against: str | None) -> list[tuple[str, str]]:
    """The (lone, field) mixes to play with ``players`` players.

    Examples
    --------
    >>> mixes(["a", "b", "c"], 2, None)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> mixes(["a", "b", "c"], 3, "a")
    [('a', 'b'), ('a', 'c'), ('b', 'a'), ('c', 'a')]
    """
    pairs = itertools.combinations(kinds, 2) if players == 2 else itertools.permutations(kinds, 2)
    return [(a, b) for a, b in pairs if against is None or against in (a, b)]


def print_table(kinds: list[str], players: int, shares: dict, games: int) -> None:
    """Rows: the lone bot; columns: the field; cells: the lone bot's share of titles."""
    fair = 1 / players
    field = f"{players - 1} x field" if players > 2 else "opponent"
    print(
        f"\n{players} players: one bot (row) against {field} (column); share of titles "
        f"won by the row bot; fair share {100 * fair:.1f}%"
    )
    width = max(len(k) for k in kinds) + 2
    print(" " * width + "".join(f"{k:>{width + 6}}" for k in kinds))
    for a in kinds:
        cells = []
        for b in kinds:
            share = shares.get((a, b, players))
            if share is None and players == 2 and (b, a, players) in shares:
                share = 1 - shares[(b, a, players)]
            cells.append(
                f"{'-':>{width + 6}}"
                if share is None
                else f"{100 * share:>{width - 1}.1f}% +/-{100 * interval(share, games):2.0f}"
            )
        print(f"{a:<{width}}" + "".join(cells))


def profile(seed: int, games: int = 10) -> None:
    """Play ``games`` 4-player games of one simple bot against three default opponents under
    cProfile; print the time per game and the functions that take the most time."""
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for game in range(games):
        play(("simple", DEFAULT_OPPONENT, 4, game, seed))
    profiler.disable()
    elapsed = time.perf_counter() - start
    print(f"{games} games of simple vs 3 x {DEFAULT_OPPONENT}: {elapsed / games:.2f} s a game")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


#: Where bots deny (outbid a rival to keep a card from it): heads-up managers, and a table
#: of bold managers, who deny the leader at any table.
DENYING = [(DEFAULT_OPPONENT, 2), ("manager-bold", 4)]


def goal(games: int, jobs: int, seed: int, denial_games: int) -> None:
    """Issue 27's figures: the default opponent alone against three simple bots, then the
    largest price/value ratio at tables where bots deny."""
    field = "simple"
    print(
        f"Formula Fun: {DEFAULT_OPPONENT} (the default opponent) alone against 3 x {field}, "
        f"4 players; seeds {seed}..{seed + games - 1}, its seat moving round the table"
    )
    jobs_list = [(DEFAULT_OPPONENT, field, 4, g, seed) for g in range(games)]
    start = time.perf_counter()
    wins = 0.0
    worst = NOTHING_PAID
    worst_by: dict[str, Paid] = {}
    with Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = (
            pool.imap_unordered(play, jobs_list, chunksize=16) if pool else map(play, jobs_list)
        )
        for _, share, _, paid in tqdm(results, total=games, unit="game", mininterval=5):
            wins += share
            worst = max(worst, paid)
            if paid[1]:
                worst_by[paid[1]] = max(worst_by.get(paid[1], NOTHING_PAID), paid)
    share = wins / games
    print(f"games: {games}")
    print(
        f"{DEFAULT_OPPONENT}'s share of the titles: {100 * share:.1f}% "
        f"+/- {100 * interval(share, games):.1f} (95% interval); fair share 25.0%, "
        f"goal at least {100 * SHARE_GOAL:.0f}%"
    )
    print(
        f"largest price/value ratio paid by any bot: {_ratio_text(worst)}; "
        f"goal at most {RATIO_GOAL:g}"
    )
    for kind, paid in sorted(worst_by.items()):
        print(f"  {kind:>13}: {_ratio_text(paid)}")
    if denial_games:
        denying = [(kind, kind, n, g, seed) for kind, n in DENYING for g in range(denial_games)]
        with Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
            results = (
                pool.imap_unordered(play, denying, chunksize=16) if pool else map(play, denying)
            )
            worst = max((paid for *_, paid in results), default=NOTHING_PAID)
        tables = " and ".join(f"{kind} x {n}" for kind, n in DENYING)
        print(
            f"largest price/value ratio where bots deny ({denial_games} games each of "
            f"{tables}): {_ratio_text(worst)}"
        )
    elapsed = time.perf_counter() - start
    print(f"seconds: {elapsed:.1f} ({jobs} job{'s' if jobs != 1 else ''})")


def _ratio_text(paid: Paid) -> str:
    ratio, kind, card, price, value = paid
    if not kind:
        return "no sale"
    return f"{ratio:.2f} ({kind} paid {price} M$ for {card}, worth {value:.1f} M$ to it)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="championships: 2000 for the goal, per seat mix (1000) with --tables",
    )
    parser.add_argument("--tables", action="store_true", help="every pair of bots, by players")
    parser.add_argument(
        "--denial-games", type=int, default=200, help="games of each denying table (goal run)"
    )
    parser.add_argument("--quick", action="store_true", help="100 championships per seat mix")
    parser.add_argument("--players", default="2,3,4", help="numbers of players, e.g. 2,4")
    parser.add_argument("--bots", default=",".join(BOTS), help="bots to pair up")
    parser.add_argument("--against", default=None, help="only the mixes with this bot")
    parser.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="profile ten 4-player games")
    args = parser.parse_args()
    if args.profile:
        profile(args.seed)
        return
    if not args.tables:
        goal(args.games or 2000, args.jobs, args.seed, args.denial_games)
        return
    games = 100 if args.quick else args.games or 1000
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    for k in kinds + ([args.against] if args.against else []):
        make_opponent(k)  # a clear error for an unknown name
    counts = [int(p) for p in args.players.split(",")]
    print(
        f"Formula Fun bots (default opponent: {DEFAULT_OPPONENT}): {games} championships "
        "per seat mix of one bot against a field of another; share of titles against the "
        "fair share"
    )
    repeats: Counter = Counter()
    seats: Counter = Counter()
    worst_by: dict[str, Paid] = {}
    speed: dict[int, tuple[int, float]] = {}
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for players in counts:
            wins: dict[tuple[str, str, int], float] = defaultdict(float)
            jobs = [
                (a, b, players, g, args.seed)
                for a, b in mixes(kinds, players, args.against)
                for g in range(games)
            ]
            start = time.perf_counter()
            results = pool.imap_unordered(play, jobs, chunksize=8) if pool else map(play, jobs)
            for mix, share, rep, paid in tqdm(
                results, total=len(jobs), desc=f"{players} players", unit="game", mininterval=5
            ):
                wins[mix] += share
                repeats.update(rep)
                seats.update(seating(mix[0], mix[1], players, 0))
                if paid[1]:
                    worst_by[paid[1]] = max(worst_by.get(paid[1], NOTHING_PAID), paid)
            speed[players] = (len(jobs), time.perf_counter() - start)
            shares = {mix: total / games for mix, total in wins.items()}
            print_table(kinds, players, shares, games)
    finally:
        if pool is not None:
            pool.close()
    print("\nsame card bought twice by one player in one turn, per 100 seats played")
    for k in kinds:
        if seats[k]:
            print(f"  {k:>13}: {100 * repeats[k] / seats[k]:.2f}")
    print(f"\nlargest price/value ratio paid (goal at most {RATIO_GOAL:g})")
    for k in kinds:
        if k in worst_by:
            print(f"  {k:>13}: {_ratio_text(worst_by[k])}")
    print(f"\nchampionships per second ({args.jobs} job{'s' if args.jobs != 1 else ''})")
    for players, (total, elapsed) in speed.items():
        print(f"  {players} players: {total / elapsed:.1f} ({total} in {elapsed:.0f} s)")


if __name__ == "__main__":
    main()
