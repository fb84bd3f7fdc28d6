"""The Track wrapper, text boards, corner path counts and where the lap starts again."""

from pathlib import Path

import networkx as nx
import pytest

from fdlab.track import (
    AsciiBoardError,
    Track,
    add_space,
    add_step,
    corner_path_counts,
    from_ascii,
    new_graph,
    starts_lap_again,
)
from fdlab.track.build import build_track


def test_defaults_are_filled_for_every_space_and_step():
    graph = nx.DiGraph()
    graph.add_edge("a", "b")
    track = Track(graph)
    assert track.space("a")["kind"] == "track"
    assert track.space("b")["hazard"] is None
    assert track.graph.edges["a", "b"]["kind"] == "ahead"
    assert track.graph.edges["a", "b"]["lines"] == frozenset()
    assert track.graph.graph["schema"] == 1


def test_missing_space_names_the_space_and_the_track():
    track = from_ascii(". .", name="Tiny")
    with pytest.raises(KeyError, match="space 99 is not on track 'Tiny'"):
        track.space(99)


def test_add_space_rejects_unknown_attributes():
    graph = new_graph()
    with pytest.raises(ValueError, match="unknown space attribute.*'colour'"):
        add_space(graph, 1, colour="red")


def test_add_step_rejects_unknown_kind():
    graph = new_graph()
    with pytest.raises(ValueError, match="kind must be one of"):
        add_step(graph, 1, 2, kind="jump")


def test_ascii_ids_are_column_major_and_lanes_are_rows():
    track = from_ascii(
        """
        . . .
        . . .
        . . .
        """
    )
    assert track.space(4)["lane"] == 1 and track.space(4)["progress"] == 1.0
    assert sorted(track.graph.successors(4)) == [6, 7, 8]
    kinds = {v: d["kind"] for _, v, d in track.graph.out_edges(4, data=True)}
    assert kinds == {6: "lane_change", 7: "ahead", 8: "lane_change"}


def test_closed_loop_crosses_the_finish_line_once_per_lane():
    track = from_ascii(". . . .\n. . . .", closed=True)
    crossing = track.edges_crossing("finish")
    assert sorted(crossing) == [(6, 0), (6, 1), (7, 0), (7, 1)]
    assert track.space(6)["progress"] == 3.0 and track.space(0)["progress"] == 0.0


def test_touching_is_behind_or_beside_never_ahead():
    """D-5: a car touches the cars it is behind or beside, not a car behind it."""
    track = from_ascii(". . .\n. . .")
    assert sorted(track.touching(2)) == [3, 4]
    assert 0 not in track.touching(2)
    assert 2 in track.touching(0)


def test_corner_path_counts_outer_lane_longer():
    """C-1: long and short are computed from the graph, never typed."""
    graph = new_graph(corners={1: {"stops": 2, "name": "Hairpin"}})
    add_space(graph, "in")
    add_space(graph, "out", progress=5.0)
    outer = ["o1", "o2", "o3"]
    inner = ["i1", "i2"]
    for n, space in enumerate(outer + inner):
        add_space(graph, space, corner=1, progress=float(n % 3 + 1))
    for path in (["in", *outer, "out"], ["in", *inner, "out"]):
        for u, v in zip(path, path[1:], strict=False):
            add_step(graph, u, v)
    assert corner_path_counts(Track(graph), 1) == (3, 2)


def test_ascii_corner_counts_are_filled_in():
    track = from_ascii(". 1 1 1 .\n. 1 1 1 .", corners={1: 2})
    assert track.corners[1] == {"stops": 2, "name": "Corner 1", "long": 3, "short": 3}


def test_pit_rows_make_a_pit_lane_with_boxes():
    track = from_ascii(
        """
        . . . . . .
        x p p p p x
        x x B B x x
        """,
        closed=True,
    )
    pit = track.spaces(kind="pit")
    boxes = track.boxes()
    assert len(pit) == 4 and len(boxes) == 2
    assert [track.space(b)["box"] for b in boxes] == [1, 2]
    kinds = {d["kind"] for _, _, d in track.graph.edges(data=True)}
    assert {"pit_in", "pit_out", "box_in", "box_out"} <= kinds


def test_tunnel_pairs_and_grid():
    track = from_ascii(". . x x . .", tunnels={"1": (1, 4)}, grid=[5, 4])
    assert track.tunnel_pairs() == {"1": [1, 4]}
    assert track.graph.edges[1, 4]["kind"] == "tunnel"
    assert track.grid_spots() == [5, 4]


def test_bad_ascii_board_names_row_and_column():
    with pytest.raises(AsciiBoardError, match="row 0, column 1: unknown token '\\?'"):
        from_ascii(". ? .")
    with pytest.raises(AsciiBoardError, match="corner 2 has no stop count"):
        from_ascii(". 2 .")


def test_copy_is_equal_and_independent():
    track = from_ascii(". 1 .", corners={1: 2})
    twin = track.copy()
    assert twin == track
    twin.corners[1]["stops"] = 3
    twin.space(0)["hazard"] = "danger"
    assert track.corners[1]["stops"] == 2 and track.space(0)["hazard"] is None
    assert twin != track


@pytest.mark.parametrize(
    ("before", "after", "lap_length", "starts"),
    [
        (142.0, 0.0, 143.0, True),  # over the finish line
        (141.0, 0.5, 143.0, True),  # a lane change over it
        (132.0, 131.9816, 143.0, False),  # Zandvoort's pit entry: a hair back
        (100.0, 40.0, 143.0, False),  # back, but less than half a lap
        (100.0, 28.5, 143.0, True),  # back by exactly half a lap
        (3.0, 4.0, 143.0, False),
        (1.0, 0.0, 2.0, True),  # a lap of two spaces
        (132.0, 131.9816, 0.0, True),  # no lap length: every fall of progress counts
        (3.0, 3.0, 0.0, False),
        (3.0, 4.0, 0.0, False),
    ],
)
def test_S4_a_step_starts_the_lap_again_when_progress_falls_half_a_lap(
    before, after, lap_length, starts
):
    assert starts_lap_again(before, after, lap_length) is starts


@pytest.mark.parametrize("lap_length", [None, 0.0])
def test_S4_the_steps_of_a_closed_text_board_starting_the_lap_again_are_its_finish_line(
    lap_length,
):
    track = from_ascii(". . . 1 1 . .\n. . . 1 1 . .\n. . . . . . .", corners={1: 2}, closed=True)
    if lap_length is not None:
        track.graph.graph["lap_length"] = lap_length
    nodes = track.graph.nodes
    starting = {
        (u, v)
        for u, v in track.graph.edges
        if starts_lap_again(nodes[u]["progress"], nodes[v]["progress"], track.lap_length)
    }
    assert starting == set(track.edges_crossing("finish")) and len(starting) == 7


def test_S4_a_pit_entry_that_goes_back_does_not_start_the_lap_again():
    # Indianapolis built with a pit: the step into the pit lane goes back a hair (133 -> 132.99)
    circuit = Path(__file__).resolve().parents[2] / "circuits" / "us-1909.geojson"
    track = build_track(circuit, pit=True)
    nodes, lap = track.graph.nodes, track.lap_length

    def starting(lap_length):
        return {
            (u, v)
            for u, v in track.graph.edges
            if starts_lap_again(nodes[u]["progress"], nodes[v]["progress"], lap_length)
        }

    (entry,) = [(u, v) for u, v, kind in track.graph.edges(data="kind") if kind == "pit_in"]
    assert nodes[entry[1]]["progress"] < nodes[entry[0]]["progress"]
    assert starting(lap) == set(track.edges_crossing("finish"))
    # without its lap length the board falls back on "progress falls": the entry counts
    assert starting(0.0) == starting(lap) | {entry}
