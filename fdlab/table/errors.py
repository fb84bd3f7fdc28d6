"""Errors of the race table: each an FdlabError (a ValueError) saying what is wrong and where."""

from __future__ import annotations

from typing import Any

from fdlab.errors import FdlabError
from fdlab.shared_log import GameLogError

__all__ = [
    "ClassAppError",
    "GameFileError",
    "NotYourTurnError",
    "SeatError",
    "SharedLogError",
    "StaleTableError",
    "TableError",
    "TableTypeError",
]


class TableError(FdlabError):
    """Something the table cannot do now (nothing to undo, the race is over...)."""


class NotYourTurnError(TableError):
    """A person's action while a bot is on turn."""


class SeatError(TableError):
    """A seat that is neither a person nor a known bot."""


class TableTypeError(TableError, TypeError):
    """A value of the wrong type for the table's functions (``save_game("race")``); a
    ``TypeError`` too, so ``except TypeError`` still catches it."""


class GameFileError(TableError):
    """A game file that cannot be read or written, or whose replay does not check out.

    The message names the file and the field (``game.json: laps: ...``).

    Attributes
    ----------
    source : str
        The file, ``"<game>"`` for a document in memory, or ``""`` when the
        error is about a race that cannot be saved rather than a file.
    field : str
        The field that is wrong (``"laps"``, ``"actions[3]"``,
        ``"start.cars[0].gear"``), or ``""`` for the whole file.

    Examples
    --------
    >>> error = GameFileError("game.json: laps: not 0", source="game.json", field="laps")
    >>> error.source, error.field, str(error)
    ('game.json', 'laps', 'game.json: laps: not 0')
    """

    def __init__(self, message: str, *, source: str = "", field: str = "") -> None:
        super().__init__(message)
        self.source = source
        self.field = field

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword-only parts do not survive the default pickling of an exception
        return (_game_file_error, (str(self), self.source, self.field))


def _game_file_error(message: str, source: str, field: str) -> GameFileError:
    return GameFileError(message, source=source, field=field)


class StaleTableError(TableError):
    """A shared table's action refused because another player's action landed first.

    The table has read the log again: it shows the race as it is now, and the
    player decides again on what they see (:mod:`fdlab.table.shared`).
    """


class SharedLogError(TableError, GameLogError):
    """A shared game log that cannot be read or written, or that does not replay.

    The message names the file and, where there is one, the line
    (``race.log: line 7: ...``; line 1 is the header). The race table's
    error of the game-agnostic log (:mod:`fdlab.shared_log`), so ``except
    GameLogError`` catches the shared logs of every game.

    Attributes
    ----------
    source : str
        The file.
    line : int
        The line that is wrong (1: the header), 0 for the file as a whole.

    Examples
    --------
    >>> error = SharedLogError("race.log: line 3: not JSON", source="race.log", line=3)
    >>> error.source, error.line, str(error)
    ('race.log', 3, 'race.log: line 3: not JSON')
    >>> isinstance(error, GameLogError)
    True
    """


class ClassAppError(TableError):
    """The class app cannot start or join: no race named, a name missing or not allowed."""
