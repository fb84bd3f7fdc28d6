"""Time printing boards at real size, and importing a GP Online board.

Run: ``python benchmarks/print_board.py``. Prints, for each shipped board,
the page grid at the published space size on A4 and the median time of
several runs of :func:`fdlab.plot.print_board` (tiles and overview, then
the poster), and the time to import a generated three-lane GP Online
``.dat`` board of about 500 spaces.
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fdlab.plot.printing import print_board
from fdlab.track import load_track
from fdlab.track.formats import read_gponline

TRACKS = Path(__file__).resolve().parents[1] / "tracks"
RUNS = 5


def median_seconds(work: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def ring_dat(rows: int = 166, lanes: int = 3) -> str:
    """A circular GP Online board: ``rows`` rows of ``lanes`` spaces, four 1-stop corners."""
    lines = ["ring.png 0", ""]
    ident = {}
    for row in range(rows):
        for lane in range(lanes):
            ident[row, lane] = len(ident)
            angle = 2 * math.pi * row / rows
            radius = 1000 + 25 * lane
            x, y = 1200 + radius * math.cos(angle), 1200 + radius * math.sin(angle)
            kind = 3 if row % 40 in range(30, 36) else 1
            flag = " F" if row == 0 else ""
            lines.append(f"{ident[row, lane]} {x:.1f} {y:.1f} {kind}{flag}")
    lines.append("")
    for row in range(rows):
        for lane in range(lanes):
            for other in (lane - 1, lane, lane + 1):
                if 0 <= other < lanes:
                    lines.append(f"{ident[row, lane]} {ident[(row + 1) % rows, other]}")
    lines.append("")
    lines += [
        f"{ident[row, lane]} {1 + row % 40 - 30}"
        for row in range(rows)
        for lane in range(lanes)
        if row % 40 in range(30, 36)
    ]
    lines.append("")
    lines += [f"{ident[rows - 1 - k, k % lanes]} 90" for k in range(10)]
    return "\n".join(lines) + "\n"


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    for path in sorted(TRACKS.glob("*.json")):
        track = load_track(path)
        out = folder / f"{path.stem}.pdf"
        layout = print_board(track, out)
        tiles = median_seconds(lambda track=track, out=out: print_board(track, out))
        poster = median_seconds(lambda track=track, out=out: print_board(track, out, poster=True))
        print(
            f"{track.name:>14}: {len(track):4d} spaces, board {layout.board_mm[0] / 10:4.0f} x "
            f"{layout.board_mm[1] / 10:4.0f} cm, {len(layout.printed):2d} A4 pages + overview "
            f"({out.stat().st_size / 1e3:5.0f} kB): {tiles * 1e3:6.0f} ms; poster {poster * 1e3:5.0f} ms"
        )
    dat = folder / "ring.dat"
    dat.write_text(ring_dat())
    track = read_gponline(dat)
    seconds = median_seconds(lambda: read_gponline(dat))
    print(f"import GP Online .dat, {len(track)} spaces: {seconds * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
