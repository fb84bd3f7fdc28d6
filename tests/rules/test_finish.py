"""S-4: a car that crosses the finish line on its last lap has finished there."""

from pathlib import Path

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.costs import _cut_at_finish, move_cost
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.movement import MoveRules, move_options
from fdlab.rules.presets import BASIC
from fdlab.rules.state import CarState
from fdlab.track import from_ascii, load_track


def _options(text, corners, finish, start, roll):
    board = compile_board(from_ascii(text, corners=corners, finish=finish))
    options = move_options(board, start, roll)
    return board, options


TRACKS = Path(__file__).resolve().parents[2] / "tracks"

#: A ring of 12 spaces a lane: a move of 30 goes round it more than twice.
SMALL_RING = from_ascii(
    "\n".join([". . 1 1 . . . 2 . . . ."] * 2), corners={1: 1, 2: 2}, closed=True, grid=[22, 23]
)


def test_S4_corner_after_the_line_costs_nothing_on_the_last_lap():
    """S-4: running on into a 3-stop corner past the line neither damages nor eliminates."""
    board, options = _options(". . . 1 . . . .", {1: 3}, finish=2, start=0, roll=7)
    full = next(o for o in options if o.moved == 7)
    assert full.overshoots  # the corner is passed with no stop
    last_lap = CarState(space=0, pools=(18,), lap=BASIC.laps)
    cost = move_cost(board, BASIC, last_lap, full)
    assert not cost.eliminated and sum(cost.loss) == 0


def test_S4_same_move_before_the_last_lap_still_pays_C4():
    """C-4 still applies when the line crossed is not the car's last."""
    board, options = _options(". . . 1 . . . .", {1: 3}, finish=2, start=0, roll=7)
    full = next(o for o in options if o.moved == 7)
    first_lap = CarState(space=0, pools=(18,), lap=0)
    assert move_cost(board, BASIC, first_lap, full).eliminated


def test_S4_overshoot_before_the_line_is_counted_up_to_the_line():
    """C-3 before the line: only the spaces between the exit line and the finish line cost SP."""
    #        0 1 2 3 4 5 6 7  (finish line between columns 4 and 5)
    board, options = _options(". 1 . . . . . .", {1: 1}, finish=5, start=0, roll=7)
    full = next(o for o in options if o.moved == 7)
    last_lap = CarState(space=0, pools=(18,), lap=BASIC.laps)
    cost = move_cost(board, BASIC, last_lap, full)
    assert cost.loss == (3,)  # spaces 2, 3 and 4 lie beyond the exit line, before the finish line
    assert move_cost(board, BASIC, CarState(space=0, pools=(18,), lap=0), full).loss == (6,)


def test_S4_braking_across_the_line_is_free():
    """S-4: a car that crosses the line while braking has finished; the braking is not paid."""
    board, options = _options(". . . . . . . .", {}, finish=3, start=0, roll=7)
    braked = next(o for o in options if o.moved == 5)
    last_lap = CarState(space=0, pools=(18,), lap=BASIC.laps)
    assert sum(move_cost(board, BASIC, last_lap, braked).loss) == 0


def test_S4_the_engine_finishes_the_car_at_the_line_and_counts_laps_on_a_loop():
    """S-4 through the engine: the line ends the race on the last lap only.

    On a closed 2-lap loop, the same move across the line into a 3-stop
    corner eliminates at the end of lap 1 (C-4) and finishes, undamaged, on
    lap 2; the finished car leaves the board with its lap count at laps + 1.
    """
    row = ". . . . . . . . . . . . . . 1 1 . . . ."
    track = from_ascii("\n".join([row] * 2), corners={1: 3}, closed=True, finish=13)
    board = compile_board(track)
    engine = Engine(board, BASIC.with_laps(2), ["A", "B"])
    results = {}
    for lap in (1, 2):
        state = engine.position(
            [{"space": 20, "gear": 3, "lap": lap}, {"space": 2, "gear": 1, "lap": 1}],
            order=(0, 1),
        )
        state, _ = engine.step(state, ChooseGear(3), LoadedDice([8]))
        full = [o for o, _ in engine.legal_moves(state) if o.moved == 8]
        assert full and all("finish" in o.lines and o.overshoots for o in full)
        state, events = engine.step(
            state, ChooseMove(board.ids[full[0].destination]), LoadedDice([])
        )
        results[lap] = (state, [str(e) for e in events])
    after_lap_1, log_1 = results[1]
    assert after_lap_1.eliminated == (0,) and any("C-4" in line for line in log_1)
    finished, log_2 = results[2]
    car = finished.cars[0]
    assert finished.finished == (0,) and car.status == "finished" and car.space == -1
    assert car.pools == (18,) and car.lap == 3  # laps + 1: crossed the line on its last lap
    assert log_2 == ["A moves 8 to space 36", "A crosses the finish line: 1st place (S-4)"]


def test_S4_an_open_board_is_a_sprint_to_the_finish_line():
    """S-4 (decision): on an open board the first crossing of the finish line finishes."""
    from fdlab.rules import Race

    track = from_ascii(". . . . . . . . . .", grid=[3], finish=5)
    race = Race(track, cars=["Blue"], dice=LoadedDice([20]))
    race.play(1)  # start roll 20: flying start, 4 spaces, over the line
    race.play(7)
    assert race.over
    assert any("crosses the finish line: 1st place" in line for line in race.log)


def test_S4_a_flying_start_over_the_line_of_a_closed_board_does_not_end_the_race():
    """S-4 / S-2: on a lap, a grid spot behind the line starts on lap 0; crossing starts lap 1."""
    from fdlab.rules import Race

    track = from_ascii(". . . . . . . . . .", grid=[3], finish=5, closed=True)
    race = Race(track, cars=["Blue"], dice=LoadedDice([20]))
    assert race.state.cars[0].lap == 0
    race.play(1)
    race.play(7)
    assert not race.over and race.state.cars[0].lap == 1


def test_S4_grid_laps_behind_and_past_the_line_on_open_and_closed_boards():
    """S-4: closed: lap 0 behind the line, 1 past it; open: last lap behind it (a sprint)."""
    spots = [1, 4, 6, 8]
    two_laps = BASIC.with_laps(2)
    for track, preset, laps in [
        (from_ascii(". . . . . . . . . .", grid=spots, finish=5), BASIC, [1, 1, 0, 0]),
        (from_ascii(". . . . . . . . . .", grid=spots, finish=5), two_laps, [2, 2, 0, 0]),
        (from_ascii(". . . . . . . . . .", grid=spots, finish=5, closed=True), BASIC, [0, 0, 1, 1]),
        (from_ascii(". . . . . . . . . .", grid=spots), BASIC, [0, 0, 0, 0]),
    ]:
        board = compile_board(track)
        engine = Engine(board, preset, ["Blue"])
        assert [engine.grid_lap(board.index[s]) for s in spots] == laps


def _cut_at_finish_by_the_letter(board, start, option, stops_made):
    """S-4 as the clause reads, step by step: the plain version of ``_cut_at_finish``.

    Each time the walk leaves a corner it overshoots it (C-3), except when it
    first leaves the corner it started in with that corner's stops made.
    """
    walk = (start, *option.path)
    finish_at = len(walk)
    for j in range(1, len(walk)):
        if "finish" in board.step_lines.get((walk[j - 1], walk[j]), ()):
            finish_at = j
            break
    start_corner = board.corner[start]
    exits = []
    for j in range(1, len(walk)):
        left = board.corner[walk[j - 1]]
        if left is None or board.corner[walk[j]] == left:
            continue
        leaving_the_start = left == start_corner and all(board.corner[v] == left for v in walk[:j])
        if leaving_the_start and stops_made >= board.stops[left]:
            continue
        exits.append(j)
    assert [board.corner[walk[j - 1]] for j in exits] == [o.corner for o in option.overshoots]
    kept = []
    for over, exit_at in zip(option.overshoots, exits, strict=True):
        if exit_at <= finish_at:
            between = sum(
                1
                for j in range(exit_at + 1, finish_at + 1)
                if board.tunnel_exit[walk[j - 1]] != walk[j]
            )
            kept.append(over._replace(beyond=min(over.beyond, between)))
    return option._replace(overshoots=tuple(kept), braked=0, blocked=False)


@pytest.mark.parametrize(
    "track",
    [
        load_track(TRACKS / "monaco.json"),
        load_track(TRACKS / "street.json"),  # a tunnel
        from_ascii(
            ". . 1 1 . . . . . . . . . 2 2 .", corners={1: 2, 2: 1}, finish=9, tunnels={"T": (5, 7)}
        ),
        SMALL_RING,
    ],
    ids=["monaco", "street", "tunnel", "small ring"],
)
def test_S4_every_move_over_the_line_is_cut_as_the_clause_reads(track):
    """S-4, M-6: the cut of every option over the line from every space (the widest roll),
    overshoots and all, is the plain step-by-step reading of the clause."""
    board = compile_board(track)
    crossing = 0
    for space in range(len(board.ids)):
        corner = board.corner[space]
        for made in sorted({0, 0 if corner is None else board.stops[corner]}):
            for option in move_options(board, space, 30, MoveRules(stops_made=made)):
                if "finish" in option.lines:
                    crossing += 1
                    want = _cut_at_finish_by_the_letter(board, space, option, made)
                    assert _cut_at_finish(board, space, option) == want
    assert crossing > 50


def test_S4_a_corner_left_again_after_the_line_costs_nothing():
    """S-4, C-3: a car that leaves its start corner with its stop made, runs once round
    a small ring over the line and leaves that corner again short pays only for what it
    overshot before the line (corner 2, up to the line), not for leaving corner 1 again."""
    board = compile_board(SMALL_RING)
    start = 6  # the first lane's space in the fourth column: corner 1
    assert board.corner[start] == 1
    options = move_options(board, start, 13, MoveRules(stops_made=1))
    option = next(o for o in options if o.moved == 13 and len(o.overshoots) == 2)
    assert [o.corner for o in option.overshoots] == [2, 1]  # corner 1 is left again at 12
    cut = _cut_at_finish(board, start, option)
    assert [(o.corner, o.beyond) for o in cut.overshoots] == [(2, 4)]
    car = CarState(space=start, pools=(18,), lap=1, started=True)
    assert move_cost(board, BASIC, car, option).total == 4
