"""Dice as chance outcomes with exact probabilities, and the sources that roll them.

A :class:`Die` is a tuple of faces (G-1: the gear dice, the black d20).
:meth:`Die.chance_outcomes` lists each distinct value with its exact
probability as a :class:`fractions.Fraction`, like OpenSpiel and pgx chance
nodes, so a lesson can say "38% to stop in this corner".

A race never calls :mod:`random` directly: it asks a *dice source* for each
roll. :class:`SeededDice` rolls from a seed; :class:`LoadedDice` returns
values a test or a lesson chose in advance. Both can be snapshotted and
restored, which is how ``Race.undo`` rewinds the dice with the position.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from fdlab.rules.errors import DiceError


@dataclass(frozen=True)
class Die:
    """A die: a name and its faces (repeated faces make a value more likely).

    Examples
    --------
    >>> die = Die("gear 2", (2, 3, 3, 4, 4, 4))
    >>> die.chance_outcomes()
    [(2, Fraction(1, 6)), (3, Fraction(1, 3)), (4, Fraction(1, 2))]
    >>> die.probability(lambda value: value >= 3)
    Fraction(5, 6)
    """

    name: str
    faces: tuple[int, ...]
    _outcomes: tuple[tuple[int, Fraction], ...] = field(
        init=False, repr=False, compare=False, default=()
    )
    _floats: tuple[tuple[int, float], ...] = field(
        init=False, repr=False, compare=False, default=()
    )

    def __post_init__(self) -> None:
        if not self.faces:
            raise DiceError(f"die {self.name!r} has no faces")
        counts = Counter(self.faces)
        total = len(self.faces)
        outcomes = tuple((value, Fraction(n, total)) for value, n in sorted(counts.items()))
        object.__setattr__(self, "_outcomes", outcomes)
        object.__setattr__(self, "_floats", tuple((v, float(p)) for v, p in outcomes))

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """Distinct values with their exact probabilities, smallest value first."""
        return list(self._outcomes)

    def float_outcomes(self) -> tuple[tuple[int, float], ...]:
        """:meth:`chance_outcomes` with float probabilities, for fast estimates (bots).

        Examples
        --------
        >>> Die("coin", (1, 2)).float_outcomes()
        ((1, 0.5), (2, 0.5))
        """
        return self._floats

    def probability(self, predicate: Any) -> Fraction:
        """Exact probability that a roll satisfies ``predicate(value)``."""
        return sum((p for value, p in self.chance_outcomes() if predicate(value)), Fraction(0))

    @property
    def low(self) -> int:
        """The smallest face."""
        return min(self.faces)

    @property
    def high(self) -> int:
        """The largest face."""
        return max(self.faces)

    def __repr__(self) -> str:
        return f"Die({self.name!r}, {self.low}-{self.high})"


class DiceSource(Protocol):
    """Anything that rolls dice for a race."""

    def roll(self, die: Die) -> int:
        """One roll of ``die``: one of its faces."""

    def snapshot(self) -> Any:
        """An opaque value that :meth:`restore` accepts to rewind the source."""

    def restore(self, snapshot: Any) -> None:
        """Rewind to a :meth:`snapshot`."""


class SeededDice:
    """Fair dice from a seeded :class:`random.Random` (same seed, same rolls).

    Examples
    --------
    >>> die = Die("gear 1", (1, 1, 2, 2))
    >>> a, b = SeededDice(7), SeededDice(7)
    >>> [a.roll(die) for _ in range(5)] == [b.roll(die) for _ in range(5)]
    True
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, die: Die) -> int:
        """A fair roll: each face equally likely."""
        faces = die.faces
        return faces[int(self._rng.random() * len(faces))]

    def snapshot(self) -> Any:
        """The generator's state."""
        return self._rng.getstate()

    def restore(self, snapshot: Any) -> None:
        """Rewind the generator."""
        self._rng.setstate(snapshot)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class LoadedDice:
    """Dice that give chosen values in order, for tests and lessons.

    Each value must be a face of the die it is rolled for, so a mistake in a
    lesson shows at once.

    Examples
    --------
    >>> dice = LoadedDice([20, 3])
    >>> black = Die("black", tuple(range(1, 21)))
    >>> dice.roll(black), dice.roll(Die("gear 2", (2, 3, 3, 4, 4, 4)))
    (20, 3)
    >>> dice.remaining
    0
    """

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.position = 0

    @property
    def remaining(self) -> int:
        """How many values are left."""
        return len(self.values) - self.position

    def roll(self, die: Die) -> int:
        """The next loaded value.

        Raises
        ------
        DiceError
            When no value is left, or the value is not a face of ``die``.
        """
        if self.position >= len(self.values):
            raise DiceError(
                f"the loaded dice ran out after {len(self.values)} rolls; "
                f"the race needed one more roll of the {die.name} die"
            )
        value = self.values[self.position]
        if value not in die.faces:
            raise DiceError(
                f"loaded roll #{self.position + 1} is {value}, which is not a face of the "
                f"{die.name} die ({die.low}-{die.high})"
            )
        self.position += 1
        return value

    def snapshot(self) -> Any:
        """The position in the list of values."""
        return self.position

    def restore(self, snapshot: Any) -> None:
        """Rewind to a position."""
        self.position = snapshot

    def __repr__(self) -> str:
        return f"LoadedDice({self.values[self.position :]!r})"


def make_dice(seed: int | None = None, dice: DiceSource | None = None) -> DiceSource:
    """The dice source of a race: ``dice`` when given, else seeded dice.

    Examples
    --------
    >>> make_dice(seed=3)
    SeededDice(3)
    """
    if dice is not None:
        return dice
    return SeededDice(seed)
