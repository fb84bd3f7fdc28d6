"""Errors of the bots: specs and styles that name nothing."""

from __future__ import annotations

__all__ = ["BotSpecError", "StyleError"]


class BotSpecError(ValueError):
    """A bot spec that names no known bot or style."""


class StyleError(ValueError):
    """A style that is neither a known name nor a number from 0 to 1."""
