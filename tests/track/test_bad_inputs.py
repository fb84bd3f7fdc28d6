"""Bad inputs to the importers, the builder, the validator and their commands (issue 29).

Whatever a user hands ``import_track``, ``build_track``, ``validate`` or
``fdlab import``/``print``/``build``/``validate``, the answer is a board or
one fdlab error (a ``ValueError`` of :mod:`fdlab.track.errors`) naming the
file and the field, and on the command line exit status 2 with one short
line: never a raw Python error, exit status 3 or a hang. Special files (a
FIFO, ``/dev/zero``, a folder) are refused at once, through
:mod:`fdlab.untrusted`. Every call that could hang runs under a time limit
of the harness (:func:`time_limit`), which turns a hang into a failure.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import warnings
from pathlib import Path

import pytest
from hang_limit import time_limit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from fdlab.cli import main
from fdlab.track import from_ascii, load_track
from fdlab.track.build import build_track, centreline_from_geojson
from fdlab.track.errors import BoardImportError, BuildError, CentrelineError, TrackFileError
from fdlab.track.formats import (
    assemble,
    detect_format,
    import_track,
    load_geojson,
    parse_gponline,
    read_gponline,
    read_tts,
    track_to_geojson,
)
from fdlab.track.io import dumps, save_track
from fdlab.track.validate import MAX_CARS, validate

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from stadium import gponline_text, stadium, tts_document

#: The fdlab errors an importer or the builder may raise (all ValueError subclasses).
IMPORT_ERRORS = (TrackFileError, BoardImportError)
BUILD_ERRORS = (BuildError, CentrelineError)
FORMATS = [None, "gponline", "tts", "geojson", "fdlab"]

#: Seconds any one call may take before the harness calls it a hang.
LIMIT = 20


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``fdlab ARGV`` in this process under the time limit: the exit status and stderr."""
    with time_limit(LIMIT):
        status = main(argv)
    return status, capsys.readouterr().err


def assert_one_line_bad_input(status: int, err: str, command: str, *words: str) -> None:
    assert status == 2, err
    assert err.startswith(f"fdlab {command}: error: "), err
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err
    for word in words:
        assert word in err, err


# -- special files: a FIFO, /dev/zero, a folder ------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "board.json"
    os.mkfifo(path)
    return path


@pytest.fixture
def special(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    """A FIFO (named like a board of each format), /dev/zero or a folder, and what it is."""
    kind = request.param
    if kind.startswith("fifo"):
        path = tmp_path / f"board{kind.removeprefix('fifo')}"
        os.mkfifo(path)
        return path, "named pipe"
    if kind == "zero":
        return Path("/dev/zero"), "character device"
    return tmp_path, "folder"


SPECIALS = ["fifo.json", "fifo.dat", "fifo.geojson", "zero", "folder"]


@pytest.mark.parametrize("special", SPECIALS, indirect=True)
@pytest.mark.parametrize("command", ["import", "print", "build", "export"])
def test_special_files_are_refused_at_once_with_exit_2(special, command, tmp_path, capsys):
    """Issue 29: fdlab import and print hung on a FIFO, import /dev/zero exited 3."""
    path, kind = special
    suffix = {"print": ".pdf", "export": ".geojson"}.get(command, ".json")
    out = tmp_path / f"out{suffix}"
    status, err = run_cli([command, str(path), "-o", str(out)], capsys)
    assert_one_line_bad_input(status, err, command, str(path), "cannot read the file", kind)
    assert not out.exists()


@pytest.mark.parametrize("special", SPECIALS, indirect=True)
@pytest.mark.parametrize("format", FORMATS)
def test_import_track_refuses_special_files_in_every_format(special, format):
    path, kind = special
    with time_limit(LIMIT), pytest.raises(TrackFileError, match=f"cannot read the file .*{kind}"):
        import_track(path, format=format)


@pytest.mark.parametrize(
    "reader", [detect_format, read_gponline, read_tts, load_geojson, centreline_from_geojson]
)
def test_every_reader_refuses_a_fifo_at_once(reader, fifo):
    error = CentrelineError if reader is centreline_from_geojson else TrackFileError
    with time_limit(LIMIT), pytest.raises(error, match="named pipe"):
        reader(fifo)


def test_fdlab_validate_still_refuses_special_files_the_same_way(fifo, capsys):
    status, err = run_cli(["validate", str(fifo)], capsys)
    assert_one_line_bad_input(status, err, "validate", "it is a named pipe (FIFO), not a file")


# -- imports ------------------------------------------------------------------------------


def dat_text(rows: list[str], steps: list[str]) -> str:
    return "\n".join(["ring.png 0", "", *rows, "", *steps, ""])


def tiny_dat(position=lambda i: (100 + 40 * (i // 2), 100 + 25 * (i % 2))) -> str:
    """Eight spaces, two lanes, round a ring (the docstring board of read_gponline)."""
    rows = [f"{i} {position(i)[0]} {position(i)[1]} {5 if i < 2 else 1}" for i in range(8)]
    steps = [f"{i} {j}" for i in range(8) for j in range(8) if j // 2 == (i // 2 + 1) % 4]
    return dat_text(rows, steps)


def test_a_dat_with_every_space_on_one_pixel_is_refused(tmp_path, capsys):
    """Issue 29: ZeroDivisionError, exit 3."""
    path = tmp_path / "pixel.dat"
    path.write_text(tiny_dat(lambda i: (5, 5)))
    with pytest.raises(BoardImportError, match="the spaces lie on top of each other"):
        import_track(path)
    status, err = run_cli(["import", str(path), "-o", str(tmp_path / "out.json")], capsys)
    assert_one_line_bad_input(status, err, "import", "each space needs its own position")


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("3 1e300 100 1", "line 6: space 3 lies at (1e300, 100)"),
        ("3 100 -1e308 1", "a position is image pixels, at most 1e+09"),
    ],
)
def test_a_dat_space_beyond_any_image_is_refused_naming_its_line(tmp_path, row, words):
    text = tiny_dat().replace("3 140 125 1", row)
    path = tmp_path / "far.dat"
    path.write_text(text)
    with pytest.raises(TrackFileError, match=re.escape(words)):
        import_track(path)


def test_a_dat_curve_distance_beyond_any_corner_is_refused(tmp_path):
    path = tmp_path / "far.dat"
    path.write_text(tiny_dat() + "\n3 1e300\n")
    with pytest.raises(TrackFileError, match="line 29: space 3: 1e300 is not a distance"):
        import_track(path)


def test_a_tts_file_nested_100000_deep_is_refused(tmp_path, capsys):
    """Issue 29: RecursionError, exit 3."""
    path = tmp_path / "deep.json"
    path.write_text('{"spaces": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for format in (None, "tts", "geojson"):
        with pytest.raises(TrackFileError, match="nested more than 64 levels deep"):
            import_track(path, format=format)
    status, err = run_cli(["import", str(path), "-o", str(tmp_path / "out.json")], capsys)
    assert_one_line_bad_input(status, err, "import", "nested more than 64 levels deep")


def tts_with(change) -> dict:
    doc = tts_document(stadium())
    change(doc)
    return doc


def set_corner(doc: dict, old: int, new: object) -> None:
    for space in doc["spaces"]:
        if space.get("corner") == old:
            space["corner"] = new


TTS_CHANGES = {
    "corner id missing": (
        lambda doc: set_corner(doc, 1, 99),
        "spaces[30].corner: corner 99 is not in corners (the file lists 1, 2)",
    ),
    "corner dropped from corners": (
        lambda doc: doc.update(corners=doc["corners"][1:]),
        "spaces[30].corner: corner 1 is not in corners (the file lists 2)",
    ),
    "no corners at all": (
        lambda doc: doc.pop("corners"),
        "spaces[30].corner: corner 1 is not in corners (the file lists none)",
    ),
    "corner id a string": (
        lambda doc: doc["corners"][0].update(id="T1"),
        "corners[0].id: a corner id is a whole number",
    ),
    "corner listed twice": (
        lambda doc: doc["corners"].append(dict(doc["corners"][0])),
        "corners[2].id: corner 1 is listed twice",
    ),
    "stops 10**400": (
        lambda doc: doc["corners"][0].update(stops=10**400),
        "corners[0].stops: expected a whole number (below 1e+09), not 1000",
    ),
    "long 10**12": (
        lambda doc: doc["corners"][1].update(long=10**12),
        "corners[1].long: expected a whole number",
    ),
    "lane 10**400": (
        lambda doc: doc["spaces"][4].update(lane=10**400),
        "spaces[4].lane: expected a whole number",
    ),
    "lane 5000": (
        lambda doc: doc["spaces"][4].update(lane=5000),
        "spaces[4].lane: expected a lane",
    ),
    "laps 0": (lambda doc: doc.update(laps=0), "laps: a race is at least 1 lap, not 0"),
    "pos 10**400": (
        lambda doc: doc["spaces"][2].update(pos=[10**400, 5]),
        "spaces[2].pos: expected [x, y] pixel numbers of at most 1e+09",
    ),
    "pos 1e308": (
        lambda doc: doc["spaces"][2].update(pos=[1e308, 5]),
        "spaces[2].pos: expected [x, y] pixel numbers",
    ),
    "rot 10**400": (
        lambda doc: doc["spaces"][2].update(rot=-(10**400)),
        "spaces[2].rot: expected degrees",
    ),
    "name a lone surrogate": (
        lambda doc: doc.update(name="\ud800"),
        "name: '\\ud800' holds a lone surrogate",
    ),
    "space id a lone surrogate": (
        lambda doc: doc["spaces"][0].update(id="\udfff"),
        "spaces[0].id: '\\udfff' holds a lone surrogate",
    ),
}


@pytest.mark.parametrize("case", sorted(TTS_CHANGES))
def test_tts_fields_a_track_file_cannot_keep_are_refused_at_import_naming_the_files_field(
    case, tmp_path, capsys
):
    """Issue 29: these imported, then failed while writing, naming fdlab's field."""
    change, words = TTS_CHANGES[case]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(tts_with(change)))
    with pytest.raises(TrackFileError) as info:
        import_track(path)
    assert str(info.value).startswith(f"{path}: {words}"), str(info.value)
    out = tmp_path / "out.json"
    status, err = run_cli(["import", str(path), "-o", str(out)], capsys)
    assert_one_line_bad_input(status, err, "import", words)
    assert not out.exists()


def test_a_board_named_after_a_file_name_of_undecodable_bytes_can_be_saved(tmp_path):
    name = os.fsdecode(b"caf\xe9.dat")  # a lone surrogate stands for the byte
    path = tmp_path / name
    path.write_text(tiny_dat())
    track = import_track(path)
    assert track.name == "caf?"
    save_track(track, tmp_path / "out.json")


# -- builds -------------------------------------------------------------------------------

SQUARE = [(0, 0), (300, 0), (300, 200), (0, 200)]


def test_a_micrometre_lap_is_refused_saying_what_to_do():
    """Issue 29: it built a board with space_length 0.0 that could not be saved."""
    tiny = [(x * 1e-8, y * 1e-8) for x, y in SQUARE]
    with pytest.raises(BuildError, match=r"a space is at least 1 m .*scale the circuit up"):
        build_track(tiny)
    with pytest.raises(BuildError, match="ask for at most 100 spaces_per_lap"):
        build_track([(x / 10, y / 10) for x, y in SQUARE])
    with pytest.raises(BuildError, match="space_length must be at least 1 m"):
        build_track([(x / 10, y / 10) for x, y in SQUARE], space_length=0.5)


@pytest.mark.parametrize(
    "points",
    [
        [(0, 0), (100, 0), (200, 0)],
        [(0, 0), (100, 0), (50, 0)],
        [(0, 0), (70.1, 70.1), (210.3, 210.3)],  # on one line but for rounding
        [(5, 0), (5, 100), (5, 300), (5, 40)],
    ],
)
def test_collinear_points_are_refused_up_front(points):
    """Issue 29: three collinear points built a folded board with 330 problems."""
    with pytest.raises(CentrelineError, match="lie on one straight line"):
        build_track(points)


def test_a_circuit_across_the_antimeridian_builds_as_one_at_greenwich():
    """Issue 29: it was refused as coordinates 16,000 km from the circuit's centre."""

    def box(lon: float) -> dict:
        corners = [(0, 0), (0.004, 0), (0.004, 0.002), (0, 0.002)]
        coordinates = [[(lon + x + 180) % 360 - 180, 43 + y] for x, y in corners]
        return {"type": "LineString", "coordinates": coordinates}

    east = centreline_from_geojson(box(179.998))  # crosses from 179.998 to -179.998
    greenwich = centreline_from_geojson(box(-0.002))
    assert east.points == greenwich.points
    assert math.isclose(east.length, 2 * (325.6 + 222.4), rel_tol=0.01)


def test_positions_too_far_apart_for_a_circuit_are_refused_saying_so():
    line = {"type": "LineString", "coordinates": [[0, 0], [90, 0], [90, 10], [0, 10]]}
    with pytest.raises(CentrelineError, match="too far apart for one circuit"):
        centreline_from_geojson(line)


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_missing_or_folder_path_is_one_error_naming_it(kind, tmp_path):
    """Issue 29: a bare OSError."""
    path = tmp_path / "nowhere.geojson" if kind == "missing" else tmp_path
    detail = "No such file or directory" if kind == "missing" else "it is a folder, not a file"
    with pytest.raises(CentrelineError) as info:
        build_track(path)
    assert str(info.value) == f"{path}: cannot read the file ({detail})"


def test_a_400_digit_longitude_is_exit_2(tmp_path, capsys):
    """Issue 29: fdlab build exited 3 with OverflowError."""
    path = tmp_path / "huge.geojson"
    path.write_text(
        '{"type": "LineString", "coordinates": [[1' + "0" * 400 + ", 43], [7, 43], [7, 44]]}"
    )
    words = "geometry.coordinates[0]: longitude of about 401 digits is outside -180..180"
    with pytest.raises(CentrelineError, match=re.escape(words)):
        build_track(path)
    status, err = run_cli(["build", str(path), "-o", str(tmp_path / "out.json")], capsys)
    assert_one_line_bad_input(status, err, "build", words)


def test_centreline_points_beyond_float_range_are_refused():
    with pytest.raises(CentrelineError, match="point 1: coordinates are metres"):
        build_track([(0, 0), (10**400, 0), (300, 200)])


# -- validate -----------------------------------------------------------------------------


def test_validate_reports_a_400_digit_coordinate_instead_of_raising():
    """Issue 29: OverflowError; validate promises every problem at once."""
    track = from_ascii(". . . .", closed=True)
    track.graph.nodes[1]["x"] = 10**400
    track.graph.nodes[2]["progress"] = -(10**5000)
    report = validate(track)
    messages = [str(problem) for problem in report]
    assert any("space 1: x is 1000" in m and "a finite number" in m for m in messages), messages
    assert any("progress is an integer of about 5000 digits" in m for m in messages), messages


def test_validate_prints_no_numpy_warning_on_a_1e308_coordinate(tmp_path, capfd):
    """Issue 29: a RuntimeWarning (overflow in intersection) leaked to stderr."""
    track = load_track("tracks/training.json")
    space = next(iter(track.graph))
    track.graph.nodes[space]["polygon"] = Polygon([(1e308, 0), (1e308, 1), (0, 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        validate(track)
    path = tmp_path / "far.json"
    save_track(track, path)
    capfd.readouterr()
    with time_limit(LIMIT):
        status = main(["validate", str(path)])
    assert status in (0, 1)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("cars", ["1" + "0" * 30, "11", "0", "-3"])
@pytest.mark.parametrize("command", ["validate", "import", "show"])
def test_absurd_car_counts_are_refused_with_exit_2(command, cars, tmp_path, capsys):
    """Issue 29: fdlab validate --cars 10**30 was accepted."""
    argv = [command, "tracks/training.json", "--cars", cars]
    if command != "validate":
        argv += ["-o", str(tmp_path / ("out.svg" if command == "show" else "out.json"))]
    status, err = run_cli(argv, capsys)
    assert status == 2
    assert "argument --cars" in err and "Traceback" not in err
    assert any(words in err for words in ("must be at most 10", "must be at least 1"))


def test_validate_refuses_a_car_count_no_race_has():
    track = load_track("tracks/training.json")
    assert MAX_CARS == 10
    assert validate(track, cars=MAX_CARS).ok
    for cars in (MAX_CARS + 1, 10**30, -1, 2.5, True):
        with pytest.raises(ValueError, match="cars: a race has 0 to 10 cars"):
            validate(track, cars=cars)


# -- property tests: random bytes and JSON to every importer and to the builder ----------


def fuzz(examples: int) -> settings:
    """Hypothesis settings of the property tests: ``examples`` inputs, no deadline (the
    time limit is :func:`time_limit`'s), nothing remembered between runs."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


NASTY = [None, True, 0, -1, 1, 2, 10**9, 10**400, -(10**400), 1e308, -1e308, 0.5, "", "x"]
NASTY += ["\ud800", [], {}, [0, 0], [1e308, -1e308], "LineString", "FeatureCollection"]
NASTY += ["Polygon", "Point", "space", "centreline", "step", "pit", "box", "track"]
KEYS = ["id", "pos", "next", "corner", "type", "coordinates", "geometry", "properties"]
KEYS += ["fdlab", "features", "spaces", "x", "y", "lane", "stops", "schema", "steps"]

JSON_VALUES = st.recursive(
    st.sampled_from(NASTY)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS), children, max_size=3)
    ),
    max_leaves=8,
)


def assert_board_or_one_fdlab_error(path: Path, format: str | None = None) -> None:
    """``import_track`` gives a board that can be saved, or one fdlab error naming the file."""
    try:
        with time_limit(LIMIT):
            track = import_track(path, format=format)
    except IMPORT_ERRORS as error:
        assert str(error).startswith(str(path)), error
        return
    dumps(track)  # what imports can be saved


@fuzz(60)
@given(
    data=st.binary(max_size=300),
    format=st.sampled_from(FORMATS),
    name=st.sampled_from(["b.json", "b.dat", "b.geojson"]),
)
def test_random_bytes_import_as_a_board_or_one_fdlab_error(tmp_path, data, format, name):
    path = tmp_path / name
    path.write_bytes(data)
    assert_board_or_one_fdlab_error(path, format)


@fuzz(60)
@given(doc=JSON_VALUES, format=st.sampled_from(FORMATS))
def test_random_json_imports_as_a_board_or_one_fdlab_error(tmp_path, doc, format):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    assert_board_or_one_fdlab_error(path, format)


def json_paths(doc, prefix=()):
    """Every place in a JSON document, as the keys and indices leading to it."""
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from json_paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield from json_paths(value, (*prefix, index))


def mutated(doc, data, changes: int):
    """``doc`` with a few values replaced by random JSON, or removed."""
    doc = json.loads(json.dumps(doc))
    for _ in range(changes):
        places = list(json_paths(doc))[1:]
        if not places:
            break
        place = data.draw(st.sampled_from(places))
        parent = doc
        for key in place[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()):
            parent[place[-1]] = data.draw(JSON_VALUES)
        elif isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent.pop(place[-1])
    return doc


BOARD = stadium()
TTS_DOC = tts_document(BOARD)
DAT_TEXT = gponline_text(BOARD)
#: A small board (eight spaces) as GeoJSON: each change is a larger share of it.
GEOJSON_DOC = json.loads(json.dumps(track_to_geojson(assemble(parse_gponline(tiny_dat())))))


@fuzz(15)
@given(data=st.data(), changes=st.integers(1, 3))
def test_changed_tts_documents_import_as_a_board_or_one_fdlab_error(tmp_path, data, changes):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(mutated(TTS_DOC, data, changes)))
    assert_board_or_one_fdlab_error(path)


@fuzz(15)
@given(data=st.data(), changes=st.integers(1, 3))
def test_changed_geojson_boards_import_as_a_board_or_one_fdlab_error(tmp_path, data, changes):
    path = tmp_path / "board.geojson"
    path.write_text(json.dumps(mutated(GEOJSON_DOC, data, changes)))
    assert_board_or_one_fdlab_error(path)


WORDS = ["0", "-1", "1e308", "-1e308", "nan", "inf", "1e400", "9" * 30, "F", "x", "7", "4"]
WORDS += ["1.0", "0.0", "5", "3", "\ud800"]


@fuzz(15)
@given(data=st.data(), changes=st.integers(1, 5))
def test_changed_dat_files_import_as_a_board_or_one_fdlab_error(tmp_path, data, changes):
    lines = DAT_TEXT.splitlines()
    for _ in range(changes):
        i = data.draw(st.integers(0, len(lines) - 1))
        words = lines[i].split()
        how = data.draw(st.sampled_from(["word", "copy", "drop", "line"]))
        if how == "word" and words:
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(st.sampled_from(WORDS))
            lines[i] = " ".join(words)
        elif how == "copy":
            lines.insert(i, lines[i])
        elif how == "drop":
            lines.pop(i)
        else:
            lines[i] = data.draw(st.text(max_size=12))
    path = tmp_path / "board.dat"
    path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
    assert_board_or_one_fdlab_error(path)


def assert_built_or_one_fdlab_error(centreline, **options) -> None:
    try:
        with time_limit(60):
            track = build_track(centreline, **options)
    except BUILD_ERRORS:
        return
    dumps(track)  # what builds can be saved


GEOJSON_VALUES = st.recursive(
    st.sampled_from([*NASTY, [7, 43], [7.004, 43], [7.004, 43.002], [7, 43.002], "Feature"])
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["type", "coordinates", "geometry", "properties", "features"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@fuzz(60)
@given(doc=GEOJSON_VALUES, feature=st.sampled_from([None, "x", "1"]), as_file=st.booleans())
def test_random_geojson_builds_a_board_or_one_fdlab_error(tmp_path, doc, feature, as_file):
    if as_file:
        path = tmp_path / "circuit.geojson"
        path.write_text(json.dumps(doc))
        assert_built_or_one_fdlab_error(path, feature=feature)
    elif isinstance(doc, dict):
        assert_built_or_one_fdlab_error(doc, feature=feature)


COORDINATES = st.one_of(
    st.floats(-2000, 2000),
    st.floats(),
    st.integers(-2000, 2000),
    st.sampled_from([0, 1e-9, 10**400, -(10**400), 1e7, 1e308]),
)


@fuzz(40)
@given(points=st.lists(st.tuples(COORDINATES, COORDINATES), max_size=8))
def test_random_point_lists_build_a_board_or_one_fdlab_error(points):
    assert_built_or_one_fdlab_error(points)


@fuzz(40)
@given(centreline=JSON_VALUES)
def test_random_json_as_the_centreline_builds_a_board_or_one_fdlab_error(centreline):
    """Points, GeoJSON mappings, paths or none of these: a board or one error."""
    assert_built_or_one_fdlab_error(centreline)


@pytest.mark.parametrize(
    ("centreline", "words"),
    [
        (5, "centreline: expected a sequence of (x, y) points in metres (or GeoJSON), got 5"),
        (None, "centreline: expected a sequence of (x, y) points"),
        ([1, 2, 3], "centreline point 0: expected (x, y), got 1"),
        (["ab", "cd", "ef"], "centreline point 0: expected (x, y), got 'ab'"),
    ],
)
def test_a_centreline_that_is_no_list_of_points_is_one_error(centreline, words):
    with pytest.raises(CentrelineError) as info:
        build_track(centreline)
    assert str(info.value) == words or str(info.value).startswith(words)


@fuzz(4)
@given(
    points=st.lists(
        st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000)), min_size=3, max_size=7
    )
)
def test_random_polygons_build_a_board_or_one_fdlab_error(points):
    """Shapes no one would draw (crossing themselves, folding): a board or one error."""
    assert_built_or_one_fdlab_error(points, spaces_per_lap=40)
