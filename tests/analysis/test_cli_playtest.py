"""The ``fdlab playtest`` subcommand (fdlab.analysis.cli)."""

from __future__ import annotations

from fdlab.cli import main
from fdlab.track import from_ascii, save_track


def test_fdlab_playtest_writes_a_standalone_report(tmp_path, capsys):
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    track = from_ascii(
        "\n".join([row] * 2), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[64, 65], ring=True
    )
    path = tmp_path / "ring.json"
    save_track(track, path)
    out = tmp_path / "ring.html"
    status = main(
        [
            "playtest",
            str(path),
            "--races",
            "4",
            "--workers",
            "1",
            "--quiet",
            "--no-par",
            "-o",
            str(out),
        ]
    )
    assert status == 0
    said = capsys.readouterr().out
    assert "A race of 2 cars over 1 lap lasts" in said and "p =" not in said
    assert "Circuit report" in out.read_text(encoding="utf-8")


def test_fdlab_playtest_refuses_an_unknown_preset_in_one_line(tmp_path, capsys):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . . .", grid=[0], finish=2), path)
    assert main(["playtest", str(path), "--races", "1", "--preset", "fast", "--quiet"]) == 2
    assert "no rules preset 'fast'" in capsys.readouterr().err


def test_fdlab_playtest_refuses_an_unknown_bot(tmp_path, capsys):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . . .", grid=[0], finish=2), path)
    assert main(["playtest", str(path), "--races", "1", "--bots", "zoom", "--quiet"]) == 2
    assert "unknown bot 'zoom'" in capsys.readouterr().err


def test_fdlab_playtest_names_a_negative_seed_option(tmp_path, capsys):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . . .", grid=[0], finish=2), path)
    assert main(["playtest", str(path), "--races", "1", "--seed", "-1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "argument --seed: must be at least 0, not -1" in err and "Traceback" not in err


def test_fdlab_playtest_refuses_a_board_without_a_finish_line(tmp_path, capsys):
    path = tmp_path / "line.json"
    save_track(from_ascii(". . . .", grid=[0]), path)
    argv = ["playtest", str(path), "--races", "1", "--workers", "1", "--quiet"]
    assert main(argv) == 1  # a board with problems: the validator's report says which
    assert "no_finish_line" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 2  # and even forced, no race could ever end
    assert "has no finish line" in capsys.readouterr().err


def test_fdlab_playtest_refuses_a_board_with_problems_unless_forced(tmp_path, capsys):
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    track = from_ascii(
        "\n".join([row] * 2), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[64, 65], ring=True
    )
    track.space(8)["corner"] = 3  # a stray corner space: corner 3 in two pieces
    path = tmp_path / "broken.json"
    save_track(track, path)
    out = tmp_path / "broken.html"
    argv = ["playtest", str(path), "--races", "2", "--workers", "1", "--quiet", "--no-par"]
    assert main([*argv, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "corner_split" in err and "pass --force to playtest it anyway" in err
    assert not out.exists()
    assert main([*argv, "-o", str(out), "--force"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Played on a board with") and "[corner_split]" in first
    assert "corner_split" in out.read_text(encoding="utf-8")
