"""The controller on the boards shipped in tracks/: edit, undo, and save the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fdlab.editor import EditorController
from fdlab.track.io import load_track

TRACKS = Path(__file__).resolve().parents[2] / "tracks"
BOARDS = sorted(TRACKS.glob("*.json"))


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_edits_undo_back_to_the_same_file(path, tmp_path):
    editor = EditorController(path=path)
    editor.load(path)
    track = editor.track
    corner = min(track.corners)
    stops = track.corners[corner]["stops"]
    editor.set_corner_stops(corner, 1 if stops != 1 else 2)
    straight = [s for s in track.spaces(kind="track", corner=None)][:3]
    editor.set_hazard(straight, "danger")
    u, v = next((u, v) for u, v, d in track.graph.edges(data=True) if d["kind"] == "lane_change")
    editor.remove_step(u, v)
    editor.set_line_before("police", [v])
    editor.make_corner(straight, stops=2)
    assert editor.dirty and len(editor.history) == 5

    editor.save(tmp_path / "edited.json")
    reloaded = EditorController()
    reloaded.load(tmp_path / "edited.json")
    assert reloaded.track == editor.track

    while editor.can_undo:
        editor.undo()
    editor.save(tmp_path / "undone.json")
    assert (tmp_path / "undone.json").read_bytes() == path.read_bytes()


TRAINING = TRACKS / "training.json"


@pytest.mark.skipif(not TRAINING.exists(), reason="tracks/training.json is not built yet")
def test_lay_the_pit_lane_of_a_built_board_again():
    editor = EditorController()
    editor.load(TRAINING)
    track = editor.track
    boxes = len(track.boxes())
    pit_in = next(u for u, v, d in track.graph.edges(data=True) if d["kind"] == "pit_in")
    editor.remove_pit_lane()
    assert not track.spaces(kind="pit") and not track.boxes()
    lane = track.space(pit_in)["lane"]
    run = _longest_run(track, _lane_in_lap_order(track, lane))
    along = run[1 : 1 + boxes + 4]
    pits = editor.add_pit_lane(along, boxes=boxes)
    for pit, beside in zip(pits, along, strict=True):
        near, mine = track.space(beside)["polygon"], track.space(pit)["polygon"]
        assert mine.distance(near) < 0.05 * track.graph.graph["space_length"]  # right beside
        assert mine.intersection(near).area < 0.01 * near.area
    assert [p.code for p in editor.problems] == []
    editor.undo()
    editor.undo()
    assert editor.track == load_track(TRAINING) and not editor.dirty


def _lane_in_lap_order(track, lane):
    return sorted(
        (s for s in track.spaces(kind="track", lane=lane, corner=None)),
        key=lambda s: track.space(s)["progress"],
    )


def _longest_run(track, lane):
    best, run = [], []
    for space in lane:
        if run and track.graph.has_edge(run[-1], space):
            run.append(space)
        else:
            run = [space]
        if len(run) > len(best):
            best = list(run)
    return best
