"""Benchmark the move generator: the full option list for a 6th-gear roll of 30.

Usage::

    python benchmarks/movegen.py                 # tracks/monaco.json if present
    python benchmarks/movegen.py --ascii         # a 3-lane, 100-column text loop
    python benchmarks/movegen.py --track my.json --repeat 200 --profile

For several start spaces, each with a few other cars placed ahead of it
(seeded), it times a cold ``move_options`` (every braking amount in one call; the
searches the move generator keeps are forgotten before each call) and
prints the median and 90th percentile per call and the number of options,
then the same with every option priced (``move_cost``, as
``Engine.legal_moves`` does) under the basic and advanced presets.

Last, a floor: the same starts searched layer by layer with paths and no
rule at all (one state per space and lane changes made, nothing about
corners, cars or zig-zags). No search of the rules written in Python can be
cheaper than that on this board and machine, so it shows how much of
``move_options`` is the rules and how much is Python walking the graph.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from fdlab.rules.board import Board, compile_board
from fdlab.rules.costs import move_cost
from fdlab.rules.movement import (
    MoveRules,
    forget_searches,
    move_options,
    move_options_for_rolls,
)
from fdlab.rules.presets import get_preset
from fdlab.rules.state import CarState
from fdlab.track import Track, from_ascii

REPO = Path(__file__).resolve().parents[1]
MONACO = REPO / "tracks" / "monaco.json"


def ascii_loop(columns: int = 100) -> Track:
    """A closed 3-lane loop with four corners of 1 to 3 stops and 2 to 6 columns."""
    corners = {1: (12, 4, 2), 2: (35, 3, 1), 3: (58, 6, 3), 4: (80, 2, 1)}
    cell = ["."] * columns
    for cid, (first, width, _) in corners.items():
        for c in range(first, first + width):
            cell[c] = str(cid)
    row = " ".join(cell)
    return from_ascii(
        "\n".join([row] * 3),
        corners={cid: stops for cid, (_, _, stops) in corners.items()},
        closed=True,
        name=f"3-lane loop, {columns} columns",
    )


def positions(board: Board, count: int, cars: int, seed: int) -> list[tuple[int, frozenset[int]]]:
    """Start spaces on the track, each with ``cars`` other cars 3 to 25 spaces ahead."""
    rng = random.Random(seed)
    track_spaces = [i for i, kind in enumerate(board.kind) if kind == "track"]
    lap = board.lap_length or 1.0
    result = []
    for start in rng.sample(track_spaces, count):
        ahead = [
            i
            for i in track_spaces
            if i != start and 3 <= (board.progress[i] - board.progress[start]) % lap <= 25
        ]
        occupied = frozenset(rng.sample(ahead, min(cars, len(ahead))))
        result.append((start, occupied))
    return result


def measure(board: Board, starts, roll: int, repeat: int) -> tuple[list[float], list[int]]:
    """Seconds per call (each call timed alone) and options per start."""
    times: list[float] = []
    counts: list[int] = []
    for start, occupied in starts:
        for _ in range(repeat):
            forget_searches()  # a cold search, not the one just made
            t0 = time.perf_counter()
            options = move_options(board, start, roll, MoveRules(occupied=occupied))
            times.append(time.perf_counter() - t0)
        counts.append(len(options))
    return times, counts


def measure_priced(board: Board, starts, roll: int, repeat: int, preset_name: str) -> list[float]:
    """Seconds per call of the option list with every option's cost (a 6th-gear car, full pools)."""
    preset = get_preset(preset_name)
    times: list[float] = []
    for start, occupied in starts:
        car = CarState(space=start, gear=6, pools=tuple(preset.pool_max), lap=1)
        for _ in range(repeat):
            forget_searches()
            t0 = time.perf_counter()
            options = move_options(board, start, roll, MoveRules(occupied=occupied))
            for option in options:
                move_cost(board, preset, car, option)
            times.append(time.perf_counter() - t0)
    return times


def bare_reach(board: Board, start: int, roll: int) -> int:
    """States a rule-free layered search with paths reaches in at most ``roll`` spaces.

    One state per (space, lane changes made, at most 2), the first path
    found kept: the least work any layered search of this board does.
    """
    steps = [[(j, 1 if code else 0) for j, code in board.moves[v]] for v in range(len(board))]
    layer: dict[tuple[int, int], tuple[int, ...]] = {(start, 0): ()}
    reached = 0
    for d in range(roll + 1):
        reached += len(layer)
        if d == roll:
            break
        following: dict[tuple[int, int], tuple[int, ...]] = {}
        for (v, changes), path in layer.items():
            for j, change in steps[v]:
                key = (j, changes + change)
                if key[1] <= 2 and key not in following:
                    following[key] = path + (j,)
        layer = following
    return reached


def measure_floor(board: Board, starts, roll: int, repeat: int) -> tuple[list[float], list[int]]:
    """Seconds per :func:`bare_reach` call and states reached per start."""
    times: list[float] = []
    counts: list[int] = []
    for start, _ in starts:
        for _ in range(repeat):
            t0 = time.perf_counter()
            count = bare_reach(board, start, roll)
            times.append(time.perf_counter() - t0)
        counts.append(count)
    return times, counts


def measure_faces(board: Board, starts, faces: range, repeat: int) -> tuple[float, float]:
    """Median seconds for every face of a die: one call per face, and one call for all."""
    each: list[float] = []
    together: list[float] = []
    for start, occupied in starts:
        for _ in range(repeat):
            t0 = time.perf_counter()
            for roll in faces:
                forget_searches()  # one search per face, as before searches were kept
                move_options(board, start, roll, MoveRules(occupied=occupied))
            t1 = time.perf_counter()
            forget_searches()
            move_options_for_rolls(board, start, faces, MoveRules(occupied=occupied))
            t2 = time.perf_counter()
            each.append(t1 - t0)
            together.append(t2 - t1)
    return statistics.median(each), statistics.median(together)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, help="a track JSON file (default tracks/monaco.json)")
    parser.add_argument("--ascii", action="store_true", help="use the 3-lane text loop")
    parser.add_argument("--roll", type=int, default=30)
    parser.add_argument("--starts", type=int, default=12)
    parser.add_argument("--cars", type=int, default=4, help="other cars near each start")
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the run, top 15")
    args = parser.parse_args(argv)

    path = args.track or (None if args.ascii or not MONACO.exists() else MONACO)
    if path is not None:
        from fdlab.track.io import load_track

        track = load_track(path)
        source = str(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    else:
        track = ascii_loop()
        source = "ascii loop (tracks/monaco.json not used)"
    board = compile_board(track)
    starts = positions(board, args.starts, args.cars, args.seed)
    measure(board, starts[:2], args.roll, 3)  # warm up
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        times, counts = measure(board, starts, args.roll, args.repeat)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    else:
        times, counts = measure(board, starts, args.roll, args.repeat)
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"board: {source}: {len(board)} spaces, {len(board.stops)} corners")
    print(
        f"move_options, roll {args.roll}, {args.starts} starts x {args.repeat} calls, "
        f"{args.cars} other cars each"
    )
    print(f"median {statistics.median(times) * 1e3:.3f} ms, p90 {p90 * 1e3:.3f} ms")
    print(
        f"options per call: median {statistics.median(counts):g}, "
        f"min {min(counts)}, max {max(counts)}"
    )
    for preset_name in ("basic", "advanced"):
        priced = measure_priced(board, starts, args.roll, args.repeat, preset_name)
        print(
            f"with every option's cost ({preset_name} rules): "
            f"median {statistics.median(priced) * 1e3:.3f} ms"
        )
    faces = range(21, 31)
    each, together = measure_faces(board, starts, faces, max(1, args.repeat // 10))
    print(
        f"all faces 21-30 of the 6th-gear die: {each * 1e3:.3f} ms with one call per face, "
        f"{together * 1e3:.3f} ms with move_options_for_rolls (medians)"
    )
    floor, reached = measure_floor(board, starts, args.roll, args.repeat)
    print(
        f"floor, the same starts with no rule (layered paths only): median "
        f"{statistics.median(floor) * 1e3:.3f} ms, {statistics.median(reached):g} states"
    )


if __name__ == "__main__":
    main()
