"""Formula Fun card types and the declarative effect vocabulary.

A deck designer writes card effects as small JSON objects; this module holds
their typed form and the text the UI shows. The engine interprets them.

Driver clauses (FF-7), active while the driver is in play::

    {"on": "race", "money": 1}    # the driver brings 1 M$ after every race
    {"on": "race", "money": -1}   # the owner pays 1 M$ after every race
    {"on": "win", "money": -3}    # the owner pays 3 M$ after each race the driver wins

A negative amount is paid only if the owner has enough money (the seed: "if
one has enough money"); otherwise nothing is paid.

Circuit modifiers (FF-10), added to a car's value::

    {"add": 2, "if": {"driver": [5, 6]}}   # +2 to cars with a driver of 5 or 6
    {"double": "engine"}                     # the engine counts twice
    {"add": 1, "if": {"cars": 1}}            # +1 to teams racing a single car

Conditions are a mapping of ``driver`` / ``engine`` / ``chassis`` to the
values that qualify, and ``cars`` to the number of cars the team races; all
must hold.

Special card effects (FF-9, FF-15)::

    {"op": "discard_in_play", "kinds": ["engine"], "whose": "others"}
    {"op": "money", "who": "self", "amount": 3}      # bank pays you 3 M$
    {"op": "money", "who": "others", "amount": -2}   # every rival pays the bank 2 M$
    {"op": "draw", "count": 2}
    {"op": "extend", "races": 1}                     # one more race, at most eight
    {"op": "replace_sponsor"}                        # swap a sponsor in play for one in hand
    {"op": "clear_market"}                           # discard every market card

``whose`` is ``any``, ``own`` or ``others``; ``who`` is ``self``, ``others``
or ``all``. Money only ever moves between a player and the bank (FF-16).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CAR_PARTS",
    "KINDS",
    "TARGET_OPS",
    "Card",
    "Clause",
    "Condition",
    "Effect",
    "Modifier",
]

#: A card kind (:data:`KINDS`).
Kind = Literal["driver", "engine", "chassis", "sponsor", "special", "circuit"]
#: Every card kind, in display order.
KINDS: tuple[Kind, ...] = ("driver", "engine", "chassis", "sponsor", "special", "circuit")
#: Kinds that are bought at auction and build a car (FF-3).
CAR_PARTS: tuple[Kind, ...] = ("driver", "engine", "chassis")
#: Special-card operations that need a target card chosen by the player.
TARGET_OPS: frozenset[str] = frozenset({"discard_in_play", "replace_sponsor"})


@dataclass(frozen=True)
class Clause:
    """A driver clause (FF-7): money after every race, or after every race won.

    Parameters
    ----------
    on : {"race", "win"}
        When the clause triggers.
    money : int
        Positive: the bank pays the owner. Negative: the owner pays the bank,
        only if they have enough money.

    Examples
    --------
    >>> Clause("win", -3).text
    'the owner pays the bank 3 M$ after each race this driver wins'
    >>> Clause("race", 2).text
    'the bank pays the owner 2 M$ after every race'
    """

    on: Literal["race", "win"]
    money: int

    @property
    def text(self) -> str:
        """Human-readable text of the clause."""
        when = "after each race this driver wins" if self.on == "win" else "after every race"
        if self.money >= 0:
            return f"the bank pays the owner {self.money} M$ {when}"
        return f"the owner pays the bank {-self.money} M$ {when}"


@dataclass(frozen=True)
class Condition:
    """Which cars a circuit modifier applies to; an empty condition matches all.

    Parameters
    ----------
    driver, engine, chassis : tuple of int or None
        Card values that qualify, or None for any.
    cars : int or None
        Number of cars the team races (1 or 2), or None for any.

    Examples
    --------
    >>> Condition(driver=(5, 6)).matches(driver=5, engine=1, chassis=1, cars=2)
    True
    """

    driver: tuple[int, ...] | None = None
    engine: tuple[int, ...] | None = None
    chassis: tuple[int, ...] | None = None
    cars: int | None = None

    def matches(self, *, driver: int, engine: int, chassis: int, cars: int) -> bool:
        """Return whether a car with these part values qualifies."""
        return (
            (self.driver is None or driver in self.driver)
            and (self.engine is None or engine in self.engine)
            and (self.chassis is None or chassis in self.chassis)
            and (self.cars is None or cars == self.cars)
        )

    @property
    def text(self) -> str:
        """Human-readable text of the condition."""
        parts = []
        for name in ("driver", "engine", "chassis"):
            values = getattr(self, name)
            if values is not None:
                article = "an" if name == "engine" else "a"
                listed = [str(v) for v in values]
                spoken = (
                    listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} or {listed[-1]}"
                )
                parts.append(f"{article} {name} of {spoken}")
        if self.cars is not None:
            parts.append(f"{self.cars} car{'s' if self.cars != 1 else ''} in the team")
        return " and ".join(parts)


@dataclass(frozen=True)
class Modifier:
    """A circuit card modifier to a car's value (FF-10).

    Parameters
    ----------
    add : int
        Amount added to the value of qualifying cars.
    double : str or None
        A part (``driver``, ``engine``, ``chassis``) whose value counts twice.
    when : Condition
        Which cars qualify.

    Examples
    --------
    >>> m = Modifier(add=2, when=Condition(driver=(5, 6)))
    >>> m.bonus(driver=5, engine=4, chassis=4, cars=1)
    2
    >>> m.text
    '+2 to cars with a driver of 5 or 6'
    """

    add: int = 0
    double: str | None = None
    when: Condition = Condition()

    def bonus(self, *, driver: int, engine: int, chassis: int, cars: int) -> int:
        """Return what this modifier adds to a car with these part values."""
        if not self.when.matches(driver=driver, engine=engine, chassis=chassis, cars=cars):
            return 0
        extra = self.add
        if self.double is not None:
            extra += {"driver": driver, "engine": engine, "chassis": chassis}[self.double]
        return extra

    @property
    def text(self) -> str:
        """Human-readable text of the modifier."""
        pieces = []
        if self.double is not None:
            pieces.append(f"the {self.double} counts double")
        if self.add:
            pieces.append(f"{self.add:+d}")
        head = " and ".join(pieces) or "+0"
        cond = self.when.text
        if self.double is not None:
            return f"{head} for cars with {cond}" if cond else head
        return f"{head} to cars with {cond}" if cond else f"{head} to every car"


@dataclass(frozen=True)
class Effect:
    """One operation of a special card (FF-9).

    Parameters
    ----------
    op : str
        ``discard_in_play``, ``money``, ``draw``, ``extend``,
        ``replace_sponsor`` or ``clear_market``.
    kinds : tuple of str
        For ``discard_in_play``: the kinds of card in play it may remove
        (of :data:`KINDS`).
    whose : {"any", "own", "others"}
        For ``discard_in_play``: whose card in play it may remove.
    who : {"self", "others", "all"}
        For ``money``: who the bank pays (or who pays the bank).
    amount : int
        For ``money``: M$ the bank pays (negative: paid to the bank).
    count : int
        For ``draw``: cards drawn; for ``extend``: races added.

    Examples
    --------
    >>> Effect("money", who="others", amount=-2).text
    'every rival pays the bank 2 M$'
    """

    op: str
    kinds: tuple[Kind, ...] = ()
    whose: Literal["any", "own", "others"] = "any"
    who: Literal["self", "others", "all"] = "self"
    amount: int = 0
    count: int = 0

    @property
    def needs_target(self) -> bool:
        """Whether playing this effect needs a target card."""
        return self.op in TARGET_OPS

    @property
    def text(self) -> str:
        """Human-readable text of the effect."""
        if self.op == "discard_in_play":
            owner = {"any": "any player's", "own": "your own", "others": "a rival's"}[self.whose]
            return f"discard {owner} {' or '.join(self.kinds)} in play"
        if self.op == "money":
            subject = {"self": "you", "others": "every rival", "all": "every player"}[self.who]
            if self.amount >= 0:
                return f"the bank pays {subject} {self.amount} M$"
            verb = "pay" if self.who == "self" else "pays"
            return f"{subject} {verb} the bank {-self.amount} M$"
        if self.op == "draw":
            return f"draw {self.count} card{'s' if self.count != 1 else ''}"
        if self.op == "extend":
            return f"the championship lasts {self.count} more race{'s' if self.count != 1 else ''} (at most 8)"
        if self.op == "replace_sponsor":
            return "replace one of your sponsors in play with a sponsor from your hand"
        return "discard every card on the market"


@dataclass(frozen=True)
class Card:
    """One physical card of a deck; ``id`` is its index in the deck.

    Parameters
    ----------
    id : int
        Index of the card in its :class:`~fdlab.fun.deck.Deck`.
    kind : {"driver", "engine", "chassis", "sponsor", "special", "circuit"}
        The kind of card (:data:`KINDS`).
    name : str
        Display name.
    value : int
        Strength 1-6 of a driver, engine or chassis; 0 otherwise.
    income : int
        M$ a sponsor pays when played and after every race; 0 otherwise.
    clauses : tuple of Clause
        Driver clauses (FF-7).
    modifiers : tuple of Modifier
        Circuit modifiers (FF-10).
    effects : tuple of Effect
        Special card effects (FF-9).

    Examples
    --------
    >>> Card(0, "engine", "V8", value=5).label
    'V8 (engine 5)'
    """

    id: int
    kind: Kind
    name: str
    value: int = 0
    income: int = 0
    clauses: tuple[Clause, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def is_part(self) -> bool:
        """Whether the card is a driver, engine or chassis (FF-3)."""
        return self.kind in CAR_PARTS

    @property
    def label(self) -> str:
        """Short label: name plus kind and number."""
        if self.is_part:
            return f"{self.name} ({self.kind} {self.value})"
        if self.kind == "sponsor":
            return f"{self.name} (sponsor {self.income} M$)"
        return f"{self.name} ({self.kind})"

    @property
    def text(self) -> str:
        """The card's rules text (clauses, modifiers or effects)."""
        if self.kind == "driver":
            return "; ".join(c.text for c in self.clauses)
        if self.kind == "sponsor":
            return f"pays {self.income} M$ when played and after every race"
        if self.kind == "circuit":
            return "; ".join(m.text for m in self.modifiers) or "no modifier"
        if self.kind == "special":
            return "; ".join(e.text for e in self.effects)
        return ""
