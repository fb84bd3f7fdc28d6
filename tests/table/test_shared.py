"""The race table across computers: a shared game log (fdlab.table.shared), without a browser.

Several SharedTable objects on one file stand for players on several
computers; threads and processes (multiprocessing, fork) append at once.
What must hold: a race plays to the end as the same race a hot-seat table
plays with the same decisions (so no action is lost or played twice, and a
bot's move is written once); when two act at once one lands and the other
is told why; a player who joins again finds the race where it is; a bad
line is one SharedLogError naming the file and the line.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from pathlib import Path

import pytest
from table_helpers import finish

from fdlab.rules import Race, RuleError
from fdlab.table import (
    NotYourTurnError,
    SeatError,
    SharedLogError,
    SharedTable,
    StaleTableError,
    TableController,
    TableError,
)
from fdlab.table.game_file import game_to_dict
from fdlab.track import from_ascii

CARS = ["Blue", "Red", "Green"]
SEED = 5
PEOPLE = ["person", "person", "heuristic"]
BOTS = ["heuristic", "heuristic:bold", "random"]


def start(path: Path, ring, seats=PEOPLE) -> SharedTable:
    return SharedTable.create(path, ring, cars=CARS, seats=seats, seed=SEED)


def shared_turn(table: SharedTable) -> None:
    """The decisions of table_helpers.person_turn, made through the shared log."""
    c = table.controller
    if c.phase == "grid":
        table.roll_grid()
        return
    if c.start_roll_due:
        table.start_roll()
    else:
        gears = c.gear_choices()
        table.choose_gear(gears[len(gears) // 2].gear)
    if table.my_turn and c.phase == "move":
        table.choose_move(c.move_choices()[0].destination)


def to_a_gear_choice(table: SharedTable) -> None:
    """Play (one player holding every seat) until a car chooses a gear after its start."""
    c = table.controller
    while c.phase != "gear" or c.start_roll_due:
        if c.phase == "move":
            table.choose_move(c.move_choices()[0].destination)
        else:
            shared_turn(table)


def hot_seat(ring, seats) -> list:
    """The actions of the same race at one table, people deciding as shared_turn does."""
    table = TableController(Race(ring, cars=CARS, seed=SEED, roll_grid=False), seats)
    if table.person_on_turn:
        table.roll_grid()
    finish(table)
    return list(table.race.actions)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def play_to_the_end(*tables: SharedTable) -> None:
    for _ in range(500):
        if all(t.race.over for t in tables):
            return
        for t in tables:
            t.sync()
            if t.my_turn:
                shared_turn(t)
            elif t.bots_to_play:
                t.play_bot()
    raise AssertionError("the race did not end")


# -- a race to the end -------------------------------------------------------------------
def test_two_players_on_one_file_play_a_race_to_the_end_with_a_bot(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    ana.claim("Blue")
    ben.claim("Red")
    play_to_the_end(ana, ben)
    ben.sync()
    assert ana.race.over and ana.race.state == ben.race.state
    # the race the log holds is the hot-seat race with the same decisions: nothing lost,
    # nothing played twice, the bot's moves written once
    assert ana.race.actions == ben.race.actions == hot_seat(ring, PEOPLE)
    log = records(path)
    assert [r["seq"] for r in log] == list(range(1, len(log) + 1))
    actions = [r for r in log if r["kind"] == "action"]
    assert len(actions) == len(ana.race.actions)
    # only a seat's owner wrote its actions; the grid roll (S-1) by a seated player
    for record in actions:
        if record["seat"] in (0, 1):
            assert record["by"] == ["Ana", "Ben"][record["seat"]]
    assert {r["by"] for r in actions if r["seat"] == 2} <= {"Ana", "Ben"}
    # a third kernel joining afterwards replays the same race
    assert SharedTable.join(path, "Cleo").race.state == ana.race.state


def _player(path: str, player: str, seat: str, results) -> None:
    """One player in a process of its own: their seat, and the bot when it is on turn."""
    table = SharedTable.join(path, player)
    table.claim(seat)
    stale = 0
    deadline = time.monotonic() + 50
    while not table.race.over and time.monotonic() < deadline:
        table.sync()
        if table.my_turn:
            try:
                shared_turn(table)
            except StaleTableError:  # the other process rolled for the grid first
                stale += 1
        elif table.bots_to_play:
            table.play_bot()
        else:
            time.sleep(0.001)
    results.put((player, [a.to_json() for a in table.race.actions], stale))


def test_two_processes_play_a_race_to_the_end(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    players = [
        context.Process(target=_player, args=(str(path), name, seat, results))
        for name, seat in (("Ana", "Blue"), ("Ben", "Red"))
    ]
    for process in players:
        process.start()
    got = [results.get(timeout=60) for _ in players]
    for process in players:
        process.join(timeout=10)
        assert process.exitcode == 0
    expected = [a.to_json() for a in hot_seat(ring, PEOPLE)]
    assert [actions for _, actions, _ in got] == [expected, expected]
    assert len([r for r in records(path) if r["kind"] == "action"]) == len(expected)


# -- appends at once ---------------------------------------------------------------------
def _bots(path: str, name: str, results) -> None:
    table = SharedTable.join(path, name)
    written = 0
    while not table.race.over:
        written += table.play_bot()
    results.put(written)


def test_bots_played_by_four_processes_at_once_are_written_once(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring, BOTS)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [context.Process(target=_bots, args=(str(path), f"P{k}", results)) for k in range(4)]
    for process in workers:
        process.start()
    written = [results.get(timeout=60) for _ in workers]
    for process in workers:
        process.join(timeout=10)
    expected = hot_seat(ring, BOTS)
    assert sum(written) == len(expected) == len(records(path))
    assert SharedTable.join(path, "Q").race.actions == expected


def test_bots_played_by_four_threads_at_once_are_written_once(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring, BOTS)
    tables = [SharedTable.join(path, f"T{k}") for k in range(4)]
    barrier = threading.Barrier(len(tables))
    written = [0] * len(tables)
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            barrier.wait()
            while not tables[k].race.over:
                written[k] += tables[k].play_bot()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(tables))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    expected = hot_seat(ring, BOTS)
    assert sum(written) == len(expected) == len(records(path))
    assert all(t.race.actions == expected for t in tables)


def test_two_players_rolling_for_the_grid_at_once_roll_it_once(tmp_path, ring):
    """S-1 by whichever lands first; the other is told, and nothing is played twice."""
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    ana.claim("Blue")
    ben.claim("Red")
    ana.sync()
    barrier = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def roll(table: SharedTable) -> None:
        barrier.wait()
        try:
            table.roll_grid()
            outcome[table.player] = "rolled"
        except StaleTableError as error:
            outcome[table.player] = str(error)

    threads = [threading.Thread(target=roll, args=(t,)) for t in (ana, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert sorted(outcome.values())[-1] == "rolled"
    winner = next(name for name, said in outcome.items() if said == "rolled")
    loser = next(name for name in outcome if name != winner)
    assert outcome[loser].startswith(f"{winner} rolled for the grid before you: your action")
    grid = [r for r in records(path) if r["kind"] == "action"]
    assert len(grid) == 1 and grid[0]["by"] == winner
    assert ana.race.state == ben.race.state and ana.race.phase == "gear"


def test_two_tabs_of_one_player_clicking_at_once_play_one_gear(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring, ["person", "person", "person"])
    first, second = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ana")
    for car in CARS:
        first.claim(car)
    first.roll_grid()
    to_a_gear_choice(first)
    second.sync()
    name = first.race.current
    first.choose_gear(2)  # G-3: one up from 1st
    with pytest.raises(StaleTableError, match=rf"^{name} \(Ana\) chose 2nd gear before you"):
        second.choose_gear(1)
    assert second.race.state == first.race.state  # the refused tab shows the race as it is
    actions = [r["action"] for r in records(path) if r["kind"] == "action"]
    assert actions[-1] == {"gear": 2} and len(actions) == len(first.race.actions)


def test_a_seat_claimed_by_four_at_once_goes_to_one(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    tables = [SharedTable.join(path, name) for name in ("Ana", "Ben", "Cleo", "Dev")]
    barrier = threading.Barrier(len(tables))
    refused: dict[str, str] = {}

    def claim(table: SharedTable) -> None:
        barrier.wait()
        try:
            table.claim("Blue")
        except SeatError as error:
            refused[table.player] = str(error)

    threads = [threading.Thread(target=claim, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    claims = records(path)
    assert len(claims) == 1 and len(refused) == 3
    winner = claims[0]["by"]
    assert all(
        text == f"Blue is taken by {winner}: take a free seat, or ask {winner} to leave it"
        for text in refused.values()
    )


# -- seats and turns ---------------------------------------------------------------------
def test_only_a_seats_owner_acts_and_only_on_its_turn(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    with pytest.raises(NotYourTurnError, match=r"Ana holds no seat: .*\(S-1\)"):
        ana.roll_grid()
    ana.claim("Blue")
    with pytest.raises(SeatError, match="Green is driven by a bot"):
        ben.claim("Green")
    ana.roll_grid()
    ben.sync()
    on_turn = ana.race.current
    other = ben if on_turn == "Blue" else ana
    with pytest.raises(NotYourTurnError):
        other.choose_gear(1)
    with pytest.raises(SeatError, match="Blue is not Ben's seat"):
        ben.release("Blue")
    with pytest.raises(TableError, match="not taken back"):
        ana.undo()
    ben.claim("Red")
    play_to_the_end(ana, ben)
    with pytest.raises(NotYourTurnError, match="S-4"):
        ana.choose_gear(1)


def test_the_rules_refuse_an_action_with_their_clause_and_nothing_is_written(tmp_path):
    track = from_ascii(" ".join(["."] * 30), grid=[1, 0], finish=29)
    path = tmp_path / "race.log"
    table = SharedTable.create(path, track, cars=["Blue", "Red"], seed=4, player="Ana")
    table.claim("Blue")
    table.claim("Red")
    table.roll_grid()
    to_a_gear_choice(table)
    before = path.read_bytes()
    with pytest.raises(RuleError, match="^G-3: you can shift up only one gear per turn"):
        table.choose_gear(4)
    assert path.read_bytes() == before
    assert SharedTable.join(path, "Ben").race.state == table.race.state


def test_a_player_who_closed_the_tab_finds_the_race_where_it_is(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    ana.claim("Blue")
    ben.claim("Red")
    for _ in range(6):
        play_round(ana, ben)
    ana.sync()
    state, seq = ana.race.state, ana.seq
    del ben  # the tab is closed (its kernel gone)
    ben = SharedTable.join(path, "Ben")
    assert ben.race.state == state and ben.mine == [1] and ben.owner("Blue") == "Ana"
    ben.claim("Red")  # taking one's own seat back writes nothing
    assert ben.seq == seq == len(records(path))
    with pytest.raises(SeatError, match="Blue is taken by Ana"):
        ben.claim("Blue")
    play_to_the_end(ana, ben)
    assert ana.race.actions == hot_seat(ring, PEOPLE)


def play_round(*tables: SharedTable) -> None:
    for t in tables:
        t.sync()
        if t.my_turn:
            shared_turn(t)
        elif t.bots_to_play:
            t.play_bot()


def test_a_seat_left_is_taken_by_another_player(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    ana.claim("Blue")
    ana.release("Blue")
    ben.claim("Blue")
    assert ben.mine == [0] and ben.free_seats() == [1]
    ana.sync()
    assert ana.seat_label(0) == "Ben" and ben.seat_label(0) == "Ben (you)"
    assert [r["kind"] for r in records(path)] == ["claim", "release", "claim"]


# -- the file ----------------------------------------------------------------------------
def test_creating_over_an_existing_log_is_refused(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    with pytest.raises(SharedLogError, match="the file exists already: join its race"):
        start(path, ring)


def test_a_line_being_written_is_read_once_whole_and_a_torn_one_is_cut(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana, ben = SharedTable.join(path, "Ana"), SharedTable.join(path, "Ben")
    line = '{"seq":1,"kind":"claim","seat":0,"by":"Ana"}\n'
    with path.open("a") as stream:
        stream.write(line[:20])  # a writer half way through its line
    assert ben.sync() is False and ben.seq == 0
    with path.open("a") as stream:
        stream.write(line[20:])
    assert ben.sync() is True and ben.owner(0) == "Ana"
    with path.open("a") as stream:
        stream.write('{"seq":2,"kind":"cl')  # a writer that died mid-line
    ana.sync()
    ben.claim("Red")  # under the lock the torn line is cut off, then the claim written
    assert [r["seq"] for r in records(path)] == [1, 2]
    assert SharedTable.join(path, "Cleo").owners == ["Ana", "Ben", None]


BAD_LINES = [
    ("not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object, not [1, 2]"),
    ('{"seq": 1, "kind": "sit", "seat": 0, "by": "Ana"}', 'kind: one of action, claim, release, not "sit"'),
    ('{"seq": 2, "kind": "claim", "seat": 0, "by": "Ana"}', "seq 2, expected 1"),
    ('{"seq": 1, "kind": "claim", "seat": 0, "by": "Ana", "x": 1}', "x: not a field of this record"),
    ('{"seq": 1, "kind": "claim", "seat": 0}', "by: missing"),
    ('{"seq": 1, "kind": "claim", "seat": 7, "by": "Ana"}', "seat: a car, 0 to 2, not 7"),
    ('{"seq": 1, "kind": "claim", "seat": 0, "by": ""}', "by: a player's name has 1 to 40"),
    ('{"seq": 1, "kind": "claim", "seat": 2, "by": "Ana"}', "Green is driven by a bot"),
    ('{"seq": 1, "kind": "release", "seat": 0, "by": "Ana"}', "Blue is not Ana's seat"),
    ('{"seq": 1, "kind": "action", "seat": null, "by": "Ana", "action": {"grid": true}}',
     "Ana holds no seat: a player at the table rolls for the grid (S-1)"),
    ('{"seq": 1, "kind": "action", "seat": null, "by": "Ana", "action": {"fly": 1}}',
     'action: not an action: {"fly": 1}'),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), BAD_LINES, ids=[m for _, m in BAD_LINES])
def test_a_malformed_record_is_one_error_naming_the_file_and_the_line(
    tmp_path, ring, line, message
):
    path = tmp_path / "race.log"
    start(path, ring)
    with path.open("a") as stream:
        stream.write(line + "\n")
    with pytest.raises(SharedLogError) as caught:
        SharedTable.join(path, "Ben")
    assert str(caught.value).startswith(f"{path}: line 2: ")
    assert message in str(caught.value)
    assert caught.value.line == 2 and caught.value.source == str(path)


def test_an_action_out_of_turn_or_against_the_rules_is_refused_with_its_line(tmp_path, ring):
    path = tmp_path / "race.log"
    table = start(path, ring)
    table = SharedTable.join(path, "Ana")
    table.claim("Blue")
    table.claim("Red")
    table.roll_grid()
    car = table.race.state.current
    good = len(path.read_text().splitlines())
    lines = [
        f'{{"seq": 4, "kind": "action", "seat": {car}, "by": "Ben", "action": {{"gear": 1}}}}',
        f'{{"seq": 4, "kind": "action", "seat": {car}, "by": "Ana", "action": {{"gear": 5}}}}',
    ]
    expected = [
        f"{CARS[car]} is Ana's seat: only Ana plays it",
        'the action {"gear": 5} cannot be played: ',
    ]
    for line, message in zip(lines, expected, strict=True):
        kept = path.read_text().splitlines()[:good]
        path.write_text("\n".join([*kept, line]) + "\n")
        with pytest.raises(SharedLogError, match=rf"^{path}: line {good + 1}: ") as caught:
            SharedTable.join(path, "Ben")
        assert message in str(caught.value)


def test_a_changed_header_is_refused_on_line_1(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    header, *rest = path.read_text().splitlines()
    doc = json.loads(header)
    doc["game"]["laps"] = 3
    path.write_text("\n".join([json.dumps(doc), *rest]) + "\n")
    with pytest.raises(SharedLogError, match=rf"^{path}: line 1: game: laps: the file was changed"):
        SharedTable.join(path, "Ana")
    game = game_to_dict(TableController(Race(ring, seed=1), ["person", "person"]))
    path.write_text(json.dumps(game) + "\n")
    with pytest.raises(SharedLogError, match='line 1: .*found "fdlab-game" \\(a game file'):
        SharedTable.join(path, "Ana")
    path.write_text("")
    with pytest.raises(SharedLogError, match="line 1: the file is empty"):
        SharedTable.join(path, "Ana")


def test_a_log_replaced_under_a_player_is_an_error_not_a_silent_switch(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    ana = SharedTable.join(path, "Ana")
    ana.claim("Blue")
    path.unlink()
    start(path, ring)
    with pytest.raises(SharedLogError, match="not the one that was read"):
        ana.sync()


def test_a_players_name_is_checked(tmp_path, ring):
    path = tmp_path / "race.log"
    start(path, ring)
    with pytest.raises(SeatError, match="player: a player's name has no spaces around it"):
        SharedTable.join(path, " Ana")


# -- the race table over the log (the browser test plays it in JupyterLab) ---------------------
def test_the_race_table_shows_the_others_moves_and_refuses_a_stale_click(tmp_path, ring):
    from fdlab.table import RaceTable

    path = tmp_path / "race.log"
    start(path, ring)
    ana = RaceTable.join(path, player="Ana", seat="Blue")
    ben = RaceTable.join(path, player="Ben", seat="Blue")  # taken: said on the message line
    assert ben.last_error == "Blue is taken by Ana: take a free seat, or ask Ana to leave it"
    ben.take_seat("Red")
    assert "Blue: Ana · Red: Ben (you) · Green: heuristic" in ben.owners_line.value
    assert ben.undo_button.layout.display == "none" and ben.seat_boxes[0].disabled
    # both see the grid button; Ana rolls first, Ben's click on his old view is refused
    assert ana.grid_button.layout.display == "" and ben.grid_button.layout.display == ""
    ana.grid_button.click()
    ben.grid_button.click()
    assert ben.last_error.startswith("Ana rolled for the grid before you: your action was not")
    assert ben.race.state == ana.race.state and ben.grid_button.layout.display == "none"
    # each sees the other's moves on polling; only the player on turn gets buttons
    for _ in range(200):
        if ana.race.over:
            break
        for table in (ana, ben):
            table.poll_once()
            if table.shared.my_turn:
                if table.start_button.layout.display == "":
                    table.start_button.click()
                elif table.gear_buttons.children:
                    table.gear_buttons.children[len(table.gear_buttons.children) // 2].click()
                if table.move_button.layout.display == "":
                    table.move_button.click()
                assert table.last_error is None, table.last_error
            else:
                assert not table.gear_buttons.children and table.move_list.options == ()
    ben.poll_once()
    assert ana.race.over and ben.race.state == ana.race.state
    assert ana.race.actions == hot_seat(ring, PEOPLE)
    assert "The race is over" in ben.prompt.value


def test_a_grid_click_read_after_the_others_roll_is_told_who_rolled(tmp_path, ring):
    """The click left the browser before the table drew Ana's roll, and arrives after it."""
    from fdlab.table import RaceTable

    path = tmp_path / "race.log"
    start(path, ring)
    ana = RaceTable.join(path, player="Ana", seat="Blue")
    ben = RaceTable.join(path, player="Ben", seat="Red")
    ana.grid_button.click()
    ben.poll_once()  # Ben's table draws the roll...
    ben.roll_grid()  # ...and then his click on the button he saw arrives
    assert ben.last_error.startswith("Ana rolled for the grid before you: your action was not")
    assert len([r for r in records(path) if r["kind"] == "action"]) == 1
