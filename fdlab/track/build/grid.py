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
    lane), still pole first on the inside; when even that does not fit, the
    back rows go on behind the corner before the straight (a car starting
    there drives through it), and a :class:`BuildError` says when the grid
    does not fit at all.
    """
    if spots == 0:
        return
    lanes = _lanes(cells)
    at_line = sorted(c.lane for c in cells if c.kind == "track" and c.end > lap - _EPS)
    inside = at_line if corners and _first_turn_left(cells, corners) else at_line[::-1]
    straight = _straight_rows(lanes, inside)
    rows = len([r for i, r in enumerate(straight) if r == i])  # rows before the first corner
    for per_row in range(1, len(inside) + 1):
        if math.ceil(spots / per_row) <= rows:
            chosen = straight[:rows]
            break
    else:
        # the straight behind the line is too short: the back rows go behind the corner
        per_row, chosen = len(inside), straight
        if math.ceil(spots / per_row) > len(straight):
            raise BuildError(
                f"grid: no room for {spots} grid spots behind the finish line outside corners "
                f"({len(straight)} rows of {per_row} spaces): give fewer spots (grid=...) or "
                "move the finish line (finish=...)"
            )
    for spot in range(spots):
        if per_row == 1:
            row, lane = spot, inside[spot % min(2, len(inside))]
        else:
            row, lane = divmod(spot, per_row)
            lane = inside[lane]
        lanes[lane][-1 - chosen[row]].grid = spot + 1


def _straight_rows(lanes: dict[int, list[_Cell]], inside: list[int]) -> list[int]:
    """Rows (counted back from the line) straight in every lane, no corner, no tunnel,
    within the last half of the lap."""
    shortest = min(len(lanes[lane]) for lane in inside)
    return [
        row
        for row in range(shortest // 2)
        if all(
            lanes[lane][-1 - row].corner is None and lanes[lane][-1 - row].tunnel is None
            for lane in inside
        )
    ]


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
