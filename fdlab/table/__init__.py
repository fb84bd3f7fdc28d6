"""Play Formula D at a table in the notebook: people and bots, game files, replays.

:class:`TableController` (seats, turns, choices, undo/redo), the game
files (:func:`save_game`, :func:`load_game`) and the race shared across
computers through a game log (:class:`SharedTable`) are plain Python; the
widgets :class:`RaceTable` (``RaceTable.join`` for a shared race:
:class:`SharedRaceTable`) and the offline replay page (:func:`save_replay`)
import Bokeh and ipywidgets on first use.

Examples
--------
>>> from fdlab.rules import Race
>>> race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=2)
>>> table = TableController(race, ["person", "heuristic"])
>>> table.prompt()
'Blue (person): make the start roll'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fdlab._lazy import lazy_exports
from fdlab.table.controller import PERSON, CarRow, GearChoice, MoveChoice, TableController
from fdlab.table.errors import (
    GameFileError,
    NotYourTurnError,
    SeatError,
    SharedLogError,
    StaleTableError,
    TableError,
)
from fdlab.table.game_file import game_from_dict, game_to_dict, load_game, save_game

if TYPE_CHECKING:
    from fdlab.table.replay_html import replay_html, save_replay
    from fdlab.table.shared import SharedTable
    from fdlab.table.shared_widget import SharedRaceTable
    from fdlab.table.widget import RaceTable

__all__ = [
    "PERSON",
    "CarRow",
    "GameFileError",
    "GearChoice",
    "MoveChoice",
    "NotYourTurnError",
    "RaceTable",
    "SeatError",
    "SharedLogError",
    "SharedRaceTable",
    "SharedTable",
    "StaleTableError",
    "TableController",
    "TableError",
    "game_from_dict",
    "game_to_dict",
    "load_game",
    "replay_html",
    "save_game",
    "save_replay",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    {
        "RaceTable": "fdlab.table.widget",
        "replay_html": "fdlab.table.replay_html",
        "save_replay": "fdlab.table.replay_html",
        "SharedTable": "fdlab.table.shared",
        "SharedRaceTable": "fdlab.table.shared_widget",
    },
)
