"""Calibration: boards built with default options against the real Formula D boards.

Run: python benchmarks/calibration.py [--no-par] [--against DIR] [circuit.geojson ...]

Builds every circuit in ``circuits/`` (or the files given) with the builder's
default options and prints, per board, its size, corners, stop counts in
running order and par (one lap, basic rules, :func:`fdlab.par.solve_par`);
then the medians next to those of 47 hand-digitised real boards (size per
lane, corner count, stops, stop mix, corner lengths, par). A corner's
lengths are its longest and shortest paths from an entry to an exit along
its own steps (the green and red numbers, C-1), as
:func:`fdlab.track.corners.corner_path_counts` counts them: the real boards
were measured the same way.

With ``--against DIR`` (a local folder of GP Online ``.dat`` boards, searched
with its subfolders; none ships with fdlab), each circuit that has a board of
the same circuit there (:data:`GP_BOARDS`) is compared with that board,
imported with :func:`fdlab.track.import_track`: per board its corners, stops,
spaces per lane and par for both, and the par error (built / real - 1); then
the medians against issue 25's targets (par error at most 7% on the median and
20% on the worst board, stops and corners within one, spaces per lane 0.9-1.1
of the real board's).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from fdlab.par import solve_par
from fdlab.track import Track, import_track
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

#: GP Online board file names (without ``.dat``) of the circuits in ``circuits/``, by
#: circuit id; where several boards draw a circuit, the first one found is used.
GP_BOARDS = {
    "ae-2009": ("yasmarina",),
    "at-1969": ("austria",),
    "au-1953": ("melbourne",),
    "az-2016": ("baku",),
    "be-1925": ("spa",),
    "bh-2002": ("bahrain",),
    "br-1940": ("brasil",),
    "br-1977": ("jacarepagua",),
    "ca-1978": ("montreal",),
    "cn-2004": ("shanghai",),
    "de-1927": ("nurburgring",),
    "de-1932": ("hockenheim", "hockenheimD"),
    "es-1991": ("barcelona",),
    "fr-1960": ("france",),
    "fr-1969": ("paulricard",),
    "gb-1948": ("silverstone",),
    "hu-1986": ("budapest",),
    "it-1914": ("mugello",),
    "it-1922": ("monza",),
    "it-1953": ("sanmarino",),
    "jp-1962": ("suzuka",),
    "mc-1929": ("monaco",),
    "mx-1962": ("mexico",),
    "my-1999": ("sepang",),
    "nl-1948": ("zanvoordt", "zandvoort"),
    "pt-1972": ("portugal",),
    "pt-2008": ("algarve",),
    "ru-2014": ("sochi",),
    "sg-2008": ("singapore", "singaporeD"),
    "tr-2005": ("istanbul",),
    "us-1909": ("indianapolis",),
    "us-2012": ("austin",),
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


def gp_boards(folder: Path) -> dict[str, Path]:
    """The GP Online boards of a folder and its subfolders, by file name (lower case)."""
    boards: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.dat")):
        boards.setdefault(path.stem.lower(), path)
    return boards


def median_text(values: list[float], digits: str = "+.0%") -> str:
    """The median of some figures (NaN left out) as ``digits`` formats it, ``-`` if none."""
    values = [v for v in values if v == v]
    return format(statistics.median(values), digits) if values else "-"


def compare(files: list[Path], folder: Path, par: bool) -> None:
    """Each built board beside the GP Online board of its circuit, then the medians."""
    found = gp_boards(folder)
    print(
        f"{'board':22} {'GP board':14} {'corners':>7} {'stops':>7} {'/lane':>9}"
        f" {'par built/real':>14} {'error':>6} {'s':>5}"
    )
    rows = []
    for path in files:
        names = [n.lower() for n in GP_BOARDS.get(path.stem, ())]
        board = next((found[n] for n in names if n in found), None)
        if board is None:
            continue
        start = time.perf_counter()
        built = measure(build_track(path), par=par)
        real = measure(import_track(board), par=par)
        seconds = time.perf_counter() - start
        error = built["par"] / real["par"] - 1
        rows.append((built, real, error))
        print(
            f"{built['name'][:22]:22} {board.stem[:14]:14}"
            f" {len(built['stops']):>3}/{len(real['stops']):<3}"
            f" {sum(built['stops']):>3}/{sum(real['stops']):<3}"
            f" {built['per_lane']:4.0f}/{real['per_lane']:<4.0f}"
            f" {built['par']:6.1f}/{real['par']:<6.1f} {error:+6.0%} {seconds:5.1f}"
        )
    if not rows:
        print(f"no board of these circuits in {folder}")
        return
    errors = [e for _, _, e in rows]
    stops = [sum(b["stops"]) - sum(r["stops"]) for b, r, _ in rows]
    corners = [len(b["stops"]) - len(r["stops"]) for b, r, _ in rows]
    ratios = [b["per_lane"] / r["per_lane"] for b, r, _ in rows]
    worst = max((abs(e) for e in errors if e == e), default=float("nan"))
    n = len(rows)
    print()
    title = f"figure ({n} boards)"
    print(f"{title:32} {'target':>16} {'fdlab default build':>30}")
    figures = [
        (
            "par error, median",
            "<= 7%",
            f"{median_text(errors)}, |error| {median_text([abs(e) for e in errors], '.0%')}",
        ),
        (
            "par error, worst board",
            "<= 20%",
            "-"
            if worst != worst
            else f"{worst:.0%}, {sum(abs(e) <= 0.2 for e in errors)}/{n} within 20%",
        ),
        (
            "stops per board, difference",
            "within +-1",
            f"{median_text(stops, '+g')}, {sum(abs(d) <= 1 for d in stops)}/{n} within 1",
        ),
        (
            "corners, difference",
            "within +-1",
            f"{median_text(corners, '+g')}, {sum(abs(d) <= 1 for d in corners)}/{n} within 1",
        ),
        (
            "spaces per lane, built / real",
            "0.9-1.1",
            f"{median_text(ratios, '.2f')}, {sum(0.9 <= r <= 1.1 for r in ratios)}/{n} in range",
        ),
    ]
    for figure, target, ours in figures:
        print(f"{figure:32} {target:>16} {ours:>30}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("circuits", nargs="*", type=Path)
    parser.add_argument("--no-par", action="store_true", help="skip the par (faster)")
    parser.add_argument(
        "--against",
        metavar="DIR",
        type=Path,
        help="compare with the GP Online boards (.dat) of the same circuits in DIR",
    )
    args = parser.parse_args(argv)
    files = args.circuits or sorted(CIRCUITS.glob("*.geojson"))
    if args.against is not None:
        if not args.against.is_dir():
            parser.error(f"--against: {args.against} is not a folder")
        compare(files, args.against, par=not args.no_par)
        return
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
