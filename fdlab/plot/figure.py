"""A board as an interactive Bokeh figure, and offline HTML pages of it.

Bokeh is imported inside the functions, so importing :mod:`fdlab.plot` (and
everything below it) stays free of Bokeh until a figure is asked for.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fdlab.files import atomic_write
from fdlab.plot import colors
from fdlab.plot.data import Cars, annotation_data, board_data, car_data, step_data
from fdlab.plot.errors import PlotError
from fdlab.plot.geometry import space_size
from fdlab.plot.layout import place_flags, track_points
from fdlab.track.model import SpaceId, Track

if TYPE_CHECKING:
    from bokeh.plotting import figure as Figure

#: Tooltip rows of a space, shown on hover.
TOOLTIPS = [
    ("space", "@id"),
    ("lane", "@lane"),
    ("progress", "@progress{0.[0]}"),
    ("", "@hover"),
]


def board_figure(
    track: Track,
    *,
    cars: Cars = None,
    highlight: Iterable[SpaceId] = (),
    show_steps: bool = False,
    title: str | None = None,
    width: int = 900,
    height: int | None = None,
    space_ids: bool | None = None,
) -> Figure:
    """An interactive picture of the board: pan, zoom and hover over spaces.

    Parameters
    ----------
    track : Track
    cars : mapping or sequence, optional
        Cars to draw (see :func:`fdlab.plot.normalize_cars`).
    highlight : iterable of space ids
        Spaces outlined in bright pink.
    show_steps : bool
        Draw an arrow for every step, coloured by step kind.
    title : str, optional
        Defaults to the track's name.
    width : int
        Width of the figure in pixels.
    height : int, optional
        Height in pixels; by default it follows the board's proportions
        (between 320 and 900 pixels). The board keeps its proportions.
    space_ids : bool, optional
        Write each space's id in it (the renderer ``"space_ids"``). By
        default only when the spaces are big enough on screen to hold them.

    Returns
    -------
    bokeh.plotting.figure
        The space patches are the renderer named ``"spaces"`` and carry the
        :func:`fdlab.plot.board_data` columns; cars are named ``"cars"``.

    Examples
    --------
    >>> fig = board_figure(from_ascii(". 1 1 .", corners={1: 1}), cars={0: "A"})
    >>> fig.select_one({"name": "spaces"}).data_source.data["id"]
    [0, 1, 2, 3]
    """
    from bokeh.plotting import figure

    data = board_data(track, highlight=highlight, cars=cars)
    if height is None:
        height = _fitting_height(data, width)
    fig = figure(
        title=title if title is not None else track.name,
        width=width,
        height=height,
        match_aspect=True,
        tools="pan,wheel_zoom,box_zoom,reset,save",
        active_scroll=None,  # the wheel scrolls the page until the wheel-zoom tool is picked
        toolbar_location="above",
        background_fill_color=colors.GRASS,
        border_fill_color="#ffffff",
    )
    fig.axis.visible = False
    fig.grid.visible = False
    fig.outline_line_color = None
    scale = _screen_scale(data, width, height)
    for axis_range in (fig.x_range, fig.y_range):
        # room for the flags, which stand a fixed number of pixels off the track
        axis_range.range_padding = 70.0 / scale
        axis_range.range_padding_units = "absolute"

    _spaces(fig, data)
    size = space_size(track)
    if space_ids or (space_ids is None and size * scale >= 22 and len(track) <= 400):
        _space_ids(fig, data, size)
    if show_steps:
        _steps(fig, track)
    notes = annotation_data(track)
    _tunnel_links(fig, notes)
    _lines(fig, notes)
    _labels(fig, notes, scale)
    _flags(fig, notes["flags"], data, scale, space_size(track))
    _cars(fig, car_data(track, cars), scale, space_size(track))
    return fig


def _spaces(fig: Figure, data: dict[str, list[Any]]) -> None:
    """Space patches with their hover tool, highlighted outlines on top."""
    from bokeh.models import ColumnDataSource, HoverTool

    spaces = fig.patches(
        "xs",
        "ys",
        source=ColumnDataSource(data),
        fill_color="fill_color",
        line_color="line_color",
        line_width="line_width",
        line_join="round",
        name="spaces",
    )
    fig.add_tools(HoverTool(renderers=[spaces], tooltips=TOOLTIPS))
    marked = [i for i, flag in enumerate(data["highlight"]) if flag]
    fig.patches(
        [data["xs"][i] for i in marked],
        [data["ys"][i] for i in marked],
        fill_alpha=0,
        line_color=colors.HIGHLIGHT,
        line_width=3,
        line_join="round",
        name="highlights",
    )


def _steps(fig: Figure, track: Track) -> None:
    """One arrow per step, coloured by its kind."""
    from bokeh.models import Arrow, ColumnDataSource, VeeHead

    fig.add_layout(
        Arrow(
            source=ColumnDataSource(step_data(track)),
            x_start="x0",
            y_start="y0",
            x_end="x1",
            y_end="y1",
            line_color="color",
            line_width=1.2,
            end=VeeHead(size=6, fill_color="color", line_color="color"),
            name="steps",
        )
    )


def _space_ids(fig: Figure, data: dict[str, list[Any]], size: float) -> None:
    """Each space's id, small, in the lower part of the space (a car may stand on its middle).

    Grid spots and boxes carry their own number instead (the hover still names the space).
    """
    from bokeh.models import ColumnDataSource

    rows = [
        i
        for i, (grid, box) in enumerate(zip(data["grid"], data["box"], strict=True))
        if grid is None and box is None
    ]
    source = ColumnDataSource(
        {
            "x": [data["x"][i] for i in rows],
            "y": [data["y"][i] - 0.3 * size for i in rows],
            "text": [str(data["id"][i]) for i in rows],
        }
    )
    fig.text(
        "x",
        "y",
        text="text",
        source=source,
        text_color=colors.LABEL_LIGHT,
        text_alpha=0.8,
        text_font_size="9px",
        text_align="center",
        text_baseline="middle",
        name="space_ids",
    )


def _tunnel_links(fig: Figure, notes: dict[str, dict[str, list[Any]]]) -> None:
    """A dashed purple band between the two portals of each tunnel: the track goes on below."""
    from bokeh.models import ColumnDataSource

    ends: dict[str, list[tuple[float, float]]] = {}
    table = notes["tunnels"]
    for x, y, text in zip(table["x"], table["y"], table["text"], strict=True):
        ends.setdefault(text, []).append((x, y))
    pairs = [points for _, points in sorted(ends.items()) if len(points) == 2]
    fig.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(
            {
                "xs": [[a[0], b[0]] for a, b in pairs],
                "ys": [[a[1], b[1]] for a, b in pairs],
            }
        ),
        line_color=colors.TUNNEL_PURPLE,
        line_width=6,
        line_alpha=0.45,
        line_dash=[6, 4],
        name="tunnel_links",
    )


def _lines(fig: Figure, notes: dict[str, dict[str, list[Any]]]) -> None:
    """Red corner lines, the chequered finish line and the dashed police line."""
    from bokeh.models import ColumnDataSource

    fig.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(notes["corner_lines"]),
        line_color=colors.KERB_RED,
        line_width=3,
        name="corner_lines",
    )
    finish = ColumnDataSource(notes["finish"])
    fig.multi_line("xs", "ys", source=finish, line_color="#ffffff", line_width=5, name="finish")
    fig.multi_line("xs", "ys", source=finish, line_color="#111111", line_width=5, line_dash=[3, 3])
    police = ColumnDataSource(notes["police"])
    fig.multi_line("xs", "ys", source=police, line_color="#ffffff", line_width=3)
    fig.multi_line(
        "xs",
        "ys",
        source=police,
        line_color=colors.POLICE_BLUE,
        line_width=3,
        line_dash="dashed",
        name="police",
    )


def _fitting_height(data: dict[str, list[Any]], width: int) -> int:
    """A figure height that shows the board at the given width with little waste."""
    xs: list[float] = [x for row in data["xs"] for x in row] or [0.0]
    ys: list[float] = [y for row in data["ys"] for y in row] or [0.0]
    span_x = max(max(xs) - min(xs), 1e-9)
    span_y = max(ys) - min(ys)
    board_height = (width - 40) * span_y / span_x * 1.15 + 120
    return int(min(900, max(320, board_height)))


def _labels(fig: Figure, notes: dict[str, dict[str, list[Any]]], scale: float) -> None:
    """Grid, box and tunnel numbers sized to their space at the first zoom.

    Tunnel portals are purple discs; a number too small to read is left out
    (the hover still names the space).
    """
    from bokeh.models import ColumnDataSource

    for key in ("tunnels", "grid", "boxes"):
        table = dict(notes[key])
        sizes = [
            min(12.0, 0.62 * room * scale, 1.45 * room * scale / max(1, len(text)))
            for room, text in zip(table["room"], table["text"], strict=True)
        ]
        table["font_size"] = [f"{size:.0f}px" if size >= 5 else "0px" for size in sizes]
        if key == "tunnels":
            table["disc"] = [max(8.0, 0.8 * room * scale) for room in table["room"]]
        source = ColumnDataSource(table)
        if key == "tunnels":
            fig.scatter(
                "x",
                "y",
                size="disc",
                source=source,
                fill_color=colors.TUNNEL_PURPLE,
                line_color="#ffffff",
                name="tunnel_portals",
            )
        fig.text(
            "x",
            "y",
            text="text",
            source=source,
            text_color=colors.LABEL_LIGHT,
            text_font_style="bold",
            text_align="center",
            text_baseline="middle",
            text_font_size="font_size",
            name=key,
        )


def pixels_per_unit(track: Track, width: int, height: int) -> float:
    """Pixels per track unit when a :func:`board_figure` of this size first shows the board.

    Examples
    --------
    >>> round(pixels_per_unit(from_ascii(". . . ."), 460, 400), 1)
    100.0
    """
    return _screen_scale(board_data(track), width, height)


def _screen_scale(data: dict[str, list[Any]], width: int, height: int) -> float:
    """Pixels per track unit when the figure first shows the whole board."""
    xs: list[float] = [x for row in data["xs"] for x in row] or [0.0]
    ys: list[float] = [y for row in data["ys"] for y in row] or [0.0]
    span_x = max(max(xs) - min(xs), 1e-9)
    span_y = max(max(ys) - min(ys), 1e-9)
    return min((width - 60) / span_x, (height - 100) / span_y)


def _flags(
    fig: Figure, flags: dict[str, list[Any]], data: dict[str, list[Any]], scale: float, size: float
) -> None:
    """Stop flags at a fixed screen distance from their corner, clear of each other."""
    from bokeh.models import ColumnDataSource

    anchors = [(x * scale, -y * scale) for x, y in zip(flags["px"], flags["py"], strict=True)]
    positions = place_flags(
        anchors,
        [(dx, -dy) for dx, dy in zip(flags["dx"], flags["dy"], strict=True)],
        track_points(data) * [scale, -scale],
        start=max(1.6 * size * scale, 0.5 * size * scale + 22.0),
    )
    offsets = [(fx - ax, fy - ay) for (ax, ay), (fx, fy) in zip(anchors, positions, strict=True)]
    rows = dict(flags)
    rows["stops_text"] = [str(v) for v in flags["stops"]]
    rows["long_text"] = [str(v) for v in flags["long"]]
    rows["short_text"] = [str(v) for v in flags["short"]]
    rows["fx"] = [ox for ox, _ in offsets]
    rows["fy"] = [oy - 8 for _, oy in offsets]
    rows["lx"] = [
        ox - 4 - 3 * len(t) for (ox, _), t in zip(offsets, rows["long_text"], strict=True)
    ]
    rows["sx"] = [
        ox + 4 + 3 * len(t) for (ox, _), t in zip(offsets, rows["short_text"], strict=True)
    ]
    rows["ly"] = [oy + 10 for _, oy in offsets]
    source = ColumnDataSource(rows)
    common = {"source": source, "text_align": "center", "text_baseline": "middle"}
    fig.text(
        "px",
        "py",
        text="stops_text",
        x_offset="fx",
        y_offset="fy",
        text_font_size="14px",
        text_font_style="bold",
        text_color=colors.LABEL_DARK,
        background_fill_color=colors.FLAG_YELLOW,
        border_line_color="#1b1d21",
        padding=3,
        name="flags",
        **common,
    )
    for text, x_offset, color in (
        ("long_text", "lx", colors.LONG_GREEN),
        ("short_text", "sx", colors.KERB_RED),
    ):
        fig.text(
            "px",
            "py",
            text=text,
            x_offset=x_offset,
            y_offset="ly",
            text_font_size="11px",
            text_font_style="bold",
            text_color=colors.LABEL_LIGHT,
            background_fill_color=color,
            border_line_color="#ffffff",
            padding=2,
            **common,
        )


def car_rows(cars: dict[str, list[Any]], scale: float, space: float) -> dict[str, list[Any]]:
    """The columns of the car layer: :func:`~fdlab.plot.data.car_data` plus label placement.

    Markers are at least 16 x 9 pixels however big the board (``scale`` is
    pixels per track unit, ``space`` the board's space size); a label too
    long for its car gets ``label_dy`` to stand as a tag just above it. A
    table that moves cars refills the ``"cars"`` source with these rows.

    Examples
    --------
    >>> from fdlab.plot.data import car_data
    >>> rows = car_rows(car_data(from_ascii(". . ."), {0: "Blue", 2: "Ayrton Senna"}), 40.0, 1.0)
    >>> rows["label"], [round(dy, 1) for dy in rows["label_dy"]]
    (['Blue', 'Ayrton Senna'], [0.0, -17.2])
    """
    rows = dict(cars)
    small = small_cars(scale, space)
    rows["label_dy"], rows["label_color"] = [], []
    for i, label in enumerate(cars["label"]):
        length = 16.0 if small else cars["width"][i] * scale
        tall = 9.0 if small else cars["height"][i] * scale
        turn = cars["angle"][i]
        across = length * abs(math.cos(turn)) + tall * abs(math.sin(turn))
        upright = length * abs(math.sin(turn)) + tall * abs(math.cos(turn))
        fits = 6.2 * len(label) <= 0.95 * across
        rows["label_dy"].append(0.0 if fits else -(upright / 2 + 8.0))
        rows["label_color"].append(cars["text_color"][i] if fits else colors.LABEL_DARK)
    rows["label_backdrop"] = [0.0 if dy == 0 else 0.8 for dy in rows["label_dy"]]
    return rows


def small_cars(scale: float, space: float) -> bool:
    """Car markers of the board's own size would be under 16 pixels long at this zoom."""
    return 0.78 * space * scale < 16


def _cars(fig: Figure, cars: dict[str, list[Any]], scale: float, space: float) -> None:
    """Car markers and their labels, from :func:`car_rows`."""
    from bokeh.models import ColumnDataSource

    size = (
        {"width": 16, "height": 9, "width_units": "screen", "height_units": "screen"}
        if small_cars(scale, space)
        else {"width": "width", "height": "height"}
    )
    source = ColumnDataSource(car_rows(cars, scale, space))
    fig.rect(
        "x",
        "y",
        angle="angle",
        source=source,
        fill_color="color",
        line_color="#111111",
        line_width=1.2,
        name="cars",
        **size,
    )
    fig.text(
        "x",
        "y",
        text="label",
        source=source,
        y_offset="label_dy",
        text_color="label_color",
        text_font_size="10px",
        text_font_style="bold",
        text_align="center",
        text_baseline="middle",
        background_fill_color="#ffffff",
        background_fill_alpha="label_backdrop",
        name="car_labels",
    )


def save_html(obj: Any, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Write a board or any Bokeh layout as a standalone, offline HTML page.

    BokehJS is inlined in the page (no CDN), so it opens without a network.
    The file is written with :func:`fdlab.files.atomic_write` (next to its
    final place, then renamed into it), so a reader never sees half a page;
    a new file gets the usual permissions, a replaced one keeps its own.

    Parameters
    ----------
    obj : Track or Bokeh model
        A track is drawn with :func:`board_figure` first.
    path : str or path-like
    title : str, optional
        The page title; defaults to the track's name or "fdlab board".

    Returns
    -------
    pathlib.Path
        The written file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     page = save_html(from_ascii(". . ."), pathlib.Path(folder) / "board.html")
    ...     "<html" in page.read_text(encoding="utf-8")
    True
    """
    from bokeh.embed import file_html
    from bokeh.model import Model
    from bokeh.resources import INLINE

    if isinstance(obj, Track):
        page_title = title or obj.name
        obj = board_figure(obj)
    elif isinstance(obj, Model):
        page_title = title or "fdlab board"
    else:
        raise PlotError(f"save_html draws a Track or a Bokeh model, not {type(obj).__name__}")
    target = Path(path)
    html = file_html(obj, resources=INLINE, title=page_title)
    atomic_write(target, html.encode("utf-8"))
    return target
