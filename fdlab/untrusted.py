"""Reading what a user hands fdlab: files that may be anything, JSON that may be hostile.

Every loader of fdlab (track files, game files, decks, boards of other
programs) reads through :func:`read_file` and :func:`parse_json`, so each
meets the same bad input the same way: a folder, a FIFO or ``/dev/zero``
given as a file, a file too big to be what it claims, bytes that are not
UTF-8, JSON nested without end, numbers JSON does not allow (``NaN``,
``Infinity``) or too large to be a float or to print. Each is one
:class:`UntrustedInputError` saying what is wrong; the loader adds the
file's name and raises its own error. Nothing here runs code from the
input. This module imports nothing from the rest of fdlab, so any layer may
use it.
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from typing import Any

from fdlab.errors import FdlabError

__all__ = ["MAX_JSON_DEPTH", "UntrustedInputError", "json_depth", "parse_json", "read_file"]

#: Lists and objects nested deeper than this are refused (a track file needs 5).
MAX_JSON_DEPTH = 64

_NOT_FILES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class UntrustedInputError(FdlabError):
    """Input that cannot be what it claims; the message says why, without the file's name."""


def read_file(path: str | os.PathLike[str], *, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, refusing anything else or anything larger.

    The file is opened without blocking, so a named pipe is refused at once
    instead of waiting for a writer, and at most ``limit + 1`` bytes are
    ever read, so ``/dev/zero`` or a huge file cannot fill the memory.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes the file may hold.
    what : str
        What the file should be, for the message (``"track file"``).

    Returns
    -------
    bytes

    Raises
    ------
    UntrustedInputError
        For a folder, a FIFO, a device or a socket, a file over ``limit``, or
        a file that cannot be opened (missing, no permission, a name with a
        NUL character): ``cannot read the file (No such file or directory)``,
        the system's error kept as its ``__cause__``.

    Examples
    --------
    >>> read_file("/dev/zero", limit=100)
    Traceback (most recent call last):
    ...
    fdlab.untrusted.UntrustedInputError: cannot read the file (it is a character device, not a file)
    >>> import tempfile
    >>> read_file(tempfile.gettempdir(), limit=100)
    Traceback (most recent call last):
    ...
    fdlab.untrusted.UntrustedInputError: cannot read the file (it is a folder, not a file)
    """
    try:
        data = _read_regular(path, limit, what)
    except UntrustedInputError:
        raise
    except (OSError, ValueError) as error:  # ValueError: a name the system cannot take (NUL)
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UntrustedInputError(f"cannot read the file ({detail})") from error
    if len(data) > limit:
        raise UntrustedInputError(_too_big(len(data), limit, what))
    return data


def _read_regular(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path``, opened without blocking."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(handle)  # before wrapping it: open() refuses a folder on its own terms
    except OSError:
        os.close(handle)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(handle)
        kind = next((name for test, name in _NOT_FILES if test(info.st_mode)), "not a file")
        raise UntrustedInputError(f"cannot read the file (it is {kind}, not a file)")
    with open(handle, "rb") as stream:
        if info.st_size > limit:
            raise UntrustedInputError(_too_big(info.st_size, limit, what))
        return stream.read(limit + 1)


def _too_big(size: int, limit: int, what: str) -> str:
    return f"the file is too big for a {what} ({_megabytes(size)}; at most {_megabytes(limit)})"


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.0f} MB" if size >= 2**20 else f"{size} bytes"


def parse_json(data: bytes | str, *, max_depth: int | None = MAX_JSON_DEPTH) -> Any:
    """The JSON value of ``data``, refusing what Python's ``json`` would take or choke on.

    Bytes must be UTF-8 (a byte-order mark is allowed). ``NaN`` and
    ``Infinity``, floats beyond about 1.8e308, integers too long to print and
    lists or objects nested deeper than ``max_depth`` are refused.

    Parameters
    ----------
    data : bytes or str
        The text.
    max_depth : int or None
        The deepest nesting of lists and objects allowed; ``None`` leaves
        the check to the caller (which may name the place), though JSON
        nested beyond Python's recursion limit is still refused.

    Returns
    -------
    object
        Dicts, lists, strings, finite floats, ints, booleans and ``None``.

    Raises
    ------
    UntrustedInputError
        Saying what is wrong and, for bad JSON, where (line and column).

    Examples
    --------
    >>> parse_json(b'{"gear": 3}')
    {'gear': 3}
    >>> parse_json('{"gear": Infinity}')
    Traceback (most recent call last):
    ...
    fdlab.untrusted.UntrustedInputError: not valid JSON: Infinity is not a number JSON allows
    >>> parse_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    fdlab.untrusted.UntrustedInputError: nested more than 64 levels deep (lists and objects)
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")  # a byte-order mark from a Windows editor is fine
        except UnicodeDecodeError as exc:
            raise UntrustedInputError(f"not UTF-8 text ({exc})") from None
    deep = UntrustedInputError(
        f"nested more than {max_depth or MAX_JSON_DEPTH} levels deep (lists and objects)"
    )
    try:
        value = json.loads(
            data, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_json_int
        )
    except json.JSONDecodeError as exc:
        hint = " (is the file truncated?)" if exc.pos >= len(data.rstrip()) - 1 else ""
        raise UntrustedInputError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}{hint}"
        ) from None
    except RecursionError:
        raise deep from None
    except ValueError as exc:
        raise UntrustedInputError(f"not valid JSON: {exc}") from None
    if max_depth is not None and json_depth(value) > max_depth:
        raise deep
    return value


def json_depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (0 for a plain value), without recursion.

    Examples
    --------
    >>> json_depth({"cars": [{"gear": 1}]}), json_depth(3)
    (3, 0)
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _reject_constant(name: str) -> None:
    raise UntrustedInputError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UntrustedInputError(
            f"the number {text[:40]} is too large (the largest is about 1.8e308)"
        )
    return value


def _json_int(text: str) -> int:
    limit = sys.get_int_max_str_digits()
    digits = len(text.lstrip("-"))
    if limit and digits > limit:
        raise UntrustedInputError(f"an integer with {digits} digits is too long (at most {limit})")
    return int(text)
