"""Contacts and outlines of an imported board, from its spaces, lanes and progress.

Other programs store neither which spaces touch nor the shape of a space;
:func:`add_contacts` and :func:`add_outlines` derive them once
:func:`~fdlab.track.formats.assemble.assemble` has found lanes and progress.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Mapping

from shapely import STRtree
from shapely.geometry import Polygon

from fdlab.track.model import SpaceId, Track

__all__ = ["add_contacts", "add_outlines"]

#: Two spaces of neighbouring lanes are beside each other when their stretches of
#: progress overlap by more than this share of the shorter one.
BESIDE_OVERLAP = 0.3
#: Outlines are this share of the room between neighbouring centres.
OUTLINE_SHARE = 0.9
#: Outlines whose centres are closer than this share of a space length are one space
#: drawn on top of another, not neighbours: they are left whole (and overlap).
CLIP_DISTANCE = 0.25
#: Stretches of progress longer than this many spaces are compared with every space of
#: the neighbouring lane when looking for spaces beside each other (the rest by position).
_LONG_STRETCH = 4.0


def add_contacts(track: Track) -> None:
    """Record which spaces touch: the next space in a lane, and spaces side by side.

    A space is ``behind`` the next one down its lane (an ``ahead`` step
    between two spaces of the same kind). Two track spaces of neighbouring
    lanes are ``beside`` each other when their stretches of progress (from
    a space's own progress to that of the next space in its lane) overlap by
    more than :data:`BESIDE_OVERLAP` of the shorter one.

    Examples
    --------
    >>> from fdlab.track.model import add_space, add_step, new_graph
    >>> g = new_graph("staggered", lap_length=3.0)
    >>> for n in range(6):  # lane 1 lies half a space ahead of lane 0
    ...     add_space(g, n, lane=n // 3, progress=n % 3 + 0.5 * (n // 3))
    >>> for n in range(6):
    ...     add_step(g, n, 3 * (n // 3) + (n + 1) % 3)
    >>> track = Track(g)
    >>> add_contacts(track)
    >>> sorted(track.touching(0))  # behind 1, beside both staggered spaces of lane 1 by it
    [1, 3, 5]
    """
    graph, lap = track.graph, track.lap_length
    stretch: dict[SpaceId, tuple[float, float]] = {}
    for n, d in graph.nodes(data=True):
        if d["kind"] == "box":
            continue
        p = d["progress"]
        ahead = [
            graph.nodes[m]["progress"]
            for m, e in graph.adj[n].items()
            if e["kind"] == "ahead" and graph.nodes[m]["kind"] == d["kind"]
        ]
        end = min((q + lap if q <= p else q for q in ahead), default=p + 1.0)
        stretch[n] = (p, end)
    for u, v, e in graph.edges(data=True):
        if e["kind"] == "ahead" and graph.nodes[u]["kind"] == graph.nodes[v]["kind"]:
            track.add_contact(u, v, "behind", rear=u)
    by_lane: dict[int, list[SpaceId]] = {}
    for n in stretch:
        if graph.nodes[n]["kind"] == "track":
            by_lane.setdefault(graph.nodes[n]["lane"], []).append(n)
    for lane, row in by_lane.items():
        for a, b in _beside_pairs(row, by_lane.get(lane + 1, []), stretch, lap):
            track.add_contact(a, b, "beside")


def add_outlines(
    track: Track, headings: Mapping[SpaceId, tuple[float, float]], space_length: float
) -> None:
    """Give every space a rectangle around its centre, along its direction of travel.

    The rectangle is :data:`OUTLINE_SHARE` of the board's spacing: as wide
    as the typical room between lanes, as long as the room to the next space
    in the lane. Where the board's spaces lie closer than that (the inside
    of a tight bend, a pit lane beside the track, boxes side by side), two
    overlapping rectangles are both cut back along the line halfway between
    their centres, so that no two spaces of the board share any room.

    Parameters
    ----------
    track : Track
        With contacts already added (their spacing sets the width).
    headings : mapping
        Space -> unit vector of the direction of travel there.
    space_length : float
        The board's typical step along a lane; no outline is longer.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> add_outlines(track, {n: (1.0, 0.0) for n in track}, 1.0)
    >>> track.graph.nodes[1]["polygon"].bounds
    (1.05, -0.95, 1.95, -0.05)

    Three spaces side by side, 1 apart on a board whose lanes would be 1.8
    wide, are cut back halfway to each other (at x = 1 and x = 2):

    >>> track = from_ascii(". . .")
    >>> add_outlines(track, {n: (0.0, 1.0) for n in track}, 2.0)
    >>> track.graph.nodes[1]["polygon"].bounds
    (1.0, -0.95, 2.0, -0.05)
    """
    graph = track.graph
    nodes = graph.nodes

    def distance(a: SpaceId, b: SpaceId) -> float:
        return math.dist((nodes[a]["x"], nodes[a]["y"]), (nodes[b]["x"], nodes[b]["y"]))

    beside = [
        distance(a, b) for a, b, d in track.contacts.edges(data=True) if d["kind"] == "beside"
    ]
    width = min(
        OUTLINE_SHARE * (statistics.median(beside) if beside else space_length), space_length
    )
    for n, d in graph.nodes(data=True):
        hx, hy = headings[n]
        lane_steps = [
            distance(n, m)
            for view in (graph.adj[n], graph.pred[n])
            for m, e in view.items()
            if e["kind"] == "ahead"
        ]
        room = min(lane_steps) if lane_steps else space_length
        length = OUTLINE_SHARE * min(max(room, 0.5 * space_length), space_length)
        d["polygon"] = _rectangle(d["x"], d["y"], hx, hy, length, width)
    _clip_to_neighbours(track, CLIP_DISTANCE * space_length)


def _clip_to_neighbours(track: Track, nearest: float) -> None:
    """Cut each outline back to the side of the line halfway to every space it overlaps.

    The board's own spaces never overlap, but one size cannot fit them all:
    the inside of a tight bend or a pit lane squeezed beside the track has
    its centres closer than the board's typical spacing. Each pair of
    overlapping outlines is cut along the perpendicular bisector of their
    centres, so that every space keeps the room nearer to it than to its
    neighbour (a Voronoi cell) and no two spaces share any. Centres closer
    than ``nearest`` are not two spaces side by side but one drawn on top of
    another (a crossing, or a slip in the file): they are left whole, for
    the validator to report.
    """
    nodes = track.graph.nodes
    ids = list(track.graph)
    polygons = [nodes[n]["polygon"] for n in ids]
    if len(ids) < 2:
        return
    tree = STRtree(polygons)
    left, right = tree.query(polygons, predicate="intersects")
    cuts: dict[int, list[tuple[float, float, float, float]]] = {}
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        a, b = nodes[ids[i]], nodes[ids[j]]
        if i >= j or a.get("level", 0) != b.get("level", 0):
            continue
        if math.dist((a["x"], a["y"]), (b["x"], b["y"])) < nearest:
            continue
        mx, my = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
        cuts.setdefault(i, []).append((mx, my, b["x"] - a["x"], b["y"] - a["y"]))
        cuts.setdefault(j, []).append((mx, my, a["x"] - b["x"], a["y"] - b["y"]))
    for i, lines in cuts.items():
        corners = list(polygons[i].exterior.coords)[:-1]
        for line in lines:
            corners = _half_plane(corners, *line)
        nodes[ids[i]]["polygon"] = Polygon([(round(x, 4), round(y, 4)) for x, y in corners])


def _half_plane(
    corners: list[tuple[float, float]], mx: float, my: float, nx: float, ny: float
) -> list[tuple[float, float]]:
    """The part of a convex polygon on the near side of the line through ``(mx, my)``
    across ``(nx, ny)``: the points ``p`` with ``(p - m) . n <= 0``.

    Examples
    --------
    >>> _half_plane([(0, 0), (2, 0), (2, 1), (0, 1)], 1.0, 0.0, 1.0, 0.0)
    [(0, 0), (1.0, 0.0), (1.0, 1.0), (0, 1)]
    """
    kept: list[tuple[float, float]] = []
    for k, p in enumerate(corners):
        q = corners[(k + 1) % len(corners)]
        sp = (p[0] - mx) * nx + (p[1] - my) * ny
        sq = (q[0] - mx) * nx + (q[1] - my) * ny
        if sp <= 0:
            kept.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            kept.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return kept


def _beside_pairs(
    row: list[SpaceId],
    other: list[SpaceId],
    stretch: Mapping[SpaceId, tuple[float, float]],
    lap: float,
) -> list[tuple[SpaceId, SpaceId]]:
    """The pairs of ``row`` and ``other`` (a neighbouring lane) beside each other, in the
    order of ``row`` then ``other``.

    Only the spaces of ``other`` whose stretch can reach ``a``'s (found by bisection
    among their sorted starts, the lap's shifts included) are compared, so that a
    lane of ``n`` spaces takes about ``n log n`` steps, not ``n**2``; the few
    stretches longer than :data:`_LONG_STRETCH` are compared with every space.

    Examples
    --------
    >>> stretch = {"a": (0.0, 1.0), "b": (1.0, 2.0), "x": (0.5, 1.5), "y": (9.5, 10.5)}
    >>> _beside_pairs(["a", "b"], ["x", "y"], stretch, 10.0)
    [('a', 'x'), ('a', 'y'), ('b', 'x')]
    """
    spans = [stretch[b] for b in other]
    long = [k for k, (p, e) in enumerate(spans) if e - p > _LONG_STRETCH]
    short = sorted(
        (k for k, (p, e) in enumerate(spans) if e - p <= _LONG_STRETCH), key=lambda k: spans[k][0]
    )
    starts = [spans[k][0] for k in short]
    reach = max((spans[k][1] - spans[k][0] for k in short), default=0.0)
    margin = 1e-9 * max(1.0, abs(lap))
    pairs: list[tuple[SpaceId, SpaceId]] = []
    for a in row:
        p, e = stretch[a]
        near = set(long)
        for shift in {-lap, 0.0, lap}:
            # b overlaps a shifted: b.start < a.end - shift and b.end > a.start - shift
            low = bisect.bisect_left(starts, p - shift - reach - margin)
            high = bisect.bisect_right(starts, e - shift + margin)
            near.update(short[low:high])
        pairs.extend((a, other[k]) for k in sorted(near) if _overlapping(stretch[a], spans[k], lap))
    return pairs


def _overlapping(a: tuple[float, float], b: tuple[float, float], lap: float) -> bool:
    shorter = min(a[1] - a[0], b[1] - b[0])
    for shift in (-lap, 0.0, lap):
        overlap = min(a[1], b[1] + shift) - max(a[0], b[0] + shift)
        if overlap > BESIDE_OVERLAP * shorter:
            return True
    return False


def _rectangle(x: float, y: float, hx: float, hy: float, length: float, width: float) -> Polygon:
    ax, ay = hx * length / 2, hy * length / 2
    bx, by = -hy * width / 2, hx * width / 2
    corners = [
        (x - ax - bx, y - ay - by),
        (x + ax - bx, y + ay - by),
        (x + ax + bx, y + ay + by),
        (x - ax + bx, y - ay + by),
    ]
    return Polygon([(round(px, 4), round(py, 4)) for px, py in corners])
