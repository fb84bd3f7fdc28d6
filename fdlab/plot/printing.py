"""Print and play: a board at real size as a PDF, tiled over pages or on one poster sheet.

:func:`print_board` draws the board with every space ``space_mm``
millimetres long (by default the size of a published Formula D board's
space, so the game's cars fit), cut into pages of A4, A3 or US letter that
overlap by a glue margin. Each page carries its coordinate (``A1``, ``A2``...
rows from the top, columns from the left), the names of its neighbours, a
dashed cut line where it goes under its neighbour, alignment crosses that
fall on the same spot of the board on both pages, and a scale bar to check
that the printer did not shrink it. The first page is an overview of the
whole board with the page grid over it. ``poster=True`` puts the whole board
on one sheet of its own size instead, for a print shop.

Colours are light and print-friendly (white paper, pale spaces, dark lines);
``grey=True`` turns every colour into its grey, for black-and-white printers.
The PDF is written with ReportLab.
"""

from __future__ import annotations

import os
from io import BytesIO
from typing import Any

from fdlab.files import atomic_write
from fdlab.plot.data import annotation_data, board_data
from fdlab.plot.pages import (
    BOARD_PAD_MM,
    PRINTER_MARGIN_MM,
    PUBLISHED_SPACE_MM,
    PrintLayout,
    board_bounds,
    grid_extent,
    own_area,
    page_label,
    plan_pages,
    tile_area,
)
from fdlab.track.model import Track

__all__ = ["print_board"]

# print-friendly colours: pale fills on white paper, dark lines
_INK = "#1b1d21"
_FILLS = {
    "track": "#ececec",
    "corner": "#f7d9d4",
    "pit": "#d5e3f3",
    "box": "#bcd3ee",
    "shooting": "#f8c89a",
    "danger": "#8c8f94",
}
_KERB_RED = "#d62828"
_FLAG_YELLOW = "#ffd21f"
_LONG_GREEN = "#1b9e3e"
_POLICE_BLUE = "#1f5fbf"
_TUNNEL_PURPLE = "#7b2cbf"
_DANGER_LINE = "#e0a800"


def print_board(
    track: Track,
    path: str | os.PathLike[str],
    *,
    paper: str = "A4",
    space_mm: float = PUBLISHED_SPACE_MM,
    grey: bool = False,
    poster: bool = False,
    compress: bool = True,
) -> PrintLayout:
    """Write a board at real size as a PDF to print and play on.

    Parameters
    ----------
    track : Track
    path : str or path
        The PDF to write (atomically).
    paper : {"A4", "A3", "letter"}
        Sheet size of the tiles.
    space_mm : float
        Length of a space on paper in millimetres; default
        :data:`PUBLISHED_SPACE_MM`, the size of a published board's space.
    grey : bool
        Greys instead of colours, for black-and-white printers.
    poster : bool
        The whole board on one sheet of its own size.
    compress : bool
        Compress the page contents (off only to read the PDF as text).

    Returns
    -------
    PrintLayout
        Pages, their grid and the scale.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fdlab.track import load_track
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "training.pdf"
    >>> layout = print_board(load_track("tracks/training.json"), out, paper="A4")
    >>> out.read_bytes()[:5], layout.pages == len(layout.printed) + 1
    (b'%PDF-', True)
    """
    from reportlab.pdfgen.canvas import Canvas

    layout = plan_pages(track, paper=paper, space_mm=space_mm, poster=poster)
    buffer = BytesIO()
    canvas = Canvas(buffer, pageCompression=1 if compress else 0, invariant=1)
    canvas.setTitle(f"{track.name}: print and play board")
    canvas.setAuthor("fdlab")
    drawing = _BoardDrawing(track, layout, grey, space_mm)
    if poster:
        drawing.poster(canvas)
    else:
        drawing.overview(canvas)
        for index, label in enumerate(layout.labels):
            if label not in layout.blank:
                drawing.tile(canvas, index // layout.columns, index % layout.columns, label)
    canvas.save()
    atomic_write(path, buffer.getvalue())
    return layout


def _grey(color: str) -> str:
    """The grey of a ``#rrggbb`` colour (its luminance).

    Examples
    --------
    >>> _grey("#ff0000"), _grey("#ffffff")
    ('#4c4c4c', '#ffffff')
    """
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    level = round(0.299 * r + 0.587 * g + 0.114 * b)
    return f"#{level:02x}{level:02x}{level:02x}"


class _BoardDrawing:
    """Draws the board in millimetres of the board (origin bottom left, y up)."""

    def __init__(self, track: Track, layout: PrintLayout, grey: bool, space_mm: float) -> None:
        self.track = track
        self.layout = layout
        self.grey = grey
        self.unit = space_mm / PUBLISHED_SPACE_MM  # 1 at the published size
        minx, miny, _, _ = board_bounds(track)
        pad = BOARD_PAD_MM * self.unit
        self.origin = (minx, miny, pad)
        self.data = board_data(track)
        self.notes = annotation_data(track)
        self.rows = self._space_rows()

    # -- coordinates and colours ----------------------------------------------------
    def mm(self, x: float, y: float) -> tuple[float, float]:
        minx, miny, pad = self.origin
        return ((x - minx) * self.layout.scale + pad, (y - miny) * self.layout.scale + pad)

    def color(self, value: str) -> Any:
        from reportlab.lib.colors import HexColor

        return HexColor(_grey(value) if self.grey else value)

    def _space_rows(self) -> list[dict[str, Any]]:
        rows = []
        data = self.data
        for i, space in enumerate(data["id"]):
            points = [self.mm(x, y) for x, y in zip(data["xs"][i], data["ys"][i], strict=True)]
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            kind = data["kind"][i]
            hazard = data["hazard"][i]
            if hazard in ("shooting", "danger"):
                fill = _FILLS[hazard]
            elif kind in ("pit", "box"):
                fill = _FILLS[kind]
            elif data["corner"][i] is not None:
                fill = _FILLS["corner"]
            else:
                fill = _FILLS["track"]
            rows.append(
                {
                    "id": space,
                    "points": points,
                    "box": (min(xs), min(ys), max(xs), max(ys)),
                    "fill": fill,
                    "line": _DANGER_LINE if hazard == "danger" else _INK,
                    "level": data["level"][i],
                    "kind": kind,
                    "lane": data["lane"][i],
                    "progress": data["progress"][i],
                    "grid": data["grid"][i],
                    "centre": self.mm(data["x"][i], data["y"][i]),
                }
            )
        return rows

    # -- pages ----------------------------------------------------------------------
    def overview(self, canvas: Any) -> None:
        """The first page: the whole board small, the page grid and coordinates over it."""
        from reportlab.lib.units import mm

        layout = self.layout
        page_w, page_h = layout.page_mm
        canvas.setPageSize((page_w * mm, page_h * mm))
        inner_w, inner_h = layout.printable_mm()
        top_band = 22.0
        gx0, gy0, gx1, gy1 = grid_extent(layout)
        x_low, y_low = min(0.0, gx0), min(0.0, gy0)
        x_high, y_high = max(layout.board_mm[0], gx1), max(layout.board_mm[1], gy1)
        span_w, span_h = x_high - x_low, y_high - y_low
        fit = min(inner_w / span_w, (inner_h - top_band) / span_h)
        left = PRINTER_MARGIN_MM + (inner_w - span_w * fit) / 2 - x_low * fit
        bottom = PRINTER_MARGIN_MM + (inner_h - top_band - span_h * fit) / 2 - y_low * fit
        canvas.saveState()
        canvas.scale(mm, mm)
        self.heading(canvas, PRINTER_MARGIN_MM, page_h - PRINTER_MARGIN_MM - 6, overview=True)
        canvas.saveState()
        canvas.translate(left, bottom)
        canvas.scale(fit, fit)
        self.board(canvas, (x_low, y_low, x_high, y_high), fine=False)
        # the page grid: each page's own area (its glue strips lie under its neighbours)
        canvas.setStrokeColor(self.color("#1f5fbf"))
        canvas.setLineWidth(0.6 / fit)
        for index, label in enumerate(layout.labels):
            x0, y0, x1, y1 = own_area(layout, *divmod(index, layout.columns))
            canvas.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
            middle_x, middle_y = (x0 + x1) / 2, (y0 + y1) / 2
            if label in layout.blank:
                canvas.setFillColor(self.color("#9aa5b5"))
                canvas.setFont("Helvetica", 5 / fit)
                canvas.drawCentredString(middle_x, middle_y + 1 / fit, label)
                canvas.setFont("Helvetica", 3.2 / fit)
                canvas.drawCentredString(middle_x, middle_y - 3.5 / fit, "blank, not printed")
            else:
                canvas.setFillColor(self.color("#1f5fbf"))
                canvas.setFont("Helvetica-Bold", 7 / fit)
                canvas.drawCentredString(middle_x, middle_y - 2.5 / fit, label)
        canvas.restoreState()
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica", 3.2)
        canvas.drawString(
            PRINTER_MARGIN_MM,
            PRINTER_MARGIN_MM - 4,
            f"{layout.rows} rows x {layout.columns} columns of {layout.paper} pages, "
            f"overlapping {layout.overlap_mm:g} mm: cut each page along its dashed line and "
            "glue it over its neighbour so the crosses meet.",
        )
        canvas.restoreState()
        canvas.showPage()

    def tile_area(self, row: int, column: int) -> tuple[float, float, float, float]:
        return tile_area(self.layout, row, column)

    def printed(self, row: int, column: int) -> bool:
        """Whether the page at that place of the grid exists and is printed."""
        layout = self.layout
        if not (0 <= row < layout.rows and 0 <= column < layout.columns):
            return False
        return page_label(row, column) not in layout.blank

    def tile(self, canvas: Any, row: int, column: int, label: str) -> None:
        from reportlab.lib.units import mm

        layout = self.layout
        page_w, page_h = layout.page_mm
        inner_w, inner_h = layout.printable_mm()
        overlap = layout.overlap_mm
        canvas.setPageSize((page_w * mm, page_h * mm))
        canvas.saveState()
        canvas.scale(mm, mm)
        x0, y0, x1, y1 = self.tile_area(row, column)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(PRINTER_MARGIN_MM, PRINTER_MARGIN_MM, inner_w, inner_h)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(PRINTER_MARGIN_MM - x0, PRINTER_MARGIN_MM - y0)
        self.board(canvas, (x0, y0, x1, y1), fine=True)
        canvas.restoreState()
        left, bottom = PRINTER_MARGIN_MM, PRINTER_MARGIN_MM
        right, top = left + inner_w, bottom + inner_h
        # the glue strips: under the page to the right and the page below
        canvas.setFillColor(self.color("#7a8088"))
        canvas.setStrokeColor(self.color(_INK))
        if self.printed(row, column + 1):
            self.glue_strip(canvas, right - overlap, bottom, overlap, inner_h, vertical=True)
        if self.printed(row + 1, column):
            self.glue_strip(canvas, left, bottom, inner_w, overlap, vertical=False)
        # cut lines: this page's edges that go over its left and upper neighbours
        canvas.setDash(2.5, 1.5)
        canvas.setLineWidth(0.3)
        if self.printed(row, column - 1):
            canvas.line(left + overlap, bottom, left + overlap, top)
            self.note(canvas, left + overlap + 1.2, bottom + 2, "cut", angle=90)
        if self.printed(row - 1, column):
            canvas.line(left, top - overlap, right, top - overlap)
            self.note(canvas, right - 8, top - overlap + 1.2, "cut")
        canvas.setDash()
        self.alignment_crosses(canvas, row, column)
        self.page_labels(canvas, row, column, label)
        canvas.restoreState()
        canvas.showPage()

    def poster(self, canvas: Any) -> None:
        from reportlab.lib.units import mm

        layout = self.layout
        page_w, page_h = layout.page_mm
        canvas.setPageSize((page_w * mm, page_h * mm))
        canvas.saveState()
        canvas.scale(mm, mm)
        canvas.translate(PRINTER_MARGIN_MM, PRINTER_MARGIN_MM)
        self.board(canvas, (0, 0, *layout.board_mm), fine=True)
        canvas.restoreState()
        canvas.saveState()
        canvas.scale(mm, mm)
        self.heading(canvas, PRINTER_MARGIN_MM + 2, page_h - PRINTER_MARGIN_MM - 6)
        self.scale_bar(canvas, PRINTER_MARGIN_MM + 2, PRINTER_MARGIN_MM + 2)
        canvas.restoreState()
        canvas.showPage()

    # -- page furniture -------------------------------------------------------------
    def heading(self, canvas: Any, x: float, y: float, overview: bool = False) -> None:
        track, layout = self.track, self.layout
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica-Bold", 6)
        canvas.drawString(x, y, track.name)
        canvas.setFont("Helvetica", 3.2)
        stops = " ".join(str(track.corners[c]["stops"]) for c in sorted(track.corners, key=str))
        size = self.unit * PUBLISHED_SPACE_MM
        facts = (
            f"{len(track)} spaces, {len(track.corners)} corners (stops {stops}), "
            f"{track.laps} lap{'s' if track.laps != 1 else ''}; one space is {size:g} mm long; "
            f"board {layout.board_mm[0] / 10:.0f} x {layout.board_mm[1] / 10:.0f} cm"
        )
        canvas.drawString(x, y - 5, facts)
        if overview:
            canvas.drawString(
                x,
                y - 9.5,
                f"{len(layout.printed)} pages follow this overview "
                f"({len(layout.blank)} of the grid are blank and not printed).",
            )

    def page_labels(self, canvas: Any, row: int, column: int, label: str) -> None:
        layout = self.layout
        page_w, page_h = layout.page_mm
        inner_w, inner_h = layout.printable_mm()
        left, bottom = PRINTER_MARGIN_MM, PRINTER_MARGIN_MM
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawString(
            left + layout.overlap_mm + 2, bottom + inner_h - layout.overlap_mm - 9, label
        )
        canvas.setFont("Helvetica", 3)
        canvas.drawString(
            left,
            bottom - 4,
            f"{self.track.name}: page {label} ({layout.rows} rows A-{page_label(layout.rows - 1, 0)[:-1]}, "
            f"{layout.columns} columns)",
        )
        neighbours = {
            "left": (row, column - 1),
            "right": (row, column + 1),
            "up": (row - 1, column),
            "down": (row + 1, column),
        }
        middle_x, middle_y = left + inner_w / 2, bottom + inner_h / 2
        places = {
            "left": (left + 1, middle_y, 90),
            "right": (left + inner_w - 1, middle_y, -90),
            "up": (middle_x, bottom + inner_h - 3.5, 0),
            "down": (middle_x, bottom + 1.5, 0),
        }
        canvas.setFont("Helvetica-Bold", 3.5)
        for side, (r, c) in neighbours.items():
            if self.printed(r, c):
                x, y, angle = places[side]
                canvas.saveState()
                canvas.translate(x, y)
                canvas.rotate(angle)
                canvas.drawCentredString(0, 0, f"{page_label(r, c)} joins here")
                canvas.restoreState()
        self.scale_bar(canvas, left + inner_w - 55, bottom - 4.5)

    def scale_bar(self, canvas: Any, x: float, y: float) -> None:
        """A 50 mm bar: measure it to check the printer printed at 100 %."""
        canvas.setStrokeColor(self.color(_INK))
        canvas.setLineWidth(0.3)
        canvas.line(x, y + 1, x + 50, y + 1)
        for tick in range(0, 51, 10):
            canvas.line(x + tick, y, x + tick, y + 2)
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica", 2.6)
        canvas.drawString(x + 51.5, y + 0.3, "50 mm")

    def glue_strip(
        self, canvas: Any, x: float, y: float, w: float, h: float, vertical: bool
    ) -> None:
        canvas.saveState()
        canvas.setFillAlpha(0.10)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.restoreState()
        canvas.saveState()
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica", 2.6)
        if vertical:
            canvas.translate(x + 3, y + h / 2)
            canvas.rotate(90)
        else:
            canvas.translate(x + w / 2, y + h / 2 - 1)
        canvas.drawCentredString(0, 0, "glue: the next page covers this strip")
        canvas.restoreState()

    def alignment_crosses(self, canvas: Any, row: int, column: int) -> None:
        """Crosses in the middle of each overlap, at the same board spot on both pages."""
        layout = self.layout
        x0, y0, x1, y1 = self.tile_area(row, column)
        half = layout.overlap_mm / 2
        spots = []
        if self.printed(row, column + 1):
            spots += [(x1 - half, y0 + 0.25 * (y1 - y0)), (x1 - half, y0 + 0.75 * (y1 - y0))]
        if self.printed(row, column - 1):
            spots += [(x0 + half, y0 + 0.25 * (y1 - y0)), (x0 + half, y0 + 0.75 * (y1 - y0))]
        if self.printed(row + 1, column):
            spots += [(x0 + 0.25 * (x1 - x0), y0 + half), (x0 + 0.75 * (x1 - x0), y0 + half)]
        if self.printed(row - 1, column):
            spots += [(x0 + 0.25 * (x1 - x0), y1 - half), (x0 + 0.75 * (x1 - x0), y1 - half)]
        canvas.setStrokeColor(self.color(_INK))
        canvas.setLineWidth(0.25)
        for bx, by in spots:
            px, py = bx - x0 + PRINTER_MARGIN_MM, by - y0 + PRINTER_MARGIN_MM
            canvas.line(px - 4, py, px + 4, py)
            canvas.line(px, py - 4, px, py + 4)
            canvas.circle(px, py, 2, stroke=1, fill=0)

    def note(self, canvas: Any, x: float, y: float, text: str, angle: float = 0) -> None:
        canvas.saveState()
        canvas.setFillColor(self.color(_INK))
        canvas.setFont("Helvetica-Oblique", 2.8)
        canvas.translate(x, y)
        canvas.rotate(angle)
        canvas.drawString(0, 0, text)
        canvas.restoreState()

    # -- the board itself -----------------------------------------------------------
    def board(self, canvas: Any, area: tuple[float, float, float, float], fine: bool) -> None:
        """Everything on the board that can show inside ``area`` (board mm)."""
        x0, y0, x1, y1 = area
        margin = 20 * self.unit
        visible = [
            row
            for row in self.rows
            if row["box"][2] >= x0 - margin
            and row["box"][0] <= x1 + margin
            and row["box"][3] >= y0 - margin
            and row["box"][1] <= y1 + margin
        ]
        u = self.unit
        canvas.setLineJoin(1)
        for row in visible:
            if row["level"]:
                canvas.saveState()
                canvas.setFillColor(self.color("#000000"))
                canvas.setFillAlpha(0.3)
                self.polygon(canvas, [(x + 1, y - 1) for x, y in row["points"]], fill=True)
                canvas.restoreState()
            canvas.setFillColor(self.color(row["fill"]))
            canvas.setStrokeColor(self.color(row["line"]))
            canvas.setLineWidth((0.5 if row["line"] != _INK else 0.3) * u)
            self.polygon(canvas, row["points"], fill=True, stroke=True)
        notes = self.notes
        self.segments(canvas, notes["corner_lines"], _KERB_RED, 1.1 * u)
        self.segments(canvas, notes["finish"], "#ffffff", 2.4 * u)
        self.segments(canvas, notes["finish"], "#000000", 2.4 * u, dash=(1.2 * u, 1.2 * u))
        self.segments(canvas, notes["police"], "#ffffff", 1.8 * u)
        self.segments(canvas, notes["police"], _POLICE_BLUE, 1.8 * u, dash=(3 * u, 1.5 * u))
        self.labels(canvas, notes["grid"], "#1b1d21", "Helvetica-Bold", 0.5)
        self.labels(canvas, notes["boxes"], "#1f3f7a", "Helvetica-Bold", 0.45, prefix="P")
        self.tunnels(canvas, notes["tunnels"])
        if fine:
            self.lane_numbers(canvas, visible)
        self.flags(canvas, notes["flags"])

    def polygon(
        self,
        canvas: Any,
        points: list[tuple[float, float]],
        fill: bool = False,
        stroke: bool = False,
    ) -> None:
        path = canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)

    def segments(
        self,
        canvas: Any,
        table: dict[str, list[Any]],
        color: str,
        width: float,
        dash: tuple[float, float] | None = None,
    ) -> None:
        canvas.saveState()
        canvas.setStrokeColor(self.color(color))
        canvas.setLineWidth(width)
        canvas.setLineCap(0)
        if dash:
            canvas.setDash(*dash)
        for xs, ys in zip(table["xs"], table["ys"], strict=True):
            (ax, ay), (bx, by) = self.mm(xs[0], ys[0]), self.mm(xs[1], ys[1])
            canvas.line(ax, ay, bx, by)
        canvas.restoreState()

    def labels(
        self,
        canvas: Any,
        table: dict[str, list[Any]],
        color: str,
        font: str,
        share: float,
        prefix: str = "",
    ) -> None:
        canvas.setFillColor(self.color(color))
        for x, y, text, room in zip(
            table["x"], table["y"], table["text"], table["room"], strict=True
        ):
            px, py = self.mm(x, y)
            size = min(share * room * self.layout.scale, 9 * self.unit)
            canvas.setFont(font, size)
            canvas.drawCentredString(px, py - 0.35 * size, f"{prefix}{text}")

    def tunnels(self, canvas: Any, table: dict[str, list[Any]]) -> None:
        for x, y, text, room in zip(
            table["x"], table["y"], table["text"], table["room"], strict=True
        ):
            px, py = self.mm(x, y)
            radius = 0.35 * room * self.layout.scale
            canvas.setStrokeColor(self.color(_TUNNEL_PURPLE))
            canvas.setFillColor(self.color("#efe4fb"))
            canvas.setLineWidth(0.8 * self.unit)
            canvas.circle(px, py, radius, stroke=1, fill=1)
            canvas.setFillColor(self.color(_TUNNEL_PURPLE))
            canvas.setFont("Helvetica-Bold", 0.8 * radius)
            canvas.drawCentredString(px, py - 0.28 * radius, f"T{text}")

    def lane_numbers(self, canvas: Any, rows: list[dict[str, Any]]) -> None:
        """Small lane numbers (1 = leftmost) on every tenth row of the track, and on the grid."""
        canvas.setFillColor(self.color("#5b5f66"))
        size = 2.6 * self.unit
        canvas.setFont("Helvetica", size)
        for row in rows:
            if row["kind"] != "track" or row["lane"] is None or row["grid"] is not None:
                continue
            progress = row["progress"]
            if abs(progress / 10 - round(progress / 10)) * 10 > 0.5:
                continue
            cx, cy = row["centre"]
            canvas.drawCentredString(cx, cy + 1.2 * size, f"lane {row['lane'] + 1}")

    def flags(self, canvas: Any, flags: dict[str, list[Any]]) -> None:
        """Yellow stop flags with the green long and red short counts under them."""
        u = 1.3 * self.unit
        for i, stops in enumerate(flags["stops"]):
            fx, fy = self.mm(flags["x"][i], flags["y"][i])
            px, py = self.mm(flags["px"][i], flags["py"][i])
            canvas.setStrokeColor(self.color(_INK))
            canvas.setLineWidth(0.3 * u)
            canvas.line(px, py, fx, fy)
            canvas.setFillColor(self.color(_FLAG_YELLOW))
            canvas.rect(fx - 5 * u, fy, 10 * u, 8 * u, stroke=1, fill=1)
            canvas.setFillColor(self.color(_INK))
            canvas.setFont("Helvetica-Bold", 6.5 * u)
            canvas.drawCentredString(fx, fy + 1.8 * u, str(stops))
            for side, value, color in (
                (-1, flags["long"][i], _LONG_GREEN),
                (1, flags["short"][i], _KERB_RED),
            ):
                cx = fx + side * 3.2 * u
                canvas.setFillColor(self.color(color))
                canvas.rect(cx - 3 * u, fy - 5.5 * u, 6 * u, 5 * u, stroke=1, fill=1)
                canvas.setFillColor(self.color("#ffffff"))
                canvas.setFont("Helvetica-Bold", 3.6 * u)
                canvas.drawCentredString(cx, fy - 4.3 * u, str(value))
            canvas.setFillColor(self.color(_INK))
            canvas.setFont("Helvetica", 2.6 * u)
            canvas.drawCentredString(fx, fy + 9 * u, str(flags["name"][i]))
