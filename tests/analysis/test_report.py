"""Circuit analytics and the circuit report (fdlab.analysis.stats, fdlab.analysis.report)."""

from __future__ import annotations

import pandas as pd
import pytest

from fdlab.analysis.playtest import playtest
from fdlab.analysis.report import circuit_report
from fdlab.analysis.stats import blame, corner_table, grid_wins, space_heat, wilson
from fdlab.track import from_ascii


def trap_board():
    """Corner 3 is the trap: a one-column 3-stop corner at the end of a long straight (C-3, C-4)."""
    row = ". . . . 1 1 1 . . . . . . . . . . . . . . . 3 . . . . 2 2 2 . . . . ."
    return from_ascii(
        "\n".join([row] * 2),
        corners={1: 1, 2: 1, 3: 3},
        closed=True,
        grid=[66, 67, 64, 65],
        name="Trap ring",
    )


@pytest.fixture(scope="module")
def trap_result():
    return playtest(trap_board(), 4, races=30, seed=2, workers=1, progress=False)


def test_report_names_the_trap_corner_as_the_most_dangerous(trap_result):
    report = circuit_report(trap_result, par=False)
    assert report.most_dangerous == 3
    assert report.sentences()[0].startswith("Most dangerous: Corner 3")
    corners = report.corners
    assert corners.loc[3, "overshoot_rate"] > corners.loc[1, "overshoot_rate"]
    assert corners.loc[3, "damage_per_passage"] > corners.loc[2, "damage_per_passage"]


def test_every_car_passes_every_corner_once_in_a_one_lap_race(trap_result):
    """C-6: one passage per corner per car and lap (corners past the flag do not count)."""
    table = corner_table(trap_result)
    cars = len(trap_result.cars)
    eliminated = int((trap_result.cars["status"] == "eliminated").sum())
    for corner in (1, 2, 3):
        assert cars - eliminated <= table.loc[corner, "passages"] <= cars


def test_heat_adds_up_to_the_damage_of_the_cars(trap_result):
    heat = space_heat(trap_result)
    assert heat["damage"].sum() == trap_result.cars["damage"].sum()
    assert heat["eliminations"].sum() == (trap_result.cars["status"] == "eliminated").sum()


def test_grid_wins_count_every_race(trap_result):
    table = grid_wins(trap_result)
    assert table["wins"].sum() == trap_result.races["winner"].notna().sum()
    assert (table["low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["high"]).all()


def test_blame_prefers_the_overshot_corner():
    turns = pd.DataFrame(
        {"overshot": [3, None, None], "corner": [None, 2, None], "zone": [1, 2, 1]}
    )
    assert blame(turns).tolist() == [3, 2, 1]


def test_wilson_interval_contains_the_rate():
    low, high = wilson(3, 40)
    assert low < 3 / 40 < high


def test_report_page_is_standalone_html_with_the_heatmap(trap_result, tmp_path):
    report = circuit_report(trap_result)
    assert report.par is not None and report.par.par > 0
    fig = report.heatmap()
    fills = fig.select_one({"name": "spaces"}).data_source.data["fill_color"]
    assert any(color.startswith("#") and color in fills for color in ("#800026",))
    page = report.save_html(tmp_path / "report.html")
    text = page.read_text(encoding="utf-8")
    assert "Circuit report: Trap ring" in text and "cdn.bokeh.org" not in text
    assert "Most dangerous" in report._repr_html_()


def test_heatmap_greys_out_spaces_without_damage_and_names_the_corners(trap_result):
    """Only damage is coloured (no dark asphalt that reads as heat); flags carry corner names."""
    from fdlab.analysis.report import HEAT, NO_DAMAGE, NO_DAMAGE_CORNER

    report = circuit_report(trap_result, par=False)
    fig = report.heatmap()
    data = fig.select_one({"name": "spaces"}).data_source.data
    nodes = trap_result.track.graph.nodes
    hurt = set(report.heat.index[report.heat["damage"] > 0])
    for sid, fill in zip(data["id"], data["fill_color"], strict=True):
        if sid in hurt:
            assert fill in HEAT
        else:
            assert fill == (NO_DAMAGE if nodes[sid]["corner"] is None else NO_DAMAGE_CORNER)
    names = fig.select_one({"name": "corner_names"}).data_source.data["name"]
    assert sorted(names) == ["Corner 1", "Corner 2", "Corner 3"]


def test_sentences_give_the_race_length_and_rare_eliminations_in_tenths(trap_result):
    report = circuit_report(trap_result, par=False)
    text = " ".join(report.sentences())
    assert "races of 1 lap (basic rules)" in text
    assert " 0% end in an elimination" not in text or report.corners.iloc[0]["eliminations"] == 0
