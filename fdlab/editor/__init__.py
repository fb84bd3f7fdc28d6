"""The track editor: a plain-Python controller and its JupyterLab widgets.

``EditorController`` (and the operations it applies) needs neither Bokeh nor
ipywidgets; ``TrackEditor``, the notebook view, imports them when first used.
"""

from __future__ import annotations

from typing import Any

from fdlab.editor.controller import EditorController
from fdlab.editor.errors import (
    EditError,
    EditorError,
    LoadError,
    NothingChangedError,
    NothingToUndoError,
    SaveError,
    UnsavedChangesError,
)

__all__ = [
    "EditError",
    "EditorController",
    "EditorError",
    "LoadError",
    "NothingChangedError",
    "NothingToUndoError",
    "SaveError",
    "TrackEditor",
    "UnsavedChangesError",
]


def __getattr__(name: str) -> Any:
    if name == "TrackEditor":
        from fdlab.editor.widgets import TrackEditor

        return TrackEditor
    raise AttributeError(f"module 'fdlab.editor' has no attribute {name!r}")
