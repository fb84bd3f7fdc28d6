"""HTML tables of the game's values, for notebooks: the presentation of the rules engine.

The rules engine (:mod:`fdlab.rules`) is pure Python and writes no markup:
its values' ``_repr_html_`` methods import the function here that draws
them, when a notebook first shows one. Every table is built by
:func:`html_table`, so they look alike and escape their text the same way.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from fdlab._text import counted

if TYPE_CHECKING:
    # annotations only: the rules engine stands beside the pictures (tests/test_layers.py)
    from fdlab.rules.board import Board
    from fdlab.rules.events import Event
    from fdlab.rules.odds import GearOdds
    from fdlab.rules.presets import Preset
    from fdlab.rules.race import LegalMove
    from fdlab.rules.simulate import RaceResult
    from fdlab.rules.state import RaceState
    from fdlab.track.model import Track

__all__ = [
    "RaceLike",
    "board_html",
    "events_html",
    "gear_odds_html",
    "html_table",
    "move_list_html",
    "preset_html",
    "race_html",
    "race_result_html",
]


class RaceLike(Protocol):
    """What :func:`race_html` reads of a race (an interactive :class:`fdlab.rules.race.Race`)."""

    @property
    def track(self) -> Track: ...

    @property
    def board(self) -> Board: ...

    @property
    def preset(self) -> Preset: ...

    @property
    def state(self) -> RaceState: ...

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def log(self) -> Sequence[str]: ...

    def standings(self) -> list[dict[str, Any]]: ...


def _ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th'."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def html_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], title: str = "") -> str:
    """A small HTML table; every cell is escaped text.

    Parameters
    ----------
    headers : sequence of str
    rows : iterable of sequences
        One value per header; values are written with ``str``.
    title : str
        Bold text above the table (escaped), optional.

    Examples
    --------
    >>> html_table(["gear", "odds"], [[1, "50%"]], title="A & B")
    '<div><b>A &amp; B</b><table><tr><th>gear</th><th>odds</th></tr><tr><td>1</td><td>50%</td></tr></table></div>'
    """
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    caption = f"<b>{html.escape(title)}</b>" if title else ""
    return f"<div>{caption}<table><tr>{head}</tr>{body}</table></div>"


def move_list_html(moves: Iterable[LegalMove]) -> str:
    """The legal moves of a car (:class:`fdlab.rules.race.LegalMove`), one row each.

    Examples
    --------
    >>> from fdlab.rules import LoadedDice, Race
    >>> race = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=1, dice=LoadedDice([9, 2]))
    >>> _ = race.play(1)
    >>> "<th>lane changes</th>" in move_list_html(race.legal_moves())
    True
    """
    headers = ["to space", "moved", "braked", "lane changes", "overshoot", "eliminates"]
    rows = [
        [
            repr(m.destination),
            m.moved,
            m.braked,
            m.lane_changes,
            m.overshoot,
            "yes" if m.eliminates else "",
            m.cost.describe(),
            " ".join(map(repr, m.path)),
        ]
        for m in moves
    ]
    return html_table([*headers, "cost", "path"], rows)


def gear_odds_html(odds: GearOdds) -> str:
    """The odds of stopping in a corner for each gear (:class:`fdlab.rules.odds.GearOdds`).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from fdlab.rules.odds import GearOdds
    >>> page = gear_odds_html(GearOdds(corner=2, car="Blue", odds={3: Fraction(1, 2)}, max_damage=1))
    >>> "with at most 1 damage" in page, "<td>50%</td>" in page
    (True, True)
    """
    damage = "with no damage" if odds.max_damage == 0 else f"with at most {odds.max_damage} damage"
    title = f"{odds.car}: odds of stopping in corner {odds.corner!r} {damage}"
    rows = [[_ordinal(g), f"{float(p):.0%}", p] for g, p in odds.odds.items()]
    headers = ["gear", "odds", "exact"]
    risks = getattr(odds, "risks", None) or {}
    if risks:
        # the risk before the roll (fdlab.rules.odds.gear_risks): collisions not counted
        headers += ["out this turn", "expected loss", "corner"]
        for row, gear in zip(rows, odds.odds, strict=True):
            risk = risks.get(gear)
            figures = risk.figures() if risk is not None else {}
            row += [figures.get(key, "") for key in ("out", "loss", "corner")]
    return html_table(headers, rows, title=title)


def board_html(board: Board) -> str:
    """A compiled board's size and corners (:class:`fdlab.rules.board.Board`).

    Examples
    --------
    >>> from fdlab.rules import compile_board
    >>> "<td>2</td>" in board_html(compile_board(from_ascii(". 1 1 .", corners={1: 2})))
    True
    """
    names = {cid: info.get("name", "") for cid, info in board.track.corners.items()}
    rows = [
        [cid, names.get(cid, ""), stops]
        for cid, stops in sorted(board.stops.items(), key=lambda item: str(item[0]))
    ]
    title = f"Board {board.track.name}: {len(board.ids)} spaces, lap length {board.lap_length:g}"
    return html_table(["corner", "name", "stops"], rows, title=title)


def preset_html(preset: Preset) -> str:
    """A rules preset's dice and pools (:class:`fdlab.rules.presets.Preset`).

    Examples
    --------
    >>> from fdlab.rules import BASIC
    >>> "<th>die faces</th>" in preset_html(BASIC)
    True
    """
    extras = [
        text for text, on in (("street rules (X)", preset.street), ("pits (P)", preset.pits)) if on
    ]
    pools = ", ".join(f"{n} {v}" for n, v in preset.pools)
    title = (
        f"{preset.name}: {preset.model} rules, {counted(preset.laps, 'lap')}"
        f"{'; ' + ', '.join(extras) if extras else ''}; pools: {pools}"
    )
    rows = [[_ordinal(g), ", ".join(map(str, f))] for g, f in enumerate(preset.gear_faces, 1)]
    return html_table(["gear", "die faces"], rows, title=title)


def race_result_html(result: RaceResult) -> str:
    """The finishing order of a simulated race (:class:`fdlab.rules.simulate.RaceResult`).

    Examples
    --------
    >>> from fdlab.rules import simulate
    >>> from fdlab.bots import HeuristicBot
    >>> track = from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11)
    >>> "<td>finished</td>" in race_result_html(simulate(track, [HeuristicBot()] * 2, seed=1))
    True
    """
    rows = [[place, result.names[c], "finished"] for place, c in enumerate(result.finished, 1)]
    for c in reversed(result.eliminated):
        rows.append([len(rows) + 1, result.names[c], "eliminated"])
    title = f"Race result after {result.rounds} rounds (seed {result.seed!r})"
    return html_table(["place", "car", "status"], rows, title=title)


def events_html(events: Iterable[Event]) -> str:
    """Events of a race in plain words, one a line (:class:`fdlab.rules.events.EventList`).

    Examples
    --------
    >>> from fdlab.rules import Event
    >>> events_html([Event("roll", 0, "Blue, 5th gear, rolls 20")])
    "<div style='font-family:monospace'>Blue, 5th gear, rolls 20</div>"
    """
    lines = "<br>".join(html.escape(str(event)) for event in events)
    return f"<div style='font-family:monospace'>{lines}</div>"


def race_html(race: RaceLike, *, width: int = 640) -> str:
    """An interactive race (:class:`fdlab.rules.race.Race`): standings, the board, recent events.

    Examples
    --------
    >>> from fdlab.rules import Race
    >>> page = race_html(Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=1))
    >>> "<svg" in page and "<th>gear</th>" in page
    True
    """
    from fdlab.plot.colors import car_color
    from fdlab.plot.svg import track_svg
    from fdlab.track.model import SCREEN_PICTURE_HEIGHT

    standings = race.standings()
    pools = list(race.preset.pool_names)
    headers = ["", "car", "status", "lap", "space", "gear", *pools]
    rows = [
        [_ordinal(v) if k == "gear" and isinstance(v, int) and v > 0 else v for k, v in row.items()]
        for row in standings
    ]
    cars = [
        (race.board.ids[car.space], race.names[c], car_color(c, race.names[c]))
        for c, car in enumerate(race.state.cars)
        if car.space >= 0
    ]
    picture = track_svg(race.track, cars=cars, width=width, max_height=SCREEN_PICTURE_HEIGHT)
    recent = "<br>".join(html.escape(t) for t in race.log[-6:])
    return (
        f"<div>{html_table(headers, rows, title=repr(race))}"
        f"<div>{picture}</div><p style='font-size:smaller'>{recent}</p></div>"
    )
