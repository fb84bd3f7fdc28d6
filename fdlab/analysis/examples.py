"""A small board and playtest for examples and lessons, built in a second.

Examples
--------
>>> track = tight_ring()
>>> sorted(track.corners), [track.corners[c]["stops"] for c in sorted(track.corners)]
([1, 2], [1, 3])
"""

from __future__ import annotations

from fdlab.analysis.playtest import PlaytestResult, playtest
from fdlab.track import Track, from_ascii
from fdlab.track.examples import two_corner_ring as _ring

#: A two-lane ring of 24 columns with a pit lane beside its finish line, and two boxes.
PIT_RING = """
    . . . . 1 1 1 . . . . . . . . . . . 2 2 . . . .
    . . . . 1 1 1 . . . . . . . . . . . 2 2 . . . .
    x x x x x x x x x x x x x x p p p p p p p x x x
    x x x x x x x x x x x x x x x B B x x x x x x x
"""


def tight_ring() -> Track:
    """The shared ring (:func:`fdlab.track.examples.two_corner_ring`) with a tight 3-stop corner.

    Examples
    --------
    >>> len(tight_ring())
    36
    """
    return _ring(stops=(1, 3))


def small_playtest(races: int = 4, seed: int = 0) -> PlaytestResult:
    """Two default (``"par"``) bots raced ``races`` times on :func:`tight_ring`.

    Examples
    --------
    >>> result = small_playtest()
    >>> len(result.races)
    4
    """
    return playtest(tight_ring(), 2, races=races, seed=seed, workers=1, progress=False)


def pit_ring() -> Track:
    """A ring with a 3-stop and a 2-stop corner and a pit lane along its finish straight.

    Two laps of it solve in a fraction of a second: the examples of the pit
    lane's worth (:mod:`fdlab.analysis.pit_worth`) and its suggested changes
    use it.

    Examples
    --------
    >>> track = pit_ring()
    >>> len(track.boxes()), track.grid_spots()
    (2, [72, 73, 68, 69])
    """
    return from_ascii(
        PIT_RING,
        corners={1: 3, 2: 2},
        closed=True,
        grid=[72, 73, 68, 69],
        finish=19,
        name="Pit ring",
    )
