"""The race table shows the collision check a move brings (D-5, A-8), as the engine rolls it.

A move's certain cost leaves random damage out; a player deciding where to
stop still needs to see that ending beside another car brings a collision
check, what it may cost and whether it may eliminate the car.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from fdlab.rules import Race
from fdlab.rules.dice import LoadedDice
from fdlab.rules.odds import contact_risk
from fdlab.table.controller import TableController
from fdlab.table.widget import _move_colors
from fdlab.track import from_ascii
from fdlab.track.io import load_track

TRACKS = Path(__file__).resolve().parents[2] / "tracks"


def _behind_red(pools: tuple[int, ...] = (1,)) -> TableController:
    """Blue on space 1 with ``pools`` left has rolled 2: space 3 is right behind Red on 4."""
    cars = {"Blue": {"space": 1, "gear": 1, "pools": pools}, "Red": {"space": 4, "gear": 1}}
    track = from_ascii(". . . . . . . . .", finish=8)
    race = Race.from_position(track, cars, order=["Blue", "Red"], dice=LoadedDice([2]))
    table = TableController(race, ["person", "person"])
    table.choose_gear(1)
    return table


def test_d5_a_free_move_beside_a_car_says_it_brings_a_collision_check():
    """D-5: the move list, the hover text and the board's dots all say it."""
    (free, *others) = _behind_red().move_choices()
    assert free.destination == 3 and free.move.cost.total == 0
    assert free.label == "to 3 (2 spaces): no damage · touches Red: 20% to lose 1 SP, " + (
        "20% to be eliminated"
    )
    assert free.cost == "no damage; touches Red: 20% to lose 1 SP, 20% to be eliminated"
    assert _move_colors(free.move, risky=free.risky)[1] == "."
    assert all(not other.risky for other in others)  # those eliminate the car outright


def test_d5_a_healthy_car_risks_a_point_but_not_the_race():
    (free, *_) = _behind_red(pools=(18,)).move_choices()
    assert free.contact is not None and free.contact.out == 0
    assert free.contact.lose == Fraction(1, 5)
    assert free.label.endswith("touches Red: 20% to lose 1 SP")


def test_d5_the_mover_rolls_once_for_every_car_it_touches():
    """Two cars touched: two rolls, 1 - 0.8**2 = 36% to lose 1 SP or more."""
    cars = {
        "Blue": {"space": 0, "gear": 1, "pools": (2,)},
        "Red": {"space": 5, "gear": 1},
        "Green": {"space": 6, "gear": 1},
    }
    track = from_ascii(". . . . . . . . . .\n. . . . . . . . . .", finish=9)
    race = Race.from_position(
        track, cars, order=["Blue", "Red", "Green"], dice=LoadedDice([2]), seed=1
    )
    engine, state = race.engine, race.state
    race.play(1)
    state = race.state
    risks = [
        contact_risk(engine, state, move.option, move.cost)
        for move in race.legal_moves()
        if len(engine.touched_at(state, 0, move.option.destination)) == 2
    ]
    assert risks, "a move that ends touching both Red and Green"
    (risk, *_) = [r for r in risks if r is not None]
    assert risk.lose == 1 - Fraction(4, 5) ** 2
    assert risk.out == Fraction(1, 25)  # both rolls fail: 2 SP, the car's last
    assert "touches Red and Green: 36% to lose 1 SP or more, 4% to be eliminated" in str(risk)


@pytest.mark.parametrize("board", ["training", "monaco"])
def test_the_table_names_every_collision_check_the_engine_then_rolls(board):
    """Random moves of six cars: a collision check follows a move exactly when the table
    said so, touching the cars it named (and none in the pit zone, on a tunnel space, or
    for a move that finishes or eliminates the car)."""
    chooser = random.Random(7)
    race = Race(load_track(TRACKS / f"{board}.json"), cars=6, seed=11)
    table = TableController(race, ["person"] * 6)
    if table.phase == "grid":
        table.roll_grid()
    checked = 0
    for _ in range(260):
        if race.over:
            break
        if table.phase == "gear":
            if table.start_roll_due:
                table.start_roll()
            else:
                table.choose_gear(chooser.choice(race.legal_gears()))
            continue
        choices = table.move_choices()
        choice = chooser.choice(choices)
        before = len(race.events)
        table.choose_move(choice.destination)
        checks = [
            e.text
            for e in race.events[before:]
            if e.kind == "check" and "collision check" in e.text
        ]
        if choice.contact is None:
            assert not checks, (choice.label, checks)
        else:
            checked += 1
            assert len(checks) == 1, (choice.label, race.events[before:])
            assert all(name in checks[0] for name in choice.contact.names)
    assert checked >= 3  # the race put cars side by side often enough to test it
