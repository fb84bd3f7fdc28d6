"""Corner flags and verdict marks find room: none covers another, none runs off the plot."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from fdlab.editor.board_plot import _Screen, annotation_tables, verdict_marks
from fdlab.editor.flag_room import DISTANCES, LabelBox, fitted_frame
from fdlab.track.io import load_track

REPO = Path(__file__).resolve().parents[2]


def boxes(track, table):
    screen = _Screen.of(track)
    return [
        LabelBox.of(ax + ox, ay + oy, text, align)
        for (ax, ay), ox, oy, text, align in zip(
            screen.pixels(table["x"], table["y"]),
            table["ox"],
            table["oy"],
            table["text"],
            table["align"],
            strict=True,
        )
    ]


@pytest.mark.parametrize("name", ["monaco", "zandvoort", "training", "street"])
def test_the_flags_of_a_shipped_board_neither_overlap_nor_leave_the_plot(name: str) -> None:
    track = load_track(REPO / "tracks" / f"{name}.json")
    flags = annotation_tables(track)["flags"]
    placed = boxes(track, flags)
    assert len(placed) == len(track.corners)
    for a, b in combinations(placed, 2):
        assert a.overlap(b) == 0
    frame = fitted_frame(_Screen.of(track).spaces)
    assert all(box.overlap(frame) == box.area for box in placed)


def test_monaco_s_crowded_harbour_moves_some_flags_off_the_first_place() -> None:
    """Without spreading, Monaco's flags at the first distance covered each other."""
    flags = annotation_tables(load_track(REPO / "tracks" / "monaco.json"))["flags"]
    distances = [(ox**2 + oy**2) ** 0.5 for ox, oy in zip(flags["ox"], flags["oy"], strict=True)]
    assert min(distances) == pytest.approx(DISTANCES[0])
    assert max(distances) > DISTANCES[0] + 1


def test_the_verdict_marks_cover_no_flag_and_say_whose_they_are() -> None:
    track = load_track(REPO / "tracks" / "monaco.json")
    flags = boxes(track, annotation_tables(track)["flags"])
    worst = [(corner, "67% overshot, 4.4 SP") for corner in sorted(track.corners)[:3]]
    table = verdict_marks(track, worst)
    marks = boxes(track, table)
    assert [text.split()[1] for text in table["text"]] == [f"#{c}" for c, _ in worst]
    for mark in marks:
        assert all(mark.overlap(flag) == 0 for flag in flags)
    for a, b in combinations(marks, 2):
        assert a.overlap(b) == 0
