"""What the teams in play are worth in the races to come: expected points per race.

Bots use this to value a card by what it adds to a team. A race is run on
one circuit card (FF-10); over the coming races a team meets every circuit,
so its outlook is its mean result over the deck's distinct circuit cards.
Ties go to the player with more cards in hand (FF-11); a tie that lots would
settle counts as the mean of the places shared.

A team that cannot race yet still has prospects: its missing parts are
counted at the lowest value, 1, and its points are scaled down by how far
it is from a complete team (:data:`PROSPECTS`), so a part that brings a team
nearer to racing is worth something before the team is complete.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from fdlab.championship import points_for
from fdlab.fun.cards import Card, Modifier
from fdlab.fun.deck import Deck
from fdlab.fun.race import car_value
from fdlab.fun.state import PlayerState

__all__ = [
    "PROSPECTS",
    "TeamValues",
    "distinct_circuits",
    "expected_points",
    "outlook_by_values",
    "race_outlook",
    "team_values",
]

#: A team as its race outlook sees it: engine value, chassis value (None when
#: missing) and the values of its drivers, in ascending order.
TeamValues = tuple[int | None, int | None, tuple[int, ...]]

#: Share of its points a team is expected to score, by the number of its
#: three slots (engine, chassis, a driver) that are filled.
PROSPECTS: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0)

#: Stand-ins for a team's empty slots: parts at the lowest value, 1 (only values count).
_NO_ENGINE = Card(-1, "engine", "missing engine", value=1)
_NO_CHASSIS = Card(-1, "chassis", "missing chassis", value=1)
_NO_DRIVER = Card(-1, "driver", "missing driver", value=1)


def distinct_circuits(deck: Deck) -> tuple[Card, ...]:
    """The deck's circuit cards, one per distinct set of modifiers.

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> len(distinct_circuits(default_deck()))
    6
    """
    seen: dict[tuple[Modifier, ...], Card] = {}
    for card in deck.of_kind("circuit"):
        seen.setdefault(card.modifiers, card)
    return tuple(seen.values())


def _cars(
    deck: Deck, players: Sequence[PlayerState], circuit: Card, prospects: bool
) -> list[tuple[int, int, float]]:
    """``(player, value, weight)`` of every car on the grid of ``circuit``."""
    cars = []
    for index, p in enumerate(players):
        if not p.complete and not prospects:
            continue
        engine = deck[p.engine] if p.engine is not None else _NO_ENGINE
        chassis = deck[p.chassis] if p.chassis is not None else _NO_CHASSIS
        drivers = [deck[d] for d in p.drivers] or [_NO_DRIVER]
        filled = (p.engine is not None) + (p.chassis is not None) + bool(p.drivers)
        weight = PROSPECTS[filled]
        for driver in drivers:
            value = car_value(circuit, driver, engine, chassis, len(drivers))
            cars.append((index, value, weight))
    return cars


def expected_points(
    deck: Deck,
    players: Sequence[PlayerState],
    circuit: Card,
    hand_sizes: Sequence[int],
    prospects: bool = False,
) -> list[float]:
    """Points each player expects from a race on ``circuit`` with the teams as they are.

    Parameters
    ----------
    deck : Deck
    players : sequence of PlayerState
    circuit : Card
        The circuit card raced.
    hand_sizes : sequence of int
        Cards in hand per player when the race is run (ties, FF-11).
    prospects : bool
        Count incomplete teams too, as described in the module notes (for
        valuations); False gives the race as the rules would run it.

    Returns
    -------
    list of float
        One entry per player; a tie settled by lots counts as the mean of
        the places shared.

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> deck = default_deck()
    >>> monza = next(c for c in deck.cards if c.name == "Monza")
    >>> strong = PlayerState(money=0, drivers=(0,), engine=25, chassis=37)  # 6 + 6 + 6
    >>> weak = PlayerState(money=0, drivers=(13,), engine=14, chassis=26)  # 1 + 1 + 1
    >>> expected_points(deck, [strong, weak], monza, [5, 5])
    [3.0, 1.0]
    >>> expected_points(deck, [strong, PlayerState(money=0)], monza, [5, 5], prospects=True)
    [3.0, 0.1]
    """
    cars = _cars(deck, players, circuit, prospects)
    points = [0.0] * len(players)
    _ranked_points(cars, hand_sizes, points)
    return points


def _ranked_points(
    cars: list[tuple[int, int, float]], hand_sizes: Sequence[int], out: list[float]
) -> None:
    """Add to ``out`` the points of ``cars`` (``(player, value, weight)``), ties shared."""
    n = len(cars)
    if not n:
        return
    table = _points_table(n)
    # highest value first, then more cards in hand (FF-11)
    ordered = sorted(((value, hand_sizes[p], p, w) for p, value, w in cars), reverse=True)
    i = 0
    while i < n:
        value, hand = ordered[i][0], ordered[i][1]
        j = i + 1
        while j < n and ordered[j][0] == value and ordered[j][1] == hand:
            j += 1
        if j == i + 1:
            out[ordered[i][2]] += table[i] * ordered[i][3]
        else:
            share = sum(table[i:j]) / (j - i)
            for k in range(i, j):
                out[ordered[k][2]] += share * ordered[k][3]
        i = j


_POINTS: dict[int, list[int]] = {}


def _points_table(cars: int) -> list[int]:
    """Points by finishing place (index 0 = winner) in a race of ``cars`` cars (FF-12)."""
    table = _POINTS.get(cars)
    if table is None:
        table = _POINTS[cars] = [points_for(pos, cars) for pos in range(1, cars + 1)]
    return table


_TABLES: dict[int, tuple[Deck, tuple[Card, ...], list[dict[tuple[int, int, int, int], int]]]] = {}


def _tables(deck: Deck, circuits: Sequence[Card]) -> list[dict[tuple[int, int, int, int], int]]:
    """Car values by (driver, engine, chassis, cars) for each circuit, computed once."""
    key = id(deck)
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not deck or cached[1] != tuple(circuits):
        tables = []
        for circuit in circuits:
            table = {}
            for d in range(1, 7):
                for e in range(1, 7):
                    for c in range(1, 7):
                        for n in (1, 2):
                            driver = Card(-1, "driver", "driver", value=d)
                            engine = Card(-1, "engine", "engine", value=e)
                            chassis = Card(-1, "chassis", "chassis", value=c)
                            table[(d, e, c, n)] = car_value(circuit, driver, engine, chassis, n)
            tables.append(table)
        if len(_TABLES) > 16:
            _TABLES.clear()
        cached = _TABLES[key] = (deck, tuple(circuits), tables)
    return cached[2]


def race_outlook(
    deck: Deck,
    players: Sequence[PlayerState],
    hand_sizes: Sequence[int],
    circuits: Sequence[Card] | None = None,
) -> list[float]:
    """Mean points per race each player expects over ``circuits``, prospects counted.

    Parameters
    ----------
    deck : Deck
    players : sequence of PlayerState
    hand_sizes : sequence of int
    circuits : sequence of Card, optional
        The circuits to average over; :func:`distinct_circuits` by default.

    Returns
    -------
    list of float

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> deck = default_deck()
    >>> yuki = PlayerState(money=0, drivers=(4,), engine=23, chassis=35)  # 5 + 5 + 5
    >>> nico = PlayerState(money=0, drivers=(11,), engine=22, chassis=34)  # 2 + 5 + 5
    >>> [round(p, 2) for p in race_outlook(deck, [yuki, nico], [5, 5])]  # a tie in the rain
    [2.83, 1.17]
    """
    circuits = circuits if circuits is not None else distinct_circuits(deck)
    teams = []
    for index, p in enumerate(players):
        engine = deck[p.engine].value if p.engine is not None else 1
        chassis = deck[p.chassis].value if p.chassis is not None else 1
        drivers = [deck[d].value for d in p.drivers] or [1]
        filled = (p.engine is not None) + (p.chassis is not None) + bool(p.drivers)
        teams.append((index, engine, chassis, drivers, PROSPECTS[filled]))
    total = [0.0] * len(players)
    for table in _tables(deck, circuits):
        cars = [
            (index, table[(d, e, c, len(drivers))], weight)
            for index, e, c, drivers, weight in teams
            for d in drivers
        ]
        _ranked_points(cars, hand_sizes, total)
    count = len(circuits)
    return [t / count for t in total]


def team_values(deck: Deck, player: PlayerState) -> TeamValues:
    """The values of a player's parts in play (:data:`TeamValues`).

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> team_values(default_deck(), PlayerState(money=0, drivers=(11, 4), engine=22))
    (5, None, (2, 5))
    """
    return (
        None if player.engine is None else deck[player.engine].value,
        None if player.chassis is None else deck[player.chassis].value,
        tuple(sorted(deck[d].value for d in player.drivers)),
    )


def outlook_by_values(
    deck: Deck, teams: Sequence[TeamValues], circuits: Sequence[Card] | None = None
) -> list[float]:
    """:func:`race_outlook` of teams given by their part values, ties settled by lots.

    A quicker way to the same figures for bots that value many imagined
    teams: a car's points follow from how many cars are faster (``H``) and
    how many tie with it (``T``): ``n - H - T / 2`` of ``n`` cars, plus a
    share ``1 / (T + 1)`` of the winner's extra point when none is faster
    (FF-12).

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> deck = default_deck()
    >>> yuki = PlayerState(money=0, drivers=(4,), engine=23, chassis=35)
    >>> nico = PlayerState(money=0, drivers=(11,), engine=22)
    >>> teams = [yuki, nico]
    >>> fast = outlook_by_values(deck, [team_values(deck, p) for p in teams])
    >>> slow = race_outlook(deck, teams, [0, 0])
    >>> all(abs(a - b) < 1e-9 for a, b in zip(fast, slow))
    True
    """
    circuits = circuits if circuits is not None else distinct_circuits(deck)
    parts = []
    for engine, chassis, drivers in teams:
        filled = (engine is not None) + (chassis is not None) + bool(drivers)
        parts.append((engine or 1, chassis or 1, drivers or (1,), PROSPECTS[filled]))
    total = [0.0] * len(teams)
    for table in _tables(deck, circuits):
        cars = [
            (index, table[(d, e, c, len(drivers))], weight)
            for index, (e, c, drivers, weight) in enumerate(parts)
            for d in drivers
        ]
        values = sorted(value for _, value, _ in cars)
        n = len(values)
        for index, value, weight in cars:
            above = n - bisect_right(values, value)
            tied = bisect_right(values, value) - bisect_left(values, value) - 1
            points = n - above - tied / 2 + (1 / (tied + 1) if above == 0 else 0.0)
            total[index] += points * weight
    count = len(circuits)
    return [t / count for t in total]
