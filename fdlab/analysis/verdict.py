"""What a board plays like, in a few seconds: the verdict the editor shows beside the plot.

A designer who moves a corner wants to know at once what the edit did to
the game, without leaving the editor for a playtest. :func:`board_verdict`
answers with what the default bot (``par``, guided by the exact solo
solution) finds on one lap of the board:

* the exact solo **par** of a lap (expected turns, :func:`fdlab.par.solo_table`),
  and its change since the verdict before;
* how long a **race of six cars** takes (rounds, with a 95% interval), from a
  few seeded races of ``par`` bots;
* for **each corner**, the share of passages that overshoot it and the
  share of cars eliminated in it, the worst corners marked.

One lap, basic rules: a two-lap race is the same lap twice, and the
verdict must be fresh within seconds of an edit (about 3 s on Monaco).
The full study is :func:`fdlab.analysis.playtest` and
:func:`fdlab.analysis.circuit_report`.

Examples
--------
>>> from fdlab.analysis.examples import tight_ring
>>> verdict = board_verdict(tight_ring(), races=4)
>>> round(verdict.par, 2), verdict.cars, len(verdict.corners)
(5.51, 2, 2)
"""

from __future__ import annotations

import html
import time
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.pit_worth import PitWorth
from fdlab.analysis.playtest import playtest
from fdlab.analysis.race_helper import RaceHelper
from fdlab.analysis.stats import corner_table, mean_interval, spread_text
from fdlab.errors import FdlabError
from fdlab.par import solo_table
from fdlab.par.approx import solo_preset
from fdlab.par.reuse import remembers
from fdlab.par.table import solve_to_reuse
from fdlab.rules.board import Board, compile_board
from fdlab.rules.presets import get_preset
from fdlab.track.model import Track

__all__ = ["CornerVerdict", "Verdict", "VerdictError", "board_verdict", "solve_for_edits"]

#: The least share the verdict shows (it rounds to 1%).
_SHOWN_SHARE = 0.005

#: Races of the verdict: 24 six-car laps of Monaco take about a second.
VERDICT_RACES = 24

#: Races per chunk when a helper process shares them: small, so neither side waits long.
_CHUNK = 2

#: The verdict's rules: basic, one lap.
VERDICT_RULES = ("basic", 1)

#: Cars in the verdict's races (fewer when the grid has fewer spots).
VERDICT_CARS = 6

#: A corner is marked when its danger (:func:`fdlab.analysis.stats.corner_table`: damage
#: per passage, eliminations weighing a full pool) is at least this...
WORST_DANGER = 0.5

#: At most this many corners are marked as the worst.
MARKED_CORNERS = 3


class VerdictError(PlaytestError):
    """A board that cannot be played yet; the message says what is missing."""


@dataclass(frozen=True)
class CornerVerdict:
    """How one corner plays for the default bot.

    Attributes
    ----------
    corner : Any
        The corner's id.
    name : str
    stops : int
        Stops the corner requires.
    passages : int
        Times a car left the corner (properly or overshooting) in the races.
    overshoot : float
        Share of the passages that overshot the corner.
    mean_overshoot : float
        Spaces beyond the corner per overshoot.
    damage : float
        Damage (SP) taken in or for the corner per passage.
    eliminated : float
        Share of the cars eliminated in this corner.
    danger : float
        Damage per passage plus eliminations weighing a full pool
        (:data:`fdlab.analysis.stats.ELIMINATION_WEIGHT`): the corners are ranked by it.
    worst : bool
        Marked as one of the corners that bite most.
    to_flag : float
        Share of the passages that overshot the corner on the run to the flag
        (:func:`fdlab.analysis.stats.to_the_flag`: the last corner, spare points
        spent by a car that finished), counted apart from ``overshoot`` and
        ``damage``.
    """

    corner: Any
    name: str
    stops: int
    passages: int
    overshoot: float
    mean_overshoot: float
    damage: float
    eliminated: float
    danger: float
    worst: bool = False
    to_flag: float = 0.0

    @property
    def words(self) -> str:
        """The corner in one sentence.

        Examples
        --------
        >>> CornerVerdict(4, "Mirabeau", 2, 40, 0.5, 3.2, 1.6, 0.05, 2.5, True).words
        'Mirabeau (2 stops): overshot in 50% of passages by 3.2 spaces, 1.6 SP a car; 5% of cars eliminated'
        >>> CornerVerdict(9, "Rascasse", 1, 40, 0.0, 0.0, 0.0, 0.0, 0.0, to_flag=0.9).words
        'Rascasse (1 stop): overshot only in 90% of passages on the run to the flag (spare SP spent)'
        """
        stops = f"{self.stops} stop{'s' if self.stops != 1 else ''}"
        if not self.passages:
            return f"{self.name} ({stops}): no car reached it"
        text = f"{self.name} ({stops}): "
        flag = f"{self.to_flag:.0%} of passages on the run to the flag (spare SP spent)"
        if self.overshoot:
            text += (
                f"overshot in {self.overshoot:.0%} of passages by {self.mean_overshoot:.1f} "
                f"spaces, {self.damage:.1f} SP a car"
            )
            if self.to_flag >= _SHOWN_SHARE:
                text += f"; besides, {flag}"
        elif self.to_flag >= _SHOWN_SHARE:
            text += f"overshot only in {flag}"
        else:
            text += "never overshot"
        if self.eliminated:
            text += f"; {self.eliminated:.0%} of cars eliminated"
        return text


@dataclass(frozen=True)
class Verdict:
    """What a board plays like for the default bot (see :func:`board_verdict`).

    Attributes
    ----------
    track_name : str
    par : float
        Exact solo par of one lap (expected turns, under ``rules``).
    cars : int
        Cars in each of the verdict's races.
    races : int
    rounds : float
        Mean length of a one-lap race of ``cars`` cars, in rounds.
    rounds_interval : tuple of float
        95% interval of that mean.
    finished : float
        Share of the cars that finished.
    corners : tuple of CornerVerdict
        In the board's corner order.
    seconds : float
        Time the verdict took.
    par_before : float or None
        Par of the verdict before (the last edit's), to show the change.
    lead_changes : float
        Lead changes per race.
    pole_wins : float
        Share of the races the car from pole (grid spot 1) won.
    rules : str
        The rules the board was raced under: ``"basic"`` or ``"street"``
        (with the street hazards).
    pit : PitWorth or None
        What the pit lane is worth over two laps, when it was measured
        (:func:`fdlab.analysis.suggest` studies it; the editor's verdict does not).
    rules_before : str or None
        The rules of the verdict before, when known: an edit that adds the first
        hazard space (or removes the last) changes the rules as well as the board.
    """

    track_name: str
    par: float
    cars: int
    races: int
    rounds: float
    rounds_interval: tuple[float, float]
    finished: float
    corners: tuple[CornerVerdict, ...]
    seconds: float
    par_before: float | None = None
    lead_changes: float = 0.0
    pole_wins: float = 0.0
    rules: str = "basic"
    pit: PitWorth | None = None
    rules_before: str | None = None

    @property
    def rules_changed(self) -> bool:
        """The verdict before was under other rules (its par is not comparable)."""
        return self.par_before is not None and self.rules_before not in (None, self.rules)

    @property
    def par_change(self) -> float | None:
        """Par minus the par before (``None`` for a first verdict)."""
        return None if self.par_before is None else self.par - self.par_before

    @property
    def worst(self) -> tuple[CornerVerdict, ...]:
        """The marked corners, worst first."""
        marked = [c for c in self.corners if c.worst]
        return tuple(sorted(marked, key=lambda c: -c.danger))

    def after(self, before: Verdict | None) -> Verdict:
        """This verdict with the par of ``before`` remembered (for :attr:`par_change`).

        Examples
        --------
        >>> a = Verdict("A", 18.0, 6, 24, 20.0, (19.8, 20.2), 1.0, (), 1.0)
        >>> round(Verdict("A", 18.5, 6, 24, 20.0, (19.8, 20.2), 1.0, (), 1.0).after(a).par_change, 2)
        0.5
        """
        if before is None:
            return replace(self, par_before=None, rules_before=None)
        return replace(self, par_before=before.par, rules_before=before.rules)

    def lines(self) -> list[str]:
        """The verdict as sentences, most important first.

        Examples
        --------
        >>> corner = CornerVerdict(1, "Corner 1", 1, 30, 0.4, 2.0, 0.8, 0.0, 0.8, True)
        >>> verdict = Verdict("Ring", 8.0, 6, 24, 9.5, (9.3, 9.7), 1.0, (corner,), 1.0, 8.25)
        >>> print("\\n".join(verdict.lines()))
        Par 8.0 turns a lap (0.2 fewer than before the last change).
        Six cars race a lap in 9.5 rounds (9.3-9.7); every car finished.
        Corner 1 (1 stop): overshot in 40% of passages by 2.0 spaces, 0.8 SP a car
        """
        change = self.par_change
        rules = "" if self.rules == "basic" else f" ({self.rules} rules)"
        par = f"Par {self.par:.1f} turns a lap{rules}"
        if self.rules_changed:
            par += (
                f" (was {self.par_before:.1f} under the {self.rules_before} rules "
                "before the last change)"
            )
        elif change is not None and abs(change) >= 0.05:
            par += f" ({abs(change):.1f} {'more' if change > 0 else 'fewer'} than before the last change)"
        elif change is not None:
            par += " (unchanged by the last change)"
        low, high = self.rounds_interval
        cars = _NUMBERS.get(self.cars, str(self.cars)).capitalize()
        race = f"{cars} cars race a lap in {self.rounds:.1f} rounds ({spread_text(low, high)}); "
        if self.finished >= 1:
            race += "every car finished."
        else:
            race += f"{1 - self.finished:.0%} of cars were eliminated."
        marked = [c.words for c in self.worst] or ["No corner bites: none costs a car much."]
        return [par + ".", race, *marked]

    def headline(self) -> str:
        """Par and its change since the verdict before, short enough for one line under
        the board (:meth:`lines` says it in full).

        Examples
        --------
        >>> a = Verdict("A", 18.0, 6, 24, 20.0, (19.8, 20.2), 1.0, (), 1.0)
        >>> b = Verdict("A", 18.5, 6, 24, 20.0, (19.8, 20.2), 1.0, (), 1.0, rules="street")
        >>> a.headline(), a.after(a).headline()
        ('par 18.0 turns a lap', 'par 18.0 turns a lap (unchanged)')
        >>> b.after(a).headline()
        'par 18.5 (street rules; was 18.0 with the basic rules)'
        """
        change = self.par_change
        if self.rules_changed:
            return (
                f"par {self.par:.1f} ({self.rules} rules; was {self.par_before:.1f} "
                f"with the {self.rules_before} rules)"
            )
        rules = "" if self.rules == "basic" else f" ({self.rules} rules)"
        text = f"par {self.par:.1f} turns a lap{rules}"
        if change is None:
            return text
        if abs(change) < 0.05:
            return f"{text} (unchanged)"
        return f"{text} ({abs(change):.1f} {'more' if change > 0 else 'fewer'})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr style='{'color:#b2182b;font-weight:bold' if c.worst else ''}'>"
            f"<td style='text-align:left'>{html.escape(c.name)}</td><td>{c.stops}</td>"
            f"<td>{_overshot_cell(c)}</td><td>{c.damage:.1f}</td><td>{c.eliminated:.0%}</td></tr>"
            for c in self.corners
        )
        return (
            "<div class='fdlab-verdict-text' style='line-height:1.35'>"
            + "".join(f"<div>{html.escape(line)}</div>" for line in self.lines())
            + "<details><summary>every corner</summary>"
            "<table style='font-size:0.9em'><tr><th>corner</th><th>stops</th>"
            "<th>overshot</th><th>SP a car</th><th>eliminated</th></tr>"
            + rows
            + f"</table></details><div style='color:#666;font-size:0.85em'>{self.races} races "
            f"of {self.cars} par bots, one lap, {html.escape(self.rules)} rules "
            f"({self.seconds:.1f} s). "
            "SP: structure points, the damage a car takes (it has 18; at 0 it is out).</div></div>"
        )


def _overshot_cell(corner: CornerVerdict) -> str:
    """The verdict table's overshoot share of a corner, the run to the flag apart."""
    cell = f"{corner.overshoot:.0%}"
    if corner.to_flag >= _SHOWN_SHARE:
        cell += (
            f" <span style='color:#666' title='overshot on the run to the flag: spare SP "
            f"spent by cars that finished'>+{corner.to_flag:.0%} at the flag</span>"
        )
    return cell


_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def rules_for(track: Track) -> str:
    """The rules a board is judged under: ``"street"`` when it has hazard spaces, else ``"basic"``.

    Examples
    --------
    >>> track = from_ascii(". . . .")
    >>> rules_for(track)
    'basic'
    >>> track.graph.nodes[1]["hazard"] = "danger"
    >>> rules_for(track)
    'street'
    """
    return "street" if any(h for _space, h in track.graph.nodes(data="hazard")) else "basic"


def solve_for_edits(track: Track | Board, rules: str = "basic") -> None:
    """Solve ``track``'s par here, so the verdicts of its edited versions re-solve less.

    Even when a cache holds the board's table, its solve is remembered in
    this process (:func:`fdlab.par.table.solve_to_reuse`): the verdict of a
    changed board then re-solves only the positions its edit can reach.
    Nothing is solved when such a solve of the board is remembered already.
    A board that cannot be solved is left for its verdict to explain.

    Examples
    --------
    >>> from fdlab.analysis.examples import tight_ring
    >>> solve_for_edits(tight_ring())
    """
    with suppress(FdlabError):  # the verdict says what is wrong with the board
        board = track if isinstance(track, Board) else compile_board(track)
        preset = get_preset(rules, VERDICT_RULES[1])
        if not remembers(board, solo_preset(preset)):
            solve_to_reuse(board, preset)


def board_verdict(
    track: Track | Board,
    *,
    races: int = VERDICT_RACES,
    cars: int = VERDICT_CARS,
    seed: int = 0,
    before: Verdict | None = None,
    rules: str = "basic",
    helper: RaceHelper | None = None,
) -> Verdict:
    """What ``track`` plays like for the default bot, over one lap (basic or street rules).

    Parameters
    ----------
    track : Track or Board
        The board, or a board compiled from it (not compiled again).
    races : int
        Seeded races of ``cars`` par bots to play.
    cars : int
        Cars per race, at most the board's grid spots.
    seed : int
        Seed of the races: the same board gives the same verdict.
    before : Verdict, optional
        The verdict before the last edit, for the change of par.
    rules : {"basic", "street"}
        The rules of the races and the par: ``"street"`` adds the street
        hazards (X) a street circuit's spaces carry.
    helper : RaceHelper, optional
        A process kept alive beside this one that plays part of the races
        when it is ready (:mod:`fdlab.analysis.race_helper`); the verdict is
        the same with it or without.

    Returns
    -------
    Verdict

    Raises
    ------
    VerdictError
        When the board cannot be raced yet (no grid spot, no finish line,
        a board the rules cannot compile), saying what is missing.

    Examples
    --------
    >>> from fdlab.analysis.examples import tight_ring
    >>> verdict = board_verdict(tight_ring(), races=4)
    >>> verdict.lines()[0]
    'Par 5.5 turns a lap.'
    >>> board_verdict(from_ascii(". . . ."))
    Traceback (most recent call last):
    ...
    fdlab.analysis.verdict.VerdictError: not playable yet: the board has no grid spot (Grid spot)
    """
    started = time.perf_counter()
    compiled = track if isinstance(track, Board) else None
    track = track.track if isinstance(track, Board) else track
    if not track.grid_spots():
        raise VerdictError("not playable yet: the board has no grid spot (Grid spot)")
    try:
        board = compiled if compiled is not None else compile_board(track)
        preset = get_preset(rules, VERDICT_RULES[1])
        par = solo_table(board, preset).par
        cars = max(1, min(cars, len(track.grid_spots())))
        result = playtest(
            board,
            cars,
            races=races,
            preset=preset,
            seed=seed,
            laps=1,
            workers=1,
            progress=False,
            helper=helper,
            chunk_size=_CHUNK if helper is not None else None,
        )
    except FdlabError as error:
        raise VerdictError(f"not playable yet: {error}") from error
    mean, low, high = mean_interval(result.races["rounds"])
    table = corner_table(result)
    started_cars = len(result.cars)
    corners = []
    for cid in track.corners:
        row = table.loc[cid]
        passages = int(row["passages"])
        corners.append(
            CornerVerdict(
                corner=cid,
                name=str(row["name"]),
                stops=int(row["stops"]),
                passages=passages,
                overshoot=float(row["overshoot_rate"]) if passages else 0.0,
                to_flag=float(row["flag_overshoot_rate"]) if passages else 0.0,
                mean_overshoot=float(row["mean_overshoot"]),
                damage=float(row["damage_per_passage"]) if passages else 0.0,
                eliminated=int(row["eliminations"]) / started_cars,
                danger=float(row["danger"]) if passages else 0.0,
            )
        )
    worst = sorted((c for c in corners if c.danger >= WORST_DANGER), key=lambda c: -c.danger)
    marked = {c.corner for c in worst[:MARKED_CORNERS]}
    finished = float((result.cars["status"] == "finished").mean())
    return Verdict(
        track_name=track.name,
        par=par,
        cars=cars,
        races=races,
        rounds=mean,
        rounds_interval=(low, high),
        finished=finished,
        corners=tuple(replace(c, worst=c.corner in marked) for c in corners),
        seconds=time.perf_counter() - started,
        lead_changes=float(result.turns.groupby("race")["took_lead"].sum().mean()),
        pole_wins=float((result.races["winner_grid"] == 1).mean()),
        rules=rules,
    ).after(before)
