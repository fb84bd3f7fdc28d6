"""The GP Online importer grows about linearly with the board.

The boards are the synthetic staircases of ``benchmarks/import_track.py``,
laid out by the project itself; a staircase of 4 teeth has about 800 spaces,
one of 24 about 4,000. Times are measured by that benchmark, never here: the
test counts the comparisons the import makes.
"""

import importlib.util
from pathlib import Path

import pytest

from fdlab.track import validate
from fdlab.track.formats import read_gponline, shapes

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "import_track.py"


@pytest.fixture(scope="module")
def staircase_dat():
    spec = importlib.util.spec_from_file_location("import_track_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.staircase_dat


def _write(tmp_path, staircase_dat, teeth):
    path = tmp_path / f"staircase-{teeth}.dat"
    path.write_text(staircase_dat(teeth))
    return path


def test_the_synthetic_staircase_is_a_sound_board(tmp_path, staircase_dat):
    track = read_gponline(_write(tmp_path, staircase_dat, 2))
    report = validate(track, cars=5)
    assert report.ok, str(report)
    assert len(track.corners) == 8
    assert len(track.boxes()) == 4


def test_spaces_side_by_side_are_found_comparing_only_nearby_spaces(
    tmp_path, staircase_dat, monkeypatch
):
    compared = []
    original = shapes._overlapping

    def counted(a, b, lap):
        compared.append(1)
        return original(a, b, lap)

    monkeypatch.setattr(shapes, "_overlapping", counted)
    per_space = []
    for teeth in (4, 16):
        compared.clear()
        track = read_gponline(_write(tmp_path, staircase_dat, teeth))
        per_space.append(len(compared) / len(track))
    # every space is compared with a few of the lane beside it, not with all of them
    assert per_space[1] < 1.5 * per_space[0], per_space
    assert per_space[1] < 10
