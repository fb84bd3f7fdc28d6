"""The track model: spaces, steps, corners and contacts of a Formula D board."""

from fdlab.track.ascii import AsciiBoardError, from_ascii
from fdlab.track.build import BuildError, build_from_spec, build_track, rebuild
from fdlab.track.build_spec import BuildSpec, CornerSpec, PitSpec, StreetSpec, Stretch
from fdlab.track.centreline import Centreline, CentrelineError, centreline_from_geojson
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
