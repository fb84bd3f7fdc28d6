"""The track model: spaces, steps, corners and contacts of a Formula D board.

Every error of this package is a :class:`~fdlab.track.errors.TrackError` (a ``ValueError``)
from :mod:`fdlab.track.errors`.
"""

from typing import TYPE_CHECKING

from fdlab._lazy import lazy_exports
from fdlab.track.ascii import from_ascii
from fdlab.track.corners import corner_entries, corner_exits, corner_path_counts
from fdlab.track.errors import (
    AsciiBoardError,
    BoardImportError,
    BuildError,
    CentrelineError,
    TrackError,
    TrackFileError,
    TrackTypeError,
)
from fdlab.track.io import load_track, save_track, track_from_dict, track_to_dict
from fdlab.track.model import (
    EDGE_KINDS,
    SCHEMA_VERSION,
    SPACE_DEFAULTS,
    SPACE_KINDS,
    Track,
    add_space,
    add_step,
    new_graph,
    starts_lap_again,
)
from fdlab.track.validate import Problem, ValidationReport, validate

__all__ = [
    "AsciiBoardError",
    "BoardImportError",
    "BuildError",
    "BuildSpec",
    "Centreline",
    "CentrelineError",
    "CornerSpec",
    "PitSpec",
    "Stretch",
    "StreetSpec",
    "build_from_spec",
    "build_track",
    "centreline_from_geojson",
    "rebuild",
    "Problem",
    "TrackError",
    "TrackFileError",
    "TrackTypeError",
    "ValidationReport",
    "EDGE_KINDS",
    "SCHEMA_VERSION",
    "SPACE_DEFAULTS",
    "SPACE_KINDS",
    "Track",
    "add_space",
    "add_step",
    "corner_entries",
    "corner_exits",
    "corner_path_counts",
    "from_ascii",
    "import_track",
    "load_track",
    "new_graph",
    "save_track",
    "starts_lap_again",
    "track_from_dict",
    "track_from_geojson",
    "track_to_dict",
    "track_to_geojson",
    "validate",
]

if TYPE_CHECKING:
    from fdlab.track.build import (
        BuildSpec,
        Centreline,
        CornerSpec,
        PitSpec,
        StreetSpec,
        Stretch,
        build_from_spec,
        build_track,
        centreline_from_geojson,
        rebuild,
    )
    from fdlab.track.formats import import_track, track_from_geojson, track_to_geojson

# The board builder needs scipy and pyproj: it is imported on first use, so
# that ``import fdlab.rules`` (which imports the model) stays fast.
__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    dict.fromkeys(
        [
            "BuildSpec",
            "CornerSpec",
            "PitSpec",
            "Stretch",
            "StreetSpec",
            "Centreline",
            "centreline_from_geojson",
            "build_from_spec",
            "build_track",
            "rebuild",
        ],
        "fdlab.track.build",
    )
    # boards of other programs, and GeoJSON: fdlab.track.formats
    | dict.fromkeys(
        ["import_track", "track_from_geojson", "track_to_geojson"], "fdlab.track.formats"
    ),
)
