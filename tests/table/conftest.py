"""The table tests share a ring board and ``table_helpers.py``: make it importable."""

import sys
from pathlib import Path

import pytest

from fdlab.track import from_ascii

sys.path.insert(0, str(Path(__file__).parent))

RING = """
    . . . . 1 1 1 . . . . . . . . 2 2 2 . . . .
    . . . . 1 1 1 . . . . . . . . 2 2 2 . . . .
"""


@pytest.fixture(scope="module")
def ring():
    """A two-lane ring with a 1-stop and a 2-stop corner and a grid of three."""
    return from_ascii(RING, corners={1: 1, 2: 2}, closed=True, grid=[41, 40, 39], name="Ring")
