"""Choosing the reader for a board file from its name and contents."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fdlab.track.errors import TrackError, TrackFileError
from fdlab.track.formats.reading import board_bytes, board_json
from fdlab.track.io import loads, track_from_dict
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
        If the file cannot be read (a folder, a FIFO, a device, too big...)
        or is none of these.

    Examples
    --------
    >>> detect_format("tracks/monaco.json")
    'fdlab'
    """
    if Path(path).suffix.lower() == ".dat":
        return "gponline"
    return _detect(_json_for_detection(board_bytes(path), str(path)), str(path))


def _json_for_detection(data: bytes, source: str) -> Any:
    """The JSON document of a board that is not a ``.dat`` file, saying no format reads it if none."""
    try:
        return board_json(data, source)
    except TrackFileError as error:
        detail = error.detail
        if detail.startswith("not UTF-8"):
            detail = "not a text file: no board format reads it"
        elif detail.startswith("not valid JSON: "):
            detail = (
                "not JSON and not a .dat file, so no board format reads it "
                f"({detail.removeprefix('not valid JSON: ')})"
            )
        raise TrackFileError(source, "", detail) from None


def _detect(doc: Any, source: str) -> str:
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

    The file is read once, through :func:`fdlab.untrusted.read_file`: a
    folder, a named pipe, a device or a file over
    :data:`~fdlab.track.io.MAX_FILE_BYTES` is refused at once.

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
        It can always be saved with :func:`~fdlab.track.io.save_track`.

    Raises
    ------
    TrackFileError
        If the file cannot be read in that format, naming the line or field
        (:class:`~fdlab.track.errors.BoardImportError` when the board read
        cannot be made into a track).

    Examples
    --------
    >>> import_track("tracks/training.json").name
    'Training ring'
    """
    if format is not None and format not in FORMATS:
        raise TrackError(f"unknown board format {format!r}; known: {', '.join(FORMATS)}")
    source = str(path)
    if format == "gponline" or (format is None and Path(path).suffix.lower() == ".dat"):
        from fdlab.track.formats.assemble import assemble
        from fdlab.track.formats.gponline import gponline_text, parse_gponline

        return assemble(parse_gponline(gponline_text(board_bytes(path)), source=source))
    data = board_bytes(path)
    if format == "fdlab":
        return loads(data, source=source)
    doc = board_json(data, source) if format else _json_for_detection(data, source)
    chosen = format or _detect(doc, source)
    if chosen == "tts":
        from fdlab.track.formats.assemble import assemble
        from fdlab.track.formats.tts import parse_tts

        return assemble(parse_tts(doc, source=source))
    if chosen == "geojson":
        from fdlab.track.formats.geojson import track_from_geojson

        return track_from_geojson(doc, source=source)
    return track_from_dict(doc, source=source)
