"""Boards from other Formula D software, and fdlab boards as GeoJSON.

:func:`import_track` reads a board whatever program it comes from, choosing
the reader from the file: GP Online ``.dat`` boards
(:mod:`~fdlab.track.formats.gponline`), Tabletop Simulator track JSON of the
tts-formula-d mod (:mod:`~fdlab.track.formats.tts`), fdlab boards exported
as GeoJSON (:mod:`~fdlab.track.formats.geojson`) and fdlab's own track
files. Space ids stay those of the file, so the validator's problems name
the spaces as the other program knows them.
"""

from fdlab.track.errors import BoardImportError
from fdlab.track.formats.assemble import RawBoard, RawSpace, assemble
from fdlab.track.formats.dispatch import detect_format, import_track
from fdlab.track.formats.geojson import (
    load_geojson,
    save_geojson,
    track_from_geojson,
    track_to_geojson,
)
from fdlab.track.formats.gponline import parse_gponline, read_gponline
from fdlab.track.formats.tts import parse_tts, read_tts

__all__ = [
    "BoardImportError",
    "RawBoard",
    "RawSpace",
    "assemble",
    "detect_format",
    "import_track",
    "load_geojson",
    "parse_gponline",
    "parse_tts",
    "read_gponline",
    "read_tts",
    "save_geojson",
    "track_from_geojson",
    "track_to_geojson",
]
