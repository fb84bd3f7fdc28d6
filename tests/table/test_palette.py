"""Destinations coloured by cost, told apart with every common colour-vision deficiency (issue 27).

The colours (Okabe-Ito, :mod:`fdlab.plot.colors`) are drawn at ``MOVE_ALPHA`` over
the space under them; the check is on what the eye gets: the blend, seen with
normal vision and through the deuteranopia and protanopia simulation of Machado,
Oliveira and Fernandes (2009, severity 1), compared in CIELAB (CIE76 distance).
The costly orange must stand clear of the corner tint it is drawn on, where the old
orange at 45% read as the corner's brown.
"""

from __future__ import annotations

import math

import pytest

from fdlab.plot import colors
from fdlab.rules import LoadedDice, Race
from fdlab.table import RaceTable
from fdlab.table.widget import _legend_html, _move_colors

NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
VISIONS = {"normal": NORMAL, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}


def _rgb(color: str) -> tuple[float, ...]:
    color = color.lstrip("#")
    return tuple(int(color[i : i + 2], 16) / 255 for i in (0, 2, 4))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def blend(top: str, under: str, alpha: float) -> tuple[float, ...]:
    """``top`` drawn at ``alpha`` over ``under``, as the browser mixes them (sRGB)."""
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(_rgb(top), _rgb(under), strict=True))


def lab(rgb: tuple[float, ...], vision=NORMAL) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour as seen with ``vision`` (a matrix on linear RGB)."""
    linear = [_linear(c) for c in rgb]
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear, strict=True))))
            for row in vision]  # fmt: skip
    r, g, b = seen
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: tuple[float, ...], b: tuple[float, ...], vision=NORMAL) -> float:
    return math.dist(lab(a, vision), lab(b, vision))


def test_the_colour_math_agrees_with_known_values():
    assert lab(_rgb("#ffffff")) == pytest.approx((100, 0, 0), abs=0.1)
    # red and green, far apart for most, close for a deuteranope
    red, green = _rgb("#d62728"), _rgb("#2ca02c")
    assert distance(red, green) > 3 * distance(red, green, DEUTERANOPIA)


@pytest.mark.parametrize("vision", VISIONS)
def test_a_costly_destination_never_reads_as_the_corner_under_it(vision):
    corner = _rgb(colors.CORNER)
    costly = blend(colors.MOVE_COSTLY, colors.CORNER, colors.MOVE_ALPHA)
    assert distance(costly, corner, VISIONS[vision]) > 55
    # the old orange at 45% over the corner: brown, the complaint of issue 27
    old = blend("#ff9f1c", colors.CORNER, 0.45)
    assert distance(old, corner, VISIONS[vision]) < 45


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("under", [colors.CORNER, colors.ASPHALT])
def test_free_costly_and_eliminating_stay_apart(vision, under):
    seen = {
        name: blend(color, under, colors.MOVE_ALPHA)
        for name, color in [("free", colors.MOVE_FREE), ("costly", colors.MOVE_COSTLY),
                            ("out", colors.MOVE_OUT)]
    }  # fmt: skip
    pairs = [("free", "costly"), ("free", "out"), ("costly", "out")]
    for a, b in pairs:
        assert distance(seen[a], seen[b], VISIONS[vision]) > 60, (a, b)
    # and none of them is the plain space under it
    for name, rgb in seen.items():
        assert distance(rgb, _rgb(under), VISIONS[vision]) > 35, name


def test_the_hatch_of_an_eliminating_move_stands_out_on_its_black():
    out, hatch = _rgb(colors.MOVE_OUT), _rgb(colors.MOVE_OUT_HATCH)
    for vision in VISIONS.values():
        assert distance(out, hatch, vision) > 80


def test_the_board_and_its_legend_use_the_same_colours(ring):
    # 2nd gear, a roll of 2, 2 SP left: moves that are free, cost SP, or brake the car out
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "pools": (2,), "started": True}},
        dice=LoadedDice([2]),
    )  # fmt: skip
    table = RaceTable(race, ["person"])
    next(b for b in table.gear_buttons.children if "fdlab-gear-2" in b._dom_classes).click()
    data = table.target_source.data
    moves = {m.destination: m.move for m in table._moves}
    for space, fill, hatch in zip(data["id"], data["fill"], data["hatch"], strict=True):
        assert (fill, hatch) == _move_colors(moves[space])
    kinds = set(zip(data["fill"], data["hatch"], strict=True))
    assert kinds == {(colors.MOVE_FREE, " "), (colors.MOVE_COSTLY, " "), (colors.MOVE_OUT, "x")}
    glyph = next(r for r in table.figure.renderers if r.name == "targets").glyph
    assert glyph.fill_alpha == colors.MOVE_ALPHA and glyph.hatch_color == colors.MOVE_OUT_HATCH
    legend = _legend_html(race)
    for color in (colors.MOVE_FREE, colors.MOVE_COSTLY, colors.MOVE_OUT, colors.MOVE_OUT_HATCH,
                  colors.CORNER):  # fmt: skip
        assert color in legend
    assert "costs SP" in legend and "eliminates the car" in legend
    assert "#ff9f1c" not in legend
