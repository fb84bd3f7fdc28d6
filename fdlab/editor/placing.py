"""Where a space or corner lies on the lap, independent of space ids.

A rebuilt board has new space ids; an edit made on the old board is placed
on the new one by *lap position*: the fraction of the lap from the finish
line (a space's ``progress`` over the board's ``lap_length``), the lane and
the kind of space. :func:`place_of` turns a space into such a place and
:func:`locate` finds the space of a board nearest to a place, or says why
there is none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fdlab.errors import FdlabError
from fdlab.track.model import CornerId, SpaceId, Track

#: How far (in spaces of progress) a located space may lie from the place.
TOLERANCE_SPACES = 1.5
#: ... or this fraction of a lap, whichever is more (a dragged point moves the rest of the lap).
TOLERANCE_LAP = 0.02

Place = dict[str, Any]


class Unplaced(FdlabError, LookupError):
    """A place that matches no space (or corner) of a board; the message says why."""


def lap_fraction(track: Track, progress: float) -> float:
    """``progress`` as a fraction of the lap in [0, 1).

    Examples
    --------
    >>> lap_fraction(from_ascii(". . . .", closed=True), 3.0)
    0.75
    """
    lap = float(track.lap_length) or float(len(track) or 1)
    return (float(progress) / lap) % 1.0


def place_of(track: Track, space: SpaceId) -> Place:
    """The lap position of one space: ``{"at": fraction, "lane": n, "kind": k}``.

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . . .
    ...     . . . .
    ... ''', closed=True)
    >>> place_of(track, 5)
    {'at': 0.5, 'lane': 1, 'kind': 'track'}
    """
    data = track.space(space)
    return {
        "at": round(lap_fraction(track, data["progress"]), 6),
        "lane": int(data["lane"]),
        "kind": data["kind"],
    }


def _gap(a: float, b: float) -> float:
    """Distance of two lap fractions round the lap."""
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d)


def tolerance(track: Track) -> float:
    """How far, as a lap fraction, a located space may be from its place."""
    lap = float(track.lap_length) or float(len(track) or 1)
    return max(TOLERANCE_SPACES / lap, TOLERANCE_LAP)


def locate(track: Track, place: Place, *, taken: Iterable[SpaceId] = ()) -> SpaceId:
    """The space of ``track`` nearest to ``place`` (same lane and kind).

    ``taken`` spaces are skipped (two places of one edit never fall on one
    space).

    Raises
    ------
    Unplaced
        When the board has no space of that lane and kind near the place.

    Examples
    --------
    >>> old = from_ascii(". . . .\\n. . . .", closed=True)
    >>> new = from_ascii(". . . . . . . .\\n. . . . . . . .", closed=True)
    >>> locate(new, place_of(old, 5))  # halfway round the lap, lane 1
    9
    >>> locate(new, {"at": 0.5, "lane": 3, "kind": "track"})
    Traceback (most recent call last):
    ...
    fdlab.editor.placing.Unplaced: no track space in lane 3 at 50% of the lap (the board has lanes 0-1 there)
    """
    skip = set(taken)
    best: SpaceId | None = None
    best_gap: float | None = None
    lanes = set()
    for space, data in track.graph.nodes(data=True):
        if data["kind"] != place["kind"] or space in skip:
            continue
        gap = _gap(lap_fraction(track, data["progress"]), place["at"])
        if gap <= tolerance(track):
            lanes.add(data["lane"])
        if data["lane"] != place["lane"]:
            continue
        if best_gap is None or gap < best_gap:
            best, best_gap = space, gap
    if best is not None and best_gap is not None and best_gap <= tolerance(track):
        return best
    where = f"{place['kind']} space in lane {place['lane']} at {place['at']:.0%} of the lap"
    there = f" (the board has lanes {min(lanes)}-{max(lanes)} there)" if lanes else ""
    raise Unplaced(f"no {where}{there}")


def corner_place(track: Track, corner: CornerId) -> Place:
    """The lap position of a corner: the fraction of its middle space, and its name.

    Examples
    --------
    >>> corner_place(from_ascii(". . 1 1 . . . .", corners={1: 2}, closed=True), 1)
    {'at': 0.3125, 'name': 'Corner 1'}
    """
    fractions = sorted(
        lap_fraction(track, track.space(s)["progress"])
        for s in track.corner_spaces(corner)
        if track.space(s)["kind"] == "track"
    )
    if not fractions:
        raise Unplaced(f"corner {corner!r} has no track spaces to place it by")
    # the middle of the corner's spread, the short way round the lap
    start = max(
        range(len(fractions)),
        key=lambda i: (fractions[i] - fractions[i - 1]) % 1.0 if len(fractions) > 1 else 0.0,
    )
    ordered = fractions[start:] + [f + 1.0 for f in fractions[:start]]
    middle = 0.5 * (ordered[0] + ordered[-1]) % 1.0
    return {"at": round(middle, 6), "name": track.corners[corner].get("name", "")}


def locate_corner(track: Track, place: Place) -> Any:
    """The corner of ``track`` with a track space nearest to the place's lap fraction.

    Raises
    ------
    Unplaced
        When no corner of the board lies near the place.

    Examples
    --------
    >>> track = from_ascii(". . 1 1 . . 2 .", corners={1: 2, 2: 1}, closed=True)
    >>> locate_corner(track, {"at": 0.8, "name": ""})
    2
    """
    best, best_gap = None, None
    for _, data in track.graph.nodes(data=True):
        if data["corner"] is None or data["kind"] != "track":
            continue
        gap = _gap(lap_fraction(track, data["progress"]), place["at"])
        if best_gap is None or gap < best_gap:
            best, best_gap = data["corner"], gap
    if best is None or best_gap is None or best_gap > tolerance(track):
        name = f" ({place['name']})" if place.get("name") else ""
        raise Unplaced(f"no corner near {place['at']:.0%} of the lap{name}")
    return best


def shift_place(place: Place, by: float) -> Place:
    """The same place seen from a finish line moved ``by`` lap fractions forward.

    Examples
    --------
    >>> shift_place({"at": 0.1, "lane": 0, "kind": "track"}, 0.25)
    {'at': 0.85, 'lane': 0, 'kind': 'track'}
    """
    return {**place, "at": round((place["at"] - by) % 1.0, 6)}
