"""The circuit report's sentences and tables read well (fdlab.analysis.report)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fdlab.analysis.examples import small_playtest
from fdlab.analysis.playtest import playtest
from fdlab.analysis.report import circuit_report

TRAINING = Path(__file__).resolve().parents[2] / "tracks" / "training.json"


@pytest.fixture(scope="module")
def report():
    return circuit_report(small_playtest(), solo_races=3)


def line(sentences, start):
    return next(s for s in sentences if s.startswith(start))


def test_a_playtest_where_no_car_finishes_says_so_plainly():
    """One random car on the training ring (seed 0): eliminated in both races."""
    result = playtest(TRAINING, ["random"], races=2, seed=0, workers=1, progress=False)
    assert result.races["finished"].sum() == 0
    sentences = circuit_report(result, solo_races=2).sentences()
    text = " ".join(sentences)
    assert "no car finished" in line(sentences, "Solo par")
    assert "take  turns" not in text and "finishers take" not in text
    assert "with 1 car last" in text  # not "1 cars"
    assert "`random` never finished" in line(sentences, "Bots:")  # no gap: not "each): ."
    assert "Pole wins" not in text and "fair share 100%" not in text  # one car: no grid to judge


def test_bot_names_do_not_run_into_the_word_par(report):
    bots = line(report.sentences(), "Bots:")
    assert "2 x `par`" in bots and "`par` " in bots
    finishers = line(report.sentences(), "Solo par")
    assert "finishers take" in finishers and "turns (" in finishers and "with `par`" in finishers
    assert "take par" not in finishers
    html = report._repr_html_()
    assert "<code>par</code>" in html and "`" not in html


def test_a_gap_below_par_or_at_par_reads_as_such(report):
    bots = report.bots.copy()
    (name,) = bots.index
    for gap, words in [(-0.0036, "`par` 0.4% under par"), (-0.0002, "`par` at par (0.0%)"),
                       (0.00875, "`par` 0.9% over par")]:  # fmt: skip
        bots.loc[name, "solo_gap"] = gap
        said = line(dataclasses.replace(report, bots=bots).sentences(), "Bots:")
        assert words in said and "-0%" not in said


def test_html_tables_show_shares_in_percent_and_scroll_when_wide(report):
    bots = report.bots.copy()
    bots.loc[bots.index[0], "solo_gap"] = 0.00875
    shown = dataclasses.replace(report, bots=bots)
    html = shown._repr_html_()
    assert "0.9%" in html and "0.00875" not in html
    rate = report.corners.iloc[0]["overshoot_rate"]
    assert f"<td>{rate:.0%}</td>" in html  # as the sentences say it, not 0.556
    assert html.count("overflow-x: auto") == 3  # corners, grid, bots
    page = shown.layout(width=900)
    tables = page.children[-1]
    assert tables.text.count("overflow-x: auto; max-width: 900px") == 2


def test_no_pole_verdict_when_no_race_had_a_winner(report):
    races = report.result.races.assign(winner=None, winner_bot=None, winner_grid=None)
    nobody = dataclasses.replace(report, result=dataclasses.replace(report.result, races=races))
    text = " ".join(nobody.sentences())
    assert "Pole wins" not in text and "No race had a winner" in text
    assert "Pole wins" in " ".join(report.sentences())  # two cars, races won


def test_a_board_set_for_more_laps_than_raced_says_how_to_race_them():
    """The board's file asks 2 laps; a playtest races the rules' one: the report says so."""
    from fdlab.track import load_track

    track = load_track(TRAINING)
    track.graph.graph["laps"] = 2
    result = playtest(track, ["heuristic"] * 2, races=2, seed=0, workers=1, progress=False)
    sentences = circuit_report(result, solo_races=2).sentences()
    assert "of 1 lap (the board is set for 2: give laps=2 to race those) (basic rules)" in " ".join(
        sentences
    )
    two = playtest(track, ["heuristic"] * 2, races=1, laps=2, seed=0, workers=1, progress=False)
    assert "of 2 laps (basic rules)" in " ".join(circuit_report(two, solo_races=1).sentences())


def test_under_advanced_rules_the_bots_sentence_says_why_a_bot_may_beat_par():
    """Advanced rules: par is that of a one-pool approximation, so a solo gap under par is
    no bug; the sentence says so (basic rules: par is exact and nothing is added)."""
    result = playtest(
        TRAINING, ["par"], races=1, preset="advanced", seed=0, workers=1, progress=False
    )
    bots = line(circuit_report(result, solo_races=2).sentences(), "Bots:")
    assert "one-pool approximation" in bots and "can finish under it" in bots
    basic = playtest(TRAINING, ["par"], races=1, seed=0, workers=1, progress=False)
    assert "approximation" not in line(circuit_report(basic, solo_races=2).sentences(), "Bots:")
