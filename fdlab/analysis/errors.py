"""Errors of playtests and their analysis."""

from __future__ import annotations

__all__ = ["PlaytestError"]


class PlaytestError(ValueError):
    """A playtest that cannot run as asked; the message says what to change."""
