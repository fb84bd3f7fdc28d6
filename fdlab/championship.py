"""Championship points and standings, shared by Formula Fun and Formula D seasons.

The points table follows rules clause FF-12 (a decision, consistent with the
Formula Fun seed's example where three cars score 4, 2 and 1): the last car
scores 1 point, each place above it one more, and the winner one extra point.

========  =====================
cars      points by position
========  =====================
1         2
2         3, 1
3         4, 2, 1
4         5, 3, 2, 1
========  =====================

The same table and the :class:`Standings` helper can score a Formula D season
over several fdlab circuits: feed each race's finishing order to
:meth:`Standings.add_race`, e.g. the ranking of a simulated race::

    from fdlab.rules.simulate import simulate

    season = Standings.empty(names)
    for track in tracks:
        season = season.add_race(simulate(track, bots, names=names).ranking)
    season.ranking()

(``tests/fun/test_championship.py`` runs such a season over the shipped boards.)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from fdlab.errors import FdlabError

__all__ = ["ChampionshipError", "Standings", "points_for", "points_table"]


class ChampionshipError(FdlabError):
    """A race the points table cannot score (no car, a position beyond the cars): FF-12."""


def points_table(cars: int) -> tuple[int, ...]:
    """Return the points for every finishing position in a race of ``cars`` cars.

    Parameters
    ----------
    cars : int
        Number of cars classified in the race (at least 1).

    Returns
    -------
    tuple of int
        ``table[i]`` is the score of the car finishing in position ``i + 1``.

    Raises
    ------
    ChampionshipError
        If ``cars`` is smaller than 1.

    Examples
    --------
    >>> points_table(3)
    (4, 2, 1)
    >>> points_table(4)
    (5, 3, 2, 1)
    """
    if cars < 1:
        raise ChampionshipError(f"FF-12: a race needs at least one car, got {cars}")
    return tuple(points_for(position, cars) for position in range(1, cars + 1))


def points_for(position: int, cars: int) -> int:
    """Return the championship points of the car finishing ``position`` of ``cars``.

    Parameters
    ----------
    position : int
        Finishing position, 1 for the winner.
    cars : int
        Number of cars classified in the race.

    Returns
    -------
    int
        ``cars - position + 1``, plus one for the winner (FF-12).

    Raises
    ------
    ChampionshipError
        If the position is not between 1 and ``cars``.

    Examples
    --------
    >>> points_for(1, 3), points_for(2, 3), points_for(3, 3)
    (4, 2, 1)
    >>> points_for(1, 2)
    3
    """
    if cars < 1 or not 1 <= position <= cars:
        raise ChampionshipError(
            f"FF-12: position {position} is not between 1 and {cars} (number of cars)"
        )
    return cars - position + 1 + (1 if position == 1 else 0)


@dataclass(frozen=True)
class Standings:
    """Immutable championship standings: points and wins per competitor.

    A competitor is any hashable key: a player index in Formula Fun, a driver
    or team name in a Formula D season. Adding a race returns new standings.

    Parameters
    ----------
    points : Mapping
        Points per competitor.
    wins : Mapping
        Race wins per competitor.
    races : int
        Number of races added so far.

    Examples
    --------
    >>> s = Standings.empty(["A", "B"])
    >>> s = s.add_race(["A", "B", "B"])  # the seed's example: A wins, B 2nd and 3rd
    >>> s.points
    {'A': 4, 'B': 3}
    >>> s.leaders()
    ('A',)
    """

    points: Mapping[Hashable, int] = field(default_factory=dict)
    wins: Mapping[Hashable, int] = field(default_factory=dict)
    races: int = 0

    @classmethod
    def empty(cls, competitors: Iterable[Hashable]) -> Standings:
        """Return standings with every competitor on zero points.

        Parameters
        ----------
        competitors : iterable
            Competitors to list even before they score.

        Returns
        -------
        Standings

        Examples
        --------
        >>> Standings.empty([0, 1, 2]).points
        {0: 0, 1: 0, 2: 0}
        """
        names = list(competitors)
        return cls(points={c: 0 for c in names}, wins={c: 0 for c in names})

    def add_race(self, order: Iterable[Hashable]) -> Standings:
        """Return new standings after a race with the given finishing order.

        Parameters
        ----------
        order : iterable
            The owner of each classified car, winner first. A competitor with
            two cars appears twice and scores for both (as in Formula Fun).

        Returns
        -------
        Standings

        Raises
        ------
        ChampionshipError
            If the race has no car.

        Examples
        --------
        >>> s = Standings.empty(["Ana", "Bo"]).add_race(["Bo", "Ana"])
        >>> s.points, s.wins
        ({'Ana': 1, 'Bo': 3}, {'Ana': 0, 'Bo': 1})
        """
        cars = list(order)
        if not cars:
            raise ChampionshipError("FF-12: a race needs at least one car")
        points = dict(self.points)
        wins = dict(self.wins)
        for position, owner in enumerate(cars, start=1):
            points[owner] = points.get(owner, 0) + points_for(position, len(cars))
            wins.setdefault(owner, 0)
        wins[cars[0]] += 1
        return Standings(points=points, wins=wins, races=self.races + 1)

    def ranking(self) -> list[tuple[int, Hashable, int]]:
        """Return ``(rank, competitor, points)`` rows, best first; ties share a rank.

        Ties on points are broken by wins; competitors still tied share the
        rank and keep their insertion order.

        Returns
        -------
        list of tuple

        Examples
        --------
        >>> s = Standings.empty("XYZ").add_race("XY").add_race("YX")
        >>> s.ranking()
        [(1, 'X', 4), (1, 'Y', 4), (3, 'Z', 0)]
        """
        keys = sorted(self.points, key=lambda c: (-self.points[c], -self.wins.get(c, 0)))
        rows: list[tuple[int, Hashable, int]] = []
        for index, competitor in enumerate(keys):
            score = (self.points[competitor], self.wins.get(competitor, 0))
            if rows:
                prev = rows[-1][1]
                if score == (self.points[prev], self.wins.get(prev, 0)):
                    rows.append((rows[-1][0], competitor, self.points[competitor]))
                    continue
            rows.append((index + 1, competitor, self.points[competitor]))
        return rows

    def leaders(self) -> tuple[Hashable, ...]:
        """Return the competitors with the most points (several on a tie).

        Returns
        -------
        tuple

        Examples
        --------
        >>> Standings.empty("AB").leaders()
        ('A', 'B')
        """
        if not self.points:
            return ()
        best = max(self.points.values())
        return tuple(c for c, p in self.points.items() if p == best)
