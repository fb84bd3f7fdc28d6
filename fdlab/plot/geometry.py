"""Plane geometry of a board picture: space outlines, crossing lines, headings.

Everything here works in the track's own units (``x``, ``y`` of the schema,
y pointing up) and returns plain floats and lists, so both renderers and the
editor can use it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import shapely

from fdlab.track.model import SpaceId, Track

Point = tuple[float, float]
Segment = tuple[Point, Point]


def outline(space: dict[str, Any], size: float) -> tuple[list[float], list[float]]:
    """The outline of a space as open ``(xs, ys)`` lists (last point not repeated).

    Spaces without a ``polygon`` are drawn as a square of side ``0.9 * size``
    around their centre.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> outline({"polygon": box(0, 0, 2, 1), "x": 1.0, "y": 0.5}, 1.0)
    ([2.0, 2.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0])
    >>> outline({"polygon": None, "x": 0.0, "y": 0.0}, 2.0)
    ([-0.9, 0.9, 0.9, -0.9], [-0.9, -0.9, 0.9, 0.9])
    """
    polygon = space.get("polygon")
    if polygon is None or polygon.is_empty:
        half = 0.45 * size
        x, y = float(space["x"]), float(space["y"])
        return [x - half, x + half, x + half, x - half], [y - half, y - half, y + half, y + half]
    coords = shapely.get_coordinates(polygon.exterior)[:-1]
    return coords[:, 0].tolist(), coords[:, 1].tolist()


def outlines(
    spaces: Sequence[dict[str, Any]], size: float
) -> list[tuple[list[float], list[float]]]:
    """:func:`outline` of many spaces at once (one vectorised pass over the polygons).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> outlines([{"polygon": box(0, 0, 1, 1)}, {"polygon": None, "x": 5.0, "y": 5.0}], 1.0)
    [([1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0]), ([4.55, 5.45, 5.45, 4.55], [4.55, 4.55, 5.45, 5.45])]
    """
    drawn = [
        i
        for i, space in enumerate(spaces)
        if space.get("polygon") is not None and not space["polygon"].is_empty
    ]
    result: list[tuple[list[float], list[float]] | None] = [None] * len(spaces)
    if drawn:
        rings = shapely.get_exterior_ring(np.array([spaces[i]["polygon"] for i in drawn]))
        coords, index = shapely.get_coordinates(rings, return_index=True)
        starts = np.flatnonzero(np.diff(index)) + 1
        for i, ring in zip(drawn, np.split(coords, starts), strict=True):
            result[i] = (ring[:-1, 0].tolist(), ring[:-1, 1].tolist())
    return [
        found if found is not None else outline(space, size)
        for found, space in zip(result, spaces, strict=True)
    ]


def space_size(track: Track) -> float:
    """A typical side length of a space, for sizing marks and labels.

    The median of ``sqrt(area)`` over the spaces that have a polygon, else the
    track's ``space_length``.

    Examples
    --------
    >>> space_size(from_ascii(". . ."))
    1.0
    """
    sides = sorted(
        math.sqrt(d["polygon"].area)
        for _, d in track.graph.nodes(data=True)
        if d["polygon"] is not None and not d["polygon"].is_empty
    )
    if sides:
        return sides[len(sides) // 2]
    return float(track.graph.graph.get("space_length") or 1.0)


def facing_edge(xs: Sequence[float], ys: Sequence[float], toward: Point) -> Segment:
    """The side of a polygon whose midpoint is nearest to the point ``toward``.

    Used to draw a line across the track where a step enters a space: the
    side of the space facing the space it came from.

    Examples
    --------
    >>> facing_edge([0, 1, 1, 0], [0, 0, 1, 1], (-0.5, 0.5))
    ((0.0, 1.0), (0.0, 0.0))
    """
    best: Segment | None = None
    best_dist = math.inf
    n = len(xs)
    for i in range(n):
        a = (float(xs[i]), float(ys[i]))
        b = (float(xs[(i + 1) % n]), float(ys[(i + 1) % n]))
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dist = (mx - toward[0]) ** 2 + (my - toward[1]) ** 2
        if dist < best_dist:
            best, best_dist = (a, b), dist
    assert best is not None, "a polygon has at least one side"
    return best


def heading(track: Track, space: SpaceId) -> float:
    """Direction of travel on a space, in radians counter-clockwise from +x.

    Taken towards the next space in the same lane (an ``ahead`` step), else
    towards the mean of all next spaces, else from the previous space; 0 for
    an isolated space.

    Examples
    --------
    >>> round(heading(from_ascii(". . ."), 0), 3)
    0.0
    """
    graph = track.graph
    here = graph.nodes[space]
    targets = _neighbour_points(track, graph.adj[space].items())
    if targets:
        tx = sum(p[0] for p in targets) / len(targets)
        ty = sum(p[1] for p in targets) / len(targets)
        dx, dy = tx - here["x"], ty - here["y"]
    else:
        sources = _neighbour_points(track, ((p, graph.adj[p][space]) for p in graph.pred[space]))
        if not sources:
            return 0.0
        sx = sum(p[0] for p in sources) / len(sources)
        sy = sum(p[1] for p in sources) / len(sources)
        dx, dy = here["x"] - sx, here["y"] - sy
    if dx == 0 and dy == 0:
        return 0.0
    return math.atan2(dy, dx)


def _neighbour_points(track: Track, steps: Iterable[tuple[SpaceId, dict[str, Any]]]) -> list[Point]:
    steps = [(n, d) for n, d in steps if d.get("kind") != "tunnel"]
    ahead = [n for n, d in steps if d.get("kind") == "ahead"]
    chosen = ahead or [n for n, _ in steps]
    nodes = track.graph.nodes
    return [(nodes[n]["x"], nodes[n]["y"]) for n in chosen]


def line_across(track: Track, into: SpaceId, came_from: SpaceId, size: float) -> Segment:
    """The line across the track between two spaces, drawn on ``into``'s side.

    It is the side of ``into`` facing ``came_from`` (the finish line on the
    space just after the finish, a corner's red line on its entry space).
    When ``came_from`` is far away (a step that wraps around a text board),
    the side facing away from ``into``'s near neighbour on the other side is
    used instead.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> line_across(track, 1, 0, 1.0)
    ((1.0, 0.0), (1.0, -1.0))
    >>> ring = from_ascii(". . . .", closed=True)
    >>> line_across(ring, 0, 3, 1.0)  # the finish: the left side of space 0
    ((0.0, 0.0), (0.0, -1.0))
    """
    nodes = track.graph.nodes
    here = nodes[into]
    xs, ys = outline(here, size)
    toward = (nodes[came_from]["x"], nodes[came_from]["y"])
    if math.dist(toward, (here["x"], here["y"])) > 2.5 * size:
        graph = track.graph
        forward = came_from in graph.pred[into]
        others = graph.adj[into] if forward else graph.pred[into]
        near = [
            (graph.adj[into][o] if forward else graph.adj[o][into]).get("kind") != "ahead"
            for o in others
        ]
        candidates = sorted(
            (
                (
                    not_ahead,
                    math.dist((nodes[o]["x"], nodes[o]["y"]), (here["x"], here["y"])),
                    str(o),
                    o,
                )
                for not_ahead, o in zip(near, others, strict=True)
            ),
            key=lambda item: item[:3],
        )
        for _, distance, _, other in candidates:
            if distance <= 2.5 * size:
                toward = (2 * here["x"] - nodes[other]["x"], 2 * here["y"] - nodes[other]["y"])
                break
    return facing_edge(xs, ys, toward)
