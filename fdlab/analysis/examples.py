"""A small board and playtest for examples and lessons, built in a second.

Examples
--------
>>> track = tight_ring()
>>> sorted(track.corners), [track.corners[c]["stops"] for c in sorted(track.corners)]
([1, 2], [1, 3])
"""

from __future__ import annotations

from fdlab.analysis.playtest import PlaytestResult, playtest
from fdlab.track import Track
from fdlab.track.examples import two_corner_ring as _ring


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
