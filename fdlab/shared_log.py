"""An append-only game log that several kernels share: the part that knows no game.

A game played from several notebooks (each its own kernel, on one Jupyter
server or on computers that see one shared folder) lives in one file: a
header line saying what the file is and how the game starts, then one
record a line, each a JSON object numbered ``"seq": 1, 2, 3...``. Every
kernel reads the file and replays it; a kernel writes a record under a file
lock, after reading every record before it (*compare-and-append*), so two
writers never give two records one number and the second sees the first
before it decides whether to write. :class:`SharedLog` does the reading and
writing; what a record means (a seat claimed, an action played) is the
game's business (:mod:`fdlab.fun.shared` for Formula Fun, :mod:`fdlab.table.shared`
for the race table). A game may raise its own error class (a subclass of
:class:`GameLogError`) and quote values its own way (``error=``, ``quote=``).

The rules of the file
---------------------
* Line 1, the header: ``{"format": FORMAT, "version": N, ...}``; the
  format and version are checked on opening, the other fields are the
  game's (:attr:`SharedLog.header`).
* Each further line: one JSON object with ``"seq"`` first, numbered 1, 2,
  3... in order (a record lost, repeated or changed breaks the numbering
  and is refused, naming the line).
* A last line without its newline is a record still being written: it is
  read once it is whole. Under the lock nobody else writes, so a line left
  without its newline there was left by a writer that died: it is cut off.
* Reading executes nothing (:func:`fdlab.untrusted.parse_json`), at most
  ``max_bytes`` in all and ``max_record_bytes`` a line; a file replaced or
  cut short since it was read is refused.
* Every problem is one :class:`GameLogError` naming the file and the line.

The lock is an operating-system lock (``filelock``: ``flock``, a ``.lock``
file beside the log): it holds between the kernels of one server and on a
shared folder whose file system has working locks (NFS, SMB), not on a
folder a sync service copies between computers.

Examples
--------
>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
>>> log = SharedLog.create(path, {"players": 2}, format="demo", version=1)
>>> other = SharedLog(path, format="demo", version=1)  # another kernel
>>> with log.locked() as landed:  # read what landed, check, then write
...     log.append({"kind": "claim", "by": "Ana"})
1
>>> other.read_new()
[(2, {'seq': 1, 'kind': 'claim', 'by': 'Ana'})]
>>> other.header, other.seq
({'players': 2}, 1)
"""

from __future__ import annotations

import json
import os
import reprlib
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from fdlab.errors import FdlabError
from fdlab.files import atomic_write
from fdlab.untrusted import MAX_JSON_DEPTH, UntrustedInputError, parse_json

__all__ = [
    "LOCK_TIMEOUT",
    "MAX_LOG_BYTES",
    "MAX_NAME",
    "MAX_RECORD_BYTES",
    "RECORD_KINDS",
    "GameLogError",
    "LogBusyError",
    "Record",
    "SharedLog",
    "name_problem",
]

#: The kinds of record after the header: a game's move, a seat taken, a seat left.
RECORD_KINDS = ("action", "claim", "release")
#: The fields of every record (an ``action`` record has ``action`` too).
_RECORD_FIELDS = frozenset({"seq", "kind", "seat", "by"})

#: The longest record line by default (a record is a few dozen bytes).
MAX_RECORD_BYTES = 64 * 1024
#: The largest log read by default.
MAX_LOG_BYTES = 64 * 1024 * 1024
#: The longest player name.
MAX_NAME = 40
#: How long a write waits for the lock by default, in seconds.
LOCK_TIMEOUT = 5.0

#: A record as read: (its line in the file, the JSON object with its ``seq``).
Record = tuple[int, dict[str, Any]]

_REPLACED = "the file is not the one that was read (replaced or cut short since): join again"


class GameLogError(FdlabError):
    """A shared game log that cannot be read or written, or a line that does not check out.

    The message names the file and, where there is one, the line
    (``game.log: line 7: ...``; line 1 is the header).

    Attributes
    ----------
    source : str
        The file.
    line : int
        The line that is wrong (1: the header), 0 for the file as a whole.

    Examples
    --------
    >>> error = GameLogError("game.log: line 3: not JSON", source="game.log", line=3)
    >>> error.source, error.line, str(error)
    ('game.log', 3, 'game.log: line 3: not JSON')
    """

    def __init__(self, message: str, *, source: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.source = source
        self.line = line

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword-only parts do not survive the default pickling of an exception
        # (a game's subclass, fdlab.table.SharedLogError, pickles the same way)
        return (_rebuilt, (type(self), str(self), self.source, self.line))


class LogBusyError(GameLogError):
    """The log's lock stayed taken longer than the writer waits: try again.

    Examples
    --------
    >>> issubclass(LogBusyError, GameLogError)
    True
    """


def _rebuilt(kind: type[GameLogError], message: str, source: str, line: int) -> GameLogError:
    return kind(message, source=source, line=line)


def name_problem(name: Any, quote: Callable[[Any], str] | None = None) -> str | None:
    """What is wrong with a player's name (1 to 40 printable characters, no spaces
    around), or None. ``quote`` shows a value that is not a string (default: as
    Python writes it, cut short).

    Examples
    --------
    >>> name_problem("Ana"), name_problem(" Ana")
    (None, "a player's name has no spaces around it: ' Ana'")
    >>> name_problem(7)
    "a player's name is a string, not 7"
    """
    if not isinstance(name, str):
        return f"a player's name is a string, not {(quote or _shown)(name)}"
    if not 1 <= len(name) <= MAX_NAME:
        return f"a player's name has 1 to {MAX_NAME} characters, not {len(name)}"
    if name != name.strip():
        return f"a player's name has no spaces around it: {name!r}"
    if not name.isprintable():
        return f"a player's name is printable characters: {name!r}"
    return None


class SharedLog:
    """One kernel's reader and writer of a shared game log (see the module's documentation).

    Opening reads and checks the header; :meth:`read_new` reads the records
    appended since; :meth:`locked` holds the lock and reads what landed, and
    :meth:`append` (inside it) writes one record as number :attr:`seq` + 1.

    Parameters
    ----------
    path : str or os.PathLike
        The log.
    format : str
        The ``format`` its header must name (``"fdlab-shared-fun"``).
    version : int
        The version of the layout this code reads.
    max_bytes : int
        The largest file read.
    max_record_bytes : int
        The longest record line (the header may be up to ``max_bytes``).
    lock_timeout : float
        How long :meth:`locked` waits for the lock, in seconds.
    hints : Mapping of str to str, optional
        What to say when the header names another format (e.g. a saved game).
    error : type, optional
        The class of the errors raised (a subclass of :class:`GameLogError`;
        default GameLogError): a game's own, such as
        :class:`fdlab.table.SharedLogError`.
    busy_error : type, optional
        The class of the error when the lock stays taken (default :class:`LogBusyError`).
    quote : callable, optional
        How a message shows a value found in the file (default: as Python
        writes it, cut at 60 characters; the race table shows JSON).

    Attributes
    ----------
    header : dict
        The header's fields besides ``format`` and ``version``.
    seq : int
        How many records have been read (or written) here.

    Raises
    ------
    GameLogError
        When the file cannot be read or its header is not this format's.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
    >>> _ = path.write_text('{"format": "other", "version": 1}\\n')
    >>> SharedLog(path, format="demo", version=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fdlab.shared_log.GameLogError: ...game.log: line 1: a shared game log starts with {"format": "demo", ...}, found 'other'
    """

    def __init__(  # noqa: PLR0913 (a log's options are keywords: each game sets its own)
        self,
        path: str | os.PathLike[str],
        *,
        format: str,
        version: int,
        max_bytes: int = MAX_LOG_BYTES,
        max_record_bytes: int = MAX_RECORD_BYTES,
        lock_timeout: float = LOCK_TIMEOUT,
        hints: Mapping[str, str] | None = None,
        error: type[GameLogError] = GameLogError,
        busy_error: type[GameLogError] = LogBusyError,
        quote: Callable[[Any], str] | None = None,
    ) -> None:
        self.error = error
        self.busy_error = busy_error
        self.quote = quote or _shown
        self.path = _path_of(path, error=error)
        self.source = str(path)
        self.format = format
        self.version = version
        self.max_bytes = max_bytes
        self.max_record_bytes = max_record_bytes
        self.lock_timeout = float(lock_timeout)
        self._lock = FileLock(f"{self.path}.lock")
        self._holding = False
        self._offset = 0
        self._identity: tuple[int, int] | None = None
        self.seq = 0
        data = self._tail()
        end = data.find(b"\n")
        if end < 0:
            raise self.fail(1, "the header is not complete (a shared game log starts with a "
                            "whole line)" if data else "the file is empty")  # fmt: skip
        self.header = self._header(data[:end], hints or {})
        self._offset = end + 1

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        header: Mapping[str, Any],
        *,
        format: str,
        version: int,
        exists: str = "join its game, or start the new game in another file",
        error: type[GameLogError] = GameLogError,
        **options: Any,
    ) -> SharedLog:
        """Write a new log holding only its header, all at once; returns it opened.

        Parameters
        ----------
        path : str or os.PathLike
            The new log: refused if the file exists (checked under the lock).
        header : Mapping
            The game's fields of the header (JSON values; not ``format``, ``version``).
        exists : str
            What to do, said when the file exists already.
        format, version, error, **options
            As for :class:`SharedLog`.

        Raises
        ------
        GameLogError
            When the file exists or cannot be written.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
        >>> _ = SharedLog.create(path, {"seed": 4}, format="demo", version=1)
        >>> path.read_text()
        '{"format":"demo","version":1,"seed":4}\\n'
        >>> SharedLog.create(path, {}, format="demo", version=1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        fdlab.shared_log.GameLogError: ...game.log: the file exists already: join its game, or start the new game in another file
        """
        target = _path_of(path, error=error)
        clash = sorted({"format", "version"} & set(header))
        if clash:
            raise error(f"header: {clash[0]} is the log's own field, not the game's",
                        source=str(path))  # fmt: skip
        doc = {"format": format, "version": version, **header}
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        try:
            with FileLock(f"{target}.lock", timeout=LOCK_TIMEOUT):
                if os.path.lexists(target):
                    raise error(f"{path}: the file exists already: {exists}", source=str(path))
                atomic_write(target, (text + "\n").encode("utf-8"))
        except (OSError, Timeout) as problem:
            why = (
                "the lock is busy" if isinstance(problem, Timeout) else problem.strerror or problem
            )
            raise error(f"{path}: could not create the game log ({why})",
                        source=str(path)) from None  # fmt: skip
        return cls(path, format=format, version=version, error=error, **options)

    # -- reading -----------------------------------------------------------------------
    def read_new(self, apply: Callable[[int, dict[str, Any]], None] | None = None) -> list[Record]:
        """Read the whole records appended since the last read, in order.

        Parameters
        ----------
        apply : callable, optional
            Called with (line, record) of each record before the log counts it
            as read: if it raises (a record the game refuses), the error goes
            up and that record is read again next time.

        Returns
        -------
        list of (int, dict)
            Each record's line in the file and its JSON object (with its ``seq``).

        Raises
        ------
        GameLogError
            When the file is gone, replaced, too large, or a line is not a
            numbered JSON object.
        """
        return self._take(self._tail(), apply, locked=False)

    @contextmanager
    def locked(
        self, apply: Callable[[int, dict[str, Any]], None] | None = None
    ) -> Iterator[list[Record]]:
        """Hold the lock and read the log to its end; yields the records that landed.

        Inside, :meth:`append` writes; the caller checks what landed (with
        ``apply``, as for :meth:`read_new`) before deciding to write.

        Raises
        ------
        LogBusyError
            When the lock stays taken for :attr:`lock_timeout` seconds.
        """
        try:
            self._lock.acquire(timeout=self.lock_timeout)
        except Timeout:
            raise self.busy_error(
                f"{self.source}: the game log is busy (another player is writing): try again",
                source=self.source,
            ) from None
        try:
            landed = self._take(self._tail(), apply, locked=True)
            self._holding = True
            yield landed
        finally:
            self._holding = False
            self._lock.release()

    def append(self, record: Mapping[str, Any]) -> int:
        """Write ``record`` as number :attr:`seq` + 1 (inside :meth:`locked`); returns its number.

        Raises
        ------
        GameLogError
            Outside :meth:`locked`, for a record that is too long or not JSON
            values, or when the file cannot be written (nothing was written).
        """
        if not self._holding:
            raise self.fail(0, "a record is appended inside SharedLog.locked(), under the lock")
        if "seq" in record:
            raise self.fail(0, "a record's seq is the log's to give: leave it out")
        seq = self.seq + 1
        try:
            line = json.dumps(
                {"seq": seq, **record}, ensure_ascii=False, separators=(",", ":"), allow_nan=False
            )
        except (TypeError, ValueError) as error:
            raise self.fail(0, f"a record is JSON values: {error}") from None
        data = (line + "\n").encode("utf-8")
        if len(data) - 1 > self.max_record_bytes:
            raise self.fail(0, f"a record of {len(data) - 1} bytes: longer than a record "
                            f"({self.max_record_bytes})")  # fmt: skip
        try:
            with open(self.path, "ab") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
        except OSError as error:
            raise self.fail(0, f"could not write ({error.strerror or error}); nothing was "
                            "played") from None  # fmt: skip
        self._offset += len(data)
        self.seq = seq
        return seq

    def fail(self, line: int, message: str) -> GameLogError:
        """The error for ``line`` of the file (0: the file as a whole), naming both.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
        >>> log = SharedLog.create(path, {}, format="demo", version=1)
        >>> str(log.fail(3, "no such seat")).endswith("game.log: line 3: no such seat")
        True
        """
        where = f"{self.source}: line {line}" if line else self.source
        return self.error(f"{where}: {message}", source=self.source, line=line)

    def envelope(
        self, line: int, record: Mapping[str, Any], quote: Callable[[Any], str] | None = None
    ) -> tuple[str, str]:
        """The kind and the writer of a record read, checked: what every game's records share.

        The kind is one of :data:`RECORD_KINDS`, the fields are exactly those of
        its kind, and ``by`` is a player's name; the seat and the action are the
        game's to check. ``quote`` shows a wrong kind (default: the log's quoting).

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.log"
        >>> log = SharedLog.create(path, {}, format="demo", version=1)
        >>> log.envelope(2, {"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"})
        ('claim', 'Ana')
        >>> log.envelope(2, {"seq": 1, "kind": "claim", "seat": 0})
        Traceback (most recent call last):
        ...
        fdlab.shared_log.GameLogError: ...game.log: line 2: by: missing (a claim record has by, kind, seat, seq)
        """
        fail = self.fail
        kind = record.get("kind")
        if kind not in RECORD_KINDS:
            shown = (quote or self.quote)(kind)
            raise fail(line, f"kind: one of {', '.join(RECORD_KINDS)}, not {shown}")
        wanted = _RECORD_FIELDS | ({"action"} if kind == "action" else set())
        if set(record) != wanted:
            odd = sorted(set(record) ^ wanted, key=str)
            what = "missing" if odd[0] in wanted else "not a field of this record"
            raise fail(line, f"{odd[0]}: {what} (a {kind} record has "
                       f"{', '.join(sorted(wanted))})")  # fmt: skip
        by = record["by"]
        problem = name_problem(by, self.quote)
        if problem:
            raise fail(line, f"by: {problem}")
        return kind, by

    # -- inside ------------------------------------------------------------------------
    def _tail(self) -> bytes:
        """The bytes after what was read (the file at most :attr:`max_bytes` in all)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (OSError, ValueError) as error:
            why = getattr(error, "strerror", None) or error
            raise self.fail(0, f"cannot read the file ({why})") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # checked before fdopen, which refuses a folder
            os.close(fd)
            raise self.fail(0, "not a file (a shared game log is a regular file)")
        with os.fdopen(fd, "rb") as stream:
            identity = (info.st_dev, info.st_ino)
            if self._identity is not None and identity != self._identity:
                raise self.fail(0, _REPLACED)
            if info.st_size < self._offset:
                raise self.fail(0, _REPLACED)
            if info.st_size > self.max_bytes:
                raise self.fail(
                    0, f"{info.st_size} bytes: more than a game log holds ({self.max_bytes})"
                )
            self._identity = identity
            stream.seek(self._offset)
            return stream.read(info.st_size - self._offset)

    def _header(self, raw: bytes, hints: Mapping[str, str]) -> dict[str, Any]:
        try:
            doc = parse_json(raw, max_depth=MAX_JSON_DEPTH)
        except UntrustedInputError as error:
            raise self.fail(1, str(error)) from None
        found = doc.get("format") if isinstance(doc, dict) else doc
        if not isinstance(doc, dict) or found != self.format:
            hint = hints.get(found, "") if isinstance(found, str) else ""
            raise self.fail(1, f'a shared game log starts with {{"format": "{self.format}", '
                            f"...}}, found {self.quote(found)}{hint}")  # fmt: skip
        version = doc.get("version")
        if version != self.version or isinstance(version, bool):
            raise self.fail(1, f"version: this fdlab reads version {self.version}, found "
                            f"{self.quote(version)}")  # fmt: skip
        return {k: v for k, v in doc.items() if k not in ("format", "version")}

    def _take(
        self, data: bytes, apply: Callable[[int, dict[str, Any]], None] | None, *, locked: bool
    ) -> list[Record]:
        """The whole lines of ``data`` (read from the offset), checked, applied, counted."""
        end = data.rfind(b"\n") + 1
        if locked and end < len(data):
            try:
                os.truncate(self.path, self._offset + end)
            except OSError as error:
                raise self.fail(0, f"cannot cut off a record left half written ({error})") from None
        records: list[Record] = []
        start = 0
        while start < end:
            stop = data.index(b"\n", start)
            line = self.seq + 2
            record = self._record(data[start:stop], line)
            if apply is not None:
                apply(line, record)
            records.append((line, record))
            self._offset += stop - start + 1
            self.seq += 1
            start = stop + 1
        return records

    def _record(self, raw: bytes, line: int) -> dict[str, Any]:
        if len(raw) > self.max_record_bytes:
            raise self.fail(line, f"{len(raw)} bytes: longer than a record "
                            f"({self.max_record_bytes})")  # fmt: skip
        try:
            record = parse_json(raw)
        except UntrustedInputError as error:
            raise self.fail(line, str(error)) from None
        if not isinstance(record, dict):
            raise self.fail(line, f"a record is a JSON object, not {self.quote(record)}")
        seq = record.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq + 1:
            found = f"seq {self.quote(seq)}" if "seq" in record else "seq: missing"
            raise self.fail(
                line,
                f"{found}, expected {self.seq + 1} (records are numbered 1, 2, 3... "
                "in order: a record was lost, repeated or changed)",
            )
        return record

    def __repr__(self) -> str:
        return f"<SharedLog {self.source!r} ({self.format}): {self.seq} records>"


def _path_of(
    path: Any, what: str = "a game log", error: Callable[[str], FdlabError] = GameLogError
) -> Path:
    """``path`` as a Path, or ``error`` saying ``what``'s path is a str or a Path (one
    check for the shared logs and the race table's game files).

    Examples
    --------
    >>> _path_of("race.log").name
    'race.log'
    >>> _path_of(b"race.log", "a game file")
    Traceback (most recent call last):
    ...
    fdlab.shared_log.GameLogError: path: a game file's path is a str or a pathlib.Path, not b'race.log' (of type bytes)
    """
    if isinstance(path, str | os.PathLike):
        try:
            return Path(path)
        except TypeError:  # a PathLike of bytes
            pass
    raise error(
        f"path: {what}'s path is a str or a pathlib.Path, not {reprlib.repr(path)} "
        f"(of type {type(path).__name__})"
    )


def _shown(value: Any) -> str:
    """A value as a message quotes it: short, one line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
