"""Benchmark ``suggest``: how long measuring every candidate change of a board takes.

Usage::

    python benchmarks/suggest.py                      # Monaco and Zandvoort, 2 workers
    python benchmarks/suggest.py --workers 1 --track tracks/training.json
    python benchmarks/suggest.py --scheduler tcp://host:8786   # on a Dask cluster

For each board it runs :func:`fdlab.analysis.suggest` with its default
changes and targets (12 six-car races per board; on a board set for two laps,
such as Monaco, the pit lane too: exact two-lap solves) in a fresh disk cache (a
temporary folder, not the user's), and prints the changes measured, the
wall-clock time, the time per change after the fixed cost (starting the
workers, each solving the board as it is once: :mod:`fdlab.par.reuse`), and
what 50 changes would take at that rate (the goal of issue 28: at most 60 s
on 2 cores for a Monaco-size board), and the CPU seconds per board measured
(all processes, the workers' start and the board's own solve included): a
steadier figure than the wall time on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from fdlab.analysis import suggest
from fdlab.analysis.cluster import dask_client
from fdlab.analysis.suggestions import Targets, candidate_changes, pit_studied
from fdlab.track import load_track

REPO = Path(__file__).resolve().parents[1]
BOARDS = [REPO / "tracks" / "monaco.json", REPO / "tracks" / "zandvoort.json"]


def measure(path: Path, workers: int, client: object) -> None:
    """Run suggest on one board twice (one change, then all) and print the figures."""
    track = load_track(path)
    changes = candidate_changes(track, pit=pit_studied(track, Targets()))
    began = time.perf_counter()
    suggest(track, changes=changes[:1], workers=workers, client=client, progress=False)
    fixed = time.perf_counter() - began  # workers started, the board solved, two boards measured
    cpu_began = cpu_seconds()
    began = time.perf_counter()
    found = suggest(track, workers=workers, client=client, progress=False)
    wall = time.perf_counter() - began
    cpu = (cpu_seconds() - cpu_began) / (len(changes) + 1)
    per_change = max(0.0, wall - fixed) / max(1, len(changes) - 1)
    estimate = fixed + 49 * per_change
    print(
        f"{track.name:<12} {len(track.graph):>6} {found.tried:>8} {wall:>8.1f} {fixed:>7.1f} "
        f"{per_change:>10.2f} {estimate:>9.0f} {len(found):>6} {cpu:>10.2f}"
    )


def cpu_seconds() -> float:
    """CPU seconds of this process and of its ended worker processes (steadier than wall time
    on a shared machine; a Dask cluster's workers are not counted)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, action="append", help="a track file (repeatable)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler's address, or local")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["FDLAB_CACHE_DIR"] = cache
        print(f"suggest, default changes and targets, {args.workers} workers, fresh disk cache")
        print(f"{'board':<12} {'spaces':>6} {'changes':>8} {'wall s':>8} {'fixed s':>7} "
              f"{'s/change':>10} {'50 est s':>9} {'found':>6} {'CPU s/board':>10}")  # fmt: skip
        with dask_client(args.scheduler, args.workers) as client:
            for path in args.track or BOARDS:
                measure(path, args.workers, client)


if __name__ == "__main__":
    main()
