"""Remember and restore the order of a networkx graph's nodes and neighbours.

networkx keeps nodes and neighbours in insertion order, and that order is
what a track file lists and what seeded races iterate. Removing something
and adding it back appends it at the end; an undo that must give back the
exact track records the order first and restores it afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import networkx as nx


@dataclass(frozen=True)
class GraphOrder:
    """The order of a graph's nodes and of the neighbours of some of them."""

    outer: tuple[tuple[Any, ...], ...]
    inner: tuple[tuple[int, Any, tuple[Any, ...]], ...]


def _outer_dicts(graph: nx.Graph) -> list[dict[Any, Any]]:
    if isinstance(graph, nx.DiGraph):
        return [graph._node, graph._succ, graph._pred]
    return [graph._node, graph._adj]


def record_order(graph: nx.Graph, around: Iterable[Any]) -> GraphOrder:
    """The node order of ``graph`` and the neighbour order of ``around`` and their neighbours.

    Examples
    --------
    >>> graph = nx.path_graph(4, create_using=nx.DiGraph)
    >>> order = record_order(graph, [1])
    >>> graph.remove_edge(1, 2); graph.add_edge(1, 2); graph.remove_node(0); graph.add_edge(0, 1)
    >>> list(graph.edges)
    [(1, 2), (2, 3), (0, 1)]
    >>> restore_order(graph, order); list(graph.edges)
    [(0, 1), (1, 2), (2, 3)]
    """
    dicts = _outer_dicts(graph)
    touched: set[Any] = set()
    for node in around:
        if node in graph:
            touched.add(node)
            touched.update(nx.all_neighbors(graph, node) if graph.is_directed() else graph[node])
    inner = tuple(
        (index, node, tuple(dicts[index][node]))
        for index in range(1, len(dicts))
        for node in touched
    )
    return GraphOrder(tuple(tuple(d) for d in dicts), inner)


def restore_order(graph: nx.Graph, order: GraphOrder) -> None:
    """Put nodes and neighbours back in the recorded order (dicts reordered in place).

    Keys added since the recording go after the recorded ones, in their
    current order; keys removed since are left out.
    """
    dicts = _outer_dicts(graph)
    for mapping, keys in zip(dicts, order.outer, strict=True):
        _reorder(mapping, keys)
    for index, node, keys in order.inner:
        if node in dicts[index]:
            _reorder(dicts[index][node], keys)


def _reorder(mapping: dict[Any, Any], keys: tuple[Any, ...]) -> None:
    if tuple(mapping) == keys:
        return
    items = [(key, mapping[key]) for key in keys if key in mapping]
    known = set(keys)
    items += [(key, value) for key, value in mapping.items() if key not in known]
    mapping.clear()
    mapping.update(items)


def reorder_keys(mapping: dict[Any, Any], keys: Iterable[Any]) -> None:
    """Reorder a plain dict in place to follow ``keys`` (others after them).

    Examples
    --------
    >>> corners = {2: "b", 1: "a"}
    >>> reorder_keys(corners, [1, 2]); corners
    {1: 'a', 2: 'b'}
    """
    _reorder(mapping, tuple(keys))
