"""Tracing a picture (issue 26): pick it, scale it by two points, drag and turn it, keep it.

The browser's part (the picture following the pointer, the clicks) is
delivered here as BokehJS delivers it (``browser_change``); the browser test
of the editor drives the same gestures with a real mouse.
"""

from __future__ import annotations

import datetime
import math

import pytest
from editor_helpers import browser_change, png_bytes

from fdlab.editor import TrackEditor
from fdlab.editor.backdrop import Backdrop
from fdlab.track import load_track
from fdlab.track.examples import two_corner_ring
from fdlab.track.io import save_track


@pytest.fixture
def board_file(tmp_path):
    path = tmp_path / "boards" / "ring.json"
    path.parent.mkdir()
    save_track(two_corner_ring(stops=(1, 2)), path)
    (path.parent / "scan.png").write_bytes(png_bytes(40, 20))
    return path


def _gesture(editor, kind, x, y):
    source = editor.sources.picture_gesture
    data = {key: list(values) for key, values in source.data.items()}
    data["kind"].append(kind)
    data["x"].append(x)
    data["y"].append(y)
    browser_change(editor, source, "data", data)


def test_two_clicks_and_a_distance_scale_the_picture_about_the_first(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    before = editor.backdrop
    editor.tracing.distance.value = 50.0
    editor.tracing.start_scaling()
    assert "click the first" in editor.last_message
    first = before.to_board(0.1 * before.width, 0.5 * before.height)
    second = before.to_board(0.6 * before.width, 0.5 * before.height)  # half the width apart
    _gesture(editor, "tap", *first)
    assert "click the second point" in editor.last_message
    _gesture(editor, "tap", *second)
    after = editor.backdrop
    assert after.width == pytest.approx(100.0)  # half its width is 50 m
    assert after.to_board(0.1 * after.width, 0.5 * after.height) == pytest.approx(first)
    assert "50 m apart" in editor.last_message
    assert editor.sources.picture_mode.data["mode"] == ["off"]  # done: clicks select again


def test_scaling_without_a_picture_says_to_load_one(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.tracing.start_scaling()
    assert "load or upload a picture first" in editor.last_error


def test_a_drag_with_move_picture_moves_it_and_undo_puts_it_back(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    start = (editor.backdrop.x, editor.backdrop.y)
    editor.use_tool("Move picture")
    assert editor.sources.picture_mode.data["mode"] == ["move"]
    _gesture(editor, "moved", start[0] + 30.0, start[1] - 12.5)
    assert (editor.backdrop.x, editor.backdrop.y) == (start[0] + 30.0, start[1] - 12.5)
    assert editor.picture_x.value == round(start[0] + 30.0, 3)
    assert editor.controller.dirty
    editor.undo()
    assert (editor.backdrop.x, editor.backdrop.y) == pytest.approx(start)
    editor.use_tool("Select")
    assert editor.sources.picture_mode.data["mode"] == ["off"]


def test_the_angle_turns_the_picture_about_its_centre(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    centre = editor.backdrop.centre
    editor.tracing.angle.value = 30.0
    assert editor.backdrop.angle == 30.0
    assert editor.backdrop.centre == pytest.approx(centre)
    assert editor.sources.picture.data["angle"] == [pytest.approx(math.radians(30.0))]


def test_the_angle_is_a_slider_a_half_turn_either_way(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    slider = editor.tracing.angle
    assert (slider.min, slider.max) == (-180.0, 180.0)
    # a board whose file turns the picture 270 degrees shows it as -90, the same turn
    editor.controller.set_picture({**editor.backdrop.placement("scan.png"), "angle": 270.0})
    editor.tracing.follow_board()
    assert editor.backdrop.angle == 270.0
    assert slider.value == -90.0


def test_the_placement_is_saved_with_the_board_and_shown_when_it_is_opened(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    editor.picture_width.value = 321.0
    editor.tracing.angle.value = 12.0
    placed = editor.backdrop
    editor.save()
    assert editor.last_error is None
    saved = load_track(board_file).graph.graph["picture"]
    assert saved["file"] == "scan.png"  # beside the board: the folder can move
    assert saved["width"] == 321.0 and saved["angle"] == 12.0
    again = TrackEditor.open(board_file, verdict=False)
    assert again.backdrop is not None
    assert (again.backdrop.width, again.backdrop.x, again.backdrop.y, again.backdrop.angle) == (
        pytest.approx(placed.width),
        pytest.approx(placed.x),
        pytest.approx(placed.y),
        12.0,
    )
    assert again.sources.picture.data["url"][0].startswith("data:image/png")


def test_saving_elsewhere_keeps_the_picture_findable(board_file, tmp_path):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    other = tmp_path / "elsewhere" / "copy.json"
    other.parent.mkdir()
    editor.path.value = str(other)
    editor.save()
    assert load_track(other).graph.graph["picture"]["file"] == "../boards/scan.png"
    assert TrackEditor.open(other, verdict=False).backdrop is not None


def test_a_missing_picture_file_is_said_and_the_placement_kept(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    editor.save()
    (board_file.parent / "scan.png").unlink()
    again = TrackEditor.open(board_file, verdict=False)
    assert again.backdrop is None
    assert "the board's picture is not shown" in again.last_error
    assert "scan.png" in again.last_error
    assert again.track.graph.graph["picture"]["file"] == "scan.png"


def test_a_malformed_placement_in_a_file_is_said_not_raised(board_file):
    track = load_track(board_file)
    track.graph.graph["picture"] = {"file": "scan.png", "width": "wide"}
    save_track(track, board_file)
    editor = TrackEditor.open(board_file, verdict=False)
    assert editor.backdrop is None
    assert "width must be a number more than 0, not 'wide'" in editor.last_error


def test_an_uploaded_picture_is_kept_beside_the_board(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    data = png_bytes(30, 10, pixel=(10, 20, 30))
    upload = {"name": "scan.png", "type": "image/png", "size": len(data),
              "content": memoryview(data), "last_modified": datetime.datetime.now()}  # fmt: skip
    editor.tracing.upload.value = (upload,)
    # another picture named scan.png is there already: the upload gets a name of its own
    kept = board_file.parent / "scan-1.png"
    assert kept.read_bytes() == data
    assert editor.backdrop.pixels == (30, 10)
    assert editor.track.graph.graph["picture"]["file"] == "scan-1.png"
    assert editor.tracing.upload.value == ()  # ready for the next picture


def test_remove_and_undo_bring_the_picture_back(board_file):
    editor = TrackEditor.open(board_file, verdict=False)
    editor.load_picture(board_file.parent / "scan.png")
    editor.remove_picture()
    assert editor.backdrop is None and "picture" not in editor.track.graph.graph
    editor.undo()
    assert isinstance(editor.backdrop, Backdrop)


def test_placing_or_removing_the_picture_keeps_the_verdict_and_its_marks(board_file):
    """The board plays the same under a moved picture: no new verdict, the marks stay."""
    editor = TrackEditor.open(board_file)
    editor.verdict.watch.races = 4
    editor.verdict.refresh()  # in plain Python: computed here and now
    marks = dict(editor.sources.verdict.data)
    assert "up to date" in editor.verdict.state.value
    editor.load_picture(board_file.parent / "scan.png")
    editor.tracing.angle.value = 30.0
    editor.undo()
    editor.remove_picture()
    assert "up to date" in editor.verdict.state.value
    assert dict(editor.sources.verdict.data) == marks
    editor.select([next(iter(editor.track.graph))])
    editor.set_hazard("danger")  # a change of the board itself
    assert "out of date" in editor.verdict.state.value
