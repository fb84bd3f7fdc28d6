"""Projection of lon/lat circuit outlines onto a flat plane in metres."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pyproj import CRS, Transformer

from fdlab.track.errors import CentrelineError


def project_lonlat(coordinates: Sequence[Sequence[float]]) -> np.ndarray:
    """Project ``(lon, lat)`` pairs to ``(x, y)`` metres around their centre.

    A local azimuthal equidistant projection centred on the mean position
    keeps distances true to well under a metre over the few kilometres of a
    circuit. ``x`` points east and ``y`` north. A circuit across the
    antimeridian (longitudes near 180 and -180) is centred on it.

    Parameters
    ----------
    coordinates : sequence of (lon, lat)
        Degrees, WGS84, as in GeoJSON.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, 2)``, metres.

    Examples
    --------
    >>> xy = project_lonlat([(7.0, 43.0), (7.0, 43.001)])
    >>> round(float(xy[1, 1] - xy[0, 1]), 1)  # a thousandth of a degree north
    111.1
    """
    lonlat = np.asarray(coordinates, dtype=float)
    if lonlat.ndim != 2 or lonlat.shape[1] < 2 or len(lonlat) == 0:
        raise CentrelineError("expected a non-empty sequence of (lon, lat) pairs")
    lon0, lat0 = _mean_longitude(lonlat[:, 0]), float(lonlat[:, 1].mean())
    local = CRS.from_proj4(f"+proj=aeqd +lat_0={lat0} +lon_0={lon0} +datum=WGS84 +units=m")
    transformer = Transformer.from_crs(CRS.from_epsg(4326), local, always_xy=True)
    x, y = transformer.transform(lonlat[:, 0], lonlat[:, 1])
    return np.column_stack([x, y])


def _mean_longitude(lon: np.ndarray) -> float:
    """The mean longitude, across the antimeridian too (179.9 and -179.9 average to 180).

    Longitudes spread over more than half the globe are taken to cross the
    antimeridian: west ones count from 180 eastwards (-179.9 as 180.1).

    Examples
    --------
    >>> _mean_longitude(np.array([7.0, 7.5])), _mean_longitude(np.array([179.9, -179.9]))
    (7.25, 180.0)
    """
    if float(np.ptp(lon)) <= 180.0:
        return float(lon.mean())
    mean = float(np.where(lon < 0.0, lon + 360.0, lon).mean())
    return mean - 360.0 if mean > 180.0 else mean
