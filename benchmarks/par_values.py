"""Benchmark the value iteration of the exact solo par alone (the "values" part of a solve).

Usage::

    python benchmarks/par_values.py                          # tracks/monaco.json, 10 runs
    python benchmarks/par_values.py --track tracks/zandvoort.json --laps 2 --runs 5

The model and the option rows of the board are made once; then the value
iteration (:func:`fdlab.par.values._levels`, :func:`fdlab.par.values._solve_levels`
and the start, :func:`fdlab.par.values._start_values`) runs ``--runs`` times on
a fresh store, with the cycle collector off as in a solve. Prints the least
and the median wall-clock time of each part. On a busy machine the least is
the better guide.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fdlab.par import rows as par_rows
from fdlab.par import values
from fdlab.par.model import SoloModel
from fdlab.rules.board import compile_board
from fdlab.rules.collector import paused_collections
from fdlab.rules.presets import get_preset
from fdlab.track import load_track

MONACO = Path(__file__).resolve().parents[1] / "tracks" / "monaco.json"
PENALTY = 1000.0
TOLERANCE = 1e-10


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, default=MONACO, help="track file to solve")
    parser.add_argument("--laps", type=int, default=None, help="race length (preset's default)")
    parser.add_argument("--runs", type=int, default=10, help="runs of the value iteration")
    args = parser.parse_args(argv)
    board = compile_board(load_track(args.track))
    model = SoloModel(board, get_preset("basic", args.laps), 1, reuse=False)
    tables = par_rows._tables(model)
    times: dict[str, list[float]] = {"levels": [], "solve": [], "start": [], "values": []}
    with paused_collections():
        for _ in range(args.runs):
            began = time.perf_counter()
            store = values._Store(model, PENALTY)
            label, loops, levels = values._levels(tables.rows)
            leveled = time.perf_counter()
            values._solve_levels(model, tables, levels, label, loops, store, PENALTY, TOLERANCE)
            solved = time.perf_counter()
            values._start_values(model, tables, store, PENALTY)
            ended = time.perf_counter()
            times["levels"].append(leveled - began)
            times["solve"].append(solved - leveled)
            times["start"].append(ended - solved)
            times["values"].append(ended - began)
    rows = sum(len(r.group) for r in tables.rows if r is not None)
    print(
        f"{board.track.name} ({args.track.name}, {model.preset.laps} lap(s)): "
        f"{len(model.positions)} positions, {rows} option rows, {len(levels)} levels"
    )
    for part, seconds in times.items():
        print(
            f"  {part:7s} least {1e3 * min(seconds):7.1f} ms, "
            f"median {1e3 * statistics.median(seconds):7.1f} ms"
        )


if __name__ == "__main__":
    main()
