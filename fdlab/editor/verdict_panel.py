"""The verdict beside the board: what the edited board plays like, refreshed by itself.

A moment after the last edit (:data:`VERDICT_DELAY`), the panel asks its
:class:`~fdlab.editor.verdict_watch.VerdictWatch` for the board's verdict in
the background; meanwhile the old verdict stays on screen, greyed and
marked *updating*, and no edit waits for it. In plain Python (no running
event loop: a script, a test) nothing runs by itself: *Refresh* computes
the verdict there and then.

Examples
--------
>>> from fdlab.analysis.examples import tight_ring
>>> track = tight_ring()
>>> panel = VerdictPanel(lambda: track, races=4)
>>> panel.refresh()
>>> panel.watch.verdict.cars, "Par" in panel.body.value
(2, True)
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as w

from fdlab._shell import Buttons, running_loop
from fdlab.editor.verdict_watch import VerdictWatch
from fdlab.track.model import Track

if TYPE_CHECKING:
    from fdlab.analysis.verdict import Verdict

__all__ = ["VERDICT_DELAY", "VerdictPanel"]

#: Seconds after the last edit before the verdict is asked for (a burst of edits asks once).
VERDICT_DELAY = 0.8


class VerdictPanel:
    """The "How it plays" panel of the editor.

    Parameters
    ----------
    track_of : callable
        Returns the board as it is now.
    on_verdict : callable, optional
        Called with each new verdict (``None`` when the board has none), on
        the notebook's thread: the editor marks the worst corners with it.
    races : int
        Races per verdict.
    delay : float
        Seconds of quiet after an edit before the verdict is asked for.

    Attributes
    ----------
    watch : VerdictWatch
    widget : ipywidgets.VBox
    """

    def __init__(
        self,
        track_of: Callable[[], Track],
        on_verdict: Callable[[Verdict | None], None] | None = None,
        *,
        races: int = 24,
        delay: float = VERDICT_DELAY,
    ) -> None:
        self.track_of = track_of
        self.on_verdict = on_verdict
        self.delay = delay
        self.watch = VerdictWatch(races)
        self._task: asyncio.Task[None] | None = None
        self.state = w.HTML()
        self.state.add_class("fdlab-verdict-state")
        self.body = w.HTML(layout=w.Layout(width="98%"))
        self.body.add_class("fdlab-verdict")
        self._buttons = Buttons()
        refresh = self._buttons.make(
            "Refresh", "fdlab-verdict-refresh", self.refresh, "work out the verdict again now"
        )
        top = w.HBox([self.state, refresh], layout=w.Layout(align_items="center"))
        self.widget = w.VBox([top, self.body])
        self._show()

    # -- when to ask ---------------------------------------------------------------
    def edited(self) -> None:
        """The board changed: grey the verdict and ask again after a moment of quiet."""
        self.watch.edited()
        self._schedule(self.delay)
        self._show()

    def start(self) -> None:
        """Ask for the first verdict (in the background when a notebook runs this).

        In a notebook the verdicts' helper process starts too
        (:meth:`VerdictWatch.start_helper`).
        """
        if running_loop() is not None:
            self.watch.start_helper()
        if len(self.track_of()):
            self._schedule(0.0)
        self._show()

    def refresh(self) -> None:
        """Work the verdict out again: in the background in a notebook, here in a script."""
        if running_loop() is None:
            self.watch.refresh_now(self.track_of())
            self._announce()
        else:
            self._schedule(0.0)
        self._show()

    def _schedule(self, delay: float) -> None:
        loop = running_loop()
        if loop is None:
            return  # plain Python: Refresh computes it
        if self._task is not None:
            self._task.cancel()  # a later edit: its own verdict replaces this one
        self._task = loop.create_task(self._after(delay))

    async def _after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        track = self.track_of()
        future = self.watch.submit(track)
        self._show()
        answer = await asyncio.wrap_future(future)
        if self.watch.accept(answer):
            self._announce()
            if answer.verdict is not None:  # ready for the next edit's verdict
                self.watch.prepare_for_edits(track)
        self._show()

    def _announce(self) -> None:
        if self.on_verdict is not None:
            self.on_verdict(self.watch.verdict if self.watch.problem is None else None)

    # -- showing -------------------------------------------------------------------
    def _show(self) -> None:
        watch = self.watch
        if watch.computing:
            state = "<span style='color:#8a6d00'>&#x27f3; updating...</span>"
        elif watch.problem is not None:
            state = "<span style='color:#666'>no verdict</span>"
        elif watch.verdict is None:
            state = (
                "<span style='color:#666'>not worked out yet</span>"
                if len(self.track_of())
                else "<span style='color:#666'>draw a board first</span>"
            )
        elif watch.stale:
            state = "<span style='color:#8a6d00'>out of date: an edit came after it</span>"
        else:
            state = "<span style='color:#1a7f37'>up to date</span>"
        self.state.value = f"<b>Default bot's verdict</b> · {state}"
        self.body.value = self._body()

    def _body(self) -> str:
        watch = self.watch
        if watch.problem is not None:
            return f"<div style='color:#666'>{html.escape(watch.problem)}</div>"
        if watch.verdict is None:
            return ""
        faded = "opacity:0.5;" if watch.stale else ""
        return f"<div style='{faded}font-size:0.92em'>{watch.verdict._repr_html_()}</div>"

    def __repr__(self) -> str:
        return f"<VerdictPanel {self.watch!r}>"
