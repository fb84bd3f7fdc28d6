"""Policies that play Formula D through the same actions a person uses.

A policy satisfies :class:`Policy` (``choose_gear(view) -> int``,
``choose_move(view, moves) -> MoveOption``; ``moves``: the legal ``(option,
cost)`` pairs) and, for nitro, :class:`NitroPolicy` (``use_nitro(view) ->
bool``); ``view`` is a :class:`fdlab.rules.view.RaceView`.
No policy picks an eliminating gear or move unless nothing else is legal (D-2).
The default of playtests is :class:`ParBot` (``"par"``), driven by the exact
solo solution of the board (:mod:`fdlab.par`) and adjusted for the other cars.
"""

from typing import TYPE_CHECKING

from fdlab._lazy import lazy_exports
from fdlab.bots.errors import BotSpecError, StyleError
from fdlab.bots.heuristic import HeuristicBot
from fdlab.bots.lookahead import LookaheadBot
from fdlab.bots.random_bot import RandomBot
from fdlab.rules.policy import NitroPolicy, Policy

if TYPE_CHECKING:
    from fdlab.bots.parbot import ParBot
    from fdlab.bots.solo import SoloOptimalBot

__all__ = [
    "BotSpecError",
    "HeuristicBot",
    "LookaheadBot",
    "NitroPolicy",
    "ParBot",
    "Policy",
    "RandomBot",
    "SoloOptimalBot",
    "StyleError",
]

# ParBot and SoloOptimalBot need the solver (numpy, scipy): imported on first use
__getattr__, __dir__ = lazy_exports(
    __name__, globals(), {"ParBot": "fdlab.bots.parbot", "SoloOptimalBot": "fdlab.bots.solo"}
)
