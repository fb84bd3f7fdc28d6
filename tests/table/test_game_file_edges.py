"""Game files at every edge (issue 29): whatever a file holds, one GameFileError or the race.

``load_game`` either gives back exactly the race that was saved or raises one
:class:`GameFileError` naming the file (and the field): never a raw error,
never a hang. A version 2 file records a digest of every field, so a change
by hand is refused naming the field; a file whose digests were recomputed
(or a version 1 file, which has none) still has every field checked and
every action replayed.

Each test that loads runs under a time limit (``time_limit``): a load that
hangs fails the test instead of blocking the suite.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hang_limit import time_limit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_values import json_values
from table_helpers import finish, half_played

from fdlab.rules import Race
from fdlab.table import (
    GameFileError,
    TableController,
    game_file,
    game_to_dict,
    load_game,
    save_game,
)
from fdlab.table.game_file import FIELDS, field_digest, game_from_dict

#: Seconds any one load may take before the test calls it a hang.
LIMIT = 20


def load(path: Path) -> TableController:
    with time_limit(LIMIT):
        return load_game(path)


def refused(path: Path) -> GameFileError:
    """The one GameFileError loading ``path`` gives; it names the file."""
    with pytest.raises(GameFileError) as caught:
        load(path)
    error = caught.value
    assert error.source == str(path) and str(error).startswith(f"{path}: "), str(error)
    return error


def stamp(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its digests recomputed, as someone who knows the format would."""
    doc = {key: value for key, value in doc.items() if key != "digests"}
    return doc | {"digests": {key: field_digest(value) for key, value in doc.items()}}


def version_1(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as fdlab wrote it before the digests (the same fields, version 1).

    (Checked against the version 1 writer once: byte for byte the same document.)
    """
    return {key: value for key, value in doc.items() if key != "digests"} | {"version": 1}


#: The two ways past the digests: every check behind them must still hold.
UNDIGESTED = {"recomputed digests": stamp, "version 1": version_1}


def write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


def same_game(loaded: TableController, table: TableController) -> bool:
    race, other = loaded.race, table.race
    return (
        race.state == other.state
        and race.actions == other.actions
        and race.start == other.start
        and race.names == other.names
        and race.preset == other.preset
        and race.seed == other.seed
        and loaded.seats == table.seats
        and game_to_dict(loaded) == game_to_dict(table)
    )


@pytest.fixture(scope="module")
def table(ring) -> TableController:
    """A race half played on the ring: a person (Blue), a bot, a random bot."""
    return half_played(ring, person_turns=3)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def saved(table, folder) -> Path:
    return save_game(table, folder / "saved.json")


@pytest.fixture(scope="module")
def doc(saved) -> dict[str, Any]:
    return json.loads(saved.read_text(encoding="utf-8"))


@pytest.fixture
def edit(doc, tmp_path):
    """``edit(change, how)``: the saved game changed by ``change(doc)``, written with ``how``."""

    def edited(change: Any, how: Any = lambda d: d) -> Path:
        changed = copy.deepcopy(doc)
        change(changed)
        return write(tmp_path / "edited.json", how(changed))

    return edited


# -- the file itself ----------------------------------------------------------------------


def test_a_saved_game_is_version_2_with_a_digest_of_every_field(doc, saved, table):
    assert doc["version"] == 2 and list(doc) == [*FIELDS, "digests"]
    assert doc["digests"] == {key: field_digest(doc[key]) for key in FIELDS}
    assert same_game(load(saved), table)


def test_laying_the_json_out_differently_changes_no_digest(doc, tmp_path, table):
    path = tmp_path / "tidy.json"
    path.write_text(json.dumps(doc, sort_keys=True, separators=(",", ":")), encoding="utf-8")
    assert same_game(load(path), table)
    text = json.dumps(dict(reversed(doc.items())), indent="\t", ensure_ascii=True)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # a byte-order mark, tabs, \u escapes
    assert same_game(load(path), table)


def test_a_non_utf8_byte_is_one_error(saved, tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(saved.read_bytes().replace(b'"Ring"', b'"R\xefng"', 1))
    assert "not UTF-8 text" in str(refused(path))


def test_a_file_nested_100000_deep_is_one_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested more than 64 levels deep" in str(refused(path))
    write(path, {"format": "fdlab-game", "version": 2, "start": json.loads("[" * 70 + "]" * 70)})
    error = refused(path)
    assert error.field == "start" and "nested more than 64 levels" in str(error)


def test_infinity_and_a_number_too_big_for_a_float_are_one_error(saved, tmp_path):
    text = saved.read_text(encoding="utf-8")
    assert '"gear": 1' in text
    path = tmp_path / "inf.json"
    for number, said in (("Infinity", "Infinity is not a number JSON allows"),
                         ("1e999", "is too large"), ("NaN", "NaN is not a number")):  # fmt: skip
        path.write_text(text.replace('"gear": 1', f'"gear": {number}', 1), encoding="utf-8")
        assert said in str(refused(path))


def test_a_fifo_and_dev_zero_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes to it: opening it to read would wait for ever
    assert "cannot read the file (it is a named pipe (FIFO), not a file)" in str(refused(fifo))
    with time_limit(LIMIT), pytest.raises(GameFileError, match=r"^/dev/zero: cannot read the file"):
        load_game("/dev/zero")  # a device: not read at all, so no MemoryError
    assert "cannot read the file" in str(refused(tmp_path))  # a folder
    assert "No such file" in str(refused(tmp_path / "missing.json"))


def test_a_file_over_the_limit_is_refused_before_it_is_read(saved, monkeypatch):
    monkeypatch.setattr(game_file, "MAX_FILE_BYTES", 1000)
    assert "the file is too big for a game file" in str(refused(saved))


def test_a_path_that_is_not_a_path_is_a_type_error():
    with pytest.raises(TypeError, match=r"^path: a game file's path is a str or a pathlib"):
        load_game(None)  # type: ignore[arg-type]
    with pytest.raises(GameFileError, match="cannot read the file"):
        load_game("nul\0byte.json")


# -- a hand-edited file (the digests) ------------------------------------------------------


@pytest.mark.parametrize("laps", [3, 10**6])
def test_a_hand_edited_laps_is_refused(edit, laps):
    error = refused(edit(lambda d: d.update(laps=laps)))
    assert error.field == "laps"
    assert "laps: the file was changed after it was saved" in str(error)
    assert "digests.laps" in str(error)


def test_one_byte_changes_to_the_boards_geometry_are_refused(saved, tmp_path):
    text = saved.read_text(encoding="utf-8")
    digits = []  # one digit of each coordinate and outline of a space
    start = text.index('"spaces"')
    for line in text[start : text.index('"steps"')].splitlines(keepends=True):
        if line.lstrip().startswith(('"x":', '"y":', '"polygon":')):
            digits.append(start + max(at for at, char in enumerate(line) if char.isdigit()))
        start += len(line)
    path = tmp_path / "moved.json"
    for at in digits[:: len(digits) // 40]:  # 40 or so, spread over the board
        changed = str((int(text[at]) + 1) % 10)
        path.write_text(text[:at] + changed + text[at + 1 :], encoding="utf-8")
        error = refused(path)
        assert error.field == "board" and "was changed after it was saved" in str(error)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(seed=d["seed"] + 1), "seed"),
        (lambda d: d.update(max_rounds=1), "max_rounds"),
        (lambda d: d.update(cars=["Blue", "Blue", "Green"]), "cars"),
        (lambda d: d["seats"].reverse(), "seats"),
        (lambda d: d.update(preset="advanced"), "preset"),
        (lambda d: d["actions"].pop(), "actions"),
        (lambda d: d["check"].update(actions=0), "check"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("start"), "start"),
        (lambda d: d["digests"].update(laps="0" * 16), "laps"),
        (lambda d: d.update(version=1), "version"),  # digests are checked when they are there
    ],
)
def test_any_hand_edit_is_refused_naming_the_field(edit, change, field):
    error = refused(edit(change))
    assert error.field == field and "the file was changed after it was saved" in str(error)


def test_a_file_without_its_digests_is_refused(edit):
    error = refused(edit(lambda d: d.pop("digests")))
    assert error.field == "digests" and "missing" in str(error)


# -- every check behind the digests ----------------------------------------------------------


def test_a_version_1_file_loads_and_plays_on_like_the_saved_game(doc, tmp_path, table):
    path = write(tmp_path / "old.json", version_1(copy.deepcopy(doc)))
    loaded = load(path)
    assert same_game(loaded, table)
    again = json.loads(save_game(loaded, tmp_path / "again.json").read_text())
    assert again == doc  # saved again: version 2, with digests
    other = load(path.with_name("again.json"))
    finish(loaded)  # the bots, the random one too, choose the same on the way
    finish(other)
    assert loaded.race.over and loaded.race.actions == other.race.actions


def test_what_a_version_1_file_cannot_promise(edit):
    """No digests: an edit that leaves a legal race ending where it did goes unnoticed."""
    loaded = load(edit(lambda d: d.update(laps=3), version_1))
    assert loaded.race.preset.laps == 3  # documented in fdlab.table.game_file


@pytest.mark.parametrize("how", UNDIGESTED.values(), ids=UNDIGESTED.keys())
@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda d: d.update(laps=0),
            "laps",
            "a whole number of laps, 1 or more (nine digits at most), not 0",
        ),
        (lambda d: d.update(laps=10**400), "laps", "a whole number of laps"),
        (lambda d: d.update(laps=True), "laps", "not true"),
        (lambda d: d.update(cars=["Blue", "Red", "Blue"]), "cars[2]", '"Blue" is there twice'),
        (lambda d: d.update(cars=[]), "cars", "a list of 1 to 10 car names"),
        (lambda d: d.update(cars=["Blue", 2, "Green"]), "cars[1]", "a car's name is a string"),
        (lambda d: d.update(max_rounds=0), "max_rounds", "or null; not 0"),
        (lambda d: d.update(max_rounds="9"), "max_rounds", 'not "9"'),
        (lambda d: d.update(max_rounds=2.5), "max_rounds", "not 2.5"),
        (lambda d: d.update(max_rounds=1), "max_rounds", "reaches its cap of 1 rounds"),
        (lambda d: d.update(preset="custom"), "preset", 'basic, street, advanced, not "custom"'),
        (lambda d: d.update(preset={"name": "basic"}), "preset", "not {"),
        (lambda d: d.update(seed="13"), "seed", "a whole number"),
        (lambda d: d.update(seats=["person"]), "seats", "1 seats for 3 cars"),
        (lambda d: d.update(seats=["person", None, "random"]), "seats[1]", "not null"),
        (lambda d: d["seats"].__setitem__(1, "clever"), "seats", "unknown bot 'clever'"),
        (lambda d: d.update(board=[]), "board", "not a board"),
        (lambda d: d["board"].pop("spaces"), "board", "spaces"),
        (lambda d: d.update(actions={}), "actions", "not a list of actions"),
        (lambda d: d["actions"].__setitem__(3, {"gear": 1.0}), "actions[3]", "is not an action"),
        (lambda d: d["actions"].__setitem__(3, {"gear": 1, "x": 0}), "actions[3]", "not an action"),
        (lambda d: d["actions"].__setitem__(3, {"gear": 6}), "actions[3]", "cannot be played"),
        (lambda d: d["actions"].__setitem__(3, 7), "actions[3]", "is not an action"),
        (lambda d: d["actions"].append({"move": [1]}), "actions[25]", "cannot be played"),
        (lambda d: d["check"].update(state="0" * 16), "check.state", "does not end where"),
        (lambda d: d["check"].update(actions=3), "check.actions", "saved after 3"),
        (lambda d: d.update(check=[]), "check", "the number of actions"),
        (lambda d: d.update(start=[]), "start", "null (the race started from the grid)"),
        (lambda d: d.update(format="zip"), "format", "expected 'fdlab-game'"),
        (lambda d: d.update(extra=None), "extra", "not a field of a game file"),
    ],
)
def test_every_field_is_checked_behind_the_digests(edit, doc, how, change, field, message):
    if field == "actions[25]":
        field = f"actions[{len(doc['actions'])}]"
    error = refused(edit(change, how))
    assert error.field == field or error.field.startswith(f"{field}."), str(error)
    assert message in str(error), str(error)
    assert "bug" not in str(error)


@pytest.fixture(scope="module")
def lesson(ring, folder) -> tuple[Race, dict[str, Any]]:
    """A race set up from a position (it saves its start) and played a little."""
    race = Race.from_position(
        ring,
        {"Blue": {"space": 8, "gear": 3, "started": True}, "Red": {"space": 2, "gear": 2}},
        seed=2,
    )
    race.play(3)
    doc = json.loads(save_game(race, folder / "lesson.json").read_text())
    assert doc["start"] is not None
    return race, doc


START_CHANGES = [
    lambda s: s.update(phase="lunch"),
    lambda s: s.pop("round"),
    lambda s: s.update(extra=1),
    lambda s: s.update(cars=[]),
    lambda s: s.update(cars="Blue"),
    lambda s: s["cars"][0].update(gear=9),
    lambda s: s["cars"][0].update(space=10**6),
    lambda s: s["cars"][0].update(space=s["cars"][1]["space"]),
    lambda s: s["cars"][0].update(pools=[-1]),
    lambda s: s["cars"][0].update(pools=[10**6]),
    lambda s: s["cars"][0].update(status="asleep"),
    lambda s: s["cars"][0].update(wings=2),
    lambda s: s.update(order=[0, 0]),
    lambda s: s.update(order=[5]),
    lambda s: s.update(turn=-1),
    lambda s: s.update(nitro="yes"),
    lambda s: s["cars"].append(s["cars"][0]),
    lambda s: s["cars"][0].update(police=[[1]]),
    lambda s: s["cars"][0].update(pit_entry=1e308),
]


@pytest.mark.parametrize("how", UNDIGESTED.values(), ids=UNDIGESTED.keys())
@pytest.mark.parametrize("change", START_CHANGES)
def test_a_bad_start_names_the_start(lesson, tmp_path, how, change):
    _race, doc = lesson
    changed = copy.deepcopy(doc)
    change(changed["start"])
    path = write(tmp_path / "lesson.json", how(changed))
    try:
        with time_limit(LIMIT):
            loaded = load_game(path)
    except GameFileError as error:
        assert error.source == str(path), error
        assert error.field.startswith(("start", "actions[", "check.state")), error
        assert "bug" not in str(error)
    else:  # a start that can happen: the race replays from it
        assert loaded.race.start == _start(changed)


def _start(doc: dict[str, Any]) -> Any:
    from fdlab.rules.state import RaceState

    return RaceState.from_json(doc["start"])


def test_a_position_race_saved_and_loaded_keeps_its_start(lesson, folder):
    race, _doc = lesson
    loaded = load(folder / "lesson.json")
    assert loaded.race.start == race.start and loaded.race.state == race.state


# -- saving ---------------------------------------------------------------------------------


def test_save_game_of_something_that_is_not_a_game_is_one_type_error(tmp_path, table):
    for wrong in ("race", None, 3, table.race.board):
        with pytest.raises(TypeError, match=r"^table: the game to save is a TableController"):
            save_game(wrong, tmp_path / "game.json")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^path: a game file's path is a str"):
        save_game(table, 3)  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


def test_a_race_table_saves_its_controller(tmp_path, table):
    widget = SimpleNamespace(controller=table)  # what save_game reads of a RaceTable
    assert same_game(load(save_game(widget, tmp_path / "game.json")), table)  # type: ignore


def test_a_save_the_disk_refuses_is_one_error_naming_the_file(tmp_path, table):
    target = tmp_path / "no" / "such" / "folder.json"
    with pytest.raises(GameFileError, match=r"folder\.json: could not save \(No such file"):
        save_game(table, target)


def test_a_game_file_error_names_file_and_field_and_survives_pickling(edit):
    error = refused(edit(lambda d: d.update(laps=3)))
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.source, again.field) == (str(error), error.source, "laps")


# -- property tests -------------------------------------------------------------------------

JSON = json_values(
    ["fdlab-game", "person", "random", "basic", "street", "grid", "gear"],
    st.sampled_from([*FIELDS, "digests", "x", "gear", "move", "cars"]),
    size=4,
    leaves=12,
)

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def outcome(path: Path, table: TableController | None = None) -> TableController | None:
    """Load ``path``: one GameFileError naming the file (None), or a game that replays."""
    try:
        loaded = load(path)
    except GameFileError as error:
        assert error.source == str(path) and str(error).startswith(f"{path}: "), str(error)
        assert "\n" not in str(error) and "bug" not in str(error)
        return None
    if table is not None:
        assert same_game(loaded, table)
    # a game that loads saves again, and what it saves loads to the same race
    again = load(save_game(loaded, path.with_suffix(".again.json")))
    assert again.race.state == loaded.race.state and again.race.actions == loaded.race.actions
    return loaded


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_give_one_error(folder, data):
    path = folder / "bytes.json"
    path.write_bytes(data)
    assert outcome(path) is None


@FUZZ
@given(value=JSON)
def test_random_json_gives_one_error(folder, value):
    path = write(folder / "random.json", value)
    assert outcome(path) is None
    path = write(folder / "random.json", {"format": "fdlab-game", "version": 2} | (
        value if isinstance(value, dict) else {"board": value}))  # fmt: skip
    assert outcome(path) is None


@settings(FUZZ, max_examples=150)
@given(at=st.floats(0, 1, exclude_max=True), byte=st.integers(0, 255))
def test_a_one_byte_change_gives_one_error_or_the_same_game(saved, folder, table, at, byte):
    text = saved.read_bytes()
    index = int(at * len(text))
    path = folder / "one-byte.json"
    path.write_bytes(text[:index] + bytes([byte]) + text[index + 1 :])
    outcome(path, table)  # the same game when the change was only layout


@st.composite
def changed_field(draw: st.DrawFn, doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``doc`` with one value somewhere inside a field replaced, or a key removed or added."""
    doc = copy.deepcopy(doc)
    field = draw(st.sampled_from(FIELDS))
    holder: Any = doc
    key: Any = field
    while isinstance(holder[key], (dict, list)) and holder[key] and draw(st.integers(0, 3)):
        holder = holder[key]
        key = draw(st.sampled_from(sorted(holder) if isinstance(holder, dict) else
                                   range(len(holder))))  # fmt: skip
    what = draw(st.sampled_from(["near", "near", "replace", "remove", "add"]))
    if what == "remove":
        del holder[key]
    elif what == "add" and isinstance(holder[key], dict):
        holder[key][draw(st.sampled_from(["x", "gear", "id", "kind"]))] = draw(JSON)
    elif what == "add" and isinstance(holder[key], list):
        holder[key].append(draw(JSON))
    elif what == "near":
        holder[key] = draw(near(holder[key], doc))
    else:
        holder[key] = draw(JSON)
    return field, doc


def near(value: Any, doc: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value close to ``value``, as a slip of the hand or a careful cheat would write it."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.sampled_from([value - 1, value + 1, value + 2, -value, value * 1000])
    if isinstance(value, float):
        return st.sampled_from([value + 1.0, value - 0.5, -value, value * 2, 1e300])
    if isinstance(value, str):
        return st.sampled_from(sorted(strings(doc)))  # another word of the same file
    if isinstance(value, list) and value:
        return st.sampled_from([value[1:], value[:-1], value[::-1], [*value, value[-1]]])
    return JSON


def strings(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return {value} if isinstance(value, str) and len(value) < 30 else set()


@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_a_changed_field_is_refused_naming_it(doc, folder, table, data):
    field, changed = data.draw(changed_field(doc))
    path = write(folder / "changed.json", changed)
    try:
        loaded = load(path)
    except GameFileError as error:
        assert error.source == str(path) and error.field == field, str(error)
        assert field in ("format", "version") or "was changed after it was saved" in str(error)
    else:  # the value written is the one saved (a float 1.0 for 1.0...)
        assert field_digest(changed[field]) == field_digest(doc[field])
        assert same_game(loaded, table)


@settings(FUZZ, max_examples=80)
@given(data=st.data(), how=st.sampled_from(sorted(UNDIGESTED)))
def test_a_changed_field_past_the_digests_gives_one_error_or_a_legal_game(doc, folder, data, how):
    _field, changed = data.draw(changed_field(doc))
    path = write(folder / "past-digests.json", UNDIGESTED[how](changed))
    outcome(path)


def test_game_from_dict_refuses_what_a_file_cannot_hold(doc):
    cycle: dict[str, Any] = {}
    cycle["x"] = cycle
    for value in ({**doc, "start": cycle}, {**doc, "seats": {1, 2}}, {**doc, 3: 1}):
        with time_limit(LIMIT), pytest.raises(GameFileError, match="^<game>: "):
            game_from_dict(value)
    with pytest.raises(GameFileError, match="^<game>: a game file is a JSON object, not a list"):
        game_from_dict([])


def test_a_replay_page_of_something_that_is_not_a_race_is_one_type_error(table, tmp_path):
    from fdlab.table.replay_html import replay_frames, replay_html, save_replay

    with pytest.raises(
        TypeError, match=r"^race: a replay page shows a Race .*'race' \(of type str"
    ):
        replay_html("race")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^race: a replay page shows a Race"):
        save_replay(None, tmp_path / "replay.html")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^path: a replay page's path is a str"):
        save_replay(table.race, 3)  # type: ignore[arg-type]
    assert replay_frames(table) == replay_frames(table.race)  # type: ignore[arg-type]
