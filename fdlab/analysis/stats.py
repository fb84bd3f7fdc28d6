"""Where a circuit bites: the numbers behind the circuit report, from playtest tables.

Every function takes a :class:`~fdlab.analysis.playtest.PlaytestResult` and
returns a pandas table (or a number). Damage and eliminations are *blamed*
on a corner: the corner overshot if the move overshot one, else the corner
the car stopped in, else the corner the space leads to (``zone``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from fdlab.analysis.playtest import PlaytestResult

#: One elimination weighs as much as a full pool of damage in the danger index.
ELIMINATION_WEIGHT = 18.0


def blame(turns: pd.DataFrame) -> pd.Series:
    """Per turn, the corner its damage and elimination are blamed on (see module docstring).

    Examples
    --------
    >>> turns = pd.DataFrame({"overshot": [2, None], "corner": [None, 1], "zone": [3, 1]})
    >>> blame(turns).tolist()
    [2.0, 1.0]
    """
    return turns["overshot"].combine_first(turns["corner"]).combine_first(turns["zone"])


def space_heat(result: PlaytestResult) -> pd.DataFrame:
    """Per space (id): damage taken there per race, eliminations and visits.

    Damage is counted where the move that cost it ended (for a car
    eliminated by a move, where it would have ended).

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> heat = space_heat(result)
    >>> int(heat["damage"].sum()) == int(result.cars["damage"].sum())
    True
    """
    turns = result.turns
    races = max(1, len(result.races))
    table = turns.groupby("space").agg(
        damage=("damage", "sum"), eliminations=("eliminated", "sum"), visits=("race", "size")
    )
    table["damage_per_race"] = table["damage"] / races
    table["eliminations"] = table["eliminations"].astype(int)
    return table.sort_values("damage", ascending=False)


def corner_table(result: PlaytestResult) -> pd.DataFrame:
    """Per corner: passages, overshoot rate, eliminations, mean stops, damage, overtakes.

    Columns: ``name``, ``stops`` (required), ``passages`` (times a car left
    the corner, properly or not), ``overshoot_rate``, ``mean_overshoot``
    (spaces beyond, per overshoot), ``flag_overshoot_rate`` (overshoots on
    the run to the flag, :func:`to_the_flag`: counted apart, in neither the
    overshoot rate nor the damage, as the points they cost could no longer
    matter), ``eliminations``, split by their cause
    (:data:`fdlab.analysis.racelog.CAUSES`) into ``bot_mistakes`` (the car
    had a safe choice: the bot's fault), ``worn_out`` (it had none, but
    with full pools it would have had one: its earlier driving left it
    without the points this corner needs), ``no_safe_option`` (not even a
    healthy car would have had one: the circuit's danger) and
    ``by_chance`` (random damage after a safe move), ``elimination_rate``
    (per passage), ``mean_stops`` (made before leaving),
    ``damage_per_passage``, ``overtake_share`` (of every overtake in the
    races, made into this corner) and ``danger`` (damage
    per passage plus :data:`ELIMINATION_WEIGHT` times the elimination
    rate). Sorted most dangerous first.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> table = corner_table(result)
    >>> sorted(table.index), bool(table["passages"].min() > 0)
    ([1, 2], True)
    """
    turns = result.turns
    corners = result.track.corners
    guilty = blame(turns)
    flag = to_the_flag(turns)
    total_overtakes = max(1, int(turns["overtakes"].sum()))
    # a move may leave two corners: each counts its own stops made and spaces beyond
    stops_made = _by_corner(turns["stops_by_corner"])
    beyond = _by_corner(turns.loc[~flag, "beyond_by_corner"])
    rows = []
    for cid, info in corners.items():
        # every corner a move left counts (a move may overshoot two corners)
        overshooting = turns["overshot_corners"].map(lambda left, c=cid: c in left)
        overshot = turns[overshooting & ~flag]
        at_flag = int((overshooting & flag).sum())
        proper = turns[turns["left_corners"].map(lambda left, c=cid: c in left)]
        passages = len(overshot) + at_flag + len(proper)
        mine = turns[(guilty == cid) & ~flag]
        eliminated = int(mine["eliminated"].sum())
        causes = mine.loc[mine["eliminated"].astype(bool), "cause"].value_counts()
        damage = float(mine["damage"].sum())
        per = passages if passages else float("nan")
        rows.append(
            {
                "corner": cid,
                "name": info.get("name", f"Corner {cid}"),
                "stops": int(info.get("stops", 1)),
                "passages": passages,
                "overshoot_rate": len(overshot) / per,
                "flag_overshoot_rate": at_flag / per,
                "mean_overshoot": _mean(beyond.get(cid, []), empty=0.0),
                "eliminations": eliminated,
                "bot_mistakes": int(causes.get("mistake", 0)),
                "worn_out": int(causes.get("worn out", 0)),
                "no_safe_option": int(causes.get("no safe option", 0)),
                "by_chance": int(causes.get("chance", 0)),
                "elimination_rate": eliminated / per,
                "mean_stops": _mean(stops_made.get(cid, []), empty=float("nan")),
                "damage_per_passage": damage / per,
                "overtake_share": float(turns.loc[turns["zone"] == cid, "overtakes"].sum())
                / total_overtakes,
            }
        )
    table = pd.DataFrame(rows).set_index("corner")
    if table.empty:
        return table
    table["danger"] = table["damage_per_passage"].fillna(0) + ELIMINATION_WEIGHT * table[
        "elimination_rate"
    ].fillna(0)
    return table.sort_values("danger", ascending=False)


def to_the_flag(turns: pd.DataFrame) -> pd.Series:
    """Per turn: the car is on its run to the flag, past the last corner but one it leaves
    in the race, and finishes the race (the turn does not eliminate it).

    On the run to the flag a car spends the points it has left: what it
    brakes and overshoots in the last corner costs points that no later
    corner needs, and a finishing car's points no longer count. Such damage
    and overshoots say nothing about the corner (the designer must not ease
    it for them): :func:`corner_table` counts them apart.

    Examples
    --------
    >>> turns = pd.DataFrame({
    ...     "race": [0, 0, 0, 0], "car": [0, 0, 0, 1],
    ...     "overshot_corners": [(1,), (2,), (), (2,)], "left_corners": [(), (), (), ()],
    ...     "eliminated": [False, False, False, True], "finished": [False, False, True, False]})
    >>> to_the_flag(turns).tolist()  # car 0 finishes; car 1 is eliminated overshooting
    [False, True, True, False]
    """
    if turns.empty:
        return pd.Series(False, index=turns.index, dtype=bool)
    leaves = (turns["overshot_corners"].map(bool) | turns["left_corners"].map(bool)).astype(int)
    backwards = turns.iloc[::-1]
    # per turn, the corners the car leaves on it and after it in the race
    left_from_here = (
        leaves.iloc[::-1].groupby([backwards["race"], backwards["car"]], sort=False).cumsum()
    ).reindex(turns.index)
    finishes = turns.groupby(["race", "car"], sort=False)["finished"].transform("any")
    return (left_from_here <= 1) & finishes.astype(bool) & ~turns["eliminated"].astype(bool)


def _by_corner(column: pd.Series) -> dict[Any, list[int]]:
    """Per corner, the values paired with it in a column of ``(corner, value)`` pairs."""
    values: dict[Any, list[int]] = {}
    for pairs in column:
        for corner, value in pairs:
            values.setdefault(corner, []).append(value)
    return values


def _mean(values: list[int], empty: float) -> float:
    return sum(values) / len(values) if values else empty


def most_dangerous_corner(result: PlaytestResult) -> Any:
    """The id of the corner with the highest danger index, ``None`` without corners.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> most_dangerous_corner(result) in (1, 2)
    True
    """
    table = corner_table(result)
    return None if table.empty else table.index[0]


def race_lengths(result: PlaytestResult) -> pd.Series:
    """Number of races of each length in rounds.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> int(race_lengths(result).sum())
    4
    """
    return result.races["rounds"].value_counts().sort_index()


def finishing_rate(result: PlaytestResult) -> float:
    """Share of cars that finished.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> 0.0 <= finishing_rate(result) <= 1.0
    True
    """
    return float((result.cars["status"] == "finished").mean())


def mean_interval(values: Any) -> tuple[float, float, float]:
    """Mean and 95% interval of the mean (normal approximation).

    Examples
    --------
    >>> [round(v, 2) for v in mean_interval([10, 12, 11, 13])]
    [11.5, 10.23, 12.77]
    """
    data = np.asarray(values, dtype=float)
    mean = float(data.mean()) if len(data) else float("nan")
    if len(data) < 2:
        return mean, mean, mean
    half = 1.96 * float(data.std(ddof=1)) / math.sqrt(len(data))
    return mean, mean - half, mean + half


def spread_text(low: float, high: float) -> str:
    """An interval as words: ``"9.3-9.7"``, or ``"every race alike"`` when it has no width
    (every race lasted the same number of rounds: no spread to measure, not a certainty).

    Examples
    --------
    >>> spread_text(9.26, 9.74), spread_text(15.0, 15.0)
    ('9.3-9.7', 'every race alike')
    """
    if f"{low:.1f}" == f"{high:.1f}":
        return "every race alike"
    return f"{low:.1f}-{high:.1f}"


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion.

    Examples
    --------
    >>> low, high = wilson(5, 10)
    >>> round(low, 3), round(high, 3)
    (0.237, 0.763)
    """
    if trials == 0:
        return (float("nan"), float("nan"))
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return (centre - half, centre + half)


def grid_wins(result: PlaytestResult) -> pd.DataFrame:
    """Win rate by grid spot, with a 95% interval and a binomial test against a fair share.

    ``fair`` is one over the number of cars; ``p_value`` tests whether the
    spot wins more or less often than that; ``flag`` marks p < 0.05.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> table = grid_wins(result)
    >>> list(table.index), int(table["starts"].sum())
    ([1, 2], 8)
    """
    cars = result.cars
    n_cars = max(1, len(result.bots))
    fair = 1.0 / n_cars
    from scipy import stats as scistats  # here: importing it takes 0.4 s

    rows = []
    for spot, group in cars.groupby("grid"):
        starts = len(group)
        wins = int((group["place"] == 1).sum())
        low, high = wilson(wins, starts)
        p_value = float(scistats.binomtest(wins, starts, fair).pvalue) if starts else float("nan")
        rows.append(
            {
                "grid": int(spot),
                "starts": starts,
                "wins": wins,
                "win_rate": wins / starts if starts else float("nan"),
                "low": low,
                "high": high,
                "fair": fair,
                "p_value": p_value,
                "flag": p_value < 0.05,
            }
        )
    return pd.DataFrame(rows).set_index("grid")


def bot_table(
    result: PlaytestResult, par: float | None = None, solo: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per bot: cars, wins, finishing rate, mean turns of finishers, damage, turns over par.

    With ``solo`` (:func:`solo_gaps`) also how the bot drives alone on this
    board: ``solo_turns``, ``solo_gap`` (share over par) and ``solo_eliminated``.

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> result = small_playtest()
    >>> list(bot_table(result, par=10.0).columns)
    ['cars', 'wins', 'finish_rate', 'mean_turns', 'mean_damage', 'over_par']
    """
    cars = result.cars
    rows = []
    for bot, group in cars.groupby("bot", sort=False):
        done = group[group["status"] == "finished"]
        mean_turns = float(done["turns"].mean()) if len(done) else float("nan")
        rows.append(
            {
                "bot": bot,
                "cars": len(group),
                "wins": int((group["place"] == 1).sum()),
                "finish_rate": len(done) / len(group),
                "mean_turns": mean_turns,
                "mean_damage": float(group["damage"].mean()),
                "over_par": mean_turns - par if par is not None else np.nan,
            }
        )
    table = pd.DataFrame(rows).set_index("bot")
    if solo is not None and len(table):
        table = table.join(
            solo[["solo_turns", "solo_sem", "solo_gap", "solo_eliminated"]], how="left"
        )
    return table


def solo_gaps(result: PlaytestResult, par: float, races: int = 100, seed: int = 0) -> pd.DataFrame:
    """How each bot of a playtest drives alone on its board: mean turns, gap to par, eliminations.

    Each bot spec of the playtest drives ``races`` solo races from pole (the
    same seeds for every bot), in this process.

    Returns
    -------
    DataFrame
        Indexed by bot label: ``solo_races``, ``solo_turns`` (mean turns of
        the races that finish), ``solo_sem`` (its standard error),
        ``solo_gap`` (``solo_turns / par - 1``) and ``solo_eliminated``
        (share of races that end in an elimination).

    Examples
    --------
    >>> from fdlab.analysis.examples import small_playtest
    >>> from fdlab.par import solo_table
    >>> result = small_playtest()
    >>> par = solo_table(compile_board(result.track), result.preset).par
    >>> gaps = solo_gaps(result, par, races=5)
    >>> list(gaps.index), bool(gaps["solo_gap"].iloc[0] > -0.5)
    (['par'], True)
    """
    from fdlab.bots.roster import make_bot
    from fdlab.rules.board import compile_board
    from fdlab.rules.simulate import simulate

    board = compile_board(result.track)
    specs = result.info.get("specs") or result.bots
    rows = []
    seen = set()
    for spec, label in zip(specs, result.bots, strict=True):
        if label in seen:
            continue
        seen.add(label)
        turns, lost = [], 0
        for k in range(races):
            bot = make_bot(spec, board=board, preset=result.preset, seed=seed + k)
            race = simulate(board, [bot], result.preset, seed=seed + k)
            if race.finished:
                turns.append(race.rounds)
            else:
                lost += 1
        mean = float(np.mean(turns)) if turns else float("nan")
        sem = float(np.std(turns, ddof=1) / math.sqrt(len(turns))) if len(turns) > 1 else math.nan
        rows.append(
            {
                "bot": label,
                "solo_races": races,
                "solo_turns": mean,
                "solo_sem": sem,
                "solo_gap": mean / par - 1 if par else float("nan"),
                "solo_eliminated": lost / races,
            }
        )
    return pd.DataFrame(rows).set_index("bot")
