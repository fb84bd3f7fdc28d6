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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

import pandas as pd

from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.stats import spread_text
from fdlab.analysis.verdict import (
    Verdict,
    VerdictError,
    board_verdict,
    rules_for,
    solve_for_edits,
)
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
    "candidate_changes",
    "suggest",
]

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
    """

    par: tuple[float, float] | None = (11.6, 22.8)
    race_rounds: tuple[float, float] | None = None
    max_corner_elimination: float | None = 0.05
    stops_fit_length: bool = True
    more_overtaking: bool = False
    max_pole_wins: float | None = None

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


@dataclass(frozen=True)
class Change:
    """One concrete edit of a circuit.

    Attributes
    ----------
    kind : {"stops", "longer", "shorter", "grid", "hazard"}
    corner : CornerId or None
        The corner changed (``None`` for the grid and hazards).
    description : str
    stops : int or None
        The new stop count (``kind == "stops"``).
    spaces : tuple
        The spaces the change puts into the corner (``longer``) or takes out
        (``shorter``); the new grid spots, pole first (``grid``); the spaces
        a hazard zone moves to (``hazard``; empty when it is removed).
    cleared : tuple
        The spaces of the hazard zone as it was (``hazard``).
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
        else:
            corner = self.corner if self.kind == "longer" else None
            controller.set_corner(list(self.spaces), corner)

    def _new_stops(self) -> tuple[CornerId, int]:
        """The corner and its new stop count, of a ``stops`` change.

        :func:`candidate_changes` gives a ``stops`` change both; nothing is checked
        here, so a change made by hand without them fails where it is applied, as before.
        """
        return cast(CornerId, self.corner), cast(int, self.stops)


def candidate_changes(track: Track, rules: str = "basic") -> list[Change]:
    """Every change :func:`suggest` tries: stops, one space longer or shorter, the grid moved.

    Under street rules (``rules="street"``) each hazard zone (the connected
    spaces of one hazard) is also moved one space further on, one space back,
    and removed.

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
    return changes


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
        if not self.items:
            return head + "<p>No change tried brings it closer to its targets.</p>"
        rows = "".join(
            "<div style='display:flex;flex-wrap:wrap;gap:12px;margin-bottom:12px'>"
            f"<div style='flex:1 1 22em;max-width:38em'><b>{k}. "
            f"{html.escape(s.change.description)}</b><br>{html.escape(s.effect)}<br>"
            f"<code>suggestions[{k - 1}].apply_in(editor.controller)</code></div>"
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
    tried = list(changes) if changes is not None else candidate_changes(track, rules)
    measured: list[Change | None] = [None, *tried]  # the board as it is first
    verdicts: list[Verdict | None] = [None] * len(measured)
    with tqdm(total=len(measured), desc=f"suggest {track.name}", unit="board",
              disable=not progress) as bar:  # fmt: skip
        for index, result in _measured(track, measured, races, seed, workers, client, rules):
            if index == 0 and result is None:
                break  # the board as it is cannot be raced: its verdict below says why
            verdicts[index] = result
            bar.update(1)
    verdict = verdicts[0]
    if verdict is None:
        try:
            verdict = board_verdict(track, races=races, seed=seed, rules=rules)
        except VerdictError as error:
            raise PlaytestError(f"suggest: {error}") from error
    misses = targets.misses(verdict, track)
    distance, missing = targets._summed(misses, verdict)
    found = []
    for change, after in zip(tried, verdicts[1:], strict=True):
        if after is None:
            continue  # the change made the board unplayable
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
        tried=len(tried),
        seconds=time.perf_counter() - began,
    )


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
    change: Change | None,
    races: int,
    seed: int,
    rules: str = "basic",
) -> Verdict | None:
    """The verdict of the board ``key`` with ``change`` made (``None``: as it is), in a
    worker process; ``None`` if it cannot be raced.

    The worker keeps its own copy of the unchanged board (``track_dict``, read
    once) and makes the change there: a task carries the change, not a board.
    The changed board's par tables are kept under a key naming the unchanged
    board and the change.
    """
    base, compiled = _base(key, track_dict, rules)
    try:
        if change is None:
            board = compiled if compiled is not None else compile_board(base)
        else:
            board = compile_board(change.apply(base))
            name_board(board, content_key({"board": key, "change": repr(change)}))
        return board_verdict(board, races=races, seed=seed, rules=rules)
    except (VerdictError, BoardError):
        return None


def _longest_first(track: Track, changes: Sequence[Change | None]) -> list[int]:
    """The indices of ``changes`` in the order to measure them: the board as it is first,
    then the changes that take longest.

    A change's re-solve values again every position that can reach it, so
    a change late in the lap takes longest (Monaco: 1.5 s for its first
    corner, 3.5 s for its last), and a moved grid hardly any time (no move
    reads it). Measured longest first, the workers run out of work together
    rather than one waiting for the other's last long change.

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
        if change.kind == "grid":
            return 0.0
        spaces = [*change.spaces, *change.cleared]
        if change.corner is not None:
            spaces += track.corner_spaces(change.corner)
        return min((track.space(space)["progress"] for space in spaces), default=0.0)

    return sorted(range(len(changes)), key=lambda index: -work(index))


def _measured(  # the suggest call's own keywords, passed on
    track: Track,
    changes: Sequence[Change | None],
    races: int,
    seed: int,
    workers: int | None,
    client: Any = None,
    rules: str = "basic",
) -> Iterable[tuple[int, Verdict | None]]:
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
