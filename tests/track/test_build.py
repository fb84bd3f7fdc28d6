"""The board builder: centrelines to boards (issue 2)."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fdlab.track.build import (
    BuildError,
    BuildSpec,
    Centreline,
    CentrelineError,
    CornerSpec,
    FewerGridSpotsWarning,
    PitSpec,
    StreetSpec,
    Stretch,
    build_track,
    centreline_from_geojson,
    make_spec,
    rebuild,
)
from fdlab.track.build.corner_finder import suggest_stops
from fdlab.track.build.corner_fit import CornerExtent, fit_corners
from fdlab.track.corners import corner_entries, corner_exits
from fdlab.track.io import load_track, save_track
from fdlab.track.validate import validate

CIRCUITS = Path(__file__).resolve().parents[2] / "circuits"


def drawn(layout, step=4.0):
    """A centreline from straights ``(length,)`` and turns ``(degrees, radius)``."""
    x = y = heading = 0.0
    points = [(x, y)]
    for piece in layout:
        if len(piece) == 1:
            x += piece[0] * math.cos(heading)
            y += piece[0] * math.sin(heading)
            points.append((x, y))
            continue
        angle, radius = math.radians(piece[0]), piece[1]
        count = max(2, round(abs(angle) * radius / step))
        for _ in range(count):
            chord = 2 * radius * math.sin(abs(angle / count) / 2)
            heading += angle / count / 2
            x, y = x + chord * math.cos(heading), y + chord * math.sin(heading)
            heading += angle / count / 2
            points.append((x, y))
    return points[:-1]


# A stadium: two straights and two tight hairpins (a space of radius at 16 m a
# space), finish line in the first straight.
STADIUM = drawn([(150,), (180, 16), (300,), (180, 16), (150,)])
# A stadium with a kink (45 degrees each way) on each straight.
KINKED = drawn([(100,), (45, 20), (60,), (-45, 20), (100,), (180, 16)] * 2)


def lap_steps_ok(track):
    """Progress rises along every step except the ones crossing the finish line.

    Steps into and out of the pit lane and the boxes are left out: a box is
    half a space behind the pit space beside it, and the pit lane half a
    space behind the track, so progress may fall a hair on them without a
    line crossed. That every way through the pits crosses the line once is
    the validator's (``pit_misses_finish``, ``pit_crosses_finish_twice``).
    """
    for u, v, data in track.graph.edges(data=True):
        if data["kind"] in ("pit_in", "pit_out", "box_in", "box_out"):
            continue
        pu, pv = track.space(u)["progress"], track.space(v)["progress"]
        if "finish" in data["lines"]:
            assert pv < pu, (u, v)
        else:
            assert pv > pu, (u, v, data)


def test_stadium_builds_a_valid_board_with_two_hairpins_of_three_stops():
    track = build_track(STADIUM, name="Stadium", space_length=16.0)
    assert validate(track).ok, validate(track)
    assert [c["stops"] for c in track.corners.values()] == [3, 3]
    lap_steps_ok(track)


def test_a_gentle_kink_gets_one_stop():
    track = build_track(KINKED, name="Kinks", space_length=16.0, grid=6, finish=0.1)
    assert validate(track, cars=6).ok, validate(track, cars=6)
    stops = [c["stops"] for c in track.corners.values()]
    assert 3 in stops and 1 in stops
    assert suggest_stops(20, 3.0) == 1 and suggest_stops(180, 0.9) == 3


def test_outer_lanes_of_a_corner_get_more_spaces_than_inner_ones():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, lanes=3)
    for corner in track.corners:
        per_lane = [len(track.spaces(corner=corner, lane=lane)) for lane in range(3)]
        # the stadium turns left: lane 0 is the inside
        assert per_lane[0] < per_lane[1] < per_lane[2], per_lane
        info = track.corners[corner]
        assert info["long"] > info["short"] >= 1


def test_stop_overrides_apply_and_a_wrong_count_is_named():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, stops=[1, 2])
    assert [c["stops"] for c in track.corners.values()] == [1, 2]
    with pytest.raises(BuildError, match="stops lists 3 stop counts but the lap has 2 corners"):
        build_track(STADIUM, name="Stadium", space_length=16.0, stops=[1, 2, 3])


def test_explicit_corners_replace_the_detected_ones():
    corners = [CornerSpec(0.2, 0.3, stops=2, name="Left"), (0.67, 0.83)]  # 2nd: a hairpin
    track = build_track(STADIUM, name="Stadium", space_length=16.0, corners=corners)
    assert [c["name"] for c in track.corners.values()] == ["Left", "Corner 2"]
    assert track.corners[1]["stops"] == 2
    assert track.corners[2]["stops"] >= 2  # suggested from the drawn stretch
    assert validate(track).ok


def test_building_twice_gives_equal_tracks_and_the_spec_rebuilds_it():
    options = dict(name="Stadium", space_length=16.0, pit=True, grid=8)
    first = build_track(STADIUM, **options)
    assert build_track(STADIUM, **options) == first
    assert rebuild(first) == first
    spec = json.loads(json.dumps(first.graph.graph["build"]))
    assert BuildSpec.from_json(spec).to_json() == first.graph.graph["build"]


def test_grid_is_staggered_one_spot_a_row_behind_the_line_pole_at_the_front():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, grid=8)
    spots = track.grid_spots()
    assert len(spots) == 8
    progress = [track.space(s)["progress"] for s in spots]
    assert progress == [track.lap_length - 1 - row for row in range(8)]  # one a row
    lanes = [track.space(s)["lane"] for s in spots]
    assert lanes == [lanes[0], lanes[1]] * 4 and lanes[0] != lanes[1]  # alternating sides
    assert all(track.space(s)["corner"] is None for s in spots)


def test_a_grid_that_does_not_fit_behind_the_line_is_refused_not_put_in_a_corner():
    with pytest.raises(BuildError, match="grid: no room for 60 grid spots behind the finish line"):
        build_track(STADIUM, name="Stadium", space_length=32.0, grid=60, finish=0.1)


def test_pit_lane_has_one_box_per_car_and_crosses_the_finish_line():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, pit=PitSpec(boxes=8))
    kinds = [d["kind"] for _, _, d in track.graph.edges(data=True)]
    assert kinds.count("pit_in") == kinds.count("pit_out") == 1
    assert [track.space(b)["box"] for b in track.boxes()] == list(range(1, 9))
    pit = track.spaces(kind="pit")
    assert any(
        "finish" in d["lines"] for u, v, d in track.graph.edges(data=True) if u in pit and v in pit
    )
    # the stadium runs anticlockwise: the pit lane is on the outside, to the right
    assert all(track.space(s)["y"] < -10 for s in pit)
    assert validate(track).ok, validate(track)


def test_pits_on_another_straight_need_the_finish_line_moved_there():
    away = build_track(STADIUM, name="Stadium", space_length=16.0, pit=PitSpec(0.35, 0.65))
    assert [p.code for p in validate(away) if not p.advice] == ["pit_misses_finish"]
    moved = build_track(STADIUM, name="Stadium", space_length=16.0, pit=True, finish=0.6)
    assert validate(moved).ok, validate(moved)
    pit = set(moved.spaces(kind="pit"))
    assert any(u in pit and v in pit for u, v in moved.edges_crossing("finish"))


def test_street_features_tunnel_hazards_and_police_line():
    street = StreetSpec(
        shooting=[Stretch(0.25, 0.3)],
        danger=[Stretch(0.75, 0.8)],
        police=0.4,
        tunnels=[(0.55, 0.6)],
    )
    plain = build_track(STADIUM, name="Stadium", space_length=16.0)
    track = build_track(STADIUM, name="Stadium", space_length=16.0, street=street)
    pairs = track.tunnel_pairs()
    assert len(pairs) == 3 and all(len(p) == 2 for p in pairs.values())
    tunnel_steps = [(u, v) for u, v, d in track.graph.edges(data=True) if d["kind"] == "tunnel"]
    assert len(tunnel_steps) == 3
    assert len(track) < len(plain)
    assert track.spaces(hazard="shooting") and track.spaces(hazard="danger")
    assert len(track.edges_crossing("police")) >= 3
    assert validate(track).ok, validate(track)
    lap_steps_ok(track)
    assert rebuild(track) == track  # the street spec survives its JSON form


def test_rebuild_with_a_dragged_centreline():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, stops=[2, 3])
    wider = [(x * 1.2, y) for x, y in STADIUM]
    moved = rebuild(track, centreline=wider)
    assert moved.lap_length > track.lap_length
    assert [c["stops"] for c in moved.corners.values()] == [2, 3]
    assert moved.graph.graph["build"]["centreline"]["points"][1][0] == pytest.approx(
        STADIUM[1][0] * 1.2
    )


def test_hazards_by_space_id_and_a_missing_id_is_named():
    plain = build_track(STADIUM, name="Stadium", space_length=16.0)
    track = build_track(
        STADIUM, name="Stadium", space_length=16.0, street=StreetSpec(danger=[5, 6], shooting=[40])
    )
    assert track.spaces(hazard="danger") == [5, 6] and track.spaces(hazard="shooting") == [40]
    with pytest.raises(
        BuildError, match=f"street shooting: space {len(plain)} is not a track space"
    ):
        build_track(STADIUM, name="S", space_length=16.0, street=StreetSpec(shooting=[len(plain)]))


def test_a_tunnel_may_not_swallow_a_corner():
    with pytest.raises(BuildError, match="swallows all of corner"):
        build_track(STADIUM, name="S", space_length=16.0, street=StreetSpec(tunnels=[(0.1, 0.5)]))


def test_lane_counts_change_per_stretch():
    track = build_track(
        STADIUM, name="Stadium", space_length=16.0, lanes=3, lane_counts=[((0.55, 0.7), 2)]
    )
    lanes_by_progress = {}
    for s in track:
        lanes_by_progress.setdefault(round(track.space(s)["progress"]), set()).add(
            track.space(s)["lane"]
        )
    assert any(lanes == {0, 1} for lanes in lanes_by_progress.values())
    assert validate(track).ok, validate(track)


def test_bad_options_raise_clear_errors():
    with pytest.raises(BuildError, match="lanes: lane count must be 2-4, got 5"):
        build_track(STADIUM, name="S", lanes=5)
    with pytest.raises(CentrelineError, match="at least 3 distinct points"):
        build_track([(0, 0), (1, 1)], name="S")
    with pytest.raises(CentrelineError, match="type must be FeatureCollection"):
        centreline_from_geojson({"type": "Point", "coordinates": [0, 0]})


OVAL = [(0, 0), (300, 0), (300, 200), (0, 200)]  # a 1000 m lap


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"space_length": 1e-6},
            "space_length 1e-06 m cuts this 1000 m lap into about 1e+09 spaces",
        ),
        ({"space_length": 1e-9}, "at most 1000 (space_length at least 1 m)"),
        ({"space_length": 1e6}, "into only 0.001 spaces; at least 20 (space_length at most 50 m)"),
        ({"space_length": math.nan}, "space_length must be a positive number of metres, got nan"),
        ({"spaces_per_lap": 10**7}, "spaces_per_lap must be a whole number from 20 to 1000"),
        ({"spaces_per_lap": 80.5}, "spaces_per_lap must be a whole number from 20 to 1000"),
        ({"name": 5}, "name must be a string, got 5"),
        ({"description": None}, "description must be a string, got None"),
        ({"lane_width": -1}, "lane_width must be a positive number of metres, got -1"),
        ({"lane_width": math.inf}, "lane_width must be a positive number of metres, got inf"),
        ({"lane_width": 1e6}, "lane_width 1e+06 m is wider than a space is long (12.5 m)"),
        ({"grid": 0}, "grid must be a whole number of spots from 1 to 60, got 0"),
        ({"grid": True}, "grid must be a whole number of spots from 1 to 60, got True"),
        ({"laps": 10**12}, "laps must be a whole number from 1 to 100"),
        ({"lanes": 2.5}, "lanes: lane count must be 2-4, got 2.5"),
        ({"finish": math.nan}, "finish must be a lap fraction in [0, 1), got nan"),
        (
            {"lanes": 4, "spaces_per_lap": 20, "lane_width": 50},
            "the road (4 lanes of 50 m) is too wide to follow this centreline's bends",
        ),
    ],
)
def test_options_that_cannot_make_a_board_are_refused_before_any_work(options, words):
    """Issue 15: 1e-6 tried to allocate 60 GiB, 10^7 spaces ran for minutes, name=5 built an
    unsavable board, lane_width=-1 and grid=0 were accepted."""
    with pytest.raises(BuildError) as info:
        build_track(OVAL, **options)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("point", "words"),
    [
        (
            [7.001, math.nan],
            "geometry.coordinates[1]: coordinates must be finite, got [7.001, nan]",
        ),
        ([7.001, 95], "geometry.coordinates[1]: latitude 95 is outside -90..90 degrees"),
        ([187, 43], "geometry.coordinates[1]: longitude 187 is outside -180..180 degrees"),
        ([7.001, "43"], "geometry.coordinates[1]: expected a (lon, lat) pair, got [7.001, '43']"),
        ([7.001], "geometry.coordinates[1]: expected a (lon, lat) pair, got [7.001]"),
    ],
)
def test_geojson_positions_are_checked_before_projecting(point, words):
    line = {"type": "LineString", "coordinates": [[7, 43], point, [7.002, 43.001], [7, 43.002]]}
    with pytest.raises(CentrelineError) as info:
        centreline_from_geojson(line)
    assert str(info.value) == f"GeoJSON data: {words}"


def test_centreline_coordinates_beyond_any_circuit_are_refused():
    with pytest.raises(CentrelineError, match=r"point 1: coordinates are metres .* at most 1e\+07"):
        build_track([(0, 0), (1e300, 0), (300, 200), (0, 200)])


def test_built_board_survives_save_and_load(tmp_path):
    track = build_track(STADIUM, name="Stadium", space_length=16.0, pit=True)
    save_track(track, tmp_path / "stadium.json")
    assert load_track(tmp_path / "stadium.json") == track


def test_built_boards_hold_plain_python_numbers_not_numpy_scalars():
    """``x == np.float64(x)``, so equality alone would not notice numpy scalars."""
    track = build_track(STADIUM, name="Stadium", space_length=16.0, pit=True)
    types = {"x": float, "y": float, "progress": float, "lane": int, "level": int}
    for n, data in track.graph.nodes(data=True):
        assert type(n) is int
        for key, kind in types.items():
            assert type(data[key]) is kind, (n, key, type(data[key]))
        for key in ("corner", "grid", "box"):
            assert data[key] is None or type(data[key]) is int, (n, key, type(data[key]))
    assert type(track.lap_length) is float
    assert type(track.graph.graph["space_length"]) is float
    for corner in track.corners.values():
        assert {type(corner[key]) for key in ("stops", "long", "short")} == {int}


@st.composite
def wobbly_ellipses(draw):
    a = draw(st.floats(400, 700))
    b = draw(st.floats(200, 350))
    harmonics = [
        (k, draw(st.floats(-0.06, 0.06)), draw(st.floats(0, 2 * math.pi))) for k in (2, 3, 4)
    ]
    points = []
    for i in range(120):
        t = 2 * math.pi * i / 120
        scale = 1 + sum(amp * math.cos(k * t + phase) for k, amp, phase in harmonics)
        points.append((a * scale * math.sin(t), -b * scale * math.cos(t)))
    return points


@settings(max_examples=12, deadline=None)
@given(wobbly_ellipses(), st.integers(2, 4), st.integers(50, 90))
@pytest.mark.filterwarnings("ignore::fdlab.track.build.FewerGridSpotsWarning")
def test_random_smooth_centrelines_build_valid_boards(points, lanes, spaces):
    try:
        track = build_track(points, name="Random", lanes=lanes, spaces_per_lap=spaces, pit=True)
    except BuildError as error:
        # a bend just behind the line leaves too short a straight for the pit lane: said
        # plainly (never a pit lane beside a corner); the board without pits is valid, its
        # grid reaching into the corner behind the straight if need be (S-5)
        assert re.match(
            r"pit: the stretch from lap fraction .* holds .* spaces of straight", str(error)
        )
        track = build_track(points, name="Random", lanes=lanes, spaces_per_lap=spaces)
    # a line just after a bend may hold fewer than 10 grid spots (said by a note); a loop
    # of fewer than 4 bends (a near circle: none) is valid but for the advice to draw more
    report = validate(track, cars=len(track.grid_spots()))
    assert {p.code for p in report.problems} <= {"few_corners", "no_corner"}, report
    assert len(track.grid_spots()) >= 8
    lap_steps_ok(track)


def test_a_finish_line_just_after_a_bend_gives_the_grid_spots_that_fit():
    """S-5: a three-lobed loop whose line sits just after a bend has one row of straight
    behind it and six spaces of corner: the grid has the 8 spots that fit, a note says
    so, and the board is valid for 8 cars."""
    points = []
    for i in range(120):
        t = 2 * math.pi * i / 120
        scale = 1 + 0.0546875 * math.cos(3 * t)
        points.append((400 * scale * math.sin(t), -341 * scale * math.cos(t)))
    with pytest.warns(FewerGridSpotsWarning, match="hold 8 grid spots, not 10: built with 8"):
        track = build_track(points, name="Lobes", lanes=2, spaces_per_lap=81, pit=True)
    grid = sorted(track.space(s)["grid"] for s in track.grid_spots())
    assert grid == list(range(1, 9))
    problems = [p.code for p in validate(track, cars=8).problems]
    assert problems == ["few_corners"]  # three bends drawn: the validator asks for more


CIRCUIT_FILES = sorted(CIRCUITS.glob("*.geojson"))


def test_the_repository_carries_its_circuits_with_their_licence():
    assert len(CIRCUIT_FILES) >= 8
    assert "Permission is hereby granted" in (CIRCUITS / "LICENSE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", CIRCUIT_FILES, ids=lambda p: p.stem)
def test_every_real_circuit_builds_a_valid_board(path):
    track = build_track(path, pit=True)
    report = validate(track)
    assert report.ok, report
    if path.stem == "jp-1962":  # Suzuka crosses itself: one branch goes over a bridge
        assert track.spaces(level=1)
    else:
        assert not track.spaces(level=1)


def test_centreline_round_trips_through_json():
    line = Centreline([(0, 0), (10, 0), (10, 10)], {"name": "x"})
    assert Centreline.from_json(json.loads(json.dumps(line.to_json()))) == line


def test_finish_option_moves_the_finish_line_along_the_centreline():
    # half a lap on, the finish line lies on the far straight (y about 32)
    track = build_track(STADIUM, name="Stadium", space_length=16.0, finish=0.5)
    crossing = track.edges_crossing("finish")
    assert crossing and all(track.space(v)["y"] > 20 for _, v in crossing)
    assert validate(track).ok, validate(track)


def test_grid_fills_rows_across_the_lanes_when_the_straight_is_short():
    short = drawn([(220,), (180, 35), (300,), (180, 35), (80,)])  # 5 spaces behind the line
    track = build_track(short, name="Short", space_length=16.0, lanes=3, finish=0.0)
    spots = track.grid_spots()
    assert len(spots) == 10
    rows = [track.space(s)["progress"] for s in spots]
    assert rows[:2] == [rows[0]] * 2 and rows[2] < rows[0]  # two spots a row: 5 rows
    assert all(track.space(s)["corner"] is None for s in spots)
    assert validate(track).ok, validate(track)


def test_the_back_of_a_grid_too_long_for_its_straight_reaches_into_the_corner_behind():
    short = drawn([(270,), (180, 35), (300,), (180, 35), (30,)])  # 2 rows behind the line
    track = build_track(short, name="Short", space_length=16.0, lanes=3, finish=0.0)
    spots = track.grid_spots()
    assert len(spots) == 10
    corners = [track.space(s)["corner"] for s in spots]
    on_straight = corners.index(2)
    assert on_straight % 3 == 0 and corners[:on_straight] == [None] * on_straight  # full rows
    assert corners[on_straight:] == [2] * (10 - on_straight)  # then the corner behind (S-5)
    progress = [track.space(s)["progress"] for s in spots]
    assert progress == sorted(progress, reverse=True)  # its spaces nearest the straight first
    assert validate(track).ok, validate(track)


def test_a_figure_eight_builds_a_bridge_not_a_wrong_connection():
    eight = [
        (600 * math.sin(2 * math.pi * i / 200), 250 * math.sin(4 * math.pi * i / 200))
        for i in range(25, 225)
    ]
    track = build_track(eight, name="Eight", spaces_per_lap=70, pit=True)
    assert validate(track).ok, validate(track)
    raised = track.spaces(level=1)
    assert raised
    # the bridge spaces lie on one branch: a stretch of at most a few spaces of progress
    progress = sorted(track.space(s)["progress"] for s in raised)
    assert progress[-1] - progress[0] < 8
    lap_steps_ok(track)


# -- lane changes go diagonally forward, corners hold their stops (issue 2 follow-up) --
@st.composite
def bendy_laps(draw):
    """Closed centrelines with corners from sweepers to hairpins."""
    a = draw(st.floats(400, 700))
    b = draw(st.floats(60, 350))
    harmonics = [
        (k, draw(st.floats(-0.12, 0.12)), draw(st.floats(0, 2 * math.pi))) for k in (2, 3, 4, 5)
    ]
    points = []
    for i in range(160):
        t = 2 * math.pi * i / 160
        scale = 1 + sum(amp * math.cos(k * t + phase) for k, amp, phase in harmonics)
        points.append((a * scale * math.sin(t), -b * scale * math.cos(t)))
    return points


def gains(track, kind):
    lap = track.lap_length
    return [
        (u, v, (track.space(v)["progress"] - track.space(u)["progress"]) % lap)
        for u, v, data in track.graph.edges(data=True)
        if data["kind"] == kind
    ]


@settings(max_examples=15, deadline=None)
@given(bendy_laps(), st.integers(2, 4), st.integers(50, 100))
def test_lane_changes_go_forward_and_corners_hold_their_stops(points, lanes, spaces):
    track = build_track(points, name="Bendy", lanes=lanes, spaces_per_lap=spaces, pit=True)
    for u, v, gain in gains(track, "lane_change"):
        assert 0.5 <= gain <= 2.0, (u, v, gain)
        assert not track.contacts.has_edge(u, v), (u, v)  # never to the space beside
    for u, v, gain in gains(track, "ahead"):
        assert gain >= 0.5, (u, v, gain)
    for corner, info in track.corners.items():
        assert info["short"] >= info["stops"], (corner, info)
        for lane in {track.space(s)["lane"] for s in track.spaces(corner=corner)}:
            assert len(track.spaces(corner=corner, lane=lane)) >= 2, (corner, lane)
    report = validate(track)
    assert report.ok, report


def test_a_lane_change_on_a_straight_lands_where_the_ahead_step_does():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, lanes=3)
    graph = track.graph
    checked = 0
    for u, v, data in graph.edges(data=True):
        if data["kind"] != "lane_change" or graph.nodes[u]["corner"] is not None:
            continue
        ahead = [w for w in graph.successors(u) if graph.edges[u, w]["kind"] == "ahead"]
        if ahead and graph.nodes[ahead[0]]["corner"] is None and graph.nodes[v]["corner"] is None:
            assert graph.nodes[v]["progress"] == graph.nodes[ahead[0]]["progress"], (u, v)
            checked += 1
    assert checked > 100


def test_corners_are_entered_and_left_only_across_their_lines():
    # the first and last space of each lane are a corner's only entries and exits
    track = build_track(STADIUM, name="Stadium", space_length=16.0, lanes=3)
    for corner in track.corners:
        firsts, lasts = set(), set()
        for lane in range(3):
            spaces = sorted(
                track.spaces(corner=corner, lane=lane), key=lambda s: track.space(s)["progress"]
            )
            firsts.add(spaces[0])
            lasts.add(spaces[-1])
        assert set(corner_entries(track, corner)) == firsts
        assert set(corner_exits(track, corner)) == lasts


def test_a_hairpin_is_widened_until_its_inner_lane_holds_three_spaces():
    tight = drawn([(200,), (180, 20), (300,), (180, 20), (100,)])
    track = build_track(tight, name="Tight", space_length=20.0, lanes=3)
    assert [c["stops"] for c in track.corners.values()] == [3, 3]
    for corner, info in track.corners.items():
        per_lane = [len(track.spaces(corner=corner, lane=lane)) for lane in range(3)]
        assert min(per_lane) >= 3 and info["short"] >= 3, (per_lane, info)
    assert validate(track).ok


def test_crowded_corners_take_room_from_neighbours_or_merge():
    def one_lane(start, end, spread=0, inside=None):  # a lane of one space per 10 metres
        return [max(1, round((end - start) / 10))]

    crowded = [
        CornerExtent(100, 110, 1, "A"),
        CornerExtent(110, 115, 3, "B"),
        CornerExtent(115, 125, 1, "C"),
    ]
    # a small board (a tenth of the printed size): a 3-stop corner needs 3 spaces
    roomy = fit_corners(crowded, one_lane, low=80, high=150, step=2.5, scale=0.1)
    assert [c.name for c in roomy] == ["A", "B", "C"]
    assert [one_lane(c.start, c.end)[0] for c in roomy] == [2, 3, 2]
    assert roomy[1].start < 110 and roomy[1].end > 115  # grown on both sides of its apex
    [merged] = fit_corners(crowded, one_lane, low=95, high=135, step=2.5, scale=0.1)
    assert merged == CornerExtent(95, 135, 3, "A / B / C")


def test_pit_entry_and_exit_move_out_of_corners():
    # drawn to end inside the first hairpin (lap fractions 0.18-0.32)
    track = build_track(
        STADIUM, name="Stadium", space_length=16.0, pit=PitSpec(start=0.85, end=0.25, boxes=6)
    )
    ends = [
        (data["kind"], u if data["kind"] == "pit_in" else v)
        for u, v, data in track.graph.edges(data=True)
        if data["kind"] in ("pit_in", "pit_out")
    ]
    assert sorted(kind for kind, _ in ends) == ["pit_in", "pit_out"]
    assert all(track.space(space)["corner"] is None for _, space in ends)
    assert validate(track).ok


def test_a_collection_of_several_circuits_asks_which_one_to_build():
    line = json.loads((CIRCUITS / "mc-1929.geojson").read_text(encoding="utf-8"))["features"][0]
    other = json.loads((CIRCUITS / "nl-1948.geojson").read_text(encoding="utf-8"))["features"][0]
    both = {"type": "FeatureCollection", "features": [line, other]}
    with pytest.raises(
        CentrelineError, match=r"2 LineString features \(mc-1929 'Circuit de Monaco'"
    ):
        centreline_from_geojson(both)
    with pytest.raises(CentrelineError, match="no LineString feature with id or name 'Spa'"):
        centreline_from_geojson(both, feature="Spa")
    chosen = centreline_from_geojson(both, feature="nl-1948")
    assert chosen.properties["Name"] == "Circuit Zandvoort"
    assert centreline_from_geojson(both, feature="Circuit Zandvoort") == chosen


def test_a_board_is_named_after_the_circuit_not_its_town():
    line = centreline_from_geojson(CIRCUITS / "mc-1929.geojson")
    assert line.properties["Location"] == "Monaco"
    assert build_track(line, spaces_per_lap=60, grid=4).name == "Circuit de Monaco"


def test_a_lap_of_a_few_clicks_gets_corners_only_at_its_real_bends():
    # the editor's Poly Draw: 15 clicks round a 1000 x 300 m stadium, each end a half
    # circle of five clicks; every click turns 36 degrees but only the two ends are bends
    ends = [math.pi * k / 4 for k in (0, 1, 2, 3, 4)]
    clicks = [(250, 0), (500, 0), (750, 0)]
    clicks += [(1000 + 150 * math.sin(a), 150 - 150 * math.cos(a)) for a in ends]
    clicks += [(500, 300), (250, 300)]
    clicks += [(-150 * math.sin(a), 150 + 150 * math.cos(a)) for a in ends]
    assert len(clicks) == 15
    track = build_track(clicks, name="Clicked")
    assert len(track.corners) == 2, track.corners
    assert validate(track).ok, validate(track)


def test_the_pit_lane_never_lies_over_other_track_and_names_the_stretch_when_it_cannot_fit():
    # half a lap on, Suzuka's straight has the other branch of the figure eight on one side
    suzuka = CIRCUITS / "jp-1962.geojson"
    track = build_track(suzuka, pit=True, finish=0.5, grid=6)
    assert validate(track, cars=6).ok, validate(track, cars=6)
    refused = []
    for side in ("left", "right"):
        try:
            build_track(suzuka, pit=PitSpec(side=side), finish=0.5, grid=6)
        except BuildError as error:
            refused.append(str(error))
    [message] = refused
    assert re.search(
        r"on the (left|right) of the stretch from lap fraction 0\.\d+ to 0\.\d+ "
        r"it would lie over \d+ track spaces",
        message,
    ), message


def test_the_pit_lane_never_runs_beside_a_corner():
    # drawn over the first hairpin (lap fractions 0.21-0.29): refused, naming the corner
    with pytest.raises(BuildError, match="runs beside corner 1: a car in the pits would skip it"):
        build_track(STADIUM, name="Stadium", space_length=16.0, pit=PitSpec(0.15, 0.4, boxes=4))
    for path in CIRCUIT_FILES:
        track = build_track(path, pit=True, grid=6)
        assert "pit_beside_corner" not in validate(track, cars=6).codes, path.stem


def test_boxes_are_at_least_half_a_space_long():
    track = build_track(STADIUM, name="Stadium", space_length=16.0, pit=PitSpec(boxes=10))
    area = statistics.median(track.space(s)["polygon"].area for s in track.spaces(kind="track"))
    assert all(track.space(b)["polygon"].area >= 0.45 * area for b in track.boxes())
    assert "box_too_small" not in validate(track).codes


def test_a_pit_exit_may_pass_under_the_track():
    # a figure eight crossing itself at right angles just after the finish line: the pit
    # lane beside the finish straight comes out under the bridge of the other branch
    start = -0.18
    eight = [
        (
            600 * math.sin(start + 2 * math.pi * i / 200),
            300 * math.sin(2 * (start + 2 * math.pi * i / 200)),
        )
        for i in range(200)
    ]
    track = build_track(eight, name="Eight", spaces_per_lap=70, pit=PitSpec(boxes=4), grid=4)
    assert validate(track, cars=4).ok, validate(track, cars=4)
    under = [s for s in track.spaces(kind="pit") if track.space(s)["level"] == -1]
    assert track.spaces(level=1)  # the other branch goes over on a bridge ...
    exit_space = next(u for u, _, k in track.graph.edges(data="kind") if k == "pit_out")
    assert under == [exit_space]  # ... and the pit exit under it


def test_boxes_move_away_from_a_pit_exit_that_passes_under_the_track():
    # the eight crosses itself further into the pit lane: a box beside its last spaces
    # would lie under the bridge, so the boxes go before the part that passes under
    start = -0.14
    eight = [
        (
            600 * math.sin(start + 2 * math.pi * i / 200),
            300 * math.sin(2 * (start + 2 * math.pi * i / 200)),
        )
        for i in range(200)
    ]
    track = build_track(eight, name="Eight", spaces_per_lap=70, pit=PitSpec(boxes=6), grid=4)
    assert validate(track, cars=4).ok, validate(track, cars=4)
    graph = track.graph
    pit = [next(v for _, v, kind in graph.edges(data="kind") if kind == "pit_in")]
    while nexts := [
        v for v in graph.successors(pit[-1]) if graph.edges[pit[-1], v]["kind"] == "ahead"
    ]:
        pit.append(nexts[0])
    assert len(pit) == len(track.spaces(kind="pit"))
    levels = [track.space(s)["level"] for s in pit]
    assert levels[-2:] == [-1, -1] and set(levels[:-2]) == {0}  # its exit passes under
    beside_boxes = {
        n for b in track.boxes() for n in (*graph.predecessors(b), *graph.successors(b))
    }
    assert len(track.boxes()) == 6
    assert all(graph.nodes[n]["level"] == 0 for n in beside_boxes)


def test_build_track_takes_a_spec_object_alone():
    """One BuildSpec holds the lap and every option: build_track(spec) is the board the
    keywords make, and a spec given with options is refused, naming them."""
    box = [(0, 0), (600, 0), (600, 300), (0, 300)]
    spec = make_spec(box, name="Box", lanes=2, spaces_per_lap=80)
    assert build_track(spec) == build_track(box, name="Box", lanes=2, spaces_per_lap=80)
    with pytest.raises(BuildError, match="give it alone, not with lanes, pit"):
        build_track(spec, lanes=4, pit=True)


def test_a_default_pit_lane_on_a_short_straight_gets_the_boxes_that_fit_and_says_so():
    """Issue 25: pit=True builds on every circuit; where the finish straight holds fewer
    than 10 boxes (be-1925 at 90 spaces a lap), the builder lays those that fit and says so."""
    from fdlab.track.build.notes import FewerBoxesWarning

    with pytest.warns(FewerBoxesWarning, match=r"holds (\d) boxes, not 10: built with \1"):
        track = build_track(CIRCUITS / "be-1925.geojson", spaces_per_lap=90, pit=True)
    assert 1 <= len(track.boxes()) < 10
    assert validate(track).ok, validate(track)
    with pytest.raises(BuildError, match="boxes"):  # a stretch given is built as asked or not
        build_track(
            CIRCUITS / "be-1925.geojson",
            spaces_per_lap=90,
            pit=PitSpec(start=0.97, end=0.99, boxes=10),
        )
