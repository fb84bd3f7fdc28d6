"""Race resolution for Formula Fun (FF-10, FF-11, FF-12).

A pure function of the teams in play, the circuit card, the hand sizes and a
random source for drawing lots; the engine applies the result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from fdlab.championship import points_for
from fdlab.fun.cards import Card
from fdlab.fun.deck import Deck
from fdlab.fun.state import CarResult, PlayerState

__all__ = ["Car", "car_value", "classify", "entrants", "ties"]


@dataclass(frozen=True)
class Car:
    """A car on the grid: owner, driver card and value on this circuit."""

    player: int
    driver: int
    value: int


def car_value(circuit: Card, driver: Card, engine: Card, chassis: Card, cars: int) -> int:
    """Return a car's value: chassis + engine + driver plus the circuit's modifiers (FF-10).

    Parameters
    ----------
    circuit : Card
        The circuit card being raced.
    driver, engine, chassis : Card
        The car's parts.
    cars : int
        How many cars the owner races (1 or 2), for modifiers that depend on it.

    Returns
    -------
    int

    Examples
    --------
    The seed's example, on a circuit giving +2 to cars with a driver of 5 or 6:

    >>> from fdlab.fun.cards import Card, Condition, Modifier
    >>> track = Card(0, "circuit", "Silverstone",
    ...              modifiers=(Modifier(add=2, when=Condition(driver=(5, 6))),))
    >>> def part(kind, value):
    ...     return Card(1, kind, kind, value=value)
    >>> car_value(track, part("driver", 5), part("engine", 4), part("chassis", 4), cars=1)
    15
    """
    base = chassis.value + engine.value + driver.value
    bonus = sum(
        m.bonus(driver=driver.value, engine=engine.value, chassis=chassis.value, cars=cars)
        for m in circuit.modifiers
    )
    return base + bonus


def entrants(deck: Deck, players: Sequence[PlayerState], circuit: int) -> list[Car]:
    """Return every car that must race on ``circuit``: one per driver of each complete team.

    Examples
    --------
    >>> from fdlab.fun.deck import default_deck
    >>> from fdlab.fun.state import PlayerState
    >>> deck = default_deck()
    >>> monza = next(c.id for c in deck.cards if c.name == "Monza")
    >>> p = PlayerState(money=0, drivers=(0,), engine=25, chassis=37)
    >>> [(car.player, car.value) for car in entrants(deck, [p, PlayerState(money=0)], monza)]
    [(0, 20)]
    """
    track = deck[circuit]
    cars: list[Car] = []
    for index, player in enumerate(players):
        if player.engine is None or player.chassis is None or not player.drivers:
            continue  # not complete: no race (FF-10)
        engine, chassis = deck[player.engine], deck[player.chassis]
        for driver in player.drivers:
            value = car_value(track, deck[driver], engine, chassis, len(player.drivers))
            cars.append(Car(index, driver, value))
    return cars


def classify(
    cars: Sequence[Car], hand_sizes: Sequence[int], rng: random.Random
) -> tuple[tuple[CarResult, ...], bool]:
    """Return the finishing order with points, and whether lots were drawn.

    Higher value finishes ahead; on a tie the player with more cards in hand
    finishes ahead (FF-11); still tied, lots are drawn with ``rng``. Points
    come from :func:`fdlab.championship.points_for` (FF-12).

    Parameters
    ----------
    cars : sequence of Car
        The cars on the grid.
    hand_sizes : sequence of int
        Cards in hand per player at the moment of the race.
    rng : random.Random
        Source of the lots.

    Returns
    -------
    results : tuple of CarResult
        Winner first.
    lots : bool
        Whether a tie had to be settled by lots.

    Examples
    --------
    >>> import random
    >>> cars = [Car(0, 10, 15), Car(1, 11, 13), Car(1, 12, 12)]
    >>> results, lots = classify(cars, [3, 4], random.Random(0))
    >>> [(r.player, r.value, r.points) for r in results], lots
    ([(0, 15, 4), (1, 13, 2), (1, 12, 1)], False)
    """
    key = {id(c): (-c.value, -hand_sizes[c.player]) for c in cars}
    ordered = sorted(cars, key=lambda c: key[id(c)])
    final: list[Car] = []
    lots = False
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and key[id(ordered[j])] == key[id(ordered[i])]:
            j += 1
        group = ordered[i:j]
        if len(group) > 1:
            lots = True
            rng.shuffle(group)
        final.extend(group)
        i = j
    n = len(final)
    results = tuple(
        CarResult(car.player, car.driver, car.value, points_for(pos, n))
        for pos, car in enumerate(final, start=1)
    )
    return results, lots


def ties(results: Sequence[CarResult]) -> list[tuple[CarResult, ...]]:
    """Groups of cars that finished on the same value, in finishing order (FF-11).

    Examples
    --------
    >>> import random
    >>> cars = [Car(0, 10, 15), Car(1, 11, 15), Car(1, 12, 12)]
    >>> results, _ = classify(cars, [3, 4], random.Random(0))
    >>> [[(r.player, r.value) for r in group] for group in ties(results)]
    [[(1, 15), (0, 15)]]
    """
    groups: list[tuple[CarResult, ...]] = []
    i = 0
    while i < len(results):
        j = i + 1
        while j < len(results) and results[j].value == results[i].value:
            j += 1
        if j - i > 1:
            groups.append(tuple(results[i:j]))
        i = j
    return groups
