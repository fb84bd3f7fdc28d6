"""``fdlab import`` and ``fdlab export`` on the command line."""

from fdlab.cli import main
from fdlab.track import load_track
from fdlab.track.formats import load_geojson


def test_fdlab_import_writes_a_track_file_and_prints_the_report(gponline_file, tmp_path, capsys):
    out = tmp_path / "stadium.json"
    assert main(["import", str(gponline_file), "-o", str(out), "--cars", "5"]) == 0
    said = capsys.readouterr().out
    assert "GP Online" in said and "no problems found" in said
    assert len(load_track(out)) == 110
    assert main(["import", str(gponline_file), "-o", str(out)]) == 2  # exists: needs --force
    assert "--force" in capsys.readouterr().err


def test_fdlab_import_exits_1_and_names_the_problems_of_a_board_with_some(
    tts_file, tmp_path, capsys
):
    out = tmp_path / "imported.json"
    # ten cars need ten grid spots; the stadium has five
    assert main(["import", str(tts_file), "-o", str(out)]) == 1
    assert "grid_too_small" in capsys.readouterr().out
    assert out.exists()


def test_fdlab_export_writes_geojson_that_imports_back(tmp_path, capsys):
    out = tmp_path / "monaco.geojson"
    assert main(["export", "tracks/monaco.json", "-o", str(out)]) == 0
    assert load_geojson(out) == load_track("tracks/monaco.json")
    again = tmp_path / "again.json"
    assert main(["import", str(out), "-o", str(again)]) == 0
    assert load_track(again) == load_track("tracks/monaco.json")
