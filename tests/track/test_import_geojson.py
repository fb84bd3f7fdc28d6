"""Boards as GeoJSON and back, and import_track choosing the reader from the file."""

import json
from pathlib import Path

import pytest

from fdlab.track import TrackFileError, load_track, validate
from fdlab.track.formats import (
    detect_format,
    import_track,
    load_geojson,
    read_gponline,
    save_geojson,
    track_from_geojson,
    track_to_geojson,
)

SHIPPED = sorted(Path("tracks").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_boards_go_to_geojson_and_back_unchanged(path, tmp_path):
    track = load_track(path)
    out = tmp_path / f"{path.stem}.geojson"
    save_geojson(track, out)
    assert load_geojson(out) == track
    assert import_track(out) == track


def test_imported_boards_with_their_own_ids_round_trip_too(gponline_file, tts_file):
    for board in (read_gponline(gponline_file), import_track(tts_file)):
        assert track_from_geojson(json.loads(json.dumps(track_to_geojson(board)))) == board


def test_the_collection_has_a_centreline_and_one_polygon_per_space():
    track = load_track("tracks/monaco.json")
    features = track_to_geojson(track)["features"]
    roles = [f["properties"]["fdlab"] for f in features]
    assert roles.count("centreline") == 1
    assert roles.count("space") == len(track)
    assert roles.count("step") == track.graph.number_of_edges()
    centreline = features[0]["geometry"]
    assert centreline["type"] == "LineString"
    assert centreline["coordinates"][0] == centreline["coordinates"][-1]  # closed lap
    spaces = [f for f in features if f["properties"]["fdlab"] == "space"]
    assert {f["geometry"]["type"] for f in spaces} == {"Polygon"}
    assert features[0]["properties"]["name"] == "Monaco"


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda c: c.update(type="Feature"), "FeatureCollection"),
        (
            lambda c: c["features"][3]["properties"].pop("fdlab"),
            r"features\[3\]\.properties\.fdlab",
        ),
        (
            lambda c: c["features"][2].update(geometry={"type": "LineString", "coordinates": []}),
            r"features\[2\]\.geometry",
        ),
        (lambda c: c["features"].pop(0), "no centreline"),
    ],
)
def test_bad_collections_are_refused_naming_the_feature(change, field):
    collection = track_to_geojson(load_track("tracks/training.json"))
    change(collection)
    with pytest.raises(TrackFileError, match=field):
        track_from_geojson(collection)


def test_the_track_package_exports_the_importer_and_the_geojson_pair():
    import fdlab.track

    assert fdlab.track.import_track is import_track
    assert fdlab.track.track_to_geojson is track_to_geojson
    assert fdlab.track.track_from_geojson is track_from_geojson


def test_import_track_picks_the_reader_from_the_file(gponline_file, tts_file, tmp_path):
    assert detect_format(gponline_file) == "gponline"
    assert detect_format(tts_file) == "tts"
    assert detect_format("tracks/monaco.json") == "fdlab"
    out = tmp_path / "m.geojson"
    save_geojson(load_track("tracks/training.json"), out)
    assert detect_format(out) == "geojson"
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(TrackFileError, match="not a board format"):
        import_track(other)
    assert validate(import_track(tts_file), cars=5).ok
