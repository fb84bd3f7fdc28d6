"""The corner path counts read off the adjacency agree with networkx's count (C-1).

:func:`fdlab.track.corners.path_counts_near` counts a corner's longest and
shortest path on its spaces and their neighbours without copying a subgraph
(every edit revalidates every corner); :func:`fdlab.track.corners.path_counts`
on that subgraph, with networkx's topological sort, is the reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fdlab.track.corners import path_counts, path_counts_near
from fdlab.track.io import load_track

TRACKS = sorted((Path(__file__).resolve().parents[2] / "tracks").glob("*.json"))


def _reference(graph: nx.DiGraph, corner: Any, members: list[Any]) -> tuple[int, int]:
    around = set(members)
    for n in members:
        around.update(graph.predecessors(n))
        around.update(graph.successors(n))
    return path_counts(graph.subgraph(around).copy(), corner)


@pytest.mark.parametrize("path", TRACKS, ids=[p.stem for p in TRACKS])
def test_every_corner_of_the_shipped_boards_counts_as_networkx_counts_it(path: Path) -> None:
    track = load_track(path)
    for corner in track.corners:
        spaces = track.corner_spaces(corner)
        counted = path_counts_near(track.graph, corner, spaces)
        assert counted == _reference(track.graph, corner, spaces)
        assert counted == (track.corners[corner]["long"], track.corners[corner]["short"])


@st.composite
def corner_graphs(draw: st.DrawFn) -> tuple[nx.DiGraph, list[int]]:
    """A small step graph whose spaces are in corner 1, corner 2 or none, loops allowed."""
    size = draw(st.integers(1, 9))
    graph = nx.DiGraph()
    for n in range(size):
        graph.add_node(n, corner=draw(st.sampled_from([None, 1, 1, 2])))
    steps = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))))
    graph.add_edges_from(steps)
    members = draw(st.lists(st.sampled_from(range(size)), unique=True))
    return graph, members


@settings(max_examples=400, deadline=None)
@given(corner_graphs())
def test_any_step_graph_counts_as_networkx_counts_it(drawn: tuple[nx.DiGraph, list[int]]) -> None:
    """Entries, exits, loops, corners without an entry or exit, spaces of another corner."""
    graph, members = drawn
    full = [n for n, c in graph.nodes(data="corner") if c == 1]
    assert path_counts_near(graph, 1, full) == _reference(graph, 1, full)
    assert path_counts_near(graph, 1, members) == _reference(graph, 1, members)
