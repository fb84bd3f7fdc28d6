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
