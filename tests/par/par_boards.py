"""Boards the solo solver's tests share."""

from __future__ import annotations

from fdlab.track import Track, from_ascii


def pit_ring(boxes: int = 1) -> Track:
    """A closed two-lane ring of three corners (2, 1 and 1 stops) with a pit lane and
    ``boxes`` boxes (1 or 2: the boxes of cars 1 and 2, P-2), grid at the last column."""
    top = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    pit = "x " * 27 + "p p p p p x"
    box = "x " * 28 + " ".join(["B"] * boxes + ["x"] * (5 - boxes))
    return from_ascii(
        "\n".join([top, top, pit, box]), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[128, 129]
    )
