"""Benchmark playtests: one 6-bot race on Monaco, throughput per core, 1 -> 2 workers.

Usage::

    python benchmarks/playtest.py                 # tracks/monaco.json if present
    python benchmarks/playtest.py --races 200 --bots lookahead

Prints

* the time of one 6-bot heuristic one-lap race on Monaco with
  :func:`fdlab.rules.simulate.simulate` (median over ``--single`` races, one
  core) and with the playtest's turn-by-turn logging;
* what parallel play costs besides the races: the payload each worker
  receives once (track, preset, bots), a fresh worker's start-up (importing
  what a race needs) and the pickling of each race's results;
* playtest throughput with one worker (races per second per core);
* the same playtest with two workers and the speed-up.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import subprocess
import sys
import time
from pathlib import Path

from fdlab.analysis.playtest import playtest, race_seeds, run_races
from fdlab.analysis.racelog import play_logged_race
from fdlab.bots import HeuristicBot
from fdlab.bots.roster import make_bot
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.rules.simulate import simulate
from fdlab.track import from_ascii, load_track, track_to_dict

REPO = Path(__file__).resolve().parents[1]
MONACO = REPO / "tracks" / "monaco.json"


def stand_in():
    row = " ".join(
        ["."] * 10 + ["1"] * 3 + ["."] * 20 + ["2"] * 4 + ["."] * 30 + ["3"] * 2 + ["."] * 15
    )
    return from_ascii("\n".join([row] * 3), corners={1: 2, 2: 1, 3: 3}, closed=True,
                      grid=list(range(3 * 80, 3 * 84)), name="stand-in loop")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, help="a track file (default tracks/monaco.json)")
    parser.add_argument("--single", type=int, default=30, help="races timed one by one")
    parser.add_argument("--races", type=int, default=120, help="races per playtest")
    parser.add_argument("--bots", default="heuristic", help="bot spec for all six cars")
    args = parser.parse_args(argv)
    path = args.track or (MONACO if MONACO.exists() else None)
    track = load_track(path) if path else stand_in()
    board = compile_board(track)
    print(f"board: {track.name}: {len(board)} spaces, {len(board.stops)} corners, one lap")

    times = []
    rounds = []
    for seed in range(args.single):
        began = time.perf_counter()
        result = simulate(board, [HeuristicBot() for _ in range(6)], "basic", seed=seed)
        times.append(time.perf_counter() - began)
        rounds.append(result.rounds)
    print(
        f"6 heuristic bots, simulate(): median {statistics.median(times) * 1e3:.1f} ms per race "
        f"(min {min(times) * 1e3:.1f}, max {max(times) * 1e3:.1f}; {statistics.mean(rounds):.1f} rounds)"
    )
    logged = []
    for seed in range(args.single):
        bots = [make_bot(args.bots, board=board, preset=BASIC, seed=k) for k in range(6)]
        began = time.perf_counter()
        play_logged_race(
            board, BASIC, bots, [args.bots] * 6, race=seed, seed=seed, keep_events=False
        )
        logged.append(time.perf_counter() - began)
    print(
        f"6 {args.bots} bots, logged for playtests: median {statistics.median(logged) * 1e3:.1f} ms per race"
    )

    _overheads(track, args)
    one, cpu_one = _timed(track, args, workers=1)
    two, cpu_two = _timed(track, args, workers=2)
    print(
        f"playtest, {args.races} races, 1 worker: {one:.1f} s = {args.races / one:.1f} races/s; "
        f"{args.races / cpu_one:.1f} races per CPU second"
    )
    print(
        f"playtest, {args.races} races, 2 workers: {two:.1f} s = {args.races / two:.1f} races/s, "
        f"speed-up x{one / two:.2f}; {args.races / cpu_two:.1f} races per CPU second "
        "(a busy machine shows in the wall-clock speed-up, not here)"
    )


def _overheads(track, args) -> None:
    """Payload size, worker start-up and result pickling, beside the time of a race."""
    payload = {"token": "bench", "track": track_to_dict(track), "preset": BASIC,
               "bots": [args.bots] * 6, "keep_events": False}  # fmt: skip
    size = len(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
    starts = []
    for _ in range(3):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import fdlab.analysis.playtest"], check=True)
        starts.append(time.perf_counter() - began)
    races = 10
    run_races(payload, [], [])  # compile the board first, as a worker does once
    began = time.perf_counter()
    logs = run_races(payload, list(range(races)), race_seeds(0, races))
    play = (time.perf_counter() - began) / races
    rounds = []
    for _ in range(5):
        began = time.perf_counter()
        data = pickle.dumps(logs, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
        rounds.append((time.perf_counter() - began) / races)
    pickling = statistics.median(rounds)
    print(
        f"per worker, once: payload {size / 1024:.0f} KB, start-up (fresh interpreter importing "
        f"the worker's modules) median {statistics.median(starts):.2f} s"
    )
    print(
        f"per race: results {len(data) / races / 1024:.1f} KB, pickled and unpickled in "
        f"{pickling * 1e6:.0f} us = {100 * pickling / play:.2f}% of the race's "
        f"{play * 1e3:.0f} ms"
    )


def _timed(track, args, workers: int) -> tuple[float, float]:
    """Wall-clock seconds and CPU seconds (this process and its finished workers)."""
    import resource

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    began, cpu_began = time.perf_counter(), cpu()
    playtest(track, [args.bots] * 6, races=args.races, workers=workers, progress=False)
    return time.perf_counter() - began, cpu() - cpu_began


if __name__ == "__main__":
    main()
