"""Game files: a race saved as JSON (board, rules, seed, seats, actions) and loaded back.

A game file holds everything needed to play the race again roll for roll:
the board itself (as in a track file), the rules preset and number of laps,
the seed of the dice, the cars and their seats, the starting position when
the race did not start from the grid, and every action. Loading replays the
actions through the checked engine and compares the result with the
fingerprint saved beside them, so a file changed by hand (or by another
version of the rules) gives one clear error instead of a different race.
Saving is atomic; loading executes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from fdlab.files import atomic_write
from fdlab.rules.actions import action_from_json
from fdlab.rules.errors import RuleError
from fdlab.rules.presets import PRESETS, get_preset
from fdlab.rules.race import Race
from fdlab.rules.state import RaceState
from fdlab.table.controller import PERSON, TableController
from fdlab.table.errors import GameFileError

__all__ = ["FORMAT", "VERSION", "game_from_dict", "game_to_dict", "load_game", "save_game"]

#: The ``format`` field of every game file.
FORMAT = "fdlab-game"
#: The version of the layout written by :func:`save_game`.
VERSION = 1


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


def game_to_dict(table: TableController | Race) -> dict[str, Any]:
    """The JSON document of a game (a table, or a race whose seats are all people's).

    Raises
    ------
    GameFileError
        For a race that cannot be replayed from a file: loaded dice instead
        of a seed, a preset that is not one of ``basic``, ``street`` or
        ``advanced``, or a bot given as an object instead of by name.

    Examples
    --------
    >>> from fdlab.track import from_ascii
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> doc = game_to_dict(TableController(race, ["person", "heuristic"]))
    >>> doc["format"], doc["seed"], doc["seats"], doc["actions"]
    ('fdlab-game', 7, ['person', 'heuristic'], [{'grid': True}])
    """
    from fdlab.track.io import track_to_dict

    if isinstance(table, Race):
        table = TableController(table, [PERSON] * len(table.names))
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
    from_grid = race.start == race.engine.initial_state()
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": track_to_dict(race.track),
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


def save_game(table: TableController | Race, path: str | os.PathLike[str]) -> Path:
    """Write a game file (atomically) and return its path.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from fdlab.track import from_ascii
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> path = save_game(race, pathlib.Path(tempfile.mkdtemp()) / "game.json")
    >>> load_game(path).race.actions == race.actions
    True
    """
    target = Path(path)
    text = json.dumps(game_to_dict(table), indent=1)
    atomic_write(target, (text + "\n").encode("utf-8"))
    return target


def load_game(path: str | os.PathLike[str]) -> TableController:
    """Read a game file, replay it and check it; returns the table, ready to play on.

    Raises
    ------
    GameFileError
        Naming the file and what is wrong: not JSON, a missing or bad
        field, an action the rules refuse, or a replay that does not end
        where the saved game did.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as error:
        raise GameFileError(f"{source}: cannot read the game file ({error.strerror})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(
            f"{source}: not a JSON file (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    return game_from_dict(doc, source=str(source))


def game_from_dict(doc: Any, *, source: str = "<game>") -> TableController:
    """Replay a game document (the inverse of :func:`game_to_dict`) and check it.

    Examples
    --------
    >>> from fdlab.track import from_ascii
    >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=7)
    >>> doc = game_to_dict(race)
    >>> game_from_dict(doc).race.state == race.state
    True
    >>> doc["check"]["state"] = "0" * 16
    >>> game_from_dict(doc)
    Traceback (most recent call last):
    ...
    fdlab.table.errors.GameFileError: <game>: the replay does not end where the saved game did (check.state differs): the file was changed, or saved by another version of the rules
    """
    from fdlab.track.errors import TrackFileError
    from fdlab.track.io import track_from_dict

    def fail(where: str, message: str) -> GameFileError:
        return GameFileError(f"{source}: {where}: {message}")

    if not isinstance(doc, dict):
        raise GameFileError(f"{source}: a game file is a JSON object, not {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise fail("format", f"expected {FORMAT!r}, found {doc.get('format')!r}")
    if doc.get("version") != VERSION:
        raise fail("version", f"this fdlab reads version {VERSION}, found {doc.get('version')!r}")
    for key, kind in (
        ("board", dict),
        ("preset", str),
        ("laps", int),
        ("seed", int),
        ("cars", list),
        ("seats", list),
        ("actions", list),
        ("check", dict),
    ):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise fail(key, f"missing or not a {kind.__name__}: {doc.get(key)!r}")
    if len(doc["seats"]) != len(doc["cars"]):
        raise fail("seats", f"{len(doc['seats'])} seats for {len(doc['cars'])} cars")
    try:
        track = track_from_dict(doc["board"], source=f"{source}: board")
    except TrackFileError as error:
        raise GameFileError(str(error)) from None
    try:
        preset = get_preset(doc["preset"], doc["laps"])
        start = doc.get("start")
        race = Race(
            track,
            cars=[str(name) for name in doc["cars"]],
            preset=preset,
            seed=doc["seed"],
            roll_grid=False,
            max_rounds=doc.get("max_rounds"),
            start=RaceState.from_json(start) if start is not None else None,
        )
    except (RuleError, KeyError, TypeError) as error:
        raise fail("cars/preset/start", str(error)) from None
    for number, data in enumerate(doc["actions"], start=1):
        try:
            action = action_from_json(data)
            race.play(action)
        except (RuleError, ValueError, TypeError, KeyError) as error:
            raise fail(
                f"actions[{number - 1}]",
                f"action {number} ({json.dumps(data)}) cannot be played: {error}; the file "
                "was changed, or saved by another version of the rules",
            ) from None
    check = doc["check"]
    if check.get("actions") != len(race.actions) or check.get("state") != state_fingerprint(
        race.state
    ):
        raise GameFileError(
            f"{source}: the replay does not end where the saved game did (check.state differs): "
            "the file was changed, or saved by another version of the rules"
        )
    try:
        return TableController(race, doc["seats"])
    except ValueError as error:
        raise fail("seats", str(error)) from None
