"""Benchmark the exact solo par: solve time on Monaco and on a 500-space board, and agreement.

Usage::

    python benchmarks/par.py                  # Monaco, a 500-space loop, Monaco built at 170 a lap
    python benchmarks/par.py --check 2000     # also simulate 2000 solo races of the optimal bot
    python benchmarks/par.py --all            # every board in tracks/ and one built from each
                                              # circuit in circuits/ (default options)

Prints, for each board, the solve time (CPU seconds of this process, and
wall-clock), the number of positions and distinct option rows, the par and
the finish probability, and the time of a re-solve after each corner's stop
count is changed by one (:mod:`fdlab.par.reuse`: the searches and values the
edit did not touch are reused; median and worst over the corners, with the
share of positions reused); then, for the 500-space loop, the time of
``solo_table`` solving and storing the table, and of reading it back from
the disk cache in a fresh session (the in-memory cache emptied; a
temporary cache folder, not the user's). With ``--check N`` it plays N solo
races with :class:`fdlab.bots.solo.SoloOptimalBot` and prints their mean
number of turns, its standard error and the gap to par in percent.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fdlab.bots.solo import SoloOptimalBot
from fdlab.par import solve_par
from fdlab.rules.board import Board, compile_board
from fdlab.rules.simulate import simulate
from fdlab.track import Track, from_ascii, load_track

REPO = Path(__file__).resolve().parents[1]
MONACO = REPO / "tracks" / "monaco.json"
MONACO_LINE = REPO / "circuits" / "mc-1929.geojson"
TRACKS = REPO / "tracks"
CIRCUITS = REPO / "circuits"


def monaco_500() -> Track:
    """The real Monaco centreline built with 170 spaces a lap (560 spaces in three lanes)."""
    from fdlab.track.build import build_track

    return build_track(
        MONACO_LINE, name="Monaco, 170 spaces a lap", spaces_per_lap=170, finish=0.715
    )


def loop_500() -> Track:
    """A closed 3-lane loop of 167 columns (501 spaces) with five corners of 1-3 stops."""
    columns = 167
    corners = {1: (12, 4, 2), 2: (40, 3, 1), 3: (70, 6, 3), 4: (100, 2, 1), 5: (130, 5, 2)}
    cell = ["."] * columns
    for cid, (first, width, _) in corners.items():
        for c in range(first, first + width):
            cell[c] = str(cid)
    row = " ".join(cell)
    last = 3 * (columns - 1)
    return from_ascii(
        "\n".join([row] * 3),
        corners={cid: stops for cid, (_, _, stops) in corners.items()},
        closed=True,
        grid=[last, last + 1, last + 2],
        name="500-space loop",
    )


def every_board() -> list[tuple[str, Track]]:
    """The boards in tracks/, and one built with default options from each circuit."""
    from fdlab.track.build import build_track

    boards = [(f"tracks/{p.name}", load_track(p)) for p in sorted(TRACKS.glob("*.json"))]
    for path in sorted(CIRCUITS.glob("*.geojson")):
        boards.append((f"built from circuits/{path.name}", build_track(path)))
    return boards


def check(board: Board, solution, races: int) -> None:
    bot = SoloOptimalBot(solution)
    began = time.perf_counter()
    turns = [r.rounds for r in (simulate(board, [bot], seed=s) for s in range(races)) if r.finished]
    seconds = time.perf_counter() - began
    mean = statistics.mean(turns)
    error = statistics.stdev(turns) / len(turns) ** 0.5
    gap = 100 * (mean - solution.par) / solution.par
    print(
        f"  {races} solo races of the optimal bot: {len(turns)} finish, mean {mean:.3f} "
        f"+- {error:.3f} turns (par {solution.par:.3f}, gap {gap:+.2f}%), {seconds:.1f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, action="append", help="track file(s) to solve")
    parser.add_argument("--check", type=int, default=0, metavar="N", help="simulate N solo races")
    parser.add_argument(
        "--all", action="store_true", help="the shipped boards and one built from each circuit"
    )
    args = parser.parse_args(argv)
    boards = [(str(p), load_track(p)) for p in args.track or []]
    if args.all:
        boards += every_board()
    if not boards:
        if MONACO.exists():
            boards.append(("tracks/monaco.json", load_track(MONACO)))
        boards.append(("text loop", loop_500()))
        if MONACO_LINE.exists():
            boards.append(("built from the Monaco centreline", monaco_500()))
    for source, track in boards:
        board = compile_board(track)
        began = time.process_time()
        solution = solve_par(board)
        cpu = time.process_time() - began
        print(
            f"{track.name} ({source}): {len(board)} spaces, {len(board.stops)} corners; "
            f"solve {cpu:.2f} s CPU ({solution.seconds:.2f} s wall), "
            f"{solution.stats['positions']} positions, "
            f"{solution.stats['rows']} option rows; par {solution.par:.3f} turns, "
            f"finish {solution.finish_probability:.5f}"
        )
        phases = solution.phases
        print(
            "  wall-clock by part: "
            + ", ".join(f"{part} {seconds:.2f} s" for part, seconds in phases.items())
            + " (model: positions and move searches; tables: option rows; values: iteration)"
        )
        resolve(track)
        if args.check:
            check(board, solution, args.check)
    disk_cache()


def resolve(track: Track) -> None:
    """Re-solve after each corner's stops change by one, the unedited board solved just before."""
    from fdlab.par.reuse import forget_models

    times, shares = [], []
    for corner, spec in track.corners.items():
        edited = track.copy()
        edited.corners[corner]["stops"] = spec["stops"] + (1 if spec["stops"] < 3 else -1)
        forget_models()
        solve_par(compile_board(track))
        board = compile_board(edited)
        began = time.process_time()
        solution = solve_par(board)
        times.append(time.process_time() - began)
        shares.append(solution.stats["positions_reused"] / solution.stats["positions"])
    if times:
        print(
            f"  re-solve after one corner's stops +-1 ({len(times)} corners): median "
            f"{statistics.median(times):.2f} s CPU, worst {max(times):.2f} s; positions reused: "
            f"median {statistics.median(shares):.0%}"
        )


def disk_cache() -> None:
    """``solo_table`` of the loop: solved and stored, then read back in a "new session"."""
    import os
    import tempfile

    from fdlab.par import solo_table
    from fdlab.par.table import forget_tables
    from fdlab.rules.presets import BASIC

    before = os.environ.get("FDLAB_CACHE_DIR")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["FDLAB_CACHE_DIR"] = folder
        try:
            forget_tables()
            c0 = time.process_time()
            solo_table(compile_board(loop_500()), BASIC)
            c1 = time.process_time()
            forget_tables()  # as a restarted notebook
            solo_table(compile_board(loop_500()), BASIC)
            c2 = time.process_time()
        finally:
            forget_tables()
            if before is None:
                del os.environ["FDLAB_CACHE_DIR"]
            else:
                os.environ["FDLAB_CACHE_DIR"] = before
    print(
        f"solo_table of the 500-space loop: solved and stored {c1 - c0:.2f} s CPU; "
        f"read from the disk cache in a fresh session {1e3 * (c2 - c1):.0f} ms CPU"
    )


if __name__ == "__main__":
    main()
