"""Errors of the solo solver."""

from __future__ import annotations

from fdlab.errors import FdlabError

__all__ = ["CacheSettingError", "SoloModelError", "StoredTableError"]


class SoloModelError(FdlabError):
    """A board or preset the solo solver cannot model; the message says why."""


class CacheSettingError(FdlabError):
    """An environment setting of the solved-table cache that means nothing (``FDLAB_CACHE=offf``)."""


class StoredTableError(FdlabError):
    """A stored solved table that does not fit what is asked (another solver, damaged,
    another board); the cache drops it and solves again."""
