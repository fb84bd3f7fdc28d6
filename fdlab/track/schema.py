"""What each attribute of a space may hold: the one table the loader and the validator read.

A track file's loader (:mod:`fdlab.track.io`) refuses a file whose space
holds anything else, naming the field; the validator
(:func:`fdlab.track.validate.validate`) reports such a space on a track
made in memory (by hand, by an importer, by the editor), never raising.
Both read :data:`SPACE_FIELDS`, so they cannot drift apart. The only
difference is the outline: a file holds it as WKT text, a track in memory
as a shapely ``Polygon`` (:data:`FILE_POLYGON`).

Examples
--------
>>> SPACE_FIELDS["lane"].accepts(2), SPACE_FIELDS["lane"].accepts(2.0)
(True, False)
>>> SPACE_FIELDS["x"].accepts(10**400)  # a 400-digit integer is no coordinate
False
>>> SPACE_FIELDS["corner"].expected
'None or an integer corner id'
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from shapely.geometry import Polygon

from fdlab.track.model import HAZARDS, SPACE_KINDS

__all__ = [
    "FILE_POLYGON",
    "SMALL_INT",
    "SPACE_FIELDS",
    "Field",
    "is_finite_number",
    "is_int",
    "is_small_int",
]

#: Whole numbers of a board (lanes, levels, corner ids, spots, slots) stay below this.
SMALL_INT = 10**9


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number, not a bool.

    Examples
    --------
    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def is_small_int(value: Any) -> bool:
    """A whole number of at most nine digits (lanes, levels, corner ids, counts).

    Examples
    --------
    >>> is_small_int(12), is_small_int(10**12)
    (True, False)
    """
    return is_int(value) and -SMALL_INT < value < SMALL_INT


def is_finite_number(value: Any) -> bool:
    """An int or float within float range (``math.isfinite(10**400)`` would raise).

    Examples
    --------
    >>> is_finite_number(1.5), is_finite_number(float("nan")), is_finite_number(10**400)
    (True, False, False)
    """
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= sys.float_info.max
    return math.isfinite(value)


@dataclass(frozen=True)
class Field:
    """One attribute of a space: the test its value passes and, in words, what it must be.

    Examples
    --------
    >>> Field(is_int, "an integer").accepts(4)
    True
    """

    accepts: Callable[[Any], bool]
    expected: str


def _optional_small_int(value: Any) -> bool:
    return value is None or is_small_int(value)


#: Every attribute of a space as a track in memory holds it (``docs/schema.md``).
SPACE_FIELDS: dict[str, Field] = {
    "x": Field(is_finite_number, "a finite number"),
    "y": Field(is_finite_number, "a finite number"),
    "progress": Field(is_finite_number, "a finite number"),
    "lane": Field(is_small_int, "an integer"),
    "level": Field(is_small_int, "an integer"),
    "kind": Field(lambda v: v in SPACE_KINDS, f"one of {', '.join(SPACE_KINDS)}"),
    "hazard": Field(lambda v: v in HAZARDS, "None, 'shooting' or 'danger'"),
    "corner": Field(_optional_small_int, "None or an integer corner id"),
    "grid": Field(_optional_small_int, "None or an integer spot"),
    "box": Field(_optional_small_int, "None or an integer slot"),
    "tunnel": Field(lambda v: v is None or isinstance(v, str), "None or a string label"),
    "polygon": Field(lambda v: v is None or isinstance(v, Polygon), "None or a shapely Polygon"),
}

#: The outline as a track file holds it: WKT text, read into a ``Polygon`` on loading.
FILE_POLYGON = Field(lambda v: v is None or isinstance(v, str), "None or a WKT string")
