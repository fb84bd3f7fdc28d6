"""Files written all at once: the one place fdlab replaces a file on disk.

Every module that saves something (track files, pictures, reports) writes
through :func:`atomic_write`, so a crash or a full disk never leaves half a
file behind. This module imports nothing from the rest of fdlab, so any
layer may use it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["STALE_AFTER_SECONDS", "atomic_write"]

#: A temporary file of a save whose process is gone is removed once it is this old.
STALE_AFTER_SECONDS = 60.0


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` by ``data`` all at once, or not at all.

    ``data`` goes to a temporary file in the same folder, is flushed to
    disk and renamed over ``path``; an existing file keeps its permissions.
    If anything fails, ``path`` is left as it was, the temporary file is
    removed and an ``OSError`` naming ``path`` (not the temporary file) is
    raised.

    When ``path`` is a symbolic link, the file it points to is replaced and
    the link stays. The temporary file's name holds the saving process's
    id (``.NAME.PID-XXXX.tmp``); one left behind by a save that was killed
    (so it could not remove it) is removed by the next save of the same
    file, once its process is gone and it is :data:`STALE_AFTER_SECONDS` old.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "board.svg"
    >>> atomic_write(page, b"<svg/>")
    >>> page.read_bytes()
    b'<svg/>'
    """
    asked = Path(path)
    # Replace the file a link points to, not the link (os.replace would swap the link itself).
    target = Path(os.path.realpath(asked)) if asked.is_symlink() else asked
    folder = target.parent
    temp_name = None
    try:
        _remove_stale_temporaries(target)
        mode = _new_file_mode(target)
        handle, temp_name = tempfile.mkstemp(
            dir=folder, prefix=f"{_temporary_prefix(target)}{os.getpid()}-", suffix=".tmp"
        )
        with os.fdopen(handle, "wb") as stream:
            _write_all(stream, data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
        temp_name = None
        _fsync_folder(folder)
    except OSError as exc:
        if exc.errno is None or exc.filename == str(asked):
            raise
        # Name the file the caller asked for, not the hidden temporary one.
        raise OSError(exc.errno, exc.strerror, str(asked)) from exc
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}."


def _remove_stale_temporaries(target: Path) -> None:
    """Remove temporary files of earlier saves of ``target`` whose process was killed."""
    pattern = os.path.join(glob.escape(str(target.parent)), glob.escape(_temporary_prefix(target)))
    now = time.time()
    for name in glob.glob(pattern + "*-*.tmp", include_hidden=True):
        pid_text = os.path.basename(name)[len(_temporary_prefix(target)) :].split("-", 1)[0]
        if not pid_text.isdecimal() or _process_alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if now - os.lstat(name).st_mtime >= STALE_AFTER_SECONDS:
                os.unlink(name)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or a number we cannot ask about: leave it
    return True


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
