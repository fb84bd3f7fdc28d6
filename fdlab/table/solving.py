"""Bots made in the background: a seat whose board must be solved first never blocks.

A ``par`` (or ``solo``) bot needs its board solved: about two seconds on
Monaco, more on a busy machine. Picking one at the table must not freeze the
notebook, so :func:`bot_in_background` hands the solve to one worker thread
and returns a :class:`PendingBot` at once. The race goes on meanwhile (people
play their turns); the bot's first decision waits only for what is left of
the solve. The solve is the same whether it ran here or in the foreground, so
a race replays exactly from its seed and actions either way.

One worker, so two seats on one board share its solve (the second finds the
first's table in the cache) instead of fighting for the processor.

Examples
--------
>>> board = compile_board(from_ascii(". . . . . . . . .", grid=[0], finish=4))
>>> bot = bot_in_background("par", board=board, preset=BASIC, seed=1)
>>> bot.wait()
ParBot(style=0.5, par=1.917)
>>> bot.ready
True
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the bots load when a bot is made, not when the table is
    from fdlab.rules.board import Board
    from fdlab.rules.costs import MoveCost
    from fdlab.rules.movement import MoveOption
    from fdlab.rules.policy import Policy
    from fdlab.rules.presets import Preset
    from fdlab.rules.view import RaceView

__all__ = ["PendingBot", "bot_in_background"]

_SOLVER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fdlab-solve")


class PendingBot:
    """A bot being made in the background; it plays as that bot once ready.

    Each decision a race asks of a policy (``choose_gear``, ``choose_move``,
    ``use_nitro``) waits for the bot, then is the bot's own.

    Parameters
    ----------
    spec : str
        The bot's name, as :func:`fdlab.bots.roster.make_bot` takes it.
    future : concurrent.futures.Future
        The bot, when made.

    Examples
    --------
    >>> from concurrent.futures import Future
    >>> future: Future = Future()
    >>> bot = PendingBot("par", future)
    >>> bot.ready, bot.seconds_waited() >= 0
    (False, True)
    >>> future.set_result("the bot")
    >>> bot.wait(), bot.ready
    ('the bot', True)
    """

    def __init__(self, spec: str, future: Future[Policy]) -> None:
        self.spec = spec
        self.future = future
        self._started = time.monotonic()

    @property
    def ready(self) -> bool:
        """The bot is made (or its making failed: :meth:`wait` raises the error)."""
        return self.future.done()

    def seconds_waited(self) -> float:
        """Seconds since the solve was asked for."""
        return time.monotonic() - self._started

    def wait(self, timeout: float | None = None) -> Policy:
        """The bot, once made (blocks for what is left of the solve)."""
        return self.future.result(timeout)

    # The race asks for these by name when it starts playing (before any decision),
    # so they are methods here: only calling one waits for the bot.
    def choose_gear(self, view: RaceView) -> int:
        """The bot's gear (waits for the bot first)."""
        return self.wait().choose_gear(view)

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """The bot's move (waits for the bot first)."""
        return self.wait().choose_move(view, moves)

    def use_nitro(self, view: RaceView) -> bool:
        """Whether the bot takes nitro (X-1; waits for the bot first)."""
        decide = getattr(self.wait(), "use_nitro", None)
        return decide is not None and bool(decide(view))

    def __repr__(self) -> str:
        state = "ready" if self.ready else "solving"
        return f"<PendingBot {self.spec!r} {state}>"


def bot_in_background(
    spec: str, *, board: Board, preset: Preset, seed: int, slot: int = 1
) -> PendingBot:
    """Make the bot ``spec`` in the worker thread; returns at once.

    Parameters are those of :func:`fdlab.bots.roster.make_bot`; check the
    name first with :func:`fdlab.bots.roster.needs_solve`, which raises the
    errors ``make_bot`` would, so a wrong name is said at once.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . . .", grid=[0], finish=3))
    >>> bot_in_background("par:cautious", board=board, preset=BASIC, seed=1).wait()
    ParBot(style=0.0, par=1.850)
    """
    from fdlab.bots.roster import make_bot

    future = _SOLVER.submit(make_bot, spec, board=board, preset=preset, seed=seed, slot=slot)
    return PendingBot(spec, future)
