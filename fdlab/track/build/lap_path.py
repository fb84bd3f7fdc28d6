"""A closed centreline resampled, smoothed and measured by arc length.

Board cells are built from points and normals of this path (never from
``shapely.offset_curve``, which is unreliable on closed loops), so space i of
every lane stays aligned.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.ndimage import gaussian_filter1d
from scipy.spatial import cKDTree

#: A lap whose median segment is longer than this many times the base smoothing was
#: drawn with a few clicks (not digitised from a circuit): its blur is ...
LONG_SEGMENT_FACTOR = 8.0
#: ... this share of the median segment ...
VERTEX_SMOOTHING = 0.25
#: ... but at most this many times the path's base smoothing.
MAX_SMOOTHING_FACTOR = 6.0


def resample_closed(points: np.ndarray | Sequence[Sequence[float]], step: float) -> np.ndarray:
    """Evenly spaced points along a closed polyline, about ``step`` apart.

    Examples
    --------
    >>> resample_closed([(0, 0), (4, 0), (4, 4), (0, 4)], 2.0).shape
    (8, 2)
    """
    xy = np.asarray(points, dtype=float)
    closed = np.vstack([xy, xy[:1]])
    cumulative = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(closed, axis=0).T))])
    total = cumulative[-1]
    count = max(8, int(round(total / step)))
    targets = np.arange(count) * (total / count)
    return np.column_stack(
        [np.interp(targets, cumulative, closed[:, 0]), np.interp(targets, cumulative, closed[:, 1])]
    )


def turning_curvature(xy: np.ndarray) -> np.ndarray:
    """Signed curvature (1/m, left turns positive) at each point of an evenly spaced loop.

    Examples
    --------
    >>> angles = np.linspace(0, 2 * np.pi, 200, endpoint=False)
    >>> circle = np.column_stack([10 * np.cos(angles), 10 * np.sin(angles)])
    >>> round(float(turning_curvature(circle).mean()), 3)
    0.1
    """
    segments = np.roll(xy, -1, axis=0) - xy
    headings = np.arctan2(segments[:, 1], segments[:, 0])
    turns = np.angle(np.exp(1j * (headings - np.roll(headings, 1))))
    lengths = np.hypot(segments[:, 0], segments[:, 1])
    curvature: np.ndarray = turns / (0.5 * (lengths + np.roll(lengths, 1)))
    return curvature


class LapPath:
    """A smoothed closed centreline with positions, normals and curvature by arc length.

    Parameters
    ----------
    points : array-like of (x, y)
        The closed centreline in metres, in the direction of travel.
    step : float
        Sampling distance in metres.
    smoothing : float
        Standard deviation (metres) of a Gaussian blur that removes the
        corners of a digitised polyline. For a lap drawn with a few clicks
        (long segments, :data:`LONG_SEGMENT_FACTOR`) the blur widens to
        :data:`VERTEX_SMOOTHING` of the typical segment, up to
        :data:`MAX_SMOOTHING_FACTOR` times ``smoothing``: a vertex turning a
        little between two long segments becomes a gentle curve, not a sharp
        kink (only real bends become corners).
    min_radius : float
        Bends tighter than this radius are eased locally, so that lanes
        offset by up to about this distance stay free of folds.
    separation : float, optional
        Parts of the lap that run side by side (the legs of a hairpin, two
        neighbouring straights) are pushed apart until their centrelines are
        at least this far apart. Crossings (figure eights) are left alone.

    Examples
    --------
    >>> square = [(0, 0), (100, 0), (100, 100), (0, 100)]
    >>> path = LapPath(square, step=2.0, smoothing=5.0, min_radius=10.0)
    >>> bool(1 / abs(path.curvature).max() > 8.0)  # radius of the rounded corners, metres
    True
    >>> round(path.length / 400, 1)  # four clicks: blurred over its sides, so rounder and shorter
    0.8
    >>> path.drawn  # a lap of a few clicks
    True
    """

    #: Whether the lap was drawn with a few clicks (its typical segment longer than
    #: :data:`LONG_SEGMENT_FACTOR` times the smoothing), not digitised from a circuit:
    #: its bends are where the clicks turn, whatever radius the blur gives them.
    drawn: bool

    def __init__(
        self,
        points: np.ndarray | Sequence[Sequence[float]],
        *,
        step: float,
        smoothing: float,
        min_radius: float,
        separation: float = 0.0,
    ) -> None:
        self.drawn = _drawn(points, smoothing)
        xy = resample_closed(points, step)
        start = xy[0].copy()
        if smoothing > 0:
            xy = gaussian_filter1d(
                xy, sigma=_blur_width(points, smoothing) / step, axis=0, mode="wrap"
            )
        xy = _make_room(xy, step, min_radius, separation)
        # keep the finish line where the centreline starts
        nearest = int(np.argmin(np.hypot(*(xy - start).T)))
        xy = resample_closed(np.roll(xy, -nearest, axis=0), step)
        self.xy = xy
        segments = np.roll(xy, -1, axis=0) - xy
        lengths = np.hypot(segments[:, 0], segments[:, 1])
        #: arc length at each sample, and the lap length
        self.s = np.concatenate([[0.0], np.cumsum(lengths)[:-1]])
        self.length = float(lengths.sum())
        tangents = np.roll(xy, -1, axis=0) - np.roll(xy, 1, axis=0)
        tangents /= np.hypot(tangents[:, 0], tangents[:, 1])[:, None]
        self.normals = np.column_stack([-tangents[:, 1], tangents[:, 0]])
        self.curvature = turning_curvature(xy)
        self._s_closed = np.concatenate([self.s, [self.length]])

    def _interp(self, s: np.ndarray, values: np.ndarray) -> np.ndarray:
        closed = np.concatenate([values, values[:1]])
        interpolated: np.ndarray = np.interp(np.mod(s, self.length), self._s_closed, closed)
        return interpolated

    def position(self, s: np.ndarray) -> np.ndarray:
        """Points ``(n, 2)`` of the centreline at arc lengths ``s`` (wrapping)."""
        s = np.asarray(s, dtype=float)
        return np.column_stack([self._interp(s, self.xy[:, 0]), self._interp(s, self.xy[:, 1])])

    def normal(self, s: np.ndarray) -> np.ndarray:
        """Unit left normals ``(n, 2)`` at arc lengths ``s``."""
        s = np.asarray(s, dtype=float)
        raw = np.column_stack(
            [self._interp(s, self.normals[:, 0]), self._interp(s, self.normals[:, 1])]
        )
        unit: np.ndarray = raw / np.hypot(raw[:, 0], raw[:, 1])[:, None]
        return unit

    def offset(self, s: np.ndarray, distance: float | np.ndarray) -> np.ndarray:
        """Points at arc lengths ``s`` moved ``distance`` metres to the left.

        Examples
        --------
        >>> path = LapPath([(0, 0), (400, 0), (400, 400), (0, 400)], step=4.0,
        ...                smoothing=0.0, min_radius=0.0)
        >>> [round(float(v)) for v in path.offset([200.0], 10.0)[0]]  # 10 m left of the bottom side
        [200, 10]
        """
        s = np.asarray(s, dtype=float)
        distances = np.asarray(distance, dtype=float).reshape(-1, 1)
        moved: np.ndarray = self.position(s) + distances * self.normal(s)
        return moved

    def offset_arc(self, distance: float) -> np.ndarray:
        """Cumulative length of the curve ``distance`` to the left, at ``self.s`` and the lap end."""
        pts = self.xy + distance * self.normals
        closed = np.vstack([pts, pts[:1]])
        return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(closed, axis=0).T))])

    def samples_between(self, start: float, end: float) -> np.ndarray:
        """Arc lengths from ``start`` to ``end`` (``end > start``, may pass the lap end), with samples between.

        Examples
        --------
        >>> path = LapPath([(0, 0), (40, 0), (40, 40), (0, 40)], step=4.0,
        ...                smoothing=0.0, min_radius=0.0)
        >>> [float(v) for v in path.samples_between(158.0, 166.0)]
        [158.0, 160.0, 164.0, 166.0]
        """
        first = int(np.searchsorted(self.s, start % self.length, side="right"))
        base = start - (start % self.length)
        inner = []
        k = first
        while True:
            lap, index = divmod(k, len(self.s))
            value = base + lap * self.length + self.s[index]
            if value >= end:
                break
            inner.append(value)
            k += 1
        return np.array([start, *inner, end])


def _typical_segment(points: np.ndarray | Sequence[Sequence[float]]) -> float:
    """Median length of the segments of a closed polyline."""
    xy = np.asarray(points, dtype=float)
    segments = np.hypot(*np.diff(np.vstack([xy, xy[:1]]), axis=0).T)
    return float(np.median(segments))


def _drawn(points: np.ndarray | Sequence[Sequence[float]], smoothing: float) -> bool:
    """Whether a lap was drawn with a few clicks: its median segment is longer than
    :data:`LONG_SEGMENT_FACTOR` times ``smoothing`` (and ``smoothing`` is positive).

    Examples
    --------
    >>> _drawn([(0, 0), (5, 0), (5, 5), (0, 5)], 2.0), _drawn([(0, 0), (400, 0), (0, 400)], 2.0)
    (False, True)
    """
    return smoothing > 0 and _typical_segment(points) > LONG_SEGMENT_FACTOR * smoothing


def _blur_width(points: np.ndarray | Sequence[Sequence[float]], smoothing: float) -> float:
    """Width (metres) of the blur of a drawn lap: ``smoothing``, or wider for a lap of a few
    clicks (its median segment longer than :data:`LONG_SEGMENT_FACTOR` times ``smoothing``).

    Examples
    --------
    >>> _blur_width([(0, 0), (5, 0), (5, 5), (0, 5)], 2.0)  # a digitised line
    2.0
    >>> _blur_width([(0, 0), (400, 0), (400, 400), (0, 400)], 2.0)  # four clicks
    12.0
    """
    if not _drawn(points, smoothing):
        return smoothing
    typical = _typical_segment(points)
    return float(np.clip(VERTEX_SMOOTHING * typical, smoothing, MAX_SMOOTHING_FACTOR * smoothing))


def _make_room(
    xy: np.ndarray, step: float, min_radius: float, separation: float, passes: int = 60
) -> np.ndarray:
    """Ease bends tighter than ``min_radius`` and push apart parts closer than ``separation``.

    Tight bends are blurred locally; side-by-side parts of the lap (nearly
    parallel or antiparallel, and far apart along the lap) repel each other.
    Moves are spread smoothly along the lap, a little each pass, so the
    circuit keeps its shape away from the places that needed room.
    """
    if min_radius <= 0 and separation <= 0:
        return xy
    reach = max(1, int(round(max(min_radius, 1e-9) / step)))
    for _ in range(passes):
        count = len(xy)
        delta = np.zeros_like(xy)
        curvature = gaussian_filter1d(turning_curvature(xy), sigma=reach / 4, mode="wrap")
        tight = np.abs(curvature) > 1.0 / min_radius if min_radius > 0 else np.zeros(count, bool)
        crowded = False
        if separation > 0:
            tangents = np.roll(xy, -1, axis=0) - np.roll(xy, 1, axis=0)
            tangents /= np.hypot(tangents[:, 0], tangents[:, 1])[:, None]
            pairs = cKDTree(xy).query_pairs(separation, output_type="ndarray")
            if len(pairs):
                i, j = pairs[:, 0], pairs[:, 1]
                apart = np.abs(i - j)
                apart = np.minimum(apart, count - apart) * step
                aligned = np.abs((tangents[i] * tangents[j]).sum(axis=1)) > 0.5
                keep = (apart > np.pi * max(min_radius, separation / 2) * 1.1) & aligned
                i, j = i[keep], j[keep]
                if len(i):
                    crowded = True
                    diff = xy[i] - xy[j]
                    dist = np.maximum(np.hypot(diff[:, 0], diff[:, 1]), 1e-6)
                    push = (diff / dist[:, None]) * ((separation - dist) * 0.25)[:, None]
                    np.add.at(delta, i, push)
                    np.add.at(delta, j, -push)
                    hits = np.bincount(np.concatenate([i, j]), minlength=count)
                    delta /= np.maximum(hits, 1)[:, None]
                    delta = gaussian_filter1d(delta, sigma=reach / 2, axis=0, mode="wrap") * 2.0
        if not tight.any() and not crowded:
            break
        if tight.any():
            weight = gaussian_filter1d(tight.astype(float), sigma=reach, mode="wrap")
            weight = np.clip(weight * 3.0, 0.0, 1.0)[:, None]
            blurred = gaussian_filter1d(xy, sigma=reach / 4, axis=0, mode="wrap")
            delta += weight * (blurred - xy)
        xy = resample_closed(xy + delta, step)
    return xy
