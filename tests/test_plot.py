"""Board pictures: data tables, SVG, Bokeh figure, offline HTML, lazy import."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fdlab.plot import (
    CarPlacementError,
    PlotError,
    UnknownSpaceError,
    annotation_data,
    board_data,
    board_figure,
    car_data,
    colors,
    normalize_cars,
    save_html,
    step_data,
    track_svg,
)
from fdlab.track import from_ascii

REPO = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"

BOARD = """
 . . . . . 1 1 1 S . 2 2 D .
 . . . . . 1 1 1 . . 2 2 . .
 x p p p x x x x x x x x x x
 x x B B x x x x x x x x x x
"""


@pytest.fixture
def track():
    return from_ascii(
        BOARD,
        corners={1: 2, 2: {"stops": 1, "name": "Hairpin"}},
        closed=True,
        finish=2,
        police=9,
        grid=[4, 5, 0, 1],
        tunnels={"T": (36, 52)},
        name="Test ring",
    )


def test_board_data_has_one_row_per_space_and_equal_columns(track):
    data = board_data(track)
    assert sorted(data["id"]) == sorted(track)
    assert {len(column) for column in data.values()} == {len(track)}


def test_board_data_rows_carry_the_space_attributes(track):
    data = board_data(track)
    for i, space in enumerate(data["id"]):
        attrs = track.space(space)
        for key in ("lane", "kind", "corner", "hazard", "tunnel", "grid", "box", "level"):
            assert data[key][i] == attrs[key], (space, key)
        assert (data["x"][i], data["y"][i]) == (attrs["x"], attrs["y"])
        polygon_xs = sorted(attrs["polygon"].exterior.coords.xy[0].tolist()[:-1])
        assert sorted(data["xs"][i]) == polygon_xs
        corner = attrs["corner"]
        assert data["stops"][i] == (track.corners[corner]["stops"] if corner is not None else 0)


def test_board_data_colours_follow_kind_corner_and_hazard(track):
    data = board_data(track)
    fill = dict(zip(data["id"], data["fill_color"], strict=True))
    assert fill[track.spaces(hazard="shooting")[0]] == colors.SHOOTING
    assert fill[track.spaces(hazard="danger")[0]] == colors.DANGER
    assert fill[track.spaces(corner=1)[0]] == colors.CORNER
    assert fill[track.spaces(kind="pit")[0]] == colors.PIT
    assert fill[track.spaces(kind="box")[0]] == colors.BOX
    assert fill[0] == colors.ASPHALT


def test_highlight_flags_exactly_the_given_spaces(track):
    data = board_data(track, highlight=[6, 25])
    flagged = {s for s, h in zip(data["id"], data["highlight"], strict=True) if h}
    assert flagged == {6, 25}
    lines = {s: c for s, c in zip(data["id"], data["line_color"], strict=True)}
    assert lines[6] == lines[25] == colors.HIGHLIGHT
    assert lines[0] != colors.HIGHLIGHT


def test_highlight_of_a_missing_space_names_it(track):
    with pytest.raises(UnknownSpaceError, match="space 999 is not on track 'Test ring'"):
        board_data(track, highlight=[999])


def test_cars_are_placed_on_their_spaces(track):
    data = board_data(track, cars={5: "Red", 24: ("Blue", "#0000ff")})
    by_space = {
        s: (car, color)
        for s, car, color in zip(data["id"], data["car"], data["car_color"], strict=True)
        if car
    }
    assert by_space == {5: ("Red", colors.car_color(0)), 24: ("Blue", "#0000ff")}
    markers = car_data(track, [(5, "Red"), (24, "Blue", "#0000ff")])
    assert markers["space"] == [5, 24]
    assert {len(column) for column in markers.values()} == {2}
    assert (markers["x"][1], markers["y"][1]) == (track.space(24)["x"], track.space(24)["y"])


def test_car_markers_point_along_the_lane(track):
    markers = car_data(track, {0: "A"})
    assert markers["angle"] == [pytest.approx(0.0)]


def test_cars_on_a_missing_or_shared_space_are_refused(track):
    with pytest.raises(UnknownSpaceError, match="car 'Red': space 777"):
        normalize_cars(track, {777: "Red"})
    with pytest.raises(CarPlacementError, match="'A' and 'B' are both on space 4"):
        normalize_cars(track, [(4, "A"), (4, "B")])
    with pytest.raises(CarPlacementError, match="is not a label"):
        normalize_cars(track, {4: 42})
    assert issubclass(UnknownSpaceError, PlotError)


def test_step_data_has_one_arrow_per_step_coloured_by_kind(track):
    data = step_data(track)
    assert len(data["from"]) == track.graph.number_of_edges()
    pairs = set(zip(data["from"], data["to"], strict=True))
    assert pairs == set(track.graph.edges)
    kinds = dict(zip(data["kind"], data["color"], strict=True))
    assert kinds["tunnel"] == colors.STEP_COLORS["tunnel"]
    assert kinds["pit_in"] == colors.STEP_COLORS["pit_in"]
    finish = [lines for lines in data["lines"] if "finish" in lines]
    assert len(finish) == len(track.edges_crossing("finish"))


def test_annotations_match_corners_lines_and_labels(track):
    notes = annotation_data(track)
    flags = notes["flags"]
    assert flags["corner"] == [1, 2]
    assert flags["stops"] == [2, 1]
    assert (flags["long"], flags["short"]) == ([3, 2], [3, 2])
    assert flags["name"] == ["Corner 1", "Hairpin"]
    # flags stand off the track, beside their corner
    for x, y in zip(flags["x"], flags["y"], strict=True):
        assert not any(track.space(s)["polygon"].contains(_point(x, y)) for s in track)
    # a red line at the entry and at the exit of each lane of each corner
    assert len(notes["corner_lines"]["xs"]) == 8
    # one finish segment per lane crossing it: 2 track lanes and the pit lane
    assert len(notes["finish"]["xs"]) == 3
    assert len(notes["police"]["xs"]) == 2
    assert notes["grid"]["text"] == ["1", "2", "3", "4"]
    assert notes["grid"]["space"] == [4, 5, 0, 1]
    assert notes["boxes"]["text"] == ["1", "2"]
    assert sorted(notes["tunnels"]["space"]) == [36, 52]


def _point(x, y):
    from shapely.geometry import Point

    return Point(x, y)


def test_finish_line_lies_on_the_edge_between_the_two_columns(track):
    xs = annotation_data(track)["finish"]["xs"]
    assert all(segment == [2.0, 2.0] for segment in xs)


def test_svg_is_well_formed_with_one_shape_per_space(track):
    svg = track_svg(track, cars={5: "Red"}, highlight=[6])
    root = ET.fromstring(svg)
    spaces = root.findall(f".//{SVG}polygon[@class='space']")
    assert len(spaces) == len(track)
    assert sorted(int(p.get("data-id")) for p in spaces) == sorted(track)
    cars = root.findall(f".//{SVG}g[@class='car']")
    assert [c.get("data-space") for c in cars] == ["5"]
    flags = root.findall(f".//{SVG}g[@class='flag']")
    assert [f.get("data-corner") for f in flags] == ["1", "2"]
    highlighted = [p for p in spaces if p.get("stroke") == colors.HIGHLIGHT]
    assert [p.get("data-id") for p in highlighted] == ["6"]
    on_top = root.findall(f".//{SVG}polygon[@class='highlight']")
    assert [p.get("points") for p in on_top] == [highlighted[0].get("points")]


@pytest.mark.parametrize("width", [320, 800])
def test_svg_flags_stay_inside_the_picture(track, width):
    root = ET.fromstring(track_svg(track, width=width))
    height = float(root.get("height"))
    rects = root.findall(f".//{SVG}g[@class='flag']/{SVG}rect")
    assert len(rects) == 3 * len(track.corners)
    for rect in rects:
        x, y = float(rect.get("x")), float(rect.get("y"))
        assert x >= 0 and x + float(rect.get("width")) <= width
        assert y >= 0 and y + float(rect.get("height")) <= height


def test_svg_flags_of_close_corners_do_not_overlap():
    row = " ".join(f"{1 + c // 2}" if c % 2 == 0 else "." for c in range(18))
    board = from_ascii("\n".join([row, row]), corners={c: 1 + c % 3 for c in range(1, 10)})
    root = ET.fromstring(track_svg(board, width=320))  # corners 25 px apart, flags 36 px wide
    boxes = []
    for flag in root.findall(f".//{SVG}g[@class='flag']"):
        rect = flag.find(f"{SVG}rect")
        x, y = float(rect.get("x")), float(rect.get("y"))
        boxes.append((x, y, x + float(rect.get("width")), y + float(rect.get("height"))))
    assert len(boxes) == 9
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_place_flags_steps_around_obstacles():
    from fdlab.plot.layout import place_flags

    free = place_flags([(0.0, 0.0)], [(0.0, -1.0)], [], start=30.0)
    assert free == [(0.0, -30.0)]
    obstacles = [(0.0, -30.0), (0.0, -42.0)]
    ((x, y),) = place_flags([(0.0, 0.0)], [(0.0, -1.0)], obstacles, start=30.0)
    assert all(abs(x - ox) >= 20.0 or abs(y - oy) >= 17.0 for ox, oy in obstacles)


def test_svg_is_deterministic_and_escapes_names(track):
    track.graph.graph["name"] = "Rock & <Roll>"
    first = track_svg(track, width=640)
    assert first == track_svg(track, width=640)
    root = ET.fromstring(first)
    assert root.get("width") == "640"
    assert root.find(f"{SVG}title").text == "Rock & <Roll>"


def test_track_displays_itself_as_svg(track):
    assert track._repr_svg_() == track_svg(track)


def test_svg_without_polygons_draws_squares():
    track = from_ascii(". . .")
    for _, data in track.graph.nodes(data=True):
        data["polygon"] = None
    root = ET.fromstring(track_svg(track))
    assert len(root.findall(f".//{SVG}polygon[@class='space']")) == 3


@pytest.mark.filterwarnings("error")
def test_board_figure_carries_the_board_data(track):
    from bokeh.models import HoverTool

    fig = board_figure(track, cars={5: "Red"}, highlight=[6], show_steps=True, title="T")
    spaces = fig.select_one({"name": "spaces"})
    assert spaces.data_source.data["id"] == board_data(track)["id"]
    assert spaces.data_source.data["highlight"].count(True) == 1
    on_top = fig.select_one({"name": "highlights"}).data_source.data
    assert len(on_top["xs"]) == 1
    hover = fig.select_one(HoverTool)
    assert hover.renderers == [spaces]
    cars = fig.select_one({"name": "cars"})
    assert cars.data_source.data["space"] == [5]
    assert fig.title.text == "T"
    assert fig.match_aspect


def test_save_html_is_offline_and_holds_the_document(track, tmp_path):
    page = save_html(track, tmp_path / "board.html")
    html = page.read_text(encoding="utf-8")
    assert 'type="application/json"' in html  # the serialized Bokeh document
    assert "Test ring" in html
    assert not re.search(r"<script[^>]*\bsrc=", html), "BokehJS must be inline, not fetched"
    assert [p.name for p in tmp_path.iterdir()] == ["board.html"]


def test_save_html_gives_the_usual_permissions_and_keeps_a_replaced_files(track, tmp_path):
    umask = os.umask(0o022)
    try:
        page = save_html(track, tmp_path / "board.html")
        assert stat.S_IMODE(page.stat().st_mode) == 0o644  # others may read it (not mkstemp's 0600)
        page.chmod(0o664)
        save_html(track, page)
        assert stat.S_IMODE(page.stat().st_mode) == 0o664
    finally:
        os.umask(umask)


def test_save_html_refuses_other_objects(tmp_path):
    with pytest.raises(PlotError, match="not str"):
        save_html("board", tmp_path / "x.html")
    assert not list(tmp_path.iterdir())


def test_track_and_rules_do_not_import_bokeh():
    modules = ["fdlab.track", "fdlab.plot"]
    if (REPO / "fdlab" / "rules" / "__init__.py").exists():
        modules.append("fdlab.rules")
    code = f"import sys, {', '.join(modules)}; assert 'bokeh' not in sys.modules, 'bokeh imported'"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


SHIPPED = sorted((REPO / "tracks").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_boards_draw_every_space_and_corner(path):
    from fdlab.track.io import load_track

    board = load_track(path)
    root = ET.fromstring(track_svg(board, cars={board.grid_spots()[0]: "Pole"}))
    assert len(root.findall(f".//{SVG}polygon[@class='space']")) == len(board)
    assert len(root.findall(f".//{SVG}g[@class='flag']")) == len(board.corners)
    assert len(root.findall(f".//{SVG}line[@class='finish']")) >= 2
    data = board_data(board)
    assert all(len(xs) >= 3 for xs in data["xs"]), "every space has an outline"


def test_finish_line_of_a_wrapping_text_board_is_drawn_before_the_first_column():
    ring = from_ascii(". . . .\n. . . .", closed=True)  # the step 3 -> 0 wraps around
    assert annotation_data(ring)["finish"]["xs"] == [[0.0, 0.0], [0.0, 0.0]]


def test_a_car_named_after_a_colour_is_drawn_in_it_everywhere():
    """One colour rule: track_svg(cars={s: "Blue"}) draws Blue blue, as the race picture does."""
    from fdlab.plot.colors import NAMED_CAR_COLORS

    track = from_ascii(". . . .")
    svg = track_svg(track, cars={1: "Blue", 2: "Ayrton"})
    assert NAMED_CAR_COLORS["blue"] in svg
    assert colors.car_color(1) in svg  # a name that is no colour takes the palette
