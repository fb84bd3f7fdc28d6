"""The one-screen circuit report: where the circuit bites, drawn on the board.

:func:`circuit_report` turns a playtest into a :class:`CircuitReport`: a few
sentences a designer reads in a minute (the most dangerous corner, race
length, finishing rate, whether pole is too strong, how far the bots are
from par) with the tables behind them, and a Bokeh page with the board
coloured by the damage taken on each space, eliminations marked, the race
length histogram and the win rate by grid spot.

In a notebook the report shows its findings in a designer's words, each with
a small picture (:mod:`fdlab.analysis.findings`), and folds the statistics
behind them away; ``report.tables`` holds every table; ``report.show()``
draws the interactive pictures (BokehJS inlined) and ``report.save_html(path)``
writes the findings and those pictures as a standalone page.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from fdlab.analysis.findings import Finding, findings
from fdlab.analysis.playtest import PlaytestResult
from fdlab.analysis.stats import (
    bot_table,
    corner_table,
    finishing_rate,
    grid_wins,
    race_lengths,
    solo_gaps,
    space_heat,
)
from fdlab.par.approx import exact
from fdlab.par.errors import SoloModelError
from fdlab.par.solve import ParSolution
from fdlab.par.table import ParTable, solo_table
from fdlab.rules.board import compile_board

#: Colours of the damage heatmap, light to dark (few to much damage per race).
HEAT = ("#fff5b1", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026")
#: Track and corner spaces where no damage was taken: pale greys, so that only
#: damage stands out (the board's own dark asphalt would read as heat).
NO_DAMAGE = "#e4e6e9"
NO_DAMAGE_CORNER = "#cfd2d6"


def heat_colour(value: float, top: float) -> str:
    """The :data:`HEAT` colour of ``value`` damage per race on a scale up to ``top``.

    Examples
    --------
    >>> heat_colour(0.1, 8.0) == HEAT[0], heat_colour(8.0, 8.0) == HEAT[-1]
    (True, True)
    """
    return HEAT[max(0, min(len(HEAT) - 1, int(len(HEAT) * value / top)))]


@dataclass
class CircuitReport:
    """The numbers and pictures of a playtest, for a designer.

    Attributes
    ----------
    result : PlaytestResult
    corners : DataFrame
        :func:`fdlab.analysis.stats.corner_table`, most dangerous first.
    heat : DataFrame
        :func:`fdlab.analysis.stats.space_heat`.
    grid : DataFrame
        :func:`fdlab.analysis.stats.grid_wins`.
    bots : DataFrame
        :func:`fdlab.analysis.stats.bot_table`, with each bot's solo gap to
        par on this board when it was measured (:func:`fdlab.analysis.stats.solo_gaps`).
    lengths : Series
        Races per length in rounds.
    finishing : float
        Share of cars that finished.
    par : ParTable or ParSolution or None
        The solo par (for the street and advanced rules: of the one-pool
        approximation the ``par`` bots drive by, :mod:`fdlab.par.approx`).
    problems : tuple of str
        The validator's problems of the board, when it was playtested
        anyway (``fdlab playtest --force``); the report says so first.
    """

    result: PlaytestResult
    corners: pd.DataFrame
    heat: pd.DataFrame
    grid: pd.DataFrame
    bots: pd.DataFrame
    lengths: pd.Series
    finishing: float
    par: ParTable | ParSolution | None
    problems: tuple[str, ...] = ()

    @property
    def most_dangerous(self) -> Any:
        """Id of the most dangerous corner (``None`` on a board without corners)."""
        return None if self.corners.empty else self.corners.index[0]

    def sentences(self) -> list[str]:
        """The report in a few plain sentences, most important first."""
        result = self.result
        lines = []
        if self.problems:
            lines.append(
                f"Played on a board with {len(self.problems)} problem(s) the validator "
                f"found, so its figures may not hold: {'; '.join(self.problems[:3])}"
                f"{'; ...' if len(self.problems) > 3 else ''}."
            )
        if self.most_dangerous is not None:
            row = self.corners.iloc[0]
            lines.append(
                f"Most dangerous: {row['name']} ({row['stops']} stop(s)): "
                f"{_pct(row['overshoot_rate'])} of passages overshoot, "
                f"{_pct(row['elimination_rate'])} end in an elimination, "
                f"{row['damage_per_passage']:.1f} damage per passage."
            )
        crashes = self.corners[self.corners["eliminations"] > 0]
        if len(crashes) and "bot_mistakes" in crashes:
            worst = crashes.sort_values("eliminations", ascending=False).iloc[0]
            causes = [
                (worst["bot_mistakes"], "bot mistake(s) (a safe choice existed)"),
                (
                    worst["worn_out"],
                    "worn out (no safe choice left, but a car with full pools had one: "
                    "the bot's earlier driving)",
                ),
                (
                    worst["no_safe_option"],
                    "with no safe option even with full pools (the circuit's danger)",
                ),
                (worst["by_chance"], "by chance (contact, engine)"),
            ]
            said = ", ".join(f"{int(n)} {what}" for n, what in causes if n)
            lines.append(f"Eliminations at {worst['name']}: {said}.")
        if len(crashes):
            worst = crashes.sort_values("eliminations", ascending=False).iloc[0]
            if worst.name != self.most_dangerous:
                lines.append(
                    f"Most eliminations: {worst['name']} ({worst['stops']} stop(s)): "
                    f"{int(worst['eliminations'])}, {_pct(worst['elimination_rate'])} of passages."
                )
        rounds = result.races["rounds"]
        laps = result.preset.laps
        cars = len(result.bots)
        lines.append(
            f"{_count(len(rounds), 'race')} of {_count(laps, 'lap')}{result.laps_note} "
            f"({result.preset.name} "
            f"rules) with {_count(cars, 'car')} last {rounds.mean():.1f} rounds "
            f"(from {rounds.min()} to {rounds.max()}); {_pct(self.finishing)} of cars finish."
        )
        won = result.races["winner"].notna().any()
        if cars > 1 and won and not self.grid.empty and 1 in self.grid.index:
            pole = self.grid.loc[1]
            verdict = (
                "significantly more than a fair share"
                if pole["flag"] and pole["win_rate"] > pole["fair"]
                else "significantly less than a fair share"
                if pole["flag"]
                else "not significantly different from a fair share"
            )
            lines.append(
                f"Pole wins {_pct(pole['win_rate'])} of races (fair share {_pct(pole['fair'])}): "
                f"{verdict} (p = {pole['p_value']:.3g})."
            )
        elif cars > 1 and not won:
            lines.append("No race had a winner, so the grid's fairness is not measured.")
        lines.append(self._bots_sentence())
        if self.par is not None:
            lines.append(self._finishers_sentence())
        return lines

    def _finishers_sentence(self) -> str:
        """The solo par, and the turns each bot's finishers took among the other cars."""
        assert self.par is not None
        model = "" if exact(self.result.preset) else " (of a one-pool approximation)"
        solo = f"Solo par{model} {self.par.par:.2f} turns"
        finished = self.bots[self.bots["mean_turns"] == self.bots["mean_turns"]]
        if finished.empty:
            return f"{solo}; no car finished, so no bot's race time can be set against it."
        times = ", ".join(
            f"{row['mean_turns']:.1f}{' turns' if k == 0 else ''} ({row['over_par']:+.1f}) "
            f"with `{bot}`"
            for k, (bot, row) in enumerate(finished.iterrows())
        )
        none = [f"`{bot}`" for bot in self.bots.index if bot not in finished.index]
        unfinished = f"; no {' or '.join(none)} car finished" if none else ""
        return f"{solo}. Among the other cars, finishers take {times}{unfinished}."

    def _bots_sentence(self) -> str:
        """Which bots drove, and how far from par each drives alone on this board."""
        counts: dict[str, int] = {}
        for label in self.result.bots:
            counts[label] = counts.get(label, 0) + 1
        who = ", ".join(f"{n} x `{label}`" for label, n in counts.items())
        if "solo_gap" not in self.bots:
            return f"Bots: {who}."
        alone = "; ".join(
            f"`{bot}` {_gap(row['solo_gap'])}, {_pct(row['solo_eliminated'])} eliminated"
            if row["solo_gap"] == row["solo_gap"]
            else f"`{bot}` never finished"  # no gap to measure: every solo race eliminated
            for bot, row in self.bots.iterrows()
            if row["solo_eliminated"] == row["solo_eliminated"]
        )
        if not alone:
            return f"Bots: {who}."
        races = self.result.info.get("solo_races", 0)
        why = (
            ""
            if exact(self.result.preset)
            else " (par is that of a one-pool approximation of these rules: a bot that spreads"
            " its wear over the pools can finish under it)"
        )
        return f"Bots: {who}. Alone on this board ({races} races each): {alone}{why}."

    def findings(self) -> list[Finding]:
        """What the circuit plays like, in plain sentences with a picture each.

        See :func:`fdlab.analysis.findings.findings`.
        """
        return findings(self)

    @property
    def tables(self) -> dict[str, Any]:
        """The report as data: every table behind the findings, by name.

        Examples
        --------
        >>> from fdlab.analysis.examples import small_playtest
        >>> sorted(circuit_report(small_playtest(), solo_races=2).tables)
        ['bots', 'cars', 'corners', 'findings', 'grid', 'heat', 'lengths', 'races', 'turns']
        """
        return {
            "findings": pd.DataFrame(
                [
                    {"topic": f.topic, "finding": f.text, "details": f.details}
                    for f in self.findings()
                ]
            ),
            "corners": self.corners,
            "grid": self.grid,
            "bots": self.bots,
            "lengths": self.lengths,
            "heat": self.heat,
            "races": self.result.races,
            "cars": self.result.cars,
            "turns": self.result.turns,
        }

    def _repr_html_(self) -> str:
        return self.findings_html()

    def findings_html(self) -> str:
        """The report as one HTML block: the findings first, the statistics folded away."""
        result = self.result
        found = self.findings()
        cards = "".join(
            "<div style='display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;"
            "margin:0 0 14px 0'>"
            f"<div style='flex:1 1 22em;max-width:40em'>{_sentence_html(f.text)}</div>"
            f"<div style='flex:0 1 auto;max-width:100%;overflow-x:auto'>{f.picture}</div></div>"
            for f in found
        )
        warning = (
            f"<p style='color:#b00020'>{_sentence_html(self.sentences()[0])}</p>"
            if self.problems
            else ""
        )
        details = "".join(
            f"<li><b>{html.escape(f.topic)}</b>: {html.escape(f.details)}</li>"
            for f in found
            if f.details
        )
        corners = self.corners.drop(columns=["danger"], errors="ignore")
        statistics = "".join(f"<li>{_sentence_html(s)}</li>" for s in self.sentences())
        return (
            f"<div><h3>How {html.escape(result.track.name)} plays</h3>{warning}{cards}"
            "<details><summary>The statistics behind these findings</summary>"
            f"<ul>{details}{statistics}</ul>"
            f"<b>Corners</b> (most dangerous first){_table(corners)}"
            f"<b>Win rate by grid spot</b>{_table(self.grid)}"
            f"<b>Bots</b>{_table(self.bots)}</details>"
            "<i>report.tables holds every table; report.save_html(path) writes this report "
            "with an interactive board</i></div>"
        )

    # -- pictures ----------------------------------------------------------------
    def heatmap(self, width: int = 900, *, top: float | None = None, label: str = "") -> Any:
        """The board coloured by damage per race on each space, eliminations marked.

        Parameters
        ----------
        width : int
        top : float, optional
            Damage per race drawn darkest (default: this playtest's highest),
            so that pictures side by side can share one scale.
        label : str
            Prefix of the title (e.g. the version's name).
        """
        from bokeh.models import ColumnDataSource, HoverTool

        from fdlab.plot import board_figure

        track = self.result.track
        per_race = self.heat["damage_per_race"]
        if top is None:
            top = float(per_race.max()) if len(per_race) else 0.0
        head = f"{label}: " if label else f"{track.name}: "
        fig = board_figure(
            track,
            title=f"{head}damage per race, pale yellow to dark red = up to {top:.2g} "
            "(eliminations as crosses)",
            width=width,
        )
        spaces = fig.select_one({"name": "spaces"})
        data = dict(spaces.data_source.data)
        nodes = track.graph.nodes
        fills, notes = [], []
        for sid, fill, hover in zip(data["id"], data["fill_color"], data["hover"], strict=True):
            value = float(per_race.get(sid, 0.0))
            lost = int(self.heat["eliminations"].get(sid, 0))
            if value > 0 and top > 0:
                fill = heat_colour(value, top)
            elif nodes[sid]["kind"] == "track" and nodes[sid]["hazard"] is None:
                fill = NO_DAMAGE if nodes[sid]["corner"] is None else NO_DAMAGE_CORNER
            fills.append(fill)
            notes.append(f"{hover} | damage/race {value:.2f}, eliminations {lost}".strip(" |"))
        data["fill_color"] = fills
        data["hover"] = notes
        spaces.data_source.data = data
        _name_corners(fig)
        crashes = self.heat[self.heat["eliminations"] > 0]
        marks = {
            "x": [float(nodes[s]["x"]) for s in crashes.index],
            "y": [float(nodes[s]["y"]) for s in crashes.index],
            "count": [int(n) for n in crashes["eliminations"]],
            "size": [10 + 3 * min(6, int(n)) for n in crashes["eliminations"]],
        }
        crosses = fig.scatter(
            "x",
            "y",
            source=ColumnDataSource(marks),
            marker="x",
            size="size",
            line_color="#111111",
            line_width=3,
            name="eliminations",
        )
        fig.add_tools(HoverTool(renderers=[crosses], tooltips=[("eliminations", "@count")]))
        return fig

    def layout(self, width: int = 900) -> Any:
        """The whole report as one Bokeh layout (sentences, board, charts, tables)."""
        from bokeh.layouts import column, row
        from bokeh.models import Div
        from bokeh.plotting import figure

        result = self.result
        lengths = self.lengths
        hist = figure(
            title="Race length (rounds)", width=width // 2, height=260, toolbar_location=None
        )
        hist.vbar(x=[int(v) for v in lengths.index], top=list(lengths.values), width=0.8)
        hist.xaxis.axis_label = "rounds"
        hist.yaxis.axis_label = "races"
        spots = [str(int(s)) for s in self.grid.index]
        wins = figure(
            title="Win rate by grid spot (95% interval; dashed: fair share)",
            x_range=spots,
            width=width // 2,
            height=260,
            toolbar_location=None,
        )
        if spots:
            wins.vbar(x=spots, top=list(self.grid["win_rate"]), width=0.7, color="#3182bd")
            wins.segment(x0=spots, x1=spots, y0=list(self.grid["low"]), y1=list(self.grid["high"]))
            wins.line(x=spots, y=list(self.grid["fair"]), line_dash="dashed", color="#555555")
        head = Div(
            text=f"<h2>Circuit report: {html.escape(result.track.name)}</h2>"
            + self.findings_html(),
            width=width,
        )
        corners = self.corners.drop(columns=["danger"], errors="ignore")
        tables = Div(
            text=f"<b>Corners</b> (most dangerous first){_table(corners, width)}"
            f"<b>Bots</b>{_table(self.bots, width)}",
            width=width,
        )
        return column(head, self.heatmap(width), row(hist, wins), tables)

    def show(self) -> None:
        """Draw the report in a notebook (BokehJS inlined, works offline)."""
        from fdlab.plot.notebook import show_in_notebook

        show_in_notebook(self.layout())

    def save_html(self, path: str | os.PathLike[str]) -> Path:
        """Write the report as a standalone HTML page (no network needed to open it)."""
        from fdlab.plot import save_html

        return save_html(self.layout(), path, title=f"Circuit report: {self.result.track.name}")


def circuit_report(
    result: PlaytestResult,
    par: bool | ParSolution | ParTable | None = True,
    solo_races: int = 100,
    problems: tuple[str, ...] = (),
) -> CircuitReport:
    """The circuit report of a playtest.

    Parameters
    ----------
    result : PlaytestResult
    par : bool or ParSolution or ParTable
        ``True`` takes the solo par of the board (solved once per board
        content, :func:`fdlab.par.solo_table`; for the street and advanced
        rules the par of the one-pool approximation), ``False`` leaves it
        out, or pass a solution already computed.
    solo_races : int
        Solo races per bot to measure each bot's gap to par on this board
        (0: not measured). Needs the par.
    problems : tuple of str
        The validator's problems of a board playtested anyway.

    Returns
    -------
    CircuitReport

    Examples
    --------
    >>> from fdlab.analysis.playtest import playtest
    >>> from fdlab.track.examples import two_corner_ring
    >>> track = two_corner_ring(stops=(1, 2))
    >>> result = playtest(track, 2, races=5, workers=1, progress=False)
    >>> report = circuit_report(result, solo_races=5)
    >>> report.most_dangerous in (1, 2), len(report.sentences()) >= 3
    (True, True)
    >>> list(report.bots.index), "solo_gap" in report.bots
    (['par'], True)
    """
    solution: ParSolution | ParTable | None = None
    if isinstance(par, ParSolution | ParTable):
        solution = par
    elif par:
        try:
            solution = solo_table(compile_board(result.track), result.preset)
        except SoloModelError:
            solution = None
    solo = None
    if solution is not None and solo_races > 0:
        solo = solo_gaps(result, solution.par, races=solo_races)
        result.info["solo_races"] = solo_races
    return CircuitReport(
        result=result,
        corners=corner_table(result),
        heat=space_heat(result),
        grid=grid_wins(result),
        bots=bot_table(result, solution.par if solution is not None else None, solo),
        lengths=race_lengths(result),
        finishing=finishing_rate(result),
        par=solution,
        problems=tuple(problems),
    )


def _name_corners(fig: Any) -> None:
    """Write each corner's name above its stop flag, to match the board with the tables."""
    flags = fig.select_one({"name": "flags"})
    if flags is None:
        return
    source = flags.data_source
    source.data = dict(source.data, name_y=[fy - 22 for fy in source.data["fy"]])
    fig.text(
        "px",
        "py",
        source=source,
        text="name",
        x_offset="fx",
        y_offset="name_y",
        text_align="center",
        text_baseline="middle",
        text_font_size="11px",
        text_font_style="bold",
        text_color="#1b1d21",
        background_fill_color="#ffffff",
        background_fill_alpha=0.8,
        padding=2,
        name="corner_names",
    )


def _pct(value: float) -> str:
    """A share in percent, with one decimal below 10% so that rare events do not read as 0%.

    Examples
    --------
    >>> _pct(0.4123), _pct(0.0186), _pct(0.0017), _pct(0.0), _pct(float("nan"))
    ('41%', '1.9%', '0.2%', '0%', 'n/a')
    >>> _pct(-0.0036), _pct(-0.25)
    ('-0.4%', '-25%')
    """
    if value != value:
        return "n/a"
    if 0 < abs(value) < 0.1:
        return f"{value:.1%}"
    return f"{value:.0%}"


def _gap(value: float) -> str:
    """A bot's solo gap to par in words: over, at or under par.

    Examples
    --------
    >>> _gap(0.00875), _gap(-0.00357), _gap(-0.0002), _gap(0.19)
    ('0.9% over par', '0.4% under par', 'at par (0.0%)', '19% over par')
    """
    if abs(value) < 0.0005:
        return "at par (0.0%)"
    return f"{_pct(abs(value))} {'over' if value > 0 else 'under'} par"


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1.

    Examples
    --------
    >>> _count(1, "car"), _count(6, "car")
    ('1 car', '6 cars')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _sentence_html(sentence: str) -> str:
    """A report sentence as HTML: escaped, with the `bot labels` in code style.

    Examples
    --------
    >>> _sentence_html("Bots: 2 x `par` & 1 x `random`.")
    'Bots: 2 x <code>par</code> &amp; 1 x <code>random</code>.'
    """
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(sentence))


#: Table columns that hold shares, shown in percent (the sentences' unit): by
#: their names' ends, and by name (a bot's solo gap, the interval of a win rate).
_SHARE_ENDS = ("_rate", "_share")
_SHARES = frozenset({"solo_gap", "solo_eliminated", "low", "high", "fair"})


def _table(frame: pd.DataFrame, width: int | None = None) -> str:
    """A table as HTML, shares in percent, scrolling sideways when wider than ``width`` px.

    Without ``width``: when wider than the page (a notebook's output area).
    """
    shares = {
        column: _pct
        for column in frame.columns
        if isinstance(column, str) and (column.endswith(_SHARE_ENDS) or column in _SHARES)
    }
    table = frame.to_html(formatters=shares, float_format=lambda v: f"{v:.3g}", border=0, na_rep="")
    limit = f"{width}px" if width else "100%"
    return f'<div style="overflow-x: auto; max-width: {limit}">{table}</div>'
