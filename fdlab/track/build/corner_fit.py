"""Corner extents for the board builder: long enough for their stop counts.

A corner found from curvature covers only the tight part of a bend; on a
hairpin its inner lane may hold a single space. The printed boards never
have one-space corners, and a corner whose shortest path is shorter than
its stop count cannot be driven without braking to a standstill (C-2).
:func:`fit_corners` widens each corner along the lap, by equal amounts
before and after it, until every lane holds at least
:func:`spaces_needed` spaces, without running into its neighbours: a corner
hemmed in takes room from a neighbouring corner that has more than it
needs, and one that still lacks room is merged with its neighbour.

Lane space counts follow :func:`corner_lane_count`, the rule the builder
uses to cut a corner's lanes into spaces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

#: A corner space of an inner lane covers at most this many spaces of progress.
MAX_SPACE_PROGRESS = 1.5
#: A corner space of an outer lane covers at least this many spaces of progress.
MIN_SPACE_PROGRESS = 0.5
#: Every lane of a corner holds at least this many spaces.
MIN_CORNER_SPACES = 2


@dataclass(frozen=True)
class CornerExtent:
    """A corner stretch of the lap while the board is built.

    Attributes
    ----------
    start, end : float
        Arc lengths (metres) of the corner's entry and exit lines, ``start < end``.
    stops : int
        Stop count, 1-3.
    name : str or None
        The designer's name for the corner.
    """

    start: float
    end: float
    stops: int
    name: str | None = None

    @property
    def length(self) -> float:
        """Length of the stretch in metres."""
        return self.end - self.start


def corner_lane_count(lane_arc: float, span: float, columns: float) -> int:
    """Spaces in one lane of a corner.

    Parameters
    ----------
    lane_arc : float
        Length of the lane through the corner (longer outside, shorter inside).
    span : float
        Length of the corner along the centreline.
    columns : float
        Spaces of progress the corner covers (its centreline length in spaces).

    Returns
    -------
    int
        The lane's length in centreline spaces, rounded, but such that every
        space covers between :data:`MIN_SPACE_PROGRESS` and
        :data:`MAX_SPACE_PROGRESS` spaces of progress: steps along the lane
        and diagonals into it then gain between half a space and two.

    Examples
    --------
    >>> corner_lane_count(40.0, 120.0, 3)  # a hairpin's inside lane: 1 space by length
    2
    >>> corner_lane_count(200.0, 120.0, 3), corner_lane_count(400.0, 120.0, 3)
    (5, 6)
    """
    natural = round(lane_arc / (span / columns)) if span > 0 else 1
    fewest = math.ceil(columns / MAX_SPACE_PROGRESS - 1e-9)
    most = max(fewest, math.floor(columns / MIN_SPACE_PROGRESS + 1e-9))
    return max(1, fewest, min(most, int(natural)))


def corner_lane_counts(
    lane_arcs: Sequence[float],
    span: float,
    columns: float,
    spread: int = 0,
    inside: int | None = None,
) -> list[int]:
    """Spaces in every lane of a corner, the outside lane the most.

    Parameters
    ----------
    lane_arcs : sequence of float
        Length of each lane through the corner, in lane order (left to right).
    span, columns : float
        As for :func:`corner_lane_count`.
    spread : int
        Spaces the outside lane should hold beyond the inside lane
        (:func:`outside_spread`).
    inside : int, optional
        Spaces the inside lane should hold at most (:func:`spaces_needed`):
        on the printed boards the inside of a long corner is its short way.

    Returns
    -------
    list of int
        The inside lane (the shortest) holds its length in spaces
        (:func:`corner_lane_count`), but no more than ``inside`` where its
        progress allows (a space every :data:`MAX_SPACE_PROGRESS` spaces of
        progress at most); the outside lane holds ``spread`` spaces more, as
        far as its progress allows (a space every :data:`MIN_SPACE_PROGRESS`
        spaces of progress at least), and never fewer than its own length in
        spaces; the lanes between them step evenly from one to the other.

    Examples
    --------
    >>> corner_lane_counts([40.0, 120.0, 200.0], 120.0, 3, spread=4)  # inside lane left
    [2, 4, 6]
    >>> corner_lane_counts([130.0, 120.0], 120.0, 4, spread=10)  # at most 2 a column
    [8, 4]
    >>> corner_lane_counts([120.0, 130.0, 140.0], 120.0, 3, spread=4, inside=2)
    [2, 4, 6]
    >>> corner_lane_counts([40.0, 120.0, 200.0], 120.0, 3)  # no spread: outside by length
    [2, 4, 5]
    """
    natural = [corner_lane_count(arc, span, columns) for arc in lane_arcs]
    if len(natural) < 2:
        return natural
    inner = 0 if lane_arcs[0] <= lane_arcs[-1] else len(natural) - 1
    outer = len(natural) - 1 - inner
    fewest = math.ceil(columns / MAX_SPACE_PROGRESS - 1e-9)
    most = math.floor(columns / MIN_SPACE_PROGRESS + 1e-9)
    shortest = natural[inner] if inside is None else max(fewest, min(natural[inner], inside))
    widest = max(natural[outer], min(most, shortest + spread))
    counts = []
    for lane, count in enumerate(natural):
        share = abs(lane - inner) / abs(outer - inner)
        between = round(shortest + share * (widest - shortest))
        counts.append(shortest if lane == inner else max(min(count, widest), between))
    return counts


#: Spaces the outside lane of a corner holds beyond its inside lane, by stop count,
#: on a board of :data:`REFERENCE_SPACES_PER_LAP` spaces a lap: the printed boards'
#: median longest paths (6 / 12 / 19) less their median shortest paths (2 / 6 / 11).
OUTSIDE_SPREAD = {1: 4, 2: 6, 3: 8}


def outside_spread(stops: int, scale: float = 1.0) -> int:
    """Spaces the outside lane of a corner with ``stops`` stops holds beyond the inside.

    On the printed boards the outside of a corner is far longer than the inside:
    a car can spend a long roll in a corner by driving round its outside.
    ``scale`` is the board's size against the printed boards (see
    :func:`spaces_needed`).

    Examples
    --------
    >>> [outside_spread(stops) for stops in (1, 2, 3)]
    [4, 6, 8]
    >>> [outside_spread(stops, scale=0.4) for stops in (1, 2, 3)]
    [2, 2, 3]
    """
    return round(OUTSIDE_SPREAD[stops] * scale)


def corner_cuts(by_length: np.ndarray, columns: float) -> np.ndarray:
    """Where a corner lane's spaces begin and end, as centreline arc lengths.

    Parameters
    ----------
    by_length : numpy.ndarray
        Cuts at equal lengths along the lane itself, from the corner's start
        to its end: spaces of equal length, as on the printed boards.
    columns : float
        Spaces of progress the corner covers.

    Returns
    -------
    numpy.ndarray
        ``by_length`` when every space covers between half a space and
        :data:`MAX_SPACE_PROGRESS` spaces of progress; otherwise blended
        towards equal shares of the centreline (a lane hugging a bend that
        tightens halfway would have spaces gaining almost no progress).

    Examples
    --------
    >>> corner_cuts(np.array([0.0, 10.0, 20.0, 30.0]), 3)  # even already
    array([ 0., 10., 20., 30.])
    >>> corner_cuts(np.array([0.0, 2.0, 28.0, 30.0]), 3)  # 0.2 of a space: blended
    array([ 0.,  8., 22., 30.])
    """
    start, end = float(by_length[0]), float(by_length[-1])
    even = np.linspace(start, end, len(by_length))
    for weight in (1.0, 0.75, 0.5, 0.25, 0.0):
        cuts = weight * by_length + (1.0 - weight) * even
        cuts[0], cuts[-1] = start, end
        extents = np.diff(cuts) * columns / (end - start)
        if extents.min() >= 0.5 and extents.max() <= MAX_SPACE_PROGRESS:
            break
    return cuts


#: Spaces along the shortest path of a corner, by stop count, on a board of
#: :data:`REFERENCE_SPACES_PER_LAP` spaces a lap: the medians of the printed boards
#: (a 3-stop corner is a long slow section a car stops in three times).
CORNER_SPACES = {1: 2, 2: 6, 3: 11}
#: Spaces along the centre of a lap of a board the size of the printed ones: with
#: the long outside lanes of its corners, its lanes then average about 154 spaces,
#: the printed boards' median.
REFERENCE_SPACES_PER_LAP = 144
#: The printed boards are drawn to fit a table, not to scale: a lap that winds about
#: (long for the table it is drawn to fit) gets more spaces than one that fills the
#: table with a few long straights. A lap :data:`TYPICAL_LAP_OVER_TABLE` times as long
#: as the longer side of the table it fits gets :data:`REFERENCE_SPACES_PER_LAP` ...
TYPICAL_LAP_OVER_TABLE = 3.0
#: ... and each more time gets this share more (fitted on 32 real circuits against the
#: printed boards of the same circuits: spaces a lane within 6% on half of them, within
#: 12% on three in four, against 10% and 18% with the same size for every circuit).
SPACES_PER_LAP_SLOPE = 0.15
#: The table's sides, long over short (the printed boards are about 3:2).
TABLE_ASPECT = 1.5
#: Fewest and most spaces a lap so sized: the printed boards' 113 to 204 a lane.
TABLE_SPACES_PER_LAP = (107, 193)


def table_spaces_per_lap(points: Sequence[Sequence[float]], length: float) -> int:
    """Spaces along the centre of a lap drawn, as the printed boards are, to fit a table.

    The lap is turned to fit a table of :data:`TABLE_ASPECT` as large as it can be
    (in steps of a degree); the longer its lap against the table's long side, the more
    spaces (see :data:`SPACES_PER_LAP_SLOPE`), from :data:`TABLE_SPACES_PER_LAP`.

    Examples
    --------
    >>> table_spaces_per_lap([(0, 0), (800, 0), (800, 400), (0, 400)], 2400.0)  # 3 times
    144
    >>> table_spaces_per_lap([(0, 0), (1600, 0), (1600, 200), (0, 200)], 3600.0)  # turned 30°
    132
    """
    xy = np.asarray(points, dtype=float)
    xy = xy - xy.mean(axis=0)
    turns = np.radians(np.arange(180.0))
    along = xy[:, :1] * np.cos(turns) + xy[:, 1:] * np.sin(turns)
    across = xy[:, 1:] * np.cos(turns) - xy[:, :1] * np.sin(turns)
    side = float(np.min(np.maximum(np.ptp(along, axis=0), TABLE_ASPECT * np.ptp(across, axis=0))))
    if not side > 0:
        return REFERENCE_SPACES_PER_LAP
    size = 1.0 + SPACES_PER_LAP_SLOPE * (length / side - TYPICAL_LAP_OVER_TABLE)
    fewest, most = TABLE_SPACES_PER_LAP
    return int(min(most, max(fewest, round(REFERENCE_SPACES_PER_LAP * size))))


def spaces_needed(stops: int, scale: float = 1.0) -> int:
    """Fewest spaces every lane of a corner with ``stops`` stops must hold.

    Parameters
    ----------
    stops : int
        The corner's stop count, 1-3.
    scale : float
        The board's size against the printed boards (its spaces a lap over
        :data:`REFERENCE_SPACES_PER_LAP`): corners of a small board are
        shorter, but never shorter than their stop count (C-2) or two spaces.

    Examples
    --------
    >>> [spaces_needed(stops) for stops in (1, 2, 3)]
    [2, 6, 11]
    >>> [spaces_needed(stops, scale=0.4) for stops in (1, 2, 3)]
    [2, 2, 4]
    """
    return max(MIN_CORNER_SPACES, stops, round(CORNER_SPACES[stops] * scale))


def fit_corners(
    corners: Sequence[CornerExtent],
    lane_counts: Callable[..., Sequence[int]],
    *,
    low: float,
    high: float,
    step: float,
    extra: Sequence[int] = (),
    scale: float = 1.0,
) -> list[CornerExtent]:
    """Widen corners until every lane of each holds the spaces its stop count needs.

    Parameters
    ----------
    corners : sequence of CornerExtent
        In running order, not overlapping (they may touch).
    lane_counts : callable
        ``lane_counts(start, end, spread=0, inside=None)``: spaces per lane of a
        corner stretch (:func:`corner_lane_counts`).
    low, high : float
        The corners stay within these arc lengths (clear of the finish line).
    step : float
        Metres a corner grows by on each side per round (a fraction of a space).
    extra : sequence of int
        Spaces wanted beyond :func:`spaces_needed`, per corner (the builder asks
        for more when a corner's shortest path came out too short).
    scale : float
        The board's size against the printed boards (see :func:`spaces_needed`).

    Returns
    -------
    list of CornerExtent
        The corners, widened until every lane holds at least two spaces and
        the stop count, then on towards :func:`spaces_needed` and until the
        outside lane can hold :func:`outside_spread` spaces more than the inside
        lane, as far as there is room: by equal amounts before and after
        (all on one side when the other is blocked), up to the neighbouring
        corner or the limits; a corner hemmed in on both sides takes room from
        a touching neighbour that keeps enough spaces without it. A corner
        still too short is merged with the shorter of its touching neighbours
        (:func:`merge_corners`, a chicane becomes one corner) and the two are
        widened together. A corner that cannot get enough room even so (held
        in by the limits) is returned as wide as it could get.

    Examples
    --------
    >>> def by_length(start, end, spread=0, inside=None):  # the inner lane half as long
    ...     columns = max(1, round((end - start) / 10.0))
    ...     arcs = [0.5 * (end - start), end - start]
    ...     return corner_lane_counts(arcs, end - start, columns, spread, inside)
    >>> hairpin = CornerExtent(100.0, 110.0, stops=3)
    >>> fitted = fit_corners([hairpin], by_length, low=10.0, high=300.0, step=2.5, scale=0.3)
    >>> fitted[0].start, fitted[0].end, list(by_length(fitted[0].start, fitted[0].end, 2))
    (87.5, 122.5, [3, 5])
    """
    fitted = list(corners)
    wanted = [
        max(MIN_CORNER_SPACES, c.stops) + (extra[i] if i < len(extra) else 0)
        for i, c in enumerate(fitted)
    ]
    apexes = [0.5 * (c.start + c.end) for c in fitted]

    def short(index: int, corner: CornerExtent) -> bool:
        return min(lane_counts(corner.start, corner.end)) < wanted[index]

    while True:
        _grow(fitted, short, apexes, low, high, step)
        stuck = next(
            (
                i
                for i, c in enumerate(fitted)
                if min(lane_counts(c.start, c.end)) < wanted[i] and _touching(fitted, i)
            ),
            None,
        )
        if stuck is None:
            break
        other = min(_touching(fitted, stuck), key=lambda i: (fitted[i].length, i))
        first, second = sorted((stuck, other))
        fitted[first : second + 1] = [merge_corners(fitted[first], fitted[second])]
        wanted[first : second + 1] = [max(wanted[first], wanted[second])]
        apexes[first : second + 1] = [0.5 * (apexes[first] + apexes[second])]
    # then as long as the printed boards' corners where there is room, merging none
    targets = [
        max(w, spaces_needed(c.stops, scale) + w - max(MIN_CORNER_SPACES, c.stops))
        for w, c in zip(wanted, fitted, strict=True)
    ]
    spreads = [outside_spread(c.stops, scale) for c in fitted]

    def shorter_than_printed(index: int, corner: CornerExtent) -> bool:
        counts = lane_counts(corner.start, corner.end, spreads[index], targets[index])
        narrow = len(counts) > 1 and max(counts) - min(counts) < spreads[index]
        return min(counts) < targets[index] or narrow

    _grow(fitted, shorter_than_printed, apexes, low, high, step)
    return fitted


def merge_corners(first: CornerExtent, second: CornerExtent) -> CornerExtent:
    """One corner from two that follow each other (a chicane): the larger stop count.

    Examples
    --------
    >>> merge_corners(CornerExtent(0, 10, 1, "Mirabeau"), CornerExtent(10, 25, 3, "Hairpin"))
    CornerExtent(start=0, end=25, stops=3, name='Mirabeau / Hairpin')
    """
    names = [c.name for c in (first, second) if c.name]
    return CornerExtent(
        first.start,
        second.end,
        max(first.stops, second.stops),
        " / ".join(names) if names else None,
    )


def _touching(fitted: list[CornerExtent], index: int) -> list[int]:
    """Neighbours of corner ``index`` that share a boundary with it."""
    found = []
    if index > 0 and abs(fitted[index - 1].end - fitted[index].start) < 1e-6:
        found.append(index - 1)
    if index + 1 < len(fitted) and abs(fitted[index + 1].start - fitted[index].end) < 1e-6:
        found.append(index + 1)
    return found


def _grow(
    fitted: list[CornerExtent],
    short: Callable[[int, CornerExtent], bool],
    apexes: list[float],
    low: float,
    high: float,
    step: float,
) -> None:
    """Widen the corners of ``fitted`` that are ``short`` in place as far as there is
    room, keeping each centred on its apex where it can."""
    for _ in range(10_000):
        moved = False
        for index, corner in enumerate(fitted):
            if not short(index, corner):
                continue
            floor = fitted[index - 1].end if index > 0 else low
            ceiling = fitted[index + 1].start if index + 1 < len(fitted) else high
            before, after = _growth(corner.start - floor, ceiling - corner.end, step)
            if before + after > 1e-9:
                fitted[index] = replace(corner, start=corner.start - before, end=corner.end + after)
                moved = True
            elif _take_room(fitted, index, step, short, low, high, apexes[index]):
                moved = True
        if not moved:
            return


def _growth(room_before: float, room_after: float, step: float) -> tuple[float, float]:
    """How far to grow each side: ``step`` each, or ``2 * step`` on the free side."""
    before, after = min(step, room_before), min(step, room_after)
    if before < step:
        after = min(room_after, 2 * step - before)
    if after < step:
        before = min(room_before, 2 * step - after)
    return max(0.0, before), max(0.0, after)


def _take_room(
    fitted: list[CornerExtent],
    index: int,
    step: float,
    short: Callable[[int, CornerExtent], bool],
    low: float,
    high: float,
    apex: float,
) -> bool:
    """Move the boundary with a touching neighbour that can spare ``step`` metres: one
    that keeps enough spaces without them, or has room to grow on its far side. The
    side the corner has grown less on (from its apex) is tried first."""
    corner = fitted[index]
    sides = (index - 1, index + 1)
    for other in sides if 0.5 * (corner.start + corner.end) >= apex else sides[::-1]:
        if not 0 <= other < len(fitted):
            continue
        neighbour = fitted[other]
        if other < index and abs(neighbour.end - corner.start) < 1e-6:
            smaller = replace(neighbour, end=neighbour.end - step)
            grown = replace(corner, start=corner.start - step)
            far_room = neighbour.start - (fitted[other - 1].end if other > 0 else low)
        elif other > index and abs(neighbour.start - corner.end) < 1e-6:
            smaller = replace(neighbour, start=neighbour.start + step)
            grown = replace(corner, end=corner.end + step)
            far_room = (
                fitted[other + 1].start if other + 1 < len(fitted) else high
            ) - neighbour.end
        else:
            continue
        if smaller.length > step and (far_room >= step or not short(other, smaller)):
            fitted[other], fitted[index] = smaller, grown
            return True
    return False
