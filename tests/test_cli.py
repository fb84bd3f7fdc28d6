"""The ``fdlab`` command: validate, show, the subcommand registry, exit statuses."""

import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fdlab import cli
from fdlab.cli import main
from fdlab.track import from_ascii, save_track

SOUND = """
. . . . 1 1 1 . . . . . . 2 2 . . .
. . . . 1 1 1 . . . . . . 2 2 . . .
x x x x x x x x x x x x x x x p p p
x x x x x x x x x x x x x x x x B x
"""


@pytest.fixture
def board_file(tmp_path) -> Path:
    track = from_ascii(
        SOUND, corners={1: 2, 2: 1}, closed=True, grid=[68, 69, 64, 65], ring=True, name="Ring"
    )
    path = tmp_path / "ring.json"
    save_track(track, path)
    return path


def test_validate_sound_board_exits_0(board_file, capsys):
    assert main(["validate", str(board_file), "--cars", "4"]) == 0
    assert capsys.readouterr().out == "Track 'Ring': no problems found\n"


def test_validate_lists_problems_and_exits_1(board_file, capsys):
    assert main(["validate", str(board_file)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Track 'Ring': 1 problem",
        "- [grid_too_small] the grid has 4 spots but the race has 10 cars",
    ]


def test_validate_bad_file_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"schema": 1, "graph": {}, "spaces": [{"id": 0}]')
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"fdlab validate: error: {path}: not valid JSON")
    assert captured.err.count("\n") == 1


def test_validate_several_files_reports_each_and_the_worst_status(board_file, tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text("[]")
    assert main(["validate", str(board_file), str(board_file), "--cars", "4"]) == 0
    assert capsys.readouterr().out.count("no problems found") == 2
    assert main(["validate", str(broken), str(board_file)]) == 2
    captured = capsys.readouterr()
    assert captured.out == (
        f"{broken}:\n{board_file}:\nTrack 'Ring': 1 problem\n"
        "- [grid_too_small] the grid has 4 spots but the race has 10 cars\n"
    )
    assert captured.err == f"fdlab validate: error: {broken}: must hold a JSON object, not a list\n"


def test_validate_missing_field_names_it(tmp_path, capsys):
    path = tmp_path / "nox.json"
    path.write_text(
        '{"schema": 1, "graph": {}, "spaces": [{"id": 0, "y": 1}], "steps": [], "contacts": []}'
    )
    assert main(["validate", str(path)]) == 2
    assert f"{path}: spaces[0].x: missing" in capsys.readouterr().err


@pytest.mark.parametrize("cars", ["0", "many"])
def test_bad_option_is_a_usage_error(board_file, capsys, cars):
    assert main(["validate", str(board_file), "--cars", cars]) == 2
    assert "--cars" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["validate", "build", "show"])
def test_every_subcommand_has_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: fdlab {command}")


def test_no_subcommand_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_show_writes_svg(board_file, tmp_path, capsys):
    picture = tmp_path / "board.svg"
    assert main(["show", str(board_file), "-o", str(picture), "--problems"]) == 0
    text = picture.read_text(encoding="utf-8")
    assert text.startswith("<svg") and text.count('class="space"') == 40
    assert capsys.readouterr().out == f"wrote {picture}\n"


def test_show_failing_write_keeps_the_old_picture(board_file, tmp_path, monkeypatch, capsys):
    from fdlab import files as written_files

    picture = tmp_path / "board.svg"
    picture.write_text("<svg>old</svg>")

    def disk_full(stream, data):
        stream.write(data[:10])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(written_files, "_write_all", disk_full)
    assert main(["show", str(board_file), "-o", str(picture)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert picture.read_text() == "<svg>old</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg", "ring.json"]


def test_show_writes_offline_html(board_file, tmp_path):
    page = tmp_path / "board.html"
    assert main(["show", str(board_file), "-o", str(page), "--steps"]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<html" in text and "<title>Ring</title>" in text
    assert "Bokeh" in text and '<script type="text/javascript" src="http' not in text


def test_show_refuses_other_picture_formats(board_file, tmp_path, capsys):
    assert main(["show", str(board_file), "-o", str(tmp_path / "board.png")]) == 2
    assert "must end in .html or .svg" in capsys.readouterr().err
    assert not (tmp_path / "board.png").exists()


def test_another_module_can_add_a_subcommand(monkeypatch, tmp_path, capsys):
    """The hook ``fdlab playtest`` will use: a module in COMMAND_MODULES registers one function."""
    (tmp_path / "fdlab_fake_playtest.py").write_text(
        textwrap.dedent(
            '''
            from fdlab.cli import register_command

            def _arguments(parser):
                parser.add_argument("track")
                parser.add_argument("--races", type=int, default=3)

            @register_command("fakeplay", help="race fake bots on a board", arguments=_arguments)
            def fakeplay(args):
                """Race bots on a board."""
                print(f"{args.races} races on {args.track}")
                return 0
            '''
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))
    monkeypatch.setattr(cli, "COMMAND_MODULES", ["fdlab_fake_playtest"])
    assert main(["fakeplay", "ring.json", "--races", "5"]) == 0
    assert capsys.readouterr().out == "5 races on ring.json\n"
    assert main(["--help"]) == 0
    assert "race fake bots on a board" in capsys.readouterr().out


def test_a_broken_extra_command_module_does_not_stop_the_others(monkeypatch, capsys):
    monkeypatch.setattr(cli, "COMMAND_MODULES", ["fdlab_no_such_commands"])
    assert main(["--help"]) == 0
    captured = capsys.readouterr()
    assert "validate" in captured.out
    assert captured.err == (
        "fdlab: the commands of fdlab_no_such_commands are unavailable "
        "(ModuleNotFoundError: No module named 'fdlab_no_such_commands')\n"
    )


def test_builtin_commands_do_not_import_the_extra_command_modules(monkeypatch, board_file, capsys):
    imported = []
    monkeypatch.setattr(cli, "_import_command_modules", lambda: imported.append(True))
    assert main(["validate", str(board_file), "--cars", "4"]) == 0
    assert imported == []
    assert main(["--help"]) == 0
    assert imported == [True]


def test_registering_a_name_twice_is_refused(monkeypatch):
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))
    with pytest.raises(ValueError, match="'validate' is already registered"):
        cli.register_command("validate", help="again", arguments=lambda parser: None)(lambda a: 0)


def _entry_point() -> Path:
    script = Path(sys.executable).parent / "fdlab"
    if not script.exists():
        pytest.skip("the fdlab entry point is not installed beside this Python")
    return script


def test_entry_point_in_a_real_process(board_file, tmp_path):
    script = _entry_point()
    sound = subprocess.run(
        [script, "validate", board_file, "--cars", "4"], capture_output=True, text=True, timeout=120
    )
    assert (sound.returncode, sound.stdout) == (0, "Track 'Ring': no problems found\n")
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": 7}')
    bad = subprocess.run([script, "validate", broken], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert bad.stderr == (
        f"fdlab validate: error: {broken}: schema: version 7 is newer than this fdlab "
        "understands (1); upgrade fdlab to read it\n"
    )


CIRCUITS = Path(__file__).resolve().parents[1] / "circuits"


@pytest.fixture
def monaco() -> Path:
    pytest.importorskip("fdlab.track.build")
    return CIRCUITS / "mc-1929.geojson"


def test_build_writes_a_track_file_and_reports_on_it(monaco, tmp_path, capsys):
    from fdlab.track import load_track

    out = tmp_path / "monaco.json"
    assert main(["build", str(monaco), "-o", str(out), "--pit", "--lanes", "2", "--grid", "6"]) == 0
    track = load_track(out)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"wrote {out}: {track.name!r}, {len(track)} spaces, {len(track.corners)} corners, 6 grid spots"
    )
    assert lines[1].startswith(f"Track {track.name!r}: ")
    assert len(track.grid_spots()) == 6
    assert track.spaces(kind="pit") and track.spaces(kind="box")
    assert {d["lane"] for _, d in track.graph.nodes(data=True) if d["kind"] == "track"} == {0, 1}


def test_build_says_plainly_when_the_pit_lane_holds_fewer_boxes(monaco, tmp_path, capfd):
    from fdlab.track import load_track

    out = tmp_path / "monaco.json"
    assert main(["build", str(monaco), "-o", str(out), "--pit"]) == 0
    printed = capfd.readouterr()
    boxes = len(load_track(out).boxes())
    assert boxes < 10  # Monaco's pit straight is short
    assert f"note: pit: the pit lane beside the finish straight holds {boxes} boxes, not 10" in (
        printed.out
    )
    assert "Warning" not in printed.err


def test_build_options_reach_the_builder(monaco, tmp_path):
    from fdlab.track import load_track
    from fdlab.track.build import build_track, centreline_from_geojson

    out = tmp_path / "parco.json"
    argv = ["build", str(monaco), "-o", str(out), "--name", "Parco", "--spaces-per-lap", "60"]
    assert main([*argv, "--laps", "2", "--description", "Tight."]) == 0
    track = load_track(out)
    assert (track.name, track.laps, track.description) == ("Parco", 2, "Tight.")
    assert track.spaces(kind="pit") == []
    direct = build_track(
        centreline_from_geojson(monaco),
        name="Parco",
        spaces_per_lap=60,
        laps=2,
        description="Tight.",
    )
    assert track == direct
    corners = len(track.corners)
    stops = ",".join(["3"] * corners)
    assert main([*argv, "--stops", stops, "--force"]) == 0
    assert [c["stops"] for c in load_track(out).corners.values()] == [3] * corners


def test_build_finish_moves_the_finish_line_round_the_lap(monaco, tmp_path):
    from fdlab.track import load_track
    from fdlab.track.build import build_track, centreline_from_geojson

    out = tmp_path / "monaco.json"
    assert main(["build", str(monaco), "-o", str(out), "--pit", "--finish", "0.715"]) == 0
    track = load_track(out)
    assert track == build_track(centreline_from_geojson(monaco), pit=True, finish=0.715)
    assert track.graph.graph["build"]["finish"] == 0.715
    first = load_track(out)
    assert main(["build", str(monaco), "-o", str(out), "--pit", "--force"]) == 0
    # The line is elsewhere: the spaces just after it lie somewhere else on the lap.
    after_line = {v for _, v in first.edges_crossing("finish")}
    moved = load_track(out)
    assert {first.space(v)["x"] for v in after_line} != {
        moved.space(v)["x"] for _, v in moved.edges_crossing("finish")
    }


@pytest.mark.parametrize(
    ("finish", "words"), [("1", "below 1"), ("-0.1", "at least 0"), ("a", "like 0.25")]
)
def test_build_bad_finish_is_a_usage_error(tmp_path, capsys, finish, words):
    assert main(["build", "c.geojson", "-o", str(tmp_path / "x.json"), "--finish", finish]) == 2
    assert words in capsys.readouterr().err


def test_build_never_replaces_a_file_without_force(monaco, tmp_path, capsys):
    out = tmp_path / "edited.json"
    out.write_text("my edits")
    assert main(["build", str(monaco), "-o", str(out)]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert out.read_text() == "my edits"


def test_build_refusal_is_one_line(monaco, tmp_path, capsys):
    assert main(["build", str(monaco), "-o", str(tmp_path / "x.json"), "--stops", "1,2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fdlab build: error: stops lists 2 stop counts") and err.count("\n") == 1
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    ("stops", "words"), [("1,4", "stop counts are 1, 2 or 3"), ("1,a", "like 1,2,3")]
)
def test_build_bad_stop_counts_are_usage_errors(tmp_path, capsys, stops, words):
    assert main(["build", "c.geojson", "-o", str(tmp_path / "x.json"), "--stops", stops]) == 2
    assert words in capsys.readouterr().err


# -- exit statuses: 1 is "the board has problems", never a crash (issue 15) -----------------


def test_a_crash_has_its_own_status_and_a_short_message(board_file, monkeypatch, capsys):
    validate_module = importlib.import_module("fdlab.track.validate")

    def broken_validate(track, **options):
        raise KeyError("corners")

    monkeypatch.setattr(validate_module, "validate", broken_validate)
    monkeypatch.delenv("FDLAB_TRACEBACK", raising=False)
    status = main(["validate", str(board_file)])
    assert status == cli.EXIT_CRASH == 3
    assert status not in (cli.EXIT_PROBLEMS, cli.EXIT_BAD_INPUT)
    err = capsys.readouterr().err
    assert err.startswith("fdlab validate: internal error (KeyError: 'corners'); this is a bug")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_traceback_of_a_crash_can_be_asked_for(board_file, monkeypatch):
    validate_module = importlib.import_module("fdlab.track.validate")

    def broken_validate(track, **options):
        raise KeyError("corners")

    monkeypatch.setattr(validate_module, "validate", broken_validate)
    monkeypatch.setenv("FDLAB_TRACEBACK", "1")
    with pytest.raises(KeyError, match="corners"):
        main(["validate", str(board_file)])


def test_python_dash_m_fdlab_is_the_fdlab_command(board_file):
    sound = subprocess.run(
        [sys.executable, "-m", "fdlab", "validate", board_file, "--cars", "4"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (sound.returncode, sound.stdout) == (0, "Track 'Ring': no problems found\n")
    usage = subprocess.run(
        [sys.executable, "-m", "fdlab"], capture_output=True, text=True, timeout=120
    )
    assert usage.returncode == 2 and usage.stderr.startswith("usage: fdlab")


def test_the_readme_documents_every_exit_status():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for status, meaning in [(1, "problems"), (2, "bad"), (3, "bug")]:
        assert f"| `{status}` |" in readme and meaning in readme


def test_build_refuses_a_space_length_that_would_exhaust_memory(monaco, tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["build", str(monaco), "-o", str(out), "--space-length", "1e-6"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("fdlab build: error: space_length 1e-06 m cuts this")
        and err.count("\n") == 1
    )
    assert not out.exists()


def test_build_refuses_a_geojson_position_off_the_globe(tmp_path, capsys):
    circuit = tmp_path / "polar.geojson"
    coordinates = [[7, 43], [7.001, 95], [7.002, 43.001], [7, 43.002]]
    circuit.write_text(json.dumps({"type": "LineString", "coordinates": coordinates}))
    assert main(["build", str(circuit), "-o", str(tmp_path / "x.json")]) == 2
    assert "coordinates[1]: latitude 95 is outside -90..90 degrees" in capsys.readouterr().err


def test_build_exits_1_and_prints_the_problems_of_what_it_built(
    monaco, tmp_path, capsys, monkeypatch
):
    import importlib

    validate_module = importlib.import_module("fdlab.track.validate")
    out = tmp_path / "monaco.json"
    assert main(["build", str(monaco), "-o", str(out), "--pit"]) == 0
    assert "no problems found" in capsys.readouterr().out
    found = validate_module.Problem("grid_in_corner", "grid spot 9 lies inside corner 4", (7,))

    def with_a_problem(track, cars=10):
        return validate_module.ValidationReport(track.name, (found,))

    monkeypatch.setattr(validate_module, "validate", with_a_problem)
    assert main(["build", str(monaco), "-o", str(out), "--pit", "--force"]) == 1
    assert "[grid_in_corner] grid spot 9 lies inside corner 4" in capsys.readouterr().out
    assert out.exists()  # written anyway, to be fixed in the editor
