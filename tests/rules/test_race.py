"""The notebook-facing Race: play, undo, replay, log, odds, display, JSON state."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.rules import (
    IllegalGearError,
    IllegalMoveError,
    LoadedDice,
    Race,
    RaceOverError,
    RaceState,
    WrongPhaseError,
    action_from_json,
)
from fdlab.track import from_ascii

LOOP = from_ascii(
    """
    . . . . 1 1 1 . . . . . . . 2 2 . . . . . .
    . . . . 1 1 1 . . . . . . . 2 2 . . . . . .
    """,
    corners={1: 1, 2: 2},
    closed=True,
    finish=0,
    grid=[42, 43, 40, 41],
    name="test loop",
)


def test_play_gear_then_destination_and_read_the_log():
    race = Race(LOOP, cars=["Blue", "Red"], dice=LoadedDice([12, 3, 10, 2]))
    assert race.current == "Blue" and race.phase == "gear"
    assert race.legal_gears() == [1]
    events = race.play(1)
    assert [str(e) for e in events] == [
        "Blue, 1st gear, start roll 10: normal start",
        "Blue rolls 2",
    ]
    moves = race.legal_moves()
    destinations = [m.destination for m in moves]
    assert 2 in destinations and 3 in destinations
    assert "<table>" in moves._repr_html_() and "no damage" in str(moves[0])
    race.play(3)
    assert race.state.cars[0].space == race.board.index[3]
    assert race.current == "Red"
    assert "Blue moves 2 to space 3" in race.log


def test_illegal_actions_explain_themselves_and_leave_the_race_unchanged():
    race = Race(LOOP, cars=2, dice=LoadedDice([12, 3, 10, 2]))
    before = race.state
    with pytest.raises(IllegalGearError, match="S-2: every car starts in 1st gear"):
        race.play(gear=2)
    with pytest.raises(WrongPhaseError, match="G-2"):
        race.play(to=3)
    assert race.state is before and race.dice.position == 2
    race.play(1)
    with pytest.raises(IllegalMoveError, match=r"Blue cannot end on space 9 .*\(M-1\)"):
        race.play(9)
    with pytest.raises(IllegalMoveError, match="no space 'nowhere'"):
        race.play("nowhere")


def test_undo_rewinds_state_log_and_dice():
    race = Race(LOOP, cars=2, seed=5)
    race.play(1)
    moves = race.legal_moves()
    race.play(moves[0].destination)
    state, log = race.state, list(race.log)
    race.play(1)
    assert race.undo() is not None
    assert race.state is state and race.log == log
    race.play(1)
    again = race.state
    race.undo()
    race.play(1)
    assert race.state == again  # the same roll after undo: the dice rewound
    with pytest.raises(WrongPhaseError, match="nothing to undo"):
        Race(LOOP, cars=1, seed=1, roll_grid=False).undo()


def test_replay_from_seed_and_actions_is_exact():
    race = Race(LOOP, cars=3, preset="basic", seed=11)
    race.play_bots([HeuristicBot(), RandomBot(1), RandomBot(2)])
    assert race.over
    actions = [a.to_json() for a in race.actions]
    again = Race.replay(LOOP, 11, json.loads(json.dumps(actions)), cars=3)
    assert again.state == race.state and again.log == race.log
    assert [action_from_json(a) for a in actions] == race.actions


def test_a_race_without_a_seed_draws_one_and_replays_exactly():
    """A notebook race started without a seed keeps the seed it drew, so replay works."""
    race = Race(LOOP, cars=2)
    assert isinstance(race.seed, int)
    race.play_bots([HeuristicBot(), RandomBot(5)], rounds=6)
    again = Race.replay(LOOP, race.seed, race.actions, cars=2)
    assert again.state == race.state and again.log == race.log
    loaded = Race(LOOP, cars=2, dice=LoadedDice([20, 1]))
    assert loaded.seed is None  # injected dice: no seed to draw


def test_state_json_round_trip_mid_race():
    race = Race(LOOP, cars=4, preset="advanced", seed=3)
    race.play_bots([HeuristicBot()] * 4, rounds=3)
    text = json.dumps(race.state.to_json())
    assert RaceState.from_json(json.loads(text)) == race.state
    resumed = Race(LOOP, cars=4, preset="advanced", seed=3, start=json.loads(text))
    assert resumed.state == race.state and resumed.legal_gears() == race.legal_gears()


def test_simulate_result_shows_the_ranking():
    from fdlab.rules import simulate

    result = simulate(LOOP, [HeuristicBot(), RandomBot(1)], "basic", seed=3)
    assert sorted(result.ranking) == ["Blue", "Red"]
    assert "<table>" in result._repr_html_() and "rounds" in repr(result)


def test_race_over_refuses_more_actions():
    race = Race(LOOP, cars=1, seed=2)
    race.play_bots([HeuristicBot()])
    assert race.over and race.standings()[0]["status"] == "finished"
    with pytest.raises(RaceOverError, match="S-4"):
        race.play(gear=1)


def test_odds_for_the_car_on_turn():
    """Exact odds: from 2 spaces before a 1-stop corner, 1st gear stops there half the time."""
    track = from_ascii(". . . . 1 1 . .", corners={1: 1}, grid=[2], finish=7)
    race = Race(track, cars=1, seed=1)
    odds = race.odds()
    assert odds.odds == {1: Fraction(1, 2)} and odds.corner == 1
    assert "50% to stop in corner 1 in 1st" in str(odds)
    assert "<table>" in odds._repr_html_()


def test_html_shows_standings_and_the_board():
    race = Race(LOOP, cars=["Blue", "Red"], seed=4)
    page = race._repr_html_()
    assert "Blue" in page and "Red" in page and "<svg" in page and "SP" in page
    assert "#1f6fe0" in page and "#e4262c" in page  # Blue drawn blue, Red red (one colour rule)


def test_from_position_and_string_cars():
    race = Race.from_position(
        LOOP, {"Blue": {"space": 8, "gear": 3}, "Red": {"space": 9, "gear": 3}}, seed=1
    )
    assert race.names == ("Blue", "Red") and race.phase == "gear"
    assert race.legal_gears() == [1, 2, 3, 4]
    assert "test loop" in repr(race)


def test_replay_from_a_set_up_position():
    race = Race.from_position(
        LOOP, {"Blue": {"space": 8, "gear": 3}, "Red": {"space": 9, "gear": 2}}, seed=6
    )
    race.play_bots([HeuristicBot(), HeuristicBot()], rounds=4)
    again = Race.replay(
        LOOP, 6, [a.to_json() for a in race.actions], cars=["Blue", "Red"], start=race.start
    )
    assert again.state == race.state


def test_odds_with_a_damage_allowance():
    """Braking one space (1 SP) turns more rolls into a stop in the corner."""
    track = from_ascii(". . . . 1 1 . . . .", corners={1: 1}, grid=[0], finish=9)
    race = Race.from_position(track, {"Blue": {"space": 0, "gear": 2}}, seed=1)
    strict = race.odds(gear=3).odds[3]
    lenient = race.odds(gear=3, max_damage=1).odds[3]
    assert strict == Fraction(1, 8) + Fraction(1, 8)  # a 4 or a 5 ends in columns 4-5
    assert lenient == strict + Fraction(1, 4)  # a 6, braked by one


def test_a_walk_other_than_the_listed_path_plays_as_that_option():
    """M-7: another walk to the same space with the same cost is accepted; a walk through a car is not."""
    board_track = from_ascii(
        """
        . . . . . .
        . . . . . .
        """,
        finish=5,
    )
    race = Race.from_position(board_track, {"Blue": {"space": 0, "gear": 2}}, dice=LoadedDice([2]))
    race.play(2)
    listed = [m.path for m in race.legal_moves() if m.destination == 5]
    other = (3, 5) if listed[0] != (3, 5) else (2, 5)
    race.play(to=5, path=other)
    assert race.state.cars[0].space == race.board.index[5]
    blocked = Race.from_position(
        board_track,
        {"Blue": {"space": 0, "gear": 2}, "Red": {"space": 3, "gear": 1}},
        order=["Blue", "Red"],
        dice=LoadedDice([2, 20, 20]),
    )
    blocked.play(2)
    with pytest.raises(IllegalMoveError, match=r"space 3 holds another car.*\(M-2\)"):
        blocked.play(to=5, path=(3, 5))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), steps=st.integers(1, 40), back=st.integers(1, 40))
def test_undo_then_the_same_actions_give_the_same_race(seed, steps, back):
    """Undo rewinds state and dice: replaying the undone actions gives the same state."""
    race = Race(LOOP, cars=3, preset="street", seed=seed)
    bots = [HeuristicBot(), HeuristicBot(), HeuristicBot()]
    for _ in range(steps):
        if race.over:
            break
        race.play(_bot_action(race, bots))
    state, log = race.state, list(race.log)
    undone = [race.undo() for _ in range(min(back, len(race.actions) - 1))]
    for action in reversed(undone):
        race.play(action)
    assert race.state == state and race.log == log


def _bot_action(race, bots):
    from fdlab.rules.loop import bot_action

    view = race.view()
    return bot_action(bots[view.car_index], view)


def test_legal_moves_show_lane_changes_overshoot_and_path():
    """M-3 lane changes and C-3 overshoots are columns of the move table a player reads."""
    track = from_ascii(
        """
        . . . . 1 . . .
        . . . . 1 . . .
        """,
        corners={1: 1},
        finish=7,
    )
    race = Race.from_position(
        track,
        {"Blue": {"space": 0, "gear": 3}, "Red": {"space": 4}},
        order=["Blue", "Red"],
        dice=LoadedDice([6]),
    )
    race.play(3)
    moves = {m.destination: m for m in race.legal_moves()}
    around = moves[13]  # lane 1, two columns past the corner: around Red, overshoot by 2
    assert around.lane_changes == 1 and around.overshoot == "corner 1 by 2"
    assert around.path[-1] == 13 and len(around.path) == 6
    assert moves[8].overshoot == "" and moves[8].braked == 2  # a stop in the corner
    table = race.legal_moves()._repr_html_()
    assert "<th>lane changes</th>" in table and "<td>corner 1 by 2</td>" in table


def test_play_without_an_action_says_what_may_be_played():
    """G-2: a bare ``race.play()`` names the gears or the destinations open now."""
    race = Race(LOOP, cars=1, seed=3)
    with pytest.raises(
        WrongPhaseError, match=r"G-2: Blue announces a gear first: play one of \[1\]"
    ):
        race.play()
    race.play(1)
    reach = sorted({m.destination for m in race.legal_moves()}, key=str)
    with pytest.raises(WrongPhaseError) as refused:
        race.play()
    roll = race.state.roll
    assert (
        str(refused.value) == f"G-2: Blue rolled {roll}; play a destination space, one of {reach}"
    )
    race.play_bots([RandomBot(1)])
    with pytest.raises(RaceOverError, match="S-4: the race is over"):
        race.play()


def test_play_returns_events_a_notebook_shows_as_lines():
    race = Race(LOOP, cars=2, seed=4)
    events = race.play(1)
    assert str(events) == "\n".join(race.log[-len(events) :])
    assert events._repr_html_().count("<br>") == len(events) - 1
    played = race.play_bots([RandomBot(1), RandomBot(2)], rounds=2)
    assert str(played).splitlines() == race.log[-len(played) :]


def test_the_race_title_names_its_length():
    """P-1: the board may suggest 2 laps; the title says how long this race is."""
    assert "basic rules, 1 lap, 2 cars: round 1, " in repr(Race(LOOP, cars=2, seed=1))
    assert "basic rules, 2 laps, 2 cars" in repr(Race(LOOP, cars=2, laps=2, seed=1))


def test_odds_title_says_how_much_damage_the_stop_may_cost():
    """The odds table says 'with at most 1 damage' when asked with max_damage=1 (not 'no damage')."""
    track = from_ascii(". . . . 1 1 . .", corners={1: 1}, grid=[2], finish=7)
    race = Race(track, cars=1, seed=1)
    assert "with no damage" in race.odds()._repr_html_()
    assert "with at most 1 damage" in race.odds(max_damage=1)._repr_html_()
