"""The advanced rules (A-1..A-9): five wear-point pools. A-10 is in test_pits.py."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import IllegalGearError, IllegalMoveError
from fdlab.rules.presets import ADVANCED
from fdlab.track import from_ascii

#                                0 1 2 3 4 5 6 7 ...
CORNER = compile_board(from_ascii(". . 1 1 . . . . . . . . . . . .", corners={1: 1}, finish=15))
LANE = compile_board(from_ascii(" ".join(["."] * 30), finish=29))
FULL = (4, 3, 2, 2, 2)  # tires, brakes, fuel, body, engine


def pools(tires=4, brakes=3, fuel=2, body=2, engine=2):
    return (tires, brakes, fuel, body, engine)


def go(engine, state, gear, roll, to, dice=()):
    state, _ = engine.step(state, ChooseGear(gear), LoadedDice([roll]))
    return engine.step(state, ChooseMove(to), LoadedDice(dice))


def test_A1_five_pools_for_a_one_lap_race():
    """A-1: tires 4, brakes 3, fuel 2, body 2, engine 2."""
    engine = Engine(LANE, ADVANCED, ["A"])
    assert engine.initial_state().cars[0].pools == FULL


def test_A2_overshoot_costs_tires():
    """A-2: one tire WP per space beyond the exit line."""
    engine = Engine(CORNER, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 3}])
    state, events = go(engine, state, 3, 5, 5)
    assert state.cars[0].pools == pools(tires=2)
    assert any("A-2 overshoot of corner 1 by 2" in str(e) for e in events)


def test_A2_losing_more_tires_than_the_car_has_eliminates():
    """A-2: overshoot 5 with 4 tires: eliminated."""
    engine = Engine(CORNER, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 4}])
    state, _ = go(engine, state, 4, 9, 9)
    assert state.cars[0].status == "eliminated"


def test_A3_tires_at_exactly_zero_spin_and_restart_in_first():
    """A-3: tires reach 0: the car spins and restarts in 1st next turn."""
    engine = Engine(CORNER, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 4}])
    state, events = go(engine, state, 4, 7, 7)
    car = state.cars[0]
    assert car.pools[0] == 0 and car.spun and car.racing
    assert engine.legal_gears(state) == [1]
    with pytest.raises(IllegalGearError, match="A-3"):
        engine.step(state, ChooseGear(4), LoadedDice([]))


@pytest.mark.parametrize(("beyond", "out"), [(1, False), (2, True)])
def test_A4_with_zero_tires_one_space_of_overshoot_spins_two_eliminate(beyond, out):
    """A-4: at 0 tires, overshooting by one space spins again; by two eliminates."""
    engine = Engine(CORNER, ADVANCED, ["A"])
    state = engine.position([{"space": 1, "gear": 2, "pools": pools(tires=0)}])
    state, _ = go(engine, state, 2, 3 + beyond - 1, 3 + beyond)
    car = state.cars[0]
    assert (car.status == "eliminated") is out
    if not out:
        assert car.spun and car.pools[0] == 0


def test_A5_braking_costs_brakes_and_needs_them():
    """A-5: one brake WP per space not moved; not more spaces than brakes left."""
    engine = Engine(LANE, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 3, "pools": pools(brakes=2)}])
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([6]))
    assert {o.moved for o, _ in engine.legal_moves(state)} == {6, 5, 4}
    with pytest.raises(IllegalMoveError, match="A-5: braking 3 spaces needs 3 brake WP"):
        engine.step(state, ChooseMove(3), LoadedDice([]))
    state, _ = engine.step(state, ChooseMove(4), LoadedDice([]))
    assert state.cars[0].pools == pools(brakes=0)


def test_A5_in_a_corner_brake_instead_of_overshooting():
    """A-5: braking keeps the car in the corner: brakes pay, tires do not."""
    engine = Engine(CORNER, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 3}])
    state, _ = go(engine, state, 3, 5, 3)
    assert state.cars[0].pools == pools(brakes=1) and state.cars[0].stops == 1


@pytest.mark.parametrize(
    ("gear", "roll", "expected"),
    [(2, 3, pools(brakes=2)), (3, 6, pools(tires=3, brakes=0)), (4, 8, pools(tires=1, brakes=0))],
)
def test_A6_blocked_table(gear, roll, expected):
    """A-6: blocked 1: brakes 1 ... 4: brakes 3 + tires 1 ... 6: brakes 3 + tires 3."""
    engine = Engine(LANE, ADVANCED, ["A", "B"])
    state = engine.position([{"space": 0, "gear": gear}, {"space": 3}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(gear), LoadedDice([roll]))
    # A stops right behind B: B rolls first, then A, no 1s here
    state, events = engine.step(state, ChooseMove(2), LoadedDice([20, 20]))
    assert state.cars[0].pools == expected


def test_A6_seven_or_more_short_eliminates_and_the_car_ahead_loses_body():
    """A-6: blocked 7 spaces or more: eliminated; the car it runs into loses 1 body WP."""
    engine = Engine(LANE, ADVANCED, ["A", "B"])
    state = engine.position([{"space": 0, "gear": 4}, {"space": 3}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(4), LoadedDice([9]))
    state, events = engine.step(state, ChooseMove(2), LoadedDice([]))
    assert state.cars[0].status == "eliminated"
    assert state.cars[1].pools == pools(body=1)


def test_A6_a_blocked_car_moves_as_far_as_it_can_stopping_shorter_is_braking():
    """A-6: a blocked car first moves as far as it can, then pays the table for the rest;
    stopping shorter than it could is ordinary braking (A-5), one brake WP a space."""
    engine = Engine(LANE, ADVANCED, ["A", "B"])
    start = engine.position([{"space": 0, "gear": 3}, {"space": 5}], order=(0, 1))
    # Roll 7 with B on 5: A can reach 4, 3 short (A-6: brakes 3). Stopping on 3 would be
    # braking 4 spaces with 3 brake WP (A-5: not allowed), not "blocked 4 short".
    state, _ = engine.step(start, ChooseGear(3), LoadedDice([7]))
    legal = engine.legal_moves(state)
    assert [(o.moved, o.blocked) for o, _ in legal] == [(4, True)]
    assert legal[0][1].reasons == ("A-6 blocked 3 spaces short: -3 brakes",)
    # Roll 6: blocked 2 short on 4; stopping on 3 brakes 3 spaces, and B is not run into.
    state, _ = engine.step(start, ChooseGear(3), LoadedDice([6]))
    shorter = {o.moved: (o, cost) for o, cost in engine.legal_moves(state)}[3]
    assert not shorter[0].blocked and shorter[1].reasons == ("A-5 braking 3 spaces: -3 brakes",)
    state, events = engine.step(state, ChooseMove(3), LoadedDice([]))
    assert state.cars[0].pools == pools(brakes=0)
    assert state.cars[1].pools == FULL  # only a car that is blocked runs into the car ahead


def test_A7_downshift_costs_and_needs_wear_points():
    """A-7: two gears fuel 1; three fuel 1 + brakes 1; four fuel, brakes and engine 1."""
    for start, gear, expected in [
        (5, 3, pools(fuel=1)),
        (5, 2, pools(fuel=1, brakes=2)),
        (6, 2, pools(fuel=1, brakes=2, engine=1)),
    ]:
        engine = Engine(LANE, ADVANCED, ["A"])
        state = engine.position([{"space": 0, "gear": start}])
        face = ADVANCED.gear_dice[gear - 1].faces[0]
        state, _ = engine.step(state, ChooseGear(gear), LoadedDice([face]))
        assert state.cars[0].pools == expected
    engine = Engine(LANE, ADVANCED, ["A"])
    state = engine.position([{"space": 0, "gear": 5, "pools": pools(fuel=0)}])
    assert engine.legal_gears(state) == [4, 5, 6]
    with pytest.raises(IllegalGearError, match="A-7: dropping from 5th to 3rd costs 1 fuel WP"):
        engine.step(state, ChooseGear(3), LoadedDice([]))


def test_A8_contact_rolls_and_body_zero_eliminates_with_the_chain():
    """A-8: body 0 eliminates; cars touching a car eliminated by contact lose 1 body."""
    board = compile_board(from_ascii("\n".join([" ".join(["."] * 10)] * 2), finish=9))
    engine = Engine(board, ADVANCED, ["A", "B", "C"])
    # A (lane 0, column 0) moves to column 3, behind B (column 4) and beside C (lane 1, column 3)
    state = engine.position(
        [{"space": 0, "gear": 2}, {"space": 8, "pools": pools(body=1)}, {"space": 7}],
        order=(0, 1, 2),
    )
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    dice = LoadedDice([1, 20, 20, 20])  # B rolls 1: body 0, out; C, then A twice
    state, events = engine.step(state, ChooseMove(6), dice)
    assert state.cars[1].status == "eliminated"
    # the chain: A was touching B (right behind it) and loses 1 body; C, diagonal to B, does not
    assert state.cars[0].pools == pools(body=1) and state.cars[2].pools == FULL
    assert dice.remaining == 0
    assert [str(e) for e in events if e.kind == "check" and "rolls" in str(e)][
        0
    ] == "B rolls 1 (A-8 contact)"


def test_A9_engine_check_costs_engine_wear_and_zero_eliminates():
    """A-9: a 20 in 5th: 1-4 costs 1 engine WP; engine 0 eliminates."""
    engine = Engine(LANE, ADVANCED, ["A", "B"])
    state = engine.position(
        [{"space": 0, "gear": 5, "pools": pools(engine=1)}, {"space": 25, "gear": 6}],
        order=(0, 1),
    )
    state, _ = engine.step(state, ChooseGear(5), LoadedDice([20]))
    state, events = engine.step(state, ChooseMove(20), LoadedDice([3, 4]))
    assert state.cars[0].status == "eliminated"
    assert state.cars[1].pools == pools(engine=1)
