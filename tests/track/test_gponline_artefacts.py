"""GP Online boards the importer used to spoil: its own outlines, boxes and progress.

Measured on GP Online's own boards, the validator rejected what the importer
made itself: outlines overlapping where the board's spaces lie closer than
its typical spacing, boxes overlapping each other beside a tight pit lane,
and progress that did not increase where a curve begins lane by lane or the
finish line runs across a lane change. Each test lays out the stadium of
``examples/stadium.py`` with one of those features and checks the import.
"""

from fdlab.track import validate
from fdlab.track.formats import read_gponline


def _imported(tmp_path, board, boards):
    path = tmp_path / "board.dat"
    path.write_text(boards.gponline_text(board))
    track = read_gponline(path)
    return track, validate(track, cars=5)


def test_lanes_squeezed_closer_than_the_board_spacing_do_not_overlap(tmp_path, boards):
    board = boards.stadium()
    # rows 0-3 of the bottom straight squeeze the three lanes to 10 px apart (25 elsewhere)
    for cell in board.cells:
        if cell.stretch == "bottom" and cell.index <= 3:
            cell.y = 300.0 + 60.0 + 10.0 * cell.lane
    track, report = _imported(tmp_path, board, boards)
    assert "overlap" not in report.codes, str(report)
    assert report.ok, str(report)
    squeezed = [c.ident for c in board.cells if c.stretch == "bottom" and c.index <= 3]
    polygons = [track.graph.nodes[n]["polygon"] for n in squeezed]
    for k, a in enumerate(polygons):
        for b in polygons[k + 1 :]:
            assert a.intersection(b).area < 0.05 * min(a.area, b.area)


def test_a_pit_lane_hugging_the_track_with_close_garages_keeps_its_boxes_apart(tmp_path, boards):
    board = boards.stadium(inline_garages=True)
    pit = [c for c in board.cells if c.stretch == "pit"]
    for cell in pit:
        # 15 px above the outer lane (lanes are 25 apart), and 32 px apart (spaces are 40)
        cell.y = 300.0 - 60.0 - 2 * 25.0 - 15.0
        cell.x = 200.0 + 5.5 * 40.0 + (cell.index - 5) * 32.0
    track, report = _imported(tmp_path, board, boards)
    assert "overlap" not in report.codes, str(report)
    assert "box_too_small" not in report.codes, str(report)
    assert report.ok, str(report)
    boxes = track.boxes()
    assert len(boxes) == 4
    nodes = track.graph.nodes
    pit_lane = [c.ident for c in pit]
    for b in boxes:
        for other in [*boxes, *pit_lane]:
            if other != b:
                shared = nodes[b]["polygon"].intersection(nodes[other]["polygon"]).area
                assert shared < 0.05 * nodes[b]["polygon"].area, (b, other)


def test_a_lane_change_along_the_finish_line_gains_half_a_space(tmp_path, boards):
    board = boards.stadium()
    line = {c.lane: c for c in board.cells if c.finish and c.stretch == "top"}
    # the outer spaces of the line lie a little ahead; the middle one steps into them
    for lane in (0, 2):
        line[lane].x += 8.0
        board.steps.append((line[1].ident, line[lane].ident))
    track, report = _imported(tmp_path, board, boards)
    assert "progress" not in report.codes, str(report)
    assert report.ok, str(report)
    nodes = track.graph.nodes
    assert nodes[line[1].ident]["progress"] == 0.0
    assert nodes[line[0].ident]["progress"] == nodes[line[2].ident]["progress"] == 0.5


def test_a_curve_begun_lane_by_lane_counts_from_the_end_of_the_whole_straight(tmp_path, boards):
    board = boards.stadium()
    hairpin = {c.ident: c for c in board.cells if c.stretch == "right"}
    top = {(c.lane, c.index): c for c in board.cells if c.stretch == "top"}
    # no lane changes inside the hairpin: each lane's curve spaces are a corner of their
    # own; the outer lane's curve begins a row early, at distance 0, while the inner
    # lanes run on straight for that row
    outer = top[2, 9]
    outer.offset = 0.0
    board.corner_stops["top"] = board.corner_stops["right"]
    first = {c.lane: c.ident for c in hairpin.values() if c.index == 0}
    board.steps = [
        (u, v)
        for u, v in board.steps
        if not (u in hairpin and v in hairpin and hairpin[u].lane != hairpin[v].lane)
        and (u, v) not in ((top[1, 9].ident, first[2]), (outer.ident, first[1]))
    ]
    track, report = _imported(tmp_path, board, boards)
    assert "progress" not in report.codes, str(report)
    nodes, edges = track.graph.nodes, track.graph.edges
    for u, v, kind in edges(data="kind"):
        if kind in ("ahead", "lane_change") and "finish" not in edges[u, v]["lines"]:
            assert nodes[v]["progress"] > nodes[u]["progress"], (u, v)
    # the curve counts from the straight's last row, over all its lanes
    assert nodes[outer.ident]["progress"] == nodes[top[1, 9].ident]["progress"]
    assert nodes[outer.ident]["progress"] > nodes[top[2, 8].ident]["progress"]


def test_a_pit_lane_ending_before_the_line_crosses_it_on_its_way_out(tmp_path, boards):
    board = boards.stadium()
    finish = boards.FINISH_ROW
    pit = {c.index: c for c in board.cells if c.stretch == "pit"}
    # the pit lane stops a row short of the finish line and leads out onto the line's
    # outer space and the one after it; GP Online counts a lap for every way through it
    dropped = {c.ident for row, c in pit.items() if row >= finish}
    dropped |= {g for g in board.garages if g >= min(dropped)}
    for cell in pit.values():
        cell.finish = False
    board.cells = [c for c in board.cells if c.ident not in dropped]
    board.garages = [g for g in board.garages if g not in dropped]
    board.steps = [(u, v) for u, v in board.steps if u not in dropped and v not in dropped]
    last = pit[finish - 1].ident
    board.steps += [(last, board.cell("top", 2, row).ident) for row in (finish, finish + 1)]
    track, report = _imported(tmp_path, board, boards)
    assert "lap_jump" not in report.codes, str(report)
    assert "pit_misses_finish" not in report.codes, str(report)
    assert report.ok, str(report)
    edges = track.graph.edges
    for row in (finish, finish + 1):
        step = edges[last, board.cell("top", 2, row).ident]
        assert step["kind"] == "pit_out"
        assert "finish" in step["lines"]


def test_a_blocked_space_inside_a_corner_stays_part_of_the_corner(tmp_path, boards):
    board = boards.stadium()
    inner = board.lane_cells("right", 0)
    # the hairpin's inner lane narrows for one space: a blocked (virtual) space between
    # two of its curve spaces, that only leads on down the lane
    blocked = inner[2]
    blocked.blocked = True
    before, after = inner[1].ident, inner[3].ident
    board.steps = [(u, v) for u, v in board.steps if blocked.ident not in (u, v)]
    board.steps += [(before, blocked.ident), (blocked.ident, after)]
    track, report = _imported(tmp_path, board, boards)
    assert blocked.ident not in track
    assert "progress" not in report.codes, str(report)
    assert report.ok, str(report)
    nodes = track.graph.nodes
    assert nodes[before]["corner"] == nodes[after]["corner"] is not None
    assert len(track.corners) == 2
    assert nodes[after]["progress"] > nodes[before]["progress"]


def test_lanes_stay_lanes_through_a_tight_hairpin_on_narrow_lanes(tmp_path, boards, monkeypatch):
    import stadium as layout

    # a hairpin of 10 px inner radius with lanes 18 px apart: its inner lane has one
    # space, its outer one four, and the straightest step into a space is often a
    # lane change; the lanes are told apart as GP Online deals the spaces out (by
    # distance into the corner, each lane running on where it can)
    monkeypatch.setattr(layout, "INNER_RADIUS", 10.0)
    monkeypatch.setattr(layout, "LANE", 18.0)
    monkeypatch.setattr(layout, "RIGHT", layout.LEFT + layout.ROWS * layout.SPACE)
    board = boards.stadium()
    board.corner_stops["right"] = 1  # one space on the inside holds one stop
    track, report = _imported(tmp_path, board, boards)
    nodes = track.graph.nodes
    wrong = [
        c.ident
        for c in board.cells
        if c.stretch in ("top", "right", "bottom", "left")
        and not c.blocked
        and nodes[c.ident]["lane"] != 2 - c.lane
    ]
    assert wrong == []
    lane_of = {c.ident: c.lane for c in board.cells}
    for u, v, kind in track.graph.edges(data="kind"):
        if kind in ("ahead", "lane_change"):
            assert (kind == "ahead") == (lane_of[u] == lane_of[v]), (u, v, kind)
    assert report.ok, str(report)
