"""Does a lap have as many corners as a printed board? Problems for the validator.

A board drawn with a few clicks, or built from a circuit of long sweepers,
may come out with no corner at all, or with two or three where the printed
Formula D boards have 4 to 12 (8 on most):
a lap with no corner never makes a car stop, and one with few corners is
decided by the dice on its straights. :func:`corner_count_problems` names
both cases and tells the designer what to do.

The validator reports them on a closed lap of at least
:data:`MIN_LAP_SPACES` spaces (smaller boards are lessons and tests, not
circuits to print).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

from fdlab.track.schema import is_finite_number

if TYPE_CHECKING:
    from fdlab.track.model import CornerId, Track

__all__ = [
    "CORNER_COUNT_CHECKS",
    "MAX_CORNERS",
    "MIN_LAP_SPACES",
    "MIN_CORNERS",
    "TYPICAL_CORNERS",
    "CornerCountProblem",
    "corner_count_problems",
]

#: Fewest corners a printed board has (47 boards: 4 to 12 corners) ...
MIN_CORNERS = 4
#: ... the most ...
MAX_CORNERS = 12
#: ... and how many most of them have (the median).
TYPICAL_CORNERS = 8

#: Shortest lap (in spaces of progress) the corner count is checked on.
MIN_LAP_SPACES = 40

#: What the designer can do about a lap with too few corners.
ADVICE = (
    "select the spaces of a bend and click Make corner, "
    "or draw more points in the bends and rebuild"
)

#: Every problem code :func:`corner_count_problems` reports, with what it means.
CORNER_COUNT_CHECKS: dict[str, str] = {
    "no_corner": "a lap with no corner: no car ever has to stop",
    "few_corners": f"a lap with fewer corners than a printed board has ({MIN_CORNERS})",
}


class CornerCountProblem(NamedTuple):
    """One problem: a code of :data:`CORNER_COUNT_CHECKS`, what to do, and the spaces to show.

    A plain tuple ``(code, message, spaces)``, in the order of the validator's
    ``Problem`` fields: ``Problem(*problem)`` makes one.
    """

    code: str
    message: str
    spaces: tuple[Any, ...] = ()


def corner_count_problems(track: Track, minimum: int = MIN_CORNERS) -> list[CornerCountProblem]:
    """Problems of a lap with no corner, or with fewer than ``minimum`` corners.

    Parameters
    ----------
    track : Track
        The board. Corners are counted on its ``track`` spaces (a corner
        record no space belongs to is the validator's ``corner_empty``).
    minimum : int
        Fewest corners a lap should have: :data:`MIN_CORNERS`, the fewest a
        printed board has.

    Returns
    -------
    list of CornerCountProblem
        Empty when the lap has ``minimum`` corners or more, or no track
        spaces at all (an empty board is the validator's ``empty``).
        ``no_corner`` names no spaces; ``few_corners`` names the spaces of
        the longest stretch of the lap without a corner (by ``progress``),
        where another corner most likely belongs.

    Examples
    --------
    >>> ring = from_ascii('''
    ...     . . 1 1 . . 2 2 . . . . . . . .
    ...     . . 1 1 . . 2 2 . . . . . . . .
    ... ''', corners={1: 1, 2: {"stops": 3, "name": "Hairpin"}}, closed=True)
    >>> [problem] = corner_count_problems(ring)
    >>> problem.code, problem.spaces  # columns 8 to 15, then 0 and 1 (two lanes each)
    ('few_corners', (16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3))
    >>> print(problem.message)
    the lap has 2 corners (Corner 1, Hairpin); a printed board has at least 4 (most have 8): \
select the spaces of a bend and click Make corner, or draw more points in the bends and \
rebuild (the longest stretch without a corner, 10 spaces, is shown)
    >>> corner_count_problems(ring, minimum=2)
    []
    >>> [code for code, _, _ in corner_count_problems(from_ascii(". . . .", closed=True))]
    ['no_corner']
    """
    lap = [(n, data) for n, data in track.graph.nodes(data=True) if data.get("kind") == "track"]
    if not lap:
        return []
    corners = _running_order(lap)
    if not corners:
        return [
            CornerCountProblem(
                "no_corner",
                f"the lap has no corner, so no car ever has to stop; a printed board has "
                f"{MIN_CORNERS} to {MAX_CORNERS} (most have {TYPICAL_CORNERS}): {ADVICE}",
            )
        ]
    if len(corners) >= minimum:
        return []
    names = ", ".join(_corner_name(track, c) for c in corners)
    stretch, length = _longest_stretch_without_corner(track, lap)
    shown = (
        f" (the longest stretch without a corner, {round(length)} spaces, is shown)"
        if stretch
        else ""
    )
    count = f"{len(corners)} corner{'s' if len(corners) != 1 else ''}"
    return [
        CornerCountProblem(
            "few_corners",
            f"the lap has {count} ({names}); a printed board has at least {minimum} "
            f"(most have {TYPICAL_CORNERS}): {ADVICE}{shown}",
            stretch,
        )
    ]


def _progress(data: dict[str, Any]) -> float | None:
    """A space's progress, or None when it is not a finite number (a broken file)."""
    value: Any = data.get("progress")
    return float(value) if is_finite_number(value) else None


def _running_order(lap: list[tuple[Any, dict[str, Any]]]) -> list[Any]:
    """The corners of the lap's spaces, in the order a car meets them."""
    first: dict[Any, float] = {}
    for _, data in lap:
        corner = data.get("corner")
        if corner is None:
            continue
        try:
            progress = _progress(data)
            at = math.inf if progress is None else progress
            first[corner] = min(first.get(corner, math.inf), at)
        except TypeError:  # an unhashable corner id: the validator's attribute check
            continue
    return sorted(first, key=lambda c: (first[c], str(c)))


def _corner_name(track: Track, corner: CornerId) -> str:
    record = track.corners.get(corner) if isinstance(track.corners, dict) else None
    name = record.get("name") if isinstance(record, dict) else None
    return str(name) if name else f"corner {corner!r}"


def _longest_stretch_without_corner(
    track: Track, lap: list[tuple[Any, dict[str, Any]]]
) -> tuple[tuple[Any, ...], float]:
    """The track spaces of the longest stretch of the lap between one corner space and
    the next (by progress, round the finish line) in running order, and its length in
    spaces; ``((), 0)`` if there is none."""
    marks = sorted(
        {p for _, d in lap if d.get("corner") is not None and (p := _progress(d)) is not None}
    )
    everything = [(p, n) for n, d in lap if (p := _progress(d)) is not None]
    if not marks or not everything:
        return (), 0.0
    furthest = max(p for p, _ in everything)
    end = _progress({"progress": track.graph.graph.get("lap_length")})
    if end is None or end <= furthest:  # no lap length, or a wrong one: one space on
        end = furthest + 1.0
    gaps = [(b - a, a, b) for a, b in zip(marks, marks[1:], strict=False)]
    gaps.append((marks[0] + end - marks[-1], marks[-1], marks[0] + end))
    size, start, stop = max(gaps)
    if size <= 1.0:
        return (), 0.0
    inside = sorted(
        (
            (p + end if p <= start else p, n)
            for p, n in everything
            if start < p < stop or start < p + end < stop
        ),
        key=lambda item: item[0],
    )
    return tuple(n for _, n in inside), size - 1.0
