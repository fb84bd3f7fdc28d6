"""Bots by name (fdlab.bots.roster): which specs a playtest accepts."""

from __future__ import annotations

import pytest

from fdlab.bots.errors import BotSpecError
from fdlab.bots.roster import STYLED_BOTS, bot_label, make_bot
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii


@pytest.mark.parametrize("spec", ["random:bold", "solo:cautious", "random:0.2"])
def test_a_style_on_a_bot_that_takes_none_is_refused_naming_those_that_do(spec):
    board = compile_board(from_ascii(". . . . . .", grid=[0], finish=4))
    for build in (
        lambda: bot_label(spec),
        lambda: make_bot(spec, board=board, preset=BASIC, seed=0),
    ):
        with pytest.raises(BotSpecError) as caught:
            build()
        message = str(caught.value)
        assert repr(spec) in message and "takes no style" in message
        assert all(name in message for name in STYLED_BOTS)


def test_the_styled_bots_take_a_style():
    assert [bot_label(f"{name}:bold") for name in STYLED_BOTS] == [
        f"{name}:bold" for name in STYLED_BOTS
    ]
    assert bot_label("random") == "random" and bot_label("solo") == "solo"


def test_the_solo_bot_drives_by_the_shared_table_not_a_solve_of_its_own(monkeypatch, tmp_path):
    """A playtest sends the tables of its ``"solo"`` bots to its workers, as for ``"par"``."""
    import fdlab.bots.roster as roster
    import fdlab.par.solve
    from fdlab.bots.solo import SoloOptimalBot
    from fdlab.par.table import forget_tables
    from fdlab.rules.simulate import simulate

    monkeypatch.setenv("FDLAB_CACHE", "off")
    forget_tables()
    track = from_ascii(". . . . . . . . . . . .", closed=True, grid=[0], finish=1)
    board = compile_board(track)
    tables = roster.solo_tables(["solo", "heuristic"], board, BASIC)  # the playtest's process
    assert len(tables) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("a bot solved the board again")

    monkeypatch.setattr(fdlab.par.solve, "solve_par", refuse)
    monkeypatch.setattr(roster, "solve_par", refuse, raising=False)
    bot = make_bot("solo", board=board, preset=BASIC, seed=0)
    assert isinstance(bot, SoloOptimalBot)
    assert simulate(board, [bot], seed=1).finished == (0,)
    forget_tables()


@pytest.mark.parametrize("rules", ["street", "advanced"])
def test_the_solo_bot_refuses_rules_its_table_would_only_approximate(rules):
    from fdlab.par.errors import SoloModelError
    from fdlab.rules.presets import get_preset

    board = compile_board(from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1))
    with pytest.raises(SoloModelError, match="one-pool rules without street rules"):
        make_bot("solo", board=board, preset=get_preset(rules), seed=0)
