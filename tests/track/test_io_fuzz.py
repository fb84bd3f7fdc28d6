"""Fuzzing load_track over mutated shipped track files (issue 15).

Whatever the bytes, loading either gives a board or raises one
TrackFileError; and a board that loads can always be saved again, giving a
file that loads back to the same text.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_values import json_values

from fdlab.track import TrackFileError, load_track
from fdlab.track.io import dumps, loads

TRACKS = Path(__file__).resolve().parents[2] / "tracks"
SHIPPED = {path.name: path.read_text() for path in sorted(TRACKS.glob("*.json"))}
SMALLEST = min(SHIPPED, key=lambda name: len(SHIPPED[name]))

#: Text that has broken track files before: huge numbers, deep nesting, lone surrogates,
#: WKT with measures or NaN, constants JSON does not allow.
NASTY = [
    "1e999",
    "-1e999",
    "9" * 400,
    "-" + "9" * 400,
    "9" * 5000,
    "[" * 70,
    "[" * 1200 + "]" * 1200,
    '"\\ud800"',
    '"\\udfff x"',
    '"POLYGON M ((0 0 1, 1 0 1, 1 1 1, 0 0 1))"',
    '"POLYGON ZM ((0 0 1 2, 1 0 1 2, 1 1 1 2, 0 0 1 2))"',
    '"POLYGON ((0 0, 1e999 0, 1 1, 0 0))"',
    '"POLYGON ((0 0, nan 0, 1 1, 0 0))"',
    '"POINT (0 0)"',
    "NaN",
    "Infinity",
    "null",
    "true",
    "{}",
    "[]",
    '""',
    "0",
    "-0.0",
    "1.5",
    ",",
    ":",
    '"',
    "\x00",
]

JSON_VALUES = json_values(
    ["track", "pit", "box", "finish", "beside", "behind", "\ud800", "POLYGON EMPTY"],
    st.sampled_from(["x", "id", "kind", "lines", "rear", "stops", "q"]),
    text_size=6,
)


def assert_loads_cleanly_and_saves(text: str | bytes) -> None:
    try:
        track = loads(text, source="fuzz.json")
    except TrackFileError:
        return
    saved = dumps(track)
    assert dumps(loads(saved)) == saved


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(SHIPPED)),
    at=st.floats(min_value=0, max_value=1, exclude_max=True),
    cut=st.integers(min_value=0, max_value=40),
    insert=st.sampled_from(NASTY) | st.text(max_size=12),
)
def test_byte_level_mutations_give_a_board_that_saves_or_one_track_file_error(
    name, at, cut, insert
):
    text = SHIPPED[name]
    start = int(at * len(text))
    assert_loads_cleanly_and_saves(text[:start] + insert + text[start + cut :])


def _value_spans(text: str) -> list[tuple[int, int]]:
    """Where each plain value of a file starts and ends (after ``": "``, up to ``,`` or ``}``)."""
    spans = []
    start = text.find('": ')
    while start >= 0:
        begin = start + 3
        end = begin
        while end < len(text) and text[end] not in ",}\n":
            end += 1
        spans.append((begin, end))
        start = text.find('": ', end)
    return spans


SPANS = {name: _value_spans(text) for name, text in SHIPPED.items()}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(SHIPPED)),
    at=st.floats(min_value=0, max_value=1, exclude_max=True),
    value=st.sampled_from(NASTY[:12]) | st.sampled_from(NASTY),
)
def test_a_value_replaced_by_nasty_text_gives_a_board_that_saves_or_one_error(name, at, value):
    text = SHIPPED[name]
    begin, end = SPANS[name][int(at * len(SPANS[name]))]
    assert_loads_cleanly_and_saves(text[:begin] + value + text[end:])


def _containers(doc, path=()):
    """Every (path, container) pair of a document, the document first."""
    yield path, doc
    items = doc.items() if isinstance(doc, dict) else enumerate(doc)
    for key, value in items:
        if isinstance(value, (dict, list)):
            yield from _containers(value, (*path, key))


DOCUMENT = json.loads(SHIPPED[SMALLEST])
CONTAINERS = [path for path, container in _containers(DOCUMENT) if container]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON_VALUES | st.sampled_from(NASTY[:4]).map(json.loads))
def test_field_level_mutations_give_a_board_that_saves_or_one_track_file_error(data, value):
    doc = json.loads(SHIPPED[SMALLEST])
    path = data.draw(st.sampled_from(CONTAINERS), label="container")
    container = doc
    for key in path:
        container = container[key]
    if isinstance(container, dict):
        key = data.draw(st.sampled_from(sorted(container)) | st.text(max_size=4), label="key")
    else:
        key = data.draw(st.integers(0, len(container) - 1), label="index")
    container[key] = value
    assert_loads_cleanly_and_saves(json.dumps(doc))


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_files_themselves_load_and_save(name):
    track = load_track(TRACKS / name)
    assert dumps(track) == SHIPPED[name]


#: Keyword names of networkx's add_node/add_edge: a file's extra field with one of these
#: names once reached them as a keyword argument and raised TypeError (found by the test
#: above in CI).
NETWORKX_ARGUMENT_NAMES = ["self", "node_for_adding", "u_of_edge", "v_of_edge", "attr"]


@pytest.mark.parametrize("container", ["spaces", "steps", "contacts"])
@pytest.mark.parametrize("key", NETWORKX_ARGUMENT_NAMES)
def test_a_field_named_like_a_networkx_argument_loads_or_gives_one_error(container, key):
    doc = json.loads(SHIPPED[SMALLEST])
    doc[container][0][key] = 1
    assert_loads_cleanly_and_saves(json.dumps(doc))
