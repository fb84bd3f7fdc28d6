"""The editor's Bokeh plot: data sources filled from the plot tables, glyphs and tools.

The sources are edit buffers over the model: :func:`EditorSources.refresh`
refills them from :mod:`fdlab.plot.data` after every edit, sending only the
cells that changed, and the browser's selections and drawn centrelines come
back through them. One set of sources per editor (Bokeh documents must not
share a source).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from bokeh import events
from bokeh.core.properties import field
from bokeh.models import (
    BoxSelectTool,
    ColumnDataSource,
    CustomJS,
    DataRange1d,
    HoverTool,
    Legend,
    LegendItem,
    PanTool,
    Patches,
    ScaleBar,
    TapTool,
)
from bokeh.plotting import figure
from numpy.typing import NDArray

from fdlab.editor.errors import EditorError
from fdlab.editor.flag_room import LINE_PX, LabelBox, fitted_frame, fitted_scale, spread_labels
from fdlab.editor.line_draw import LineDrawSources, add_line_draw
from fdlab.editor.point_drag import PointDragSources, add_point_drag
from fdlab.plot import colors
from fdlab.plot.data import annotation_data, board_data, step_data
from fdlab.track.corners import spaces_by_corner
from fdlab.track.model import SpaceId, Track

Columns = dict[str, list[Any]]

#: Label tables of :func:`fdlab.plot.data.annotation_data` drawn as text.
LABEL_TABLES = ("grid", "boxes", "tunnels")
#: Opposite corners (metres) of the area a blank board shows for drawing a
#: centreline in. A plot with nothing on it has no range, and no draw tool can
#: place a point on it.
DRAWING_AREA = ((0.0, 0.0), (1000.0, 600.0))
#: Which arrows the plot shows: every step, the steps where a car has choices the
#: builder may have got wrong (in and next to corners, pit, box and tunnel steps), or none.
ARROW_MODES = ("in corners", "all", "none")
#: The tools the editor switches between (its *Tool* buttons): name -> Bokeh tool name.
TOOLS = {
    "Select": "tool-tap",
    "Box select": "tool-box",
    "Draw centreline": "tool-draw-line",  # no Bokeh tool: fdlab.editor.line_draw
    "Move points": "tool-move-points",  # no Bokeh tool: fdlab.editor.point_drag
    "Move picture": "tool-move-picture",  # no Bokeh tool: the drag is handled in the browser
    "Pan": "tool-pan",
}
#: Colours of the legend: what each fill colour of a space means.
LEGEND = (
    ("track", colors.ASPHALT),
    ("corner", colors.CORNER),
    ("pit lane", colors.PIT),
    ("box", colors.BOX),
    ("shooting", colors.SHOOTING),
    ("danger", colors.DANGER),
)
#: Columns of the picture under the board (:meth:`fdlab.editor.backdrop.Backdrop.columns`).
PICTURE_COLUMNS = ("url", "x", "y", "w", "h", "alpha", "angle")

#: In the browser: a click while the editor waits for the two points that scale the picture.
_PICTURE_TAP = """
if (mode.data.mode[0] !== "scale") return;
const d = gesture.data;
gesture.data = {kind: [...d.kind, "tap"], x: [...d.x, cb_obj.x], y: [...d.y, cb_obj.y]};
"""
#: In the browser: a drag with the tool *Move picture* moves the picture under the pointer...
_PICTURE_PAN_START = """
const p = picture.data;
if (mode.data.mode[0] !== "move" || p.x.length === 0) return;
// the view stays put while the picture moves (the ranges would follow it): as after a pan
x_range.have_updated_interactively = true;
y_range.have_updated_interactively = true;
mode.data = {mode: ["move"], x0: [p.x[0]], y0: [p.y[0]], sx: [cb_obj.x], sy: [cb_obj.y]};
"""
_PICTURE_PAN = """
const m = mode.data;
if (m.mode[0] !== "move" || picture.data.x.length === 0) return;
picture.patch({x: [[0, m.x0[0] + cb_obj.x - m.sx[0]]], y: [[0, m.y0[0] + cb_obj.y - m.sy[0]]]});
"""
#: ...and where it is left goes to the kernel once, at the end of the drag.
_PICTURE_PAN_END = """
const p = picture.data;
if (mode.data.mode[0] !== "move" || p.x.length === 0) return;
const d = gesture.data;
gesture.data = {kind: [...d.kind, "moved"], x: [...d.x, p.x[0]], y: [...d.y, p.y[0]]};
"""

#: In the browser, when the plot's frame is resized (the window, the board column) after
#: the view was panned or zoomed: Bokeh no longer fits the ranges to the frame's shape
#: (``match_aspect`` gives way to the view the designer chose), so this widens one of
#: them about its middle to keep a metre as many pixels across as up, all that was in
#: view still in view.
_KEEP_ASPECT = """
const x = fig.x_range, y = fig.y_range;
if (!(x.have_updated_interactively || y.have_updated_interactively)) return;
const w = fig.inner_width, h = fig.inner_height;
if (!(w > 0 && h > 0)) return;
const per_px = Math.max(Math.abs(x.end - x.start) / w, Math.abs(y.end - y.start) / h);
if (!(per_px > 0 && Number.isFinite(per_px))) return;
const cx = (x.start + x.end) / 2, cy = (y.start + y.end) / 2;
const sx = Math.sign(x.end - x.start) || 1, sy = Math.sign(y.end - y.start) || 1;
x.setv({start: cx - sx * per_px * w / 2, end: cx + sx * per_px * w / 2});
y.setv({start: cy - sy * per_px * h / 2, end: cy + sy * per_px * h / 2});
"""

#: In the browser, after the plot is resized: the toolbar above it measures its width again
#: and shows every tool that fits. Bokeh measures it while the page is still laying out,
#: so a plot made narrower (a window resized, JupyterLab's file browser opened) kept a
#: toolbar narrower still, its tools folded behind a "more" button; a moment later the
#: width is the plot's. ``update_bbox`` and ``_after_render`` are the toolbar view's own
#: steps after a resize; a BokehJS without them keeps its toolbar as it is.
_TOOLBAR_REFITS = """
const index = globalThis.Bokeh?.index;
setTimeout(() => {
  for (const view of index ? index.find_all(toolbar) : []) {
    if (typeof view.update_bbox === "function" && typeof view._after_render === "function") {
      view.update_bbox();
      view._after_render();
    }
  }
}, 100);
"""

#: In the browser, on a click or at the start of a drag: the tooltip of the space under the
#: pointer goes, as when the pointer leaves the plot, so what the click did (the space
#: selected, the point drawn, the corner's flag) is not under it; the next move of the
#: pointer brings it back. Bokeh draws the tooltip again after every repaint (the kernel's
#: answer to the click is one) while it keeps the pointer's place; ``_move_exit``, the
#: hover tool's own handler of the pointer leaving, forgets that place. A BokehJS without
#: it keeps the tooltip, as before.
_TOOLTIP_GIVES_WAY = """
const index = globalThis.Bokeh?.index;
for (const view of index ? index.find_all(hover) : []) {
  if (typeof view._move_exit === "function") view._move_exit();
}
"""


def annotation_tables(track: Track) -> dict[str, Columns]:
    """:func:`~fdlab.plot.data.annotation_data` with a ``text`` column for the corner flags.

    Examples
    --------
    >>> annotation_tables(from_ascii(". 1 1 .", corners={1: 2}))["flags"]["text"]
    ['#1 2\u2691 2/2']
    """
    notes = annotation_data(track)
    flags = notes["flags"]
    # The flag sits outside the corner (away from the centre of its turn: the
    # middle of the corner's spaces), a fixed distance on screen at any zoom.
    nodes = track.graph.nodes
    for key in ("x", "y", "ox", "oy"):
        flags.setdefault(key, [])
    members = spaces_by_corner(track.graph)
    placed = [_outside(track, members[corner], (dx, dy)) for corner, dx, dy in zip(
        flags["corner"], flags["dx"], flags["dy"], strict=True)]  # fmt: skip
    flags["x"] = [float(nodes[space]["x"]) for space, _ in placed]
    flags["y"] = [float(nodes[space]["y"]) for space, _ in placed]
    flags["ux"] = [ux for _, (ux, _) in placed]
    flags["uy"] = [uy for _, (_, uy) in placed]
    flags["text"] = [
        f"#{corner} {stops}\u2691 {long}/{short}"
        for corner, stops, long, short in zip(
            flags["corner"], flags["stops"], flags["long"], flags["short"], strict=True
        )
    ]
    flags["align"] = _toward_the_middle(track, flags["x"])
    # a fixed distance on screen at any zoom, moved round the corner where labels would pile up
    screen = _Screen.of(track)
    offsets = spread_labels(
        screen.pixels(flags["x"], flags["y"]),
        list(zip(flags["ux"], flags["uy"], strict=True)),
        flags["text"],
        flags["align"],
        points=screen.spaces,
        frame=fitted_frame(screen.spaces),
    )
    flags["ox"] = [ox for ox, _ in offsets]
    flags["oy"] = [oy for _, oy in offsets]
    return notes


@dataclass(frozen=True)
class _Screen:
    """A board as the editor first shows it: metres to pixels, and its spaces in pixels."""

    scale: float
    spaces: NDArray[np.float64]

    @classmethod
    def of(cls, track: Track) -> _Screen:
        xs = [float(x) for _, x in track.graph.nodes(data="x")]
        ys = [float(y) for _, y in track.graph.nodes(data="y")]
        scale = fitted_scale(xs, ys)
        return cls(scale, np.column_stack([np.asarray(xs) * scale, np.asarray(ys) * -scale]))

    def pixels(self, xs: Sequence[float], ys: Sequence[float]) -> list[tuple[float, float]]:
        """Screen positions (y down) of board positions."""
        return [(x * self.scale, -y * self.scale) for x, y in zip(xs, ys, strict=True)]


#: A flag this close to the board's left or right edge (a share of its width) runs
#: toward the middle instead of centred on its place, so it stays inside the plot.
EDGE_SHARE = 0.15


def _toward_the_middle(track: Track, xs: Sequence[float]) -> list[str]:
    """Text alignment of labels at ``xs``: left at the left edge, right at the right one.

    Examples
    --------
    >>> track = from_ascii(". . . . . . . . . .")
    >>> _toward_the_middle(track, [0.0, 4.0, 9.0])
    ['left', 'center', 'right']
    """
    every = [float(x) for _, x in track.graph.nodes(data="x")]
    if not every:
        return ["center"] * len(xs)
    low, high = min(every), max(every)
    margin = EDGE_SHARE * (high - low)
    return ["left" if x < low + margin else "right" if x > high - margin else "center" for x in xs]


def _outside(
    track: Track, members: Sequence[SpaceId], fallback: tuple[float, float]
) -> tuple[SpaceId, tuple[float, float]]:
    """The outermost space of a corner (``members``, its spaces) and the unit vector
    pointing out of its turn.

    In each lane, the middle space of the corner lies outside the chord from
    its first to its last space (the turn's centre is on the other side).
    """
    nodes = track.graph.nodes
    lanes: dict[int, list[SpaceId]] = {}
    for space in members:
        lanes.setdefault(nodes[space]["lane"], []).append(space)
    ux = uy = 0.0
    for row in lanes.values():
        row.sort(key=lambda s: nodes[s]["progress"])
        first, middle, last = nodes[row[0]], nodes[row[len(row) // 2]], nodes[row[-1]]
        ux += middle["x"] - 0.5 * (first["x"] + last["x"])
        uy += middle["y"] - 0.5 * (first["y"] + last["y"])
    spread = max(
        math.hypot(nodes[a]["x"] - nodes[b]["x"], nodes[a]["y"] - nodes[b]["y"])
        for a in members[:1]
        for b in members
    )
    norm = math.hypot(ux, uy)
    if norm < 0.05 * max(spread, 1e-9):  # a straight "corner": the side the plot tables chose
        ux, uy = fallback
        norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    outermost = max(members, key=lambda s: nodes[s]["x"] * ux + nodes[s]["y"] * uy)
    return outermost, (ux, uy)


@dataclass
class EditorSources:
    """The Bokeh data sources of one editor plot."""

    board: ColumnDataSource
    steps: ColumnDataSource
    notes: dict[str, ColumnDataSource]
    centreline: ColumnDataSource
    vertices: ColumnDataSource
    canvas: ColumnDataSource
    picture: ColumnDataSource
    verdict: ColumnDataSource
    #: What the picture gestures need: ``mode`` ("off", "move" or "scale") and the drag's start.
    picture_mode: ColumnDataSource
    #: Written by the browser: a click on the picture (``tap``) or where a drag left it (``moved``).
    picture_gesture: ColumnDataSource
    #: The ringed centreline point and the drag of one (:mod:`fdlab.editor.point_drag`).
    points: PointDragSources
    #: Drawing a new centreline a click a point (:mod:`fdlab.editor.line_draw`).
    draw: LineDrawSources

    @classmethod
    def of(cls, track: Track) -> EditorSources:
        """New sources showing ``track``.

        Examples
        --------
        >>> sources = EditorSources.of(from_ascii(". . ."))
        >>> sources.board.data["id"], len(sources.steps.data["from"])
        ([0, 1, 2], 2)
        """
        return cls(
            board=ColumnDataSource(board_data(track)),
            steps=ColumnDataSource(step_data(track)),
            notes={name: ColumnDataSource(t) for name, t in annotation_tables(track).items()},
            centreline=ColumnDataSource({"xs": [], "ys": []}),
            vertices=ColumnDataSource({"x": [], "y": []}),
            canvas=ColumnDataSource(drawing_area(track)),
            picture=ColumnDataSource({k: [] for k in PICTURE_COLUMNS}),
            verdict=ColumnDataSource(verdict_marks(track, [])),
            picture_mode=ColumnDataSource(
                {"mode": ["off"], "x0": [0.0], "y0": [0.0], "sx": [0.0], "sy": [0.0]}
            ),
            picture_gesture=ColumnDataSource({"kind": [], "x": [], "y": []}),
            points=PointDragSources.empty(),
            draw=LineDrawSources.empty(),
        )

    def refresh(
        self, track: Track, highlight: Sequence[SpaceId], arrows: str = "in corners"
    ) -> dict[SpaceId, int]:
        """Refill every layer from ``track``; returns space id -> row of the board source.

        Examples
        --------
        >>> track = from_ascii(". . .")
        >>> sources = EditorSources.of(track)
        >>> track.space(1)["hazard"] = "danger"
        >>> sources.refresh(track, highlight=[2])
        {0: 0, 1: 1, 2: 2}
        >>> sources.board.data["highlight"]
        [False, False, True]
        """
        board = board_data(track, highlight=highlight)
        refill(self.board, board)
        refill(self.steps, arrow_rows(track, step_data(track), arrows))
        for name, table in annotation_tables(track).items():
            refill(self.notes[name], table)
        refill(self.canvas, drawing_area(track))
        return {space: row for row, space in enumerate(board["id"])}


def verdict_marks(track: Track, worst: Sequence[tuple[Any, str]]) -> Columns:
    """Labels for the corners that bite most, just under each corner's flag.

    ``worst`` holds ``(corner id, text)`` pairs; a corner the board no longer
    has gets no label. A label runs toward the middle of the board from its
    flag (``align``): one at the board's edge would run off the plot.

    Examples
    --------
    >>> track = from_ascii(". 1 1 .", corners={1: 2})
    >>> marks = verdict_marks(track, [(1, "58% overshot"), (7, "gone")])
    >>> marks["text"], marks["align"]
    (['\u26a0 #1 58% overshot'], ['left'])
    """
    marks: Columns = {"x": [], "y": [], "ox": [], "oy": [], "text": [], "align": []}
    if not worst:
        return marks  # nothing to mark: no need to place the flags again (every edit asks)
    flags = annotation_tables(track)["flags"]
    screen = _Screen.of(track)
    anchors = screen.pixels(flags["x"], flags["y"])
    boxes = [
        LabelBox.of(ax + ox, ay + oy, text, align)
        for (ax, ay), ox, oy, text, align in zip(
            anchors, flags["ox"], flags["oy"], flags["text"], flags["align"], strict=True
        )
    ]
    row_of = {corner: row for row, corner in enumerate(flags["corner"])}
    middle = (min(flags["x"]) + max(flags["x"])) / 2 if flags["x"] else 0.0
    rows = [row_of[corner] for corner, _ in worst if corner in row_of]
    # the corner's number too: a mark that had to move away from its flag still says whose it is
    texts = [f"\u26a0 #{corner} {text}" for corner, text in worst if corner in row_of]
    aligns = ["right" if flags["x"][r] > middle else "left" for r in rows]
    # under its corner's flag, or the nearest place that covers no flag and no other mark
    offsets = spread_labels(
        [(anchors[r][0] + flags["ox"][r], anchors[r][1] + flags["oy"][r]) for r in rows],
        [(flags["ux"][r], flags["uy"][r]) for r in rows],
        texts,
        aligns,
        points=screen.spaces,
        placed=boxes,
        below=[LINE_PX + 1] * len(rows),
        frame=fitted_frame(screen.spaces),
    )
    for r, text, align, (ox, oy) in zip(rows, texts, aligns, offsets, strict=True):
        marks["x"].append(flags["x"][r])
        marks["y"].append(flags["y"][r])
        marks["ox"].append(flags["ox"][r] + ox)
        marks["oy"].append(flags["oy"][r] + oy)
        marks["text"].append(text)
        marks["align"].append(align)
    return marks


def arrow_rows(track: Track, steps: Columns, mode: str) -> Columns:
    """The rows of the step table the plot shows as arrows in ``mode`` (:data:`ARROW_MODES`).

    Examples
    --------
    >>> track = from_ascii(". 1 1 . . .", corners={1: 1})
    >>> [len(arrow_rows(track, step_data(track), m)["from"]) for m in ARROW_MODES]
    [3, 5, 0]
    """
    if mode not in ARROW_MODES:
        raise EditorError(f"arrows: {mode!r} is not one of {ARROW_MODES}")
    if mode == "all":
        return steps
    nodes = track.graph.nodes
    keep = [
        mode == "in corners"
        and (
            nodes[u]["corner"] is not None
            or nodes[v]["corner"] is not None
            or track.graph.edges[u, v]["kind"] not in ("ahead", "lane_change")
        )
        for u, v in zip(steps["from"], steps["to"], strict=True)
    ]
    return {
        name: [x for x, k in zip(values, keep, strict=True) if k] for name, values in steps.items()
    }


def drawing_area(track: Track) -> Columns:
    """Two invisible points spanning :data:`DRAWING_AREA` while ``track`` has no spaces.

    The plot's ranges follow its data; these points give a blank board an
    area in metres to draw a centreline in. A board with spaces needs none.

    Examples
    --------
    >>> from fdlab.track import Track, from_ascii
    >>> from fdlab.track.model import new_graph
    >>> drawing_area(Track(new_graph()))
    {'x': [0.0, 1000.0], 'y': [0.0, 600.0]}
    >>> drawing_area(from_ascii(". . ."))
    {'x': [], 'y': []}
    """
    if len(track):
        return {"x": [], "y": []}
    (x0, y0), (x1, y1) = DRAWING_AREA
    return {"x": [x0, x1], "y": [y0, y1]}


def editor_figure(sources: EditorSources, height: int | None = None) -> Any:
    """The editing plot: spaces (tap and box select, hover), arrows, marks, centreline tools.

    The plot fills its cell, width and height (``sizing_mode="stretch_both"``:
    the cell gives it the screen's height), and follows it when the cell is
    resized; with a ``height`` in pixels it is that tall and as wide as its
    cell (``"stretch_width"``). Its ranges follow the board (and the picture
    under it, if any) alone, so *Reset* zooms to the board, and a metre is as
    many pixels across as up whatever shape the cell has: Bokeh widens one
    range to the frame's shape (``match_aspect``) until the view is panned or
    zoomed, and after that :data:`_KEEP_ASPECT` does when the frame is resized.
    A legend says what the colours are and a scale bar gives metres. The
    gesture tools have no toolbar buttons: the editor's *Tool* buttons
    switch between them (see :data:`TOOLS`), so the active tool is always
    the one shown. A click or a drag puts the tooltip of the space under
    the pointer away until the pointer moves (:data:`_TOOLTIP_GIVES_WAY`).

    Examples
    --------
    >>> plot = editor_figure(EditorSources.of(from_ascii(". . .")))
    >>> plot.name, plot.select_one({"name": "spaces"}).glyph.__class__.__name__, plot.sizing_mode
    ('fdlab-board', 'Patches', 'stretch_both')
    >>> fixed = editor_figure(EditorSources.of(from_ascii(". . .")), 300)
    >>> fixed.height, fixed.sizing_mode
    (300, 'stretch_width')
    >>> sorted(t.name for t in plot.tools if not t.visible)
    ['tool-box', 'tool-pan', 'tool-tap']
    >>> plot.toolbar.logo is None
    True
    """
    size: dict[str, Any] = (
        {"sizing_mode": "stretch_both"}
        if height is None
        else {"height": height, "sizing_mode": "stretch_width"}
    )
    plot = figure(
        **size,
        match_aspect=True,
        tools="wheel_zoom,reset,save",
        active_scroll=None,  # the wheel scrolls the page until the wheel-zoom tool is picked
        toolbar_location="above",
        background_fill_color=colors.GRASS,
        name="fdlab-board",
        min_border=8,
        x_range=DataRange1d(range_padding=0.08),
        y_range=DataRange1d(range_padding=0.08),
    )
    plot.axis.visible = False
    plot.grid.visible = False
    plot.toolbar.logo = None  # the toolbar keeps its room for the tools
    picture = plot.image_url(
        url="url", x="x", y="y", w="w", h="h", anchor="bottom_left", global_alpha="alpha",
        angle="angle",
        source=sources.picture, name="picture",
    )  # fmt: skip
    spaces = plot.patches(
        "xs",
        "ys",
        source=sources.board,
        fill_color="fill_color",
        line_color="line_color",
        line_width="line_width",
        name="spaces",
    )
    spaces.selection_glyph = Patches(
        fill_color="fill_color", line_color=colors.HIGHLIGHT, line_width=3
    )
    spaces.nonselection_glyph = Patches(
        fill_color="fill_color",
        fill_alpha=0.6,
        line_color="line_color",
        line_width="line_width",
    )
    centres = plot.scatter("x", "y", source=sources.board, size=3, alpha=0.0)
    # Arrows as two glyphs, a segment and a triangle head: Bokeh's Arrow annotation
    # clips the whole canvas once per arrow, and 550 of them took about 70 ms of
    # every repaint (a click, an edit) where these take about 20.
    plot.segment(
        "x0", "y0", "x1", "y1", source=sources.steps, line_color="color", line_width=1.5,
        name="arrows",
    )  # fmt: skip
    plot.scatter(
        "x1", "y1", source=sources.steps, marker="triangle", size=6, angle="angle",
        fill_color="color", line_color="color", name="arrow_heads",
    )  # fmt: skip
    notes = sources.notes
    plot.multi_line(
        "xs", "ys", source=notes["corner_lines"], line_color=colors.KERB_RED, line_width=3
    )
    plot.multi_line("xs", "ys", source=notes["finish"], line_color="#ffffff", line_width=5)
    plot.multi_line("xs", "ys", source=notes["police"], line_color=colors.POLICE_BLUE, line_width=4)
    plot.text(
        "x", "y", text="text", source=notes["flags"], text_font_size="10px",
        x_offset="ox", y_offset="oy", text_align=field("align"), text_baseline="middle",
        background_fill_color=colors.FLAG_YELLOW, name="flags",
    )  # fmt: skip
    plot.text(
        "x", "y", text="text", source=sources.verdict, text_font_size="10px",
        x_offset="ox", y_offset="oy", text_align=field("align"), text_baseline="middle",
        text_color=colors.VERDICT_RED, text_font_style="bold",
        background_fill_color="#ffffff", background_fill_alpha=0.85, name="verdict-marks",
    )  # fmt: skip
    for name in LABEL_TABLES:
        plot.text(
            "x", "y", text="text", source=notes[name], text_font_size="10px",
            text_color=colors.LABEL_LIGHT, text_align="center", text_baseline="middle",
        )  # fmt: skip
    plot.multi_line(
        "xs",
        "ys",
        source=sources.centreline,
        line_color="#1b1d21",
        line_dash="dashed",
        line_width=2,
        name="centreline",
    )
    # drawing first: its press-up must see whether the press took a point to drag
    add_line_draw(plot, sources.centreline, sources.vertices, sources.points.drag, sources.draw)
    add_point_drag(plot, sources.centreline, sources.vertices, sources.points)
    canvas = plot.scatter("x", "y", source=sources.canvas, size=1, alpha=0.0, name="drawing-area")
    plot.x_range.renderers = plot.y_range.renderers = [spaces, canvas, picture]
    _picture_gestures(plot, sources)
    keep = CustomJS(args={"fig": plot}, code=_KEEP_ASPECT)
    plot.js_on_change("inner_width", keep)
    plot.js_on_change("inner_height", keep)
    plot.js_on_change("inner_width", CustomJS(args={"toolbar": plot.toolbar}, code=_TOOLBAR_REFITS))
    hover = HoverTool(
        renderers=[spaces],
        tooltips=[
            ("space", "@id"),
            ("lane", "@lane"),
            ("progress", "@progress{0.0}"),
            ("about", "@hover"),  # corner, stops, hazard, tunnel, grid, box, bridge
        ],
    )
    for gesture in (events.Tap, events.Press, events.PanStart):
        plot.js_on_event(gesture, CustomJS(args={"hover": hover}, code=_TOOLTIP_GIVES_WAY))
    tap = TapTool(renderers=[spaces], name="tool-tap", visible=False)
    box = BoxSelectTool(renderers=[centres], name="tool-box", visible=False)
    plot.add_tools(tap, box, hover, PanTool(name="tool-pan", visible=False))
    plot.toolbar.active_tap = tap
    plot.toolbar.active_drag = None
    _add_legend(plot)
    plot.add_layout(
        ScaleBar(range=plot.x_range, unit="m", location="bottom_right", bar_length=0.12,
                 background_fill_alpha=0.6, name="scale"),
    )  # fmt: skip
    return plot


def _picture_gestures(plot: Any, sources: EditorSources) -> None:
    """Clicks and drags on the picture, handled in the browser (no round trip while dragging)."""
    args = {
        "mode": sources.picture_mode,
        "gesture": sources.picture_gesture,
        "picture": sources.picture,
        "x_range": plot.x_range,
        "y_range": plot.y_range,
    }
    for event, code in (
        (events.Tap, _PICTURE_TAP),
        (events.PanStart, _PICTURE_PAN_START),
        (events.Pan, _PICTURE_PAN),
        (events.PanEnd, _PICTURE_PAN_END),
    ):
        plot.js_on_event(event, CustomJS(args=args, code=code))


def _add_legend(plot: Any) -> None:
    """A legend below the plot: the fill colours of spaces and the two lines."""
    items = []
    for label, color in LEGEND:
        # one point at NaN: drawn nowhere, but the legend has a glyph to show
        swatch = plot.scatter(
            x=[math.nan], y=[math.nan], marker="square", size=11, fill_color=color,
            line_color=colors.SPACE_LINE,
        )  # fmt: skip
        items.append(LegendItem(label=label, renderers=[swatch]))
    for label, color, width in (
        ("finish line", "#ffffff", 4),
        ("police line", colors.POLICE_BLUE, 3),
        ("corner line", colors.KERB_RED, 3),
    ):
        swatch = plot.line(x=[math.nan, math.nan], y=[math.nan, math.nan], line_color=color,
                           line_width=width)  # fmt: skip
        items.append(LegendItem(label=label, renderers=[swatch]))
    legend = Legend(
        items=items,
        orientation="horizontal",
        label_text_font_size="10px",
        glyph_width=14,
        spacing=6,
        padding=4,
        margin=2,
        background_fill_color=colors.GRASS,
        name="legend",
    )
    plot.add_layout(legend, "below")


def refill(source: ColumnDataSource, table: dict[str, list[Any]]) -> None:
    """Make ``source`` hold ``table``, sending only the changed cells when rows match.

    A one-space edit of a 500-space board then reaches the browser as a
    small patch instead of every polygon again.

    Examples
    --------
    >>> source = ColumnDataSource({"id": [1, 2], "kind": ["track", "track"]})
    >>> refill(source, {"id": [1, 2], "kind": ["track", "pit"]})
    >>> source.data["kind"]
    ['track', 'pit']
    """
    old = source.data
    same_shape = list(old) == list(table) and all(
        len(old[name]) == len(values) for name, values in table.items()
    )
    if not same_shape:
        source.data = table
        return
    patches = {}
    for name, values in table.items():
        current = old[name]
        changed = [
            (row, new)
            for row, (was, new) in enumerate(zip(current, values, strict=True))
            if was != new
        ]
        if changed:
            patches[name] = changed
    if patches:
        source.patch(patches)
