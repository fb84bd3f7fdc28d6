"""The boards shipped in tracks/: valid, described, and equal to a fresh build."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import shapely
import shapely.affinity

from fdlab.track.io import load_track
from fdlab.track.validate import validate

REPO = Path(__file__).resolve().parents[2]
TRACKS = REPO / "tracks"
SHIPPED = ["training", "monaco", "zandvoort", "street"]


def build_script():
    spec = importlib.util.spec_from_file_location("build_shipped", TRACKS / "build_shipped.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_board_is_valid_and_described(name):
    track = load_track(TRACKS / f"{name}.json")
    report = validate(track)
    assert report.ok, report
    assert len(track.description) > 40
    assert len(track.grid_spots()) >= 10
    assert track.graph.graph["build"]["name"] == track.name


def same_board(a, b, tolerance=0.01):
    """Equal boards, outlines compared within ``tolerance`` metres (GEOS versions differ in
    how they repair an outline by a hair; everything else is compared exactly)."""
    if a.graph.graph != b.graph.graph or set(a.graph.edges) != set(b.graph.edges):
        return False
    if any(a.graph.edges[e] != b.graph.edges[e] for e in a.graph.edges):
        return False
    if a.contacts.edges != b.contacts.edges or set(a.graph) != set(b.graph):
        return False
    for n, data in a.graph.nodes(data=True):
        other = b.graph.nodes[n]
        if {k: v for k, v in data.items() if k != "polygon"} != {
            k: v for k, v in other.items() if k != "polygon"
        }:
            return False
        if not shapely.equals_exact(data["polygon"], other["polygon"], tolerance=tolerance):
            return False
    return True


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_board_is_up_to_date_with_a_fresh_build(name):
    fresh = build_script().BOARDS[name]()
    assert same_board(load_track(TRACKS / f"{name}.json"), fresh), (
        f"tracks/{name}.json is stale: run python tracks/build_shipped.py {name}"
    )


def test_boards_differing_by_more_than_a_hair_are_not_the_same():
    track = load_track(TRACKS / "training.json")
    moved = track.copy()
    assert same_board(track, moved)
    moved.space(0)["polygon"] = shapely.affinity.translate(moved.space(0)["polygon"], 0.005)
    assert same_board(track, moved)
    moved.space(0)["polygon"] = shapely.affinity.translate(moved.space(0)["polygon"], 0.5)
    assert not same_board(track, moved)
    moved = track.copy()
    moved.space(0)["progress"] += 1
    assert not same_board(track, moved)


def test_training_ring_is_small_with_corners_of_one_two_and_three_stops():
    track = load_track(TRACKS / "training.json")
    assert 100 <= len(track.spaces(kind="track")) <= 150
    assert {c["stops"] for c in track.corners.values()} == {1, 2, 3}


def test_monaco_has_the_stop_counts_of_the_printed_board_and_a_pit_lane():
    track = load_track(TRACKS / "monaco.json")
    assert [track.corners[c]["stops"] for c in sorted(track.corners)] == [
        1,
        1,
        1,
        1,
        3,
        1,
        1,
        2,
        2,
        1,
    ]
    assert 130 <= track.lap_length <= 170  # the size of the printed boards
    assert len(track.boxes()) == 10 and track.spaces(kind="pit")


def test_street_board_has_every_street_feature():
    track = load_track(TRACKS / "street.json")
    assert (
        track.tunnel_pairs() and track.spaces(hazard="shooting") and track.spaces(hazard="danger")
    )
    assert track.edges_crossing("police")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_pit_lane_joins_the_track_on_straights(name):
    track = load_track(TRACKS / f"{name}.json")
    joins = [
        u if data["kind"] == "pit_in" else v
        for u, v, data in track.graph.edges(data=True)
        if data["kind"] in ("pit_in", "pit_out")
    ]
    assert len(joins) == 2
    assert [track.space(s)["corner"] for s in joins] == [None, None]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_corners_do_not_weave_and_hold_their_stops(name):
    # diagonals go forward, so the longest path is the longest lane
    track = load_track(TRACKS / f"{name}.json")
    for corner, info in track.corners.items():
        lanes = {track.space(s)["lane"] for s in track.spaces(corner=corner)}
        longest_lane = max(len(track.spaces(corner=corner, lane=lane)) for lane in lanes)
        assert info["long"] <= longest_lane, (corner, info)
        assert info["short"] >= info["stops"], (corner, info)
        assert all(len(track.spaces(corner=corner, lane=lane)) >= 2 for lane in lanes), corner


def test_monaco_hairpin_is_its_three_stop_corner_and_long_enough_to_stop_in_three_times():
    track = load_track(TRACKS / "monaco.json")
    by_name = {info["name"]: info for info in track.corners.values()}
    assert [name for name, info in by_name.items() if info["stops"] == 3] == ["Hairpin"]
    assert by_name["Hairpin"]["short"] >= 6
    assert by_name["Piscine"]["short"] >= 4  # a 2-stop corner


@pytest.mark.parametrize("name", ["monaco", "zandvoort", "street"])
def test_S4_a_lap_through_the_pits_counts_once(name):
    """S-4 / P-2: on the boards with a pit lane, a two-lap race with pit stops lasts
    about two laps (a step into the pit lane once counted a lap of its own)."""
    from fdlab.bots import HeuristicBot
    from fdlab.rules import compile_board, simulate
    from fdlab.rules.presets import get_preset

    board = compile_board(load_track(TRACKS / f"{name}.json"))
    one, two = get_preset("basic", 1), get_preset("basic", 2)
    for seed in range(3):
        short = simulate(board, [HeuristicBot()], one, seed=seed)
        long = simulate(board, [HeuristicBot()], two, seed=seed)
        assert long.finished and short.finished
        assert long.rounds > 1.7 * short.rounds, (seed, short.rounds, long.rounds)
