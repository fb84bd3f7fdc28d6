"""Comparing two versions of a circuit (fdlab.analysis.compare)."""

from __future__ import annotations

import pytest

from fdlab.analysis.compare import _holm, compare_playtests
from fdlab.analysis.playtest import playtest
from fdlab.track import from_ascii


def board(stops: int):
    row = ". . . . 1 1 1 . . . . . . . . . . . . . . . 3 . . . . 2 2 2 . . . . ."
    return from_ascii(
        "\n".join([row] * 2), corners={1: 1, 2: 1, 3: stops}, closed=True, grid=[66, 67, 64, 65]
    )


@pytest.fixture(scope="module")
def versions():
    before = playtest(board(3), 4, races=30, seed=1, workers=1, progress=False)
    after = playtest(board(1), 4, races=30, seed=1, workers=1, progress=False)
    return before, after


def test_easing_the_trap_corner_is_flagged(versions):
    """C-3: a 3-stop corner eased to 1 stop overshoots far less; the comparison says so."""
    comparison = compare_playtests(*versions, names=("3 stops", "1 stop"))
    row = comparison.table.loc["Corner 3: overshoot rate"]
    assert row["after"] < row["before"] and row["significant"]
    assert "Corner 3: overshoot rate" in comparison.significant().index
    assert "3 stops vs 1 stop" in comparison._repr_html_()


def test_a_board_compared_with_itself_flags_nothing():
    same_a = playtest(board(3), 4, races=20, seed=3, workers=1, progress=False)
    same_b = playtest(board(3), 4, races=20, seed=4, workers=1, progress=False)
    comparison = compare_playtests(same_a, same_b)
    assert not comparison.table["significant"].any()
    assert comparison.sentences()[0].startswith("No difference is larger than luck explains")


def test_holm_adjustment_is_monotone_and_capped():
    adjusted = _holm([0.001, 0.5, 0.02, 0.04])
    assert adjusted == pytest.approx([0.004, 0.5, 0.06, 0.08])


def test_side_by_side_pictures_of_both_versions(versions):
    comparison = compare_playtests(*versions, names=("3 stops", "1 stop"))
    layout = comparison.layout()
    from bokeh.plotting import figure

    titles = [fig.title.text for fig in layout.select({"type": figure})]
    assert any(t.startswith("3 stops") for t in titles) and any(
        t.startswith("1 stop") for t in titles
    )


def test_side_by_side_pictures_share_one_damage_scale(versions):
    """Colours compare across the two boards only if both use the same darkest value."""
    from bokeh.plotting import figure

    comparison = compare_playtests(*versions, names=("3 stops", "1 stop"))
    figures = list(comparison.layout().select({"type": figure}))
    scales = {fig.title.text.split("up to ")[1] for fig in figures}
    assert len(figures) == 2 and len(scales) == 1
    most = max(r.turns.groupby("space")["damage"].sum().max() / len(r.races) for r in versions)
    assert scales == {f"{most:.2g} (eliminations as crosses)"}
