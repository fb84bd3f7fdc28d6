"""Move generation: one test per movement clause, and a brute-force check.

Boards are drawn with ``from_ascii``: each text row is a lane and space ids are
``column * rows + row``, so ``at(c, r)`` below names a space by its column and
lane.
"""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdlab.rules.board import STEP_AHEAD, compile_board
from fdlab.rules.explain import explain_illegal
from fdlab.rules.movement import (
    MovementError,
    MoveOption,
    MoveRules,
    Overshoot,
    OvershootMemo,
    after_move,
    check_path,
    follow_path,
    forget_searches,
    move_options,
    move_options_for_rolls,
    option_columns,
)
from fdlab.track import from_ascii, load_track


def run(track, start, roll, occupied=(), stops=0, **rules):
    """Options of a car on space id ``start``; returns (board, options)."""
    board = compile_board(track)
    ix = board.index
    options = move_options(
        board,
        ix[start],
        roll,
        MoveRules(
            occupied=frozenset(ix[o] for o in occupied),
            stops_made=stops,
            **{k: _to_index(ix, k, v) for k, v in rules.items()},
        ),
    )
    return board, options


def along(check, track, start, path, occupied=(), stops=0, **rules):
    """``check`` (follow_path or check_path) of a path given by space ids; returns (board, result)."""
    board = compile_board(track)
    ix = board.index
    result = check(
        board,
        ix[start],
        [ix[s] for s in path],
        MoveRules(
            occupied=frozenset(ix[o] for o in occupied),
            stops_made=stops,
            **{k: _to_index(ix, k, v) for k, v in rules.items()},
        ),
    )
    return board, result


def _to_index(ix, key, value):
    if key == "avoid":
        return frozenset(ix[s] for s in value)
    if key == "own_box" and value is not None:
        return ix[value]
    return value


def ends(board, options, moved=None):
    """Space ids of the destinations (with that many spaces moved, if given)."""
    return {board.ids[o.destination] for o in options if moved is None or o.moved == moved}


def at(col, row, rows):
    return col * rows + row


def path_ids(board, option):
    return [board.ids[i] for i in option.path]


# -- M-1: a move is a walk of exactly N steps, never backwards ------------------


def test_m1_every_braking_amount_is_listed_and_no_move_goes_back():
    """M-1, M-7, D-3: one call lists moved = roll .. 0 with braked = roll - moved."""
    board, options = run(from_ascii(". . . . . . ."), 3, 3)
    assert [(board.ids[o.destination], o.moved, o.braked) for o in options] == [
        (6, 3, 0),
        (5, 2, 1),
        (4, 1, 2),
        (3, 0, 3),
    ]
    for option in options:
        assert len(option.path) == option.moved
        assert not option.blocked
    assert options[-1].path == ()


def assert_blocked_only_at_the_farthest(options):
    """D-4 / A-6: a blocked car first moves as far as it can; stopping shorter is braking."""
    farthest = max(o.moved for o in options)
    assert [o.blocked for o in options] == [o.moved == farthest for o in options]
    assert any(o.blocked for o in options)


def test_m1_roll_longer_than_the_track_stops_at_its_end():
    """M-1 / D-4: an open board ends; the car cannot move the full roll."""
    board, options = run(from_ascii(". . ."), 0, 5)
    assert max(o.moved for o in options) == 2
    assert_blocked_only_at_the_farthest(options)


def test_bad_arguments_raise_movement_error():
    board = compile_board(from_ascii(". . ."))
    with pytest.raises(MovementError, match="start 9"):
        move_options(board, 9, 1)
    with pytest.raises(MovementError, match="negative"):
        move_options(board, 0, -1)


# -- M-2: no jumping over cars ---------------------------------------------------


def test_m2_cannot_pass_through_a_car_in_a_single_lane():
    """M-2 and D-4 / A-6: the car stops behind the car ahead, blocked; a shorter stop brakes."""
    board, options = run(from_ascii(". . . . . ."), 0, 4, occupied=[3])
    assert ends(board, options) == {0, 1, 2}
    assert_blocked_only_at_the_farthest(options)
    assert options[0].braked == 2


def test_m2_goes_around_a_car_using_the_other_lane():
    """M-2: with two lanes the car goes around instead of through."""
    rows = 2
    track = from_ascii(
        """
        . . . . .
        . . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 3, occupied=[at(1, 0, rows)])
    full = [o for o in options if o.moved == 3]
    assert ends(board, full) == {at(3, 0, rows), at(3, 1, rows)}
    assert all(at(1, 0, rows) not in path_ids(board, o) for o in options)
    assert not any(o.blocked for o in options)


def test_m2_a_move_never_ends_on_a_car():
    """M-2: the occupied space itself is never a destination."""
    rows = 2
    track = from_ascii(
        """
        . . . .
        . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 2, occupied=[at(2, 1, rows)])
    assert at(2, 1, rows) not in ends(board, options)


# -- M-3: at most two lane changes on straights ----------------------------------


FOUR_LANES = """
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
"""


def test_m3_a_third_lane_change_is_not_offered():
    """M-3: lane 0 to lane 3 takes three lane changes: not with the default limit of two."""
    rows = 4
    track = from_ascii(FOUR_LANES)
    board, options = run(track, at(0, 0, rows), 4)
    assert max(o.lane_changes for o in options) == 2
    assert not {at(c, 3, rows) for c in range(6)} & ends(board, options)
    board, options = run(track, at(0, 0, rows), 4, max_lane_changes=3)
    assert at(4, 3, rows) in ends(board, options)
    assert {o.lane_changes for o in options if board.ids[o.destination] == at(4, 3, rows)} == {3}


def test_m3_flying_start_limit_is_a_parameter():
    """M-3 with max_lane_changes=0: the car keeps its lane."""
    rows = 4
    board, options = run(from_ascii(FOUR_LANES), at(0, 1, rows), 3, max_lane_changes=0)
    assert ends(board, options) == {at(c, 1, rows) for c in range(4)}


def test_m3_representative_path_uses_fewest_lane_changes():
    """M-3 bookkeeping: of two paths to the same space, the one with fewer changes is shown."""
    rows = 2
    track = from_ascii(
        """
        . . . .
        . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 3)
    option = next(o for o in options if board.ids[o.destination] == at(3, 1, rows))
    assert option.lane_changes == 1


# -- M-4: no zig-zag except to overtake ---------------------------------------------


ZIGZAG = """
    . x . .
    . . . .
"""


def test_m4_zigzag_around_a_gap_is_refused():
    """M-4: leaving lane 0 and coming back to it without passing a car is a zig-zag."""
    rows = 2
    board, options = run(from_ascii(ZIGZAG), at(0, 0, rows), 2)
    assert at(2, 0, rows) not in ends(board, options)
    assert at(2, 1, rows) in ends(board, options)


def test_m4_zigzag_is_allowed_to_overtake_a_car():
    """M-4: going around a car and back into its lane is overtaking, which is allowed."""
    rows = 2
    track = from_ascii(
        """
        . . . .
        . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 2, occupied=[at(1, 0, rows)])
    option = next(o for o in options if board.ids[o.destination] == at(2, 0, rows))
    assert path_ids(board, option) == [at(1, 1, rows), at(2, 0, rows)]
    assert option.lane_changes == 2


def test_m4_passing_a_car_elsewhere_does_not_justify_the_return():
    """M-4: the car passed must be in the lane the car returns to."""
    rows = 3
    track = from_ascii(
        """
        . x . .
        . . . .
        . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 2, occupied=[at(1, 2, rows)])
    assert at(2, 0, rows) not in ends(board, options)


def test_m4_street_rules_may_steer_around_danger_spaces():
    """M-4 / X-3: with the danger spaces in ``avoid`` the car may dodge one and come back."""
    rows = 2
    track = from_ascii(
        """
        . D . .
        . . . .
        """
    )
    dodge = (at(2, 0, rows), 2, 0)
    board, options = run(track, at(0, 0, rows), 2)
    found = {(board.ids[o.destination], o.moved, len(o.danger)) for o in options}
    assert dodge not in found
    assert (at(2, 0, rows), 2, 1) in found
    board, options = run(track, at(0, 0, rows), 2, avoid=[at(1, 0, rows)])
    found = {(board.ids[o.destination], o.moved, len(o.danger)) for o in options}
    assert dodge in found and (at(2, 0, rows), 2, 1) in found


def test_m4_m5_coming_back_to_a_lane_inside_a_corner_is_not_a_zigzag():
    """M-4 / M-5: the zig-zag rule is for straights; a corner arrow may take the car back."""
    rows = 2
    track = from_ascii(
        """
        . x 1 .
        . . 1 .
        """,
        corners={1: 1},
    )
    board, options = run(track, at(0, 0, rows), 2)
    option = next(o for o in options if board.ids[o.destination] == at(2, 0, rows))
    assert path_ids(board, option) == [at(1, 1, rows), at(2, 0, rows)]
    assert option.lane_changes == 1


# -- M-5: only the arrows inside corners ----------------------------------------------


CORNER = """
    . 1 1 1 .
    . 1 1 1 .
"""


def test_m5_no_diagonal_in_a_corner_without_an_arrow():
    """M-5: a corner drawn without diagonal arrows keeps the car in its lane inside it."""
    rows = 2
    track = from_ascii(CORNER, corners={1: 1}, corner_lane_changes=False)
    board, options = run(track, at(1, 0, rows), 2, stops=0)
    assert ends(board, options) == {at(1, 0, rows), at(2, 0, rows), at(3, 0, rows)}


def test_m5_corner_arrows_do_not_count_as_lane_changes():
    """M-5: the arrows of a wide corner are free of the M-3 limit."""
    rows = 2
    track = from_ascii(CORNER, corners={1: 1})
    board, options = run(track, at(1, 0, rows), 2, stops=0, max_lane_changes=0)
    assert at(3, 1, rows) in ends(board, options)
    assert all(o.lane_changes == 0 for o in options)


# -- M-6: tunnels ------------------------------------------------------------------------


def test_m6_tunnel_pair_counts_as_one_space():
    """M-6 / X-5: entering the entry portal continues from the exit; the pair is one space."""
    track = from_ascii(". . D . . . . . .", tunnels={"2": (2, 6)})
    board, options = run(track, 0, 3)
    by_moved = {o.moved: o for o in options}
    assert board.ids[by_moved[3].destination] == 7
    assert path_ids(board, by_moved[3]) == [1, 2, 6, 7]
    assert board.ids[by_moved[2].destination] == 6  # never ends on the entry portal
    assert 2 not in ends(board, options)
    assert by_moved[3].danger == ()  # no die for tunnel spaces


def test_m6_a_car_on_the_exit_portal_closes_the_tunnel():
    """M-6 with M-2: the car would pass through the exit portal's car."""
    track = from_ascii(". . . . . . . . .", tunnels={"2": (2, 6)})
    board, options = run(track, 0, 3, occupied=[6])
    assert ends(board, options) == {0, 1}
    assert_blocked_only_at_the_farthest(options)


# -- C-2 .. C-6: corners -------------------------------------------------------------------


STRAIGHT_CORNER_STRAIGHT = """
    . . 1 1 . . 2 2 . .
    . . 1 1 . . 2 2 . .
"""


def test_c2_c6_leaving_a_corner_after_the_stops_resets_it():
    """C-2 / C-6: with the stops made the car leaves freely and the corner is reported as left."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(3, 0, rows), 2, stops=1)
    for option in options:
        assert option.overshoots == ()
        assert option.corners_left == ((1,) if option.moved else ())
    stay = options[-1]
    assert stay.moved == 0 and stay.stop_counts


def test_c3_overshoot_counts_the_spaces_beyond_the_exit_line():
    """C-3: leaving corner 1 (1 stop) without stopping: one Overshoot per space beyond."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(0, 0, rows), 5)
    straight = next(
        o for o in options if o.moved == 5 and board.ids[o.destination] == at(5, 0, rows)
    )
    assert straight.overshoots == (Overshoot(corner=1, stops_made=0, required=1, beyond=2),)
    inside = [o for o in options if o.moved == 3]
    assert all(o.overshoots == () for o in inside)


def test_c3_overshoot_reports_the_stops_already_made():
    """C-3 / C-4: a 2-stop corner left after one stop reports 1 of 2 (the engine decides C-4)."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(6, 0, rows), 3, stops=1)
    option = options[0]
    assert option.moved == 3
    assert option.overshoots == (Overshoot(corner=2, stops_made=1, required=2, beyond=2),)


def test_c5_after_an_overshoot_the_lane_is_locked():
    """C-5: no lane change for the rest of the move after overshooting."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(3, 0, rows), 3, stops=0)
    assert ends(board, options) == {at(c, 0, rows) for c in range(3, 7)}
    legal = run(track, at(3, 0, rows), 3, stops=1)[1]
    assert at(6, 1, rows) in ends(board, legal)


def test_c5_the_stop_in_the_next_corner_does_not_count():
    """C-5: a move that overshoots corner 1 and ends in corner 2 gets no stop there."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(3, 0, rows), 4, stops=0)
    in_corner_two = [o for o in options if board.corner[o.destination] == 2]
    assert in_corner_two and all(not o.stop_counts for o in in_corner_two)
    board, options = run(track, at(3, 0, rows), 4, stops=1)
    in_corner_two = [o for o in options if board.corner[o.destination] == 2]
    assert in_corner_two and all(o.stop_counts for o in in_corner_two)


def test_c5_locked_lane_blocked_by_a_car_means_braking():
    """C-5 / D-4: after the overshoot the car may not go around: it brakes behind the car."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(3, 0, rows), 4, stops=0, occupied=[at(6, 0, rows)])
    assert max(o.moved for o in options) == 2
    assert_blocked_only_at_the_farthest(options)


def test_c_passing_through_a_corner_is_an_overshoot_with_no_stop():
    """C-3: a corner entered and left in the same move was left with 0 stops."""
    rows = 2
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    board, options = run(track, at(0, 0, rows), 9)
    full = [o for o in options if o.moved == 9]
    assert {tuple((x.corner, x.stops_made, x.beyond) for x in o.overshoots) for o in full} == {
        ((1, 0, 6), (2, 0, 2))
    }


# -- D-4, P-5: blocked cars ------------------------------------------------------------------


def test_d4_fully_blocked_car_stays_and_every_option_says_blocked():
    """D-4: a car boxed in by cars ahead cannot move at all; the only option is moved 0."""
    rows = 2
    track = from_ascii(
        """
        . . . .
        . . . .
        """
    )
    board, options = run(track, at(0, 0, rows), 3, occupied=[at(1, 0, rows), at(1, 1, rows)])
    assert len(options) == 1
    (stay,) = options
    assert stay.moved == 0 and stay.blocked and stay.braked == 3 and stay.path == ()


# -- P: pit lane -----------------------------------------------------------------------------


PIT = """
    . . . . . . . .
    x p p p p x x x
    x x B x B x x x
"""
# track: ids 0,3,6,...; pit lane 4, 7, 10, 13; box of car 1 is 8 (off 4), of car 2 is 14.


def test_p_pit_lane_only_when_allowed():
    """P-2 / P-7: the pit_in step is used only when the car may enter the pit lane."""
    board, options = run(from_ascii(PIT), 0, 3)
    assert not any(board.kind[o.destination] == "pit" for o in options)
    board, options = run(from_ascii(PIT), 0, 3, pit_allowed=True)
    pit = [o for o in options if board.kind[o.destination] == "pit"]
    assert ends(board, pit) == {4, 7, 10}
    assert all("pit_entry" in o.lines for o in pit)


def test_p2_own_box_ends_the_move_without_braking():
    """P-2: entering the own box ends the move with braked 0, whatever the roll."""
    track = from_ascii(PIT)
    board, options = run(track, 0, 6, pit_allowed=True, own_box=8)
    boxed = [o for o in options if o.boxed]
    assert len(boxed) == 1
    (option,) = boxed
    assert board.ids[option.destination] == 8 and option.moved == 2 and option.braked == 0
    assert not option.blocked
    assert 14 not in ends(board, options)  # another car's box is never entered


def test_p5_pit_lane_car_waits_behind_a_car_ahead():
    """P-5: one lane, no passing; the waiting car is blocked (the engine charges nothing)."""
    board, options = run(from_ascii(PIT), 4, 5, occupied=[10])
    assert ends(board, options) == {4, 7}
    assert_blocked_only_at_the_farthest(options)


def test_p_leaving_the_pit_lane_crosses_the_exit_line():
    """P-3 geometry: the pit_out step rejoins the track and crosses pit_exit."""
    board, options = run(from_ascii(PIT), 13, 2)
    assert ends(board, options, moved=2) == {18}
    assert "pit_exit" in options[0].lines


def test_lines_crossed_include_the_finish_line():
    """S-4 / P-1 bookkeeping: the finish line of a closed board is reported."""
    board, options = run(from_ascii(". . . . .", closed=True), 3, 3)
    assert "finish" in options[0].lines
    assert "finish" not in options[-1].lines


def test_x3_danger_spaces_are_listed():
    """X-3: each danger space moved over or ended on is listed once."""
    board, options = run(from_ascii(". D . D ."), 0, 4)
    assert [board.ids[i] for i in options[0].danger] == [1, 3]


def test_describe_names_spaces_and_costs():
    board, options = run(from_ascii(". 1 . .", corners={1: 1}), 0, 3)
    text = options[0].describe(board)
    assert text.startswith("to space 3 via 1, 2, 3: moved 3")
    assert "overshoot corner 1 by 2 (0/1 stops)" in text


# -- explain_illegal -------------------------------------------------------------------------


def explain(track, start, roll, destination, occupied=(), stops=0, **rules):
    board = compile_board(track)
    ix = board.index
    return explain_illegal(
        board,
        ix[start],
        roll,
        ix[destination],
        MoveRules(
            occupied=frozenset(ix[o] for o in occupied),
            stops_made=stops,
            **{k: _to_index(ix, k, v) for k, v in rules.items()},
        ),
    )


def test_explain_names_the_clause():
    """M-2, M-3, M-4, M-5, M-6, C-5, P-2: each refusal names its clause."""
    rows = 2
    two = from_ascii(
        """
        . . . . .
        . . . . .
        """
    )
    assert explain(two, 0, 2, at(2, 0, rows)) is None
    assert "(M-2)" in explain(two, 0, 2, at(1, 0, rows), occupied=[at(1, 0, rows)])
    assert "(M-2)" in explain(two, 0, 2, at(2, 0, rows), occupied=[at(1, 0, rows), at(1, 1, rows)])
    assert "(M-1)" in explain(two, 0, 2, at(4, 0, rows))
    assert "behind space 4" in explain(two, at(2, 0, rows), 2, 0)
    assert "(M-1)" in explain(two, at(2, 0, rows), 2, 0)
    assert "(M-3)" in explain(from_ascii(FOUR_LANES), 0, 4, at(4, 3, 4))
    assert "(M-4)" in explain(from_ascii(ZIGZAG), 0, 2, at(2, 0, rows))
    corner = from_ascii(CORNER, corners={1: 1}, corner_lane_changes=False)
    assert "(M-5)" in explain(corner, at(1, 0, rows), 2, at(3, 1, rows))
    tunnel = from_ascii(". . . . . . . . .", tunnels={"2": (2, 6)})
    assert "(M-6)" in explain(tunnel, 0, 3, 2)
    track = from_ascii(STRAIGHT_CORNER_STRAIGHT, corners={1: 1, 2: 2}, corner_lane_changes=False)
    assert "(C-5)" in explain(track, at(3, 0, rows), 3, at(6, 1, rows))
    assert "(P-2)" in explain(from_ascii(PIT), 0, 4, 14, pit_allowed=True, own_box=8)
    assert "P-7" in explain(from_ascii(PIT), 0, 3, 7)


# -- brute force reference ---------------------------------------------------------------------


def brute_force(
    track, start, roll, occupied, stops_made, pit_allowed, own_box, avoid, max_lc, beside=None
):
    """Every walk from ``start``, checked clause by clause; obviously right, exponentially slow.

    Returns ``{(dest, moved, overshoots, n_danger, boxed): fewest lane changes}``, ids
    throughout, overshoots as tuples ``(corner, stops_made, required, beyond)``.
    """
    found = {}
    for path in walks(track, start, roll, pit_allowed, own_box):
        judged = judge(track, start, path, occupied, stops_made, avoid, max_lc, beside)
        if judged is not None:
            key, lane_changes, _, _ = judged
            found[key] = min(found.get(key, max_lc + 1), lane_changes)
    return found


def walks(track, start, roll, pit_allowed, own_box):
    """Every walk of at most ``roll`` spaces (tunnel pairs as one), as lists of space ids."""
    graph = track.graph
    result = []

    def extend(path, moved):
        result.append(path)
        if moved == roll:
            return
        here = path[-1] if path else start
        for v, data in graph.adj[here].items():
            kind = data["kind"]
            if kind == "tunnel" or (kind == "pit_in" and not pit_allowed):
                continue
            if kind == "box_in":
                if v == own_box:
                    result.append(path + [v])
                continue
            exits = [w for w, d in graph.adj[v].items() if d["kind"] == "tunnel"]
            extend(path + [v, *exits[:1]], moved + 1)

    extend([], 0)
    return result


def judge(track, start, path, occupied, stops_made, avoid, max_lc, beside=None):
    """Check one walk against M-2..M-6 and C-3/C-5 directly.

    ``beside(s, o)`` says whether a car on ``s`` is side by side with space ``o``
    (M-4 overtaking); by default, on text boards, when they share a column.
    Returns None for an illegal walk, else ``(key, lane changes, danger spaces, lines)``
    with the key of :func:`brute_force`.
    """
    graph = track.graph
    node = graph.nodes
    previous = [start, *path][: len(path)]
    kinds = [graph.edges[a, b]["kind"] for a, b in zip(previous, path, strict=True)]
    if any(s in occupied and s != start for s in path):
        return None  # M-2
    straight = [
        k == "lane_change" and node[a]["corner"] is None and node[b]["corner"] is None
        for k, a, b in zip(kinds, previous, path, strict=True)
    ]
    if sum(straight) > max_lc:
        return None  # M-3

    def straight_track(s):
        return node[s]["kind"] == "track" and node[s]["corner"] is None

    def passed_in_lane(spaces, lane):
        blockers = [
            o
            for o in set(occupied) | set(avoid)
            if o != start and straight_track(o) and node[o]["lane"] == lane
        ]
        return any(
            straight_track(s) and (beside(s, o) if beside else node[s]["x"] == node[o]["x"])
            for s in spaces
            for o in blockers
        )

    overshoots = []
    left_start_visit = node[start]["corner"] is None
    done = 0
    for i, (kind, a, b) in enumerate(zip(kinds, previous, path, strict=True)):
        ca, cb = node[a]["corner"], node[b]["corner"]
        if ca is not None and cb != ca:
            made = stops_made if (ca == node[start]["corner"] and not left_start_visit) else 0
            if ca == node[start]["corner"]:
                left_start_visit = True
            need = track.corners[ca]["stops"]
            if made < need:
                overshoots.append((ca, made, need, done))
        if overshoots and kind in ("lane_change", "pit_in"):
            return None  # C-5: not while overshooting, nor after
        if straight[i]:  # M-4: is this a return into a lane left on this straight?
            lane = node[b]["lane"]
            for j in range(i - 1, -1, -1):
                if node[path[j]]["corner"] is not None:
                    break
                if straight[j] and node[previous[j]]["lane"] == lane:
                    if not passed_in_lane(path[j:i], lane):
                        return None
                    break
        if kind != "tunnel":
            done += 1
    boxed = bool(kinds) and kinds[-1] == "box_in"
    danger = [s for s in path if node[s]["hazard"] == "danger" and node[s]["tunnel"] is None]
    lines = set()
    for a, b in zip(previous, path, strict=True):
        lines |= graph.edges[a, b]["lines"]
    key = (
        path[-1] if path else start,
        done,
        tuple((c, m, r, done - at_) for c, m, r, at_ in overshoots),
        len(danger),
        boxed,
    )
    return key, sum(straight), danger, lines


def check_representatives(
    track, board, start, options, occupied, stops, avoid, max_lc, beside=None
):
    """Each option's path is a legal walk with exactly the option's attributes."""
    for option in options:
        path = [board.ids[i] for i in option.path]
        judged = judge(track, start, path, occupied, stops, avoid, max_lc, beside)
        assert judged is not None, option
        key, lane_changes, danger, lines = judged
        assert key == option_key(board, option)
        assert lane_changes == option.lane_changes
        assert danger == [board.ids[i] for i in option.danger]
        assert lines == option.lines


def option_key(board, option: MoveOption):
    ids = board.ids
    return (
        ids[option.destination],
        option.moved,
        tuple((x.corner, x.stops_made, x.required, x.beyond) for x in option.overshoots),
        len(option.danger),
        option.boxed,
    )


@st.composite
def boards(draw):
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(5, 9))
    corners = {}
    corner_cols = {}
    for cid in (1, 2):
        if draw(st.booleans()):
            first = draw(st.integers(1, cols - 2))
            width = draw(st.integers(1, 3))
            corners[cid] = draw(st.integers(1, 3))
            for c in range(first, min(first + width, cols)):
                corner_cols.setdefault(c, cid)
    grid = []
    for _ in range(rows):
        row = []
        for c in range(cols):
            token = draw(st.sampled_from([".", ".", ".", ".", ".", "x", "D"]))
            if c in corner_cols and token != "x":
                token = str(corner_cols[c])
            row.append(token)
        grid.append(row)
    used = {int(t) for row in grid for t in row if t.isdigit()}
    corners = {cid: stops for cid, stops in corners.items() if cid in used}
    cells = [c * rows + r for r in range(rows) for c in range(cols) if grid[r][c] != "x"]
    if not cells:
        grid[0][0] = "."
        cells = [0]
    tunnels = {}
    if len(cells) > 3 and draw(st.booleans()):
        entry, exit_ = sorted(
            draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
        )
        if entry // rows < exit_ // rows:
            tunnels = {"7": (entry, exit_)}
    track = from_ascii(
        "\n".join(" ".join(row) for row in grid),
        corners=corners,
        closed=draw(st.booleans()),
        tunnels=tunnels,
        corner_lane_changes=draw(st.booleans()),
    )
    return track


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(track=boards(), data=st.data())
def test_move_options_match_brute_force(track, data):
    """M-1..M-6, C-3, C-5, X-3, D-4: the search equals a plain DFS over all walks."""
    spaces = sorted(track)
    entries = {u for u, _, kind in track.graph.edges(data="kind") if kind == "tunnel"}
    starts = [s for s in spaces if s not in entries]
    start = data.draw(st.sampled_from(starts))
    occupied = frozenset(data.draw(st.lists(st.sampled_from(spaces), max_size=4))) - {start}
    roll = data.draw(st.integers(0, 6))
    stops = data.draw(st.integers(0, 2))
    max_lc = data.draw(st.integers(0, 3))
    danger = frozenset(s for s in spaces if track.space(s)["hazard"] == "danger")
    avoid = danger if data.draw(st.booleans()) else frozenset()
    expected = brute_force(track, start, roll, occupied, stops, False, None, avoid, max_lc)

    board, options = run(track, start, roll, occupied, stops, avoid=avoid, max_lane_changes=max_lc)
    got = {option_key(board, o): o.lane_changes for o in options}
    assert got == expected
    check_representatives(track, board, start, options, occupied, stops, avoid, max_lc)
    full = any(key[1] == roll for key in expected)
    farthest = max(key[1] for key in expected)
    for option in options:
        assert option.blocked == (not full and option.moved == farthest)
        assert option.braked == roll - option.moved
    assert options == sorted(options, key=lambda o: (-o.moved, o.destination, len(o.danger)))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_pit_lane_matches_brute_force(data):
    """P-2, P-5, P-7 on a board with a pit lane and two boxes, against the plain DFS."""
    track = from_ascii(PIT)
    spaces = sorted(track)
    start = data.draw(st.sampled_from(spaces))
    occupied = frozenset(data.draw(st.lists(st.sampled_from(spaces), max_size=3))) - {start}
    roll = data.draw(st.integers(0, 7))
    pit_allowed = data.draw(st.booleans())
    own_box = data.draw(st.sampled_from([None, 8, 14]))
    expected = brute_force(track, start, roll, occupied, 0, pit_allowed, own_box, frozenset(), 2)
    board, options = run(track, start, roll, occupied, 0, pit_allowed=pit_allowed, own_box=own_box)
    assert {option_key(board, o): o.lane_changes for o in options} == expected
    check_representatives(track, board, start, options, occupied, 0, frozenset(), 2)
    full = any(key[1] == roll or key[4] for key in expected)
    farthest = max(key[1] for key in expected)
    for option in options:
        assert option.blocked == (not full and not option.boxed and option.moved == farthest)
        assert option.braked == (0 if option.boxed else roll - option.moved)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(track=boards(), data=st.data())
def test_explain_illegal_agrees_with_move_options(track, data):
    """M-7: every space is either a listed destination or explained with a clause id."""
    board = compile_board(track)
    entries = {i for i, t in enumerate(board.tunnel_exit) if t >= 0}
    start = data.draw(st.sampled_from([i for i in range(len(board)) if i not in entries]))
    occupied = frozenset(data.draw(st.lists(st.integers(0, len(board) - 1), max_size=3)))
    occupied -= {start}
    roll = data.draw(st.integers(0, 6))
    stops = data.draw(st.integers(0, 2))
    rules = MoveRules(occupied=occupied, stops_made=stops)
    destinations = {o.destination for o in move_options(board, start, roll, rules)}
    for space in range(len(board)):
        reason = explain_illegal(board, start, roll, space, rules)
        if space in destinations:
            assert reason is None
        else:
            assert re.search(r"\((M|C|P)-\d", reason), reason


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "tracks").glob("*.json"))


@pytest.fixture(scope="module")
def shipped_boards():
    from fdlab.track.io import load_track

    return {path.stem: compile_board(load_track(path)) for path in SHIPPED}


@pytest.mark.skipif(not SHIPPED, reason="no shipped boards in tracks/")
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_shipped_boards_match_brute_force(shipped_boards, data):
    """M-1..M-6, C-3, C-5, P-2, X-3 on the real boards (staggered lanes, arrows, tunnels, pits).

    Short rolls keep the plain DFS fast; side by side (M-4) is taken from
    ``Board.abreast`` since real boards have no columns.
    """
    board = shipped_boards[data.draw(st.sampled_from(sorted(shipped_boards)))]
    track = board.track
    ids = board.ids
    entries = {i for i, t in enumerate(board.tunnel_exit) if t >= 0}
    start = data.draw(st.sampled_from([i for i in range(len(board)) if i not in entries]))
    ahead = [i for i in range(len(board)) if i != start]
    occupied = frozenset(data.draw(st.lists(st.sampled_from(ahead), max_size=5)))
    roll = data.draw(st.integers(0, 6))
    stops = data.draw(st.integers(0, 2))
    pit_allowed = data.draw(st.booleans())
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    own_box = data.draw(st.sampled_from([None, *boxes]))
    danger = frozenset(i for i, bad in enumerate(board.danger_space) if bad)
    avoid = danger if data.draw(st.booleans()) else frozenset()
    # let some positions sit next to a car: occupy spaces just ahead of the start too
    near = sorted({j for j, _, _ in board.steps[start]})
    occupied |= frozenset(data.draw(st.lists(st.sampled_from(near), max_size=1)) if near else [])

    def beside(s, o):
        return board.index[o] in board.abreast[board.index[s]]

    occupied_ids = {ids[i] for i in occupied}
    avoid_ids = {ids[i] for i in avoid}
    box_id = None if own_box is None else ids[own_box]
    expected = brute_force(
        track, ids[start], roll, occupied_ids, stops, pit_allowed, box_id, avoid_ids, 2, beside
    )
    options = move_options(
        board,
        start,
        roll,
        MoveRules(
            occupied=occupied,
            stops_made=stops,
            pit_allowed=pit_allowed,
            own_box=own_box,
            avoid=avoid,
        ),
    )
    assert {option_key(board, o): o.lane_changes for o in options} == expected
    check_representatives(
        track, board, ids[start], options, occupied_ids, stops, avoid_ids, 2, beside
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(track=boards(), data=st.data())
def test_options_for_several_rolls_equal_one_call_per_roll(track, data):
    """M-7 / D-3: one search for the largest roll gives every smaller roll's options."""
    board = compile_board(track)
    entries = {i for i, t in enumerate(board.tunnel_exit) if t >= 0}
    start = data.draw(st.sampled_from([i for i in range(len(board)) if i not in entries]))
    occupied = frozenset(data.draw(st.lists(st.integers(0, len(board) - 1), max_size=4)))
    rolls = data.draw(st.lists(st.integers(0, 8), min_size=1, max_size=4))
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    own_box = data.draw(st.sampled_from([None, *boxes]))
    rules = MoveRules(
        occupied=occupied - {start},
        stops_made=data.draw(st.integers(0, 2)),
        pit_allowed=own_box is not None,
        own_box=own_box,
    )
    by_roll = move_options_for_rolls(board, start, rolls, rules)
    assert sorted(by_roll) == sorted(set(rolls))
    for roll, options in by_roll.items():
        forget_searches()  # a search of this roll alone, not the one just made
        alone = move_options(board, start, roll, rules)
        assert options == alone
        assert [(type(o.braked), type(o.blocked)) for o in options] == [
            (type(o.braked), type(o.blocked)) for o in alone
        ]


@pytest.mark.skipif(not SHIPPED, reason="no shipped boards in tracks/")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_shipped_boards_options_for_several_rolls(shipped_boards, data):
    """M-7 / D-3 / P-2: a 6th-gear search gives every face's options, pit lane and boxes too."""
    board = shipped_boards[data.draw(st.sampled_from(sorted(shipped_boards)))]
    entries = {i for i, t in enumerate(board.tunnel_exit) if t >= 0}
    start = data.draw(st.sampled_from([i for i in range(len(board)) if i not in entries]))
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    own_box = data.draw(st.sampled_from([None, *boxes]))
    ahead = [i for i in range(len(board)) if i != start]
    rules = MoveRules(
        occupied=frozenset(data.draw(st.lists(st.sampled_from(ahead), max_size=5))),
        stops_made=data.draw(st.integers(0, 2)),
        pit_allowed=own_box is not None,
        own_box=own_box,
    )
    rolls = data.draw(st.lists(st.integers(0, 30), min_size=2, max_size=5))
    by_roll = move_options_for_rolls(board, start, rolls, rules)
    for roll, options in by_roll.items():
        forget_searches()
        assert options == move_options(board, start, roll, rules)


def test_options_for_rolls_refuses_a_negative_roll():
    board = compile_board(from_ascii(". . ."))
    with pytest.raises(MovementError, match="negative"):
        move_options_for_rolls(board, 0, [2, -1])
    assert move_options_for_rolls(board, 0, []) == {}


# -- check_path: one named path, judged like the search -----------------------------------------


def random_walk(draw, track, start, length):
    """A walk along any of the track's steps (tunnel, pit and box steps too), ids."""
    path = []
    here = start
    for _ in range(length):
        nexts = sorted(track.graph.adj[here])
        if not nexts:
            break
        here = draw(st.sampled_from(nexts))
        path.append(here)
    return path


def judged_legal(track, start, path, occupied, stops, pit_allowed, own_box, avoid, max_lc):
    """The brute force's verdict on one walk: it lists it and every clause passes."""
    listed = path in walks(track, start, len(path), pit_allowed, own_box)
    return listed and judge(track, start, path, occupied, stops, avoid, max_lc) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(track=boards(), data=st.data())
def test_check_path_matches_brute_force(track, data):
    """M-1..M-6, C-3, C-5: check_path accepts a walk exactly when the brute force does."""
    spaces = sorted(track)
    entries = {u for u, _, kind in track.graph.edges(data="kind") if kind == "tunnel"}
    start = data.draw(st.sampled_from([s for s in spaces if s not in entries]))
    occupied = frozenset(data.draw(st.lists(st.sampled_from(spaces), max_size=3))) - {start}
    path = random_walk(data.draw, track, start, data.draw(st.integers(0, 6)))
    stops = data.draw(st.integers(0, 2))
    max_lc = data.draw(st.integers(0, 3))
    danger = frozenset(s for s in spaces if track.space(s)["hazard"] == "danger")
    avoid = danger if data.draw(st.booleans()) else frozenset()
    board, walk = along(
        follow_path, track, start, path, occupied, stops, avoid=avoid, max_lane_changes=max_lc
    )
    legal = judged_legal(track, start, path, occupied, stops, False, None, avoid, max_lc)
    assert (walk.reason is None) == legal, walk.reason
    if legal:
        key, lane_changes, danger_ids, _ = judge(track, start, path, occupied, stops, avoid, max_lc)
        summary = (
            path[-1] if path else start,
            walk.moved,
            tuple((x.corner, x.stops_made, x.required, x.beyond) for x in walk.overshoots),
            len(walk.danger),
            walk.boxed,
        )
        assert summary == key
        assert walk.lane_changes == lane_changes
    else:
        assert re.search(r"\((M|C|P)-\d", walk.reason), walk.reason


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_check_path_pit_lane_matches_brute_force(data):
    """P-2, P-7: the pit lane only when allowed, only the own box, which ends the move."""
    track = from_ascii(PIT)
    spaces = sorted(track)
    start = data.draw(st.sampled_from(spaces))
    occupied = frozenset(data.draw(st.lists(st.sampled_from(spaces), max_size=2))) - {start}
    path = random_walk(data.draw, track, start, data.draw(st.integers(0, 7)))
    pit_allowed = data.draw(st.booleans())
    own_box = data.draw(st.sampled_from([None, 8, 14]))
    _, reason = along(
        check_path, track, start, path, occupied, 0, pit_allowed=pit_allowed, own_box=own_box
    )
    legal = judged_legal(track, start, path, occupied, 0, pit_allowed, own_box, frozenset(), 2)
    assert (reason is None) == legal, reason


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_m7_follow_path_sums_every_listed_path_up_like_its_option(data):
    """M-7, M-3, M-4, C-3, C-5, X-3, P-2: one bookkeeping for the search and the checker.

    follow_path walks a named path through the search itself; every option's
    representative path is legal and sums up to the option's spaces moved,
    lane changes, overshoots, danger spaces and box.
    """
    pit = data.draw(st.booleans())
    track = from_ascii(PIT) if pit else data.draw(boards())
    board = compile_board(track)
    entries = {i for i, t in enumerate(board.tunnel_exit) if t >= 0}
    start = data.draw(st.sampled_from([i for i in range(len(board)) if i not in entries]))
    occupied = frozenset(data.draw(st.lists(st.integers(0, len(board) - 1), max_size=4)))
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    danger = frozenset(i for i, bad in enumerate(board.danger_space) if bad)
    rules = MoveRules(
        occupied=occupied - {start},
        stops_made=data.draw(st.integers(0, 2)),
        pit_allowed=data.draw(st.booleans()),
        own_box=data.draw(st.sampled_from([None, *boxes])),
        avoid=danger if data.draw(st.booleans()) else frozenset(),
        max_lane_changes=data.draw(st.integers(0, 3)),
    )
    for option in move_options(board, start, data.draw(st.integers(0, 8)), rules):
        walk = follow_path(board, start, option.path, rules)
        assert walk.reason is None, (option, walk.reason)
        assert (walk.moved, walk.lane_changes, walk.overshoots, walk.danger, walk.boxed) == (
            option.moved,
            option.lane_changes,
            option.overshoots,
            option.danger,
            option.boxed,
        )


def test_check_path_refuses_a_jump_and_a_path_through_a_tunnel_entry():
    """M-1 and M-6: a path is one step at a time and names both tunnel portals."""
    board = compile_board(from_ascii(". . D . . . . . .", tunnels={"2": (2, 6)}))
    assert "(M-1)" in check_path(board, 0, [2])
    assert "(M-6)" in check_path(board, 0, [1, 2, 3])
    assert "(M-6)" in check_path(board, 0, [1, 2])
    assert check_path(board, 0, [1, 2, 6, 7]) is None
    assert follow_path(board, 0, [1, 2, 6, 7]).moved == 3


def test_M1_a_plain_step_ahead_is_the_only_step_code_that_is_false():
    """The search takes a plain step ahead (M-1) without looking at its code: code 0."""
    from fdlab.rules import board as steps

    codes = {name: value for name, value in vars(steps).items() if name.startswith("STEP_")}
    assert STEP_AHEAD == 0
    assert [name for name, value in codes.items() if not value] == ["STEP_AHEAD"]


def test_a_board_searched_is_freed_with_its_last_reference():
    """The search cache is keyed weakly by board: a search must not keep its board alive
    (an editor compiles a new board for every verdict; none may pile up)."""
    board = compile_board(from_ascii(". . . . . .", grid=[0], finish=4))
    move_options(board, 0, 3)
    gone = weakref.ref(board)
    del board
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("name", ["monaco", "street"])
def test_c2_c6_s4_option_columns_are_the_options_with_after_move(name):
    """The solo solver's columns (:func:`option_columns`) list the options of
    :func:`move_options` in the same order, and count stops and laps as
    :func:`after_move` does (C-2, C-6, C-5, S-4): every space, every stop count of its
    corner, the pit lane open and shut, the car's own box, street danger spaces avoided
    and another car on the board."""
    board = compile_board(load_track(Path(__file__).parents[2] / "tracks" / f"{name}.json"))
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    danger = frozenset(i for i, d in enumerate(board.danger_space) if d)
    checked = 0
    shared = OvershootMemo()  # as the solo solver keeps one across its searches
    for start in range(len(board.ids)):
        corner = board.corner[start]
        for stops in range(1 if corner is None else board.stops[corner] + 1):
            for pit_allowed in (False, True):
                other_car = frozenset({(start + 7) % len(board.ids)}) - {start}
                rules = MoveRules(
                    occupied=other_car if stops % 2 else frozenset(),
                    stops_made=stops,
                    pit_allowed=pit_allowed,
                    own_box=boxes[0] if boxes else None,
                    avoid=danger,
                )
                options = move_options(board, start, 12, rules)
                columns = option_columns(board, start, 12, rules)
                counts = [after_move(board, start, stops, 0, o) for o in options]
                assert columns.destination == [o.destination for o in options]
                assert columns.moved == [o.moved for o in options]
                assert columns.boxed == [o.boxed for o in options]
                assert columns.overshoots == [o.overshoots for o in options]
                assert columns.path == [o.path for o in options]
                assert columns.lines == [o.lines for o in options]
                assert columns.stops == [c[0] for c in counts]
                assert columns.laps == [c[1] for c in counts]
                assert option_columns(board, start, 12, rules, shared) == columns
                checked += len(options)
    assert checked > 10_000
    # one object per distinct tuple of overshoots
    assert len({id(o) for o in shared.values()}) == len(set(shared.values())) > 0


def _chosen_reference(found):
    """:func:`fdlab.rules.movement._chosen` as first written: a dict of the keys, sorted."""
    chosen = {}
    any_boxed = False
    for item in found:
        moved, (v, _, overs, danger), entry, boxed = item
        any_boxed = any_boxed or boxed
        key = (-moved, v, danger, overs, boxed)
        other = chosen.get(key)
        if other is None or entry[0] < other[2][0]:
            chosen[key] = item
    return [chosen[key] for key in sorted(chosen)], any_boxed


@pytest.mark.parametrize("name", ["monaco", "street", "ring"])
def test_the_states_chosen_as_options_are_those_of_the_plain_reference(name):
    """_chosen (one state per option, fewest lane changes, first found among equals, in
    the options' order) gives what a dict of the keys sorted gives, from every space,
    with several stop counts, the pit lane open, the box and another car."""
    from fdlab.rules.movement import _chosen, _explore

    if name == "ring":  # a roll longer than the lap: the start corner left and met again
        row = ". . 1 1 . . . ."
        track = from_ascii("\n".join([row] * 2), corners={1: 2}, closed=True, grid=[0])
    else:
        track = load_track(Path(__file__).parents[2] / "tracks" / f"{name}.json")
    board = compile_board(track)
    boxes = [i for i, kind in enumerate(board.kind) if kind == "box"]
    for start in range(len(board.ids)):
        for stops in (0, 1, 2):
            rules = MoveRules(
                occupied=frozenset({(start + 5) % len(board.ids)}) - {start}
                if stops
                else frozenset(),
                stops_made=stops,
                pit_allowed=bool(stops % 2),
                own_box=boxes[0] if boxes else None,
            )
            found, _ = _explore(board, start, 14, rules)
            assert _chosen(found) == _chosen_reference(found)
