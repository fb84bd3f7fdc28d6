"""Tabletop Simulator track JSON (tts-formula-d): fields as that mod documents them."""

import json

import pytest

from fdlab.bots import HeuristicBot
from fdlab.rules import Race
from fdlab.track import TrackFileError, validate
from fdlab.track.formats import import_track, parse_tts, read_tts


def test_the_stadium_imports_as_a_sound_board_with_the_files_codes(tts_file, boards):
    track = import_track(tts_file)
    assert validate(track, cars=5).ok, str(validate(track, cars=5))
    assert "m.c1.0" in track and "o.s1.5" in track
    assert track.name == "Stadium"
    assert track.graph.graph["imported_from"]["id"] == "Stadium"


def test_lanes_counted_from_the_inside_become_fdlab_lanes_from_the_left(tts_file):
    track = read_tts(tts_file)
    # the stadium turns right: the inside lane (i, lane 1) is on the right
    lanes = {
        n[0]: track.graph.nodes[n]["lane"] for n in track if track.graph.nodes[n]["kind"] == "track"
    }
    assert lanes == {"o": 0, "m": 1, "i": 2}


def test_grid_is_the_start_list_pole_first_and_finish_the_line_list(tts_file, boards):
    doc = json.loads(tts_file.read_text())
    track = read_tts(tts_file)
    assert track.grid_spots() == doc["start"]
    into_line = {
        v for _, v in track.edges_crossing("finish") if track.graph.nodes[v]["kind"] == "track"
    }
    assert into_line == set(doc["finish"]["line"])


def test_corners_keep_the_files_stops_and_counts(tts_file):
    track = read_tts(tts_file)
    assert {c: (i["stops"], i["long"], i["short"]) for c, i in track.corners.items()} == {
        1: (2, 9, 5),
        2: (1, 9, 5),
    }


def test_a_wrong_count_in_the_file_is_reported_naming_its_corner(tmp_path, boards):
    doc = boards.tts_document(boards.stadium())
    doc["corners"][0]["long"] = 4
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(doc))
    report = validate(read_tts(path), cars=5)
    assert report.codes == ["corner_counts"]
    assert "Corner 1" in report[0].message or "corner 1" in report[0].message


def test_the_pit_lane_runs_from_its_entry_to_its_exit(tts_file):
    doc = json.loads(tts_file.read_text())
    track = read_tts(tts_file)
    pit = doc["pit"]
    assert track.graph.edges[pit["entry"], pit["spaces"][0]]["kind"] == "pit_in"
    assert track.graph.edges[pit["spaces"][-1], pit["exit"]]["kind"] == "pit_out"
    assert all(track.graph.nodes[n]["kind"] == "pit" for n in pit["spaces"])


def test_missing_pit_links_are_added_from_the_pit_lists_order(tmp_path, boards):
    doc = boards.tts_document(boards.stadium())
    entry = next(s for s in doc["spaces"] if s["id"] == doc["pit"]["entry"])
    entry["next"].remove(doc["pit"]["spaces"][0])
    path = tmp_path / "nolink.json"
    path.write_text(json.dumps(doc))
    track = read_tts(path)
    assert track.graph.has_edge(doc["pit"]["entry"], doc["pit"]["spaces"][0])


def test_a_race_of_bots_is_played_to_the_end_on_the_imported_board(tts_file):
    race = Race(read_tts(tts_file), cars=3, seed=11)
    race.play_bots([HeuristicBot(), HeuristicBot(), HeuristicBot()], rounds=200)
    assert race.over


def test_numeric_ids_of_older_files_are_read_too(tmp_path, boards):
    doc = boards.tts_document(boards.stadium())
    number = {s["id"]: k for k, s in enumerate(doc["spaces"])}
    for s in doc["spaces"]:
        s["id"] = number[s["id"]]
        s["next"] = [number[n] for n in s["next"]]
    doc["start"] = [number[n] for n in doc["start"]]
    doc["finish"]["line"] = [number[n] for n in doc["finish"]["line"]]
    doc["pit"] = {
        k: ([number[n] for n in v] if isinstance(v, list) else number[v])
        for k, v in doc["pit"].items()
    }
    path = tmp_path / "numbers.json"
    path.write_text(json.dumps(doc))
    assert validate(read_tts(path), cars=5).ok


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d["spaces"][3].update(pos=[1]), r"spaces\[3\]\.pos"),
        (lambda d: d["spaces"][2]["next"].append("nowhere"), r"spaces\[2\]\.next\[\d\]"),
        (lambda d: d["spaces"][4].update(id=d["spaces"][5]["id"]), r"spaces\[5\]\.id"),
        (lambda d: d.update(finish={}), r"finish\.line"),
        (lambda d: d.update(finish={"line": []}), r"finish\.line.*empty"),
        (lambda d: d["start"].append("nowhere"), r"start\[5\]"),
        (lambda d: d["corners"][1].update(stops="two"), r"corners\[1\]\.stops"),
        (lambda d: d["pit"].update(entry="nowhere"), r"pit\.entry"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(boards, change, field):
    doc = boards.tts_document(boards.stadium())
    change(doc)
    with pytest.raises(TrackFileError, match=field):
        parse_tts(doc, source="bad.json")


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(TrackFileError, match="not valid JSON"):
        read_tts(path)
