"""Corner windows come from legal moves (M-3, M-4), not from a walk along the steps."""

from fdlab.bots.windows import HORIZON, corner_window, corner_windows
from fdlab.rules import compile_board
from fdlab.rules.movement import MoveRules, move_options
from fdlab.track import from_ascii
from fdlab.track.model import add_step

COLUMNS = 30


def staggered_board():
    """Two lanes drawn half a row apart, as on many hand-drawn boards.

    Lane 1 sits half a row ahead of lane 0: from a lane-0 space a lane change
    goes sideways to the lane-1 space of the same column (half a row), and
    from lane 1 diagonally to the next column of lane 0 (half a row). A walk
    that changes lane at every step gains a column every two steps of half a
    row each, twice as many steps as a legal move may take (M-3, M-4).
    """
    row = " ".join(["."] * 14 + ["1"] * 3 + ["."] * 6 + ["2"] * 2 + ["."] * 5)
    track = from_ascii("\n".join([row, row]), corners={1: 2, 2: 1})
    graph = track.graph
    for c in range(COLUMNS - 1):
        lane0, lane1 = 2 * c, 2 * c + 1
        graph.remove_edge(lane0, 2 * (c + 1) + 1)  # no 1.5-row diagonal
        if graph.nodes[lane0]["corner"] is None and graph.nodes[lane1]["corner"] is None:
            add_step(graph, lane0, lane1, "lane_change")
    return compile_board(track)


def walk_window(board, start, corner):
    """The old judgement: every step counts, any number of lane changes (for contrast)."""
    layer, low, high = {start}, None, None
    for depth in range(1, HORIZON + 1):
        layer = {j for v in layer for j, kind, _ in board.steps[v]}
        if any(board.corner[j] == corner for j in layer):
            low = depth if low is None else low
            high = depth
        elif high is not None:
            break
    return None if low is None else (low, high)


def legal_window(board, start, corner):
    """Rolls whose full move can end in ``corner``, one roll at a time (the reference)."""
    rolls = [
        roll
        for roll in range(1, HORIZON + 1)
        if any(
            o.moved == roll and board.corner[o.destination] == corner and o.stop_counts
            for o in move_options(board, start, roll, MoveRules())
        )
    ]
    if not rolls:
        return None
    high = rolls[0]
    while high + 1 in rolls:
        high += 1
    return rolls[0], high


def test_corner_windows_equal_the_legal_move_windows_on_a_board_with_half_row_lane_changes():
    board = staggered_board()
    longer = 0
    for start in range(0, 2 * 12):  # straight spaces before corner 1
        for corner in (1, 2):
            window = corner_window(board, start, corner)
            assert window == legal_window(board, start, corner), (board.ids[start], corner)
            walked = walk_window(board, start, corner)
            longer += walked is not None and window is not None and walked[1] > window[1]
    # the board does exercise the difference: the walk brakes later than any move can
    assert longer > 10


def test_corner_window_from_inside_the_corner_starts_at_zero():
    board = staggered_board()
    inside = board.index[2 * 14]
    low, high = corner_window(board, inside, 1)
    assert low == 0 and high >= 2
    assert list(corner_windows(board, inside))[0] == 1


def test_corner_windows_respect_the_lane_change_limit():
    board = staggered_board()
    assert corner_window(board, 0, 1, max_lane_changes=0) == (14, 16)
    one = corner_window(board, 0, 1, max_lane_changes=1)
    two = corner_window(board, 0, 1, max_lane_changes=2)
    assert one[0] <= 14 and two[0] <= one[0]
