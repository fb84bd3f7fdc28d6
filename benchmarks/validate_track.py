"""How long the validator takes on a 500-space board (the editor revalidates after each edit).

Run with ``python benchmarks/validate_track.py``; it prints the board size
and the median, best and worst time of ``validate`` over repeated runs, for a
board built from a real circuit (``circuits/be-1925.geojson``), a sound text
board and the same board broken in many ways at once (the broken one
exercises the reporting paths), and the sound board with one space outlined
by a million points. Also times loading and saving the board's
file. Nothing is asserted: these are figures to read.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from fdlab.track import Track, from_ascii, load_track, save_track, validate

COLUMNS = 160
LANES = 3


def ring_board(columns: int = COLUMNS) -> Track:
    """A 3-lane ring with six corners, a pit lane with ten boxes and a 10-car grid."""
    corner_columns = {
        c: 1 + (c // (columns // 6)) for c in range(columns) if c % (columns // 6) in (7, 8, 9)
    }
    lane = " ".join(str(corner_columns.get(c, ".")) for c in range(columns))
    rows = [lane] * LANES
    pit_from = columns - 22
    rows.append(" ".join("p" if c >= pit_from else "x" for c in range(columns)))
    rows.append(" ".join("B" if c > pit_from and c % 2 == 0 else "x" for c in range(columns)))
    nrows = len(rows)
    grid = [c * nrows + lane for c in range(columns - 1, columns - 5, -1) for lane in range(LANES)]
    return from_ascii(
        "\n".join(rows),
        corners={k: 1 + k % 3 for k in range(1, 7)},
        closed=True,
        grid=grid[:10],
        ring=True,
        name="Benchmark ring",
    )


def broken(track: Track) -> Track:
    """The same board with dead ends, a bad corner and overlapping spaces."""
    track = track.copy()
    spaces = list(track.graph)
    for space in spaces[40:60:5]:
        track.graph.remove_edges_from(list(track.graph.out_edges(space)))
    track.corners[1]["stops"] = 5
    for a, b in zip(spaces[100:110], spaces[200:210], strict=True):
        track.space(b)["polygon"] = track.space(a)["polygon"]
    return track


def scribbled_outline(track: Track) -> Track:
    """The board with one space outlined by a million random points (self-intersecting).

    Checking such an outline took minutes; the validator now reports it as too
    detailed (MAX_OUTLINE_POINTS) instead, so this should time like the sound board.
    """
    import numpy as np
    from shapely.geometry import Polygon

    track = track.copy()
    space = next(iter(track.graph))
    points = np.random.default_rng(1).random((1_000_000, 2)) * 4
    track.space(space)["polygon"] = Polygon(points)
    return track


def timings(function, repeat: int = 50) -> list[float]:
    function()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return times


def show(label: str, times: list[float]) -> None:
    print(
        f"{label:<34} median {statistics.median(times):7.2f} ms"
        f"   best {min(times):7.2f} ms   worst {max(times):7.2f} ms"
    )


def built_board() -> Track | None:
    """Spa-Francorchamps built at about 500 spaces, if the builder and the circuits are there."""
    circuit = Path(__file__).resolve().parents[1] / "circuits" / "be-1925.geojson"
    try:
        from fdlab.track.build import build_track
    except ImportError:
        return None
    if not circuit.exists():
        return None
    return build_track(circuit, pit=True, spaces_per_lap=170)


def main() -> None:
    real = built_board()
    if real is not None:
        print(
            f"built board {real.name!r}: {len(real)} spaces, {real.graph.number_of_edges()} steps, "
            f"{len(validate(real))} problems"
        )
        show("validate (built board)", timings(lambda: validate(real)))
    track = ring_board()
    bad = broken(track)
    print(
        f"board: {len(track)} spaces, {track.graph.number_of_edges()} steps, "
        f"{len(track.corners)} corners; {len(validate(bad))} problems on the broken copy"
    )
    assert validate(track).ok, validate(track)
    show("validate (sound board)", timings(lambda: validate(track)))
    show("validate (broken board)", timings(lambda: validate(bad)))
    scribbled = scribbled_outline(track)
    show("validate (10^6-point outline)", timings(lambda: validate(scribbled), repeat=5))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ring.json"
        show("save_track", timings(lambda: save_track(track, path), repeat=20))
        print(f"{'file size':<34} {path.stat().st_size / 1024:7.1f} KiB")
        show("load_track", timings(lambda: load_track(path), repeat=20))


if __name__ == "__main__":
    main()
