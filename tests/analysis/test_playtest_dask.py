"""``fdlab playtest --scheduler``: the races on a Dask cluster (fdlab.analysis.cli)."""

from __future__ import annotations

import sys

import pandas as pd
import pytest

import fdlab.analysis.cli as playtest_cli
from fdlab.cli import main
from fdlab.track import from_ascii, save_track


def _ring(tmp_path):
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    track = from_ascii(
        "\n".join([row] * 2), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[64, 65], ring=True
    )
    path = tmp_path / "ring.json"
    save_track(track, path)
    return path


def test_a_local_dask_cluster_plays_the_same_races_as_one_process(tmp_path, monkeypatch, capsys):
    pytest.importorskip("distributed")
    played = []
    original = playtest_cli.playtest

    def recording(*args, **kwargs):
        result = original(*args, **kwargs)
        played.append((kwargs["client"], result))
        return result

    monkeypatch.setattr(playtest_cli, "playtest", recording)
    path = _ring(tmp_path)
    argv = ["playtest", str(path), "--races", "6", "--seed", "5", "--bots", "par,heuristic"]
    argv += ["--quiet", "--no-par"]
    assert main([*argv, "--workers", "1", "-o", str(tmp_path / "local.html")]) == 0
    alone = capsys.readouterr().out
    assert (
        main([*argv, "--scheduler", "local", "--workers", "2", "-o", str(tmp_path / "d.html")]) == 0
    )
    on_dask = capsys.readouterr().out

    (no_client, local), (client, dask) = played
    assert no_client is None and client is not None
    assert dask.info["dask"] and not local.info["dask"]
    assert client.status == "closed"  # the LocalCluster is shut down with its client
    assert on_dask == alone and "A race of 2 cars over 1 lap lasts" in alone
    pd.testing.assert_frame_equal(dask.races, local.races)
    pd.testing.assert_frame_equal(dask.cars, local.cars)
    pd.testing.assert_frame_equal(dask.turns, local.turns)


def test_the_scheduler_option_without_dask_says_what_to_install(tmp_path, monkeypatch, capsys):
    # an import of a module set to None in sys.modules raises ImportError, as if not installed
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    path = _ring(tmp_path)
    argv = ["playtest", str(path), "--races", "2", "--quiet", "--scheduler", "local"]
    assert main([*argv, "-o", str(tmp_path / "never.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fdlab playtest: error: --scheduler plays on a Dask cluster")
    assert "pip install 'fdlab[dask]'" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "never.html").exists()
