"""The track model's types say what its values are: each Literal is its tuple of values,
each TypedDict names the attributes every track and every space carries."""

from typing import get_args

from fdlab.track import from_ascii
from fdlab.track.model import (
    CONTACT_KINDS,
    EDGE_KINDS,
    HAZARDS,
    SPACE_DEFAULTS,
    SPACE_KINDS,
    TRACK_DEFAULTS,
    ContactKind,
    Hazard,
    SpaceAttributes,
    SpaceKind,
    StepKind,
    TrackAttributes,
    space_attributes,
    track_attributes,
)


def test_each_literal_is_its_tuple_of_values():
    assert get_args(SpaceKind) == SPACE_KINDS
    assert get_args(StepKind) == EDGE_KINDS
    assert get_args(ContactKind) == CONTACT_KINDS
    assert (None, *get_args(Hazard)) == HAZARDS


def test_the_attribute_types_name_the_defaults():
    assert TrackAttributes.__required_keys__ == set(TRACK_DEFAULTS)
    assert SpaceAttributes.__required_keys__ == set(SPACE_DEFAULTS)


def test_the_typed_accessors_give_the_graphs_own_dicts():
    track = from_ascii(". . 1 1 .", corners={1: 2})
    assert track_attributes(track.graph) is track.graph.graph
    assert space_attributes(track.graph, 2) is track.graph.nodes[2]
    assert track.space(2) is track.graph.nodes[2]
    assert track.name == track.graph.graph["name"]
    assert len(track) == track.graph.number_of_nodes() == 5


def test_every_space_and_step_of_a_board_has_a_kind_of_the_literals():
    track = from_ascii(
        """
        . . 1 1 . .
        . . 1 1 . .
        """,
        corners={1: 1},
    )
    assert {data["kind"] for _, data in track.graph.nodes(data=True)} <= set(SPACE_KINDS)
    assert {data["kind"] for _, _, data in track.graph.edges(data=True)} <= set(EDGE_KINDS)
    assert {data["kind"] for _, _, data in track.contacts.edges(data=True)} <= set(CONTACT_KINDS)
