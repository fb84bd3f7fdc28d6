"""The race table on one screen, Load that asks first, the replay page's link (issue 27).

Plain Python: how the table is laid out (the browser test measures it at
1366x768), what Load and New race do with moves not saved, and the link the
message line gives to the replay page.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import ipywidgets as w
import pytest

from fdlab._shell import SCREEN_HEIGHT
from fdlab.rules import LoadedDice, Race
from fdlab.table import RaceTable
from fdlab.table import widget as table_widget
from fdlab.table.widget import file_link


def sections(table: RaceTable) -> dict[str, w.Widget]:
    """The panel's parts by their CSS class."""
    _board, panel = table.widget.children
    return {css: child for child in panel.children for css in child._dom_classes}


def test_the_board_is_left_and_the_turn_tops_the_panel_beside_it(ring):
    race = Race.from_position(ring, {"Blue": {"space": 0, "gear": 4, "started": True}})
    table = RaceTable(race, ["person"])
    board, panel = table.widget.children
    assert "fdlab-race-table" in table.widget._dom_classes
    assert board.children == (table.plot, table.legend)
    parts = sections(table)
    turn = parts["fdlab-turn"]
    assert [c for c in panel.children if c.layout.display != "none"][0] is turn
    shown = {id(widget) for widget in _walk(turn)}
    for control in (table.prompt, table.help_line, table.message, table.gear_buttons,
                    table.die_face, table.move_list, table.move_button, table.nitro_button,
                    table.box_button, table.undo_button, table.redo_button):  # fmt: skip
        assert id(control) in shown, control
    assert table.gear_buttons.children  # the gears are right there
    # seats, the game file, the log and the bots' help fold away
    folded = {"fdlab-seats-section", "fdlab-file-section", "fdlab-bots-section"}
    for css in folded:
        header, body = parts[css].children
        assert not header.value and body.layout.display == "none", css
    for css, inside in [
        ("fdlab-seats-section", [*table.seat_boxes, table.bot_delay, table.follow]),
        ("fdlab-file-section", [table.path, table.save_button, table.load_button,
                                table.discard, table.export_button, table.new_race_button]),
        ("fdlab-log-section", [table.log]),
        ("fdlab-cars-section", [table.dashboard]),
        ("fdlab-bots-section", [table.bots_help]),
    ]:  # fmt: skip
        found = {id(widget) for widget in _walk(parts[css])}
        assert all(id(control) in found for control in inside), css


def _walk(widget: w.Widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def test_the_board_is_sized_to_the_screen_and_the_wheel_scrolls_the_page(ring):
    table = RaceTable(Race(ring, cars=2, seed=1), ["person", "heuristic"])
    assert table.figure.toolbar.active_scroll is None
    assert table.figure.sizing_mode == "stretch_both"
    assert table.plot.layout.width == "100%"
    # the shell's one-screen height, as the editor's: the board column at most that tall,
    # the board giving up what the legend under it needs, the panel no taller
    column, panel = table.widget.children
    assert column.layout.max_height == panel.layout.max_height == SCREEN_HEIGHT
    assert column.layout.height is None  # a small board takes no more than it needs
    assert table.plot.layout.height == f"{table.figure.height}px"
    assert table.plot.layout.flex == "0 1 auto" and table.plot.layout.min_height == "300px"
    # the browser fits the view box to the canvas it gets, keeping the board's proportions
    assert set(table._view_source.data) == {"x0", "y0", "x1", "y1"}
    assert table.figure.js_property_callbacks.keys() >= {"change:inner_width",
                                                         "change:inner_height"}  # fmt: skip


def test_long_labels_wrap_in_the_panel_instead_of_being_cut(ring):
    race = Race.from_position(
        ring, {"Blue": {"space": 0, "gear": 2, "started": True}}, dice=LoadedDice([3])
    )
    table = RaceTable(race, ["person"])
    css = sections(table)["fdlab-table-style"].value
    assert "button.fdlab-gear" in css and "white-space: normal" in css
    assert ".fdlab-move-list .widget-radio-box label" in css
    for button in table.gear_buttons.children:
        assert button.layout.width == "100%"  # one a line, the whole panel wide
    next(b for b in table.gear_buttons.children if "fdlab-gear-2" in b._dom_classes).click()
    # radio buttons, whose labels wrap, not a <select> whose lines are cut
    assert isinstance(table.move_list, w.RadioButtons) and table.move_list.options
    assert table.dashboard.layout.overflow == "auto hidden"  # the Cars table scrolls, never spills


def test_load_refuses_to_replace_unsaved_play_and_says_how_to_go_on(ring, tmp_path):
    path = tmp_path / "game.json"
    table = RaceTable(Race(ring, cars=2, seed=6), ["person", "heuristic"], path=str(path))
    table.save()
    assert table.unsaved_decisions == 0
    table.load_file()  # nothing to lose: loads
    assert table.last_error is None and table.messages.last_message == f"loaded {path}"
    before = len(table.race.actions)
    table.start_button.click()
    if table.race.phase == "move":
        table.move_button.click()
    assert table.unsaved_decisions >= 1
    played = list(table.race.actions)
    count = table.unsaved_decisions
    table.load_button.click()
    assert table.race.actions == played  # nothing replaced
    assert table.last_error == (
        f"load {path}: this race has {count} decision{'s' if count > 1 else ''} not saved, "
        "which it would replace; press Save first, or tick 'discard unsaved' (Game file) and "
        "press Load again"
    )
    assert table._file_section.children[0].value  # the section with the box opens
    table.discard.value = True
    table.load_button.click()
    assert table.last_error is None and len(table.race.actions) == before
    assert not table.discard.value  # one tick, one replacement


def test_moves_undone_back_to_the_save_are_nothing_to_lose(ring, tmp_path):
    table = RaceTable(Race(ring, cars=2, seed=6), ["person", "heuristic"],
                      path=str(tmp_path / "game.json"))  # fmt: skip
    table.save()
    table.start_button.click()
    table.undo()
    assert table.unsaved_decisions == 0
    table.load_file()
    assert table.last_error is None


def test_a_loaded_game_counts_as_saved(ring, tmp_path):
    path = tmp_path / "game.json"
    first = RaceTable(Race(ring, cars=2, seed=6), ["person", "heuristic"])
    first.start_button.click()
    first.save(str(path))
    table = RaceTable.load(path)
    assert table.unsaved_decisions == 0


def test_new_race_asks_the_same_then_starts_over_with_the_same_seats(ring):
    table = RaceTable(Race(ring, cars=3, seed=6), ["person", "heuristic", "random"])
    table.start_button.click()
    table.new_race_button.click()
    assert table.last_error.startswith("new race: this race has 1 decision not saved")
    assert table.last_error.endswith("and press New race again")
    table.discard.value = True
    table.new_race(seed=9)
    assert table.race.seed == 9 and table.race.phase == "grid" and not table.race.actions
    assert [table.controller.seat_label(k) for k in range(3)] == ["person", "heuristic", "random"]
    assert table.help_text.startswith("**Roll for the grid:**")
    assert table.messages.last_message == "a new race on Ring (seed 9)"


# -- the replay page's link -------------------------------------------------------------
def test_export_replay_gives_a_link_that_opens_a_new_tab(ring, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(table_widget, "_jupyter_server", lambda folder: None)
    table = RaceTable(Race(ring, cars=2, seed=6), ["heuristic", "random"], path="games/g.json")
    (tmp_path / "games").mkdir()
    table.export_replay()
    assert (tmp_path / "games" / "g.html").is_file()
    link = '<a href="games/g.html" target="_blank" rel="noopener">games/g.html</a>'
    assert table.messages.last_message == f"replay page written: {link}"
    assert link in table.message.value  # markup, not escaped
    assert link in table.file_note.value  # and in the Game file section


def test_in_jupyter_the_link_goes_through_the_servers_files_route(tmp_path, monkeypatch):
    """The runtime file of the server that started the kernel gives its root and base URL."""
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    root = tmp_path / "lab"
    (root / "my notebooks").mkdir(parents=True)
    info = {"root_dir": str(root), "base_url": "/user/ada/", "pid": os.getppid()}
    (runtime / f"jpserver-{os.getppid()}.json").write_text(json.dumps(info))
    other = {"root_dir": str(tmp_path / "elsewhere"), "base_url": "/", "pid": 1}
    (runtime / "jpserver-1.json").write_text(json.dumps(other))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    folder = root / "my notebooks"
    assert file_link("replay.html", folder) == (
        '<a href="/user/ada/files/my%20notebooks/replay.html" target="_blank" '
        'rel="noopener">replay.html</a>'
    )


def test_a_page_outside_the_notebook_folder_gets_its_path_and_why_no_link(tmp_path):
    inside = tmp_path / "notebooks"
    inside.mkdir()
    text = file_link(tmp_path / "replay.html", inside)
    assert "<a " not in text and str(tmp_path / "replay.html") in text
    assert "outside the notebook's folder" in text


@pytest.mark.parametrize("name", ["a&b.html", "<script>.html"])
def test_the_link_escapes_odd_file_names(tmp_path, monkeypatch, name):
    monkeypatch.setattr(table_widget, "_jupyter_server", lambda folder: None)
    text = file_link(Path(name), tmp_path)
    assert "<script>" not in text and 'target="_blank"' in text


@pytest.mark.parametrize("name", ["training", "monaco"])
def test_every_corner_flag_fits_the_board_on_a_laptop_screen(name):
    """A flag stands pixels off its corner: the board's view takes in every flag, its
    long and short labels too, when the board is shown 520 pixels across (1366x768)."""
    from fdlab.track import load_track

    tracks = Path(__file__).resolve().parents[2] / "tracks"
    table = RaceTable(Race(load_track(tracks / f"{name}.json"), cars=2, seed=1),
                      ["person", "heuristic"])  # fmt: skip
    x0, y0, x1, y1 = table._bounds
    flags = table.figure.select_one({"name": "flags"}).data_source.data
    assert flags["px"]
    scale = 520 / max(x1 - x0, y1 - y0)  # pixels per metre
    for px, py, fx, fy in zip(flags["px"], flags["py"], flags["fx"], flags["fy"], strict=True):
        centre_x, centre_y = px + fx / scale, py - fy / scale
        assert x0 + 20 / scale <= centre_x <= x1 - 20 / scale
        assert y0 + 25 / scale <= centre_y <= y1 - 12 / scale
