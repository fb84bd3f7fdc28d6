"""The race's phases and event kinds are Literal types: each is its tuple of values, and
a whole race between bots only ever shows values of them."""

from typing import get_args

from fdlab.bots import HeuristicBot
from fdlab.rules import Race
from fdlab.rules.events import KINDS, EventKind
from fdlab.rules.policy import Policy, Seat
from fdlab.rules.state import PHASES, Phase
from fdlab.track.examples import two_corner_ring


def test_each_literal_is_its_tuple_of_values():
    assert get_args(Phase) == PHASES
    assert get_args(EventKind) == KINDS


def test_a_seat_is_a_policy_a_bots_name_or_none():
    assert set(get_args(Seat)) == {Policy, str, type(None)}


def test_a_race_shows_only_phases_and_event_kinds_of_the_literals():
    race = Race(two_corner_ring(stops=(1, 1)), seed=3)
    phases = {race.phase}
    for step in race.bot_steps([HeuristicBot(), "heuristic"]):
        phases |= {step.before.phase, step.state.phase}
    assert race.over
    assert phases <= set(PHASES)
    assert {event.kind for event in race.events} <= set(KINDS)
