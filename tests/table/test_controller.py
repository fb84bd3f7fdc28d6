"""The table's logic without a browser: seats, choices, undo to a person's decision, redo."""

from __future__ import annotations

import pytest
from table_helpers import person_turn

from fdlab.bots import HeuristicBot
from fdlab.rules import ChooseGear, LoadedDice, Race, RuleError
from fdlab.rules.loop import iter_race
from fdlab.table import NotYourTurnError, SeatError, TableController, TableError
from fdlab.track import load_track


def test_seats_default_to_a_person_and_bots(ring):
    table = TableController(Race(ring, cars=3, seed=1))
    assert table.people == [0]
    assert [table.seat_label(k) for k in range(3)] == ["person", "heuristic", "heuristic"]


def test_a_wrong_seat_is_refused_with_what_to_pass(ring):
    with pytest.raises(SeatError, match="one seat per car"):
        TableController(Race(ring, cars=2, seed=1), ["person"])
    with pytest.raises(SeatError, match="unknown bot 'clever'"):
        TableController(Race(ring, cars=2, seed=1), ["person", "clever"])


def test_gear_choices_are_the_legal_gears_with_cost_and_odds(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "gear": 4, "started": True}})
    table = TableController(race, ["person"])
    choices = {c.gear: c for c in table.gear_choices()}
    assert sorted(choices) == race.legal_gears() == [1, 2, 3, 4, 5]
    assert choices[1].cost == "2 SP"  # G-4: three gears down, one of them free
    assert choices[2].cost == "1 SP"
    assert choices[3].cost == choices[4].cost == "free"
    odds = race.odds()
    assert all(choices[g].odds == odds.odds[g] for g in choices)
    # the label names the corner outcome in words (issue 27): "stops 50%", not "50% stop"
    assert choices[2].label == "2nd · 1 SP · stops 50%"


def test_move_choices_are_every_legal_destination_with_the_cheapest_way(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, dice=LoadedDice([4])
    )
    table = TableController(race, ["person"])
    table.choose_gear(2)
    choices = table.move_choices()
    assert {c.destination for c in choices} == {m.destination for m in race.legal_moves()}
    free = [c for c in choices if c.move.cost.total == 0]
    assert free and all(c.move.moved == 4 for c in free)
    assert choices[0].move.moved == 4  # farthest first
    assert table.die() == {"gear": 2, "faces": "2-4", "face": 4, "roll": 4, "nitro": False}


def test_a_person_cannot_play_for_a_bot(ring):
    race = Race(ring, cars=2, seed=1)
    table = TableController(race, ["heuristic", "heuristic"])
    with pytest.raises(NotYourTurnError, match="driven by a bot"):
        table.choose_gear(1)


def test_T1_S1_a_person_acting_for_a_bot_is_told_the_clause(ring):
    """T-1 (the car on turn is a bot's), S-1 (the grid roll is a bot's)."""
    race = Race(ring, cars=2, seed=1)
    table = TableController(race, ["heuristic", "heuristic"])
    with pytest.raises(NotYourTurnError, match="T-1: Blue is driven by a bot"):
        table.choose_gear(1)
    waiting = TableController(Race(ring, cars=2, seed=1, roll_grid=False), ["heuristic"] * 2)
    with pytest.raises(NotYourTurnError, match="S-1: the grid is driven by a bot"):
        waiting.roll_grid()


def test_S4_a_decision_after_the_finish_names_the_clause(ring):
    """S-4: ``choose_gear(3)`` once every car has finished says the race is over, by the rule."""
    race = Race(ring, cars=2, seed=1)
    race.play_bots(["heuristic", "heuristic"])
    assert race.over
    table = TableController(race, ["person", "person"])
    for decide in (lambda: table.choose_gear(3), table.use_nitro, lambda: table.choose_move(0)):
        with pytest.raises(TableError, match="S-4: the race is over"):
            decide()


def test_an_illegal_choice_names_the_rule_and_changes_nothing(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "gear": 2, "started": True}})
    table = TableController(race, ["person"])
    with pytest.raises(RuleError, match="G-3"):
        table.choose_gear(5)
    assert race.actions == []


def test_bots_play_until_a_person_is_on_turn(ring):
    race = Race(ring, cars=3, seed=4)
    table = TableController(race, ["heuristic", "person", "lookahead"])
    table.run_bots()
    assert table.on_turn == "Red" and table.person_on_turn
    assert table.prompt() == "Red (person): make the start roll"


def test_undo_goes_back_to_the_persons_last_decision_and_redo_replays_the_bots(ring):
    race = Race(ring, cars=3, seed=6)
    table = TableController(race, ["person", HeuristicBot(), "random"])
    table.run_bots()
    for _ in range(3):
        person_turn(table)
        table.run_bots()
    after = race.state
    played = list(race.actions)
    last_move = max(
        i
        for i in range(len(played))
        if race.actor(i) == 0 and type(played[i]).__name__ == "ChooseMove"
    )
    table.undo()
    assert len(race.actions) == last_move  # the bots' actions after it are gone too
    assert table.person_on_turn and table.phase == "move"
    table.undo()
    assert table.phase == "gear" and table.on_turn == "Blue"
    table.redo()
    table.redo()
    assert race.state == after and race.actions == played
    assert not table.can_redo


def test_undone_and_played_again_the_bots_answer_the_same(ring):
    race = Race(ring, cars=3, seed=6)
    table = TableController(race, ["person", "random", "random"])
    for _ in range(4):
        table.run_bots()
        person_turn(table)
    table.run_bots()
    played, after = list(race.actions), race.state
    table.undo()  # back to Blue's last move; the random bots' turns after it are gone
    assert len(race.actions) < len(played)
    table.choose_move(played[len(race.actions)].destination)  # the same move again, by hand
    table.run_bots()  # the bots play their turns again: the same dice, the same choices
    assert race.actions == played and race.state == after


def test_the_start_roll_is_a_decision_of_its_own(ring):
    race = Race(ring, cars=2, dice=LoadedDice([20, 3, 9, 2, 18]), roll_grid=False)
    table = TableController(race, ["person", "person"])
    assert table.phase == "grid" and not table.start_roll_due
    table.roll_grid()
    first = race.state.on_turn
    assert table.start_roll_due and table.prompt().endswith("make the start roll")
    assert table.start_roll() == 9 and table.start_result(first) == (9, "normal start")
    assert not table.start_roll_due and table.die()["roll"] == 2
    table.choose_move(table.move_choices()[0].destination)
    second = race.state.on_turn
    assert second != first and table.start_roll_due
    assert table.start_roll() == 18 and table.start_result(second) == (18, "flying start, 4 spaces")
    with pytest.raises(TableError, match="S-2: the start roll is made once"):
        table.start_roll()


def test_a_bot_that_cannot_drive_these_rules_is_a_seat_error(ring):
    race = Race(ring, cars=2, preset="street", seed=1)
    assert "solo" not in TableController(race, ["person", "person"]).seat_choices()
    with pytest.raises(SeatError, match="seat of Red .*street rules"):
        TableController(race, ["person", "solo"])


def test_a_new_decision_clears_redo(ring):
    race = Race(ring, cars=2, seed=2)
    table = TableController(race, ["person", "heuristic"])
    table.run_bots()
    person_turn(table)
    table.run_bots()
    table.undo()
    assert table.can_redo
    table.choose_move(table.move_choices()[-1].destination)
    assert not table.can_redo


def test_nothing_to_undo_before_a_person_decides(ring):
    table = TableController(Race(ring, cars=2, seed=2), ["heuristic", "person"])
    table.run_bots()
    assert not table.can_undo
    with pytest.raises(TableError, match="nothing to undo"):
        table.undo()


def test_a_grid_rolled_at_the_table_can_be_undone(ring):
    race = Race(ring, cars=2, seed=3, roll_grid=False)
    table = TableController(race, ["person", "person"])
    assert table.phase == "grid" and table.prompt() == "Roll for the grid"
    table.roll_grid()
    assert table.phase == "gear"
    table.undo()
    assert table.phase == "grid"


def test_hot_seat_two_people_take_turns(ring):
    race = Race(ring, cars=2, seed=5)
    table = TableController(race, ["person", "person"])
    seen = set()
    for _ in range(4):
        seen.add(table.on_turn)
        person_turn(table)
    assert seen == {"Blue", "Red"}
    assert table.bots_to_play is False


def test_dashboard_shows_gear_pools_laps_and_corner_stops(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 10, "gear": 3, "started": True, "lap": 1, "stops": 1}}
    )
    row = TableController(race, ["person"]).dashboard()[0]
    assert (row.gear, row.pools, row.lap) == ("3rd", {"SP": 18}, "lap 1 of 1")
    assert row.stops == "1 of 1 in corner 1"
    more = Race.from_position(
        ring, {"Blue": {"space": 10, "gear": 1, "started": True, "lap": 1, "stops": 3}}
    )  # C-2: stops beyond the count change nothing, and read so
    assert TableController(more, ["person"]).dashboard()[0].stops == "1 of 1 in corner 1"
    advanced = Race.from_position(ring, {"Blue": {"space": 0}}, "advanced")
    pools = TableController(advanced, ["person"]).dashboard()[0].pools
    assert list(pools) == ["tires", "brakes", "fuel", "body", "engine"]


def test_a_finished_car_shows_its_place_not_a_lap_beyond_the_race(ring):
    race = Race(ring, cars=2, seed=8)
    table = TableController(race, ["heuristic", "heuristic"])
    table.run_bots()
    assert race.over
    laps = {row.name: row.lap for row in table.dashboard()}
    assert "finished 1st" in laps.values()
    assert not any("lap 2" in text for text in laps.values())
    assert table.prompt().startswith("The race is over")


def test_street_rules_offer_nitro(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, "street", dice=LoadedDice([3])
    )
    table = TableController(race, ["person"])
    table.choose_gear(2)
    assert table.nitro_available()
    table.use_nitro()
    assert table.die()["roll"] == 5 and table.die()["nitro"]


def test_into_the_box_on_a_two_lap_race():
    training = load_track("tracks/training.json")
    box = next(
        n for n, d in training.graph.nodes(data=True) if d["kind"] == "box" and d["box"] == 1
    )
    race = Race(training, cars=1, laps=2, seed=1)
    start = race.state
    # find a space before the pit entry from where 4th gear reaches the box
    for space in training.graph.nodes:
        if training.graph.nodes[space]["kind"] != "track":
            continue
        race = Race.from_position(
            training,
            {"Blue": {"space": space, "gear": 4, "lap": 1, "started": True}},
            laps=2,
            dice=LoadedDice([10]),
        )
        table = TableController(race, ["person"])
        table.choose_gear(4)
        if table.box_move() is not None:
            break
    else:
        pytest.fail(f"no space of {training.name} reaches the box with a 10 ({start.round})")
    table.into_box()
    assert race.board.ids[race.state.cars[0].space] == box


def test_a_full_race_person_against_two_bots_to_the_finish():
    monaco = load_track("tracks/monaco.json")
    race = Race(monaco, cars=["Blue", "Red", "Green"], seed=11)
    table = TableController(race, ["person", "heuristic", "lookahead:bold"])
    turns = 0
    while not race.over:
        table.run_bots()
        if race.over:
            break
        assert table.person_on_turn and table.on_turn == "Blue"
        person_turn(table)
        turns += 1
        assert turns < 200
    rows = table.dashboard()
    assert all(row.status != "racing" for row in rows)
    assert any(isinstance(a, ChooseGear) for a in race.actions)
    again = Race.replay(monaco, 11, race.actions, cars=["Blue", "Red", "Green"])
    assert again.state == race.state


def test_race_play_bots_stops_at_a_persons_seat_and_names_what_to_pass(ring):
    race = Race(ring, cars=3, seed=5)
    race.play_bots([None, HeuristicBot(), HeuristicBot()])  # the AttributeError
    assert race.current == "Blue" and race.phase == "gear"
    race.play_bots([None, "heuristic", HeuristicBot()])  # a bot by name, as the table takes it
    assert race.current == "Blue" and race.phase == "gear"
    with pytest.raises(RuleError, match=r"car 2: 'heuristic' is a bot's name: pass the bot itself"):
        list(iter_race(race.engine, [None, "heuristic", HeuristicBot()], race.dice, race.state))
    with pytest.raises(RuleError, match="car 3: 7 has no choose_gear"):
        race.play_bots([None, HeuristicBot(), 7])
    with pytest.raises(RuleError, match="2 policies for 3 cars"):
        race.play_bots([None, HeuristicBot()])
