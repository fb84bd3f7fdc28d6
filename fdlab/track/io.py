"""Track files: JSON with a schema number, geometry as WKT, no pickle.

A file holds one :class:`~fdlab.track.model.Track`::

    {"contacts": [{"a": 0, "b": 1, "kind": "beside"}, ...],
     "graph": {"corners": [{"id": 1, "stops": 2, ...}], "name": "...", ...},
     "schema": 1,
     "spaces": [{"id": 0, "x": 0.5, "polygon": "POLYGON ((...))", ...}, ...],
     "steps": [{"from": 0, "to": 1, "kind": "ahead", "lines": ["finish"]}, ...]}

Keys are sorted, floats are written with ``repr`` (shortest exact form) and
spaces, steps and contacts keep the graph's order, one per line, so loading a
file and saving it again gives the same bytes. Loading never executes code:
the file is parsed with :mod:`json` and every field is checked, and any
problem raises one :class:`TrackFileError` naming the file and the field.

Files written by older fdlab versions are upgraded on load by the functions
registered in :data:`MIGRATIONS` (see :func:`register_migration`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import Polygon

from fdlab._text import shown as _shown
from fdlab.files import atomic_write
from fdlab.track.errors import TrackError, TrackFileError
from fdlab.track.model import (
    SCHEMA_VERSION,
    SPACE_DEFAULTS,
    TRACK_DEFAULTS,
    Track,
)
from fdlab.track.schema import (
    CONTACT_FIELDS,
    CORNER_FIELDS,
    CORNER_ID,
    FILE_LINES,
    FILE_POLYGON,
    GRAPH_FIELDS,
    SPACE_FIELDS,
    STEP_FIELDS,
    Field,
    is_int,
)
from fdlab.untrusted import UntrustedInputError, parse_json, read_file

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MIGRATIONS",
    "TrackFileError",
    "dumps",
    "load_track",
    "loads",
    "register_migration",
    "save_track",
    "track_from_dict",
    "track_to_dict",
]

#: A migration turns a file document of schema ``n`` into one of schema ``n + 1``.
Migration = Callable[[dict[str, Any]], dict[str, Any]]

#: Schema version ``n`` -> the function that upgrades a version-``n`` document.
MIGRATIONS: dict[int, Migration] = {}

_TOP_LEVEL_KEYS = ("schema", "graph", "spaces", "steps", "contacts")
_STRING = "<string>"

#: The largest track file :func:`load_track` reads, in bytes (the shipped boards are
#: about 0.2 MB). Larger files, and things that are not files (a FIFO, ``/dev/zero``),
#: are refused before anything is read.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: The deepest nesting of lists and objects a track file may have, counting the
#: document itself as 1 (a space's own record is 3 deep). Deeper files are refused on
#: load and deeper values on save, so that whatever loads can be saved.
MAX_DEPTH = 64


def register_migration(from_version: int) -> Callable[[Migration], Migration]:
    """Register a function upgrading file documents of ``from_version`` by one.

    The function receives the parsed JSON document (a dict whose ``schema``
    is ``from_version``) and returns a document of schema
    ``from_version + 1``. Loading chains migrations until the document reaches
    :data:`~fdlab.track.model.SCHEMA_VERSION`.

    Examples
    --------
    >>> @register_migration(-7)
    ... def _rename_title(doc):
    ...     doc["graph"]["name"] = doc["graph"].pop("title")
    ...     return doc | {"schema": -6}
    >>> MIGRATIONS[-7] is _rename_title
    True
    >>> del MIGRATIONS[-7]
    """

    def register(migration: Migration) -> Migration:
        if from_version in MIGRATIONS:
            raise TrackError(f"a migration from schema {from_version} is already registered")
        MIGRATIONS[from_version] = migration
        return migration

    return register


# -- writing ----------------------------------------------------------------------------


def track_to_dict(track: Track, *, source: str = "<dict>") -> dict[str, Any]:
    """The JSON-ready document of a track (the inverse of :func:`track_from_dict`).

    Polygons become WKT strings, ``lines`` sorted lists and corners a list of
    ``{"id": ..., ...}`` records; every other value must already be
    JSON-native (``None``, bool, int, finite float, str, list, dict with str
    keys), so that loading gives back exactly the same track.

    Raises
    ------
    TrackFileError
        If a value cannot be written exactly (a tuple, a set, NaN, a
        non-string dict key, an id that is neither int nor str...). The
        message names the field.

    Examples
    --------
    >>> doc = track_to_dict(from_ascii(". 1", corners={1: 1}))
    >>> doc["schema"], doc["graph"]["corners"][0]["id"], doc["spaces"][1]["polygon"]
    (1, 1, 'POLYGON ((2.0 -1.0, 2.0 0.0, 1.0 0.0, 1.0 -1.0, 2.0 -1.0))')
    >>> doc["steps"]
    [{'from': 0, 'to': 1, 'kind': 'ahead', 'lines': []}]
    """
    graph_doc: dict[str, Any] = {}
    for key, value in track.graph.graph.items():
        if key == "schema":
            continue
        if key == "corners":
            graph_doc[key] = _corners_to_list(value, source)
        else:
            graph_doc[key] = _native(value, source, f"graph.{key}")
    spaces = []
    for index, (space, data) in enumerate(track.graph.nodes(data=True)):
        where = f"spaces[{index}]"
        record: dict[str, Any] = {"id": _space_id(space, source, f"{where}.id")}
        for key, value in data.items():
            if key == "id":
                raise TrackFileError(source, f"{where}.id", "'id' may not be a space attribute")
            if key == "polygon":
                record[key] = None if value is None else polygon_to_wkt(value, source, where)
            else:
                record[key] = _native(value, source, f"{where}.{key}", 4)
        spaces.append(record)
    steps = []
    for index, (u, v, data) in enumerate(track.graph.edges(data=True)):
        where = f"steps[{index}]"
        record = {"from": u, "to": v}
        for key, value in data.items():
            if key in ("from", "to"):
                raise TrackFileError(
                    source, f"{where}.{key}", f"'{key}' may not be a step attribute"
                )
            if key == "lines":
                record[key] = _sorted_lines(value, source, f"{where}.lines")
            else:
                record[key] = _native(value, source, f"{where}.{key}", 4)
        steps.append(record)
    contacts = []
    for index, (a, b, data) in enumerate(track.contacts.edges(data=True)):
        where = f"contacts[{index}]"
        record = {"a": _space_id(a, source, f"{where}.a"), "b": _space_id(b, source, f"{where}.b")}
        for key, value in data.items():
            if key in ("a", "b"):
                raise TrackFileError(
                    source, f"{where}.{key}", f"'{key}' may not be a contact attribute"
                )
            record[key] = _native(value, source, f"{where}.{key}", 4)
        contacts.append(record)
    return {
        "schema": SCHEMA_VERSION,
        "graph": graph_doc,
        "spaces": spaces,
        "steps": steps,
        "contacts": contacts,
    }


def dumps(track: Track) -> str:
    """The text of a track file: sorted keys, one space, step or contact a line.

    Examples
    --------
    >>> text = dumps(from_ascii(". ."))
    >>> print(text.splitlines()[-3])
    {"from": 0, "kind": "ahead", "lines": [], "to": 1}
    >>> loads(text) == from_ascii(". .")
    True
    """
    return _checked_text(track, _STRING)


def _checked_text(track: Track, source: str) -> str:
    """The file text of ``track``, read back once so that what is written can be loaded."""
    text = _format_document(track_to_dict(track, source=source))
    try:
        track_from_dict(json.loads(text), source=source)
    except TrackFileError as error:
        raise TrackFileError(
            source, error.field, f"{error.detail}; the track was not written"
        ) from None
    return text


def _format_document(doc: dict[str, Any]) -> str:
    def encode(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)

    parts = []
    for key in sorted(doc):
        value = doc[key]
        if isinstance(value, list) and value:
            body = ",\n".join(encode(item) for item in value)
            parts.append(f"{encode(key)}: [\n{body}\n]")
        else:
            parts.append(f"{encode(key)}: {encode(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save_track(track: Track, path: str | os.PathLike[str]) -> None:
    """Write a track file atomically.

    The text is first read back (so a file that could not be loaded is never
    written), then written to a temporary file in the same folder, flushed
    to disk and renamed over ``path``; if anything fails the old file is
    left as it was and no temporary file remains.

    Raises
    ------
    TrackFileError
        Naming the file: the track holds a value that cannot be written
        exactly, or the disk refused the write (the cause is chained).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> save_track(from_ascii(". . ."), folder / "tiny.json")
    >>> len(load_track(folder / "tiny.json"))
    3
    """
    target = Path(path)
    source = str(path)
    text = _checked_text(track, source)
    try:
        atomic_write(target, text.encode("utf-8"))
    except OSError as exc:
        raise TrackFileError(
            source, "", f"could not save ({exc}); the old file is unchanged"
        ) from exc


def polygon_to_wkt(polygon: Any, source: str = "<dict>", where: str = "polygon") -> str:
    """The WKT of a polygon with every coordinate written exactly (``repr``).

    GEOS's own WKT writer may drop the last digit of a coordinate; this
    writer keeps the shortest text that reads back to the same float.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> polygon_to_wkt(box(0, 0, 1, 0.1 + 0.2))
    'POLYGON ((1.0 0.0, 1.0 0.30000000000000004, 0.0 0.30000000000000004, 0.0 0.0, 1.0 0.0))'
    """
    if not isinstance(polygon, Polygon):
        raise TrackFileError(
            source,
            f"{where}.polygon",
            f"must be a shapely Polygon or None, not {type(polygon).__name__}",
        )
    if polygon.is_empty:
        return "POLYGON EMPTY"
    rings = [polygon.exterior, *polygon.interiors]
    texts = []
    for ring in rings:
        coords = shapely.get_coordinates(ring, include_z=polygon.has_z)
        if not all(math.isfinite(float(c)) for c in coords.ravel()):
            raise TrackFileError(
                source, f"{where}.polygon", "has a coordinate that is NaN or infinite"
            )
        texts.append(
            "(" + ", ".join(" ".join(repr(float(c)) for c in point) for point in coords) + ")"
        )
    head = "POLYGON Z" if polygon.has_z else "POLYGON"
    return f"{head} ({', '.join(texts)})"


def _corners_to_list(corners: Any, source: str) -> list[dict[str, Any]]:
    if not isinstance(corners, dict):
        raise TrackFileError(
            source, "graph.corners", f"must be a dict, not {type(corners).__name__}"
        )
    records = []
    for corner, info in corners.items():
        where = f"graph.corners[{corner!r}]"
        if not is_int(corner):
            raise TrackFileError(source, where, "corner ids must be int")
        if not isinstance(info, dict):
            raise TrackFileError(source, where, f"must be a dict, not {type(info).__name__}")
        if "id" in info:
            raise TrackFileError(source, f"{where}.id", "'id' may not be a corner attribute")
        records.append({"id": int(corner), **_native(info, source, where, 4)})
    return records


def _sorted_lines(lines: Any, source: str, where: str) -> list[str]:
    if not isinstance(lines, (set, frozenset, list, tuple)) or not all(
        isinstance(line, str) for line in lines
    ):
        raise TrackFileError(source, where, "must be a set of line names (str)")
    return sorted(lines)


def _space_id(space: Any, source: str, where: str) -> int | str:
    if is_int(space) or isinstance(space, str):
        native: int | str = _native(space, source, where)  # an int stays an int, a str a str
        return native
    raise TrackFileError(source, where, f"space ids must be int or str, not {type(space).__name__}")


def _native(value: Any, source: str, where: str, depth: int = 3) -> Any:
    """``value`` checked to be JSON-native (so it reads back equal).

    ``depth`` is the nesting level ``value`` would have in the file; the exact
    limit (:data:`MAX_DEPTH`) is checked on the whole document when it is read back.
    """
    if isinstance(value, np.generic):  # numpy scalars read back as plain numbers
        value = value.item()
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        problem = _string_problem(value)
        if problem:
            raise TrackFileError(source, where, problem)
        return value
    if isinstance(value, int):
        problem = _int_problem(value)
        if problem:
            raise TrackFileError(source, where, problem)
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TrackFileError(source, where, f"{_shown(value)} cannot be written to JSON")
        return float(value)
    if isinstance(value, (list, dict)) and depth > MAX_DEPTH:
        raise TrackFileError(
            source, where, f"nested more than {MAX_DEPTH} levels deep (lists and objects)"
        )
    if isinstance(value, list):
        return [_native(item, source, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TrackFileError(
                    source,
                    where,
                    f"dict key {_shown(key)} is not a str, so it would not read back equal",
                )
            problem = _string_problem(key)
            if problem:
                raise TrackFileError(source, where, f"dict key {_shown(key)}: {problem}")
            out[key] = _native(item, source, f"{where}.{key}", depth + 1)
        return out
    raise TrackFileError(
        source,
        where,
        f"{type(value).__name__} value {_shown(value)} is not JSON-native "
        "(use None, bool, int, float, str, list or dict with str keys)",
    )


# -- reading ----------------------------------------------------------------------------


def loads(text: str | bytes, *, source: str = _STRING) -> Track:
    """Read a track from the text of a track file.

    Parameters
    ----------
    text : str or bytes
        The file's content.
    source : str
        Name used in error messages (the file name).

    Raises
    ------
    TrackFileError
        Naming ``source`` and the field that is wrong.

    Examples
    --------
    >>> loads('{"schema": 1, "graph": {}, "spaces": [], "steps": [], "contacts": []}')
    <Track 'untitled': 0 spaces, 0 corners, 0 steps>
    >>> loads('{"schema": 1, "graph": {}')
    Traceback (most recent call last):
    ...
    fdlab.track.errors.TrackFileError: <string>: not valid JSON: Expecting ',' delimiter at line 1 column 26 (is the file truncated?)
    """
    try:
        doc = parse_json(text, max_depth=None)  # track_from_dict names where it nests too deep
    except UntrustedInputError as exc:
        raise TrackFileError(source, "", str(exc)) from None
    return track_from_dict(doc, source=source)


def _string_problem(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (
            f"holds a lone surrogate {text[exc.start]!r} at character {exc.start} "
            "(not a character UTF-8 can store)"
        )
    return ""


def _int_problem(value: int) -> str:
    try:
        str(value)
    except ValueError:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits is too long"
    return ""


def load_track(path: str | os.PathLike[str]) -> Track:
    """Read a track file written by :func:`save_track`.

    Raises
    ------
    TrackFileError
        If the file cannot be read or is not a valid track file; the message
        names the file and the field.

    Examples
    --------
    >>> load_track("no/such/board.json")
    Traceback (most recent call last):
    ...
    fdlab.track.errors.TrackFileError: no/such/board.json: cannot read the file (No such file or directory)
    """
    source = str(path)
    return loads(_read_bytes(path, source), source=source)


def _read_bytes(path: str | os.PathLike[str], source: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (never blocks on a FIFO)."""
    try:
        return read_file(path, limit=MAX_FILE_BYTES, what="track file")
    except UntrustedInputError as exc:
        raise TrackFileError(source, "", str(exc)) from None


def track_from_dict(doc: Any, *, source: str = "<dict>") -> Track:
    """Build a track from a file document (the inverse of :func:`track_to_dict`).

    Older schema versions are migrated first. Only the structure and types
    are checked here; whether the board makes sense (a closed lap, a sound
    pit lane...) is :func:`fdlab.track.validate.validate`'s job.

    Raises
    ------
    TrackFileError
        Naming ``source`` and the field that is wrong.

    Examples
    --------
    >>> doc = {"schema": 1, "graph": {"name": "Two"}, "contacts": [],
    ...        "spaces": [{"id": "a", "x": 0.0, "y": 0.0}, {"id": "b", "x": 1.0, "y": 0.0}],
    ...        "steps": [{"from": "a", "to": "b", "kind": "ahead"}]}
    >>> track = track_from_dict(doc)
    >>> track.name, list(track.graph.edges)
    ('Two', [('a', 'b')])
    >>> track_from_dict(doc | {"steps": [{"from": "a", "to": "c", "kind": "ahead"}]})
    Traceback (most recent call last):
    ...
    fdlab.track.errors.TrackFileError: <dict>: steps[0].to: space 'c' is not in spaces
    """
    reader = _Reader(source)
    reader.plain_values(doc)
    doc = reader.migrate(doc)
    return reader.track(doc)


class _Reader:
    """Checks a file document field by field; every error names ``source`` and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TrackFileError:
        return TrackFileError(self.source, where, message)

    def check(self, field: Field, value: Any, where: str) -> None:
        """Refuse ``value`` at ``where`` unless ``field`` (a :mod:`~fdlab.track.schema`
        table's) accepts it; the message says what it must be, in JSON's words."""
        if not field.accepts(value):
            expected = field.expected.replace("None", "null")
            raise self.fail(where, field.why(value) or f"must be {expected}, not {_shown(value)}")

    # -- values any JSON file can hold, but a track file must be able to write back --------
    def plain_values(self, doc: Any) -> None:
        """Check every value: JSON types, depth, strings UTF-8 can store, finite numbers."""
        pending: list[tuple[Any, int, tuple[Any, ...]]] = [(doc, 1, ())]
        while pending:
            value, depth, where = pending.pop()
            if value is None or isinstance(value, (bool, int)):
                continue
            if isinstance(value, str):
                problem = _string_problem(value)
            elif isinstance(value, float):
                problem = (
                    "" if math.isfinite(value) else f"{_shown(value)} is not a number JSON allows"
                )
            elif isinstance(value, (list, dict)):
                if depth > MAX_DEPTH:
                    raise self.fail(
                        _field_name(where),
                        f"nested more than {MAX_DEPTH} levels deep (lists and objects)",
                    )
                if isinstance(value, list):
                    pending.extend((item, depth + 1, (where, i)) for i, item in enumerate(value))
                    continue
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise self.fail(_field_name(where), f"key {_shown(key)} is not a string")
                    problem = _string_problem(key)
                    if problem:
                        raise self.fail(_field_name(where), f"key {_shown(key)} {problem}")
                    pending.append((item, depth + 1, (where, key)))
                continue
            else:
                problem = f"{type(value).__name__} is not a JSON value"
            if problem:
                raise self.fail(_field_name(where), problem)

    # -- schema versions ---------------------------------------------------------------
    def migrate(self, parsed: Any) -> dict[str, Any]:
        if not isinstance(parsed, dict):
            raise self.fail("", f"must hold a JSON object, not {_json_type(parsed)}")
        doc: dict[str, Any] = parsed  # its keys are strings (plain_values checked them)
        if "schema" not in doc:
            raise self.fail("schema", "missing (a track file starts with its schema number)")
        version = doc["schema"]
        if not is_int(version):
            raise self.fail("schema", f"must be an integer, not {_json_type(version)}")
        if version > SCHEMA_VERSION:
            raise self.fail(
                "schema",
                f"version {version} is newer than this fdlab understands ({SCHEMA_VERSION}); "
                "upgrade fdlab to read it",
            )
        while version < SCHEMA_VERSION:
            migration = MIGRATIONS.get(version)
            if migration is None:
                raise self.fail(
                    "schema", f"version {version} is not supported (no migration from it)"
                )
            try:
                doc = migration(doc)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise self.fail(
                    "", f"cannot upgrade from schema {version}: {type(exc).__name__}: {exc}"
                ) from exc
            new_version = doc.get("schema") if isinstance(doc, dict) else None
            if not is_int(new_version) or new_version <= version:
                raise self.fail("schema", f"the migration from version {version} did not raise it")
            version = new_version
        return doc

    # -- the document ------------------------------------------------------------------
    def track(self, doc: dict[str, Any]) -> Track:
        for key in doc:
            if key not in _TOP_LEVEL_KEYS:
                raise self.fail(
                    key, f"unknown field; a track file has {', '.join(_TOP_LEVEL_KEYS)}"
                )
        for key in _TOP_LEVEL_KEYS:
            if key not in doc:
                raise self.fail(key, "missing")
        graph = nx.DiGraph()
        graph.graph.update(self.graph_attributes(doc["graph"]))
        for where, record in self.records(doc, "spaces"):
            space = self.space_id(record, "id", where)
            if space in graph:
                raise self.fail(f"{where}.id", f"duplicate space id {_shown(space)}")
            graph.add_nodes_from([(space, self.space_attributes(record, where))])
        for where, record in self.records(doc, "steps"):
            u = self.existing_space(graph, record, "from", where)
            v = self.existing_space(graph, record, "to", where)
            if graph.has_edge(u, v):
                raise self.fail(where, f"duplicate step {_shown(u)} -> {_shown(v)}")
            graph.add_edges_from([(u, v, self.step_attributes(record, where))])
        contacts = nx.Graph()
        contacts.add_nodes_from(graph.nodes)
        for where, record in self.records(doc, "contacts"):
            a = self.existing_space(graph, record, "a", where)
            b = self.existing_space(graph, record, "b", where)
            if contacts.has_edge(a, b):
                raise self.fail(where, f"duplicate contact {_shown(a)} - {_shown(b)}")
            contacts.add_edges_from([(a, b, self.contact_attributes(record, a, b, where))])
        return Track(graph, contacts)

    def records(self, doc: dict[str, Any], key: str) -> Iterator[tuple[str, dict[str, Any]]]:
        items = doc[key]
        if not isinstance(items, list):
            raise self.fail(key, f"must be a list, not {_json_type(items)}")
        for index, record in enumerate(items):
            where = f"{key}[{index}]"
            if not isinstance(record, dict):
                raise self.fail(where, f"must be an object, not {_json_type(record)}")
            yield where, record

    def graph_attributes(self, attrs: Any) -> dict[str, Any]:
        if not isinstance(attrs, dict):
            raise self.fail("graph", f"must be an object, not {_json_type(attrs)}")
        out = dict(attrs)
        out.pop("schema", None)
        for key, field in GRAPH_FIELDS.items():
            if key == "corners":  # a list of records in the file, a dict by id in memory
                out[key] = self.corners(out.get(key, []))
            if key in out:
                self.check(field, out[key], f"graph.{key}")
        out["schema"] = SCHEMA_VERSION
        return {key: out.get(key, default) for key, default in TRACK_DEFAULTS.items()} | out

    def corners(self, records: Any) -> dict[int, dict[str, Any]]:
        if not isinstance(records, list):
            raise self.fail("graph.corners", f"must be a list, not {_json_type(records)}")
        corners: dict[int, dict[str, Any]] = {}
        for index, record in enumerate(records):
            where = f"graph.corners[{index}]"
            if not isinstance(record, dict):
                raise self.fail(where, f"must be an object, not {_json_type(record)}")
            if "id" not in record:
                raise self.fail(f"{where}.id", "missing")
            corner = record["id"]
            if not CORNER_ID.accepts(corner):
                raise self.fail(f"{where}.id", f"corner ids must be integers, not {_shown(corner)}")
            if corner in corners:
                raise self.fail(f"{where}.id", f"duplicate corner id {corner}")
            info = {k: v for k, v in record.items() if k != "id"}
            for key, field in CORNER_FIELDS.items():
                if key in info:
                    self.check(field, info[key], f"{where}.{key}")
            corners[corner] = info
        return corners

    def space_id(self, record: dict[str, Any], key: str, where: str) -> int | str:
        if key not in record:
            raise self.fail(f"{where}.{key}", "missing")
        value = record[key]
        if not (is_int(value) or isinstance(value, str)):
            raise self.fail(
                f"{where}.{key}", f"space ids are integers or strings, not {_shown(value)}"
            )
        return value

    def existing_space(
        self, graph: nx.DiGraph, record: dict[str, Any], key: str, where: str
    ) -> int | str:
        space = self.space_id(record, key, where)
        if space not in graph:
            raise self.fail(f"{where}.{key}", f"space {_shown(space)} is not in spaces")
        return space

    def space_attributes(self, record: dict[str, Any], where: str) -> dict[str, Any]:
        for key in ("x", "y"):
            if key not in record:
                raise self.fail(f"{where}.{key}", "missing (every space needs its centre x, y)")
        attrs = dict(SPACE_DEFAULTS)
        attrs.update((k, v) for k, v in record.items() if k != "id")
        fields = {**SPACE_FIELDS, "polygon": FILE_POLYGON}  # the file holds the outline as WKT
        for key, field in fields.items():
            self.check(field, attrs[key], f"{where}.{key}")
        if attrs["polygon"] is not None:
            attrs["polygon"] = self.polygon(attrs["polygon"], f"{where}.polygon")
        return attrs

    def polygon(self, text: str, where: str) -> Polygon:
        try:
            with np.errstate(all="ignore"):  # 1e999 reads as inf, refused below
                geometry = shapely.from_wkt(text)
        except (shapely.errors.ShapelyError, ValueError) as exc:
            raise self.fail(where, f"not valid WKT ({str(exc).strip()})") from None
        if not isinstance(geometry, Polygon):
            raise self.fail(where, f"must be a POLYGON, not {geometry.geom_type.upper()}")
        if _has_measures(text, geometry):
            raise self.fail(
                where,
                "has M (measure) values, which a track file does not keep; use POLYGON or POLYGON Z",
            )
        coordinates = shapely.get_coordinates(geometry, include_z=geometry.has_z)
        if not np.isfinite(coordinates).all():
            raise self.fail(where, "has a coordinate that is NaN or infinite")
        return geometry

    def step_attributes(self, record: dict[str, Any], where: str) -> dict[str, Any]:
        attrs = {k: v for k, v in record.items() if k not in ("from", "to")}
        if "kind" not in attrs:
            raise self.fail(f"{where}.kind", f"missing ({STEP_FIELDS['kind'].expected})")
        attrs.setdefault("lines", [])
        fields = {**STEP_FIELDS, "lines": FILE_LINES}  # the file holds the lines as a list
        for key, field in fields.items():
            self.check(field, attrs[key], f"{where}.{key}")
        attrs["lines"] = frozenset(attrs["lines"])
        return attrs

    def contact_attributes(
        self, record: dict[str, Any], a: int | str, b: int | str, where: str
    ) -> dict[str, Any]:
        attrs = {k: v for k, v in record.items() if k not in ("a", "b")}
        for key, field in CONTACT_FIELDS.items():
            if key == "kind" or key in attrs:  # every contact has its kind
                self.check(field, attrs.get(key), f"{where}.{key}")
        if attrs["kind"] == "behind" and attrs.get("rear") not in (a, b):
            raise self.fail(
                f"{where}.rear",
                f"a 'behind' contact names its rear space: {_shown(a)} or {_shown(b)}",
            )
        return attrs


def _has_measures(text: str, geometry: Polygon) -> bool:
    has_m = getattr(shapely, "has_m", None)  # shapely >= 2.1
    if has_m is not None and has_m(geometry):
        return True
    # Older GEOS may read "POLYGON M" silently as 2D or as Z: look at the words before "(".
    words = text.upper().split("(", 1)[0].replace("POLYGON", " ").replace("EMPTY", " ").split()
    return "M" in words or "ZM" in words


def _field_name(where: tuple[Any, ...]) -> str:
    """``((((), "spaces"), 3), "x")`` -> ``spaces[3].x`` (a very deep one ends in ``...``)."""
    parts: list[Any] = []
    while where:
        where, key = where
        parts.append(key)
    parts.reverse()
    text = ""
    for key in parts[:8]:
        text += f"[{key}]" if isinstance(key, int) else (f".{key[:40]}" if text else key[:40])
    return text + ("..." if len(parts) > 8 else "")


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {_shown(value)}"
    return names.get(type(value), type(value).__name__)
