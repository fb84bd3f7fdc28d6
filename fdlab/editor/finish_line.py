"""Move a board's finish line, and what must move with it (the editor's "Finish line here").

Moving the line is several edits planned one after another
(:class:`~fdlab.editor.operations.Staged`): every ``progress`` is counted
from the new line; the grid keeps its place behind the line; a pit lane
that would no longer run across the line is laid again beside the new one
(P-2: cars pit between laps); the line then crosses every step where
the lap starts again (progress falls by half a lap or more, not the hair
a step into a pit lane may go back); and a board made by the builder gets its
build spec's ``finish`` moved too, so a rebuild puts the line back where
the designer put it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from fdlab.editor.errors import EditError
from fdlab.editor.operations import (
    AddSpaces,
    Operation,
    RemoveSpaces,
    SetGraphValue,
    SetSpaceAttributes,
    SetStepLines,
    Staged,
)
from fdlab.track.model import SpaceId, Track, starts_lap_again

#: Step kinds the finish line may cross (a tunnel jumps, it crosses no line on the board).
CROSSING_KINDS = ("ahead", "lane_change", "pit_in", "pit_out", "box_in", "box_out")


def distance_text(track: Track, spaces: float) -> str:
    """``spaces`` of progress said as spaces and metres.

    Examples
    --------
    >>> distance_text(from_ascii(". . . .", closed=True), 3)
    '3 spaces (3 m)'
    """
    length = float(track.graph.graph.get("space_length") or 1.0)
    units = track.graph.graph.get("units") or "m"
    count = f"{spaces:.3g} space{'s' if round(spaces, 3) != 1 else ''}"
    return f"{count} ({spaces * length:.0f} {units})"


def move_finish(track: Track, starts: Iterable[SpaceId], edits_key: str = "edits") -> Staged:
    """The operation that moves the finish line to just before the spaces ``starts``.

    Raises
    ------
    EditError
        When the board has no lap length, or a grid spot or the pit lane
        cannot follow the line; the message says which and what to do.

    Examples
    --------
    >>> track = from_ascii(". . . . . .", closed=True, grid=[5, 4])
    >>> move = move_finish(track, [2])
    >>> move.label
    'move the finish line 2 spaces (2 m) on'
    >>> move.apply(track)
    >>> track.edges_crossing("finish"), track.space(2)["progress"], track.grid_spots()
    ([(1, 2)], 0.0, [1, 0])
    """
    starts = [s for s in starts if s in track.graph]
    lap = float(track.lap_length)
    if lap <= 0 or not starts:
        raise EditError("finish line here: the board has no closed lap to put the line on")
    shift = min(track.space(s)["progress"] for s in starts)
    if shift == 0:
        raise EditError("finish line here: the line already lies before the selected spaces")
    ahead = shift <= lap / 2
    distance = distance_text(track, shift if ahead else lap - shift)
    label = f"move the finish line {distance} {'on' if ahead else 'back'}"
    return Staged(
        [
            lambda t: _shift_progress(t, shift),
            lambda t: _move_grid(t, shift),
            lambda t: _relay_pit_lane(t),
            lambda t: _finish_steps(t),
            lambda t: _follow_spec(t, starts, shift, edits_key),
        ],
        label=label,
    )


def _shift_progress(track: Track, shift: float) -> Operation:
    lap = float(track.lap_length)
    changes = {
        space: {"progress": round((data["progress"] - shift) % lap, 4)}
        for space, data in track.graph.nodes(data=True)
    }
    return SetSpaceAttributes(changes, label="count progress from the new line")


#: Farthest (spaces of progress) a grid spot moved with the finish line lands from where
#: it should: half of the longest corner space, or one space on when that space is taken.
_GRID_REACH = 1.25


def _move_grid(track: Track, shift: float) -> Operation | None:
    """Each grid spot goes to the space of its lane as far behind the new line as it was."""
    lap = float(track.lap_length)
    nodes = track.graph.nodes
    spots = [(nodes[s]["grid"], s) for s in track.grid_spots()]
    if not spots:
        return None
    changes: dict[SpaceId, dict[str, Any]] = {s: {"grid": None} for _, s in spots}
    for number, space in spots:
        old = nodes[space]
        wanted = (old["progress"] + shift) % lap  # progress it had from the old line
        lane_spaces = [
            (min(abs(d["progress"] - wanted), lap - abs(d["progress"] - wanted)), s)
            for s, d in nodes(data=True)
            if d["kind"] == "track" and d["lane"] == old["lane"]
        ]
        # the nearest space not taken by a spot nearer the line: the spaces of a corner's
        # inside lane may be a space and a half long, two spots a space apart sharing one
        free = sorted(
            (item for item in lane_spaces if changes.get(item[1], {}).get("grid") is None),
            key=lambda item: (item[0], str(item[1])),
        )
        gap, target = free[0] if free else (math.inf, None)
        if gap > _GRID_REACH:
            raise EditError(
                f"finish line here: grid spot {number} finds no space of lane {old['lane']} "
                f"{wanted:.3g} spaces behind the new line; move the grid by hand "
                "(Spot, Grid spot) and try again"
            )
        assert target is not None  # a finite gap: some space was free
        changes[target] = {"grid": number}
    return SetSpaceAttributes(changes, label="move the grid behind the new line")


def _crossings(track: Track) -> set[tuple[SpaceId, SpaceId]]:
    """The steps that start the lap again (:func:`~fdlab.track.model.starts_lap_again`):
    not the step into a pit lane that goes back a hair beside a long space."""
    nodes = track.graph.nodes
    lap = float(track.lap_length)
    return {
        (u, v)
        for u, v, kind in track.graph.edges(data="kind")
        if kind in CROSSING_KINDS
        and starts_lap_again(nodes[u]["progress"], nodes[v]["progress"], lap)
    }


def _pit_spaces(track: Track) -> list[SpaceId]:
    return [s for s, d in track.graph.nodes(data=True) if d["kind"] in ("pit", "box")]


def _relay_pit_lane(track: Track) -> Operation | None:
    """Lay the pit lane again across the new line, when it no longer runs across it."""
    pits = set(_pit_spaces(track))
    if not pits:
        return None
    crossing = _crossings(track)
    if any(u in pits or v in pits for u, v in crossing):
        return None  # the pit lane still runs across the line
    from fdlab.editor.pitlane import plan_pit_lane

    graph = track.graph
    entries = [u for u, v, kind in graph.edges(data="kind") if kind == "pit_in" and v in pits]
    lane = graph.nodes[entries[0]]["lane"] if entries else 0
    length = sum(1 for s in pits if graph.nodes[s]["kind"] == "pit")
    boxes = sum(1 for s in pits if graph.nodes[s]["kind"] == "box")
    along = _run_across_the_line(track, lane, length)
    rest = track.copy()
    RemoveSpaces(sorted(pits, key=str)).apply(rest)
    try:
        plan = plan_pit_lane(rest, along, boxes=min(boxes, max(len(along) - 2, 0)))
    except EditError as error:
        raise EditError(
            f"finish line here: the pit lane no longer runs across the line and cannot be "
            f"laid again beside it ({error}); press Remove pit lane first, or put the line "
            "on the pit straight"
        ) from None
    return _Relay(
        RemoveSpaces(sorted(pits, key=str)), AddSpaces(plan.spaces, plan.steps, plan.contacts)
    )


class _Relay(Operation):
    """Remove the old pit lane and add the new one (one stage)."""

    label = "lay the pit lane across the new line"

    def __init__(self, remove: RemoveSpaces, add: AddSpaces) -> None:
        self.parts = (remove, add)

    def apply(self, track: Track) -> None:
        self.parts[0].apply(track)
        try:
            self.parts[1].apply(track)
        except Exception:
            self.parts[0].revert(track)
            raise

    def revert(self, track: Track) -> None:
        self.parts[1].revert(track)
        self.parts[0].revert(track)


def _run_across_the_line(track: Track, lane: int, length: int) -> list[SpaceId]:
    """``length`` consecutive spaces of ``lane``, half of them before the line."""
    graph = track.graph
    row = sorted(
        (d["progress"], s)
        for s, d in graph.nodes(data=True)
        if d["kind"] == "track" and d["lane"] == lane
    )
    if not row:
        raise EditError(f"finish line here: no lane {lane} to lay the pit lane beside")
    first = row[0][1]  # just after the line
    run = [first]
    back = first
    for _ in range(max(length // 2, 1)):
        before = [
            u
            for u in graph.predecessors(back)
            if graph.edges[u, back]["kind"] == "ahead" and graph.nodes[u]["lane"] == lane
        ]
        if not before:
            break
        back = before[0]
        run.insert(0, back)
    ahead = first
    while len(run) < max(length, 2):
        after = [
            v
            for v in graph.successors(ahead)
            if graph.edges[ahead, v]["kind"] == "ahead" and graph.nodes[v]["lane"] == lane
        ]
        if not after:
            break
        ahead = after[0]
        run.append(ahead)
    return run


def _finish_steps(track: Track) -> Operation:
    crossing = _crossings(track)
    changes = {}
    for u, v, lines in track.graph.edges(data="lines"):
        wants = (u, v) in crossing
        if wants != ("finish" in lines):
            changes[(u, v)] = lines | {"finish"} if wants else lines - {"finish"}
    return SetStepLines(changes, label="the line crosses where the lap starts again")


def _follow_spec(
    track: Track, starts: list[SpaceId], shift: float, edits_key: str
) -> Operation | None:
    """The build spec's finish and the edit log's lap positions follow the line."""
    from fdlab.editor.edit_log import shift_record
    from fdlab.editor.spec_shift import finish_fraction, moved_finish

    parts: list[Operation] = []
    spec = track.graph.graph.get("build")
    if spec is not None:
        nodes = track.graph.nodes
        inner = [s for s in starts if nodes[s]["kind"] == "track"] or starts
        x = sum(nodes[s]["x"] for s in inner) / len(inner)
        y = sum(nodes[s]["y"] for s in inner) / len(inner)
        # the line lies half a space before the middles of the spaces after it
        before = [u for s in inner for u in track.graph.predecessors(s) if u not in inner]
        if before:
            x = 0.5 * (x + sum(nodes[u]["x"] for u in before) / len(before))
            y = 0.5 * (y + sum(nodes[u]["y"] for u in before) / len(before))
        parts.append(SetGraphValue("build", moved_finish(spec, finish_fraction(spec, x, y))))
    log = track.graph.graph.get(edits_key)
    if log:
        by = shift / float(track.lap_length)
        parts.append(SetGraphValue(edits_key, [shift_record(r, by) for r in log]))
    if not parts:
        return None
    from fdlab.editor.operations import Composite

    return Composite(parts, label="the build spec and edit log follow the line")
