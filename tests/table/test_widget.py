"""The RaceTable widget headless: buttons clicked, values set, Bokeh selections as a click makes."""

from __future__ import annotations

import json

from bokeh.core.serialization import Serializer

from fdlab.rules import LoadedDice, Race
from fdlab.table import RaceTable
from fdlab.track import load_track


def browser_change(table: RaceTable, model, attr: str, new) -> None:
    """Deliver one property change the way jupyter_bokeh receives it from BokehJS."""
    content = {
        "event": "jsevent",
        "kind": "ModelChanged",
        "model": {"id": model.id},
        "attr": attr,
        "new": Serializer(deferred=False).encode(new),
    }
    table.plot._sync_model(table.plot, json.loads(json.dumps(content)), [])


def browser_click(table: RaceTable, space) -> None:
    """A click on a highlighted space: the tap tool selects its row, delivered twice."""
    row = table.target_source.data["id"].index(space)
    for _ in range(2):  # jupyter_bokeh issue 159: every browser change arrives twice
        browser_change(table, table.target_source.selected, "indices", [row])


def decide_gear(table: RaceTable) -> None:
    """The person's gear decision: the start roll on the car's first turn, else a middle gear."""
    if table.start_button.layout.display != "none":
        table.start_button.click()
    else:
        buttons = table.gear_buttons.children
        buttons[len(buttons) // 2].click()


def gear_button(table: RaceTable, gear: int):
    return next(b for b in table.gear_buttons.children if f"fdlab-gear-{gear}" in b._dom_classes)


def test_the_table_displays_as_a_widget(ring):
    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])
    bundle = table._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    board_column, _panel = table.widget.children  # the one-screen layout (issue 27)
    assert table.plot in board_column.children
    assert "fdlab-race-table" in table.widget._dom_classes


def test_gear_buttons_are_the_legal_gears_with_cost_and_odds(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "gear": 4, "started": True}})
    table = RaceTable(race, ["person"])
    labels = [b.description for b in table.gear_buttons.children]
    assert len(labels) == len(race.legal_gears())
    # 1st cannot reach the corner: the button says so instead of "0% stop" (issue 27)
    assert labels[0] == "1st · 2 SP · can't reach corner 1"


def test_a_gear_click_rolls_the_die_and_highlights_every_destination(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, dice=LoadedDice([4])
    )
    table = RaceTable(race, ["person"])
    gear_button(table, 2).click()
    assert ">4</div>" in table.die_face.value and "2nd die 2-4" in table.die_face.value
    targets = table.target_source.data
    assert set(targets["id"]) == {m.destination for m in race.legal_moves()}
    assert all(cost for cost in targets["cost"])  # the hover shows a cost for each
    assert len(table.move_list.options) == len(targets["id"])


def test_a_click_on_a_highlighted_space_moves_the_car_once(ring):
    race = Race.from_position(
        ring,
        {"Blue": {"space": 0, "gear": 2, "started": True}, "Red": {"space": 1, "gear": 1}},
        order=["Blue", "Red"],
        dice=LoadedDice([4, 1, 2, 3]),
    )
    table = RaceTable(race, ["person", "person"])
    gear_button(table, 2).click()
    destination = table.target_source.data["id"][0]
    browser_click(table, destination)
    blue = race.state.cars[0]
    assert race.board.ids[blue.space] == destination
    assert sum(1 for a in race.actions if type(a).__name__ == "ChooseMove") == 1
    assert f"Blue moves 4 to space {destination}" in table.log.value
    assert table.log.value.index("Blue moves") < table.log.value.index("Blue, 2nd gear")
    assert table.controller.on_turn == "Red" and table.target_source.data["id"] == []
    car_spaces = table.car_source.data["space"]
    assert destination in car_spaces


def test_the_move_list_is_a_fallback_for_the_board(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, dice=LoadedDice([3])
    )
    table = RaceTable(race, ["person"])
    gear_button(table, 2).click()
    table.move_list.value = 1
    wanted = table._moves[1].destination
    table.move_button.click()
    assert race.board.ids[race.state.cars[0].space] == wanted


def test_a_click_on_another_space_is_refused_in_words(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, dice=LoadedDice([3])
    )
    table = RaceTable(race, ["person"])
    gear_button(table, 2).click()
    table.click_space(30)
    assert "not a highlighted destination" in table.message.value
    assert race.phase == "move"


def test_bots_play_by_themselves_and_the_dashboard_follows(ring):
    race = Race(ring, cars=3, seed=4)
    table = RaceTable(race, ["heuristic", "person", "heuristic:bold"])
    assert table.controller.on_turn == "Red"
    assert "Red (person): make the start roll" in table.prompt.value
    assert table.dashboard.value.count("<tr") == 4  # a header and three cars
    assert "heuristic:bold" in table.dashboard.value


def test_changing_a_seat_to_a_bot_lets_it_play(ring):
    race = Race(ring, cars=2, seed=4)
    table = RaceTable(race, ["person", "person"])
    before = len(race.actions)
    on_turn = race.state.current
    table.seat_boxes[on_turn].value = "heuristic"
    assert len(race.actions) > before
    assert table.controller.seat_label(on_turn) == "heuristic"


def test_undo_and_redo_buttons(ring):
    race = Race(ring, cars=2, seed=6)
    table = RaceTable(race, ["person", "heuristic"])
    assert table.undo_button.disabled
    decide_gear(table)
    if race.phase == "move" and table.controller.person_on_turn:
        browser_click(table, table.target_source.data["id"][0])
    after = race.state
    table.undo_button.click()
    assert race.state != after and not table.redo_button.disabled
    table.redo_button.click()
    assert race.state == after


def test_errors_are_shown_not_swallowed(ring):
    table = RaceTable(Race(ring, cars=2, seed=1), ["heuristic", "heuristic"])
    table.undo()
    assert table.last_error == "nothing to undo: no person has decided anything yet"
    assert "nothing to undo" in table.message.value


def test_save_and_load_buttons_round_trip(ring, tmp_path):
    race = Race(ring, cars=2, seed=9)
    table = RaceTable(race, ["person", "heuristic"], path=str(tmp_path / "game.json"))
    decide_gear(table)
    table.save_button.click()
    assert "saved to" in table.message.value
    loaded = RaceTable.load(tmp_path / "game.json")
    assert loaded.race.state == race.state and loaded.race.actions == race.actions
    table.load_button.click()
    assert table.race.state == race.state and "loaded" in table.message.value
    table.export_button.click()
    assert (tmp_path / "game.html").stat().st_size > 100_000


def test_a_full_race_on_monaco_person_against_two_bots_through_the_widget():
    monaco = load_track("tracks/monaco.json")
    race = Race(monaco, cars=["Blue", "Red", "Green"], seed=11)
    table = RaceTable(race, ["person", "heuristic", "lookahead"])
    for _ in range(200):
        if race.over:
            break
        decide_gear(table)
        if not race.over and table.controller.person_on_turn and race.phase == "move":
            browser_click(table, table.target_source.data["id"][0])
    assert race.over
    assert "The race is over" in table.prompt.value
    assert "finished" in table.dashboard.value and "lap 2" not in table.dashboard.value


def test_the_first_turn_is_a_start_roll_button_of_its_own(ring):
    # grid rolls 20, 3, 10; Green (a bot, first in the round) starts 5, 1; Blue starts 12, 2
    race = Race(ring, cars=3, dice=LoadedDice([20, 3, 10, 5, 1, 12, 2, 10]), roll_grid=False)
    table = RaceTable(race, ["person", "heuristic", "heuristic"])
    assert table.grid_button.layout.display == "" and table.start_button.layout.display == "none"
    table.grid_button.click()  # S-1, a button while the grid is to be rolled
    assert table.grid_button.layout.display == "none"
    assert table.controller.on_turn == "Blue"
    assert table.start_button.layout.display == "" and table.gear_buttons.children == ()
    assert table.start_button.description == (
        "Start roll (black die: 1 stalls, 17-20 flying start)"
    )
    table.start_button.click()
    assert table.start_button.layout.display == "none"
    assert "start: normal start" in table.die_face.value and ">12</div>" in table.die_face.value
    assert ">2</div>" in table.die_face.value and "1st die 1-2" in table.die_face.value
    browser_click(table, table.target_source.data["id"][0])
    assert "start:" not in table.die_face.value  # the start die goes with the first move


def test_a_stalled_start_says_so_and_ends_the_turn(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "started": False}, "Red": {"space": 1, "started": False}},
        order=["Blue", "Red"], dice=LoadedDice([1]),
    )  # fmt: skip
    table = RaceTable(race, ["person", "person"])
    table.start_button.click()
    assert "Blue&#x27;s start roll: 1, stalls (S-2)" in table.message.value
    assert table.controller.on_turn == "Red" and table.start_button.layout.display == ""


def test_the_advanced_start_roll_is_a_rocket_start(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "started": False}}, "advanced")
    table = RaceTable(race, ["person"])
    assert table.start_button.description == "Start roll (black die: 1 stalls, 20 rocket start)"


def test_the_seats_offer_every_bot_of_the_roster_in_every_style(ring):
    from fdlab.bots.roster import BOT_NAMES, BOT_SUMMARIES, STYLED_BOTS
    from fdlab.bots.style import STYLES

    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])
    offered = list(table.seat_boxes[1].options)
    assert offered[0] == "person" and set(BOT_NAMES) <= set(offered)
    for name in STYLED_BOTS:
        assert {f"{name}:{style}" for style in STYLES if style != "balanced"} <= set(offered)
    assert all(name in table.bots_help.value and BOT_SUMMARIES[name] for name in BOT_NAMES)
    street = RaceTable(Race(ring, cars=1, preset="street", seed=1), ["person"])
    assert "solo" not in street.seat_boxes[0].options  # it cannot drive with street rules
    for spec in ("par:reckless", "solo", "random", "lookahead:careful"):
        table.seat_boxes[1].value = spec
        assert table.controller.seat_label(1) == spec and table.last_error is None


def test_a_new_bot_in_the_roster_is_offered_at_the_table(ring, monkeypatch):
    from fdlab.bots import roster

    monkeypatch.setattr(roster, "BOT_NAMES", (*roster.BOT_NAMES, "newcomer"))
    monkeypatch.setattr(roster, "STYLED_BOTS", (*roster.STYLED_BOTS, "newcomer"))
    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])
    assert {"newcomer", "newcomer:bold"} <= set(table.seat_boxes[1].options)


def test_a_seat_the_rules_refuse_is_reported_and_the_menu_goes_back(ring, monkeypatch):
    from fdlab.table.errors import SeatError

    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])

    def refuse(index, seat, background=False):
        raise SeatError(f"seat of Red (car 2): {seat} cannot drive here")

    monkeypatch.setattr(table.controller, "set_seat", refuse)
    table.seat_boxes[1].value = "lookahead"
    assert table.last_error == "seat of Red (car 2): lookahead cannot drive here"
    assert table.seat_boxes[1].value == "heuristic"
    assert table.controller.seat_label(1) == "heuristic"
