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
