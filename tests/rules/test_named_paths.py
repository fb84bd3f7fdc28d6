"""Paths named by a player (M-3, M-4, C-5, M-7) and refusals in plain words (M-1).

Boards are drawn with ``from_ascii``: space ids are ``column * rows + row``.
"""

from __future__ import annotations

import pytest

from fdlab.rules import IllegalMoveError, LoadedDice, Race
from fdlab.track import from_ascii

THREE_LANES = from_ascii("\n".join([". . . . . . . . . ."] * 3))  # the lesson's straight

TWO_CORNERS = from_ascii(
    """
    . . 1 1 . . 2 2 . .
    . . 1 1 . . 2 2 . .
    """,
    corners={1: 1, 2: 2},
)


def blue(track, space, roll):
    """Blue alone on ``space`` in 2nd gear, having rolled ``roll``."""
    race = Race.from_position(track, {"Blue": {"space": space, "gear": 2}}, dice=LoadedDice([roll]))
    race.play(2)
    return race


def test_m4_a_named_zigzag_is_refused():
    """M-4: out of the middle lane and back into it without overtaking anybody."""
    race = blue(THREE_LANES, 1, 4)
    before = race.state
    with pytest.raises(IllegalMoveError, match=r"returns to lane 1.*\(M-4\)"):
        race.play(to=13, path=[3, 6, 9, 13])
    assert race.state is before
    race.play(to=13, path=[4, 7, 10, 13])  # straight along the middle lane
    assert "Blue moves 4 to space 13" in race.log


def test_m3_a_named_path_with_four_lane_changes_is_refused():
    """M-3: two lane changes on straights per move, not four."""
    race = blue(THREE_LANES, 0, 4)
    with pytest.raises(IllegalMoveError, match=r"lane change 3 on straights.*\(M-3\)"):
        race.play(to=12, path=[4, 8, 10, 12])


def test_m3_a_legal_named_path_other_than_the_listed_one_is_played():
    """M-7: any legal path with the listed option's effect is accepted."""
    race = blue(THREE_LANES, 0, 4)
    listed = next(m for m in race.legal_moves() if m.destination == 13)
    other = [4, 7, 10, 13] if list(listed.path) != [4, 7, 10, 13] else [3, 7, 10, 13]
    race.play(to=13, path=other)
    assert race.state.cars[0].space == race.board.index[13]


def test_c5_a_named_lane_change_after_an_overshoot_is_refused():
    """C-5: after leaving corner 1 without its stop the car keeps its lane."""
    race = blue(TWO_CORNERS, 4, 4)
    with pytest.raises(IllegalMoveError, match=r"overshooting corner 1.*\(C-5\)"):
        race.play(to=13, path=[6, 8, 11, 13])
    race.play(to=13, path=[7, 9, 11, 13])  # the lane change on the corner's arrow
    assert race.state.cars[0].space == race.board.index[13]


def test_m7_a_named_path_must_end_on_the_destination():
    race = blue(THREE_LANES, 1, 4)
    with pytest.raises(IllegalMoveError, match=r"ends on space 10.*\(M-7\)|M-7.*ends on space 10"):
        race.play(to=13, path=[4, 7, 10])


def test_m1_a_space_too_far_ahead_on_an_open_board_is_not_behind():
    """M-1: on an open board nothing wraps; space 22 is ahead, just too far."""
    race = blue(THREE_LANES, 1, 4)
    with pytest.raises(IllegalMoveError) as refused:
        race.play(to=22)
    message = str(refused.value)
    assert "behind" not in message
    assert "7 spaces" in message and "(M-1)" in message


def test_m1_a_space_behind_is_still_called_behind():
    """M-1: a space in a column behind the car is behind it, open board or not."""
    race = blue(THREE_LANES, 10, 4)
    with pytest.raises(IllegalMoveError, match=r"space 4 is behind space 10.*\(M-1\)"):
        race.play(to=4)


def test_m1_on_a_closed_board_a_space_across_the_finish_line_is_ahead():
    """M-1: on a closed board distances wrap round the lap, both ways."""
    from fdlab.rules.board import compile_board
    from fdlab.rules.explain import explain_illegal

    board = compile_board(from_ascii(". . . . . . . . . .", closed=True))
    assert board.wraps and not compile_board(THREE_LANES).wraps
    ahead = explain_illegal(board, 8, 2, 1)
    assert "too far ahead: 3 spaces from space 8" in ahead and "(M-1)" in ahead
    assert "space 6 is behind space 8" in explain_illegal(board, 8, 2, 6)
