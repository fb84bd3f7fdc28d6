"""The track model: spaces, steps, corners and contacts of a Formula D board."""

from fdlab.track.ascii import AsciiBoardError, from_ascii
from fdlab.track.corners import corner_entries, corner_exits, corner_path_counts
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

__all__ = [
    "AsciiBoardError",
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
    "new_graph",
]
