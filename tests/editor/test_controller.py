"""The editor controller, headless: every operation, undo/redo, save and load."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdlab.editor import (
    EditError,
    EditorController,
    LoadError,
    NothingToUndoError,
    SaveError,
    UnsavedChangesError,
)
from fdlab.track import Track, from_ascii
from fdlab.track.io import load_track, save_track
from fdlab.track.validate import validate

# Two lanes, nine columns, closed; ids are column * 2 + row (row 0 = lane 0).
BOARD = """
    . . 1 1 . . 2 2 .
    . . 1 1 . . 2 2 .
"""


def board() -> Track:
    return from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16])


@pytest.fixture
def editor() -> EditorController:
    return EditorController(board())


def test_new_controller_is_clean_and_validated(editor):
    assert not editor.dirty and not editor.can_undo and not editor.can_redo
    assert editor.report is not None
    assert isinstance(editor.problems, list)


def test_the_report_is_made_when_first_read_after_an_edit():
    made = []

    def counting(track):
        made.append(len(track))
        return validate(track)

    editor = EditorController(board(), validator=counting)
    assert len(made) == 1
    editor.set_corner_stops(1, 3)
    editor.set_corner_stops(2, 1)
    assert len(made) == 1  # the edits do not validate
    codes = [problem.code for problem in editor.problems]
    assert len(made) == 2 and codes == [p.code for p in validate(editor.track).problems]
    assert editor.report is editor.report and len(made) == 2  # read again: the same report
    editor.undo()
    assert editor.report.problems == validate(editor.track).problems and len(made) == 3


def test_blank_editor_has_an_empty_named_track():
    editor = EditorController()
    assert len(editor.track) == 0 and editor.track.name == "new circuit"


def test_set_corner_stops_and_undo_redo(editor):
    editor.set_corner_stops(1, 3)
    assert editor.track.corners[1]["stops"] == 3 and editor.dirty
    assert editor.undo() == "set stops of corner 1 to 3"
    assert editor.track.corners[1]["stops"] == 1 and not editor.dirty
    editor.redo()
    assert editor.track.corners[1]["stops"] == 3


@pytest.mark.parametrize("stops", [0, 4, "2", None])
def test_stops_outside_1_to_3_are_refused_naming_the_corner(editor, stops):
    with pytest.raises(EditError, match=r"corner 1: stops must be 1, 2 or 3 \(C-1\)"):
        editor.set_corner_stops(1, stops)
    assert editor.track.corners[1]["stops"] == 1 and not editor.can_undo


def test_unknown_corner_is_named(editor):
    with pytest.raises(EditError, match=r"corner 9 does not exist .*known: \[1, 2\]"):
        editor.set_corner_stops(9, 2)


def test_make_corner_computes_long_and_short(editor):
    corner = editor.make_corner([8, 9, 10, 11], stops=2, name="Hairpin")
    info = editor.track.corners[corner]
    assert corner == 3 and info["name"] == "Hairpin" and info["stops"] == 2
    assert (info["long"], info["short"]) == (2, 2)
    editor.undo()
    assert 3 not in editor.track.corners and editor.track.spaces(corner=3) == []


def test_clear_corner_spaces(editor):
    editor.set_corner([4, 5], None)
    assert editor.track.corner_spaces(1) == [6, 7]
    assert editor.track.corners[1]["long"] == 1


def test_merge_corners_moves_spaces_and_deletes_the_other(editor):
    editor.merge_corners(1, 2)
    assert sorted(editor.track.corners) == [1]
    # the straight between them (8-11) joins the corner: one piece, the larger stop count
    assert editor.track.corner_spaces(1) == list(range(4, 16))
    assert editor.track.corners[1]["stops"] == 2
    assert "corner_split" not in [p.code for p in editor.problems]
    editor.undo()
    assert editor.track.corner_spaces(2) == [12, 13, 14, 15]
    assert editor.track.corners[2]["stops"] == 2


def test_merge_a_corner_with_itself_is_refused(editor):
    with pytest.raises(EditError, match="cannot be merged with itself"):
        editor.merge_corners(1, 1)


def test_split_corner_keeps_the_stop_count(editor):
    new = editor.split_corner(2, [14, 15])
    assert new == 3 and editor.track.corners[3]["stops"] == 2
    assert editor.track.corner_spaces(2) == [12, 13]
    assert editor.track.corners[2]["long"] == 1 and editor.track.corners[3]["long"] == 1


def test_split_needs_spaces_of_that_corner_and_leaves_one(editor):
    with pytest.raises(EditError, match=r"spaces \[0\] are not in that corner"):
        editor.split_corner(1, [0])
    with pytest.raises(EditError, match="leave at least one space"):
        editor.split_corner(1, [4, 5, 6, 7])


def test_delete_corner(editor):
    editor.delete_corner(2)
    assert 2 not in editor.track.corners and editor.track.spaces(corner=2) == []


def test_hazards_and_unknown_hazard(editor):
    editor.set_hazard([2, 3], "shooting")
    assert editor.track.spaces(hazard="shooting") == [2, 3]
    with pytest.raises(EditError, match=r"space 2: hazard must be one of .* not 'oil'"):
        editor.set_hazard([2], "oil")
    assert editor.track.spaces(hazard="shooting") == [2, 3]


def test_missing_space_is_named(editor):
    with pytest.raises(EditError, match=r"space 99 is not on track 'ascii board'"):
        editor.set_hazard([99], "danger")


def test_empty_selection_is_explained(editor):
    with pytest.raises(EditError, match="select at least one space"):
        editor.set_hazard([], "danger")


def test_tunnel_pair_adds_labels_and_a_tunnel_step(editor):
    label = editor.pair_tunnel(4, 10)
    assert label == "1"
    assert editor.track.tunnel_pairs() == {"1": [4, 10]}
    assert editor.track.graph.edges[4, 10]["kind"] == "tunnel"
    editor.clear_tunnel("1")
    assert editor.track.tunnel_pairs() == {} and not editor.track.graph.has_edge(4, 10)
    editor.undo()
    editor.undo()
    assert not editor.track.graph.has_edge(4, 10)


def test_tunnel_label_already_used(editor):
    editor.pair_tunnel(4, 10, label="A")
    with pytest.raises(EditError, match="tunnel 'A' already joins"):
        editor.pair_tunnel(0, 2, label="A")


def test_grid_spot_moves_from_its_old_space(editor):
    editor.set_grid_spot(15, 1)
    assert editor.track.grid_spots() == [15, 16]
    assert editor.track.space(17)["grid"] is None


def test_a_box_changes_owner_and_only_boxes_are_boxes(editor):
    editor.add_pit_lane([3, 5, 7, 9, 11], boxes=2)
    first, second = editor.track.boxes()
    editor.set_box(first, 4)
    assert (
        editor.track.space(first)["box"] == 4 and editor.history[-1] == f"give box {first} to car 4"
    )
    editor.set_box(second, 4)
    assert "box_slot" in [p.code for p in editor.problems]  # two boxes for car 4, listed
    pit = editor.track.spaces(kind="pit")[0]
    with pytest.raises(EditError, match=rf"space {pit} is a pit space, not a box"):
        editor.set_box(pit, 1)  # it would break the pit lane in two
    with pytest.raises(EditError, match="space 4 is a track space, not a box"):
        editor.set_box(4, 1)


def test_add_and_remove_steps(editor):
    editor.add_step(0, 5, "lane_change")
    assert editor.track.graph.edges[0, 5]["kind"] == "lane_change"
    editor.remove_step(0, 2)
    assert not editor.track.graph.has_edge(0, 2)
    editor.undo()
    assert editor.track.graph.edges[0, 2]["kind"] == "ahead"


def test_move_step_keeps_the_kind_and_lines_and_is_one_undo():
    editor = EditorController(from_ascii(". . . . . .\nx p p p x x"))
    (entry,) = [(u, v) for u, v, k in editor.track.graph.edges(data="kind") if k == "pit_in"]
    lines = editor.track.graph.edges[entry]["lines"]
    editor.move_step(*entry, 2, entry[1])
    assert not editor.track.graph.has_edge(*entry)
    assert editor.track.graph.edges[2, entry[1]] == {"kind": "pit_in", "lines": lines}
    editor.undo()
    assert editor.track.graph.edges[entry] == {"kind": "pit_in", "lines": lines}
    assert not editor.track.graph.has_edge(2, entry[1])
    with pytest.raises(EditError, match=r"move step: step 4->0 is not on track"):
        editor.move_step(4, 0, 2, 4)
    with pytest.raises(EditError, match="already exists"):  # nothing half done
        editor.move_step(*entry, 0, 2)
    assert editor.track.graph.has_edge(*entry)


def test_corner_long_and_short_follow_edits_of_its_arrows(editor):
    editor.set_corner([8, 9], 1)  # corner 1 now spans columns 2-4
    assert (editor.track.corners[1]["long"], editor.track.corners[1]["short"]) == (3, 3)
    editor.add_step(4, 9, "lane_change")  # a short cut across the corner
    assert (editor.track.corners[1]["long"], editor.track.corners[1]["short"]) == (3, 2)
    editor.remove_step(4, 6)
    editor.remove_step(4, 7)
    assert (editor.track.corners[1]["long"], editor.track.corners[1]["short"]) == (3, 2)
    editor.undo()
    editor.undo()
    editor.undo()
    assert (editor.track.corners[1]["long"], editor.track.corners[1]["short"]) == (3, 3)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 2), r"step 0->2 already exists"),
        ((0, 0), r"a step must lead to another space"),
        ((0, 99), r"space 99 is not on track"),
    ],
)
def test_bad_steps_are_refused(editor, args, message):
    with pytest.raises(EditError, match=message):
        editor.add_step(*args)


def test_unknown_step_kind(editor):
    with pytest.raises(EditError, match="kind must be one of"):
        editor.add_step(0, 5, "jump")


def test_removing_a_missing_step(editor):
    with pytest.raises(EditError, match=r"step 0->6 is not on track"):
        editor.remove_step(0, 6)


def test_moving_the_finish_line_shifts_progress(editor):
    editor.set_line_before("finish", [8, 9])
    assert sorted(editor.track.edges_crossing("finish")) == [(6, 8), (6, 9), (7, 8), (7, 9)]
    assert editor.track.space(8)["progress"] == 0.0
    assert editor.track.space(6)["progress"] == 8.0
    assert editor.track.space(0)["progress"] == 5.0
    editor.undo()
    assert editor.track.space(0)["progress"] == 0.0
    assert len(editor.track.edges_crossing("finish")) == 4


def test_police_line_by_explicit_steps(editor):
    editor.set_line("police", [(8, 10), (9, 11)])
    assert sorted(editor.track.edges_crossing("police")) == [(8, 10), (9, 11)]
    editor.set_line("police", [(10, 12)])
    assert editor.track.edges_crossing("police") == [(10, 12)]


def test_line_errors(editor):
    with pytest.raises(EditError, match="unknown line 'start'"):
        editor.set_line("start", [(0, 2)])
    with pytest.raises(EditError, match=r"step 0->6 is not on the track"):
        editor.set_line("police", [(0, 6)])
    with pytest.raises(EditError, match="give at least one step"):
        editor.set_line("police", [])


def test_pit_lane_beside_a_straight(editor):
    pits = editor.add_pit_lane([9, 11], boxes=0)
    track = editor.track
    assert [track.space(p)["kind"] for p in pits] == ["pit", "pit"]
    assert track.graph.edges[7, pits[0]]["kind"] == "pit_in"
    assert "pit_entry" in track.graph.edges[7, pits[0]]["lines"]
    assert track.graph.edges[pits[-1], 13]["kind"] == "pit_out"
    assert track.graph.edges[pits[0], pits[1]]["kind"] == "ahead"
    assert track.space(pits[0])["progress"] == track.space(9)["progress"]
    # beside lane 1 (y = -1.5), one space further out
    assert track.space(pits[0])["y"] == -2.5
    assert track.space(pits[0])["polygon"].bounds == (4.0, -3.0, 5.0, -2.0)
    editor.undo()
    assert pits[0] not in track.graph and len(track) == 18


def test_pit_lane_beside_lane_0_goes_on_the_left_clear_of_the_track(editor):
    pits = editor.add_pit_lane([8, 10], boxes=0)  # lane 0 (y = -0.5); lane 1 is on its right
    track = editor.track
    assert track.space(pits[0])["y"] == 0.5
    assert [p.code for p in editor.problems if p.code == "overlap"] == []


def test_pit_lane_beside_a_middle_lane_is_refused():
    editor = EditorController(from_ascii(". . . . .\n. . . . .\n. . . . .", closed=True))
    with pytest.raises(EditError, match=r"in lane 1, between two other lanes; select spaces of"):
        editor.add_pit_lane([4, 7])


def test_pit_lane_crossing_the_finish_line_gets_finish_steps(editor):
    pits = editor.add_pit_lane([13, 15, 17, 1, 3], boxes=2)
    track = editor.track
    boxes = track.boxes()
    new_spaces = set(pits) | set(boxes)
    finish_steps = {(u, v) for u, v in track.edges_crossing("finish") if u in new_spaces}
    # the pit lane and the box beside the line cross it where the track does
    assert finish_steps == {(pits[2], pits[3]), (boxes[1], pits[3])}
    assert [track.space(b)["box"] for b in boxes] == [1, 2]
    assert track.graph.edges[pits[0], boxes[0]]["kind"] == "box_in"
    assert track.graph.edges[boxes[0], pits[2]]["kind"] == "box_out"


def test_every_way_through_the_pits_crosses_the_finish_line_once(editor):
    # The line lies between the 3rd and 4th pit space: the box beside the 4th is
    # entered across it (P-2: cars pit between laps).
    editor.add_pit_lane([13, 15, 17, 1, 3], boxes=3)
    track = editor.track
    pits, boxes = track.spaces(kind="pit"), track.boxes()
    graph = track.graph.subgraph(pits + boxes)
    for way in nx.all_simple_paths(graph, pits[0], pits[-1]):
        crossings = [
            (u, v)
            for u, v in zip(way, way[1:], strict=False)
            if "finish" in graph.edges[u, v]["lines"]
        ]
        assert len(crossings) == 1, way
    assert "finish" in track.graph.edges[pits[2], boxes[2]]["lines"]
    codes = {p.code for p in editor.problems}
    assert not codes & {"pit_misses_finish", "pit_broken", "pit_branch"}, codes


@pytest.mark.parametrize(
    ("along", "boxes", "message"),
    [
        ([9], 0, "at least two spaces"),
        ([9, 13], 0, "spaces 9 and 13 are not joined by a step"),
        ([9, 11], 1, "1 boxes do not fit"),
    ],
)
def test_pit_lane_errors(editor, along, boxes, message):
    with pytest.raises(EditError, match=message):
        editor.add_pit_lane(along, boxes=boxes)


def test_replace_board_is_one_undo_step(editor):
    before = editor.track.copy()
    editor.replace_board(from_ascii(". . . .", closed=True, name="other"))
    assert len(editor.track) == 4
    editor.undo()
    assert editor.track == before


def test_undo_and_redo_with_empty_history_explain(editor):
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        editor.undo()
    with pytest.raises(NothingToUndoError, match="nothing to redo"):
        editor.redo()


def test_a_new_edit_clears_redo(editor):
    editor.set_hazard([0], "danger")
    editor.undo()
    editor.set_hazard([1], "danger")
    assert not editor.can_redo and editor.history == ["set hazard='danger' on space 1"]


def test_validation_follows_every_edit(editor):
    codes = {p.code for p in editor.problems}
    editor.remove_step(16, 0)
    editor.remove_step(16, 1)
    assert "dead_end" not in codes
    assert any(p.code == "dead_end" and 16 in p.spaces for p in editor.problems)
    editor.undo()
    editor.undo()
    assert {p.code for p in editor.problems} == codes


def test_listeners_hear_every_change(editor):
    heard = []
    editor.observe(lambda controller, what: heard.append(what))
    editor.set_corner_stops(2, 3)
    editor.undo()
    editor.redo()
    assert heard == [
        "set stops of corner 2 to 3",
        "undo set stops of corner 2 to 3",
        "redo set stops of corner 2 to 3",
    ]


# -- files --------------------------------------------------------------------


def test_save_then_load_round_trip(editor, tmp_path):
    editor.set_corner_stops(1, 3)
    target = editor.save(tmp_path / "mine.json")
    assert target == tmp_path / "mine.json" and not editor.dirty
    assert json.loads(target.read_text())["graph"]["corners"][0]["stops"] == 3
    other = EditorController()
    other.load(target)
    assert other.track == editor.track and other.path == target and not other.dirty


def test_save_leaves_no_temporary_file(editor, tmp_path):
    editor.save(tmp_path / "one.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.json"]


def test_save_again_goes_to_the_same_file(editor, tmp_path):
    editor.save(tmp_path / "a.json")
    editor.set_hazard([0], "danger")
    editor.save()
    assert load_track(tmp_path / "a.json").space(0)["hazard"] == "danger"


def test_save_refuses_to_replace_another_board(editor, tmp_path):
    save_track(from_ascii(". ."), tmp_path / "theirs.json")
    with pytest.raises(SaveError, match="already holds another board; tick .overwrite."):
        editor.save(tmp_path / "theirs.json")
    assert len(load_track(tmp_path / "theirs.json")) == 2
    editor.save(tmp_path / "theirs.json", overwrite=True)
    assert len(load_track(tmp_path / "theirs.json")) == 18


def test_save_without_a_file_or_with_a_wrong_suffix(editor, tmp_path):
    with pytest.raises(SaveError, match="no file given"):
        editor.save()
    with pytest.raises(SaveError, match=r"track files end in \.json"):
        editor.save(tmp_path / "x.txt")


def test_a_failed_save_says_why_and_keeps_changes_unsaved(editor, tmp_path):
    editor.set_corner_stops(1, 2)
    with pytest.raises(SaveError, match=r"x\.json: there is no folder .*missing; create it"):
        editor.save(tmp_path / "missing" / "x.json")
    assert editor.dirty and editor.path is None


def test_a_save_into_a_missing_folder_names_the_folder_and_where_relative_paths_start(
    editor, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SaveError) as refused:
        editor.save("tracks/mine.json")
    assert str(refused.value) == (
        f"save 'ascii board' to tracks/mine.json: there is no folder tracks "
        f"(a relative path starts in {tmp_path}); create it or save elsewhere"
    )
    assert editor.dirty is False and editor.path is None


def test_a_save_the_disk_refuses_keeps_the_old_file_and_says_why(editor, tmp_path):
    # A folder where the file should go: the rename fails even for root.
    (tmp_path / "x.json").mkdir()
    (tmp_path / "x.json" / "keep.txt").write_text("still here")
    editor.set_hazard([0], "danger")
    with pytest.raises(SaveError, match=r"x\.json.*failed: .*old file is unchanged"):
        editor.save(tmp_path / "x.json", overwrite=True)
    assert (tmp_path / "x.json" / "keep.txt").read_text() == "still here"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]  # no temporary file left
    assert editor.dirty and editor.path is None


def test_dirty_follows_undo_past_the_save(editor, tmp_path):
    editor.set_hazard([0], "danger")
    editor.save(tmp_path / "x.json")
    editor.undo()
    assert editor.dirty
    editor.redo()
    assert not editor.dirty
    editor.undo()
    editor.set_hazard([1], "danger")  # the saved state is now unreachable
    editor.undo()
    assert editor.dirty


def test_load_refuses_to_discard_unsaved_edits(editor, tmp_path):
    save_track(from_ascii(". . ."), tmp_path / "small.json")
    editor.set_corner_stops(1, 3)
    with pytest.raises(UnsavedChangesError, match=r"1 unsaved edit.*press Save first"):
        editor.load(tmp_path / "small.json")
    assert editor.track.corners[1]["stops"] == 3
    editor.load(tmp_path / "small.json", discard_unsaved=True)
    assert len(editor.track) == 3 and not editor.can_undo


def test_new_refuses_to_discard_unsaved_edits(editor):
    editor.set_hazard([0], "danger")
    with pytest.raises(UnsavedChangesError):
        editor.new()
    editor.new("Fresh", discard_unsaved=True)
    assert editor.track.name == "Fresh" and len(editor.track) == 0


def test_load_of_a_broken_file_names_it(editor, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": 1, "graph": {}, "spaces": "no"}')
    with pytest.raises(LoadError, match=r"broken\.json"):
        editor.load(broken)
    with pytest.raises(LoadError, match=r"nowhere\.json failed"):
        editor.load(tmp_path / "nowhere.json")
    assert len(editor.track) == 18


# -- undo is exact, whatever the edits ------------------------------------------

EDITS = st.sampled_from(
    [
        lambda e: e.set_corner_stops(1, 3),
        lambda e: e.set_corner_stops(2, 1),
        lambda e: e.merge_corners(1, 2),
        lambda e: e.split_corner(2, [14, 15]),
        lambda e: e.make_corner([10, 11], 2),
        lambda e: e.set_hazard([0, 1], "danger"),
        lambda e: e.pair_tunnel(2, 8),
        lambda e: e.set_grid_spot(15, 1),
        lambda e: e.add_step(0, 5),
        lambda e: e.remove_step(8, 10),
        lambda e: e.set_line_before("finish", [8, 9]),
        lambda e: e.set_line_before("police", [4, 5]),
        lambda e: e.add_pit_lane([9, 11, 13], boxes=1),
        lambda e: e.delete_corner(1),
        lambda e: e.replace_board(from_ascii(". . .", closed=True)),
        lambda e: e.set_info(name="Renamed", laps=2),
        lambda e: e.remove_spaces([8, 9]),
        lambda e: e.remove_pit_lane(),
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDITS, min_size=1, max_size=6))
def test_undo_all_restores_the_board_and_redo_all_replays_it(edits):
    editor = EditorController(board())
    original = editor.track.copy()
    for edit in edits:
        with contextlib.suppress(EditError):  # an edit that does not fit changes nothing
            edit(editor)
    after = editor.track.copy()
    while editor.can_undo:
        editor.undo()
    assert editor.track == original and not editor.dirty
    while editor.can_redo:
        editor.redo()
    assert editor.track == after


def test_rebuild_from_a_centreline_keeps_name_and_undoes_in_one_step(editor):
    square = [(0, 0), (160, 0), (160, 160), (0, 160)]
    before = editor.track.copy()
    editor.rebuild(square, lanes=2, space_length=16.0)
    assert editor.track.name == "ascii board" and len(editor.track) > 40
    assert editor.history == ["rebuild from a centreline of 4 points"]
    editor.undo()
    assert editor.track == before


def test_rebuild_errors_are_edit_errors(editor):
    with pytest.raises(EditError, match="rebuild from the centreline failed"):
        editor.rebuild([(0, 0), (1, 1)], lanes=2)
    assert not editor.can_undo


def test_track_info(editor):
    editor.set_info(name="Stadium", description="Two hairpins.", laps=3)
    assert (editor.track.name, editor.track.description, editor.track.laps) == (
        "Stadium",
        "Two hairpins.",
        3,
    )
    editor.undo()
    assert editor.track.name == "ascii board" and editor.track.laps == 1
    with pytest.raises(EditError, match=r"laps must be a whole number from 1 \(P-1\), not 0"):
        editor.set_info(laps=0)
    with pytest.raises(EditError, match="name must not be empty"):
        editor.set_info(name=" ")
    with pytest.raises(EditError, match="give a name"):
        editor.set_info()


def test_remove_spaces_takes_their_steps_and_contacts_and_undo_restores(editor):
    before = editor.track.copy()
    editor.remove_spaces([8, 9])
    track = editor.track
    assert 8 not in track and not track.graph.has_edge(6, 8) and 8 not in track.contacts
    assert any(p.code == "dead_end" for p in editor.problems)
    editor.undo()
    assert track == before


def test_remove_pit_lane(editor):
    pits = editor.add_pit_lane([3, 5, 7, 9], boxes=1)
    editor.remove_pit_lane()
    assert not editor.track.spaces(kind="pit") and not editor.track.boxes()
    assert all(p not in editor.track for p in pits)
    with pytest.raises(EditError, match="has no pit lane"):
        editor.remove_pit_lane()


def test_the_controller_shows_itself_in_a_notebook(editor, tmp_path):
    editor.set_corner_stops(1, 2)
    page = editor._repr_html_()
    assert "<b>ascii board</b>: 18 spaces, 2 corners; 1 edit(s), <b>unsaved changes</b>" in page
    assert "<li>set stops of corner 1 to 2</li>" in page
    editor.save(tmp_path / "a.json")
    assert "saved to <code>" in editor._repr_html_()


def test_rename_corner_keeps_its_stops(editor):
    editor.rename_corner(2, "Hairpin")
    assert editor.track.corners[2]["name"] == "Hairpin" and editor.track.corners[2]["stops"] == 2
    editor.undo()
    assert editor.track.corners[2]["name"] == "Corner 2"
    with pytest.raises(EditError, match="a corner name is text"):
        editor.rename_corner(2, 7)


def test_rebuild_from_a_centreline_object_or_geojson_file(editor):
    from fdlab.track.build import Centreline

    editor.rebuild(Centreline([(0, 0), (160, 0), (160, 160), (0, 160)]), lanes=2, space_length=16.0)
    assert editor.history[-1] == "rebuild from a centreline of 4 points"
    circuits = Path(__file__).resolve().parents[2] / "circuits"
    editor.rebuild(circuits / "nl-1948.geojson", lanes=3, spaces_per_lap=90)
    assert editor.history[-1] == "rebuild from a centreline" and len(editor.track) > 200
    assert editor.track.name == "ascii board"  # the board keeps its name


def test_pit_lane_spaces_may_be_given_in_any_order_even_across_the_finish(editor):
    pits = editor.add_pit_lane([1, 17, 15, 3])  # columns 0, 8, 7, 1: the run 15-17-1-3
    track = editor.track
    assert [track.space(p)["progress"] for p in pits] == [7.0, 8.0, 0.0, 1.0]
    assert track.graph.edges[13, pits[0]]["kind"] == "pit_in"
    assert "finish" in track.graph.edges[pits[1], pits[2]]["lines"]


def test_an_edit_that_changes_nothing_is_refused_and_not_recorded():
    """'Not a corner' on a straight: said plainly, no unsaved edit, nothing to undo."""
    from fdlab.editor.errors import NothingChangedError

    editor = EditorController(from_ascii(". 1 1 .", corners={1: 1}))
    with pytest.raises(NothingChangedError, match="no selected space is in a corner"):
        editor.set_corner([0, 3], None)
    with pytest.raises(NothingChangedError, match="in it already"):
        editor.set_corner([1, 2], 1)
    assert not editor.dirty and editor.unsaved_edits == 0
    editor.set_corner([0], 1)  # a real change still goes through
    assert editor.unsaved_edits == 1
