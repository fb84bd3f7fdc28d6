"""Solving again after an edit (fdlab.par.reuse): the same solution, from less work."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdlab.par import solve_par
from fdlab.par.reuse import closest_model, forget_models, untouched_spaces
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import Track, from_ascii, load_track

TRAINING = Path(__file__).resolve().parents[2] / "tracks" / "training.json"


def long_ring() -> Track:
    """A closed three-lane ring of 90 columns with four corners: room for untouched searches."""
    cells = ["."] * 90
    for cid, first, width in ((1, 10, 3), (2, 35, 2), (3, 55, 4), (4, 75, 2)):
        cells[first : first + width] = [str(cid)] * width
    row = " ".join(cells)
    last = 3 * 89
    return from_ascii(
        "\n".join([row] * 3),
        corners={1: 2, 2: 1, 3: 3, 4: 1},
        closed=True,
        grid=[last, last + 1, last + 2],
        name="long ring",
    )


def with_stops(track: Track, corner: int, stops: int) -> Track:
    edited = track.copy()
    edited.corners[corner]["stops"] = stops
    return edited


def assert_same_solution(reused, fresh) -> None:
    assert reused.par == fresh.par
    assert reused.finish_probability == fresh.finish_probability
    assert np.array_equal(reused.value, fresh.value)
    assert np.array_equal(reused.gear_policy, fresh.gear_policy)
    assert np.array_equal(reused.finish, fresh.finish)


@pytest.fixture(autouse=True)
def _cold_start():
    forget_models()
    yield
    forget_models()


def test_a_re_solve_after_a_stop_change_reuses_most_of_the_solve_and_equals_a_fresh_one():
    track = long_ring()
    solve_par(track)
    edited = with_stops(track, 3, 2)
    reused = solve_par(edited)
    fresh = solve_par(edited, reuse=False)
    assert_same_solution(reused, fresh)
    assert fresh.stats["searches_reused"] == 0 and fresh.stats["positions_reused"] == 0
    assert reused.stats["searches_reused"] > reused.stats["searches"] / 2
    assert reused.stats["positions_reused"] > 0
    # the positions before the corner are valued again from the rows the first solve made
    assert reused.stats["rows_carried"] > 0 and fresh.stats["rows_carried"] == 0


@pytest.mark.parametrize("laps", [1, 2])
def test_every_corner_of_the_training_board_edited_gives_the_fresh_solution(laps):
    """Two laps: pit stops and the box (P-2..P-5) in the reused rows too."""
    track = load_track(TRAINING)
    solve_par(track, laps=laps)
    for corner, spec in track.corners.items():
        edited = with_stops(track, corner, 1 if spec["stops"] > 1 else 2)
        assert_same_solution(
            solve_par(edited, laps=laps), solve_par(edited, laps=laps, reuse=False)
        )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.sampled_from([1, 2, 3, 4]), st.integers(1, 3), st.booleans()),
        min_size=1,
        max_size=3,
    )
)
def test_a_chain_of_edits_solved_with_reuse_is_solved_exactly(edits):
    """Stops changed and corners lengthened by a space, one edit after another."""
    forget_models()
    track = long_ring()
    solve_par(track)
    for corner, stops, lengthen in edits:
        track = with_stops(track, corner, stops)
        if lengthen:
            inside = [s for s in track.spaces() if track.space(s).get("corner") == corner]
            after = [
                t
                for s in inside
                for t in track.graph.successors(s)
                if track.space(t).get("corner") is None
            ]
            track.graph.nodes[min(after)]["corner"] = corner
        assert_same_solution(solve_par(track), solve_par(track, reuse=False))


def test_moving_the_grid_keeps_every_search_and_equals_a_fresh_solve():
    """No move reads a grid number: a grid moved back a row re-solves nothing but the start."""
    track = long_ring()
    solve_par(track)
    moved = track.copy()
    spots = moved.grid_spots()
    for number, space in enumerate(spots, start=1):
        moved.graph.nodes[space]["grid"] = None
        moved.graph.nodes[space - 3]["grid"] = number
    assert moved.grid_spots() == [s - 3 for s in spots]
    reused = solve_par(moved)
    assert reused.stats["searches_reused"] == reused.stats["searches"]
    forget_models()
    assert_same_solution(reused, solve_par(moved, reuse=False))


def test_a_board_with_other_spaces_shares_nothing():
    board = compile_board(long_ring())
    fewer = long_ring()
    fewer.graph.remove_node(0)
    fewer.contacts.remove_node(0)
    assert untouched_spaces(board, compile_board(fewer), reach=30) is None


def test_only_a_model_of_the_same_preset_and_box_is_offered():
    track = long_ring()
    solve_par(track)
    board = compile_board(with_stops(track, 1, 1))
    assert closest_model(board, BASIC, 1, 30) is not None
    assert closest_model(board, BASIC, 2, 30) is None
    assert closest_model(board, BASIC.with_laps(2), 1, 30) is None


def test_a_search_far_from_the_edit_is_untouched_and_one_near_it_is_not():
    track = long_ring()
    board = compile_board(track)
    edited = compile_board(with_stops(track, 3, 1))
    untouched = untouched_spaces(board, edited, reach=5)
    column = {board.index[s]: track.space(s)["progress"] for s in track.spaces()}
    corner_start = min(
        track.space(s)["progress"] for s in track.spaces() if track.space(s).get("corner") == 3
    )
    for i, progress in column.items():
        if corner_start - 5 <= progress <= corner_start:  # the corner within 5 spaces ahead
            assert not untouched[i]
        if corner_start + 10 <= progress <= corner_start + 20:  # past it, nothing ahead changed
            assert untouched[i]
