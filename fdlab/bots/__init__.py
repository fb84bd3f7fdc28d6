"""Policies that play Formula D through the same actions a person uses.

A policy has ``choose_gear(view) -> int``, ``choose_move(view, moves) ->
MoveOption`` (``moves``: the legal ``(option, cost)`` pairs) and
``use_nitro(view) -> bool``; ``view`` is a :class:`fdlab.rules.view.RaceView`.
No policy picks an eliminating gear or move unless nothing else is legal (D-2).
"""

from fdlab.bots.heuristic import HeuristicBot
from fdlab.bots.random_bot import RandomBot

__all__ = ["HeuristicBot", "LookaheadBot", "RandomBot", "SoloOptimalBot"]


def __getattr__(name: str):
    # LookaheadBot and SoloOptimalBot use fdlab.analysis; imported on first use
    if name == "LookaheadBot":
        from fdlab.bots.lookahead import LookaheadBot

        return LookaheadBot
    if name == "SoloOptimalBot":
        from fdlab.bots.solo import SoloOptimalBot

        return SoloOptimalBot
    raise AttributeError(f"module 'fdlab.bots' has no attribute {name!r}")
