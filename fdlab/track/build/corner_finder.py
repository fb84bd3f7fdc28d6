"""Find the corners of a lap from its curvature and suggest their stop counts.

Calibrated on real circuits against the printed Formula D boards (a median
of 8 corners a board, 64% of them 1-stop, 28% 2-stop, 8% 3-stop): a
*bend* is a stretch tighter than :data:`BEND_RADIUS_SPACES`; bends close
together (a chicane, esses) are one corner; a corner whose tightest bend is
wider than :data:`FAST_RADIUS_SPACES` and that turns less than
:data:`FAST_MAX_ANGLE` is a fast sweeper, taken flat out (no corner); the others get 1-3 stops from how far they turn and how tight
their tightest bend is (:func:`suggest_stops`). Radii are in spaces of the
board being built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.ndimage import gaussian_filter1d

from fdlab.track.build.lap_path import LapPath

#: A stretch tighter than this radius, in spaces, is part of a bend.
BEND_RADIUS_SPACES = 3.0
#: Bends turning less than this (degrees) are kinks of a straight, not corners.
MIN_CORNER_ANGLE = 25.0
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
        positive (a chicane turning 50 degrees each way turns 100).
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
    >>> suggest_stops(180, 0.8), suggest_stops(120, 1.3), suggest_stops(90, 1.2), suggest_stops(35, 2.5)
    (3, 2, 1, 1)
    """
    angle = abs(angle)
    if angle >= 140 and radius <= 1.0:
        return 3
    if (angle >= 100 and radius <= 1.3) or (angle >= 200 and radius <= 2.2):
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
    >>> angles = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    >>> stadium = [(600 * np.cos(a), 30 * np.sin(a)) for a in angles]
    >>> path = LapPath(stadium, step=5.0, smoothing=10.0, min_radius=0.0)
    >>> [(c.angle > 120, c.stops) for c in find_corners(path, 40.0)]  # two hairpins
    [(True, 3), (True, 3)]
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
    return sorted(found, key=lambda c: c.start)


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
