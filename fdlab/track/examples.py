"""Small example boards shared by the doctests, the tests, the benchmarks and the lessons.

Each is a text board (:func:`fdlab.track.from_ascii`) built in a millisecond,
so an example reads in one line and every example uses the same board.

Examples
--------
>>> ring = two_corner_ring()
>>> len(ring), [ring.corners[c]["stops"] for c in sorted(ring.corners)], ring.grid_spots()[:2]
(36, [1, 2], [34, 35])
"""

from __future__ import annotations

from fdlab.track.ascii import from_ascii
from fdlab.track.model import Track

__all__ = ["TWO_CORNER_RING", "two_corner_ring"]

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
