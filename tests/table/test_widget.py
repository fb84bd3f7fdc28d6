"""The RaceTable widget headless: buttons clicked, values set, Bokeh selections as a click makes."""

from __future__ import annotations

import json

import pytest
from bokeh.core.serialization import Serializer

from fdlab.rules import LoadedDice, Race
from fdlab.table import RaceTable
from fdlab.track import from_ascii, load_track

RING = """
    . . . . 1 1 1 . . . . . . . . 2 2 2 . . . .
    . . . . 1 1 1 . . . . . . . . 2 2 2 . . . .
"""


@pytest.fixture(scope="module")
def ring():
    return from_ascii(RING, corners={1: 1, 2: 2}, closed=True, grid=[41, 40, 39], name="Ring")


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


def gear_button(table: RaceTable, gear: int):
    return next(b for b in table.gear_buttons.children if f"fdlab-gear-{gear}" in b._dom_classes)


def test_the_table_displays_as_a_widget(ring):
    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])
    bundle = table._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert table.plot in table.widget.children
    assert "fdlab-race-table" in table.widget._dom_classes


def test_gear_buttons_are_the_legal_gears_with_cost_and_odds(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "gear": 4, "started": True}})
    table = RaceTable(race, ["person"])
    labels = [b.description for b in table.gear_buttons.children]
    assert len(labels) == len(race.legal_gears())
    assert labels[0].startswith("1st · 2 SP ·") and labels[0].endswith("% stop")


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
    assert "Red (person): choose a gear" in table.prompt.value
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
    table.gear_buttons.children[0].click()
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
    table.gear_buttons.children[0].click()
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
        buttons = table.gear_buttons.children
        buttons[len(buttons) // 2].click()
        if not race.over and table.controller.person_on_turn and race.phase == "move":
            browser_click(table, table.target_source.data["id"][0])
    assert race.over
    assert "The race is over" in table.prompt.value
    assert "finished" in table.dashboard.value and "lap 2" not in table.dashboard.value
