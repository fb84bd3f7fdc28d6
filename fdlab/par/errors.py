"""Errors of the solo solver."""

from __future__ import annotations

__all__ = ["SoloModelError"]


class SoloModelError(ValueError):
    """A board or preset the solo solver cannot model; the message says why."""
