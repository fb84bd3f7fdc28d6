"""``fdlab print``: a board at real size as a PDF to print and play on.

Listed in :data:`fdlab.cli.COMMAND_MODULES`, which reads :data:`NAME`,
:data:`HELP`, :func:`arguments` and :func:`run` from here (this module does
not import :mod:`fdlab.cli`)::

    fdlab print tracks/monaco.json -o monaco.pdf --paper A4
    fdlab print tracks/street.json -o street.pdf --grey --space-mm 40
    fdlab print tracks/monaco.json -o monaco-poster.pdf --poster
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fdlab.plot.errors import PrintError
from fdlab.plot.pages import PAPER_MM, PUBLISHED_SPACE_MM


def _millimetres(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected millimetres, like 42, not {text!r}") from None
    if not 5 <= value <= 200:
        raise argparse.ArgumentTypeError(f"a space is 5 to 200 mm long, not {text}")
    return value


#: The subcommand's name.
NAME = "print"

#: One line for ``fdlab --help``.
HELP = "write a board at real size as a PDF to print"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab print`` to its parser."""
    parser.add_argument(
        "track", metavar="TRACK", help="the board: a track file or any format fdlab imports"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="BOARD.pdf", help="the PDF to write"
    )
    parser.add_argument(
        "--paper",
        choices=sorted(PAPER_MM),
        default="A4",
        help="sheet size of the pages (default A4)",
    )
    parser.add_argument(
        "--space-mm",
        type=_millimetres,
        default=PUBLISHED_SPACE_MM,
        metavar="N",
        help=f"length of a space on paper in mm (default {PUBLISHED_SPACE_MM:g}, a published board's)",
    )
    parser.add_argument(
        "--grey", action="store_true", help="greys only, for black-and-white printers"
    )
    parser.add_argument(
        "--poster", action="store_true", help="the whole board on one sheet of its size"
    )


def run(args: argparse.Namespace) -> int:
    """Write a board at real size as a PDF: an overview page, then the pages to glue.

    Each page carries its coordinate (A1, A2... rows from the top), its
    neighbours' names, a dashed cut line and alignment crosses over the
    glue strips, and a 50 mm scale bar to check the print. Pages with
    nothing of the board on them are left out. --poster puts the board on a
    single sheet of its own size instead.
    """
    output = Path(args.output)
    if output.suffix.lower() != ".pdf":
        raise PrintError(f"{output}: the board is written as a PDF; name it .pdf")
    from fdlab.plot.printing import print_board
    from fdlab.track.formats import import_track

    track = import_track(args.track)
    started = time.perf_counter()
    layout = print_board(
        track, output, paper=args.paper, space_mm=args.space_mm, grey=args.grey, poster=args.poster
    )
    seconds = time.perf_counter() - started
    width, height = (size / 10 for size in layout.board_mm)
    if layout.paper == "poster":
        sheets = f"one {layout.page_mm[0]:.0f} x {layout.page_mm[1]:.0f} mm poster sheet"
    else:
        sheets = (
            f"overview + {len(layout.printed)} {layout.paper} pages "
            f"({layout.rows} rows x {layout.columns} columns, {len(layout.blank)} blank left out)"
        )
    print(
        f"wrote {output}: {track.name!r}, board {width:.0f} x {height:.0f} cm, {sheets} in {seconds:.1f} s"
    )
    return 0
