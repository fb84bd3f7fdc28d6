"""The corners of the lap being built: given or found, clipped, fitted to the lanes.

Corners come from the spec (lap fractions) or from curvature
(:func:`~fdlab.track.build.corner_finder.find_corners`), are kept clear of
the finish line, get their stop counts, and are widened until every lane
holds enough spaces (:mod:`fdlab.track.build.corner_fit`);
:func:`_short_corners` names those whose shortest path is still too short.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from fdlab.track.build.cells import _Cell
from fdlab.track.build.corner_finder import find_corners, suggest_stops
from fdlab.track.build.corner_fit import (
    REFERENCE_SPACES_PER_LAP,
    CornerExtent,
    corner_lane_counts,
    fit_corners,
)
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.spec import BuildSpec
from fdlab.track.corners import path_counts
from fdlab.track.errors import BuildError
from fdlab.track.model import StepKind


def _corner_stretches(
    spec: BuildSpec, path: LapPath, space_length: float
) -> list[tuple[float, float, int, str | None]]:
    """Corners as ``(start, end, stops, name)`` in metres, clear of the finish line."""
    lap = path.length
    margin = space_length
    found: list[tuple[float, float, int | None, str | None]] = []
    if spec.corners is not None:
        for c in spec.corners:
            start, end = c.start * lap, c.end * lap
            end = end if end > start else end + lap
            found.append((start, end, c.stops, c.name))
    else:
        found = [(c.start, c.end, c.stops, None) for c in find_corners(path, space_length)]
    clipped = []
    for start, end, stops, name in found:
        if end > lap:  # wraps past the finish line: keep the larger side
            if end - lap > lap - start:
                start, end = 0.0, end - lap
            else:
                end = lap
        start, end = max(start, margin), min(end, lap - margin)
        if end - start < 0.5 * space_length:
            continue
        clipped.append((start, end, stops, name))
    clipped.sort()
    if spec.stops is not None and len(spec.stops) != len(clipped):
        raise BuildError(
            f"stops lists {len(spec.stops)} stop counts but the lap has {len(clipped)} corners"
            f" (at lap fractions {', '.join(f'{s / lap:.3f}' for s, *_ in clipped)});"
            " give one count per corner or draw the corners with corners=..."
        )
    result = []
    for index, (start, end, stops, name) in enumerate(clipped):
        if spec.stops is not None:
            stops = spec.stops[index]
            if stops not in (1, 2, 3):
                raise BuildError(f"stops[{index}]: a corner needs 1, 2 or 3 stops, got {stops}")
        if stops is None:
            angle = math.degrees(_turn(path, start, end))
            stops = suggest_stops(angle, _tightest_radius(path, start, end) / space_length)
        result.append((start, end, int(stops), name))
    # corners that overlap or touch share a boundary
    for i in range(1, len(result)):
        prev, cur = result[i - 1], result[i]
        if cur[0] < prev[1]:
            middle = 0.5 * (cur[0] + prev[1])
            result[i - 1] = (prev[0], middle, *prev[2:])
            result[i] = (middle, *cur[1:])
    return result


def _fit_corners(
    spec: BuildSpec,
    path: LapPath,
    corners: list[tuple[float, float, int, str | None]],
    offsets: list[float],
    space_length: float,
    extra: list[int],
) -> list[tuple[float, float, int, str | None]]:
    """Corners widened until every lane holds enough spaces for the stop count."""
    lap = path.length
    s_closed = np.concatenate([path.s, [lap]])
    arcs = [path.offset_arc(d) for d in offsets]

    def lane_counts(
        start: float, end: float, spread: int = 0, inside: int | None = None
    ) -> list[int]:
        middle = 0.5 * (start + end) / lap
        lanes = next((n for s, n in spec.lane_counts if s.contains(middle)), spec.lanes)
        columns = max(1, int(round((end - start) / space_length)))
        lengths = []
        for arc in arcs[:lanes]:
            a, b = np.interp([start, end], s_closed, arc)
            lengths.append(float(b - a))
        return corner_lane_counts(lengths, end - start, columns, spread, inside)

    fitted = fit_corners(
        [CornerExtent(*c) for c in corners],
        lane_counts,
        low=_room_after_line(spec) * space_length,
        high=lap - _room_before_line(spec) * space_length,
        step=space_length / 4,
        extra=extra,
        scale=spec.centreline.length / space_length / REFERENCE_SPACES_PER_LAP,
    )
    return [(c.start, c.end, c.stops, c.name) for c in fitted]


def _room_before_line(spec: BuildSpec) -> int:
    """Spaces of straight kept behind the finish line while corners grow: the grid (one
    spot per row) and the default pit lane (its boxes two beside each pit space)."""
    room = max(1, spec.grid)
    if spec.pit is not None and spec.pit.start is None:
        room = max(room, math.ceil(spec.pit.boxes / 2) + 4)
    return room


def _room_after_line(spec: BuildSpec) -> int:
    """Spaces of straight kept after the finish line while corners grow (the pit exit)."""
    return 3 if spec.pit is not None and spec.pit.start is None else 1


def _short_corners(
    cells: list[_Cell],
    steps: list[tuple[_Cell, _Cell, StepKind]],
    corners: list[tuple[float, float, int, str | None]],
) -> list[int]:
    """Corner numbers whose shortest path holds fewer spaces than their stop count."""
    graph = nx.DiGraph()
    for cell in cells:
        graph.add_node(id(cell), corner=cell.corner)
    graph.add_edges_from((id(a), id(b)) for a, b, _ in steps)
    return [
        number
        for number, (_, _, stops, _) in enumerate(corners, start=1)
        if path_counts(graph, number)[1] < stops
    ]


def _tightest_radius(path: LapPath, start: float, end: float) -> float:
    """Smallest radius (metres) of the lap between two arc lengths."""
    inside = (path.s >= start) & (path.s < end)
    if not inside.any():
        return math.inf
    return 1.0 / max(float(np.abs(path.curvature[inside]).max()), 1e-12)


def _turn(path: LapPath, start: float, end: float) -> float:
    inside = (path.s >= start) & (path.s < end)
    return float(path.curvature[inside].sum() * (path.length / len(path.s)))


def _turn_between(path: LapPath, start: float, end: float) -> float:
    """Total turn (radians) between two arc lengths that may wrap past the lap end."""
    lap = path.length
    start, end = start % lap, end % lap
    if start <= end:
        return _turn(path, start, end)
    return _turn(path, start, lap) + _turn(path, 0.0, end)
