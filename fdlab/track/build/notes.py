"""What the builder did other than asked, said as warnings that name the caller's line.

The builder keeps a board playable rather than refuse it: fewer pit boxes than asked
when the pit straight is short, fewer grid spots when the finish
straight is. Each such decision is a :class:`BuilderNote`, a ``UserWarning`` the
command line prints as a note and the editor shows with the rebuild.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["BuilderNote", "FewerBoxesWarning", "FewerGridSpotsWarning"]


class BuilderNote(UserWarning):
    """The builder built something other than asked, so that the board plays."""


class FewerBoxesWarning(BuilderNote):
    """The pit straight held fewer boxes than asked: the builder laid as many as fit."""


class FewerGridSpotsWarning(BuilderNote):
    """The finish straight and the corner behind it held fewer grid spots than asked: the
    builder laid as many as fit."""


def caller_level() -> int:
    """The ``stacklevel`` of a warning from the builder that names the line calling it
    (``build_track(...)`` in the user's code), not a line of the builder itself."""
    builder = str(Path(__file__).resolve().parent)
    frame, level = sys._getframe(1), 1
    while frame is not None and str(Path(frame.f_code.co_filename).resolve().parent) == builder:
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level
