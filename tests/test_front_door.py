"""The front door: ``import fdlab as fd`` gives the verbs a user starts from, lazily,
and a race plays bots by name as the race table does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import fdlab as fd
from fdlab.bots import BotSpecError
from fdlab.rules import RuleError
from fdlab.table import TableController

REPO = Path(__file__).resolve().parents[1]
TRACKS = REPO / "tracks"

VERBS = [
    "load_track",
    "build_track",
    "validate",
    "import_track",
    "Race",
    "RaceTable",
    "TrackEditor",
    "playtest",
    "solve_par",
    "print_board",
    "make_bot",
    "Game",
]


def _modules_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter after running ``code``."""
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=REPO
    )
    return set(done.stdout.split())


@pytest.mark.parametrize("name", VERBS)
def test_the_front_door_gives_each_verb_from_its_home(name):
    value = getattr(fd, name)
    assert callable(value)
    assert name in dir(fd) and name in fd.__all__
    assert value.__module__.startswith(fd.FRONT_DOOR[name].rpartition(".")[0])


def test_an_unknown_name_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="'fdlab' has no attribute 'load_trak'"):
        fd.load_trak  # noqa: B018


def test_importing_fdlab_loads_no_bokeh_no_widgets_no_bots_no_graphs():
    loaded = _modules_after("import fdlab")
    heavy = {"bokeh", "ipywidgets", "networkx", "numpy", "shapely", "fdlab.bots", "fdlab.rules"}
    assert not {m for m in loaded if m.split(".")[0] in heavy or m in heavy}, sorted(
        m for m in loaded if m.startswith(tuple(heavy))
    )


def test_a_race_from_the_rules_alone_plays_named_bots_without_the_rules_importing_them():
    """The names are resolved at the front door on first use: importing the rules loads
    no bot, and a race with bot names loads them only when it plays."""
    assert not {m for m in _modules_after("import fdlab.rules") if m.startswith("fdlab.bots")}
    code = (
        "from fdlab.rules import Race\nfrom fdlab.track.io import load_track\n"
        "race = Race(load_track('tracks/training.json'), cars=2, seed=4)\n"
        "race.play_bots(['heuristic', 'random'])\nassert race.over\n"
    )
    assert "fdlab.bots.roster" in _modules_after(code)


@pytest.fixture(scope="module")
def monaco():
    return fd.load_track(TRACKS / "monaco.json")


def test_R1_play_bots_with_names_plays_a_race_on_monaco_to_its_end(monaco):
    """R-1: three bots named as the race table names them race a lap of Monaco to the end."""
    race = fd.Race(monaco, cars=["Blue", "Red", "Green"], seed=7)
    race.play_bots(["par", "heuristic", "lookahead:bold"])
    assert race.over
    rows = race.standings()
    assert {row["car"] for row in rows} == {"Blue", "Red", "Green"}
    assert rows[0]["status"] == "finished"


def test_named_bots_wait_for_the_person_and_keep_their_seat_between_calls(monaco):
    race = fd.Race(monaco, cars=2, seed=5)
    race.play_bots([None, "par"])
    assert race.current == "Blue" and not race.over
    kept = race._named_bots[(1, "par")]
    race.play(race.legal_gears()[0])
    race.play(race.legal_moves()[0].destination)
    race.play_bots([None, "par"])
    assert race._named_bots[(1, "par")] is kept


def test_a_named_bot_is_the_bot_make_bot_gives_with_the_races_seed_for_that_car(monaco):
    by_name = fd.Race(monaco, cars=2, seed=11)
    by_name.play_bots(["random", "heuristic"])
    bots = [
        fd.make_bot(spec, board=by_name.board, preset=by_name.preset, seed=by_name.bot_seed(k))
        for k, spec in enumerate(["random", "heuristic"])
    ]
    by_object = fd.Race(monaco, cars=2, seed=11)
    by_object.play_bots(bots)
    assert by_object.actions == by_name.actions


def test_a_race_and_a_race_table_with_the_same_seats_play_the_same_race():
    track = fd.load_track(TRACKS / "training.json")
    seats = ["random", "lookahead", "heuristic:reckless"]
    race = fd.Race(track, cars=3, seed=21)
    race.play_bots(seats)
    table = TableController(fd.Race(track, cars=3, seed=21), seats)
    table.run_bots()
    assert table.race.actions == race.actions


def test_a_wrong_bot_name_is_one_clear_error_and_a_bare_name_asks_for_a_seat_per_car(monaco):
    race = fd.Race(monaco, cars=2, seed=1)
    with pytest.raises(BotSpecError, match="parr"):
        race.play_bots(["parr", None])
    with pytest.raises(RuleError, match="one seat per car"):
        race.play_bots("par")
    with pytest.raises(RuleError, match="1 policies for 2 cars"):
        race.play_bots(["par"])


def test_all_names_the_front_door_and_nothing_else():
    """``__all__`` is written out (for linters and ``from fdlab import *``): it must
    stay the front door's names."""
    assert set(fd.__all__) == {"__version__", *fd.FRONT_DOOR}
