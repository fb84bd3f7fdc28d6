"""Time the board pictures on 500-space boards.

Run: ``python benchmarks/plot_board.py``. Two boards: a text board of 4 lanes
x 125 columns (closed loop) and Monaco (``circuits/mc-1929.geojson``) built with ``build_track`` at about 500 spaces (curved
polygons with many vertices, a pit lane with boxes). Prints the median of
several runs of each drawing function; the editor redraws from
``board_data`` after every edit, so it should stay well under 100 ms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from fdlab.plot import annotation_data, board_data, board_figure, step_data, track_svg
from fdlab.track import Track, from_ascii

LANES = 4
COLUMNS = 125
MONACO = Path(__file__).resolve().parents[1] / "circuits" / "mc-1929.geojson"


def text_board() -> Track:
    """A closed loop of 4 lanes by 125 columns with seven corners and a grid."""
    corner_columns = {c: 1 + (c // 16) % 8 for c in range(8, COLUMNS) if c % 16 < 4}
    row = " ".join(str(corner_columns.get(c, ".")) for c in range(COLUMNS))
    corners = {corner: 1 + corner % 3 for corner in set(corner_columns.values())}
    grid = [c * LANES + lane for c in range(COLUMNS - 1, COLUMNS - 4, -1) for lane in range(LANES)]
    return from_ascii("\n".join([row] * LANES), corners=corners, closed=True, police=60, grid=grid)


def built_board() -> Track | None:
    """Monaco from its centreline at about 500 spaces, or None without the circuits."""
    if not MONACO.exists():
        return None
    from fdlab.track.build import build_track

    return build_track(MONACO, spaces_per_lap=165, pit=True)


def median_ms(function: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def report(name: str, track: Track) -> None:
    print(
        f"{name}: {len(track)} spaces, {track.graph.number_of_edges()} steps, "
        f"{len(track.corners)} corners"
    )
    spaces = list(track)
    highlight = spaces[:20]
    cars = {space: f"C{i}" for i, space in enumerate(spaces[::50][:10])}
    rows = [
        ("board_data", lambda: board_data(track), 30),
        (
            "board_data (highlight, 10 cars)",
            lambda: board_data(track, highlight=highlight, cars=cars),
            30,
        ),
        ("step_data", lambda: step_data(track), 30),
        ("annotation_data", lambda: annotation_data(track), 10),
        ("track_svg", lambda: track_svg(track), 10),
        ("track_svg (steps, 10 cars)", lambda: track_svg(track, show_steps=True, cars=cars), 10),
        ("board_figure", lambda: board_figure(track), 5),
    ]
    for label, function, repeats in rows:
        print(f"  {label:34s} {median_ms(function, repeats):8.1f} ms  (median of {repeats})")


def main() -> None:
    report("text board", text_board())
    monaco = built_board()
    if monaco is None:
        print(f"built board: skipped, {MONACO.name} not found beside the repository")
    else:
        report("Monaco (build_track)", monaco)


if __name__ == "__main__":
    main()
