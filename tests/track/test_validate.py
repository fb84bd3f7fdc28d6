"""The validator: one broken board per check, and a sound board that reports nothing."""

import math
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Polygon

from fdlab.track import Track, add_space, add_step, from_ascii, validate
from fdlab.track.validate import (
    CHECKS,
    MAX_OUTLINE_POINTS,
    OVERLAP_TOLERANCE,
    Problem,
    ValidationReport,
)

# An 18-column ring: corner 1 (2 stops) on columns 4-6, corner 2 (1 stop) on
# columns 13-14, a pit lane on columns 15-17 with one box, the grid on the last
# two columns. Ids are column * 4 + row: lane 0 of column c is 4c, lane 1 4c+1,
# the pit spaces are 62, 66 and 70 and the box is 67.
SOUND = """
. . . . 1 1 1 . . . . . . 2 2 . . .
. . . . 1 1 1 . . . . . . 2 2 . . .
x x x x x x x x x x x x x x x p p p
x x x x x x x x x x x x x x x x B x
"""
GRID = [68, 69, 64, 65]
CARS = 4


def sound_board(**options) -> Track:
    return from_ascii(SOUND, corners={1: 2, 2: 1}, closed=True, grid=GRID, ring=True, **options)


def problems(track: Track, code: str, cars: int = CARS) -> list[Problem]:
    report = validate(track, cars=cars)
    found = [p for p in report if p.code == code]
    assert found, f"expected a {code!r} problem, got:\n{report}"
    return found


def test_sound_board_reports_nothing():
    report = validate(sound_board(), cars=CARS)
    assert report.ok, str(report)
    assert len(report) == 0
    assert str(report) == "Track 'ascii board': no problems found"


def test_sound_board_without_corner_lane_changes_reports_nothing():
    assert validate(sound_board(corner_lane_changes=False), cars=CARS).ok


def test_empty_board():
    assert validate(Track(nx.DiGraph())).codes == ["empty"]


def test_attribute_of_the_wrong_type():
    track = sound_board()
    track.space(32)["kind"] = "lava"
    track.space(36)["lane"] = "1"
    track.graph.edges[40, 44]["lines"] = ["finish"]
    track.graph.edges[44, 48]["lines"] = None
    found = problems(track, "attribute")
    assert [p.message for p in found] == [
        "space 32: kind is 'lava'; it must be one of track, pit, box",
        "space 36: lane is '1'; it must be an integer",
        "step 40 -> 44: lines is ['finish']; it must be a frozenset of line names",
        "step 44 -> 48: lines is None; it must be a frozenset of line names",
    ]


def test_checks_that_cannot_run_say_so_and_the_others_still_report():
    track = sound_board()
    track.space(32)["progress"] = None
    del track.space(36)["x"]
    track.corners[1]["stops"] = 7
    report = validate(track, cars=CARS)
    assert "space 32: progress is None; it must be a finite number" in str(report)
    assert "space 36 has no 'x' attribute" in str(report)
    [failed] = problems(track, "check_failed")
    assert failed.message.startswith("the steps checks could not run (")
    assert "corner_stops" in report.codes  # later checks still ran


def test_dead_end_names_the_space():
    track = sound_board()
    track.graph.remove_edges_from(list(track.graph.out_edges(32)))
    [problem] = problems(track, "dead_end")
    assert problem.spaces == (32,)
    assert "space 32 is a dead end" in problem.message


def test_unreachable_from_the_grid():
    track = sound_board()
    track.graph.remove_edges_from(list(track.graph.in_edges(32)))
    [problem] = problems(track, "unreachable")
    assert problem.spaces == (32,)
    assert "cannot be reached from the grid" in problem.message


def test_unreachable_from_the_finish_line_when_there_is_no_grid():
    track = from_ascii(". " * 18 + "\n" + ". " * 18, closed=True, ring=True)
    track.graph.remove_edges_from(list(track.graph.in_edges(10)))
    [problem] = problems(track, "unreachable", cars=0)
    assert problem.message == "space 10 cannot be reached from the finish line"


def test_no_finish_line():
    track = sound_board()
    for _, _, data in track.graph.edges(data=True):
        data["lines"] = data["lines"] - {"finish"}
    assert "no_finish_line" in validate(track, cars=CARS).codes


def test_lap_not_closed_when_the_ring_is_cut():
    track = sound_board()
    cut = [(u, v) for u, v in track.graph.edges if u in (32, 33)]
    track.graph.remove_edges_from(cut)
    [problem] = problems(track, "lap_not_closed")
    assert "does not close" in problem.message
    assert set(problem.spaces) == {68, 69, 70, 0, 1}


def test_cannot_finish_from_a_loop_that_never_reaches_the_finish_line():
    track = sound_board()
    here = track.space(32)
    add_space(track.graph, "a", x=here["x"], y=here["y"] - 0.5, progress=8.5)
    add_space(track.graph, "b", x=here["x"], y=here["y"] - 1.0, progress=8.7)
    add_step(track.graph, 32, "a", "lane_change")
    add_step(track.graph, "a", "b")
    add_step(track.graph, "b", "a")
    [problem] = problems(track, "cannot_finish")
    assert problem.spaces == ("a", "b")
    assert "can never reach the finish line" in problem.message


def test_progress_must_increase_along_steps():
    track = sound_board()
    track.space(32)["progress"] = 2.0
    found = problems(track, "progress")
    assert {p.spaces for p in found} >= {(28, 32), (29, 32)}
    assert "(7 -> 2)" in found[0].message


def test_progress_may_drop_across_the_finish_line_only():
    track = sound_board()
    assert track.space(68)["progress"] > track.space(0)["progress"]
    assert "progress" not in validate(track, cars=CARS).codes


def test_sideways_step_gains_less_than_half_a_space():
    track = sound_board()
    track.space(32)["progress"] = 7.3  # beside 28 and 29 rather than ahead of them
    found = problems(track, "sideways_step")
    assert {p.spaces for p in found} == {(28, 32), (29, 32)}
    assert "step 29 -> 32 gains only 0.3 spaces of progress (7 -> 7.3)" in found[1].message
    assert "progress" not in validate(track, cars=CARS).codes


def test_sideways_step_across_the_finish_line_counts_round_the_lap():
    track = sound_board()
    track.space(0)["progress"] = 17.2 - track.lap_length  # 0.2 on from 68 round the lap
    found = problems(track, "sideways_step")
    assert {p.spaces for p in found} == {(68, 0), (69, 0)}


def test_a_step_that_does_not_advance_is_a_progress_problem_only():
    track = sound_board()
    track.space(32)["progress"] = 7.0
    codes = validate(track, cars=CARS).codes
    assert "progress" in codes and "sideways_step" not in codes


def test_short_corner_below_its_stop_count():
    track = sound_board()
    track.corners[2]["stops"] = 3  # two spaces long
    [problem] = problems(track, "short_corner")
    assert problem.spaces == tuple(sorted(track.spaces(corner=2)))
    assert "corner 2 has 3 stops but its shortest path is 2 spaces" in problem.message
    track.corners[1]["stops"] = 3  # three spaces long: just enough
    assert len(problems(track, "short_corner")) == 1


def test_corner_without_stop_count():
    track = sound_board()
    track.space(40)["corner"] = 7
    [problem] = problems(track, "corner_undefined")
    assert problem.spaces == (40,)
    assert "corner 7, which has no stop count" in problem.message


@pytest.mark.parametrize("stops", [0, 4, None, "2"])
def test_corner_stop_count_must_be_1_to_3(stops):
    track = sound_board()
    track.corners[1]["stops"] = stops
    [problem] = problems(track, "corner_stops")
    assert problem.spaces == (16, 17, 20, 21, 24, 25)
    assert "corner 1" in problem.message and "1, 2 or 3" in problem.message


def test_corner_with_no_stop_key():
    track = sound_board()
    del track.corners[2]["stops"]
    [problem] = problems(track, "corner_stops")
    assert "corner 2 has no stop count" in problem.message


def test_corner_with_no_spaces():
    track = sound_board()
    track.corners[9] = {"stops": 1, "name": "Ghost", "long": 0, "short": 0}
    [problem] = problems(track, "corner_empty")
    assert problem.message == "corner 9 has no spaces"


def test_corner_split_in_two():
    track = sound_board()
    track.space(40)["corner"] = 1
    [problem] = problems(track, "corner_split")
    assert 40 in problem.spaces and 16 in problem.spaces
    assert "split into 2 separate pieces" in problem.message


def test_corner_with_no_way_out():
    track = sound_board()
    exits = [(u, v) for u, v in track.graph.edges if u in (24, 25)]
    track.graph.remove_edges_from(exits)
    [problem] = [p for p in problems(track, "corner_no_exit") if "no step leaves" in p.message]
    assert problem.spaces == (16, 17, 20, 21, 24, 25)


def test_corner_lane_with_no_way_out():
    track = sound_board(corner_lane_changes=False)
    track.graph.remove_edges_from([(u, v) for u, v in track.graph.edges if u == 25])
    [problem] = problems(track, "corner_no_exit")
    assert problem.spaces == (17, 21, 25)
    assert "can never leave the corner" in problem.message


def test_corner_counts_must_match_the_steps():
    track = sound_board()
    track.corners[1]["long"] = 9
    [problem] = problems(track, "corner_counts")
    assert "says long 9, short 3 but its steps give long 3, short 3" in problem.message


def test_corner_whose_steps_loop_has_no_counts():
    track = sound_board()
    add_step(track.graph, 24, 16)  # back to the corner's entry
    messages = [p.message for p in problems(track, "corner_counts")]
    assert any("no path from an entry to an exit" in m for m in messages)


def test_finish_line_inside_a_corner():
    track = from_ascii(
        "1 . . . . . . . . . . . . . . . 1\n1 . . . . . . . . . . . . . . . 1",
        corners={1: 1},
        closed=True,
        grid=[30, 31],
        ring=True,
    )
    [first, *_] = problems(track, "finish_in_corner", cars=2)
    assert first.spaces == (32, 0)
    assert "inside corner 1" in first.message


def test_pit_lane_broken_in_two():
    track = sound_board()
    track.graph.remove_edge(62, 66)
    messages = {p.message for p in problems(track, "pit_broken")}
    assert "the pit lane is broken into 2 pieces (starting at 62, 66)" in messages


def test_pit_lane_without_entry_or_exit():
    track = sound_board()
    track.graph.remove_edge(57, 62)
    track.graph.remove_edge(70, 1)
    messages = {p.message for p in problems(track, "pit_broken")}
    assert "the pit lane has no entry (no pit_in step)" in messages
    assert "the pit lane has no exit (no pit_out step)" in messages


def test_pit_entry_into_the_middle_of_the_lane():
    track = sound_board()
    add_step(track.graph, 61, 66, "pit_in", ["pit_entry"])
    [problem] = problems(track, "pit_broken")
    assert problem.spaces == (61, 66)
    assert "enters the pit lane in its middle" in problem.message


def test_pit_lane_that_forks():
    track = sound_board()
    add_step(track.graph, 62, 70)
    found = problems(track, "pit_branch")
    assert {p.message.split(" (")[0] for p in found} == {
        "the pit lane forks at space 62",
        "the pit lane merges at space 70",
    }


def test_pit_lane_that_misses_the_finish_line():
    track = sound_board()
    track.graph.edges[70, 1]["lines"] = frozenset()  # the pit exit crossed the line
    [problem] = problems(track, "pit_misses_finish")
    assert "from space 57 to space 1 without crossing the finish line" in problem.message
    assert {57, 62, 66, 67, 70, 1} <= set(problem.spaces)


def test_pit_lane_crossing_the_finish_line_inside_is_sound():
    track = sound_board()
    track.graph.edges[70, 1]["lines"] = frozenset()
    assert "pit_misses_finish" in validate(track, cars=CARS).codes
    # The line across the pit lane between 66 and 70: the box route crosses it too.
    for step in [(66, 70), (67, 70)]:
        track.graph.edges[step]["lines"] = frozenset({"finish"})
    assert "pit_misses_finish" not in validate(track, cars=CARS).codes
    # ...but not when it crosses only the lane and a car can go round it through the box.
    track.graph.edges[67, 70]["lines"] = frozenset()
    [problem] = problems(track, "pit_misses_finish")
    assert 67 in problem.spaces


def test_grid_past_the_finish_line():
    track = from_ascii(SOUND, corners={1: 2, 2: 1}, closed=True, grid=[8, 9, 4, 5], ring=True)
    [problem] = problems(track, "grid_ahead_of_finish")
    assert problem.spaces == (8, 9, 4, 5)
    assert problem.message.startswith(
        "grid spots 8 (3 spaces past the line, 16 before it), 9 (3 spaces past the line"
    )


def test_grid_just_behind_the_finish_line_after_moving_it():
    track = from_ascii(
        SOUND, corners={1: 2, 2: 1}, closed=True, finish=3, grid=[8, 9, 4, 5], ring=True
    )
    assert "grid_ahead_of_finish" not in validate(track, cars=CARS).codes


def test_finish_line_moved_back_on_the_training_ring_leaves_grid_and_pits_behind():
    """The editor's case: the line moved 17 spaces back, onto the track lanes only."""
    from fdlab.track import load_track

    track = load_track(Path(__file__).resolve().parents[2] / "tracks" / "training.json")
    graph, lap = track.graph, track.lap_length
    column = {
        n for n, d in graph.nodes(data=True) if d["kind"] == "track" and 35 <= d["progress"] < 36
    }
    for u, v, data in graph.edges(data=True):
        data["lines"] = data["lines"] - {"finish"}
        if v in column and u not in column and data["kind"] in ("ahead", "lane_change"):
            data["lines"] = data["lines"] | {"finish"}
    shift = min(graph.nodes[n]["progress"] for n in column)
    for _, data in graph.nodes(data=True):
        data["progress"] = (data["progress"] - shift) % lap
    report = validate(track)
    assert report.codes == ["pit_misses_finish", "grid_ahead_of_finish"], str(report)
    assert set(report[1].spaces) == set(track.grid_spots())


def test_box_not_reachable_from_the_pit_lane():
    track = sound_board()
    track.graph.remove_edge(62, 67)
    [problem] = problems(track, "box_unreachable")
    assert problem.spaces == (67,)
    assert problem.message == "box 67 cannot be reached from the pit lane"
    track.graph.remove_edge(57, 62)  # no pit entry: no box can be reached
    add_space(track.graph, "box2", kind="box", box=2, x=0.0, y=0.0, progress=16.0)
    [problem] = problems(track, "box_unreachable")
    assert problem.message == "boxes 67 and 'box2' cannot be reached from the pit lane"


def test_box_slot_missing_or_shared():
    track = sound_board()
    track.space(67)["box"] = None
    [problem] = problems(track, "box_slot")
    assert problem.spaces == (67,) and problem.message == "box 67 has no owner slot"

    track = sound_board()
    add_space(track.graph, "box2", kind="box", box=1, x=0.0, y=0.0, progress=16.0)
    add_step(track.graph, 62, "box2", "box_in")
    add_step(track.graph, "box2", 70, "box_out")
    [problem] = problems(track, "box_slot")
    assert problem.message == "boxes 67 and 'box2' share slot 1"


def test_tunnel_label_must_mark_a_pair():
    track = from_ascii(". " * 18, closed=True, grid=[16, 17], tunnels={"T": (3, 9)}, ring=True)
    assert validate(track, cars=2).ok, str(validate(track, cars=2))
    track.space(12)["tunnel"] = "T"
    [problem] = problems(track, "tunnel_pair", cars=2)
    assert set(problem.spaces) == {3, 9, 12}
    assert "tunnel 'T' is on 3 space(s)" in problem.message


def test_tunnel_pair_needs_a_tunnel_step_and_tunnel_steps_need_a_pair():
    track = from_ascii(". " * 18, closed=True, grid=[16, 17], tunnels={"T": (3, 9)}, ring=True)
    track.graph.remove_edge(3, 9)
    add_step(track.graph, 4, 10, "tunnel")
    messages = [p.message for p in problems(track, "tunnel_step", cars=2)]
    assert "tunnel 'T' (3, 9) has no tunnel step joining its ends" in messages
    assert any("tunnel step 4 -> 10 joins spaces that are not a tunnel pair" in m for m in messages)


def test_tunnel_steps_may_be_long():
    track = from_ascii(". " * 18, closed=True, grid=[16, 17], tunnels={"T": (2, 12)}, ring=True)
    assert "long_step" not in validate(track, cars=2).codes


def test_too_few_grid_spots_for_the_race():
    [problem] = problems(sound_board(), "grid_too_small", cars=5)
    assert problem.message == "the grid has 4 spots but the race has 5 cars"
    assert problem.spaces == tuple(GRID)


def test_grid_numbering_with_gap_and_repeat():
    track = sound_board()
    track.space(64)["grid"] = 2
    [problem] = problems(track, "grid_numbering")
    assert "spot 2 is on 64, 69" in problem.message and "spot(s) 3 missing" in problem.message


def test_step_kind_must_fit_the_spaces():
    track = sound_board()
    track.graph.edges[40, 44]["kind"] = "pit_in"
    [problem] = problems(track, "step_kind")
    assert problem.spaces == (40, 44)
    assert "is 'pit_in' but joins a track space to a track space" in problem.message


def test_step_far_longer_than_a_space():
    track = sound_board()
    add_step(track.graph, 32, 44, "ahead")
    [problem] = problems(track, "long_step")
    assert problem.spaces == (32, 44)
    assert "more than 2.5 space lengths" in problem.message


def test_invalid_polygon_outline():
    track = sound_board()
    track.space(40)["polygon"] = Polygon([(0, 0), (1, 1), (1, 0), (0, 1)])  # a bow tie
    [problem] = problems(track, "polygon_invalid")
    assert problem.spaces == (40,) and "Self-intersection" in problem.message


def test_an_outline_of_too_many_points_is_reported_not_checked():
    """Bounded work per space (issue 15): checking a million-point outline took minutes."""
    track = sound_board()
    x, y = track.space(40)["x"], track.space(40)["y"]
    ring = [
        (x + 0.4 * math.cos(2 * math.pi * k / 2000), y + 0.4 * math.sin(2 * math.pi * k / 2000))
        for k in range(2000)
    ]
    track.space(40)["polygon"] = Polygon(ring)  # a fine circle: valid, but far too detailed
    [problem] = problems(track, "polygon_invalid")
    assert problem.spaces == (40,)
    assert problem.message == (
        f"the outline of space 40 is invalid: it has 2001 points, more than the "
        f"{MAX_OUTLINE_POINTS} a space outline may have (simplify it); it was not checked further"
    )
    track.space(40)["polygon"] = Polygon(ring[:: 2000 // MAX_OUTLINE_POINTS + 1])
    assert validate(track, cars=CARS).ok


def test_empty_polygon_outline():
    track = sound_board()
    track.space(40)["polygon"] = Polygon()
    [problem] = problems(track, "polygon_invalid")
    assert problem.message == "the outline of space 40 is invalid: it is empty"


def test_overlapping_spaces_on_the_same_level():
    track = sound_board()
    track.space(40)["polygon"] = track.space(12)["polygon"]
    [problem] = problems(track, "overlap")
    assert problem.spaces == (12, 40)
    assert "overlap (100% of the smaller)" in problem.message


def test_overlap_on_different_levels_is_a_bridge():
    track = sound_board()
    track.space(40)["polygon"] = track.space(12)["polygon"]
    track.space(40)["level"] = 1
    assert "overlap" not in validate(track, cars=CARS).codes


def test_slight_overlap_is_tolerated_and_a_real_one_is_not():
    track = sound_board()
    pit = track.space(66)["polygon"]
    track.space(66)["polygon"] = affinity.scale(pit, 1.02, 1.02)
    assert "overlap" not in validate(track, cars=CARS).codes
    track.space(66)["polygon"] = pit.buffer(0.3)
    found = problems(track, "overlap")
    assert all(66 in p.spaces for p in found)
    assert 65 in {s for p in found for s in p.spaces}  # the track space beside the pit space
    for problem in found:
        assert float(problem.message.split("(")[1].split("%")[0]) > 100 * OVERLAP_TOLERANCE


def test_grid_spot_inside_a_corner():
    track = sound_board()
    track.space(64)["grid"] = None
    track.space(56)["grid"] = 3  # corner 2's last column
    [problem] = problems(track, "grid_in_corner")
    assert problem.spaces == (56,)
    assert "grid spot 3 (space 56) lies inside corner 2 with spots behind it" in problem.message
    track.space(65)["grid"] = None
    track.space(57)["grid"] = 4  # the back of the grid in the corner behind it: S-5
    assert "grid_in_corner" not in validate(track, cars=CARS).codes


def test_pit_lane_beside_a_corner_lets_a_car_skip_its_exit_line():
    track = sound_board()
    assert "pit_beside_corner" not in validate(track, cars=CARS).codes  # 57 is corner 2's last
    track.graph.remove_edge(57, 62)
    track.graph.add_edge(49, 62, kind="pit_in", lines=frozenset({"pit_entry"}))  # column 12
    [problem] = problems(track, "pit_beside_corner")
    assert "from space 49 to space 1 runs beside corner 2" in problem.message
    assert {49, 1, 52, 53, 56, 57} <= set(problem.spaces)


def test_box_too_small_to_hold_a_car():
    track = sound_board()
    box = track.space(67)["polygon"]
    track.space(67)["polygon"] = affinity.scale(box, 0.3, 0.3)  # a fifth of a space
    [problem] = problems(track, "box_too_small")
    assert problem.spaces == (67,) and "too small to hold a car" in problem.message
    track.space(67)["polygon"] = affinity.scale(box, 0.5, 1.0)  # half a space is enough
    assert "box_too_small" not in validate(track, cars=CARS).codes


def test_a_gain_of_half_a_space_within_float_error_is_not_sideways():
    track = sound_board()
    track.space(32)["progress"] = 7.0 + 0.4999999999999982
    assert "sideways_step" not in validate(track, cars=CARS).codes


def test_steps_inside_a_corner_are_what_the_board_prints_m5():
    track = sound_board()
    track.space(20)["progress"] = 4.3  # 16 -> 20 and 17 -> 20 gain 0.3, inside corner 1
    assert "sideways_step" not in validate(track, cars=CARS).codes
    track.space(32)["progress"] = 7.3  # on the straight the same gain is sideways
    assert "sideways_step" in validate(track, cars=CARS).codes


def test_pit_lane_crossing_the_finish_line_twice():
    """S-4: the line crosses the pit lane once; a second crossing would count a lap twice."""
    track = sound_board()
    assert "pit_crosses_finish_twice" not in validate(track, cars=CARS).codes
    track.graph.edges[57, 62]["lines"] = frozenset({"pit_entry", "finish"})  # the entry too
    [problem] = problems(track, "pit_crosses_finish_twice")
    assert "from space 57 to space 1 crossing the finish line twice" in problem.message
    assert {57, 62, 70, 1} <= set(problem.spaces)


def test_S4_a_step_whose_progress_starts_the_lap_again_must_cross_the_finish_line():
    """S-4: lap and progress count a race together. A box just past the line counted at
    the lap's end (Baku once had one) makes one step gain a lap and the next lose it:
    each such step is a ``lap_jump`` problem, whatever its kind."""
    track = from_ascii(". . . . . .", closed=True, grid=[5], finish=0)
    assert not [p for p in validate(track) if p.code == "lap_jump"]
    track.graph.edges[5, 0]["lines"] = frozenset()  # the line moves off the step 5 -> 0...
    track.graph.nodes[0]["progress"] = 5.5  # ...and space 0 is counted at the lap's end
    track.graph.edges[1, 2]["lines"] = frozenset({"finish"})  # a crossing that starts nothing
    jumps = {p.spaces: p.message for p in validate(track) if p.code == "lap_jump"}
    assert sorted(jumps) == [(0, 1), (1, 2)]
    assert "does not cross the finish line, but its progress starts the lap again" in jumps[0, 1]
    assert "crosses the finish line, but its progress does not start the lap again" in jumps[1, 2]


def _circuit_size_lap(corners: int) -> Track:
    """A closed two-lane lap of 48 spaces a lane, with ``corners`` 1-stop corners."""
    columns = ["."] * 48
    for k in range(corners):
        columns[6 + 10 * k : 8 + 10 * k] = [str(k + 1)] * 2
    row = " ".join(columns)
    corner_stops = dict.fromkeys(range(1, corners + 1), 1)
    return from_ascii(f"{row}\n{row}", corners=corner_stops, closed=True, ring=True, grid=[95, 94])


def test_a_circuit_size_lap_without_a_corner_is_advised_to_make_one():
    [problem] = problems(_circuit_size_lap(0), "no_corner", cars=1)
    assert problem.advice and "Make corner" in problem.message


def test_a_circuit_size_lap_with_fewer_corners_than_a_printed_board_is_advised():
    report = validate(_circuit_size_lap(2), cars=1)
    [problem] = problems(_circuit_size_lap(2), "few_corners", cars=1)
    assert "the lap has 2 corners" in problem.message and problem.spaces
    assert report.ok and report.advice == (problem,), "advice leaves a board ok"
    assert str(report).startswith("Track 'ascii board': no problems found; 1 piece of advice:")
    assert "few_corners" not in validate(_circuit_size_lap(4), cars=1).codes


BREAKERS: dict[str, Callable[[], None]] = {
    "empty": test_empty_board,
    "no_corner": test_a_circuit_size_lap_without_a_corner_is_advised_to_make_one,
    "few_corners": test_a_circuit_size_lap_with_fewer_corners_than_a_printed_board_is_advised,
    "attribute": test_attribute_of_the_wrong_type,
    "check_failed": test_checks_that_cannot_run_say_so_and_the_others_still_report,
    "dead_end": test_dead_end_names_the_space,
    "unreachable": test_unreachable_from_the_grid,
    "no_finish_line": test_no_finish_line,
    "lap_not_closed": test_lap_not_closed_when_the_ring_is_cut,
    "cannot_finish": test_cannot_finish_from_a_loop_that_never_reaches_the_finish_line,
    "progress": test_progress_must_increase_along_steps,
    "sideways_step": test_sideways_step_gains_less_than_half_a_space,
    "lap_jump": test_S4_a_step_whose_progress_starts_the_lap_again_must_cross_the_finish_line,
    "corner_undefined": test_corner_without_stop_count,
    "corner_stops": test_corner_with_no_stop_key,
    "corner_empty": test_corner_with_no_spaces,
    "corner_split": test_corner_split_in_two,
    "corner_no_exit": test_corner_with_no_way_out,
    "corner_counts": test_corner_counts_must_match_the_steps,
    "short_corner": test_short_corner_below_its_stop_count,
    "finish_in_corner": test_finish_line_inside_a_corner,
    "pit_broken": test_pit_lane_broken_in_two,
    "pit_branch": test_pit_lane_that_forks,
    "pit_misses_finish": test_pit_lane_that_misses_the_finish_line,
    "pit_crosses_finish_twice": test_pit_lane_crossing_the_finish_line_twice,
    "box_unreachable": test_box_not_reachable_from_the_pit_lane,
    "box_slot": test_box_slot_missing_or_shared,
    "tunnel_pair": test_tunnel_label_must_mark_a_pair,
    "tunnel_step": test_tunnel_pair_needs_a_tunnel_step_and_tunnel_steps_need_a_pair,
    "grid_too_small": test_too_few_grid_spots_for_the_race,
    "grid_numbering": test_grid_numbering_with_gap_and_repeat,
    "grid_ahead_of_finish": test_grid_past_the_finish_line,
    "grid_in_corner": test_grid_spot_inside_a_corner,
    "pit_beside_corner": test_pit_lane_beside_a_corner_lets_a_car_skip_its_exit_line,
    "box_too_small": test_box_too_small_to_hold_a_car,
    "step_kind": test_step_kind_must_fit_the_spaces,
    "long_step": test_step_far_longer_than_a_space,
    "polygon_invalid": test_invalid_polygon_outline,
    "overlap": test_overlapping_spaces_on_the_same_level,
}


def test_every_check_has_a_test_breaking_a_board_that_way():
    assert set(BREAKERS) == set(CHECKS)


def test_report_lists_every_problem_at_once():
    track = sound_board()
    track.space(40)["corner"] = 7
    track.graph.remove_edges_from(list(track.graph.out_edges(32)))
    report = validate(track, cars=5)
    assert {"corner_undefined", "dead_end", "grid_too_small"} <= set(report.codes)
    assert {32, 40} <= report.spaces
    assert [p.code for p in report] == report.codes
    assert report[0] in list(report)


def test_report_text_and_html_table():
    report = ValidationReport(
        "Oval <1>", (Problem("dead_end", "space 3 is a dead end", (3,)), Problem("empty", "x"))
    )
    assert str(report).splitlines() == [
        "Track 'Oval <1>': 2 problems",
        "- [dead_end] space 3 is a dead end",
        "- [empty] x",
    ]
    page = report._repr_html_()
    assert "<table>" in page and page.count("<tr>") == 3
    assert "Oval &lt;1&gt;" in page and "<td><code>dead_end</code></td>" in page
    assert "no problems found" in ValidationReport("Oval")._repr_html_()


def test_long_lists_of_spaces_are_shortened_in_messages():
    track = sound_board()
    track.graph.remove_edges_from([(u, v) for u, v in track.graph.edges if u in (68, 69)])
    [problem] = problems(track, "unreachable")
    assert len(problem.spaces) == 36
    assert "..." in problem.message and f"({len(problem.spaces)} in all)" in problem.message


def test_validate_does_not_change_the_track():
    track = sound_board()
    before = track.copy()
    validate(track, cars=CARS)
    assert track == before


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.sampled_from([".", ".", ".", "1", "2", "S", "x"]), min_size=3, max_size=12),
        min_size=1,
        max_size=3,
    ),
    closed=st.booleans(),
    cars=st.integers(0, 4),
    grid=st.lists(st.integers(0, 40), max_size=4, unique=True),
)
def test_random_boards_never_crash_the_validator(rows, closed, cars, grid):
    text = "\n".join(" ".join(row) for row in rows)
    track = from_ascii(text, corners={1: 1, 2: 3}, closed=closed)
    for number, space in enumerate((s for s in grid if s in track), start=1):
        track.space(space)["grid"] = number
    report = validate(track, cars=cars)
    assert "check_failed" not in report.codes, str(report)
    assert set(report.codes) <= set(CHECKS)
    assert report.spaces <= set(track.graph)
    if not closed and "empty" not in report.codes:  # a board of blanks only is just empty
        assert "no_finish_line" in report.codes or "dead_end" in report.codes


def test_schema_document_lists_every_check():
    schema = Path(__file__).resolve().parents[2] / "docs" / "schema.md"
    text = schema.read_text(encoding="utf-8")
    for code, meaning in CHECKS.items():
        assert f"| `{code}` | {meaning} |" in text


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "tracks").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_tracks_validate(path):
    from fdlab.track import load_track

    report = validate(load_track(path))
    assert report.ok, str(report)
