"""What to change: concrete edits of a circuit, measured, that bring it toward its targets.

A designer states what the circuit should be (:class:`Targets`: a par range,
a race length, the most any corner may eliminate, corners whose stops fit
their length) or takes the defaults drawn from the printed boards
(``calibration``: par 11.6 to 22.8 turns a lap, a 3-stop corner is a long
slow section, not two spaces). :func:`suggest` tries concrete changes (each
corner's stops to every other count, each corner one space longer or
shorter in every lane), measures each with the board's verdict
(:func:`fdlab.analysis.verdict.board_verdict`: the exact one-lap par and a few
seeded six-car races) and lists those that bring the circuit closer to its
targets, best first, each with its measured effect and a picture of the
change on the board. ``suggestion.apply(track)`` makes the change on a copy;
``suggestion.apply_in(editor.controller)`` makes it in the editor, as an
edit that undo takes back.

Examples
--------
>>> track = from_ascii(". . . . . . . . . 1 1 . . . . . . . . . .", corners={1: 3},
...                    grid=[0], finish=18)
>>> found = suggest(track, races=2, workers=1, progress=False)
>>> found[0].change.description
'Corner 1: 3 stops -> 1'
"""

from __future__ import annotations

import html
import multiprocessing
import os
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, cast

import pandas as pd

from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.pit_worth import PIT_LAPS, PitWorth, close_pit_lane, has_pit_lane, two_lap_par
from fdlab.analysis.stats import spread_text
from fdlab.analysis.verdict import (
    Verdict,
    VerdictError,
    board_verdict,
    rules_for,
    solve_for_edits,
)
from fdlab.errors import FdlabError
from fdlab.par.table import content_key, name_board
from fdlab.rules.board import Board, compile_board
from fdlab.rules.errors import BoardError
from fdlab.track.corners import corner_path_counts, update_corner_counts
from fdlab.track.io import track_from_dict, track_to_dict
from fdlab.track.model import CornerId, SpaceId, Track

__all__ = [
    "BoardEditor",
    "Change",
    "Suggestion",
    "Suggestions",
    "Targets",
    "PIT_SAVES_RANGE",
    "candidate_changes",
    "pit_changes",
    "pit_studied",
    "suggest",
]

#: Turns the best use of the pits saves a lone car over two laps on printed boards: the
#: middle four fifths of the 47 boards of GP Online, each with a pit lane, ran 0.22 to 2.40
#: (median 0.96; :func:`fdlab.analysis.pit_worth.pit_worth` on each). Below, a stop hardly
#: pays; above, every car must stop.
PIT_SAVES_RANGE = (0.2, 2.4)

#: Shortest path through a corner (spaces) on printed boards, by stop count (calibration:
#: the ranges of 47 boards). A corner outside its stops' range is a mismatch.
LENGTH_FOR_STOPS = {1: (1, 13), 2: (3, 13), 3: (8, 16)}


@dataclass(frozen=True)
class Targets:
    """What the circuit should be; ``None`` leaves a target out.

    Attributes
    ----------
    par : (float, float) or None
        Exact one-lap par, basic rules (printed boards: 11.6 to 22.8 turns).
    race_rounds : (float, float) or None
        Rounds a one-lap race of six cars may last.
    max_corner_elimination : float or None
        The most any corner may eliminate (share of the cars in a race).
    stops_fit_length : bool
        A corner's stops fit its length as on printed boards (a 3-stop corner
        is long, a 1-stop one short).
    more_overtaking : bool
        More lead changes are better.
    max_pole_wins : float or None
        The most races the car from pole may win (a share; six cars share
        fairly at 0.17). A few races measure it roughly: give ``races`` 24
        or more when you set it.
    pit_saves : (float, float) or None
        The turns the best use of the pits may save a lone car over two laps
        (:mod:`fdlab.analysis.pit_worth`; printed boards: :data:`PIT_SAVES`).
        Judged when the pit lane is studied (:func:`suggest`'s ``pit``).
    """

    par: tuple[float, float] | None = (11.6, 22.8)
    race_rounds: tuple[float, float] | None = None
    max_corner_elimination: float | None = 0.05
    stops_fit_length: bool = True
    more_overtaking: bool = False
    max_pole_wins: float | None = None
    pit_saves: tuple[float, float] | None = PIT_SAVES_RANGE

    def distance(self, verdict: Verdict, track: Track) -> tuple[float, dict[Any, str]]:
        """How far a board is from the targets (0: every target met), and what is off.

        The misses are keyed by target (``"par"``, ``("stops", corner)``...), so
        two boards' misses can be compared whatever their figures.

        Examples
        --------
        >>> track = from_ascii(". 1 1 . . . .", corners={1: 3}, grid=[0], finish=5)
        >>> verdict = board_verdict(track, races=2)
        >>> Targets(par=None).distance(verdict, track)[1]
        {('stops', 1): 'Corner 1: 3 stops on a corner of 2 spaces (printed boards: 1)'}
        """
        return self._summed(self.misses(verdict, track), verdict)

    def _summed(
        self, misses: dict[Any, tuple[float, str]], verdict: Verdict
    ) -> tuple[float, dict[Any, str]]:
        """:meth:`distance` from the board's :meth:`misses` (worked out once by the caller)."""
        total = sum(amount for amount, _ in misses.values())
        if self.more_overtaking:
            total -= verdict.lead_changes / 10
        return total, {key: text for key, (_, text) in misses.items()}

    def misses(self, verdict: Verdict, track: Track) -> dict[Any, tuple[float, str]]:
        """Each target the board misses: how far off (the share :meth:`distance` adds) and
        what is off, keyed by target.

        Examples
        --------
        >>> track = from_ascii(". 1 1 . . . .", corners={1: 3}, grid=[0], finish=5)
        >>> verdict = board_verdict(track, races=2)
        >>> Targets(par=None).misses(verdict, track)
        {('stops', 1): (2.0, 'Corner 1: 3 stops on a corner of 2 spaces (printed boards: 1)')}
        """
        off: dict[Any, tuple[float, str]] = {}
        if self.par is not None:
            low, high = self.par
            if verdict.par > high:
                off["par"] = (
                    (verdict.par - high) / high * 10,
                    f"par {verdict.par:.1f} turns is above {high:g}",
                )
            elif verdict.par < low:
                off["par"] = (
                    (low - verdict.par) / low * 10,
                    f"par {verdict.par:.1f} turns is below {low:g}",
                )
        if self.race_rounds is not None:
            low, high = self.race_rounds
            if not low <= verdict.rounds <= high:
                edge = high if verdict.rounds > high else low
                off["rounds"] = (
                    abs(verdict.rounds - edge) / edge * 10,
                    f"a race lasts {verdict.rounds:.1f} rounds, not {low:g}-{high:g}",
                )
        if self.max_corner_elimination is not None:
            for measured in verdict.corners:
                over = measured.eliminated - self.max_corner_elimination
                if over > 0:
                    off["out", measured.corner] = (
                        over * 20,
                        f"{measured.name} eliminates {measured.eliminated:.0%} of cars",
                    )
        if self.stops_fit_length:
            for corner, info in track.corners.items():
                fitting = fitting_stops(track, corner)
                stops = int(info.get("stops", 1))
                if stops != fitting:
                    shortest = corner_path_counts(track, corner)[1]
                    off["stops", corner] = (
                        float(abs(stops - fitting)),
                        f"{info.get('name') or f'Corner {corner}'}: {_stops(stops)} on a corner "
                        f"of {shortest} spaces (printed boards: {fitting})",
                    )
        if self.pit_saves is not None and verdict.pit is not None:
            low, high = self.pit_saves
            saves = verdict.pit.saves
            if not low <= saves <= high:
                edge = high if saves > high else low
                off["pit"] = (
                    abs(saves - edge) * 2,
                    f"over two laps the pits save a lone car {saves:.2f} turns, "
                    f"not {low:g}-{high:g}",
                )
        if self.max_pole_wins is not None and verdict.pole_wins > self.max_pole_wins:
            off["pole"] = (
                (verdict.pole_wins - self.max_pole_wins) * 10,
                f"pole wins {verdict.pole_wins:.0%} of races",
            )
        return off


def fitting_stops(track: Track, corner: CornerId) -> int:
    """The stops printed boards give a corner of this length: its own if they fit.

    A corner fits when its shortest path lies in the range printed boards
    give its stop count (:data:`LENGTH_FOR_STOPS`); otherwise the nearest
    stop count whose range holds it.

    Examples
    --------
    >>> fitting_stops(from_ascii(". 1 1 .", corners={1: 3}), 1)
    1
    >>> fitting_stops(from_ascii(". 1 1 1 1 .", corners={1: 1}), 1)
    1
    """
    shortest = corner_path_counts(track, corner)[1]
    stops = int(track.corners[corner].get("stops", 1))
    low, high = LENGTH_FOR_STOPS.get(stops, (0, 10**9))
    if low <= shortest <= high:
        return stops
    fitting = [n for n, (lo, hi) in LENGTH_FOR_STOPS.items() if lo <= shortest <= hi]
    if not fitting:
        return 1 if shortest < LENGTH_FOR_STOPS[1][0] else 3
    return min(fitting, key=lambda n: abs(n - stops))


class BoardEditor(Protocol):
    """The edits :meth:`Change.apply_in` makes: what an editor's controller offers.

    :class:`fdlab.editor.controller.EditorController` (``TrackEditor.controller``)
    is one; this package does not import the editor (it stands on a lower layer), so
    it names the methods it calls. Each is one edit, undone by one Undo.
    """

    def set_corner_stops(self, corner: CornerId, stops: int) -> None:
        """Change the number of stops a corner requires."""
        ...

    def set_grid(self, spaces: Iterable[SpaceId]) -> None:
        """Lay the whole grid again on ``spaces``, pole first."""
        ...

    def move_hazard(
        self, old: Iterable[SpaceId], new: Iterable[SpaceId], hazard: str | None
    ) -> None:
        """Clear the hazard of ``old`` and mark ``new`` with ``hazard``."""
        ...

    def set_hazard(self, spaces: Iterable[SpaceId], hazard: str | None) -> None:
        """Mark ``spaces`` with ``hazard``, or clear them (``None``)."""
        ...

    def set_corner(self, spaces: Iterable[SpaceId], corner: CornerId | None) -> None:
        """Put ``spaces`` into ``corner``, or take them out of any (``None``)."""
        ...

    def move_step(self, u: SpaceId, v: SpaceId, new_u: SpaceId, new_v: SpaceId) -> None:
        """Move the step ``u -> v`` to ``new_u -> new_v``, keeping its kind and lines."""
        ...


@dataclass(frozen=True)
class Change:
    """One concrete edit of a circuit.

    Attributes
    ----------
    kind : {"stops", "longer", "shorter", "grid", "hazard", "pit"}
    corner : CornerId or None
        The corner changed (``None`` for the grid, hazards and the pit lane).
    description : str
    stops : int or None
        The new stop count (``kind == "stops"``).
    spaces : tuple
        The spaces the change puts into the corner (``longer``) or takes out
        (``shorter``); the new grid spots, pole first (``grid``); the spaces
        a hazard zone moves to (``hazard``; empty when it is removed); the
        pit lane's entry or exit step as it becomes, ``(from, to)`` (``pit``).
    cleared : tuple
        The spaces of the hazard zone as it was (``hazard``); the step as it
        was (``pit``).
    hazard : str or None
        The zone's hazard, ``"danger"`` or ``"shooting"`` (``hazard``).
    """

    kind: str
    corner: CornerId | None
    description: str
    stops: int | None = None
    spaces: tuple[SpaceId, ...] = ()
    cleared: tuple[SpaceId, ...] = ()
    hazard: str | None = None

    def apply(self, track: Track) -> Track:
        """The board with this change made (a copy; ``track`` is not changed).

        Examples
        --------
        >>> track = from_ascii(". 1 1 .", corners={1: 1})
        >>> Change("stops", 1, "corner 1: 1 stop -> 2", stops=2).apply(track).corners[1]["stops"]
        2
        """
        changed = track.copy()
        nodes = changed.graph.nodes
        if self.kind == "stops":
            corner, stops = self._new_stops()
            changed.corners[corner]["stops"] = stops
        elif self.kind == "grid":
            for old in changed.grid_spots():
                nodes[old]["grid"] = None
            for number, space in enumerate(self.spaces, start=1):
                nodes[space]["grid"] = number
        elif self.kind == "hazard":
            for space in self.cleared:
                nodes[space]["hazard"] = None
            for space in self.spaces:
                nodes[space]["hazard"] = self.hazard
        elif self.kind == "pit":
            (u, v), (new_u, new_v) = self.cleared, self.spaces
            step = changed.graph.edges[u, v]
            changed.graph.remove_edge(u, v)
            changed.graph.add_edge(new_u, new_v, **step)
        else:
            for space in self.spaces:
                nodes[space]["corner"] = self.corner if self.kind == "longer" else None
            update_corner_counts(changed.graph)
        return changed

    def apply_in(self, controller: BoardEditor) -> None:
        """Make the change in an editor (``TrackEditor.controller``): one edit, undone by Undo."""
        if self.kind == "stops":
            controller.set_corner_stops(*self._new_stops())
        elif self.kind == "grid":
            controller.set_grid(self.spaces)
        elif self.kind == "hazard" and self.spaces:
            controller.move_hazard(self.cleared, self.spaces, self.hazard)
        elif self.kind == "hazard":
            controller.set_hazard(self.cleared, None)
        elif self.kind == "pit":
            controller.move_step(*self.cleared, *self.spaces)
        else:
            corner = self.corner if self.kind == "longer" else None
            controller.set_corner(list(self.spaces), corner)

    def _new_stops(self) -> tuple[CornerId, int]:
        """The corner and its new stop count, of a ``stops`` change.

        :func:`candidate_changes` gives a ``stops`` change both; nothing is checked
        here, so a change made by hand without them fails where it is applied, as before.
        """
        return cast(CornerId, self.corner), cast(int, self.stops)


def candidate_changes(track: Track, rules: str = "basic", *, pit: bool = False) -> list[Change]:
    """Every change :func:`suggest` tries: stops, one space longer or shorter, the grid moved.

    Under street rules (``rules="street"``) each hazard zone (the connected
    spaces of one hazard) is also moved one space further on, one space back,
    and removed. With ``pit=True`` the pit lane's entry and its exit are each
    moved one space earlier and one space later (:func:`pit_changes`).

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . 1 1 . .
    ...     . . 1 1 . .
    ... ''', corners={1: 1})
    >>> [c.description for c in candidate_changes(track)]
    ['Corner 1: 1 stop -> 2', 'Corner 1: 1 stop -> 3', 'Corner 1: one space longer in each lane', 'Corner 1: one space shorter in each lane']
    """
    changes = []
    nodes = track.graph.nodes
    for corner, info in track.corners.items():
        name = str(info.get("name") or f"corner {corner}")
        stops = int(info.get("stops", 1))
        for other in (1, 2, 3):
            if other != stops:
                changes.append(
                    Change("stops", corner, f"{name}: {_stops(stops)} -> {other}", stops=other)
                )
        members = set(track.corner_spaces(corner))
        after = sorted(
            {
                nxt
                for space in members
                for nxt in track.graph.successors(space)
                if nxt not in members
                and nodes[nxt]["kind"] == "track"
                and nodes[nxt]["corner"] is None
                and nodes[nxt]["lane"] == nodes[space]["lane"]
            },
            key=str,
        )
        if after:
            changes.append(
                Change(
                    "longer", corner, f"{name}: one space longer in each lane", spaces=tuple(after)
                )
            )
        last = _last_in_each_lane(track, members)
        if last:
            changes.append(
                Change("shorter", corner, f"{name}: one space shorter in each lane", spaces=last)
            )
    for ahead, words in ((False, "one space further back"), (True, "one space nearer the start")):
        moved = _grid_moved(track, ahead=ahead)
        if moved:
            changes.append(Change("grid", None, f"Grid: {words}", spaces=moved))
    if rules == "street":
        changes += _hazard_changes(track)
    if pit:
        changes += pit_changes(track)
    return changes


def pit_changes(track: Track) -> list[Change]:
    """The pit lane's entry and its exit, each moved one space earlier and one space later.

    The entry is the step from the track into the pit lane, the exit the step
    back: each moves along its track lane to the next space out of any corner
    (printed boards keep the pit lane beside a straight). Moving the entry
    later or the exit earlier makes the way through the pits one space
    longer, the other two one space shorter; what that does to a stop's worth
    is measured, since it also moves where a car must be to turn in. A move that
    gives the board a problem it did not have (the validator's) is not
    offered, nor any on a board whose pit lane has more than one entry or exit.

    Examples
    --------
    >>> from fdlab.analysis.examples import pit_ring
    >>> [c.description for c in pit_changes(pit_ring())]
    ['Pit lane: entry one space earlier', 'Pit lane: entry one space later', 'Pit lane: exit one space earlier', 'Pit lane: exit one space later']
    """
    from collections import Counter

    from fdlab.track.validate import validate

    graph, nodes = track.graph, track.graph.nodes
    steps = {
        kind: [(u, v) for u, v, k in graph.edges(data="kind") if k == kind]
        for kind in ("pit_in", "pit_out")
    }
    if len(steps["pit_in"]) != 1 or len(steps["pit_out"]) != 1:
        return []
    known = Counter(p.code for p in validate(track) if not p.advice)
    changes = []
    for end, (u, v) in (("entry", steps["pit_in"][0]), ("exit", steps["pit_out"][0])):
        on_track = u if end == "entry" else v
        for ahead, words in ((False, "one space earlier"), (True, "one space later")):
            moved = _along_lane(track, on_track, ahead=ahead)
            if moved is None or nodes[moved]["corner"] is not None:
                continue
            new = (moved, v) if end == "entry" else (u, moved)
            if graph.has_edge(*new):
                continue
            change = Change("pit", None, f"Pit lane: {end} {words}", spaces=new, cleared=(u, v))
            found = Counter(p.code for p in validate(change.apply(track)) if not p.advice)
            if not found - known:
                changes.append(change)
    return changes


def _along_lane(track: Track, space: SpaceId, *, ahead: bool) -> SpaceId | None:
    """The track space one ``ahead`` step on (or back) from ``space`` in its lane, if one."""
    graph, nodes = track.graph, track.graph.nodes
    pairs = graph.out_edges(space, data=True) if ahead else graph.in_edges(space, data=True)
    found = [
        v if ahead else u
        for u, v, step in pairs
        if step["kind"] == "ahead"
        and nodes[v if ahead else u]["kind"] == "track"
        and nodes[v if ahead else u]["lane"] == nodes[space]["lane"]
    ]
    return found[0] if len(found) == 1 else None


def _hazard_changes(track: Track) -> list[Change]:
    """Each hazard zone one space further on, one space back, and removed.

    Examples
    --------
    >>> track = from_ascii(". . . . . . . . 1 1 . .", corners={1: 1})
    >>> for space in (3, 4):
    ...     track.graph.nodes[space]["hazard"] = "danger"
    >>> [c.description for c in _hazard_changes(track)]
    ['Danger zone before Corner 1 (2 spaces): one space further on', 'Danger zone before Corner 1 (2 spaces): one space back', 'Danger zone before Corner 1 (2 spaces): removed']
    """
    changes = []
    hazards = {s: h for s, h in track.graph.nodes(data="hazard") if h}
    for zone, hazard in _hazard_zones(track, hazards):
        name = f"{str(hazard).capitalize()} zone {_where(track, zone)} ({len(zone)} spaces)"
        for ahead, words in ((True, "one space further on"), (False, "one space back")):
            moved = _zone_moved(track, zone, hazards, ahead=ahead)
            if moved:
                changes.append(Change("hazard", None, f"{name}: {words}", spaces=moved,
                                      cleared=zone, hazard=hazard))  # fmt: skip
        changes.append(Change("hazard", None, f"{name}: removed", cleared=zone, hazard=hazard))
    return changes


def _hazard_zones(
    track: Track, hazards: dict[SpaceId, str]
) -> list[tuple[tuple[SpaceId, ...], str]]:
    """The zones: spaces of one hazard joined by steps, in lap order."""
    graph = track.graph
    seen: set[SpaceId] = set()
    zones = []
    for start in sorted(hazards, key=lambda s: (graph.nodes[s].get("progress") or 0, str(s))):
        if start in seen:
            continue
        zone, todo = [], [start]
        seen.add(start)
        while todo:
            space = todo.pop()
            zone.append(space)
            for other in (*graph.successors(space), *graph.predecessors(space)):
                if other not in seen and hazards.get(other) == hazards[start]:
                    seen.add(other)
                    todo.append(other)
        zones.append((tuple(sorted(zone, key=str)), hazards[start]))
    return zones


def _zone_moved(
    track: Track, zone: tuple[SpaceId, ...], hazards: dict[SpaceId, str], *, ahead: bool
) -> tuple[SpaceId, ...]:
    """The zone one space on (or back) along its lanes; ``()`` if a space cannot move."""
    graph, nodes = track.graph, track.graph.nodes
    moved = []
    for space in zone:
        pairs = graph.out_edges(space, data=True) if ahead else graph.in_edges(space, data=True)
        found = [v if ahead else u for u, v, step in pairs if step["kind"] == "ahead"]
        found = [s for s in found if nodes[s]["kind"] == "track"
                 and nodes[s]["lane"] == nodes[space]["lane"]
                 and (s in zone or s not in hazards)]  # fmt: skip
        if len(found) != 1:
            return ()
        moved.append(found[0])
    return tuple(sorted(set(moved), key=str)) if len(set(moved)) == len(moved) else ()


def _where(track: Track, spaces: Iterable[SpaceId]) -> str:
    """``in Corner 2``, ``after Corner 2`` or ``before Corner 1``, by lap progress."""
    nodes = track.graph.nodes
    members = set(spaces)
    for corner, info in track.corners.items():
        if members & set(track.corner_spaces(corner)):
            return f"in {info.get('name') or f'Corner {corner}'}"
    start = min(float(nodes[s].get("progress") or 0.0) for s in members)
    passed = [
        (max(float(nodes[s].get("progress") or 0.0) for s in track.corner_spaces(c)), c)
        for c in track.corners
        if track.corner_spaces(c)
    ]
    before = [(end, c) for end, c in passed if end <= start]
    if before:
        corner = max(before)[1]
        return f"after {track.corners[corner].get('name') or f'Corner {corner}'}"
    if passed:
        corner = min(passed)[1]
        return f"before {track.corners[corner].get('name') or f'Corner {corner}'}"
    return "on the lap"


def _grid_moved(track: Track, *, ahead: bool) -> tuple[SpaceId, ...]:
    """The grid spots one space back (or ahead) in their lanes, pole first; ``()`` if one cannot move.

    A spot moves along an ``ahead`` step of its lane onto a track space out of
    any corner, never across the finish line.

    Examples
    --------
    >>> track = from_ascii(". . . . . .", grid=[2, 1], finish=5)
    >>> _grid_moved(track, ahead=False), _grid_moved(track, ahead=True)
    ((1, 0), (3, 2))
    >>> _grid_moved(from_ascii(". . . .", grid=[2, 1], finish=3), ahead=True)  # across the line
    ()
    """
    graph, nodes = track.graph, track.graph.nodes
    moved = []
    for spot in track.grid_spots():
        pairs = graph.out_edges(spot, data=True) if ahead else graph.in_edges(spot, data=True)
        found = [
            v if ahead else u
            for u, v, step in pairs
            if step["kind"] == "ahead" and "finish" not in step["lines"]
        ]
        found = [s for s in found if nodes[s]["kind"] == "track" and nodes[s]["corner"] is None
                 and nodes[s]["lane"] == nodes[spot]["lane"]]  # fmt: skip
        if len(found) != 1:
            return ()
        moved.append(found[0])
    return tuple(moved) if len(set(moved)) == len(moved) else ()


def _last_in_each_lane(track: Track, members: set[SpaceId]) -> tuple[SpaceId, ...]:
    """The last space of the corner in each lane that keeps at least one space."""
    nodes = track.graph.nodes
    by_lane: dict[Any, list[SpaceId]] = {}
    for space in members:
        by_lane.setdefault(nodes[space]["lane"], []).append(space)
    last = []
    for row in by_lane.values():
        if len(row) < 2:
            return ()  # a lane of one space: the corner cannot be shorter there
        ends = [s for s in row if not any(n in members for n in track.graph.successors(s)
                                          if nodes[n]["lane"] == nodes[s]["lane"])]  # fmt: skip
        if len(ends) != 1:
            return ()
        last.append(ends[0])
    return tuple(sorted(last, key=str))


def _stops(n: int) -> str:
    return f"{n} stop{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class Suggestion:
    """A change that brings the circuit toward its targets, and what it does.

    Attributes
    ----------
    change : Change
    before, after : Verdict
        The board's verdict without and with the change (exact par, races).
    gain : float
        How much closer to the targets the change brings the board.
    fixed : tuple of str
        Targets the board missed that it meets with the change.
    broken : tuple of str
        Targets it met that it misses with the change.
    worse : tuple of str
        Targets it missed that it misses by more with the change (the price
        of the gain elsewhere).
    """

    change: Change
    before: Verdict
    after: Verdict
    gain: float
    fixed: tuple[str, ...] = ()
    broken: tuple[str, ...] = ()
    worse: tuple[str, ...] = ()

    def apply(self, track: Track) -> Track:
        """The board with the change made (a copy)."""
        return self.change.apply(track)

    def apply_in(self, controller: BoardEditor) -> None:
        """Make the change in an editor, as one edit (Undo takes it back)."""
        self.change.apply_in(controller)

    @property
    def effect(self) -> str:
        """The measured effect in words: par before and after, race length with its interval."""
        b, a = self.before, self.after
        low, high = a.rounds_interval
        if self.change.kind == "pit" and a.pit is not None and b.pit is not None:
            text = (
                f"over two laps the pits save a lone car {b.pit.saves:.2f} -> "
                f"{a.pit.saves:.2f} turns (two-lap par {b.pit.two_laps:.2f} -> "
                f"{a.pit.two_laps:.2f}; a one-lap race is not changed: no car pits in it)"
            )
        else:
            text = (
                f"par {b.par:.2f} -> {a.par:.2f} turns a lap; six cars race a lap in "
                f"{a.rounds:.1f} rounds ({spread_text(low, high)}; was {b.rounds:.1f})"
            )
        if self.fixed:
            text += "; fixes: " + "; ".join(self.fixed)
        if self.broken or self.worse:
            text += "; but: " + "; ".join(self.broken + self.worse)
        return text

    def picture(self, track: Track, width: int = 360) -> str:
        """The changed board with the changed corner outlined (SVG)."""
        from fdlab.plot.svg import track_svg

        changed = self.apply(track)
        corner = self.change.corner
        spaces = (changed.corner_spaces(corner) if corner is not None else []) or list(
            self.change.spaces
        )
        return track_svg(changed, highlight=spaces, width=width, legend=False)


@dataclass
class Suggestions(Sequence[Suggestion]):
    """The suggestions of :func:`suggest`, best first, with the board and what it misses.

    Attributes
    ----------
    track : Track
    targets : Targets
    verdict : Verdict
        The board as it is.
    missing : dict
        The targets it misses (keyed as :meth:`Targets.distance` keys them).
    items : list of Suggestion
    tried : int
        Changes measured.
    seconds : float
    """

    track: Track
    targets: Targets
    verdict: Verdict
    missing: dict[Any, str]
    items: list[Suggestion] = field(default_factory=list)
    tried: int = 0
    seconds: float = 0.0

    def __getitem__(self, index: Any) -> Any:
        return self.items[index]

    def __len__(self) -> int:
        return len(self.items)

    @property
    def table(self) -> pd.DataFrame:
        """One row per suggestion: the change, par before and after, race length, gain."""
        return pd.DataFrame(
            [
                {
                    "change": s.change.description,
                    "par_before": s.before.par,
                    "par_after": s.after.par,
                    "rounds_after": s.after.rounds,
                    "pit_saves_after": None if s.after.pit is None else s.after.pit.saves,
                    "gain": s.gain,
                    "fixes": "; ".join(s.fixed),
                    "but": "; ".join(s.broken + s.worse),
                }
                for s in self.items
            ]
        )

    def _repr_html_(self) -> str:
        head = (
            f"<h3>What to change on {html.escape(self.track.name)}</h3>"
            f"<p>{self.tried} changes measured in {self.seconds:.0f} s. "
        )
        if self.missing:
            misses = "; ".join(html.escape(m) for m in self.missing.values())
            head += f"The board misses: {misses}.</p>"
        else:
            head += "The board meets every target as it is.</p>"
        if self.verdict.pit is not None:
            head += f"<p>Pit lane: {html.escape(self.verdict.pit.words)}.</p>"
        if not self.items:
            return head + "<p>No change tried brings it closer to its targets.</p>"
        head += (
            "<p>Each change is one call away: <code>suggestions[0].apply(board)</code> returns "
            "a changed copy of the board you gave <code>suggest</code>, and "
            "<code>suggestions[0].apply_in(editor.controller)</code> makes it in a track "
            "editor as one edit that Undo takes back (0 is the first change, 1 the second...).</p>"
        )
        rows = "".join(
            "<div style='display:flex;flex-wrap:wrap;gap:12px;margin-bottom:12px'>"
            f"<div style='flex:1 1 22em;max-width:38em'><b>{k}. "
            f"{html.escape(s.change.description)}</b><br>{html.escape(s.effect)}<br>"
            f"<code>suggestions[{k - 1}]</code></div>"
            f"<div>{s.picture(self.track)}</div></div>"
            for k, s in enumerate(self.items[:10], start=1)
        )
        return head + rows

    def save_html(self, path: str | os.PathLike[str]) -> Path:
        """Write the suggestions as a standalone page (atomic)."""
        from fdlab.files import atomic_write

        target = Path(path)
        page = (
            "<!doctype html><html><head><meta charset='utf-8'><title>"
            f"What to change on {html.escape(self.track.name)}</title></head>"
            f"<body style='font-family:sans-serif;max-width:1100px'>{self._repr_html_()}</body></html>"
        )
        atomic_write(target, page.encode("utf-8"))
        return target


def suggest(  # noqa: PLR0913 (a suggest run's options are keywords, read in notebooks)
    track: Track,
    targets: Targets | None = None,
    *,
    changes: Iterable[Change] | None = None,
    races: int = 12,
    seed: int = 0,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
    rules: str | None = None,
    pit: bool | None = None,
) -> Suggestions:
    """Try changes on ``track`` and list those that bring it toward ``targets``, best first.

    Parameters
    ----------
    track : Track
    targets : Targets, optional
        Default: :class:`Targets` (the printed boards' figures).
    changes : iterable of Change, optional
        Default: :func:`candidate_changes`.
    races : int
        Seeded six-car races per measured board (the par is exact).
    seed : int
    workers : int, optional
        Processes (default: every core); 1 measures here.
    client : dask.distributed.Client, optional
        Measure the changes on this Dask cluster instead (``workers`` is
        then unused).
    progress : bool
        A progress bar with the time left (``tqdm``).
    rules : {"basic", "street"}, optional
        The rules the boards are raced under. Default: ``"street"`` when the
        board has hazard spaces (then each hazard zone is also moved and
        removed), else ``"basic"``.
    pit : bool, optional
        Study the pit lane: measure what it is worth over two laps
        (:mod:`fdlab.analysis.pit_worth`, exact two-lap solves) and try its
        entry and exit moved (:func:`pit_changes`). Default: when the board
        is set for two laps or more (a one-lap race has no pit stop) and has
        a pit lane, and ``targets.pit_saves`` is set. A change elsewhere is
        measured over one lap, and keeps the board's pit figure; the pit-lane
        changes are solved only when the board misses ``targets.pit_saves``
        (otherwise none can bring it closer).

    Returns
    -------
    Suggestions

    Raises
    ------
    PlaytestError
        When the board cannot be raced as it is (its verdict says why).
    """
    from tqdm.auto import tqdm  # untyped: pyproject treats it as Any

    began = time.perf_counter()
    targets = targets or Targets()
    if rules is None:
        rules = rules_for(track)
    if rules not in ("basic", "street"):
        raise PlaytestError(f"suggest: rules is 'basic' or 'street', not {rules!r}")
    pit = pit_studied(track, targets, pit)
    tried = list(changes) if changes is not None else candidate_changes(track, rules, pit=pit)
    on_pit = [change for change in tried if change.kind == "pit"]
    study = PitStudy(tuple(on_pit), targets.pit_saves) if pit or on_pit else None
    # the board as it is first, then each change elsewhere, then the pit lane's study
    measured: list[Change | PitStudy | None] = [None, *(c for c in tried if c.kind != "pit")]
    measured += [study] if study is not None else []
    results: list[Verdict | PitStudied | None] = [None] * len(measured)
    with tqdm(total=len(measured), desc=f"suggest {track.name}", unit="board",
              disable=not progress) as bar:  # fmt: skip
        for index, result in _measured(track, measured, races, seed, workers, client, rules):
            if index == 0 and result is None:
                break  # the board as it is cannot be raced: its verdict below says why
            results[index] = result
            bar.update(1)
    verdict = results[0]
    if not isinstance(verdict, Verdict):
        try:
            verdict = board_verdict(track, races=races, seed=seed, rules=rules)
        except VerdictError as error:
            raise PlaytestError(f"suggest: {error}") from error
    studied = results[-1] if study is not None else None
    pit_after: list[PitWorth | None] = [None] * len(on_pit)
    unsolved = 0  # pit-lane changes not solved: the board meets its pit target
    if isinstance(studied, PitStudied) and study is not None:
        verdict = replace(verdict, pit=studied.worth)
        pit_after = [None if t is None else PitWorth(t, float("nan")) for t in studied.two_laps]
        if studied.worth is not None and not study.needed(studied.worth):
            unsolved = len(on_pit)
    elsewhere = iter(
        r if isinstance(r, Verdict) else None for r in results[1 : 1 + len(tried) - len(on_pit)]
    )
    on_pit_after = iter(pit_after)
    misses = targets.misses(verdict, track)
    distance, missing = targets._summed(misses, verdict)
    found = []
    for change in tried:
        after = _with_pit(verdict, next(on_pit_after) if change.kind == "pit" else next(elsewhere))
        if after is None:
            continue  # not measured, or the change made the board unplayable
        new_misses = targets.misses(after, change.apply(track))
        new_distance, new_missing = targets._summed(new_misses, after)
        gain = distance - new_distance
        if gain > 1e-9:
            found.append(
                Suggestion(
                    change=change,
                    before=verdict,
                    after=after.after(verdict),
                    gain=gain,
                    fixed=tuple(text for key, text in missing.items() if key not in new_missing),
                    broken=tuple(text for key, text in new_missing.items() if key not in missing),
                    worse=tuple(
                        text
                        for key, (amount, text) in new_misses.items()
                        if key in misses and amount > misses[key][0] + 1e-9
                    ),
                )
            )
    found.sort(key=lambda s: -s.gain)
    return Suggestions(
        track=track,
        targets=targets,
        verdict=verdict,
        missing=missing,
        items=found,
        tried=len(tried) - unsolved,
        seconds=time.perf_counter() - began,
    )


def pit_studied(track: Track, targets: Targets, pit: bool | None = None) -> bool:
    """Whether :func:`suggest` studies ``track``'s pit lane (``pit``: as asked, ``None``: when
    the board is set for two laps or more and ``targets`` judge the pit lane); never on a
    board without a pit lane.

    Examples
    --------
    >>> from fdlab.analysis.examples import pit_ring
    >>> track = pit_ring()
    >>> pit_studied(track, Targets()), pit_studied(track, Targets(), pit=True)
    (False, True)
    >>> track.graph.graph["laps"] = 2
    >>> pit_studied(track, Targets()), pit_studied(track, Targets(pit_saves=None))
    (True, False)
    """
    if pit is None:
        pit = track.laps >= PIT_LAPS and targets.pit_saves is not None
    return pit and has_pit_lane(track)


def _with_pit(before: Verdict, after: Verdict | PitWorth | None) -> Verdict | None:
    """A change's verdict with its pit figure: a pit-lane change measured only its two-lap
    par (a one-lap race is the board's as it is), a change elsewhere only one lap (its pit
    figure is the board's as it is); ``None`` when the change could not be measured.

    Examples
    --------
    >>> before = Verdict("A", 18.0, 6, 24, 20.0, (19.8, 20.2), 1.0, (), 1.0, pit=PitWorth(33.0, 34.0))
    >>> _with_pit(before, PitWorth(32.5, float("nan"))).pit
    PitWorth(two_laps=32.5, closed=34.0)
    >>> _with_pit(before, replace(before, par=17.0, pit=None)).pit
    PitWorth(two_laps=33.0, closed=34.0)
    """
    if isinstance(after, PitWorth):
        if before.pit is None:
            return None
        return replace(before, pit=PitWorth(two_laps=after.two_laps, closed=before.pit.closed))
    if after is not None and after.pit is None and before.pit is not None:
        return replace(after, pit=before.pit)
    return after


@dataclass(frozen=True)
class PitStudy:
    """The pit lane's part of a suggest run, measured as one task in one process.

    The two-lap solves share their searches (:mod:`fdlab.par.reuse`) only within
    a process, so the board's two-lap par, its par with the pit lane closed and
    each pit-lane change are solved one after the other, where the first is
    remembered. A pit-lane change moves only the pit figure, so when the board
    meets ``saves`` (or no range is given) no change can bring it closer and
    none is solved.

    Attributes
    ----------
    changes : tuple of Change
        The pit-lane changes (``kind == "pit"``).
    saves : (float, float) or None
        The target (:attr:`Targets.pit_saves`).
    """

    changes: tuple[Change, ...]
    saves: tuple[float, float] | None

    def needed(self, worth: PitWorth) -> bool:
        """Whether a change can bring ``worth`` closer to the target (it misses it).

        Examples
        --------
        >>> study = PitStudy((), (0.2, 2.4))
        >>> study.needed(PitWorth(33.0, 33.5)), study.needed(PitWorth(30.0, 33.5))
        (False, True)
        """
        if self.saves is None:
            return False
        low, high = self.saves
        return not low <= worth.saves <= high


@dataclass(frozen=True)
class PitStudied:
    """What a :class:`PitStudy` measured: the board's pit figure, and each change's
    two-lap par (``None``: not solved, or the changed board cannot be raced)."""

    worth: PitWorth | None
    two_laps: tuple[float | None, ...]


#: Worker side: the unchanged board of a suggest run by its key, this process's copy
#: (one at a time), compiled when the rules can compile it.
_BASES: dict[str, tuple[Track, Board | None]] = {}


def _base(key: str, track_dict: dict[str, Any], rules: str) -> tuple[Track, Board | None]:
    """The unchanged board (read and solved once per process, :func:`_start_worker`)."""
    known = _BASES.get(key)
    if known is None:
        track = track_from_dict(track_dict)
        board: Board | None = None
        with suppress(BoardError):  # the base's verdict says what is wrong with it
            board = compile_board(track)
            name_board(board, key)
            solve_for_edits(board, rules)
        _BASES.clear()
        known = _BASES[key] = (track, board)
    return known


def _start_worker(key: str, track_dict: dict[str, Any], rules: str = "basic") -> None:
    """Solve the unchanged board first, so each change re-solves only what it touched."""
    _base(key, track_dict, rules)


def _measure(  # a worker's task: the suggest call's keywords, passed on
    key: str,
    track_dict: dict[str, Any],
    change: Change | PitStudy | None,
    races: int,
    seed: int,
    rules: str = "basic",
) -> Verdict | PitStudied | None:
    """The verdict of the board ``key`` with ``change`` made (``None``: as it is), in a
    worker process; ``None`` if it cannot be raced. A :class:`PitStudy` gives
    :class:`PitStudied` (:func:`_study_pit`).

    The worker keeps its own copy of the unchanged board (``track_dict``, read
    once) and makes the change there: a task carries the change, not a board.
    The changed board's par tables are kept under a key naming the unchanged
    board and the change.
    """
    base, compiled = _base(key, track_dict, rules)
    if isinstance(change, PitStudy):
        return _study_pit(key, base, compiled, change)
    try:
        if change is None:
            board = compiled if compiled is not None else compile_board(base)
        else:
            board = _changed_board(key, base, change)
        return board_verdict(board, races=races, seed=seed, rules=rules)
    except (VerdictError, BoardError):
        return None


def _changed_board(key: str, base: Track, change: Change) -> Board:
    """``base`` with ``change`` made, compiled, its tables kept under a key naming both."""
    board = compile_board(change.apply(base))
    name_board(board, content_key({"board": key, "change": repr(change)}))
    return board


def _study_pit(key: str, base: Track, compiled: Board | None, study: PitStudy) -> PitStudied:
    """The board's pit figure, then (when it misses its target) each change's two-lap par."""
    unsolved = PitStudied(None, (None,) * len(study.changes))
    if compiled is None or not has_pit_lane(base):
        return unsolved
    try:
        worth = PitWorth(two_lap_par(compiled), two_lap_par(close_pit_lane(base)))
    except FdlabError:
        return unsolved  # the board's verdict says what is wrong with it
    if not study.needed(worth):
        return PitStudied(worth, unsolved.two_laps)
    two_laps: list[float | None] = []
    for change in study.changes:
        try:
            two_laps.append(two_lap_par(_changed_board(key, base, change)))
        except FdlabError:
            two_laps.append(None)
    return PitStudied(worth, tuple(two_laps))


def _longest_first(track: Track, changes: Sequence[Change | PitStudy | None]) -> list[int]:
    """The indices of ``changes`` in the order to measure them: the board as it is first,
    then the changes that take longest.

    A change's re-solve values again every position that can reach it, so
    a change late in the lap takes longest (Monaco: 1.5 s for its first
    corner, 3.5 s for its last), and a moved grid hardly any time (no move
    reads it). Measured longest first, the workers run out of work together
    rather than one waiting for the other's last long change. The pit study
    (two-lap solves) comes right after the board as it is.

    Examples
    --------
    >>> track = from_ascii(". 1 . . . 2 . .", corners={1: 1, 2: 1})
    >>> changes = [None, Change("stops", 1, "", stops=2), Change("stops", 2, "", stops=2)]
    >>> _longest_first(track, changes)
    [0, 2, 1]
    """

    def work(index: int) -> float:  # where the change begins along the lap
        change = changes[index]
        if change is None:
            return float("inf")
        if isinstance(change, PitStudy):
            return 1e12  # two-lap solves
        if change.kind == "grid":
            return 0.0
        spaces = [*change.spaces, *change.cleared]
        if change.corner is not None:
            spaces += track.corner_spaces(change.corner)
        return min((track.space(space)["progress"] for space in spaces), default=0.0)

    return sorted(range(len(changes)), key=lambda index: -work(index))


def _measured(  # the suggest call's own keywords, passed on
    track: Track,
    changes: Sequence[Change | PitStudy | None],
    races: int,
    seed: int,
    workers: int | None,
    client: Any = None,
    rules: str = "basic",
) -> Iterable[tuple[int, Verdict | PitStudied | None]]:
    """``(index, verdict)`` of the board with each change (``None``: as it is) as it is
    measured: here, on processes or on Dask.

    Wherever the boards are measured, the unchanged ``track`` is solved there
    first (:func:`fdlab.analysis.verdict.solve_for_edits`): a change's par is
    then a re-solve of what the change can reach, not a solve from scratch.
    """
    base = track_to_dict(track)
    key = content_key(base)
    order = _longest_first(track, changes)
    if client is not None:
        client.run(_start_worker, key, base, rules)
        shared = client.scatter(base, broadcast=True)
        futures = {
            client.submit(
                _measure, key, shared, changes[index], races, seed, rules, pure=False,
                priority=len(order) - rank,
            ): index
            for rank, index in enumerate(order)
        }  # fmt: skip
        from dask.distributed import as_completed as dask_completed

        try:
            for future in dask_completed(futures):  # type: ignore[no-untyped-call]
                yield futures[future], future.result()
        finally:  # stopped early: the rest is not wanted
            client.cancel(list(futures))
        return
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(changes) < 2:
        for index, change in enumerate(changes):
            yield index, _measure(key, base, change, races, seed, rules)
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(changes)),
        mp_context=context,
        initializer=_start_worker,
        initargs=(key, base, rules),
    )
    try:
        futures = {
            pool.submit(_measure, key, base, changes[index], races, seed, rules): index
            for index in order
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:  # stopped early (the board as it is cannot be raced): the rest is not wanted
        pool.shutdown(wait=True, cancel_futures=True)
