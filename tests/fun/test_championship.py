"""The shared championship points table and standings (FF-12)."""

import doctest

import pytest

import fdlab.championship
from fdlab.championship import Standings, points_for, points_table


def test_ff12_points_table_by_number_of_cars():
    """FF-12: last place 1, each place above one more, the winner one extra."""
    assert points_table(1) == (2,)
    assert points_table(2) == (3, 1)
    assert points_table(3) == (4, 2, 1)
    assert points_table(4) == (5, 3, 2, 1)
    assert points_table(8) == (9, 7, 6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize("cars", range(2, 9))
def test_ff12_points_strictly_decrease_and_last_scores_one(cars):
    """FF-12: a better position always scores more; the last car scores 1 (with 2+ cars)."""
    table = points_table(cars)
    assert all(a > b for a, b in zip(table, table[1:], strict=False))
    assert table[-1] == 1
    assert table[0] == cars + 1


@pytest.mark.parametrize("position, cars", [(0, 3), (4, 3), (1, 0)])
def test_ff12_points_for_rejects_impossible_positions(position, cars):
    """FF-12: a position outside 1..cars has no points."""
    with pytest.raises(ValueError, match="FF-12"):
        points_for(position, cars)


def test_ff12_standings_seed_example():
    """FF-12: the seed's example, A first, B second and third: A 4 points, B 3."""
    s = Standings.empty(["A", "B"]).add_race(["A", "B", "B"])
    assert s.points == {"A": 4, "B": 3}
    assert s.wins == {"A": 1, "B": 0}
    assert s.races == 1
    assert s.ranking() == [(1, "A", 4), (2, "B", 3)]


def test_standings_are_immutable_and_accumulate():
    """Adding a race returns new standings; a Formula D season can use driver names."""
    season = Standings.empty(["Ana", "Bo", "Cy"])
    after = season.add_race(["Bo", "Cy", "Ana"]).add_race(["Ana", "Bo", "Cy"])
    assert season.points == {"Ana": 0, "Bo": 0, "Cy": 0}
    assert after.points == {"Ana": 1 + 4, "Bo": 4 + 2, "Cy": 2 + 1}
    assert after.leaders() == ("Bo",)
    assert after.races == 2


def test_standings_ties_share_rank_and_reject_empty_race():
    s = Standings.empty("XY").add_race("XY").add_race("YX")
    assert s.ranking() == [(1, "X", 4), (1, "Y", 4)]
    assert s.leaders() == ("X", "Y")
    with pytest.raises(ValueError, match="FF-12"):
        s.add_race([])


def test_championship_module_doctests():
    result = doctest.testmod(fdlab.championship)
    assert result.attempted > 5 and result.failed == 0


def test_ff12_formula_d_season_over_shipped_circuits_uses_the_same_table():
    """FF-12: the table is shared: a Formula D season over several shipped fdlab circuits
    (bot races on each) is scored by feeding each race's ranking to Standings."""
    from pathlib import Path

    from fdlab.bots import HeuristicBot
    from fdlab.rules.simulate import simulate
    from fdlab.track import load_track

    tracks = Path(__file__).resolve().parents[2] / "tracks"
    names = ("Ana", "Bo", "Cy")
    season = Standings.empty(names)
    expected = dict.fromkeys(names, 0)
    circuits = ("training", "zandvoort", "monaco")
    for number, circuit in enumerate(circuits):
        track = load_track(tracks / f"{circuit}.json")
        result = simulate(track, [HeuristicBot() for _ in names], "basic", seed=number, names=names)
        assert sorted(result.ranking) == sorted(names)
        season = season.add_race(result.ranking)
        for position, name in enumerate(result.ranking, start=1):
            expected[name] += points_table(len(names))[position - 1]
    assert season.races == len(circuits)
    assert season.points == expected
    assert sum(season.points.values()) == len(circuits) * sum(points_table(3))
    assert sum(season.wins.values()) == len(circuits)
    assert [row[1] for row in season.ranking()][0] in season.leaders()
