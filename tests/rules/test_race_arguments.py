"""Bad input to a race gives one clear error naming the argument (issue 15).

``Race(...)`` arguments, moves a player types, and race states read back
from JSON (a saved or tampered position) are checked before anything is
played.
"""

import json
from pathlib import Path

import pytest

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.rules import Race, RaceState, SeededDice
from fdlab.rules.errors import IllegalMoveError, StateError
from fdlab.rules.loop import iter_race
from fdlab.rules.state_check import check_state
from fdlab.track import from_ascii, load_track

REPO = Path(__file__).resolve().parents[2]
TRAINING = REPO / "tracks" / "training.json"


@pytest.fixture(scope="module")
def track():
    return load_track(TRAINING)


@pytest.mark.parametrize(
    ("cars", "error", "words"),
    [
        (-1, ValueError, "cars: a race has 1 to 10 cars, not -1"),
        (0, ValueError, "cars: a race has 1 to 10 cars, not 0"),
        (11, ValueError, "cars: a race has 1 to 10 cars, not 11"),
        (1000, ValueError, "cars: a race has 1 to 10 cars, not 1000"),
        (True, TypeError, "cars must be a number of cars (1 to 10) or a list of names, not True"),
        (2.0, TypeError, "cars must be a number of cars"),
        ("Blue", TypeError, "cars must be a list of names, not the single string 'Blue'"),
        (["Ann", "Ann"], ValueError, "cars: every car needs its own name; 'Ann' is there twice"),
        ([f"car {i}" for i in range(11)], ValueError, "cars: a race has 1 to 10 cars, not 11"),
    ],
)
def test_bad_car_counts_and_names_are_refused(track, cars, error, words):
    with pytest.raises(error) as info:
        Race(track, cars=cars, seed=1)
    assert str(info.value) == words or str(info.value).startswith(words)


def test_a_path_instead_of_a_track_says_how_to_load_it():
    with pytest.raises(TypeError, match=r"^track must be a Track .*not str; .*load_track\("):
        Race(str(TRAINING), seed=1)
    with pytest.raises(TypeError, match="not PosixPath"):
        Race(TRAINING, seed=1)


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"preset": None}, TypeError, "preset must be a preset name (advanced, basic, street)"),
        ({"preset": 3}, TypeError, "preset must be a preset name"),
        ({"preset": "fast"}, ValueError, "no rules preset 'fast'; choose one of"),
        ({"laps": 1.5}, TypeError, "laps must be a whole number of laps"),
        ({"seed": "7"}, TypeError, "seed must be a whole number (or None), not '7'"),
        ({"max_rounds": 0}, ValueError, "max_rounds must be a whole number of at least 1"),
        ({"dice": [1, 2, 3]}, TypeError, "dice must be a dice source with roll, snapshot"),
        ({"start": "state.json"}, TypeError, "start must be a RaceState or its JSON form"),
    ],
)
def test_other_bad_arguments_name_the_argument(track, options, error, words):
    with pytest.raises(error) as info:
        Race(track, **({"seed": 1} | options))
    assert str(info.value).startswith(words)


def test_good_arguments_still_work(track):
    assert Race(track, cars=["Ann", "Bo"], seed=-1).names == ("Ann", "Bo")
    assert len(Race(track, cars=10, seed=1).names) == 10


@pytest.mark.parametrize(
    "play",
    [
        lambda race: race.play([3]),
        lambda race: race.play({"to": 3}),
        lambda race: race.play(to=[3]),
        lambda race: race.play(to=3, path=[[1], 3]),
        lambda race: race.play(to=3, path=5),
    ],
)
def test_unhashable_moves_are_illegal_moves_and_change_nothing(track, play):
    race = Race(track, cars=2, seed=1)
    race.play(1)
    before = race.state
    with pytest.raises(IllegalMoveError, match=r"^M-1: .*space id"):
        play(race)
    assert race.state is before


# -- race states read back from JSON -------------------------------------------------------


def _moving_state(track) -> dict:
    race = Race(track, cars=3, seed=4)
    race.play(1)
    return race.state.to_json()


def _tamper(data: dict, car: int, key: str, value) -> dict:
    data = json.loads(json.dumps(data))
    data["cars"][car][key] = value
    return data


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("pools", [-5], "cars[1].pools: a damage pool cannot go below 0, not -5"),
        ("pools", [99], "cars[1].pools: SP is 99; it starts at 18 and never goes above it"),
        ("pools", [18, 18], "cars[1].pools: preset 'basic' has 1 pools (SP), not 2"),
        ("gear", 9, "cars[1].gear: must be a whole number from 0 to 6, not 9"),
        ("gear", "3", "cars[1].gear: must be a whole number from 0 to 6, not '3'"),
        ("space", 10_000, "cars[1].space: the board has spaces 0 to {last} (indices), not 10000"),
        ("space", -7, "cars[1].space: must be a space index (>= -1), not -7"),
        ("status", "resting", "cars[1].status: must be one of racing, finished, eliminated"),
        ("wings", 2, "cars[1].wings: unknown field"),
    ],
)
def test_a_tampered_car_is_refused_on_load(track, key, value, words):
    with pytest.raises(StateError) as info:
        Race(track, cars=3, start=_tamper(_moving_state(track), 1, key, value))
    assert str(info.value).startswith(words.format(last=len(track) - 1))


def test_two_cars_on_one_space_are_refused(track):
    data = _moving_state(track)
    data["cars"][2]["space"] = data["cars"][0]["space"]
    with pytest.raises(StateError, match=r"^cars\[2\]\.space: Green is on space .* with Blue"):
        Race(track, cars=3, start=data)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(phase="lunch"), "phase: must be one of grid, gear, move, over"),
        (lambda d: d.update(order=[0, 0, 1]), "order: names a car twice"),
        (lambda d: d.update(order=[0, 5]), "order: must be a list of car indices 0 to 2"),
        (lambda d: d.update(turn=7), "turn: 7 is past the end of order"),
        (lambda d: d.update(nitro=1), "nitro: must be true or false, not 1"),
        (lambda d: d.pop("roll"), "roll: missing"),
        (lambda d: d.update(cars=[]), "cars: must be a list of cars"),
        (lambda d: d["cars"].pop(), "order: must be a list of car indices 0 to 1"),
        (
            lambda d: d.update(cars=d["cars"] + [d["cars"][0]]),
            "cars: the state has 4 cars, the race 3",
        ),
        (lambda d: d["cars"][0].update(status="finished"), "finished: car 0 is finished but not"),
    ],
)
def test_a_tampered_race_is_refused_on_load(track, change, words):
    data = _moving_state(track)
    change(data)
    with pytest.raises(StateError) as info:
        Race(track, cars=3, start=data)
    assert str(info.value).startswith(words)


def test_the_json_of_a_state_loads_back_and_plays_on(track):
    race = Race(track, cars=3, seed=4)
    race.play(1)
    again = Race(track, cars=3, seed=4, start=race.state.to_json())
    assert again.state == race.state
    assert again.legal_moves() == race.legal_moves()


STREET = from_ascii(
    """
    . . . . 1 1 1 . . S . . . 2 2 2 . . . D . . . . 3 3 3 . . . . . . . . . .
    . . . . 1 1 1 . . . . . . 2 2 2 . . . D . . . . 3 3 3 . . . . . . . . . .
    x x x x x x x x x x x x x x x x x x x x x x x x x x x x x p p p p p p p x
    x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x B B B B x x x
    """,
    corners={1: 1, 2: 2, 3: 3},
    closed=True,
    police=10,
    grid=[35 * 4 + 0, 35 * 4 + 1, 34 * 4 + 0, 34 * 4 + 1],
    name="checked loop",
)


@pytest.mark.parametrize(("preset", "laps"), [("basic", 2), ("street", 2), ("advanced", 2)])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_a_race_makes_passes_the_checks(preset, laps, seed):
    """The checks refuse only states that cannot happen: none of a played race's."""
    race = Race(STREET, cars=4, preset=preset, laps=laps, seed=seed, max_rounds=200)
    bots = [HeuristicBot(), RandomBot(seed), HeuristicBot(), RandomBot(seed + 1)]
    count = 0
    for step in iter_race(race.engine, bots, SeededDice(seed), race.state):
        check_state(race.engine, step.state)
        assert RaceState.from_json(json.loads(json.dumps(step.state.to_json()))) == step.state
        count += 1
    assert count > 20


def test_simulate_collects_cycles_less_often_and_puts_the_thresholds_back():
    """A race runs with a raised first threshold (speed); the caller's thresholds come back."""
    import gc

    from fdlab.rules import collector
    from fdlab.rules.collector import fewer_collections
    from fdlab.rules.simulate import simulate
    from fdlab.track.examples import two_corner_ring

    seen = []

    class Watching(HeuristicBot):
        def choose_gear(self, view):
            seen.append(gc.get_threshold()[0])
            return super().choose_gear(view)

    before = gc.get_threshold()
    simulate(two_corner_ring(stops=(1, 1)), [Watching(), Watching()], seed=3)
    assert seen and min(seen) >= collector.RACE_THRESHOLD
    assert gc.get_threshold() == before
    with pytest.raises(ValueError, match="at least 1"), fewer_collections(0):
        pass
    assert gc.get_threshold() == before
