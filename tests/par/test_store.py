"""The disk cache of solved tables (fdlab.par.store): solved once per board content, across sessions."""

from __future__ import annotations

import os

import numpy as np
import pytest

import fdlab.files
import fdlab.par.solve
from fdlab.par import solo_table, store
from fdlab.par.errors import CacheSettingError
from fdlab.par.table import forget_tables, table_key
from fdlab.rules import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii


def ring(stops=2):
    row = ". . . 1 1 . . . . . . . 2 2 . . . ."
    return from_ascii(
        "\n".join([row, row]), corners={1: 1, 2: stops}, closed=True, grid=[34, 35, 32, 33]
    )


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache folder and an empty in-memory cache, before and after."""
    monkeypatch.setenv("FDLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FDLAB_CACHE", raising=False)
    forget_tables()
    yield tmp_path / "par"
    forget_tables()


def no_solving(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("solved again instead of read from the cache")

    monkeypatch.setattr(fdlab.par.solve, "solve_par", refuse)


def test_a_new_session_reads_the_table_instead_of_solving_again(cache, monkeypatch):
    board = compile_board(ring())
    first = solo_table(board, BASIC)
    path = store.path_for(table_key(board, BASIC))
    assert path.parent == cache and path.is_file()
    forget_tables()  # as a restarted notebook: nothing in memory
    no_solving(monkeypatch)
    again = solo_table(compile_board(ring()), BASIC)
    assert again is not first
    assert np.array_equal(again.value, first.value)
    assert np.array_equal(again.gear_policy, first.gear_policy)
    assert again.positions == first.positions and again.index == first.index
    assert (again.par, again.finish_probability) == (first.par, first.finish_probability)
    assert again.preset == first.preset and again.board_key == first.board_key


def test_different_board_contents_are_different_entries(cache):
    two, three = compile_board(ring()), compile_board(ring(3))
    solo_table(two, BASIC)
    solo_table(three, BASIC)
    assert store.path_for(table_key(two, BASIC)) != store.path_for(table_key(three, BASIC))
    assert len(list(cache.glob("*.npz"))) == 2
    assert solo_table(three, BASIC).par != solo_table(two, BASIC).par


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "other format",
        "other solver",
        "other key",
        "pickled object",
        "par edited",
        "value edited",
    ],
)
def test_a_corrupt_or_stale_file_is_ignored_and_rewritten(cache, damage):
    board = compile_board(ring())
    key = table_key(board, BASIC)
    good = solo_table(board, BASIC)
    path = store.path_for(key)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        with np.load(path) as stored:
            arrays = dict(stored)
        if damage == "pickled object":
            arrays["meta"] = np.array([{"format": store.FORMAT}], dtype=object)
        else:
            import json

            meta = json.loads(bytes(arrays["meta"]).decode())
            if damage == "par edited":  # a hand edit of a well-formed file
                meta["par"] = 1.0
            elif damage == "value edited":
                arrays["value"] = arrays["value"] * 0.5
            elif damage == "other format":
                meta["format"] = store.FORMAT + 1
            elif damage == "other solver":
                meta["solver"] = "0" * 16
            else:
                meta["board_key"] = "0" * 64
            arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)
    assert store.load(key, BASIC) is None  # ignored, no error
    forget_tables()
    solved = solo_table(board, BASIC)  # solved again...
    assert np.array_equal(solved.value, good.value)
    reread = store.load(key, BASIC)  # ...and the file rewritten
    assert reread is not None and np.array_equal(reread.value, good.value)


def test_a_write_that_fails_leaves_no_file_and_keeps_the_old_one(cache, monkeypatch):
    board = compile_board(ring())
    key = table_key(board, BASIC)
    table = solo_table(board, BASIC)
    path = store.path_for(key)
    before = path.read_bytes()

    def half_written(stream, data):
        stream.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fdlab.files, "_write_all", half_written)
    assert store.save(key, table) is False  # no error for the user
    assert path.read_bytes() == before  # the file in place is untouched
    assert [p.name for p in cache.iterdir()] == [path.name]  # no temporary left behind
    path.unlink()
    assert store.save(key, table) is False
    assert list(cache.iterdir()) == []  # never half a file under the table's name


def test_the_cache_can_be_switched_off_and_an_unwritable_folder_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("FDLAB_CACHE", "off")
    monkeypatch.setenv("FDLAB_CACHE_DIR", str(tmp_path))
    forget_tables()
    assert store.cache_dir() is None
    assert 0 < solo_table(compile_board(ring()), BASIC).par < 100
    assert list(tmp_path.iterdir()) == []
    monkeypatch.delenv("FDLAB_CACHE")
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("FDLAB_CACHE_DIR", str(blocker))
    forget_tables()
    assert 0 < solo_table(compile_board(ring()), BASIC).par < 100
    assert os.path.isfile(blocker)
    forget_tables()


def test_a_change_to_the_rules_or_the_solver_is_another_entry(cache, monkeypatch):
    board = compile_board(ring())
    key = table_key(board, BASIC)
    solo_table(board, BASIC)
    before = store.path_for(key)
    monkeypatch.setattr(store, "solver_version", lambda: "a newer solver")
    assert store.path_for(key) != before
    assert store.load(key, BASIC) is None  # the old file is not read


def test_a_cache_folder_the_system_refuses_is_no_cache_and_no_error(tmp_path, monkeypatch):
    # A name too long for the file system: Path.is_file re-raises ENAMETOOLONG.
    monkeypatch.setenv("FDLAB_CACHE_DIR", str(tmp_path / ("a" * 300)))
    monkeypatch.delenv("FDLAB_CACHE", raising=False)
    board = compile_board(ring())
    key = table_key(board, BASIC)
    forget_tables()
    table = solo_table(board, BASIC)  # solved, as with the cache off
    assert 0 < table.par < 100
    assert store.load(key, BASIC) is None
    assert store.save(key, table) is False
    # A NUL in the folder's name (os.environ cannot hold one, a caller's path can).
    nul = tmp_path / "a\0b" / "par"
    monkeypatch.setattr(store, "cache_dir", lambda environ=None: nul)
    forget_tables()
    assert solo_table(board, BASIC).par == table.par
    assert store.load(key, BASIC) is None
    assert store.save(key, table) is False
    assert list(tmp_path.iterdir()) == []
    forget_tables()


def test_a_table_whose_positions_are_off_the_board_asking_is_not_served(cache):
    """The file is checked against the board it is read for, not only against itself."""
    board = compile_board(ring())
    key = table_key(board, BASIC)
    solo_table(board, BASIC)
    assert store.load(key, BASIC, spaces=len(board.ids)) is not None
    assert store.load(key, BASIC, spaces=3) is None


def test_a_tilde_in_the_cache_folder_is_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("FDLAB_CACHE", raising=False)
    assert store.cache_dir({"FDLAB_CACHE_DIR": "~/fdlab-cache"}) == tmp_path / "fdlab-cache" / "par"


@pytest.mark.parametrize("setting", ["offf", "maybe", "2"])
def test_a_cache_setting_that_means_nothing_is_refused_with_what_it_may_be(setting, monkeypatch):
    monkeypatch.setenv("FDLAB_CACHE", setting)
    forget_tables()
    with pytest.raises(
        CacheSettingError, match=f"FDLAB_CACHE='{setting}' means nothing: set it to off"
    ):
        solo_table(compile_board(ring()), BASIC)


@pytest.mark.parametrize("setting", ["on", "1", "YES", "true", "", " off ", "0", "No"])
def test_the_cache_settings_that_mean_on_or_off_are_taken(setting, tmp_path):
    folder = store.cache_dir({"FDLAB_CACHE": setting, "FDLAB_CACHE_DIR": str(tmp_path)})
    on = setting.strip().lower() in ("on", "1", "yes", "true", "")
    assert folder == (tmp_path / "par" if on else None)
