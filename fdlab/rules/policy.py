"""What a Formula D policy is: the two decisions every bot (or helper) makes.

:func:`fdlab.rules.loop.iter_race` drives any object that satisfies
:class:`Policy`; the bots of :mod:`fdlab.bots` all do. A policy may also
answer the street rules' nitro question (:class:`NitroPolicy`); one that
does not never uses nitro.
"""

from __future__ import annotations

from typing import Protocol, TypeAlias, runtime_checkable

from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.view import RaceView

__all__ = ["NitroPolicy", "Policy", "Seat"]


@runtime_checkable
class Policy(Protocol):
    """A driver: announces a gear, then picks one of the legal moves.

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> isinstance(HeuristicBot(), Policy)
    True
    """

    def choose_gear(self, view: RaceView) -> int:
        """A gear among ``view.legal_gears()`` (G-2..G-5)."""
        ...

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """One of the options of ``moves`` (the legal ``(option, cost)`` pairs, M-7)."""
        ...


@runtime_checkable
class NitroPolicy(Policy, Protocol):
    """A policy that also decides on nitro after its roll (street rules, X-1)."""

    def use_nitro(self, view: RaceView) -> bool:
        """Whether to add the nitro bonus to this roll."""
        ...


#: Who drives a car, as :meth:`fdlab.rules.race.Race.play_bots` and the race table take
#: it: a policy, a bot's name (:func:`fdlab.make_bot`) or ``None`` for a person's car.
Seat: TypeAlias = Policy | str | None
