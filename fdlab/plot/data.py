"""Plain data behind a board picture: one table per layer, renderer-neutral.

Each function returns columns (``dict[str, list]``) ready for a Bokeh
``ColumnDataSource``; the SVG renderer reads the same tables. The editor
builds its editing plot from them, so their columns are a stable interface:
new columns may be added, existing ones keep their name and meaning.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fdlab.plot import colors
from fdlab.plot.errors import CarPlacementError, UnknownSpaceError
from fdlab.plot.geometry import heading, line_across, outlines, space_size
from fdlab.track.corners import corner_entries, corner_exits, spaces_by_corner
from fdlab.track.model import SpaceId, Track

#: Cars as accepted by the drawing functions: a mapping space id -> label,
#: ``(label, colour)`` or ``{"label": ..., "color": ...}``; or a sequence of
#: ``(space, label)`` / ``(space, label, colour)`` tuples. Keys are Any, not
#: :data:`~fdlab.track.model.SpaceId`: a mapping's key type is invariant, so a
#: ``dict[int, str]`` would not pass; entries are checked against the track.
Cars = Mapping[Any, Any] | Sequence[Sequence[Any]] | None

Columns = dict[str, list[Any]]

BOARD_COLUMNS = (
    "id",
    "xs",
    "ys",
    "x",
    "y",
    "lane",
    "progress",
    "kind",
    "corner",
    "corner_name",
    "stops",
    "hazard",
    "tunnel",
    "grid",
    "box",
    "level",
    "fill_color",
    "line_color",
    "line_width",
    "highlight",
    "car",
    "car_color",
    "hover",
)


def board_data(track: Track, *, highlight: Iterable[SpaceId] = (), cars: Cars = None) -> Columns:
    """Columns of a data source with one row per space, for drawing its polygon.

    Rows are ordered ground first (``level`` 0), bridge spaces (``level`` 1)
    last, so that patches drawn in row order put bridges on top; within a
    level rows follow the graph's node order.

    Parameters
    ----------
    track : Track
    highlight : iterable of space ids
        Spaces to mark (``highlight`` column True, bright outline).
    cars : mapping or sequence, optional
        Cars to place (see :func:`normalize_cars`); fills ``car`` and
        ``car_color`` of their spaces.

    Returns
    -------
    dict of str -> list
        ``id``, ``xs``/``ys`` (outline, open), ``x``/``y`` (centre), the schema
        attributes ``lane``, ``progress``, ``kind``, ``corner``, ``hazard``,
        ``tunnel``, ``grid``, ``box``, ``level`` (None where the space has
        none), ``corner_name`` and ``stops`` (``""`` and 0 off corners),
        ``fill_color``, ``line_color``, ``line_width``, ``highlight``,
        ``car`` and ``car_color`` (``""`` without a car) and ``hover`` (a
        one-line description of the space's attributes).

    Raises
    ------
    UnknownSpaceError
        If a highlighted space or a car's space is not on the track.

    Examples
    --------
    >>> track = from_ascii(". 1 1 S", corners={1: 2})
    >>> data = board_data(track, highlight=[3], cars={1: "Red"})
    >>> data["id"], data["stops"], data["highlight"]
    ([0, 1, 2, 3], [0, 2, 2, 0], [False, False, False, True])
    >>> data["car"], data["hover"][3]
    (['', 'Red', '', ''], 'shooting')
    """
    nodes = track.graph.nodes
    marked = set(highlight)
    for space in marked:
        if space not in nodes:
            raise UnknownSpaceError(f"highlight: space {space!r} is not on track {track.name!r}")
    placed = {space: (label, color) for space, label, color in normalize_cars(track, cars)}
    corners = track.corners
    size = space_size(track)
    order = [n for n, d in nodes(data=True) if not d["level"]]
    order += [n for n, d in nodes(data=True) if d["level"]]

    data: Columns = {name: [] for name in BOARD_COLUMNS}
    shapes = outlines([nodes[n] for n in order], size)
    for n, (xs, ys) in zip(order, shapes, strict=True):
        d = nodes[n]
        corner = d["corner"]
        info = corners.get(corner, {}) if corner is not None else {}
        is_marked = n in marked
        line_color, line_width = colors.space_line(d, is_marked)
        car_label, car_color = placed.get(n, ("", ""))
        data["id"].append(n)
        data["xs"].append(xs)
        data["ys"].append(ys)
        data["x"].append(float(d["x"]))
        data["y"].append(float(d["y"]))
        data["lane"].append(d["lane"])
        data["progress"].append(float(d["progress"]))
        data["kind"].append(d["kind"])
        data["corner"].append(corner)
        data["corner_name"].append(info.get("name", "") if corner is not None else "")
        data["stops"].append(int(info.get("stops", 0)))
        data["hazard"].append(d["hazard"])
        data["tunnel"].append(d["tunnel"])
        data["grid"].append(d["grid"])
        data["box"].append(d["box"])
        data["level"].append(d["level"])
        data["fill_color"].append(colors.space_fill(d))
        data["line_color"].append(line_color)
        data["line_width"].append(line_width)
        data["highlight"].append(is_marked)
        data["car"].append(car_label)
        data["car_color"].append(car_color)
        data["hover"].append(describe_space(d, info, car_label))
    return data


def describe_space(space: Mapping[str, Any], corner: Mapping[str, Any], car: str = "") -> str:
    """A short text of what is special about a space, for tooltips.

    Examples
    --------
    >>> describe_space({"kind": "track", "corner": 3, "hazard": None, "tunnel": None,
    ...                 "grid": 2, "box": None, "level": 1},
    ...                {"name": "Hairpin", "stops": 2})
    'Hairpin (corner 3, 2 stops) · grid 2 · bridge'
    >>> describe_space({"kind": "box", "corner": None, "hazard": None, "tunnel": None,
    ...                 "grid": None, "box": 4, "level": 0}, {})
    'box of car 4'
    """
    parts = []
    if space["kind"] == "pit":
        parts.append("pit lane")
    if space["kind"] == "box":
        parts.append(f"box of car {space['box']}" if space["box"] is not None else "box")
    if space["corner"] is not None:
        stops = corner.get("stops", "?")
        plural = "" if stops == 1 else "s"
        name = corner.get("name") or f"Corner {space['corner']}"
        parts.append(f"{name} (corner {space['corner']}, {stops} stop{plural})")
    if space["hazard"] is not None:
        parts.append(str(space["hazard"]))
    if space["tunnel"] is not None:
        parts.append(f"tunnel {space['tunnel']}")
    if space["grid"] is not None:
        parts.append(f"grid {space['grid']}")
    if space["level"]:
        parts.append("bridge")
    if car:
        parts.append(f"car {car}")
    return " · ".join(parts)


def normalize_cars(track: Track, cars: Cars) -> list[tuple[SpaceId, str, str]]:
    """Cars as a list of ``(space, label, colour)``, with default colours filled in.

    Parameters
    ----------
    track : Track
    cars : mapping or sequence or None
        A mapping space id -> label, ``(label, colour)`` or
        ``{"label": ..., "color": ...}``; or a sequence of ``(space, label)``
        or ``(space, label, colour)``. Cars without a colour take
        :data:`fdlab.plot.colors.CAR_COLORS` in order.

    Raises
    ------
    UnknownSpaceError
        A car's space is not on the track.
    CarPlacementError
        An entry of another shape, or two cars on one space.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> normalize_cars(track, {0: "A", 2: ("B", "navy")})
    [(0, 'A', '#e4262c'), (2, 'B', 'navy')]
    >>> normalize_cars(track, [(1, "C", "gold")])
    [(1, 'C', 'gold')]
    """
    if not cars:
        return []
    if isinstance(cars, Mapping):
        entries = [(space, *_label_and_color(space, value)) for space, value in cars.items()]
    else:
        entries = []
        for entry in cars:
            if (
                isinstance(entry, str | bytes)
                or not isinstance(entry, Sequence)
                or not (2 <= len(entry) <= 3)
            ):
                raise CarPlacementError(
                    f"cars: {entry!r} is not (space, label) or (space, label, colour)"
                )
            entries.append((entry[0], str(entry[1]), entry[2] if len(entry) == 3 else None))
    result = []
    seen: dict[SpaceId, str] = {}
    for index, (space, label, color) in enumerate(entries):
        if space not in track.graph:
            raise UnknownSpaceError(
                f"car {label!r}: space {space!r} is not on track {track.name!r}"
            )
        if space in seen:
            raise CarPlacementError(
                f"cars {seen[space]!r} and {label!r} are both on space {space!r}"
            )
        seen[space] = label
        result.append((space, label, color or colors.car_color(index, label)))
    return result


def _label_and_color(space: SpaceId, value: Any) -> tuple[str, str | None]:
    if isinstance(value, str):
        return value, None
    if isinstance(value, Mapping) and "label" in value:
        return str(value["label"]), value.get("color")
    if isinstance(value, Sequence) and len(value) == 2:
        return str(value[0]), value[1]
    raise CarPlacementError(
        f"car on space {space!r}: {value!r} is not a label, (label, colour) or "
        '{"label": ..., "color": ...}'
    )


def car_data(track: Track, cars: Cars) -> Columns:
    """Columns for car markers: a small oriented rectangle with a label per car.

    Returns
    -------
    dict of str -> list
        ``space``, ``x``, ``y`` (the space centre), ``angle`` (direction of
        travel, radians), ``width``/``height`` (marker size in track units),
        ``label``, ``color``, ``text_color`` (dark on light cars, white on
        dark ones) and ``halo_color`` (the contrasting outline of the label).

    Examples
    --------
    >>> data = car_data(from_ascii(". . ."), {2: ("Y", "#ffff00")})
    >>> data["x"], data["label"], data["text_color"]
    ([2.5], ['Y'], ['#1b1d21'])
    """
    size = space_size(track)
    data: Columns = {
        k: []
        for k in (
            "space",
            "x",
            "y",
            "angle",
            "width",
            "height",
            "label",
            "color",
            "text_color",
            "halo_color",
        )
    }
    nodes = track.graph.nodes
    for space, label, color in normalize_cars(track, cars):
        data["space"].append(space)
        data["x"].append(float(nodes[space]["x"]))
        data["y"].append(float(nodes[space]["y"]))
        data["angle"].append(heading(track, space))
        data["width"].append(0.78 * size)
        data["height"].append(0.46 * size)
        data["label"].append(label)
        data["color"].append(color)
        light = _is_light(color)
        data["text_color"].append(colors.LABEL_DARK if light else colors.LABEL_LIGHT)
        data["halo_color"].append(colors.LABEL_LIGHT if light else colors.LABEL_DARK)
    return data


def _is_light(color: str) -> bool:
    named = {"white": "#ffffff", "yellow": "#ffff00", "gold": "#ffd700", "silver": "#c0c0c0"}
    value = named.get(color.lower(), color)
    if not (value.startswith("#") and len(value) == 7):
        return False
    r, g, b = (int(value[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 160


def step_data(track: Track) -> Columns:
    """Columns with one arrow per step, from near one centre to near the next.

    Arrows run from 22% to 78% of the way between the two space centres so
    that consecutive arrows do not touch.

    Returns
    -------
    dict of str -> list
        ``from``, ``to``, ``kind``, ``lines`` (crossed line names, sorted and
        comma-separated), ``x0``, ``y0``, ``x1``, ``y1``, ``angle`` (radians
        turning an upward-pointing head along the step) and ``color`` (by
        kind, :data:`fdlab.plot.colors.STEP_COLORS`).

    Examples
    --------
    >>> data = step_data(from_ascii(". .", closed=True))
    >>> data["from"], data["to"], data["lines"]
    ([0, 1], [1, 0], ['', 'finish'])
    """
    nodes = track.graph.nodes
    data: Columns = {
        k: [] for k in ("from", "to", "kind", "lines", "x0", "y0", "x1", "y1", "angle", "color")
    }
    for u, v, d in track.graph.edges(data=True):
        ux, uy, vx, vy = nodes[u]["x"], nodes[u]["y"], nodes[v]["x"], nodes[v]["y"]
        dx, dy = vx - ux, vy - uy
        data["from"].append(u)
        data["to"].append(v)
        data["kind"].append(d["kind"])
        data["lines"].append(",".join(sorted(d["lines"])))
        data["x0"].append(ux + 0.22 * dx)
        data["y0"].append(uy + 0.22 * dy)
        data["x1"].append(ux + 0.78 * dx)
        data["y1"].append(uy + 0.78 * dy)
        data["angle"].append(math.atan2(dy, dx) - math.pi / 2)  # turns an upward head along
        data["color"].append(colors.STEP_COLORS.get(d["kind"], "#ffffff"))
    return data


def annotation_data(track: Track) -> dict[str, Columns]:
    """Tables of the marks printed on a board besides the spaces.

    Returns
    -------
    dict of str -> columns
        ``"flags"``: one row per corner with ``corner``, ``name``, ``stops``,
        ``long``, ``short``, the flag position ``x``, ``y`` (beside the
        corner, on its outer side), the corner point ``px``, ``py`` it
        belongs to and the unit vector ``dx``, ``dy`` from that point to the
        flag (for placing the flag at a screen distance).
        ``"corner_lines"``: the red lines where corners begin and end, one
        segment per lane (``xs``, ``ys`` with two points, ``corner``, ``end``
        = ``"entry"`` or ``"exit"``).
        ``"finish"`` and ``"police"``: segments (``xs``, ``ys``) of those lines.
        ``"grid"``, ``"boxes"``, ``"tunnels"``: labels (``x``, ``y``,
        ``text``, ``space`` and ``room``, the largest label height that fits
        the space, see :func:`label_room`) with the grid spot, the box's car
        slot and the tunnel label.

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . 1 1 .
    ...     . . 1 1 .
    ... ''', corners={1: 2}, closed=True, grid=[9, 8])
    >>> notes = annotation_data(track)
    >>> notes["flags"]["stops"], notes["flags"]["long"], notes["flags"]["short"]
    ([2], [2], [2])
    >>> len(notes["corner_lines"]["xs"]), len(notes["finish"]["xs"]), notes["grid"]["text"]
    (4, 2, ['1', '2'])
    """
    size = space_size(track)
    nodes = track.graph.nodes
    notes: dict[str, Columns] = {
        "flags": {
            k: []
            for k in ("corner", "name", "stops", "long", "short", "x", "y", "px", "py", "dx", "dy")
        },
        "corner_lines": {"xs": [], "ys": [], "corner": [], "end": []},
        "finish": {"xs": [], "ys": []},
        "police": {"xs": [], "ys": []},
        "grid": {"x": [], "y": [], "text": [], "space": [], "room": []},
        "boxes": {"x": [], "y": [], "text": [], "space": [], "room": []},
        "tunnels": {"x": [], "y": [], "text": [], "space": [], "room": []},
    }
    members_of = spaces_by_corner(track.graph)
    for corner, info in sorted(track.corners.items(), key=lambda item: str(item[0])):
        members = members_of.get(corner, [])
        if not members:
            continue
        flag, point = _flag_position(track, members, size)
        row = notes["flags"]
        row["corner"].append(corner)
        row["name"].append(info.get("name", f"Corner {corner}"))
        row["stops"].append(int(info.get("stops", 0)))
        row["long"].append(int(info.get("long", 0)))
        row["short"].append(int(info.get("short", 0)))
        row["x"].append(flag[0])
        row["y"].append(flag[1])
        row["px"].append(point[0])
        row["py"].append(point[1])
        row["dx"].append((flag[0] - point[0]) / (1.6 * size))
        row["dy"].append((flag[1] - point[1]) / (1.6 * size))
        lines = notes["corner_lines"]
        for end, spaces, neighbours in (
            ("entry", corner_entries(track, corner, members), track.graph.pred),
            ("exit", corner_exits(track, corner, members), track.graph.adj),
        ):
            for space in spaces:
                outside = _straight_neighbour(track, space, neighbours, corner)
                if outside is None:
                    continue
                a, b = line_across(track, space, outside, size)
                lines["xs"].append([a[0], b[0]])
                lines["ys"].append([a[1], b[1]])
                lines["corner"].append(corner)
                lines["end"].append(end)
    for line in ("finish", "police"):
        for into, came_from in _line_steps(track, line):
            a, b = line_across(track, into, came_from, size)
            notes[line]["xs"].append([a[0], b[0]])
            notes[line]["ys"].append([a[1], b[1]])
    for space in track.grid_spots():
        _add_label(notes["grid"], nodes, space, str(nodes[space]["grid"]), size)
    for space in track.boxes():
        slot = nodes[space]["box"]
        _add_label(notes["boxes"], nodes, space, "" if slot is None else str(slot), size)
    for label, spaces in sorted(track.tunnel_pairs().items(), key=lambda item: str(item[0])):
        for space in spaces:
            _add_label(notes["tunnels"], nodes, space, str(label), size)
    return notes


def _add_label(table: Columns, nodes: Any, space: SpaceId, text: str, size: float) -> None:
    table["x"].append(float(nodes[space]["x"]))
    table["y"].append(float(nodes[space]["y"]))
    table["text"].append(text)
    table["space"].append(space)
    table["room"].append(label_room(nodes[space], size))


def label_room(space: Mapping[str, Any], size: float) -> float:
    """How tall a label may be inside a space: the short side of its outline.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> label_room({"polygon": box(0, 0, 4, 1)}, 9.0)
    1.0
    >>> label_room({"polygon": None}, 2.0)
    1.8
    """
    polygon = space.get("polygon")
    if polygon is None or polygon.is_empty:
        return 0.9 * size
    xs, ys = polygon.minimum_rotated_rectangle.exterior.coords.xy
    sides = [math.hypot(xs[i + 1] - xs[i], ys[i + 1] - ys[i]) for i in range(2)]
    return float(min(sides))


def _straight_neighbour(
    track: Track, space: SpaceId, neighbours: Any, corner: Any
) -> SpaceId | None:
    """A neighbour of ``space`` outside ``corner``, preferring one in the same lane."""
    graph = track.graph
    outside: list[tuple[bool, str, SpaceId]] = []
    for other in neighbours[space]:
        if graph.nodes[other]["corner"] == corner:
            continue
        step = graph.adj[space].get(other) or graph.adj[other].get(space)
        outside.append((step.get("kind") != "ahead", str(other), other))
    if not outside:
        return None
    return min(outside, key=lambda item: item[:2])[2]


def _line_steps(track: Track, line: str) -> list[tuple[SpaceId, SpaceId]]:
    """``(into, came_from)`` pairs of the straight steps crossing a line, one per space."""
    crossing = [(u, v, d) for u, v, d in track.graph.edges(data=True) if line in d["lines"]]
    straight = [(u, v) for u, v, d in crossing if d["kind"] == "ahead"]
    chosen = straight or [(u, v) for u, v, _ in crossing]
    seen: dict[SpaceId, SpaceId] = {}
    for u, v in chosen:
        seen.setdefault(v, u)
    return [(v, u) for v, u in seen.items()]


def _flag_position(
    track: Track, members: Sequence[SpaceId], size: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a corner's flag goes: beyond the outer lane, level with the corner's middle.

    The outer lane is the one with the most spaces in the corner (the long
    way round; lane 0 on a tie). The flag stands 1.6 space sizes beyond the
    middle space of that lane, away from the lane next to it.
    """
    nodes = track.graph.nodes
    by_lane: dict[int, list[SpaceId]] = {}
    for n in members:
        by_lane.setdefault(nodes[n]["lane"], []).append(n)
    outer_lane = max(sorted(by_lane, key=str), key=lambda lane: len(by_lane[lane]))
    outer = sorted(by_lane[outer_lane], key=lambda n: nodes[n]["progress"])
    mid = outer[len(outer) // 2]
    mx, my = float(nodes[mid]["x"]), float(nodes[mid]["y"])
    others = [n for n in members if nodes[n]["lane"] != outer_lane]
    if others:
        near = min(others, key=lambda n: (nodes[n]["x"] - mx) ** 2 + (nodes[n]["y"] - my) ** 2)
        dx, dy = mx - nodes[near]["x"], my - nodes[near]["y"]
    else:
        angle = heading(track, mid) + math.pi / 2
        dx, dy = math.cos(angle), math.sin(angle)
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    return (mx + 1.6 * size * dx, my + 1.6 * size * dy), (mx, my)
