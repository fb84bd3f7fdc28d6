"""Benchmark: Formula Fun bot championships per second.

Usage::

    python benchmarks/fun_championships.py [--games N] [--players P] [--seed S]

Prints championships per second and actions per second for several bot
line-ups. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import time

from fdlab.fun.engine import legal_actions, new_game, step
from fdlab.fun.study import BOT_KINDS

LINEUPS = {
    "sensible": ["sensible"],
    "random": ["random"],
    "mixed": ["sensible", "random"],
}


def bench(kinds: list[str], games: int, seed: int) -> tuple[float, float, float]:
    """Return (championships/s, actions/s, mean races) over ``games`` championships."""
    actions = 0
    races = 0
    start = time.perf_counter()
    for game in range(games):
        bots = [BOT_KINDS[k]((seed + game) * 10 + i) for i, k in enumerate(kinds)]
        state = new_game(len(kinds), seed=seed + game)
        while not state.is_over:
            state, _ = step(state, bots[state.to_act].choose(state, legal_actions(state)))
            actions += 1
        races += len(state.races)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, races / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"Formula Fun, {args.players} players, {args.games} championships per line-up")
    for name, pattern in LINEUPS.items():
        kinds = [pattern[i % len(pattern)] for i in range(args.players)]
        per_s, actions_s, races = bench(kinds, args.games, args.seed)
        print(
            f"{name:>9}: {per_s:7.1f} championships/s  {actions_s:9.0f} actions/s  "
            f"{races:.2f} races per championship"
        )


if __name__ == "__main__":
    main()
