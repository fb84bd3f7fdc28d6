"""Time the race table on Monaco: building it, one person's turn, a whole race headless.

Usage::

    python benchmarks/table.py [--races 5]

Prints the median wall time of building a ``RaceTable`` (the Bokeh board and
the widgets), of one turn of the person (a gear click, then a click on a
destination, with the two bots' turns and every redraw after it) and of a
whole race through the plain-Python ``TableController`` (person and two bots,
to the finish), with the median number of actions per race.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fdlab.rules import Race
from fdlab.table import RaceTable, TableController
from fdlab.track import load_track

REPO = Path(__file__).resolve().parents[1]
SEATS = ["person", "heuristic", "lookahead"]


def person_turn(table: TableController) -> None:
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
            buttons = table.gear_buttons.children
            buttons[len(buttons) // 2].click()
            if table.controller.person_on_turn and table.race.phase == "move":
                table.click_space(table.target_source.data["id"][0])
            turns.append(time.perf_counter() - start)

    whole, actions = [], []
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

    print(f"Monaco, {len(names)} cars (person, heuristic, lookahead), {races} races")
    print(f"  build a RaceTable:          median {statistics.median(builds) * 1000:7.0f} ms")
    print(f"  one person's turn (widget): median {statistics.median(turns) * 1000:7.0f} ms")
    print(f"  whole race (controller):    median {statistics.median(whole) * 1000:7.0f} ms")
    print(f"  actions per race:           median {statistics.median(actions):7.0f}")


if __name__ == "__main__":
    main()
