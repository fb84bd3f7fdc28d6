"""Track files: exact round trips, stable bytes, clear errors, atomic saves, migrations."""

import json
import math
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_values import set_at
from shapely.geometry import Polygon

from fdlab import files as written_files
from fdlab.files import atomic_write
from fdlab.track import (
    Track,
    TrackFileError,
    add_space,
    add_step,
    from_ascii,
    load_track,
    save_track,
)
from fdlab.track import io as track_io
from fdlab.track.io import MIGRATIONS, dumps, loads, track_from_dict, track_to_dict

BOARD = """
. S . . 1 1 1 . . D . . . 2 2 . . .
. . . . 1 1 1 . . . . . . 2 2 . . .
x x x x x x x x x x x x x x x p p p
x x x x x x x x x x x x x x x x B x
"""


def rich_board() -> Track:
    """A ring with hazards, corners, a pit lane, a box, a tunnel and extra data."""
    track = from_ascii(
        BOARD,
        corners={1: {"stops": 2, "name": "Hairpin"}, 2: 1},
        closed=True,
        police=8,
        grid=[68, 69, 64, 65],
        tunnels={"A": (40, 48)},
        ring=True,
        name="Ring of Tests",
        laps=2,
    )
    track.graph.graph["build"] = {"lanes": 2, "stops": [2, 1], "seed": None, "ratio": 0.1 + 0.2}
    track.graph.graph["description"] = "Eighteen columns, one pit box — ünïcode too."
    return track


def text_id_board() -> Track:
    track = from_ascii(". . .", name="ids")
    graph = track.graph
    add_space(graph, "pit-1", kind="pit", x=1.5, y=-1.5, progress=1.0)
    add_step(graph, 0, "pit-1", "pit_in", ["pit_entry"])
    track = Track(graph, track.contacts)
    track.add_contact("pit-1", 1, "behind", rear="pit-1")
    return track


def test_round_trip_is_exact_for_a_rich_board(tmp_path):
    track = rich_board()
    path = tmp_path / "ring.json"
    save_track(track, path)
    loaded = load_track(path)
    assert loaded == track
    assert loaded.graph.graph["build"]["ratio"] == 0.1 + 0.2
    assert list(loaded.graph.nodes) == list(track.graph.nodes)
    assert list(loaded.graph.edges) == list(track.graph.edges)
    assert loaded.tunnel_pairs() == {"A": [40, 48]}
    assert loaded.corners[1] == {"stops": 2, "name": "Hairpin", "long": 3, "short": 3}


def test_round_trip_keeps_json_native_types():
    track = rich_board()
    loaded = loads(dumps(track))
    for space in (0, 4, 68):
        for key, value in track.space(space).items():
            if key != "polygon":
                assert type(loaded.space(space)[key]) is type(value), (space, key)
    assert isinstance(loaded.graph.edges[68, 0]["lines"], frozenset)
    assert all(isinstance(corner, int) for corner in loaded.corners)


def test_text_and_int_ids_round_trip():
    track = text_id_board()
    loaded = loads(dumps(track))
    assert loaded == track
    assert loaded.touching("pit-1") == [1]


def test_load_then_save_gives_the_same_bytes(tmp_path):
    path = tmp_path / "ring.json"
    save_track(rich_board(), path)
    first = path.read_bytes()
    save_track(load_track(path), path)
    assert path.read_bytes() == first
    assert first.endswith(b"}\n")
    json.loads(first)  # plain JSON


def test_file_lists_one_space_step_or_contact_a_line():
    track = rich_board()
    lines = dumps(track).splitlines()
    assert lines[0] == "{"
    assert sum(line.startswith('{"box"') for line in lines) == len(track)
    assert sum(line.startswith('{"from"') for line in lines) == track.graph.number_of_edges()


def test_polygons_are_written_exactly():
    awkward = Polygon([(0.21829012868693098, 1 / 3), (2.0, 0.1), (1e-9, 7.000000000000001)])
    track = from_ascii(". .")
    track.space(0)["polygon"] = awkward
    loaded = loads(dumps(track))
    assert list(loaded.space(0)["polygon"].exterior.coords) == list(awkward.exterior.coords)


def test_polygon_with_a_hole_round_trips():
    track = from_ascii(". .")
    track.space(1)["polygon"] = Polygon(
        [(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2), (1, 2)]]
    )
    assert loads(dumps(track)) == track


def test_empty_and_3d_polygons_round_trip():
    track = from_ascii(". .")
    track.space(0)["polygon"] = Polygon()
    track.space(1)["polygon"] = Polygon([(0, 0, 1.5), (1, 0, 2), (1, 1, 3)])
    text = dumps(track)
    assert '"POLYGON EMPTY"' in text and '"POLYGON Z ((0.0 0.0 1.5, ' in text
    assert loads(text) == track


def test_numpy_scalars_are_written_as_plain_numbers():
    track = from_ascii(". .")
    track.space(0)["x"] = np.float64(0.25)
    track.space(0)["lane"] = np.int64(0)
    loaded = loads(dumps(track))
    assert loaded.space(0)["x"] == 0.25 and type(loaded.space(0)["lane"]) is int


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(
        st.lists(st.sampled_from([".", ".", ".", "1", "2", "S", "D", "x"]), min_size=1, max_size=7),
        min_size=1,
        max_size=3,
    ),
    closed=st.booleans(),
)
def test_random_text_boards_round_trip_exactly(rows, closed):
    text = "\n".join(" ".join(row) for row in rows)
    track = from_ascii(text, corners={1: 1, 2: 3}, closed=closed)
    text_of_file = dumps(track)
    loaded = loads(text_of_file)
    assert loaded == track
    assert dumps(loaded) == text_of_file


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(build=JSON_VALUES, note=JSON_VALUES)
def test_extra_json_data_round_trips_exactly(build, note):
    track = from_ascii(". .")
    track.graph.graph["build"] = build
    track.space(1)["note"] = note
    text = dumps(track)
    loaded = loads(text)
    assert loaded == track
    # Same types too (1 vs 1.0 vs True, -0.0); only dict key order is normalised (sorted).
    assert json.dumps(loaded.graph.graph["build"], sort_keys=True) == json.dumps(
        build, sort_keys=True
    )
    assert dumps(loaded) == text


# -- saving -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            lambda t: t.graph.graph.__setitem__("build", {"size": (1, 2)}),
            "graph.build.size",
            "tuple",
        ),
        (lambda t: t.space(1).__setitem__("x", math.nan), "spaces[1].x", "nan"),
        (lambda t: t.corners.__setitem__("C", {"stops": 1}), "graph.corners['C']", "must be int"),
        (lambda t: t.graph.graph.__setitem__("tags", {1: "a"}), "graph.tags", "not a str"),
        (lambda t: t.space(0).__setitem__("polygon", "square"), "spaces[0].polygon", "shapely"),
    ],
)
def test_values_that_would_not_read_back_equal_are_refused(tmp_path, change, field, words):
    track = from_ascii(". .")
    change(track)
    path = tmp_path / "bad.json"
    with pytest.raises(TrackFileError) as info:
        save_track(track, path)
    assert str(info.value).startswith(f"{path}: {field}: ")
    assert words in str(info.value)
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_track_that_would_not_load_back_is_not_written(tmp_path):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . ."), path)
    old = path.read_bytes()
    track = from_ascii(". . .")
    track.contacts.add_edge(0, 99, kind="beside")  # a contact with a space that is gone
    with pytest.raises(TrackFileError) as info:
        save_track(track, path)
    assert str(info.value) == (
        f"{path}: contacts[1].b: space 99 is not in spaces; the track was not written"
    )
    assert path.read_bytes() == old
    track = from_ascii(". . .")
    track.contacts.edges[0, 1]["rear"] = 2
    with pytest.raises(TrackFileError, match=r"contacts\[0\]\.rear: .*was not written"):
        dumps(track)


def test_failed_write_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . ."), path)
    old = path.read_bytes()

    def write_half_then_fail(stream, data):
        stream.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(written_files, "_write_all", write_half_then_fail)
    with pytest.raises(
        TrackFileError, match=r"ring\.json: could not save .*No space left.*unchanged"
    ):
        save_track(rich_board(), path)
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["ring.json"]


def test_failed_fsync_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". . ."), path)
    old = path.read_bytes()

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(track_io.os, "fsync", broken_fsync)
    with pytest.raises(TrackFileError, match="Input/output error"):
        save_track(rich_board(), path)
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["ring.json"]


def test_save_keeps_the_file_permissions(tmp_path):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". ."), path)
    os.chmod(path, 0o640)
    save_track(from_ascii(". . ."), path)
    assert path.stat().st_mode & 0o777 == 0o640
    assert len(load_track(path)) == 3


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path):
    path = tmp_path / "nowhere" / "ring.json"
    with pytest.raises(TrackFileError, match=r"nowhere/ring\.json: could not save"):
        save_track(from_ascii(". ."), path)
    with pytest.raises(TrackFileError) as error:
        save_track(from_ascii(". ."), path)
    assert ".tmp" not in str(error.value)  # the hidden temporary file is not named


def test_atomic_write_names_the_file_asked_for(tmp_path):
    path = tmp_path / "nowhere" / "board.svg"
    with pytest.raises(FileNotFoundError) as error:
        atomic_write(path, b"<svg/>")
    assert error.value.filename == str(path)
    assert str(error.value) == f"[Errno 2] No such file or directory: '{path}'"


# -- loading broken files -------------------------------------------------------------------


def good_document() -> dict:
    return json.loads(dumps(rich_board()))


def broken(change) -> dict:
    doc = good_document()
    change(doc)
    return doc


def _delete(path: list):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BROKEN_FILES = [
    (_delete(["spaces", 12, "x"]), "spaces[12].x: missing"),
    (_delete(["steps"]), "steps: missing"),
    (_delete(["steps", 0, "to"]), "steps[0].to: missing"),
    (_delete(["schema"]), "schema: missing"),
    (set_at(["spaces", 3, "lane"], "1"), "spaces[3].lane: must be an integer, not '1'"),
    (set_at(["spaces", 3, "x"], None), "spaces[3].x: must be a finite number, not None"),
    (set_at(["spaces", 3, "kind"], "lava"), "spaces[3].kind: must be one of track, pit, box"),
    (
        set_at(["spaces", 3, "corner"], 1.5),
        "spaces[3].corner: must be null or an integer corner id",
    ),
    (set_at(["spaces", 3, "id"], [3]), "spaces[3].id: space ids are integers or strings"),
    (set_at(["spaces", 3, "id"], 0), "spaces[3].id: duplicate space id 0"),
    (set_at(["spaces"], {}), "spaces: must be a list, not an object"),
    (set_at(["spaces", 2], 7), "spaces[2]: must be an object, not the number 7"),
    (set_at(["spaces", 12, "polygon"], "POLYGON ((0 0, 1"), "spaces[12].polygon: not valid WKT ("),
    (
        set_at(["spaces", 12, "polygon"], "POINT (0 0)"),
        "spaces[12].polygon: must be a POLYGON, not POINT",
    ),
    (set_at(["steps", 5, "to"], 999), "steps[5].to: space 999 is not in spaces"),
    (set_at(["steps", 5, "kind"], "hop"), "steps[5].kind: must be one of ahead, lane_change"),
    (set_at(["steps", 5, "lines"], ["start"]), "steps[5].lines: unknown line 'start'"),
    (set_at(["steps", 5, "lines"], "finish"), "steps[5].lines: must be a list of line names"),
    (set_at(["contacts", 0, "kind"], "near"), "contacts[0].kind: must be one of beside, behind"),
    (
        set_at(["contacts", 1, "rear"], 99),
        "contacts[1].rear: a 'behind' contact names its rear space",
    ),
    (set_at(["contacts", 1, "b"], "zz"), "contacts[1].b: space 'zz' is not in spaces"),
    (set_at(["graph", "laps"], 0), "graph.laps: must be an integer >= 1, not 0"),
    (set_at(["graph", "name"], 5), "graph.name: must be a string, not 5"),
    (set_at(["graph", "corners"], {"1": {}}), "graph.corners: must be a list, not an object"),
    (
        set_at(["graph", "corners", 0, "id"], "1"),
        "graph.corners[0].id: corner ids must be integers",
    ),
    (set_at(["graph", "corners", 0, "stops"], 2.0), "graph.corners[0].stops: must be an integer"),
    (set_at(["schema"], "1"), "schema: must be an integer, not a string"),
    (set_at(["schema"], 99), "schema: version 99 is newer than this fdlab understands (1)"),
    (set_at(["schema"], 0), "schema: version 0 is not supported (no migration from it)"),
    (set_at(["extra"], 1), "extra: unknown field; a track file has schema, graph, spaces"),
]


@pytest.mark.parametrize(("change", "expected"), BROKEN_FILES)
def test_broken_file_gives_one_error_naming_file_and_field(tmp_path, change, expected):
    path = tmp_path / "tracks" / "x.json"
    path.parent.mkdir()
    path.write_text(json.dumps(broken(change)))
    with pytest.raises(TrackFileError) as info:
        load_track(path)
    assert str(info.value).startswith(f"{path}: {expected}")
    assert isinstance(info.value, ValueError)
    assert info.value.source == str(path)


def test_each_duplicate_step_is_reported():
    doc = good_document()
    doc["steps"].append(dict(doc["steps"][3]))
    index = len(doc["steps"]) - 1
    with pytest.raises(TrackFileError, match=rf"steps\[{index}\]: duplicate step"):
        track_from_dict(doc, source="x.json")


@pytest.mark.parametrize("cut", [1, 10, 200, -2])
def test_truncated_file(tmp_path, cut):
    path = tmp_path / "cut.json"
    path.write_bytes(dumps(rich_board()).encode()[:cut])
    with pytest.raises(TrackFileError, match=rf"^{path}: not valid JSON: .*line \d+ column \d+"):
        load_track(path)


def test_truncated_at_the_end_says_so():
    with pytest.raises(TrackFileError, match=r"\(is the file truncated\?\)"):
        loads(dumps(rich_board())[:-5], source="x.json")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[1, 2]", "x.json: must hold a JSON object, not a list"),
        ('{"schema": NaN}', "x.json: not valid JSON: NaN is not a number JSON allows"),
        (b"\xff\xfe{}", "x.json: not UTF-8 text"),
        ("", "x.json: not valid JSON: Expecting value at line 1 column 1"),
    ],
)
def test_not_a_track_file(text, expected):
    with pytest.raises(TrackFileError) as info:
        loads(text, source="x.json")
    assert str(info.value).startswith(expected)


def test_error_survives_pickling_for_worker_processes():
    with pytest.raises(TrackFileError) as info:
        loads("[]", source="x.json")
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.source, copy.field, copy.detail) == (
        str(info.value),
        "x.json",
        "",
        "must hold a JSON object, not a list",
    )


def test_missing_file():
    with pytest.raises(TrackFileError, match=r"^no/board\.json: cannot read the file"):
        load_track(Path("no/board.json"))


def test_loading_never_executes_code(tmp_path):
    """A pickle-style payload is just a wrong value, not something run."""
    doc = good_document()
    doc["graph"]["name"] = {"__reduce__": ["os.system", ["echo pwned"]]}
    with pytest.raises(TrackFileError, match=r"graph\.name: must be a string"):
        track_from_dict(doc)


# -- migrations ---------------------------------------------------------------------------


def test_older_schema_is_migrated_through_the_registry(monkeypatch, tmp_path):
    """A made-up version 0 (``title`` instead of ``name``) shows the migration hook at work."""

    def title_to_name(doc):
        doc = dict(doc)
        doc["graph"] = dict(doc["graph"])
        doc["graph"]["name"] = doc["graph"].pop("title")
        doc["schema"] = 1
        return doc

    monkeypatch.setitem(MIGRATIONS, 0, title_to_name)
    doc = good_document()
    doc["schema"] = 0
    doc["graph"]["title"] = doc["graph"].pop("name")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    track = load_track(path)
    assert track == rich_board()
    assert track.graph.graph["schema"] == 1
    save_track(track, path)
    assert json.loads(path.read_text())["schema"] == 1


def test_failing_migration_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(MIGRATIONS, 0, lambda doc: doc["graph"]["title"])
    doc = good_document() | {"schema": 0}
    with pytest.raises(TrackFileError, match=r"^old\.json: cannot upgrade from schema 0: KeyError"):
        track_from_dict(doc, source="old.json")


def test_migration_must_raise_the_version(monkeypatch):
    monkeypatch.setitem(MIGRATIONS, 0, lambda doc: doc)
    with pytest.raises(TrackFileError, match="the migration from version 0 did not raise it"):
        track_from_dict(good_document() | {"schema": 0})


def test_registering_twice_is_refused(monkeypatch):
    monkeypatch.setitem(MIGRATIONS, -1, lambda doc: doc)
    with pytest.raises(ValueError, match="already registered"):
        track_io.register_migration(-1)(lambda doc: doc)


def test_dict_round_trip_without_files():
    track = text_id_board()
    assert track_from_dict(track_to_dict(track)) == track


def test_byte_order_mark_from_a_windows_editor_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + dumps(rich_board()).encode("utf-8"))
    assert load_track(path) == rich_board()


CIRCUITS = Path(__file__).resolve().parents[2] / "circuits"


@pytest.mark.parametrize("circuit", ["mc-1929", "jp-1962", "be-1925"])
def test_built_boards_round_trip_exactly(circuit, tmp_path):
    build = pytest.importorskip("fdlab.track.build")
    source = CIRCUITS / f"{circuit}.geojson"
    track = build.build_track(source, pit=True)
    path = tmp_path / f"{circuit}.json"
    save_track(track, path)
    loaded = load_track(path)
    assert loaded == track
    assert loaded.graph.graph["build"] == track.graph.graph["build"]
    first = path.read_bytes()
    save_track(loaded, path)
    assert path.read_bytes() == first


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "tracks").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_tracks_are_stored_exactly_as_save_track_writes_them(path):
    assert dumps(load_track(path)).encode("utf-8") == path.read_bytes()


# -- bad input at the edges (issue 15): what loads saves, what cannot be saved does not load --


def _training_text() -> str:
    return (Path(__file__).resolve().parents[2] / "tracks" / "training.json").read_text()


def _with_graph_extra(text: str) -> str:
    return _training_text().replace('"graph": {', '"graph": {"note": ' + text + ", ", 1)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        (("spaces", 3, "x"), 10**400, "spaces[3].x: must be a finite number, not 100000"),
        (("spaces", 3, "progress"), -(10**400), "spaces[3].progress: must be a finite number"),
        (("graph", "space_length"), 10**400, "graph.space_length: must be a finite number > 0"),
        (("graph", "lap_length"), 10**400, "graph.lap_length: must be a finite number >= 0"),
        (("spaces", 3, "lane"), 10**400, "spaces[3].lane: must be an integer, not 100000"),
        (("graph", "name"), "Ring \ud800", "graph.name: holds a lone surrogate '\\ud800'"),
    ],
)
def test_values_a_file_could_not_save_back_do_not_load(field, value, expected):
    doc = json.loads(_training_text())
    set_at(list(field), value)(doc)
    text = json.dumps(doc)  # escapes the surrogate as \ud800, as a hand-edited file would
    with pytest.raises(TrackFileError) as info:
        loads(text, source="x.json")
    assert str(info.value).startswith(f"x.json: {expected}")
    assert len(str(info.value)) < 200  # a 400-digit number is not read out in full


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("1e999", "not valid JSON: the number 1e999 is too large"),
        ("[-1e400]", "not valid JSON: the number -1e400 is too large"),
        ("9" * 5000, "not valid JSON: an integer with 5000 digits is too long"),
        ("[" * 70 + "]" * 70, "graph.note[0][0][0][0][0][0]...: nested more than 64 levels"),
        ("[" * 700 + "]" * 700, "nested more than 64 levels deep"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 64 levels deep"),
        ('{"\\udc00": 1}', "graph.note: key '\\udc00' holds a lone surrogate"),
    ],
)
def test_numbers_nesting_and_text_json_allows_but_a_track_file_cannot_keep(note, expected):
    with pytest.raises(TrackFileError) as info:
        loads(_with_graph_extra(note), source="x.json")
    assert str(info.value).startswith("x.json: ") and expected in str(info.value)


def test_nesting_up_to_the_limit_loads_and_saves():
    deep = "[" * 60 + "]" * 60  # the note sits at depth 3: 62 levels in all
    track = loads(_with_graph_extra(deep))
    assert loads(dumps(track)) == track


@pytest.mark.parametrize("head", ["POLYGON M", "POLYGON ZM"])
def test_polygons_with_measures_are_refused_instead_of_losing_them(head):
    extra = " 7" if head == "POLYGON M" else " 7 8"
    wkt = f"{head} ((0 0{extra}, 1 0{extra}, 1 1{extra}, 0 0{extra}))"
    doc = json.loads(_training_text())
    doc["spaces"][0]["polygon"] = wkt
    with pytest.raises(TrackFileError, match=r"spaces\[0\]\.polygon: has M \(measure\) values"):
        track_from_dict(doc)


def test_polygon_with_a_coordinate_beyond_float_range_is_refused():
    doc = json.loads(_training_text())
    doc["spaces"][0]["polygon"] = "POLYGON ((0 0, 1e999 0, 1 1, 0 0))"
    with pytest.raises(TrackFileError, match=r"spaces\[0\]\.polygon: has a coordinate that is NaN"):
        track_from_dict(doc)


def test_things_that_are_not_files_are_refused_without_reading(tmp_path):
    with pytest.raises(TrackFileError, match=r"^/dev/zero: cannot read the file \(it is a char"):
        load_track("/dev/zero")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes to it: reading would wait for ever
    with pytest.raises(
        TrackFileError, match=r"pipe\.json: cannot read the file \(it is a named pipe"
    ):
        load_track(fifo)


def test_a_file_bigger_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(track_io, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text(_training_text())
    with pytest.raises(TrackFileError, match=r"big\.json: the file is too big for a track file"):
        load_track(path)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t.graph.graph.__setitem__("name", "Ring \ud800"), "graph.name: holds a lone"),
        (lambda t: t.space(1).__setitem__("note", 10**5000), "spaces[1].note: an integer of about"),
        (lambda t: t.graph.graph.__setitem__("deep", _nested(1000)), "graph.deep[0][0]"),
        (lambda t: t.graph.graph.__setitem__("deep", _nested(62)), "graph.deep[0][0]"),
    ],
)
def test_values_that_cannot_be_saved_give_one_error(tmp_path, change, expected):
    track = from_ascii(". .")
    change(track)
    path = tmp_path / "bad.json"
    with pytest.raises(TrackFileError) as info:
        save_track(track, path)
    assert str(info.value).startswith(f"{path}: {expected}")
    assert list(tmp_path.iterdir()) == []


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_saving_through_a_symlink_replaces_the_file_it_points_to(tmp_path):
    real = tmp_path / "boards" / "ring.json"
    real.parent.mkdir()
    save_track(from_ascii(". ."), real)
    link = tmp_path / "current.json"
    link.symlink_to(real)
    save_track(from_ascii(". . ."), link)
    assert link.is_symlink() and link.resolve() == real
    assert len(load_track(real)) == 3
    assert sorted(p.name for p in real.parent.iterdir()) == ["ring.json"]


def test_temporary_files_of_a_killed_save_are_removed_by_the_next_save(tmp_path):
    path = tmp_path / "ring.json"
    save_track(from_ascii(". ."), path)
    dead = _a_pid_that_is_not_running()
    stale = tmp_path / f".ring.json.{dead}-k1ll3d.tmp"
    stale.write_text('{"half": ')
    os.utime(stale, (0, 0))
    fresh = tmp_path / f".ring.json.{dead}-y0ung.tmp"  # perhaps another machine's, mid-save
    fresh.write_text("{")
    mine = tmp_path / f".ring.json.{os.getpid()}-l1ve.tmp"
    mine.write_text("{")
    os.utime(mine, (0, 0))
    other = tmp_path / f".other.json.{dead}-k1ll3d.tmp"
    other.write_text("{")
    os.utime(other, (0, 0))
    save_track(from_ascii(". . ."), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["ring.json", fresh.name, mine.name, other.name]
    )


def _a_pid_that_is_not_running() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid += 1
