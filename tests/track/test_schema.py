"""The schema tables (fdlab.track.schema): the loader and the validator read the same ones.

For space, step, track and corner attributes alike: a value the table refuses
is refused by the loader naming the field, and reported by the validator
naming the same field; whatever JSON value an attribute holds, the validator
reports, never raises.
"""

import json
import math
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_values import json_values, set_at

from fdlab._text import shown
from fdlab.track import Track, TrackFileError, from_ascii, validate
from fdlab.track.io import loads, track_to_dict
from fdlab.track.model import EDGE_KINDS, LINE_NAMES, SPACE_DEFAULTS, TRACK_DEFAULTS
from fdlab.track.schema import (
    CORNER_FIELDS,
    CORNER_ID,
    CORNER_RECORD,
    FILE_LINES,
    GRAPH_FIELDS,
    SPACE_FIELDS,
    STEP_FIELDS,
)
from fdlab.track.validate import CHECKS, ValidationReport

CARS = 2
STEP = (0, 2)  # the first step of the board, 0 -> 2 (ahead)


def board() -> Track:
    """A two-lane ring of six columns with one 1-stop corner: it validates clean."""
    return from_ascii(
        """
        . . 1 1 . .
        . . 1 1 . .
        """,
        corners={1: 1},
        closed=True,
        grid=[11, 10],
        ring=True,
    )


def test_the_board_is_sound():
    track = board()
    assert validate(track, cars=CARS).ok
    assert list(track.graph.edges)[0] == STEP
    assert track.graph.graph["corners"] == {
        1: {"stops": 1, "name": "Corner 1", "long": 2, "short": 2}
    }


# -- the tables --------------------------------------------------------------------------


def test_the_tables_hold_every_schema_attribute_and_accept_the_defaults():
    assert set(SPACE_FIELDS) == set(SPACE_DEFAULTS)
    assert set(GRAPH_FIELDS) == set(TRACK_DEFAULTS) - {"schema"}
    assert set(STEP_FIELDS) == {"kind", "lines"}
    for key, default in SPACE_DEFAULTS.items():
        assert SPACE_FIELDS[key].accepts(default), key
    for key, field in GRAPH_FIELDS.items():
        assert field.accepts(TRACK_DEFAULTS[key]), key
    for kind in EDGE_KINDS:
        assert STEP_FIELDS["kind"].accepts(kind)
    assert STEP_FIELDS["lines"].accepts(frozenset(LINE_NAMES))
    assert FILE_LINES.accepts(list(LINE_NAMES))


def test_the_schema_document_has_a_row_for_every_step_and_track_attribute():
    text = (Path(__file__).resolve().parents[2] / "docs" / "schema.md").read_text("utf-8")
    for key in [*GRAPH_FIELDS, *STEP_FIELDS]:
        assert f"| `{key}` |" in text, key


@pytest.mark.parametrize(
    ("field", "accepted", "refused"),
    [
        (GRAPH_FIELDS["name"], ["", "Monaco"], [None, 5, ["Monaco"]]),
        (GRAPH_FIELDS["laps"], [1, 3], [0, -1, True, 2.0, 10**12, "2"]),
        (GRAPH_FIELDS["space_length"], [0.5, 23, 1e308], [0, -1.0, math.nan, math.inf, 10**400]),
        (GRAPH_FIELDS["lap_length"], [0, 0.0, 140.0], [-1, math.nan, None, "140"]),
        (GRAPH_FIELDS["corners"], [{}, {1: {}}, {2: {"stops": 3, "name": "Hairpin"}}], []),
        (GRAPH_FIELDS["corners"], [], [[], {"1": {}}, {1: []}, {1: {"stops": 2.0}}]),
        (STEP_FIELDS["kind"], ["ahead", "tunnel"], ["hop", None, ["ahead"], {"ahead": 1}]),
        (STEP_FIELDS["lines"], [frozenset(), frozenset({"finish", "police"})], [["finish"]]),
        (STEP_FIELDS["lines"], [], [None, "finish", frozenset({"start"}), frozenset({1})]),
        (FILE_LINES, [[], ["finish", "finish"]], [["start"], "finish", [1], frozenset()]),
        (CORNER_ID, [1, -3], [True, 1.0, "1", 10**9, None]),
        (CORNER_RECORD, [{}, {"stops": 7, "q": [1]}], [None, [], {"name": 5}, {"long": 1.5}]),
        (CORNER_FIELDS["stops"], [0, 1, 7], [None, 1.0, "2", 10**400]),
    ],
)
def test_what_a_field_accepts(field, accepted, refused):
    for value in accepted:
        assert field.accepts(value), value
    for value in refused:
        assert not field.accepts(value), value


def test_unknown_line_names_are_named():
    expected = "unknown line 'start'; lines are finish, police, pit_entry, pit_exit"
    assert FILE_LINES.why(["finish", "start"]) == expected
    assert STEP_FIELDS["lines"].why(frozenset({"start"})) == expected
    assert FILE_LINES.why("start") == ""


def test_shown_cuts_long_values_short():
    assert shown("x" * 100) == "'" + "x" * 54 + "...x'"
    assert shown(10**5000) == "an integer of about 5000 digits"


# -- JSON values: what a track file can hold, and what a track in memory can -------------

#: Values a track file can hold: finite numbers, integers up to 420 digits, text UTF-8
#: can store (hypothesis' text has no lone surrogates), lists and objects.
FILE_VALUES = json_values(
    [*EDGE_KINDS, *LINE_NAMES, "start", "Corner 1", 1, 2, 3, 0.5, 1.0],
    st.sampled_from(["stops", "name", "long", "short", "q"]) | st.text(max_size=3),
    leaves=6,
)

#: Values a track in memory can hold besides: NaN, infinities, frozensets, tuples,
#: 5000-digit integers (whose repr raises).
MEMORY_VALUES = st.recursive(
    FILE_VALUES
    | st.floats()
    | st.sampled_from([math.nan, math.inf, -math.inf, "\ud800"])
    | st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000)  # repr raises: drawn, not listed
    | st.frozensets(st.sampled_from([*LINE_NAMES, "start", 1]), max_size=3),
    lambda children: st.lists(children, max_size=3) | st.tuples(children, children),
    max_leaves=6,
)

TRACK_KEYS = [*GRAPH_FIELDS, "schema", "build", "edits"]
CORNER_KEYS = [*CORNER_FIELDS, "q"]
STEP_KEYS = [*STEP_FIELDS, "note"]


def _attribute_messages(report: ValidationReport) -> list[str]:
    return [p.message for p in report if p.code == "attribute"]


def _assert_a_report(report: ValidationReport, track: Track) -> None:
    assert isinstance(report, ValidationReport)
    assert set(report.codes) <= set(CHECKS)
    assert report.spaces <= set(track.graph)
    assert str(report) and report._repr_html_()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(TRACK_KEYS), value=MEMORY_VALUES)
def test_any_value_of_a_track_attribute_is_reported_never_raised(key, value):
    track = board()
    track.graph.graph[key] = value
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    if key in GRAPH_FIELDS and not GRAPH_FIELDS[key].accepts(value):
        messages = _attribute_messages(report)
        if key == "corners" and isinstance(value, dict):  # each bad corner is named
            assert any(m.startswith("corner ") for m in messages), messages
        else:
            assert any(m.startswith(f"track attribute {key} is ") for m in messages), messages
    elif key in GRAPH_FIELDS:
        assert not any(f" {key} " in m for m in _attribute_messages(report)), str(report)


SPACE = 3  # a space of the board's second column

#: The geometry, progress and links of a space: other checks read them as well.
SPACE_KEYS = [*SPACE_FIELDS, "note"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(SPACE_KEYS), value=MEMORY_VALUES)
def test_any_value_of_a_space_attribute_is_reported_never_raised(key, value):
    """Issue 24: the validator reports every bad value a space can hold, never raises."""
    track = board()
    track.graph.nodes[SPACE][key] = value
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    said = [m for m in _attribute_messages(report) if m.startswith(f"space {SPACE}: {key} is ")]
    if key in SPACE_FIELDS and not SPACE_FIELDS[key].accepts(value):
        assert said, f"space {SPACE}: {key} = {shown(value)} is not reported"
    else:
        assert said == [], said


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(STEP_KEYS), value=MEMORY_VALUES)
def test_any_value_of_a_step_attribute_is_reported_never_raised(key, value):
    track = board()
    track.graph.edges[STEP][key] = value
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    step_problems = [m for m in _attribute_messages(report) if m.startswith("step 0 -> 2: ")]
    if key in STEP_FIELDS and not STEP_FIELDS[key].accepts(value):
        [problem] = step_problems
        assert problem.startswith(f"step 0 -> 2: {key} is {shown(value)}; it must be ")
    else:
        assert step_problems == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(CORNER_KEYS),
    value=MEMORY_VALUES,
    corner=st.sampled_from([1, 2, True, 1.0, "1", 10**400, None, (1,)]),
)
def test_any_value_in_a_corner_record_is_reported_never_raised(key, value, corner):
    track = board()
    corners = track.graph.graph["corners"]
    corners[corner] = {**corners.pop(1), key: value}
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    messages = _attribute_messages(report)
    assert any("its id must be an integer" in m for m in messages) == (
        not CORNER_ID.accepts(corner)
    )
    refused = key in CORNER_FIELDS and not CORNER_FIELDS[key].accepts(value)
    assert any(f": {key} is " in m for m in messages) == refused, messages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=MEMORY_VALUES)
def test_any_corner_record_is_reported_never_raised(value):
    track = board()
    track.graph.graph["corners"][1] = value
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    if not isinstance(value, dict):
        assert f"corner 1 is {shown(value)}; it must be {CORNER_RECORD.expected}" in [
            p.message for p in report
        ]


@pytest.mark.parametrize("key", [*GRAPH_FIELDS])
def test_a_missing_track_attribute_is_reported_never_raised(key):
    track = board()
    del track.graph.graph[key]
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    assert f"the track has no {key!r} attribute" in _attribute_messages(report)
    assert report.track_name == ("untitled" if key == "name" else "ascii board")


@pytest.mark.parametrize("key", [*STEP_FIELDS])
def test_a_missing_step_attribute_is_reported_never_raised(key):
    track = board()
    del track.graph.edges[STEP][key]
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    assert f"step 0 -> 2 has no {key!r} attribute" in _attribute_messages(report)


def test_an_empty_board_reports_its_track_attributes_too():
    track = Track(nx.DiGraph())
    track.graph.graph["laps"] = 0
    assert validate(track).codes == ["empty", "attribute"]


# -- the loader and the validator agree -----------------------------------------------


def _load_with(change) -> TrackFileError | None:
    """The error loading the board's file document with ``change`` made (None if it loads)."""
    doc = track_to_dict(board())
    change(doc)
    try:
        loads(json.dumps(doc), source="x.json")
    except TrackFileError as error:
        return error
    return None


def _assert_agree(refused: bool, error: TrackFileError | None, field: str, problems: list[str]):
    if refused:
        assert error is not None and error.field == field, error
        assert problems, f"the loader refuses {field} but the validator says nothing"
    else:
        assert error is None, error
        assert not problems, problems


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([k for k in GRAPH_FIELDS if k != "corners"]), value=FILE_VALUES)
def test_loader_and_validator_agree_on_a_track_attribute(key, value):
    error = _load_with(set_at(["graph", key], value))
    track = board()
    track.graph.graph[key] = value
    problems = [
        m for m in _attribute_messages(validate(track)) if m.startswith(f"track attribute {key} ")
    ]
    _assert_agree(not GRAPH_FIELDS[key].accepts(value), error, f"graph.{key}", problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([*STEP_FIELDS]), value=FILE_VALUES)
def test_loader_and_validator_agree_on_a_step_attribute(key, value):
    error = _load_with(set_at(["steps", 0, key], value))
    track = board()
    # The file's list of lines is a frozenset in memory; anything else stays as it is.
    is_names = isinstance(value, list) and all(isinstance(v, str) for v in value)
    track.graph.edges[STEP][key] = frozenset(value) if key == "lines" and is_names else value
    problems = [
        m for m in _attribute_messages(validate(track)) if m.startswith(f"step 0 -> 2: {key} is ")
    ]
    field = FILE_LINES if key == "lines" else STEP_FIELDS[key]
    _assert_agree(not field.accepts(value), error, f"steps[0].{key}", problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([*CORNER_FIELDS]), value=FILE_VALUES)
def test_loader_and_validator_agree_on_a_corner_attribute(key, value):
    error = _load_with(set_at(["graph", "corners", 0, key], value))
    track = board()
    track.corners[1][key] = value
    problems = [
        m for m in _attribute_messages(validate(track)) if m.startswith(f"corner 1: {key} ")
    ]
    _assert_agree(not CORNER_FIELDS[key].accepts(value), error, f"graph.corners[0].{key}", problems)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=FILE_VALUES.filter(lambda v: not isinstance(v, (list, dict))))
def test_loader_and_validator_agree_on_a_corner_id(value):
    error = _load_with(set_at(["graph", "corners", 0, "id"], value))
    track = board()
    corners = track.graph.graph["corners"]
    corners[value] = corners.pop(1)
    problems = [m for m in _attribute_messages(validate(track)) if "its id must be" in m]
    _assert_agree(not CORNER_ID.accepts(value), error, "graph.corners[0].id", problems)


# -- what the loader and the validator used to disagree on (one example each) -----------


@pytest.mark.parametrize(
    ("change", "field", "loader_says", "validator_says"),
    [
        (
            lambda t: t.graph.graph.__setitem__("laps", 0),
            "graph.laps",
            "must be an integer >= 1, not 0",
            "track attribute laps is 0; it must be an integer >= 1",
        ),
        (
            lambda t: t.graph.graph.__setitem__("name", 5),
            "graph.name",
            "must be a string, not 5",
            "track attribute name is 5; it must be a string",
        ),
        (
            lambda t: t.graph.graph.__setitem__("space_length", 0),
            "graph.space_length",
            "must be a finite number > 0, not 0",
            "track attribute space_length is 0; it must be a finite number > 0",
        ),
        (
            lambda t: t.graph.graph.__setitem__("lap_length", -1),
            "graph.lap_length",
            "must be a finite number >= 0, not -1",
            "track attribute lap_length is -1; it must be a finite number >= 0",
        ),
        (
            lambda t: t.corners[1].__setitem__("long", "2"),
            "graph.corners[0].long",
            "must be an integer, not '2'",
            "corner 1: long is '2'; it must be an integer",
        ),
        (
            lambda t: t.corners[1].__setitem__("name", None),
            "graph.corners[0].name",
            "must be a string, not None",
            "corner 1: name is None; it must be a string",
        ),
        (
            lambda t: t.graph.edges[STEP].__setitem__("kind", "hop"),
            "steps[0].kind",
            "must be one of ahead, lane_change, pit_in, pit_out, box_in, box_out, tunnel, not 'hop'",
            "step 0 -> 2: kind is 'hop'; it must be one of ahead, lane_change, pit_in, pit_out, "
            "box_in, box_out, tunnel",
        ),
        (
            lambda t: t.graph.edges[STEP].__setitem__("lines", frozenset({"start"})),
            "steps[0].lines",
            "unknown line 'start'; lines are finish, police, pit_entry, pit_exit",
            "step 0 -> 2: lines is frozenset({'start'}); it must be a frozenset of line names "
            "(unknown line 'start'; lines are finish, police, pit_entry, pit_exit)",
        ),
    ],
)
def test_former_drifts(change, field, loader_says, validator_says):
    track = board()
    change(track)
    report = validate(track, cars=CARS)
    assert validator_says in _attribute_messages(report), str(report)
    assert "check_failed" not in report.codes, str(report)
    doc = track_to_dict(track)
    with pytest.raises(TrackFileError) as info:
        loads(json.dumps(doc), source="x.json")
    assert (info.value.field, info.value.detail) == (field, loader_says)


@pytest.mark.parametrize("space_length", ["x", 10**400, [1], math.nan, -1.0])
def test_a_space_length_that_is_no_length_leaves_the_step_checks_running(space_length):
    track = board()
    track.graph.graph["space_length"] = space_length
    track.graph.edges[STEP]["kind"] = "box_in"
    codes = validate(track, cars=CARS).codes
    assert codes == ["attribute", "step_kind"]


@pytest.mark.parametrize("kind", [["ahead"], {"ahead": 1}, None, "hop"])
def test_a_step_kind_of_no_kind_is_an_attribute_problem_and_the_step_checks_run(kind):
    track = board()
    track.graph.edges[STEP]["kind"] = kind
    track.graph.edges[2, 4]["kind"] = "box_in"
    report = validate(track, cars=CARS)
    assert report.codes == ["attribute", "step_kind"], str(report)
    assert report[0].spaces == STEP
