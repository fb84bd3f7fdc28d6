"""A board as a GeoJSON FeatureCollection, for GIS tools and sharing, and back.

:func:`track_to_geojson` and :func:`track_from_geojson` are an exact inverse
pair (like osmnx's ``graph_to_gdfs`` and ``graph_from_gdfs``): every feature
has an ``fdlab`` property saying what it is:

* ``"centreline"``: a closed LineString through the middle of the track, in
  running order from the finish line (for looking at; it is drawn from the
  spaces and ignored on the way back); its properties are the board's
  attributes (name, corners, lap length...);
* ``"space"``: the space's outline as a Polygon (a Point where it has
  none), with every attribute of the space as properties;
* ``"step"`` and ``"contact"``: LineStrings between space centres with the
  step's or contact's record.

Coordinates are the board's own plane coordinates (``units``: metres for
built boards, pixels for imported ones), not longitude and latitude.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import shapely
from shapely.geometry import mapping, shape

from fdlab._text import shown
from fdlab.files import atomic_write
from fdlab.track.errors import TrackFileError
from fdlab.track.formats.reading import board_bytes, board_json
from fdlab.track.io import polygon_to_wkt, track_from_dict, track_to_dict
from fdlab.track.model import Track

__all__ = ["load_geojson", "save_geojson", "track_from_geojson", "track_to_geojson"]


def track_to_geojson(track: Track) -> dict[str, Any]:
    """The board as a GeoJSON FeatureCollection (a JSON-ready dict).

    Examples
    --------
    >>> collection = track_to_geojson(from_ascii(". . .", closed=True))
    >>> [f["properties"]["fdlab"] for f in collection["features"]][:4]
    ['centreline', 'space', 'space', 'space']
    >>> collection["features"][1]["geometry"]["type"]
    'Polygon'
    """
    doc = track_to_dict(track)
    nodes = track.graph.nodes
    features = [
        _feature(
            {"type": "LineString", "coordinates": _centreline(track)},
            {"fdlab": "centreline", "schema": doc["schema"], **doc["graph"]},
        )
    ]
    for record in doc["spaces"]:
        polygon = nodes[record["id"]]["polygon"]
        geometry = (
            _plain(mapping(polygon))
            if polygon is not None and not polygon.is_empty
            else {"type": "Point", "coordinates": [record["x"], record["y"]]}
        )
        properties = {key: value for key, value in record.items() if key != "polygon"}
        features.append(_feature(geometry, {"fdlab": "space", **properties}, record["id"]))
    for key, ends in (("steps", ("from", "to")), ("contacts", ("a", "b"))):
        for record in doc[key]:
            line = [[nodes[record[end]]["x"], nodes[record[end]]["y"]] for end in ends]
            features.append(
                _feature({"type": "LineString", "coordinates": line}, {"fdlab": key[:-1], **record})
            )
    return {"type": "FeatureCollection", "features": features}


def track_from_geojson(collection: Any, *, source: str = "<geojson>") -> Track:
    """The board of a FeatureCollection written by :func:`track_to_geojson`.

    Raises
    ------
    TrackFileError
        If a feature is missing or malformed, naming it (``features[12]``).

    Examples
    --------
    >>> from fdlab.track import load_track
    >>> monaco = load_track("tracks/monaco.json")
    >>> track_from_geojson(track_to_geojson(monaco)) == monaco
    True
    """
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise TrackFileError(source, "type", "expected a GeoJSON FeatureCollection")
    features = collection.get("features")
    if not isinstance(features, list):
        raise TrackFileError(source, "features", "expected a list of features")
    doc: dict[str, Any] = {"spaces": [], "steps": [], "contacts": []}
    graph = None
    for i, feature in enumerate(features):
        where = f"features[{i}]"
        properties = feature.get("properties") if isinstance(feature, dict) else None
        if not isinstance(properties, dict) or "fdlab" not in properties:
            raise TrackFileError(
                source, f"{where}.properties.fdlab", "missing: not a feature written by fdlab"
            )
        record = {key: value for key, value in properties.items() if key != "fdlab"}
        role = properties["fdlab"]
        if role == "centreline":
            if graph is not None:
                raise TrackFileError(source, where, "a second centreline feature")
            doc["schema"] = record.pop("schema", None)
            graph = record
        elif role == "space":
            record["polygon"] = _polygon(feature.get("geometry"), source, f"{where}.geometry")
            doc["spaces"].append(record)
        elif role in ("step", "contact"):
            doc[f"{role}s"].append(record)
        else:
            raise TrackFileError(source, f"{where}.properties.fdlab", f"unknown role {shown(role)}")
    if graph is None:
        raise TrackFileError(
            source, "features", "no centreline feature with the board's attributes"
        )
    doc["graph"] = graph
    return track_from_dict(doc, source=source)


def save_geojson(track: Track, path: str | os.PathLike[str]) -> None:
    """Write :func:`track_to_geojson` to a file, atomically.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "ring.geojson"
    >>> save_geojson(from_ascii(". . .", closed=True), path)
    >>> len(load_geojson(path))
    3
    """
    text = json.dumps(track_to_geojson(track), indent=1, allow_nan=False)
    atomic_write(path, (text + "\n").encode("utf-8"))


def load_geojson(path: str | os.PathLike[str]) -> Track:
    """Read a board written by :func:`save_geojson`.

    Raises
    ------
    TrackFileError
        If the file cannot be read, is not JSON, or is not an fdlab board.
    """
    source = str(path)
    return track_from_geojson(board_json(board_bytes(path), source), source=source)


def _feature(
    geometry: dict[str, Any], properties: dict[str, Any], ident: Any = None
) -> dict[str, Any]:
    feature: dict[str, Any] = {"type": "Feature", "geometry": geometry, "properties": properties}
    if ident is not None:
        feature["id"] = ident
    return feature


def _plain(value: Any) -> Any:
    """Shapely's mapping with lists instead of tuples (JSON-ready, compares equal after loading)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _polygon(geometry: Any, source: str, where: str) -> str | None:
    if not isinstance(geometry, dict):
        raise TrackFileError(source, where, "missing: a space needs a Polygon or Point")
    if geometry.get("type") == "Point":
        return None
    if geometry.get("type") != "Polygon":
        raise TrackFileError(
            source, where, f"expected a Polygon or Point, not {shown(geometry.get('type'))}"
        )
    try:
        with np.errstate(all="ignore"):  # huge coordinates: refused by polygon_to_wkt
            polygon = shape(geometry)
    except (
        ValueError,
        TypeError,
        AttributeError,
        IndexError,
        KeyError,
        OverflowError,
        shapely.errors.ShapelyError,
    ) as exc:
        raise TrackFileError(
            source, where, f"not a valid Polygon ({shown(str(exc), 120)})"
        ) from None
    return polygon_to_wkt(polygon, source, where)


def _centreline(track: Track) -> list[list[float]]:
    """Mean centre of the track spaces in each space of progress, in running order."""
    rows: dict[int, list[tuple[float, float]]] = {}
    for _, d in track.graph.nodes(data=True):
        if d["kind"] == "track":
            rows.setdefault(int(d["progress"]), []).append((d["x"], d["y"]))
    line = [
        [
            round(sum(x for x, _ in rows[k]) / len(rows[k]), 6),
            round(sum(y for _, y in rows[k]) / len(rows[k]), 6),
        ]
        for k in sorted(rows)
    ]
    if len(line) > 1:
        line.append(line[0])
    return line
