"""Pictures of a board: a standalone SVG and an interactive Bokeh figure.

``track_svg`` writes SVG text directly (no browser); ``board_figure`` builds a
Bokeh figure with hover; ``save_html`` writes a figure as an offline HTML
page; ``print_board`` writes a PDF at real size to print and play on.
``board_data``, ``step_data``, ``annotation_data`` and ``car_data`` are
the renderer-neutral tables both pictures (and the editor) are drawn from.
Bokeh is imported only inside the functions that need it.
"""

from fdlab.plot.data import (
    annotation_data,
    board_data,
    car_data,
    describe_space,
    normalize_cars,
    step_data,
)
from fdlab.plot.errors import CarPlacementError, PlotError, PrintError, UnknownSpaceError
from fdlab.plot.figure import board_figure, save_html
from fdlab.plot.pages import plan_pages
from fdlab.plot.printing import print_board
from fdlab.plot.svg import track_svg

__all__ = [
    "CarPlacementError",
    "PlotError",
    "PrintError",
    "UnknownSpaceError",
    "annotation_data",
    "board_data",
    "board_figure",
    "car_data",
    "describe_space",
    "normalize_cars",
    "plan_pages",
    "print_board",
    "save_html",
    "step_data",
    "track_svg",
]
