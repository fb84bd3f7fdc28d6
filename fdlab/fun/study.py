"""Many bot championships at once, summarised per player: who wins and why.

Used by the notebook's Monte Carlo cell and by the benchmark. Plain Python:
rows are dicts, ready for ``pandas.DataFrame(rows)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fdlab.fun.bots import Bot
from fdlab.fun.deck import Deck
from fdlab.fun.game import play_championship
from fdlab.fun.opponents import BOTS
from fdlab.fun.state import FunRules, GameState

__all__ = ["BOT_KINDS", "championship_rows", "run_championships"]

#: Bot factories by name (:data:`fdlab.fun.opponents.BOTS`): ``BOT_KINDS["manager"](seed)``.
BOT_KINDS: dict[str, Callable[[int], Bot]] = BOTS


def championship_rows(final: GameState, kinds: Sequence[str], game: int) -> list[dict[str, Any]]:
    """Summarise a finished championship: one row per player.

    Columns: ``game``, ``seat``, ``bot``, ``seat_after_first`` (0 = played
    first), ``points``, ``won`` (1, or a share on a tie), ``race_wins``,
    ``cars`` (cars started over the championship), ``mean_car_value`` (mean
    value of its cars on the grid, 0 if it never raced), ``money`` (at the
    end), ``races`` and ``ended``.

    Examples
    --------
    >>> from fdlab.fun.bots import SensibleBot
    >>> final = play_championship([SensibleBot(1), SensibleBot(2)], seed=3)
    >>> rows = championship_rows(final, ["sensible", "sensible"], game=0)
    >>> sum(r["won"] for r in rows)
    1.0
    """
    winners = final.winners()
    rows = []
    n = final.n_players
    for seat, player in enumerate(final.players):
        cars = [c for race in final.races for c in race.cars if c.player == seat]
        rows.append(
            {
                "game": game,
                "seat": seat,
                "bot": kinds[seat],
                "seat_after_first": (seat - final.first_player) % n,
                "points": player.points,
                "won": (1.0 / len(winners)) if seat in winners else 0.0,
                "race_wins": sum(1 for race in final.races if race.cars[0].player == seat),
                "cars": len(cars),
                "mean_car_value": sum(c.value for c in cars) / len(cars) if cars else 0.0,
                "money": player.money,
                "races": len(final.races),
                "ended": final.ended,
            }
        )
    return rows


def run_championships(
    count: int,
    lineup: Sequence[str] = ("manager", "simple", "sensible", "random"),
    seed: int = 0,
    rotate: bool = True,
    deck: Deck | None = None,
    rules: FunRules | None = None,
) -> list[dict[str, Any]]:
    """Play ``count`` bot championships and return one row per player per game.

    Parameters
    ----------
    count : int
        Number of championships.
    lineup : sequence of str
        Bot kinds (keys of :data:`BOT_KINDS`), one per player.
    seed : int
        Game ``g`` uses seed ``seed + g``; bots are seeded from it too.
    rotate : bool
        Rotate the line-up by one seat each game, so no bot keeps a seat.
    deck, rules : optional
        As for :func:`fdlab.fun.engine.new_game`.

    Returns
    -------
    list of dict
        See :func:`championship_rows`.

    Examples
    --------
    >>> rows = run_championships(4, ["manager", "sensible"])
    >>> len(rows), sorted({r["bot"] for r in rows})
    (8, ['manager', 'sensible'])
    """
    rows: list[dict[str, Any]] = []
    n = len(lineup)
    for game in range(count):
        shift = game % n if rotate else 0
        kinds = [lineup[(seat + shift) % n] for seat in range(n)]
        game_seed = seed + game
        bots = [BOT_KINDS[k](game_seed * 10 + seat) for seat, k in enumerate(kinds)]
        final = play_championship(bots, seed=game_seed, deck=deck, rules=rules)
        rows.extend(championship_rows(final, kinds, game))
    return rows
