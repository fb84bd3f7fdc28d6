"""Track files of the Tabletop Simulator Formula D mod (tts-formula-d): one JSON file a track.

The fields read, as that mod documents them (``docs/track-format.md``):

* ``id``, ``name``, ``laps``, ``image`` (``width``, ``height`` in pixels);
* ``spaces``: ``id`` (a number, or a code such as ``"m.c1.0"``), ``pos``
  (pixel centre, y down), ``rot`` (degrees, the car's facing there),
  ``lane`` (1 = the inside lane of the lap), ``next`` (the legal
  successors, lane changes included) and ``corner`` (the corner id inside
  one, which ``corners`` must list, else null);
* ``corners``: ``id`` (a whole number), ``stops``, ``long`` and ``short``
  (the green and red numbers of the printed board);
* ``start``: the grid, pole first; ``finish.line``: in each lane the space
  just past the finish line;
* ``pit`` (optional): ``spaces`` (the pit lane in running order), ``entry``
  (the track space the pit lane leaves from) and ``exit`` (the track space
  it rejoins); missing links along that chain are added.

A value a track file could not keep (a number beyond float range or
:data:`MAX_WHOLE`, a string with a lone surrogate, a corner id not in
``corners``) is refused here, naming the file's field, rather than when
the board is saved.

Lanes are renumbered fdlab's way (0 = the leftmost in the direction of
travel); progress, step kinds, contacts and outlines are derived by
:func:`~fdlab.track.formats.assemble.assemble`. The file's ``long`` and
``short`` are kept, so the validator checks them against the links.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from fdlab._text import shown
from fdlab.track.errors import TrackFileError
from fdlab.track.formats.assemble import RawBoard, RawSpace, assemble
from fdlab.track.formats.reading import (
    MAX_POSITION,
    board_bytes,
    board_json,
    file_name_text,
    is_number,
    storable,
)
from fdlab.track.model import Track

__all__ = ["MAX_LANE", "MAX_WHOLE", "is_tts_document", "parse_tts", "read_tts"]

#: Whole numbers of the file (corner ids, stops, counts, laps) are below this in size,
#: as a track file keeps them.
MAX_WHOLE = 10**9
#: Highest lane number a space may have (lanes count from 1, the inside of the lap).
MAX_LANE = 1000


def is_tts_document(doc: Any) -> bool:
    """Whether a parsed JSON document looks like a TTS track (spaces with ``pos``).

    Examples
    --------
    >>> is_tts_document({"spaces": [{"id": 1, "pos": [0, 0], "next": []}]})
    True
    >>> is_tts_document({"schema": 1, "spaces": [{"id": 1, "x": 0.0, "y": 0.0}]})
    False
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("spaces"), list):
        return False
    first = doc["spaces"][0] if doc["spaces"] else {}
    return isinstance(first, dict) and "pos" in first


def read_tts(path: str | os.PathLike[str]) -> Track:
    """Import a Tabletop Simulator track JSON file.

    Raises
    ------
    TrackFileError
        If the file cannot be read, is not JSON, or a field is missing or of
        the wrong type, naming the field (``spaces[3].next[1]``...).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> spaces = [
    ...     {"id": i, "pos": [100 + 40 * (i // 2), 100 + 25 * (i % 2)], "rot": 0, "lane": 2 - i % 2,
    ...      "next": [j for j in range(8) if j // 2 == (i // 2 + 1) % 4], "corner": None}
    ...     for i in range(8)
    ... ]
    >>> doc = {"id": "Tiny", "name": "Tiny", "spaces": spaces, "finish": {"line": [0, 1]}, "start": [7, 6]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.json"
    >>> _ = path.write_text(json.dumps(doc))
    >>> track = read_tts(path)
    >>> len(track), track.grid_spots(), track.graph.nodes[0]["lane"]
    (8, [7, 6], 0)
    """
    source = str(path)
    return assemble(parse_tts(board_json(board_bytes(path), source), source=source))


def parse_tts(doc: Any, *, source: str = "<dict>") -> RawBoard:
    """The spaces, links, corners, grid and pit lane of a parsed TTS track document.

    Examples
    --------
    >>> doc = {"name": "Two", "spaces": [
    ...     {"id": "i.s1.0", "pos": [0, 0], "rot": 0, "lane": 1, "next": ["i.s1.1"]},
    ...     {"id": "i.s1.1", "pos": [45, 0], "rot": 0, "lane": 1, "next": ["i.s1.0"]}],
    ...     "finish": {"line": ["i.s1.0"]}}
    >>> board = parse_tts(doc)
    >>> board.steps, board.spaces["i.s1.0"].finish, board.spaces["i.s1.1"].y
    ([('i.s1.0', 'i.s1.1'), ('i.s1.1', 'i.s1.0')], True, -0.0)
    """
    reader = _Reader(source)
    if not isinstance(doc, dict):
        raise reader.fail("", "a track is a JSON object")
    spaces = reader.list_of(doc, "spaces", "")
    if not spaces:
        raise reader.fail("spaces", "the track has no spaces")
    for key in ("name", "id", "ruleset", "lanes"):
        reader.text(doc.get(key), key)
    name = doc.get("name") or doc.get("id") or file_name_text(Path(source).stem)
    laps = reader.whole(doc, "laps", "", default=1)
    if laps < 1:
        raise reader.fail("laps", f"a race is at least 1 lap, not {laps}")
    board = RawBoard(
        name=str(name),
        source=source,
        laps=laps,
        description=f"Imported from the Tabletop Simulator track {doc.get('id', name)}.",
        origin=_origin(doc, source),
    )
    _read_corners(reader, doc, board)
    links: dict[Any, list[Any]] = {}
    for i, record in enumerate(spaces):
        space, nexts = _read_space(reader, record, f"spaces[{i}]", board)
        links[space] = nexts
    for i, record in enumerate(spaces):
        space = reader.space_id(record["id"], f"spaces[{i}].id")
        for k, target in enumerate(links[space]):
            board.steps.append((space, reader.known(board, target, f"spaces[{i}].next[{k}]")))
    _read_finish(reader, doc, board)
    _read_pit(reader, doc, board)
    board.grid = [
        reader.known(board, spot, f"start[{k}]")
        for k, spot in enumerate(reader.list_of(doc, "start", "", default=[]))
    ]
    _renumber_lanes(board)
    return board


def _read_space(
    reader: _Reader, record: Any, where: str, board: RawBoard
) -> tuple[int | str, list[Any]]:
    """Add one ``spaces`` record to the board; its id and the ids it links to."""
    if not isinstance(record, dict):
        raise reader.fail(where, "a space is a JSON object")
    space = reader.space_id(record.get("id"), f"{where}.id")
    if space in board.spaces:
        raise reader.fail(f"{where}.id", f"space {shown(space)} is listed twice")
    pos = record.get("pos")
    if not (
        isinstance(pos, list) and len(pos) == 2 and all(is_number(p, MAX_POSITION) for p in pos)
    ):
        raise reader.fail(
            f"{where}.pos",
            f"expected [x, y] pixel numbers of at most {MAX_POSITION:g}, not {shown(pos)}",
        )
    rot = record.get("rot")
    if rot is not None and not is_number(rot, MAX_POSITION):
        raise reader.fail(f"{where}.rot", f"expected degrees, not {shown(rot)}")
    corner = record.get("corner")
    if corner is not None:
        corner = reader.corner_id(corner, f"{where}.corner")
        if corner not in board.corners:
            listed = ", ".join(map(str, board.corners)) or "none"
            raise reader.fail(
                f"{where}.corner", f"corner {corner} is not in corners (the file lists {listed})"
            )
    lane = reader.whole(record, "lane", where, default=None)
    if lane is not None and not 0 <= lane <= MAX_LANE:
        raise reader.fail(
            f"{where}.lane", f"expected a lane number from 0 to {MAX_LANE}, not {lane}"
        )
    board.spaces[space] = RawSpace(
        space,
        float(pos[0]),
        -float(pos[1]),  # image pixels grow downwards; fdlab's y points up
        lane=lane,
        curve=corner is not None,
        corner=corner,
        heading=None if rot is None else -math.radians(float(rot)),
    )
    nexts = record.get("next", [])
    if not isinstance(nexts, list):
        raise reader.fail(f"{where}.next", f"expected a list of space ids, not {shown(nexts)}")
    return space, nexts


def _origin(doc: dict[str, Any], source: str) -> dict[str, Any]:
    origin: dict[str, Any] = {"format": "tts", "file": file_name_text(Path(source).name)}
    for key in ("id", "ruleset", "lanes"):
        if isinstance(doc.get(key), int | str):
            origin[key] = doc[key]
    image = doc.get("image")
    if isinstance(image, dict) and all(is_number(image.get(k)) for k in ("width", "height")):
        origin["image"] = {"width": image["width"], "height": image["height"]}
    return origin


def _read_corners(reader: _Reader, doc: dict[str, Any], board: RawBoard) -> None:
    for k, record in enumerate(reader.list_of(doc, "corners", "", default=[])):
        where = f"corners[{k}]"
        if not isinstance(record, dict):
            raise reader.fail(where, "a corner is a JSON object")
        corner = reader.corner_id(record.get("id"), f"{where}.id")
        if corner in board.corners:
            raise reader.fail(f"{where}.id", f"corner {corner} is listed twice")
        info: dict[str, Any] = {"stops": reader.whole(record, "stops", where, default=None)}
        for key in ("long", "short"):
            value = reader.whole(record, key, where, default=None)
            if value is not None:
                info[key] = value
        board.corners[corner] = info


def _read_finish(reader: _Reader, doc: dict[str, Any], board: RawBoard) -> None:
    finish = doc.get("finish")
    if not isinstance(finish, dict):
        raise reader.fail("finish", 'expected {"line": [space ids just past the line]}')
    line = reader.list_of(finish, "line", "finish")
    if not line:
        # the mod's own tracks leave it empty until the line is filled in by hand
        raise reader.fail(
            "finish.line",
            "empty: list the space just past the finish line in each lane (the mod "
            "leaves it empty until it is filled in)",
        )
    for k, space in enumerate(line):
        board.spaces[reader.known(board, space, f"finish.line[{k}]")].finish = True


def _read_pit(reader: _Reader, doc: dict[str, Any], board: RawBoard) -> None:
    pit = doc.get("pit")
    if pit is None or pit == {}:
        return
    if not isinstance(pit, dict):
        raise reader.fail("pit", 'expected {"entry", "exit", "spaces"}')
    lane = [
        reader.known(board, space, f"pit.spaces[{k}]")
        for k, space in enumerate(reader.list_of(pit, "spaces", "pit", default=[]))
    ]
    if not lane:
        return
    for space in lane:
        board.spaces[space].kind = "pit"
        board.spaces[space].curve = False
        board.spaces[space].corner = None
    chain = lane[:]
    if pit.get("entry") is not None:
        chain.insert(0, reader.known(board, pit["entry"], "pit.entry"))
    if pit.get("exit") is not None:
        chain.append(reader.known(board, pit["exit"], "pit.exit"))
    steps = set(board.steps)
    for u, v in zip(chain, chain[1:], strict=False):
        if (u, v) not in steps:
            board.steps.append((u, v))


def _renumber_lanes(board: RawBoard) -> None:
    """File lanes count from the inside of the lap; fdlab's from the left of the car."""
    spaces = board.spaces
    given = [s.lane for s in spaces.values() if s.kind == "track" and s.lane is not None]
    if not given:
        return
    low, high = min(given), max(given)
    vote = 0.0
    for u, v in board.steps:
        a, b = spaces[u], spaces[v]
        if a.kind != "track" or b.kind != "track" or a.lane is None or b.lane is None:
            continue
        if b.lane != a.lane and a.heading is not None:
            left = math.cos(a.heading) * (b.y - a.y) - math.sin(a.heading) * (b.x - a.x)
            vote += math.copysign(1.0, left) * (1 if b.lane > a.lane else -1)
    higher_is_left = vote > 0
    for s in spaces.values():
        if s.kind != "track":
            s.lane = None
        elif s.lane is not None:
            lane = s.lane
            s.lane = high - lane if higher_is_left else lane - low


class _Reader:
    """Field checks that fail with one error naming the file and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TrackFileError:
        return TrackFileError(self.source, where, message)

    def list_of(
        self, record: dict[str, Any], key: str, where: str, default: Any = None
    ) -> list[Any]:
        value = record.get(key, default)
        path = f"{where}.{key}" if where else key
        if value is None:
            raise self.fail(path, "missing")
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, not {type(value).__name__}")
        return value

    def whole(self, record: dict[str, Any], key: str, where: str, default: Any) -> Any:
        value = record.get(key, default)
        if value is default:
            return value
        if not _is_whole(value):
            path = f"{where}.{key}" if where else key
            raise self.fail(
                path, f"expected a whole number (below {MAX_WHOLE:.0e}), not {shown(value)}"
            )
        return value

    def corner_id(self, value: Any, where: str) -> int:
        if not _is_whole(value):
            raise self.fail(
                where, f"a corner id is a whole number (below {MAX_WHOLE:.0e}), not {shown(value)}"
            )
        return int(value)

    def text(self, value: Any, where: str) -> None:
        if isinstance(value, str) and not storable(value):
            raise self.fail(where, f"{shown(value)} holds a lone surrogate, not text")

    def space_id(self, value: Any, where: str) -> int | str:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.fail(where, f"a space id is a number or a code, not {shown(value)}")
        self.text(value, where)
        return value

    def known(self, board: RawBoard, value: Any, where: str) -> int | str:
        space = self.space_id(value, where)
        if space not in board.spaces:
            raise self.fail(where, f"space {shown(space)} is not in the list of spaces")
        return space


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < MAX_WHOLE
