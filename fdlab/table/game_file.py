"""Game files: a race saved as JSON (board, rules, seed, seats, actions) and loaded back.

A game file holds everything needed to play the race again roll for roll:
the board itself (as in a track file), the rules preset and number of laps,
the seed of the dice, the cars and their seats, the starting position when
the race did not start from the grid, and every action. Saving is atomic;
loading executes nothing.

What a game file guarantees
---------------------------
*Version 2* (what :func:`save_game` writes) records in ``digests`` the
digest of every other field: the SHA-256 of its canonical JSON (keys
sorted, no spaces), first 16 hex digits (:func:`field_digest`). Loading
checks the digests first, before anything is replayed: a field changed,
added or removed is refused with one error naming it (``game.json: laps:
the file was changed after it was saved ...``). So a version 2 file that
loads is the race that was saved, on the board and under the rules it was
played on: same board (every space, its shape included), preset, laps,
seed, cars, seats, cap on rounds, start and actions. Laying the JSON out
differently (indentation, order of keys, ``1.0`` written ``1.00``) changes
no digest.

The digests catch a file changed by hand or damaged on the way; they are no
signature: whoever recomputes them gets past them. Every file therefore also
goes through every other check: each field's type and range, the board read
as a track file is, a starting position that can happen on that board, each
action replayed through the checked engine (so only a legal race loads), and
the replay must end on the position recorded in ``check``.

*Version 1* files (written before the digests) still load, with every check
but the digests: a change that leaves a legal race ending on the recorded
position (the laps of a race nobody has finished yet, the shape of a space)
goes unnoticed in them. Saving the loaded game writes version 2. A file that
says version 1 but carries ``digests`` has them checked all the same.

Every failure of :func:`load_game` is one :class:`GameFileError` naming the
file and, where there is one, the field (a ``path`` that is no path is a
:class:`~fdlab.table.errors.TableTypeError`, a ``TypeError`` too). The file is read through :mod:`fdlab.untrusted`: a folder, a
named pipe, a device, a file over :data:`MAX_FILE_BYTES`, bytes that are
not UTF-8, JSON nested without end and numbers JSON does not allow are each
refused at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import reprlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fdlab._text import shown
from fdlab.files import atomic_write
from fdlab.rules.actions import Action, action_from_json
from fdlab.rules.board import Board, compile_board
from fdlab.rules.engine import CAR_NAMES
from fdlab.rules.errors import RaceStuckError, StateError
from fdlab.rules.presets import PRESETS, get_preset
from fdlab.rules.race import Race
from fdlab.rules.state import RaceState
from fdlab.shared_log import _path_of
from fdlab.table.controller import PERSON, TableController
from fdlab.table.errors import GameFileError, TableTypeError
from fdlab.untrusted import MAX_JSON_DEPTH, UntrustedInputError, parse_json, read_file

if TYPE_CHECKING:
    from fdlab.table.widget import RaceTable

__all__ = [
    "FIELDS",
    "FORMAT",
    "MAX_FILE_BYTES",
    "READS",
    "VERSION",
    "field_digest",
    "game_from_dict",
    "game_to_dict",
    "load_game",
    "save_game",
]

#: The ``format`` field of every game file.
FORMAT = "fdlab-game"
#: The version of the layout written by :func:`save_game` (2: with ``digests``).
VERSION = 2
#: The versions :func:`load_game` reads (1: before the digests).
READS = (1, 2)
#: The fields of a game file besides ``digests``, in the order they are written and checked.
FIELDS = (
    "format",
    "version",
    "board",
    "preset",
    "laps",
    "seed",
    "cars",
    "seats",
    "max_rounds",
    "start",
    "actions",
    "check",
)
#: The largest game file :func:`load_game` reads (as for a track file; a real one is under 1 MB).
MAX_FILE_BYTES = 64 * 1024 * 1024
# laps and max_rounds: whole numbers of at most nine digits, as a track file's laps
_SMALL = 10**9
# what a changed file is told to do
_CHANGED = (
    "the file was changed after it was saved ({what}); a game file edited by hand is "
    "refused: load it, change the race at the table (undo, play on) and save it again"
)
_REPLAY = "the file was changed, or saved by another version of the rules"
_ERRORS = (ValueError, TypeError, LookupError, ArithmeticError)


def state_fingerprint(state: RaceState) -> str:
    """A short hash of a race state, to check that a replay ends where the game did.

    Examples
    --------
    >>> from fdlab.rules.state import CarState
    >>> len(state_fingerprint(RaceState(cars=(CarState(pools=(18,)),))))
    16
    """
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def field_digest(value: Any) -> str:
    """The digest of one field of a game file: SHA-256 of its canonical JSON, 16 hex digits.

    Canonical: keys sorted, no spaces, ASCII only, so the digest depends on
    the values alone, not on how the file lays them out.

    Raises
    ------
    TypeError, ValueError
        For a value that is not plain JSON (a set, NaN...).

    Examples
    --------
    >>> field_digest({"b": 1, "a": [1.0, "é"]}) == field_digest({"a": [1.0, "\\u00e9"], "b": 1})
    True
    >>> field_digest(3) == field_digest(3.0), len(field_digest(3))
    (False, 16)
    """
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def game_to_dict(table: TableController | Race | RaceTable) -> dict[str, Any]:
    """The JSON document of a game: a table, or a race whose seats are all people's.

    Parameters
    ----------
    table : TableController, RaceTable or Race
        The game.

    Raises
    ------
    TableTypeError
        When ``table`` is none of these (a ``TypeError`` too).
    GameFileError
        For a race that cannot be replayed from a file: loaded dice instead
        of a seed, a preset that is not one of ``basic``, ``street`` or
        ``advanced``, a bot given as an object instead of by name, or a board
        a track file cannot hold.

    Examples
    --------
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> doc = game_to_dict(TableController(race, ["person", "heuristic"]))
    >>> doc["format"], doc["version"], doc["seed"], doc["seats"], doc["actions"]
    ('fdlab-game', 2, 7, ['person', 'heuristic'], [{'grid': True}])
    >>> doc["digests"]["laps"] == field_digest(1)
    True
    >>> game_to_dict("race")
    Traceback (most recent call last):
    ...
    fdlab.table.errors.TableTypeError: table: the game to save is a TableController, a RaceTable or a Race, not 'race' (of type str)
    """
    from fdlab.track.errors import TrackFileError
    from fdlab.track.io import track_to_dict

    table = _table_of(table)
    race = table.race
    if race.seed is None:
        raise GameFileError(
            "this race plays with injected dice (LoadedDice?), not a seed: a game file "
            "replays from a seed, so start the race with Race(..., seed=N) to save it"
        )
    name = race.preset.name
    if name not in PRESETS or get_preset(name, race.preset.laps) != race.preset:
        raise GameFileError(
            f"the rules preset {name!r} is a custom one: a game file names one of "
            f"{', '.join(PRESETS)}"
        )
    seats = []
    for k, seat in enumerate(table.seats):
        if not isinstance(seat, str):
            raise GameFileError(
                f"seat of {race.names[k]} is a {type(seat).__name__} object: a game file "
                "records bots by name, so give seats such as 'heuristic' or 'lookahead:bold'"
            )
        seats.append(seat)
    try:
        board = track_to_dict(race.track)
    except TrackFileError as error:
        raise GameFileError(f"the board cannot be written to a game file: {error}") from None
    from_grid = race.start == race.engine.initial_state()
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "board": board,
        "preset": name,
        "laps": race.preset.laps,
        "seed": race.seed,
        "cars": list(race.names),
        "seats": seats,
        "max_rounds": race.engine.max_rounds,
        "start": None if from_grid else race.start.to_json(),
        "actions": [action.to_json() for action in race.actions],
        "check": {"actions": len(race.actions), "state": state_fingerprint(race.state)},
    }
    # the values exactly as the file will hold them (tuples as lists...), then their digests
    plain: dict[str, Any] = json.loads(json.dumps(doc, allow_nan=False))
    plain["digests"] = {key: field_digest(value) for key, value in plain.items()}
    return plain


def save_game(table: TableController | Race | RaceTable, path: str | os.PathLike[str]) -> Path:
    """Write a game file (atomically) and return its path.

    Parameters
    ----------
    table : TableController, RaceTable or Race
        The game.
    path : str or os.PathLike
        The file.

    Raises
    ------
    TableTypeError
        When ``table`` or ``path`` is of the wrong kind (a ``TypeError`` too).
    GameFileError
        For a race that cannot be saved (see :func:`game_to_dict`), or when
        the disk refuses the file (the old file is then left as it was).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> path = save_game(race, pathlib.Path(tempfile.mkdtemp()) / "game.json")
    >>> load_game(path).race.actions == race.actions
    True
    """
    target = _path_of(path, "a game file", TableTypeError)
    text = json.dumps(game_to_dict(table), indent=1, allow_nan=False)
    try:
        atomic_write(target, (text + "\n").encode("utf-8"))
    except OSError as error:
        source = str(path)
        raise GameFileError(
            f"{source}: could not save ({error.strerror or error}); the old file is unchanged",
            source=source,
        ) from error
    return target


def load_game(path: str | os.PathLike[str]) -> TableController:
    """Read a game file, check it and replay it; returns the table, ready to play on.

    What a file that loads guarantees is in the module's documentation.

    Raises
    ------
    TableTypeError
        When ``path`` is not a path (a ``TypeError`` too).
    GameFileError
        Naming the file and what is wrong: a file that is not a regular
        file or is too big, not UTF-8 JSON, a field changed after saving, a
        missing or bad field, an action the rules refuse, or a replay that
        does not end where the saved game did.

    Examples
    --------
    >>> load_game("/dev/zero")
    Traceback (most recent call last):
    ...
    fdlab.table.errors.GameFileError: /dev/zero: cannot read the file (it is a character device, not a file)
    """
    target = _path_of(path, "a game file", TableTypeError)
    source = str(path)
    try:
        data = read_file(target, limit=MAX_FILE_BYTES, what="game file")
        doc = parse_json(data, max_depth=None)  # game_from_dict names the field nested too deep
    except UntrustedInputError as error:
        raise GameFileError(f"{source}: {error}", source=source) from None
    return game_from_dict(doc, source=source)


def game_from_dict(
    doc: Any, *, source: str = "<game>", background: bool = False
) -> TableController:
    """Check a game document and replay it (the inverse of :func:`game_to_dict`).

    Raises
    ------
    GameFileError
        Naming ``source`` and the field (see :func:`load_game`).

    Examples
    --------
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> doc = game_to_dict(race)
    >>> game_from_dict(doc).race.state == race.state
    True
    >>> game_from_dict(doc | {"laps": 3})
    Traceback (most recent call last):
    ...
    fdlab.table.errors.GameFileError: <game>: laps: the file was changed after it was saved (this field no longer matches digests.laps); a game file edited by hand is refused: load it, change the race at the table (undo, play on) and save it again
    """
    return _Loader(source, background).table(doc)


class _Loader:
    """Checks a game document field by field; every error names the file and the field."""

    def __init__(self, source: str, background: bool = False) -> None:
        self.source = source
        self.background = background  # bots that need a solve are made in a worker thread

    def fail(self, field: str, message: str) -> GameFileError:
        where = f"{self.source}: {field}" if field else self.source
        return GameFileError(f"{where}: {message}", source=self.source, field=field)

    def table(self, doc: Any) -> TableController:
        self.shape(doc)
        if "digests" in doc or doc["version"] >= 2:
            self.digests(doc)
        unknown = sorted((key for key in doc if key not in FIELDS and key != "digests"), key=str)
        if unknown:
            raise self.fail(unknown[0], f"not a field of a game file ({', '.join(FIELDS)})")
        board = self.board(doc.get("board"))
        race = self.race(doc, board)
        self.check_field(doc.get("check"))
        self.replay(race, doc.get("actions"))
        self.compare(race, doc["check"])
        try:
            return TableController(race, doc["seats"], background=self.background)
        except _ERRORS as error:
            raise self.fail("seats", str(error)) from None

    # -- the whole document -------------------------------------------------------
    def shape(self, doc: Any) -> None:
        """A JSON object of string keys, nested at most MAX_JSON_DEPTH deep, of this format."""
        if not isinstance(doc, dict):
            raise self.fail("", f"a game file is a JSON object, not {_kind(doc)}")
        for key, value in doc.items():
            if not isinstance(key, str):
                raise self.fail("", f"a field's name is a string, not {_shown(key)}")
            if _too_deep(value, MAX_JSON_DEPTH - 1):
                raise self.fail(
                    key, f"nested more than {MAX_JSON_DEPTH} levels deep (lists and objects)"
                )
        if doc.get("format") != FORMAT:
            hint = " (a track file? read it with fdlab.load_track)" if "spaces" in doc else ""
            raise self.fail(
                "format", f"expected {FORMAT!r}, found {reprlib.repr(doc.get('format'))}{hint}"
            )
        version = doc.get("version")
        if not _whole(version) or version not in READS:
            newer = (
                " (saved by a newer fdlab?)"
                if isinstance(version, int) and version > VERSION
                else ""
            )
            raise self.fail(
                "version",
                f"this fdlab reads versions {', '.join(map(str, READS))}, "
                f"found {_shown(version)}{newer}",
            )

    def digests(self, doc: dict[str, Any]) -> None:
        """Every field has the digest it was saved with (see the module's documentation)."""
        noted = doc.get("digests")
        if not isinstance(noted, dict) or not all(isinstance(v, str) for v in noted.values()):
            raise self.fail(
                "digests",
                f"missing or not an object of digests: {_shown(noted)} (a version 2 game file "
                "records the digest of every field)",
            )
        extra = sorted((k for k in {*doc, *noted} if k not in FIELDS and k != "digests"), key=str)
        for key in (*FIELDS, *extra):
            if key not in doc and key not in noted:
                continue
            if key not in noted:
                raise self.fail(key, _CHANGED.format(what="digests has no digest of this field"))
            if key not in doc:
                raise self.fail(
                    key, _CHANGED.format(what="digests has a digest of this field, which is gone")
                )
            try:
                digest = field_digest(doc[key])
            except (TypeError, ValueError, RecursionError):
                raise self.fail(key, f"not plain JSON: {_shown(doc[key])}") from None
            if digest != noted[key]:
                raise self.fail(
                    key, _CHANGED.format(what=f"this field no longer matches digests.{key}")
                )

    # -- the race -----------------------------------------------------------------
    def board(self, data: Any) -> Board:
        from fdlab.track.errors import TrackFileError
        from fdlab.track.io import track_from_dict

        if not isinstance(data, dict):
            raise self.fail("board", f"missing or not a board (a JSON object): {_shown(data)}")
        try:
            track = track_from_dict(data, source=f"{self.source}: board")
        except TrackFileError as error:
            field = f"board.{error.field}" if error.field else "board"
            raise GameFileError(str(error), source=self.source, field=field) from None
        try:
            return compile_board(track)
        except _ERRORS as error:
            raise self.fail("board", f"cannot be raced on: {error}") from None

    def race(self, doc: dict[str, Any], board: Board) -> Race:
        name = doc.get("preset")
        if not isinstance(name, str) or name not in PRESETS:
            raise self.fail(
                "preset",
                f"a game file names one of the rules presets {', '.join(PRESETS)}, "
                f"not {_shown(name)}",
            )
        laps = doc.get("laps")
        if not _whole(laps, 1, _SMALL):
            raise self.fail(
                "laps",
                f"a whole number of laps, 1 or more (nine digits at most), not {_shown(laps)}",
            )
        try:
            preset = get_preset(name, laps)
        except _ERRORS as error:
            raise self.fail("laps", str(error)) from None
        seed = doc.get("seed")
        if not _whole(seed):
            raise self.fail("seed", f"the seed of the dice is a whole number, not {_shown(seed)}")
        cars = self.cars(doc.get("cars"))
        self.seats(doc.get("seats"), cars)
        max_rounds = doc.get("max_rounds")
        if max_rounds is not None and not _whole(max_rounds, 1, _SMALL):
            raise self.fail(
                "max_rounds",
                "the cap on rounds is a whole number, 1 or more (nine digits at most), or null; "
                f"not {_shown(max_rounds)}",
            )
        start = self.start(doc.get("start"))
        try:
            return Race(
                board,
                cars=cars,
                preset=preset,
                seed=seed,
                roll_grid=False,
                max_rounds=max_rounds,
                start=start,
            )
        except StateError as error:
            raise self.fail(
                "start", f"{error} (on this board, with these cars and rules)"
            ) from None
        except _ERRORS as error:
            raise self.fail("cars", f"no race starts with these cars: {error}") from None

    def cars(self, cars: Any) -> list[str]:
        if not isinstance(cars, list) or not 1 <= len(cars) <= len(CAR_NAMES):
            raise self.fail(
                "cars", f"a list of 1 to {len(CAR_NAMES)} car names, not {_shown(cars)}"
            )
        for k, name in enumerate(cars):
            if not isinstance(name, str):
                raise self.fail(f"cars[{k}]", f"a car's name is a string, not {_shown(name)}")
            if name in cars[:k]:
                raise self.fail(
                    f"cars[{k}]", f"every car needs its own name; {_shown(name)} is there twice"
                )
        return cars

    def seats(self, seats: Any, cars: list[str]) -> None:
        if not isinstance(seats, list):
            raise self.fail("seats", f"missing or not a list of seats: {_shown(seats)}")
        if len(seats) != len(cars):
            raise self.fail("seats", f"{len(seats)} seats for {len(cars)} cars")
        for k, seat in enumerate(seats):
            if not isinstance(seat, str):
                raise self.fail(
                    f"seats[{k}]",
                    f"{PERSON!r} or a bot's name such as 'heuristic', not {_shown(seat)}",
                )

    def start(self, data: Any) -> RaceState | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail(
                "start",
                f"null (the race started from the grid) or a race state, not {_shown(data)}",
            )
        try:
            return RaceState.from_json(data)
        except _ERRORS as error:
            raise self.fail("start", str(error)) from None

    # -- the replay ---------------------------------------------------------------
    def check_field(self, check: Any) -> None:
        if (
            not isinstance(check, dict)
            or set(check) != {"actions", "state"}
            or not _whole(check["actions"], 0)
            or not isinstance(check["state"], str)
        ):
            raise self.fail(
                "check",
                "an object of the number of actions and the fingerprint of the last "
                f'position ({{"actions": 12, "state": "0123456789abcdef"}}), not {_shown(check)}',
            )

    def replay(self, race: Race, actions: Any) -> None:
        if not isinstance(actions, list):
            raise self.fail("actions", f"missing or not a list of actions: {_shown(actions)}")
        for index, data in enumerate(actions):
            where = f"actions[{index}]"
            action = _action(data)
            if action is None:
                raise self.fail(
                    where,
                    f"action {index + 1} is not an action: {_shown(data)} (a game file holds "
                    '{"grid": true}, {"gear": N}, {"nitro": true} or {"move": SPACE, "path": '
                    '[...], "moved": N}); ' + _REPLAY,
                )
            try:
                race.play(action)
            except RaceStuckError:
                raise self.fail(
                    "max_rounds",
                    f"the race reaches its cap of {race.engine.max_rounds} rounds (max_rounds) before "
                    f"action {index + 1}; " + _REPLAY,
                ) from None
            except _ERRORS as error:
                raise self.fail(
                    where,
                    f"action {index + 1} ({_shown(data)}) cannot be played: {error}; " + _REPLAY,
                ) from None

    def compare(self, race: Race, check: dict[str, Any]) -> None:
        if check["actions"] != len(race.actions):
            raise self.fail(
                "check.actions",
                f"the file holds {len(race.actions)} actions, the game was saved after "
                f"{check['actions']}; " + _REPLAY,
            )
        try:
            fingerprint = state_fingerprint(race.state)
        except _ERRORS as error:  # pragma: no cover - a state always has a JSON form
            raise self.fail(
                "check.state", f"the last position has no fingerprint: {error}"
            ) from None
        if check["state"] != fingerprint:
            raise self.fail(
                "check.state", "the replay does not end where the saved game did; " + _REPLAY
            )


def _action(data: Any) -> Action | None:
    """The action of a game file's entry, or None unless it is written exactly as saved."""
    if not isinstance(data, dict):
        return None
    try:
        action = action_from_json(data)
        same = field_digest(action.to_json()) == field_digest(data)
    except _ERRORS:
        return None
    return action if same else None


def _table_of(table: Any) -> TableController:
    if isinstance(table, TableController):
        return table
    if isinstance(table, Race):
        return TableController(table, [PERSON] * len(table.names))
    controller = getattr(table, "controller", None)
    if isinstance(controller, TableController):  # a RaceTable (the widget)
        return controller
    raise TableTypeError(
        "table: the game to save is a TableController, a RaceTable or a Race, "
        f"not {reprlib.repr(table)} (of type {type(table).__name__})"
    )


def _whole(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """An int (not a bool) with ``low <= value < high``."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or value >= low)
        and (high is None or value < high)
    )


def _too_deep(value: Any, limit: int) -> bool:
    """Lists and dicts nest deeper than ``limit`` in ``value`` (stops early, even on a cycle)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    names |= {int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), f"the {type(value).__name__}")


def _shown(value: Any) -> str:
    """``value`` in a message as the file writes it (its JSON: ``null``, ``true``), cut at 60
    characters; a value JSON cannot write is shown briefly as Python writes it
    (:func:`fdlab._text.shown`, which never fails on a number too long to print)."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate would break printing the message
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = reprlib.repr(value)
        except ValueError:  # an int too long to print, perhaps in a list
            return shown(value)
    return text if len(text) <= 60 else text[:57] + "..."
