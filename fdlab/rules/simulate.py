"""Fast whole races between policies: :func:`simulate` and :class:`RaceResult`.

No history and no undo, just the engine's step function on one shared
:class:`~fdlab.rules.board.Board`, so a playtest can run many races.
Races are driven by the one race loop, :func:`fdlab.rules.loop.iter_race`,
which says what a policy is.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from fdlab.rules.actions import Action
from fdlab.rules.board import Board, compile_board
from fdlab.rules.collector import fewer_collections
from fdlab.rules.dice import DiceSource, make_dice
from fdlab.rules.engine import CAR_NAMES, Engine
from fdlab.rules.errors import RuleError
from fdlab.rules.events import Event
from fdlab.rules.loop import iter_race
from fdlab.rules.policy import Policy
from fdlab.rules.presets import Preset, get_preset
from fdlab.rules.state import RaceState
from fdlab.track.model import Track


@dataclass(frozen=True)
class RaceResult:
    """The outcome of one simulated race.

    Attributes
    ----------
    names : tuple of str
    finished : tuple of int
        Car indices in finishing order (S-4).
    eliminated : tuple of int
        Car indices in order of elimination.
    rounds : int
    events : list of Event
    actions : list of Action
    state : RaceState
        The final state.
    seed : int or None
    """

    names: tuple[str, ...]
    finished: tuple[int, ...]
    eliminated: tuple[int, ...]
    rounds: int
    events: list[Event]
    actions: list[Action]
    state: RaceState
    seed: int | None

    @property
    def winner(self) -> str | None:
        """Name of the first car across the line, ``None`` if every car was eliminated."""
        return self.names[self.finished[0]] if self.finished else None

    @property
    def ranking(self) -> list[str]:
        """Finishers in order, then eliminated cars (last eliminated first)."""
        return [self.names[c] for c in self.finished] + [
            self.names[c] for c in reversed(self.eliminated)
        ]

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import race_result_html

        return race_result_html(self)

    def __repr__(self) -> str:
        return (
            f"<RaceResult: {self.rounds} rounds, finished {[self.names[c] for c in self.finished]}, "
            f"eliminated {[self.names[c] for c in self.eliminated]}>"
        )


def simulate(
    track: Track | Board,
    bots: Sequence[Policy],
    preset: str | Preset = "basic",
    seed: int | None = 0,
    *,
    dice: DiceSource | None = None,
    laps: int | None = None,
    names: Sequence[str] | None = None,
    max_rounds: int | None = None,
) -> RaceResult:
    """Play one whole race between policies (one per car) and return the result.

    Parameters
    ----------
    track : Track or Board
        Pass a compiled Board to share it between many races.
    bots : sequence of Policy
        One per car, car 1 first (see :mod:`fdlab.bots`).
    preset : str or Preset
    seed : int, optional
        Dice seed (default 0); bots carry their own seeds. ``None`` draws a
        fresh seed, kept in ``result.seed`` as :class:`~fdlab.rules.race.Race`
        keeps it, so the race still replays.
    dice : DiceSource, optional
        Injected dice instead of the seed.
    laps : int, optional
    names : sequence of str, optional
    max_rounds : int, optional
        Hard cap (raises :class:`~fdlab.rules.errors.RaceStuckError`).

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> from fdlab.track.examples import two_corner_ring
    >>> track = two_corner_ring(stops=(1, 1))
    >>> result = simulate(track, [HeuristicBot(), HeuristicBot()], "basic", seed=4)
    >>> len(result.ranking)
    2
    """
    board = track if isinstance(track, Board) else compile_board(track)
    preset = get_preset(preset, laps)
    names = tuple(names) if names is not None else CAR_NAMES[: len(bots)]
    if len(names) != len(bots):
        raise RuleError(f"{len(bots)} bots for {len(names)} car names")
    engine = Engine(board, preset, names, max_rounds=max_rounds)
    if any(bot is None for bot in bots):
        raise RuleError("simulate plays bots only: every car needs a policy, not None")
    if seed is None and dice is None:
        seed = secrets.randbelow(2**32)
    state = engine.initial_state()
    events: list[Event] = []
    actions: list[Action] = []
    with fewer_collections():
        for step in iter_race(engine, bots, make_dice(seed, dice), state):
            events.extend(step.events)
            actions.append(step.action)
            state = step.state
    return RaceResult(
        names=names,
        finished=state.finished,
        eliminated=state.eliminated,
        rounds=state.round,
        events=events,
        actions=actions,
        state=state,
        seed=seed,
    )
