"""Game files and replay pages: save, load and replay round trips; tampered files."""

from __future__ import annotations

import json
import re

import pytest
from table_helpers import finish, half_played, person_turn

from fdlab.rules import LoadedDice, Race
from fdlab.table import (
    GameFileError,
    TableController,
    game_to_dict,
    load_game,
    replay_html,
    save_game,
    save_replay,
)
from fdlab.table.game_file import field_digest
from fdlab.table.replay_html import replay_frames


def stamped(doc):
    """A hand-edited document with its digests recomputed: every other check still applies."""
    doc = {key: value for key, value in doc.items() if key != "digests"}
    return doc | {"digests": {key: field_digest(value) for key, value in doc.items()}}


@pytest.fixture
def game(ring):
    """A race half played: a person (Blue) and two bots."""
    return half_played(ring, person_turns=4)


def test_save_and_load_round_trip(game, tmp_path):
    path = save_game(game, tmp_path / "game.json")
    loaded = load_game(path)
    assert loaded.race.state == game.race.state
    assert loaded.race.actions == game.race.actions
    assert loaded.seats == game.seats and loaded.race.names == game.race.names
    assert loaded.race.track.name == "Ring" and len(loaded.race.track) == len(game.race.track)
    # a loaded game plays on: the person is on turn
    assert loaded.person_on_turn and loaded.on_turn == "Blue"


def test_a_loaded_game_with_a_random_bot_finishes_exactly_like_the_original(game, tmp_path):
    loaded = load_game(save_game(game, tmp_path / "game.json"))
    finish(game)
    finish(loaded)  # the same bots, the random one included, choose the same on the way
    assert loaded.race.over and loaded.race.actions == game.race.actions
    assert loaded.race.state == game.race.state


@pytest.mark.parametrize("spec", ["par:bold", "heuristic:cautious", "lookahead:reckless",
                                  "random", "solo"])  # fmt: skip
def test_every_bot_of_the_roster_replays_exactly_from_a_game_file(ring, tmp_path, spec):
    race = Race(ring, cars=3, seed=17)
    table = TableController(race, ["person", spec, "random"])
    finish_after = 3
    for _ in range(finish_after):  # a few of Blue's turns, then save in the middle of the race
        table.run_bots()
        person_turn(table, top_gear=True)
    loaded = load_game(save_game(table, tmp_path / "game.json"))
    finish(table)
    finish(loaded)
    assert loaded.race.state == table.race.state and loaded.race.actions == table.race.actions


def test_a_position_race_saves_its_start(ring, tmp_path):
    race = Race.from_position(ring, {"Blue": {"space": 8, "gear": 3, "started": True}}, seed=2)
    race.play(3)
    loaded = load_game(save_game(race, tmp_path / "lesson.json"))
    assert loaded.race.start == race.start and loaded.race.state == race.state


def test_a_changed_action_gives_one_clear_error(game, tmp_path):
    path = save_game(game, tmp_path / "game.json")
    doc = json.loads(path.read_text())
    gear_at = next(i for i, a in enumerate(doc["actions"]) if "gear" in a and i > 2)
    doc["actions"][gear_at] = {"gear": 6}
    path.write_text(json.dumps(doc))
    with pytest.raises(GameFileError, match=r"actions: the file was changed after it was saved"):
        load_game(path)
    path.write_text(json.dumps(stamped(doc)))  # past the digests, the replay refuses it
    with pytest.raises(GameFileError) as caught:
        load_game(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: actions[{gear_at}]: action {gear_at + 1}")
    assert "G-3" in message or "S-2" in message
    assert "the file was changed" in message


def test_a_changed_move_that_is_still_legal_is_caught_by_the_check(game, tmp_path):
    path = save_game(game, tmp_path / "game.json")
    doc = json.loads(path.read_text())
    race = game.race
    # replay to the person's first move and pick another legal destination
    index = next(
        i for i, a in enumerate(race.actions) if race.actor(i) == 0 and "move" in a.to_json()
    )
    replay = Race.replay(race.board, race.seed, race.actions[:index], cars=race.names)
    other = next(
        m.destination
        for m in replay.legal_moves()
        if m.destination != race.actions[index].destination and not m.eliminates
    )
    doc["actions"][index] = {"move": other}
    path.write_text(json.dumps(stamped(doc)))  # past the digests, the replay catches it
    with pytest.raises(GameFileError, match="was changed"):
        load_game(path)


def test_a_changed_seed_or_board_is_caught(game, tmp_path):
    path = save_game(game, tmp_path / "game.json")
    original = json.loads(path.read_text())
    doc = dict(original, seed=original["seed"] + 1)
    path.write_text(json.dumps(doc))
    with pytest.raises(GameFileError, match="was changed"):
        load_game(path)
    doc = json.loads(json.dumps(original))
    doc["board"]["graph"]["corners"][0]["stops"] = 3
    path.write_text(json.dumps(doc))
    with pytest.raises(GameFileError, match="was changed"):
        load_game(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda doc: doc.update(format="zip"), r"format: expected 'fdlab-game', found 'zip'"),
        (lambda doc: doc.pop("seed"), r"seed: the seed of the dice is a whole number, not null"),
        (lambda doc: doc.update(seats=["person"]), r"seats: 1 seats for 3 cars"),
        (lambda doc: doc.update(seats=["person", "clever", "random"]), r"seats: .*unknown bot"),
        (lambda doc: doc["board"]["steps"][0].update(to="nowhere"), r"board: steps\[0\]\.to"),
    ],
)
def test_a_malformed_file_names_the_field(game, tmp_path, change, message):
    path = save_game(game, tmp_path / "game.json")
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(stamped(doc)))  # past the digests: each field is checked
    with pytest.raises(GameFileError, match=message):
        load_game(path)


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("{not json")
    with pytest.raises(GameFileError, match=r"not valid JSON: .* at line 1 column 2"):
        load_game(path)


def test_races_that_cannot_be_saved_say_why(ring):
    loaded_dice = Race(ring, cars=1, dice=LoadedDice([10, 1]))
    with pytest.raises(GameFileError, match="seed"):
        game_to_dict(loaded_dice)
    from fdlab.bots import HeuristicBot

    table = TableController(Race(ring, cars=2, seed=1), ["person", HeuristicBot()])
    with pytest.raises(GameFileError, match="records bots by name"):
        game_to_dict(table)


def test_replay_frames_follow_the_rounds(game):
    race = game.race
    race_done = TableController(race, ["heuristic"] * 3)
    race_done.run_bots()
    frames = replay_frames(race)
    assert [f["title"] for f in frames[:2]] == ["Start", "Round 1"]
    assert len(frames) == race.state.round + 1 or len(frames) == race.state.round
    assert frames[-1]["state"] == race.state and frames[-1]["title"].endswith("(finish)")
    all_events = [text for frame in frames for text in frame["events"]]
    assert all_events == race.log


def test_the_replay_page_is_standalone_and_has_a_frame_per_round(game, tmp_path):
    race = game.race
    page = replay_html(race)
    assert "cdn.bokeh.org" not in page and "Bokeh" in page
    assert re.search(r"<script[^>]*>\s*/\*!?[^<]{0,400}(bokeh|Bokeh)", page)  # BokehJS inline
    assert len(page) > 1_000_000
    path = save_replay(race, tmp_path / "replay.html")
    assert path.read_text(encoding="utf-8") == page or "Round" in path.read_text()
    assert page.count("Round ") >= race.state.round
