"""Plan the merge of two corners: the spaces between them join the merged corner.

A corner is one piece of track (the validator reports ``corner_split``
otherwise), so merging two corners with a straight between them takes that
straight's spaces into the corner too. It is refused, with the reason, when
another corner or the finish line lies between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fdlab.editor.errors import EditError
from fdlab.track.model import CornerId, SpaceId, Track


@dataclass
class MergePlan:
    """The spaces that join ``keep`` and the stop count the merged corner gets."""

    keep: CornerId
    other: CornerId
    moved: list[SpaceId]
    between: list[SpaceId]
    stops: int
    why_stops: str


def _arc(track: Track, corner: CornerId) -> tuple[float, float]:
    """First and last progress of a corner's track spaces, the short way round the lap."""
    lap = float(track.lap_length) or float(len(track))
    values = sorted(
        track.space(s)["progress"]
        for s in track.corner_spaces(corner)
        if track.space(s)["kind"] == "track"
    )
    if not values:
        raise EditError(f"merge corners: corner {corner!r} has no track spaces")
    gaps = [((values[i] - values[i - 1]) % lap, i) for i in range(len(values))]
    _, start = max(gaps) if len(values) > 1 else (0.0, 0)
    return values[start], values[start - 1]


def plan_merge(
    track: Track, keep: CornerId, other: CornerId, stops: int | None = None
) -> MergePlan:
    """What merging corner ``other`` into ``keep`` does, or why it cannot be done.

    The spaces between the two corners (on the way that does not cross the
    finish line) join the merged corner. It keeps the larger stop count of the two unless
    ``stops`` is given.

    Raises
    ------
    EditError
        When another corner or the finish line lies between the two corners.

    Examples
    --------
    >>> track = from_ascii(". 1 1 . . 2 2 . . . .", corners={1: 1, 2: 3}, closed=True)
    >>> plan = plan_merge(track, 1, 2)
    >>> plan.between, plan.stops, plan.why_stops
    ([3, 4], 3, 'the larger of 1 and 3')
    >>> plan_merge(from_ascii(". 1 . 3 . 2 .", corners={1: 1, 2: 1, 3: 1}, closed=True), 1, 2)
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: merge corners 1 and 2: corner 3 lies between them; merge it first or pick corners next to each other
    """
    a_start, a_end = _arc(track, keep)
    b_start, b_end = _arc(track, other)
    # the way between them that does not cross the finish line (progress 0)
    low, high = (a_end, b_start) if a_start <= b_start else (b_end, a_start)
    wraps = high < low  # a corner itself runs across the line
    between: list[SpaceId] = []
    strangers: set[CornerId] = set()
    for space, data in track.graph.nodes(data=True):
        if data["kind"] != "track" or data["corner"] in (keep, other):
            continue
        p = data["progress"]
        inside = (low < p or p < high) if wraps else low < p < high
        if not inside:
            continue
        if data["corner"] is not None:
            strangers.add(data["corner"])
        between.append(space)
    where = f"merge corners {keep} and {other}"
    if strangers:
        names = ", ".join(str(c) for c in sorted(strangers, key=str))
        raise EditError(
            f"{where}: corner {names} lies between them; merge it first or pick corners "
            "next to each other"
        )
    if wraps and between:
        raise EditError(
            f"{where}: the finish line lies inside one of them and may not lie inside a "
            "corner; move the finish line first"
        )
    a, b = track.corners[keep]["stops"], track.corners[other]["stops"]
    if stops is None:
        chosen, why = max(a, b), f"the larger of {a} and {b}" if a != b else f"both had {a}"
    else:
        chosen, why = stops, "as chosen"
    return MergePlan(keep, other, track.corner_spaces(other), between, chosen, why)
