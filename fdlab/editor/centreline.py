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
    >>> from fdlab.track import from_ascii
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
