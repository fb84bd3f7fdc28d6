"""Bridges: where a figure-eight lap crosses itself, the later branch goes up a level."""

from __future__ import annotations

import numpy as np
import shapely

from fdlab.track.build.cells import _Cell
from fdlab.track.build.lap_path import LapPath


def _raise_bridges(
    path: LapPath, cells: list[_Cell], half_road: float, space_length: float
) -> None:
    """Put the later branch of a self-crossing lap on level 1 where the branches overlap."""
    crossings = _self_crossings(path, 2 * half_road + space_length)
    if not crossings:
        return
    track_cells = [c for c in cells if c.kind == "track"]
    polygons = [c.polygon for c in track_cells]
    tree = shapely.STRtree(polygons)
    reach = 2 * half_road + 1.5 * space_length
    lap = path.length
    for i, j in zip(*tree.query(polygons, predicate="intersects"), strict=True):
        if i >= j:
            continue
        a, b = track_cells[i], track_cells[j]
        if min(abs(a.middle - b.middle), lap - abs(a.middle - b.middle)) < reach:
            continue
        area = a.polygon.intersection(b.polygon).area
        if area < 0.02 * min(a.polygon.area, b.polygon.area):
            continue

        def near(cell: _Cell, at: float) -> bool:
            return min(abs(cell.middle - at), lap - abs(cell.middle - at)) < reach

        for first, second in crossings:
            if near(a, first) and near(b, second):
                b.level = 1
            elif near(b, first) and near(a, second):
                a.level = 1


def _self_crossings(path: LapPath, min_apart: float) -> list[tuple[float, float]]:
    """Arc lengths ``(first, second)`` where the centreline crosses itself."""
    xy = path.xy
    count = len(xy)
    segments = shapely.linestrings(np.stack([xy, np.roll(xy, -1, axis=0)], axis=1))
    tree = shapely.STRtree(segments)
    left, right = tree.query(segments, predicate="crosses")
    step = path.length / count
    found: list[tuple[float, float]] = []
    for i, j in zip(left, right, strict=True):
        if (
            i < j
            and min(j - i, count - (j - i)) * step > min_apart
            and all(abs(path.s[i] - f) > min_apart for f, _ in found)
        ):
            found.append((float(path.s[i]), float(path.s[j])))
    return found
