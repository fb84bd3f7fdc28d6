"""Find the corners of a lap from its curvature and suggest their stop counts."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.ndimage import gaussian_filter1d

from fdlab.track.build.lap_path import LapPath

#: A bend tighter than this radius, in spaces, is part of a corner.
CORNER_RADIUS_SPACES = 3.0
#: Bends turning less than this (degrees) are kinks of a straight, not corners.
MIN_CORNER_ANGLE = 25.0


@dataclass(frozen=True)
class FoundCorner:
    """A corner found on a lap.

    Attributes
    ----------
    start, end : float
        Arc lengths (metres) of the corner's entry and exit lines; ``end`` may
        exceed the lap length when the corner wraps past the lap start.
    angle : float
        Signed total turn in degrees (left turns positive).
    radius : float
        Mean radius of the bend, in spaces (arc length over angle).
    stops : int
        Suggested stop count, from :func:`suggest_stops`.
    """

    start: float
    end: float
    angle: float
    radius: float
    stops: int


def suggest_stops(angle: float, radius: float) -> int:
    """A stop count (1-3) for a corner turning ``angle`` degrees with mean ``radius`` in spaces.

    Hairpins (a half turn or more, tight) get 3, sharp or long corners 2,
    fast kinks and sweepers 1.

    Examples
    --------
    >>> suggest_stops(180, 1.5), suggest_stops(90, 2.0), suggest_stops(35, 2.5)
    (3, 2, 1)
    """
    angle = abs(angle)
    if angle >= 130 and radius <= 2.6:
        return 3
    if (angle >= 70 and radius <= 3.0) or angle >= 150:
        return 2
    return 1


def find_corners(path: LapPath, space_length: float) -> list[FoundCorner]:
    """The corners of a lap in running order, from the lap start.

    A corner is a stretch where the (lightly smoothed) centreline bends
    tighter than :data:`CORNER_RADIUS_SPACES` spaces; neighbouring bends the
    same way with less than a space between them are one corner, and bends
    turning less than :data:`MIN_CORNER_ANGLE` degrees are ignored.

    Examples
    --------
    >>> angles = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    >>> stadium = [(600 * np.cos(a), 60 * np.sin(a)) for a in angles]
    >>> path = LapPath(stadium, step=5.0, smoothing=10.0, min_radius=0.0)
    >>> [(c.angle > 120, c.stops) for c in find_corners(path, 40.0)]  # two hairpins
    [(True, 3), (True, 3)]
    """
    step = path.length / len(path.s)
    curvature = gaussian_filter1d(path.curvature, sigma=0.5 * space_length / step, mode="wrap")
    bent = np.abs(curvature) > 1.0 / (CORNER_RADIUS_SPACES * space_length)
    if bent.all() or not bent.any():
        return []
    runs = _circular_runs(bent)
    sign = [
        float(np.sign(np.take(curvature, np.arange(a, b), mode="wrap").sum()))
        for a, b in _unwrapped(runs, len(bent))
    ]
    merged: list[list[int]] = []
    for (a, b), direction in zip(runs, sign, strict=True):
        if merged:
            previous = merged[-1]
            gap = (a - previous[1]) % len(bent)
            if previous[2] == direction and gap * step < space_length:
                previous[1] = b
                continue
        merged.append([a, b, direction])
    if len(merged) > 1:
        first, last = merged[0], merged[-1]
        gap = (first[0] - last[1]) % len(bent)
        if first[2] == last[2] and gap * step < space_length:
            merged[0] = [last[0], first[1], first[2]]
            merged.pop()
    found = []
    count = len(bent)
    for a, b, _ in merged:
        indices = np.arange(a, a + ((b - a) % count or count)) % count
        angle = math.degrees(float(path.curvature[indices].sum() * step))
        if abs(angle) < MIN_CORNER_ANGLE:
            continue
        start = float(path.s[a])
        end = start + len(indices) * step
        radius = (end - start) / max(math.radians(abs(angle)), 1e-9) / space_length
        found.append(FoundCorner(start, end, angle, radius, suggest_stops(angle, radius)))
    return sorted(found, key=lambda c: c.start)


def _circular_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True as ``(start, end)`` indices (end exclusive, modulo the length)."""
    count = len(mask)
    first_false = int(np.argmin(mask))
    rolled = np.roll(mask, -first_false)
    edges = np.diff(np.concatenate([[0], rolled.astype(int), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    return [
        ((s + first_false) % count, (e + first_false) % count)
        for s, e in zip(starts, ends, strict=True)
    ]


def _unwrapped(runs: list[tuple[int, int]], count: int) -> list[tuple[int, int]]:
    return [(a, b if b > a else b + count) for a, b in runs]
