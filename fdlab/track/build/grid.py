"""Grid spots on the straight behind the finish line, pole on the inside of the first corner."""

from __future__ import annotations

import math
import warnings

from fdlab.track.build.cells import _Cell, _lanes
from fdlab.track.build.notes import FewerGridSpotsWarning, caller_level
from fdlab.track.build.stretches import _EPS
from fdlab.track.errors import BuildError
from fdlab.track.validate import MAX_CARS

#: The fewest grid spots the builder lays when the finish straight holds fewer than asked
#: (a race of two cars still starts).
MIN_GRID_SPOTS = 2

#: A corner as the builder lays it out: start and end (metres along the lap), stops, name.
CornerSpan = tuple[float, float, int, str | None]


def _mark_grid(cells: list[_Cell], spots: int, corners: list[CornerSpan], lap: float) -> None:
    """Grid spots on the straight behind the finish line, reaching at most into the
    corner behind it.

    Staggered like a motor-racing grid, one spot per row on alternate sides,
    pole nearest the line on the inside of the first corner. When the
    straight is too short for that, each row takes two spots (or one per
    lane), still pole first on the inside; when even that does not fit, the
    back of the grid goes into the corner behind the straight, as on some
    printed boards (S-5: a car starting there counts its stops as made), its
    spaces nearest the straight first. When even that does not fit (a finish
    line just after a bend), the grid has as many spots as fit, with a
    :class:`FewerGridSpotsWarning` saying so; a :class:`BuildError` says when
    fewer than :data:`MIN_GRID_SPOTS` fit, or more spots than a race has cars
    (:data:`~fdlab.track.validate.MAX_CARS`) were asked.
    """
    if spots == 0:
        return
    lanes = _lanes(cells)
    at_line = sorted(c.lane for c in cells if c.kind == "track" and c.end > lap - _EPS)
    inside = at_line if corners and _first_turn_left(cells, corners) else at_line[::-1]
    rows = _straight_rows(lanes, inside)
    per_row = next(
        (n for n in range(1, len(inside) + 1) if math.ceil(spots / n) <= rows), len(inside)
    )
    on_straight = min(spots, rows * per_row)
    for spot in range(on_straight):
        if per_row == 1:
            row, lane = spot, inside[spot % min(2, len(inside))]
        else:
            row, lane = divmod(spot, per_row)
            lane = inside[lane]
        lanes[lane][-1 - row].grid = spot + 1
    behind = _corner_behind(lanes, inside, rows)
    room = on_straight + len(behind)
    if room < spots:
        if spots > MAX_CARS or room < MIN_GRID_SPOTS:
            raise BuildError(
                f"grid: no room for {spots} grid spots behind the finish line "
                f"({rows} rows of {len(inside)} spaces on the straight, {len(behind)} spaces "
                "in the corner behind it): give fewer spots (grid=...) or move the finish "
                "line (finish=...)"
            )
        warnings.warn(
            f"grid: the straight behind the finish line and the corner behind it hold "
            f"{room} grid spots, not {spots}: built with {room} (races of up to {room} "
            f"cars); for {spots}, move the finish line onto a longer straight (finish=...)",
            FewerGridSpotsWarning,
            stacklevel=caller_level(),
        )
    for spot, cell in enumerate(behind[: spots - on_straight], start=on_straight + 1):
        cell.grid = spot


def _straight_rows(lanes: dict[int, list[_Cell]], inside: list[int]) -> int:
    """Rows (counted back from the line) straight in every lane, no corner, no tunnel,
    before the first that is not, within the last half of the lap."""
    shortest = min(len(lanes[lane]) for lane in inside)
    for row in range(shortest // 2):
        if any(
            lanes[lane][-1 - row].corner is not None or lanes[lane][-1 - row].tunnel is not None
            for lane in inside
        ):
            return row
    return shortest // 2


def _corner_behind(lanes: dict[int, list[_Cell]], inside: list[int], rows: int) -> list[_Cell]:
    """Spaces of the lanes at the line in the corner just behind the straight's ``rows``
    rows, nearest the straight first (the inside first among spaces level with each
    other); none when a tunnel or the middle of the lap comes first."""
    shortest = min(len(lanes[lane]) for lane in inside)
    if rows >= shortest // 2:
        return []
    first = {lanes[lane][-1 - rows].corner for lane in inside}
    if len(first) != 1 or None in first:
        return []
    corner = first.pop()
    found = [
        (-cell.progress, order, cell)
        for order, lane in enumerate(inside)
        for cell in lanes[lane][len(lanes[lane]) // 2 :]
        if cell.corner == corner and cell.tunnel is None
    ]
    return [cell for *_, cell in sorted(found, key=lambda item: item[:2])]


def _first_turn_left(cells: list[_Cell], corners: list[CornerSpan]) -> bool:
    return bool(corners) and _corner_sign(cells, corners[0])


def _corner_sign(cells: list[_Cell], corner: CornerSpan) -> bool:
    """Whether the corner turns left: its leftmost lane has fewer spaces."""
    start, end = corner[0], corner[1]
    counts: dict[int, int] = {}
    for c in cells:
        if start - _EPS <= c.start and c.end <= end + _EPS:
            counts[c.lane] = counts.get(c.lane, 0) + 1
    if not counts:
        return False
    return counts[min(counts)] < counts[max(counts)]
