"""What each attribute of a board may hold: the tables the loader and the validator both read.

A track file's loader (:mod:`fdlab.track.io`) refuses a file holding
anything else, naming the field; the validator
(:func:`fdlab.track.validate.validate`) reports it on a track made in
memory (by hand, by an importer, by the editor), never raising. Both read
these tables, so they cannot drift apart:

* :data:`SPACE_FIELDS`: the attributes of a space (a node of ``track.graph``);
* :data:`STEP_FIELDS`: the attributes of a step (an edge);
* :data:`GRAPH_FIELDS`: the attributes of the track itself (``track.graph.graph``),
  whose ``corners`` maps a :data:`CORNER_ID` to a :data:`CORNER_RECORD` holding
  the :data:`CORNER_FIELDS`;
* :data:`CONTACT_FIELDS`: the attributes of a contact (an edge of ``track.contacts``).

A track in memory carries every space, step and graph field (``Track(...)``
fills in the defaults of ``fdlab.track.model``); a file may leave them out
and gets the same defaults, except a space's ``x`` and ``y`` and a step's
``kind``. The fields of a corner record may be left out in both; a contact
always has its ``kind``, and its ``rear`` when it is a ``behind`` contact. Keys not in
a table (a builder's ``build`` spec, an importer's ``imported_from``...) may
hold any JSON value.

A file holds three values in another form than a track in memory, each with
a field of its own: an outline as WKT text instead of a shapely ``Polygon``
(:data:`FILE_POLYGON`), the lines a step crosses as a list instead of a
frozenset (:data:`FILE_LINES`), and the corners as a list of records that
carry their ``id`` instead of a dict keyed by it.

Examples
--------
>>> SPACE_FIELDS["lane"].accepts(2), SPACE_FIELDS["lane"].accepts(2.0)
(True, False)
>>> SPACE_FIELDS["x"].accepts(10**400)  # a 400-digit integer is no coordinate
False
>>> SPACE_FIELDS["corner"].expected
'None or an integer corner id'
>>> STEP_FIELDS["kind"].accepts("pit_in"), STEP_FIELDS["kind"].accepts(["pit_in"])
(True, False)
>>> STEP_FIELDS["lines"].accepts(frozenset({"finish"})), FILE_LINES.accepts(["finish"])
(True, True)
>>> STEP_FIELDS["lines"].accepts(["finish"]), FILE_LINES.accepts(["start"])
(False, False)
>>> GRAPH_FIELDS["laps"].accepts(0), GRAPH_FIELDS["laps"].expected
(False, 'an integer >= 1')
>>> GRAPH_FIELDS["space_length"].accepts(0), GRAPH_FIELDS["lap_length"].accepts(0)
(False, True)
>>> GRAPH_FIELDS["corners"].accepts({1: {"stops": 2, "name": "Hairpin"}})
True
>>> GRAPH_FIELDS["corners"].accepts({1: {"stops": "2"}}), GRAPH_FIELDS["corners"].accepts([])
(False, False)
>>> CORNER_ID.accepts(1), CORNER_ID.accepts("T1"), CORNER_FIELDS["stops"].accepts(2.0)
(True, False, False)
>>> CONTACT_FIELDS["kind"].accepts("behind"), CONTACT_FIELDS["kind"].accepts("zz")
(True, False)
>>> CONTACT_FIELDS["rear"].accepts("pit-1"), CONTACT_FIELDS["rear"].accepts(float("nan"))
(True, False)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from shapely.geometry import Polygon

from fdlab._text import shown
from fdlab.track.model import CONTACT_KINDS, EDGE_KINDS, HAZARDS, LINE_NAMES, SPACE_KINDS

__all__ = [
    "CONTACT_FIELDS",
    "CORNER_FIELDS",
    "CORNER_ID",
    "CORNER_RECORD",
    "FILE_LINES",
    "FILE_POLYGON",
    "GRAPH_FIELDS",
    "SMALL_INT",
    "SPACE_FIELDS",
    "STEP_FIELDS",
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
    """One attribute: the test its value passes and, in words, what it must be.

    Parameters
    ----------
    accepts : callable
        ``accepts(value)`` is True for a value the attribute may hold. It never
        raises, whatever the value.
    expected : str
        What the value must be, to follow "must be" in a message.
    explain : callable, optional
        For a value ``accepts`` refuses, a more precise reason than
        ``expected`` (or ``""`` when there is none); see :meth:`why`.

    Examples
    --------
    >>> Field(is_int, "an integer").accepts(4)
    True
    """

    accepts: Callable[[Any], bool]
    expected: str
    explain: Callable[[Any], str] | None = None

    def why(self, value: Any) -> str:
        """Why ``value`` is refused, beyond :attr:`expected`: ``""`` if nothing more to say.

        Examples
        --------
        >>> FILE_LINES.why(["finish", "start"])
        "unknown line 'start'; lines are finish, police, pit_entry, pit_exit"
        >>> FILE_LINES.why("finish"), GRAPH_FIELDS["laps"].why(0)
        ('', '')
        """
        return self.explain(value) if self.explain is not None else ""


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _one_of(choices: tuple[str | None, ...]) -> Callable[[Any], bool]:
    """The test of a value that is one of ``choices`` (strings, perhaps None)."""

    def accepts(value: Any) -> bool:
        return (value is None or isinstance(value, str)) and value in choices

    return accepts


def _optional_small_int(value: Any) -> bool:
    return value is None or is_small_int(value)


#: Every attribute of a space as a track in memory holds it (``docs/schema.md``).
SPACE_FIELDS: dict[str, Field] = {
    "x": Field(is_finite_number, "a finite number"),
    "y": Field(is_finite_number, "a finite number"),
    "progress": Field(is_finite_number, "a finite number"),
    "lane": Field(is_small_int, "an integer"),
    "level": Field(is_small_int, "an integer"),
    "kind": Field(_one_of(SPACE_KINDS), f"one of {', '.join(SPACE_KINDS)}"),
    "hazard": Field(_one_of(HAZARDS), "None, 'shooting' or 'danger'"),
    "corner": Field(_optional_small_int, "None or an integer corner id"),
    "grid": Field(_optional_small_int, "None or an integer spot"),
    "box": Field(_optional_small_int, "None or an integer slot"),
    "tunnel": Field(lambda v: v is None or isinstance(v, str), "None or a string label"),
    "polygon": Field(lambda v: v is None or isinstance(v, Polygon), "None or a shapely Polygon"),
}

#: The outline as a track file holds it: WKT text, read into a ``Polygon`` on loading.
FILE_POLYGON = Field(lambda v: v is None or isinstance(v, str), "None or a WKT string")


def _known_lines(names: Any) -> bool:
    return all(isinstance(name, str) and name in LINE_NAMES for name in names)


def _unknown_line(value: Any) -> str:
    """For a set or list of strings: the first name that is not a line, and the lines."""
    if not isinstance(value, (frozenset, list)) or not all(isinstance(n, str) for n in value):
        return ""
    unknown = sorted(set(value) - set(LINE_NAMES))
    return f"unknown line {shown(unknown[0])}; lines are {', '.join(LINE_NAMES)}" if unknown else ""


#: Every attribute of a step as a track in memory holds it (``docs/schema.md``).
STEP_FIELDS: dict[str, Field] = {
    "kind": Field(_one_of(EDGE_KINDS), f"one of {', '.join(EDGE_KINDS)}"),
    "lines": Field(
        lambda v: isinstance(v, frozenset) and _known_lines(v),
        "a frozenset of line names",
        _unknown_line,
    ),
}

#: The lines a step crosses as a track file holds them: a list, read into a frozenset.
FILE_LINES = Field(
    lambda v: isinstance(v, list) and _known_lines(v), "a list of line names", _unknown_line
)

#: The id of a corner: its key in ``graph["corners"]``, its record's ``id`` in a file.
CORNER_ID = Field(is_small_int, "an integer")

#: Every attribute of a corner record; each may be left out. The validator also wants
#: ``stops`` present and 1, 2 or 3, and ``long`` and ``short`` to match the corner's
#: steps (rules of the board, not of the file: a file with 7 stops loads).
CORNER_FIELDS: dict[str, Field] = {
    "stops": Field(is_small_int, "an integer"),
    "long": Field(is_small_int, "an integer"),
    "short": Field(is_small_int, "an integer"),
    "name": Field(_is_str, "a string"),
}


def _is_corner_record(value: Any) -> bool:
    return isinstance(value, dict) and all(
        field.accepts(value[key]) for key, field in CORNER_FIELDS.items() if key in value
    )


#: A corner record: a dict whose keys in :data:`CORNER_FIELDS` pass their tests.
CORNER_RECORD = Field(_is_corner_record, "a dict of stops, long, short and name")


def _is_corner_table(value: Any) -> bool:
    return isinstance(value, dict) and all(
        CORNER_ID.accepts(corner) and CORNER_RECORD.accepts(record)
        for corner, record in value.items()
    )


#: Every attribute of a track (``track.graph.graph``) as a track in memory holds it
#: (``docs/schema.md``), in the order the loader checks them. ``schema`` is not here: a
#: file gives its version at the top, and a track in memory is always of the current one.
GRAPH_FIELDS: dict[str, Field] = {
    "name": Field(_is_str, "a string"),
    "description": Field(_is_str, "a string"),
    "units": Field(_is_str, "a string"),
    "laps": Field(lambda v: is_small_int(v) and v >= 1, "an integer >= 1"),
    "space_length": Field(lambda v: is_finite_number(v) and v > 0, "a finite number > 0"),
    "lap_length": Field(lambda v: is_finite_number(v) and v >= 0, "a finite number >= 0"),
    "corners": Field(_is_corner_table, "a dict of integer corner id -> corner record"),
}


def _is_space_id(value: Any) -> bool:
    """A space id as a file holds it: a whole number or a string (``SpaceId``)."""
    return is_int(value) or isinstance(value, str)


#: Every attribute of a contact (an edge of ``track.contacts``, ``docs/schema.md``). A
#: contact always has its ``kind``; ``rear`` names the space of the car behind, which a
#: ``behind`` contact needs and which must be one of the two spaces it joins (a rule of the
#: contact, not of the value: the loader and the validator check it besides).
CONTACT_FIELDS: dict[str, Field] = {
    "kind": Field(_one_of(CONTACT_KINDS), f"one of {', '.join(CONTACT_KINDS)}"),
    "rear": Field(
        lambda v: v is None or _is_space_id(v), "None or a space id (an integer or a string)"
    ),
}
