"""Time the GP Online importer on synthetic boards of growing size.

Run: python benchmarks/import_track.py [TEETH ...]
Lays out a three-lane staircase circuit with a pit lane (``staircase_dat``:
a long bottom straight, a right-hand straight, then a descending staircase
of 90-degree corners, TEETH steps of it; 4 teeth make about 800 spaces),
writes it as a GP Online ``.dat`` file and prints, for each size, the
spaces imported, the best of three import times and the time per space.
The import should grow about linearly: the time per space stays about
the same as the board grows.

The boards are made here; nothing is read from GP Online.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path

from fdlab.track.formats import read_gponline

SPACE = 40.0  # pixels along a lane
LANE = 25.0  # pixels between lanes
RADIUS = 2 * SPACE  # the middle lane's radius in a corner
ROWS = 10  # rows of each step of the staircase
FINISH_ROW = 5  # the bottom straight's row just past the finish line


def _moves(teeth: int, bottom: int, right: int) -> list[tuple[str, int]]:
    moves = [("S", bottom), ("L", 0), ("S", right), ("L", 0), ("S", ROWS)]
    for _ in range(teeth):
        moves += [("L", 0), ("S", ROWS), ("R", 0), ("S", ROWS)]
    moves += [("L", 0), ("S", ROWS), ("L", 0)]
    return moves


def _end(
    moves: list[tuple[str, int]], x: float = 0.0, y: float = 0.0, heading: float = 0.0
) -> tuple[float, float]:
    """Where the centreline ends after ``moves`` (straights of rows, left and right turns)."""
    for kind, rows in moves:
        hx, hy = math.cos(heading), math.sin(heading)
        if kind == "S":
            x, y = x + rows * SPACE * hx, y + rows * SPACE * hy
        else:
            turn = math.pi / 2 if kind == "L" else -math.pi / 2
            side = 1.0 if kind == "L" else -1.0
            cx, cy = x - side * hy * RADIUS, y + side * hx * RADIUS
            heading += turn
            x, y = cx + side * math.sin(heading) * RADIUS, cy - side * math.cos(heading) * RADIUS
    return x, y


#: One lane of a segment: (x, y, distance into the corner or None on a straight).
Run = list[tuple[float, float, float | None]]


def _straight(x: float, y: float, heading: float, rows: int) -> list[Run]:
    hx, hy = math.cos(heading), math.sin(heading)
    lanes = []
    for lane in range(3):
        d = (1 - lane) * LANE  # lane 0 on the left
        lanes.append(
            [
                (x + (i + 0.5) * SPACE * hx - d * hy, y + (i + 0.5) * SPACE * hy + d * hx, None)
                for i in range(rows)
            ]
        )
    return lanes


def _corner(x: float, y: float, heading: float, side: float) -> list[Run]:
    """A 90-degree corner, to the left (``side`` 1) or right (-1)."""
    cx, cy = x - side * math.sin(heading) * RADIUS, y + side * math.cos(heading) * RADIUS
    span = round(math.pi / 2 * RADIUS / SPACE)
    start = math.atan2(y - cy, x - cx)
    lanes = []
    for lane in range(3):
        r = RADIUS - side * (1 - lane) * LANE
        count = max(1, round(math.pi / 2 * r / SPACE))
        run: Run = []
        for i in range(count):
            angle = start + side * (i + 0.5) * (math.pi / 2) / count
            offset = round((i + 1) * span / count, 2)
            run.append((cx + r * math.cos(angle), cy + r * math.sin(angle), offset))
        lanes.append(run)
    return lanes


def _segments(moves: list[tuple[str, int]]) -> list[tuple[int, list[Run]]]:
    """(stops, lanes) of each straight (0 stops) and corner (1 or 2 stops, alternating)."""
    segments = []
    x = y = heading = 0.0
    stops = 0
    for kind, rows in moves:
        if kind == "S":
            segments.append((0, _straight(x, y, heading, rows)))
        else:
            stops = stops % 2 + 1
            segments.append((stops, _corner(x, y, heading, 1.0 if kind == "L" else -1.0)))
        x, y = _end([(kind, rows)], x, y, heading)
        heading += {"S": 0.0, "L": math.pi / 2, "R": -math.pi / 2}[kind]
    return segments


def _steps(
    segments: list[tuple[int, list[Run]]], ids: list[list[list[int]]]
) -> list[tuple[int, int]]:
    """Ahead down each lane, and a lane change to the space about one ahead beside."""
    steps = []
    for k, (stops, lanes) in enumerate(segments):
        following = ids[(k + 1) % len(ids)]
        for lane, run in enumerate(ids[k]):
            for i, n in enumerate(run):
                steps.append((n, run[i + 1] if i + 1 < len(run) else following[lane][0]))
                for other in (lane - 1, lane + 1):
                    if not 0 <= other < 3:
                        continue
                    beside = ids[k][other]
                    if not stops:
                        later = beside[i + 1 :]
                    else:
                        mine = lanes[lane][i][2] or 0.0
                        later = [
                            m
                            for j, m in enumerate(beside)
                            if (lanes[other][j][2] or 0.0) > mine + 0.5
                        ]
                    steps.append((n, later[0] if later else following[other][0]))
    return steps


def staircase_dat(teeth: int) -> str:
    """A closed three-lane circuit of ``4 + 2 * teeth`` corners as a ``.dat`` text.

    Space ids follow the lap; the finish line is on the bottom straight, with a
    staggered grid behind it and a pit lane of four garages beside it.
    """
    # the bottom and right straights close the loop
    x0, y0 = _end(_moves(teeth, 0, 0))
    bottom, right = round(-x0 / SPACE), round(-y0 / SPACE)
    moves = _moves(teeth, bottom, right)
    assert max(map(abs, _end(moves))) < 1e-6 and bottom > 2 * FINISH_ROW and right > 0
    segments = _segments(moves)
    ids: list[list[list[int]]] = []
    rows: list[str] = []
    values: list[str] = []

    def add(x: float, y: float, number: int, finish: bool = False) -> int:
        rows.append(f"{len(rows)} {x + 1000:.0f} {1000 - y:.0f} {number}{' F' if finish else ''}")
        return len(rows) - 1

    for k, (stops, lanes) in enumerate(segments):
        ids.append([])
        for run in lanes:
            ids[-1].append([])
            for i, (x, y, offset) in enumerate(run):
                n = add(x, y, {0: 1, 1: 3, 2: 2}[stops], k == 0 and i == FINISH_ROW)
                ids[-1][-1].append(n)
                if offset is not None:
                    values.append(f"{n} {offset}")
    steps = _steps(segments, ids)
    # a pit lane right of the bottom straight (the outside), crossing the finish line
    outer = ids[0][2]
    pit = {r: add((r + 0.5) * SPACE, -LANE - 30.0, 7, r == FINISH_ROW) for r in range(2, 9)}
    steps += [(outer[1], pit[2]), (pit[8], outer[9])]
    steps += [(pit[r], pit[r + 1]) for r in range(2, 8)]
    for r in (3, 4, 6, 7):
        garage = add((r + 0.5) * SPACE, -2 * LANE - 30.0, 7)
        steps += [(pit[r - 1], garage), (garage, pit[r + 1])]
        values.append(f"{garage} 1.0")
    grid = [ids[0][(0, 2)[n % 2]][r] for n, r in enumerate(range(FINISH_ROW - 1, -1, -1))]
    lines = ["staircase.png 1", "", *rows, "", *(f"{u} {v}" for u, v in steps), ""]
    lines += [*values, "", *(f"{n} 0" for n in grid)]
    return "\n".join(lines) + "\n"


def timed(teeth: int, folder: Path, repeats: int = 3) -> tuple[int, float]:
    """Spaces imported and the best import time of a staircase of ``teeth`` steps."""
    path = folder / f"staircase-{teeth}.dat"
    path.write_text(staircase_dat(teeth))
    best = math.inf
    spaces = 0
    for _ in range(repeats):
        start = time.perf_counter()
        track = read_gponline(path)
        best = min(best, time.perf_counter() - start)
        spaces = len(track)
    return spaces, best


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [4, 16, 64]
    print(f"{'teeth':>6} {'spaces':>7} {'seconds':>8} {'ms/space':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for teeth in sizes:
            spaces, seconds = timed(teeth, Path(folder))
            print(f"{teeth:6} {spaces:7} {seconds:8.2f} {1000 * seconds / spaces:9.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
