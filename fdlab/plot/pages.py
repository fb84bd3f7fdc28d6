"""Laying a board out on paper at real size: the scale, the page grid and its coordinates.

:func:`plan_pages` works out, without drawing anything, how big a board is
on paper with every space ``space_mm`` long, and how it is cut into pages
that overlap by a glue strip: a grid of rows (A, B... from the top) and
columns (1, 2... from the left), centred on the board. Pages with nothing of
the board in their own area (the part no neighbour covers) are left out.
:mod:`fdlab.plot.printing` draws the pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from fdlab.plot.data import annotation_data, board_data
from fdlab.plot.errors import PrintError
from fdlab.plot.geometry import space_size
from fdlab.track.model import Track

__all__ = [
    "BOARD_PAD_MM",
    "OVERLAP_MM",
    "PAPER_MM",
    "PRINTER_MARGIN_MM",
    "PUBLISHED_SPACE_MM",
    "PrintLayout",
    "board_bounds",
    "grid_extent",
    "own_area",
    "page_label",
    "plan_pages",
    "tile_area",
]

#: Paper sizes (width, height) in millimetres, portrait.
PAPER_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "letter": (215.9, 279.4),
}

#: Length of a space on a published Formula D board (about 40-45 mm long and
#: 25 mm wide): the game's cars fit a board printed at this size.
PUBLISHED_SPACE_MM = 42.0

#: White border a printer cannot print on, millimetres.
PRINTER_MARGIN_MM = 8.0
#: How much neighbouring pages overlap, to glue them, millimetres.
OVERLAP_MM = 12.0
#: Room around the board for flags and labels, millimetres.
BOARD_PAD_MM = 30.0


@dataclass(frozen=True)
class PrintLayout:
    """How a board is laid out on paper.

    Attributes
    ----------
    paper : str
        ``A4``, ``A3``, ``letter`` or ``poster``.
    page_mm : (float, float)
        Width and height of each page as printed (landscape when it needs
        fewer pages).
    board_mm : (float, float)
        Width and height of the board's drawing, flags and margins included.
    scale : float
        Millimetres of paper per unit of the track's coordinates.
    columns, rows : int
        The page grid (1 by 1 for a poster).
    labels : list of str
        Page coordinates in printing order, ``A1``, ``A2``... (rows from
        the top, columns from the left).
    overlap_mm : float
        How much neighbouring pages overlap.
    """

    paper: str
    page_mm: tuple[float, float]
    board_mm: tuple[float, float]
    scale: float
    columns: int
    rows: int
    labels: list[str] = field(default_factory=list)
    overlap_mm: float = OVERLAP_MM
    #: Page coordinates of the grid with nothing of the board on them (not printed).
    blank: list[str] = field(default_factory=list)

    @property
    def pages(self) -> int:
        """Pages in the PDF: the tiles with something on them and the overview page.

        A poster is one sheet.
        """
        return 1 if self.paper == "poster" else len(self.printed) + 1

    @property
    def printed(self) -> list[str]:
        """Page coordinates of the tiles that are printed, in order."""
        return [label for label in self.labels if label not in self.blank]

    def step_mm(self) -> tuple[float, float]:
        """How far one page's area on the board moves from the page before it."""
        width, height = self.printable_mm()
        return width - self.overlap_mm, height - self.overlap_mm

    def printable_mm(self) -> tuple[float, float]:
        """The part of a page the printer prints on."""
        return self.page_mm[0] - 2 * PRINTER_MARGIN_MM, self.page_mm[1] - 2 * PRINTER_MARGIN_MM


def page_label(row: int, column: int) -> str:
    """The coordinate of a page: row letters from the top, column numbers from the left.

    Examples
    --------
    >>> page_label(0, 0), page_label(1, 2), page_label(26, 0)
    ('A1', 'B3', 'AA1')
    """
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{column + 1}"


def plan_pages(
    track: Track,
    *,
    paper: str = "A4",
    space_mm: float = PUBLISHED_SPACE_MM,
    poster: bool = False,
) -> PrintLayout:
    """Lay a board out on paper at real size, without drawing it.

    Parameters
    ----------
    track : Track
    paper : {"A4", "A3", "letter"}
        The sheets to tile over (ignored for a poster).
    space_mm : float
        Length of a space on paper, millimetres (the track's ``space_length``
        becomes this long).
    poster : bool
        One sheet as large as the board instead of tiles.

    Examples
    --------
    >>> from fdlab.track import load_track
    >>> monaco = load_track("tracks/monaco.json")
    >>> layout = plan_pages(monaco, paper="A4")
    >>> layout.columns * layout.rows == len(layout.labels), layout.labels[0]
    (True, 'A1')
    >>> round(layout.scale * monaco.graph.graph["space_length"], 1)  # one space on paper, mm
    42.0
    """
    if paper not in PAPER_MM:
        raise PrintError(f"paper must be one of {', '.join(PAPER_MM)}, not {paper!r}")
    if not (isinstance(space_mm, int | float) and math.isfinite(space_mm) and space_mm > 0):
        raise PrintError(
            f"a space's length must be a positive number of millimetres, not {space_mm!r}"
        )
    if len(track) == 0:
        raise PrintError(f"track {track.name!r} has no spaces to print")
    length = float(track.graph.graph.get("space_length") or space_size(track))
    scale = space_mm / length
    minx, miny, maxx, maxy = board_bounds(track)
    pad = BOARD_PAD_MM * space_mm / PUBLISHED_SPACE_MM
    board = ((maxx - minx) * scale + 2 * pad, (maxy - miny) * scale + 2 * pad)
    if poster:
        page = (board[0] + 2 * PRINTER_MARGIN_MM, board[1] + 2 * PRINTER_MARGIN_MM)
        return PrintLayout("poster", page, board, scale, 1, 1, ["A1"], 0.0)
    best: tuple[int, int, tuple[float, float]] | None = None
    for page in (PAPER_MM[paper], PAPER_MM[paper][::-1]):
        inner = (page[0] - 2 * PRINTER_MARGIN_MM, page[1] - 2 * PRINTER_MARGIN_MM)
        columns = max(1, math.ceil((board[0] - OVERLAP_MM) / (inner[0] - OVERLAP_MM)))
        rows = max(1, math.ceil((board[1] - OVERLAP_MM) / (inner[1] - OVERLAP_MM)))
        if best is None or columns * rows < best[0] * best[1]:
            best = (columns, rows, page)
    assert best is not None  # both orientations were tried
    columns, rows, page = best
    labels = [page_label(r, c) for r in range(rows) for c in range(columns)]
    layout = PrintLayout(paper, page, board, scale, columns, rows, labels)
    drawn = _drawn_boxes(track, scale, (minx, miny, pad))
    blank = [
        label
        for index, label in enumerate(labels)
        if not any(_meets(box, own_area(layout, *divmod(index, columns))) for box in drawn)
    ]
    return PrintLayout(paper, page, board, scale, columns, rows, labels, blank=blank)


def tile_area(layout: PrintLayout, row: int, column: int) -> tuple[float, float, float, float]:
    """The part of the board (mm from its bottom left) printed on one page; rows from the top.

    Examples
    --------
    >>> layout = PrintLayout("A4", (210.0, 297.0), (376.0, 550.0), 1.0, 2, 2, ["A1"] * 4)
    >>> tile_area(layout, 1, 0), tile_area(layout, 0, 1)
    ((0.0, 0.0, 194.0, 281.0), (182.0, 269.0, 376.0, 550.0))
    """
    step_w, step_h = layout.step_mm()
    inner_w, inner_h = layout.printable_mm()
    left, bottom, _, top = grid_extent(layout)
    x0 = left + column * step_w
    y1 = top - row * step_h
    return (x0, y1 - inner_h, x0 + inner_w, y1)


def grid_extent(layout: PrintLayout) -> tuple[float, float, float, float]:
    """The part of the board's plane (mm) the page grid covers: centred on the board.

    Examples
    --------
    >>> layout = PrintLayout("A4", (210.0, 297.0), (370.0, 540.0), 1.0, 2, 2, ["A1"] * 4)
    >>> grid_extent(layout)  # two 194 mm wide pages overlapping by 12 mm: 376 mm
    (-3.0, -5.0, 373.0, 545.0)
    """
    step_w, step_h = layout.step_mm()
    width = step_w * layout.columns + layout.overlap_mm
    height = step_h * layout.rows + layout.overlap_mm
    left = (layout.board_mm[0] - width) / 2
    bottom = (layout.board_mm[1] - height) / 2
    return (left, bottom, left + width, bottom + height)


def own_area(layout: PrintLayout, row: int, column: int) -> tuple[float, float, float, float]:
    """A page's area less the glue strips its right and lower neighbours cover.

    Every spot of the board lies in exactly one page's own area, so a page
    whose own area is empty can be left out.

    Examples
    --------
    >>> layout = PrintLayout("A4", (210.0, 297.0), (376.0, 550.0), 1.0, 2, 2, ["A1"] * 4)
    >>> own_area(layout, 0, 0), own_area(layout, 1, 1)
    ((0.0, 281.0, 182.0, 550.0), (182.0, 0.0, 376.0, 281.0))

    The first page loses the strips under its right and lower neighbours;
    the last keeps all of itself.
    """
    x0, y0, x1, y1 = tile_area(layout, row, column)
    if column + 1 < layout.columns:
        x1 -= layout.overlap_mm
    if row + 1 < layout.rows:
        y0 += layout.overlap_mm
    return (x0, y0, x1, y1)


def _drawn_boxes(
    track: Track, scale: float, origin: tuple[float, float, float]
) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (board mm) of the spaces and of the corner flags beside them."""
    minx, miny, pad = origin
    data = board_data(track)
    boxes = []
    for xs, ys in zip(data["xs"], data["ys"], strict=True):
        boxes.append(
            (
                (min(xs) - minx) * scale + pad,
                (min(ys) - miny) * scale + pad,
                (max(xs) - minx) * scale + pad,
                (max(ys) - miny) * scale + pad,
            )
        )
    flags = annotation_data(track)["flags"]
    for x, y in zip(flags["x"], flags["y"], strict=True):
        fx, fy = (x - minx) * scale + pad, (y - miny) * scale + pad
        boxes.append((fx - 8, fy - 8, fx + 8, fy + 14))
    return boxes


def _meets(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def board_bounds(track: Track) -> tuple[float, float, float, float]:
    """Bounds of the spaces and the corner flags beside them, in track units.

    Examples
    --------
    >>> board_bounds(from_ascii(". . ."))
    (0.0, -1.0, 3.0, 0.0)
    """
    data = board_data(track)
    xs = [x for row in data["xs"] for x in row]
    ys = [y for row in data["ys"] for y in row]
    flags = annotation_data(track)["flags"]
    xs += flags["x"]
    ys += flags["y"]
    return min(xs), min(ys), max(xs), max(ys)
