"""A Formula Fun championship shared through a game log (issue 27): fdlab.fun.shared.

Several players, each with a SharedFunGame of their own (their kernel), on one file;
threads and processes (multiprocessing, fork) append at once. The game the log holds
is always the hot-seat Game with the same people's decisions: nothing lost, nothing
played twice, every bot decision written once.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time

import pytest

from fdlab.errors import FdlabError
from fdlab.fun import Game, IllegalActionError, make_opponent
from fdlab.fun.bots import SimpleBot
from fdlab.fun.shared import (
    FORMAT,
    FunSeatError,
    NotYourDecisionError,
    SharedFunGame,
    StaleGameError,
)
from fdlab.shared_log import GameLogError, LogBusyError, SharedLog

SEED = 3  # three players: P1 starts
SEATS = ["person", "person", "manager"]


def start(path, seats=SEATS, seed=SEED, players=None):
    return SharedFunGame.create(path, len(seats) if players is None else players, seed, seats)


def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def hot_seat(shared: SharedFunGame) -> Game:
    """The same championship at one table: the same bots, the people's decisions replayed."""
    seed = shared.game.seed
    bots = {k: make_opponent(kind, seed * 10 + k) for k, kind in enumerate(shared.seats)
            if kind != "person"}  # fmt: skip
    game = Game(len(shared.seats), seed=seed, bots=bots)
    history = shared.game.history
    for action, before in zip(shared.actions, history, strict=False):
        if before.to_act not in bots:
            game.run_bots()
            game.play(action)
    game.run_bots()
    return game


def person_turn(table: SharedFunGame, chooser: SimpleBot) -> None:
    game = table.game
    table.act(chooser.choose(game.state, game.legal_actions()))


def play_to_the_end(*tables: SharedFunGame, limit: int = 5000) -> None:
    """Each table acts on its turn (a simple bot's choice), the bots from either table."""
    choosers = {t.player: SimpleBot(k) for k, t in enumerate(tables)}
    for _ in range(limit):
        moved = False
        for table in tables:
            table.sync()
            if table.game.state.is_over:
                return
            if table.my_turn:
                person_turn(table, choosers[table.player])
                moved = True
            elif table.bots_to_play:
                moved |= table.play_bot()
        assert moved or any(t.bots_to_play for t in tables), [t.prompt() for t in tables]
    raise AssertionError("the championship did not end")


def test_two_players_play_a_championship_and_it_is_the_hot_seat_game(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana, ben = SharedFunGame.join(path, "Ana"), SharedFunGame.join(path, "Ben")
    ana.claim(0)
    ben.claim("P2")
    play_to_the_end(ana, ben)
    ben.sync()
    assert ana.game.state.is_over and ana.game.state == ben.game.state
    hot = hot_seat(ana)
    assert hot.actions == ana.actions and hot.state == ana.game.state
    log = records(path)
    assert [r["seq"] for r in log] == list(range(1, len(log) + 1))
    acts = [r for r in log if r["kind"] == "action"]
    assert len(acts) == len(ana.actions)
    for record in acts:  # only a seat's owner writes its actions; a bot's by a player's kernel
        if record["seat"] in (0, 1):
            assert record["by"] == ["Ana", "Ben"][record["seat"]]
        else:
            assert record["by"] in ("Ana", "Ben")
    # a third kernel joining afterwards replays the same championship
    assert SharedFunGame.join(path, "Cleo").game.state == ana.game.state


def test_an_auction_across_two_kernels_bids_in_turn(tmp_path):
    """FF-4/FF-5: open bids in turn; each bid is an ordinary action of the bidder to act."""
    path = tmp_path / "fun.log"
    SharedFunGame.create(path, 2, seed=1)
    ana, ben = SharedFunGame.join(path, "Ana"), SharedFunGame.join(path, "Ben")
    ana.claim(0)
    ben.claim(1)
    for text in ("draw 1", "market 19", "auction 19 1"):
        ana.act(text)
    assert ana.to_act == 1 and not ana.my_turn
    with pytest.raises(NotYourDecisionError, match="only Ben plays it"):
        ana.act("bid 3")
    ben.sync()
    assert ben.my_turn and ben.prompt() == "Ben (P2): your decision"
    ben.act("bid 2")
    ana.sync()
    assert ana.game.state.auction.high_bid == 2 and ana.my_turn
    assert ana.game.log_lines(last=1) == ["Ben bids 2 M$"]
    with pytest.raises(IllegalActionError, match=r"^FF-4: "):  # the rules name their clause
        ana.act("bid 2")
    ana.act("pass")
    ben.sync()
    assert ben.game.state == ana.game.state and ben.game.state.auction is None


def test_only_a_seats_owner_acts_for_it_and_claims_are_checked(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana, ben = SharedFunGame.join(path, "Ana"), SharedFunGame.join(path, "Ben")
    with pytest.raises(NotYourDecisionError, match="P1's seat is free: Ana takes it first"):
        ana.act("draw 1")
    ana.claim(0)
    with pytest.raises(FunSeatError, match="P1 is taken by Ana: take a free seat"):
        ben.claim(0)  # read under the lock: the claim Ben had not seen
    with pytest.raises(FunSeatError, match="a bot's seat"):
        ben.claim(2)
    with pytest.raises(FunSeatError, match="one seat a player"):
        ana.claim(1)
    with pytest.raises(NotYourDecisionError, match="only Ana plays it"):
        ben.act("draw 1")
    with pytest.raises(FunSeatError, match="not Ben's seat"):
        ben.release(0)
    seq = ana.seq
    ana.claim(0)  # one's own seat again: allowed, nothing written
    assert ana.seq == seq == len(records(path))
    with pytest.raises(NotYourDecisionError, match="not taken back"):
        ana.undo()
    ana.release()
    ben.claim(0)
    assert ben.owners == ["Ben", None, None] and ben.game.names[0] == "Ben"


def test_a_stale_click_is_refused_and_says_what_landed(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    first = SharedFunGame.join(path, "Ana")
    first.claim(0)
    second = SharedFunGame.join(path, "Ana")  # the same player in a second tab
    seen = len(second.actions)
    first.act("draw 2")
    with pytest.raises(StaleGameError, match="Ana pays the bank 1 M\\$.* before you: your"):
        second.act("draw 1", seen=seen)
    assert second.actions == first.actions  # read the log: nothing lost, nothing doubled
    assert len([r for r in records(path) if r["kind"] == "action"]) == 1


def test_a_player_who_comes_back_finds_the_game_where_it_is(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana, ben = SharedFunGame.join(path, "Ana"), SharedFunGame.join(path, "Ben")
    ana.claim(0)
    ben.claim(1)
    chooser = SimpleBot(1)
    for _ in range(40):
        for table in (ana, ben):
            table.sync()
            if table.my_turn:
                person_turn(table, chooser)
            elif table.bots_to_play:
                table.play_bot()
    del ben  # Ben closes the tab
    back = SharedFunGame.join(path, "Ben")
    ana.sync()
    assert back.seat == 1 and back.game.state == ana.game.state
    assert back.game.names[:2] == ["Ana", "Ben"]
    back.claim(1)  # the notebook claims again on its first run: allowed, nothing written
    assert back.seq == ana.seq


def test_kernels_ask_a_bot_the_same_decision(tmp_path):
    """A bot's choice follows from the seed and the game so far: every kernel, even one
    that joined late (and replayed the bot's past decisions), makes the same move."""
    path = tmp_path / "fun.log"
    start(path, seats=["manager", "manager-bold", "random"])
    early = SharedFunGame.join(path, "Ana")
    for _ in range(25):
        early.play_bot()
    late = SharedFunGame.join(path, "Ben")
    for _ in range(60):
        seat = late.to_act
        assert seat is not None
        assert early._bot_choice(seat) == late._bot_choice(seat)
        (early if len(early.actions) % 2 else late).play_bot()
        early.sync()
        late.sync()
    assert early.game.state == late.game.state


def test_bots_played_by_four_threads_at_once_are_written_once(tmp_path):
    path = tmp_path / "fun.log"
    start(path, seats=["manager", "simple", "sensible", "manager-bold"])
    tables = [SharedFunGame.join(path, f"P{k}") for k in range(4)]
    barrier = threading.Barrier(len(tables))
    written = [0] * len(tables)
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            barrier.wait()
            written[k] = tables[k].play_bots()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(tables))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    for table in tables:
        table.sync()
    final = tables[0]
    assert final.game.state.is_over
    assert sum(written) == len(final.actions) == len(records(path))
    assert all(t.game.state == final.game.state for t in tables)
    assert hot_seat(final).actions == final.actions


def _bots(path: str, player: str, results) -> None:
    table = SharedFunGame.join(path, player)
    results.put((player, table.play_bots()))


def _person(path: str, player: str, seat: int, results) -> None:
    """One player in a process of its own: their seat, their turns, the bots on turn."""
    table = SharedFunGame.join(path, player)
    table.claim(seat)
    chooser = SimpleBot(seat)
    deadline = time.monotonic() + 60
    while not table.game.state.is_over and time.monotonic() < deadline:
        table.sync()
        if table.my_turn:
            person_turn(table, chooser)
        elif table.bots_to_play:
            table.play_bot()
        else:
            time.sleep(0.001)
    results.put((player, [str(a) for a in table.actions]))


def test_processes_append_at_once_nothing_lost_or_doubled(tmp_path):
    path = tmp_path / "fun.log"
    start(path, seats=["person", "person", "manager"])
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [
        context.Process(target=_person, args=(str(path), "Ana", 0, results)),
        context.Process(target=_person, args=(str(path), "Ben", 1, results)),
        context.Process(target=_bots, args=(str(path), "Cleo", results)),
    ]
    for process in workers:
        process.start()
    got = dict(results.get(timeout=90) for _ in workers)
    for process in workers:
        process.join(timeout=10)
        assert process.exitcode == 0
    referee = SharedFunGame.join(path, "Referee")
    assert referee.game.state.is_over
    played = [str(a) for a in referee.actions]
    assert got["Ana"] == got["Ben"] == played
    assert len(records(path)) == len(played) + 2  # two claims
    hot = hot_seat(referee)
    assert hot.actions == referee.actions and hot.state == referee.game.state


def test_two_claims_at_once_one_wins_the_other_is_told(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    tables = [SharedFunGame.join(path, name) for name in ("Ana", "Ben")]
    barrier = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def claim(table: SharedFunGame) -> None:
        barrier.wait()
        try:
            table.claim(0)
            outcome[table.player] = "took it"
        except FunSeatError as error:
            outcome[table.player] = str(error)

    threads = [threading.Thread(target=claim, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    winner = next(name for name, said in outcome.items() if said == "took it")
    loser = "Ben" if winner == "Ana" else "Ana"
    assert (
        outcome[loser] == f"P1 is taken by {winner}: take a free seat, or ask {winner} to leave it"
    )
    assert len(records(path)) == 1


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("not json", "line 2: not valid JSON"),
        ('{"seq": 2, "kind": "claim", "seat": 0, "by": "Ana"}', "line 2: seq 2, expected 1"),
        ('{"seq": 1, "kind": "sit", "seat": 0, "by": "Ana"}', "line 2: kind: one of action"),
        ('{"seq": 1, "kind": "claim", "seat": 0}', "line 2: by: missing"),
        ('{"seq": 1, "kind": "claim", "seat": 7, "by": "Ana"}', "line 2: seat: a seat, 0 to 2"),
        ('{"seq": 1, "kind": "claim", "seat": 2, "by": "Ana"}', r"line 2: P3 \(manager bot\) is a bot's seat"),
        ('{"seq": 1, "kind": "claim", "seat": 0, "by": " Ana"}', "line 2: by: a player's name"),
        (
            '{"seq": 1, "kind": "action", "seat": 0, "by": "Ana", "action": "draw 1"}',
            "line 2: P1's seat is free",
        ),
        ('{"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"}\n'
         '{"seq": 2, "kind": "action", "seat": 0, "by": "Ana", "action": "draw 9"}',
         "line 3: the action 'draw 9' cannot be played: FF-"),
        ('{"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"}\n'
         '{"seq": 2, "kind": "action", "seat": 0, "by": "Ana", "action": "fly"}',
         "line 3: action: text 'fly' is not an action"),
        ('{"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"}\n'
         '{"seq": 2, "kind": "action", "seat": 1, "by": "Ana", "action": "draw 1"}',
         "line 3: P1 is to act, not P2"),
    ],
)  # fmt: skip
def test_a_bad_line_is_one_error_naming_the_file_and_the_line(tmp_path, line, said):
    path = tmp_path / "fun.log"
    start(path)
    with path.open("a") as stream:
        stream.write(line + "\n")
    with pytest.raises(GameLogError, match=f"fun.log: {said}") as caught:
        SharedFunGame.join(path, "Ana")
    assert caught.value.line == int(said.split()[1].rstrip(":"))
    assert str(path) in str(caught.value) and isinstance(caught.value, FdlabError)


def test_a_bad_header_names_the_file_and_line_1(tmp_path):
    path = tmp_path / "fun.log"
    path.write_text('{"format": "fdlab-shared-race", "version": 1, "game": {}}\n')
    with pytest.raises(GameLogError, match="line 1: .*found 'fdlab-shared-race' \\(a shared race"):
        SharedFunGame.join(path, "Ana")
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "game": {"seed": 1,
                                "players": 9, "actions": []}, "seats": []}) + "\n")  # fmt: skip
    with pytest.raises(GameLogError, match="fun.log: line 1: game: players: must be an integer"):
        SharedFunGame.join(path, "Ana")
    with pytest.raises(GameLogError, match="the file exists already"):
        start(path)
    with pytest.raises(FunSeatError, match="player: a player's name has 1 to 40"):
        SharedFunGame.join(path, "")


def test_a_torn_last_line_waits_and_a_dead_writers_line_is_cut(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana = SharedFunGame.join(path, "Ana")
    record = '{"seq": 1, "kind": "claim", "seat": 1, "by": "Ben"}'
    with path.open("a") as stream:
        stream.write(record[:20])  # still being written
    assert not ana.sync() and ana.owners == [None, None, None]
    with path.open("a") as stream:
        stream.write(record[20:] + "\n")
    assert ana.sync() and ana.owners == [None, "Ben", None]
    with path.open("a") as stream:
        stream.write('{"seq": 2, "kind": "cl')  # a writer that died mid-line
    ana.claim(0)  # under the lock: the torn line is cut off, the claim is record 2
    assert [r["seq"] for r in records(path)] == [1, 2]
    assert SharedFunGame.join(path, "Cleo").owners == ["Ana", "Ben", None]


def test_a_busy_lock_is_refused_in_words(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana = SharedFunGame.join(path, "Ana", lock_timeout=0.05)
    holder = SharedLog(path, format=FORMAT, version=1, max_bytes=10**8)
    with holder.locked(), pytest.raises(LogBusyError, match="busy .*try again"):
        ana.claim(0)
    ana.claim(0)


def test_the_log_refuses_a_write_outside_the_lock_and_a_replaced_file(tmp_path):
    path = tmp_path / "fun.log"
    start(path)
    ana = SharedFunGame.join(path, "Ana")
    with pytest.raises(GameLogError, match="inside SharedLog.locked"):
        ana.log.append({"kind": "claim"})
    other = tmp_path / "other.log"
    start(other)
    other.replace(path)  # another game written over the file
    with pytest.raises(GameLogError, match="not the one that was read"):
        ana.sync()


# -- the table (fdlab.fun.shared_widget), without a browser ---------------------------------
def test_the_table_shows_only_ones_own_hand_and_refuses_a_stale_click(tmp_path):
    from fdlab.fun.widgets import FunTable

    path = tmp_path / "fun.log"
    start(path)
    ana = FunTable.join(path, player="Ana", seat=0)
    ben = FunTable.join(path, player="Ben", seat="P2")
    watcher = FunTable.join(path, player="Cleo")
    ana.poll_once()
    assert ana.board.value.count("hand:</b>") == 1 and "Your hand:" in ana.board.value
    assert "hand:</b>" not in watcher.board.value  # no seat: every hand hidden
    assert "P1: Ana (you) · P2: Ben · P3: manager bot" in ana.owners_line.value.replace(
        "<b>", ""
    ).replace("</b>", "")
    assert ana.undo_button.layout.display == "none" and ben.play_button.disabled
    assert ana.take_button.layout.display == "none" and ana.leave_button.layout.display == ""
    assert watcher.seat_menu.options == () and watcher.take_button.layout.display == "none"
    # a second tab of Ana's, drawn before her first tab played
    again = FunTable.join(path, player="Ana", seat=0)
    ana.choices.value = 0
    ana.play_button.click()
    again.choices.value = 0
    again.play_button.click()
    assert "before you: your action was not played" in again.messages.last_error
    assert len(again.shared.actions) == len(ana.shared.actions) == 1
    assert len([r for r in records(path) if r["kind"] == "action"]) == 1


def test_tables_play_the_bots_once_and_keep_a_pick_when_only_a_seat_changed(tmp_path):
    from fdlab.fun.shared_widget import join_fun_table

    path = tmp_path / "fun.log"
    start(path, seats=["person", "simple", "manager"], seed=0)  # P3 starts: bots first
    ana, ben = join_fun_table(path, "Ana", seat=0), join_fun_table(path, "Ben")
    for _ in range(200):
        if ana.shared.my_turn:
            break
        ana.poll_once()
        ben.poll_once()
    assert ana.shared.my_turn and not ana.play_button.disabled
    assert hot_seat(ana.shared).actions == ana.shared.actions  # each bot decision once
    ana.choices.value = len(ana.choices.options) - 1
    ana.amount.value = 7
    ben.take_seat()  # no free seat for Ben: told so
    assert ben.messages.last_error == "no free seat to take"
    ana.shared.release()
    ana.shared.claim(0)
    ana.poll_once()
    assert ana.choices.value == len(ana.choices.options) - 1 and ana.amount.value == 7
