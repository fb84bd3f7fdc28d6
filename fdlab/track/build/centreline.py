"""Closed circuit centrelines: points in metres, read from GeoJSON or drawn."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

import numpy as np

from fdlab._text import shown as _shown
from fdlab.track.build.geo import project_lonlat
from fdlab.track.errors import CentrelineError
from fdlab.untrusted import UntrustedInputError, parse_json, read_file

#: Largest centreline coordinate, in metres (10,000 km: no circuit is wider).
MAX_COORDINATE = 1e7
#: Farthest a GeoJSON position may lie from the circuit's centre, in metres: the longest
#: road circuits span a few tens of km, and the projection to metres is only true nearby.
MAX_CIRCUIT_RADIUS = 1e6


@dataclass(frozen=True)
class Centreline:
    """The closed centreline of a circuit, in the direction of travel.

    Parameters
    ----------
    points : sequence of (x, y)
        Metres. The lap closes from the last point back to the first; a
        repeated closing point is dropped. The first point is where the
        finish line goes.
    properties : mapping, optional
        Free JSON-native data (name, location, source...).

    Examples
    --------
    >>> square = Centreline([(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)])
    >>> len(square.points), square.length
    (4, 400.0)
    >>> Centreline.from_json(square.to_json()) == square
    True
    >>> square._repr_svg_().startswith("<svg")
    True
    """

    points: tuple[tuple[float, float], ...]
    properties: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cleaned: list[tuple[float, float]] = []
        for i, point in enumerate(self.points):
            try:
                x, y = (float(v) for v in point)
            except OverflowError:  # an int beyond float range: no circuit is that wide
                raise CentrelineError(
                    f"centreline point {i}: coordinates are metres from the circuit's centre, "
                    f"at most {MAX_COORDINATE:g}; got {_shown(point)}"
                ) from None
            except (TypeError, ValueError):
                raise CentrelineError(
                    f"centreline point {i}: expected (x, y), got {_shown(point)}"
                ) from None
            if not (math.isfinite(x) and math.isfinite(y)):
                raise CentrelineError(
                    f"centreline point {i}: coordinates must be finite, got {_shown(point)}"
                )
            if max(abs(x), abs(y)) > MAX_COORDINATE:
                raise CentrelineError(
                    f"centreline point {i}: coordinates are metres from the circuit's centre, "
                    f"at most {MAX_COORDINATE:g}; got {_shown(point)}"
                )
            if cleaned and (x, y) == cleaned[-1]:
                continue
            cleaned.append((x, y))
        if len(cleaned) > 1 and cleaned[0] == cleaned[-1]:
            cleaned.pop()
        if len(cleaned) < 3:
            raise CentrelineError(
                f"a centreline needs at least 3 distinct points to close a lap, got {len(cleaned)}"
            )
        object.__setattr__(self, "points", tuple(cleaned))
        object.__setattr__(self, "properties", dict(self.properties))

    @property
    def length(self) -> float:
        """Length of the closed lap in metres."""
        pts = self.points
        return float(sum(math.dist(pts[i - 1], pts[i]) for i in range(len(pts))))

    def starting_at(self, fraction: float) -> Centreline:
        """The same lap starting ``fraction`` of a lap further on (where the finish line goes).

        Examples
        --------
        >>> square = Centreline([(0, 0), (100, 0), (100, 100), (0, 100)])
        >>> square.starting_at(0.125).points[:2]
        ((50.0, 0.0), (100.0, 0.0))
        """
        fraction = float(fraction) % 1.0
        if fraction == 0.0:
            return self
        pts = self.points
        target = fraction * self.length
        travelled = 0.0
        for i in range(len(pts)):
            a, b = pts[i], pts[(i + 1) % len(pts)]
            segment = math.dist(a, b)
            if travelled + segment > target:
                share = (target - travelled) / segment
                point = (
                    round(a[0] + share * (b[0] - a[0]), 2),
                    round(a[1] + share * (b[1] - a[1]), 2),
                )
                rest = pts[i + 1 :] + pts[: i + 1]
                return Centreline((point, *rest), self.properties)
            travelled += segment
        return self

    def _repr_svg_(self) -> str:
        """The lap as a line, with a dot on its first point (the finish line)."""
        xs = [x for x, _ in self.points]
        ys = [y for _, y in self.points]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        scale = 300.0 / span
        width = (max(xs) - min(xs)) * scale + 20
        height = (max(ys) - min(ys)) * scale + 20

        def screen(x: float, y: float) -> str:
            return f"{(x - min(xs)) * scale + 10:.1f},{(max(ys) - y) * scale + 10:.1f}"

        line = " ".join(screen(x, y) for x, y in (*self.points, self.points[0]))
        start = screen(*self.points[0]).split(",")
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}">'
            f'<polyline points="{line}" fill="none" stroke="#444" stroke-width="2"/>'
            f'<circle cx="{start[0]}" cy="{start[1]}" r="4" fill="#d62728"/></svg>'
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (lists and dicts) that :meth:`from_json` reads back."""
        return {"points": [[x, y] for x, y in self.points], "properties": dict(self.properties)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Centreline:
        """Read the data written by :meth:`to_json`."""
        if "points" not in data:
            raise CentrelineError("centreline data: missing field 'points'")
        return cls(point_tuples(data["points"]), data.get("properties", {}))


def point_tuples(points: Any) -> tuple[tuple[Any, ...], ...]:
    """``points`` as a tuple of tuples, for :class:`Centreline` to check one by one.

    Raises
    ------
    CentrelineError
        If ``points`` is not a sequence of points, or a point is not a sequence.

    Examples
    --------
    >>> point_tuples([[0, 0], (300, 0)])
    ((0, 0), (300, 0))
    >>> point_tuples([1, 2, 3])
    Traceback (most recent call last):
    ...
    fdlab.track.errors.CentrelineError: centreline point 0: expected (x, y), got 1
    """
    if isinstance(points, str | bytes) or not isinstance(points, Iterable):
        raise CentrelineError(
            "centreline: expected a sequence of (x, y) points in metres (or GeoJSON), "
            f"got {_shown(points)}"
        )
    rows = []
    for i, point in enumerate(points):
        if isinstance(point, str | bytes) or not isinstance(point, Iterable):
            raise CentrelineError(f"centreline point {i}: expected (x, y), got {_shown(point)}")
        rows.append(tuple(point))
    return tuple(rows)


def centreline_from_geojson(
    source: str | PathLike[str] | Mapping[str, Any], feature: str | None = None
) -> Centreline:
    """Read a circuit centreline from GeoJSON (lon/lat) and project it to metres.

    Parameters
    ----------
    source : path or mapping
        A GeoJSON file, or its parsed data: a FeatureCollection, a Feature
        or a bare LineString. The file is read through
        :func:`fdlab.untrusted.read_file`: a folder, a named pipe, a device
        or a file over :data:`~fdlab.track.io.MAX_FILE_BYTES` is refused at once.
    feature : str, optional
        Which LineString feature of a FeatureCollection to read, by its
        ``id`` (the feature's or its properties') or its ``Name``/``name``.
        Needed when the collection holds more than one; the error lists them.

    Returns
    -------
    Centreline
        Points in metres (local azimuthal equidistant projection, rounded to
        the centimetre); the feature's properties are kept.

    Raises
    ------
    CentrelineError
        Naming the file (or "GeoJSON data") and the field: the file cannot be
        read, is not GeoJSON, holds no single LineString, a position is not
        a (lon, lat) in degrees, or the positions span more than any circuit.

    Examples
    --------
    >>> line = {"type": "LineString", "coordinates": [
    ...     [7.0, 43.0], [7.002, 43.0], [7.002, 43.001], [7.0, 43.001], [7.0, 43.0]]}
    >>> centre = centreline_from_geojson(line)
    >>> len(centre.points), round(centre.length)
    (4, 548)
    >>> two = {"type": "FeatureCollection", "features": [
    ...     {"type": "Feature", "properties": {"id": k, "Name": k.title()}, "geometry": line}
    ...     for k in ("north", "south")]}
    >>> centreline_from_geojson(two, feature="South").properties["id"]
    'south'
    >>> centreline_from_geojson(two)
    Traceback (most recent call last):
    ...
    fdlab.track.errors.CentrelineError: GeoJSON data: features: 2 LineString features \
(north 'North', south 'South'); choose one by id or name with feature=...
    """
    where = "GeoJSON data"
    if isinstance(source, Mapping):
        data: Any = source
    else:
        where = str(source)
        data = _read_geojson(source, where)
    geometry, properties = _linestring(data, where, feature)
    coordinates = geometry.get("coordinates")
    if (
        not isinstance(coordinates, Sequence)
        or isinstance(coordinates, str)
        or len(coordinates) < 3
    ):
        raise CentrelineError(f"{where}: geometry.coordinates must list at least 3 positions")
    _check_lonlat(coordinates, where)
    try:
        with np.errstate(all="ignore"):  # antipodal points project to inf: refused below
            xy = project_lonlat([c[:2] for c in coordinates])
    except (TypeError, ValueError, IndexError) as exc:
        raise CentrelineError(
            f"{where}: geometry.coordinates are not (lon, lat) pairs ({exc})"
        ) from None
    if not np.isfinite(xy).all() or float(np.abs(xy).max()) > MAX_CIRCUIT_RADIUS:
        raise CentrelineError(
            f"{where}: geometry.coordinates lie too far apart for one circuit (more than "
            f"{MAX_CIRCUIT_RADIUS / 1000:,.0f} km from their centre); a circuit's centreline "
            "spans a few km of (lon, lat) in degrees"
        )
    points = tuple((round(float(x), 2), round(float(y), 2)) for x, y in xy)
    return Centreline(points, properties)


def _read_geojson(path: str | PathLike[str], where: str) -> Any:
    """The JSON of a GeoJSON file, or one CentrelineError naming it."""
    from fdlab.track.io import MAX_FILE_BYTES

    try:
        data = read_file(path, limit=MAX_FILE_BYTES, what="GeoJSON file")
        return parse_json(data)
    except UntrustedInputError as exc:
        raise CentrelineError(f"{where}: {exc}") from None


def _check_lonlat(coordinates: Sequence[Any], where: str) -> None:
    """Every position is a finite (lon, lat) in degrees, longitude -180..180, latitude -90..90."""
    for i, position in enumerate(coordinates):
        field_name = f"{where}: geometry.coordinates[{i}]"
        if (
            not isinstance(position, Sequence)
            or isinstance(position, str)
            or len(position) < 2
            or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in position[:2]
            )
        ):
            raise CentrelineError(
                f"{field_name}: expected a (lon, lat) pair, got {_shown(position)}"
            )
        lon, lat = position[0], position[1]
        if not (_finite(lon) and _finite(lat)):
            raise CentrelineError(
                f"{field_name}: coordinates must be finite, got {_shown(position)}"
            )
        if not -180.0 <= lon <= 180.0:
            raise CentrelineError(
                f"{field_name}: longitude {_number(lon)} is outside -180..180 degrees"
            )
        if not -90.0 <= lat <= 90.0:
            raise CentrelineError(
                f"{field_name}: latitude {_number(lat)} is outside -90..90 degrees"
            )


def _finite(value: int | float) -> bool:
    """Finite, and an int not beyond float range (a 400-digit int cannot be a float)."""
    if isinstance(value, int):
        return True  # compared as an int: a 400-digit longitude is outside -180..180
    return math.isfinite(value)


def _number(value: int | float) -> str:
    """``value`` for a message: ``187``, ``1e+400`` for a 400-digit int."""
    if isinstance(value, int) and abs(value) > 10**15:
        return f"of about {int(value.bit_length() * 0.30103) + 1} digits"
    return f"{value:g}"


def _linestring(
    data: Any, where: str, feature: str | None = None
) -> tuple[Mapping[str, Any], dict[str, Any]]:
    if not isinstance(data, Mapping):
        raise CentrelineError(f"{where}: expected a GeoJSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "FeatureCollection":
        features = data.get("features") or []
        if not isinstance(features, Sequence) or isinstance(features, str):
            raise CentrelineError(f"{where}: features must be a list of features")
        lines = [
            (i, f)
            for i, f in enumerate(features)
            if isinstance(f, Mapping) and _geometry(f).get("type") == "LineString"
        ]
        if not lines:
            raise CentrelineError(f"{where}: features: no LineString feature found")
        if feature is not None:
            lines = [(i, f) for i, f in lines if str(feature) in _feature_keys(f)]
            if not lines:
                raise CentrelineError(
                    f"{where}: features: no LineString feature with id or name {feature!r}"
                )
        if len(lines) > 1:
            labels = ", ".join(_feature_label(i, f) for i, f in lines)
            raise CentrelineError(
                f"{where}: features: {len(lines)} LineString features ({labels});"
                " choose one by id or name with feature=..."
            )
        index, chosen = lines[0]
        return _linestring(chosen, f"{where}: features[{index}]")
    if kind == "Feature":
        geometry = _geometry(data)
        if geometry.get("type") != "LineString":
            raise CentrelineError(
                f"{where}: geometry.type must be LineString, got {_shown(geometry.get('type'))}"
            )
        return geometry, dict(_properties(data))
    if kind == "LineString":
        return data, {}
    raise CentrelineError(
        f"{where}: type must be FeatureCollection, Feature or LineString, got {_shown(kind)}"
    )


def _geometry(feature: Mapping[str, Any]) -> Mapping[str, Any]:
    """A feature's geometry, or ``{}`` when it has none (or something else in its place)."""
    geometry = feature.get("geometry")
    return geometry if isinstance(geometry, Mapping) else {}


def _properties(feature: Mapping[str, Any]) -> Mapping[str, Any]:
    """A feature's properties, or ``{}`` when it has none (or something else in its place)."""
    properties = feature.get("properties")
    return properties if isinstance(properties, Mapping) else {}


def _feature_keys(feature: Mapping[str, Any]) -> set[str]:
    """The ids and names a feature answers to."""
    properties = _properties(feature)
    values = [feature.get("id"), *(properties.get(k) for k in ("id", "Name", "name"))]
    return {_shown(v, 200) if not isinstance(v, str) else v for v in values if v is not None}


def _feature_label(index: int, feature: Mapping[str, Any]) -> str:
    properties = _properties(feature)
    ident = feature.get("id", properties.get("id", f"features[{index}]"))
    name = properties.get("Name") or properties.get("name")
    label = ident if isinstance(ident, str) else _shown(ident)
    label = label if len(label) <= 60 else f"{label[:55]}..."
    return f"{label} {_shown(name)}" if name else label
