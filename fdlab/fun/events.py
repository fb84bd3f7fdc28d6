"""Events: what happened during one :func:`fdlab.fun.engine.step`.

Events are for logs and user interfaces; the state alone decides the game.
Every change of a player's money comes with a ``money`` event whose
``amount`` is signed (positive: the bank pays the player), so the log shows
that money only moves between players and the bank (FF-16).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Event", "player_name"]


def player_name(index: int) -> str:
    """Return the display name of a player index (``0`` -> ``"P1"``).

    Examples
    --------
    >>> player_name(0)
    'P1'
    """
    return f"P{index + 1}"


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    Parameters
    ----------
    kind : str
        E.g. ``draw``, ``market``, ``bid``, ``sale``, ``failed_payment``,
        ``money``, ``race``, ``car``, ``clause``, ``turn``, ``game_over``.
    text : str
        Human-readable sentence.
    player : int or None
        Player concerned.
    amount : int
        M$ for ``money`` events (signed), points for ``car`` events, else 0.
    card : int or None
        Card concerned.

    Examples
    --------
    >>> Event("money", "the bank pays P1 2 M$", player=0, amount=2).amount
    2
    """

    kind: str
    text: str
    player: int | None = None
    amount: int = 0
    card: int | None = None

    def __str__(self) -> str:
        return self.text
