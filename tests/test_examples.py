"""The example boards in examples/: up to date with their script, and imported without problems."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from fdlab.cli import main
from fdlab.track.formats import detect_format, import_track
from fdlab.track.io import load_track
from fdlab.track.validate import validate

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SCRIPT = EXAMPLES / "make_examples.py"

#: Each example file and the format ``fdlab import`` should find in it.
FORMATS = {
    "stadium.dat": "gponline",
    "stadium-tts.json": "tts",
    "stadium.geojson": "geojson",
}


def test_running_the_script_again_writes_the_same_files(tmp_path):
    """``python examples/make_examples.py FOLDER`` writes byte for byte the shipped files."""
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, cwd=REPO
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FORMATS)
    for name in FORMATS:
        assert (tmp_path / name).read_bytes() == (EXAMPLES / name).read_bytes(), (
            f"examples/{name} is out of date: run python examples/make_examples.py"
        )


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_example_imports_as_a_board_with_no_problems(name):
    path = EXAMPLES / name
    assert detect_format(path) == FORMATS[name]
    track = import_track(path)
    report = validate(track)  # a race of ten cars, as fdlab import checks
    assert report.ok, report
    assert len(track.grid_spots()) == 10


def test_the_geojson_example_is_the_gponline_board_exported():
    assert import_track(EXAMPLES / "stadium.geojson") == import_track(EXAMPLES / "stadium.dat")


def test_fdlab_import_of_the_gponline_example_exits_0_and_writes_a_track_file(tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["import", str(EXAMPLES / "stadium.dat"), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "GP Online" in said and "no problems found" in said
    track = load_track(out)
    assert len(track) == 110
    assert track == import_track(EXAMPLES / "stadium.dat")


def test_the_script_docstring_examples_pass():
    spec = importlib.util.spec_from_file_location("make_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
