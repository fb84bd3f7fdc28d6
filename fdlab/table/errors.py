"""Errors of the race table: each a ValueError saying what is wrong and where."""

from __future__ import annotations

__all__ = ["GameFileError", "NotYourTurnError", "SeatError", "TableError"]


class TableError(ValueError):
    """Something the table cannot do now (nothing to undo, the race is over...)."""


class NotYourTurnError(TableError):
    """A person's action while a bot is on turn."""


class SeatError(TableError):
    """A seat that is neither a person nor a known bot."""


class GameFileError(TableError):
    """A game file that cannot be read, or whose replay does not check out."""
