"""A harness limit for the bad-input tests: a call that blocks fails the test, never the run.

Loaders must refuse a FIFO or ``/dev/zero`` at once; if one ever blocks, the
alarm interrupts it (even inside ``open``) and the test fails with
:class:`Hang`. A limit of the harness, not a timing assertion: it is far
above what any call takes.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any


class Hang(BaseException):
    """A call still running at the time limit (a BaseException: no ``except`` in fdlab eats it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail with :class:`Hang` if the block runs longer than ``seconds``."""

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
