"""Print and play: the board at real size, tiled over pages with glue strips, or as a poster."""

import re

import pytest

from fdlab.plot import PrintError
from fdlab.plot.pages import PAPER_MM, PUBLISHED_SPACE_MM, page_label, plan_pages, tile_area
from fdlab.plot.printing import print_board
from fdlab.track import load_track


@pytest.fixture(scope="module")
def monaco():
    return load_track("tracks/monaco.json")


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b(?!s)", pdf))


def _colours(pdf: bytes) -> set[tuple[float, float, float]]:
    found = re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", pdf)
    return {tuple(float(v) for v in triple) for triple in found}


def test_a_space_is_printed_at_the_published_length_by_default(monaco):
    layout = plan_pages(monaco)
    assert layout.scale * monaco.graph.graph["space_length"] == pytest.approx(PUBLISHED_SPACE_MM)
    assert 40 <= PUBLISHED_SPACE_MM <= 45


def test_the_space_length_sets_the_size_of_the_whole_board(monaco):
    small = plan_pages(monaco, space_mm=21)
    large = plan_pages(monaco, space_mm=42)
    assert large.scale == pytest.approx(2 * small.scale)
    assert large.board_mm[0] == pytest.approx(2 * small.board_mm[0])
    assert len(large.printed) > len(small.printed)


def test_bigger_paper_needs_fewer_pages(monaco):
    assert len(plan_pages(monaco, paper="A3").printed) < len(plan_pages(monaco, paper="A4").printed)


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_pages_cover_the_board_and_overlap_by_the_glue_strip(monaco, paper):
    layout = plan_pages(monaco, paper=paper)
    page_w, page_h = layout.page_mm
    assert {page_w, page_h} == set(PAPER_MM[paper])
    right = tile_area(layout, layout.rows - 1, layout.columns - 1)
    assert right[2] >= layout.board_mm[0] and right[1] <= 0
    top_left = tile_area(layout, 0, 0)
    assert top_left[0] <= 0 and top_left[3] >= layout.board_mm[1]
    if layout.columns > 1:
        first, second = tile_area(layout, 0, 0), tile_area(layout, 0, 1)
        assert first[2] - second[0] == pytest.approx(layout.overlap_mm)


def test_page_coordinates_are_rows_of_letters_and_columns_of_numbers(monaco):
    layout = plan_pages(monaco)
    assert layout.labels[: layout.columns] == [f"A{c}" for c in range(1, layout.columns + 1)]
    assert layout.labels[layout.columns] == "B1"
    assert page_label(27, 3) == "AB4"


def test_the_pdf_has_the_overview_and_every_page_with_something_on_it(monaco, tmp_path):
    out = tmp_path / "monaco.pdf"
    layout = print_board(monaco, out, compress=False)
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert _pages(pdf) == layout.pages == len(layout.printed) + 1
    assert layout.blank, "Monaco's corners of the page grid hold nothing and are not printed"
    for label in layout.printed:
        assert f"({label}) Tj".encode() in pdf
    assert b"joins here" in pdf and b"glue" in pdf and b"50 mm" in pdf
    names = [c["name"] for c in monaco.corners.values() if c["name"].isascii()]
    assert names
    for name in names:
        assert f"({name}) Tj".encode() in pdf


def test_greyscale_prints_only_greys_and_colour_prints_colours(tmp_path):
    street = load_track("tracks/street.json")
    grey, colour = tmp_path / "grey.pdf", tmp_path / "colour.pdf"
    print_board(street, grey, grey=True, compress=False)
    print_board(street, colour, compress=False)
    assert all(r == g == b for r, g, b in _colours(grey.read_bytes()))
    assert any(not (r == g == b) for r, g, b in _colours(colour.read_bytes()))


def test_a_poster_is_one_sheet_as_big_as_the_board(monaco, tmp_path):
    out = tmp_path / "poster.pdf"
    layout = print_board(monaco, out, poster=True, compress=False)
    pdf = out.read_bytes()
    assert _pages(pdf) == 1 == layout.pages
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    width_mm = float(box.group(1)) / 72 * 25.4
    assert width_mm == pytest.approx(layout.page_mm[0], abs=0.1)
    assert layout.page_mm[0] > layout.board_mm[0] > 1000  # Monaco is over a metre wide


def test_bad_paper_or_size_is_refused_in_plain_words(monaco, tmp_path):
    with pytest.raises(PrintError, match="paper must be one of A4, A3, letter"):
        print_board(monaco, tmp_path / "x.pdf", paper="A5")
    with pytest.raises(PrintError, match="positive number of millimetres"):
        plan_pages(monaco, space_mm=0)
    assert not (tmp_path / "x.pdf").exists()


def test_fdlab_print_writes_the_pdf_and_says_how_many_pages(tmp_path, capsys):
    from fdlab.cli import main

    out = tmp_path / "training.pdf"
    assert main(["print", "tracks/training.json", "-o", str(out), "--paper", "A3", "--grey"]) == 0
    said = capsys.readouterr().out
    assert out.read_bytes().startswith(b"%PDF-") and "A3 pages" in said
    assert main(["print", "tracks/training.json", "-o", str(tmp_path / "p.pdf"), "--poster"]) == 0
    assert "poster sheet" in capsys.readouterr().out
    assert main(["print", "tracks/training.json", "-o", str(tmp_path / "x.png")]) == 2
    assert ".pdf" in capsys.readouterr().err
