"""The track model: spaces, steps, corners and contacts of a Formula D board."""

from fdlab.track.ascii import AsciiBoardError, from_ascii
from fdlab.track.corners import corner_entries, corner_exits, corner_path_counts
from fdlab.track.io import TrackFileError, load_track, save_track, track_from_dict, track_to_dict
from fdlab.track.model import (
    EDGE_KINDS,
    SCHEMA_VERSION,
    SPACE_DEFAULTS,
    SPACE_KINDS,
    Track,
    add_space,
    add_step,
    new_graph,
)
from fdlab.track.validate import Problem, ValidationReport, validate

__all__ = [
    "AsciiBoardError",
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
    "TrackFileError",
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
    "load_track",
    "new_graph",
    "save_track",
    "track_from_dict",
    "track_to_dict",
    "validate",
]

# The board builder needs scipy and pyproj: it is imported on first use, so
# that ``import fdlab.rules`` (which imports the model) stays fast.
_BUILDER_EXPORTS = frozenset(
    {
        "BuildError",
        "BuildSpec",
        "CornerSpec",
        "PitSpec",
        "Stretch",
        "StreetSpec",
        "Centreline",
        "CentrelineError",
        "centreline_from_geojson",
        "build_from_spec",
        "build_track",
        "rebuild",
    }
)


def __getattr__(name: str) -> object:
    if name in _BUILDER_EXPORTS:
        from importlib import import_module

        value = getattr(import_module("fdlab.track.build"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'fdlab.track' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_BUILDER_EXPORTS})
