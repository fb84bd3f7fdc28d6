"""Solved tables on disk: a board is solved once per content, not once per Python session.

:func:`~fdlab.par.table.solo_table` keeps its tables in memory for the
life of the process; this module keeps them on disk as well, so a
restarted notebook, a playtest run again tomorrow or a second terminal
reads the table of a board it has met before (a few milliseconds)
instead of solving it again (seconds).

* **Where**: ``par/`` in the user's cache folder (``platformdirs``:
  ``~/.cache/fdlab`` on Linux, ``~/Library/Caches/fdlab`` on macOS,
  ``%LOCALAPPDATA%\\fdlab\\Cache`` on Windows), or in the folder named by
  the ``FDLAB_CACHE_DIR`` environment variable.
* **Switched off** by ``FDLAB_CACHE=off`` (or ``0``, ``no``, ``false``); ``on``,
  ``1``, ``yes``, ``true`` or no value keep it on, and any other value is
  refused (:class:`~fdlab.par.errors.CacheSettingError`): a typo must not
  silently leave the cache on. ``~`` in ``FDLAB_CACHE_DIR`` is the home folder.
* **Keyed** by the table's key (:func:`~fdlab.par.table.table_key`: the
  board's content hash, the modelled preset's hash, the pit box),
  :data:`FORMAT` (the version of the file layout) and
  :func:`solver_version` (a hash of the solver's and the rules' source):
  a file of another format, key or fdlab is never read as this one, so
  changing the rules or the solver never serves a stale table.
* **Safe**: a file is written whole to a temporary name and renamed into
  place (:func:`fdlab.files.atomic_write`), so a reader never sees half a file; reading uses
  ``numpy.load`` with ``allow_pickle=False`` and JSON for the metadata,
  so it never executes code. Each file carries a digest of its arrays and
  figures, checked on reading, and the positions it holds must lie on the
  board asking for it. A file that is unreadable, of another format, edited
  by hand or inconsistent is ignored (the table is solved again and the file
  rewritten); a cache folder that cannot be named, read or written (a
  name too long or holding a NUL, no permission, a file in its place) is
  ignored too: the cache is then off for that call. The cache never
  raises an error of its own, but for a setting that means nothing.

Deleting the folder is always safe: tables are solved again when needed.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from fdlab.files import atomic_write
from fdlab.par.errors import CacheSettingError, StoredTableError

if TYPE_CHECKING:
    from fdlab.par.table import ParTable
    from fdlab.rules.presets import Preset

__all__ = ["FORMAT", "cache_dir", "load", "path_for", "save", "solver_version"]

#: Version of the file layout and of what the solver computes; bump it when either changes.
FORMAT = 2

_LOG = logging.getLogger(__name__)
_OFF = {"0", "off", "no", "false"}
_ON = {"", "1", "on", "yes", "true"}


def cache_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder of the solved tables, or ``None`` when the disk cache is switched off.

    ``environ`` defaults to ``os.environ`` (``FDLAB_CACHE_DIR``, ``FDLAB_CACHE``).

    Examples
    --------
    >>> cache_dir({"FDLAB_CACHE_DIR": "/tmp/fdlab-example"}).as_posix()
    '/tmp/fdlab-example/par'
    >>> cache_dir({"FDLAB_CACHE": "off"}) is None
    True
    >>> cache_dir({}).name
    'par'
    >>> cache_dir({"FDLAB_CACHE": "offf"})
    Traceback (most recent call last):
    ...
    fdlab.par.errors.CacheSettingError: FDLAB_CACHE='offf' means nothing: set it to off (or 0, no, false) to keep solved tables off the disk, or to on (or leave it unset) to keep them
    """
    environ = os.environ if environ is None else environ
    setting = environ.get("FDLAB_CACHE", "").strip().lower()
    if setting in _OFF:
        return None
    if setting not in _ON:
        raise CacheSettingError(
            f"FDLAB_CACHE={environ['FDLAB_CACHE']!r} means nothing: set it to off (or 0, no, "
            "false) to keep solved tables off the disk, or to on (or leave it unset) to keep them"
        )
    root = environ.get("FDLAB_CACHE_DIR")
    if not root:
        import platformdirs

        root = platformdirs.user_cache_dir("fdlab", appauthor=False)
    return Path(root).expanduser() / "par"


@functools.cache
def solver_version() -> str:
    """A hash of the source of what a solved table depends on: the solver and the rules.

    Any change to ``fdlab/rules`` or to the solver's modules gives another
    version, hence other cache files (the old ones are simply not read).

    Examples
    --------
    >>> len(solver_version())
    16
    """
    import fdlab

    package = Path(fdlab.__file__).parent
    files = sorted((package / "rules").glob("*.py"))
    files += [package / "par" / f"{name}.py" for name in ("approx", "model", "solve")]
    digest = hashlib.sha256(f"{FORMAT} {fdlab.__version__}".encode())
    for path in files:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:  # no source beside the package: its version stands for it
            digest.update(path.name.encode())
    return digest.hexdigest()[:16]


def path_for(key: tuple[str, str, int]) -> Path | None:
    """The file of the table with ``key`` (:func:`~fdlab.par.table.table_key`), or ``None``."""
    folder = cache_dir()
    if folder is None:
        return None
    name = hashlib.sha256(json.dumps([FORMAT, solver_version(), *key]).encode()).hexdigest()
    return folder / f"{name}.npz"


def load(key: tuple[str, str, int], preset: Preset, spaces: int | None = None) -> ParTable | None:
    """The table stored under ``key``, or ``None`` (none stored, switched off, or unusable).

    ``preset`` is the modelled preset (:func:`~fdlab.par.approx.solo_preset`)
    whose hash is ``key[1]``: it is not stored, only checked through the key.
    ``spaces``, the number of spaces of the board asking, is checked against
    the positions the file holds. A file whose digest does not match what it
    holds (edited by hand, or damaged) is not used.

    Examples
    --------
    >>> import os, tempfile
    >>> from fdlab.par.table import table_key
    >>> from fdlab.par import solve_par
    >>> before = os.environ.get("FDLAB_CACHE_DIR")
    >>> os.environ["FDLAB_CACHE_DIR"] = tempfile.mkdtemp()
    >>> board = compile_board(from_ascii(". . . . . .", grid=[0], finish=3))
    >>> key = table_key(board, BASIC)
    >>> load(key, BASIC) is None
    True
    >>> save(key, solve_par(board).table(key[0]))
    True
    >>> round(load(key, BASIC).par, 2)
    1.85
    >>> if before is None:
    ...     del os.environ["FDLAB_CACHE_DIR"]
    ... else:
    ...     os.environ["FDLAB_CACHE_DIR"] = before
    """
    path = None
    try:
        path = path_for(key)
        if path is None or not path.is_file():
            return None
        return _read(path, key, preset, spaces)
    except CacheSettingError:
        raise
    except Exception as error:  # a bad file or folder is a cache miss, never an error
        _LOG.info("ignoring the solved table %s: %s", path, error)
        return None


def _digest(meta: Mapping[str, object], *arrays: NDArray[np.generic]) -> str:
    """A hash of a table's figures (``meta`` but its digest) and arrays, as stored."""
    digest = hashlib.sha256(
        json.dumps({k: v for k, v in meta.items() if k != "digest"}, sort_keys=True).encode()
    )
    for array in arrays:
        digest.update(str((array.dtype.str, array.shape)).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def _read(
    path: Path, key: tuple[str, str, int], preset: Preset, spaces: int | None = None
) -> ParTable:
    from fdlab.par.table import ParTable

    with np.load(path, allow_pickle=False) as stored:
        meta = json.loads(bytes(stored["meta"]).decode())
        value = np.array(stored["value"], dtype=np.float64)
        policy = np.array(stored["gear_policy"], dtype=np.int8)
        positions = np.array(stored["positions"], dtype=np.int64)
    if meta.get("format") != FORMAT or meta.get("solver") != solver_version():
        raise StoredTableError(f"format {meta.get('format')!r} of solver {meta.get('solver')!r}")
    if meta.get("digest") != _digest(meta, value, policy, positions):
        raise StoredTableError("its digest does not match what it holds (edited or damaged)")
    if [meta.get("board_key"), meta.get("preset_key"), meta.get("box_slot")] != list(key):
        raise StoredTableError("stored for another board, preset or box")
    shape = (len(positions), preset.gears + 1, preset.pool_max[0] + 1)
    if value.shape != shape or policy.shape != shape or positions.shape != (shape[0], 3):
        raise StoredTableError(f"arrays of shape {value.shape}, expected {shape}")
    if (
        spaces is not None
        and len(positions)
        and not 0 <= positions[:, 0].min() <= positions[:, 0].max() < spaces
    ):
        raise StoredTableError(f"positions on spaces beyond the board's {spaces}")
    return ParTable(
        board_key=key[0],
        preset=preset,
        box_slot=key[2],
        positions=tuple(tuple(p) for p in positions.tolist()),
        value=value,
        gear_policy=policy,
        par=float(meta["par"]),
        finish_probability=float(meta["finish_probability"]),
        elimination_penalty=float(meta["elimination_penalty"]),
    )


def save(key: tuple[str, str, int], table: ParTable) -> bool:
    """Store ``table`` under ``key`` atomically; ``False`` if switched off or not writable."""
    try:
        path = path_for(key)
    except (OSError, ValueError) as error:  # a folder that cannot be named is no cache
        _LOG.info("could not name the cache folder: %s", error)
        return False
    if path is None:
        return False
    meta = {
        "format": FORMAT,
        "solver": solver_version(),
        "board_key": key[0],
        "preset_key": key[1],
        "box_slot": key[2],
        "preset": table.preset.name,
        "par": table.par,
        "finish_probability": table.finish_probability,
        "elimination_penalty": table.elimination_penalty,
    }
    value = np.asarray(table.value, dtype=np.float64)
    policy = np.asarray(table.gear_policy, dtype=np.int8)
    positions = np.asarray(table.positions, dtype=np.int64).reshape(-1, 3)
    meta["digest"] = _digest(meta, value, policy, positions)
    buffer = io.BytesIO()
    np.savez(
        buffer,
        meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        value=value,
        gear_policy=policy,
        positions=positions,
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, buffer.getvalue())
    except (OSError, ValueError) as error:  # a folder that cannot be written is no cache
        # (ValueError: a name the system refuses, e.g. with an embedded NUL)
        _LOG.info("could not store the solved table %s: %s", path, error)
        return False
    return True
