"""The Formula Fun bots by name, and the default opponent.

Every place where fdlab picks an opponent for you (:class:`~fdlab.fun.game.Game`
given a bot name, the table of :mod:`fdlab.fun.widgets`, the studies of
:mod:`fdlab.fun.study`) uses :data:`DEFAULT_OPPONENT`; the other bots stay
available by name. ``benchmarks/fun_bots.py`` measures how they fare
against each other.
"""

from __future__ import annotations

from collections.abc import Callable

from fdlab.fun.bots import Bot, RandomBot, SensibleBot, SimpleBot
from fdlab.fun.manager import ManagerBot

__all__ = ["BOTS", "DEFAULT_OPPONENT", "make_bot"]

#: Bot factories by name: ``BOTS["manager"](seed)``.
BOTS: dict[str, Callable[[int], Bot]] = {
    "manager": lambda seed: ManagerBot(seed, style="careful"),
    "manager-bold": lambda seed: ManagerBot(seed, style="bold"),
    "simple": SimpleBot,
    "sensible": SensibleBot,
    "random": RandomBot,
}

#: The opponent fdlab picks when you do not: the manager, careful style.
DEFAULT_OPPONENT = "manager"


def make_bot(name: str, seed: int = 0) -> Bot:
    """Return a new bot of the kind ``name`` (a key of :data:`BOTS`), seeded with ``seed``.

    Raises
    ------
    ValueError
        If there is no bot of that name; the message lists the names.

    Examples
    --------
    >>> make_bot("manager").name
    'manager'
    >>> make_bot("genius")
    Traceback (most recent call last):
    ...
    ValueError: no Formula Fun bot called 'genius'; the bots are manager, manager-bold, simple, sensible, random
    """
    if not isinstance(name, str) or name not in BOTS:
        raise ValueError(f"no Formula Fun bot called {name!r}; the bots are {', '.join(BOTS)}")
    return BOTS[name](seed)
