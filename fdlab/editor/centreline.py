"""The centreline the editor shows (and rebuilds from) for an existing board."""

from __future__ import annotations

from collections import defaultdict

from fdlab.track.model import Track


def track_centreline(track: Track) -> list[tuple[float, float]]:
    """An approximate centreline of a board: the middle of each row of spaces.

    Track spaces (not pit or box) are grouped by whole ``progress``; each
    group's mean centre is one point, in lap order. A board without track
    spaces has no centreline (empty list).

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . .
    ...     . . .
    ... ''', closed=True)
    >>> track_centreline(track)
    [(0.5, -1.0), (1.5, -1.0), (2.5, -1.0)]
    """
    rows: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for _, data in track.graph.nodes(data=True):
        if data["kind"] == "track":
            rows[int(round(data["progress"]))].append((data["x"], data["y"]))
    points = []
    for key in sorted(rows):
        xs, ys = zip(*rows[key], strict=True)
        points.append((sum(xs) / len(xs), sum(ys) / len(ys)))
    return points


def board_centreline(track: Track) -> list[tuple[float, float]]:
    """The centreline to show and rebuild from: the one the board was built from, if stored.

    A board made by the builder keeps its build spec (graph attribute
    ``build``) with the exact centreline; other boards get
    :func:`track_centreline`.

    Examples
    --------
    >>> from fdlab.track.build import build_track
    >>> board = build_track([(0, 0), (300, 0), (300, 200), (0, 200)], lanes=2)
    >>> board_centreline(board)
    [(0.0, 0.0), (300.0, 0.0), (300.0, 200.0), (0.0, 200.0)]
    """
    spec = track.graph.graph.get("build")
    if spec is None:
        return track_centreline(track)
    return [(float(x), float(y)) for x, y in spec["centreline"]["points"]]
