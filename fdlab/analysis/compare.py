"""Two versions of a circuit side by side: which differences are more than luck?

:func:`compare_playtests` takes the playtests of a board before and after an
edit and tests each headline number: race length and damage per car
(Welch's t-test), finishing rate and pole win rate (Fisher's exact test),
and per corner (matched by id) overshoot and elimination rates (Fisher) and
damage blamed on the corner per car (Welch). Damage is tested on race means
(the cars of one race are not independent samples; races are). p-values are adjusted for the
number of tests (Holm); a difference is flagged when the adjusted p-value is
below ``alpha``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.playtest import PlaytestResult
from fdlab.analysis.stats import blame


@dataclass
class Comparison:
    """The differences between two playtests, with their tests.

    Attributes
    ----------
    table : DataFrame
        One row per metric: ``before``, ``after``, ``change``, ``test``,
        ``p_value``, ``p_adjusted`` (Holm) and ``significant``.
    alpha : float
    names : tuple of str
        Labels of the two versions.
    """

    table: pd.DataFrame
    alpha: float
    names: tuple[str, str]
    before: PlaytestResult | None = None
    after: PlaytestResult | None = None

    def significant(self) -> pd.DataFrame:
        """Only the rows whose difference is statistically meaningful."""
        return self.table[self.table["significant"]]

    def sentences(self) -> list[str]:
        """The differences larger than luck explains, in plain words (the tests are in :attr:`table`).

        Examples
        --------
        >>> table = pd.DataFrame(
        ...     {"before": [3.61], "after": [5.83], "change": [2.22], "test": ["Welch t"],
        ...      "p_value": [0.001], "p_adjusted": [0.002], "significant": [True]},
        ...     index=pd.Index(["Corner 4: damage per car"], name="metric"))
        >>> Comparison(table, 0.05, ("as drawn", "eased")).sentences()
        ['Corner 4: damage per car: 3.61 as drawn, 5.83 eased (up 61%).']
        """
        rows = self.significant()
        if rows.empty:
            return [
                "No difference is larger than luck explains: the edit changed little, or more "
                "races would tell."
            ]
        first, second = self.names
        return [
            f"{metric}: {_figure(metric, row['before'])} {first}, "
            f"{_figure(metric, row['after'])} {second} ({_change(row['before'], row['after'])})."
            for metric, row in rows.iterrows()
        ]

    def layout(self, width: int = 1000) -> Any:
        """Both boards side by side, on one damage scale, with the flagged differences."""
        from bokeh.layouts import column, row
        from bokeh.models import Div

        from fdlab.analysis.report import circuit_report

        if self.before is None or self.after is None:
            raise PlaytestError(
                "this Comparison was built without its playtests; use compare_playtests"
            )
        half = width // 2
        reports = [circuit_report(result, par=False) for result in (self.before, self.after)]
        top = max(float(r.heat["damage_per_race"].max()) if len(r.heat) else 0.0 for r in reports)
        pictures = [
            report.heatmap(half, top=top, label=name)
            for name, report in zip(self.names, reports, strict=True)
        ]
        for fig in pictures:  # half a page: the scale goes on a line of its own
            fig.title.text = fig.title.text.replace(", pale", ",\npale")
        items = "".join(f"<li>{html.escape(s)}</li>" for s in self.sentences())
        head = Div(text=f"<h3>{html.escape(self.names[0])} vs {html.escape(self.names[1])}</h3>"
                   f"<ul>{items}</ul>", width=width)  # fmt: skip
        return column(head, row(*pictures))

    def boards(self, width: int = 440) -> Any:
        """Both boards side by side, coloured by damage per race on one scale (light SVG).

        Examples
        --------
        >>> from fdlab.analysis.examples import small_playtest
        >>> a, b = small_playtest(seed=1), small_playtest(seed=2)
        >>> compare_playtests(a, b).boards()._repr_html_().count('class="heat-key"')  # two boards
        2
        """
        from fdlab.analysis.findings import heat_svg
        from fdlab.analysis.report import circuit_report

        if self.before is None or self.after is None:
            raise PlaytestError(
                "this Comparison was built without its playtests; use compare_playtests"
            )
        reports = [circuit_report(result, par=False) for result in (self.before, self.after)]
        top = max(float(r.heat["damage_per_race"].max()) if len(r.heat) else 0.0 for r in reports)
        unit = self.before.preset.unit
        cells = "".join(
            f"<div><b>{html.escape(name)}</b><br>{heat_svg(report, top=top, width=width)}</div>"
            for name, report in zip(self.names, reports, strict=True)
        )
        return _Html(
            f"<div><p>Damage per race on each space, pale yellow to dark red = up to "
            f"{top:.2g} {unit}, the same scale on both</p>"
            f"<div style='display:flex;flex-wrap:wrap;gap:12px'>{cells}</div></div>"
        )

    def show(self) -> None:
        """Draw :meth:`layout` in a notebook (BokehJS inlined)."""
        from fdlab.plot.notebook import show_in_notebook

        show_in_notebook(self.layout())

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(s)}</li>" for s in self.sentences())
        body = self.table.to_html(float_format=lambda v: f"{v:.3g}", border=0, na_rep="")
        return (
            f"<div><b>{html.escape(self.names[0])} vs {html.escape(self.names[1])}</b>"
            f"<ul>{items}</ul><details><summary>Every measure and its test (Welch t on race "
            f"means, Fisher exact; p-values Holm-adjusted, flagged below {self.alpha:.0%})"
            f"</summary>{body}</details></div>"
        )


@dataclass(frozen=True)
class _Html:
    """HTML a notebook shows as it is."""

    text: str

    def _repr_html_(self) -> str:
        return self.text


def _figure(metric: str, value: float) -> str:
    """A measure's value as it reads: rates in percent, the rest with 3 figures."""
    return f"{value:.0%}" if metric.endswith("rate") else f"{value:.3g}"


def _change(before: float, after: float) -> str:
    """``up 61%``, ``down 12%`` (or ``from none`` when there was none before)."""
    if before == 0:
        return "from none" if after else "unchanged"
    change = after / before - 1
    return f"{'up' if change > 0 else 'down'} {abs(change):.0%}"


def _welch(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    if len(a) < 2 or len(b) < 2:
        return 1.0
    if np.var(a) == 0 and np.var(b) == 0:  # no spread: equal or certainly different
        return 1.0 if np.mean(a) == np.mean(b) else 0.0
    from scipy import stats as scistats  # here: importing it takes 0.4 s

    return float(scistats.ttest_ind(a, b, equal_var=False).pvalue)


def _fisher(hits_a: int, total_a: int, hits_b: int, total_b: int) -> float:
    if total_a == 0 or total_b == 0:
        return 1.0
    table = [[hits_a, total_a - hits_a], [hits_b, total_b - hits_b]]
    from scipy import stats as scistats

    return float(scistats.fisher_exact(table).pvalue)


def _holm(p_values: list[float]) -> list[float]:
    """Holm step-down adjusted p-values.

    Examples
    --------
    >>> [round(p, 3) for p in _holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _corner_counts(result: PlaytestResult, corner: Any) -> tuple[int, int, int]:
    turns = result.turns
    overshoots = int(turns["overshot_corners"].map(lambda left: corner in left).sum())
    passages = overshoots + int(turns["left_corners"].map(lambda left: corner in left).sum())
    eliminated = int((turns["eliminated"] & (blame(turns) == corner)).sum())
    return overshoots, passages, eliminated


def _per_race(result: PlaytestResult, per_car: pd.Series) -> NDArray[np.float64]:
    """Per race, the mean over its cars of a per-(race, car) series (missing cars count 0).

    Races are the independent samples of a playtest; cars of one race are
    not (they block, pass and hit each other), so tests compare race means.
    """
    every = result.cars.set_index(["race", "car"]).index
    full = per_car.reindex(every, fill_value=0).astype(float)
    means: NDArray[np.float64] = full.groupby(level="race").mean().to_numpy()
    return means


def _corner_damage(result: PlaytestResult, corner: Any) -> NDArray[np.float64]:
    turns = result.turns
    mine = turns[blame(turns) == corner].groupby(["race", "car"])["damage"].sum()
    return _per_race(result, mine)


def compare_playtests(
    before: PlaytestResult,
    after: PlaytestResult,
    *,
    alpha: float = 0.05,
    names: tuple[str, str] = ("before", "after"),
) -> Comparison:
    """Compare the playtests of two versions of a circuit.

    Parameters
    ----------
    before, after : PlaytestResult
        Playtests of the two versions (same bots and preset, ideally).
    alpha : float
        Significance level after the Holm adjustment.
    names : tuple of str
        Labels of the versions.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from fdlab.track.examples import two_corner_ring
    >>> from fdlab.analysis.playtest import playtest
    >>> a = playtest(two_corner_ring(stops=(1, 1)), 2, races=20, workers=1, progress=False)
    >>> b = playtest(two_corner_ring(stops=(1, 3)), 2, races=20, workers=1, progress=False)
    >>> "race length (rounds)" in compare_playtests(a, b).table.index
    True
    """
    rows = []

    def add(metric: str, x: float, y: float, test: str, p: float) -> None:
        rows.append({"metric": metric, "before": x, "after": y, "test": test, "p_value": p})

    ra, rb = before.races["rounds"].to_numpy(float), after.races["rounds"].to_numpy(float)
    add("race length (rounds)", ra.mean(), rb.mean(), "Welch t", _welch(ra, rb))
    da, db = (_per_race(r, r.cars.set_index(["race", "car"])["damage"]) for r in (before, after))
    add("damage per car", da.mean(), db.mean(), "Welch t (race means)", _welch(da, db))
    fa = int((before.cars["status"] == "finished").sum())
    fb = int((after.cars["status"] == "finished").sum())
    na, nb = len(before.cars), len(after.cars)
    add("finishing rate", fa / na, fb / nb, "Fisher", _fisher(fa, na, fb, nb))
    pa = before.cars[before.cars["grid"] == 1]
    pb = after.cars[after.cars["grid"] == 1]
    wa, wb = int((pa["place"] == 1).sum()), int((pb["place"] == 1).sum())
    if len(pa) and len(pb):
        add(
            "pole win rate", wa / len(pa), wb / len(pb), "Fisher", _fisher(wa, len(pa), wb, len(pb))
        )
    common = [c for c in before.track.corners if c in after.track.corners]
    for corner in common:
        name = before.track.corners[corner].get("name", f"Corner {corner}")
        oa, sa, ea = _corner_counts(before, corner)
        ob, sb, eb = _corner_counts(after, corner)
        if sa and sb:
            add(f"{name}: overshoot rate", oa / sa, ob / sb, "Fisher", _fisher(oa, sa, ob, sb))
            add(f"{name}: elimination rate", ea / sa, eb / sb, "Fisher", _fisher(ea, sa, eb, sb))
        xa, xb = _corner_damage(before, corner), _corner_damage(after, corner)
        add(f"{name}: damage per car", xa.mean(), xb.mean(), "Welch t (race means)", _welch(xa, xb))
    table = pd.DataFrame(rows).set_index("metric")
    table.insert(2, "change", table["after"] - table["before"])
    table["p_adjusted"] = _holm(list(table["p_value"]))
    table["significant"] = table["p_adjusted"] < alpha
    return Comparison(table=table, alpha=alpha, names=names, before=before, after=after)
