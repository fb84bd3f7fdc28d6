"""Plan a pit lane beside a run of track spaces (the editor's "add pit lane").

The plan is pure data (new spaces, steps and contacts) that the controller
applies as one undoable :class:`~fdlab.editor.operations.AddSpaces`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.affinity import translate

from fdlab.editor.errors import EditError
from fdlab.track.model import ContactKind, SpaceId, SpaceKind, StepKind, Track


@dataclass
class PitLanePlan:
    """New spaces, steps and contacts of a pit lane, ready for ``AddSpaces``."""

    pit_spaces: list[SpaceId] = field(default_factory=list)
    box_spaces: list[SpaceId] = field(default_factory=list)
    spaces: dict[SpaceId, dict[str, Any]] = field(default_factory=dict)
    steps: list[tuple[SpaceId, SpaceId, StepKind, frozenset[str]]] = field(default_factory=list)
    contacts: list[tuple[SpaceId, SpaceId, ContactKind, SpaceId | None]] = field(
        default_factory=list
    )


def plan_pit_lane(
    track: Track, along: Sequence[SpaceId], *, boxes: int = 0, side: float | None = None
) -> PitLanePlan:
    """Plan a pit lane of one space beside each space of ``along``.

    Parameters
    ----------
    track : Track
    along : sequence of space ids
        Consecutive track spaces of one lane, in driving order, each joined
        to the next by a step. The pit lane runs beside them.
    boxes : int
        Number of pit boxes, laid beside pit spaces 2, 3, ... (each needs a
        pit space before and after it).
    side : float, optional
        ``+1`` to put the pit lane right of the direction of travel, ``-1``
        to the left. By default the outside of the run: right of the
        rightmost lane, left of lane 0 (a middle lane has no free side).

    Examples
    --------
    >>> track = from_ascii(". . . . . .", closed=True)
    >>> plan = plan_pit_lane(track, [1, 2, 3, 4], boxes=1)
    >>> plan.pit_spaces, plan.box_spaces
    ([6, 7, 8, 9], [10])
    >>> plan.spaces[6]["y"]  # one space width to the right of y = -0.5
    -1.5
    """
    where = "add pit lane"
    along = _in_driving_order(track, list(along))
    if len(along) < 2:
        raise EditError(f"{where}: select at least two spaces of one lane along a straight")
    graph = track.graph
    for space in along:
        if space not in graph:
            raise EditError(f"{where}: space {space!r} is not on track {track.name!r}")
        if graph.nodes[space]["kind"] != "track":
            raise EditError(f"{where}: space {space!r} is a {graph.nodes[space]['kind']} space")
    for a, b in zip(along, along[1:], strict=False):
        if not graph.has_edge(a, b):
            raise EditError(
                f"{where}: spaces {a!r} and {b!r} are not joined by a step; "
                "pick consecutive spaces of one lane in driving order"
            )
    if boxes < 0 or (boxes and boxes > len(along) - 2):
        raise EditError(
            f"{where}: {boxes} boxes do not fit beside a pit lane of {len(along)} spaces "
            f"(at most {max(len(along) - 2, 0)})"
        )
    before = _neighbour_in_lane(track, along[0], forward=False)
    after = _neighbour_in_lane(track, along[-1], forward=True)
    if before is None or after is None:
        end = "start" if before is None else "end"
        raise EditError(
            f"{where}: no track space before the {end} of the run to join the pit lane to"
        )

    if side is None:
        side = _free_side(track, along)
    width = _space_width(track, along[0])
    ids = _new_ids(track, len(along) + boxes)
    plan = PitLanePlan(pit_spaces=ids[: len(along)], box_spaces=ids[len(along) :])
    for i, pit in enumerate(plan.pit_spaces):
        plan.spaces[pit] = _beside(track, along, i, pit, width * side, kind="pit")
    for k, box in enumerate(plan.box_spaces):
        i = k + 1
        attrs = _beside(track, along, i, box, 2 * width * side, kind="box")
        attrs["box"] = k + 1
        plan.spaces[box] = attrs
        plan.steps.append(
            (plan.pit_spaces[i - 1], box, "box_in", _lines(track, along[i - 1], along[i]))
        )
        plan.steps.append(
            (box, plan.pit_spaces[i + 1], "box_out", _lines(track, along[i], along[i + 1]))
        )

    for i in range(len(along) - 1):
        a, b = plan.pit_spaces[i], plan.pit_spaces[i + 1]
        plan.steps.append((a, b, "ahead", _lines(track, along[i], along[i + 1])))
        plan.contacts.append((a, b, "behind", a))
    plan.steps.append(
        (before, plan.pit_spaces[0], "pit_in", _lines(track, before, along[0]) | {"pit_entry"})
    )
    plan.steps.append(
        (plan.pit_spaces[-1], after, "pit_out", _lines(track, along[-1], after) | {"pit_exit"})
    )
    return plan


def _in_driving_order(track: Track, spaces: list[SpaceId]) -> list[SpaceId]:
    """``spaces`` as one chain of steps (a run across the finish line too), if they form one."""
    graph, chosen = track.graph, set(spaces)
    if not chosen <= set(graph):
        return spaces  # the caller names the missing space
    following = {s: [n for n in graph.successors(s) if n in chosen and n != s] for s in spaces}
    firsts = [s for s in spaces if not any(s in nxt for nxt in following.values())]
    if len(firsts) != 1:
        return spaces
    chain = firsts
    while len(chain) < len(spaces) and len(following[chain[-1]]) == 1:
        chain.append(following[chain[-1]][0])
    return chain if len(chain) == len(spaces) else spaces


def _neighbour_in_lane(track: Track, space: SpaceId, *, forward: bool) -> SpaceId | None:
    graph = track.graph
    pairs = graph.out_edges(space, data=True) if forward else graph.in_edges(space, data=True)
    for u, v, data in pairs:
        other: SpaceId = v if forward else u
        if data["kind"] == "ahead" and graph.nodes[other]["kind"] == "track":
            return other
    return None


def _lines(track: Track, u: SpaceId, v: SpaceId) -> frozenset[str]:
    lines = track.graph.edges[u, v]["lines"] if track.graph.has_edge(u, v) else frozenset()
    return frozenset(lines) - {"pit_entry", "pit_exit"}


def _free_side(track: Track, along: Sequence[SpaceId]) -> float:
    """+1 when no lane lies right of the run (higher lane numbers), -1 when none lies left."""
    nodes = track.graph.nodes
    lane = nodes[along[0]]["lane"]
    beside = {
        nodes[other]["lane"]
        for space in along
        for other, contact in track.contacts.adj[space].items()
        if contact.get("kind") == "beside" and nodes[other]["kind"] == "track"
    }
    if not any(other > lane for other in beside):
        return 1.0
    if not any(other < lane for other in beside):
        return -1.0
    raise EditError(
        f"add pit lane: spaces {list(along)} are in lane {lane}, between two other lanes; "
        "select spaces of the leftmost or rightmost lane"
    )


def _space_width(track: Track, space: SpaceId) -> float:
    data = track.graph.nodes[space]
    for other, contact in track.contacts.adj[space].items():
        if contact.get("kind") == "beside":
            o = track.graph.nodes[other]
            return math.hypot(o["x"] - data["x"], o["y"] - data["y"])
    return float(track.graph.graph.get("space_length") or 1.0)


def _direction(track: Track, along: Sequence[SpaceId], i: int) -> tuple[float, float]:
    nodes = track.graph.nodes
    a = nodes[along[max(i - 1, 0)]]
    b = nodes[along[min(i + 1, len(along) - 1)]]
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    norm = math.hypot(dx, dy) or 1.0
    return dx / norm, dy / norm


def _beside(
    track: Track, along: Sequence[SpaceId], i: int, new: SpaceId, offset: float, kind: SpaceKind
) -> dict[str, Any]:
    data = track.graph.nodes[along[i]]
    dx, dy = _direction(track, along, i)
    shift_x, shift_y = dy * offset, -dx * offset  # right of travel for offset > 0
    polygon = data["polygon"]
    return {
        "x": data["x"] + shift_x,
        "y": data["y"] + shift_y,
        "polygon": translate(polygon, shift_x, shift_y) if polygon is not None else None,
        "lane": 0,
        "progress": data["progress"],
        "kind": kind,
        "level": data["level"],
    }


def _new_ids(track: Track, count: int) -> list[SpaceId]:
    existing = list(track.graph)
    if all(isinstance(s, int) for s in existing):
        start = max(existing, default=-1) + 1
        return list(range(start, start + count))
    taken = {str(s) for s in existing}
    ids: list[SpaceId] = []
    n = 0
    while len(ids) < count:
        n += 1
        if f"pit-{n}" not in taken:
            ids.append(f"pit-{n}")
    return ids
