"""Benchmark: how the Formula Fun bots fare against each other, pair by pair.

Usage::

    python benchmarks/fun_bots.py [--games N] [--players 2,3,4] [--bots a,b,...]
                                  [--against NAME] [--workers W] [--seed S] [--quick]

For every pair of bots (A, B) and every number of players, plays ``--games``
championships (1,000 by default; ``--quick`` plays 100) with the seats filled
alternately by A and B: one of each with two players, two A and one B then
one A and two B with three, two of each with four, the first seat moving
round from game to game. It prints the share of titles won by A's seats (a
title shared by a tie counts in part), 50% being an even match, with a 95%
interval; then, per bot, how often it bought the same card twice in one turn
(the buy-back loop of issue 16) and the championships per second.

``--against manager`` plays only the pairs that include that bot.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time
from collections import Counter
from multiprocessing import Pool

from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.opponents import BOTS, DEFAULT_OPPONENT, make_bot


def seating(a: str, b: str, players: int, game: int) -> list[str]:
    """The bot kinds seat by seat in game ``game`` of the pair (a, b)."""
    return [a if (seat + game) % 2 == 0 else b for seat in range(players)]


def play(job: tuple[str, str, int, int, int]) -> tuple[float, Counter, int]:
    """Play one championship of a pair; return A's share of the title, the buy-backs per
    kind (same card bought twice by one player in one turn) and the number of actions."""
    a, b, players, game, seed = job
    kinds = seating(a, b, players, game)
    game_seed = seed + game
    bots = [make_bot(k, game_seed * 10 + i) for i, k in enumerate(kinds)]
    state = new_game(players, seed=game_seed)
    bought: set[tuple[int, int, int]] = set()
    repeats: Counter = Counter()
    actions = 0
    while not state.is_over:
        turn = state.turn_number
        state, events = step(state, bots[state.to_act].choose(state, legal_actions(state)))
        actions += 1
        for e in events:
            if e.kind == "sale":
                key = (turn, e.player, e.card)
                if key in bought:
                    repeats[kinds[e.player]] += 1
                bought.add(key)
    winners = state.winners()
    share = sum(1 for w in winners if kinds[w] == a) / len(winners)
    return share, repeats, actions


def interval(share: float, games: int) -> float:
    """Half-width of a 95% interval on a share measured over ``games`` games."""
    return 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="championships per pair")
    parser.add_argument("--quick", action="store_true", help="100 championships per pair")
    parser.add_argument("--players", default="2,3,4", help="numbers of players, e.g. 2,4")
    parser.add_argument("--bots", default=",".join(BOTS), help="bots to pair up")
    parser.add_argument("--against", default=None, help="only the pairs with this bot")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = 100 if args.quick else args.games
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    for k in kinds + ([args.against] if args.against else []):
        make_bot(k)  # a clear error for an unknown name
    counts = [int(p) for p in args.players.split(",")]
    pairs = [
        (a, b)
        for a, b in itertools.combinations(kinds, 2)
        if args.against is None or args.against in (a, b)
    ]
    pairs = [(b, a) if b == args.against or b == DEFAULT_OPPONENT else (a, b) for a, b in pairs]
    print(
        f"Formula Fun bots, {games} championships per pair and number of players "
        f"(default opponent: {DEFAULT_OPPONENT}); share of titles won by the first bot's "
        "seats, 50% = even"
    )
    repeats: Counter = Counter()
    played: Counter = Counter()
    speed: dict[int, tuple[int, float]] = {}
    with Pool(args.workers) as pool:
        for players in counts:
            print(f"\n{players} players")
            start, total = time.perf_counter(), 0
            for a, b in pairs:
                jobs = [(a, b, players, g, args.seed) for g in range(games)]
                results = pool.map(play, jobs, chunksize=max(games // (4 * args.workers), 1))
                share = sum(r[0] for r in results) / games
                for g, (_, rep, _) in enumerate(results):
                    repeats.update(rep)
                    played.update(seating(a, b, players, g))
                total += games
                print(
                    f"  {a:>13} vs {b:<13} {100 * share:5.1f}% "
                    f"(+/- {100 * interval(share, games):.1f})"
                )
            elapsed = time.perf_counter() - start
            speed[players] = (total, elapsed)
    print("\nsame card bought twice by one player in one turn, per 100 seats played")
    for k in kinds:
        if played[k]:
            print(f"  {k:>13}: {100 * repeats[k] / played[k]:.2f}")
    print("\nchampionships per second (all workers)")
    for players, (total, elapsed) in speed.items():
        print(f"  {players} players: {total / elapsed:.1f}")


if __name__ == "__main__":
    main()
