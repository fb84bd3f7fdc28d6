"""A Track compiled into flat tuples for fast play: the :class:`Board`.

The move generator (:mod:`fdlab.rules.movement`) runs thousands of times per
simulated race, so it never touches networkx. :func:`compile_board` turns a
:class:`~fdlab.track.model.Track` once into dense integer indices and
per-index tuples; everything else in the rules engine works on indices and
converts back to space ids with ``board.ids[i]`` only for people.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from fdlab.rules.errors import BoardError
from fdlab.track.model import (
    CornerId,
    Hazard,
    SpaceId,
    SpaceKind,
    StepKind,
    Track,
    space_attributes,
    starts_lap_again,
)

__all__ = [
    "Board",
    "BoardError",
    "STEP_AHEAD",
    "STEP_BOX_IN",
    "STEP_CORNER_LANE_CHANGE",
    "STEP_PIT_IN",
    "STEP_STRAIGHT_LANE_CHANGE",
    "STEP_TUNNEL",
    "compile_board",
]

#: Step codes of :attr:`Board.moves`, the search's view of an edge kind.
STEP_AHEAD = 0  # ahead, pit_out, box_out: costs one space, no lane rule
STEP_STRAIGHT_LANE_CHANGE = 1  # lane_change between two non-corner spaces (M-3, M-4)
STEP_CORNER_LANE_CHANGE = 2  # any other lane_change: a corner arrow (M-5)
STEP_PIT_IN = 3  # track -> pit lane, only when the pit is open (P-2, P-7)
STEP_BOX_IN = 4  # pit lane -> box, only into the car's own box (P-2)
STEP_TUNNEL = 5  # entry portal -> exit portal, free (M-6)

_STEP_CODES = {
    "ahead": STEP_AHEAD,
    "pit_out": STEP_AHEAD,
    "box_out": STEP_AHEAD,
    "pit_in": STEP_PIT_IN,
    "box_in": STEP_BOX_IN,
    "tunnel": STEP_TUNNEL,
}


@dataclass(frozen=True, eq=False, repr=False)
class Board:
    """A track compiled for fast play: dense indices and per-index tuples.

    Build one with :func:`compile_board`; every attribute is a tuple or a
    read-only-by-convention dict, so a Board can be shared by every race
    played on the same track.

    Attributes
    ----------
    track : Track
        The source track.
    ids : tuple
        Index -> space id.
    index : dict
        Space id -> index.
    steps : tuple of tuple of (int, str, frozenset)
        Per index, the steps out of the space: ``(next_index, edge_kind,
        lines)``.
    corner, lane, progress, kind, hazard, tunnel, grid, box, level : tuple
        Per index, the space attribute of the same name (docs/schema.md).
    stops : dict
        Corner id -> required stops (C-1).
    touching : tuple of tuple of int
        Per index, the indices a car there touches (``Track.touching``, D-5).
    lap_length : float
        Progress at which the lap closes.
    moves : tuple of tuple of (int, int)
        Per index, the steps as ``(next_index, step_code)`` with the codes
        ``STEP_*`` of this module; a straight lane change is a
        ``lane_change`` between two non-corner spaces (M-3).
    abreast : tuple of tuple of int
        Per index of a non-corner track space, the other non-corner track
        spaces side by side with it (``beside`` contacts followed lane by
        lane outwards). Used to decide whether a car passed another (M-4).
    tunnel_exit : tuple of int
        Per index, the exit portal reached by a ``tunnel`` step from it, or
        ``-1`` (M-6).
    step_lines : dict
        ``(index, next_index)`` -> lines crossed, for the steps that cross
        at least one line.
    danger_space : tuple of bool
        Per index, True for a danger space that is not a tunnel portal (X-3,
        X-5).

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . 1 .
    ...     . . 1 .
    ... ''', corners={1: 1}))
    >>> len(board), board.stops
    (8, {1: 1})
    >>> [board.ids[j] for j, kind, lines in board.steps[board.index[0]]]
    [2, 3]
    """

    track: Track
    ids: tuple[SpaceId, ...]
    index: dict[SpaceId, int]
    steps: tuple[tuple[tuple[int, StepKind, frozenset[str]], ...], ...]
    corner: tuple[CornerId | None, ...]
    lane: tuple[int, ...]
    progress: tuple[float, ...]
    kind: tuple[SpaceKind, ...]
    hazard: tuple[Hazard | None, ...]
    tunnel: tuple[str | None, ...]
    grid: tuple[int | None, ...]
    box: tuple[int | None, ...]
    level: tuple[int, ...]
    stops: dict[CornerId, int]
    touching: tuple[tuple[int, ...], ...]
    lap_length: float
    moves: tuple[tuple[tuple[int, int], ...], ...] = field(default=())
    abreast: tuple[tuple[int, ...], ...] = field(default=())
    tunnel_exit: tuple[int, ...] = field(default=())
    step_lines: dict[tuple[int, int], frozenset[str]] = field(default_factory=dict)
    danger_space: tuple[bool, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def beside(self) -> tuple[frozenset[int], ...]:
        """Per index, the track spaces side by side with it across the lanes (T-2).

        ``beside`` contacts followed lane by lane outwards (as for
        :attr:`abreast`), in corners too: corner spaces side by side rarely
        share progress, since outer lanes have more spaces.

        Examples
        --------
        >>> board = compile_board(from_ascii('''
        ...     . 1 .
        ...     . 1 .
        ...     . 1 .
        ... ''', corners={1: 1}))
        >>> sorted(board.ids[j] for j in board.beside[board.index[3]])  # lane 0 of the corner
        [4, 5]
        """
        return _side_by_side(self.track, self.ids, self.index)

    @cached_property
    def wraps(self) -> bool:
        """True when the lap closes: some step starts the lap again (over the finish line,
        :func:`~fdlab.track.model.starts_lap_again`).

        On an open board (a text board without ``closed=True``, a straight for
        a lesson) progress only grows, so nothing is ever behind by a lap.

        Examples
        --------
        >>> compile_board(from_ascii(". . . .", closed=True)).wraps
        True
        >>> compile_board(from_ascii(". . . .", finish=2)).wraps
        False
        """
        progress, lap = self.progress, self.lap_length
        return any(
            starts_lap_again(progress[i], progress[j], lap)
            for i, out in enumerate(self.moves)
            for j, _ in out
        )

    def __repr__(self) -> str:
        return (
            f"<Board {self.track.name!r}: {len(self.ids)} spaces, "
            f"{len(self.stops)} corners, lap {self.lap_length:g}>"
        )

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import board_html

        return board_html(self)


def compile_board(track: Track) -> Board:
    """Compile a track into a :class:`Board` for fast move generation.

    Parameters
    ----------
    track : Track
        Any track following docs/schema.md.

    Returns
    -------
    Board

    Raises
    ------
    BoardError
        When a space is in a corner with no stop count, or a tunnel entry
        portal has more than one tunnel step.

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . .
    ...     . . .
    ... '''))
    >>> board.abreast[board.index[0]]
    (1,)
    >>> board.moves[board.index[0]]  # ahead to 2, straight lane change to 3
    ((2, 0), (3, 1))
    """
    graph = track.graph
    ids = tuple(graph.nodes)
    index = {sid: i for i, sid in enumerate(ids)}
    nodes = graph.nodes

    def per_space(attr: str) -> tuple[Any, ...]:
        return tuple(nodes[sid][attr] for sid in ids)

    corner = per_space("corner")
    stops: dict[CornerId, int] = {}
    for cid, info in track.corners.items():
        stops[cid] = int(info.get("stops", 1))
    for sid, cid in zip(ids, corner, strict=True):
        if cid is not None and cid not in stops:
            raise BoardError(
                f"space {sid!r} is in corner {cid!r}, which has no entry in the track's "
                f"'corners' (stop count, C-1)"
            )

    steps = []
    moves = []
    tunnel_exit = []
    step_lines: dict[tuple[int, int], frozenset[str]] = {}
    for i, sid in enumerate(ids):
        out = []
        fast = []
        exit_portal = -1
        for nxt, data in graph.adj[sid].items():
            j = index[nxt]
            kind = data.get("kind", "ahead")
            lines = frozenset(data.get("lines", ()))
            out.append((j, kind, lines))
            if lines:
                step_lines[(i, j)] = lines
            if kind == "lane_change":
                straight = nodes[sid]["corner"] is None and nodes[nxt]["corner"] is None
                code = STEP_STRAIGHT_LANE_CHANGE if straight else STEP_CORNER_LANE_CHANGE
            else:
                code = _STEP_CODES.get(kind, STEP_AHEAD)
            if code == STEP_TUNNEL:
                if exit_portal != -1:
                    raise BoardError(f"space {sid!r} has two tunnel steps; a portal has one exit")
                exit_portal = j
            fast.append((j, code))
        steps.append(tuple(out))
        moves.append(tuple(fast))
        tunnel_exit.append(exit_portal)

    touching = tuple(tuple(index[t] for t in track.touching(sid)) for sid in ids)
    return Board(
        track=track,
        ids=ids,
        index=index,
        steps=tuple(steps),
        corner=corner,
        lane=per_space("lane"),
        progress=per_space("progress"),
        kind=per_space("kind"),
        hazard=per_space("hazard"),
        tunnel=per_space("tunnel"),
        grid=per_space("grid"),
        box=per_space("box"),
        level=per_space("level"),
        stops=stops,
        touching=touching,
        lap_length=float(track.lap_length),
        moves=tuple(moves),
        abreast=_abreast(track, ids, index),
        tunnel_exit=tuple(tunnel_exit),
        step_lines=step_lines,
        danger_space=tuple(
            nodes[sid]["hazard"] == "danger" and nodes[sid]["tunnel"] is None for sid in ids
        ),
    )


def _abreast(
    track: Track, ids: tuple[SpaceId, ...], index: dict[SpaceId, int]
) -> tuple[tuple[int, ...], ...]:
    """Per index, the straight track spaces side by side with it, lane by lane outwards.

    From a space, follow ``beside`` contacts one lane further left (then right)
    at a time; only non-corner track spaces count. Going strictly outwards keeps
    the set small on boards whose lanes are staggered (a space beside two
    spaces of the next lane) instead of chaining along the whole straight.
    """
    graph = track.graph

    def on_straight(sid: SpaceId) -> bool:
        space = space_attributes(graph, sid)
        return space["kind"] == "track" and space["corner"] is None

    abreast: list[tuple[int, ...]] = [()] * len(ids)
    for sid, found in _lane_by_lane(track, on_straight).items():
        abreast[index[sid]] = tuple(sorted(index[b] for b in found))
    return tuple(abreast)


def _side_by_side(
    track: Track, ids: tuple[SpaceId, ...], index: dict[SpaceId, int]
) -> tuple[frozenset[int], ...]:
    """Per index, track spaces reached lane by lane outwards over ``beside`` contacts."""
    graph = track.graph

    def on_track(sid: SpaceId) -> bool:
        return space_attributes(graph, sid)["kind"] == "track"

    result: list[frozenset[int]] = [frozenset()] * len(ids)
    for sid, found in _lane_by_lane(track, on_track).items():
        result[index[sid]] = frozenset(index[b] for b in found)
    return tuple(result)


def _lane_by_lane(track: Track, keep: Callable[[SpaceId], bool]) -> dict[SpaceId, set[SpaceId]]:
    """Per space, the spaces reached over ``beside`` contacts one lane further out at a time.

    The one search behind :attr:`Board.abreast` (``keep``: straight track
    spaces) and :attr:`Board.beside` (``keep``: track spaces): only contacts
    between two spaces ``keep`` accepts are followed; from a space, the
    frontier moves one lane left (then right) per round, never back nor
    along its own lane. Spaces with no such contact are left out.
    """
    nodes = track.graph.nodes
    beside: dict[SpaceId, list[SpaceId]] = {}
    for a, b, data in track.contacts.edges(data=True):
        if data.get("kind") == "beside" and keep(a) and keep(b):
            beside.setdefault(a, []).append(b)
            beside.setdefault(b, []).append(a)
    reached: dict[SpaceId, set[SpaceId]] = {}
    for sid in beside:
        found: set[SpaceId] = set()
        for direction in (-1, 1):
            frontier = {sid}
            while frontier:
                frontier = {
                    b
                    for f in frontier
                    for b in beside.get(f, ())
                    if nodes[b]["lane"] == nodes[f]["lane"] + direction
                }
                found |= frontier
        reached[sid] = found
    return reached
