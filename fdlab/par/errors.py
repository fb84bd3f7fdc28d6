"""Errors of the solo solver."""

from __future__ import annotations

__all__ = ["CacheSettingError", "SoloModelError"]


class SoloModelError(ValueError):
    """A board or preset the solo solver cannot model; the message says why."""


class CacheSettingError(ValueError):
    """An environment setting of the solved-table cache that means nothing (``FDLAB_CACHE=offf``)."""
