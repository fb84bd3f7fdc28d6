"""What the pit lane is worth: the exact two-lap par with the pits open and closed.

A pit stop (P-2) restores a car's SP for its second lap, and costs the time
of the way through the pit lane and the stop in the box. A designer wants
it to be a real choice: a pit lane so long that no one should stop is a
decoration, one so short that every car must stop makes the race a rule
rather than a decision. :func:`pit_worth` measures it for one fast car
alone, exactly: the two-lap par of car 1 (using its own box, basic rules)
with the pits open, and with the pit lane closed. The difference is the
turns the best use of the pits saves over two laps (0 when a lone car
never gains by stopping).

Examples
--------
>>> from fdlab.track import load_track
>>> worth = pit_worth(load_track("tracks/training.json"))
>>> round(worth.two_laps, 2), round(worth.closed, 2), round(worth.saves, 2)
(20.96, 22.26, 1.3)
"""

from __future__ import annotations

from dataclasses import dataclass

from fdlab.par import solo_table
from fdlab.rules.board import Board, compile_board
from fdlab.rules.presets import get_preset
from fdlab.track.model import Track

__all__ = ["PIT_LAPS", "PitWorth", "close_pit_lane", "has_pit_lane", "pit_worth", "two_lap_par"]

#: Laps of the races that measure the pit lane: the shortest race with pit stops (P-7).
PIT_LAPS = 2


@dataclass(frozen=True)
class PitWorth:
    """The exact two-lap par of car 1 with the pit lane open and closed.

    Attributes
    ----------
    two_laps : float
        Par of two laps (expected turns), pit stops allowed, basic rules.
    closed : float
        The same with the pit lane closed.
    """

    two_laps: float
    closed: float

    @property
    def saves(self) -> float:
        """Turns the best use of the pits saves over two laps (``closed - two_laps``)."""
        return self.closed - self.two_laps

    @property
    def words(self) -> str:
        """The figure in one sentence.

        Examples
        --------
        >>> PitWorth(33.58, 34.03).words
        'over two laps the pits save a lone car 0.45 turns (par 33.58; 34.03 with the pit lane closed)'
        """
        return (
            f"over two laps the pits save a lone car {self.saves:.2f} turns "
            f"(par {self.two_laps:.2f}; {self.closed:.2f} with the pit lane closed)"
        )


def has_pit_lane(track: Track) -> bool:
    """Whether ``track`` has a pit lane a car can enter (a ``pit_in`` step).

    Examples
    --------
    >>> has_pit_lane(from_ascii(". . . ."))
    False
    """
    return any(kind == "pit_in" for _u, _v, kind in track.graph.edges(data="kind"))


def close_pit_lane(track: Track) -> Track:
    """A copy of ``track`` without its pit lane and boxes (``track`` is not changed).

    Examples
    --------
    >>> from fdlab.track import load_track
    >>> track = load_track("tracks/training.json")
    >>> closed = close_pit_lane(track)
    >>> has_pit_lane(track), has_pit_lane(closed), len(track) - len(closed)
    (True, False, 16)
    """
    closed = track.copy()
    removed = [s for s, kind in closed.graph.nodes(data="kind") if kind != "track"]
    closed.graph.remove_nodes_from(removed)
    closed.contacts.remove_nodes_from(removed)
    return closed


def two_lap_par(board: Board | Track) -> float:
    """The exact two-lap par of car 1 on ``board`` (basic rules, pits as the board has them).

    Solved once per board content (:func:`fdlab.par.solo_table`: memory, then
    the disk cache); a board whose earlier version was solved in this process
    re-solves only what its edit touched (:mod:`fdlab.par.reuse`).

    Examples
    --------
    >>> round(two_lap_par(from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1)), 2)
    4.11
    """
    compiled = board if isinstance(board, Board) else compile_board(board)
    return solo_table(compiled, get_preset("basic", PIT_LAPS)).par


def pit_worth(track: Track, *, closed: float | None = None) -> PitWorth | None:
    """The pit lane's worth on ``track`` (``None`` when it has no pit lane).

    Parameters
    ----------
    track : Track
    closed : float, optional
        The two-lap par with the pit lane closed, when it is known already
        (it does not depend on the pit lane: every version of a board with its
        pit lane moved shares it).

    Returns
    -------
    PitWorth or None

    Raises
    ------
    fdlab.errors.FdlabError
        When the board cannot be raced (the error says why).

    Examples
    --------
    >>> pit_worth(from_ascii(". . . .", grid=[0], finish=2)) is None
    True
    """
    if not has_pit_lane(track):
        return None
    if closed is None:
        closed = two_lap_par(close_pit_lane(track))
    return PitWorth(two_laps=two_lap_par(track), closed=closed)
