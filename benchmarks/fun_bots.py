"""Benchmark: how the Formula Fun bots fare against each other, pair by pair.

Usage::

    python benchmarks/fun_bots.py [--games N] [--players 2,3,4] [--bots a,b,...]
                                  [--against NAME] [--jobs J] [--seed S] [--quick]

What is measured
----------------
For every ordered pair of bots (A, B) and every number of players N, it
plays ``--games`` championships (1,000 by default; ``--quick`` plays 100) with
**one A and N - 1 B** at the table (the seat mix). A's seat moves round the
table from game to game (so A plays first as often as any B), and game g of
every mix is dealt from the same seed, so the mixes meet the same cards.

The figure is **A's share of the titles** (a title shared by a tie counts
in part), beside the **fair share 1/N** a bot as good as the field would
win: 50% with two players, 33.3% with three, 25% with four. A share well
above the fair share means A beats B's field; well below, B beats A. The 95%
interval is printed with every share.

With two players the mix (A alone, B alone) is one head-to-head match, so
only one order of each pair is played. The tables print each bot's share
as the lone bot (rows) against a field of each other bot (columns).

``--against NAME`` plays only the mixes with that bot (alone or as the
field). ``--profile`` plays ten 4-player games of one simple bot against
three of the default opponent (the slowest table) under ``cProfile`` and
prints where the time goes, instead of the tables. Then, per bot, how often it bought the same card twice in one turn
(the buy-back loop of issue 16), and the championships per second.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import math
import pstats
import time
from collections import Counter, defaultdict
from multiprocessing import Pool

from tqdm import tqdm

from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.opponents import BOTS, DEFAULT_OPPONENT, make_opponent


def seating(lone: str, field: str, players: int, game: int) -> list[str]:
    """The bot kinds seat by seat in game ``game``: ``lone`` in seat ``game % players``.

    Examples
    --------
    >>> seating("manager", "simple", 3, 4)
    ['simple', 'manager', 'simple']
    """
    return [lone if seat == game % players else field for seat in range(players)]


def play(job: tuple[str, str, int, int, int]) -> tuple[tuple[str, str, int], float, Counter, int]:
    """Play game ``game`` of one mix; return the mix, the lone bot's share of the title,
    the buy-backs per kind (same card bought twice by one player in one turn) and the
    seats per kind."""
    lone, field, players, game, seed = job
    kinds = seating(lone, field, players, game)
    game_seed = seed + game
    bots = [make_opponent(k, game_seed * 10 + i) for i, k in enumerate(kinds)]
    state = new_game(players, seed=game_seed)
    bought: set[tuple[int, int, int]] = set()
    repeats: Counter = Counter()
    while not state.is_over:
        turn = state.turn_number
        state, events = step(state, bots[state.to_act].choose(state, legal_actions(state)))
        for e in events:
            if e.kind == "sale":
                key = (turn, e.player, e.card)
                if key in bought:
                    repeats[kinds[e.player]] += 1
                bought.add(key)
    winners = state.winners()
    share = sum(1 for w in winners if w == game % players) / len(winners)
    return (lone, field, players), share, repeats, players


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="championships per seat mix")
    parser.add_argument("--quick", action="store_true", help="100 championships per seat mix")
    parser.add_argument("--players", default="2,3,4", help="numbers of players, e.g. 2,4")
    parser.add_argument("--bots", default=",".join(BOTS), help="bots to pair up")
    parser.add_argument("--against", default=None, help="only the mixes with this bot")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="profile ten 4-player games")
    args = parser.parse_args()
    if args.profile:
        profile(args.seed)
        return
    games = 100 if args.quick else args.games
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
            for mix, share, rep, _ in tqdm(
                results, total=len(jobs), desc=f"{players} players", unit="game", mininterval=5
            ):
                wins[mix] += share
                repeats.update(rep)
                seats.update(seating(mix[0], mix[1], players, 0))
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
    print(f"\nchampionships per second ({args.jobs} job{'s' if args.jobs != 1 else ''})")
    for players, (total, elapsed) in speed.items():
        print(f"  {players} players: {total / elapsed:.1f} ({total} in {elapsed:.0f} s)")


if __name__ == "__main__":
    main()
