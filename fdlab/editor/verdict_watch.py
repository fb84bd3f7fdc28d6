"""The verdict of the board being edited, kept fresh in the background (plain Python).

After every edit the designer should see what the board now plays like
(:func:`fdlab.analysis.verdict.board_verdict`: par, race length, the corners
that bite) without waiting for it: a verdict takes one to three seconds,
far more than a widget callback may block. :class:`VerdictWatch` takes a
copy of the board, works on it in one background thread and keeps only the
answer for the newest edit: an answer that arrives after a later edit is
dropped (that edit's own verdict is on its way), so a burst of edits costs
one verdict, not one each.

The widget (:mod:`fdlab.editor.verdict_panel`) decides *when* to ask (a
moment after the last edit) and shows the answer; this class is what it
asks, and what a script or a test can drive directly.

Examples
--------
>>> from fdlab.analysis.examples import tight_ring
>>> watch = VerdictWatch(races=4)
>>> watch.edited()
>>> watch.stale
True
>>> verdict = watch.refresh_now(tight_ring())
>>> watch.stale, verdict is watch.verdict, verdict.cars
(False, True, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fdlab.errors import FdlabError
from fdlab.track.model import Track

if TYPE_CHECKING:  # the analysis (pandas, the solver) loads with the first verdict
    from fdlab.analysis.verdict import Verdict

__all__ = ["VerdictAnswer", "VerdictWatch"]

#: One thread for every editor: verdicts never fight each other for the processor.
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fdlab-verdict")


@dataclass(frozen=True)
class VerdictAnswer:
    """What came back for one edit: a verdict, or why the board has none yet.

    Attributes
    ----------
    generation : int
        The edit count it answers (:attr:`VerdictWatch.generation`).
    verdict : Verdict or None
    problem : str or None
        Why there is no verdict (``"not playable yet: ..."``).
    """

    generation: int
    verdict: Verdict | None = None
    problem: str | None = None


def _verdict_of(track: Track, races: int, before: Verdict | None, generation: int) -> VerdictAnswer:
    """Compute one verdict (in the worker thread); an unplayable board is an answer too."""
    from fdlab.analysis.race_helper import shared_helper
    from fdlab.analysis.verdict import board_verdict, rules_for

    try:
        verdict = board_verdict(
            track, races=races, before=before, rules=rules_for(track), helper=shared_helper()
        )
    except FdlabError as error:
        return VerdictAnswer(generation, problem=str(error))
    return VerdictAnswer(generation, verdict=verdict)


def _start_helper() -> None:
    from fdlab.analysis.race_helper import shared_helper

    shared_helper().start()


class VerdictWatch:
    """The newest verdict of an edited board, computed off the notebook's thread.

    Parameters
    ----------
    races : int
        Races per verdict (:func:`fdlab.analysis.verdict.board_verdict`).
    compute : callable, optional
        ``compute(track, races, before, generation) -> VerdictAnswer``; tests
        inject a slow or failing one.

    Attributes
    ----------
    generation : int
        Edits seen so far; an answer counts only for the newest.
    verdict : Verdict or None
        The newest verdict accepted.
    problem : str or None
        Why the board has no verdict, when it has none.
    stale : bool
        An edit came after :attr:`verdict`.
    computing : bool
        A verdict is being computed.

    Examples
    --------
    >>> watch = VerdictWatch(races=4)
    >>> watch.refresh_now(from_ascii(". . . ."))
    >>> watch.problem
    'not playable yet: the board has no grid spot (Grid spot)'
    """

    def __init__(
        self,
        races: int = 24,
        *,
        compute: Callable[[Track, int, Verdict | None, int], VerdictAnswer] = _verdict_of,
    ) -> None:
        self.races = races
        self.compute = compute
        self.generation = 0
        self.verdict: Verdict | None = None
        self.problem: str | None = None
        self.stale = True
        self._pending: Future[VerdictAnswer] | None = None

    @property
    def computing(self) -> bool:
        """A verdict is on its way."""
        return self._pending is not None and not self._pending.done()

    def edited(self) -> None:
        """Note an edit: the verdict shown is stale until the next one is accepted."""
        self.generation += 1
        self.stale = True

    def submit(self, track: Track) -> Future[VerdictAnswer]:
        """Start the verdict of ``track`` as it is now (a copy) in the background.

        Examples
        --------
        >>> from fdlab.analysis.examples import tight_ring
        >>> watch = VerdictWatch(races=4)
        >>> answer = watch.submit(tight_ring()).result()
        >>> watch.accept(answer), watch.verdict.races
        (True, 4)
        """
        snapshot = track.copy()
        future = _WORKER.submit(self.compute, snapshot, self.races, self.verdict, self.generation)
        self._pending = future
        return future

    def accept(self, answer: VerdictAnswer) -> bool:
        """Keep ``answer`` if it is for the newest edit; returns whether it was kept.

        Examples
        --------
        >>> watch = VerdictWatch()
        >>> old = VerdictAnswer(watch.generation, problem="not playable yet: ...")
        >>> watch.edited()
        >>> watch.accept(old), watch.problem
        (False, None)
        """
        if answer.generation != self.generation:
            return False
        if answer.verdict is not None:
            self.verdict = answer.verdict
        self.problem = answer.problem
        self.stale = answer.verdict is None and self.verdict is not None
        return True

    def prepare_for_edits(self, track: Track) -> Future[None]:
        """Solve ``track`` in the background, after any verdict on its way, if no solve of
        it is remembered (:func:`fdlab.analysis.verdict.solve_for_edits`).

        A board whose table came from a cache has no solve behind it: the
        verdict after its first edit would solve the whole board (2 s on
        Monaco) where a remembered solve leaves only what the edit touched.

        Examples
        --------
        >>> from fdlab.analysis.examples import tight_ring
        >>> VerdictWatch().prepare_for_edits(tight_ring()).result()
        """
        from fdlab.analysis.verdict import rules_for, solve_for_edits

        snapshot = track.copy()
        return _WORKER.submit(solve_for_edits, snapshot, rules_for(snapshot))

    def start_helper(self) -> Future[None]:
        """Start the verdicts' helper process, from the verdicts' thread (the import is slow).

        The helper (:func:`fdlab.analysis.race_helper.shared_helper`, one
        per process) plays part of each verdict's races on another core
        once it is ready; until then the verdicts play them all here.

        Examples
        --------
        >>> from fdlab.analysis.race_helper import shared_helper
        >>> VerdictWatch().start_helper().result()
        >>> shared_helper().wait(60)
        True
        """
        return _WORKER.submit(_start_helper)

    def refresh_now(self, track: Track) -> Verdict | None:
        """Compute and accept the verdict of ``track`` here and now (scripts and tests).

        Returns the verdict, or ``None`` with :attr:`problem` saying why.
        """
        self.accept(self.compute(track.copy(), self.races, self.verdict, self.generation))
        return self.verdict if self.problem is None else None

    def __repr__(self) -> str:
        if self.problem is not None:
            return f"<VerdictWatch: {self.problem}>"
        if self.verdict is None:
            return "<VerdictWatch: no verdict yet>"
        state = "stale" if self.stale else "fresh"
        return f"<VerdictWatch: par {self.verdict.par:.2f} ({state})>"
