"""benchmarks/bots.py times what it names: the solve is a solve, a cached read is labelled so."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import fdlab.par.solve
from fdlab.par import solo_table
from fdlab.par.table import forget_tables
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bots.py"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script adds its folder
    spec = importlib.util.spec_from_file_location("benchmark_bots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_solve_time_is_a_solve_even_when_the_table_is_cached(bench, tmp_path, monkeypatch):
    monkeypatch.setenv("FDLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FDLAB_CACHE", raising=False)
    forget_tables()
    board = compile_board(from_ascii(". . . . . . . . . .", closed=True, grid=[0], finish=1))
    solo_table(board, BASIC)  # in memory and on disk, as after an earlier run
    forget_tables()
    solves = []
    real = fdlab.par.solve.solve_par
    monkeypatch.setattr(bench, "solve_par", lambda *a, **k: solves.append(1) or real(*a, **k))
    solution, cpu, wall = bench.timed_solve(board)
    assert solves == [1] and cpu >= 0 and wall >= 0
    assert bench.disk_read(board).startswith("read from the disk cache in ")
    table = bench.keep(board, solution)

    def refuse(*args, **kwargs):
        raise AssertionError("solved again: the kept table was not found")

    monkeypatch.setattr(fdlab.par.solve, "solve_par", refuse)  # the bots find the kept table
    assert solo_table(board, BASIC) is table
    monkeypatch.setenv("FDLAB_CACHE", "off")
    assert bench.disk_read(board) == "disk cache off"
    forget_tables()
