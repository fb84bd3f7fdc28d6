"""The look-ahead bot (fdlab.bots.lookahead) and driving styles (fdlab.bots.style)."""

from __future__ import annotations

import statistics

import pytest

from fdlab.bots import HeuristicBot
from fdlab.bots.lookahead import LookaheadBot
from fdlab.bots.style import STYLES, StyleError, damage_weight, reserve, style_name, style_value
from fdlab.rules.actions import ChooseGear
from fdlab.rules.board import compile_board
from fdlab.rules.dice import LoadedDice
from fdlab.rules.engine import Engine
from fdlab.rules.presets import BASIC
from fdlab.rules.simulate import simulate
from fdlab.rules.view import RaceView
from fdlab.track import from_ascii


def ring():
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    return from_ascii("\n".join([row] * 2), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[64, 65])


def test_lookahead_is_faster_than_the_heuristic_bot_alone_on_a_ring():
    """One ply over the exact die faces beats the distance-only heuristic in turns."""
    board = compile_board(ring())
    look = [simulate(board, [LookaheadBot()], seed=s) for s in range(60)]
    heur = [simulate(board, [HeuristicBot()], seed=s) for s in range(60)]
    look_turns = statistics.mean(r.rounds for r in look if r.finished)
    heur_turns = statistics.mean(r.rounds for r in heur if r.finished)
    assert look_turns < heur_turns
    assert sum(1 for r in look if r.finished) >= 57


def test_lookahead_slows_down_for_a_three_stop_corner_just_ahead():
    """C-3/C-4: two spaces before a 3-stop corner, in 4th, the bot drops to a slow gear."""
    track = from_ascii(". . . . 1 1 . . . . . . . . . . . . . . .", corners={1: 3}, finish=20)
    board = compile_board(track)
    engine = Engine(board, BASIC, ["Solo"])
    state = engine.position([{"space": 2, "gear": 4}])
    gear = LookaheadBot().choose_gear(RaceView(engine, state, 0))
    assert gear <= 2


def test_lookahead_never_picks_an_eliminating_move_when_another_exists():
    """D-2 / C-4: rolling past a 2-stop corner it has not stopped in, it brakes instead."""
    track = from_ascii(". . 1 . . . . . .", corners={1: 2}, finish=8)
    board = compile_board(track)
    engine = Engine(board, BASIC, ["Solo"])
    state = engine.position([{"space": 0, "gear": 2}])
    state, _ = engine.step(state, ChooseGear(2), LoadedDice([4]))
    view = RaceView(engine, state, 0)
    moves = view.legal_moves()
    assert any(cost.eliminated for _, cost in moves)
    chosen = LookaheadBot("reckless").choose_move(view, moves)
    cost = dict((id(o), k) for o, k in moves)[id(chosen)]
    assert not cost.eliminated


def test_reckless_drivers_finish_less_often_but_faster_than_cautious_ones():
    board = compile_board(ring())
    reckless = [simulate(board, [LookaheadBot("reckless")], seed=s) for s in range(80)]
    cautious = [simulate(board, [LookaheadBot("cautious")], seed=s) for s in range(80)]
    fast = statistics.mean(r.rounds for r in reckless if r.finished)
    slow = statistics.mean(r.rounds for r in cautious if r.finished)
    assert fast < slow
    assert sum(r.finished != () for r in reckless) <= sum(r.finished != () for r in cautious)


def test_style_names_and_numbers():
    assert [style_value(name) for name in STYLES] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert style_name(0.6) == "balanced"
    assert damage_weight("cautious") > damage_weight("balanced") > damage_weight("reckless")
    assert reserve("cautious") > reserve("reckless")
    with pytest.raises(StyleError, match="cautious, careful, balanced, bold, reckless"):
        style_value("wild")
    with pytest.raises(StyleError, match="from 0 to 1"):
        style_value(1.5)


def test_lookahead_reads_corners_with_the_presets_lane_change_limit():
    """M-3: with no lane change on straights, a corner two lanes across is out of reach."""
    import dataclasses

    from fdlab.bots.windows import corner_window

    row = ". . . . . . . . . ."
    track = from_ascii("\n".join([row, row, ". . . . . 1 1 . . ."]), corners={1: 2}, finish=9)
    board = compile_board(track)
    assert corner_window(board, 0, 1, 2) == (5, 6) and corner_window(board, 0, 1, 0) is None
    for lanes, window in [(0, None), (2, (5, 6))]:
        preset = dataclasses.replace(BASIC, name=f"lanes {lanes}", max_lane_changes=lanes)
        engine = Engine(board, preset, ["Solo"])
        view = RaceView(engine, engine.position([{"space": 0, "gear": 3}]), 0)
        bot = LookaheadBot()
        bot.choose_gear(view)  # reads the board under the view's preset
        assert bot._window(board, 0, 1) == window
