"""Events: what happened during one :func:`fdlab.fun.engine.step`.

Events are for logs and user interfaces; the state alone decides the game.
Every change of a player's money comes with a ``money`` event whose
``amount`` is signed (positive: the bank pays the player), so the log shows
that money only moves between players and the bank (FF-16).

The engine knows players by seat only. An event's ``text`` names them
``P1``..``Pn``; its ``template`` marks every mention of a player
(:func:`mention`), so :meth:`FunEvent.told` can name them as the table does
(``Game(names=...)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MENTION", "FunEvent", "mention", "player_name", "tell"]

#: How a template marks a player: two control characters around the seat index.
#: Deck files may not use control characters, so no card name can look like one.
MENTION = re.compile(r"\x1f(\d+)\x1e")


def player_name(index: int) -> str:
    """Return the display name of a player index (``0`` -> ``"P1"``).

    Examples
    --------
    >>> player_name(0)
    'P1'
    """
    return f"P{index + 1}"


def mention(index: int) -> str:
    """Return the mark of a player in an event template (see :meth:`FunEvent.told`).

    Examples
    --------
    >>> FunEvent.said("turn", f"turn 2: {mention(1)} to play", 1).text
    'turn 2: P2 to play'
    """
    return f"\x1f{index}\x1e"


#: Verbs the engine's sentences put after a player, and their form after "you".
_YOU_VERBS = {
    "auctions": "auction",
    "bids": "bid",
    "buys": "buy",
    "discards": "discard",
    "draws": "draw",
    "has": "have",
    "holds": "hold",
    "is": "are",
    "passes": "pass",
    "pays": "pay",
    "plays": "play",
    "puts": "put",
    "replaces": "replace",
    "returns": "return",
    "shows": "show",
    "signs": "sign",
    "wins": "win",
}
_YOU_MENTION = r"\x1f{index}\x1e(?P<tail>'s|\s+(?P<verb>\w+))?"


def tell(template: str, names: Sequence[str] | None = None, you: int | None = None) -> str:
    """Fill a template's player marks with ``names`` (``P1``.. if None).

    The player ``you`` (the person at the table) is told in the second
    person: "You pass", "the bank pays you", "your V12".

    Examples
    --------
    >>> tell(f"{mention(0)} passes; {mention(1)}'s V12", ["Ada", "Bea"])
    "Ada passes; Bea's V12"
    >>> tell(f"{mention(0)} passes; the bank pays {mention(0)} 2 M$ for {mention(0)}'s V12",
    ...      ["Ada", "Bea"], you=0)
    'You pass; the bank pays you 2 M$ for your V12'
    """
    if you is not None:

        def second_person(match: re.Match[str]) -> str:
            start = match.start() == 0 or match.string[: match.start()].endswith(". ")
            tail, verb = match.group("tail"), match.group("verb")
            if tail == "'s":
                return "Your" if start else "your"
            word = "You" if start else "you"
            if verb is None:
                return word
            return f"{word}{tail[: len(tail) - len(verb)]}{_YOU_VERBS.get(verb, verb)}"

        if template.startswith(mention(you)):  # "them" in the sentence is the subject
            template = template.replace(" facing them", " facing you")
        template = re.sub(_YOU_MENTION.format(index=you), second_person, template)
    if names is None:
        return MENTION.sub(lambda m: player_name(int(m.group(1))), template)
    return MENTION.sub(lambda m: names[int(m.group(1))], template)


@dataclass(frozen=True)
class FunEvent:
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
    template : str
        The text with every player marked (:func:`mention`), or ``""`` when
        the text names no player.

    Examples
    --------
    >>> FunEvent("money", "the bank pays P1 2 M$", player=0, amount=2).amount
    2
    """

    kind: str
    text: str
    player: int | None = None
    amount: int = 0
    card: int | None = None
    template: str = ""

    @classmethod
    def said(
        cls,
        kind: str,
        template: str,
        player: int | None = None,
        amount: int = 0,
        card: int | None = None,
    ) -> FunEvent:
        """An event from a template that marks players with :func:`mention`."""
        marked = template if MENTION.search(template) else ""
        return cls(kind, tell(template), player, amount, card, marked)

    def told(self, names: Sequence[str] | None = None, you: int | None = None) -> str:
        """The text with players named by ``names`` (seat order), as the table names them;
        the player ``you`` is told in the second person (:func:`tell`).

        Examples
        --------
        >>> e = FunEvent.said("sale", f"{mention(0)} buys V12 (engine 6) for 4 M$", 0)
        >>> e.text, e.told(["Ada", "Bea"])
        ('P1 buys V12 (engine 6) for 4 M$', 'Ada buys V12 (engine 6) for 4 M$')
        """
        if not self.template or (names is None and you is None):
            return self.text
        return tell(self.template, names, you)

    def __str__(self) -> str:
        return self.text
