"""compile_board: a Track flattened into per-index tuples for the move search."""

from __future__ import annotations

import pytest

from fdlab.rules.board import (
    STEP_AHEAD,
    STEP_BOX_IN,
    STEP_CORNER_LANE_CHANGE,
    STEP_PIT_IN,
    STEP_STRAIGHT_LANE_CHANGE,
    STEP_TUNNEL,
    BoardError,
    compile_board,
)
from fdlab.track import from_ascii

BOARD = """
    . . 1 1 . D
    . . 1 1 . .
    x p p p x x
    x x B x x x
"""


@pytest.fixture(scope="module")
def track():
    return from_ascii(
        BOARD, corners={1: {"stops": 2, "name": "Hairpin"}}, tunnels={"t": (8, 20)}, grid=[4, 5]
    )


@pytest.fixture(scope="module")
def board(track):
    return compile_board(track)


def test_ids_and_index_are_inverse(board, track):
    assert sorted(board.ids) == sorted(track)
    assert all(board.index[sid] == i for i, sid in enumerate(board.ids))
    assert len(board) == len(track)


def test_steps_mirror_the_track_edges(board, track):
    for i, sid in enumerate(board.ids):
        expected = {(nxt, data["kind"], data["lines"]) for nxt, data in track.steps(sid)}
        got = {(board.ids[j], kind, lines) for j, kind, lines in board.steps[i]}
        assert got == expected


def test_space_attributes_are_copied_per_index(board, track):
    """C-1: corners and their stop counts, and every space attribute, per index."""
    for attr in ("corner", "lane", "progress", "kind", "hazard", "tunnel", "grid", "box", "level"):
        column = getattr(board, attr)
        assert column == tuple(track.space(sid)[attr] for sid in board.ids), attr
    assert board.stops == {1: 2}
    assert board.lap_length == track.lap_length


def test_touching_matches_the_track_contacts(board, track):
    for i, sid in enumerate(board.ids):
        assert sorted(board.ids[j] for j in board.touching[i]) == sorted(track.touching(sid))


def test_step_codes_separate_straight_and_corner_lane_changes(board):
    """M-3 / M-5: only a lane change between two non-corner spaces is a straight one."""
    ix = board.index

    def code(a, b):
        return dict(board.moves[ix[a]])[ix[b]]

    assert code(0, 4) == STEP_AHEAD
    assert code(0, 5) == STEP_STRAIGHT_LANE_CHANGE
    assert code(4, 9) == STEP_CORNER_LANE_CHANGE  # entering the corner diagonally
    assert code(8, 13) == STEP_CORNER_LANE_CHANGE  # inside the corner
    assert code(1, 6) == STEP_PIT_IN
    assert code(6, 11) == STEP_BOX_IN
    assert code(8, 20) == STEP_TUNNEL
    assert board.tunnel_exit[ix[8]] == ix[20]
    assert board.tunnel_exit[ix[20]] == -1


def test_abreast_links_side_by_side_straight_spaces_only(board):
    """M-4 support: the spaces a car passes while beside them; corners and pits excluded."""
    ix = board.index
    assert [board.ids[j] for j in board.abreast[ix[0]]] == [1]
    assert board.abreast[ix[8]] == ()  # corner space
    assert board.abreast[ix[6]] == ()  # pit lane


def test_step_lines_hold_only_steps_that_cross_a_line():
    track = from_ascii(". . .", closed=True, police=1)
    board = compile_board(track)
    ix = board.index
    assert board.step_lines == {(ix[2], ix[0]): {"finish"}, (ix[0], ix[1]): {"police"}}


def test_a_corner_without_a_stop_count_is_refused(track):
    broken = track.copy()
    del broken.graph.graph["corners"][1]
    with pytest.raises(BoardError, match="corner 1"):
        compile_board(broken)


def test_two_tunnel_steps_from_one_portal_are_refused(track):
    broken = track.copy()
    broken.graph.add_edge(8, 21, kind="tunnel", lines=frozenset())
    with pytest.raises(BoardError, match="two tunnel steps"):
        compile_board(broken)


def test_board_displays_itself(board):
    assert repr(board) == "<Board 'ascii board': 16 spaces, 1 corners, lap 6>"
    html = board._repr_html_()
    assert "<td>1</td><td>Hairpin</td><td>2</td>" in html


def test_abreast_stays_local_on_staggered_lanes():
    """M-4 support: a space beside two of the next lane does not chain along the straight."""
    rows = 2
    track = from_ascii(
        """
        . . . . .
        . . . . .
        """
    )
    for c in range(1, 5):  # lane 0 of column c is also beside lane 1 of column c - 1
        track.add_contact(c * rows, (c - 1) * rows + 1, "beside")
    board = compile_board(track)
    ix = board.index
    assert sorted(board.ids[j] for j in board.abreast[ix[2 * rows]]) == [3, 5]
    assert sorted(board.ids[j] for j in board.abreast[ix[1 * rows + 1]]) == [2, 4]


def test_abreast_and_beside_are_one_search_with_another_filter():
    """M-4 / T-2: on a straight, abreast (straight spaces) and beside (track spaces) agree.

    Both follow ``beside`` contacts lane by lane outwards; they differ only in
    the spaces they keep: corners and the pit lane never count as abreast.
    """
    track = from_ascii(
        """
        . . . 1 1 . .
        . . . 1 1 . .
        . . . 1 1 . .
        x p p p x x x
        """,
        corners={1: 1},
    )
    board = compile_board(track)
    for i, kind in enumerate(board.kind):
        straight = kind == "track" and board.corner[i] is None
        if straight:
            assert board.abreast[i] == tuple(sorted(board.beside[i]))
            assert len(board.abreast[i]) == 2  # the other two lanes of its column
        else:
            assert board.abreast[i] == ()
    corner_space = board.index[3 * 4]  # column 3, lane 0: in corner 1
    assert board.corner[corner_space] == 1
    assert len(board.beside[corner_space]) == 2
    assert board.beside[board.index[1 * 4 + 3]] == frozenset()  # the pit lane is not track
