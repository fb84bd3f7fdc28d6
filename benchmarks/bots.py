"""Benchmark the bots: how close to par, how safe, how fast (issue 10's figures).

Usage::

    python benchmarks/bots.py                  # shipped boards + circuits/*.geojson if present
    python benchmarks/bots.py path/to/circuits # boards built from that folder's GeoJSON files
    python benchmarks/bots.py --quick          # fewer races (a smoke run)
    python benchmarks/bots.py --bots heuristic # measure another bot spec
    python benchmarks/bots.py --preset advanced --quick  # the races under other rules

Prints, for the four shipped boards and for a board built with default
options (``build_track(path)``) from every GeoJSON circuit of the folder:

* the solo par (by default one lap, basic rules; ``--preset`` and ``--laps``
  choose others, whose par is then the solver's model of them,
  :func:`fdlab.par.approx.solo_preset`), the time ``solve_par`` takes to solve
  it (always solved here, whatever the caches hold) and, apart, the time
  of reading the table back from the disk cache (:mod:`fdlab.par.store`);
* alone, the bot's mean turns over par (the gap, target at most 3%) and
  its self-eliminations (target at most 0.5%), over ``--solo`` races;
* six bots in a race under those rules: the share of cars that finish (target
  at least 95%), over ``--six`` races;

then, always under the basic rules, on Monaco the median time of a 6-bot
one-lap race (target at most 100 ms). The same race of six heuristic bots,
raced in turns with it, is this machine's yardstick: their ratio is printed
too (the issue measured the heuristic race at about 50 ms, on the Monaco
of that time). Then the
median time of the full priced move list of a car in 6th gear with a roll
of 30 (``Engine.legal_moves`` from a cold search, target at most 0.4 ms;
with the cycle collector as races run it, and with Python's default), and
``solve_par`` on a 500-space board (target at most 2 s) with the times of
reading its table from the disk cache and of a second request of the same
board content (the memory cache: solved once per board).

Times are CPU seconds of this process (``time.process_time``): on a machine
shared with other work they are the figures an idle machine would show;
wall-clock seconds are printed beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from fdlab.bots.roster import make_bot
from fdlab.par import ParSolution, ParTable, solo_table, solve_par, store
from fdlab.par.approx import solo_preset
from fdlab.par.table import remember, table_key
from fdlab.rules.board import Board, compile_board
from fdlab.rules.collector import fewer_collections
from fdlab.rules.engine import Engine
from fdlab.rules.movement import forget_searches
from fdlab.rules.presets import BASIC, PRESETS, Preset, get_preset
from fdlab.rules.simulate import simulate
from fdlab.track import load_track

REPO = Path(__file__).resolve().parents[1]
TRACKS = REPO / "tracks"
CIRCUITS = REPO / "circuits"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def boards(folder: Path | None) -> list[tuple[str, Board]]:
    """The shipped boards, then one board per GeoJSON circuit of ``folder``."""
    found = [
        (f"tracks/{name}.json", compile_board(load_track(TRACKS / f"{name}.json")))
        for name in ("training", "monaco", "zandvoort", "street")
        if (TRACKS / f"{name}.json").exists()
    ]
    if folder is not None and folder.is_dir():
        from fdlab.track.build import build_track

        for path in sorted(folder.glob("*.geojson")):
            try:
                track = build_track(path)
            except ValueError as error:
                print(f"  {path.name}: not built ({error})")
                continue
            found.append((f"{path.name} (built, default options)", compile_board(track)))
    return found


def clocks() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def timed_solve(board: Board, preset: Preset = BASIC) -> tuple[ParSolution, float, float]:
    """The board's solo par solved by ``solve_par`` (never read from a cache): CPU and wall s."""
    c0, w0 = clocks()
    solution = solve_par(board, solo_preset(preset))
    c1, w1 = clocks()
    return solution, c1 - c0, w1 - w0


def keep(board: Board, solution: ParSolution, preset: Preset = BASIC) -> ParTable:
    """Keep a solved table as :func:`~fdlab.par.solo_table` would (memory and disk): bots use it."""
    key = table_key(board, preset)
    table = solution.table(key[0])
    remember({key: table})
    store.save(key, table)
    return table


def disk_read(board: Board, preset: Preset = BASIC) -> str:
    """The time of reading the board's table back from the disk cache, in words."""
    key = table_key(board, preset)
    if store.path_for(key) is None:
        return "disk cache off"
    c0, w0 = clocks()
    table = store.load(key, solo_preset(preset))
    c1, w1 = clocks()
    if table is None:
        return "not in the disk cache"
    return (
        f"read from the disk cache in {1e3 * (c1 - c0):.0f} ms CPU ({1e3 * (w1 - w0):.0f} ms wall)"
    )


def solo(board: Board, spec: str, races: int, preset: Preset = BASIC) -> tuple[float, float, float]:
    """Mean turns of the races that finish, share eliminated, CPU ms per race."""
    turns, lost = [], 0
    began = time.process_time()
    for seed in range(races):
        bot = make_bot(spec, board=board, preset=preset, seed=seed)
        result = simulate(board, [bot], preset, seed=seed)
        if result.finished:
            turns.append(result.rounds)
        else:
            lost += 1
    ms = 1e3 * (time.process_time() - began) / races
    return (statistics.mean(turns) if turns else float("nan")), lost / races, ms


def six(board: Board, spec: str, races: int, preset: Preset = BASIC) -> tuple[float, list[float]]:
    """Share of cars finishing a race of six, and the CPU seconds of each race."""
    cars = min(6, sum(1 for g in board.grid if g is not None))
    finished, times = 0, []
    for seed in range(races):
        bots = [make_bot(spec, board=board, preset=preset, seed=k, slot=k + 1) for k in range(cars)]
        began = time.process_time()
        result = simulate(board, bots, preset, seed=seed)
        times.append(time.process_time() - began)
        finished += len(result.finished)
    return finished / (cars * races), times


def priced_moves(board: Board, repeat: int, in_race: bool) -> tuple[float, float, float]:
    """Median ms of ``Engine.legal_moves`` in 6th gear with a roll of 30, over track spaces.

    ``in_race``: with the cycle collector as races run it (``fewer_collections``),
    else with Python's default thresholds.
    """
    engine = Engine(board, BASIC, ["A"])
    states = []
    for space in range(0, len(board), 3):
        if board.kind[space] != "track":
            continue
        state = engine.position([{"space": space, "gear": 6}])
        states.append(replace(state, phase="move", roll=30, die_roll=30))
    for state in states:
        engine.legal_moves(state)  # warm the cost memo once, as a race does
    cpu, wall, count = [], [], []
    with fewer_collections() if in_race else contextlib.nullcontext():
        for _ in range(repeat):
            for state in states:
                forget_searches()  # a cold search: not the one a bot's look-ahead just made
                c0, w0 = clocks()
                moves = engine.legal_moves(state)
                c1, w1 = clocks()
                cpu.append(c1 - c0)
                wall.append(w1 - w0)
                count.append(len(moves))
    return 1e3 * statistics.median(cpu), 1e3 * statistics.median(wall), statistics.median(count)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=CIRCUITS if CIRCUITS.is_dir() else None,
        help="folder of GeoJSON circuits (default: circuits/ when present)",
    )
    parser.add_argument("--bots", default="par", help="bot spec measured (default par)")
    parser.add_argument("--solo", type=int, default=400, help="solo races per board")
    parser.add_argument("--six", type=int, default=60, help="6-bot races per board")
    parser.add_argument("--quick", action="store_true", help="30 solo and 8 6-bot races")
    parser.add_argument(
        "--preset",
        default="basic",
        choices=sorted(PRESETS),
        help="rules of the solo and six-car races (default basic; the speed figures are basic)",
    )
    parser.add_argument("--laps", type=int, default=1, help="laps of those races (2: pit stops)")
    args = parser.parse_args(argv)
    rules = get_preset(args.preset, args.laps)
    if args.quick:
        args.solo, args.six = 30, 8
    spec = args.bots
    print(
        f"bot {spec!r}; {args.solo} solo races and {args.six} six-car races per board, "
        f"{rules.name} rules, {rules.laps} lap(s)"
    )
    gaps, elims, finish_rates = [], [], []
    monaco = None
    for source, board in boards(args.folder):
        solution, cpu, wall = timed_solve(board, rules)
        table = keep(board, solution, rules)
        read = disk_read(board, rules)
        mean, lost, ms = solo(board, spec, args.solo, rules)
        gap = mean / table.par - 1
        rate, times = six(board, spec, args.six, rules)
        gaps.append(gap)
        elims.append(lost)
        finish_rates.append(rate)
        if "monaco" in source:
            monaco = board
        print(
            f"{board.track.name} ({source}): {len(board)} spaces; par {table.par:.2f} turns "
            f"(solve_par {cpu:.2f} s CPU, {wall:.1f} s wall; {read}); alone {mean:.2f} turns, "
            f"gap {gap:+.2%}, eliminated {lost:.2%} ({ms:.0f} ms/race); six cars: "
            f"{rate:.1%} finish ({1e3 * statistics.median(times):.0f} ms/race)"
        )
    print(
        f"ALL {len(gaps)} boards: solo gap mean {statistics.mean(gaps):+.2%}, worst "
        f"{max(gaps):+.2%} (target <= +3%); self-elimination mean {statistics.mean(elims):.2%}, "
        f"worst {max(elims):.2%} (target <= 0.5%); six cars finish mean "
        f"{statistics.mean(finish_rates):.1%}, worst {min(finish_rates):.1%} (target >= 95%)"
    )
    if monaco is not None:
        races = 10 if args.quick else 30
        # the two kinds of race alternate, seed by seed: a machine whose speed drifts
        # slows both alike, so their ratio holds where single figures do not
        cpus: dict[str, list[float]] = {spec: [], "heuristic": []}
        walls: dict[str, list[float]] = {spec: [], "heuristic": []}
        for seed in range(races):
            for measured in cpus:  # the heuristic race: this machine's yardstick
                bots = [
                    make_bot(measured, board=monaco, preset=BASIC, seed=k, slot=k + 1)
                    for k in range(6)
                ]
                c0, w0 = clocks()
                simulate(monaco, bots, BASIC, seed=1000 + seed)
                c1, w1 = clocks()
                cpus[measured].append(c1 - c0)
                walls[measured].append(w1 - w0)
        medians = {measured: statistics.median(times) for measured, times in cpus.items()}
        for measured in cpus:
            print(
                f"Monaco, 6 {measured} bots, one lap: median {1e3 * medians[measured]:.0f} "
                f"ms CPU ({1e3 * statistics.median(walls[measured]):.0f} ms wall) per race over "
                f"{races} races{' (target <= 100 ms)' if measured == spec else ''}"
            )
        print(
            f"Monaco, the {spec} race takes {medians[spec] / medians['heuristic']:.2f} x the "
            "heuristic race, raced in turns with it"
        )
        cpu, wall, count = priced_moves(monaco, 2 if args.quick else 10, in_race=True)
        plain, _, _ = priced_moves(monaco, 2 if args.quick else 10, in_race=False)
        print(
            f"Monaco, priced move list (Engine.legal_moves, 6th gear, roll 30, {count:.0f} "
            f"options): median {cpu:.3f} ms CPU ({wall:.3f} ms wall, {1e3 * cpu / count:.1f} "
            f"us per option) with the collector as in a race, {plain:.3f} ms CPU with "
            "Python's default (target <= 0.4 ms)"
        )
    from par import loop_500

    board = compile_board(loop_500())
    solution, cpu, wall = timed_solve(board)
    keep(board, solution)
    read = disk_read(board)
    c0, _ = clocks()
    solo_table(compile_board(loop_500()), BASIC)  # a new board object, the same content
    c1, _ = clocks()
    print(
        f"solve_par, {len(board)}-space loop: {cpu:.2f} s CPU ({wall:.1f} s wall), "
        f"{solution.stats['positions']} positions (target <= 2 s); its table {read}; "
        f"solo_table of the same content again {1e3 * (c1 - c0):.1f} ms (memory, by content)"
    )


if __name__ == "__main__":
    main()
