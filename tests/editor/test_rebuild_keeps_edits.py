"""Every edit survives a rebuild of the geometry (issue: a rebuild after dragging one
centreline point dropped the stops, split corner, pit lane, hazards and tunnel)."""

from __future__ import annotations

import pytest
from editor_helpers import dragged, space_at, stadium

from fdlab.editor import EditorController
from fdlab.editor.placing import corner_place, locate_corner
from fdlab.track.io import dumps, loads


@pytest.fixture(scope="module")
def built() -> EditorController:
    editor = EditorController()
    editor.rebuild(stadium(), lanes=2, space_length=16.0)
    return editor


def fresh(built: EditorController) -> EditorController:
    return EditorController(loads(dumps(built.track)))


def hand_edits(editor: EditorController) -> dict:
    track = editor.track
    corner = min(track.corners)
    editor.set_corner_stops(corner, 3)
    hazard = [space_at(track, 0.40, 0), space_at(track, 0.41, 1)]
    editor.set_hazard(hazard, "danger")
    entry, exit_ = space_at(track, 0.30, 1), space_at(track, 0.34, 1)
    editor.pair_tunnel(entry, exit_)
    along = sorted(
        (s for s in track.spaces(lane=1, kind="track")
         if track.space(s)["progress"] >= track.lap_length - 3 or track.space(s)["progress"] <= 2),
        key=lambda s: (track.space(s)["progress"] + 3) % track.lap_length,
    )  # fmt: skip
    editor.add_pit_lane(along, boxes=2)
    return {"corner": corner}


def test_a_rebuild_after_dragging_a_point_keeps_stops_hazards_tunnel_and_pit_lane(built):
    editor = fresh(built)
    hand_edits(editor)
    points = dragged(editor.track.graph.graph["build"]["centreline"]["points"])
    replayed = editor.rebuild(points, keep=True)
    track = editor.track
    assert replayed is not None and not replayed.unplaced, replayed.summary()
    assert len(replayed.placed) == 4
    assert 3 in [info["stops"] for info in track.corners.values()]
    assert len(track.spaces(hazard="danger")) == 2
    assert len(track.tunnel_pairs()) == 1
    assert len(track.spaces(kind="pit")) == 6 and len(track.boxes()) == 2
    assert "kept 4 edits" in editor.history[-1]
    # the rebuilt board still has its log: a second rebuild keeps them again
    replayed = editor.rebuild(dragged(points, by=(0.0, -6.0)), keep=True)
    assert not replayed.unplaced and len(editor.track.spaces(hazard="danger")) == 2


def test_a_rebuild_of_the_same_line_gives_the_same_board(built):
    editor = fresh(built)
    hand_edits(editor)
    before = dumps(editor.track)
    editor.rebuild(editor.track.graph.graph["build"]["centreline"]["points"], keep=True)
    assert dumps(editor.track) == before


def test_a_split_corner_and_a_moved_finish_line_survive_a_rebuild(built):
    editor = fresh(built)
    track = editor.track
    corner = min(track.corners)
    members = sorted(track.corner_spaces(corner), key=lambda s: track.space(s)["progress"])
    middle = track.space(members[len(members) // 2])["progress"]
    late = [s for s in members if track.space(s)["progress"] >= middle]
    new = editor.split_corner(corner, late)
    editor.set_corner_stops(new, 3)
    stops = track.corners[corner]["stops"]
    editor.set_line_before("finish", [space_at(track, 0.1, 0), space_at(track, 0.1, 1)])
    pieces = [corner_place(track, corner), corner_place(track, new)]
    finish = {track.space(v)["x"] for _, v in track.edges_crossing("finish")}
    replayed = editor.rebuild(
        dragged(track.graph.graph["build"]["centreline"]["points"]), keep=True
    )
    assert not replayed.unplaced, replayed.summary()
    first, second = (locate_corner(editor.track, place) for place in pieces)
    assert first != second
    assert editor.track.corners[first]["stops"] == stops
    assert editor.track.corners[second]["stops"] == 3
    after = {editor.track.space(v)["x"] for _, v in editor.track.edges_crossing("finish")}
    assert abs(min(after) - min(finish)) < 2 * 16.0
    assert "corner_split" not in [p.code for p in editor.problems]


def test_an_edit_that_cannot_be_placed_is_listed_and_can_be_dropped(built):
    editor = fresh(built)
    track = editor.track
    lap = track.lap_length
    editor.set_hazard([space_at(track, 0.5, 1)], "danger")
    # take lane 1 away where the hazard was
    points = editor.track.graph.graph["build"]["centreline"]["points"]
    replayed = editor.rebuild(points, keep=True, lanes=3)
    assert not replayed.unplaced  # lane 1 is still there with three lanes
    editor.undo()
    assert lap == editor.track.lap_length
    from fdlab.editor.placing import place_of

    record = {"edit": "set_hazard", "label": "danger in lane 3",
              "args": {"spaces": [{**place_of(track, 0), "lane": 3}], "hazard": "danger"}}  # fmt: skip
    log = [*editor.track.graph.graph.get("edits", []), record]
    editor.track.graph.graph["edits"] = log
    replayed = editor.rebuild(points, keep=True)
    assert [r["label"] for r, _ in replayed.unplaced] == ["danger in lane 3"]
    assert editor.unplaced_edits[0][0] == "danger in lane 3"
    assert "no track space in lane 3" in editor.unplaced_edits[0][1]
    assert "1 could not be placed" in editor.history[-1]
    editor.drop_unplaced_edits()
    assert editor.unplaced_edits == []
    editor.undo()
    assert len(editor.unplaced_edits) == 1


def test_a_fresh_build_forgets_the_log(built):
    editor = fresh(built)
    editor.set_hazard([space_at(editor.track, 0.5, 1)], "danger")
    editor.rebuild(stadium(), lanes=2, space_length=16.0)
    assert "edits" not in editor.track.graph.graph
    assert editor.track.spaces(hazard="danger") == []


def test_the_log_survives_save_and_load(built, tmp_path):
    editor = fresh(built)
    editor.set_hazard([space_at(editor.track, 0.5, 1)], "danger")
    editor.save(tmp_path / "board.json")
    again = EditorController()
    again.load(tmp_path / "board.json")
    again.rebuild(dragged(again.track.graph.graph["build"]["centreline"]["points"]), keep=True)
    assert len(again.track.spaces(hazard="danger")) == 1
