"""Keep a board's build spec in step with a finish line moved in the editor.

Positions in a build spec are lap fractions counted from the finish line
(see :mod:`fdlab.track.build_spec`), and ``finish`` says where on the drawn
centreline the line is. When the designer moves the line, the spec's
``finish`` moves to the same place and every other fraction is counted from
there, so a rebuild puts the line (and the grid and pit lane behind and
beside it) where the designer put it, and the corners where they were.
"""

from __future__ import annotations

import copy
from typing import Any

from shapely.geometry import LineString, Point


def finish_fraction(spec: dict[str, Any], x: float, y: float) -> float:
    """Where the point ``(x, y)`` lies on the spec's centreline, as a fraction from its first point.

    Examples
    --------
    >>> spec = {"centreline": {"points": [[0, 0], [100, 0], [100, 100], [0, 100]]}, "finish": 0.0}
    >>> finish_fraction(spec, 50, 3)
    0.125
    """
    points = [tuple(p) for p in spec["centreline"]["points"]]
    ring = LineString([*points, points[0]])
    along: float = ring.project(Point(x, y)) / ring.length
    return round(along, 6) % 1.0


def _shift(value: float, by: float) -> float:
    return round((float(value) - by) % 1.0, 6)


def _shift_stretch(stretch: dict[str, Any], by: float) -> dict[str, Any]:
    return {**stretch, "start": _shift(stretch["start"], by), "end": _shift(stretch["end"], by)}


def moved_finish(spec: dict[str, Any], new_finish: float) -> dict[str, Any]:
    """A copy of the spec (JSON data) with its finish line at ``new_finish`` of the centreline.

    Corners, lane counts, street stretches and the police line keep their
    places on the lap; a pit lane given by fractions that would no longer
    run across the new line goes back to the builder's default (beside the
    finish straight), since cars pit between laps (P-2).

    Examples
    --------
    >>> spec = {"finish": 0.0, "corners": [{"start": 0.2, "end": 0.3, "stops": 2, "name": None}],
    ...         "lane_counts": [], "pit": {"start": 0.9, "end": 0.1, "side": None, "boxes": 4},
    ...         "street": None}
    >>> moved = moved_finish(spec, 0.25)
    >>> moved["finish"], moved["corners"][0]["start"], moved["corners"][0]["end"], moved["pit"]["start"]
    (0.25, 0.95, 0.05, None)
    """
    by = (float(new_finish) - float(spec.get("finish", 0.0))) % 1.0
    out = copy.deepcopy(spec)
    out["finish"] = round(float(new_finish) % 1.0, 6)
    if out.get("corners"):
        out["corners"] = [_shift_stretch(c, by) for c in out["corners"]]
    out["lane_counts"] = [[_shift_stretch(s, by), n] for s, n in out.get("lane_counts") or []]
    pit = out.get("pit")
    if pit and pit.get("start") is not None:
        start, end = _shift(pit["start"], by), _shift(pit["end"], by)
        crosses = start > end  # the stretch wraps past 0: it runs across the line
        out["pit"] = {**pit, "start": start if crosses else None, "end": end if crosses else None}
    street = out.get("street")
    if street:
        for key in ("shooting", "danger"):
            street[key] = [
                item if isinstance(item, int) else _shift_stretch(item, by) for item in street[key]
            ]
        street["tunnels"] = [_shift_stretch(t, by) for t in street.get("tunnels", [])]
        if street.get("police") is not None:
            street["police"] = _shift(street["police"], by)
    return out
