"""The one widget shell: the editor, the race table and Formula Fun report the same way."""

from __future__ import annotations

import asyncio
import re
import sys

import pytest

pytest.importorskip("ipywidgets")

from fdlab._shell import (
    _WORKER,
    ERROR_COLOR,
    Buttons,
    MessageLine,
    import_in_background,
    reported,
)
from fdlab.errors import FdlabError


class _Widget:
    def __init__(self) -> None:
        self.messages = MessageLine()
        self.after = 0

    def after_callback(self) -> None:
        self.after += 1

    @reported
    def refused(self) -> None:
        raise FdlabError("not now: the race is over")

    @reported
    def broken(self) -> None:
        raise KeyError("a bug")

    @reported
    def fine(self) -> str:
        self.messages.say("done <3")
        return "ok"


def test_a_refusal_is_said_in_its_own_words_and_a_bug_with_its_traceback():
    widget = _Widget()
    widget.refused()
    assert widget.messages.last_error == "not now: the race is over"
    assert "details" not in widget.messages.widget.value
    widget.broken()
    assert widget.messages.last_error == "KeyError: 'a bug'"
    assert "<details><summary>details</summary><pre>Traceback" in widget.messages.widget.value
    assert widget.fine() == "ok" and widget.messages.last_error is None
    assert "done &lt;3" in widget.messages.widget.value
    assert widget.after == 3, "the controls are brought up to date after every callback"


def test_a_message_replaces_only_the_last_one_of_its_topic():
    line = MessageLine()
    line.say("moved centreline point 87 of 174")
    line.say("How it plays now: Par 7.9 (+0.1)", topic="verdict")
    assert line.shown() == ["How it plays now: Par 7.9 (+0.1)", "moved centreline point 87 of 174"]
    assert "moved centreline point 87" in line.widget.value  # still on the page
    # the page's text keeps the messages apart (textContent joins the lines' text)
    text = re.sub(r"<[^>]+>", "", line.widget.value)
    assert re.search(r"\(\+0\.1\)\s+moved centreline point 87 of 174$", text), text
    line.say("How it plays now: Par 8.0 (+0.1)", topic="verdict")
    line.refuse("make corner: select a space first")
    assert line.shown() == ["make corner: select a space first", "How it plays now: Par 8.0 (+0.1)"]
    assert line.last_error == "make corner: select a space first"
    for topic in ("print", "picture", "more"):
        line.say(topic, topic=topic)
    assert line.shown() == ["more", "picture", "print"]  # three at most, newest first
    assert "Par 8.0" not in line.widget.value


def test_a_widget_that_gives_no_topic_shows_one_message():
    line = MessageLine()
    line.say("first")
    line.say("second")
    assert line.shown() == ["second"]
    assert "first" not in line.widget.value
    assert "fdlab-older" not in line.widget.value


def test_buttons_are_kept_by_their_css_class():
    clicks: list[str] = []
    buttons = Buttons()
    made = buttons.make("Save", "fdlab-save", lambda: clicks.append("save"))
    made.click()
    assert clicks == ["save"] and buttons["fdlab-save"] is made
    assert "fdlab-save" in made._dom_classes


def test_editor_table_and_formula_fun_refuse_in_one_colour():
    from fdlab.editor.widgets import TrackEditor
    from fdlab.fun.widgets import FunTable
    from fdlab.rules.race import Race
    from fdlab.table.widget import RaceTable
    from fdlab.track import from_ascii

    ring = from_ascii(". . 1 1 . . .\n. . 1 1 . . .", corners={1: 1}, closed=True, grid=[13, 12])
    editor = TrackEditor(ring)
    editor.make_corner()  # nothing selected
    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "person"], bot_delay=0)
    table.undo()  # nothing to undo yet
    fun = FunTable(players=3, seed=2, human=0)
    while fun.controller.game.state.phase != "auction":
        labels = [label for label, _ in fun.choices.options]
        fun.choices.value = labels.index("End the turn") if "End the turn" in labels else 0
        fun.play_button.click()
    fun.choices.value = [k for _, k in fun._entries].index(("bid", 0))
    fun.amount.value = fun.controller.game.state.auction.high_bid
    fun.play_button.click()  # a bid that does not beat the highest
    for widget in (editor, table, fun):
        assert widget.messages.last_error, f"{type(widget).__name__} refused"
        assert f"color:{ERROR_COLOR}" in widget.messages.widget.value


def test_a_module_is_imported_in_the_background_only_in_a_notebook(tmp_path, monkeypatch):
    """In a notebook (an event loop runs) the module is imported by the worker thread, ahead
    of the button that needs it; in plain Python it is left to be imported where used."""
    (tmp_path / "fdlab_slow_to_import.py").write_text(
        "import threading\nBY = threading.current_thread().name\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fdlab_slow_to_import", raising=False)
    import_in_background("fdlab_slow_to_import")
    assert "fdlab_slow_to_import" not in sys.modules

    async def in_a_notebook():
        import_in_background("fdlab_slow_to_import")
        await asyncio.wrap_future(_WORKER.submit(lambda: None))  # the worker did its jobs

    asyncio.run(in_a_notebook())
    assert sys.modules["fdlab_slow_to_import"].BY.startswith("fdlab-widget")
    sys.modules.pop("fdlab_slow_to_import")
