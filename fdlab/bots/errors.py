"""Errors of the bots: specs and styles that name nothing."""

from __future__ import annotations

from fdlab.errors import FdlabError

__all__ = ["BotSpecError", "StyleError"]


class BotSpecError(FdlabError):
    """A bot spec that names no known bot or style."""


class StyleError(FdlabError):
    """A style that is neither a known name nor a number from 0 to 1."""
