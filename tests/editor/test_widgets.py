"""The widget layer, headless: widget values, buttons and Bokeh edits as the browser sends them."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from editor_helpers import browser_change, browser_select
from editor_helpers import click as _click

from fdlab.editor import TrackEditor
from fdlab.track import from_ascii
from fdlab.track.build.pipeline import DEFAULT_SPACES_PER_LAP
from fdlab.track.io import load_track
from fdlab.track.validate import validate as _validate

BOARD = """
    . . 1 1 . . 2 2 .
    . . 1 1 . . 2 2 .
"""


@pytest.fixture
def editor() -> TrackEditor:
    track = from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16])
    return TrackEditor(track)


def test_editor_displays_as_a_widget(editor):
    bundle = editor._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    board_column, panel = editor.widget.children
    assert editor.plot in board_column.children and "fdlab-panel" in panel._dom_classes
    assert "fdlab-editor" in editor.widget._dom_classes


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def test_undo_redo_and_save_sit_above_the_board_in_sight(editor, tmp_path):
    """At 1366x768 the panel scrolls: the buttons used after every edit are in the board column."""
    board_column, panel = editor.widget.children
    above_the_plot = board_column.children[: board_column.children.index(editor.plot)]
    in_the_toolbar = {
        css
        for top in above_the_plot
        for widget in _descendants(top)
        for css in getattr(widget, "_dom_classes", ())
    }
    assert {"fdlab-undo", "fdlab-redo", "fdlab-save", "fdlab-tool"} <= in_the_toolbar
    in_the_panel = {css for widget in _descendants(panel) for css in widget._dom_classes}
    assert "fdlab-undo" not in in_the_panel and "fdlab-save-file" in in_the_panel
    editor.path.value = str(tmp_path / "oval.json")
    _click(editor, "fdlab-save-file")  # the File section's Save does the same
    assert (tmp_path / "oval.json").exists() and "saved" in editor.status.value


def test_the_status_line_counts_the_problems(editor):
    """The problems are listed at the foot of the panel; the status line says how many, in red."""
    assert len(editor.controller.problems) == 5  # long steps where the loop closes, a short grid
    assert "18 spaces · 5 problems · no file yet" in editor.status_text
    assert '<span style="color:#b00020"' in editor.status.value
    shipped = TrackEditor(load_track(Path(__file__).parents[2] / "tracks" / "monaco.json"))
    assert "487 spaces · no problems · no file yet" in shipped.status_text
    assert "color" not in shipped.status.value


def test_the_status_line_never_calls_saved_a_board_that_has_no_file(editor, tmp_path):
    """A board from no file is 'no file yet', with its edits counted; saved once it has one."""
    assert editor.status_text.endswith("· no file yet")
    browser_select(editor, [12])
    editor.stops.value = 3
    assert editor.status_text.endswith("· 1 unsaved edit · no file yet")
    editor.path.value = str(tmp_path / "oval.json")
    _click(editor, "fdlab-save")
    assert editor.status_text.endswith(f"· saved · {tmp_path / 'oval.json'}")


def test_an_edit_is_drawn_and_said_before_the_board_is_validated(editor):
    """Validating a Monaco-size board takes as long as redrawing it: the plot and the
    message go to the browser first, the problem count follows."""
    seen = []
    validate = editor.controller._validator or _validate

    def watching(track):
        flags = editor.note_sources["flags"].data["text"]
        seen.append((flags[0].startswith("#1 3"), editor.last_message))
        return validate(track)

    editor.controller._validator = watching
    browser_select(editor, [4, 5])
    editor.stops.value = 3
    assert seen == [(True, "set stops of corner 1 to 3")]
    assert "1 unsaved edit" in editor.status.value and "problems" in editor.status.value


def test_board_and_arrows_are_drawn_from_the_model(editor):
    assert editor.board_source.data["id"] == list(editor.track.graph)
    editor.arrows.value = "all"
    assert len(editor.step_source.data["from"]) == editor.track.graph.number_of_edges()
    assert editor.note_sources["flags"].data["text"] == ["#1 1\u2691 2/2", "#2 2\u2691 2/2"]


def test_a_click_in_the_browser_selects_a_space_and_shows_its_corner(editor):
    browser_select(editor, [12])
    assert editor.selected == [12]
    assert "corner 2" in editor.selection.value
    assert editor.stops.value == 2


def test_changing_stops_in_the_dropdown_edits_the_corner(editor):
    browser_select(editor, [4, 5])
    editor.stops.value = 3
    assert editor.track.corners[1]["stops"] == 3
    assert editor.controller.history == ["set stops of corner 1 to 3"]
    assert editor.note_sources["flags"].data["text"][0].startswith("#1 3")
    assert "1 unsaved edit" in editor.status.value


def test_selecting_a_corner_does_not_edit_it(editor):
    browser_select(editor, [4])
    browser_select(editor, [12])
    browser_select(editor, [4])
    assert not editor.controller.can_undo


def test_every_browser_change_arrives_twice_and_acts_once(editor):
    # jupyter_bokeh calls on_change callbacks twice for one browser change
    calls = []
    editor.board_source.selected.on_change("indices", lambda attr, old, new: calls.append(new))
    browser_select(editor, [0, 1, 2, 3])
    assert len(calls) == 2
    assert editor.selected == [0, 1, 2, 3]
    editor.make_corner()
    assert editor.controller.history == ["make corner 3 of 4 spaces"]


def test_box_select_then_hazard_buttons(editor):
    browser_select(editor, [8, 9, 10])
    _click(editor, "fdlab-danger")
    assert editor.track.spaces(hazard="danger") == [8, 9, 10]
    assert editor.selected == []  # used once: a later click cannot hit them by accident
    browser_select(editor, [8, 9, 10])
    _click(editor, "fdlab-no-hazard")
    assert editor.track.spaces(hazard="danger") == []


def test_corner_buttons(editor):
    browser_select(editor, [4, 5, 12])
    _click(editor, "fdlab-merge-corners")
    assert sorted(editor.track.corners) == [1]
    browser_select(editor, [14, 15])
    _click(editor, "fdlab-split-corner")
    assert editor.track.corner_spaces(2) == [14, 15]  # the free id 2 is used again
    # the merge took the straight between the corners (8-11) too
    assert editor.track.corner_spaces(1) == list(range(4, 14))
    browser_select(editor, [14, 15])
    _click(editor, "fdlab-clear-corner")
    assert editor.track.corner_spaces(2) == []


def test_steps_from_the_step_boxes(editor):
    browser_select(editor, [0, 5])
    assert (editor.step_from.value, editor.step_to.value) == ("0", "5")
    editor.step_kind.value = "lane_change"
    editor.arrows.value = "all"
    _click(editor, "fdlab-add-step")
    assert editor.track.graph.edges[0, 5]["kind"] == "lane_change"
    assert (0, 5) in zip(
        editor.step_source.data["from"], editor.step_source.data["to"], strict=True
    )
    _click(editor, "fdlab-remove-step")
    _click(editor, "fdlab-remove-step")  # a repeated click finds it gone and does nothing
    assert not editor.track.graph.has_edge(0, 5)
    assert editor.last_error is None


def test_lines_tunnel_grid_and_pit_buttons(editor):
    browser_select(editor, [8, 9])
    _click(editor, "fdlab-finish")
    assert editor.track.space(8)["progress"] == 0.0
    browser_select(editor, [2, 10])
    _click(editor, "fdlab-tunnel")
    assert editor.track.tunnel_pairs() == {"1": [2, 10]}
    browser_select(editor, [15])
    editor.grid_number.value = 3
    _click(editor, "fdlab-grid")
    assert editor.track.space(15)["grid"] == 3
    browser_select(editor, [11, 13, 15, 17])
    editor.pit_boxes.value = 1
    _click(editor, "fdlab-pit")
    assert len(editor.track.spaces(kind="pit")) == 4 and len(editor.track.boxes()) == 1
    assert len(editor.board_source.data["id"]) == 23


def test_undo_and_redo_buttons(editor):
    browser_select(editor, [4])
    editor.stops.value = 2
    assert not editor.undo_button.disabled and editor.redo_button.disabled
    _click(editor, "fdlab-undo")
    assert editor.track.corners[1]["stops"] == 1 and editor.stops.value == 1
    _click(editor, "fdlab-redo")
    assert editor.track.corners[1]["stops"] == 2


def test_errors_in_callbacks_are_shown_not_lost(editor):
    editor.selected = []
    _click(editor, "fdlab-make-corner")
    editor.make_corner()  # from code: the button itself is disabled without a selection
    assert editor.last_error == "make corner: select a space on the plot first"
    assert "select a space" in editor.message.value
    browser_select(editor, [0])
    editor.pair_tunnel()
    assert "select exactly 2 space(s), not 1" in editor.last_error


def test_problems_are_listed_and_a_click_highlights_their_spaces(editor):
    browser_select(editor, [16, 17])
    editor.controller.remove_step(16, 0)
    editor.controller.remove_step(16, 1)
    labels = [label for label, _ in editor.problem_list.options]
    index = next(i for i, label in enumerate(labels) if label.startswith("dead_end"))
    editor.problem_list.value = index
    data = editor.board_source.data
    marked = [space for space, on in zip(data["id"], data["highlight"], strict=True) if on]
    assert 16 in marked
    assert editor.selected == [16, 17]  # the selection survives the redraw


def test_a_board_without_problems_says_so_in_one_line(editor):
    assert editor.controller.problems  # the small test board has some: they are listed
    assert (editor.problem_list.layout.display, editor.no_problems.layout.display) == ("", "none")
    training = Path(__file__).resolve().parents[2] / "tracks" / "training.json"
    sound = TrackEditor.open(training, verdict=False)
    assert not sound.controller.problems
    assert (sound.problem_list.layout.display, sound.no_problems.layout.display) == ("none", "")
    assert sound.no_problems.value == "no problems found"


def test_save_and_load_through_the_widgets(editor, tmp_path):
    target = tmp_path / "mine.json"
    browser_select(editor, [12])
    editor.stops.value = 3
    editor.path.value = str(target)
    _click(editor, "fdlab-save")
    assert load_track(target).corners[2]["stops"] == 3
    assert "saved" in editor.status.value and editor.last_error is None
    browser_select(editor, [12])
    editor.stops.value = 1
    _click(editor, "fdlab-load")
    assert "unsaved edit" in editor.last_error and editor.track.corners[2]["stops"] == 1
    editor.discard.value = True
    _click(editor, "fdlab-load")
    assert editor.track.corners[2]["stops"] == 3 and not editor.controller.dirty
    assert editor.discard.value is False


def test_a_failed_save_says_why(editor, tmp_path):
    editor.path.value = str(tmp_path / "no-such-folder" / "x.json")
    _click(editor, "fdlab-save")
    assert "there is no folder" in editor.last_error and "no-such-folder" in editor.last_error


def test_drawing_a_centreline_in_the_browser_is_read_back(editor):
    xs = np.array([0.0, 10.0, 10.0, 0.0])
    ys = np.array([0.0, 0.0, 8.0, 8.0])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    assert editor.centreline_points() == [(0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (0.0, 8.0)]
    assert editor.centreline_info.value.startswith("Centreline: 4 points")
    browser_change(editor, editor.centreline_source, "data", {"xs": [], "ys": []})
    assert editor.centreline_info.value.startswith("No centreline")


def test_move_points_shows_the_line_as_it_is_now_and_hides_it_after(editor):
    """The points to drag are those of the line the browser has, shown only while moving points."""
    shown = [editor.figure.select_one({"name": n}) for n in ("centreline-points", "centreline-cue")]
    xs, ys = np.array([0.0, 10.0, 10.0, 0.0]), np.array([0.0, 0.0, 8.0, 8.0])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    editor.use_tool("Move points")
    assert [r.visible for r in shown] == [True, True]
    assert editor.sources.vertices.data == {"x": list(xs), "y": list(ys)}
    assert editor.figure.toolbar.active_drag is None  # the drag is the point's, not a pan
    editor.use_tool("Select")
    assert [r.visible for r in shown] == [False, False]
    assert editor.sources.points.cue.data["index"] == []


def test_the_end_of_a_point_drag_says_which_point_moved(editor):
    editor.use_tool("Move points")
    count = len(editor.centreline_points())
    moved = {"index": [-1], "x0": [0], "y0": [0], "sx": [0], "sy": [0], "moved": [3]}
    browser_change(editor, editor.sources.points.drag, "data", moved)
    assert editor.last_message.startswith(f"moved centreline point 4 of {count}")
    assert "Rebuild from centreline" in editor.last_message


def _drag_point(editor, index: int, to: tuple[float, float]) -> None:
    """A drag of centreline point ``index`` as the browser sends it: start, line, end."""
    drag = editor.sources.points.drag
    x0, y0 = editor.centreline_points()[index]
    start = {"index": [index], "x0": [x0], "y0": [y0], "sx": [x0], "sy": [y0], "moved": [-1]}
    browser_change(editor, drag, "data", start)
    points = editor.centreline_points()
    points[index] = to
    line = {"xs": [np.array([x for x, _ in points])], "ys": [np.array([y for _, y in points])]}
    browser_change(editor, editor.centreline_source, "data", line)
    end = {"index": [-1], "x0": [0], "y0": [0], "sx": [0], "sy": [0], "moved": [index]}
    browser_change(editor, drag, "data", end)


def test_undo_takes_a_point_drag_back_in_turn_with_the_board_edits(editor):
    editor.set_centreline([(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)])
    editor.use_tool("Move points")
    line = editor.centreline_points()
    straight = [n for n, d in editor.track.graph.nodes(data=True) if d.get("corner") is None]
    editor.select(straight[:1])
    editor.set_hazard("danger")  # a board edit before the drag
    _drag_point(editor, 2, (line[2][0] + 30.0, line[2][1]))
    assert editor.centreline_points()[2] == (line[2][0] + 30.0, line[2][1])
    assert "Undo puts it back" in editor.last_message
    editor.undo()  # the drag first: it came last
    assert editor.centreline_points() == line
    assert editor.last_message == "undo: centreline point 3 back"
    assert editor.sources.vertices.data["x"] == [x for x, _ in line]  # the dots follow
    assert editor.track.graph.nodes[straight[0]]["hazard"] == "danger"  # the board edit stays
    editor.undo()  # then the board edit
    assert editor.track.graph.nodes[straight[0]].get("hazard") in (None, "")
    assert editor.centreline_points() == line
    editor.redo()  # the board edit again, then the drag
    assert editor.track.graph.nodes[straight[0]]["hazard"] == "danger"
    assert editor.centreline_points() == line
    editor.redo()
    assert editor.centreline_points()[2] == (line[2][0] + 30.0, line[2][1])
    assert editor.redo_button.disabled


def test_a_board_edit_after_undoing_a_drag_drops_its_redo(editor):
    editor.set_centreline([(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)])
    editor.use_tool("Move points")
    line = editor.centreline_points()
    _drag_point(editor, 1, (line[1][0], line[1][1] + 20.0))
    editor.undo()
    assert not editor.redo_button.disabled
    straight = [n for n, d in editor.track.graph.nodes(data=True) if d.get("corner") is None]
    editor.select(straight[:1])
    editor.set_hazard("danger")
    assert editor.redo_button.disabled
    assert editor.centreline_points() == line


def _click_points(editor, points, close: bool) -> None:
    """What the browser sends while a line is drawn: the first click, the line, the lap closed."""
    state = editor.sources.draw.state
    for count in range(1, len(points) + 1):
        xs = np.array([x for x, _ in points[:count]])
        ys = np.array([y for _, y in points[:count]])
        browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
        if count == 1:
            browser_change(editor, state, "data", {"on": [1], "fresh": [0], "closed": [0]})
    if close:
        browser_change(editor, state, "data", {"on": [1], "fresh": [1], "closed": [len(points)]})


def test_drawing_a_lap_a_click_a_point_and_undoing_it(editor):
    old = [(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)]
    editor.set_centreline(old)
    editor.use_tool("Draw centreline")
    assert editor.sources.draw.state.data == {"on": [1], "fresh": [1], "closed": [0]}
    points = editor.figure.select_one({"name": "centreline-points"})
    assert points.visible  # the points show while drawing, as while moving them
    lap = [(0.0, 0.0), (300.0, 0.0), (350.0, 120.0), (40.0, 150.0)]
    _click_points(editor, lap, close=True)
    assert editor.centreline_points() == lap
    assert editor.last_message.startswith("lap drawn: 4 points")
    assert "Centreline: 4 points" in editor.centreline_info.value
    editor.undo()  # the whole drawing goes
    assert editor.centreline_points() == old
    editor.redo()
    assert editor.centreline_points() == lap
    editor.undo()
    editor.use_tool("Select")  # still the line Undo left: nothing new to keep
    assert editor.centreline_points() == old
    editor.undo()  # the next Undo is the board's, not a line drawn back to the lap
    assert editor.centreline_points() == old


def test_undo_while_drawing_takes_the_unfinished_line_back(editor):
    old = [(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)]
    editor.set_centreline(old)
    editor.use_tool("Draw centreline")
    _click_points(editor, [(5.0, 5.0), (60.0, 5.0)], close=False)
    editor.undo()
    assert editor.centreline_points() == old
    assert editor.sources.draw.state.data["fresh"] == [1]  # the next click starts anew
    editor.use_tool("Select")
    assert editor.sources.draw.state.data["on"] == [0]
    # leaving the tool after Undo keeps nothing new: Redo still brings the drawing back
    assert editor.centreline_points() == old
    editor.redo()
    assert editor.centreline_points() == [(5.0, 5.0), (60.0, 5.0)]


def test_leaving_the_draw_tool_keeps_the_line_for_undo(editor):
    old = [(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)]
    editor.set_centreline(old)
    editor.use_tool("Draw centreline")
    lap = [(0.0, 0.0), (300.0, 0.0), (350.0, 120.0)]
    _click_points(editor, lap, close=False)
    editor.use_tool("Select")
    assert editor.centreline_points() == lap
    assert not editor.undo_button.disabled
    editor.undo()
    assert editor.centreline_points() == old


def test_rebuild_needs_a_centreline(editor):
    editor.centreline_source.data = {"xs": [], "ys": []}
    _click(editor, "fdlab-rebuild")
    assert "draw a centreline of at least 3 points" in editor.last_error


def test_an_existing_board_shows_its_centreline(editor):
    assert len(editor.centreline_points()) == 9


def test_open_a_saved_board(tmp_path, editor):
    editor.controller.save(tmp_path / "b.json")
    opened = TrackEditor.open(tmp_path / "b.json")
    assert opened.track == editor.track and opened.path.value == str(tmp_path / "b.json")


def _stadium(straight: float = 200.0, radius: float = 30.0, step: float = 5.0):
    """A closed stadium-shaped centreline in metres, anticlockwise."""
    import math

    count = int(straight // step)
    bend = int(math.pi * radius // step)
    points = [(i * straight / count, 0.0) for i in range(count)]
    for i in range(bend):
        angle = -math.pi / 2 + math.pi * i / bend
        points.append((straight + radius * math.cos(angle), radius + radius * math.sin(angle)))
    points += [(straight - i * straight / count, 2 * radius) for i in range(count)]
    for i in range(bend):
        angle = math.pi / 2 + math.pi * i / bend
        points.append((radius * math.cos(angle), radius + radius * math.sin(angle)))
    return points


def test_draw_a_centreline_in_the_browser_and_rebuild():
    editor = TrackEditor()
    points = _stadium()
    xs = np.array([x for x, _ in points])
    ys = np.array([y for _, y in points])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    editor.lanes.value = 3
    editor.space_length.value = 16.0
    editor.lane_counts.value = "0.5-0.7:2"
    editor.with_pit.value = True
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None
    track = editor.track
    assert track.name == "new circuit" and len(track) > 50
    assert {d["lane"] for _, d in track.graph.nodes(data=True) if d["kind"] == "track"} == {0, 1, 2}
    stretch = {  # lanes per stretch "0.5-0.7:2": two lanes from half the lap to 70 %
        d["lane"]
        for _, d in track.graph.nodes(data=True)
        if d["kind"] == "track" and 0.52 <= d["progress"] / track.lap_length <= 0.68
    }
    assert stretch == {0, 1}
    assert track.graph.graph["space_length"] == 16.0
    assert track.spaces(kind="pit") and track.corners
    assert len(editor.board_source.data["id"]) == len(track)
    assert len(editor.centreline_points()) > 10  # the new board's centreline is shown
    _click(editor, "fdlab-undo")
    assert len(editor.track) == 0 and len(editor.board_source.data["id"]) == 0


def test_bad_lane_counts_are_explained(editor):
    editor.set_centreline(_stadium())
    editor.lane_counts.value = "most:3"
    _click(editor, "fdlab-rebuild")
    assert "'most:3' is not start-end:lanes" in editor.last_error
    editor.lane_counts.value = "0.1-0.2:7"
    _click(editor, "fdlab-rebuild")
    assert editor.last_error.startswith("rebuild from the centreline failed")
    assert len(editor.track) == 18  # nothing changed


def test_a_board_built_before_display_is_what_the_browser_draws():
    editor = TrackEditor()
    editor.set_centreline(_stadium())
    editor.space_length.value = 16.0
    editor.rebuild()
    assert editor.last_error is None
    editor._repr_mimebundle_()  # displaying the editor in a cell
    drawn = _find_model(editor.plot.render_bundle["docs_json"], editor.board_source.id)
    columns = dict(drawn["attributes"]["data"]["entries"])
    assert len(columns["id"]) == len(editor.track) > 0


def _find_model(node, model_id):
    if isinstance(node, dict):
        if node.get("id") == model_id and "attributes" in node:
            return node
        children = node.values()
    elif isinstance(node, (list, tuple)):
        children = node
    else:
        return None
    for child in children:
        found = _find_model(child, model_id)
        if found is not None:
            return found
    return None


def test_delete_spaces_and_the_pit_lane_with_buttons(editor):
    browser_select(editor, [11, 13, 15])
    _click(editor, "fdlab-pit")
    assert len(editor.track.spaces(kind="pit")) == 3
    _click(editor, "fdlab-remove-pit")
    assert editor.track.spaces(kind="pit") == [] and len(editor.board_source.data["id"]) == 18
    browser_select(editor, [0])
    _click(editor, "fdlab-delete-spaces")
    assert 0 not in editor.track and editor.selected == []
    assert 0 not in editor.board_source.data["id"]


def test_a_highlighted_problem_goes_away_when_it_is_fixed(editor):
    editor.controller.remove_step(16, 0)
    editor.controller.remove_step(16, 1)
    labels = [label for label, _ in editor.problem_list.options]
    editor.problem_list.value = next(
        i for i, text in enumerate(labels) if text.startswith("dead_end")
    )
    assert editor.highlighted == [16]
    editor.controller.set_hazard([4], "danger")  # an unrelated edit keeps it
    assert editor.highlighted == [16] and editor.problem_list.value is not None
    editor.controller.undo()
    editor.controller.undo()  # the arrow is back: no more dead end
    assert editor.highlighted == [] and editor.problem_list.value is None
    assert not any(editor.board_source.data["highlight"])


def test_renaming_the_board_in_the_name_box(editor):
    assert editor.name_box.value == "ascii board"
    editor.name_box.value = "Oval"
    editor.name_box.value = "Oval"  # a repeated delivery changes nothing more
    assert editor.track.name == "Oval" and editor.controller.history == ["set name='Oval'"]
    _click(editor, "fdlab-undo")
    assert editor.name_box.value == "ascii board"
    editor.name_box.value = ""
    assert editor.last_error == "track name must not be empty"
    assert editor.name_box.value == "ascii board"


def test_a_blank_board_offers_an_area_in_metres_to_draw_in():
    # A plot with no data has no range (NaN in the browser): no draw tool can place a point.
    editor = TrackEditor()
    area = editor.sources.canvas.data
    assert (min(area["x"]), max(area["x"])) == (0.0, 1000.0)
    assert (min(area["y"]), max(area["y"])) == (0.0, 600.0)
    assert editor.figure.select_one({"name": "drawing-area"}).data_source is editor.sources.canvas
    assert "click the first point again to close it" in editor.centreline_info.value
    assert editor.space_length.value == 0.0  # auto: the builder's default spaces a lap
    points = [(100.0, 100.0), (900.0, 100.0), (900.0, 500.0), (100.0, 500.0)]
    xs, ys = np.array([x for x, _ in points]), np.array([y for _, y in points])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None
    assert editor.track.graph.graph["space_length"] == pytest.approx(
        2400.0 / DEFAULT_SPACES_PER_LAP, abs=1e-3
    )
    assert editor.sources.canvas.data == {"x": [], "y": []}  # the board sets the range now
    _click(editor, "fdlab-undo")
    assert len(editor.sources.canvas.data["x"]) == 2


def test_a_centreline_on_one_straight_line_is_explained(editor):
    editor.set_centreline([(float(x), 0.0) for x in range(8)])
    _click(editor, "fdlab-rebuild")
    assert editor.last_error == (
        "rebuild: the 8 centreline points lie on one straight line; "
        "draw a loop that goes round the circuit and back to its start"
    )
    assert len(editor.track) == 18


def test_a_board_with_a_pit_lane_is_rebuilt_with_one(editor):
    assert editor.with_pit.value is False
    browser_select(editor, [11, 13, 15])
    _click(editor, "fdlab-pit")
    assert TrackEditor(editor.track.copy()).with_pit.value is True


def test_the_box_button_on_a_track_space_says_where_boxes_go(editor):
    browser_select(editor, [4])
    _click(editor, "fdlab-box")
    assert editor.last_error.startswith("box: space 4 is a track space, not a box; boxes are")
    assert editor.track.boxes() == [] and not editor.controller.can_undo
    browser_select(editor, [11, 13, 15, 17])
    editor.pit_boxes.value = 1
    _click(editor, "fdlab-pit")
    (box,) = editor.track.boxes()
    browser_select(editor, [box])
    editor.box_number.value = 7
    _click(editor, "fdlab-box")
    assert editor.track.space(box)["box"] == 7 and editor.last_error is None
    assert f"give box {box} to car 7" in editor.message.value


STREET = Path(__file__).resolve().parents[2] / "tracks" / "street.json"


@pytest.mark.skipif(not STREET.exists(), reason="tracks/street.json is not built yet")
def test_drag_a_point_of_a_built_board_and_rebuild_keeps_its_street_features():
    editor = TrackEditor(load_track(STREET))
    spec = editor.track.graph.graph["build"]
    assert editor.centreline_points() == [tuple(p) for p in spec["centreline"]["points"]]
    assert editor.keep_build.value and editor.lanes.value == spec["lanes"]
    tunnels = len(editor.track.tunnel_pairs())
    hazards = Counter(editor.track.space(s)["hazard"] for s in editor.track)
    assert tunnels and hazards and editor.track.edges_crossing("police")
    points = editor.centreline_points()
    x, y = points[5]
    points[5] = (x + 3.0, y - 2.0)  # the Poly Edit tool drags one point
    xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    browser_change(editor, editor.centreline_source, "data", {"xs": [xs], "ys": [ys]})
    _click(editor, "fdlab-rebuild")
    assert editor.last_error is None
    track = editor.track
    assert track.graph.graph["build"]["centreline"]["points"][5] == [x + 3.0, y - 2.0]
    assert len(track.tunnel_pairs()) == tunnels and track.edges_crossing("police")
    # the same hazards on the same stretches (a corner in one may be cut a little
    # differently: a bend the drag moved across a threshold joins or leaves its neighbour)
    rebuilt = Counter(track.space(s)["hazard"] for s in track)
    assert set(rebuilt) == set(hazards)
    assert all(abs(rebuilt[kind] - n) <= 0.1 * n for kind, n in hazards.items() if kind)
    assert track.boxes() and track.name == load_track(STREET).name
    editor.keep_build.value = False  # a fresh build from the line alone
    _click(editor, "fdlab-rebuild")
    assert editor.track.tunnel_pairs() == {} and not editor.track.edges_crossing("police")
    _click(editor, "fdlab-undo")
    _click(editor, "fdlab-undo")  # the shipped board is back, with its own centreline
    assert editor.track == load_track(STREET) and editor.keep_build.value
    assert editor.centreline_points() == [tuple(p) for p in spec["centreline"]["points"]]


def test_print_writes_the_pdf_beside_the_board_file(tmp_path):
    """The Print button: a real-size PDF named after the board's file (issue 26)."""
    from fdlab.track import load_track

    editor = TrackEditor(load_track(STREET.parent / "training.json"), verdict=False)
    editor.path.value = str(tmp_path / "ring.json")
    editor.print_board()
    pdf = tmp_path / "ring.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert editor.last_error is None
    assert f"to {pdf}" in editor.last_message and "real size" in editor.last_message


def test_print_without_a_file_says_where_to_type_it():
    editor = TrackEditor(from_ascii(". . 1 1 .", corners={1: 1}), verdict=False)
    editor.path.value = ""
    editor.print_board()
    assert "type the board's file in 'File'" in editor.last_error


def test_rebuild_builds_in_the_background_and_the_notebook_stays_usable():
    """Never block the notebook: under the notebook's event loop *Rebuild* returns at once,
    says the board is being built and waits; the new board then arrives by itself."""

    async def scenario() -> TrackEditor:
        editor = TrackEditor()
        editor.set_centreline(_stadium())
        editor.space_length.value = 16.0
        _click(editor, "fdlab-rebuild")
        assert len(editor.track) == 0  # the callback returned before the build
        assert "building a new board from the centreline" in editor.messages.last_message
        assert editor._buttons["fdlab-rebuild"].disabled
        await _until_rebuilt(editor)
        return editor

    editor = asyncio.run(scenario())
    assert editor.last_error is None
    assert len(editor.track) > 40
    assert editor.controller.history[-1].startswith("rebuild from a centreline of")
    assert not editor._buttons["fdlab-rebuild"].disabled


def test_an_edit_made_while_the_board_is_rebuilt_wins():
    async def scenario() -> TrackEditor:
        editor = TrackEditor(from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16]))
        editor.set_centreline(_stadium())
        _click(editor, "fdlab-rebuild")
        editor.controller.set_corner_stops(1, 3)  # the designer goes on editing meanwhile
        await _until_rebuilt(editor)
        return editor

    editor = asyncio.run(scenario())
    assert editor.track.corners[1]["stops"] == 3  # the edit is kept, the old board too
    assert "edited while the new one was being built" in editor.last_error
    assert not editor._buttons["fdlab-rebuild"].disabled


def test_rebuild_called_from_a_cell_returns_with_the_new_board():
    """A notebook cell runs under the event loop too: ``editor.rebuild()`` there still
    returns with the board built (the next cell uses it); only the button works behind."""

    async def scenario() -> TrackEditor:
        editor = TrackEditor()
        editor.set_centreline(_stadium())
        editor.space_length.value = 16.0
        editor.rebuild()
        return editor

    editor = asyncio.run(scenario())
    assert editor.last_error is None and len(editor.track) > 40


async def _until_rebuilt(editor: TrackEditor, seconds: float = 30.0) -> None:
    """Let the notebook's loop run until the editor's background rebuild has ended."""
    for _ in range(int(seconds / 0.05)):
        if not editor._rebuilding:
            return
        await asyncio.sleep(0.05)


def test_the_corner_boxes_show_only_the_selected_corner():
    """Selecting a straight after a corner leaves no corner name behind; selecting nothing
    puts the stops back to 1 (a browser review saw 'Corner 2' and 3 stops left over)."""
    editor = TrackEditor(from_ascii(". 1 1 . .", corners={1: 3}))
    editor.select([1])
    assert (editor.stops.value, editor.corner_name.value) == (3, "Corner 1")
    editor.select([3])
    assert editor.corner_name.value == ""
    editor.select([])
    assert (editor.stops.value, editor.corner_name.value) == (1, "")
    assert editor.track.corners[1]["stops"] == 3  # showing a selection edits nothing
