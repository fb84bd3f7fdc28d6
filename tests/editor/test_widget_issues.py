"""The editor's widgets against the defects a new user found (issue: an editor that never
loses work): every test sets widget values and feeds the Bokeh sources what a click sends."""

from __future__ import annotations

import re

import numpy as np
import pytest
from bokeh.models import Legend, ScaleBar
from editor_helpers import browser_change, browser_select, dragged, png_bytes, space_at, stadium
from editor_helpers import click as _click

from fdlab.editor import TrackEditor
from fdlab.editor.placing import corner_place, locate_corner
from fdlab.track import from_ascii
from fdlab.track.build import build_track

BOARD = """
    . . 1 1 . . 2 2 .
    . . 1 1 . . 2 2 .
"""


@pytest.fixture
def editor() -> TrackEditor:
    return TrackEditor(from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16]))


@pytest.fixture(scope="module")
def built_track():
    return build_track(stadium(), lanes=2, space_length=16.0)


def drag_a_point(editor: TrackEditor) -> None:
    points = dragged(editor.centreline_points())
    xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})


def test_the_keep_box_stays_usable_after_a_first_rebuild():
    editor = TrackEditor()
    editor.set_centreline(stadium())
    editor.space_length.value = 16.0
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None
    assert not editor.keep_build.disabled and editor.keep_build.value


def test_stops_hazard_and_tunnel_survive_dragging_a_point_and_rebuilding(built_track):
    editor = TrackEditor(built_track.copy())
    track = editor.track
    corner = min(track.corners)
    place = corner_place(track, corner)
    browser_select(editor, track.corner_spaces(corner)[:1])
    editor.stops.value = 3 if track.corners[corner]["stops"] != 3 else 2
    wanted = editor.stops.value
    browser_select(editor, [space_at(track, 0.4, 0)])
    _click(editor, "fdlab-danger")
    browser_select(editor, [space_at(track, 0.3, 1), space_at(track, 0.34, 1)])
    _click(editor, "fdlab-tunnel")
    drag_a_point(editor)
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None, editor.last_error
    track = editor.track
    assert track.corners[locate_corner(track, place)]["stops"] == wanted
    assert len(track.spaces(hazard="danger")) == 1 and len(track.tunnel_pairs()) == 1
    assert "kept 3 edits" in editor.message.value
    assert editor.unplaced_row.layout.display == "none"


def test_edits_that_cannot_be_placed_are_listed_with_the_choice():
    editor = TrackEditor(build_track(stadium(), lanes=3, space_length=16.0))
    browser_select(editor, [space_at(editor.track, 0.5, 2)])
    _click(editor, "fdlab-danger")
    editor.lane_counts.value = "0.4-0.6:2"  # lane 2 goes where the hazard was
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None, editor.last_error
    assert editor.unplaced_row.layout.display == "flex"
    assert "1 edit could not be placed" in editor.unplaced.value
    # the hazard's space, at about half the lap (the builder rounds the lap into spaces)
    assert re.search(r"no track space in lane 2 at (49|50|51)% of the lap", editor.unplaced.value)
    assert "1 could not be placed" in editor.message.value
    _click(editor, "fdlab-drop-unplaced")
    assert editor.unplaced_row.layout.display == "none"
    _click(editor, "fdlab-undo")  # the dropped edit is listed again
    _click(editor, "fdlab-undo-rebuild")
    assert editor.track.spaces(hazard="danger")  # the board before the rebuild is back
    assert editor.unplaced_row.layout.display == "none"


def test_undo_rebuild_brings_back_the_board_before_it_after_later_edits_too():
    editor = TrackEditor(build_track(stadium(), lanes=3, space_length=16.0))
    browser_select(editor, [space_at(editor.track, 0.5, 2)])
    _click(editor, "fdlab-danger")
    before = len(editor.track)
    editor.lane_counts.value = "0.4-0.6:2"  # lane 2 goes where the hazard was
    _click(editor, "fdlab-rebuild")
    rebuilt = len(editor.track)
    assert editor.unplaced_row.layout.display == "flex" and rebuilt != before
    browser_select(editor, [space_at(editor.track, 0.2, 0)])
    _click(editor, "fdlab-danger")  # an edit on the rebuilt board: the row is still shown
    assert editor.unplaced_row.layout.display == "flex"
    _click(editor, "fdlab-undo-rebuild")
    assert editor.last_error is None, editor.last_error
    assert len(editor.track) == before and editor.track.spaces(hazard="danger")
    assert editor.unplaced_row.layout.display == "none"
    assert "and the 1 edit after it" in editor.message.value
    _click(editor, "fdlab-redo")  # the rebuild again, then the edit made on it
    _click(editor, "fdlab-redo")
    assert len(editor.track) == rebuilt and len(editor.track.spaces(hazard="danger")) == 1


def test_undo_rebuild_without_a_rebuild_says_so():
    editor = TrackEditor(build_track(stadium(), lanes=2, space_length=16.0))
    editor.undo_rebuild()
    assert "not rebuilt since it was opened" in str(editor.last_error)


def test_the_active_tool_is_the_one_shown_and_drawing_drops_the_selection(editor):
    toolbar = editor.figure.toolbar
    assert editor.tool.value == "Select" and toolbar.active_tap.name == "tool-tap"
    browser_select(editor, [4, 5])
    editor.tool.value = "Draw centreline"
    assert editor.sources.draw.state.data["on"] == [1] and toolbar.active_tap is None
    assert editor.selected == [] and "Tool: Draw centreline" in editor.message.value
    editor.tool.value = "Box select"
    assert toolbar.active_drag.name == "tool-box" and toolbar.active_tap.name == "tool-tap"
    editor.tool.value = "Draw centreline"
    editor.set_centreline(stadium())
    editor.space_length.value = 16.0
    _click(editor, "fdlab-rebuild")
    # after a rebuild the spaces can be clicked at once, and the editor says so
    assert editor.tool.value == "Select" and toolbar.active_tap.name == "tool-tap"
    assert "Tool: Select" in editor.message.value


def test_controls_that_need_a_selection_are_disabled_without_one(editor):
    buttons = editor._buttons
    assert buttons["fdlab-danger"].disabled and buttons["fdlab-make-corner"].disabled
    assert editor.stops.disabled and editor.corner_name.disabled
    browser_select(editor, [4])
    assert not buttons["fdlab-danger"].disabled and not editor.stops.disabled
    assert not editor.corner_name.disabled and buttons["fdlab-tunnel"].disabled
    browser_select(editor, [4, 8])
    assert not buttons["fdlab-tunnel"].disabled and editor.corner_name.disabled
    _click(editor, "fdlab-danger")
    assert editor.selected == [] and buttons["fdlab-danger"].disabled


def test_stops_on_spaces_of_no_corner_say_what_they_will_do(editor):
    browser_select(editor, [0, 1])
    editor.stops.value = 3
    assert not editor.controller.can_undo
    assert "Make corner will make a 3-stop corner" in editor.message.value
    _click(editor, "fdlab-make-corner")
    assert editor.track.corners[3]["stops"] == 3


def test_one_message_area_keeps_the_last_message(editor):
    editor.make_corner()
    editor.pair_tunnel()
    assert editor.message.value.count("\u26a0") == 1 and "tunnel pair" in editor.message.value
    browser_select(editor, [4])
    editor.stops.value = 3
    assert "\u26a0" not in editor.message.value and "set stops of corner 1" in editor.message.value
    assert editor.last_error is None


def test_refusals_name_the_boxes_and_the_count_is_right(editor, tmp_path):
    for spaces in ([0], [1], [2]):
        browser_select(editor, spaces)
        _click(editor, "fdlab-danger")
    editor.path.value = str(tmp_path / "board.json")
    _click(editor, "fdlab-save")
    browser_select(editor, [3])
    _click(editor, "fdlab-shooting")
    assert "1 unsaved edit" in editor.status.value
    _click(editor, "fdlab-load")
    assert "tick 'discard unsaved'" in editor.last_error
    assert "1 unsaved edit (" in editor.last_error and "discard_unsaved" not in editor.last_error
    other = tmp_path / "other.json"
    other.write_text((tmp_path / "board.json").read_text())
    editor.path.value = str(other)
    _click(editor, "fdlab-save")
    assert "tick 'overwrite' and press Save again" in editor.last_error


def test_laps_and_corner_names_are_editable(editor):
    editor.laps.value = 3
    assert editor.track.laps == 3
    browser_select(editor, [12])
    editor.corner_name.value = "Hairpin"
    editor.corner_name.value = "Hairpin"
    assert editor.track.corners[2]["name"] == "Hairpin"
    assert editor.controller.history == ["set laps=3", "rename corner 2 to 'Hairpin'"]
    _click(editor, "fdlab-undo")
    _click(editor, "fdlab-undo")
    assert editor.laps.value == 1


def test_the_plot_fits_its_cell_zooms_to_the_board_and_has_a_legend_and_a_scale(editor):
    plot = editor.figure
    assert plot.sizing_mode == "stretch_both" and editor.plot.layout.width == "100%"
    names = {r.name for r in plot.x_range.renderers}
    assert names == {"spaces", "drawing-area", "picture"}  # no labels or lines widen it
    legend = plot.select_one({"type": Legend})
    labels = [item.label.value for item in legend.items]
    assert {"track", "corner", "pit lane", "shooting", "danger", "finish line"} <= set(labels)
    assert plot.select_one({"type": ScaleBar}).unit == "m"


def test_arrows_on_demand(editor):
    shown = {mode: None for mode in ("in corners", "all", "none")}
    for mode in shown:
        editor.arrows.value = mode
        shown[mode] = len(editor.step_source.data["from"])
    assert shown["none"] == 0 < shown["in corners"] < shown["all"] == 36
    assert editor.arrows.value == "none"


def test_the_finish_line_button_speaks_distance(built_track):
    editor = TrackEditor(built_track.copy())
    track = editor.track
    browser_select(editor, [space_at(track, 0.25, 0), space_at(track, 0.25, 1)])
    _click(editor, "fdlab-finish")
    assert editor.last_error is None
    assert "move the finish line" in editor.message.value and " m) on" in editor.message.value
    assert "steps" not in editor.message.value


def test_trace_a_board_scan(editor, tmp_path):
    scan = tmp_path / "scan.png"
    scan.write_bytes(png_bytes(40, 20))
    blank = TrackEditor()
    blank.picture_path.value = str(scan)
    _click(blank, "fdlab-load-picture")
    assert blank.last_error is None, blank.last_error
    data = blank.sources.picture.data
    assert data["url"][0].startswith("data:image/png;base64,")
    assert (data["w"][0], data["h"][0]) == (1000.0, 500.0)
    assert blank.sources.canvas.data == {"x": [], "y": []}  # the picture is the drawing area
    assert "25 m per pixel" in blank.picture_scale.value
    blank.picture_width.value = 400.0
    blank.picture_x.value, blank.picture_y.value = -10.0, 5.0
    blank.picture_opacity.value = 0.3
    data = blank.sources.picture.data
    assert (data["w"][0], data["h"][0], data["x"][0], data["y"][0], data["alpha"][0]) == (
        400.0, 200.0, -10.0, 5.0, 0.3,
    )  # fmt: skip
    # lay the centreline over it and build
    points = [(0, 0), (300, 0), (360, 90), (300, 180), (0, 180), (-40, 90)]
    xs, ys = np.array([float(x) for x, _ in points]), np.array([float(y) for _, y in points])
    browser_change(blank, blank.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    _click(blank, "fdlab-rebuild")
    assert blank.last_error is None and len(blank.track) > 50
    assert blank.sources.picture.data["w"] == [400.0]  # the picture stays under the new board
    _click(blank, "fdlab-remove-picture")
    assert blank.sources.picture.data["url"] == [] and blank.backdrop is None


def test_a_file_that_is_no_picture_is_refused_by_name(editor, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a picture")
    editor.picture_path.value = str(bad)
    _click(editor, "fdlab-load-picture")
    assert editor.last_error == f"picture: {bad} is not a PNG or JPEG file"
    editor.picture_path.value = str(tmp_path / "missing.png")
    _click(editor, "fdlab-load-picture")
    assert "No such file" in editor.last_error


def test_a_jpeg_is_read_too(editor, tmp_path):
    # a JPEG header: start of image, an APP0 segment, then a baseline frame of 64 x 32
    jpeg = b"\xff\xd8" + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    jpeg += b"\xff\xc0\x00\x11\x08" + (32).to_bytes(2, "big") + (64).to_bytes(2, "big") + b"\x03"
    path = tmp_path / "scan.jpg"
    path.write_bytes(jpeg + b"\x00" * 12 + b"\xff\xd9")
    editor.load_picture(path)
    assert editor.last_error is None
    assert editor.sources.picture.data["url"][0].startswith("data:image/jpeg;base64,")
    assert editor.backdrop.pixels == (64, 32)
