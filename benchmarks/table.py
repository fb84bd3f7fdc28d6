"""Time the race table on Monaco: building it, one person's turn, a whole race, a game file.

Usage::

    python benchmarks/table.py [--races 5]

Prints the median wall time of building a ``RaceTable`` (the Bokeh board and
the widgets), of one turn of the person (a gear click, then a click on a
destination, with the two bots' turns and every redraw after it) and of a
whole race through the plain-Python ``TableController`` (person and two bots,
one of them random, to the finish), with the median number of actions per
race, and of saving that finished race as a game file and loading it back
(the load replays every action and checks the end).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fdlab.rules import Race
from fdlab.table import RaceTable, TableController, load_game, save_game
from fdlab.track import load_track

REPO = Path(__file__).resolve().parents[1]
SEATS = ["person", "heuristic", "random"]


def person_turn(table: TableController) -> None:
    if table.start_roll_due:
        table.start_roll()
    else:
        gears = table.gear_choices()
        table.choose_gear(gears[len(gears) // 2].gear)
    if table.phase == "move" and table.person_on_turn:
        table.choose_move(table.move_choices()[0].destination)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=5)
    races = parser.parse_args().races
    monaco = load_track(REPO / "tracks" / "monaco.json")
    names = ["Blue", "Red", "Green"]

    builds, turns = [], []
    for seed in range(races):
        start = time.perf_counter()
        table = RaceTable(Race(monaco, cars=names, seed=seed), SEATS, bot_delay=0)
        builds.append(time.perf_counter() - start)
        for _ in range(3):
            start = time.perf_counter()
            if table.start_button.layout.display != "none":
                table.start_button.click()
            else:
                buttons = table.gear_buttons.children
                buttons[len(buttons) // 2].click()
            if table.controller.person_on_turn and table.race.phase == "move":
                table.click_space(table.target_source.data["id"][0])
            turns.append(time.perf_counter() - start)

    whole, actions, files = [], [], []
    folder = Path(tempfile.mkdtemp())
    for seed in range(races):
        race = Race(monaco, cars=names, seed=seed)
        table = TableController(race, SEATS)
        start = time.perf_counter()
        while not race.over:
            table.run_bots()
            if not race.over:
                person_turn(table)
        whole.append(time.perf_counter() - start)
        actions.append(len(race.actions))
        start = time.perf_counter()
        loaded = load_game(save_game(table, folder / f"game-{seed}.json"))
        files.append(time.perf_counter() - start)
        assert loaded.race.state == race.state

    print(f"Monaco, {len(names)} cars ({', '.join(SEATS)}), {races} races")
    print(f"  build a RaceTable:          median {statistics.median(builds) * 1000:7.0f} ms")
    print(f"  one person's turn (widget): median {statistics.median(turns) * 1000:7.0f} ms")
    print(f"  whole race (controller):    median {statistics.median(whole) * 1000:7.0f} ms")
    print(f"  actions per race:           median {statistics.median(actions):7.0f}")
    print(f"  save + load a finished game: median {statistics.median(files) * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
