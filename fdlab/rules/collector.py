"""Fewer passes of Python's cycle collector while races run.

A race makes millions of short-lived tuples (paths, options, search
states) and almost no reference cycles, while the move and price caches
keep many objects alive. With Python's default thresholds the collector
passes over those caches every few hundred surviving objects: about 8% of
a six-bot race's instructions (valgrind, Monaco). :func:`fewer_collections`
raises the first generation's threshold for the length of a ``with`` block
and puts the thresholds back after it; cycles are still collected, less
often. :func:`paused_collections` switches the collector off for a block
that builds a large structure it keeps (the solo solver's model: a third
of a solve went to passes over it). :func:`spare_long_lived` leaves the
objects a notebook kernel holds for good out of the collector's full passes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from fdlab.rules.errors import RuleError

__all__ = ["RACE_THRESHOLD", "fewer_collections", "paused_collections", "spare_long_lived"]

#: Objects allocated (net) between two first-generation passes while races run
#: (Python's default is 700).
RACE_THRESHOLD = 20_000


@contextmanager
def fewer_collections(threshold: int = RACE_THRESHOLD) -> Iterator[None]:
    """Run the block with the collector's first threshold raised to at least ``threshold``.

    Examples
    --------
    >>> import gc
    >>> before = gc.get_threshold()
    >>> with fewer_collections(50_000):
    ...     gc.get_threshold()[0] >= 50_000
    True
    >>> gc.get_threshold() == before
    True
    """
    if threshold < 1:
        raise RuleError(f"threshold {threshold} must be at least 1")
    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@contextmanager
def paused_collections() -> Iterator[None]:
    """Run the block with the cycle collector off; it is switched back on after (if it was on).

    For a computation that makes many objects it keeps and no cycles
    (:func:`fdlab.par.solve.solve_par`): cycles made inside the block are
    collected by the first pass after it.

    Examples
    --------
    >>> import gc
    >>> with paused_collections():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


#: Whether :func:`spare_long_lived` has frozen the objects of this process.
_SPARED = [False]


def spare_long_lived() -> bool:
    """Leave the objects alive now out of the cycle collector's later passes, once a process.

    A notebook kernel holds a few hundred thousand objects that live as long
    as it does (its modules, Bokeh's and the widgets' classes). A full pass of
    the collector walks every one of them: on 2 cores a pause of 0.2-0.3 s
    that blocks every widget, and it comes back each time the objects grow
    by a quarter. Moved once to the collector's permanent generation
    (:func:`gc.freeze`), they are skipped by later passes. Objects freed by
    their reference counts are freed as before; only a reference cycle among
    them would be kept. So it is called before a widget makes its own objects
    (:class:`~fdlab.editor.TrackEditor`, :class:`~fdlab.table.RaceTable`):
    an editor opened again lets the one before go. Later calls do nothing.

    Returns
    -------
    bool
        Whether this call froze them (``False`` after the first call).

    Examples
    --------
    >>> import gc
    >>> spare_long_lived() in (True, False), spare_long_lived()
    (True, False)
    >>> gc.get_freeze_count() > 0
    True
    """
    if _SPARED[0]:
        return False
    _SPARED[0] = True
    gc.freeze()
    return True
