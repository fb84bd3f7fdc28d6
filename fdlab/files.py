"""Files written all at once: the one place fdlab replaces a file on disk.

Every module that saves something (track files, pictures, reports) writes
through :func:`atomic_write`, so a crash or a full disk never leaves half a
file behind. This module imports nothing from the rest of fdlab, so any
layer may use it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["atomic_write"]


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` by ``data`` all at once, or not at all.

    ``data`` goes to a temporary file in the same folder, is flushed to
    disk and renamed over ``path``; an existing file keeps its permissions.
    If anything fails, ``path`` is left as it was, the temporary file is
    removed and an ``OSError`` naming ``path`` (not the temporary file) is
    raised.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "board.svg"
    >>> atomic_write(page, b"<svg/>")
    >>> page.read_bytes()
    b'<svg/>'
    """
    target = Path(path)
    folder = target.parent
    temp_name = None
    try:
        mode = _new_file_mode(target)
        handle, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            _write_all(stream, data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
        temp_name = None
        _fsync_folder(folder)
    except OSError as exc:
        if exc.errno is None or exc.filename == str(target):
            raise
        # Name the file the caller asked for, not the hidden temporary one.
        raise OSError(exc.errno, exc.strerror, str(target)) from exc
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)


def _write_all(stream: Any, data: bytes) -> None:
    """Write ``data`` to ``stream`` in chunks (one place for tests to fail a write)."""
    chunk = 1 << 16
    for start in range(0, len(data), chunk):
        stream.write(data[start : start + chunk])


def _new_file_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
