"""The stadium board of ``examples/stadium.py`` as fixtures for the import tests.

``stadium`` lays out a three-lane stadium-shaped circuit (see that module);
``gponline_text`` and ``tts_document`` write it in GP Online's and the
Tabletop Simulator mod's formats. The shipped examples are made with the
same code (``examples/make_examples.py``).
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from stadium import FINISH_ROW, NARROW_ROWS, gponline_text, stadium, tts_document


@pytest.fixture
def gponline_file(tmp_path):
    path = tmp_path / "stadium.dat"
    path.write_text(gponline_text(stadium()))
    return path


@pytest.fixture
def tts_file(tmp_path):
    path = tmp_path / "stadium.json"
    path.write_text(json.dumps(tts_document(stadium()), indent=1))
    return path


@pytest.fixture
def boards():
    """The board makers and layout constants of ``examples/stadium.py``, for the tests."""
    return SimpleNamespace(
        stadium=stadium,
        gponline_text=gponline_text,
        tts_document=tts_document,
        FINISH_ROW=FINISH_ROW,
        NARROW_ROWS=NARROW_ROWS,
    )
