"""Errors raised while drawing a board."""

from __future__ import annotations

from fdlab.errors import FdlabError
from fdlab.track.errors import SpaceNotOnTrackError


class PlotError(FdlabError):
    """A board picture that cannot be drawn as asked; the message says why."""


class UnknownSpaceError(PlotError, SpaceNotOnTrackError):
    """A car or highlight names a space that is not on the track (a ``KeyError`` too)."""


class PrintError(PlotError):
    """A board that cannot be printed as asked (paper, space size); the message says why."""


class CarPlacementError(PlotError):
    """Cars given in a form the picture cannot place (bad entry, shared space)."""
