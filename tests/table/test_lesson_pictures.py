"""What a class meets on the lesson boards: space ids, corner names, titles, tunnels, a legend, laps."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from fdlab.bots import HeuristicBot
from fdlab.plot import board_figure, track_svg
from fdlab.rules import Race
from fdlab.track import from_ascii, load_track
from fdlab.track.model import SCREEN_PICTURE_HEIGHT

SVG = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parents[2]

BENDS = from_ascii(
    """
    . . . . . . . 1 1 1 . . . . . 2 2 2 . . . .
    . . . . . . . 1 1 1 . . . . . 2 2 2 . . . .
    """,
    corners={1: {"stops": 1, "name": "Hairpin"}, 2: {"stops": 2}},
    name="Two corners",
)
STREET = from_ascii(
    """
    . . . S . . . D . . . . . . . . . . . .
    . . . . . . . . . . . . . . x x . . . .
    """,
    police=10,
    tunnels={"1": (27, 33)},
    name="A street",
)


def texts(root, css):
    return [t.text for t in root.iter(f"{SVG}text") if t.get("class") == css]


def test_lesson_boards_show_every_space_id():
    root = ET.fromstring(track_svg(BENDS, width=720))
    assert sorted(int(t) for t in texts(root, "space-id")) == sorted(BENDS.graph)


def test_big_boards_leave_ids_to_the_tooltips_unless_asked():
    monaco = load_track("tracks/monaco.json")
    assert texts(ET.fromstring(track_svg(monaco, width=640)), "space-id") == []
    asked = ET.fromstring(track_svg(monaco, width=640, space_ids=True))
    assert len(texts(asked, "space-id")) == len(monaco)


def test_corners_show_their_number_and_name():
    root = ET.fromstring(track_svg(BENDS, width=720))
    assert texts(root, "corner-name") == ["1 Hairpin", "2"]


def test_a_small_board_title_is_not_cut_off():
    root = ET.fromstring(
        track_svg(from_ascii(". . . .\n. . . .", name="A straight of three lanes"), width=320)
    )
    title_lines = [t for t in root.iter(f"{SVG}text") if float(t.get("x", 0)) == 14]
    assert len(title_lines) == 2  # the facts went onto a line of their own
    assert title_lines[1].text.startswith("8 spaces")
    wide = ET.fromstring(track_svg(from_ascii(". . . .", name="Short"), width=720))
    assert len([t for t in wide.iter(f"{SVG}text") if float(t.get("x", 0)) == 14]) == 1


def test_the_tunnel_is_drawn_as_one_link_between_its_portals():
    root = ET.fromstring(track_svg(STREET, width=720))
    links = [line for line in root.iter(f"{SVG}line") if line.get("class") == "tunnel-link"]
    assert len(links) == 1
    fig = board_figure(STREET)
    link = next(r for r in fig.renderers if r.name == "tunnel_links")
    assert len(link.data_source.data["xs"]) == 1


def test_the_legend_explains_what_the_board_has():
    keys = lambda svg: [  # noqa: E731
        g.get("data-key")
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if g.get("class") == "legend-entry"
    ]
    assert keys(track_svg(STREET, width=720)) == [
        "track",
        "shooting",
        "danger",
        "tunnel",
        "police",
    ]
    assert keys(track_svg(BENDS, width=720, highlight=[5])) == ["track", "corner", "highlight"]
    assert keys(track_svg(BENDS, legend=False)) == []


def test_a_tall_board_fits_a_laptop_screen_in_a_notebook():
    """A board shows itself no taller than SCREEN_PICTURE_HEIGHT: Monaco was 860 px tall."""
    monaco = load_track(REPO / "tracks" / "monaco.json")
    height = lambda svg: float(ET.fromstring(svg).get("height"))  # noqa: E731
    assert height(track_svg(monaco)) > SCREEN_PICTURE_HEIGHT  # as wide as tall, by default
    assert height(monaco._repr_svg_()) == SCREEN_PICTURE_HEIGHT
    assert height(track_svg(monaco, max_height=450)) == 450
    assert height(track_svg(BENDS, max_height=2000)) == height(track_svg(BENDS))  # a wide one


def test_a_finished_car_is_on_the_last_lap_not_beyond_it():
    ring = from_ascii(
        ". . . . 1 1 . . . . . .\n. . . . 1 1 . . . . . .",
        corners={1: 1},
        closed=True,
        grid=[23, 22],
    )
    race = Race(ring, cars=2, seed=3)
    race.play_bots([HeuristicBot(), HeuristicBot()])
    assert race.over
    assert {row["lap"] for row in race.standings()} == {1}
    assert "lap 2" not in race._repr_html_()


def test_the_bokeh_board_writes_space_ids_when_they_fit_or_when_asked():
    names = lambda fig: {r.name for r in fig.renderers}  # noqa: E731
    assert "space_ids" in names(board_figure(BENDS, width=720))
    monaco = load_track("tracks/monaco.json")
    assert "space_ids" not in names(board_figure(monaco))
    ids = next(r for r in board_figure(monaco, space_ids=True).renderers if r.name == "space_ids")
    labelled = len(monaco.grid_spots()) + len(monaco.boxes())  # these show their own number
    assert len(ids.data_source.data["text"]) == len(monaco) - labelled
