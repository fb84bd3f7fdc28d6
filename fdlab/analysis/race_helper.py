"""A second process, kept alive, that plays part of a short playtest's races.

The editor's verdict (:func:`fdlab.analysis.verdict.board_verdict`) plays
two dozen races after every edit and should be fresh within seconds. A
pool of processes started for each playtest would spend those seconds
starting; one process beside the notebook's, started once and kept, costs
nothing per verdict. :meth:`RaceHelper.share` hands it the playtest (the
compiled board, the solved tables, the bots: about 1.5 MB on Monaco, a few
milliseconds to pickle) and then the chunks of races. This process plays
chunks from the end of the list while the helper plays from the start,
and takes back every chunk the helper has not begun: the races are never
slower than here alone, even when the helper is busy or still starting.

Each race has its own seeds, so the results are the same whoever plays
which race (a test checks the verdict with and without a helper). Where
no second process can start (one core, Pyodide) or the helper dies, the
races are simply played here.

Examples
--------
>>> from fdlab.analysis.playtest import playtest
>>> from fdlab.track.examples import two_corner_ring
>>> helper = RaceHelper()
>>> helper.start()
>>> helper.wait()
True
>>> result = playtest(two_corner_ring(), 2, races=4, workers=1, helper=helper, progress=False)
>>> len(result.races)
4
>>> helper.close()
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Any

from fdlab.analysis.racelog import RaceLog
from fdlab.errors import FdlabError

__all__ = ["RaceHelper", "shared_helper"]

#: Chunks of races: race numbers and, per race, its seeds.
Chunk = tuple[Sequence[int], Sequence[tuple[int, int]]]

# -- helper side ------------------------------------------------------------------
#: The playtest the helper process plays now (one at a time; the newest kept).
_LOADED: dict[str, Any] = {}


def _started() -> bool:
    """The helper's first task: import the engine and the bots, so later tasks start at once.

    It also watches the process that started it: when that one ends, even
    killed (a notebook kernel stopped by force), the helper ends too.
    """
    import fdlab.analysis.playtest  # noqa: F401 (the import is the work)

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_end_with, args=(parent.sentinel,), name="fdlab-helper-watch", daemon=True
        ).start()
    return True


def _end_with(sentinel: int) -> None:
    """End this process as soon as the process behind ``sentinel`` has ended."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _load(payload: dict[str, Any]) -> None:
    """Keep ``payload`` (a playtest's board, tables and bots) for the chunks that follow."""
    _LOADED.clear()
    _LOADED.update(payload)


class PlaytestNotLoaded(FdlabError):
    """The helper was asked for a chunk of a playtest it no longer holds (the chunk is played here)."""


def _play_loaded(
    token: str, numbers: Sequence[int], seeds: Sequence[tuple[int, int]]
) -> list[RaceLog]:
    """Play a chunk of the playtest loaded last (``token`` checks it is the right one)."""
    from fdlab.analysis.playtest import run_races

    if _LOADED.get("token") != token:
        raise PlaytestNotLoaded(f"race helper: playtest {token!r} is not loaded")
    return run_races(_LOADED, numbers, seeds)


# -- driver side ------------------------------------------------------------------
class RaceHelper:
    """One process kept beside this one to play part of a playtest's races.

    The process starts with :meth:`start` (in the background) and stays
    until :meth:`close` or the end of this process; :meth:`share` uses it
    once it is :attr:`ready`, and plays everything here before.

    Examples
    --------
    >>> helper = RaceHelper()
    >>> helper.ready
    False
    >>> helper.close()
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[bool] | None = None
        self._lock = threading.Lock()
        #: Races the helper process has played so far.
        self.races_played = 0

    @property
    def available(self) -> bool:
        """Whether a second process may be started here at all (more than one core)."""
        return (os.cpu_count() or 1) > 1

    @property
    def ready(self) -> bool:
        """The process has started and imported the engine: it can take races now."""
        started = self._started
        return (
            started is not None
            and started.done()
            and not started.cancelled()
            and started.exception() is None
        )

    def start(self) -> None:
        """Start the process, if it is not running: returns at once, it imports meanwhile.

        Examples
        --------
        >>> helper = RaceHelper()
        >>> helper.start()
        >>> helper.close()
        """
        with self._lock:
            if self._pool is not None or not self.available:
                return
            try:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
                self._started = self._pool.submit(_started)
            except (OSError, RuntimeError, ImportError):  # no processes here (Pyodide)
                self._pool = None
                self._started = None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the started process to be :attr:`ready`.

        Returns whether it is (``False`` too when it was never started).
        """
        started = self._started
        if started is None:
            return False
        with suppress(Exception):  # whatever stopped it, the answer is "not ready"
            started.result(timeout)
        return self.ready

    def close(self) -> None:
        """Stop the process (a later :meth:`start` starts a new one)."""
        with self._lock:
            pool, self._pool, self._started = self._pool, None, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def share(
        self,
        payload: dict[str, Any],
        chunks: Sequence[Chunk],
        play_here: Callable[[Sequence[int], Sequence[tuple[int, int]]], list[RaceLog]],
    ) -> list[RaceLog]:
        """Play ``chunks`` here and in the helper; every chunk is played exactly once.

        Parameters
        ----------
        payload : dict
            What :func:`fdlab.analysis.playtest.run_races` needs, picklable,
            with the compiled board (``"board"``) and a ``"token"``.
        chunks : sequence of (numbers, seeds)
        play_here : callable
            ``play_here(numbers, seeds)`` plays a chunk in this process.

        Returns
        -------
        list of RaceLog
            In no particular order.
        """
        if not self.ready:  # stopped, or still starting: this playtest cannot wait for it
            return [log for numbers, seeds in chunks for log in play_here(numbers, seeds)]
        with self._lock:
            pool = self._pool
        futures: list[Future[list[RaceLog]]] = []
        if pool is not None:
            try:
                pool.submit(_load, payload)
                token = payload["token"]
                futures = [pool.submit(_play_loaded, token, n, s) for n, s in chunks]
            except (BrokenProcessPool, RuntimeError):  # it died, or this process is ending
                self.close()
                for future in futures:
                    future.cancel()
                futures = []
        if not futures:
            return [log for numbers, seeds in chunks for log in play_here(numbers, seeds)]
        logs: list[RaceLog] = []
        taken_back = 0
        for future, (numbers, seeds) in zip(reversed(futures), reversed(chunks), strict=True):
            if not future.cancel():  # the helper has it: it plays every chunk before it too
                break
            logs.extend(play_here(numbers, seeds))
            taken_back += 1
        for future, (numbers, seeds) in zip(
            futures[: len(futures) - taken_back], chunks, strict=False
        ):
            try:
                part = future.result()
                self.races_played += len(part)
                logs.extend(part)
            except PlaytestNotLoaded:
                logs.extend(play_here(numbers, seeds))
            except (BrokenProcessPool, RuntimeError):
                self.close()
                logs.extend(play_here(numbers, seeds))
        return logs

    def __repr__(self) -> str:
        state = "ready" if self.ready else "running" if self._pool is not None else "stopped"
        return f"<RaceHelper: {state}, {self.races_played} races played>"


_SHARED = RaceHelper()


def shared_helper() -> RaceHelper:
    """The helper every editor's verdict shares (one extra process per notebook kernel).

    Examples
    --------
    >>> shared_helper() is shared_helper()
    True
    """
    return _SHARED
