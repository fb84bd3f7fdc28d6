"""Grid spots behind the finish line, pole on the inside of the first corner."""

from __future__ import annotations

import math

from fdlab.track.build.cells import _Cell, _lanes
from fdlab.track.build.stretches import _EPS
from fdlab.track.errors import BuildError


def _mark_grid(cells: list[_Cell], spots: int, corners: list, lap: float) -> None:
    """Grid spots behind the finish line, pole nearest it on the inside of the first corner.

    Two staggered lanes when the straight behind the line holds them all,
    otherwise one spot per lane and row, so the grid stays out of corners
    where it can.
    """
    if spots == 0:
        return
    lanes = _lanes(cells)
    at_line = sorted(c.lane for c in cells if c.kind == "track" and c.end > lap - _EPS)
    inside = at_line if corners and _first_turn_left(cells, corners) else at_line[::-1]
    straight = 0
    for cell in reversed(lanes[inside[0]]):
        if cell.corner is not None or cell.tunnel is not None:
            break
        straight += 1
    if len(inside) >= 3 and straight < spots:
        _grid_by_rows(lanes, inside, spots)
        return
    pattern = inside[:2]
    limit = math.inf
    for spot in range(spots):
        lane = pattern[spot % len(pattern)]
        candidates = [c for c in reversed(lanes[lane]) if c.progress < limit and c.tunnel is None]
        if not candidates:
            raise BuildError(
                f"grid: no room for {spots} grid spots behind the finish line (placed {spot})"
            )
        candidates[0].grid = spot + 1
        limit = candidates[0].progress - 1e-6


def _grid_by_rows(lanes: dict[int, list[_Cell]], inside: list[int], spots: int) -> None:
    spot = 0
    for row in range(1, min(len(lanes[lane]) for lane in inside) + 1):
        for lane in inside:
            cell = lanes[lane][-row]
            if cell.tunnel is None and spot < spots:
                spot += 1
                cell.grid = spot
    if spot < spots:
        raise BuildError(
            f"grid: no room for {spots} grid spots behind the finish line (placed {spot})"
        )


def _first_turn_left(cells: list[_Cell], corners: list) -> bool:
    return bool(corners) and _corner_sign(cells, corners[0])


def _corner_sign(cells: list[_Cell], corner: tuple) -> bool:
    """Whether the corner turns left: its leftmost lane has fewer spaces."""
    start, end = corner[0], corner[1]
    counts: dict[int, int] = {}
    for c in cells:
        if start - _EPS <= c.start and c.end <= end + _EPS:
            counts[c.lane] = counts.get(c.lane, 0) + 1
    if not counts:
        return False
    return counts[min(counts)] < counts[max(counts)]
