"""Time the board builder: a 500-space board, and every circuit of the repository.

Run: python benchmarks/build_track.py
Prints the median build time of a 500-space board (goal: well under a
second), whether its builds wrote identical track files (deterministic), and the time to build each circuit in circuits/, with the
progress gained by its lane changes (M-3: about one space, never below half)
its corners' shortest paths over their stop counts (at least 1), and its pit
boxes (with ``pit=True`` a finish straight too short for 10 gets as many as fit,
and the builder's note says so).
"""

from __future__ import annotations

import math
import statistics
import time
import warnings
from pathlib import Path

from fdlab.track.build import PitSpec, build_track
from fdlab.track.build.pit import FewerBoxesWarning
from fdlab.track.io import dumps

CIRCUITS = Path(__file__).resolve().parents[1] / "circuits"


def ellipse(points: int = 200) -> list[tuple[float, float]]:
    """A wobbly oval of about 4 km, finish line on the bottom straight."""
    result = []
    for i in range(points):
        t = 2 * math.pi * i / points
        scale = 1 + 0.05 * math.cos(3 * t + 0.4)
        result.append((1100 * scale * math.sin(t), -450 * scale * math.cos(t)))
    return result


def timed(build, repeats: int = 5) -> tuple[float, object, bool]:
    """Median build time, the last track, and whether every build wrote the same file."""
    times = []
    files = set()
    track = None
    for _ in range(repeats):
        start = time.perf_counter()
        track = build()
        times.append(time.perf_counter() - start)
        files.add(dumps(track))
    return statistics.median(times), track, len(files) == 1


def lane_change_gains(track) -> list[float]:
    """Progress gained by each lane change, counted round the finish line."""
    nodes, lap = track.graph.nodes, track.lap_length
    return [
        (nodes[v]["progress"] - nodes[u]["progress"]) % lap
        for u, v, kind in track.graph.edges(data="kind")
        if kind == "lane_change"
    ]


def main() -> None:
    seconds, track, same = timed(
        lambda: build_track(ellipse(), name="Bench", lanes=3, spaces_per_lap=162, pit=PitSpec())
    )
    print(
        f"500-space board: {len(track)} spaces, {track.graph.number_of_edges()} steps, "
        f"median build {seconds * 1000:.0f} ms over 5 builds; "
        f"{'identical' if same else 'DIFFERENT'} track files"
    )
    if CIRCUITS.is_dir():
        for path in sorted(CIRCUITS.glob("*.geojson")):
            with warnings.catch_warnings(record=True) as notes:
                warnings.simplefilter("always", FewerBoxesWarning)
                seconds, track, same = timed(
                    lambda p=path: build_track(p, spaces_per_lap=90, pit=True), repeats=3
                )
            gains = lane_change_gains(track)
            slack = min(c["short"] / c["stops"] for c in track.corners.values())
            print(
                f"{path.stem:10s} {len(track):4d} spaces  {seconds * 1000:6.0f} ms  "
                f"lane change gain {min(gains):.2f}-{max(gains):.2f} "
                f"(median {statistics.median(gains):.2f})  "
                f"min short/stops {slack:.2f} over {len(track.corners)} corners, "
                f"{len(track.boxes())} boxes"
                + ("" if same else "  DIFFERENT track files from the same input")
            )
            for note in sorted({str(n.message) for n in notes}):
                print(f"{'':10s} note: {note}")


if __name__ == "__main__":
    main()
