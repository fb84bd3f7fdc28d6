"""A bot that picks uniformly among the legal, non-eliminating choices."""

from __future__ import annotations

import random

from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.view import RaceView


class RandomBot:
    """Random legal play, seeded; never eliminates itself unless forced (D-2).

    Parameters
    ----------
    seed : int, optional
        Seed of the bot's own random generator (the dice have theirs).

    Examples
    --------
    >>> from fdlab.track import from_ascii
    >>> from fdlab.rules.simulate import simulate
    >>> track = from_ascii('''
    ...     . . . 1 1 . . . . . . . .
    ...     . . . 1 1 . . . . . . . .
    ... ''', corners={1: 1}, closed=True, grid=[24, 25])
    >>> result = simulate(track, [RandomBot(1), RandomBot(2)], "basic", seed=3)
    >>> sorted(result.ranking)
    ['Blue', 'Red']
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose_gear(self, view: RaceView) -> int:
        """A random legal gear whose downshift does not eliminate the car."""
        gears = view.legal_gears()
        safe = [g for g in gears if not view.gear_eliminates(g)] or gears
        return self.rng.choice(safe)

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """A random legal move that does not eliminate the car."""
        safe = [o for o, cost in moves if not cost.eliminated] or [o for o, _ in moves]
        return self.rng.choice(safe)

    def use_nitro(self, view: RaceView) -> bool:
        """Heads or tails."""
        return self.rng.random() < 0.5

    def __repr__(self) -> str:
        return f"RandomBot({self.seed!r})"
