"""Cells: the spaces of a board while it is built, cut from stretches and shaped.

A :class:`_Cell` holds arc lengths along the lap path, a lane offset, progress
and the attributes the space will have; :func:`_cut_cells` cuts every lane of
every stretch (aligned columns on straights, more spaces on the outside of
corners) and :func:`_shape` gives a cell its polygon and centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from fdlab.track.build.corner_fit import corner_cuts, corner_lane_counts
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.stretches import _EPS, _Stretch


@dataclass
class _Cell:
    """One space while the board is being built (arc lengths in metres)."""

    lane: int
    start: float
    end: float
    offset: float
    progress: float
    kind: str = "track"
    corner: int | None = None
    polygon: Polygon | None = None
    centre: tuple[float, float] = (0.0, 0.0)
    hazard: str | None = None
    tunnel: str | None = None
    grid: int | None = None
    box: int | None = None
    level: int = 0
    ident: int = -1

    @property
    def middle(self) -> float:
        return 0.5 * (self.start + self.end)


def _cut_cells(
    path: LapPath, stretches: list[_Stretch], offsets: list[float], width: float
) -> list[_Cell]:
    cells: list[_Cell] = []
    arcs = {j: path.offset_arc(offsets[j]) for j in range(len(offsets))}
    s_closed = np.concatenate([path.s, [path.length]])
    for stretch in stretches:
        span = stretch.end - stretch.start
        ends = [
            np.interp([stretch.start, stretch.end], s_closed, arcs[lane])
            for lane in range(stretch.lanes)
        ]
        counts = corner_lane_counts(
            [b - a for a, b in ends], span, stretch.columns, stretch.spread, stretch.inside
        )
        for lane in range(stretch.lanes):
            if stretch.corner is None:
                cuts = np.linspace(stretch.start, stretch.end, stretch.columns + 1)
            else:
                a, b = ends[lane]
                count = counts[lane]
                by_length = np.interp(np.linspace(a, b, count + 1), arcs[lane], s_closed)
                cuts = corner_cuts(by_length, stretch.columns)
            for start, end in zip(cuts[:-1], cuts[1:], strict=True):
                middle = 0.5 * (start + end)
                progress = (
                    stretch.progress + stretch.columns * (middle - stretch.start) / span - 0.5
                )
                cell = _Cell(
                    lane, float(start), float(end), offsets[lane], progress, corner=stretch.corner
                )
                _shape(path, cell, width)
                cells.append(cell)
    return cells


def _shape(path: LapPath, cell: _Cell, width: float, offset: float | None = None) -> None:
    offset = cell.offset if offset is None else offset
    samples = path.samples_between(cell.start, cell.end)
    left = path.offset(samples, offset + width / 2)
    right = path.offset(samples[::-1], offset - width / 2)
    ring = np.round(np.vstack([left, right]), 2) + 0.0  # + 0.0: no -0.0 in a file
    polygon = Polygon(ring)
    if not polygon.is_valid:
        polygon = shapely.make_valid(polygon)
        if polygon.geom_type != "Polygon":
            polygon = max(getattr(polygon, "geoms", [polygon]), key=lambda g: g.area)
            polygon = polygon if polygon.geom_type == "Polygon" else Polygon(ring).buffer(0)
    cell.polygon = polygon
    x, y = path.offset(np.array([cell.middle]), offset)[0]
    cell.centre = (float(x), float(y))


def _lanes(cells: list[_Cell], kind: str = "track") -> dict[int, list[_Cell]]:
    lanes: dict[int, list[_Cell]] = {}
    for cell in cells:
        if cell.kind == kind:
            lanes.setdefault(cell.lane, []).append(cell)
    for row in lanes.values():
        row.sort(key=lambda c: c.start)
    return lanes


def _at(row: list[_Cell], position: float, lap: float) -> _Cell | None:
    """The cell of a lane that covers arc length ``position`` (wrapping)."""
    position %= lap
    starts = [c.start for c in row]
    index = int(np.searchsorted(starts, position, side="right")) - 1
    if index < 0:
        return None
    cell = row[index]
    return (
        cell
        if cell.start - _EPS <= position < cell.end - _EPS
        or (cell.start - _EPS <= position <= cell.end + _EPS and index == len(row) - 1)
        else None
    )


def _number(cells: list[_Cell]) -> None:
    order = {"track": 0, "pit": 1, "box": 2}
    ranked = sorted(cells, key=lambda c: (order[c.kind], round(c.progress, 6), c.lane, c.box or 0))
    for ident, cell in enumerate(ranked):
        cell.ident = ident
