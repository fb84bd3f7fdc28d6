"""Errors of the race table: each an FdlabError (a ValueError) saying what is wrong and where."""

from __future__ import annotations

from typing import Any

from fdlab.errors import FdlabError

__all__ = ["GameFileError", "NotYourTurnError", "SeatError", "TableError"]


class TableError(FdlabError):
    """Something the table cannot do now (nothing to undo, the race is over...)."""


class NotYourTurnError(TableError):
    """A person's action while a bot is on turn."""


class SeatError(TableError):
    """A seat that is neither a person nor a known bot."""


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
