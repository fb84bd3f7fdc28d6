"""Boards built from real circuits look like the printed Formula D boards (issue 25).

The figures are those of ``calibration.md``: the printed boards have a median of
8 corners (4-12) and 11 stops (6-16), about 154 spaces a lane; six published
boards of circuits in ``circuits/`` have the corner and stop counts below. A
board built with default options must match them within a corner or a stop on
the median, and within two on every board; and ``pit=True`` must build on every
circuit, saying so when the finish straight holds fewer boxes than asked.
"""

from __future__ import annotations

import statistics
import warnings
from functools import cache
from pathlib import Path

import pytest

from fdlab.track import Track
from fdlab.track.build import build_track, make_spec
from fdlab.track.build.corners import _corner_stretches
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.notes import FewerBoxesWarning
from fdlab.track.build.pipeline import (
    DEFAULT_SPACES_PER_LAP,
    LANE_WIDTH_RATIO,
    default_spaces_per_lap,
)

CIRCUITS = Path(__file__).resolve().parents[2] / "circuits"
ALL = sorted(p.stem for p in CIRCUITS.glob("*.geojson"))

#: (corners, stops) of the published boards of circuits in ``circuits/`` (calibration.md).
PRINTED = {
    "mc-1929": (10, 14),  # Monaco
    "de-1932": (8, 11),  # Hockenheim
    "it-1922": (6, 8),  # Monza
    "be-1925": (9, 13),  # Spa
    "jp-1962": (6, 10),  # Suzuka
    "sg-2008": (9, 16),  # Singapore
}


@cache
def built(circuit: str) -> Track:
    return build_track(CIRCUITS / f"{circuit}.geojson")


def counts(track: Track) -> tuple[int, int]:
    return len(track.corners), sum(c["stops"] for c in track.corners.values())


@cache
def suggested(circuit: str) -> list[int]:
    """Stop counts of the corners found on a circuit, as a default build suggests them
    (before corners too close together are merged: a quick look at every circuit)."""
    spec = make_spec(CIRCUITS / f"{circuit}.geojson")
    space = spec.centreline.length / default_spaces_per_lap(spec)
    half_road = 1.5 * LANE_WIDTH_RATIO * space
    path = LapPath(
        spec.centreline.points,
        step=space / 8,
        smoothing=space / 4,
        min_radius=1.15 * half_road,
        separation=2.3 * half_road,
    )
    return [stops for _, _, stops, _ in _corner_stretches(spec, path, space)]


def test_the_repository_holds_the_circuits_of_the_published_boards():
    assert set(PRINTED) <= set(ALL)
    assert len(ALL) >= 30


def test_built_boards_have_the_corners_and_stops_of_the_printed_boards():
    corner_errors, stop_errors = [], []
    for circuit, (corners, stops) in PRINTED.items():
        got_corners, got_stops = counts(built(circuit))
        corner_errors.append(got_corners - corners)
        stop_errors.append(got_stops - stops)
    report = dict(zip(PRINTED, zip(corner_errors, stop_errors, strict=True), strict=True))
    # the median board within one corner and one stop of its printed board, none far off
    assert abs(statistics.median(corner_errors)) <= 1, report
    assert abs(statistics.median(stop_errors)) <= 1, report
    assert statistics.median(abs(e) for e in stop_errors) <= 1, report
    assert max(abs(e) for e in corner_errors + stop_errors) <= 2, report


def test_built_boards_are_the_size_of_the_printed_boards():
    per_lane = []
    for circuit in PRINTED:
        track = built(circuit)
        spaces = track.spaces(kind="track")
        lanes = len({track.space(s)["lane"] for s in spaces})
        per_lane.append(len(spaces) / lanes)
    assert 0.9 <= statistics.median(per_lane) / 154 <= 1.1, per_lane


def test_every_circuit_gets_about_as_many_corners_and_stops_as_a_printed_board():
    found = {circuit: suggested(circuit) for circuit in ALL}
    corners = [len(s) for s in found.values()]
    stops = [sum(s) for s in found.values()]
    assert 7 <= statistics.median(corners) <= 9, found  # printed: 8
    assert 10 <= statistics.median(stops) <= 12, found  # printed: 11
    # the printed boards' ranges: 4-12 corners, 6-16 stops (one in ten may stray a little)
    outside = [c for c, s in found.items() if not (4 <= len(s) <= 12 and 6 <= sum(s) <= 16)]
    assert len(outside) <= len(ALL) // 10, {c: found[c] for c in outside}
    # most corners 1-stop, few 3-stop (printed: 64% / 28% / 8%)
    every = [n for s in found.values() for n in s]
    assert every.count(1) / len(every) >= 0.5, every
    assert every.count(3) / len(every) <= 0.15, every


@pytest.mark.parametrize("circuit", ALL)
def test_a_pit_lane_builds_on_every_circuit_and_says_when_it_holds_fewer_boxes(circuit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        track = build_track(CIRCUITS / f"{circuit}.geojson", pit=True)
    boxes = len(track.boxes())
    fewer = [w for w in caught if issubclass(w.category, FewerBoxesWarning)]
    notes = [str(w.message) for w in fewer]
    assert 1 <= boxes <= 10
    if boxes < 10:
        assert len(notes) == 1 and f"holds {boxes} boxes, not 10" in notes[0], notes
        assert Path(fewer[0].filename) == Path(__file__)  # it names the caller's line
    else:
        assert not notes, notes


def test_a_short_finish_straight_gets_the_boxes_it_holds_and_a_note():
    # at 90 spaces a lap Spa's finish straight holds 4 boxes (it was refused: issue 25)
    with pytest.warns(FewerBoxesWarning, match="holds 4 boxes, not 10: built with 4") as caught:
        track = build_track(CIRCUITS / "be-1925.geojson", spaces_per_lap=90, pit=True)
    assert len(track.boxes()) == 4
    assert Path(caught[0].filename) == Path(__file__)


def test_a_winding_circuit_gets_more_spaces_than_one_of_long_straights():
    # drawn to fit a table, as the printed boards are: Shanghai winds about, Monza fills
    # its table with long straights (printed boards: about 200 and 125 spaces a lane)
    def centre_spaces(circuit: str) -> int:
        spec = make_spec(CIRCUITS / f"{circuit}.geojson")
        return default_spaces_per_lap(spec)

    assert centre_spaces("cn-2004") >= 1.15 * centre_spaces("it-1922")
    sizes = [centre_spaces(c) for c in ALL]
    assert 0.95 <= statistics.median(sizes) / DEFAULT_SPACES_PER_LAP <= 1.1, sizes
