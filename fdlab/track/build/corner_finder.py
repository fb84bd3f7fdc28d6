"""Find the corners of a lap from its curvature and suggest their stop counts.

Calibrated on real circuits against the printed Formula D boards (a median
of 8 corners a board, 64% of them 1-stop, 28% 2-stop, 8% 3-stop): a
*bend* is a stretch tighter than :data:`BEND_RADIUS_SPACES`; bends close
together (a chicane, esses) are one corner; a corner whose tightest bend is
wider than :data:`FAST_RADIUS_SPACES` and that turns less than
:data:`FAST_MAX_ANGLE` is a fast sweeper, taken flat out (no corner); a long
curve turning :data:`FAST_MAX_ANGLE` or more is a corner however wide. Where
none of these is found, a stretch that turns :data:`WINDOW_MIN_TURN` or more
within :data:`TURN_WINDOW_SPACES` (the turn accumulated over a distance) is a
corner too: the bends of a lap drawn with a few clicks, whose curvature the
clicks scatter (a click turning 30 degrees between two long segments is
neither a bend nor a curve, three of them in a row are the end of an oval).
Corners get 1-3 stops from how far they turn and how tight their tightest
bend is (:func:`suggest_stops`), on a lap digitised from a circuit then moved
towards the stops of a printed board (:func:`_balance_stops`); a lap drawn
with a few clicks keeps the suggested ones. Radii are in spaces of the board
being built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy.ndimage import gaussian_filter1d

from fdlab.track.build.lap_path import LapPath

#: A stretch tighter than this radius, in spaces, is part of a bend.
BEND_RADIUS_SPACES = 3.5
#: Bends turning less than this (degrees) are kinks of a straight, not corners.
MIN_CORNER_ANGLE = 40.0
#: Bends less than this many spaces apart are one corner (a chicane, esses) ...
JOIN_GAP_SPACES = 2.0
#: ... unless both turn at least this much (degrees): two real corners close together.
JOIN_MAX_ANGLE = 100.0
#: A corner whose tightest radius (spaces) is wider than this is taken flat out: no
#: corner, ...
FAST_RADIUS_SPACES = 2.0
#: ... unless it turns this much (degrees) or more: a long curve is a corner however wide.
FAST_MAX_ANGLE = 120.0
#: A long curve (no bend in it) tighter than this radius, in spaces, turning at least
#: :data:`FAST_MAX_ANGLE`, is a 1-stop corner: the end of a drawn oval.
SWEEP_RADIUS_SPACES = 10.0
#: A stretch of the lap turning at least :data:`WINDOW_MIN_TURN` degrees within a window
#: of this many spaces is a corner where the bends and long curves found none (the
#: turn accumulated over a distance: the end of a drawn oval, however its clicks fall) ...
TURN_WINDOW_SPACES = 16.0
#: ... the turn, in degrees ...
WINDOW_MIN_TURN = 75.0
#: ... and such a corner covers at most this many spaces around the middle of its turn
#: (the printed boards' 1-stop corners are a few spaces long; fitting widens it to its
#: stop count).
WINDOW_CORNER_SPACES = 6.0

# Stop counts (:func:`suggest_stops`, then :func:`_balance_stops`). These and the bend
# thresholds above were tuned on the 32 real circuits of circuits/ against
# hand-digitised Formula D boards of the same circuits (benchmarks/calibration.py
# prints the printed boards' medians beside the built ones'). A corner turning little
# is fast however tight; one turning far is slow only if tight too. Promotion reaches
# wide curves (3 spaces): on a lap short of stops the printed boards slow them too.
# The par of a lap follows its stops closely, so these thresholds were checked
# against the par of the same boards as well; a lap of wide corners that its printed
# board gives 2 stops each stays too fast: no rule on turn and radius gives it those
# stops without giving other laps too many (turn and radius say little about a
# single corner's stops).
#: A corner turning at least this much (degrees) ...
HAIRPIN_ANGLE = 175.0
#: ... no wider than this radius (spaces) at its tightest is a slow hairpin: 3 stops.
HAIRPIN_RADIUS = 1.0
#: A corner turning at least this much ...
SLOW_ANGLE = 120.0
#: ... no wider than this is slow: 2 stops; ...
SLOW_RADIUS = 1.2
#: ... and so is a long curve turning at least this much ...
LONG_SLOW_ANGLE = 250.0
#: ... no wider than this. Every other corner has 1 stop.
LONG_SLOW_RADIUS = 2.2
#: Stops a board found from a circuit has, where its corners allow: the middle 80% of
#: the printed boards (6-16, median 11). See :func:`_balance_stops`.
BOARD_STOPS = (10, 14)
#: A 1-stop corner turning :data:`SLOW_ANGLE` or more, no wider than this radius
#: (spaces), gets 2 stops on a board with fewer stops than :data:`BOARD_STOPS`.
PROMOTE_RADIUS = 3.0


@dataclass(frozen=True)
class FoundCorner:
    """A corner found on a lap.

    Attributes
    ----------
    start, end : float
        Arc lengths (metres) of the corner's entry and exit lines; ``end`` may
        exceed the lap length when the corner wraps past the lap start.
    angle : float
        Total turn in degrees: the sum of its bends' turns, each counted
        positive (a chicane turning 50 degrees each way turns 100); for a
        corner found from the turn over a window, what the stretch around it
        turns (its share, when the stretch makes several corners).
    radius : float
        Tightest radius of the corner, in spaces.
    stops : int
        Suggested stop count, from :func:`suggest_stops`.
    """

    start: float
    end: float
    angle: float
    radius: float
    stops: int


def suggest_stops(angle: float, radius: float) -> int:
    """A stop count (1-3) for a corner turning ``angle`` degrees, ``radius`` spaces at its tightest.

    Slow hairpins (a half turn or more, about a space of radius) get 3;
    sharp corners and tight chicanes turning 100 degrees or more, or long
    slow curves, get 2; everything else 1.

    Examples
    --------
    >>> suggest_stops(180, 0.8), suggest_stops(120, 1.2), suggest_stops(90, 1.2), suggest_stops(35, 2.5)
    (3, 2, 1, 1)
    """
    angle = abs(angle)
    if angle >= HAIRPIN_ANGLE and radius <= HAIRPIN_RADIUS:
        return 3
    if (angle >= SLOW_ANGLE and radius <= SLOW_RADIUS) or (
        angle >= LONG_SLOW_ANGLE and radius <= LONG_SLOW_RADIUS
    ):
        return 2
    return 1


@dataclass
class _Bend:
    first: int  # sample index (may exceed the sample count when it wraps)
    last: int  # exclusive
    angle: float  # signed degrees
    radius: float  # tightest, spaces


def find_corners(path: LapPath, space_length: float) -> list[FoundCorner]:
    """The corners of a lap in running order, from the lap start.

    Examples
    --------
    A stadium of two straights 1200 m long and half circles of 30 m:

    >>> ends = np.linspace(-np.pi / 2, np.pi / 2, 60)
    >>> right = [(600 + 30 * np.cos(a), 30 * np.sin(a)) for a in ends]
    >>> stadium = right + [(-x, -y) for x, y in right]
    >>> path = LapPath(stadium, step=5.0, smoothing=10.0, min_radius=0.0)
    >>> [(c.angle > 120, c.stops) for c in find_corners(path, 40.0)]  # two hairpins
    [(True, 3), (True, 3)]

    Fourteen clicks round an oval 700 x 300 m, in spaces of 11.2 m: each click turns
    12-56 degrees, no bend and no long curve, but each end turns half a lap within
    a few clicks.

    >>> ends = -np.pi / 2 + 2 * np.pi * np.arange(14) / 14
    >>> clicks = [(350 * np.cos(t), 150 * np.sin(t)) for t in ends]
    >>> path = LapPath(clicks, step=1.4, smoothing=2.8, min_radius=10.0)
    >>> [(round(c.start / 11.2), round(c.end / 11.2), c.stops) for c in find_corners(path, 11.2)]
    [(33, 39, 1), (104, 110, 1)]

    (spaces 33-39 and 104-110 of a lap of 143: a quarter and three quarters of
    the lap from the middle of the bottom straight, the two ends.)
    """
    count = len(path.s)
    step = path.length / count
    curvature = gaussian_filter1d(path.curvature, sigma=0.5 * space_length / step, mode="wrap")
    bent = np.abs(curvature) > 1.0 / (BEND_RADIUS_SPACES * space_length)
    if bent.all():
        return []
    bends = []
    for a, b in _circular_runs(bent):
        last = b if b > a else b + count
        indices = np.arange(a, last) % count
        angle = math.degrees(float(path.curvature[indices].sum() * step))
        if abs(angle) < 0.5 * MIN_CORNER_ANGLE:
            continue
        radius = 1.0 / float(np.abs(curvature[indices]).max()) / space_length
        bends.append(_Bend(a, last, angle, radius))
    groups = _join_bends(bends, count, JOIN_GAP_SPACES * space_length / step)
    groups += _sweeps(path, space_length, [b for g in groups for b in g])
    groups.sort(key=lambda g: g[0].first % count)
    curves = _curve_turns(path, space_length)
    found = []
    for group in groups:
        turn = sum(abs(b.angle) for b in group)
        radius = min(b.radius for b in group)
        if turn < MIN_CORNER_ANGLE:
            continue
        if radius > FAST_RADIUS_SPACES and turn < FAST_MAX_ANGLE:
            # a fast bend, unless it is the tight part of a long curve (a Parabolica)
            curve = curves[(group[0].first + group[-1].last) // 2 % count]
            if curve < FAST_MAX_ANGLE:
                continue
            turn = max(turn, curve)
        start = float(path.s[group[0].first % count])
        end = start + (group[-1].last - group[0].first) * step
        found.append(FoundCorner(start, end, turn, radius, suggest_stops(turn, radius)))
    taken = np.zeros(count, dtype=bool)
    for corner in found:
        first = int(round(corner.start / step))
        taken[np.arange(first, max(first + 1, int(round(corner.end / step)))) % count] = True
    if not path.drawn:
        # on a digitised lap a bend that is no corner is a fast sweeper, taken flat out; on
        # a drawn one it is a click the blur made a little tight
        taken |= bent
    found += _window_corners(path, space_length, curvature, taken)
    found.sort(key=lambda c: c.start)
    # the printed boards' stop range is that of real circuits, not of a lap drawn freehand
    return found if path.drawn else _balance_stops(found)


def _balance_stops(found: list[FoundCorner]) -> list[FoundCorner]:
    """Stop counts moved towards those of a printed board, :data:`BOARD_STOPS`.

    A board is designed for a race, not measured off the circuit: on a fast lap the
    designers slow its slowest corners, on a slow one they speed up its fastest. Below
    the range, the 1-stop corners slowest by turn over radius get 2 stops, if they
    turn at least :data:`SLOW_ANGLE` and are no wider than :data:`PROMOTE_RADIUS`;
    above it, the fastest corners of 2 or 3 stops lose one.

    >>> fast = [FoundCorner(0, 1, 150, 2.0, 1), FoundCorner(2, 3, 160, 1.5, 1)]
    >>> [c.stops for c in _balance_stops(fast * 4)]  # 8 stops: the 2 slowest get 2
    [1, 2, 1, 2, 1, 1, 1, 1]
    """
    low, high = BOARD_STOPS
    stops = [c.stops for c in found]
    # slowest first: most turn for the tightest radius (the first of equals first)
    order = sorted(range(len(found)), key=lambda i: (-found[i].angle / found[i].radius, i))
    while sum(stops) < low:
        slower = [
            i
            for i in order
            if stops[i] == 1 and found[i].angle >= SLOW_ANGLE and found[i].radius <= PROMOTE_RADIUS
        ]
        if not slower:
            break
        stops[slower[0]] += 1
    while sum(stops) > high:
        faster = [i for i in reversed(order) if stops[i] > 1]
        if not faster:
            break
        stops[faster[0]] -= 1
    return [replace(c, stops=n) if n != c.stops else c for c, n in zip(found, stops, strict=True)]


def _window_turns(path: LapPath, space_length: float) -> tuple[np.ndarray, int]:
    """For every sample, the turn (degrees, signed) of the lap within the window of
    :data:`TURN_WINDOW_SPACES` centred on it; and half the window, in samples."""
    count = len(path.s)
    step = path.length / count
    half = min(count // 2, max(1, int(round(0.5 * TURN_WINDOW_SPACES * space_length / step))))
    turns = path.curvature * step
    padded = np.concatenate([turns[count - half :], turns, turns[:half]])
    cumulative = np.concatenate([[0.0], np.cumsum(padded)])
    # the sum of turns[i - half : i + half] for every i
    return np.degrees(cumulative[2 * half : 2 * half + count] - cumulative[:count]), half


def _window_corners(
    path: LapPath, space_length: float, curvature: np.ndarray, taken: np.ndarray
) -> list[FoundCorner]:
    """Corners where the lap turns :data:`WINDOW_MIN_TURN` or more within
    :data:`TURN_WINDOW_SPACES`, away from the samples ``taken`` (corners found
    already, and on a digitised lap every bend).

    Each run of such windows (one way) reaches half a window beyond its ends; a
    run reaching a taken sample is left out. What the reach turns makes
    one corner, or one per :data:`FAST_MAX_ANGLE` (the lobe of a figure eight),
    each as tight as the tightest radius in it (``curvature``, blurred as for
    bends) and at most :data:`WINDOW_CORNER_SPACES` long around the middle of
    its turn.
    """
    count = len(path.s)
    window, half = _window_turns(path, space_length)
    found = []
    for sign in (1.0, -1.0):
        turning = sign * window >= WINDOW_MIN_TURN
        if turning.all() or not turning.any():
            continue
        # runs whose reaches overlap are one curve (the clicks of a drawn oval's end)
        for a, last in _merged_runs(turning, 2 * half):
            reach = np.arange(a - half, last + half)
            if len(reach) >= count or taken[reach % count].any():
                continue
            peak = float(np.abs(window[np.arange(a, last) % count]).max())
            found += _split_turn(path, space_length, curvature, reach, peak)
    return found


def _merged_runs(mask: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """Runs of True as ``(start, end)`` indices (``end > start``, past the length when
    they wrap), runs fewer than ``gap`` apart merged.

    >>> mask = np.array([1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1], dtype=bool)
    >>> _merged_runs(mask, 2), _merged_runs(mask, 4)
    ([(4, 8), (11, 13)], [(4, 13)])
    """
    count = len(mask)
    runs = [(a, b if b > a else b + count) for a, b in _circular_runs(mask)]
    runs.sort()
    merged: list[tuple[int, int]] = []
    for a, b in runs:
        if merged and a - merged[-1][1] < gap:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    if len(merged) > 1 and merged[0][0] + count - merged[-1][1] < gap:
        first = merged.pop(0)
        merged[-1] = (merged[-1][0], first[1] + count)
    return merged


def _split_turn(
    path: LapPath, space_length: float, curvature: np.ndarray, reach: np.ndarray, peak: float
) -> list[FoundCorner]:
    """The corners of a stretch of samples ``reach`` that turns one way (``peak``
    degrees at least, the most a window in it turns).

    One corner for every :data:`FAST_MAX_ANGLE` it turns (at least one), sharing
    its turn equally; each covers a tenth to nine tenths of its share of the
    turn, at most :data:`WINDOW_CORNER_SPACES` around the middle of it.
    """
    count = len(path.s)
    step = path.length / count
    samples = reach % count
    angle = max(peak, abs(math.degrees(float(path.curvature[samples].sum() * step))))
    pieces = max(1, int(angle // FAST_MAX_ANGLE))
    turned = np.cumsum(np.abs(path.curvature[samples]))
    turned /= max(float(turned[-1]), 1e-12)
    longest = max(2, int(round(WINDOW_CORNER_SPACES * space_length / step)))
    found = []
    for piece in range(pieces):
        first, middle, last = (
            int(np.searchsorted(turned, (piece + share) / pieces)) for share in (0.1, 0.5, 0.9)
        )
        first = min(max(first, middle - longest // 2), len(samples) - 1)
        last = min(max(last, first + 1), first + longest)
        tightest = max(float(np.abs(curvature[samples[first:last]]).max()), 1e-12)
        radius = 1.0 / tightest / space_length
        start = float(path.s[samples[first]])
        turn = angle / pieces
        stops = suggest_stops(turn, radius)
        found.append(FoundCorner(start, start + (last - first) * step, turn, radius, stops))
    return found


def _sweeps(path: LapPath, space_length: float, bends: list[_Bend]) -> list[list[_Bend]]:
    """Long curves turning :data:`FAST_MAX_ANGLE` or more that hold no bend, as corners."""
    count = len(path.s)
    step = path.length / count
    # blurred over a few spaces: the clicks of a hand-drawn curve make one curve
    curvature = gaussian_filter1d(path.curvature, sigma=3 * space_length / step, mode="wrap")
    curved = np.abs(curvature) > 1.0 / (SWEEP_RADIUS_SPACES * space_length)
    if curved.all() or not curved.any():
        return []
    taken = np.zeros(count, dtype=bool)
    for bend in bends:
        taken[np.arange(bend.first, bend.last) % count] = True
    found = []
    for a, b in _circular_runs(curved):
        last = b if b > a else b + count
        indices = np.arange(a, last) % count
        angle = math.degrees(float(path.curvature[indices].sum() * step))
        if abs(angle) >= FAST_MAX_ANGLE and not taken[indices].any():
            radius = 1.0 / float(np.abs(curvature[indices]).max()) / space_length
            found.append([_Bend(a, last, angle, radius)])
    return found


def _curve_turns(path: LapPath, space_length: float) -> np.ndarray:
    """For every sample of the lap, the turn (degrees) of the long curve it lies in: a
    run of curvature tighter than :data:`SWEEP_RADIUS_SPACES`, blurred over a few
    spaces (0 on straights)."""
    count = len(path.s)
    step = path.length / count
    curvature = gaussian_filter1d(path.curvature, sigma=3 * space_length / step, mode="wrap")
    curved = np.abs(curvature) > 1.0 / (SWEEP_RADIUS_SPACES * space_length)
    turns = np.zeros(count)
    if curved.all() or not curved.any():
        return turns
    for a, b in _circular_runs(curved):
        indices = np.arange(a, b if b > a else b + count) % count
        turns[indices] = abs(math.degrees(float(path.curvature[indices].sum() * step)))
    return turns


def _join_bends(bends: list[_Bend], count: int, gap: float) -> list[list[_Bend]]:
    """Bends in groups: neighbours closer than ``gap`` samples, not both big turns."""

    def joins(before: _Bend, after: _Bend, offset: int = 0) -> bool:
        apart = after.first + offset - before.last
        return apart < gap and min(abs(before.angle), abs(after.angle)) < JOIN_MAX_ANGLE

    groups: list[list[_Bend]] = []
    for bend in bends:
        if groups and joins(groups[-1][-1], bend):
            groups[-1].append(bend)
        else:
            groups.append([bend])
    if len(groups) > 1 and joins(groups[-1][-1], groups[0][0], count):
        shifted = [_Bend(b.first + count, b.last + count, b.angle, b.radius) for b in groups[0]]
        groups[-1].extend(shifted)
        groups.pop(0)
    return groups


def _circular_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True as ``(start, end)`` indices (end exclusive, modulo the length)."""
    count = len(mask)
    first_false = int(np.argmin(mask))
    rolled = np.roll(mask, -first_false)
    edges = np.diff(np.concatenate([[0], rolled.astype(int), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    return [
        (int(s + first_false) % count, int(e + first_false) % count)
        for s, e in zip(starts, ends, strict=True)
    ]
