"""Merging corners and moving the finish line (issue: merge made a split corner and lost
stops; the finish line broke the pit lane, left the grid and the build spec behind)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import networkx as nx
import pytest

from fdlab.editor import EditError, EditorController
from fdlab.track import from_ascii, load_track
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


TRACKS = Path(__file__).resolve().parents[2] / "tracks"
ZANDVOORT = TRACKS / "zandvoort.json"


def track_column(track, progress):
    """The track spaces side by side at ``progress`` (one column of a straight)."""
    return [
        s
        for s, d in track.graph.nodes(data=True)
        if d["kind"] == "track" and abs(d["progress"] - progress) < 0.3
    ]


def pit_entry(track):
    (step,) = [(u, v) for u, v, kind in track.graph.edges(data="kind") if kind == "pit_in"]
    return step


def lines_on_laps_through_the_pits(track):
    """Finish lines crossed on each lap through the pits: from the space before the
    pit entry, along every way through the pit lane (past each box), then along the
    track back to where the lap began."""
    graph = track.graph
    start, first_pit = pit_entry(track)
    lane = {s for s in graph if graph.nodes[s]["kind"] in ("pit", "box")}
    on_track = graph.subgraph(s for s in graph if graph.nodes[s]["kind"] == "track")

    def finish(u, v):
        return int("finish" in graph.edges[u, v]["lines"])

    counts = []
    ways = [([start, first_pit], finish(start, first_pit))]
    while ways:
        way, crossed = ways.pop()
        for after in graph.successors(way[-1]):
            here = crossed + finish(way[-1], after)
            if after in lane:
                ways.append(([*way, after], here))
            else:  # out of the pit lane: back round the track to the start
                back = nx.shortest_path(on_track, after, start)
                counts.append(here + sum(finish(u, v) for u, v in itertools.pairwise(back)))
    return counts


def assert_one_lap_through_the_pits(editor):
    track = editor.track
    assert "finish" not in track.graph.edges[pit_entry(track)]["lines"]
    assert not {"pit_crosses_finish_twice", "pit_misses_finish", "progress"} & set(codes(editor))
    counts = lines_on_laps_through_the_pits(track)
    assert counts and set(counts) == {1}, counts


def track_finish(track):
    """The steps between track spaces (not in or out of the pit lane) the finish line
    crosses. (On Baku, a pit space of progress -0.02 comes back from a move and back at
    139.98, and the line crosses the pit lane a step later: still once.)"""
    nodes = track.graph.nodes
    return {
        (u, v)
        for u, v in track.edges_crossing("finish")
        if nodes[u]["kind"] == nodes[v]["kind"] == "track"
    }


@pytest.mark.parametrize("name", ["zandvoort", "monaco", "street"])
def test_finish_line_moved_on_and_back_leaves_the_pit_entry_uncrossed(name):
    # a step into a pit lane that goes back a hair does not start the lap again,
    # wherever the line is moved to and back from
    editor = EditorController(load_track(TRACKS / f"{name}.json"))
    track = editor.track
    finish = track_finish(track)
    assert_one_lap_through_the_pits(editor)
    just_after, one_on = track_column(track, 0.0), track_column(track, 1.0)
    editor.set_line_before("finish", one_on)
    assert editor.history[-1].startswith("move the finish line 1 space (")
    assert_one_lap_through_the_pits(editor)
    editor.set_line_before("finish", just_after)
    assert track_finish(track) == finish
    assert_one_lap_through_the_pits(editor)


@pytest.mark.parametrize(
    "progress",
    [45.0, 140.0],
    ids=["straight after corner 3", "pit straight before the pit entry"],
)
def test_finish_line_off_zandvoort_pit_lane_lays_it_across_the_line_again(progress):
    # the pit lane (144 -> 2 spaces) no longer runs across the line: laid again beside
    # it, not kept where it was with the step into it taken for the line's crossing
    editor = EditorController(load_track(ZANDVOORT))
    straight = track_column(editor.track, progress)
    assert {editor.track.space(s)["corner"] for s in straight} == {None}
    editor.set_line_before("finish", straight)
    assert_one_lap_through_the_pits(editor)
    entry, first_pit = pit_entry(editor.track)
    assert editor.track.space(first_pit)["progress"] > editor.track.lap_length - 10
