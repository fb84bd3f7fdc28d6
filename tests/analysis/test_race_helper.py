"""The verdicts' helper process: it shares the races, and the results do not change."""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from fdlab.analysis.examples import tight_ring
from fdlab.analysis.playtest import playtest
from fdlab.analysis.race_helper import RaceHelper
from fdlab.analysis.verdict import board_verdict
from fdlab.track.examples import two_corner_ring

#: The playtest module itself (the package's attribute of that name is the function).
playtest_module = importlib.import_module("fdlab.analysis.playtest")


@pytest.fixture(scope="module")
def helper() -> Iterator[RaceHelper]:
    started = RaceHelper()
    started.start()
    if not started.wait(120):
        pytest.skip("no second process can start here")
    yield started
    started.close()


def test_a_playtest_shared_with_the_helper_gives_the_same_tables(
    helper: RaceHelper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper plays some of the races (this process plays its chunks slowly here, so
    the helper begins one however busy the machine is: twelve races of two cars on a
    small ring were all taken back before it began, on a loaded machine), and the tables
    are those of the races played here alone."""
    before = helper.races_played
    alone = playtest(two_corner_ring(), 2, races=12, seed=4, workers=1, progress=False)
    run_here = playtest_module.run_races

    def slowly(*args: Any) -> Any:
        time.sleep(0.25)
        return run_here(*args)

    monkeypatch.setattr(playtest_module, "run_races", slowly)  # this process only
    shared = playtest(
        two_corner_ring(),
        2,
        races=12,
        seed=4,
        workers=1,
        chunk_size=1,
        helper=helper,
        progress=False,
    )
    assert helper.races_played > before  # the helper did play some of them
    pd.testing.assert_frame_equal(alone.races, shared.races)
    pd.testing.assert_frame_equal(alone.cars, shared.cars)
    pd.testing.assert_frame_equal(alone.turns, shared.turns)


def test_the_verdict_is_the_same_with_the_helper(helper: RaceHelper) -> None:
    alone = board_verdict(tight_ring(), races=8)
    shared = board_verdict(tight_ring(), races=8, helper=helper)
    assert (shared.par, shared.rounds, shared.finished) == (alone.par, alone.rounds, alone.finished)
    assert shared.corners == alone.corners


def test_a_helper_not_started_leaves_every_race_here() -> None:
    idle = RaceHelper()
    result = playtest(two_corner_ring(), 2, races=4, workers=1, helper=idle, progress=False)
    assert len(result.races) == 4 and idle.races_played == 0 and not idle.ready


def test_a_helper_whose_process_is_gone_leaves_the_races_here(helper: RaceHelper) -> None:
    gone = RaceHelper()
    gone.start()
    assert gone.wait(120)
    assert gone._pool is not None
    gone._pool.shutdown(wait=True)  # as when the process ends under it
    result = playtest(two_corner_ring(), 2, races=4, workers=1, helper=gone, progress=False)
    assert sorted(result.races["race"]) == [0, 1, 2, 3]
    assert gone.races_played == 0 and not gone.ready
