"""Boards of GP Online, the open-source Java Formula D game: its ``.dat`` text files.

A ``.dat`` file is a header line, then sections separated by blank lines::

    <image-file> <info-box corner 0-4> [<rain %> <rounds between weather changes>]

    <id> <x> <y> <type> [F]      one space a line (pixels, y down); F: on the finish line
    <from-id> <to-id>            the steps a car may take
    <id> <value>                 curve space: distance into the curve; pit space: 1.0 = garage
    <id> <degrees>               optional: grid spots and the car's heading there

Space types: 0 unknown (read as straight), 1 straight, 2 curve of 2 stops,
3 curve of 1 stop, 4 blocked (a virtual space keeping a lane continuous
where the road narrows; left out of the track), 5 finish (straight, on the
finish line), 6 curve of 3 stops, 7 pit lane.

The file stores no lanes, progress or contacts: :func:`read_gponline` reads
what it holds and :func:`~fdlab.track.formats.assemble.assemble` derives the
rest. A corner is each run of curve spaces; it asks for the stops of its last
curve spaces. Garages become boxes, numbered along the pit lane; grid spots
are ranked by progress, pole the furthest ahead.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from fdlab.track.errors import TrackFileError
from fdlab.track.formats.assemble import RawBoard, RawSpace, assemble
from fdlab.track.formats.reading import MAX_POSITION, board_bytes, file_name_text
from fdlab.track.model import Track

__all__ = ["MAX_OFFSET", "SPACE_TYPES", "gponline_text", "parse_gponline", "read_gponline"]

#: Type number -> (kind, stops of a curve or None, on the finish line, virtual).
SPACE_TYPES: dict[int, tuple[str, int | None, bool, bool]] = {
    0: ("track", None, False, False),
    1: ("track", None, False, False),
    2: ("track", 2, False, False),
    3: ("track", 1, False, False),
    4: ("track", None, False, True),
    5: ("track", None, True, False),
    6: ("track", 3, False, False),
    7: ("pit", None, False, False),
}

#: Largest distance into a curve a ``.dat`` file may give, in spaces (a corner is a few).
MAX_OFFSET = 1e6


def read_gponline(path: str | os.PathLike[str]) -> Track:
    """Import a GP Online ``.dat`` board.

    Parameters
    ----------
    path : str or path
        The ``.dat`` file.

    Returns
    -------
    Track
        Space ids are the file's; ``units`` are the board image's pixels
        (y turned upwards); ``imported_from`` keeps the header's facts.

    Raises
    ------
    TrackFileError
        If the file cannot be read or a line is malformed, naming the line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> rows = [f"{i} {100 + 40 * (i // 2)} {100 + 25 * (i % 2)} {5 if i < 2 else 1}" for i in range(8)]
    >>> steps = [f"{i} {j}" for i in range(8) for j in range(8) if j // 2 == (i // 2 + 1) % 4]
    >>> _ = (folder / "tiny.dat").write_text("\\n".join(["tiny.png 0", "", *rows, "", *steps, ""]))
    >>> track = read_gponline(folder / "tiny.dat")
    >>> len(track), track.lap_length, track.graph.graph["units"]
    (8, 4.0, 'px')
    """
    return assemble(parse_gponline(gponline_text(board_bytes(path)), source=str(path)))


def gponline_text(data: bytes) -> str:
    """The text of a ``.dat`` file's bytes (bytes that are not UTF-8 become U+FFFD).

    Examples
    --------
    >>> gponline_text(b"ring.png 2 \\xff") == "ring.png 2 \\N{REPLACEMENT CHARACTER}"
    True
    """
    return data.decode("utf-8", errors="replace")


def parse_gponline(text: str, *, source: str = "<string>") -> RawBoard:
    """The spaces, steps, distances and grid of a ``.dat`` text, without deriving anything.

    Examples
    --------
    >>> board = parse_gponline("ring.png 2 30 5\\n\\n1 0 0 5 F\\n2 40 0 3\\n\\n1 2\\n2 1\\n\\n2 1.0\\n")
    >>> board.spaces[2].curve, board.spaces[2].stops, board.spaces[2].offset, board.steps
    (True, 1, 1.0, [(1, 2), (2, 1)])
    >>> board.origin["rain_probability"], board.origin["image"]
    (30, 'ring.png')
    """
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise TrackFileError(source, "line 1", "expected the header '<image> <info-box corner>'")
    header = lines[0].split()
    name = file_name_text(Path(source).stem if source != "<string>" else Path(header[0]).stem)
    board = RawBoard(
        name=name.replace("_", " "),
        source=source,
        description=f"Imported from the GP Online board {file_name_text(Path(source).name)}.",
        origin=_header(header, source),
    )
    sections = _sections(lines)
    if not sections:
        raise TrackFileError(source, "line 2", "the file has no spaces after its header")
    readers = (_read_space, _read_step, _read_value, _read_grid)
    if len(sections) > len(readers):
        number = sections[len(readers)][0][0]
        raise TrackFileError(source, f"line {number}", "more sections than a .dat file has (4)")
    for reader, section in zip(readers, sections, strict=False):
        for number, words in section:
            reader(board, words, source, f"line {number}")
    return board


def _header(words: list[str], source: str) -> dict[str, object]:
    origin: dict[str, object] = {"format": "gponline", "file": file_name_text(Path(source).name)}
    origin["image"] = words[0]
    numbers = [_number(w, int, source, "line 1") for w in words[1:4]]
    for key, value in zip(
        ("info_box_corner", "rain_probability", "weather_rounds"), numbers, strict=False
    ):
        origin[key] = value
    return origin


def _sections(lines: list[str]) -> list[list[tuple[int, list[str]]]]:
    """Numbered, split lines of each section after the header (blank lines separate them)."""
    sections: list[list[tuple[int, list[str]]]] = []
    current: list[tuple[int, list[str]]] = []
    for number, line in enumerate(lines[1:], start=2):
        words = line.split()
        if words:
            current.append((number, words))
        elif current:
            sections.append(current)
            current = []
    if current:
        sections.append(current)
    return sections


def _number(word: str, kind: type[int] | type[float], source: str, where: str) -> int | float:
    try:
        value = kind(word)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise TrackFileError(source, where, f"expected {noun}, not {word!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise TrackFileError(source, where, f"expected a finite number, not {word!r}")
    return value


def _existing(board: RawBoard, word: str, source: str, where: str) -> int:
    space = int(_number(word, int, source, where))
    if space not in board.spaces:
        raise TrackFileError(source, where, f"space {space} is not in the list of spaces")
    return space


def _read_space(board: RawBoard, words: list[str], source: str, where: str) -> None:
    if len(words) not in (4, 5) or (len(words) == 5 and words[4].upper() != "F"):
        raise TrackFileError(
            source, where, f"a space is '<id> <x> <y> <type> [F]', not {' '.join(words)!r}"
        )
    space = int(_number(words[0], int, source, where))
    if space in board.spaces:
        raise TrackFileError(source, where, f"space {space} is listed twice")
    x, y = (float(_number(w, float, source, where)) for w in words[1:3])
    if max(abs(x), abs(y)) > MAX_POSITION:
        raise TrackFileError(
            source,
            where,
            f"space {space} lies at ({words[1][:30]}, {words[2][:30]}): a position is "
            f"image pixels, at most {MAX_POSITION:g}",
        )
    type_number = int(_number(words[3], int, source, where))
    if type_number not in SPACE_TYPES:
        known = ", ".join(map(str, SPACE_TYPES))
        raise TrackFileError(
            source, where, f"space {space} has unknown type {type_number} (known: {known})"
        )
    kind, stops, finish, virtual = SPACE_TYPES[type_number]
    board.spaces[space] = RawSpace(
        space,
        x,
        -y,  # image pixels grow downwards; fdlab's y points up
        kind=kind,
        curve=stops is not None,
        stops=stops,
        finish=finish or len(words) == 5,
        virtual=virtual,
    )


def _read_step(board: RawBoard, words: list[str], source: str, where: str) -> None:
    if len(words) != 2:
        raise TrackFileError(
            source, where, f"a step is '<from-id> <to-id>', not {' '.join(words)!r}"
        )
    u, v = (_existing(board, w, source, where) for w in words)
    # steps into blocked spaces still tell which lane runs on; the track leaves them out
    board.steps.append((u, v))


def _read_value(board: RawBoard, words: list[str], source: str, where: str) -> None:
    if len(words) != 2:
        raise TrackFileError(source, where, f"expected '<id> <number>', not {' '.join(words)!r}")
    space = board.spaces[_existing(board, words[0], source, where)]
    value = float(_number(words[1], float, source, where))
    if abs(value) > MAX_OFFSET:
        raise TrackFileError(
            source,
            where,
            f"space {space.id}: {words[1][:30]} is not a distance into a curve "
            f"(spaces, at most {MAX_OFFSET:g}) nor 1.0 for a garage",
        )
    if space.curve:
        space.offset = value
    elif space.kind == "pit":
        space.garage = value == 1.0


def _read_grid(board: RawBoard, words: list[str], source: str, where: str) -> None:
    if len(words) != 2:
        raise TrackFileError(
            source, where, f"a grid spot is '<id> <degrees>', not {' '.join(words)!r}"
        )
    space = _existing(board, words[0], source, where)
    _number(words[1], float, source, where)
    if space in board.grid_spots:
        raise TrackFileError(source, where, f"grid spot {space} is listed twice")
    board.grid_spots.append(space)
