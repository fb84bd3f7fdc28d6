"""Python-side time of one editor edit and redraw on 500-space boards (goal < 100 ms).

Run with ``python benchmarks/editor_edit.py``. Two boards of about 500
spaces: a text board (2 lanes x 250 columns, 9 corners) and a board built
from a drawn stadium centreline (2 lanes, 250 spaces a lap, corners found by
the builder). Each edit toggles the hazard of one selected space through
the widget layer, which applies the operation, recomputes corner counts,
revalidates and refills the Bokeh data sources (sending only changed
cells); a second edit changes a corner's stop count with the *Stops*
dropdown (its flag and its spaces' hover text change). Then: undo and redo,
the exact dirty check (what a save would write, compared with the last
save) and, on the built board, a rebuild after dragging a centreline point
that makes 20 logged edits again on the new board. Printed: median and
worst of the repeats, then the parts.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator

from fdlab.editor import EditorController, TrackEditor
from fdlab.plot.data import annotation_data, board_data, step_data
from fdlab.track import Track, from_ascii
from fdlab.track.build import build_track

COLUMNS = 250
REPEATS = 30


def text_board(columns: int = COLUMNS) -> Track:
    """Two lanes of ``columns`` spaces with a 2-column corner every 25 columns."""
    row = [str(c // 25 + 1) if c % 25 in (12, 13) and c // 25 < 9 else "." for c in range(columns)]
    text = "\n".join([" ".join(row)] * 2)
    return from_ascii(text, corners={n: 1 + n % 3 for n in range(1, 10)}, closed=True)


def stadium(
    straight: float = 400.0, radius: float = 40.0, step: float = 5.0
) -> list[tuple[float, float]]:
    """A closed stadium-shaped centreline in metres, anticlockwise."""
    count = int(straight // step)
    bend = int(math.pi * radius // step)
    points = [(i * straight / count, 0.0) for i in range(count)]
    for i in range(bend):
        angle = -math.pi / 2 + math.pi * i / bend
        points.append((straight + radius * math.cos(angle), radius + radius * math.sin(angle)))
    points += [(straight - i * straight / count, 2 * radius) for i in range(count)]
    for i in range(bend):
        angle = math.pi / 2 + math.pi * i / bend
        points.append((radius * math.cos(angle), radius + radius * math.sin(angle)))
    return points


def built_board(straight: float = 400.0, radius: float = 40.0) -> Track:
    """The stadium built with 250 spaces a lap and its two bends as corners."""
    lap = 2 * straight + 2 * math.pi * radius
    bends = [
        (straight / lap, (straight + math.pi * radius) / lap),
        ((2 * straight + math.pi * radius) / lap, 1.0),
    ]
    return build_track(
        stadium(straight, radius),
        name="Benchmark stadium",
        lanes=2,
        spaces_per_lap=250,
        corners=bends,
        stops=[2, 1],
    )


def timed(action: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    print(f"{name:<44} median {statistics.median(times):7.1f} ms   worst {max(times):7.1f} ms")


def measure(track: Track) -> None:
    space = next(s for s in track.spaces(kind="track", corner=None))
    print(
        f"{track.name}: {len(track)} spaces, {track.graph.number_of_edges()} steps, "
        f"{len(track.corners)} corners"
    )
    plain = EditorController(track.copy())  # no widgets listening: the model side alone
    editor = TrackEditor(track.copy())
    hazards = iter(["danger", None] * REPEATS)

    def hazard() -> None:
        editor.select([space])  # a button uses the selection once
        editor.set_hazard(next(hazards))

    report("select + edit one space + redraw (TrackEditor)", timed(hazard))
    assert editor.last_error is None, editor.last_error
    corner = min(track.corners)
    editor.select(track.corner_spaces(corner)[:1])
    stops = iter([1 + (track.corners[corner]["stops"] + i) % 3 for i in range(REPEATS)])
    report("set a corner's stops + redraw (TrackEditor)", timed(lambda: _set(editor, stops)))
    assert editor.last_error is None, editor.last_error
    editor.select([space])
    hazards = iter(["danger", None] * REPEATS)
    report(
        "  edit + corner counts + validate", timed(lambda: plain.set_hazard([space], next(hazards)))
    )
    report("  board_data", timed(lambda: board_data(track)))
    report("  step_data", timed(lambda: step_data(track)))
    report("  annotation_data", timed(lambda: annotation_data(track)))
    report("  redraw with nothing changed", timed(editor.redraw))
    report("undo + redo (controller)", timed(lambda: (plain.undo(), plain.redo())))
    report("  exact dirty check after an edit", timed(lambda: _dirty_after_edit(plain, space)))
    if "build" in track.graph.graph:
        report("rebuild after a drag, 20 edits replayed", timed(lambda: _rebuild(track), 5))


def _dirty_after_edit(controller: EditorController, space: object) -> bool:
    controller._version += 1  # as after an edit: the cached answer is stale
    return controller.dirty


def _rebuild(track: Track) -> None:
    controller = EditorController(track.copy())
    rows = sorted(controller.track.spaces(kind="track", lane=1, corner=None))
    for space in rows[::10][:20]:
        controller.set_hazard([space], "danger")
    points = [tuple(p) for p in controller.track.graph.graph["build"]["centreline"]["points"]]
    x, y = points[len(points) // 2]
    points[len(points) // 2] = (x, y + 10.0)
    replayed = controller.rebuild(points, keep=True)
    assert replayed is not None and len(replayed.placed) == 20, replayed


def _set(editor: TrackEditor, stops: Iterator[int]) -> None:
    editor.stops.value = next(stops)  # the Stops dropdown, as a click in the browser sets it


def main() -> None:
    for board in (text_board(), built_board()):
        measure(board)
        print()


if __name__ == "__main__":
    main()
