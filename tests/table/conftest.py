"""The table tests share a ring board and ``table_helpers.py``: make it importable."""

import sys
from concurrent.futures import Future
from pathlib import Path

import pytest

from fdlab.table import solving
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


class HeldSolver:
    """A worker that runs a submitted solve only when the test says so."""

    def __init__(self) -> None:
        self.queued: list[tuple[Future, object, tuple, dict]] = []

    def submit(self, function, *args, **kwargs) -> Future:
        future: Future = Future()
        self.queued.append((future, function, args, kwargs))
        return future

    def finish(self) -> None:
        for future, function, args, kwargs in self.queued:
            future.set_result(function(*args, **kwargs))
        self.queued.clear()


@pytest.fixture
def held(monkeypatch):
    """Solves wait for :meth:`HeldSolver.finish`; every board counts as unsolved."""
    solver = HeldSolver()
    monkeypatch.setattr(solving, "_SOLVER", solver)
    monkeypatch.setattr("fdlab.bots.roster.known_table", lambda *args, **kwargs: None)
    return solver
