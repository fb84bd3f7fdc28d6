"""The playtest in a designer's words (issue 28): findings with plain intervals and pictures.

Each finding is checked against the tables it is read from, on seeded
playtests, and for the words a designer must not meet in the headline
(p-values, test names: they are in the details).
"""

from __future__ import annotations

import dataclasses
import re

import pandas as pd
import pytest

from fdlab.analysis.examples import small_playtest, tight_ring
from fdlab.analysis.findings import _elimination_bars, findings
from fdlab.analysis.playtest import playtest
from fdlab.analysis.report import circuit_report
from fdlab.analysis.stats import mean_interval
from fdlab.rules.presets import get_preset


@pytest.fixture(scope="module")
def result():
    return playtest(tight_ring(), 2, races=30, seed=5, workers=1, progress=False)


@pytest.fixture(scope="module")
def report(result):
    return circuit_report(result, solo_races=12)


def by_topic(report):
    return {f.topic: f for f in findings(report)}


def test_the_headline_speaks_no_statistics(report):
    text = " ".join(f.text for f in findings(report))
    for word in ("p =", "p-value", "Welch", "Holm", "Fisher", "binomial", "significant", "e-"):
        assert word not in text
    assert "binomial test" in by_topic(report)["pole"].details  # the test is behind the fold


def test_race_length_is_the_mean_with_its_interval(report, result):
    mean, low, high = mean_interval(result.races["rounds"])
    text = by_topic(report)["race length"].text
    assert f"lasts {mean:.1f} rounds ({low:.1f}-{high:.1f})" in text
    assert f"the shortest took {result.races['rounds'].min()}" in text


def test_lead_changes_are_counted_from_the_race_log(report, result):
    per_race = result.turns.groupby("race")["took_lead"].sum()
    assert f"changes {per_race.mean():.1f} times a race" in by_topic(report)["lead changes"].text


def test_a_race_won_from_behind_pole_had_a_lead_change(result):
    """Whoever wins from behind pole took the lead at least once on the way."""
    changes = result.turns.groupby("race")["took_lead"].sum()
    from_behind = result.races[result.races["winner_grid"] > 1]
    assert len(from_behind), "the seeded races include a win from behind pole"
    assert (changes.loc[from_behind["race"]] >= 1).all()


def test_the_pole_verdict_follows_the_interval(report):
    grid = report.grid
    strong = grid.copy()
    strong.loc[1, ["win_rate", "low", "high", "fair"]] = [0.8, 0.7, 0.9, 1 / 4]
    even = grid.copy()
    even.loc[1, ["win_rate", "low", "high", "fair"]] = [0.35, 0.2, 0.5, 1 / 4]
    said = {
        name: by_topic(dataclasses.replace(report, grid=table))["pole"].text
        for name, table in (("strong", strong), ("even", even))
    }
    assert "Pole wins 80% of races (70%-90%) where a fair share is 25%" in said["strong"]
    assert "big advantage" in said["strong"]
    assert "no clear advantage" in said["even"]


def test_a_corner_nobody_notices_is_said_to_never_matter(report):
    corners = report.corners.copy()
    quiet = corners.index[-1]
    corners.loc[
        quiet,
        [
            "overshoot_rate",
            "flag_overshoot_rate",
            "damage_per_passage",
            "eliminations",
            "overtake_share",
        ],
    ] = 0
    text = by_topic(dataclasses.replace(report, corners=corners))["corners"].text
    assert f"{corners.loc[quiet, 'name']} never matters" in text


def test_overshoots_on_the_run_to_the_flag_are_said_to_be_no_sign_of_a_tight_corner(report):
    """A corner overshot at the end of the race by cars spending their spare points is
    neither among the corners that decide races nor said to never matter: the report says
    what those overshoots are."""
    corners = report.corners.copy()
    last = corners.index[-1]
    corners.loc[last, ["overshoot_rate", "damage_per_passage", "eliminations"]] = 0
    corners.loc[last, ["flag_overshoot_rate", "overtake_share"]] = [0.9, 0.0]
    text = by_topic(dataclasses.replace(report, corners=corners))["corners"].text
    name = corners.loc[last, "name"]
    assert f"On the run to the flag cars overshoot {name} in 90% of passages" in text
    assert f"{name} never matters" not in text


def test_eliminations_name_their_corner_and_cause():
    result = playtest(tight_ring(), ["random", "random"], races=10, seed=1, workers=1,
                      progress=False)  # fmt: skip
    report = circuit_report(result, par=False)
    lost = int((result.cars["status"] == "eliminated").sum())
    assert lost, "random bots crash on the tight ring"
    text = by_topic(report)["eliminations"].text
    assert text.startswith(f"{lost} of {len(result.cars)} cars")
    worst = report.corners.sort_values("eliminations", ascending=False).iloc[0]
    assert f"{int(worst['eliminations'])} at {worst['name']}, " in text
    assert re.search(r"by the bot's mistake|worn out|by the corner's danger|by bad luck", text)


def test_the_elimination_bars_add_up_to_every_car_eliminated():
    """Cars lost after the last corner have a bar too (the text counted them, the chart did not)."""
    result = playtest(tight_ring(), ["random", "random"], races=10, seed=1, workers=1,
                      progress=False)  # fmt: skip
    report = circuit_report(result, par=False)
    lost = int((result.cars["status"] == "eliminated").sum())
    picture = by_topic(report)["eliminations"].picture
    corners = report.corners
    crashes = corners[corners["eliminations"] > 0].sort_values("eliminations", ascending=False)
    elsewhere = lost - int(corners["eliminations"].sum())
    bars = _elimination_bars(crashes, elsewhere)
    assert sum(count for _, count in bars) == lost
    assert all(name in picture for name, _ in bars)
    many = pd.DataFrame(
        {"name": [f"C{k}" for k in range(9)], "eliminations": [9, 8, 7, 6, 5, 4, 3, 2, 1]}
    )
    assert _elimination_bars(many, 3)[6:] == [("other corners", 6), ("after the last corner", 3)]


def test_bots_at_par_read_at_par_not_under_it(report):
    bots = report.bots.copy()
    bots["solo_gap"] = -0.005
    bots["solo_sem"] = 0.02 * report.par.par  # +-4%: within noise of par
    text = by_topic(dataclasses.replace(report, bots=bots))["bots"].text
    assert "at par (give or take 4%)" in text and "under par" not in text
    bots["solo_gap"] = -0.03  # luckier dice than par: still at par, the margin covers it
    bots["solo_sem"] = 0.005 * report.par.par
    text = by_topic(dataclasses.replace(report, bots=bots))["bots"].text
    assert "at par (give or take 3%)" in text and "under par" not in text
    bots["solo_sem"] = 0.001 * report.par.par
    bots["solo_gap"] = 0.1
    text = by_topic(dataclasses.replace(report, bots=bots))["bots"].text
    assert "10% over par" in text


def test_every_finding_has_a_picture_but_the_bots(report):
    for finding in findings(report):
        if finding.topic != "bots" and not finding.text.startswith("No car was eliminated"):
            assert finding.picture.startswith("<svg"), finding.topic


def test_the_report_is_data_and_light_html(report):
    tables = report.tables
    assert isinstance(tables["findings"], pd.DataFrame)
    assert list(tables["findings"]["topic"]) == [f.topic for f in findings(report)]
    page = report._repr_html_()
    assert page.index("lasts") < page.index("<details>")  # findings first, statistics folded
    assert len(page) < 200_000


def test_one_car_has_no_pole_or_lead_finding():
    result = playtest(tight_ring(), 1, races=3, seed=0, workers=1, progress=False)
    topics = [f.topic for f in findings(circuit_report(result, solo_races=2))]
    assert "pole" not in topics and "lead changes" not in topics


def test_small_playtest_findings_start_with_race_length():
    report = circuit_report(small_playtest(races=4), par=False)
    assert findings(report)[0].topic == "race length"


def test_the_heat_picture_has_a_colour_key_in_the_rules_unit(report):
    """The damage colours are explained under the board, in SP (WP under advanced rules)."""
    picture = by_topic(report)["corners"].picture
    assert picture.startswith("<svg") and 'class="heat-key"' in picture
    top = float(report.heat["damage_per_race"].max())
    assert f"up to {top:.2g} SP" in picture
    advanced = dataclasses.replace(
        report, result=dataclasses.replace(report.result, preset=get_preset("advanced"))
    )
    assert f"up to {top:.2g} WP" in by_topic(advanced)["corners"].picture
