"""Errors of the bots: specs and styles that name nothing, tables solved for another board."""

from __future__ import annotations

from fdlab.errors import FdlabError

__all__ = ["BotSpecError", "StyleError", "WrongBoardError"]


class BotSpecError(FdlabError):
    """A bot spec that names no known bot or style."""


class StyleError(FdlabError):
    """A style that is neither a known name nor a number from 0 to 1."""


class WrongBoardError(FdlabError):
    """A bot made for one board or car asked to drive another (a solved table of another
    board, or of another car's pit box); the message says what to solve."""
