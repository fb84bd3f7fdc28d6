"""Errors raised while drawing a board."""

from __future__ import annotations

from fdlab.errors import FdlabError


class PlotError(FdlabError):
    """A board picture that cannot be drawn as asked; the message says why."""


class UnknownSpaceError(PlotError, KeyError):
    """A car or highlight names a space that is not on the track."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class PrintError(PlotError):
    """A board that cannot be printed as asked (paper, space size); the message says why."""


class CarPlacementError(PlotError):
    """Cars given in a form the picture cannot place (bad entry, shared space)."""
