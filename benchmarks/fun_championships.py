"""Benchmark: Formula Fun bot championships per second, and how they end.

Usage::

    python benchmarks/fun_championships.py [--games N] [--players P] [--seed S]

For several bot line-ups, prints championships per second, actions per second,
races per championship, turns per championship (median and maximum) and the
share of championships stopped by the ``FunRules.max_turns`` safeguard instead
of by their last race. Then it replays the stopped ones with the safeguard
raised to ``--long-cap`` turns, to show whether they were deadlocked or only
slow. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.state import FunRules, GameState
from fdlab.fun.study import BOT_KINDS

LINEUPS = {
    "manager": ["manager"],
    "sensible": ["sensible"],
    "random": ["random"],
    "mixed": ["manager", "simple", "sensible", "random"],
}


def play(kinds: list[str], seed: int, rules: FunRules) -> tuple[GameState, int]:
    """Play one championship; return the final state and the number of actions."""
    bots = [BOT_KINDS[k](seed * 10 + i) for i, k in enumerate(kinds)]
    state = new_game(len(kinds), seed=seed, rules=rules)
    actions = 0
    while not state.is_over:
        state, _ = step(state, bots[state.to_act].choose(state, legal_actions(state)))
        actions += 1
    return state, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--long-cap", type=int, default=20_000)
    args = parser.parse_args()
    rules = FunRules()
    print(
        f"Formula Fun, {args.players} players, {args.games} championships per line-up, "
        f"safeguard {rules.max_turns} turns"
    )
    for name, pattern in LINEUPS.items():
        kinds = [pattern[i % len(pattern)] for i in range(args.players)]
        actions = 0
        finals = []
        start = time.perf_counter()
        for game in range(args.games):
            final, count = play(kinds, args.seed + game, rules)
            finals.append(final)
            actions += count
        elapsed = time.perf_counter() - start
        turns = [f.turn_number for f in finals]
        stopped = [args.seed + g for g, f in enumerate(finals) if f.ended == "turn_limit"]
        print(
            f"{name:>9}: {args.games / elapsed:6.1f} championships/s  {actions / elapsed:7.0f} "
            f"actions/s  {statistics.mean(len(f.races) for f in finals):.2f} races  "
            f"turns median {statistics.median(turns):.0f} max {max(turns)}  "
            f"stopped by the safeguard {len(stopped)} ({100 * len(stopped) / args.games:.1f}%)"
        )
        if stopped:
            longer = FunRules(max_turns=args.long_cap)
            again = [play(kinds, seed, longer)[0] for seed in stopped]
            done = [f.turn_number for f in again if f.ended == "races"]
            print(
                f"{'':>9}  replayed with a {args.long_cap}-turn safeguard: {len(done)} of "
                f"{len(stopped)} finish their races"
                + (f", after {min(done)}-{max(done)} turns" if done else "")
            )


if __name__ == "__main__":
    main()
