"""Placing corner flags on screen so they neither cover each other nor the track."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

ScreenPoint = tuple[float, float]

#: Half the width and half the height of a flag with its counts, in pixels.
FLAG_HALF_SIZE = (20.0, 17.0)

#: Turns (radians) tried around a flag's own direction, nearest first.
_TURNS = (0.0, 0.45, -0.45, 0.9, -0.9, 1.35, -1.35, math.pi)


class _Points:
    """Screen points in two arrays, to count those inside a box quickly."""

    def __init__(self, points: Sequence[ScreenPoint] | NDArray[np.float64]) -> None:
        array = np.asarray(points, dtype=float).reshape(-1, 2)
        self.xs = array[:, 0]
        self.ys = array[:, 1]

    def count(self, x: float, y: float, half_w: float, half_h: float) -> int:
        inside = (np.abs(self.xs - x) < half_w) & (np.abs(self.ys - y) < half_h)
        return int(np.count_nonzero(inside))


def track_points(data: dict[str, list[Any]]) -> NDArray[np.float64]:
    """Centres and outline corners of every space of :func:`fdlab.plot.board_data`.

    The points a flag must not cover: with the corners, a flag cannot hide
    between the centres of big spaces.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, 2)``: the centres first, then every outline point.

    Examples
    --------
    >>> track_points({"x": [0.5], "y": [0.5], "xs": [[0, 1, 1, 0]], "ys": [[0, 0, 1, 1]]}).tolist()
    [[0.5, 0.5], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    """
    xs = np.concatenate([np.asarray(data["x"], dtype=float), *map(np.asarray, data["xs"])])
    ys = np.concatenate([np.asarray(data["y"], dtype=float), *map(np.asarray, data["ys"])])
    return np.column_stack([xs, ys]) if len(xs) else np.zeros((0, 2))


def place_flags(
    anchors: Sequence[ScreenPoint],
    directions: Sequence[ScreenPoint],
    obstacles: Sequence[ScreenPoint] | NDArray[np.float64],
    *,
    start: float,
    step: float = 12.0,
    tries: int = 8,
    clamp: Callable[[float, float], ScreenPoint] | None = None,
) -> list[ScreenPoint]:
    """Screen positions of corner flags, moved until they stand clear.

    Each flag starts ``start`` pixels from its anchor (the corner point) along
    its direction (a unit vector, y down). Candidates further out (by
    ``step``) and turned a little either way are tried, nearest first, until
    the flag's box covers no flag placed before it and no obstacle point (the
    space centres); failing that, the candidate with the fewest conflicts wins.

    Parameters
    ----------
    anchors, directions : sequences of (x, y)
        Screen points of the corners and unit vectors pointing off the track.
    obstacles : sequence of (x, y) or array of shape (n, 2)
        Screen points a flag should not cover.
    start, step : float
        First distance from the anchor and the distance added per try, in pixels.
    tries : int
        Distances tried per direction.
    clamp : callable, optional
        Maps a candidate position to an allowed one (e.g. inside the picture).

    Returns
    -------
    list of (x, y)
        The centre of each flag, in the order of ``anchors``.

    Examples
    --------
    >>> # the second flag would cover the first: it goes to the other side
    >>> place_flags([(0.0, 0.0), (0.0, 0.0)], [(0.0, -1.0), (0.0, -1.0)], [], start=30.0)
    [(0.0, -30.0), (0.0, 30.0)]
    """
    half_w, half_h = FLAG_HALF_SIZE
    blocked = _Points(obstacles)
    placed: list[ScreenPoint] = []
    for (ax, ay), (dx, dy) in zip(anchors, directions, strict=True):
        best: tuple[int, ScreenPoint] | None = None
        for attempt in range(tries):
            reach = start + attempt * step
            for turn in _TURNS:
                cos, sin = math.cos(turn), math.sin(turn)
                fx = ax + (dx * cos - dy * sin) * reach
                fy = ay + (dx * sin + dy * cos) * reach
                if clamp is not None:
                    fx, fy = clamp(fx, fy)
                conflicts = 10 * sum(
                    1 for x, y in placed if abs(fx - x) < 2 * half_w and abs(fy - y) < 2 * half_h
                )
                if best is not None and conflicts >= best[0]:
                    continue
                conflicts += blocked.count(fx, fy, half_w, half_h)
                if best is None or conflicts < best[0]:
                    best = (conflicts, (round(fx, 3), round(fy, 3)))
                if conflicts == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None, "tries must be at least 1"
        placed.append(best[1])
    return placed
