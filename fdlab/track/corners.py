"""Corner geometry derived from the graph: entries, exits and path counts.

The public functions take a :class:`~fdlab.track.model.Track`, like the rest
of :mod:`fdlab.track`; :func:`update_corner_counts` works on the bare graph
while a builder is still assembling it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from fdlab.track.model import CornerId, SpaceId, Track

__all__ = [
    "corner_entries",
    "corner_exits",
    "corner_path_counts",
    "spaces_by_corner",
    "update_corner_counts",
]


def spaces_by_corner(graph: nx.DiGraph) -> dict[Any, list[Any]]:
    """The spaces of every corner that has one, in the board's order, the board read once.

    Examples
    --------
    >>> spaces_by_corner(from_ascii(". 1 1 . 2 .", corners={1: 1, 2: 1}).graph)
    {1: [1, 2], 2: [4]}
    """
    members: dict[Any, list[Any]] = {}
    for n, corner in graph.nodes(data="corner"):
        if corner is not None:
            members.setdefault(corner, []).append(n)
    return members


def corner_entries(
    track: Track, corner: CornerId, members: Iterable[SpaceId] | None = None
) -> list[SpaceId]:
    """Corner spaces reached by a step from outside the corner.

    ``members``, the corner's spaces (:func:`spaces_by_corner`), spares a
    caller going through every corner a scan of the board per corner.

    Examples
    --------
    >>> corner_entries(from_ascii(". 1 1 .", corners={1: 1}), 1)
    [1]
    """
    return _entries(track.graph, corner, members)


def corner_exits(
    track: Track, corner: CornerId, members: Iterable[SpaceId] | None = None
) -> list[SpaceId]:
    """Corner spaces with a step leading out of the corner (``members`` as in
    :func:`corner_entries`).

    Examples
    --------
    >>> corner_exits(from_ascii(". 1 1 .", corners={1: 1}), 1)
    [2]
    """
    return _exits(track.graph, corner, members)


def corner_path_counts(track: Track, corner: CornerId) -> tuple[int, int]:
    """The longest and shortest path through a corner, counted in spaces.

    These are the green (long) and red (short) numbers printed beside a
    corner on the boards (C-1). A path runs from an entry space to an exit
    space using only the corner's own steps.

    Returns
    -------
    (long, short) : tuple of int
        ``(0, 0)`` when the corner has no space, or no path from an entry to
        an exit.

    Examples
    --------
    >>> track = from_ascii('''
    ...     . 1 1 1 .
    ...     . 1 1 1 .
    ... ''', corners={1: 2})
    >>> corner_path_counts(track, 1)
    (3, 3)
    """
    return path_counts(track.graph, corner)


def _members(graph: nx.DiGraph, corner: Any, members: Iterable[Any] | None) -> Iterable[Any]:
    if members is not None:
        return members
    nodes = graph.nodes
    return [n for n in graph if nodes[n]["corner"] == corner]


def _entries(graph: nx.DiGraph, corner: Any, members: Iterable[Any] | None = None) -> list[Any]:
    nodes, pred = graph.nodes, graph.pred
    return [
        n
        for n in _members(graph, corner, members)
        if any(nodes[p]["corner"] != corner for p in pred[n])
    ]


def _exits(graph: nx.DiGraph, corner: Any, members: Iterable[Any] | None = None) -> list[Any]:
    nodes, succ = graph.nodes, graph.succ
    return [
        n
        for n in _members(graph, corner, members)
        if any(nodes[s]["corner"] != corner for s in succ[n])
    ]


def path_counts(graph: nx.DiGraph, corner: Any) -> tuple[int, int]:
    """:func:`corner_path_counts` on a bare graph (a builder's, or part of a board)."""
    members = [n for n, d in graph.nodes(data=True) if d["corner"] == corner]
    if not members:
        return (0, 0)
    sub = graph.subgraph(members)
    entries = _entries(graph, corner, members) or [n for n in sub if sub.in_degree(n) == 0]
    exits = set(_exits(graph, corner, members) or [n for n in sub if sub.out_degree(n) == 0])
    if not nx.is_directed_acyclic_graph(sub):
        return (0, 0)
    # Longest and shortest number of spaces from any entry to any exit, by DP
    # over a topological order (the corner is a small DAG).
    inf = float("inf")
    longest: dict[Any, float] = {n: -inf for n in sub}
    shortest: dict[Any, float] = {n: inf for n in sub}
    for n in entries:
        longest[n] = shortest[n] = 1
    for n in nx.topological_sort(sub):
        if shortest[n] == inf:
            continue
        for s in sub.successors(n):
            longest[s] = max(longest[s], longest[n] + 1)
            shortest[s] = min(shortest[s], shortest[n] + 1)
    reached = [n for n in exits if shortest[n] != inf]
    if not reached:
        return (0, 0)
    return (int(max(longest[n] for n in reached)), int(min(shortest[n] for n in reached)))


def path_counts_near(graph: nx.DiGraph, corner: Any, members: Iterable[Any]) -> tuple[int, int]:
    """:func:`path_counts` of ``corner`` (its spaces ``members``) read on those spaces and
    the spaces a step away: the same counts, without reading the rest of the board.

    Examples
    --------
    >>> track = from_ascii(". 1 1 1 . . . .", corners={1: 2})
    >>> path_counts_near(track.graph, 1, track.corner_spaces(1)) == corner_path_counts(track, 1)
    True
    """
    around = set(members)
    for n in list(around):
        around.update(graph.predecessors(n))
        around.update(graph.successors(n))
    # What path_counts(graph.subgraph(around)) computes, read straight off the adjacency
    # (no subgraph copy, no networkx sort): every stops edit revalidates every corner.
    nodes, pred, succ = graph.nodes, graph.pred, graph.succ
    inside = [n for n in around if nodes[n]["corner"] == corner]
    if not inside:
        return (0, 0)
    own = set(inside)
    inner = {n: [s for s in succ[n] if s in own] for n in inside}
    order = _topological(inside, inner)
    if order is None:  # a loop inside the corner
        return (0, 0)
    entries = [
        n for n in inside if any(nodes[p]["corner"] != corner for p in pred[n] if p in around)
    ]
    exits = [n for n in inside if any(nodes[s]["corner"] != corner for s in succ[n] if s in around)]
    if not entries:
        stepped_into = {s for n in inside for s in inner[n]}
        entries = [n for n in inside if n not in stepped_into]
    if not exits:
        exits = [n for n in inside if not inner[n]]
    return _longest_and_shortest(order, inner, entries, exits)


def _topological(inside: list[Any], inner: dict[Any, list[Any]]) -> list[Any] | None:
    """The spaces in an order where each comes after those stepping into it (Kahn), or
    ``None`` when the steps ``inner`` go round a loop."""
    waiting = dict.fromkeys(inside, 0)
    for n in inside:
        for s in inner[n]:
            waiting[s] += 1
    order = [n for n in inside if not waiting[n]]
    for n in order:  # the list grows as it is read
        for s in inner[n]:
            waiting[s] -= 1
            if not waiting[s]:
                order.append(s)
    return order if len(order) == len(inside) else None


def _longest_and_shortest(
    order: list[Any], inner: dict[Any, list[Any]], entries: list[Any], exits: list[Any]
) -> tuple[int, int]:
    """Most and fewest spaces from an entry to an exit, by DP over a topological order."""
    longest: dict[Any, int] = {}
    shortest: dict[Any, int] = {}
    for n in entries:
        longest[n] = shortest[n] = 1
    for n in order:
        if n not in shortest:
            continue
        far, near = longest[n] + 1, shortest[n] + 1
        for s in inner[n]:
            if s not in shortest:
                longest[s], shortest[s] = far, near
            else:
                longest[s] = max(longest[s], far)
                shortest[s] = min(shortest[s], near)
    reached = [n for n in exits if n in shortest]
    if not reached:
        return (0, 0)
    return (max(longest[n] for n in reached), min(shortest[n] for n in reached))


def all_path_counts(graph: nx.DiGraph) -> dict[Any, tuple[int, int]]:
    """:func:`path_counts` of every corner that has a space, the board read once.

    Examples
    --------
    >>> all_path_counts(from_ascii(". 1 1 . 2 .", corners={1: 1, 2: 1}).graph)
    {1: (2, 2), 2: (1, 1)}
    """
    return {
        corner: path_counts_near(graph, corner, spaces)
        for corner, spaces in spaces_by_corner(graph).items()
    }


def update_corner_counts(graph: nx.DiGraph) -> None:
    """Recompute ``long`` and ``short`` of every corner in ``graph.graph`` (C-1).

    Examples
    --------
    >>> track = from_ascii(". 1 1 .", corners={1: 1})
    >>> track.corners[1]["long"] = 9
    >>> update_corner_counts(track.graph)
    >>> track.corners[1]["long"]
    2
    """
    counts = all_path_counts(graph)
    for corner, info in graph.graph["corners"].items():
        info["long"], info["short"] = counts.get(corner, (0, 0))
