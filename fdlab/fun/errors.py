"""Errors raised by the Formula Fun engine, its loaders and its functions.

Every illegal action raises a subclass of :class:`IllegalActionError` (itself a
``ValueError``) whose message explains the rule and names its clause id from
section FF of the rules reference, e.g. ``"FF-8: at most two sponsors ..."``.
A deck file or a saved game that cannot be loaded raises :class:`DeckError` or
:class:`SavedGameError` naming the file; a function given a value its parameter
cannot take (``new_game("3")``, ``Game.undo(-1)``) raises
:class:`ArgumentError` naming the parameter and what it must be. Bots that still
must act when :meth:`fdlab.fun.game.Game.run_bots` reaches its limit raise
:class:`BotLimitError`, also a ``RuntimeError``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fdlab.errors import FdlabError
from fdlab.fun.events import tell
from fdlab.fun.quoting import quoted

__all__ = [
    "ArgumentError",
    "AuctionError",
    "BotLimitError",
    "CardNotAvailableError",
    "CircuitCardError",
    "DeckError",
    "DiscardError",
    "DrawError",
    "SavedGameError",
    "GameOverError",
    "HandLimitError",
    "IllegalActionError",
    "MarketError",
    "PaymentError",
    "SpecialCardError",
    "SponsorError",
    "PhaseError",
    "check_int",
]


class IllegalActionError(FdlabError):
    """An action that the rules do not allow in this state.

    Parameters
    ----------
    clause : str
        The rules clause id (``"FF-4"``) the action breaks.
    message : str
        What the rule says and why the action breaks it. Players in it are
        marked with :func:`fdlab.fun.events.mention`; the message names them
        ``P1``..``Pn`` until :meth:`name_players` gives the table's names.

    Examples
    --------
    >>> from fdlab.fun.events import mention
    >>> err = IllegalActionError("FF-4", f"{mention(1)} must bid more than 3 M$ or pass")
    >>> str(err), err.clause
    ('FF-4: P2 must bid more than 3 M$ or pass', 'FF-4')
    >>> str(err.name_players(["Ada", "Bea"]))
    'FF-4: Bea must bid more than 3 M$ or pass'
    >>> str(err.name_players(["Ada", "You"], you=1))
    'FF-4: You must bid more than 3 M$ or pass'
    """

    def __init__(self, clause: str, message: str) -> None:
        self.clause = clause
        self.template = message
        super().__init__(f"{clause}: {tell(message)}")

    def name_players(
        self, names: Sequence[str] | None, you: int | None = None
    ) -> IllegalActionError:
        """This error with its message naming the players by ``names`` (seat order), the
        player ``you`` in the second person; returns the error itself."""
        self.args = (f"{self.clause}: {tell(self.template, names, you)}",)
        return self


class PhaseError(IllegalActionError):
    """The action does not fit the phase of the turn, or it is not the player's decision."""


class GameOverError(IllegalActionError):
    """The championship is over (FF-15); no action is legal."""


class DrawError(IllegalActionError):
    """An illegal draw (FF-2)."""


class CardNotAvailableError(IllegalActionError):
    """The card is not where the action needs it (not in hand, not on the market, ...)."""


class MarketError(IllegalActionError):
    """A card that may not go on the market (FF-3)."""


class AuctionError(IllegalActionError):
    """An illegal auction start, bid or choice (FF-4, FF-5, FF-6)."""


class SponsorError(IllegalActionError):
    """An illegal sponsor play (FF-8)."""


class SpecialCardError(IllegalActionError):
    """An illegal special card play or target (FF-9, FF-15)."""


class CircuitCardError(IllegalActionError):
    """An illegal circuit card play (FF-10)."""


class DiscardError(IllegalActionError):
    """An illegal discard (FF-13)."""


class HandLimitError(IllegalActionError):
    """Ending the turn with too many cards in hand (FF-13)."""


class PaymentError(IllegalActionError):
    """A payment to the bank larger than the player's money: no loans (FF-16)."""


class ArgumentError(FdlabError):
    """A value a parameter of a Formula Fun function cannot take.

    The message names the parameter and says what it must be; ``bool`` is not
    an integer here (``new_game(True)`` is refused).

    Parameters
    ----------
    parameter : str
        The parameter's name (``"players"``), kept as :attr:`parameter`.
    message : str
        The whole message, naming the parameter.

    Examples
    --------
    >>> err = ArgumentError("count", "count must be an integer of at least 0, got -1")
    >>> str(err), err.parameter
    ('count must be an integer of at least 0, got -1', 'count')
    """

    def __init__(self, parameter: str, message: str) -> None:
        self.parameter = parameter
        super().__init__(message)


class BotLimitError(FdlabError, RuntimeError):
    """Bots that still must act after the most actions :meth:`fdlab.fun.game.Game.run_bots`
    may play (its ``max_actions`` safeguard); a ``RuntimeError`` too, so ``except
    RuntimeError`` still catches it.

    Examples
    --------
    >>> str(BotLimitError("bots did not finish within 5 actions"))
    'bots did not finish within 5 actions'
    """


def check_int(
    parameter: str, value: object, low: int, high: int | None = None, why: str = ""
) -> int:
    """Return ``value`` if it is an integer from ``low`` to ``high``; raise ArgumentError if not.

    Parameters
    ----------
    parameter : str
        The parameter's name, for the message.
    value : object
        What the caller gave.
    low : int
        The smallest value allowed.
    high : int, optional
        The largest value allowed (no limit if None).
    why : str
        A reason added to the message in brackets, e.g. the rules clause.

    Returns
    -------
    int

    Raises
    ------
    ArgumentError
        If ``value`` is not an ``int`` (a ``bool`` is not) or is out of range.

    Examples
    --------
    >>> check_int("players", 3, 2, 4)
    3
    >>> check_int("players", "3", 2, 4, why="FF-1: Formula Fun is for 2-4 players")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: players must be an integer from 2 to 4 (FF-1: Formula Fun is for 2-4 players), got '3'
    >>> check_int("count", True, 0)
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: count must be an integer of at least 0, got True
    """
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value
        and (high is None or value <= high)
    ):
        return value
    span = f"of at least {low}" if high is None else f"from {low} to {high}"
    reason = f" ({why})" if why else ""
    raise ArgumentError(
        parameter, f"{parameter} must be an integer {span}{reason}, got {quoted(value)}"
    )


class DeckError(FdlabError):
    """A deck file or mapping that does not describe a valid deck.

    Parameters
    ----------
    source : str
        The file name (or ``"<mapping>"``) the deck came from.
    where : str
        The field path, e.g. ``"cards[3].value"``.
    message : str
        What is wrong with it.

    Examples
    --------
    >>> str(DeckError("my.json", "cards[3].value", "must be 1-6, got 9"))
    'my.json: cards[3].value: must be 1-6, got 9'
    """

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        super().__init__(f"{source}: {where}: {message}" if where else f"{source}: {message}")


class SavedGameError(FdlabError):
    """A saved game (:meth:`fdlab.fun.game.Game.load`, :meth:`~fdlab.fun.game.Game.from_json`)
    that cannot be loaded.

    Parameters
    ----------
    source : str
        What was read: the file's name, or ``"saved game"`` for text.
    where : str
        The field, e.g. ``"rules.races"`` or ``"actions[12]"``.
    message : str
        What is wrong with it.

    Examples
    --------
    >>> str(SavedGameError("saved game", "players", "must be 2 to 4, got 7"))
    'saved game: players: must be 2 to 4, got 7'
    """

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        super().__init__(f"{source}: {where}: {message}" if where else f"{source}: {message}")
