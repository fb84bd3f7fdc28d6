"""Small bar charts as SVG text: the pictures of a report that stays light to save.

A notebook that embeds interactive plots grows by megabytes; a report's
findings need a glance, not a tool: :func:`bar_chart_svg` draws one
horizontal bar per label (a value, optionally its interval and a mark such as
a fair share) in a few kilobytes of SVG that any browser shows and any
notebook keeps.

Examples
--------
>>> svg = bar_chart_svg(["pole", "2nd"], [0.46, 0.2], fmt="{:.0%}", mark=1 / 6, mark_label="fair")
>>> svg.startswith("<svg"), svg.count('class="bar"'), len(svg) < 3000
(True, 2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from fdlab.plot.errors import PlotError

__all__ = ["bar_chart_svg"]

#: Bar colour, and the colour of bars picked out (Okabe-Ito blue and vermillion).
BAR = "#0072b2"
PICKED = "#d55e00"


def bar_chart_svg(  # noqa: PLR0913 (a chart's options are keywords)
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str = "",
    fmt: str = "{:.1f}",
    intervals: Sequence[tuple[float, float]] | None = None,
    mark: float | None = None,
    mark_label: str = "",
    picked: Sequence[bool] | None = None,
    width: int = 420,
) -> str:
    """Horizontal bars, one per label, with their values written beside them.

    Parameters
    ----------
    labels, values : sequences of the same length
    title : str
    fmt : str
        Format of the values written at the end of the bars.
    intervals : sequence of (low, high), optional
        Drawn as a thin line across each bar (a 95% interval).
    mark : float, optional
        A value marked by a dashed line across the chart (a fair share, a target).
    mark_label : str
        What the dashed line is.
    picked : sequence of bool, optional
        Bars drawn in the second colour (the ones the text talks about).
    width : int
        Width in pixels; the height follows the number of bars.

    Returns
    -------
    str
        An ``<svg>`` element.

    Examples
    --------
    >>> svg = bar_chart_svg(["Corner 1", "Corner 2"], [3.0, 1.0], title="SP lost", picked=[True, False])
    >>> svg.count(PICKED), "SP lost" in svg
    (1, True)
    """
    if len(labels) != len(values):
        raise PlotError(f"{len(labels)} labels for {len(values)} values")
    bar_h, gap, top = 16, 5, 22 if title else 6
    label_w = min(150, 12 + 7 * max((len(str(label)) for label in labels), default=4))
    plot_w = width - label_w - 60
    highest = max([*values, *(high for _, high in intervals or ()), mark or 0.0, 1e-12])
    scale = plot_w / highest
    height = top + len(labels) * (bar_h + gap) + (14 if mark is not None else 4)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'
    ]
    if title:
        parts.append(f'<text x="2" y="14" font-weight="bold">{escape(title)}</text>')
    for k, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = top + k * (bar_h + gap)
        colour = PICKED if picked is not None and picked[k] else BAR
        length = max(0.0, value) * scale
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 12}" text-anchor="end">{escape(str(label))}</text>'
            f'<rect class="bar" x="{label_w}" y="{y}" width="{length:.1f}" height="{bar_h}" '
            f'fill="{colour}"><title>{escape(str(label))}: {escape(fmt.format(value))}</title></rect>'
        )
        end = length
        if intervals is not None:
            low, high = intervals[k]
            parts.append(
                f'<line x1="{label_w + low * scale:.1f}" x2="{label_w + high * scale:.1f}" '
                f'y1="{y + bar_h / 2}" y2="{y + bar_h / 2}" stroke="#222" stroke-width="1.5"/>'
            )
            end = max(end, high * scale)
        parts.append(
            f'<text x="{label_w + end + 4:.1f}" y="{y + 12}">{escape(fmt.format(value))}</text>'
        )
    if mark is not None:
        x = label_w + mark * scale
        bottom = top + len(labels) * (bar_h + gap)
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top - 2}" y2="{bottom}" stroke="#444" '
            f'stroke-dasharray="4 3"/><text x="{x:.1f}" y="{bottom + 11}" text-anchor="middle" '
            f'fill="#444">{escape(mark_label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
