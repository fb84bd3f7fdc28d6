"""Benchmark playtests: one 6-bot race on Monaco, throughput per core, 1 -> 2 workers.

Usage::

    python benchmarks/playtest.py                 # tracks/monaco.json if present
    python benchmarks/playtest.py --races 200 --bots lookahead
    python benchmarks/playtest.py --scheduler tcp://host:8786   # a real Dask cluster

Prints

* the time of one 6-bot heuristic one-lap race on Monaco with
  :func:`fdlab.rules.simulate.simulate` (median over ``--single`` races, one
  core) and with the playtest's turn-by-turn logging;
* what parallel play costs besides the races: the payload each worker
  receives once (track, preset, bots), a fresh worker's start-up (importing
  what a race needs) and the pickling of each race's results;
* one table of playtest throughput (races per second) with 1 local worker
  (in this process), 2 local worker processes and a Dask ``LocalCluster`` of
  2 worker processes, each playing the same races with the same seeds; the
  benchmark checks that the three give the same races, cars and turns.
  ``--scheduler tcp://host:8786`` measures that Dask cluster instead of the
  ``LocalCluster`` (its workers need fdlab installed).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pandas as pd

from fdlab.analysis.playtest import PlaytestResult, playtest, race_seeds, run_races
from fdlab.analysis.racelog import play_logged_race
from fdlab.bots import HeuristicBot
from fdlab.bots.roster import make_bot
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.rules.simulate import simulate
from fdlab.track import Track, from_ascii, load_track, track_to_dict

REPO = Path(__file__).resolve().parents[1]
MONACO = REPO / "tracks" / "monaco.json"


def stand_in() -> Track:
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
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="measure the Dask cluster of this scheduler (tcp://host:8786) instead of a "
        "LocalCluster of 2 workers",
    )
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
    _scaling(track, args)


def _overheads(track: Track, args: argparse.Namespace) -> None:
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


def _scaling(track: Track, args: argparse.Namespace) -> None:
    """Races per second on 1 and 2 local workers and on Dask; the three play the same races."""
    rows: list[tuple[str, float, float | None, PlaytestResult]] = []
    for workers, label in (
        (1, "1 local worker (this process)"),
        (2, "2 local workers (+ their start)"),
    ):
        wall, cpu, result = _timed(track, args, workers=workers)
        rows.append((label, wall, cpu, result))
    note = ""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        note = "no Dask row: Dask is not installed (pip install 'fdlab[dask]')"
    else:
        with ExitStack() as stack:
            began = time.perf_counter()
            if args.scheduler:
                client = stack.enter_context(Client(args.scheduler))  # type: ignore[no-untyped-call]
                where = f"Dask cluster of {len(client.scheduler_info()['workers'])}, started"
            else:
                cluster = stack.enter_context(
                    LocalCluster(  # type: ignore[no-untyped-call]
                        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
                    )
                )
                client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
                where = "Dask LocalCluster of 2, started"
            start = time.perf_counter() - began
            wall, _, result = _timed(track, args, client=client)
            rows.append((where, wall, None, result))
        what = "connecting to the cluster" if args.scheduler else "starting the LocalCluster"
        note = f"({what} took {start:.1f} s before the playtest, not counted)"

    one = rows[0][1]
    print(f"\nplaytest of {args.races} races, 6 {args.bots} bots, seed 0 (wall clock):")
    print(f"{'':34} {'seconds':>8} {'races/s':>8} {'speed-up':>9} {'races/CPU s':>12}")
    for label, seconds, cpu_seconds, _ in rows:
        per_cpu = f"{args.races / cpu_seconds:.1f}" if cpu_seconds else "-"
        print(
            f"{label:34} {seconds:8.1f} {args.races / seconds:8.1f} {one / seconds:8.2f}x {per_cpu:>12}"
        )
    print(note)
    reference = rows[0][3]
    for label, _, _, result in rows[1:]:
        for table in ("races", "cars", "turns"):
            pd.testing.assert_frame_equal(
                getattr(result, table), getattr(reference, table), obj=f"{label}: {table}"
            )
    print(
        f"same races, cars and turns on all {len(rows)}: yes (checked table by table). "
        "CPU seconds count this process and its finished worker processes; a busy machine "
        "shows in the wall clock, not there"
    )


def _timed(
    track: Track, args: argparse.Namespace, workers: int | None = None, client: Any = None
) -> tuple[float, float, PlaytestResult]:
    """Wall-clock seconds, CPU seconds (this process and its finished workers), the result."""
    import resource

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    began, cpu_began = time.perf_counter(), cpu()
    result = playtest(
        track, [args.bots] * 6, races=args.races, workers=workers, client=client, progress=False
    )
    return time.perf_counter() - began, cpu() - cpu_began, result


if __name__ == "__main__":
    main()
