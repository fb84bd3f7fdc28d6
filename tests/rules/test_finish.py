"""S-4: a car that crosses the finish line on its last lap has finished there."""

from fdlab.rules.board import compile_board
from fdlab.rules.costs import move_cost
from fdlab.rules.movement import move_options
from fdlab.rules.presets import BASIC
from fdlab.rules.state import CarState
from fdlab.track import from_ascii


def _options(text, corners, finish, start, roll):
    board = compile_board(from_ascii(text, corners=corners, finish=finish))
    options = move_options(board, start, roll, occupied=frozenset(), stops_made=0)
    return board, options


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
