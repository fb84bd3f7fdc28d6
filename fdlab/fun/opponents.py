"""The Formula Fun bots by name, and the default opponent.

Every place where fdlab picks an opponent for you (:class:`~fdlab.fun.game.Game`
given a bot name, the table of :mod:`fdlab.fun.widgets`, the studies of
:mod:`fdlab.fun.study`) uses :data:`DEFAULT_OPPONENT`; the other bots stay
available by name. ``benchmarks/fun_bots.py`` measures how they fare
against each other.
"""

from __future__ import annotations

from collections.abc import Callable

from fdlab.fun.bots import Bot, FunRandomBot, SensibleBot, SimpleBot
from fdlab.fun.errors import ArgumentError
from fdlab.fun.manager import ManagerBot
from fdlab.fun.quoting import quoted

__all__ = ["BOTS", "DEFAULT_OPPONENT", "make_opponent"]

#: Bot factories by name: ``BOTS["manager"](seed)``.
BOTS: dict[str, Callable[[int], Bot]] = {
    "manager": lambda seed: ManagerBot(seed, style="careful"),
    "manager-bold": lambda seed: ManagerBot(seed, style="bold"),
    "simple": SimpleBot,
    "sensible": SensibleBot,
    "random": FunRandomBot,
}

#: The opponent fdlab picks when you do not: the manager, careful style.
DEFAULT_OPPONENT = "manager"


def make_opponent(name: str, seed: int = 0) -> Bot:
    """Return a new bot of the kind ``name`` (a key of :data:`BOTS`), seeded with ``seed``.

    Raises
    ------
    ArgumentError
        If there is no bot of that name (the message lists the names) or the
        seed is not an integer.

    Examples
    --------
    >>> make_opponent("manager").name
    'manager'
    >>> make_opponent("genius")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: name must be a Formula Fun bot (manager, manager-bold, simple, sensible, random), got 'genius'
    """
    if not isinstance(name, str) or name not in BOTS:
        raise ArgumentError(
            "name", f"name must be a Formula Fun bot ({', '.join(BOTS)}), got {quoted(name)}"
        )
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArgumentError("seed", f"seed must be an integer, got {quoted(seed)}")
    return BOTS[name](seed)
