"""Errors of playtests and their analysis."""

from __future__ import annotations

from fdlab.errors import FdlabError

__all__ = ["PlaytestError"]


class PlaytestError(FdlabError):
    """A playtest that cannot run as asked; the message says what to change."""
