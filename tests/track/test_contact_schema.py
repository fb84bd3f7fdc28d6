"""Contacts in the schema table (fdlab.track.schema.CONTACT_FIELDS).

The loader refuses a contact whose ``kind`` or ``rear`` the table refuses,
naming the field; the validator reports the same contact value as a problem
naming the contact (``contact 0 - 1: kind is 'zz'; ...``), and never raises,
whatever the contact holds.
"""

import importlib
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_values import json_values, set_at

from fdlab._text import shown
from fdlab.track import Track, TrackFileError, from_ascii, validate
from fdlab.track.io import loads, track_to_dict
from fdlab.track.model import CONTACT_KINDS
from fdlab.track.schema import CONTACT_FIELDS
from fdlab.track.validate import CHECKS, ValidationReport

CARS = 2
BESIDE = (0, 1)  # contacts[0] of the board's file: side by side
BEHIND = (0, 2)  # contacts[1]: 0 is behind 2 (rear 0)

#: Contact values that are no kind (the audit's examples), and no rear.
BAD_KINDS = ["zz", 10**400, math.nan, [[1]], None, "", "Beside", ("beside",), 1]
BAD_REARS = [math.nan, [[1]], True, 1.5, (0,), {"space": 0}, math.inf]


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


def _contact_problems(report: ValidationReport, a: int, b: int) -> list[str]:
    return [
        p.message
        for p in report
        if p.code == "attribute" and p.message.startswith(f"contact {a} - {b}")
    ]


def _assert_a_report(report: ValidationReport, track: Track) -> None:
    assert isinstance(report, ValidationReport)
    assert set(report.codes) <= set(CHECKS)
    assert report.spaces <= set(track.graph)
    assert str(report) and report._repr_html_()


def test_the_board_and_its_contacts():
    track = board()
    assert validate(track, cars=CARS).ok
    contacts = track_to_dict(track)["contacts"]
    assert contacts[0] == {"a": 0, "b": 1, "kind": "beside"}
    assert contacts[1] == {"a": 0, "b": 2, "kind": "behind", "rear": 0}


# -- the table ---------------------------------------------------------------------------


def test_the_table_holds_every_contact_attribute_and_both_read_it():
    assert set(CONTACT_FIELDS) == {"kind", "rear"}
    for kind in CONTACT_KINDS:
        assert CONTACT_FIELDS["kind"].accepts(kind)
    assert CONTACT_FIELDS["kind"].expected == "one of beside, behind"
    # one table, read by the loader and the validator alike
    for module in ("fdlab.track.io", "fdlab.track.validate"):
        assert importlib.import_module(module).CONTACT_FIELDS is CONTACT_FIELDS, module


@pytest.mark.parametrize(
    ("key", "accepted", "refused"),
    [
        ("kind", ["beside", "behind"], BAD_KINDS),
        ("rear", [None, 0, -3, 10**400, "pit-1", ""], BAD_REARS),
    ],
)
def test_what_a_contact_field_accepts(key, accepted, refused):
    for value in accepted:
        assert CONTACT_FIELDS[key].accepts(value), value
    for value in refused:
        assert not CONTACT_FIELDS[key].accepts(value), value


# -- the validator: each bad contact value is a problem naming the contact ---------------


@pytest.mark.parametrize("kind", BAD_KINDS, ids=repr)
def test_a_bad_contact_kind_is_reported_naming_the_contact(kind):
    track = board()
    track.contacts.edges[BESIDE]["kind"] = kind
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    [problem] = [p for p in report if p.code == "attribute"]
    assert problem.message == (
        f"contact 0 - 1: kind is {shown(kind)}; it must be one of beside, behind"
    )
    assert problem.spaces == BESIDE


def test_a_contact_without_a_kind_is_reported():
    track = board()
    del track.contacts.edges[BESIDE]["kind"]
    report = validate(track, cars=CARS)
    assert _contact_problems(report, *BESIDE) == ["contact 0 - 1 has no 'kind' attribute"]


@pytest.mark.parametrize("rear", BAD_REARS, ids=repr)
def test_a_bad_rear_is_reported_naming_the_contact(rear):
    track = board()
    track.contacts.edges[BEHIND]["rear"] = rear
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    assert _contact_problems(report, *BEHIND) == [
        f"contact 0 - 2: rear is {shown(rear)}; "
        "it must be None or a space id (an integer or a string)"
    ]


@pytest.mark.parametrize("rear", [None, 1, 99, "zz", 10**400], ids=repr)
def test_a_behind_contact_whose_rear_is_not_one_of_its_spaces_is_reported(rear):
    track = board()
    track.contacts.edges[BEHIND]["rear"] = rear
    report = validate(track, cars=CARS)
    assert _contact_problems(report, *BEHIND) == [
        f"contact 0 - 2: rear is {shown(rear)}; a 'behind' contact names its rear space, 0 or 2"
    ]


def test_a_behind_contact_without_a_rear_is_reported():
    track = board()
    del track.contacts.edges[BEHIND]["rear"]
    report = validate(track, cars=CARS)
    assert _contact_problems(report, *BEHIND) == [
        "contact 0 - 2: rear is None; a 'behind' contact names its rear space, 0 or 2"
    ]


def test_either_end_may_be_the_rear_and_a_beside_contact_needs_none():
    track = board()
    track.contacts.edges[BEHIND]["rear"] = 2
    track.contacts.edges[BESIDE]["rear"] = None
    track.contacts.edges[BESIDE]["note"] = [[1]]  # not in the table: any value
    assert validate(track, cars=CARS).ok


def test_a_beside_contact_with_a_bad_rear_is_reported():
    track = board()
    track.contacts.edges[BESIDE]["rear"] = [[1]]
    report = validate(track, cars=CARS)
    assert _contact_problems(report, *BESIDE) == [
        "contact 0 - 1: rear is [[1]]; it must be None or a space id (an integer or a string)"
    ]


def test_a_bad_kind_and_a_bad_rear_are_two_problems():
    track = board()
    track.contacts.edges[BEHIND].update(kind=math.nan, rear=[[1]])
    report = validate(track, cars=CARS)
    assert _contact_problems(report, *BEHIND) == [
        "contact 0 - 2: kind is nan; it must be one of beside, behind",
        "contact 0 - 2: rear is [[1]]; it must be None or a space id (an integer or a string)",
    ]


#: Values a contact in memory can hold: JSON values, NaN, infinities, 5000-digit
#: integers (whose repr raises), frozensets, tuples.
MEMORY_VALUES = st.recursive(
    json_values([*CONTACT_KINDS, "zz", 0, 1, 2], st.text(max_size=3), leaves=4)
    | st.floats()
    | st.sampled_from([math.nan, math.inf, 10**400, "\ud800"])
    | st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000)
    | st.frozensets(st.sampled_from([*CONTACT_KINDS, 0, 2]), max_size=2),
    lambda children: st.lists(children, max_size=3) | st.tuples(children, children),
    max_leaves=4,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    contact=st.sampled_from([BESIDE, BEHIND]),
    key=st.sampled_from([*CONTACT_FIELDS, "note"]),
    value=MEMORY_VALUES,
)
def test_any_contact_value_is_reported_never_raised(contact, key, value):
    track = board()
    track.contacts.edges[contact][key] = value
    report = validate(track, cars=CARS)
    _assert_a_report(report, track)
    problems = _contact_problems(report, *contact)
    if key in CONTACT_FIELDS and not CONTACT_FIELDS[key].accepts(value):
        assert problems[0].startswith(f"contact {contact[0]} - {contact[1]}: {key} is "), problems
    elif key == "note":
        assert problems == []


# -- the loader and the validator agree ----------------------------------------------------

#: Values a track file can hold (as tests/track/test_schema.py draws them).
FILE_VALUES = json_values([*CONTACT_KINDS, "zz", 0, 1, 2, 0.5], st.text(max_size=3), leaves=4)


def _load_with(change) -> TrackFileError | None:
    doc = track_to_dict(board())
    change(doc)
    try:
        loads(json.dumps(doc), source="x.json")
    except TrackFileError as error:
        return error
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.sampled_from([0, 1]), key=st.sampled_from([*CONTACT_FIELDS]), value=FILE_VALUES)
def test_loader_and_validator_agree_on_a_contact_attribute(index, key, value):
    error = _load_with(set_at(["contacts", index, key], value))
    contact = (BESIDE, BEHIND)[index]
    track = board()
    track.contacts.edges[contact][key] = value
    problems = [
        m
        for m in _contact_problems(validate(track, cars=CARS), *contact)
        if m.startswith(f"contact {contact[0]} - {contact[1]}: {key} is ")
    ]
    if error is not None and CONTACT_FIELDS[key].accepts(value):
        # a good value the contact's other fields do not fit (a beside contact made
        # 'behind' has no rear): refused on the contact, and reported on it too
        assert error.field.startswith(f"contacts[{index}]."), error
        assert _contact_problems(validate(track, cars=CARS), *contact), (
            f"the loader refuses contacts[{index}] but the validator says nothing"
        )
    elif error is not None:
        assert error.field == f"contacts[{index}].{key}", error
        assert problems, (
            f"the loader refuses contacts[{index}].{key} but the validator says nothing"
        )
    else:
        assert not problems, problems


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("kind", "zz", "contacts[0].kind: must be one of beside, behind, not 'zz'"),
        ("kind", [[1]], "contacts[0].kind: must be one of beside, behind, not [[1]]"),
        ("kind", None, "contacts[0].kind: must be one of beside, behind, not None"),
        ("rear", [[1]], "contacts[0].rear: must be null or a space id"),
    ],
)
def test_the_loader_refuses_a_bad_contact_value_naming_the_field(key, value, message):
    error = _load_with(set_at(["contacts", 0, key], value))
    assert error is not None and message in str(error)


def test_the_loader_refuses_a_contact_without_a_kind():
    def drop_kind(doc):
        del doc["contacts"][0]["kind"]

    error = _load_with(drop_kind)
    assert error is not None and "contacts[0].kind: must be one of beside, behind" in str(error)


def test_a_beside_contact_made_behind_is_refused_and_reported_on_the_contact():
    """The case hypothesis found: a good kind that the contact's rear does not fit."""
    error = _load_with(set_at(["contacts", 0, "kind"], "behind"))
    assert error is not None and error.field == "contacts[0].rear", error
    track = board()
    track.contacts.edges[BESIDE]["kind"] = "behind"
    assert _contact_problems(validate(track, cars=CARS), *BESIDE)
