"""Choosing the reader for a board file from its name and contents."""

from __future__ import annotations

import json
import os
from pathlib import Path

from fdlab.track.errors import TrackFileError
from fdlab.track.model import Track

__all__ = ["FORMATS", "detect_format", "import_track"]

#: Format name -> what it is, for messages and ``--help``.
FORMATS: dict[str, str] = {
    "gponline": "GP Online board (.dat)",
    "tts": "Tabletop Simulator track JSON (tts-formula-d)",
    "geojson": "fdlab board exported as GeoJSON",
    "fdlab": "fdlab track file (.json)",
}


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a board file: ``gponline``, ``tts``, ``geojson`` or ``fdlab``.

    ``.dat`` files are GP Online boards; JSON files are told apart by their
    contents (a FeatureCollection, spaces with ``pos``, or fdlab's schema).

    Raises
    ------
    TrackFileError
        If the file cannot be read or is none of these.

    Examples
    --------
    >>> detect_format("tracks/monaco.json")
    'fdlab'
    """
    source = str(path)
    if Path(path).suffix.lower() == ".dat":
        return "gponline"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TrackFileError(source, "", f"cannot read the file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise TrackFileError(source, "", "not a text file: no board format reads it") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TrackFileError(
            source, "", f"not JSON and not a .dat file, so no board format reads it ({exc})"
        ) from None
    from fdlab.track.formats.tts import is_tts_document

    if isinstance(doc, dict) and doc.get("type") == "FeatureCollection":
        return "geojson"
    if is_tts_document(doc):
        return "tts"
    if isinstance(doc, dict) and "schema" in doc and "steps" in doc:
        return "fdlab"
    known = "; ".join(FORMATS.values())
    raise TrackFileError(source, "", f"not a board format fdlab reads ({known})")


def import_track(path: str | os.PathLike[str], *, format: str | None = None) -> Track:
    """Read a board of any supported format (see :data:`FORMATS`).

    Parameters
    ----------
    path : str or path
    format : str, optional
        Force a format instead of detecting it.

    Returns
    -------
    Track
        Space ids are those of the file. Check it with
        :func:`fdlab.track.validate`: the problems name the file's ids.

    Raises
    ------
    TrackFileError
        If the file cannot be read in that format, naming the line or field.

    Examples
    --------
    >>> import_track("tracks/training.json").name
    'Training ring'
    """
    chosen = format or detect_format(path)
    if chosen == "gponline":
        from fdlab.track.formats.gponline import read_gponline

        return read_gponline(path)
    if chosen == "tts":
        from fdlab.track.formats.tts import read_tts

        return read_tts(path)
    if chosen == "geojson":
        from fdlab.track.formats.geojson import load_geojson

        return load_geojson(path)
    if chosen == "fdlab":
        from fdlab.track.io import load_track

        return load_track(path)
    raise ValueError(f"unknown board format {chosen!r}; known: {', '.join(FORMATS)}")
