"""Formula Fun actions: every decision a player makes is one of these values.

Actions do not name the player: the state says whose decision it is
(:attr:`fdlab.fun.state.GameState.to_act`). Each action has a short text
notation that round-trips through :func:`parse_action`, so a game can be
stored as a seed plus a list of strings.

========================  ==============================================
notation                  meaning
========================  ==============================================
``draw 2``                draw 2 cards, paying 1 M$ (FF-2)
``market 17``             put card 17 from hand on the market (FF-3)
``auction 17 4``          auction market card 17, opening bid 4 M$ (FF-4)
``bid 6``                 bid 6 M$ in the running auction (FF-4)
``pass``                  leave the running auction (FF-4)
``return 3``              return driver 3 to the market after buying a third (FF-5)
``sponsor 30``            play sponsor 30 from hand (FF-8)
``special 40 12``         play special 40 on target card 12 (FF-9)
``special 40 12 31``      ... replacing sponsor 12 with sponsor 31 from hand
``circuit 66``            play circuit 66: a race (FF-10)
``discard 33``            discard card 33 from hand (FF-13)
``end``                   end the turn (FF-13)
========================  ==============================================

An action holds whatever it is given; :func:`fdlab.fun.engine.step` checks
every field against the rules before playing it, so ``Bid(2.5)`` or
``Draw("2")`` is refused there with one
:class:`~fdlab.fun.errors.IllegalActionError` naming the clause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fdlab.fun.errors import ArgumentError
from fdlab.fun.quoting import quoted

__all__ = [
    "Action",
    "Bid",
    "Discard",
    "Draw",
    "EndTurn",
    "Pass",
    "PlayCircuit",
    "PlaySpecial",
    "PlaySponsor",
    "PutOnMarket",
    "ReturnDriver",
    "StartAuction",
    "parse_action",
]


@dataclass(frozen=True)
class Draw:
    """Draw 1 (free), 2 (1 M$) or 3 (2 M$) cards at the start of the turn (FF-2)."""

    count: int

    def __str__(self) -> str:
        return f"draw {self.count}"


@dataclass(frozen=True)
class PutOnMarket:
    """Put a driver, engine or chassis from hand on the market, facing you (FF-3)."""

    card: int

    def __str__(self) -> str:
        return f"market {self.card}"


@dataclass(frozen=True)
class StartAuction:
    """Auction a market card; the opening price is your bid (FF-4)."""

    card: int
    price: int

    def __str__(self) -> str:
        return f"auction {self.card} {self.price}"


@dataclass(frozen=True)
class Bid:
    """Bid more than the current highest bid (FF-4)."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True)
class Pass:
    """Leave the running auction (FF-4)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class ReturnDriver:
    """Choose which of your two drivers goes back to the market (FF-5)."""

    card: int

    def __str__(self) -> str:
        return f"return {self.card}"


@dataclass(frozen=True)
class PlaySponsor:
    """Play a sponsor from hand; the bank pays its amount (FF-8)."""

    card: int

    def __str__(self) -> str:
        return f"sponsor {self.card}"


@dataclass(frozen=True)
class PlaySpecial:
    """Play a special card (FF-9), with a target card in play and, to replace a
    sponsor, the sponsor from hand that takes its place."""

    card: int
    target: int | None = None
    with_card: int | None = None

    def __str__(self) -> str:
        parts = ["special", str(self.card)]
        if self.target is not None:
            parts.append(str(self.target))
        if self.with_card is not None:
            parts.append(str(self.with_card))
        return " ".join(parts)


@dataclass(frozen=True)
class PlayCircuit:
    """Play a circuit card: every complete team races (FF-10)."""

    card: int

    def __str__(self) -> str:
        return f"circuit {self.card}"


@dataclass(frozen=True)
class Discard:
    """Discard a card from a hand over the limit (FF-13)."""

    card: int

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn; play passes clockwise (FF-13)."""

    def __str__(self) -> str:
        return "end"


Action = (
    Draw
    | PutOnMarket
    | StartAuction
    | Bid
    | Pass
    | ReturnDriver
    | PlaySponsor
    | PlaySpecial
    | PlayCircuit
    | Discard
    | EndTurn
)

_ONE_INT: dict[str, Callable[[int], Action]] = {
    "draw": Draw,
    "market": PutOnMarket,
    "bid": Bid,
    "return": ReturnDriver,
    "sponsor": PlaySponsor,
    "circuit": PlayCircuit,
    "discard": Discard,
}


def parse_action(text: str) -> Action:
    """Parse the text notation of an action.

    Parameters
    ----------
    text : str
        Notation such as ``"draw 2"`` or ``"auction 17 4"``.

    Returns
    -------
    Action

    Raises
    ------
    ArgumentError
        If the text is not a valid action notation (a ``ValueError``).

    Examples
    --------
    >>> parse_action("auction 17 4")
    StartAuction(card=17, price=4)
    >>> str(parse_action("special 40 12"))
    'special 40 12'
    >>> parse_action("bid 2.5")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.ArgumentError: text 'bid 2.5' is not an action: the numbers in an action are whole numbers
    """
    if not isinstance(text, str):
        raise ArgumentError(
            "text", f"text must be an action's notation such as 'bid 6', got {quoted(text)}"
        )
    words = text.split()
    if not words:
        raise ArgumentError("text", "text is empty: write an action such as 'draw 2' or 'pass'")
    head, args = words[0].lower(), words[1:]
    try:
        numbers = [int(a) for a in args if a.isascii()]
    except ValueError:
        numbers = []
    if len(numbers) != len(args):
        raise ArgumentError(
            "text",
            f"text {quoted(text)} is not an action: the numbers in an action are whole numbers",
        )
    if head in ("pass", "end") and not numbers:
        return Pass() if head == "pass" else EndTurn()
    if head in _ONE_INT and len(numbers) == 1:
        return _ONE_INT[head](numbers[0])
    if head == "auction" and len(numbers) == 2:
        return StartAuction(numbers[0], numbers[1])
    if head == "special" and 1 <= len(numbers) <= 3:
        return PlaySpecial(*numbers)
    raise ArgumentError(
        "text",
        f"text {quoted(text)} is not an action: write e.g. 'draw 2', 'market 17', "
        "'auction 17 4', 'bid 6', 'pass', 'special 40 12', 'circuit 66' or 'end'",
    )
