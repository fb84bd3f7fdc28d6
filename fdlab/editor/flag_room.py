"""Room on screen for the corner flags and the verdict's marks: labels that do not pile up.

A corner's flag (``#4 2⚑ 9/6``) stands a fixed number of pixels outside its
corner, and the verdict's mark (``⚠ 67% overshot``) under it. Where corners
lie close together on screen, as at Monaco's harbour, the labels at their
first distance cover each other and the track. :func:`spread_labels` moves
each label, in turn, to the nearest place round its corner that covers no
label placed before it and as little of the track as it can: a few tries
per label, in plain Python, well within an edit's time.

Positions are worked out for the board as the editor first shows it (the
whole board in a plot :data:`FITTED_WIDTH` by :data:`FITTED_HEIGHT` pixels,
:func:`fitted_scale`); zoomed in, labels only move apart.

Examples
--------
>>> anchors = [(0.0, 0.0), (10.0, 0.0)]  # two corners 10 px apart, flags pointing up
>>> offsets = spread_labels(anchors, [(0.0, 1.0), (0.0, 1.0)], ["#1 1", "#2 1"],
...                         ["center", "center"], points=[])
>>> offsets[0], offsets[1] != offsets[0]
((0.0, -22.0), True)
>>> frame = LabelBox(-100.0, -10.0, 100.0, 100.0)  # no room above: the label goes below
>>> spread_labels([(0.0, 0.0)], [(0.0, 1.0)], ["#1"], ["center"], points=[], frame=frame)
[(0.0, 22.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "FITTED_HEIGHT",
    "FITTED_WIDTH",
    "LabelBox",
    "fitted_frame",
    "fitted_scale",
    "spread_labels",
]

#: Width (pixels) of the editor's plot on a laptop screen (1366 x 768), a little under.
FITTED_WIDTH = 740
#: Height (pixels) of the plot's frame: the toolbar above it and the legend below left out.
FITTED_HEIGHT = 390
#: How much larger than the board the plot's range is (its ``range_padding``: a share of the extent, half on each side).
PADDING = 0.08
#: Average advance of a character of the 10 px labels (pixels), and a label's height.
CHAR_PX = 6.0
LINE_PX = 14.0
#: Distances (pixels, along the corner's outward direction) a label may stand at, and
#: the shifts across it: tried nearest first.
DISTANCES = (22.0, 34.0, 48.0, 64.0)
SHIFTS = (0.0, 16.0, -16.0, 32.0, -32.0)
#: A place across the corner (inside its turn) counts as this many pixels farther.
ACROSS_PX = 60.0
#: What a candidate place costs: per pixel from the anchor, per track space covered,
#: and per square pixel of another label covered (never worth it).
PER_PIXEL = 0.05
PER_SPACE = 1.0
PER_OVERLAP = 10.0


@dataclass(frozen=True)
class LabelBox:
    """A label's rectangle on screen (pixels; y grows downwards)."""

    left: float
    top: float
    right: float
    bottom: float

    @classmethod
    def of(cls, x: float, y: float, text: str, align: str) -> LabelBox:
        """The box of ``text`` drawn at ``(x, y)`` with ``align`` and a middle baseline.

        Examples
        --------
        >>> LabelBox.of(100.0, 50.0, "abc", "left")
        LabelBox(left=100.0, top=43.0, right=124.0, bottom=57.0)
        """
        width = len(text) * CHAR_PX + 6.0  # the background's padding
        left = x if align == "left" else x - width if align == "right" else x - width / 2
        return cls(left, y - LINE_PX / 2, left + width, y + LINE_PX / 2)

    def overlap(self, other: LabelBox) -> float:
        """Area (square pixels) this box shares with ``other``.

        Examples
        --------
        >>> LabelBox(0, 0, 10, 10).overlap(LabelBox(5, 5, 20, 20))
        25.0
        """
        wide = min(self.right, other.right) - max(self.left, other.left)
        tall = min(self.bottom, other.bottom) - max(self.top, other.top)
        return float(max(wide, 0.0) * max(tall, 0.0))

    @property
    def area(self) -> float:
        """Square pixels."""
        return (self.right - self.left) * (self.bottom - self.top)

    def covers(self, points: NDArray[np.float64]) -> int:
        """How many of ``points`` (an ``(n, 2)`` array of pixels) lie inside this box."""
        if not len(points):
            return 0
        xs, ys = points[:, 0], points[:, 1]
        inside = (xs >= self.left) & (xs <= self.right) & (ys >= self.top) & (ys <= self.bottom)
        return int(np.count_nonzero(inside))


def fitted_scale(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pixels per metre of a board whose spaces are at ``xs``, ``ys`` when the whole of it
    is shown in the editor's plot (:data:`FITTED_WIDTH` by :data:`FITTED_HEIGHT`).

    Examples
    --------
    >>> round(fitted_scale([0.0, 1000.0], [0.0, 200.0]), 3)
    0.685
    """
    if not len(xs):
        return 1.0
    wide = (max(xs) - min(xs)) * (1 + PADDING)
    tall = (max(ys) - min(ys)) * (1 + PADDING)
    return min(
        FITTED_WIDTH / wide if wide else math.inf, FITTED_HEIGHT / tall if tall else math.inf, 1e3
    )


def fitted_frame(points: NDArray[np.float64]) -> LabelBox:
    """The plot's frame (pixels) round a board's spaces ``points`` shown whole, at the
    scale of :func:`fitted_scale`: the board in the middle.

    Examples
    --------
    >>> fitted_frame(np.array([[0.0, 0.0], [100.0, 50.0]]))
    LabelBox(left=-320.0, top=-170.0, right=420.0, bottom=220.0)
    """
    if not len(points):
        return LabelBox(0.0, 0.0, FITTED_WIDTH, FITTED_HEIGHT)
    cx = float(points[:, 0].min() + points[:, 0].max()) / 2
    cy = float(points[:, 1].min() + points[:, 1].max()) / 2
    half_wide, half_tall = FITTED_WIDTH / 2, FITTED_HEIGHT / 2
    return LabelBox(cx - half_wide, cy - half_tall, cx + half_wide, cy + half_tall)


def spread_labels(
    anchors: Sequence[tuple[float, float]],
    outward: Sequence[tuple[float, float]],
    texts: Sequence[str],
    aligns: Sequence[str],
    *,
    points: Sequence[tuple[float, float]] | NDArray[np.float64],
    placed: Sequence[LabelBox] = (),
    below: Sequence[float] | None = None,
    frame: LabelBox | None = None,
) -> list[tuple[float, float]]:
    """Screen offsets for labels round their anchors, each clear of those placed before.

    Parameters
    ----------
    anchors : sequence of (x, y)
        Where each label belongs, in pixels (y grows downwards).
    outward : sequence of (ux, uy)
        The unit direction, in the board's axes (y up), a label moves away in.
    texts, aligns : sequence of str
        The labels and their alignment (``"left"``, ``"center"``, ``"right"``).
    points : array of (x, y)
        The track's spaces in pixels: a label covers as few as it can.
    placed : sequence of LabelBox
        Labels already there, which no label may cover (when it can help it).
    below : sequence of float, optional
        Per label, a first offset straight down from its anchor (pixels) to try
        before the others: the verdict's mark under its corner's flag.
    frame : LabelBox, optional
        The plot's frame: a label stays inside it when it can (one cut by the
        frame's edge cannot be read).

    Returns
    -------
    list of (ox, oy)
        Offsets in pixels for Bokeh's ``x_offset`` and ``y_offset``.

    Examples
    --------
    >>> spread_labels([(0.0, 0.0)], [(1.0, 0.0)], ["#1"], ["left"], points=[])
    [(22.0, 0.0)]
    """
    track = np.asarray(points, dtype=float).reshape(-1, 2)
    boxes = list(placed)
    offsets = []
    for k, ((x, y), (ux, uy), text, align) in enumerate(
        zip(anchors, outward, texts, aligns, strict=True)
    ):
        sx, sy = ux, -uy  # the direction on screen
        # outward first; across the corner only when nothing outward is free (the frame's edge)
        ahead = [(d, 0.0) for d in DISTANCES] + [(-d, ACROSS_PX) for d in DISTANCES]
        tries = [(d * sx - s * sy, d * sy + s * sx, extra) for d, extra in ahead for s in SHIFTS]
        if below is not None:
            tries = [(0.0, below[k], 0.0), (0.0, -below[k], 0.0), *tries]
        best: tuple[float, tuple[float, float], LabelBox] | None = None
        for ox, oy, extra in tries:
            box = LabelBox.of(x + ox, y + oy, text, align)
            covered = sum(box.overlap(b) for b in boxes)
            if frame is not None:
                covered += box.area - box.overlap(frame)
            cost = PER_PIXEL * (math.hypot(ox, oy) + extra) + PER_OVERLAP * covered
            if best is not None and cost >= best[0]:
                continue
            cost += PER_SPACE * box.covers(track)
            if best is None or cost < best[0]:
                best = (cost, (ox, oy), box)
        assert best is not None  # there is always a first try
        offsets.append(best[1])
        boxes.append(best[2])
    return offsets
