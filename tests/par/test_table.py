"""The solo table: solved once per board content, compact to send, approximations for every preset."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from fdlab.par import solo_table, solve_par
from fdlab.par.approx import exact, solo_pool, solo_preset
from fdlab.par.table import board_key, remember, table_key
from fdlab.rules import compile_board
from fdlab.rules.presets import BASIC, get_preset
from fdlab.track import from_ascii


def ring(stops=2):
    row = ". . . 1 1 . . . . . . . 2 2 . . . ."
    return from_ascii(
        "\n".join([row, row]), corners={1: 1, 2: stops}, closed=True, grid=[34, 35, 32, 33]
    )


def test_equal_board_contents_share_one_solution_and_different_ones_do_not():
    first = solo_table(compile_board(ring()), BASIC)
    assert solo_table(compile_board(ring()), BASIC) is first  # a new Board, the same content
    assert board_key(compile_board(ring(3))) != board_key(compile_board(ring()))
    assert solo_table(compile_board(ring(3)), BASIC) is not first


def test_the_table_holds_the_solutions_values_and_travels_by_pickle():
    board = compile_board(ring())
    solution = solve_par(board)
    table = solution.table()
    back = pickle.loads(pickle.dumps(table))
    assert np.array_equal(back.value, solution.value)
    assert back.index == table.index and back.par == solution.par
    space, lap, stops = solution.model.start
    assert back.best_gear(board, space, lap, stops, 1, 18) == solution.best_gear(
        space, lap, stops, 1, 18
    )


def test_remembered_tables_are_used_instead_of_solving_again():
    board = compile_board(ring(1))
    key = table_key(board, BASIC)
    table = solve_par(board).table()
    remember({key: table})
    assert solo_table(board, BASIC) is table


def test_box_slot_matters_only_when_the_pits_are_open():
    board = compile_board(ring())
    assert table_key(board, BASIC, 3)[2] == 1
    assert table_key(board, BASIC.with_laps(2), 3)[2] == 3


@pytest.mark.parametrize("name", ["street", "advanced"])
def test_presets_the_solver_cannot_model_are_solved_as_a_one_pool_approximation(name):
    preset = get_preset(name)
    assert not exact(preset)
    model = solo_preset(preset)
    assert exact(model) and model.laps == preset.laps
    table = solo_table(compile_board(ring()), preset)
    assert table.preset == model and 0 < table.par < 100
    assert 1 <= solo_pool(preset, preset.pool_max) <= table.pool_max
