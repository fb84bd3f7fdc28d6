"""The class app without a browser: the lobby, links that carry a name, and ``fdlab class``.

The page in a real browser, served by Voila, is ``test_browser_class.py``.
"""

from __future__ import annotations

import pytest

from fdlab.cli import main
from fdlab.table import SharedTable
from fdlab.table.class_cli import class_server
from fdlab.table.classroom import GAME_VARIABLE, WATCH, ClassLobby, class_notebook, class_page
from fdlab.track import from_ascii, save_track


def strip():
    lane = " ".join(["."] * 11)
    return from_ascii(f"{lane}\n{lane}", grid=[12, 1, 0], finish=10, name="Sprint")


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "class.log"
    SharedTable.create(path, strip(), cars=["Blue", "Red", "Green"],
                       seats=["person", "person", "heuristic"], seed=6)  # fmt: skip
    return path


def test_the_lobby_shows_the_race_and_offers_the_free_cars(log):
    lobby = ClassLobby(log)
    assert "Formula D: Sprint" in lobby.heading.value
    assert "<b>Green</b>: bot (heuristic)" in lobby.heading.value
    assert [label for label, _ in lobby.seat_menu.options] == ["Blue", "Red", WATCH]
    assert lobby.seat_menu.value == 0


def test_a_name_is_needed_and_checked_before_joining(log):
    lobby = ClassLobby(log)
    lobby.join_button.click()
    assert lobby.messages.last_error.startswith("type your name first")
    lobby.name_box.value = "x" * 41
    lobby.join_button.click()
    assert "1 to 40 characters" in lobby.messages.last_error
    lobby.name_box.value = "lobby"
    lobby.join_button.click()
    assert "the page's own name" in lobby.messages.last_error
    assert lobby.table is None


def test_a_link_with_a_name_and_a_car_joins_at_once_and_others_see_it(log):
    ben = ClassLobby(log, query="name=Ben&seat=Red")
    assert ben.table is not None and ben.table.shared.mine == [1]
    ana = ClassLobby(log, query="")
    assert [label for label, _ in ana.seat_menu.options] == ["Blue", WATCH]
    assert "<b>Red</b>: Ben" in ana.heading.value
    ben.table.stop()


def test_coming_back_under_the_same_name_finds_ones_car(log):
    first = ClassLobby(log, query="name=Ana&seat=Blue")
    first.table.stop()
    again = ClassLobby(log, query="name=Ana")  # no car asked: hers is still hers
    assert again.table.shared.mine == [0]
    again.table.stop()


def test_watching_takes_no_car(log):
    lobby = ClassLobby(log)
    lobby.name_box.value = "Cleo"
    lobby.seat_menu.value = None
    lobby.join_button.click()
    assert lobby.table is not None and lobby.table.shared.mine == []
    assert lobby.widget.children == (lobby.table.widget,)
    lobby.table.stop()


def test_the_page_says_what_is_missing_instead_of_a_traceback(monkeypatch, tmp_path):
    monkeypatch.delenv(GAME_VARIABLE, raising=False)
    assert "fdlab class TRACK.json" in class_page().value
    monkeypatch.setenv(GAME_VARIABLE, str(tmp_path / "gone.log"))
    assert "gone.log" in class_page().value


def test_the_page_is_shipped_with_the_package():
    assert class_notebook().is_file()
    assert "class_page()" in class_notebook().read_text(encoding="utf-8")


def test_fdlab_class_starts_a_race_and_says_what_it_would_serve(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_track(strip(), tmp_path / "sprint.json")
    args = ["class", "sprint.json", "--seats", "person,heuristic", "--seed", "2", "--print-command"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "started the race in sprint-class.log" in out
    assert f"{GAME_VARIABLE}={tmp_path / 'sprint-class.log'}" in out and "-m voila" in out
    table = SharedTable.join(tmp_path / "sprint-class.log", "Referee")
    assert table.controller.seats == ["person", "heuristic"] and table.race.seed == 2
    # the same command again: the race goes on, and options it cannot change are named
    assert main([*args[:2], "--cars", "3", "--print-command"]) == 0
    out = capsys.readouterr().out
    assert "the race in this file goes on" in out and "--cars not used" in out


def test_fdlab_class_refuses_seats_that_do_not_match_the_cars(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_track(strip(), tmp_path / "sprint.json")
    assert main(["class", "sprint.json", "--seats", "person", "--cars", "2"]) == 2
    assert "--seats gives 1 seats for 2 cars" in capsys.readouterr().err
    assert not (tmp_path / "sprint-class.log").exists()


def test_the_server_command_names_the_game_and_listens_where_told(tmp_path):
    server = class_server(tmp_path / "r.log", port=9001, ip="0.0.0.0")
    assert server.environment[GAME_VARIABLE] == str((tmp_path / "r.log").resolve())
    assert "--port=9001" in server.command and "--Voila.ip=0.0.0.0" in server.command
    assert server.addresses("0.0.0.0")[-1] == "http://localhost:9001/"
