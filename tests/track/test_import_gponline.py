"""GP Online .dat boards: lanes, progress, corners, pit, grid derived as the board implies."""

import pytest

from fdlab.bots import HeuristicBot
from fdlab.rules import Race
from fdlab.track import BoardImportError, TrackFileError, validate
from fdlab.track.formats import import_track, parse_gponline, read_gponline


def test_the_stadium_imports_as_a_sound_board(gponline_file):
    track = import_track(gponline_file)
    report = validate(track, cars=5)
    assert report.ok, str(report)
    assert track.graph.graph["units"] == "px"
    assert track.graph.graph["imported_from"]["format"] == "gponline"
    assert track.graph.graph["imported_from"]["rain_probability"] == 20


def test_lanes_run_from_the_left_of_the_finish_line_and_stay_lanes_round_the_lap(
    gponline_file, boards
):
    board = boards.stadium()
    track = read_gponline(gponline_file)
    # the boards.stadium turns right: its outer lane is on the left, fdlab lane 0
    for cell in board.cells:
        if cell.stretch in ("top", "right", "bottom", "left") and not cell.blocked:
            assert track.graph.nodes[cell.ident]["lane"] == 2 - cell.lane, cell


def test_blocked_spaces_are_left_out_and_the_road_narrows(gponline_file, boards):
    board = boards.stadium()
    track = read_gponline(gponline_file)
    blocked = [c.ident for c in board.cells if c.blocked]
    assert len(blocked) == len(boards.NARROW_ROWS)
    assert not any(n in track for n in blocked)


def test_progress_adds_one_a_row_on_straights_and_the_typed_distances_in_curves(
    gponline_file, boards
):
    board = boards.stadium()
    track = read_gponline(gponline_file)
    nodes = track.graph.nodes
    for lane in range(3):
        assert nodes[board.cell("top", lane, boards.FINISH_ROW).ident]["progress"] == 0.0
        assert nodes[board.cell("top", lane, 9).ident]["progress"] == 9 - boards.FINISH_ROW
        first = board.cell("right", lane, 0)
        assert nodes[first.ident]["progress"] == pytest.approx(9 - boards.FINISH_ROW + first.offset)
    # the whole lap: 5 + 7 + 10 + 7 + 5 spaces of progress
    assert track.lap_length == 34.0


def test_corners_are_runs_of_curve_spaces_with_the_stops_of_their_last_spaces(
    gponline_file, boards
):
    board = boards.stadium()
    track = read_gponline(gponline_file)
    assert [track.corners[c]["stops"] for c in sorted(track.corners)] == [2, 1]
    right = {c.ident for c in board.cells if c.stretch == "right"}
    assert set(track.corner_spaces(1)) == right
    assert (track.corners[1]["long"], track.corners[1]["short"]) == (9, 5)


def test_garages_become_boxes_numbered_along_the_pit_lane(gponline_file, boards):
    board = boards.stadium()
    track = read_gponline(gponline_file)
    assert track.boxes() == board.garages
    assert [track.graph.nodes[b]["box"] for b in track.boxes()] == [1, 2, 3, 4]
    kinds = {track.graph.edges[e]["kind"] for b in track.boxes() for e in track.graph.in_edges(b)}
    assert kinds == {"box_in"}
    crossing = [
        (u, v) for u, v in track.edges_crossing("finish") if track.graph.nodes[v]["kind"] == "pit"
    ]
    assert crossing, "the pit lane crosses the finish line"


def test_garages_the_pit_lane_runs_through_get_a_box_beside_them(tmp_path, boards):
    path = tmp_path / "inline.dat"
    board = boards.stadium(inline_garages=True)
    path.write_text(boards.gponline_text(board))
    track = read_gponline(path)
    assert validate(track, cars=5).ok, str(validate(track, cars=5))
    assert track.boxes() == [f"{garage} box" for garage in board.garages]
    for garage in board.garages:
        assert track.graph.nodes[garage]["kind"] == "pit"  # the lane still runs through it


def test_grid_spots_are_ranked_by_progress_pole_furthest_ahead(gponline_file, boards):
    track = read_gponline(gponline_file)
    assert track.grid_spots() == boards.stadium().grid
    progress = [track.graph.nodes[n]["progress"] for n in track.grid_spots()]
    assert progress == sorted(progress, reverse=True)


def test_a_race_of_bots_is_played_to_the_end_on_the_imported_board(gponline_file):
    track = read_gponline(gponline_file)
    race = Race(track, cars=3, seed=7)
    race.play_bots([HeuristicBot(), HeuristicBot(), HeuristicBot()], rounds=200)
    assert race.over
    assert len(race.standings()) == 3


def test_problems_name_the_files_own_space_ids(tmp_path, boards):
    text = boards.gponline_text(boards.stadium())
    lines = text.splitlines()
    # the inner lane's last space of the right corner loses every step out of it
    dead = boards.stadium().cell("right", 0, 4).ident
    kept = [
        line
        for line in lines
        if not (len(line.split()) == 2 and line.split()[0] == str(dead) and "." not in line)
    ]
    path = tmp_path / "broken.dat"
    path.write_text("\n".join(kept) + "\n")
    report = validate(read_gponline(path), cars=5)
    dead_ends = [p for p in report if p.code == "dead_end"]
    assert dead_ends and dead in dead_ends[0].spaces
    assert str(dead) in dead_ends[0].message


@pytest.mark.parametrize(
    "text, where",
    [
        ("", "line 1"),
        ("b.png 0\n\n1 0 0 9\n", "line 3"),
        ("b.png 0\n\n1 0 zero 1\n", "line 3"),
        ("b.png 0\n\n1 0 0 5\n1 5 0 1\n", "line 4"),
        ("b.png 0\n\n1 0 0 5\n2 40 0 1\n\n1 3\n", "line 6"),
        ("b.png 0\n\n1 0 0 5\n\n1 1\n\n1 x\n", "line 7"),
    ],
)
def test_malformed_lines_are_refused_naming_the_line(text, where):
    with pytest.raises(TrackFileError, match=where):
        parse_gponline(text, source="bad.dat")


def test_a_board_without_a_finish_line_is_refused(tmp_path):
    path = tmp_path / "nofinish.dat"
    path.write_text("b.png 0\n\n1 0 0 1\n2 40 0 1\n\n1 2\n2 1\n")
    with pytest.raises(BoardImportError, match="finish line"):
        read_gponline(path)


def _ring(lanes: int, staggered: bool, rows: int = 80) -> str:
    """A round GP Online board; odd lanes half a row ahead when ``staggered``."""
    import math

    shift = {lane: 0.5 if staggered and lane % 2 else 0.0 for lane in range(lanes)}
    ident = {(row, lane): row * lanes + lane for row in range(rows) for lane in range(lanes)}
    curve = {row: row % 40 - 29 for row in range(rows) if 30 <= row % 40 < 36}
    lines = ["ring.png 0", ""]
    for (row, lane), n in ident.items():
        angle = 2 * math.pi * (row + shift[lane]) / rows
        radius = 600 + 25 * lane
        kind = 3 if row in curve else 1
        flag = " F" if row == 0 else ""
        lines.append(
            f"{n} {radius * math.cos(angle):.2f} {radius * math.sin(angle):.2f} {kind}{flag}"
        )
    lines.append("")
    for (row, lane), n in ident.items():
        lines.append(f"{n} {ident[(row + 1) % rows, lane]}")
        for other in (lane - 1, lane + 1):
            if 0 <= other < lanes:
                # the neighbouring lane's space about one space (or half a row) ahead
                ahead = row if shift[other] > shift[lane] else row + 1
                lines.append(f"{n} {ident[ahead % rows, other]}")
    lines.append("")
    lines += [
        f"{ident[row, lane]} {curve[row] + shift[lane]}" for row in curve for lane in range(lanes)
    ]
    lines.append("")
    lines += [f"{ident[rows - 1 - k, k % lanes]} 0" for k in range(6)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("lanes", [2, 3, 4])
@pytest.mark.parametrize("staggered", [False, True], ids=["rows", "staggered"])
def test_boards_of_two_to_four_lanes_and_staggered_lanes_import_soundly(tmp_path, lanes, staggered):
    path = tmp_path / "ring.dat"
    path.write_text(_ring(lanes, staggered))
    track = read_gponline(path)
    assert validate(track, cars=6).ok, str(validate(track, cars=6))
    nodes = track.graph.nodes
    assert {nodes[n]["lane"] for n in track} == set(range(lanes))
    # a space offset half a row by a lane change is half a space of progress further on
    row = 10
    expected = [row + (0.5 if staggered and lane % 2 else 0.0) for lane in range(lanes)]
    got = sorted(nodes[row * lanes + lane]["progress"] for lane in range(lanes))
    assert got == sorted(expected)
    beside = [
        n for n in track.touching(row * lanes) if nodes[n]["lane"] != nodes[row * lanes]["lane"]
    ]
    assert len(beside) == (2 if staggered else 1)
