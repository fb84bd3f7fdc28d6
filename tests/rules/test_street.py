"""Street racing (X-1..X-6) on the basic rules."""

import pytest

from fdlab.rules.actions import ChooseGear, ChooseMove, UseNitro
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import IllegalNitroError
from fdlab.rules.presets import BASIC, STREET
from fdlab.track import from_ascii

LANE = compile_board(from_ascii(" ".join(["."] * 30), finish=29))


def test_X1_nitro_after_the_roll_adds_the_gear_once_per_lap():
    """X-1: after the roll, +gear spaces, all or nothing; once per lap; braking on the total."""
    engine = Engine(LANE, STREET, ["A"])
    state = engine.position([{"space": 0, "gear": 3, "lap": 1}])
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    assert engine.nitro_available(state)
    state, events = engine.step(state, UseNitro(), LoadedDice([]))
    assert state.roll == 8 and "nitro" in str(events[0])
    with pytest.raises(IllegalNitroError, match="X-1: nitro is already used this turn"):
        engine.step(state, UseNitro(), LoadedDice([]))
    state, _ = engine.step(state, ChooseMove(6), LoadedDice([]))  # brake 2 of the 8
    assert state.cars[0].pools == (16,)
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([4]))
    with pytest.raises(IllegalNitroError, match="once per lap"):
        engine.step(state, UseNitro(), LoadedDice([]))


def test_X1_no_nitro_in_the_basic_rules():
    engine = Engine(LANE, BASIC, ["A"])
    state = engine.position([{"space": 0, "gear": 3}])
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    with pytest.raises(IllegalNitroError, match="street-racing rule"):
        engine.step(state, UseNitro(), LoadedDice([]))


@pytest.mark.parametrize(("black", "loss"), [(11, 2), (20, 2), (10, 0)])
def test_X2_shooting_space(black, loss):
    """X-2: ending on a shooting space: black 11 or more costs 2 SP."""
    board = compile_board(from_ascii(". . . S . . .", finish=6))
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 0, "gear": 2}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(3), LoadedDice([black]))
    assert state.cars[0].pools == (18 - loss,)


@pytest.mark.parametrize(("black", "loss"), [(4, 1), (1, 1), (5, 0)])
def test_X3_danger_space_passed_over(black, loss):
    """X-3: moving over a danger space: black 1-4 costs 1 SP."""
    board = compile_board(from_ascii(". . D . . . .", finish=6))
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 0, "gear": 2}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    state, events = engine.step(state, ChooseMove(4), LoadedDice([black]))
    assert state.cars[0].pools == (18 - loss,)


def test_X3_cars_may_steer_around_danger_spaces():
    """X-3 / M-4: returning to the lane after going around a danger space is allowed."""
    board = compile_board(
        from_ascii(
            """
            . . D . . .
            . . . . . .
            """,
            finish=5,
        )
    )
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 0, "gear": 2}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    around = [o for o, _ in engine.legal_moves(state) if board.ids[o.destination] == 8]
    assert any(not o.danger for o in around)
    basic = Engine(board, BASIC, ["A"])
    state = basic.position([{"space": 0, "gear": 2}])
    state, _ = basic.step(state, ChooseGear(2), LoadedDice([4]))
    assert all(o.danger for o, _ in basic.legal_moves(state) if board.ids[o.destination] == 8)


def test_X4_fastest_past_the_police_gains_2_sp_tie_to_the_first():
    """X-4: speeds are die x 10; when all have crossed, the fastest (first on a tie) gains 2 SP."""
    board = compile_board(from_ascii("\n".join([" ".join(["."] * 16)] * 3), finish=15, police=10))
    engine = Engine(board, STREET, ["A", "B", "C"])
    state = engine.position(
        [
            {"space": 18, "gear": 3, "pools": (10,)},
            {"space": 16, "gear": 3, "pools": (10,)},
            {"space": 14, "gear": 3, "pools": (10,)},
        ],
        order=(0, 1, 2),
    )
    for roll, target in [(5, 33), (7, 37), (7, 35)]:
        state, _ = engine.step(state, ChooseGear(3), LoadedDice([roll]))
        state, events = engine.step(state, ChooseMove(target), LoadedDice([]))
        assert any("police line" in str(e) for e in events)
    assert [car.police[0][0] for car in state.cars] == [50, 70, 70]
    assert [car.pools[0] for car in state.cars] == [10, 12, 10]
    assert "B gains 2 SP (X-4 fastest past the police (lap 1))" in [str(e) for e in events]
    assert state.police_awarded == 1


def test_X4_the_bonus_is_due_when_the_last_car_the_police_wait_for_is_eliminated():
    """X-4: A has crossed; B, the only car that has not, brakes away its last SP and is
    eliminated. Every car still racing (A) has crossed, so A gains 2 SP at once, and
    braking 2 next turn no longer eliminates it."""
    board = compile_board(from_ascii("\n".join([" ".join(["."] * 16)] * 3), finish=15, police=10))
    engine = Engine(board, STREET, ["A", "B"])
    state = engine.position(
        [{"space": 18, "gear": 3, "pools": (2,)}, {"space": 16, "gear": 3, "pools": (1,)}],
        order=(0, 1),
    )
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    state, _ = engine.step(state, ChooseMove(33), LoadedDice([]))
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    state, events = engine.step(state, ChooseMove(28), LoadedDice([]))  # brakes 1 of its 1 SP
    assert not state.cars[1].racing
    assert "A gains 2 SP (X-4 fastest past the police (lap 1))" in [str(e) for e in events]
    assert state.cars[0].pools == (4,) and state.police_awarded == 1
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([5]))
    braking_two = [cost for option, cost in engine.legal_moves(state) if option.braked == 2]
    assert braking_two and not any(cost.eliminated for cost in braking_two)


def test_X5_no_collision_or_hazard_roll_on_tunnel_spaces():
    """X-5 / M-6: the tunnel pair counts as one space; no die is rolled there."""
    board = compile_board(
        from_ascii(
            """
            . . . D . . . . .
            . . . . . . . . .
            """,
            finish=8,
            tunnels={"1": (6, 12)},
        )
    )
    engine = Engine(board, STREET, ["A", "B"])
    state = engine.position([{"space": 2, "gear": 2}, {"space": 13}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    dice = LoadedDice([])
    state, events = engine.step(state, ChooseMove(12), dice)
    assert board.ids[state.cars[0].space] == 12  # beside B, but on a tunnel portal
    assert not any(e.kind == "check" for e in events)


@pytest.mark.parametrize(("before", "after"), [(5, 15), (12, 18)])
def test_X6_checkpoint_gives_10_sp_at_the_end_of_lap_1(before, after):
    """X-6: two-lap street race: crossing the line at the end of lap 1 gives 10 SP (max 18)."""
    board = compile_board(from_ascii(" ".join(["."] * 12), closed=True, finish=0))
    engine = Engine(board, STREET.with_laps(2), ["A", "B"])
    state = engine.position(
        [
            {"space": 10, "gear": 2, "lap": 1, "pools": (before,)},
            {"space": 4, "lap": 1, "pools": (12,)},
        ],
        order=(0, 1),
    )
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(1), LoadedDice([]))
    assert state.cars[0].pools == (after,) and state.cars[0].lap == 2
    state, _ = engine.step(state, ChooseGear(1), LoadedDice([2]))
    assert state.cars[1].pools == (12,)
    one_lap = Engine(board, STREET, ["A"])
    state = one_lap.position([{"space": 10, "gear": 2, "lap": 0, "pools": (5,)}])
    state, _ = one_lap.step(state, ChooseGear(2), LoadedDice([3]))
    state, _ = one_lap.step(state, ChooseMove(1), LoadedDice([]))
    assert state.cars[0].pools == (5,)


def test_X1_the_grid_belongs_to_lap_1_for_nitro():
    """X-1: nitro used before the first crossing of the line counts for lap 1."""
    board = compile_board(from_ascii(" ".join(["."] * 12), closed=True, finish=0))
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 9, "gear": 2, "lap": 0}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    state, _ = engine.step(state, UseNitro(), LoadedDice([]))
    state, _ = engine.step(state, ChooseMove(1), LoadedDice([]))  # crosses the line: lap 1
    assert state.cars[0].lap == 1
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([2]))
    assert not engine.nitro_available(state)


def test_X6_a_full_car_is_told_the_checkpoint_gives_nothing():
    board = compile_board(from_ascii(" ".join(["."] * 12), closed=True, finish=0))
    engine = Engine(board, STREET.with_laps(2), ["A"])
    state = engine.position([{"space": 10, "gear": 2, "lap": 1}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(1), LoadedDice([]))
    assert "A already has full SP (X-6 checkpoint)" in [str(e) for e in events]


@pytest.mark.parametrize(("black", "status"), [(3, "eliminated"), (12, "finished")])
def test_X3_danger_before_the_line_is_rolled_for_on_the_finishing_move(black, status):
    """X-3 and S-4: the danger space before the line is rolled for on the finishing move.

    Not the one after the line, where the car's race is over; with 1 SP a hit
    on the black die puts the car out before it finishes.
    """
    #                                  0 1 2 3 4 5 6 7   (finish line after column 4)
    board = compile_board(from_ascii(". . D . . . D .", finish=4))
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 0, "gear": 3, "lap": 1, "pools": (1,)}])
    state, _ = engine.step(state, ChooseGear(3), LoadedDice([7]))
    dice = LoadedDice([black])
    state, events = engine.step(state, ChooseMove(7), dice)
    assert dice.remaining == 0  # one roll: space 2; none for space 6 past the line
    assert state.cars[0].status == status
    assert [str(e) for e in events if "danger" in str(e)][0].startswith(
        "A crosses danger space 2: black"
    )


TUNNEL_FINISH = compile_board(
    from_ascii(". . 1 1 . . . . . . . . .", corners={1: 1}, finish=9, tunnels={"T": (5, 7)})
)


def test_X5_M6_a_tunnel_pair_is_one_space_in_the_count_up_to_the_finish_line():
    """X-5 / M-6: leaving corner 1 short on the last lap and crossing the line through the
    tunnel, the spaces beyond the exit line are counted up to the line with the pair as one
    space: 4, the tunnel, 8 (the same 3 as stopping just before the line)."""
    board = TUNNEL_FINISH
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 1, "gear": 4, "lap": 1}])
    state, _ = engine.step(state, ChooseGear(4), LoadedDice([10]))
    costs = {board.ids[o.destination]: cost for o, cost in engine.legal_moves(state)}
    assert costs[8].reasons[-1] == "C-3 overshoot of corner 1 by 3: -3 SP"
    for past_the_line in (9, 10, 12):
        assert costs[past_the_line].reasons == ("C-3 overshoot of corner 1 by 3: -3 SP",)
    state, _ = engine.step(state, ChooseMove(12), LoadedDice([]))
    assert state.cars[0].status == "finished"


TUNNEL_BESIDE = compile_board(
    from_ascii(
        """
        . . . . . . . . .
        . . . . . . . . .
        """,
        finish=8,
        tunnels={"1": (6, 12)},
    )
)


def test_X5_a_car_standing_on_a_tunnel_space_does_not_roll_for_a_collision():
    """X-5: no die is rolled for tunnel spaces: a car stopping beside a car that stands on
    a tunnel portal makes no collision check (only the mover was exempt before)."""
    board = TUNNEL_BESIDE  # ids: column * 2 + row; the portals are 6 and 12 in row 0
    assert (
        board.tunnel[board.index[12]] == "1" and board.index[12] in board.touching[board.index[13]]
    )
    engine = Engine(board, STREET, ["A", "B"])
    state = engine.position([{"space": 7, "gear": 2}, {"space": 12}], order=(0, 1))
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
    state, events = engine.step(state, ChooseMove(13), LoadedDice([]))  # no die to roll
    assert board.ids[state.cars[0].space] == 13
    assert not any(e.kind == "check" for e in events)
    off_portal = engine.position([{"space": 7, "gear": 2}, {"space": 15}], order=(0, 1))
    off_portal, _ = engine.step(off_portal, ChooseGear(2), LoadedDice([3]))
    _, events = engine.step(off_portal, ChooseMove(13), LoadedDice([15, 15]))
    assert any("collision check" in e.text for e in events)  # the car ahead, off the tunnel


def test_X5_no_engine_check_for_a_car_on_a_tunnel_space():
    """X-5: an engine check (D-6) skips a car in 5th standing on a tunnel space."""
    board = compile_board(from_ascii(" ".join(["."] * 40), finish=39, tunnels={"T": (30, 32)}))
    engine = Engine(board, STREET, ["A", "B", "C"])
    state = engine.position(
        [{"space": 0, "gear": 5}, {"space": 30, "gear": 5}, {"space": 35, "gear": 5}],
        order=(0, 1, 2),
    )
    state, _ = engine.step(state, ChooseGear(5), LoadedDice([20]))  # 20 in 5th: engine check
    state, events = engine.step(state, ChooseMove(20), LoadedDice([15, 15]))  # A, then C
    rolls = [e.text for e in events if e.text.startswith("engine check:")]
    assert rolls == ["engine check: A rolls 15, safe", "engine check: C rolls 15, safe"]


def test_X1_nitro_on_a_flying_start():
    """X-1: once per lap with no exception for the start: a flying start (S-2, 4 spaces in
    1st, no die) may add nitro's +1; the police speed does not count it (X-4)."""
    board = compile_board(from_ascii(" ".join(["."] * 30), finish=29, police=3))
    engine = Engine(board, STREET, ["A"])
    state = engine.position([{"space": 0, "started": False}])
    state, events = engine.step(state, ChooseGear(1), LoadedDice([18]))
    assert state.roll == 4 and state.die_roll == 0 and "flying start" in str(events[0])
    assert engine.nitro_available(state)
    state, _ = engine.step(state, UseNitro(), LoadedDice([]))
    assert state.roll == 5
    state, events = engine.step(state, ChooseMove(5), LoadedDice([]))
    assert "A crosses the police line at 40 (X-4)" in [str(e) for e in events]
