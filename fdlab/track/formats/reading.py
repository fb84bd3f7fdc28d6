"""Reading a board file of another program: through :mod:`fdlab.untrusted`, errors naming the file.

Every importer reads its file here, so each meets a folder, a FIFO,
``/dev/zero``, a huge file, bytes that are not UTF-8 or JSON nested without
end the same way :func:`~fdlab.track.io.load_track` does: one
:class:`~fdlab.track.errors.TrackFileError` naming the file, at once.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any

from fdlab.track.errors import TrackFileError
from fdlab.track.io import MAX_FILE_BYTES
from fdlab.untrusted import UntrustedInputError, parse_json, read_file

__all__ = [
    "MAX_POSITION",
    "board_bytes",
    "board_json",
    "file_name_text",
    "is_number",
    "storable",
]

#: Largest position of a space in another program's board, in its units (pixels): a
#: board image is a few thousand pixels wide; beyond this, distances overflow.
MAX_POSITION = 1e9


def board_bytes(path: str | os.PathLike[str], what: str = "board file") -> bytes:
    """The bytes of a board file, or one :class:`TrackFileError` naming it.

    Examples
    --------
    >>> board_bytes("/dev/zero")
    Traceback (most recent call last):
    ...
    fdlab.track.errors.TrackFileError: /dev/zero: cannot read the file (it is a character device, not a file)
    """
    source = str(path)
    try:
        return read_file(path, limit=MAX_FILE_BYTES, what=what)
    except UntrustedInputError as exc:
        raise TrackFileError(source, "", str(exc)) from None


def board_json(data: bytes, source: str) -> Any:
    """The JSON document of a board file's bytes, or one :class:`TrackFileError` naming it.

    Examples
    --------
    >>> board_json(b'{"spaces": ' + b"[" * 100 + b"]" * 100 + b"}", "deep.json")
    Traceback (most recent call last):
    ...
    fdlab.track.errors.TrackFileError: deep.json: nested more than 64 levels deep (lists and objects)
    """
    try:
        return parse_json(data)
    except UntrustedInputError as exc:
        raise TrackFileError(source, "", str(exc)) from None


def is_number(value: Any, limit: float = sys.float_info.max) -> bool:
    """An int or float (not a bool) no larger than ``limit`` (a 400-digit int is not a position).

    Examples
    --------
    >>> is_number(3), is_number(10**400), is_number(float("nan")), is_number(True)
    (True, False, False, False)
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= limit
    return math.isfinite(value) and abs(value) <= limit


def storable(text: str) -> bool:
    """Whether UTF-8 can store ``text`` (JSON may hold a lone surrogate, ``"\\ud800"``; a
    track file cannot).

    Examples
    --------
    >>> storable("Monaco"), storable("\\ud800")
    (True, False)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def file_name_text(name: str) -> str:
    """A file name as text a track file can store (undecodable bytes become ``?``).

    A name of bytes that are not UTF-8 reaches Python with lone surrogates
    standing for them (``os.fsdecode``); a board named after it could not be saved.

    Examples
    --------
    >>> file_name_text("caf\\udce9"), file_name_text("Monaco")
    ('caf?', 'Monaco')
    """
    return name.encode("utf-8", errors="replace").decode("utf-8")
