"""The board builder: a closed circuit centreline becomes a playable board.

The model's modules in :mod:`fdlab.track` never import the builder; the
builder reads and writes the model. Its modules, one step of the pipeline
each (see :func:`fdlab.track.build.pipeline.build_from_spec`):

- :mod:`~fdlab.track.build.spec`: what to build, as JSON-native dataclasses.
- :mod:`~fdlab.track.build.centreline`: closed centrelines, drawn or read
  from GeoJSON (projected by :mod:`~fdlab.track.build.geo`).
- :mod:`~fdlab.track.build.lap_path`: the centreline resampled, smoothed and
  measured by arc length.
- :mod:`~fdlab.track.build.corner_finder`: corners from curvature, suggested
  stop counts.
- :mod:`~fdlab.track.build.corner_fit`: corner extents long enough for their
  stop counts, and how a corner lane is cut into spaces.
- :mod:`~fdlab.track.build.pipeline`: :func:`build_track` and the steps
  that put the pieces together.

Examples
--------
>>> from fdlab.track.build import build_track
>>> track = build_track([(0, 0), (600, 0), (600, 300), (0, 300)], name="Box")
>>> track.name, len(track.corners)
('Box', 4)
"""

from fdlab.track.build.centreline import Centreline, CentrelineError, centreline_from_geojson
from fdlab.track.build.pipeline import build_from_spec, build_track, make_spec, rebuild
from fdlab.track.build.spec import BuildError, BuildSpec, CornerSpec, PitSpec, StreetSpec, Stretch

__all__ = [
    "BuildError",
    "BuildSpec",
    "Centreline",
    "CentrelineError",
    "CornerSpec",
    "PitSpec",
    "StreetSpec",
    "Stretch",
    "build_from_spec",
    "build_track",
    "centreline_from_geojson",
    "make_spec",
    "rebuild",
]
