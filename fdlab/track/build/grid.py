"""Grid spots on the straight behind the finish line, pole on the inside of the first corner."""

from __future__ import annotations

import math

from fdlab.track.build.cells import _Cell, _lanes
from fdlab.track.build.stretches import _EPS
from fdlab.track.errors import BuildError


def _mark_grid(cells: list[_Cell], spots: int, corners: list, lap: float) -> None:
    """Grid spots on the straight behind the finish line, never in a corner.

    Staggered like a motor-racing grid, one spot per row on alternate sides,
    pole nearest the line on the inside of the first corner. When the
    straight is too short for that, each row takes two spots (or one per
    lane), still pole first on the inside; when even that does not fit, a
    :class:`BuildError` says how many rows the straight holds.
    """
    if spots == 0:
        return
    lanes = _lanes(cells)
    at_line = sorted(c.lane for c in cells if c.kind == "track" and c.end > lap - _EPS)
    inside = at_line if corners and _first_turn_left(cells, corners) else at_line[::-1]
    rows = _straight_rows(lanes, inside)
    for per_row in range(1, len(inside) + 1):
        if math.ceil(spots / per_row) <= rows:
            break
    else:
        raise BuildError(
            f"grid: the straight behind the finish line holds {rows} rows of spaces, too few "
            f"for {spots} grid spots even {len(inside)} to a row (a grid spot is never in a "
            "corner): give fewer spots (grid=...) or move the finish line (finish=...)"
        )
    for spot in range(spots):
        if per_row == 1:
            row, lane = spot, inside[spot % min(2, len(inside))]
        else:
            row, lane = divmod(spot, per_row)
            lane = inside[lane]
        lanes[lane][-1 - row].grid = spot + 1


def _straight_rows(lanes: dict[int, list[_Cell]], inside: list[int]) -> int:
    """Rows of straight spaces (no corner, no tunnel) in every lane just behind the line."""
    rows = 0
    shortest = min(len(lanes[lane]) for lane in inside)
    while rows < shortest and all(
        lanes[lane][-1 - rows].corner is None and lanes[lane][-1 - rows].tunnel is None
        for lane in inside
    ):
        rows += 1
    return rows


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
