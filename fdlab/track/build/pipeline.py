"""The board builder: a closed circuit centreline becomes a playable board.

Pipeline: the centreline is resampled and smoothed (:class:`LapPath`, tight
bends eased and cramped parts pushed apart so lanes fit); corners are found
from curvature (:func:`find_corners`) or given, then widened until every
lane holds enough spaces for the stop count (:mod:`fdlab.track.build.corner_fit`);
the lap is cut into stretches (straights and corners); every lane of a
stretch is cut into spaces (aligned columns on straights, more spaces on the
outside of corners); then steps (lane changes diagonally forward, M-3),
contacts, the grid, the pit lane (entry and exit on straights), street
features and bridges (figure eights) are added.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import Polygon

from fdlab.track.build.centreline import Centreline, centreline_from_geojson
from fdlab.track.build.corner_finder import find_corners, suggest_stops
from fdlab.track.build.corner_fit import (
    CornerExtent,
    corner_cuts,
    corner_lane_count,
    fit_corners,
)
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.spec import (
    BuildError,
    BuildSpec,
    CornerSpec,
    PitSpec,
    StreetSpec,
    Stretch,
)
from fdlab.track.corners import corner_path_counts, update_corner_counts
from fdlab.track.model import Track, add_space, add_step, new_graph

#: Default number of spaces along the centre of a lap.
DEFAULT_SPACES_PER_LAP = 80
#: Lane width as a fraction of the space length (spaces are longer than wide).
LANE_WIDTH_RATIO = 0.45
_EPS = 1e-6
#: Tunnel pair labels: tunnel number and lane letter (``1a``, ``1b``, ...).
_LANE_LETTERS = "abcd"
#: Builds tried before giving up on lengthening corners whose shortest path is too short.
_MAX_CORNER_ROUNDS = 4
#: A pit lane cut short by a corner is lengthened along the straights to this many spaces.
_PIT_SPACES = 5


@dataclass
class _Cell:
    """One space while the board is being built (arc lengths in metres)."""

    lane: int
    start: float
    end: float
    offset: float
    progress: float
    kind: str = "track"
    corner: int | None = None
    polygon: Polygon | None = None
    centre: tuple[float, float] = (0.0, 0.0)
    hazard: str | None = None
    tunnel: str | None = None
    grid: int | None = None
    box: int | None = None
    level: int = 0
    ident: int = -1

    @property
    def middle(self) -> float:
        return 0.5 * (self.start + self.end)


@dataclass
class _Stretch:
    start: float
    end: float
    corner: int | None
    lanes: int
    columns: int
    progress: float


def build_track(
    centreline: Centreline | Sequence[Sequence[float]] | Mapping[str, Any] | str | Path,
    *,
    name: str | None = None,
    lanes: int = 3,
    space_length: float | None = None,
    spaces_per_lap: int | None = None,
    lane_width: float | None = None,
    lane_counts: Sequence[tuple[Stretch | Sequence[float], int]] = (),
    corners: Sequence[CornerSpec | Sequence[float]] | None = None,
    stops: Sequence[int] | None = None,
    pit: PitSpec | bool | None = None,
    street: StreetSpec | None = None,
    grid: int = 10,
    laps: int = 1,
    description: str = "",
    finish: float = 0.0,
) -> Track:
    """Build a Formula D board from a closed centreline.

    Parameters
    ----------
    centreline : Centreline, sequence of (x, y), GeoJSON mapping or path
        The lap in the direction of travel; its first point is the finish
        line. Points are metres; GeoJSON (lon/lat) is projected.
    name : str, optional
        The board's name; defaults to the GeoJSON ``Location`` or "untitled".
    lanes : int
        Lane count, 2-4.
    space_length : float, optional
        Length of a space along the centreline in metres. Default: the lap
        divided by ``spaces_per_lap`` (80 if not given either).
    spaces_per_lap : int, optional
        Wanted number of spaces along the centre of the lap.
    lane_width : float, optional
        Metres; default 0.45 of the space length.
    lane_counts : sequence of (Stretch or (start, end), int)
        Other lane counts (2-4) on stretches of the lap (lap fractions).
        Lane 0 (leftmost) keeps its place; lanes are added or dropped on the
        right.
    corners : sequence of CornerSpec or (start, end), optional
        Corner stretches in lap fractions, replacing the detected ones.
    stops : sequence of int, optional
        Stop counts of the corners in running order (overrides suggestions).
    pit : PitSpec or True, optional
        Add a pit lane (``True``: beside the finish straight, 10 boxes).
    street : StreetSpec, optional
        Hazard spaces, police line and tunnels.
    grid : int
        Number of grid spots behind the finish line.
    laps : int
        Default race length.
    description : str
        One or two sentences for someone choosing a board.
    finish : float
        Where the finish line goes, as a fraction of the centreline's lap
        from its first point. All other lap fractions count from the finish
        line.

    Returns
    -------
    Track
        Spaces with polygons, steps, contacts, corners (with computed
        ``long``/``short``), grid, pit lane and street features. The spec is
        kept as JSON data in ``track.graph.graph["build"]``.

    Raises
    ------
    BuildError
        When the options cannot make a board (the message names the option).

    Notes
    -----
    Every corner is widened along the lap, evenly around its apex, until each
    lane holds at least two spaces and its shortest path at least its stop
    count; two corners too close together for that become one corner (their
    names joined, the larger stop count). Every ``lane_change`` step gains
    half a space to two spaces of progress, about as much as the ``ahead``
    step beside it.

    Examples
    --------
    >>> import math
    >>> oval = [(400 * math.sin(t / 50 * math.pi), -150 * math.cos(t / 50 * math.pi))
    ...         for t in range(100)]
    >>> track = build_track(oval, name="Oval", spaces_per_lap=60, pit=True)
    >>> track.lap_length, len(track.grid_spots()), len(track.corners), len(track.boxes())
    (61.0, 10, 2, 10)
    >>> [c["stops"] for c in track.corners.values()]
    [1, 1]
    """
    spec = make_spec(
        centreline,
        name=name,
        lanes=lanes,
        space_length=space_length,
        spaces_per_lap=spaces_per_lap,
        lane_width=lane_width,
        lane_counts=lane_counts,
        corners=corners,
        stops=stops,
        pit=pit,
        street=street,
        grid=grid,
        laps=laps,
        description=description,
        finish=finish,
    )
    return build_from_spec(spec)


def make_spec(
    centreline: Centreline | Sequence[Sequence[float]] | Mapping[str, Any] | str | Path,
    **options: Any,
) -> BuildSpec:
    """A :class:`BuildSpec` from the arguments of :func:`build_track`.

    Examples
    --------
    >>> spec = make_spec([(0, 0), (300, 0), (300, 200), (0, 200)], name="Box", lanes=2)
    >>> spec.lanes, spec.centreline.length
    (2, 1000.0)
    """
    if isinstance(centreline, Centreline):
        line = centreline
    elif isinstance(centreline, str | Path | Mapping):
        line = centreline_from_geojson(centreline)
    else:
        line = Centreline(tuple(tuple(p) for p in centreline))
    if options.get("name") is None:
        options["name"] = str(
            line.properties.get("Location") or line.properties.get("name") or "untitled"
        )
    pit = options.get("pit")
    options["pit"] = PitSpec() if pit is True else (None if pit is False else pit)
    options["lane_counts"] = tuple(
        (s if isinstance(s, Stretch) else Stretch(*s), int(n))
        for s, n in options.get("lane_counts", ())
    )
    if options.get("corners") is not None:
        options["corners"] = tuple(
            c if isinstance(c, CornerSpec) else CornerSpec(*c) for c in options["corners"]
        )
    if options.get("stops") is not None:
        options["stops"] = tuple(int(s) for s in options["stops"])
    return BuildSpec(centreline=line, **options)


def rebuild(track: Track, **changes: Any) -> Track:
    """Build ``track`` again from its stored spec, with some options changed.

    Examples
    --------
    >>> track = build_track([(0, 0), (600, 0), (600, 300), (0, 300)], name="Box")
    >>> rebuild(track) == track, len(rebuild(track, lanes=2)) < len(track)
    (True, True)
    """
    if "build" not in track.graph.graph:
        raise BuildError(f"track {track.name!r} has no stored build spec (graph attribute 'build')")
    spec = BuildSpec.from_json(track.graph.graph["build"])
    if "centreline" in changes and not isinstance(changes["centreline"], Centreline):
        changes["centreline"] = Centreline(tuple(tuple(p) for p in changes["centreline"]))
    return build_from_spec(replace(spec, **changes))


def build_from_spec(spec: BuildSpec) -> Track:
    """Build the board described by a :class:`BuildSpec` (see :func:`build_track`).

    Examples
    --------
    >>> from fdlab.track.build import BuildSpec, Centreline
    >>> box = Centreline([(250, 0), (500, 0), (500, 250), (0, 250), (0, 0)])  # finish mid-straight
    >>> spec = BuildSpec(box, name="Box")
    >>> track = build_from_spec(spec)
    >>> track.name, len(track.corners), track.graph.graph["build"] == spec.to_json()
    ('Box', 4, True)
    """
    _check_spec(spec)
    nominal_lap = spec.centreline.length
    space_length = float(
        spec.space_length or nominal_lap / (spec.spaces_per_lap or DEFAULT_SPACES_PER_LAP)
    )
    width = float(spec.lane_width or LANE_WIDTH_RATIO * space_length)
    most_lanes = max([spec.lanes, *(n for _, n in spec.lane_counts)])
    offsets = [((spec.lanes - 1) / 2 - j) * width for j in range(most_lanes)]
    half_road = max(abs(d) for d in offsets) + width / 2
    path = LapPath(
        spec.centreline.starting_at(spec.finish).points,
        step=space_length / 8,
        smoothing=space_length / 4,
        min_radius=1.15 * half_road,
        separation=2.3 * half_road,
    )
    lap = path.length
    found = _corner_stretches(spec, path, space_length)
    extra = [0] * len(found)
    for _ in range(_MAX_CORNER_ROUNDS):
        corner_stretches = _fit_corners(spec, path, found, offsets, space_length, extra)
        if len(corner_stretches) < len(found):  # corners merged: go on from the merged ones
            found, extra = corner_stretches, [0] * len(corner_stretches)
        stretches = _lap_stretches(spec, corner_stretches, lap, space_length)
        cells = _cut_cells(path, stretches, offsets, width)
        lap_length = float(sum(s.columns for s in stretches))
        tunnel_pairs = _apply_tunnels(spec.street, cells, lap)
        steps = _track_steps(cells, lap, lap_length, tunnel_pairs)
        too_short = _short_corners(cells, steps, corner_stretches)
        if not too_short:
            break
        for number in too_short:
            extra[number - 1] += 1

    graph = new_graph(
        spec.name,
        description=spec.description,
        laps=spec.laps,
        units="m",
        space_length=round(space_length, 3),
        lap_length=lap_length,
    )
    for number, (_, _, stops, corner_name) in enumerate(corner_stretches, start=1):
        graph.graph["corners"][number] = {"stops": stops, "name": corner_name or f"Corner {number}"}

    for entry, exit_ in tunnel_pairs:
        steps.append((entry, exit_, "tunnel"))
    _mark_grid(cells, spec.grid, corner_stretches, lap)
    pit_cells, pit_steps = _pit_lane(spec.pit, path, cells, stretches, offsets, width, lap)
    steps.extend(pit_steps)
    all_cells = cells + pit_cells
    _number(all_cells)
    _apply_hazards(spec.street, cells, lap)
    _raise_bridges(path, cells, half_road, space_length)
    police = _police_position(spec.street, stretches, lap)

    for cell in sorted(all_cells, key=lambda c: c.ident):
        add_space(
            graph,
            cell.ident,
            x=round(cell.centre[0], 2),
            y=round(cell.centre[1], 2),
            polygon=cell.polygon,
            lane=cell.lane,
            progress=round(float(cell.progress), 4),
            kind=cell.kind,
            corner=cell.corner,
            hazard=cell.hazard,
            tunnel=cell.tunnel,
            grid=cell.grid,
            box=cell.box,
            level=cell.level,
        )
    for a, b, kind in steps:
        add_step(graph, a.ident, b.ident, kind, _lines_crossed(a, b, kind, police, lap))
    update_corner_counts(graph)
    graph.graph["build"] = spec.to_json()
    track = Track(graph)
    _add_contacts(track, cells, steps)
    return track


# -- spec checks and stretches ---------------------------------------------------------
def _check_spec(spec: BuildSpec) -> None:
    for label, value in [
        ("lanes", spec.lanes),
        *((f"lane_counts[{i}]", n) for i, (_, n) in enumerate(spec.lane_counts)),
    ]:
        if not 2 <= value <= 4:
            raise BuildError(f"{label}: lane count must be 2-4, got {value}")
    if spec.space_length is not None and spec.space_length <= 0:
        raise BuildError(f"space_length must be positive, got {spec.space_length}")
    if spec.spaces_per_lap is not None and spec.spaces_per_lap < 20:
        raise BuildError(f"spaces_per_lap must be at least 20, got {spec.spaces_per_lap}")
    if spec.grid < 0:
        raise BuildError(f"grid must be 0 or more spots, got {spec.grid}")
    if spec.laps < 1:
        raise BuildError(f"laps must be at least 1, got {spec.laps}")
    if not 0.0 <= spec.finish < 1.0:
        raise BuildError(f"finish must be a lap fraction in [0, 1), got {spec.finish}")


def _corner_stretches(
    spec: BuildSpec, path: LapPath, space_length: float
) -> list[tuple[float, float, int, str | None]]:
    """Corners as ``(start, end, stops, name)`` in metres, clear of the finish line."""
    lap = path.length
    margin = space_length
    found: list[tuple[float, float, int | None, str | None]] = []
    if spec.corners is not None:
        for c in spec.corners:
            start, end = c.start * lap, c.end * lap
            end = end if end > start else end + lap
            found.append((start, end, c.stops, c.name))
    else:
        found = [(c.start, c.end, c.stops, None) for c in find_corners(path, space_length)]
    clipped = []
    for start, end, stops, name in found:
        if end > lap:  # wraps past the finish line: keep the larger side
            if end - lap > lap - start:
                start, end = 0.0, end - lap
            else:
                end = lap
        start, end = max(start, margin), min(end, lap - margin)
        if end - start < 0.5 * space_length:
            continue
        clipped.append((start, end, stops, name))
    clipped.sort()
    if spec.stops is not None and len(spec.stops) != len(clipped):
        raise BuildError(
            f"stops lists {len(spec.stops)} stop counts but the lap has {len(clipped)} corners"
            f" (at lap fractions {', '.join(f'{s / lap:.3f}' for s, *_ in clipped)});"
            " give one count per corner or draw the corners with corners=..."
        )
    result = []
    for index, (start, end, stops, name) in enumerate(clipped):
        if spec.stops is not None:
            stops = spec.stops[index]
            if stops not in (1, 2, 3):
                raise BuildError(f"stops[{index}]: a corner needs 1, 2 or 3 stops, got {stops}")
        if stops is None:
            angle = math.degrees(_turn(path, start, end))
            stops = suggest_stops(
                angle, (end - start) / max(math.radians(abs(angle)), 1e-9) / space_length
            )
        result.append((start, end, int(stops), name))
    # corners that overlap or touch share a boundary
    for i in range(1, len(result)):
        prev, cur = result[i - 1], result[i]
        if cur[0] < prev[1]:
            middle = 0.5 * (cur[0] + prev[1])
            result[i - 1] = (prev[0], middle, *prev[2:])
            result[i] = (middle, *cur[1:])
    return result


def _fit_corners(
    spec: BuildSpec,
    path: LapPath,
    corners: list[tuple[float, float, int, str | None]],
    offsets: list[float],
    space_length: float,
    extra: list[int],
) -> list[tuple[float, float, int, str | None]]:
    """Corners widened until every lane holds enough spaces for the stop count."""
    lap = path.length
    s_closed = np.concatenate([path.s, [lap]])
    arcs = [path.offset_arc(d) for d in offsets]

    def lane_counts(start: float, end: float) -> list[int]:
        middle = 0.5 * (start + end) / lap
        lanes = next((n for s, n in spec.lane_counts if s.contains(middle)), spec.lanes)
        columns = max(1, int(round((end - start) / space_length)))
        counts = []
        for arc in arcs[:lanes]:
            a, b = np.interp([start, end], s_closed, arc)
            counts.append(corner_lane_count(float(b - a), end - start, columns))
        return counts

    fitted = fit_corners(
        [CornerExtent(*c) for c in corners],
        lane_counts,
        low=space_length,
        high=lap - space_length,
        step=space_length / 4,
        extra=extra,
    )
    return [(c.start, c.end, c.stops, c.name) for c in fitted]


def _short_corners(
    cells: list[_Cell],
    steps: list[tuple[_Cell, _Cell, str]],
    corners: list[tuple[float, float, int, str | None]],
) -> list[int]:
    """Corner numbers whose shortest path holds fewer spaces than their stop count."""
    graph = nx.DiGraph()
    for cell in cells:
        graph.add_node(id(cell), corner=cell.corner)
    graph.add_edges_from((id(a), id(b)) for a, b, _ in steps)
    return [
        number
        for number, (_, _, stops, _) in enumerate(corners, start=1)
        if corner_path_counts(graph, number)[1] < stops
    ]


def _turn(path: LapPath, start: float, end: float) -> float:
    inside = (path.s >= start) & (path.s < end)
    return float(path.curvature[inside].sum() * (path.length / len(path.s)))


def _turn_between(path: LapPath, start: float, end: float) -> float:
    """Total turn (radians) between two arc lengths that may wrap past the lap end."""
    lap = path.length
    start, end = start % lap, end % lap
    if start <= end:
        return _turn(path, start, end)
    return _turn(path, start, lap) + _turn(path, 0.0, end)


def _lap_stretches(
    spec: BuildSpec,
    corners: list[tuple[float, float, int, str | None]],
    lap: float,
    space_length: float,
) -> list[_Stretch]:
    bounds: list[tuple[float, float, int | None]] = []
    cursor = 0.0
    for number, (start, end, _, _) in enumerate(corners, start=1):
        if start > cursor:
            bounds.append((cursor, start, None))
        bounds.append((start, end, number))
        cursor = end
    bounds.append((cursor, lap, None))
    # a straight too short for one space between two corners goes to its neighbours
    merged: list[list[Any]] = []
    for index, (start, end, corner) in enumerate(bounds):
        inner = 0 < index < len(bounds) - 1
        if corner is None and inner and end - start < 0.5 * space_length:
            merged[-1][1] = 0.5 * (start + end)
            bounds[index + 1] = (0.5 * (start + end), *bounds[index + 1][1:])
            continue
        merged.append([start, end, corner])
    # lane counts change on straights where the designer's stretches begin and end
    edges = sorted(
        {x * lap for stretch, _ in spec.lane_counts for x in (stretch.start, stretch.end)}
    )
    pieces: list[list[Any]] = []
    for start, end, corner in merged:
        inside = (
            []
            if corner is not None
            else [x for x in edges if start + 0.5 * space_length < x < end - 0.5 * space_length]
        )
        for low, high in zip([start, *inside], [*inside, end], strict=True):
            pieces.append([low, high, corner])
    stretches = []
    progress = 0.0
    for start, end, corner in pieces:
        middle = 0.5 * (start + end) / lap
        lanes = next((n for s, n in spec.lane_counts if s.contains(middle)), spec.lanes)
        columns = max(1, int(round((end - start) / space_length)))
        stretches.append(_Stretch(start, end, corner, lanes, columns, progress))
        progress += columns
    return stretches


# -- cells -------------------------------------------------------------------------------
def _cut_cells(
    path: LapPath, stretches: list[_Stretch], offsets: list[float], width: float
) -> list[_Cell]:
    cells: list[_Cell] = []
    arcs = {j: path.offset_arc(offsets[j]) for j in range(len(offsets))}
    s_closed = np.concatenate([path.s, [path.length]])
    for stretch in stretches:
        span = stretch.end - stretch.start
        for lane in range(stretch.lanes):
            if stretch.corner is None:
                cuts = np.linspace(stretch.start, stretch.end, stretch.columns + 1)
            else:
                arc = arcs[lane]
                a, b = np.interp([stretch.start, stretch.end], s_closed, arc)
                count = corner_lane_count(b - a, span, stretch.columns)
                by_length = np.interp(np.linspace(a, b, count + 1), arc, s_closed)
                cuts = corner_cuts(by_length, stretch.columns)
            for start, end in zip(cuts[:-1], cuts[1:], strict=True):
                middle = 0.5 * (start + end)
                progress = (
                    stretch.progress + stretch.columns * (middle - stretch.start) / span - 0.5
                )
                cell = _Cell(
                    lane, float(start), float(end), offsets[lane], progress, corner=stretch.corner
                )
                _shape(path, cell, width)
                cells.append(cell)
    return cells


def _shape(path: LapPath, cell: _Cell, width: float, offset: float | None = None) -> None:
    offset = cell.offset if offset is None else offset
    samples = path.samples_between(cell.start, cell.end)
    left = path.offset(samples, offset + width / 2)
    right = path.offset(samples[::-1], offset - width / 2)
    ring = np.round(np.vstack([left, right]), 2)
    polygon = Polygon(ring)
    if not polygon.is_valid:
        polygon = shapely.make_valid(polygon)
        if polygon.geom_type != "Polygon":
            polygon = max(getattr(polygon, "geoms", [polygon]), key=lambda g: g.area)
            polygon = polygon if polygon.geom_type == "Polygon" else Polygon(ring).buffer(0)
    cell.polygon = polygon
    x, y = path.offset(np.array([cell.middle]), offset)[0]
    cell.centre = (float(x), float(y))


def _lanes(cells: list[_Cell], kind: str = "track") -> dict[int, list[_Cell]]:
    lanes: dict[int, list[_Cell]] = {}
    for cell in cells:
        if cell.kind == kind:
            lanes.setdefault(cell.lane, []).append(cell)
    for row in lanes.values():
        row.sort(key=lambda c: c.start)
    return lanes


def _at(row: list[_Cell], position: float, lap: float) -> _Cell | None:
    """The cell of a lane that covers arc length ``position`` (wrapping)."""
    position %= lap
    starts = [c.start for c in row]
    index = int(np.searchsorted(starts, position, side="right")) - 1
    if index < 0:
        return None
    cell = row[index]
    return (
        cell
        if cell.start - _EPS <= position < cell.end - _EPS
        or (cell.start - _EPS <= position <= cell.end + _EPS and index == len(row) - 1)
        else None
    )


# -- steps -------------------------------------------------------------------------------
#: A lane change gains at least this much progress (spaces): never a sideways step.
MIN_DIAGONAL_GAIN = 0.5
#: ... and at most this much, so that it never skips a space of the lane it joins.
MAX_DIAGONAL_GAIN = 2.0


def _track_steps(
    cells: list[_Cell], lap: float, lap_length: float, tunnels: list[tuple[_Cell, _Cell]]
) -> list[tuple[_Cell, _Cell, str]]:
    """``ahead`` steps along each lane and diagonal ``lane_change`` steps forward to a
    neighbouring lane; tunnel portals only lead into / come out of their tunnel.

    A lane change goes to the neighbouring lane's space whose progress best matches
    where the space's own ``ahead`` step lands (M-3: a diagonal step forward), gaining
    between :data:`MIN_DIAGONAL_GAIN` and :data:`MAX_DIAGONAL_GAIN` spaces, and never to
    a space side by side with it. One that enters or leaves a corner crosses its entry
    or exit line: it leaves from the last space of a lane's run and lands on the first.
    """
    steps: list[tuple[_Cell, _Cell, str]] = []
    lanes = _lanes(cells)
    firsts, lasts = set(), set()
    for row in lanes.values():
        for index, cell in enumerate(row):
            if row[index - 1].corner != cell.corner:
                firsts.add(id(cell))
            if row[(index + 1) % len(row)].corner != cell.corner:
                lasts.add(id(cell))

    def crosses_the_line(a: _Cell, b: _Cell) -> bool:
        return a.corner == b.corner or (id(a) in lasts and id(b) in firsts)

    by_progress = {lane: sorted(row, key=lambda c: c.progress) for lane, row in lanes.items()}
    tunnel_entries = {id(entry) for entry, _ in tunnels}
    tunnel_exits = {id(exit_) for _, exit_ in tunnels}
    for lane, row in lanes.items():
        for cell in row:
            if id(cell) in tunnel_entries:
                continue
            ahead_at = cell.end + 0.01 if cell.end < lap - _EPS else 0.01
            ahead = _at(row, ahead_at, lap)
            if ahead is cell or (ahead is not None and id(ahead) in tunnel_exits):
                ahead = None
            if ahead is not None:
                steps.append((cell, ahead, "ahead"))
                wanted = _gain(cell, ahead, lap_length)
            else:  # the lane ends here (fewer lanes ahead): one space forward
                wanted = 1.0
            for other in (lane - 1, lane + 1):
                if other not in lanes:
                    continue
                target = _diagonal_target(
                    cell, by_progress[other], wanted, lap_length, crosses_the_line
                )
                if target is not None and id(target) not in tunnel_exits:
                    steps.append((cell, target, "lane_change"))
    return steps


def _gain(a: _Cell, b: _Cell, lap_length: float) -> float:
    """Progress gained from ``a`` to ``b``, counted round the finish line."""
    return (b.progress - a.progress) % lap_length


def _diagonal_target(
    cell: _Cell,
    other_lane: list[_Cell],
    wanted: float,
    lap_length: float,
    allowed: Callable[[_Cell, _Cell], bool],
) -> _Cell | None:
    """The space of ``other_lane`` (sorted by progress) a diagonal step from ``cell`` goes
    to: the one gaining nearest ``wanted`` among those ``allowed``, or None."""
    progress = [c.progress for c in other_lane]
    goal = (cell.progress + wanted) % lap_length
    index = int(np.searchsorted(progress, goal))
    best: tuple[float, float, _Cell] | None = None
    for offset in range(-4, 5):  # spaces cover 0.5+ of progress: all within reach
        candidate = other_lane[(index + offset) % len(other_lane)]
        gain = _gain(cell, candidate, lap_length)
        if (
            not MIN_DIAGONAL_GAIN <= gain <= MAX_DIAGONAL_GAIN
            or _side_by_side(cell, candidate)
            or not allowed(cell, candidate)
        ):
            continue
        key = (abs(gain - wanted), gain)
        if best is None or key < best[:2]:
            best = (*key, candidate)
    return None if best is None else best[2]


def _side_by_side(a: _Cell, b: _Cell) -> bool:
    """Whether two cells of neighbouring lanes lie beside each other (a ``beside`` contact)."""
    overlap = min(a.end, b.end) - max(a.start, b.start)
    shorter = min(a.end - a.start, b.end - b.start)
    return overlap > 0.3 * shorter


def _lines_crossed(a: _Cell, b: _Cell, kind: str, police: float | None, lap: float) -> list[str]:
    lines = []
    forward = (b.middle - a.middle) % lap
    if b.progress < a.progress:
        lines.append("finish")
    if police is not None and kind != "tunnel" and 0 < (police - a.middle) % lap <= forward:
        lines.append("police")
    if kind == "pit_in":
        lines.append("pit_entry")
    if kind == "pit_out":
        lines.append("pit_exit")
    return lines


def _add_contacts(track: Track, cells: list[_Cell], steps: list[tuple[_Cell, _Cell, str]]) -> None:
    for a, b, kind in steps:
        if kind == "ahead":
            track.add_contact(a.ident, b.ident, "behind", rear=a.ident)
    lanes = _lanes(cells)
    for lane, row in lanes.items():
        if lane + 1 not in lanes:
            continue
        for cell in row:
            for other in lanes[lane + 1]:
                if _side_by_side(cell, other):
                    track.add_contact(cell.ident, other.ident, "beside")


def _number(cells: list[_Cell]) -> None:
    order = {"track": 0, "pit": 1, "box": 2}
    ranked = sorted(cells, key=lambda c: (order[c.kind], round(c.progress, 6), c.lane, c.box or 0))
    for ident, cell in enumerate(ranked):
        cell.ident = ident


# -- grid, pit lane, street features, bridges ------------------------------------------
def _mark_grid(cells: list[_Cell], spots: int, corners: list, lap: float) -> None:
    """Grid spots behind the finish line, pole nearest it on the inside of the first corner.

    Two staggered lanes when the straight behind the line holds them all,
    otherwise one spot per lane and row, so the grid stays out of corners
    where it can.
    """
    if spots == 0:
        return
    lanes = _lanes(cells)
    at_line = sorted(c.lane for c in cells if c.kind == "track" and c.end > lap - _EPS)
    inside = at_line if corners and _first_turn_left(cells, corners) else at_line[::-1]
    straight = 0
    for cell in reversed(lanes[inside[0]]):
        if cell.corner is not None or cell.tunnel is not None:
            break
        straight += 1
    if len(inside) >= 3 and straight < spots:
        _grid_by_rows(lanes, inside, spots)
        return
    pattern = inside[:2]
    limit = math.inf
    for spot in range(spots):
        lane = pattern[spot % len(pattern)]
        candidates = [c for c in reversed(lanes[lane]) if c.progress < limit and c.tunnel is None]
        if not candidates:
            raise BuildError(
                f"grid: no room for {spots} grid spots behind the finish line (placed {spot})"
            )
        candidates[0].grid = spot + 1
        limit = candidates[0].progress - 1e-6


def _grid_by_rows(lanes: dict[int, list[_Cell]], inside: list[int], spots: int) -> None:
    spot = 0
    for row in range(1, min(len(lanes[lane]) for lane in inside) + 1):
        for lane in inside:
            cell = lanes[lane][-row]
            if cell.tunnel is None and spot < spots:
                spot += 1
                cell.grid = spot
    if spot < spots:
        raise BuildError(
            f"grid: no room for {spots} grid spots behind the finish line (placed {spot})"
        )


def _first_turn_left(cells: list[_Cell], corners: list) -> bool:
    return bool(corners) and _corner_sign(cells, corners[0])


def _corner_sign(cells: list[_Cell], corner: tuple) -> bool:
    """Whether the corner turns left: its leftmost lane has fewer spaces."""
    start, end = corner[0], corner[1]
    counts: dict[int, int] = {}
    for c in cells:
        if start - _EPS <= c.start and c.end <= end + _EPS:
            counts[c.lane] = counts.get(c.lane, 0) + 1
    if not counts:
        return False
    return counts[min(counts)] < counts[max(counts)]


def _pit_lane(
    pit: PitSpec | None,
    path: LapPath,
    cells: list[_Cell],
    stretches: list[_Stretch],
    offsets: list[float],
    width: float,
    lap: float,
) -> tuple[list[_Cell], list[tuple[_Cell, _Cell, str]]]:
    if pit is None:
        return [], []
    lap_length = float(sum(s.columns for s in stretches))
    if pit.start is not None:
        start, end = pit.start * lap, pit.end * lap  # type: ignore[operator]
    else:
        # the finish straight, lengthened into its neighbours until the boxes fit
        after, before = 0, len(stretches) - 1
        columns = stretches[after].columns + stretches[before].columns
        while columns < math.ceil(pit.boxes / 2) + 3 and after + 1 < before - 1:
            if (after + before) % 2:
                after += 1
                columns += stretches[after].columns
            else:
                before -= 1
                columns += stretches[before].columns
        start, end = stretches[before].start, stretches[after].end
        # no longer than the boxes need: a few spaces before the line, fewer after it
        space = lap / lap_length
        start = max(start, lap - (math.ceil(pit.boxes / 2) + 4) * space)
        end = min(end, 4 * space)
    start, end = _pit_ends_on_straights(stretches, start % lap, end % lap, lap)
    if end <= start:
        end += lap
    side = pit.side or ("right" if _signed_area(path) > 0 else "left")
    lanes = _lanes(cells)
    edge_lane = min(lanes) if side == "left" else max(lanes)
    sign = 1.0 if side == "left" else -1.0
    edge = max(abs(d) for d in offsets) + width / 2
    pit_offset = sign * (edge + 0.35 * width + width / 2)
    box_offset = sign * (edge + 2.0 * width)
    space_length = lap / lap_length
    if end - start < 3 * space_length:
        raise BuildError(
            f"pit: the stretch from {start / lap:.3f} to {(end % lap) / lap:.3f} holds fewer than 3 spaces"
        )
    # cut at the finish line too, so that one pit step crosses it
    pieces = [(start, min(end, lap)), (lap, end)] if start < lap < end else [(start, end)]
    pit_cells: list[_Cell] = []
    for low, high in pieces:
        if high - low < 0.5 * space_length:
            continue
        # equal lengths along the pit lane itself (longer than the centreline outside a bend)
        shift = lap if low >= lap - _EPS else 0.0
        arc = path.offset_arc(pit_offset)
        s_closed = np.concatenate([path.s, [lap]])
        a_low, a_high = np.interp([low - shift, high - shift], s_closed, arc)
        # ... but every pit space gains between half a space and 1.5 spaces of progress
        # (beside a corner the pit lane is longer or shorter than the track)
        table = np.linspace(low, high, 200)
        table_progress = np.array([_progress_at(stretches, x % lap, lap) for x in table - shift])
        table_progress[-1] = table_progress[0] + _progress_span(stretches, low, high, lap)
        progress_span = float(table_progress[-1] - table_progress[0])
        count = corner_lane_count(a_high - a_low, high - low, progress_span)
        by_length = np.interp(np.linspace(a_low, a_high, count + 1), arc, s_closed) + shift
        by_length[0], by_length[-1] = low, high
        progress_cuts = corner_cuts(np.interp(by_length, table, table_progress), progress_span)
        cuts = np.interp(progress_cuts, table_progress, table)
        cuts[0], cuts[-1] = low, high
        for a, b in zip(cuts[:-1], cuts[1:], strict=True):
            progress = _progress_at(stretches, 0.5 * (a + b) % lap, lap) - 0.5
            cell = _Cell(0, float(a), float(b), pit_offset, progress, kind="pit")
            _shape(path, cell, width)
            pit_cells.append(cell)
    steps: list[tuple[_Cell, _Cell, str]] = []
    before = _at(lanes[edge_lane], pit_cells[0].start - 0.01, lap)
    after = _at(lanes[edge_lane], pit_cells[-1].end + 0.01, lap)
    if before is None or after is None:
        raise BuildError("pit: no track space beside the pit entry or exit")
    steps.append((before, pit_cells[0], "pit_in"))
    for a, b in zip(pit_cells, pit_cells[1:], strict=False):
        steps.append((a, b, "ahead"))
    steps.append((pit_cells[-1], after, "pit_out"))
    holders = pit_cells[1:-1]
    if not holders:
        raise BuildError("pit: the pit lane needs at least 3 spaces for a box")
    per_column = max(2, math.ceil(pit.boxes / len(holders)))
    used = math.ceil(pit.boxes / per_column)
    # the boxes go side by side beside the straightest part of the pit lane
    bend = [abs(_turn_between(path, h.start - space_length, h.end + space_length)) for h in holders]
    best = min(range(len(holders) - used + 1), key=lambda i: (round(sum(bend[i : i + used]), 6), i))
    boxes: list[_Cell] = []
    slot = 0
    for index in range(best + 1, best + used + 1):
        holder = pit_cells[index]
        for k in range(per_column):
            if slot == pit.boxes:
                break
            slot += 1
            length = (holder.end - holder.start) / per_column
            box = _Cell(
                0,
                holder.start + k * length,
                holder.start + (k + 1) * length,
                box_offset,
                (holder.progress + (k + 0.5) / per_column - 0.5) % lap_length,
                kind="box",
                box=slot,
            )
            _shape(path, box, width)
            boxes.append(box)
            steps.append((pit_cells[index - 1], box, "box_in"))
            steps.append((box, pit_cells[index + 1], "box_out"))
    for cell in pit_cells + boxes:
        cell.start, cell.end = cell.start % lap, (cell.end - 1e-9) % lap + 1e-9
    return pit_cells + boxes, steps


def _pit_ends_on_straights(
    stretches: list[_Stretch], start: float, end: float, lap: float
) -> tuple[float, float]:
    """Pit entry and exit moved out of corners, so that ``pit_in`` and ``pit_out`` join
    straight spaces.

    The pit lane first shrinks: it starts one space after the corner it would have
    started in and ends one space before the corner it would have ended in, then grows
    along the straights at either end. If that leaves fewer than :data:`_PIT_SPACES`
    spaces, it grows instead, running beside the corner: entry before it, exit after it.
    """
    space = lap / sum(s.columns for s in stretches)

    def stretch_at(position: float) -> _Stretch:
        position %= lap
        return next(
            (s for s in stretches if s.start - _EPS <= position < s.end - _EPS), stretches[-1]
        )

    def neighbour(stretch: _Stretch, offset: int) -> _Stretch:
        return stretches[(stretches.index(stretch) + offset) % len(stretches)]

    low, high = start, end
    for _ in range(len(stretches)):
        here = stretch_at(low - 0.01)
        if here.corner is None:
            break
        after = neighbour(here, 1)
        low = (after.start + (after.end - after.start) / after.columns) % lap
    for _ in range(len(stretches)):
        here = stretch_at(high + 0.01)
        if here.corner is None:
            break
        before = neighbour(here, -1)
        high = (before.end - (before.end - before.start) / before.columns) % lap
    for _ in range(_PIT_SPACES):
        if (high - low) % lap >= _PIT_SPACES * space:
            return low, high
        if stretch_at(low - space - 0.01).corner is None:
            low = (low - space) % lap
        elif stretch_at(high + space + 0.01).corner is None:
            high = (high + space) % lap
        else:
            break
    if (high - low) % lap >= _PIT_SPACES * space:
        return low, high
    for _ in range(len(stretches)):
        here = stretch_at(start - 0.01)
        if here.corner is None:
            break
        start = here.start
    for _ in range(len(stretches)):
        here = stretch_at(end + 0.01)
        if here.corner is None:
            break
        end = here.end % lap
    return start, end


def _progress_at(stretches: list[_Stretch], position: float, lap: float) -> float:
    """Progress (in spaces from the finish line) of an arc length on the centreline."""
    for stretch in stretches:
        if stretch.start - _EPS <= position <= stretch.end + _EPS:
            share = (position - stretch.start) / (stretch.end - stretch.start)
            return stretch.progress + stretch.columns * share
    return float(sum(s.columns for s in stretches))


def _progress_span(stretches: list[_Stretch], low: float, high: float, lap: float) -> float:
    """Progress (spaces) from arc length ``low`` on to ``high``, less than a lap later."""
    lap_length = float(sum(s.columns for s in stretches))
    rise = _progress_at(stretches, high % lap, lap) - _progress_at(stretches, low % lap, lap)
    return rise % lap_length


def _signed_area(path: LapPath) -> float:
    x, y = path.xy[:, 0], path.xy[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _apply_tunnels(
    street: StreetSpec | None, cells: list[_Cell], lap: float
) -> list[tuple[_Cell, _Cell]]:
    if street is None or not street.tunnels:
        return []
    pairs = []
    for number, tunnel in enumerate(street.tunnels, start=1):
        lanes = _lanes(cells)
        doomed = [c for c in cells if c.kind == "track" and tunnel.contains(c.middle / lap)]
        if not doomed:
            raise BuildError(f"street tunnels[{number - 1}]: the stretch holds no space")
        doomed_ids = {id(c) for c in doomed}
        for lane, row in sorted(lanes.items()):
            inside = [i for i, c in enumerate(row) if id(c) in doomed_ids]
            if not inside:
                continue
            entry, exit_ = row[(inside[0] - 1) % len(row)], row[(inside[-1] + 1) % len(row)]
            if id(entry) in doomed_ids or id(exit_) in doomed_ids or entry.tunnel or exit_.tunnel:
                raise BuildError(
                    f"street tunnels[{number - 1}]: lane {lane} has no space to open a portal"
                )
            label = f"{number}{_LANE_LETTERS[lane]}"  # printed boards: short labels
            entry.tunnel = exit_.tunnel = label
            pairs.append((entry, exit_))
        cells[:] = [c for c in cells if id(c) not in doomed_ids]
        emptied = {c.corner for c in doomed} - {c.corner for c in cells} - {None}
        if emptied:
            raise BuildError(
                f"street tunnels[{number - 1}]: the tunnel swallows all of corner(s) "
                f"{sorted(emptied)}; move it onto a straight"
            )
    return pairs


def _apply_hazards(street: StreetSpec | None, cells: list[_Cell], lap: float) -> None:
    if street is None:
        return
    by_id = {c.ident: c for c in cells}
    for hazard in ("shooting", "danger"):
        for item in getattr(street, hazard):
            if isinstance(item, int):
                if item not in by_id:
                    raise BuildError(
                        f"street {hazard}: space {item} is not a track space of the board"
                    )
                by_id[item].hazard = hazard
            else:
                for cell in cells:
                    if item.contains(cell.middle / lap) and cell.tunnel is None:
                        cell.hazard = hazard


def _police_position(
    street: StreetSpec | None, stretches: list[_Stretch], lap: float
) -> float | None:
    if street is None or street.police is None:
        return None
    wanted = street.police * lap
    edges = []
    for s in stretches:
        if s.corner is None:
            edges.extend(np.linspace(s.start, s.end, s.columns + 1))
    if not edges:
        return wanted
    edge = min(edges, key=lambda e: abs(e - wanted))
    return float(edge) - 1e-6 if edge > 0 else lap - 1e-6


def _raise_bridges(
    path: LapPath, cells: list[_Cell], half_road: float, space_length: float
) -> None:
    """Put the later branch of a self-crossing lap on level 1 where the branches overlap."""
    crossings = _self_crossings(path, 2 * half_road + space_length)
    if not crossings:
        return
    track_cells = [c for c in cells if c.kind == "track"]
    polygons = [c.polygon for c in track_cells]
    tree = shapely.STRtree(polygons)
    reach = 2 * half_road + 1.5 * space_length
    lap = path.length
    for i, j in zip(*tree.query(polygons, predicate="intersects"), strict=True):
        if i >= j:
            continue
        a, b = track_cells[i], track_cells[j]
        if min(abs(a.middle - b.middle), lap - abs(a.middle - b.middle)) < reach:
            continue
        area = a.polygon.intersection(b.polygon).area
        if area < 0.02 * min(a.polygon.area, b.polygon.area):
            continue
        for first, second in crossings:
            near = lambda c, s: min(abs(c.middle - s), lap - abs(c.middle - s)) < reach  # noqa: E731
            if near(a, first) and near(b, second):
                b.level = 1
            elif near(b, first) and near(a, second):
                a.level = 1


def _self_crossings(path: LapPath, min_apart: float) -> list[tuple[float, float]]:
    """Arc lengths ``(first, second)`` where the centreline crosses itself."""
    xy = path.xy
    count = len(xy)
    segments = shapely.linestrings(np.stack([xy, np.roll(xy, -1, axis=0)], axis=1))
    tree = shapely.STRtree(segments)
    left, right = tree.query(segments, predicate="crosses")
    step = path.length / count
    found = []
    for i, j in zip(left, right, strict=True):
        if (
            i < j
            and min(j - i, count - (j - i)) * step > min_apart
            and all(abs(path.s[i] - f) > min_apart for f, _ in found)
        ):
            found.append((float(path.s[i]), float(path.s[j])))
    return found
