"""Corners of circuits drawn with a few clicks ("Boards from anywhere play like printed ones").

A designer clicks 8-20 points round a circuit in the editor and rebuilds;
the clicks turn 15-60 degrees each between segments of 5-15 spaces, so the
curvature the corner finder reads is scattered among them. The builder finds
the corners from the turn accumulated over a window of track distance
(:func:`fdlab.track.build.corner_finder.find_corners`), with stop counts
suggested as for real circuits, and they are on the board the moment it is
built. ``corner_count_problems`` tells the designer when a lap still has
fewer corners than a printed board.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest

from fdlab.editor.controller import EditorController
from fdlab.track import from_ascii
from fdlab.track.build import build_track
from fdlab.track.corner_count import (
    CORNER_COUNT_CHECKS,
    MIN_CORNERS,
    CornerCountProblem,
    corner_count_problems,
)
from fdlab.track.io import load_track
from fdlab.track.model import Track, new_graph
from fdlab.track.validate import validate

TRACKS = Path(__file__).resolve().parents[2] / "tracks"


def oval(clicks: int = 14, half_length: float = 350.0, half_width: float = 150.0):
    """``clicks`` points round an oval (700 x 300 m by default), anticlockwise from the
    middle of the bottom straight, as a designer clicks them."""
    points = []
    for i in range(clicks):
        t = -math.pi / 2 + 2 * math.pi * i / clicks
        points.append((round(half_length * math.cos(t), 1), round(half_width * math.sin(t), 1)))
    return points


# A kidney of 13 clicks: a long bottom straight, a wide bend on the right, a dent in the
# top, and a hairpin on the left whose legs run 45 m apart.
KIDNEY = [
    (0, 0), (220, 0), (420, 5), (540, 60), (570, 170), (490, 260), (360, 250),
    (250, 160), (150, 70), (20, 50), (-70, 45), (-95, 22), (-70, 2),
]  # fmt: skip
HAIRPIN_X = -40  # the hairpin's spaces lie left of this


def figure_eight(clicks: int = 16):
    """``clicks`` points round a figure eight 800 x 360 m, crossing itself in the middle."""
    return [
        (
            round(400 * math.sin(2 * math.pi * (i + 0.5) / clicks), 1),
            round(180 * math.sin(4 * math.pi * (i + 0.5) / clicks), 1),
        )
        for i in range(clicks)
    ]


def rebuilt(points, **options) -> Track:
    """The board the editor's Rebuild makes from ``points``."""
    editor = EditorController()
    editor.rebuild(points, lanes=3, **options)
    return editor.track


def stops(track: Track) -> list[int]:
    return [track.corners[c]["stops"] for c in sorted(track.corners)]


def middle_x(track: Track, corner) -> float:
    return statistics.mean(track.space(s)["x"] for s in track.spaces(corner=corner))


def assert_like_printed_corners(track: Track) -> None:
    """Every corner asks for 1-3 stops and is as long as the printed boards' corners
    (calibration: shortest path 1-16 spaces, longest 1-23, never shorter than its stops)."""
    for corner, info in track.corners.items():
        assert info["stops"] in (1, 2, 3), (corner, info)
        assert info["stops"] <= info["short"] <= 16, (corner, info)
        assert info["short"] <= info["long"] <= 23, (corner, info)


def test_a_drawn_oval_with_a_pit_lane_gets_its_two_ends_as_corners():
    # the issue: 14 clicks round an oval, "with pit lane", Rebuild: 0 corners
    track = rebuilt(oval(), pit=True)
    assert 2 <= len(track.corners) <= 4, track.corners
    ends = sorted(middle_x(track, c) for c in track.corners)
    assert ends[0] < -250 and ends[-1] > 250  # one corner at each end, none on the sides
    assert all(abs(x) > 250 for x in ends)
    assert_like_printed_corners(track)
    assert track.boxes() and len(track.grid_spots()) == 10
    assert validate(track).codes == ["few_corners"], validate(track)  # an oval has two


@pytest.mark.parametrize("clicks", [8, 10, 12, 16, 20])
def test_an_oval_gets_a_corner_at_each_end_however_many_clicks_draw_it(clicks):
    track = build_track(oval(clicks), name="Oval")
    assert sorted(middle_x(track, c) > 0 for c in track.corners) == [False, True]
    assert stops(track) == [1, 1]  # wide ends: taken with one stop, as real sweepers


def test_the_same_oval_drawn_densely_gets_the_same_corners():
    clicked = build_track(oval(14), name="Oval")
    dense = build_track(oval(200), name="Oval")
    assert len(dense.corners) == len(clicked.corners) == 2
    assert stops(dense) == stops(clicked)


def test_a_drawn_kidney_gets_its_hairpin_with_the_most_stops():
    track = rebuilt(KIDNEY)
    assert len(track.corners) >= 2, track.corners
    hairpins = [c for c in track.corners if middle_x(track, c) < HAIRPIN_X]
    assert len(hairpins) == 1, track.corners
    [hairpin] = hairpins
    others = [info["stops"] for c, info in track.corners.items() if c != hairpin]
    assert track.corners[hairpin]["stops"] >= 2
    assert all(track.corners[hairpin]["stops"] > s for s in others), track.corners
    assert any(middle_x(track, c) > 450 for c in track.corners)  # the wide bend on the right
    assert_like_printed_corners(track)
    assert validate(track).ok, validate(track)


def test_a_drawn_figure_eight_gets_corners_in_both_loops_and_a_bridge():
    track = rebuilt(figure_eight())
    sides = [middle_x(track, c) > 0 for c in track.corners]
    assert sides.count(True) >= 1 and sides.count(False) >= 1, track.corners
    # each loop turns about 270 degrees: one corner for every 120 degrees it turns
    assert 2 <= len(track.corners) <= 6
    assert_like_printed_corners(track)
    assert track.spaces(level=1)  # the crossing is a bridge
    assert validate(track).ok, validate(track)


def test_a_drawn_box_keeps_a_corner_at_each_click():
    box = [(300, 0), (600, 0), (600, 300), (0, 300), (0, 0)]
    track = build_track(box, name="Box")
    assert stops(track) == [1, 1, 1, 1]


def test_a_drawn_circle_has_no_corner_to_find():
    # a circle turns evenly everywhere: nothing stands out as a corner
    track = build_track(oval(14, 300, 300), name="Circle")
    assert track.corners == {}


# -- corner_count_problems ------------------------------------------------------------------
def test_a_drawn_oval_has_fewer_corners_than_a_printed_board_and_is_told_what_to_do():
    track = build_track(oval(), name="Oval")
    [problem] = corner_count_problems(track)
    code, message, spaces = problem
    assert code == "few_corners" and code in CORNER_COUNT_CHECKS
    assert "2 corners" in message and f"at least {MIN_CORNERS}" in message
    assert "click Make corner" in message and "draw more points in the bends" in message
    # the spaces shown: the longest stretch without a corner, one of the oval's sides
    assert spaces and not any(track.space(s)["corner"] for s in spaces)
    assert all(track.space(s)["kind"] == "track" for s in spaces)
    assert len({round(track.space(s)["y"] > 0) for s in spaces}) == 1


def test_a_lap_with_no_corner_is_told_to_make_one():
    [problem] = corner_count_problems(build_track(oval(14, 300, 300), name="Circle"))
    assert problem.code == "no_corner" and problem.spaces == ()
    assert "no corner" in problem.message and "Make corner" in problem.message


def test_a_printed_board_has_enough_corners():
    assert corner_count_problems(load_track(TRACKS / "monaco.json")) == []


def test_problems_are_plain_code_message_spaces_tuples():
    ring = from_ascii(
        """
        . 1 1 . . . . 2 2 . . .
        . 1 1 . . . . 2 2 . . .
        """,
        corners={1: 1, 2: 2},
        closed=True,
    )
    [problem] = corner_count_problems(ring)
    assert isinstance(problem, tuple) and isinstance(problem, CornerCountProblem)
    code, message, spaces = problem
    assert code == "few_corners" and "Corner 1, Corner 2" in message
    assert spaces == (18, 19, 20, 21, 22, 23, 0, 1)  # columns 9-11, then 0
    assert corner_count_problems(ring, minimum=2) == []


def test_an_empty_board_or_one_without_a_lap_has_no_corner_count_problem():
    assert corner_count_problems(Track(new_graph("blank"))) == []


def test_a_board_with_broken_attributes_does_not_stop_the_count():
    ring = from_ascii(". 1 1 . . . .", corners={1: 1}, closed=True)
    ring.space(0)["progress"] = float("nan")
    ring.space(4)["progress"] = "far"
    ring.space(5)["progress"] = 10**400
    ring.graph.graph["lap_length"] = None
    [problem] = corner_count_problems(ring)
    assert problem.code == "few_corners"
    assert not {0, 4, 5} & set(problem.spaces)


def test_the_validator_reports_a_drawn_lap_short_of_corners_but_not_a_small_lesson_board():
    """Issue 25: 'a lap with no corner, or with fewer than a real board has, is a validator
    problem that says what to do'; boards smaller than a circuit (lessons, tests) are not."""
    oval_report = validate(build_track(oval(), name="Oval"))
    assert "few_corners" in oval_report.codes
    circle_report = validate(build_track(oval(14, 300, 300), name="Circle"))
    assert "no_corner" in circle_report.codes
    assert "Make corner" in str(circle_report)
    lesson = from_ascii(". . 1 1 . . . .\n. . 1 1 . . . .", corners={1: 1}, closed=True)
    assert not {"few_corners", "no_corner"} & set(validate(lesson).codes)
    assert validate(load_track(TRACKS / "monaco.json")).ok
