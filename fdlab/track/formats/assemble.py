"""Turn the spaces and steps read from another program's board into an fdlab track.

Other Formula D programs store less than fdlab's schema needs: positions,
successors, which spaces are curves, where the finish line is. The importers
(:mod:`~fdlab.track.formats.gponline`, :mod:`~fdlab.track.formats.tts`) fill
a :class:`RawBoard` with what the file says, and :func:`assemble` derives the
rest the way the board implies:

* **lanes**, when the file has none: the spaces just past the finish line
  are lanes 0, 1, 2... from the left, and every later space joins the lane
  of the nearest space stepping into it that is still the last of its lane;
* **progress**: 0 just past the finish line; a step along a lane on a
  straight adds 1, a lane change half a space (one space where it starts a
  lane a whole row ahead; a space a step along the finish line leads into,
  half a space); inside a corner the file's own distances (or, if it has
  none, each lane's spaces spread evenly over the corner) are added to where
  the straight before it ended, over all its lanes, plus half a space per
  lane short of three entering it, as GP Online counts them; the pit lane follows its entry and
  crosses the finish line where its progress passes the lap (a pit lane that ends
  before the line crosses it on its way out, as GP Online counts a lap through the pits);
* step **kinds** (ahead, lane change, pit in and out, box in and out) and
  the **finish** line on the steps into the spaces just past it;
* **contacts**: the next space in the same lane (``behind``) and the spaces
  of neighbouring lanes whose stretch of progress overlaps (``beside``);
* **outlines**: a rectangle around each centre, along the lane, cut back
  halfway to any space it would overlap;
* corner **long/short** counts from the graph, when the file has none.

Space ids stay the file's own, so every problem the validator reports names
the spaces as the other program knows them.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from fdlab._text import shown
from fdlab.track.corners import all_path_counts
from fdlab.track.errors import BoardImportError, TrackFileError
from fdlab.track.formats.reading import MAX_POSITION, is_number
from fdlab.track.formats.shapes import add_contacts, add_outlines
from fdlab.track.model import (
    SpaceId,
    SpaceKind,
    StepKind,
    Track,
    add_space,
    add_step,
    new_graph,
)

#: A lane change to a space less than this many space lengths ahead gains half a space.
_HALF_STEP_AHEAD = 0.75
#: Shortest typical step along a lane (pixels): spaces closer than this lie on top of
#: each other, and the board has no scale to measure progress by.
MIN_SPACE_LENGTH = 1e-3


@dataclass
class RawSpace:
    """One space as another program stores it.

    ``x``, ``y`` are in fdlab's orientation (y up); ``kind`` is ``track`` or
    ``pit``; ``curve`` marks corner spaces, with ``corner`` the file's corner
    id if it has one and ``offset`` its typed distance into the corner;
    ``stops`` the stop count a curve space asks for; ``finish`` the spaces
    just past the finish line; ``virtual`` spaces only keep a lane
    continuous and are left out of the track; ``garage`` pit spaces become
    boxes; ``heading`` (radians, y up) is the direction a car faces there.
    """

    id: SpaceId
    x: float
    y: float
    kind: str = "track"
    lane: int | None = None
    curve: bool = False
    corner: Any = None
    offset: float | None = None
    stops: int | None = None
    finish: bool = False
    virtual: bool = False
    garage: bool = False
    heading: float | None = None


@dataclass
class RawBoard:
    """What an importer read: spaces, steps and what the file says about the race."""

    name: str
    source: str
    spaces: dict[SpaceId, RawSpace] = field(default_factory=dict)
    steps: list[tuple[SpaceId, SpaceId]] = field(default_factory=list)
    #: Grid spots pole first, or None to order them by progress (``grid_spots``).
    grid: list[SpaceId] | None = None
    #: Grid spaces in no order, ranked by progress when ``grid`` is None.
    grid_spots: list[SpaceId] = field(default_factory=list)
    #: Corner id -> ``{"stops", "long", "short", "name"}`` as the file gives them.
    corners: dict[Any, dict[str, Any]] = field(default_factory=dict)
    laps: int = 1
    description: str = ""
    #: JSON-native facts about the source file, kept as the ``imported_from`` attribute.
    origin: dict[str, Any] = field(default_factory=dict)


def assemble(board: RawBoard) -> Track:
    """Derive lanes, progress, step kinds, lines, contacts and outlines of a board.

    Parameters
    ----------
    board : RawBoard
        Spaces and steps as read from the file.

    Returns
    -------
    Track
        With the file's space ids. Whether it is a sound board is
        :func:`fdlab.track.validate`'s call.

    Raises
    ------
    BoardImportError
        If a space lies at no sensible position, the board has no finish
        line, its spaces sit on top of each other, or its track loops without
        passing the line, naming the spaces involved. The track returned can
        always be saved as a track file.

    Examples
    --------
    >>> spaces = {i: RawSpace(i, float(i // 2), float(i % 2), finish=i < 2) for i in range(8)}
    >>> steps = [(i, j) for i in range(8) for j in range(8) if j // 2 == (i // 2 + 1) % 4]
    >>> track = assemble(RawBoard("Tiny", "tiny.dat", spaces, steps, grid_spots=[6, 7]))
    >>> [track.graph.nodes[i]["progress"] for i in (0, 2, 4, 6)], track.lap_length
    ([0.0, 1.0, 2.0, 3.0], 4.0)
    >>> track.graph.edges[0, 2]["kind"], track.graph.edges[0, 3]["kind"], track.grid_spots()
    ('ahead', 'lane_change', [7, 6])
    """
    _check_positions(board)
    track = _Assembly(board).track()
    _check_writable(track, board.source)
    return track


def _check_positions(board: RawBoard) -> None:
    """Every space at a finite position within :data:`MAX_POSITION`, with finite numbers."""
    for n, space in board.spaces.items():
        values = {"position": (space.x, space.y), "offset": (space.offset,)}
        values["heading"] = (space.heading,)
        for what, numbers in values.items():
            if not all(v is None or is_number(v, MAX_POSITION) for v in numbers):
                shown_values = ", ".join(shown(v, 30) for v in numbers)
                raise BoardImportError(
                    f"{board.source}: space {shown(n)}: {what} ({shown_values}) is not a "
                    f"number of at most {MAX_POSITION:g}"
                )


def _check_writable(track: Track, source: str) -> None:
    """Refuse a board a track file could not keep (the importers check the file's own
    fields first, naming them; this is the last guard)."""
    from fdlab.track.io import track_from_dict, track_to_dict

    try:
        track_from_dict(track_to_dict(track, source=source), source=source)
    except TrackFileError as error:
        raise BoardImportError(
            f"{source}: the board read cannot be kept as a track file "
            f"({error.field or 'the board'}: {error.detail})"
        ) from None


class _Assembly:
    def __init__(self, board: RawBoard) -> None:
        self.board = board
        self.spaces = board.spaces
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(board.spaces)
        for u, v in board.steps:
            if u in board.spaces and v in board.spaces and u != v:
                self.graph.add_edge(u, v)
        self.progress: dict[SpaceId, float] = {}
        self.lanes: dict[SpaceId, int] = {}
        self.finish_steps: set[tuple[SpaceId, SpaceId]] = set()

    # -- the whole pipeline ---------------------------------------------------------
    def track(self) -> Track:
        main = self.main_track()
        self.space_length = self.typical_step(main)
        self.assign_lanes(main)
        self.space_length = self.lane_step(main)
        self.corner_ids = self.find_corners(main)
        self.assign_progress(main)
        self.pit_progress()
        return self.build()

    def main_track(self) -> nx.DiGraph:
        """Track spaces (virtual ones too) and their steps, minus those over the finish line."""
        spaces = self.spaces
        track = [n for n, s in spaces.items() if s.kind == "track"]
        finish = [n for n in track if spaces[n].finish]
        if not finish:
            raise BoardImportError(f"{self.board.source}: no space is marked as on the finish line")
        main = nx.DiGraph(self.graph.subgraph(track))
        for u, v in list(main.edges):
            if spaces[v].finish and not spaces[u].finish:
                main.remove_edge(u, v)
                self.finish_steps.add((u, v))
        if not nx.is_directed_acyclic_graph(main):
            cycle = [u for u, _ in nx.find_cycle(main)]
            raise BoardImportError(
                f"{self.board.source}: the track loops without crossing the finish line "
                f"(spaces {', '.join(map(repr, cycle[:12]))}{'...' if len(cycle) > 12 else ''})"
            )
        return main

    def typical_step(self, main: nx.DiGraph) -> float:
        lengths = [self.distance(u, v) for u, v in main.edges]
        lengths += [self.distance(u, v) for u, v in self.finish_steps]
        if not lengths:
            raise BoardImportError(
                f"{self.board.source}: the board has no steps between its spaces"
            )
        # the shortest steps of each space go along its lane (diagonals are longer)
        shortest = []
        for n in main:
            out = [self.distance(n, m) for m in main.successors(n)]
            if out:
                shortest.append(min(out))
        return float(statistics.median(shortest or lengths)) or 1.0

    def lane_step(self, main: nx.DiGraph) -> float:
        """The typical length of a step along a lane: the board's space length."""
        lengths = [self.distance(u, v) for u, v in main.edges if self.lanes[u] == self.lanes[v]]
        step = float(statistics.median(lengths)) if lengths else self.space_length
        if not step >= MIN_SPACE_LENGTH:
            same = [(u, v) for u, v in main.edges if self.distance(u, v) < MIN_SPACE_LENGTH]
            u, v = same[0] if same else next(iter(main.edges))
            raise BoardImportError(
                f"{self.board.source}: the spaces lie on top of each other (a step along a "
                f"lane is {step:.3g} pixels long; spaces {shown(u)} and {shown(v)} are "
                f"{self.distance(u, v):.3g} apart); each space needs its own position, at "
                f"least {MIN_SPACE_LENGTH:g} pixels from the next"
            )
        return step

    def distance(self, u: SpaceId, v: SpaceId) -> float:
        a, b = self.spaces[u], self.spaces[v]
        return math.hypot(b.x - a.x, b.y - a.y)

    def order(self, graph: nx.DiGraph) -> list[SpaceId]:
        return list(nx.lexicographical_topological_sort(graph, key=_sort_key))

    # -- lanes ----------------------------------------------------------------------
    def assign_lanes(self, main: nx.DiGraph) -> None:
        spaces = self.spaces
        given = {n: spaces[n].lane for n in main}
        if all(lane is not None for lane in given.values()):
            self.lanes = {n: int(lane) for n, lane in given.items() if lane is not None}
            return
        finish = [n for n in main if spaces[n].finish]
        hx, hy = self.mean_heading(main, finish)
        # leftmost first: furthest along the left normal (-hy, hx)
        ranked = sorted(finish, key=lambda n: -(spaces[n].x * -hy + spaces[n].y * hx))
        tails: dict[int, SpaceId] = {}
        came_from: dict[SpaceId, SpaceId] = {}
        for lane, n in enumerate(ranked):
            self.lanes[n] = lane
            tails[lane] = n
        for v in self.order(main):
            if v in self.lanes:
                continue
            preds = [u for u in main.predecessors(v) if u in self.lanes]
            if not preds:
                self.lanes[v] = len(ranked)  # off the lanes: reported by the validator
                continue
            ending = [u for u in preds if tails.get(self.lanes[u]) == u] or preds
            verdicts = {u: self.runs_on(main, u, v, came_from, len(ranked)) for u in ending}
            sure = [u for u in ending if verdicts[u] is True]
            maybe = sure if len(sure) == 1 else [u for u in ending if verdicts[u] is not False]
            best = self.running_on(main, maybe or ending, v, came_from, (hx, hy))
            self.lanes[v] = self.lanes[best]
            tails[self.lanes[v]] = v
            came_from[v] = best

    def running_on(
        self,
        main: nx.DiGraph,
        candidates: list[SpaceId],
        v: SpaceId,
        came_from: dict[SpaceId, SpaceId],
        start: tuple[float, float],
    ) -> SpaceId:
        """The one of ``candidates`` (lane ends stepping into ``v``) whose lane ``v`` continues.

        Where the road narrows without blocked spaces, which lane ends decides
        every lane after it, so: a lane whose last way on is ``v`` runs on into
        it rather than end where another could run on elsewhere; inside a
        corner whose spaces all carry the file's distances, ``v`` goes as GP
        Online deals its spaces out, in order of distance, each to the lane
        least far into the corner that it continues (a lane with a space of
        its own nearer than ``v`` still to come runs on there first); the
        rest, or a tie, go to the lane that runs on most nearly straight.
        """
        spaces = self.spaces
        last = [u for u in candidates if all(w in self.lanes for w in main.successors(u) if w != v)]
        if 0 < len(last) < len(candidates):
            candidates = last
        reach = _offset(spaces[v])
        if (
            len(candidates) > 1
            and reach < math.inf
            and all(spaces[u].curve and spaces[u].offset is not None for u in candidates)
        ):

            def runs_on_first(u: SpaceId) -> bool:
                # GP Online deals the spaces out in order of distance: a space of u's
                # lane nearer than v is dealt first and runs u's lane on past u
                return any(
                    w != v and w not in self.lanes and _offset(spaces[w]) < reach
                    for w in main.successors(u)
                )

            candidates = [u for u in candidates if not runs_on_first(u)] or candidates
            least = min(_offset(spaces[u]) for u in candidates)
            candidates = [u for u in candidates if _offset(spaces[u]) == least]
        return max(
            candidates,
            key=lambda u: (self.straightness(u, v, came_from, start), -self.distance(u, v)),
        )

    def runs_on(
        self,
        main: nx.DiGraph,
        u: SpaceId,
        v: SpaceId,
        came_from: dict[SpaceId, SpaceId],
        lane_count: int,
    ) -> bool | None:
        """Whether ``v`` is the space straight on down ``u``'s lane (None: cannot tell).

        ``u``'s successors, ordered from left to right, are the space ahead
        with a lane change on either side: the middle one of three, the
        leftmost of two in the left lane, the rightmost of two in the right.
        """
        onward: list[SpaceId] = list(main.successors(u))
        if len(onward) == 1:
            return True
        a = self.spaces[u]
        if u in came_from:
            w = self.spaces[came_from[u]]
            heading = math.atan2(a.y - w.y, a.x - w.x)
        else:
            heading = math.atan2(*reversed(self.mean_heading(main, [u])))

        def leftness(n: SpaceId) -> float:
            b = self.spaces[n]
            return math.remainder(math.atan2(b.y - a.y, b.x - a.x) - heading, math.tau)

        ranked = sorted(onward, key=leftness, reverse=True)
        lane = self.lanes[u]
        if len(onward) == 3:
            return ranked[1] == v
        if len(onward) == 2 and lane == 0:
            return ranked[0] == v
        if len(onward) == 2 and lane == lane_count - 1:
            return ranked[1] == v
        return None

    def straightness(
        self,
        u: SpaceId,
        v: SpaceId,
        came_from: dict[SpaceId, SpaceId],
        start: tuple[float, float],
    ) -> float:
        """Cosine between the step ``u -> v`` and where ``u``'s lane was heading.

        The lane's heading is its last step turned on by as much as that step
        turned, so that a lane keeps bending round a corner.
        """
        a, b = self.spaces[u], self.spaces[v]
        heading = math.atan2(start[1], start[0])
        if u in came_from:
            w = self.spaces[came_from[u]]
            heading = math.atan2(a.y - w.y, a.x - w.x)
            if came_from[u] in came_from:
                z = self.spaces[came_from[came_from[u]]]
                turn = heading - math.atan2(w.y - z.y, w.x - z.x)
                heading += math.remainder(turn, math.tau)
        step = math.atan2(b.y - a.y, b.x - a.x)
        return math.cos(step - heading)

    def mean_heading(self, main: nx.DiGraph, spaces: list[SpaceId]) -> tuple[float, float]:
        dx = dy = 0.0
        for u in spaces:
            for v in main.successors(u):
                d = self.distance(u, v) or 1.0
                dx += (self.spaces[v].x - self.spaces[u].x) / d
                dy += (self.spaces[v].y - self.spaces[u].y) / d
        norm = math.hypot(dx, dy)
        if norm == 0:
            return (1.0, 0.0)
        return (dx / norm, dy / norm)

    def heading(self, graph: nx.DiGraph, n: SpaceId) -> tuple[float, float]:
        """Direction of travel at a space: its own heading, else along its lane."""
        own = self.spaces[n].heading
        if own is not None:
            return (math.cos(own), math.sin(own))
        lane = self.lanes.get(n)
        ahead = [m for m in graph.successors(n) if self.lanes.get(m) == lane]
        behind = [m for m in graph.predecessors(n) if self.lanes.get(m) == lane]
        a = self.spaces[ahead[0]] if ahead else self.spaces[n]
        b = self.spaces[behind[0]] if behind else self.spaces[n]
        dx, dy = a.x - b.x, a.y - b.y
        if dx == dy == 0:
            return self.mean_heading(graph, [n])
        norm = math.hypot(dx, dy)
        return (dx / norm, dy / norm)

    # -- corners --------------------------------------------------------------------
    def find_corners(self, main: nx.DiGraph) -> dict[SpaceId, Any]:
        """Space -> corner id: the file's ids, or 1, 2, 3... for runs of curve spaces."""
        spaces = self.spaces
        curves = [n for n in main if spaces[n].curve and not spaces[n].virtual]
        if all(spaces[n].corner is not None for n in curves):
            return {n: spaces[n].corner for n in curves}
        position = {n: i for i, n in enumerate(self.order(main))}
        runs = nx.connected_components(main.subgraph(curves).to_undirected())
        runs = sorted(runs, key=lambda run: min(position[n] for n in run))
        corner_of: dict[SpaceId, Any] = {}
        for number, run in enumerate(runs, start=1):
            for n in run:
                corner_of[n] = number
            exits = [n for n in run if any(m not in run for m in main.successors(n))]
            stops = [s for s in (spaces[n].stops for n in exits or run) if s]
            self.board.corners.setdefault(number, {"stops": max(stops) if stops else None})
        return corner_of

    # -- progress -------------------------------------------------------------------
    def assign_progress(self, main: nx.DiGraph) -> None:
        spaces = self.spaces
        members: dict[Any, list[SpaceId]] = {}
        for n, corner in self.corner_ids.items():
            members.setdefault(corner, []).append(n)
        # every corner space waits for every straight space stepping into its corner
        waits = nx.DiGraph(main)
        entries: dict[Any, list[SpaceId]] = {}
        within = self.virtual_within_corners(main)
        for corner, inside in members.items():
            into = {
                u
                for n in inside
                for u in main.predecessors(n)
                if u not in self.corner_ids and within.get(u) != corner
            }
            entries[corner] = sorted(into, key=_sort_key)
            waits.add_edges_from((u, n) for u in into for n in inside)
        if not nx.is_directed_acyclic_graph(waits):
            raise BoardImportError(
                f"{self.board.source}: a corner is entered again from a straight after it"
            )
        stretches = self.straight_stretches(main, members, entries)
        for corner, before in stretches.items():
            waits.add_edges_from((u, n) for u in before for n in members[corner])
        if not nx.is_directed_acyclic_graph(waits):  # a stretch runs on past its corner
            stretches = entries
            waits = nx.DiGraph(main)
            waits.add_edges_from(
                (u, n) for c, into in entries.items() for u in into for n in members[c]
            )
        offsets = self.corner_offsets(main, members)
        margins = self.entry_margins(main, members, entries, stretches)
        base: dict[Any, float] = {}
        start = self.finish_offsets(main)
        for v in self.order(waits):
            if spaces[v].finish:
                self.progress[v] = start[v]
            elif v in self.corner_ids:
                corner = self.corner_ids[v]
                if corner not in base:
                    base[corner] = (
                        max(
                            (self.progress[u] for u in stretches[corner] if not spaces[u].virtual),
                            default=0.0,
                        )
                        + margins[corner]
                    )
                self.progress[v] = base[corner] + offsets[v]
            else:
                preds = list(main.predecessors(v))
                self.progress[v] = max(
                    (self.progress[u] + self.gain(main, u, v) for u in preds), default=0.0
                )
        self.lap_length = max(
            (
                self.progress[u] + self.gain(self.graph, u, v) - self.progress[v]
                for u, v in self.finish_steps
                if not spaces[u].virtual
            ),
            default=max(self.progress.values(), default=0.0) + 1.0,
        )

    def entry_margins(
        self,
        main: nx.DiGraph,
        members: dict[Any, list[SpaceId]],
        entries: dict[Any, list[SpaceId]],
        stretches: dict[Any, list[SpaceId]],
    ) -> dict[Any, float]:
        """Corner -> where its distances written in the file start, past the straight before it.

        GP Online counts the distances of the curves entered from one straight
        from the straight's farthest space plus half a space for each lane
        short of three where cars enter them: 0 for three entry spaces, 0.5
        for two, -0.5 for four (the corners entered from one straight, each
        lane's run of curve spaces a corner of its own, count together). A
        corner with no distances in the file is spread from the straight's end: 0.
        """
        entered: dict[frozenset[SpaceId], set[SpaceId]] = {}
        for corner, inside in members.items():
            # the straight spaces stepping into the corner, less blocked ones
            into = {u for u in entries[corner] if not self.spaces[u].virtual}
            entered.setdefault(frozenset(stretches[corner]), set()).update(
                n for n in inside if not into.isdisjoint(main.predecessors(n))
            )
        margins: dict[Any, float] = {}
        for corner, inside in members.items():
            count = len(entered[frozenset(stretches[corner])])
            typed = all(self.spaces[n].offset is not None for n in inside)
            margins[corner] = 0.5 * (3 - count) if typed and count else 0.0
        return margins

    def virtual_within_corners(self, main: nx.DiGraph) -> dict[SpaceId, Any]:
        """Virtual spaces inside a corner -> the corner: those reached only from it.

        A blocked space keeping a lane continuous where a corner narrows is no
        straight before the curve spaces it leads into, but part of the corner
        the car is already in.
        """
        within: dict[SpaceId, Any] = {}
        for v in self.order(main):
            if not self.spaces[v].virtual:
                continue
            around = {self.corner_ids.get(u, within.get(u)) for u in main.predecessors(v)}
            if len(around) == 1 and None not in around:
                within[v] = around.pop()
        return within

    def straight_stretches(
        self,
        main: nx.DiGraph,
        members: dict[Any, list[SpaceId]],
        entries: dict[Any, list[SpaceId]],
    ) -> dict[Any, list[SpaceId]]:
        """Corner -> the straight spaces of the stretch before it, where its distances start.

        The designer's distances of a curve count from where the straight
        before it ended, over all its lanes: a lane that runs on straight
        beside the first curve spaces of another (a run of curve spaces of
        its own, so a corner of its own) still belongs to that straight. The
        stretch is every straight space joined to the corner's entries by
        straight steps, less those a car reaches from inside the corner.
        """
        straight = main.subgraph(n for n in main if n not in self.corner_ids)
        piece_of: dict[SpaceId, int] = {}
        pieces = list(nx.weakly_connected_components(straight))
        for k, piece in enumerate(pieces):
            piece_of.update(dict.fromkeys(piece, k))
        position = {n: i for i, n in enumerate(self.order(main))}
        stretches: dict[Any, list[SpaceId]] = {}
        for corner, into in entries.items():
            chosen = {k for k in (piece_of[u] for u in into)}
            candidates = [u for k in chosen for u in pieces[k]]
            # what a car reaches from inside the corner, searched only as far as the
            # last candidate in running order (no way to it passes a later space)
            bound = max((position[u] for u in candidates), default=-1)
            after = set(members[corner])
            frontier = list(after)
            while frontier:
                for m in main.successors(frontier.pop()):
                    if m not in after and position[m] <= bound:
                        after.add(m)
                        frontier.append(m)
            stretches[corner] = sorted((u for u in candidates if u not in after), key=_sort_key)
        return stretches

    def gain(self, graph: nx.DiGraph, u: SpaceId, v: SpaceId) -> float:
        """Progress from one straight space to the next: 1 along a lane, 0.5 or 1 across.

        A lane change gains 1 only into a space that starts its lane a whole
        row ahead; into a space its own lane runs into, half a space (else a
        sideways step and a diagonal one would put that lane half a row on).
        """
        lane = self.lanes.get(v)
        if self.lanes.get(u) == lane:
            return 1.0
        # a space its own lane runs into lies a row past that lane's space: a lane change
        # into it gains no more than half a space, even from a space level with that one
        if any(self.lanes.get(w) == lane for w in graph.predecessors(v)):
            return 0.5
        hx, hy = self.heading(graph, u)
        a, b = self.spaces[u], self.spaces[v]
        # measured in steps of u's own lane (shorter on the inside of a curve)
        along_lane = [
            self.distance(u, w)
            for w in graph.successors(u)
            if self.lanes.get(w) == self.lanes.get(u) and self.spaces[w].kind == a.kind
        ]
        step = along_lane[0] if along_lane else self.space_length
        ahead = ((b.x - a.x) * hx + (b.y - a.y) * hy) / (step or 1.0)
        return 0.5 if ahead < _HALF_STEP_AHEAD else 1.0

    def finish_offsets(self, main: nx.DiGraph) -> dict[SpaceId, float]:
        """0 for the spaces just past the line, 0.5 for those half a space further on."""
        finish = [n for n in main if self.spaces[n].finish]
        hx, hy = self.mean_heading(main, finish)
        along = {n: self.spaces[n].x * hx + self.spaces[n].y * hy for n in finish}
        rear = min(along.values())
        offsets = {n: round(2 * (along[n] - rear) / self.space_length) / 2 % 1.0 for n in finish}
        # a space a step along the line leads into lies half a row on (a lane change)
        on_line = main.subgraph(finish)
        for v in self.order(on_line):
            behind = [offsets[u] + 0.5 for u in on_line.predecessors(v)]
            offsets[v] = max([offsets[v], *behind])
        return offsets

    def corner_offsets(
        self, main: nx.DiGraph, members: dict[Any, list[SpaceId]]
    ) -> dict[SpaceId, float]:
        """How far into its corner each corner space lies, in spaces of progress."""
        offsets: dict[SpaceId, float] = {}
        order = {n: i for i, n in enumerate(self.order(main))}
        for inside in members.values():
            typed = {n: self.spaces[n].offset for n in inside}
            if all(offset is not None for offset in typed.values()):
                offsets.update({n: float(o) for n, o in typed.items() if o is not None})
                continue
            # no distances in the file: each lane's spaces spread over the corner
            by_lane: dict[int, list[SpaceId]] = {}
            for n in inside:
                by_lane.setdefault(self.lanes[n], []).append(n)
            span = statistics.median(len(run) for run in by_lane.values())
            for run in by_lane.values():
                run.sort(key=order.__getitem__)
                for k, n in enumerate(run):
                    offsets[n] = round((k + 1) * span / len(run), 4)
        return offsets

    def pit_progress(self) -> None:
        """Pit spaces follow their entry, crossing the finish line where they pass the lap."""
        spaces = self.spaces
        pit = [n for n, s in spaces.items() if s.kind == "pit"]
        lane = nx.DiGraph(self.graph.subgraph(pit))
        if not nx.is_directed_acyclic_graph(lane):
            return  # a looped pit lane: the validator reports it
        lap = self.lap_length
        for v in self.order(lane):
            came = [
                (self.progress[u], u)
                for u in self.graph.predecessors(v)
                if u in self.progress and (spaces[u].kind == "pit" or u in self.lanes)
            ]
            if not came:
                self.progress[v] = 0.0
                continue
            before, u = max(came, key=lambda item: (item[0], _sort_key(item[1])))
            if spaces[v].finish and not spaces[u].finish:
                self.progress[v] = 0.0
                self.finish_steps.update((w, v) for _, w in came if not spaces[w].finish)
            elif before + 1.0 >= lap and not any(spaces[n].finish for n in pit):
                self.progress[v] = before + 1.0 - lap
                for w, _ in ((w, p) for p, w in came if p + 1.0 >= lap):
                    self.finish_steps.add((w, v))
            else:
                self.progress[v] = before + 1.0
        self.pit_exits_over_the_line(pit)

    def pit_exits_over_the_line(self, pit: list[SpaceId]) -> None:
        """Mark the line on the way out of a pit lane that ends before the finish line.

        GP Online counts a lap for every way through the pit lane (a car leaving
        it has crossed the line, on the board or not). A pit lane that neither
        crosses the line itself nor is entered over it, and leads back onto the
        track round the lap (its exit's progress half a lap or more behind), crosses
        it on its exit steps.
        """
        lane = set(pit)
        if any(u in lane or v in lane for u, v in self.finish_steps):
            return
        if any(self.spaces[n].finish for n in pit):
            return
        half = self.lap_length / 2
        for u in pit:
            for v in self.graph.successors(u):
                if v in self.lanes and self.progress.get(u, 0.0) - self.progress[v] >= half:
                    self.finish_steps.add((u, v))

    # -- the fdlab track ------------------------------------------------------------
    def build(self) -> Track:
        board, spaces = self.board, self.spaces
        kept = [n for n, s in spaces.items() if not s.virtual]
        garages = self.boxes(kept)
        slot_of = {n: k for k, n in enumerate(garages, start=1)}
        inline = {n for n in garages if self.on_the_only_way(n)}
        corners = {
            c: {
                "stops": info.get("stops"),
                "name": info.get("name") or f"Corner {c}",
                "long": int(info.get("long") or 0),
                "short": int(info.get("short") or 0),
            }
            for c, info in board.corners.items()
        }
        graph = new_graph(
            board.name,
            description=board.description,
            laps=board.laps,
            corners=corners,
            units="px",
            space_length=round(self.space_length, 4),
            lap_length=round(self.lap_length, 4),
            imported_from=board.origin,
        )
        lane_count = max(self.lanes.values(), default=0) + 1
        for n in kept:
            s = spaces[n]
            kind = "box" if n in slot_of and n not in inline else s.kind
            add_space(
                graph,
                n,
                x=float(s.x),
                y=float(s.y),
                lane=self.lanes.get(n, lane_count),
                progress=round(self.progress.get(n, 0.0), 4),
                kind=kind,
                corner=self.corner_ids.get(n),
                box=None if n in inline else slot_of.get(n),
            )
        keep = set(kept)
        for u, v in self.graph.edges:
            if u in keep and v in keep:
                lines: tuple[str, ...] = ("finish",) if (u, v) in self.finish_steps else ()
                kind = self.step_kind(graph, u, v)
                lines += {"pit_in": ("pit_entry",), "pit_out": ("pit_exit",)}.get(kind, ())
                add_step(graph, u, v, kind, lines)
        for n in sorted(inline, key=_sort_key):
            self.add_box_beside(graph, n, slot_of[n])
        grid = board.grid if board.grid is not None else self.ranked_grid(board.grid_spots)
        for spot, n in enumerate(grid, start=1):
            if n in graph:
                graph.nodes[n]["grid"] = spot
        track = Track(graph)
        counts = all_path_counts(graph)
        add_contacts(track)
        headings = {n: self.heading(graph, n) for n in graph}
        add_outlines(track, headings, self.space_length)
        for c, info in track.corners.items():
            if c not in board.corners or "long" not in board.corners[c]:
                info["long"], info["short"] = counts.get(c, (0, 0))
        return track

    def step_kind(self, graph: nx.DiGraph, u: SpaceId, v: SpaceId) -> StepKind:
        a, b = graph.nodes[u]["kind"], graph.nodes[v]["kind"]
        kinds: dict[tuple[SpaceKind, SpaceKind], StepKind] = {
            ("track", "pit"): "pit_in",
            ("pit", "track"): "pit_out",
            ("pit", "box"): "box_in",
            ("box", "pit"): "box_out",
            ("pit", "pit"): "ahead",
        }
        kind = kinds.get((a, b))
        if kind is not None:
            return kind
        if a == b == "track" and graph.nodes[u]["lane"] != graph.nodes[v]["lane"]:
            return "lane_change"
        return "ahead"

    def boxes(self, kept: list[SpaceId]) -> list[SpaceId]:
        """Garages in running order along the pit lane."""
        garages = [n for n in kept if self.spaces[n].garage and self.spaces[n].kind == "pit"]
        pit = [n for n in kept if self.spaces[n].kind == "pit"]
        lane = self.graph.subgraph(pit)
        if not nx.is_directed_acyclic_graph(lane):
            return sorted(garages, key=_sort_key)
        position = {n: i for i, n in enumerate(self.order(nx.DiGraph(lane)))}
        return sorted(garages, key=position.__getitem__)

    def on_the_only_way(self, garage: SpaceId) -> bool:
        """Whether the pit lane runs through this garage (no other pit space leads on)."""
        spaces = self.spaces
        for u in self.graph.predecessors(garage):
            if spaces[u].kind != "pit":
                return True
            others = [
                w
                for w in self.graph.successors(u)
                if w != garage and spaces[w].kind == "pit" and not spaces[w].garage
            ]
            if not others:
                return True
        return False

    def add_box_beside(self, graph: nx.DiGraph, garage: SpaceId, slot: int) -> None:
        """A box beside a garage the pit lane runs through, named after it (``"12 box"``)."""
        nodes = graph.nodes
        before = [u for u in graph.predecessors(garage) if nodes[u]["kind"] == "pit"] or [garage]
        after = [w for w in graph.successors(garage) if nodes[w]["kind"] == "pit"] or [garage]
        hx, hy = self.heading(graph, garage)
        here = nodes[garage]
        road = [n for n in graph if nodes[n]["kind"] == "track"]
        side = 1.0
        if road:
            # away from the track: the side its nearest space is not on
            near = min(
                road,
                key=lambda n: math.dist((nodes[n]["x"], nodes[n]["y"]), (here["x"], here["y"])),
            )
            mx, my = nodes[near]["x"] - here["x"], nodes[near]["y"] - here["y"]
            side = -1.0 if (-hy * mx + hx * my) > 0 else 1.0
        gap = 0.7 * self.space_length
        box = f"{garage} box"
        x, y = here["x"] - side * hy * gap, here["y"] + side * hx * gap
        self.spaces[box] = RawSpace(box, x, y, kind="box", heading=math.atan2(hy, hx))
        add_space(
            graph,
            box,
            x=x,
            y=y,
            lane=nodes[garage]["lane"],
            progress=nodes[garage]["progress"],
            kind="box",
            box=slot,
        )
        for u in before:
            add_step(
                graph, u, box, "box_in", graph.edges[u, garage]["lines"] if u != garage else ()
            )
        for w in after:
            add_step(
                graph, box, w, "box_out", graph.edges[garage, w]["lines"] if w != garage else ()
            )

    def ranked_grid(self, spots: list[SpaceId]) -> list[SpaceId]:
        """Grid spots pole first: the furthest ahead, counting past the line as ahead."""
        lap = self.lap_length

        def ahead(n: SpaceId) -> float:
            p = self.progress.get(n, 0.0)
            return p + lap if p < lap / 2 else p

        return sorted(spots, key=lambda n: (-ahead(n), self.lanes.get(n, 0), _sort_key(n)))


def _offset(space: RawSpace) -> float:
    """A curve space's distance into its corner (infinite where the file gives none)."""
    return space.offset if space.curve and space.offset is not None else math.inf


def _sort_key(n: SpaceId) -> tuple[int, Any]:
    """Ids sorted numbers first (by value), then text."""
    return (0, n) if isinstance(n, int | float) else (1, str(n))
