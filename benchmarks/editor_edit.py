"""Python-side time of one editor edit and redraw on a 500-space board (goal < 100 ms).

Run with ``python benchmarks/editor_edit.py``. The board is a closed text
board of 2 lanes x 250 columns with 10 corners; each edit toggles the hazard
of one space through the widgets (a browser-encoded selection, then a button
click), which applies the operation, recomputes corner counts, revalidates
and refills every Bokeh data source. The figure printed is the median and
the worst of the repeats, and the same split into its parts.
"""

from __future__ import annotations

import statistics
import time

from fdlab.editor import EditorController, TrackEditor
from fdlab.plot.data import annotation_data, board_data, step_data
from fdlab.track import from_ascii

COLUMNS = 250
REPEATS = 30


def board_text(columns: int = COLUMNS) -> str:
    """Two lanes of ``columns`` spaces with a 2-column corner every 25 columns."""
    row = []
    for c in range(columns):
        corner = c // 25 + 1
        row.append(str(corner % 10 or 1) if c % 25 in (12, 13) and corner <= 9 else ".")
    return "\n".join([" ".join(row)] * 2)


def timed(action, repeats: int = REPEATS) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    print(f"{name:<40} median {statistics.median(times):7.1f} ms   worst {max(times):7.1f} ms")


def main() -> None:
    track = from_ascii(board_text(), corners={n: 1 + n % 3 for n in range(1, 10)}, closed=True)
    editor = TrackEditor(track)
    print(
        f"board: {len(track)} spaces, {track.graph.number_of_edges()} steps, {len(track.corners)} corners"
    )
    editor.select([101])
    hazards = iter(["danger", None] * REPEATS)
    report("edit one space + redraw (TrackEditor)", timed(lambda: editor.set_hazard(next(hazards))))
    plain = EditorController(track.copy())  # no widgets listening: the model side alone
    hazards = iter(["danger", None] * REPEATS)
    report(
        "  edit + corner counts + validate", timed(lambda: plain.set_hazard([101], next(hazards)))
    )
    report("  board_data", timed(lambda: board_data(track)))
    report("  step_data", timed(lambda: step_data(track)))
    report("  annotation_data", timed(lambda: annotation_data(track)))
    report("  redraw (refill the Bokeh sources)", timed(editor.redraw))


if __name__ == "__main__":
    main()
