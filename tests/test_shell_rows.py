"""Rows built from tables, buttons and bug reports of the widget shell (fdlab._shell)."""

from __future__ import annotations

import traceback

import ipywidgets as w

from fdlab._shell import Buttons, bug_report, button, table_row


def test_a_table_row_labels_its_widgets_and_makes_its_buttons_in_order():
    clicks: list[str] = []
    buttons = Buttons()
    laps = w.BoundedIntText(value=1, min=1, max=99, layout=w.Layout(width="8em"))
    note = w.HTML("kept")
    made = table_row(
        buttons,
        [
            ("Laps", "fdlab-laps", laps, "laps of the race"),
            ("Save", "fdlab-save", lambda: clicks.append("save")),
            ("", "fdlab-note", note),
            ("Print", "fdlab-print", lambda: clicks.append("print"), "a PDF at real size"),
        ],
    )
    assert isinstance(made, w.HBox) and made.layout.flex_flow == "row wrap"
    laps_box, save, note_box, print_button = made.children
    assert laps_box is laps and note_box is note
    assert (laps.description, laps.tooltip, laps.layout.width) == (
        "Laps",
        "laps of the race",
        "8em",
    )
    assert laps.style.description_width == "initial" and "fdlab-laps" in laps._dom_classes
    assert note.description == "" and "fdlab-note" in note._dom_classes
    assert [b.description for b in (save, print_button)] == ["Save", "Print"]
    assert save.tooltip == "Save" and print_button.tooltip == "a PDF at real size"
    assert [css for css, _ in buttons.items()] == ["fdlab-save", "fdlab-print"]
    assert buttons["fdlab-print"] is print_button
    save.click()
    print_button.click()
    assert clicks == ["save", "print"]


def test_a_button_takes_a_layout_and_the_options_of_ipywidgets():
    clicks: list[int] = []
    wide = button(
        "3rd · free", "fdlab-gear", lambda: clicks.append(3), "the shift is free",
        layout=w.Layout(width="100%"), button_style="warning",
    )  # fmt: skip
    wide.click()
    assert clicks == [3]
    assert (wide.description, wide.tooltip, wide.button_style) == (
        "3rd · free",
        "the shift is free",
        "warning",
    )
    assert wide.layout.width == "100%" and wide.layout.flex is None
    assert list(wide._dom_classes) == ["fdlab-gear"]
    plain = button("Undo", "fdlab-undo", lambda: None)
    assert (plain.tooltip, plain.layout.width, plain.layout.flex) == ("Undo", "auto", "0 0 auto")


def test_a_bug_report_is_the_type_the_words_and_the_traceback():
    try:
        {}["lap"]
    except KeyError as error:
        expected = traceback.format_exc()
        message, details = bug_report(error)
    assert message == "KeyError: 'lap'"
    assert details == expected


def test_the_editor_rows_keep_their_controls_in_order():
    from fdlab.editor.widgets import TrackEditor
    from fdlab.track import from_ascii

    editor = TrackEditor(from_ascii(". . 1 1 .", corners={1: 1}), verdict=False)
    (corner_row,) = [
        box
        for box in _boxes(editor.widget)
        if isinstance(box, w.HBox) and editor.stops in box.children
    ]
    assert [(c.description, _css(c)) for c in corner_row.children] == [
        ("Stops", "fdlab-stops"),
        ("Corner name", "fdlab-corner-name"),
        ("Make corner", "fdlab-make-corner"),
        ("Not a corner", "fdlab-clear-corner"),
        ("Merge corners", "fdlab-merge-corners"),
        ("Split corner", "fdlab-split-corner"),
    ]
    assert editor.stops.layout.width == "9em"
    assert editor.undo_button is editor._buttons["fdlab-undo"]
    assert editor.redo_button is editor._buttons["fdlab-redo"]
    assert editor.tool.style.button_width == "auto"
    assert editor.tool.style.description_width == "initial"
    assert editor.keep_build.tooltip.startswith("rebuild with the corners")


def _css(widget: w.Widget) -> str:
    return next(c for c in widget._dom_classes if c.startswith("fdlab-"))


def _boxes(widget: w.Widget) -> list[w.Widget]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_boxes(child))
    return found
