"""A board as a standalone SVG picture, written as text (no browser needed).

Used by ``Track._repr_svg_`` in notebooks and by ``fdlab show -o board.svg``.
The output depends only on the track and the arguments, so the same board
always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np
from numpy.typing import NDArray

from fdlab.plot import colors
from fdlab.plot.data import Cars, annotation_data, board_data, car_data, step_data
from fdlab.plot.geometry import space_size
from fdlab.plot.layout import place_flags, track_points
from fdlab.track.model import SpaceId, Track

_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
_TITLE_BAND = 34.0
_MARGIN = 46.0
#: Spaces are drawn at most this many pixels wide.
_LARGEST_SPACE = 64.0
#: Labels that would be smaller than this (pixels) are left out.
_SMALLEST_LABEL = 5.0
#: Space ids are written in spaces at least this many pixels wide (unless asked).
_IDS_FROM = 22.0


class _Frame:
    """Maps track coordinates (y up) to picture pixels (y down)."""

    def __init__(
        self,
        bounds: tuple[float, float, float, float],
        width: float,
        space: float,
        title_band: float = _TITLE_BAND,
        legend_band: float = 0.0,
        max_height: float | None = None,
    ) -> None:
        minx, miny, maxx, maxy = bounds
        span_x = max(maxx - minx, 1e-9)
        span_y = max(maxy - miny, 1e-9)
        inner = width - 2 * _MARGIN
        # a tall board is drawn no taller than the picture is wide (nor than
        # max_height with its bands), and a small one with spaces no bigger
        # than _LARGEST_SPACE pixels
        tall = inner
        if max_height is not None:
            tall = min(tall, max(max_height - 2 * _MARGIN - title_band - legend_band, 80.0))
        self.scale = min(inner / span_x, tall / span_y, _LARGEST_SPACE / max(space, 1e-9))
        self.width = width
        self.title_band = title_band
        self.height = span_y * self.scale + 2 * _MARGIN + title_band + legend_band
        self.legend_top = self.height - legend_band
        self.left = (width - span_x * self.scale) / 2 - minx * self.scale
        self.top = title_band + _MARGIN + maxy * self.scale

    def point(self, x: float, y: float) -> tuple[float, float]:
        return self.left + x * self.scale, self.top - y * self.scale

    def points(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        """Many track points (an ``(n, 2)`` array) as picture pixels."""
        return np.column_stack(
            [self.left + xy[:, 0] * self.scale, self.top - xy[:, 1] * self.scale]
        )

    def inside(self, px: float, py: float, dx: float, dy: float) -> tuple[float, float]:
        """The pixel point moved inside the picture, ``dx``/``dy`` away from its edges."""
        return (
            min(max(px, dx), self.width - dx),
            min(max(py, self.title_band + dy), self.legend_top - dy),
        )


def track_svg(  # noqa: PLR0913 (a picture's options are keywords, read in notebooks)
    track: Track,
    *,
    cars: Cars = None,
    highlight: Iterable[SpaceId] = (),
    width: int = 800,
    show_steps: bool = False,
    space_ids: bool | None = None,
    legend: bool = True,
    fills: Mapping[SpaceId, str] | None = None,
    max_height: int | None = None,
) -> str:
    """The board as an SVG document: spaces, corner flags, lines, labels, cars and a legend.

    Parameters
    ----------
    track : Track
    cars : mapping or sequence, optional
        Cars to draw (see :func:`fdlab.plot.normalize_cars`).
    highlight : iterable of space ids
        Spaces outlined in bright pink.
    width : int
        Picture width in pixels; the height follows the board's shape.
    show_steps : bool
        Also draw an arrow for every step (busy on big boards, useful on
        small ones).
    space_ids : bool, optional
        Write each space's id in it. By default the ids are written when the
        spaces are big enough to hold them (lesson boards), and left to the
        tooltips otherwise.
    legend : bool
        A key under the board to what its colours and marks mean (only the
        features the board has).
    fills : mapping, optional
        Space id -> fill colour, over the board's own colours (a heatmap).
    max_height : int, optional
        The tallest the picture may be, in pixels, title and legend
        included: a tall board is drawn smaller (centred in the width) so
        that it fits a laptop screen. By default a board is drawn no taller
        than the picture is wide.

    Returns
    -------
    str
        A complete ``<svg>`` element with one ``<polygon class="space">`` per
        space, each with a ``<title>`` tooltip.

    Examples
    --------
    >>> svg = track_svg(from_ascii(". 1 1 .", corners={1: 1}), cars={0: "A"})
    >>> svg.startswith("<svg"), svg.count('class="space"')
    (True, 4)
    """
    data = board_data(track, highlight=highlight, cars=cars)
    if fills:
        data["fill_color"] = [
            fills.get(space, fill)
            for space, fill in zip(data["id"], data["fill_color"], strict=True)
        ]
    notes = annotation_data(track)
    size = space_size(track)
    title, title_band = _title(track, width)
    keys = _legend_keys(data, notes) if legend else []
    frame = _Frame(
        _bounds(data),
        float(width),
        size,
        title_band,
        _legend_height(keys, width) if keys else 0.0,
        max_height,
    )
    size_px = size * frame.scale
    thin = min(1.0, size_px / 14.0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{frame.height:.0f}" '
        f'viewBox="0 0 {width} {frame.height:.0f}" font-family="{_FONT}">',
        f"<title>{escape(track.name)}</title>",
        f'<rect width="100%" height="100%" fill="{colors.GRASS}"/>',
    ]
    parts += title
    parts += _spaces(data, frame, thin)
    if space_ids or (space_ids is None and size_px >= _IDS_FROM and len(track) <= 400):
        parts += _space_ids(data, frame, size_px)
    if show_steps:
        parts += _steps(track, frame, size_px)
    parts += _tunnels(notes, frame, size_px)
    parts += _lines(notes, frame, size_px)
    parts += _labels(notes, frame)
    parts += _flags(notes, data, frame, size_px)
    parts += _cars(car_data(track, cars), frame, size_px)
    if keys:
        parts += _legend(keys, frame)
    parts.append("</svg>")
    return "\n".join(parts)


def _bounds(data: dict[str, list[Any]]) -> tuple[float, float, float, float]:
    xs = [x for row in data["xs"] for x in row] or [0.0]
    ys = [y for row in data["ys"] for y in row] or [0.0]
    return min(xs), min(ys), max(xs), max(ys)


def _points(frame: _Frame, xs: list[float], ys: list[float]) -> str:
    return " ".join(
        f"{px:.1f},{py:.1f}" for px, py in (frame.point(x, y) for x, y in zip(xs, ys, strict=True))
    )


def _title(track: Track, width: int) -> tuple[list[str], float]:
    """The title line, and the height of its band: the facts go on a second line when
    the name and the facts together would not fit the picture's width."""
    corners = len(track.corners)
    laps = track.laps
    facts = (
        f"{len(track)} spaces · {corners} corner{'' if corners == 1 else 's'} · "
        f"{laps} lap{'' if laps == 1 else 's'}"
    )
    name = escape(track.name)
    # text widths estimated from average glyph widths of the sans-serif fonts
    one_line = 14 + 0.62 * 17 * len(track.name) + 10 + 0.56 * 12 * len(facts)
    if one_line <= width - 8:
        return [
            f'<text x="14" y="24" font-size="17" font-weight="bold" fill="{colors.LABEL_DARK}">'
            f'{name}<tspan font-size="12" font-weight="normal" fill="#4a5058" dx="10">'
            f"{escape(facts)}</tspan></text>"
        ], _TITLE_BAND
    name_size = min(17.0, max(10.0, (width - 28) / (0.62 * max(1, len(track.name)))))
    return [
        f'<text x="14" y="22" font-size="{name_size:.0f}" font-weight="bold" '
        f'fill="{colors.LABEL_DARK}">{name}</text>',
        f'<text x="14" y="40" font-size="12" fill="#4a5058">{escape(facts)}</text>',
    ], _TITLE_BAND + 16


def _spaces(data: dict[str, list[Any]], frame: _Frame, thin: float) -> list[str]:
    out = ['<g class="spaces" stroke-linejoin="round">']
    for i, space in enumerate(data["id"]):
        width = data["line_width"][i] * (1.0 if data["highlight"][i] else thin)
        hover = f"space {space} · lane {data['lane'][i]} · progress {data['progress'][i]:g}"
        if data["hover"][i]:
            hover += f" · {data['hover'][i]}"
        points = _points(frame, data["xs"][i], data["ys"][i])
        if data["level"][i]:
            # a bridge casts a shadow on the ground below it
            out.append(
                f'<polygon class="bridge-shadow" points="{points}" fill="#000000" '
                f'opacity="0.35" transform="translate(2 2)"/>'
            )
        out.append(
            f'<polygon class="space" data-id={quoteattr(str(space))} '
            f'points="{points}" '
            f'fill="{data["fill_color"][i]}" stroke="{data["line_color"][i]}" '
            f'stroke-width="{width:.2f}"><title>{escape(hover)}</title></polygon>'
        )
    out.append("</g>")
    # highlighted outlines again on top, so that no neighbour hides them
    marked = [i for i, flag in enumerate(data["highlight"]) if flag]
    if marked:
        out.append(
            f'<g class="highlights" fill="none" stroke="{colors.HIGHLIGHT}" stroke-width="3" '
            'stroke-linejoin="round">'
        )
        for i in marked:
            out.append(
                f'<polygon class="highlight" points="{_points(frame, data["xs"][i], data["ys"][i])}"/>'
            )
        out.append("</g>")
    return out


def _steps(track: Track, frame: _Frame, size_px: float) -> list[str]:
    steps = step_data(track)
    out = ["<defs>"]
    for kind, color in colors.STEP_COLORS.items():
        out.append(
            f'<marker id="head-{kind}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
            f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
        )
    out.append("</defs>")
    width = max(0.6, min(1.6, size_px / 18))
    out.append(f'<g class="steps" stroke-width="{width:.2f}" opacity="0.85">')
    for i, kind in enumerate(steps["kind"]):
        x0, y0 = frame.point(steps["x0"][i], steps["y0"][i])
        x1, y1 = frame.point(steps["x1"][i], steps["y1"][i])
        dash = ' stroke-dasharray="3 2"' if kind == "tunnel" else ""
        out.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{steps["color"][i]}" marker-end="url(#head-{kind})"{dash}/>'
        )
    out.append("</g>")
    return out


def _segments(frame: _Frame, table: dict[str, list[Any]], style: str, css: str) -> list[str]:
    out = []
    for xs, ys in zip(table["xs"], table["ys"], strict=True):
        (x0, y0), (x1, y1) = frame.point(xs[0], ys[0]), frame.point(xs[1], ys[1])
        out.append(
            f'<line class="{css}" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" {style}/>'
        )
    return out


def _lines(notes: dict[str, dict[str, list[Any]]], frame: _Frame, size_px: float) -> list[str]:
    red = max(1.6, 0.13 * size_px)
    check = max(2.4, 0.2 * size_px)
    police = max(2.2, 0.16 * size_px)
    out = ['<g class="lines" stroke-linecap="butt">']
    out += _segments(
        frame,
        notes["corner_lines"],
        f'stroke="{colors.KERB_RED}" stroke-width="{red:.2f}"',
        "corner-line",
    )
    out += _segments(
        frame, notes["finish"], f'stroke="#ffffff" stroke-width="{check:.2f}"', "finish"
    )
    out += _segments(
        frame,
        notes["finish"],
        f'stroke="#111111" stroke-width="{check:.2f}" stroke-dasharray="{check / 2:.2f}"',
        "finish-check",
    )
    out += _segments(
        frame, notes["police"], f'stroke="#ffffff" stroke-width="{police:.2f}"', "police-under"
    )
    out += _segments(
        frame,
        notes["police"],
        f'stroke="{colors.POLICE_BLUE}" stroke-width="{police:.2f}" '
        f'stroke-dasharray="{2 * police:.2f} {police:.2f}"',
        "police",
    )
    out.append("</g>")
    return out


def _labels(notes: dict[str, dict[str, list[Any]]], frame: _Frame) -> list[str]:
    """Grid, box and tunnel numbers, each sized to its space; too small ones are left out."""
    out = ['<g class="labels" font-weight="bold" text-anchor="middle">']
    for css in ("grid", "boxes", "tunnels"):
        table = notes[css]
        for x, y, text, room in zip(
            table["x"], table["y"], table["text"], table["room"], strict=True
        ):
            px, py = frame.point(x, y)
            room_px = room * frame.scale
            # as tall as 62% of the space and no wider than 90% of it
            font = min(14.0, 0.62 * room_px, 1.45 * room_px / max(1, len(text)))
            if css == "tunnels":
                radius = max(4.0, 0.4 * room_px)
                out.append(
                    f'<circle class="tunnel" cx="{px:.1f}" cy="{py:.1f}" r="{radius:.1f}" '
                    f'fill="{colors.TUNNEL_PURPLE}" stroke="#ffffff" stroke-width="1"/>'
                )
            if font < _SMALLEST_LABEL:
                continue
            out.append(
                f'<text class="{css}" x="{px:.1f}" y="{py + 0.35 * font:.1f}" '
                f'font-size="{font:.1f}" fill="{colors.LABEL_LIGHT}">{escape(text)}</text>'
            )
    out.append("</g>")
    return out


def _space_ids(data: dict[str, list[Any]], frame: _Frame, size_px: float) -> list[str]:
    """Each space's id, small, in the lower part of the space (a car may stand on its middle)."""
    font = min(11.0, max(7.0, 0.27 * size_px))
    out = [
        f'<g class="space-ids" text-anchor="middle" font-size="{font:.1f}" '
        f'fill="{colors.LABEL_LIGHT}" opacity="0.8">'
    ]
    for space, x, y in zip(data["id"], data["x"], data["y"], strict=True):
        px, py = frame.point(x, y)
        out.append(
            f'<text class="space-id" x="{px:.1f}" y="{py + 0.38 * size_px:.1f}">'
            f"{escape(str(space))}</text>"
        )
    out.append("</g>")
    return out


def _tunnels(notes: dict[str, dict[str, list[Any]]], frame: _Frame, size_px: float) -> list[str]:
    """A dashed purple band from each tunnel entrance to its exit: the track goes on underground."""
    table = notes["tunnels"]
    ends: dict[str, list[tuple[float, float]]] = {}
    for x, y, text in zip(table["x"], table["y"], table["text"], strict=True):
        ends.setdefault(text, []).append(frame.point(x, y))
    out = ['<g class="tunnel-links" fill="none">']
    band = max(3.0, 0.45 * size_px)
    for text, points in sorted(ends.items()):
        if len(points) != 2:
            continue
        (x0, y0), (x1, y1) = points
        out.append(
            f'<line class="tunnel-link" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{colors.TUNNEL_PURPLE}" stroke-width="{band:.1f}" opacity="0.45" '
            f'stroke-dasharray="{band:.1f} {0.6 * band:.1f}"><title>tunnel {escape(text)}: '
            "entering one end comes out of the other, as one space (M-6, X-5)</title></line>"
        )
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        out.append(
            f'<text x="{mx:.1f}" y="{my + 4:.1f}" font-size="11" font-style="italic" '
            f'text-anchor="middle" fill="{colors.TUNNEL_PURPLE}" stroke="{colors.GRASS}" '
            f'stroke-width="3" paint-order="stroke">tunnel</text>'
        )
    out.append("</g>")
    return out


#: What the legend can explain: key -> (label, how the swatch is drawn).
_LEGEND = {
    "track": ("lane space", colors.ASPHALT),
    "corner": ("corner (flag: stops; green long, red short way)", colors.CORNER),
    "pit": ("pit lane", colors.PIT),
    "box": ("pit box", colors.BOX),
    "shooting": ("shooting space", colors.SHOOTING),
    "danger": ("danger space", colors.DANGER),
    "tunnel": ("tunnel", colors.TUNNEL_PURPLE),
    "finish": ("finish line", "#111111"),
    "police": ("police line", colors.POLICE_BLUE),
    "highlight": ("highlighted: where the car may go", colors.HIGHLIGHT),
}


def _legend_keys(data: dict[str, list[Any]], notes: dict[str, dict[str, list[Any]]]) -> list[str]:
    present = {
        "track": "track" in data["kind"],
        "corner": any(c is not None for c in data["corner"]),
        "pit": "pit" in data["kind"],
        "box": "box" in data["kind"],
        "shooting": "shooting" in data["hazard"],
        "danger": "danger" in data["hazard"],
        "tunnel": bool(notes["tunnels"]["x"]),
        "finish": bool(notes["finish"]["xs"]),
        "police": bool(notes["police"]["xs"]),
        "highlight": any(data["highlight"]),
    }
    return [key for key in _LEGEND if present[key]]


def _legend_rows(keys: list[str], width: float) -> list[list[tuple[str, float]]]:
    """The legend entries laid out in rows that fit the width: (key, x) pairs."""
    rows: list[list[tuple[str, float]]] = [[]]
    x = 14.0
    for key in keys:
        room = 22 + 0.56 * 11 * len(_LEGEND[key][0]) + 14
        if rows[-1] and x + room > width - 8:
            rows.append([])
            x = 14.0
        rows[-1].append((key, x))
        x += room
    return rows


def _legend_height(keys: list[str], width: float) -> float:
    return 8.0 + 18.0 * len(_legend_rows(keys, width))


def _legend(keys: list[str], frame: _Frame) -> list[str]:
    out = ['<g class="legend" font-size="11">']
    for r, row in enumerate(_legend_rows(keys, frame.width)):
        y = frame.legend_top + 4 + 18 * r
        for key, x in row:
            label, color = _LEGEND[key]
            if key in ("finish", "police"):
                dash = "3 3" if key == "finish" else "6 3"
                swatch = (
                    f'<line x1="{x:.1f}" y1="{y + 7:.1f}" x2="{x + 16:.1f}" y2="{y + 7:.1f}" '
                    f'stroke="{color}" stroke-width="4" stroke-dasharray="{dash}"/>'
                )
            elif key == "tunnel":
                swatch = (
                    f'<circle cx="{x + 8:.1f}" cy="{y + 7:.1f}" r="6" fill="{color}" '
                    'stroke="#ffffff"/>'
                )
            elif key == "highlight":
                swatch = (
                    f'<rect x="{x:.1f}" y="{y:.1f}" width="16" height="14" fill="{colors.ASPHALT}" '
                    f'stroke="{color}" stroke-width="2.5"/>'
                )
            else:
                swatch = (
                    f'<rect x="{x:.1f}" y="{y:.1f}" width="16" height="14" fill="{color}" '
                    'stroke="#ffffff"/>'
                )
            out.append(
                f'<g class="legend-entry" data-key="{key}">{swatch}'
                f'<text x="{x + 22:.1f}" y="{y + 11:.1f}" fill="{colors.LABEL_DARK}">'
                f"{escape(label)}</text></g>"
            )
    out.append("</g>")
    return out


def _flags(
    notes: dict[str, dict[str, list[Any]]],
    centres: dict[str, list[Any]],
    frame: _Frame,
    size_px: float,
) -> list[str]:
    """Yellow stop flags with the green long and red short counts under them.

    A flag that would cover one already drawn moves further out along its
    direction, so the flags of close corners stay readable.
    """
    flags = notes["flags"]
    out = ['<g class="flags" text-anchor="middle" font-weight="bold">']
    anchors = [frame.point(x, y) for x, y in zip(flags["px"], flags["py"], strict=True)]
    directions = [(dx, -dy) for dx, dy in zip(flags["dx"], flags["dy"], strict=True)]
    positions = place_flags(
        anchors,
        directions,
        frame.points(track_points(centres)),
        start=max(1.6 * size_px, 0.5 * size_px + 22.0),
        clamp=lambda x, y: frame.inside(x, y, 22.0, 32.0),  # room for the corner's name
    )
    for i, corner in enumerate(flags["corner"]):
        cx, cy = anchors[i]
        fx, fy = positions[i]
        title = (
            f"{flags['name'][i]}: {flags['stops'][i]} stop(s), "
            f"long {flags['long'][i]}, short {flags['short'][i]}"
        )
        out.append(f'<g class="flag" data-corner={quoteattr(str(corner))}>')
        out.append(f"<title>{escape(title)}</title>")
        out.append(
            f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{fx:.1f}" y2="{fy:.1f}" '
            f'stroke="{colors.LABEL_DARK}" stroke-width="1" opacity="0.45"/>'
        )
        out.append(
            f'<rect x="{fx - 9:.1f}" y="{fy - 17:.1f}" width="18" height="16" rx="2" '
            f'fill="{colors.FLAG_YELLOW}" stroke="#1b1d21" stroke-width="1.2"/>'
        )
        out.append(
            f'<text x="{fx:.1f}" y="{fy - 4.5:.1f}" font-size="13" fill="{colors.LABEL_DARK}">'
            f"{flags['stops'][i]}</text>"
        )
        name = str(flags["name"][i])
        number = f"{corner}"
        caption = number if name in ("", f"Corner {corner}") else f"{number} {name}"
        out.append(
            f'<text class="corner-name" x="{fx:.1f}" y="{fy - 21:.1f}" font-size="11" '
            f'fill="{colors.LABEL_DARK}" stroke="{colors.GRASS}" stroke-width="3" '
            f'paint-order="stroke">{escape(caption)}</text>'
        )
        for side, value, color in (
            (-1, flags["long"][i], colors.LONG_GREEN),
            (1, flags["short"][i], colors.KERB_RED),
        ):
            box = 8.0 + 6.0 * len(str(value))
            middle = fx + side * (1.0 + box / 2)
            out.append(
                f'<rect x="{middle - box / 2:.1f}" y="{fy + 1:.1f}" width="{box:.0f}" '
                f'height="12" rx="2" fill="{color}" stroke="#ffffff" stroke-width="0.8"/>'
            )
            out.append(
                f'<text x="{middle:.1f}" y="{fy + 10.5:.1f}" font-size="10" '
                f'fill="{colors.LABEL_LIGHT}">{value}</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _cars(cars: dict[str, list[Any]], frame: _Frame, size_px: float) -> list[str]:
    out = ['<g class="cars" text-anchor="middle" font-weight="bold">']
    font = min(13.0, max(8.0, 0.4 * size_px))
    for i, label in enumerate(cars["label"]):
        px, py = frame.point(cars["x"][i], cars["y"][i])
        w = max(12.0, cars["width"][i] * frame.scale)
        h = max(7.0, cars["height"][i] * frame.scale)
        degrees = -math.degrees(cars["angle"][i])
        space = cars["space"][i]
        tip = f"car {label} on space {space}"
        ink, halo = cars["text_color"][i], cars["halo_color"][i]
        cos, sin = abs(math.cos(cars["angle"][i])), abs(math.sin(cars["angle"][i]))
        across, tall = w * cos + h * sin, w * sin + h * cos
        baseline = py + 0.36 * font
        if 0.62 * font * len(label) > 0.95 * across:
            # too long to sit on the car: a tag just above it
            ink, halo = colors.LABEL_DARK, colors.LABEL_LIGHT
            baseline = py - tall / 2 - 3.0
        text = f'x="{px:.1f}" y="{baseline:.1f}" font-size="{font:.1f}"'
        out.append(
            f'<g class="car" data-space={quoteattr(str(space))}>'
            f"<title>{escape(tip)}</title>"
            f'<g transform="translate({px:.1f} {py:.1f}) rotate({degrees:.1f})">'
            f'<rect x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="{h / 3:.1f}" fill={quoteattr(cars["color"][i])} stroke="#111111" '
            f'stroke-width="1"/>'
            f'<rect x="{w / 2 - 0.3 * w:.1f}" y="{-h / 2 + 0.18 * h:.1f}" '
            f'width="{0.16 * w:.1f}" height="{0.64 * h:.1f}" rx="1" fill="#111111" '
            f'opacity="0.55"/></g>'
            f'<text {text} fill="{halo}" stroke="{halo}" stroke-width="2.5" '
            f'stroke-linejoin="round">{escape(label)}</text>'
            f'<text {text} fill="{ink}">{escape(label)}</text></g>'
        )
    out.append("</g>")
    return out
