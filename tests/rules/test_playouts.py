"""Random playouts: invariants after every step, races always end, replays are exact.

Runs on hand-drawn loops with every feature (corners of 1-3 stops, pits and
boxes, shooting and danger spaces, police line, tunnel) and on every shipped
board in ``tracks/*.json`` once they exist.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.bots.roster import make_bot
from fdlab.rules import (
    Engine,
    LoadedDice,
    RaceState,
    RaceStuckError,
    SeededDice,
    compile_board,
    simulate,
)
from fdlab.rules.actions import ChooseMove, RollGrid
from fdlab.rules.loop import bot_action
from fdlab.rules.order import race_distance
from fdlab.rules.presets import get_preset
from fdlab.rules.race import Race
from fdlab.rules.view import RaceView
from fdlab.track import from_ascii
from fdlab.track.examples import two_corner_ring

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "tracks").glob("*.json"))


def feature_loop():
    """A 3-lane loop with every feature; 12 grid spots, 4 boxes."""
    rows = [
        ". . . . 1 1 1 . . S . . . 2 2 2 . . . D . . . . 3 3 3 . . . . . . . . . .",
        ". . . . 1 1 1 . . . . . . 2 2 2 . . . D . . . . 3 3 3 . . . . . . . . . .",
        ". . . . 1 1 1 . . . . . . 2 2 2 . . . . . . . . 3 3 3 . . S . . . . . . .",
    ]
    ncols = len(rows[0].split())
    pit = ["x"] * (ncols - 7) + ["p"] * 7
    box = ["x"] * (ncols - 6) + ["B"] * 4 + ["x"] * 2
    text = "\n".join(rows + [" ".join(pit), " ".join(box)])
    nrows = 5
    grid = [c * nrows + r for c in range(ncols - 1, ncols - 5, -1) for r in range(3)]
    return from_ascii(
        text,
        corners={1: 1, 2: 2, 3: 3},
        closed=True,
        finish=0,
        police=10,
        grid=grid,
        tunnels={"T": (20 * nrows + 2, 22 * nrows + 2)},
        name="feature loop",
    )


def plain_loop():
    """Two lanes, two 1-stop corners, tight enough for traffic."""
    return two_corner_ring(stops=(1, 1), cars=6)


def shipped_boards():
    from fdlab.track.io import load_track

    return {path.stem: compile_board(load_track(path)) for path in SHIPPED}


BOARDS = {
    "feature loop": compile_board(feature_loop()),
    "plain loop": compile_board(plain_loop()),
    **shipped_boards(),
}
PRESETS = ["basic", "basic2", "street", "advanced"]


def preset_named(name):
    return get_preset("basic", laps=2) if name == "basic2" else get_preset(name)


def check(engine, before, after):
    board = engine.board
    preset = engine.preset
    spaces = [car.space for car in after.cars if car.space >= 0]
    assert len(spaces) == len(set(spaces)), "two cars on one space"
    for old, car in zip(before.cars, after.cars, strict=True):
        assert all(0 <= v <= m for v, m in zip(car.pools, preset.pool_max, strict=True)), car
        if car.racing and old.space >= 0:
            assert race_distance(board, car) >= race_distance(board, old) - 1e-9, "moved backwards"
        if car.racing and car.space >= 0:
            corner = board.corner[car.space]
            if corner is None:
                assert car.stops == 0
            elif old.space == car.space and before.phase == "move" and after.phase != "move":
                assert car.stops in (old.stops, old.stops + 1)
        if not car.racing:
            assert car.space == -1
    assert set(after.finished).isdisjoint(after.eliminated)
    assert RaceState.from_json(json.loads(json.dumps(after.to_json()))) == after


class StopCounter:
    """An independent count of stops: consecutive move ends in the same corner (C-2, C-6)."""

    def __init__(self, board, n):
        self.board = board
        self.streak = [(None, 0)] * n

    def after_move(self, c, car, events):
        corner = self.board.corner[car.space] if car.space >= 0 else None
        last, count = self.streak[c]
        count = count + 1 if corner is not None and corner == last else (1 if corner else 0)
        self.streak[c] = (corner, count)
        if not car.racing or corner is None:
            return
        texts = " ".join(e.text for e in events if e.car == c)
        if "overshoot" in texts or "spin" in texts:
            # C-5: after an overshoot the stop in a new corner does not count
            assert car.stops <= count
            self.streak[c] = (corner, car.stops)
        else:
            assert car.stops == count, (car, count, texts)


def checked_race(board, preset, bots, seed):
    engine = Engine(board, preset, [f"car{i}" for i in range(len(bots))])
    dice = SeededDice(seed)
    state, _ = engine.step(engine.initial_state(), RollGrid(), dice)
    stops = StopCounter(board, len(bots))
    while not state.over:
        c = state.current
        action = bot_action(bots[c], RaceView(engine, state, c))
        new, events = engine.step(state, action, dice)
        check(engine, state, new)
        if isinstance(action, ChooseMove):
            stops.after_move(c, new.cars[c], events)
        state = new
    assert len(state.finished) + len(state.eliminated) == len(bots)
    return state


def bots_for(n, seed, mix, board=None, preset=None):
    """Heuristic and random bots by the bits of ``mix``; with a board, car 1 is the default bot."""
    bots = [HeuristicBot() if (mix >> i) & 1 else RandomBot(seed * 31 + i) for i in range(n)]
    if board is not None:
        bots[0] = make_bot("par", board=board, preset=preset, seed=seed, slot=1)
    return bots


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(2, 6),
    mix=st.integers(0, 63),
    preset=st.sampled_from(PRESETS),
    board=st.sampled_from(sorted(BOARDS)),
)
def test_random_playouts_keep_the_invariants(seed, n, mix, preset, board):
    """Invariants after every step (D-1 pools, M-2 one car a space, no reversing M-1, C-6 stops).

    Also: the state survives a JSON round trip after every step. A spin (A-3)
    turns the car where it stands, so race distance never decreases.
    """
    rules = preset_named(preset)
    checked_race(BOARDS[board], rules, bots_for(n, seed, mix, BOARDS[board], rules), seed)


@pytest.mark.skipif("street" not in BOARDS, reason="no shipped street board")
def test_a_car_leaving_a_box_past_the_finish_line_goes_on_not_a_lap_back():
    """S-4, P-2: on Baku the last box lies just past the finish line; a car that stops
    there and leaves it goes on in the same lap (it once went from the box, counted at
    the end of the lap, a lap back to the pit exit). The race that showed it, every
    step checked: nobody ends a move behind where it started, lap and progress together."""
    rules = get_preset("street", laps=2)
    checked_race(BOARDS["street"], rules, [HeuristicBot() for _ in range(9)], seed=1224868286)


@pytest.mark.parametrize("preset", PRESETS)
def test_ten_cars_race_to_the_end_on_the_feature_loop(preset):
    """Full races of 10 bots (default, heuristic and random) end under every preset."""
    board, rules = BOARDS["feature loop"], preset_named(preset)
    bots = [HeuristicBot() if i % 2 else RandomBot(i) for i in range(10)]
    bots[0] = make_bot("par", board=board, preset=rules, seed=0, slot=1)
    bots[2] = make_bot("par:cautious", board=board, preset=rules, seed=0, slot=3)
    checked_race(board, rules, bots, seed=7)


@pytest.mark.parametrize("preset", PRESETS)
def test_replay_from_seed_gives_the_same_race(preset):
    board = BOARDS["feature loop"]
    bots = lambda: [HeuristicBot(), RandomBot(3), RandomBot(4)]  # noqa: E731
    first = simulate(board, bots(), preset_named(preset), seed=21)
    second = simulate(board, bots(), preset_named(preset), seed=21)
    assert first.state == second.state
    assert [e.text for e in first.events] == [e.text for e in second.events]


def test_a_stuck_race_raises_instead_of_hanging():
    """The hard cap on rounds raises RaceStuckError."""

    class Parked:
        def choose_gear(self, view):
            return 1

        def choose_move(self, view, moves):
            return min(moves, key=lambda m: m[0].moved)[0]

    with pytest.raises(RaceStuckError, match="cap of 5 rounds"):
        simulate(BOARDS["plain loop"], [Parked()], "basic", seed=1, max_rounds=5)


def test_loaded_dice_drive_a_whole_race():
    class FirstGear(HeuristicBot):
        def choose_gear(self, view):
            return 1

    # a closed lap of 8: the grid spot is just behind the line, so the first crossing
    # starts lap 1 and the second one finishes the race (S-4)
    board = compile_board(from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1))
    dice = LoadedDice([10] + [2] * 5)
    result = simulate(board, [FirstGear()], "basic", dice=dice)
    assert result.winner == "Blue" and result.rounds == 5 and dice.remaining == 0


def bot_counts(path, preset):
    """Race sizes for one board and preset: 2, 10 and one size between.

    The size between rotates over the (board, preset) pairs, so that together
    they cover every size from 2 to 10; sizes the grid cannot take are dropped.
    """
    pair = SHIPPED.index(path) * len(PRESETS) + PRESETS.index(preset)
    spots = sum(1 for g in BOARDS[path.stem].grid if g is not None)
    return sorted({2, 3 + pair % 7, 10} & set(range(2, min(10, spots) + 1)))


def test_shipped_races_cover_every_size_from_2_to_10():
    sizes = {n for path in SHIPPED for preset in PRESETS for n in bot_counts(path, preset)}
    if len(SHIPPED) * len(PRESETS) < 7:
        pytest.skip("fewer than 7 board-preset pairs")
    assert sizes == set(range(2, 11))


@pytest.mark.skipif(not SHIPPED, reason="no shipped boards in tracks/ yet")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
@pytest.mark.parametrize("preset", PRESETS)
def test_shipped_boards_race_to_the_end(path, preset):
    """Every shipped board, every preset: races of 2, some n and 10 bots end, invariants kept.

    Car 1 is the default bot (ParBot), the others heuristic and random bots.
    """
    board, rules = BOARDS[path.stem], preset_named(preset)
    for n in bot_counts(path, preset):
        checked_race(board, rules, bots_for(n, n, 0b1010101010, board, rules), seed=5 + n)


@pytest.mark.skipif(not SHIPPED, reason="no shipped boards in tracks/ yet")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_board_race_replays_from_seed_and_json_actions(path):
    """A whole bot race on each shipped board (presets rotated) replays roll for roll."""
    preset = preset_named(PRESETS[SHIPPED.index(path) % len(PRESETS)])
    board = BOARDS[path.stem]
    race = Race(board, cars=4, preset=preset, seed=13)
    race.play_bots(bots_for(4, 13, 0b0101, board, preset))
    assert race.over
    actions = json.loads(json.dumps([a.to_json() for a in race.actions]))
    again = Race.replay(board, 13, actions, cars=4, preset=preset)
    assert again.state == race.state and again.log == race.log
