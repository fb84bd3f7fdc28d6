"""Small example boards shared by the doctests, the tests, the benchmarks and the lessons.

Each is a text board (:func:`fdlab.track.from_ascii`) built in a millisecond,
so an example reads in one line and every example uses the same board.

Examples
--------
>>> ring = two_corner_ring()
>>> len(ring), [ring.corners[c]["stops"] for c in sorted(ring.corners)], ring.grid_spots()[:2]
(36, [1, 2], [34, 35])
>>> len(sprint()), sprint().grid_spots()
(14, [1, 0])
>>> corner_strip(stops=2).corners[1]["stops"]
2
"""

from __future__ import annotations

from fdlab.track.ascii import from_ascii
from fdlab.track.model import Track

__all__ = ["TWO_CORNER_RING", "corner_strip", "sprint", "two_corner_ring"]

#: Two lanes of 18 columns; corner 1 is two columns long, corner 2 two more further on.
TWO_CORNER_RING = """
    . . . 1 1 . . . . . . 2 2 . . . . .
    . . . 1 1 . . . . . . 2 2 . . . . .
"""


def two_corner_ring(stops: tuple[int, int] = (1, 2), cars: int = 2) -> Track:
    """A closed two-lane ring of 36 spaces with two corners, and a grid for ``cars`` cars.

    Parameters
    ----------
    stops : (int, int)
        Stops of corner 1 and corner 2.
    cars : int
        Grid spots, two a row from the last column backwards (pole on space 34).

    Examples
    --------
    >>> two_corner_ring(stops=(1, 3), cars=6).grid_spots()
    [34, 35, 32, 33, 30, 31]
    """
    grid = [34 - 2 * (k // 2) + k % 2 for k in range(cars)]
    return from_ascii(TWO_CORNER_RING, corners={1: stops[0], 2: stops[1]}, closed=True, grid=grid)


def sprint(spaces: int = 14, cars: int = 2) -> Track:
    """One lane of ``spaces`` spaces, ``cars`` grid spots at its start, the finish line at its end.

    The smallest race there is: no corner, so every move is free. The race
    table's and the shared log's examples race on it.

    Parameters
    ----------
    spaces : int
        Spaces in the lane (the finish line is before the last one).
    cars : int
        Grid spots, pole on space ``cars - 1``, the last spot on space 0.

    Examples
    --------
    >>> track = sprint(cars=3)
    >>> track.grid_spots(), track.edges_crossing("finish")
    ([2, 1, 0], [(12, 13)])
    """
    return from_ascii(
        " ".join(["."] * spaces), grid=list(range(cars - 1, -1, -1)), finish=spaces - 1
    )


def corner_strip(stops: int = 1) -> Track:
    """One lane of 13 spaces with a two-space corner of ``stops`` stops after four spaces.

    Where the movement and cost examples start: a car before the corner, a
    move that stops in it, one that overshoots it.

    Examples
    --------
    >>> corner_strip().corner_spaces(1)
    [4, 5]
    """
    return from_ascii(". . . . 1 1 . . . . . . .", corners={1: stops})
