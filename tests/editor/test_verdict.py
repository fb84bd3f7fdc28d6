"""The verdict beside the board (issue 26): what the edited board plays like, never blocking.

The verdict itself (par, race length, corners) is checked against the
playtest and the exact solve it is made of; the watch and the panel are
checked for what a designer relies on: an edit never waits for a verdict, a
burst of edits costs one verdict, an answer for an old edit is never shown
as the board's, and the worst corners are marked on the board.
"""

from __future__ import annotations

import asyncio
import re
import threading

import pytest

from fdlab.analysis.examples import tight_ring
from fdlab.analysis.verdict import VerdictError, board_verdict
from fdlab.editor import TrackEditor
from fdlab.editor.verdict_panel import VerdictPanel
from fdlab.editor.verdict_watch import VerdictAnswer, VerdictWatch, _verdict_of
from fdlab.par import solo_table
from fdlab.rules.board import compile_board
from fdlab.rules.presets import get_preset
from fdlab.track import from_ascii

RACES = 4


def test_the_verdict_par_is_the_exact_one_lap_par():
    track = tight_ring()
    verdict = board_verdict(track, races=RACES)
    exact = solo_table(compile_board(track), get_preset("basic", 1)).par
    assert verdict.par == exact
    assert verdict.races == RACES
    low, high = verdict.rounds_interval
    assert low <= verdict.rounds <= high
    assert [c.corner for c in verdict.corners] == list(track.corners)


def test_the_same_board_gives_the_same_verdict():
    first, second = (board_verdict(tight_ring(), races=RACES) for _ in range(2))
    assert first.lines() == second.lines()


def tight_corner_first():
    """The tight ring with its 3-stop corner first: the last corner of a one-lap race is on
    the run to the flag, where spent points say nothing about it (to_the_flag)."""
    track = tight_ring()
    track.corners[1]["stops"], track.corners[2]["stops"] = 3, 1
    return track


def test_the_worst_corner_is_the_one_that_costs_most():
    verdict = board_verdict(tight_corner_first(), races=8)
    assert verdict.worst, "the tight corner costs damage: it is marked"
    assert verdict.worst[0].corner == 1
    assert verdict.worst[0].danger == max(c.danger for c in verdict.corners)
    assert all(c.worst == (c in verdict.worst) for c in verdict.corners)


def test_more_stops_raise_par_and_the_verdict_says_by_how_much():
    track = tight_ring()
    before = board_verdict(track, races=RACES)
    corner = next(iter(track.corners))
    track.corners[corner]["stops"] += 1
    after = board_verdict(track, races=RACES, before=before)
    assert after.par_change is not None and after.par_change > 0
    assert "more than before the last change" in after.lines()[0]


def test_a_first_hazard_changes_the_rules_and_the_verdict_says_so_not_a_par_change():
    track = tight_ring()
    before = board_verdict(track, races=RACES)
    track.graph.nodes[next(iter(track.graph))]["hazard"] = "danger"
    after = board_verdict(track, races=RACES, before=before, rules="street")
    first = after.lines()[0]
    assert "(street rules)" in first and f"was {before.par:.1f} under the basic rules" in first
    assert "than before the last change" not in first
    assert "one lap, street rules" in after._repr_html_()
    assert "one lap, basic rules" in before._repr_html_()


def test_a_board_that_cannot_be_raced_says_what_is_missing():
    with pytest.raises(VerdictError, match="no grid spot"):
        board_verdict(from_ascii(". . . ."))
    with pytest.raises(VerdictError, match="not playable yet"):
        board_verdict(from_ascii(". . . .", grid=[0]))  # no finish line


def test_an_answer_for_an_older_edit_is_dropped():
    watch = VerdictWatch(races=RACES)
    future = watch.submit(tight_ring())
    watch.edited()  # the designer edited while it was computed
    assert not watch.accept(future.result())
    assert watch.verdict is None and watch.stale


def test_the_watch_computes_on_a_copy_of_the_board():
    track = tight_ring()
    seen = []

    def compute(snapshot, races, before, generation):
        seen.append(snapshot)
        return VerdictAnswer(generation, problem="not playable yet: test")

    watch = VerdictWatch(races=RACES, compute=compute)
    watch.submit(track).result()
    assert seen[0] is not track and seen[0] == track


def test_a_board_whose_table_came_from_a_cache_is_solved_after_its_verdict_for_the_edits(
    monkeypatch,
):
    """The editor's first verdict of a cached board leaves a solve behind it (in the verdict's
    thread, after the answer), so the next edit's verdict re-solves only what it touched;
    a board already solved here is not solved again."""
    import fdlab.analysis.verdict as verdict_module
    from fdlab.editor.verdict_watch import _WORKER
    from fdlab.par.approx import solo_preset
    from fdlab.par.reuse import forget_models, remembers

    solves = []
    solve = verdict_module.solve_to_reuse
    monkeypatch.setattr(
        verdict_module, "solve_to_reuse", lambda *args: solves.append(args) or solve(*args)
    )
    track = tight_ring()
    board = compile_board(track)
    solo_table(board, get_preset("basic", 1))  # in the cache now
    forget_models()  # as in a new session: the table is read, nothing was solved here

    async def scenario():
        panel = VerdictPanel(lambda: track, races=RACES, delay=0.0)
        panel.start()
        while panel.watch.verdict is None:
            await asyncio.sleep(0.05)
        return panel

    panel = _run_with_loop(scenario)
    _WORKER.submit(lambda: None).result()  # the verdict's thread has done what was queued
    assert remembers(board, solo_preset(get_preset("basic", 1))) and len(solves) == 1
    panel.watch.prepare_for_edits(track).result()
    assert len(solves) == 1  # remembered: not solved again


def _run_with_loop(scenario):
    """Run ``scenario`` inside an event loop, as a notebook runs a cell."""
    return asyncio.run(scenario())


def test_a_burst_of_edits_asks_for_one_verdict_and_no_edit_waits():
    track = tight_ring()
    release = threading.Event()
    calls = []

    def slow(snapshot, races, before, generation):
        calls.append(generation)
        release.wait(10)
        return _verdict_of(snapshot, races, before, generation)

    async def scenario():
        panel = VerdictPanel(lambda: track, races=RACES, delay=0.05)
        panel.watch.compute = slow
        for _ in range(5):
            panel.edited()  # returns at once: nothing is computed on the notebook's thread
        assert "out of date" in panel.state.value or "not worked out" in panel.state.value
        await asyncio.sleep(0.3)
        assert "updating" in panel.state.value
        release.set()
        while panel.watch.computing or panel.watch.stale:
            await asyncio.sleep(0.05)
        return panel

    panel = _run_with_loop(scenario)
    assert calls == [5]
    assert "up to date" in panel.state.value
    assert "Par" in panel.body.value


def test_an_edit_during_a_verdict_shows_the_later_one():
    track = tight_ring()

    async def scenario():
        marked = []
        panel = VerdictPanel(lambda: track, marked.append, races=RACES, delay=0.0)
        panel.start()
        await asyncio.sleep(0.01)
        corner = next(iter(track.corners))
        track.corners[corner]["stops"] += 1
        panel.edited()
        while panel.watch.computing or panel.watch.stale:
            await asyncio.sleep(0.05)
        return panel, marked

    panel, marked = _run_with_loop(scenario)
    expected = board_verdict(track, races=RACES)
    assert panel.watch.verdict.par == expected.par
    assert marked[-1] is panel.watch.verdict


def test_the_editor_marks_the_worst_corners_and_clears_them_after_an_edit():
    editor = TrackEditor(tight_corner_first())
    editor.verdict.watch.races = 8
    editor.verdict.refresh()  # in plain Python: computed here and now
    worst = editor.verdict.watch.verdict.worst
    marks = editor.sources.verdict.data["text"]
    assert len(marks) == len(worst) >= 1
    assert "overshot" in marks[0]
    assert editor.verdict.widget in _descendants(editor.widget)
    corner = worst[0].corner
    editor.select(editor.track.corner_spaces(corner)[:1])
    editor.stops.value = editor.track.corners[corner]["stops"] % 3 + 1
    assert editor.sources.verdict.data["text"] == []
    assert "out of date" in editor.verdict.state.value
    # the new verdict's par change is said under the plot, where the designer looks
    editor.verdict.refresh()
    assert editor.last_message.startswith("How it plays now: par ")
    assert re.search(r"turns a lap \(\d+\.\d (more|fewer)\)$", editor.last_message)


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def test_an_unplayable_board_shows_why_and_no_marks():
    editor = TrackEditor(from_ascii(". . . ."))
    editor.verdict.refresh()
    assert "no grid spot" in editor.verdict.body.value
    assert editor.sources.verdict.data["text"] == []


def test_the_verdict_can_be_left_out():
    assert TrackEditor(tight_ring(), verdict=False).verdict is None
