"""The colours of a board picture, shared by the SVG and Bokeh renderers.

The palette follows the printed Formula D boards: asphalt grey lanes with
white lines, corners between red lines with a yellow stop flag, a blue-ish pit
lane, orange shooting spaces and dark danger spaces (street rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Background of the picture (the grass around the circuit).
GRASS = "#dce8d2"
#: Plain track spaces.
ASPHALT = "#5b5f66"
#: Corner spaces: asphalt with a warm tint.
CORNER = "#7c5e60"
#: Pit-lane spaces.
PIT = "#4f6f93"
#: Pit boxes.
BOX = "#7392b8"
#: Shooting spaces (street rules, X-2).
SHOOTING = "#ee8a2f"
#: Danger spaces (street rules, X-3).
DANGER = "#2a2b2f"
#: Outline painted around danger spaces.
DANGER_LINE = "#f2c12e"
#: The white lines between spaces.
SPACE_LINE = "#eef0f2"
#: Outline of bridge spaces (level 1), drawn on top of the ground.
BRIDGE_LINE = "#16181b"
#: Outline of highlighted spaces.
HIGHLIGHT = "#ff2bd6"
#: Red of the corner lines, kerbs and short path counts.
KERB_RED = "#d62828"
#: Yellow of the corner stop flags.
FLAG_YELLOW = "#ffd21f"
#: The editor's marks on the corners that bite most (the verdict, on white).
VERDICT_RED = "#b2182b"
#: Green of the long path counts.
LONG_GREEN = "#1b9e3e"
#: The police line (street rules, X-4).
POLICE_BLUE = "#1f5fbf"
#: Tunnel portals (street rules, X-5).
TUNNEL_PURPLE = "#7b2cbf"
#: Text drawn on dark spaces.
LABEL_LIGHT = "#ffffff"
#: Text drawn on light backgrounds.
LABEL_DARK = "#1b1d21"

# The race table's destinations, coloured by what the move costs. From the Okabe-Ito
# palette (Okabe & Ito 2008, "Color Universal Design", https://jfly.uni-koeln.de/color/),
# whose colours stay apart with deuteranopia, protanopia and tritanopia: sky blue for
# free, orange for a move that costs SP (WP), black hatched in white for a move that
# eliminates the car. Drawn nearly opaque (MOVE_ALPHA), the orange is far lighter than the
# dark corner tint (CORNER) under every one of them, so a costly destination in a corner
# never reads as a plain corner space (tests/table/test_palette.py measures it).
#: A destination reached at no cost (Okabe-Ito sky blue).
MOVE_FREE = "#56b4e9"
#: A destination that costs SP or WP (Okabe-Ito orange).
MOVE_COSTLY = "#e69f00"
#: A destination that eliminates the car (Okabe-Ito black), hatched.
MOVE_OUT = "#000000"
#: The hatch over an eliminating destination: white on black, the darkest and the
#: lightest, so it never reads as the orange of a costly move.
MOVE_OUT_HATCH = "#ffffff"
#: How opaque a destination's colour is over the space under it.
MOVE_ALPHA = 0.85

#: Colour of a step arrow by step kind.
STEP_COLORS: dict[str, str] = {
    "ahead": "#f4f5f7",
    "lane_change": "#c3ccd6",
    "pit_in": "#57c4f5",
    "pit_out": "#57c4f5",
    "box_in": "#9fdcfb",
    "box_out": "#9fdcfb",
    "tunnel": "#c6a2ff",
}

#: Car colours handed out in order when a car comes without one.
CAR_COLORS: tuple[str, ...] = (
    "#e4262c",  # red
    "#1f6fe0",  # blue
    "#1fa64a",  # green
    "#f5c800",  # yellow
    "#f07c16",  # orange
    "#8d3fd1",  # purple
    "#f06aa9",  # pink
    "#1bb5b5",  # teal
    "#ffffff",  # white
    "#222222",  # black
)


def space_fill(space: Mapping[str, Any]) -> str:
    """The fill colour of one space from its attributes.

    Hazards win over corners, corners over the plain kinds.

    Examples
    --------
    >>> space_fill({"kind": "track", "corner": None, "hazard": None}) == ASPHALT
    True
    >>> space_fill({"kind": "track", "corner": 2, "hazard": "shooting"}) == SHOOTING
    True
    >>> space_fill({"kind": "pit", "corner": None, "hazard": None}) == PIT
    True
    """
    hazard = space.get("hazard")
    if hazard == "shooting":
        return SHOOTING
    if hazard == "danger":
        return DANGER
    kind = space.get("kind", "track")
    if kind == "pit":
        return PIT
    if kind == "box":
        return BOX
    if space.get("corner") is not None:
        return CORNER
    return ASPHALT


def space_line(space: Mapping[str, Any], highlighted: bool = False) -> tuple[str, float]:
    """Outline colour and width (in screen pixels) of one space.

    Examples
    --------
    >>> space_line({"hazard": None, "level": 0})
    ('#eef0f2', 1.0)
    >>> space_line({"hazard": None, "level": 1})
    ('#16181b', 1.6)
    >>> space_line({"hazard": "danger", "level": 0}, highlighted=True)
    ('#ff2bd6', 3.0)
    """
    if highlighted:
        return HIGHLIGHT, 3.0
    if space.get("level", 0):
        return BRIDGE_LINE, 1.6
    if space.get("hazard") == "danger":
        return DANGER_LINE, 1.2
    return SPACE_LINE, 1.0


#: Colours of cars named after a colour (the default names Blue, Red, Green...).
NAMED_CAR_COLORS: dict[str, str] = {
    "blue": "#1f6fe0",
    "red": "#e4262c",
    "green": "#1fa64a",
    "yellow": "#f5c800",
    "black": "#222222",
    "white": "#ffffff",
    "orange": "#f07c16",
    "purple": "#8d3fd1",
    "grey": "#8a8a8a",
    "pink": "#f06aa9",
}


def car_color(index: int, name: str | None = None) -> str:
    """The colour of a car: the one it is named after, else the ``index``-th of the palette.

    The one colour rule of every picture (SVG, Bokeh, the race table): a car
    called "Blue" is blue wherever it is drawn.

    Parameters
    ----------
    index : int
        The car's number, 0-based (cycles the palette).
    name : str, optional
        The car's name or label.

    Examples
    --------
    >>> car_color(0), car_color(len(CAR_COLORS))
    ('#e4262c', '#e4262c')
    >>> car_color(0, "Blue"), car_color(3, "Ayrton") == car_color(3)
    ('#1f6fe0', True)
    """
    if name is not None:
        named = NAMED_CAR_COLORS.get(str(name).strip().lower())
        if named is not None:
            return named
    return CAR_COLORS[index % len(CAR_COLORS)]
