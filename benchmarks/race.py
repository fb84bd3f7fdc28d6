"""Time a one-lap race of six heuristic bots on Monaco (goal: 100 ms or less on one core).

Usage::

    python benchmarks/race.py [--races 30] [--preset basic]

Uses ``tracks/monaco.json`` when it exists, otherwise a 3-lane closed text
board of 100 columns with six corners (and says so). Prints the median and
90th percentile wall time of a whole race (grid to last car), the median
CPU time of this process (closer to one-core time on a busy machine), the
board compilation time, rounds and actions per race.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fdlab.bots import HeuristicBot
from fdlab.rules import compile_board, simulate
from fdlab.track import from_ascii

REPO = Path(__file__).resolve().parents[1]


def fallback_track():
    """A 3-lane loop of 100 columns with corners of 1, 2 and 3 stops."""
    cells = ["."] * 100
    for cid, start, width in [
        (1, 8, 3),
        (2, 24, 4),
        (3, 40, 2),
        (4, 55, 3),
        (5, 70, 4),
        (6, 86, 2),
    ]:
        for c in range(start, start + width):
            cells[c] = str(cid)
    row = " ".join(cells)
    grid = [c * 3 + r for c in range(99, 95, -1) for r in range(3)]
    return from_ascii(
        "\n".join([row] * 3),
        corners={1: 1, 2: 2, 3: 1, 4: 3, 5: 2, 6: 1},
        closed=True,
        grid=grid,
        name="benchmark loop",
    )


def load_board():
    path = REPO / "tracks" / "monaco.json"
    if path.exists():
        from fdlab.track.io import load_track

        return load_track(path), "tracks/monaco.json"
    return fallback_track(), "fallback 3-lane 100-column loop (tracks/monaco.json not found)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=30)
    parser.add_argument("--preset", default="basic")
    parser.add_argument("--cars", type=int, default=6)
    args = parser.parse_args()

    track, source = load_board()
    t0 = time.perf_counter()
    board = compile_board(track)
    compile_ms = (time.perf_counter() - t0) * 1000
    times, cpu, rounds, steps = [], [], [], []
    for seed in range(args.races):
        bots = [HeuristicBot() for _ in range(args.cars)]
        t0, c0 = time.perf_counter(), time.process_time()
        result = simulate(board, bots, args.preset, seed=seed)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        rounds.append(result.rounds)
        steps.append(len(result.actions))
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"board: {source}: {len(board)} spaces, compiled in {compile_ms:.1f} ms")
    print(
        f"{args.races} races, {args.cars} heuristic bots, {args.preset} rules, one lap: "
        f"median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms per race wall time "
        f"(goal 100 ms); median CPU time {statistics.median(cpu):.1f} ms; "
        f"{statistics.mean(rounds):.1f} rounds, {statistics.mean(steps):.0f} actions per race"
    )


if __name__ == "__main__":
    main()
