"""The board builder: a closed circuit centreline becomes a playable board.

The model's modules in :mod:`fdlab.track` never import the builder; the
builder reads and writes the model. Its modules, one concern each:

- :mod:`~fdlab.track.build.spec`: what to build, as JSON-native dataclasses,
  and the checks of their values.
- :mod:`~fdlab.track.build.centreline`: closed centrelines, drawn or read
  from GeoJSON (projected by :mod:`~fdlab.track.build.geo`).
- :mod:`~fdlab.track.build.lap_path`: the centreline resampled, smoothed and
  measured by arc length.
- :mod:`~fdlab.track.build.corner_finder`: corners from curvature, and from
  the turn accumulated over a stretch of track (the bends of a lap drawn with
  a few clicks), and suggested stop counts.
- :mod:`~fdlab.track.build.corner_fit`: corner extents long enough for their
  stop counts, and how a corner lane is cut into spaces.
- :mod:`~fdlab.track.build.corners`: the lap's corners for a spec, given or
  found, clipped clear of the finish line and fitted to the lanes.
- :mod:`~fdlab.track.build.stretches`: the lap cut into straights and
  corners, and progress along them.
- :mod:`~fdlab.track.build.cells`: the spaces while they are built, cut
  from the stretches and shaped.
- :mod:`~fdlab.track.build.steps`: ahead and lane-change steps, the lines
  they cross, and contacts.
- :mod:`~fdlab.track.build.grid`, :mod:`~fdlab.track.build.pit`,
  :mod:`~fdlab.track.build.street`, :mod:`~fdlab.track.build.bridges`: the
  grid, the pit lane and boxes, tunnels, hazards and the police line, and
  bridges where a figure eight crosses itself.
- :mod:`~fdlab.track.build.pipeline`: :func:`build_track` and
  :func:`build_from_spec`, which put the pieces together.

Names with a leading underscore are the builder's own working parts, shared
between these modules only; the names exported here are its public face.

Examples
--------
>>> from fdlab.track.build import build_track
>>> track = build_track([(300, 0), (600, 0), (600, 300), (0, 300), (0, 0)], name="Box")
>>> track.name, len(track.corners)
('Box', 4)
"""

from fdlab.track.build.centreline import Centreline, centreline_from_geojson
from fdlab.track.build.notes import BuilderNote, FewerBoxesWarning, FewerGridSpotsWarning
from fdlab.track.build.pipeline import build_from_spec, build_track, make_spec, rebuild
from fdlab.track.build.spec import BuildSpec, CornerSpec, PitSpec, StreetSpec, Stretch
from fdlab.track.errors import BuildError, CentrelineError

__all__ = [
    "BuildError",
    "BuilderNote",
    "BuildSpec",
    "Centreline",
    "CentrelineError",
    "CornerSpec",
    "FewerBoxesWarning",
    "FewerGridSpotsWarning",
    "PitSpec",
    "StreetSpec",
    "Stretch",
    "build_from_spec",
    "build_track",
    "centreline_from_geojson",
    "make_spec",
    "rebuild",
]
