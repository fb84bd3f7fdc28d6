"""Merging corners and moving the finish line (issue: merge made a split corner and lost
stops; the finish line broke the pit lane, left the grid and the build spec behind)."""

from __future__ import annotations

import math

import pytest

from fdlab.editor import EditError, EditorController
from fdlab.track import from_ascii
from fdlab.track.build import build_track

BOARD = """
    . . 1 1 . . 2 2 . . 3 3 . .
    . . 1 1 . . 2 2 . . 3 3 . .
"""


def board_controller() -> EditorController:
    track = from_ascii(BOARD, corners={1: 1, 2: 3, 3: 2}, closed=True, grid=[27, 26])
    return EditorController(track)


def codes(editor: EditorController) -> list[str]:
    return [p.code for p in editor.problems]


def test_merge_takes_the_straight_between_and_keeps_the_larger_stop_count():
    editor = board_controller()
    editor.merge_corners(1, 2)
    assert editor.track.corner_spaces(1) == list(range(4, 16))
    assert editor.track.corners[1]["stops"] == 3
    assert "corner_split" not in codes(editor)
    assert "3 stops: the larger of 1 and 3" in editor.history[-1]


def test_merge_with_the_designers_stop_count():
    editor = board_controller()
    editor.merge_corners(2, 3, stops=1)
    assert editor.track.corners[2]["stops"] == 1 and 3 not in editor.track.corners
    assert "1 stops: as chosen" in editor.history[-1]


def test_merge_refuses_when_a_corner_lies_between():
    editor = board_controller()
    with pytest.raises(EditError, match="corner 2 lies between them"):
        editor.merge_corners(1, 3)
    assert not editor.can_undo


def oval_board(**options):
    oval = [
        (400 * math.sin(t / 50 * math.pi), -150 * math.cos(t / 50 * math.pi)) for t in range(100)
    ]
    return build_track(oval, name="Oval", spaces_per_lap=60, pit=True, **options)


def first_column_at(track, fraction):
    lap = track.lap_length
    row = sorted(
        (abs(d["progress"] - fraction * lap), s)
        for s, d in track.graph.nodes(data=True)
        if d["kind"] == "track" and d["lane"] == 0
    )
    return row[0][1]


def test_finish_line_on_a_board_with_a_pit_lane_keeps_the_board_valid():
    track = oval_board()
    editor = EditorController(track)
    assert not {"progress", "pit_misses_finish"} & set(codes(editor))
    start = first_column_at(track, 0.1)
    before = track.space(start)["progress"]
    editor.set_line_before("finish", [start])
    assert track.space(start)["progress"] == 0.0
    assert not {"progress", "pit_misses_finish", "grid_ahead_of_finish"} & set(codes(editor)), (
        editor.problems
    )
    # the status speaks distance, not arrows
    assert editor.history[-1].startswith(f"move the finish line {before:g} spaces (")
    # the grid moved with the line: pole is just behind it
    pole = track.grid_spots()[0]
    assert track.space(pole)["progress"] > track.lap_length - 3
    # the build spec follows: rebuilding the same line puts the finish where it is now
    finish_before = [track.space(v)["x"] for _, v in track.edges_crossing("finish")]
    editor.rebuild(editor.track.graph.graph["build"]["centreline"]["points"], keep=True)
    finish_after = [editor.track.space(v)["x"] for _, v in editor.track.edges_crossing("finish")]
    assert abs(min(finish_after) - min(finish_before)) < 2 * track.graph.graph["space_length"]
    assert not {"progress", "pit_misses_finish"} & set(codes(editor))


def test_finish_line_off_the_pit_straight_lays_the_pit_lane_again():
    track = oval_board()
    editor = EditorController(track)
    pits_before = len(track.spaces(kind="pit"))
    start = first_column_at(track, 0.5)  # the far straight
    editor.set_line_before("finish", [start])
    assert "pit_misses_finish" not in codes(editor), editor.problems
    assert abs(len(track.spaces(kind="pit")) - pits_before) <= 1
    editor.undo()
    assert len(track.spaces(kind="pit")) == pits_before
    assert "pit_misses_finish" not in codes(editor)
