"""The solver prices a move once per cost class: options that read alike to ``move_cost``.

C-3, C-4, A-2, P-4: a move's cost, besides its braking, depends only on the
spaces it goes beyond the exit lines in all, the most stops missing at a
corner it leaves, and whether it starts or ends in the pit zone
(:func:`fdlab.par.model._cost_reading`). These tests price every overshoot
tuple the solver meets on real boards with ``move_cost`` itself, at every
braking, and check that the options of one class cost the same.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from par_boards import pit_ring

from fdlab.par.model import SoloModel
from fdlab.rules.board import compile_board
from fdlab.rules.costs import move_cost
from fdlab.rules.movement import MoveOption
from fdlab.rules.presets import BASIC
from fdlab.rules.state import CarState
from fdlab.track import load_track

TRACKS = Path(__file__).resolve().parents[2] / "tracks"


BOARDS = {
    "monaco": lambda: (compile_board(load_track(TRACKS / "monaco.json")), BASIC),
    "zandvoort": lambda: (compile_board(load_track(TRACKS / "zandvoort.json")), BASIC),
    "pit ring, two laps": lambda: (compile_board(pit_ring(2)), replace(BASIC, laps=2)),
}


@pytest.mark.parametrize("name", list(BOARDS))
def test_options_of_one_cost_class_cost_the_same_at_every_braking(name):
    """C-3 / C-4 / P-4: every member of a cost class has one price per (braked, blocked)."""
    board, preset = BOARDS[name]()
    model = SoloModel(board, preset)
    classes = _classes_of_options(model)
    assert len(model._readings) < len(classes)  # the classes do merge keys
    on_track = model._off_track.tolist().index(False)
    off_track = model._off_track.tolist().index(True) if model._off_track.any() else None
    prices: dict[tuple[int, int, bool], tuple[int, bool, tuple]] = {}
    for (overshoots, starts_in_pit, ends_in_pit), number in classes.items():
        start = off_track if starts_in_pit else on_track
        destination = off_track if ends_in_pit else on_track
        car = CarState(space=start, pools=preset.pool_max, started=True)
        for braked in range(model.max_roll + 1):
            for blocked in (False, True):
                option = MoveOption(
                    destination=destination,
                    path=(),
                    moved=1,
                    braked=braked,
                    blocked=blocked,
                    lane_changes=0,
                    overshoots=overshoots,
                    corners_left=(),
                    stop_counts=True,
                    lines=frozenset(),
                    danger=(),
                    boxed=False,
                )
                cost = move_cost(board, preset, car, option)
                price = (cost.total, cost.eliminated or not cost.allowed)
                first = prices.setdefault((number, braked, blocked), (*price, overshoots))
                assert price == first[:2], (
                    f"{name}: {overshoots} and {first[2]} share cost class {number} but cost "
                    f"{price} and {first[:2]} braked {braked}, blocked {blocked}"
                )


def _classes_of_options(model: SoloModel) -> dict[tuple[tuple, bool, bool], int]:
    """(overshoots, starts in the pit zone, ends in it) -> cost class, over every option of
    every search of ``model``; a key always has the one class."""
    classes: dict[tuple[tuple, bool, bool], int] = {}
    for found in model._searches.values():
        starts_in_pit = bool(model._off_track[found.space])
        for overshoots, ends_in_pit, number in zip(
            found.overshoots, found.pit.tolist(), found.classes.tolist(), strict=True
        ):
            key = (overshoots, starts_in_pit, ends_in_pit)
            assert classes.setdefault(key, number) == number, key
    return classes
