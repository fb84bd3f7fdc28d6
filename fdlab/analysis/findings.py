"""A playtest in a designer's words: what the circuit plays like, one finding at a time.

:func:`findings` reads a :class:`~fdlab.analysis.report.CircuitReport` and
says, in plain sentences with a small picture each, what a designer asks
first: how long a race lasts, how often the lead changes and where cars
overtake, whether pole is an advantage, which corners decide races and
which never matter, where cars are eliminated and why, and whether the bots
drive well enough for the figures to hold. Uncertainty is a plain interval
("41 rounds (40.6-41.4)"); the statistical tests behind a finding are in its
``details``, which the report folds away.

Examples
--------
>>> from fdlab.analysis.examples import small_playtest
>>> from fdlab.analysis.report import circuit_report
>>> report = circuit_report(small_playtest(races=6), solo_races=4)
>>> [f.topic for f in findings(report)]
['race length', 'lead changes', 'pole', 'corners', 'eliminations', 'bots']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fdlab._text import counted
from fdlab.analysis.stats import mean_interval, spread_text, wilson

if TYPE_CHECKING:
    import pandas as pd

    from fdlab.analysis.report import CircuitReport

__all__ = ["Finding", "findings", "heat_svg", "with_heat_key"]

#: A corner "never matters" when fewer passages than this overshoot it...
QUIET_OVERSHOOT = 0.05
#: ...cars lose less than this (SP per passage) there, and fewer overtakes than this share.
QUIET_DAMAGE = 0.1
QUIET_OVERTAKES = 0.02

#: A corner is said to be overshot on the run to the flag when at least this share of its
#: passages are (:func:`fdlab.analysis.stats.to_the_flag`).
SPRINT_SHARE = 0.2

#: The causes of an elimination (:data:`fdlab.analysis.racelog.CAUSES`) in a designer's words.
CAUSE_WORDS = {
    "bot_mistakes": "by the bot's mistake",
    "worn_out": "worn out by earlier driving",
    "no_safe_option": "by the corner's danger",
    "by_chance": "by bad luck",
}

#: What each cause means, for the details of the finding.
CAUSE_MEANING = (
    "The bot's mistake: a safe choice existed. Worn out: no safe choice was left, but a car "
    "with full points would have had one. The corner's danger: not even a car with full "
    "points had a safe choice. Bad luck: contact or the engine after a safe move."
)


@dataclass(frozen=True)
class Finding:
    """One thing the playtest says about the circuit.

    Attributes
    ----------
    topic : str
        ``"race length"``, ``"lead changes"``, ``"pole"``, ``"corners"``,
        ``"eliminations"`` or ``"bots"``.
    text : str
        The finding in one or two plain sentences.
    picture : str
        A small SVG picture of it (empty when there is nothing to draw).
    details : str
        The statistics behind it (tests, counts), for those who ask.
    """

    topic: str
    text: str
    picture: str = ""
    details: str = ""


def findings(report: CircuitReport) -> list[Finding]:
    """The report's findings, in the order a designer reads them.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> from fdlab.analysis.report import circuit_report
    >>> report = circuit_report(small_playtest(races=6), solo_races=4)
    >>> findings(report)[0].text.startswith("A race of 2 cars over 1 lap lasts")
    True
    """
    found = [_race_length(report), _lead_changes(report), _pole(report), _corners(report)]
    found += [_eliminations(report), _bots(report)]
    return [f for f in found if f is not None]


def _pct(x: float) -> str:
    return f"{x:.0%}" if x == x else "n/a"


def _share(x: float) -> str:
    """A share with one decimal below 10% (``0.4%``), whole percents above."""
    return f"{x:.1%}" if x < 0.1 else f"{x:.0%}"


def _race_length(report: CircuitReport) -> Finding:
    result = report.result
    rounds = result.races["rounds"]
    mean, low, high = mean_interval(rounds)
    cars, laps = len(result.bots), result.preset.laps
    raced = counted(laps, "lap") + result.laps_note
    text = (
        f"A race of {counted(cars, 'car')} over {raced} lasts {mean:.1f} rounds "
        f"({spread_text(low, high)}); the shortest took {int(rounds.min())}, "
        f"the longest {int(rounds.max())}."
    )
    from fdlab.plot.bars import bar_chart_svg

    lengths = report.lengths
    picture = bar_chart_svg(
        [str(int(v)) for v in lengths.index],
        [float(n) / max(1, len(rounds)) for n in lengths.values],
        title="Races by length (rounds)",
        fmt="{:.0%}",
    )
    return Finding(
        "race length",
        text,
        picture,
        f"{len(rounds)} races; interval: mean +- 1.96 standard errors.",
    )


def _lead_changes(report: CircuitReport) -> Finding | None:
    turns = report.result.turns
    if len(report.result.bots) < 2 or "took_lead" not in turns:
        return None
    per_race = turns.groupby("race")["took_lead"].sum().reindex(report.result.races["race"])
    mean, low, high = mean_interval(per_race.fillna(0))
    corners = report.corners
    shares = corners["overtake_share"].sort_values(ascending=False)
    shares = shares[shares > 0]
    if len(shares):
        top = shares.iloc[:2]
        where = " and ".join(f"{corners.loc[c, 'name']} ({share:.0%})" for c, share in top.items())
        place = f"Most overtakes are made on the way into {where}."
    else:
        place = "No car overtook another."
    text = f"The lead changes {mean:.1f} times a race ({spread_text(low, high)}). {place}"
    from fdlab.plot.bars import bar_chart_svg

    shown = shares.iloc[:6]
    picture = (
        bar_chart_svg(
            [str(corners.loc[c, "name"]) for c in shown.index],
            [float(v) for v in shown.values],
            title="Where overtakes happen (share, into each corner)",
            fmt="{:.0%}",
            picked=[k < 2 for k in range(len(shown))],
        )
        if len(shown)
        else ""
    )
    total = int(turns["overtakes"].sum())
    return Finding("lead changes", text, picture, f"{total} overtakes in {len(per_race)} races.")


def _pole(report: CircuitReport) -> Finding | None:
    grid = report.grid
    cars = len(report.result.bots)
    if (
        cars < 2
        or grid.empty
        or 1 not in grid.index
        or not report.result.races["winner"].notna().any()
    ):
        return None
    pole = grid.loc[1]
    rate, low, high, fair = (float(pole[k]) for k in ("win_rate", "low", "high", "fair"))
    if low > 2 * fair:
        verdict = (
            "That is a big advantage: a longer run to the first corner, or a grid further "
            "from it, would even it out."
        )
    elif low > fair:
        verdict = "That is an advantage."
    elif high < fair:
        verdict = "That is a disadvantage: the cars behind get past it."
    else:
        verdict = "That is no clear advantage either way."
    text = (
        f"Pole wins {_pct(rate)} of races ({_pct(low)}-{_pct(high)}) where a fair share is "
        f"{_pct(fair)}. {verdict}"
    )
    from fdlab.plot.bars import bar_chart_svg

    spots = list(grid.index)
    picture = bar_chart_svg(
        [f"grid {int(s)}" for s in spots],
        [float(grid.loc[s, "win_rate"]) for s in spots],
        title="Wins by grid spot (line: 95% interval)",
        fmt="{:.0%}",
        intervals=[(float(grid.loc[s, "low"]), float(grid.loc[s, "high"])) for s in spots],
        mark=fair,
        mark_label="fair share",
        picked=[s == 1 for s in spots],
    )
    details = (
        f"Pole: {int(pole['wins'])} wins in {int(pole['starts'])} starts; Wilson interval; "
        f"binomial test against a fair share: p = {float(pole['p_value']):.3g}."
    )
    return Finding("pole", text, picture, details)


def _corners(report: CircuitReport) -> Finding | None:
    corners = report.corners
    if corners.empty:
        return None
    biting = corners[corners["danger"] > 0].iloc[:2]
    unit = report.result.preset.unit
    flag = corners["flag_overshoot_rate"].fillna(0)
    quiet = corners[
        (corners["overshoot_rate"].fillna(0) < QUIET_OVERSHOOT)
        & (flag < QUIET_OVERSHOOT)
        & (corners["damage_per_passage"].fillna(0) < QUIET_DAMAGE)
        & (corners["eliminations"] == 0)
        & (corners["overtake_share"] < QUIET_OVERTAKES)
    ]
    parts = []
    if len(biting):
        said = "; ".join(
            f"{row['name']} ({counted(int(row['stops']), 'stop')}): overshot in "
            f"{_pct(row['overshoot_rate'])} of passages, {row['damage_per_passage']:.1f} {unit} a car"
            for _, row in biting.iterrows()
        )
        parts.append(f"The corners that decide races: {said}.")
    sprinted = corners[flag >= SPRINT_SHARE]
    if len(sprinted):
        said = "; ".join(
            f"{row['name']} in {_pct(flag[cid])} of passages" for cid, row in sprinted.iterrows()
        )
        parts.append(
            f"On the run to the flag cars overshoot {said}: points spent at the end of the "
            "race, which no later corner needs; that is no sign the corner is too tight, "
            "and it is left out of the figures above."
        )
    if len(quiet):
        names = ", ".join(str(name) for name in quiet["name"])
        verb = "never matters" if len(quiet) == 1 else "never matter"
        parts.append(
            f"{names} {verb}: cars pass without overshooting, losing points or overtaking; "
            "more stops or a tighter line would make it count."
        )
    if not parts:
        parts.append("Every corner costs some cars something, none stands out.")
    return Finding("corners", " ".join(parts), _heat_picture(report))


def _heat_picture(report: CircuitReport) -> str:
    return heat_svg(report)


def heat_svg(report: CircuitReport, *, top: float | None = None, width: int = 520) -> str:
    """The board coloured by the damage taken on each space per race (SVG).

    ``top`` is the damage per race drawn darkest (default: this playtest's
    highest), so that two boards side by side can share one scale.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> from fdlab.analysis.report import circuit_report
    >>> heat_svg(circuit_report(small_playtest(), par=False)).startswith("<svg")
    True
    """
    from fdlab.analysis.report import heat_colour
    from fdlab.plot.svg import track_svg

    per_race = report.heat["damage_per_race"]
    if top is None:
        top = float(per_race.max()) if len(per_race) else 0.0
    fills = {}
    if top > 0:
        for space, value in per_race.items():
            if value > 0:
                fills[space] = heat_colour(value, top)
    board = track_svg(report.result.track, width=width, fills=fills, legend=False)
    unit = report.result.preset.unit
    return with_heat_key(board, top, unit)


#: Height of the colour key under a heat picture, in pixels (one line of words).
_KEY_HEIGHT = 26
#: Width of a character of the key's words (11 px DejaVu Sans), in pixels, about.
_CHAR_WIDTH = 6.4


def with_heat_key(svg: str, top: float, unit: str = "SP") -> str:
    """``svg`` with a colour key under it: the heat colours from none to ``top`` a race.

    Examples
    --------
    >>> board = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"></svg>'
    >>> keyed = with_heat_key(board, 6.6)
    >>> keyed.startswith("<svg") and 'height="226"' in keyed and "up to 6.6 SP" in keyed
    True
    >>> narrow = with_heat_key(board.replace('"600"', '"300"'), 6.6)  # the words in two lines
    >>> 'height="239"' in narrow and narrow.count("<text") == 2
    True
    """
    from fdlab.analysis.report import HEAT

    head = re.match(r'<svg[^>]*width="([0-9.]+)"[^>]*height="([0-9.]+)"', svg)
    if head is None:
        return svg
    width, height = float(head.group(1)), float(head.group(2))
    y = height + 6
    swatches = "".join(
        f'<rect x="{14 + 16 * k}" y="{y:.0f}" width="16" height="12" fill="{colour}"/>'
        for k, colour in enumerate(HEAT)
    )
    after = 14 + 16 * len(HEAT) + 6
    lines = (
        [f"damage a race, up to {top:.2g} {unit}", "(none: the board's colours)"]
        if top > 0
        else ["no damage anywhere"]
    )
    if after + _CHAR_WIDTH * len(" ".join(lines)) <= width - 4:  # fits beside the swatches
        lines = [" ".join(lines)]
    texts = "".join(
        f'<text x="{after}" y="{y + 10 + 13 * row:.0f}">{words}</text>'
        for row, words in enumerate(lines)
    )
    key = f'<g class="heat-key" font-size="11" fill="#333">{swatches}{texts}</g>'
    total = height + _KEY_HEIGHT + 13 * (len(lines) - 1)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{total:.0f}" '
        f'viewBox="0 0 {width:.0f} {total:.0f}" font-family="DejaVu Sans, Helvetica, Arial, '
        f'sans-serif">{svg}{key}</svg>'
    )


def _eliminations(report: CircuitReport) -> Finding:
    cars = report.result.cars
    lost = int((cars["status"] == "eliminated").sum())
    low, high = wilson(lost, len(cars))
    if not lost:
        return Finding(
            "eliminations",
            f"No car was eliminated in {len(report.result.races)} races "
            f"(at most {_pct(high)} of cars would be, by these races).",
        )
    corners = report.corners
    crashes = corners[corners["eliminations"] > 0].sort_values("eliminations", ascending=False)
    places = []
    for _, row in crashes.iloc[:3].iterrows():
        causes = [
            f"{int(row[key])} {words}" for key, words in CAUSE_WORDS.items() if row.get(key, 0)
        ]
        places.append(f"{int(row['eliminations'])} at {row['name']}, {', '.join(causes)}")
    elsewhere = lost - int(corners["eliminations"].sum())
    if elsewhere > 0:  # blamed on no corner: past the last corner before the flag
        places.append(f"{elsewhere} after the last corner, on the way to the flag")
    if len(crashes) > 3:
        places.append(f"{int(crashes['eliminations'].iloc[3:].sum())} at other corners")
    text = (
        f"{lost} of {len(cars)} cars {'was' if lost == 1 else 'were'} eliminated ({_share(lost / len(cars))}; "
        f"{_share(low)}-{_share(high)}): " + "; ".join(places) + "."
    )
    from fdlab.plot.bars import bar_chart_svg

    bars = _elimination_bars(crashes, elsewhere)
    picture = bar_chart_svg(
        [name for name, _ in bars],
        [float(count) for _, count in bars],
        title="Where cars were eliminated",
        fmt="{:.0f}",
        picked=[k == 0 for k in range(len(bars))],
    )
    details = f"{lost} of {len(cars)} cars; Wilson interval. {CAUSE_MEANING}"
    return Finding("eliminations", text, picture, details)


def _elimination_bars(crashes: pd.DataFrame, elsewhere: int) -> list[tuple[str, int]]:
    """Bars that add up to every elimination: the six worst corners, the other corners,
    then the cars lost after the last corner (on the way to the flag).

    Examples
    --------
    >>> import pandas as pd
    >>> crashes = pd.DataFrame({"name": list("ABCDEFGH"), "eliminations": [5, 4, 3, 2, 2, 1, 1, 1]})
    >>> _elimination_bars(crashes, 2)[-3:]
    [('F', 1), ('other corners', 2), ('after the last corner', 2)]
    """
    bars = [
        (str(name), int(n))
        for name, n in zip(crashes["name"], crashes["eliminations"], strict=True)
    ]
    shown = bars[:6]
    rest = sum(n for _, n in bars[6:])
    if rest:
        shown.append(("other corners", rest))
    if elsewhere > 0:
        shown.append(("after the last corner", elsewhere))
    return shown


def _bots(report: CircuitReport) -> Finding | None:
    bots = report.bots
    if "solo_gap" not in bots or report.par is None:
        return None
    par = report.par.par
    said = []
    for bot, row in bots.iterrows():
        gap, sem = float(row["solo_gap"]), float(row.get("solo_sem", float("nan")))
        if gap != gap:
            said.append(f"`{bot}` never finished alone")
            continue
        margin = 1.96 * sem / par if sem == sem and par else float("nan")
        if margin == margin and gap <= margin:
            # no driver beats the exact optimum on average: below par is the dice's luck
            said.append(f"`{bot}` at par (give or take {max(margin, -gap):.0%})")
        elif margin == margin:
            word = "over" if gap > 0 else "under"
            said.append(f"`{bot}` {abs(gap):.0%} {word} par (give or take {margin:.0%})")
        else:
            said.append(f"`{bot}` {gap:+.0%} from par")
    races = report.result.info.get("solo_races", 0)
    text = (
        f"Alone on the board ({races} races each) the bots drive: {'; '.join(said)}. "
        f"Par, the best a lone car can do on average, is {par:.1f} turns."
    )
    return Finding("bots", text, details="Solo races from pole, the same seeds for every bot.")
