"""A bot that picks uniformly among the legal, non-eliminating choices."""

from __future__ import annotations

import random
import secrets

from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.view import RaceView


class RandomBot:
    """Random legal play, seeded; never eliminates itself unless forced (D-2).

    Every choice is drawn from a generator seeded by the bot's seed and the
    position it decides in (the race state, the car, what it decides), never
    from what the bot chose before. So one seed gives one choice in one
    position: a race with random bots replays from its seed and actions, a
    saved game loaded later plays on as it would have, and an undone turn
    played again the same way gets the same answers.

    Parameters
    ----------
    seed : int, optional
        Seed of the bot's own choices (the dice have theirs). ``None`` draws
        one now and keeps it in :attr:`seed` (and the bot's ``repr``), so a
        race played with it still replays.

    Examples
    --------
    >>> from fdlab.rules.simulate import simulate
    >>> track = from_ascii('''
    ...     . . . 1 1 . . . . . . . .
    ...     . . . 1 1 . . . . . . . .
    ... ''', corners={1: 1}, closed=True, grid=[24, 25])
    >>> result = simulate(track, [RandomBot(1), RandomBot(2)], "basic", seed=3)
    >>> sorted(result.ranking)
    ['Blue', 'Red']
    >>> again = simulate(track, [RandomBot(1), RandomBot(2)], "basic", seed=3)
    >>> again.ranking == result.ranking and again.rounds == result.rounds
    True
    """

    def __init__(self, seed: int | None = 0) -> None:
        #: The seed of the bot's choices (drawn when ``None`` was given).
        self.seed: int = secrets.randbits(32) if seed is None else seed

    def rng(self, view: RaceView, decision: str) -> random.Random:
        """The generator of one decision (``"gear"``, ``"move"``, ``"nitro"``) in ``view``.

        Seeded by a text (hashed the same in every process) naming the seed,
        the car and the whole race state.

        Examples
        --------
        >>> from fdlab.rules import Race
        >>> view = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=1, seed=1).view()
        >>> bot = RandomBot(7)
        >>> bot.rng(view, "move").random() == RandomBot(7).rng(view, "move").random()
        True
        """
        return random.Random(f"{self.seed}|{view.car_index}|{decision}|{view.state!r}")

    def choose_gear(self, view: RaceView) -> int:
        """A random legal gear whose downshift does not eliminate the car."""
        gears = view.legal_gears()
        safe = [g for g in gears if not view.gear_eliminates(g)] or gears
        return self.rng(view, "gear").choice(safe)

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """A random legal move that does not eliminate the car."""
        safe = [o for o, cost in moves if not cost.eliminated] or [o for o, _ in moves]
        return self.rng(view, "move").choice(safe)

    def use_nitro(self, view: RaceView) -> bool:
        """Heads or tails."""
        return self.rng(view, "nitro").random() < 0.5

    def __repr__(self) -> str:
        return f"RandomBot({self.seed!r})"
