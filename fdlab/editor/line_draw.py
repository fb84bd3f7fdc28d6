"""Drawing a centreline with the tool *Draw centreline*, in the browser: a click a point.

The first click after the tool is picked starts a new line (the old one
stays on screen until then); every click adds the next point in the
direction of travel. A dashed guide runs from the last point to the pointer
and back to the first, the leg that closes the lap. A click on the first
point (within :data:`~fdlab.editor.point_drag.SNAP_RADIUS_PX` on screen),
or picking another tool, finishes the line; the lap always closes from
the last point back to the first, so a finished line needs no last click
on the first point. A click held still is a click too (Bokeh calls it a
press), and a press on a point of the line drags that point
(:mod:`fdlab.editor.point_drag`).

Bokeh's ``PolyDrawTool`` did this before: it wanted the first and the last
point pressed and held, and two clicks within 300 ms added no point.

The kernel hears of every point (the line's source) and of a closed lap
through :attr:`LineDrawSources.state` (``closed``: the points it has).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bokeh import events
from bokeh.models import ColumnDataSource, CustomJS

from fdlab.editor.point_drag import SNAP_RADIUS_PX

__all__ = ["LineDrawSources", "add_line_draw"]

#: A click: start a line, add a point, or close the lap on the first point.
_CLICK = """
const s = state.data;
if (!s.on[0]) return;
if (drag.data.index.length > 0 && drag.data.index[0] >= 0) return;  // a point is being dragged
const last = line.data.xs.length - 1;
const fresh = s.fresh[0] || last < 0;
const xs = fresh ? [] : [...line.data.xs[last]], ys = fresh ? [] : [...line.data.ys[last]];
if (xs.length >= 3) {
  const kx = plot.inner_width / (plot.x_range.end - plot.x_range.start);
  const ky = plot.inner_height / (plot.y_range.end - plot.y_range.start);
  const dx = (xs[0] - cb_obj.x) * kx, dy = (ys[0] - cb_obj.y) * ky;
  if (dx * dx + dy * dy <= radius * radius) {  // on the first point: the lap is drawn
    state.data = {on: [1], fresh: [1], closed: [xs.length]};
    guide.data = {x: [], y: []};
    return;
  }
}
xs.push(cb_obj.x);
ys.push(cb_obj.y);
line.data = {xs: [xs], ys: [ys]};
vertices.data = {x: xs, y: ys};
if (fresh) state.data = {on: [1], fresh: [0], closed: [0]};
"""
#: The pointer moves: the guide from the last point to it and back to the first.
_GUIDE = """
const s = state.data;
if (!s.on[0] || s.fresh[0] || line.data.xs.length === 0) {
  if (guide.data.x.length > 0) guide.data = {x: [], y: []};
  return;
}
const xs = line.data.xs[line.data.xs.length - 1], ys = line.data.ys[line.data.ys.length - 1];
if (xs.length === 0) return;
guide.data = {x: [xs[xs.length - 1], cb_obj.x, xs[0]], y: [ys[ys.length - 1], cb_obj.y, ys[0]]};
"""


@dataclass
class LineDrawSources:
    """The browser state of drawing a centreline, shared with the kernel."""

    #: One row: ``on`` (the tool is picked), ``fresh`` (the next click starts a new
    #: line), ``closed`` (the points of a lap just closed on its first point, else 0).
    state: ColumnDataSource
    #: The dashed guide from the last point to the pointer and back to the first.
    guide: ColumnDataSource

    @classmethod
    def empty(cls) -> LineDrawSources:
        """Sources for a plot where no line is being drawn.

        Examples
        --------
        >>> LineDrawSources.empty().state.data
        {'on': [0], 'fresh': [1], 'closed': [0]}
        """
        return cls(
            state=ColumnDataSource({"on": [0], "fresh": [1], "closed": [0]}),
            guide=ColumnDataSource({"x": [], "y": []}),
        )


def add_line_draw(
    plot: Any,
    line: ColumnDataSource,
    vertices: ColumnDataSource,
    drag: ColumnDataSource,
    sources: LineDrawSources,
) -> Any:
    """Let clicks draw the centreline while ``sources.state`` says the tool is on.

    ``line`` is the centreline's multi-line source, ``vertices`` its points
    drawn as dots and ``drag`` the state of a point drag
    (:class:`~fdlab.editor.point_drag.PointDragSources`): a press that takes
    a point drags it and adds none. Returns the guide's renderer.

    Examples
    --------
    >>> from bokeh.plotting import figure
    >>> plot = figure()
    >>> empty = ColumnDataSource
    >>> guide = add_line_draw(plot, empty({"xs": [], "ys": []}), empty({"x": [], "y": []}),
    ...                       empty({"index": []}), LineDrawSources.empty())
    >>> guide.name
    'centreline-guide'
    """
    guide = plot.line(
        "x", "y", source=sources.guide, line_color="#1b1d21", line_dash="dotted",
        line_width=1.5, line_alpha=0.7, name="centreline-guide",
    )  # fmt: skip
    args = {
        "plot": plot,
        "line": line,
        "vertices": vertices,
        "drag": drag,
        "state": sources.state,
        "guide": sources.guide,
        "radius": SNAP_RADIUS_PX,
    }
    # before the point drag's handlers: a press-up must see whether a point was taken
    plot.js_on_event(events.Tap, CustomJS(args=args, code=_CLICK))
    plot.js_on_event(events.PressUp, CustomJS(args=args, code=_CLICK))
    plot.js_on_event(events.MouseMove, CustomJS(args=args, code=_GUIDE))
    return guide
