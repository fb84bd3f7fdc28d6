"""One screen (issue 26), headless: the editor's widget tree lays the board out to fill the
window beside its panel, with one row of tools above it.

What a browser makes of it (the board whole and the corner controls in sight at 1366x768,
a taller board at 1920x1080) is checked by ``test_browser.py``.
"""

from __future__ import annotations

import ipywidgets as w
import pytest
from bokeh.models import CustomJS, DataRange1d, HoverTool

from fdlab._shell import SCREEN_HEIGHT
from fdlab.editor import TrackEditor
from fdlab.editor.board_plot import TOOLS
from fdlab.track import from_ascii

BOARD = """
    . . 1 1 . . 2 2 .
    . . 1 1 . . 2 2 .
"""


def _editor(**options: object) -> TrackEditor:
    track = from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16])
    return TrackEditor(track, verdict=False, **options)


@pytest.fixture
def editor() -> TrackEditor:
    return _editor()


def _classes(widget: w.Widget) -> set[str]:
    return set(getattr(widget, "_dom_classes", ()))


def test_the_board_column_and_the_panel_are_as_tall_as_the_window_allows(editor):
    column, panel = editor.widget.children
    assert "fdlab-board-column" in _classes(column) and "fdlab-panel" in _classes(panel)
    assert column.layout.height == SCREEN_HEIGHT
    assert "100vh" in SCREEN_HEIGHT and SCREEN_HEIGHT.startswith("max(")  # a floor for tiny windows
    # the panel is no taller than the column: its sections scroll inside it, not the page
    assert panel.layout.max_height == SCREEN_HEIGHT
    assert panel.layout.overflow == "hidden auto"


def test_the_plot_takes_the_height_the_lines_above_and_below_it_leave(editor):
    column, _ = editor.widget.children
    assert editor.plot in column.children
    assert editor.plot.layout.flex == "1 1 0" and editor.plot.layout.min_height == "0"
    assert editor.plot.layout.width == "100%"
    others = [child for child in column.children if child is not editor.plot]
    assert others and all(not (child.layout.flex or "").startswith("1") for child in others)


def test_the_figure_fills_its_cell_and_keeps_the_board_in_proportion(editor):
    plot = editor.figure
    assert plot.sizing_mode == "stretch_both"
    assert plot.match_aspect and plot.aspect_scale == 1
    assert isinstance(plot.x_range, DataRange1d) and isinstance(plot.y_range, DataRange1d)
    # after a pan or a zoom Bokeh keeps the ranges as they are: on a resize the browser
    # widens one of them to the frame's shape
    for size in ("inner_width", "inner_height"):
        keep = plot.js_property_callbacks[f"change:{size}"][0]
        assert isinstance(keep, CustomJS) and "have_updated_interactively" in keep.code
        assert keep.args["fig"] is plot
    # the wheel scrolls the page until the designer picks the wheel-zoom tool
    assert plot.toolbar.active_scroll is None
    assert any(type(tool).__name__ == "WheelZoomTool" for tool in plot.toolbar.tools)
    # and the toolbar above it measures itself again once the plot is narrower (the
    # browser test checks that no tool is folded away on a laptop)
    _, refit = plot.js_property_callbacks["change:inner_width"]
    assert refit.args["toolbar"] is plot.toolbar and "_after_render" in refit.code


def test_tools_arrows_undo_redo_and_save_share_one_wrapping_row_above_the_plot(editor):
    column, _ = editor.widget.children
    rows = [child for child in column.children if "fdlab-toolbar" in _classes(child)]
    assert len(rows) == 1
    (toolbar,) = rows
    assert isinstance(toolbar, w.HBox) and toolbar.layout.flex_flow == "row wrap"
    shown = [css for child in toolbar.children for css in _classes(child)]
    assert shown == ["fdlab-tool", "fdlab-arrows", "fdlab-undo", "fdlab-redo", "fdlab-save"]
    assert toolbar.children[0] is editor.tool and toolbar.children[2] is editor.undo_button
    assert column.children.index(toolbar) < column.children.index(editor.plot)


def test_the_toolbar_is_short_enough_for_a_laptop_with_the_file_browser_open(editor):
    """One word a tool, the arrows named in their choices, Undo and Redo as icons: the row
    fits the 540 px board column of a 1366x768 screen with JupyterLab's file browser open
    (``test_browser.py`` measures it there); the tooltips keep the full names."""
    labels = [label for label, _ in editor.tool.options]
    assert labels == ["Select", "Box", "Draw", "Points", "Picture", "Pan"]
    assert [value for _, value in editor.tool.options] == list(TOOLS)  # use_tool's names
    assert all(
        tip.startswith(f"{name}: ") for tip, name in zip(editor.tool.tooltips, TOOLS, strict=True)
    )
    assert [label for label, _ in editor.arrows.options] == [
        "corner arrows",
        "all arrows",
        "no arrows",
    ]
    assert editor.arrows.value == "in corners" and not editor.arrows.description
    for button, icon, tip in (
        (editor.undo_button, "undo", "Undo"),
        (editor.redo_button, "redo", "Redo"),
    ):
        assert (button.description, button.icon) == ("", icon)
        assert button.tooltip.startswith(f"{tip}: ")


def test_a_height_in_pixels_keeps_the_plot_that_tall_and_the_column_as_tall_as_its_content():
    editor = _editor(height=500)
    column, panel = editor.widget.children
    assert editor.figure.height == 500 and editor.figure.sizing_mode == "stretch_width"
    assert column.layout.height is None and panel.layout.max_height == "88vh"
    assert editor.plot.layout.flex is None and editor.plot.layout.width == "100%"


def test_the_selection_line_keeps_its_height_so_a_click_does_not_resize_the_board(editor):
    layout = editor.selection.layout
    assert "2 *" in layout.height and layout.flex == "0 0 auto"
    assert layout.overflow == "hidden auto"  # a longer selection scrolls inside its two lines


def test_a_click_or_a_drag_puts_the_space_tooltip_away(editor):
    """The tooltip of the space under the pointer must not cover what a click selected or
    drew (``test_browser.py`` sees it go, and come back when the pointer moves)."""
    (hover,) = editor.figure.select({"type": HoverTool})
    callbacks = editor.figure.js_event_callbacks
    for gesture in ("tap", "press", "panstart"):
        assert any(
            callback.args.get("hover") is hover and "_move_exit" in callback.code
            for callback in callbacks[gesture]
        ), gesture


def test_the_kernels_objects_are_left_out_of_the_collectors_passes_before_the_editors(
    monkeypatch,
):
    """Never a freeze (issue 26): a full pass of Python's cycle collector over a kernel's
    few hundred thousand objects blocked the widgets for 0.2-0.3 s. The first editor of a
    process freezes the objects alive before it makes its own (so an editor opened again
    lets the one before go), and only the first one does."""
    from fdlab.rules import collector

    events: list[str] = []
    build_controls = TrackEditor._build_controls

    def recorded_build(self, *args, **kwargs):
        events.append("controls")
        return build_controls(self, *args, **kwargs)

    monkeypatch.setattr(collector, "_SPARED", [False])
    monkeypatch.setattr(collector.gc, "freeze", lambda: events.append("freeze"))
    monkeypatch.setattr(TrackEditor, "_build_controls", recorded_build)
    _editor()
    assert events == ["freeze", "controls"]
    _editor()
    assert events == ["freeze", "controls", "controls"]
