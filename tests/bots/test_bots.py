"""Bots: legal, never self-eliminating unless forced (D-2), sensible, and races end."""

import pytest

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.bots.heuristic import corner_window
from fdlab.rules import ChooseGear, Engine, LoadedDice, compile_board, simulate
from fdlab.rules.presets import BASIC, get_preset
from fdlab.rules.view import RaceView
from fdlab.track import from_ascii

LONG = compile_board(
    from_ascii(" ".join(["."] * 40 + ["1", "1", "1"] + ["."] * 10), corners={1: 2}, finish=52)
)
LOOP = compile_board(
    from_ascii(
        "\n".join([". . . 1 1 . . . . . . . . 2 2 2 . . . . . . 3 3 . . . ."] * 3),
        corners={1: 1, 2: 2, 3: 1},
        closed=True,
        grid=[81, 82, 83, 78, 79, 80, 75, 76, 77, 72],
    )
)


def view_at(engine, placements, gear=None, roll=None):
    state = engine.position(placements, order=tuple(range(len(placements))))
    if roll is not None:
        state, _ = engine.step(state, ChooseGear(gear), LoadedDice([roll]))
    return RaceView(engine, state, state.current)


def test_corner_window_counts_spaces_to_and_through_a_corner():
    assert corner_window(LONG, LONG.index[30], 1) == (10, 12)
    assert corner_window(LONG, LONG.index[41], 1) == (0, 1)


def test_heuristic_gear_far_from_a_corner_is_high_and_near_it_low():
    engine = Engine(LONG, BASIC, ["A"])
    far = view_at(engine, [{"space": 0, "gear": 4}])
    assert HeuristicBot().choose_gear(far) == 5
    near = view_at(engine, [{"space": 36, "gear": 4}])
    assert HeuristicBot().choose_gear(near) == 3  # 4 to 6 spaces reach the 2-stop corner
    close = view_at(engine, [{"space": 39, "gear": 4}])
    assert HeuristicBot().choose_gear(close) <= 2


def test_heuristic_move_prefers_no_damage_then_progress_and_counted_stops():
    engine = Engine(LONG, BASIC, ["A"])
    view = view_at(engine, [{"space": 36, "gear": 3}], gear=3, roll=6)
    option = HeuristicBot().choose_move(view, view.legal_moves())
    assert LONG.ids[option.destination] == 42  # the far end of the corner, no braking


@pytest.mark.parametrize("bot", [RandomBot(0), RandomBot(1), HeuristicBot()])
def test_D2_bots_never_pick_an_eliminating_gear_or_move_when_another_exists(bot):
    """D-2: an eliminating option is chosen only when nothing else is legal."""
    engine = Engine(LONG, BASIC, ["A"])
    hurt = view_at(engine, [{"space": 0, "gear": 6, "pools": (2,)}])
    for _ in range(10):
        assert not hurt.gear_eliminates(bot.choose_gear(hurt))
    view = view_at(engine, [{"space": 36, "gear": 4, "pools": (8,)}], gear=4, roll=12)
    moves = view.legal_moves()
    assert any(cost.eliminated for _, cost in moves) and not all(c.eliminated for _, c in moves)
    for _ in range(10):
        choice = bot.choose_move(view, moves)
        assert not dict((id(o), c) for o, c in moves)[id(choice)].eliminated


def test_bots_take_an_eliminating_move_when_it_is_the_only_one():
    engine = Engine(LONG, BASIC, ["A"])
    view = view_at(engine, [{"space": 37, "gear": 5, "pools": (1,)}], gear=5, roll=20)
    moves = view.legal_moves()
    assert all(cost.eliminated for _, cost in moves)
    for bot in (RandomBot(3), HeuristicBot()):
        assert bot.choose_move(view, moves) in [o for o, _ in moves]


def test_heuristic_goes_to_its_box_when_hurt():
    track = from_ascii(
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
    board = compile_board(track)
    engine = Engine(board, BASIC.with_laps(2), ["A"])
    view = view_at(engine, [{"space": 37, "gear": 4, "lap": 1, "pools": (6,)}], gear=4, roll=9)
    assert HeuristicBot().choose_move(view, view.legal_moves()).boxed
    healthy = view_at(engine, [{"space": 37, "gear": 4, "lap": 1}], gear=4, roll=9)
    assert not HeuristicBot().choose_move(healthy, healthy.legal_moves()).boxed


@pytest.mark.parametrize("preset", ["basic", "street", "advanced"])
@pytest.mark.parametrize("n", [2, 6, 10])
def test_full_races_of_2_to_10_bots_end(preset, n):
    bots = [HeuristicBot() if i % 2 == 0 else RandomBot(i) for i in range(n)]
    result = simulate(LOOP, bots, preset, seed=n)
    assert len(result.ranking) == n and result.state.over


def test_heuristic_bot_beats_random_play():
    """Over 20 seeded races, the heuristic bot finishes ahead of a random bot most of the time."""
    wins = 0
    for seed in range(20):
        result = simulate(LOOP, [HeuristicBot(), RandomBot(seed)], get_preset("basic"), seed=seed)
        wins += result.ranking[0] == "Blue"
    assert wins >= 15


@pytest.mark.parametrize(("preset", "most"), [("basic", 0.05), ("advanced", 0.3)])
def test_heuristic_bots_rarely_eliminate_themselves(preset, most):
    """Six heuristic bots on a loop with 1-, 2- and 3-stop corners: few eliminations."""
    out = 0
    for seed in range(8):
        result = simulate(LOOP, [HeuristicBot() for _ in range(6)], preset, seed=seed)
        out += len(result.eliminated)
    assert out / 48 <= most


def test_heuristic_does_not_idle_in_the_pit_lane_when_the_exit_leads_into_a_corner():
    """Braking is free in the pit lane (P-4); the bot still drives on."""
    track = from_ascii(
        """
        . . . . . . . . . . . . . 1 1 .
        . . . . . . . . . . . . . 1 1 .
        x x x x x x x x x x p p p p x x
        x x x x x x x x x x x B B x x x
        """,
        corners={1: 2},
        closed=True,
        finish=11,
        grid=[40, 41, 36, 37],
    )
    board = compile_board(track)
    engine = Engine(board, BASIC.with_laps(2), ["A"])
    # at the end of the pit lane: the exit (54 -> 57) goes into the last space of a 2-stop corner
    assert board.corner[board.index[57]] == 1
    view = view_at(engine, [{"space": 54, "gear": 1, "lap": 2}], gear=1, roll=2)
    choice = HeuristicBot().choose_move(view, view.legal_moves())
    assert choice.moved > 0


def test_heuristic_moves_to_the_pit_entry_lane_when_hurt():
    """P-2: a hurt car that may pit steers into the lane the pit lane leaves from."""
    track = from_ascii(
        """
        . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . .
        x x x x x x x x x x p p p p p x
        x x x x x x x x x x x B B x x x
        """,
        closed=True,
        finish=13,
        grid=[48, 49, 44, 45],
    )
    board = compile_board(track)
    engine = Engine(board, BASIC.with_laps(2), ["A"])
    hurt = view_at(engine, [{"space": 12, "gear": 2, "lap": 1, "pools": (5,)}], gear=2, roll=3)
    choice = HeuristicBot().choose_move(hurt, hurt.legal_moves())
    assert board.lane[choice.destination] == 1  # the pit entry (37 -> 42) leaves from lane 1
    healthy = view_at(engine, [{"space": 12, "gear": 2, "lap": 1}], gear=2, roll=3)
    choice = HeuristicBot().choose_move(healthy, healthy.legal_moves())
    assert board.lane[choice.destination] == 0  # no reason to change lane


def test_heuristic_keeps_nitro_for_high_gears_and_uses_it_when_safe():
    """X-1: the bonus is the gear number, so 1st-gear nitro is wasted far from the line."""
    engine = Engine(LONG, get_preset("street"), ["A"])
    low = view_at(engine, [{"space": 0, "gear": 1, "lap": 1}], gear=1, roll=2)
    assert low.nitro_available() and not HeuristicBot().use_nitro(low)
    high = view_at(engine, [{"space": 0, "gear": 4, "lap": 1}], gear=4, roll=8)
    assert HeuristicBot().use_nitro(high)  # 12 spaces still stop before the corner at 40
    risky = view_at(engine, [{"space": 30, "gear": 4, "lap": 1}], gear=4, roll=10)
    assert not HeuristicBot().use_nitro(risky)  # 14 would pass the far end of the corner


def test_heuristic_keeps_lap_1_nitro_on_the_grid_side_of_the_line():
    """X-1: the grid belongs to lap 1, so 1st-gear nitro is not "use it or lose it" there."""
    engine = Engine(LOOP, get_preset("street").with_laps(2), ["A"])
    grid_side = view_at(engine, [{"space": 78, "gear": 1, "lap": 0}], gear=1, roll=2)
    assert grid_side.nitro_available() and not HeuristicBot().use_nitro(grid_side)
    end_of_lap_1 = view_at(engine, [{"space": 78, "gear": 1, "lap": 1}], gear=1, roll=2)
    assert end_of_lap_1.nitro_available() and HeuristicBot().use_nitro(end_of_lap_1)


def test_heuristic_ignores_a_corner_beyond_the_finish_line_on_the_last_lap():
    """S-4: the line ends the race, so the 3-stop corner after it needs no slowing down."""
    board = compile_board(
        from_ascii(" ".join(["."] * 30 + ["1"] * 3 + ["."] * 20), corners={1: 3}, finish=28)
    )
    engine = Engine(board, BASIC, ["A"])
    before_last = view_at(engine, [{"space": 12, "gear": 5, "lap": 0}])
    last = view_at(engine, [{"space": 12, "gear": 5, "lap": 1}])
    assert HeuristicBot().choose_gear(before_last) == 5  # 6th would overshoot the corner
    assert HeuristicBot().choose_gear(last) == 6  # 21-30 spaces all cross the line


def test_a_random_bot_without_a_seed_draws_one_and_keeps_it():
    track = from_ascii(
        """
        . . . 1 1 . . . . . . . .
        . . . 1 1 . . . . . . . .
        """,
        corners={1: 1},
        closed=True,
        grid=[24, 25],
    )
    bots = [RandomBot(None), RandomBot(None)]
    assert all(isinstance(bot.seed, int) for bot in bots)
    assert bots[0].seed != bots[1].seed  # two draws (equal once in 2**32)
    assert repr(bots[0]) == f"RandomBot({bots[0].seed})"
    first = simulate(track, bots, "basic", seed=3)
    again = simulate(track, [RandomBot(b.seed) for b in bots], "basic", seed=3)
    assert (again.ranking, again.rounds) == (first.ranking, first.rounds)
