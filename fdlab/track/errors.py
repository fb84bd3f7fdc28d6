"""Errors of the track model: files, text boards, the builder, imported boards.

Every error is a :class:`TrackError`, itself an :class:`~fdlab.errors.FdlabError` (a
``ValueError``), whose message says what is wrong and where (the file and field, the
row and column, the option).
"""

from __future__ import annotations

from typing import Any

from fdlab.errors import FdlabError

__all__ = [
    "AsciiBoardError",
    "BoardImportError",
    "BuildError",
    "CentrelineError",
    "SpaceNotOnTrackError",
    "TrackError",
    "TrackFileError",
    "TrackTypeError",
]


class TrackError(FdlabError):
    """The root of the track package's errors, and a request of the track API that cannot
    be met (an unknown contact or step kind, a count of cars out of range): the message
    names the value."""


class TrackTypeError(TrackError, TypeError):
    """A value of the wrong type for the track API (``Track(a_dict)``); a ``TypeError``
    too, so ``except TypeError`` still catches it."""


class TrackFileError(TrackError):
    """A track file (or track data) that cannot be read or written.

    The message names the file and the field, for example
    ``tracks/x.json: spaces[12].polygon: not valid WKT (...)``.

    Attributes
    ----------
    source : str
        The file name, or ``"<string>"`` / ``"<dict>"`` for in-memory data.
    field : str
        The path of the offending field (``""`` for the whole file).
    detail : str
        What is wrong with it.
    """

    def __init__(self, source: str, field: str, detail: str) -> None:
        self.source = source
        self.field = field
        self.detail = detail
        where = f"{source}: {field}" if field else source
        super().__init__(f"{where}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild from the three parts, so the error survives pickling (dask workers).
        return (type(self), (self.source, self.field, self.detail))


class AsciiBoardError(TrackError):
    """A text board that cannot be read: the message names the row and column."""


class BuildError(TrackError):
    """Build options that cannot make a board: the message names the option."""


class CentrelineError(TrackError):
    """A centreline that cannot make a lap: the message says what and where."""


class BoardImportError(TrackError):
    """Another program's board that cannot be made into a track.

    The message names the file and the spaces by that file's own ids.
    """


class SpaceNotOnTrackError(TrackError, KeyError):
    """A space id that is not on the track (:meth:`Track.space
    <fdlab.track.model.Track.space>`); a ``KeyError`` too, so ``except KeyError``
    still catches it. The message names the space and the track."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
