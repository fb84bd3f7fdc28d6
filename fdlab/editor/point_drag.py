"""Dragging one centreline point with the tool *Move points*, in the browser.

The points of the centreline show as dots while *Move points* is the tool.
Whichever dot is nearest the pointer, within :data:`SNAP_RADIUS_PX` on
screen, is ringed: that is the point a drag takes, and only that one, however
close together the points are (a centreline derived from a printed board has
points a few pixels apart). The drag runs in the browser, the line following
the pointer; the kernel learns of the moved point at the end of the drag,
through :attr:`PointDragSources.drag` (``moved``).

Bokeh's ``PolyEditTool`` did this before: it dragged every point whose hit
area the press fell in (nine at once on Monaco) and a press next to a shown
point started drawing new ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bokeh import events
from bokeh.models import ColumnDataSource, CustomJS

from fdlab.plot import colors

#: How near (screen pixels) the pointer must be to a centreline point to drag it.
SNAP_RADIUS_PX = 12

#: Columns of the drag's state: the point taken (``index``), where it was
#: (``x0``, ``y0``), where the drag began (``sx``, ``sy``); ``moved`` names
#: the point a finished drag left somewhere new. The source holds one row
#: (or none before the first drag); ``-1`` stands for no point.
DRAG_COLUMNS = ("index", "x0", "y0", "sx", "sy", "moved")

#: In the browser: the point of the (last) centreline nearest ``(x, y)`` within
#: ``radius`` screen pixels, or -1. Metres turn into pixels by the plot's scales.
_NEAREST = """
function nearest(line, x, y) {
  const n = line.xs.length;
  if (n === 0) return -1;
  const xs = line.xs[n - 1], ys = line.ys[n - 1];
  const kx = plot.inner_width / (plot.x_range.end - plot.x_range.start);
  const ky = plot.inner_height / (plot.y_range.end - plot.y_range.start);
  let best = -1, reach = radius * radius;
  for (let i = 0; i < xs.length; i++) {
    const dx = (xs[i] - x) * kx, dy = (ys[i] - y) * ky, d = dx * dx + dy * dy;
    if (d <= reach) { best = i; reach = d; }
  }
  return best;
}
function dragging() {
  return drag.data.index.length > 0 && drag.data.index[0] >= 0;
}
function ring(i, x, y) {
  cue.data = i < 0 ? {x: [], y: [], index: []} : {x: [x], y: [y], index: [i]};
}
"""
#: The pointer moves with no drag going on: ring the point a drag would take.
_HOVER = """
if (!points.visible) return;
if (dragging()) { follow(cb_obj.x, cb_obj.y); return; }
const i = nearest(line.data, cb_obj.x, cb_obj.y);
if (i === (cue.data.index.length > 0 ? cue.data.index[0] : -1)) return;
const last = line.data.xs.length - 1;
ring(i, i < 0 ? 0 : line.data.xs[last][i], i < 0 ? 0 : line.data.ys[last][i]);
"""
#: A drag begins where the button went down: take the nearest point, if any.
#: Bokeh calls it a pan when the pointer moves at once and a press when the
#: button is held still first (300 ms); either starts the drag.
_START = """
if (!points.visible || dragging()) return;
const i = nearest(line.data, cb_obj.x, cb_obj.y);
if (i < 0) return;
const last = line.data.xs.length - 1;
const x0 = line.data.xs[last][i], y0 = line.data.ys[last][i];
drag.data = {index: [i], x0: [x0], y0: [y0], sx: [cb_obj.x], sy: [cb_obj.y], moved: [-1]};
ring(i, x0, y0);
"""
#: The point (its dot, its ring and the line through it) follows the pointer.
_FOLLOW = """
function follow(px, py) {
  const d = drag.data;
  if (!dragging()) return;
  const i = d.index[0];
  const x = d.x0[0] + px - d.sx[0], y = d.y0[0] + py - d.sy[0];
  const last = line.data.xs.length - 1;
  if (line.data.xs[last][i] === x && line.data.ys[last][i] === y) return;
  const xs = [...line.data.xs[last]], ys = [...line.data.ys[last]];
  xs[i] = x;
  ys[i] = y;
  vertices.data = {x: xs, y: ys};
  ring(i, x, y);
  line.data = {xs: [...line.data.xs.slice(0, last), xs], ys: [...line.data.ys.slice(0, last), ys]};
}
"""
_MOVE = """
follow(cb_obj.x, cb_obj.y);
"""
#: The drag ends: tell the kernel which point moved (none if it stayed put).
_END = """
const d = drag.data;
if (!dragging()) return;
const i = d.index[0], last = line.data.xs.length - 1;
const moved = line.data.xs[last][i] !== d.x0[0] || line.data.ys[last][i] !== d.y0[0];
drag.data = {index: [-1], x0: [0], y0: [0], sx: [0], sy: [0], moved: [moved ? i : -1]};
"""


@dataclass
class PointDragSources:
    """The browser state of a point drag, shared with the kernel."""

    #: The ringed point (``index``) and where it is: what a drag would take (one row, or none).
    cue: ColumnDataSource
    #: The drag in progress (:data:`DRAG_COLUMNS`); ``moved`` after it ends.
    drag: ColumnDataSource

    @classmethod
    def empty(cls) -> PointDragSources:
        """Sources for a plot with no drag going on.

        Examples
        --------
        >>> PointDragSources.empty().drag.data["index"]
        []
        """
        return cls(
            cue=ColumnDataSource({"x": [], "y": [], "index": []}),
            drag=ColumnDataSource({name: [] for name in DRAG_COLUMNS}),
        )


def add_point_drag(
    plot: Any,
    line: ColumnDataSource,
    vertices: ColumnDataSource,
    sources: PointDragSources,
) -> tuple[Any, Any]:
    """Draw the centreline's points and let one at a time be dragged.

    ``line`` is the centreline's multi-line source (its last line is the
    one dragged) and ``vertices`` the points drawn as dots. Returns the
    renderers of the dots and of the ring round the point a drag takes,
    both hidden: the drag works while the dots are visible, so the editor
    shows both exactly while *Move points* is the tool.

    Examples
    --------
    >>> from bokeh.plotting import figure
    >>> plot = figure()
    >>> line = ColumnDataSource({"xs": [[0, 10]], "ys": [[0, 0]]})
    >>> shown = add_point_drag(plot, line, ColumnDataSource({"x": [], "y": []}),
    ...                        PointDragSources.empty())
    >>> [(renderer.name, renderer.visible) for renderer in shown]
    [('centreline-points', False), ('centreline-cue', False)]
    """
    ring = plot.scatter(
        "x", "y", source=sources.cue, size=2 * SNAP_RADIUS_PX, fill_color=colors.HIGHLIGHT,
        fill_alpha=0.3, line_color=colors.HIGHLIGHT, line_width=2, name="centreline-cue",
        visible=False,
    )  # fmt: skip
    points = plot.scatter(
        "x", "y", source=vertices, size=7, color="#1b1d21", name="centreline-points",
        visible=False,
    )  # fmt: skip
    args = {
        "plot": plot,
        "line": line,
        "vertices": vertices,
        "points": points,
        "cue": sources.cue,
        "drag": sources.drag,
        "radius": SNAP_RADIUS_PX,
    }
    for event, code in (
        (events.MouseMove, _HOVER),
        (events.PanStart, _START),
        (events.Pan, _MOVE),
        (events.PanEnd, _END),
        (events.Press, _START),
        (events.PressUp, _END),
    ):
        plot.js_on_event(event, CustomJS(args=args, code=_NEAREST + _FOLLOW + code))
    return points, ring
