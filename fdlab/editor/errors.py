"""Errors raised by the track editor; each message says what is wrong and where."""

from __future__ import annotations

from fdlab.errors import FdlabError


class EditorError(FdlabError):
    """Base class of every error the editor raises on purpose."""


class EditError(EditorError):
    """An edit that cannot be applied to the track (names the space or step)."""


class NothingChangedError(EditError):
    """An edit that would leave the track as it is: not applied, not recorded (a rebuild
    that replays it finds the new board already as the edit made it)."""


class NothingToUndoError(EditorError):
    """Undo or redo was asked for with an empty history."""


class UnsavedChangesError(EditorError):
    """Loading or starting a new track would discard edits that were not saved."""


class SaveError(EditorError):
    """A track could not be written; the message gives the file and the reason."""


class LoadError(EditorError):
    """A track file could not be read; the message gives the file and the reason."""
