"""Errors of the solo solver."""

from __future__ import annotations

from fdlab.errors import FdlabError

__all__ = ["CacheSettingError", "SoloModelError"]


class SoloModelError(FdlabError):
    """A board or preset the solo solver cannot model; the message says why."""


class CacheSettingError(FdlabError):
    """An environment setting of the solved-table cache that means nothing (``FDLAB_CACHE=offf``)."""
