"""Laps and pit stops (P-1..P-7)."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import IllegalGearError
from fdlab.rules.presets import ADVANCED, BASIC
from fdlab.rules.race import Race
from fdlab.track import from_ascii

# ids are column * 4 + row. Pit entry 37 -> 42; boxes 47 (car 1) and 51 (car 2);
# the finish line is crossed into column 13 (pit space 54); pit exit 58 -> 61.
TRACK = from_ascii(
    """
    . . . . 1 1 . . . . . . . . . .
    . . . . 1 1 . . . . . . . . . .
    x x x x x x x x x x p p p p p x
    x x x x x x x x x x x B B x x x
    """,
    corners={1: 1},
    closed=True,
    finish=13,
    grid=[48, 49, 44, 45],
)
BOARD = compile_board(TRACK)
TWO_LAPS = BASIC.with_laps(2)


def ids(indices):
    return {BOARD.ids[i] for i in indices}


def rolled(engine, state, gear, roll, dice=()):
    return engine.step(state, ChooseGear(gear), LoadedDice([roll, *dice]))[0]


def test_P1_a_two_lap_race_needs_two_laps():
    """P-1: laps=2: the first crossing after the start begins lap 2, the next one finishes."""
    engine = Engine(BOARD, TWO_LAPS, ["A"])
    state = engine.position([{"space": 52, "gear": 2, "lap": 1}])  # just past the line
    assert engine.pit_allowed(0, state.cars[0])
    state = engine.position([{"space": 49, "gear": 2, "lap": 1}])
    state = rolled(engine, state, 2, 2)
    state, events = engine.step(state, ChooseMove(57), LoadedDice([]))
    assert state.cars[0].lap == 2 and state.cars[0].racing
    assert "A starts lap 2 of 2" in [str(e) for e in events]
    state = engine.position([{"space": 49, "gear": 2, "lap": 2}])
    state = rolled(engine, state, 2, 2)
    state, _ = engine.step(state, ChooseMove(57), LoadedDice([]))
    assert state.finished == (0,)
    assert Race(TRACK, cars=2, laps=2, seed=1).preset.pits


def test_P2_own_box_ends_the_move_without_braking_and_restores_sp():
    """P-2: between laps, at any speed; the own box ends the move and restores 18 SP."""
    engine = Engine(BOARD, TWO_LAPS, ["A"])
    state = engine.position([{"space": 37, "gear": 4, "lap": 1, "pools": (7,)}])
    state = rolled(engine, state, 4, 9)
    boxed = [o for o, cost in engine.legal_moves(state) if o.boxed]
    assert [BOARD.ids[o.destination] for o in boxed] == [47] and boxed[0].braked == 0
    state, events = engine.step(state, ChooseMove(47), LoadedDice([]))
    assert state.cars[0].pools == (18,) and BOARD.ids[state.cars[0].space] == 47
    assert "A stops in its box: SP restored (P-2)" in [str(e) for e in events]


def test_P2_only_the_own_box():
    """P-2: car 2 stops in box 2, not in box 1."""
    engine = Engine(BOARD, TWO_LAPS, ["A", "B"])
    state = engine.position(
        [{"space": 4, "lap": 1}, {"space": 37, "gear": 4, "lap": 1}], order=(1, 0)
    )
    state = rolled(engine, state, 4, 9)
    assert ids(o.destination for o, _ in engine.legal_moves(state) if o.boxed) == {51}


def test_P3_leave_the_box_in_any_gear_up_to_fourth():
    """P-3: from the box, 1st-4th whatever the gear before, and no downshift cost."""
    engine = Engine(BOARD, TWO_LAPS, ["A"])
    state = engine.position([{"space": 47, "gear": 6, "lap": 1}])
    assert engine.legal_gears(state) == [1, 2, 3, 4]
    with pytest.raises(IllegalGearError, match="P-3"):
        engine.step(state, ChooseGear(5), LoadedDice([]))
    state = rolled(engine, state, 1, 2)
    assert state.cars[0].pools == (18,)


def test_P4_no_downshift_braking_or_collision_costs_in_the_pit_zone():
    """P-4: in the pit lane downshifting, braking and collisions cost nothing."""
    engine = Engine(BOARD, TWO_LAPS, ["A", "B"])
    state = engine.position(
        [{"space": 42, "gear": 4, "lap": 1}, {"space": 50, "lap": 1}], order=(0, 1)
    )
    state = rolled(engine, state, 1, 2)  # 4th to 1st in the pit lane: free
    assert state.cars[0].pools == (18,)
    state, events = engine.step(state, ChooseMove(46), LoadedDice([]))  # brake 1, behind B
    assert state.cars[0].pools == (18,)
    assert not any(e.kind in ("check", "damage") for e in events)


def test_P4_no_engine_check_in_the_pit_zone():
    """P-4: a car in 5th in the pit lane does not take the engine check (D-6)."""
    engine = Engine(BOARD, TWO_LAPS, ["A", "B"])
    state = engine.position(
        [{"space": 5, "gear": 5, "lap": 1}, {"space": 46, "gear": 5, "lap": 1}], order=(0, 1)
    )
    state = rolled(engine, state, 5, 20)
    target = BOARD.ids[[o for o, _ in engine.legal_moves(state) if o.moved == 20][0].destination]
    dice = LoadedDice([10])  # only A rolls
    state, events = engine.step(state, ChooseMove(target), dice)
    assert dice.remaining == 0


def test_P5_pit_lane_no_passing_wait_without_cost():
    """P-5: a car behind in the pit lane waits for the one ahead, with no SP cost."""
    engine = Engine(BOARD, TWO_LAPS, ["Ahead", "Behind"])
    # Behind is car 2: its box (51) hangs off space 46, where Ahead waits
    state = engine.position(
        [{"space": 46, "lap": 1}, {"space": 42, "gear": 3, "lap": 1}], order=(1, 0)
    )
    state = rolled(engine, state, 3, 6)
    moves = engine.legal_moves(state)
    assert all(o.blocked for o, _ in moves)
    assert ids(o.destination for o, _ in moves) == {42}
    assert all(cost.total == 0 for _, cost in moves)
    state, events = engine.step(state, ChooseMove(42), LoadedDice([]))
    assert state.cars[1].pools == (18,) and not any(e.kind == "damage" for e in events)


def test_P6_track_cars_between_pit_entry_and_exit_play_before_cars_in_the_pits():
    """P-6: a car on the finish straight plays before a car in the pit lane beside it."""
    engine = Engine(BOARD, TWO_LAPS, ["Pit", "Track", "Behind"])
    state = engine.position(
        [{"space": 50, "lap": 1}, {"space": 41, "lap": 1}, {"space": 29, "lap": 1}]
    )
    # Pit (progress 15) is further along than Track (13), yet Track plays first;
    # the car behind the pit entry (progress 7) plays after the car in the pits.
    assert state.order == (1, 0, 2)


def test_P7_no_pit_entry_from_the_grid_nor_on_the_last_lap():
    """P-7: the pit lane is closed on lap 0 (the grid) and on the last lap."""
    engine = Engine(BOARD, TWO_LAPS, ["A"])
    for lap, open_ in [(0, False), (1, True), (2, False)]:
        state = engine.position([{"space": 37, "gear": 4, "lap": lap}])
        state = rolled(engine, state, 4, 9)
        pits = {o.destination for o, _ in engine.legal_moves(state)} & {
            BOARD.index[s] for s in (42, 46, 47, 50, 54, 58)
        }
        assert bool(pits) is open_, lap
    one_lap = Engine(BOARD, BASIC, ["A"])
    state = one_lap.position([{"space": 37, "gear": 4, "lap": 1}])
    assert not one_lap.pit_allowed(0, state.cars[0])


def test_A10_advanced_pit_restores_tires_and_brakes():
    """A-10: a pit stop in the advanced rules restores tires and brakes only."""
    preset = ADVANCED.with_laps(2)
    engine = Engine(BOARD, preset, ["A"])
    state = engine.position([{"space": 37, "gear": 4, "lap": 1, "pools": (1, 0, 1, 1, 1)}])
    state = rolled(engine, state, 4, 9)
    state, _ = engine.step(state, ChooseMove(47), LoadedDice([]))
    assert state.cars[0].pools == (6, 5, 1, 1, 1)
