"""Calibration: boards built with default options against the real Formula D boards.

Run: python benchmarks/calibration.py [--no-par] [circuit.geojson ...]

Builds every circuit in ``circuits/`` (or the files given) with the builder's
default options and prints, per board, its size, corners, stop counts in
running order and par (one lap, basic rules, :func:`fdlab.par.solve_par`);
then the medians next to those of 47 hand-digitised real boards (size per
lane, corner count, stops, stop mix, corner lengths, par). A corner's
lengths are its longest and shortest paths from an entry to an exit along
its own steps (the green and red numbers, C-1), as
:func:`fdlab.track.corners.corner_path_counts` counts them: the real boards
were measured the same way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from fdlab.par import solve_par
from fdlab.track import Track
from fdlab.track.build import build_track
from fdlab.track.validate import validate

CIRCUITS = Path(__file__).resolve().parents[1] / "circuits"

#: Medians (and ranges) of the real boards, as measured with fdlab.
REAL = {
    "spaces per lane per lap": "154 (113-204)",
    "corners": "8 (4-12)",
    "stops per board": "11 (6-16)",
    "1 / 2 / 3-stop corners": "64% / 28% / 8%",
    "shortest path, 1 / 2 / 3 stops": "2 / 6 / 11",
    "longest path, 1 / 2 / 3 stops": "6 / 12 / 19",
    "par, one lap": "16.5 (11.6-22.8)",
}


def measure(track: Track, par: bool) -> dict:
    """The calibration figures of one board."""
    corners = [track.corners[c] for c in sorted(track.corners)]
    lanes = len({track.space(s)["lane"] for s in track.spaces(kind="track")})
    return {
        "name": track.name,
        "spaces": len(track.spaces(kind="track")),
        "per_lane": len(track.spaces(kind="track")) / lanes,
        "stops": [c["stops"] for c in corners],
        "short": [(c["stops"], c["short"]) for c in corners],
        "long": [(c["stops"], c["long"]) for c in corners],
        "problems": len(validate(track).problems),
        "par": solve_par(track, laps=1).par if par else float("nan"),
    }


def median_by_stops(pairs: list[tuple[int, int]]) -> str:
    """Median length per stop count, as ``1 / 2 / 3``."""
    values = []
    for stops in (1, 2, 3):
        lengths = [n for s, n in pairs if s == stops]
        values.append(f"{statistics.median(lengths):g}" if lengths else "-")
    return " / ".join(values)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("circuits", nargs="*", type=Path)
    parser.add_argument("--no-par", action="store_true", help="skip the par (faster)")
    args = parser.parse_args(argv)
    files = args.circuits or sorted(CIRCUITS.glob("*.geojson"))
    rows = []
    print(f"{'board':36} {'m':>5} {'spaces':>6} {'/lane':>5} {'par':>5} {'s':>4}  stops")
    for path in files:
        start = time.perf_counter()
        track = build_track(path)
        row = measure(track, par=not args.no_par)
        seconds = time.perf_counter() - start
        rows.append(row)
        length = track.lap_length * track.graph.graph["space_length"]
        flag = f"  {row['problems']} problems" if row["problems"] else ""
        print(
            f"{row['name'][:36]:36} {length:5.0f} {row['spaces']:6d} {row['per_lane']:5.0f}"
            f" {row['par']:5.1f} {seconds:4.1f}  {' '.join(map(str, row['stops']))}{flag}"
        )
    stops = [s for r in rows for s in r["stops"]]
    mix = Counter(stops)
    ours = {
        "spaces per lane per lap": f"{statistics.median(r['per_lane'] for r in rows):.0f}",
        "corners": f"{statistics.median(len(r['stops']) for r in rows):g}",
        "stops per board": f"{statistics.median(sum(r['stops']) for r in rows):g}",
        "1 / 2 / 3-stop corners": " / ".join(
            f"{100 * mix[s] / max(1, len(stops)):.0f}%" for s in (1, 2, 3)
        ),
        "shortest path, 1 / 2 / 3 stops": median_by_stops([p for r in rows for p in r["short"]]),
        "longest path, 1 / 2 / 3 stops": median_by_stops([p for r in rows for p in r["long"]]),
        "par, one lap": "-" if args.no_par else f"{statistics.median(r['par'] for r in rows):.1f}",
    }
    print()
    print(f"{'figure (median)':32} {'real boards':>18} {'fdlab default build':>20}")
    for figure, real in REAL.items():
        print(f"{figure:32} {real:>18} {ours[figure]:>20}")


if __name__ == "__main__":
    main()
