"""The lap cut into stretches (straights and corners), and progress along them.

A :class:`_Stretch` covers arc lengths (metres) of the builder's lap path and
knows how many columns of spaces it holds and the progress (spaces from the
finish line) where it starts. Names with a leading underscore are the
builder's own, shared between the modules of :mod:`fdlab.track.build`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fdlab.track.build.corner_fit import REFERENCE_SPACES_PER_LAP, outside_spread, spaces_needed
from fdlab.track.build.spec import BuildSpec

#: Tolerance (metres) when comparing arc lengths.
_EPS = 1e-6


@dataclass
class _Stretch:
    start: float
    end: float
    corner: int | None
    lanes: int
    columns: int
    progress: float
    #: Spaces the outside lane of a corner holds beyond its inside lane ...
    spread: int = 0
    #: ... and spaces its inside lane holds at most (None: its length in spaces).
    inside: int | None = None


def _lap_stretches(
    spec: BuildSpec,
    corners: list[tuple[float, float, int, str | None]],
    lap: float,
    space_length: float,
    extra: list[int] | None = None,
) -> list[_Stretch]:
    """The lap cut into straights and corners; ``extra`` are the spaces each corner's
    inside lane needs beyond :func:`~fdlab.track.build.corner_fit.spaces_needed`."""
    bounds: list[tuple[float, float, int | None]] = []
    cursor = 0.0
    for number, (start, end, _, _) in enumerate(corners, start=1):
        if start > cursor:
            bounds.append((cursor, start, None))
        bounds.append((start, end, number))
        cursor = end
    bounds.append((cursor, lap, None))
    # a straight too short for one space between two corners goes to its neighbours
    merged: list[list[Any]] = []
    for index, (start, end, corner) in enumerate(bounds):
        inner = 0 < index < len(bounds) - 1
        if corner is None and inner and end - start < 0.5 * space_length:
            merged[-1][1] = 0.5 * (start + end)
            bounds[index + 1] = (0.5 * (start + end), *bounds[index + 1][1:])
            continue
        merged.append([start, end, corner])
    # lane counts change on straights where the designer's stretches begin and end
    edges = sorted(
        {x * lap for stretch, _ in spec.lane_counts for x in (stretch.start, stretch.end)}
    )
    pieces: list[list[Any]] = []
    for start, end, corner in merged:
        inside = (
            []
            if corner is not None
            else [x for x in edges if start + 0.5 * space_length < x < end - 0.5 * space_length]
        )
        for low, high in zip([start, *inside], [*inside, end], strict=True):
            pieces.append([low, high, corner])
    stretches = []
    progress = 0.0
    scale = spec.centreline.length / space_length / REFERENCE_SPACES_PER_LAP
    for start, end, corner in pieces:
        middle = 0.5 * (start + end) / lap
        lanes = next((n for s, n in spec.lane_counts if s.contains(middle)), spec.lanes)
        columns = max(1, int(round((end - start) / space_length)))
        stretch = _Stretch(start, end, corner, lanes, columns, progress)
        if corner is not None:
            stops = corners[corner - 1][2]
            stretch.spread = outside_spread(stops, scale)
            stretch.inside = spaces_needed(stops, scale) + (extra[corner - 1] if extra else 0)
        stretches.append(stretch)
        progress += columns
    return stretches


def _progress_at(stretches: list[_Stretch], position: float, lap: float) -> float:
    """Progress (in spaces from the finish line) of an arc length on the centreline."""
    for stretch in stretches:
        if stretch.start - _EPS <= position <= stretch.end + _EPS:
            share = (position - stretch.start) / (stretch.end - stretch.start)
            return stretch.progress + stretch.columns * share
    return float(sum(s.columns for s in stretches))


def _progress_span(stretches: list[_Stretch], low: float, high: float, lap: float) -> float:
    """Progress (spaces) from arc length ``low`` on to ``high``, less than a lap later."""
    lap_length = float(sum(s.columns for s in stretches))
    rise = _progress_at(stretches, high % lap, lap) - _progress_at(stretches, low % lap, lap)
    return rise % lap_length
