"""Exact solo par: the fewest expected turns for one car alone on a board.

Like golf's par for a hole, a circuit's *par* is what perfect play needs on
average. :func:`solve_par` finds it by value iteration over the states of a
lone car, ``(position, gear, pool)`` where a position is ``(space, lap,
stops made in the corner)`` (:mod:`fdlab.analysis.solo_model`), and returns
the policy that reaches it.

The race is modelled exactly as the engine plays it: the start roll (S-2:
stall, normal or flying start), the gear rules and downshift costs (G-3,
G-4), every option of every face of the gear die with its certain cost
(braking, overshoot, C-4), the engine check after a 20 in 5th or a 30 in 6th
(D-6), pit stops in races of two laps or more (P-2..P-5).

Eliminations. The solver minimises the expected number of turns plus
``elimination_penalty`` turns for a race that ends in an elimination. With
the default penalty (1000 turns) the optimal policy takes a risk of
elimination only when every choice has one, just as the bots never pick an
eliminating option when another exists (D-2). *Par* is the expected number
of turns of the races that finish under that policy;
``finish_probability`` says how many do (nearly all on a sane board).

Vectorisation. Move generation runs once per position (a search with the
largest roll lists every smaller roll's options). The positions are then
taken in reverse topological order of the graph of moves (strongly connected
groups iterate to a fixed point, which only happens for a car braking to a
standstill or waiting in the pit lane) and each position's Bellman update
runs over all its option rows, gears and pool values at once with numpy.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from fdlab.analysis.solo_model import FINISHED, OptionRows, SoloModel
from fdlab.rules.board import Board, compile_board
from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.presets import Preset, get_preset
from fdlab.track.model import Track

#: Value of a state not computed yet (larger than any real value).
_UNKNOWN = 1e15


@dataclass
class _Tables:
    """Per-position arrays shared by the value and the policy-evaluation passes."""

    rows: list[OptionRows]
    legal: list[np.ndarray]
    shift_loss: list[np.ndarray]
    trigger: np.ndarray  # per face group: engine check on this face (D-6)
    prob: np.ndarray  # per face group
    gear_of_group: np.ndarray  # per face group, 1-based
    gear_starts: np.ndarray  # first group of each gear


@dataclass
class ParSolution:
    """The exact solo par of a board and the policy that reaches it.

    Attributes
    ----------
    par : float
        Expected number of turns of the races that finish, from pole.
    finish_probability : float
        Share of solo races that finish under the optimal policy.
    expected_turns : float
        Expected turns of every race (eliminated ones count the turns played).
    objective : float
        The minimised value: expected turns plus the elimination penalty.
    elimination_penalty : float
    model : SoloModel
        Positions and option tables.
    value : ndarray, shape (positions, gears + 1, pool + 1)
        Optimal value of ``(position, previous gear, pool)``; previous gear 0
        is a car that stalled at the start.
    gear_policy : ndarray of int8, same shape
        The gear to announce in that state (0 where the car is eliminated).
    seconds : float
        Wall-clock solve time.
    """

    par: float
    finish_probability: float
    expected_turns: float
    objective: float
    elimination_penalty: float
    model: SoloModel
    value: np.ndarray
    gear_policy: np.ndarray
    finish: np.ndarray
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        """The compiled board."""
        return self.model.board

    @property
    def preset(self) -> Preset:
        """The rules preset."""
        return self.model.preset

    def position_index(self, space: int, lap: int, stops: int) -> int | None:
        """Index of a position in the tables, ``None`` if a lone car never gets there."""
        return self.model.index.get((space, lap, self.model.cap(space, stops)))

    def best_gear(self, space: int, lap: int, stops: int, gear: int, pool: int) -> int | None:
        """The optimal gear for a car at ``space`` (board index), or ``None`` if unknown."""
        p = self.position_index(space, lap, stops)
        if p is None or not 1 <= pool <= self.model.pool_max:
            return None
        choice = int(self.gear_policy[p, gear, pool])
        return choice or None

    def option_value(
        self,
        space: int,
        lap: int,
        stops: int,
        gear: int,
        pool: int,
        option: MoveOption,
        cost: MoveCost,
        die_roll: int,
    ) -> float:
        """Expected turns still to play (plus penalty) after choosing ``option``.

        Parameters
        ----------
        space, lap, stops : int
            The car's position before the move (``space`` a board index).
        gear : int
            The gear announced this turn.
        pool : int
            The pool before the move.
        option, cost
            A legal option and its cost for this car (``Engine.legal_moves``).
        die_roll : int
            The gear die result (0 for a flying start): a 20 in 5th or 30 in
            6th brings an engine check (D-6).
        """
        model = self.model
        penalty = self.elimination_penalty
        if cost.eliminated:
            return penalty
        target = model.successor((space, lap, model.cap(space, stops)), option)
        if target == FINISHED:
            return 0.0
        q = model.index.get(target)
        if q is None:
            return penalty
        left = model.pool_max if (option.boxed and model.restores) else pool - cost.total
        base = float(self.value[q, gear, left])
        if option.boxed or die_roll == 0 or not model.engine_check(gear, die_roll):
            return base
        if model.board.kind[option.destination] != "track":
            return base
        hit = model.engine_hit()
        worse = penalty if (left - 1 <= 0 and model.pool_dies_at_zero) or left - 1 < 0 else None
        if worse is None:
            worse = float(self.value[q, gear, left - 1])
        return (1 - hit) * base + hit * worse

    def space_table(self) -> dict[Any, float]:
        """Space id -> expected turns to the flag from there, healthy, in 1st gear.

        For each space the lowest value over the laps and stop counts a lone
        car reaches it with; spaces it never reaches are left out.
        """
        model = self.model
        best: dict[Any, float] = {}
        for p, (space, _, _) in enumerate(model.positions):
            v = float(self.value[p, 1, model.pool_max])
            sid = model.board.ids[space]
            if v < self.elimination_penalty and (sid not in best or v < best[sid]):
                best[sid] = v
        return best

    def __repr__(self) -> str:
        return (
            f"<ParSolution {self.board.track.name!r} ({self.preset.name}): par {self.par:.3f} "
            f"turns, finish {self.finish_probability:.4f}, {len(self.model.positions)} positions, "
            f"{self.seconds:.2f} s>"
        )

    def _repr_html_(self) -> str:
        rows = [
            ("par (turns, races that finish)", f"{self.par:.3f}"),
            ("finish probability", f"{self.finish_probability:.4%}"),
            ("expected turns, all races", f"{self.expected_turns:.3f}"),
            ("positions solved", f"{len(self.model.positions)}"),
            ("option rows", f"{self.stats.get('rows', 0)}"),
            ("solve time", f"{self.seconds:.2f} s"),
        ]
        body = "".join(f"<tr><td>{k}</td><td>{html.escape(v)}</td></tr>" for k, v in rows)
        return (
            f"<div><b>Solo par of {html.escape(self.board.track.name)}</b> "
            f"({html.escape(self.preset.name)} rules, {self.preset.laps} lap(s))"
            f"<table>{body}</table></div>"
        )


def solve_par(
    track: Track | Board,
    preset: str | Preset = "basic",
    *,
    laps: int | None = None,
    elimination_penalty: float = 1000.0,
    tolerance: float = 1e-10,
) -> ParSolution:
    """Solve a lone car's race exactly: par, finish probability and optimal policy.

    Parameters
    ----------
    track : Track or Board
    preset : str or Preset
        A one-pool preset without street rules (``"basic"``).
    laps : int, optional
        Race length (default: the preset's).
    elimination_penalty : float
        Turns charged for an elimination (see the module docstring).
    tolerance : float
        Convergence threshold of the fixed-point iterations.

    Returns
    -------
    ParSolution

    Raises
    ------
    fdlab.analysis.solo_model.SoloModelError
        For a preset the solver does not model.

    Examples
    --------
    A straight of three spaces to the line: the start roll stalls (1 in 20,
    three turns), starts normally (15 in 20, two turns) or flies four spaces
    over the line (4 in 20, one turn): par = (3 + 30 + 4) / 20.

    >>> from fdlab.track import from_ascii
    >>> track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    >>> round(solve_par(track).par, 6)
    1.85
    """
    began = time.perf_counter()
    board = track if isinstance(track, Board) else compile_board(track)
    model = SoloModel(board, get_preset(preset, laps))
    tables = _tables(model)
    n_pos = len(model.positions)
    gears = model.preset.gears
    top = model.pool_max
    penalty = float(elimination_penalty)

    value = np.full((n_pos, gears + 1, top + 1), _UNKNOWN)
    value[:, :, 0] = penalty
    finish = np.zeros((n_pos, gears + 1, top + 1))
    turns = np.zeros((n_pos, gears + 1, top + 1))  # E[turns * 1{finish}]
    policy = np.zeros((n_pos, gears + 1, top + 1), dtype=np.int8)

    graph = nx.DiGraph()
    graph.add_nodes_from(range(n_pos))
    for p, rows in enumerate(tables.rows):
        graph.add_edges_from((p, int(q)) for q in np.unique(rows.target) if q != FINISHED)
    condensed = nx.condensation(graph)
    iterations = 0
    for component in reversed(list(nx.topological_sort(condensed))):
        members = sorted(condensed.nodes[component]["members"])
        loops = len(members) > 1 or graph.has_edge(members[0], members[0])
        for _ in range(10_000):
            iterations += 1
            change = 0.0
            for p in members:
                q_value, gear_choice, _, _, _ = _bellman(model, tables, p, value, penalty)
                change = max(change, float(np.max(np.abs(q_value - value[p]))))
                value[p] = q_value
                policy[p] = gear_choice
            if not loops or change <= tolerance:
                break
        for _ in range(10_000):
            change = 0.0
            for p in members:
                f, a = _evaluate(model, tables, p, value, policy, finish, turns, penalty)
                change = max(change, float(np.max(np.abs(f - finish[p]))))
                change = max(change, float(np.max(np.abs(a - turns[p]))))
                finish[p], turns[p] = f, a
            if not loops or change <= tolerance:
                break

    objective, fin, expected, tot = _start_values(model, tables, value, finish, turns, penalty)
    return ParSolution(
        par=tot / fin if fin > 0 else float("inf"),
        finish_probability=fin,
        expected_turns=expected,
        objective=objective,
        elimination_penalty=penalty,
        model=model,
        value=value,
        gear_policy=policy,
        finish=finish,
        seconds=time.perf_counter() - began,
        stats={
            "positions": n_pos,
            "rows": int(sum(len(r.group) for r in tables.rows)),
            "iterations": iterations,
        },
    )


def _tables(model: SoloModel) -> _Tables:
    groups = model.groups
    gear_of_group = np.asarray([g for g, _, _ in groups], dtype=np.int64)
    gear_starts = np.searchsorted(gear_of_group, np.arange(1, model.preset.gears + 1))
    categories: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
    legal, shift = [], []
    board = model.board
    for space, _, _ in model.positions:
        key = (board.kind[space] == "box", board.kind[space] != "track")
        if key not in categories:
            categories[key] = model.gear_table(space)
        legal.append(categories[key][0])
        shift.append(categories[key][1])
    return _Tables(
        rows=[model.rows(p) for p in range(len(model.positions))],
        legal=legal,
        shift_loss=shift,
        trigger=np.asarray([model.engine_check(g, r) for g, r, _ in groups]),
        prob=np.asarray([p for _, _, p in groups]),
        gear_of_group=gear_of_group,
        gear_starts=gear_starts,
    )


def _row_outcomes(
    model: SoloModel, rows: OptionRows, gears: np.ndarray, arrays: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Where each row leaves the car, for every pool value 0..max.

    Returns the elimination mask, whether the row finishes, the engine-check
    mask, and for each array the value at the landing state and one point
    lower (for an engine check).
    """
    top = model.pool_max
    pools = np.arange(top + 1)
    left = pools[None, :] - rows.loss[:, None]
    left = np.where(rows.restore[:, None], top, left)
    dead = (left <= 0) if model.pool_dies_at_zero else (left < 0)
    dead |= rows.doomed[:, None] | (pools[None, :] == 0)
    done = (rows.target == FINISHED)[:, None] & ~dead
    target = np.where(rows.target == FINISHED, 0, rows.target)
    safe = np.clip(left, 0, top)
    lower = np.clip(left - 1, 0, top)
    at = [a[target[:, None], gears[:, None], safe] for a in arrays]
    below = [a[target[:, None], gears[:, None], lower] for a in arrays]
    lower_dead = (left - 1 <= 0) if model.pool_dies_at_zero else (left - 1 < 0)
    return dead, done, lower_dead, at, below


def _bellman(
    model: SoloModel, tables: _Tables, p: int, value: np.ndarray, penalty: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One Bellman update of position ``p`` for every previous gear and pool value."""
    rows = tables.rows[p]
    gears = tables.gear_of_group[rows.group]
    dead, done, lower_dead, (at,), (below,) = _row_outcomes(model, rows, gears, [value])
    hit = model.engine_hit()
    checked = (tables.trigger[rows.group] & ~rows.exempt & (rows.target != FINISHED))[:, None]
    worse = np.where(lower_dead, penalty, below)
    cont = np.where(checked, (1 - hit) * at + hit * worse, at)
    w = np.where(dead, penalty, np.where(done, 0.0, cont))
    best = np.minimum.reduceat(w, rows.starts, axis=0)  # (groups, pool)
    expected = np.add.reduceat(tables.prob[:, None] * best, tables.gear_starts, axis=0)
    q_value, choice = _gear_choice(model, tables, p, expected, penalty)
    return q_value, choice, w, best, expected


def _gear_choice(
    model: SoloModel, tables: _Tables, p: int, expected: np.ndarray, penalty: float
) -> tuple[np.ndarray, np.ndarray]:
    """Best gear for every previous gear and pool, given each gear's expected value."""
    top = model.pool_max
    pools = np.arange(top + 1)
    legal = tables.legal[p]  # (prev, gears)
    shift = tables.shift_loss[p]
    left = pools[None, None, :] - shift[:, :, None]
    dies = (left <= 0) if model.pool_dies_at_zero else (left < 0)
    g_index = np.arange(legal.shape[1])[None, :, None]
    reach = expected[g_index, np.clip(left, 0, top)]
    cand = np.where(dies, 1.0 + penalty, 1.0 + reach)
    cand = np.where(legal[:, :, None], cand, np.inf)
    choice = np.argmin(cand, axis=1)
    q_value = np.take_along_axis(cand, choice[:, None, :], axis=1)[:, 0, :]
    q_value[:, 0] = penalty
    gear = (choice + 1).astype(np.int8)
    gear[:, 0] = 0
    return q_value, gear


def _evaluate(
    model: SoloModel,
    tables: _Tables,
    p: int,
    value: np.ndarray,
    policy: np.ndarray,
    finish: np.ndarray,
    turns: np.ndarray,
    penalty: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Finish probability and E[turns * 1{finish}] of position ``p`` under the policy."""
    rows = tables.rows[p]
    gears = tables.gear_of_group[rows.group]
    _, _, w, _, _ = _bellman(model, tables, p, value, penalty)
    dead, done, lower_dead, (f_at, a_at), (f_below, a_below) = _row_outcomes(
        model, rows, gears, [finish, turns]
    )
    hit = model.engine_hit()
    checked = (tables.trigger[rows.group] & ~rows.exempt & (rows.target != FINISHED))[:, None]
    f_cont = np.where(checked, (1 - hit) * f_at + hit * np.where(lower_dead, 0.0, f_below), f_at)
    a_cont = np.where(checked, (1 - hit) * a_at + hit * np.where(lower_dead, 0.0, a_below), a_at)
    f_row = np.where(dead, 0.0, np.where(done, 1.0, f_cont))
    a_row = np.where(dead | done, 0.0, a_cont)
    chosen = _first_argmin(w, rows.starts)  # (groups, pool) row indices
    pools = np.arange(model.pool_max + 1)[None, :]
    f_group = tables.prob[:, None] * f_row[chosen, pools]
    a_group = tables.prob[:, None] * a_row[chosen, pools]
    f_gear = np.add.reduceat(f_group, tables.gear_starts, axis=0)
    a_gear = np.add.reduceat(a_group, tables.gear_starts, axis=0)
    return _through_gear(model, tables, p, policy[p], f_gear, a_gear)


def _through_gear(
    model: SoloModel,
    tables: _Tables,
    p: int,
    gear_policy: np.ndarray,
    f_gear: np.ndarray,
    a_gear: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Apply the chosen gear (and its downshift loss) to per-gear finish values."""
    top = model.pool_max
    pools = np.arange(top + 1)[None, :]
    gear = np.maximum(gear_policy.astype(np.int64), 1) - 1
    prev = np.arange(gear_policy.shape[0])[:, None]
    left = pools - tables.shift_loss[p][prev, gear]
    dies = (left <= 0) if model.pool_dies_at_zero else (left < 0)
    idx = np.clip(left, 0, top)
    f = np.where(dies, 0.0, f_gear[gear, idx])
    a = np.where(dies, 0.0, a_gear[gear, idx])
    f[:, 0] = 0.0
    a[:, 0] = 0.0
    return f, f + a


def _first_argmin(w: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per group (rows ``starts[k]`` to ``starts[k+1]``) and column, the first row of least value."""
    best = np.minimum.reduceat(w, starts, axis=0)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(w))))
    rows = np.arange(len(w))[:, None]
    marked = np.where(w == best[group], rows, len(w))
    return np.minimum.reduceat(marked, starts, axis=0)


def _start_values(
    model: SoloModel,
    tables: _Tables,
    value: np.ndarray,
    finish: np.ndarray,
    turns: np.ndarray,
    penalty: float,
) -> tuple[float, float, float, float]:
    """Objective, finish probability, expected turns and E[turns * 1{finish}] from pole (S-2).

    The first turn is the start roll: a stall (the car stays, next turn 1st
    gear without the roll), a normal start (the 1st-gear die) or a flying
    start (a fixed number of spaces in 1st gear, no die rolled).
    """
    preset = model.preset
    p = model.index[model.start]
    top = model.pool_max
    faces = preset.black_faces
    n = len(faces)
    stall = sum(1 for f in faces if f <= preset.start_stall_max) / n
    flying = sum(1 for f in faces if f >= preset.start_flying_min) / n
    normal = 1.0 - stall - flying

    _, _, _, _, expected = _bellman(model, tables, p, value, penalty)
    rows = tables.rows[p]
    # normal start: 1st gear, the die's faces (groups of gear 1)
    normal_value = expected[0, top]
    # the same finish values under the chosen options
    f_norm, a_norm = _group_finish(model, tables, rows, p, value, finish, turns, penalty, gear=1)
    fly = model.start_rows(p)
    fly_gears = np.ones(len(fly.group), dtype=np.int64)
    dead, done, _, (v_at, f_at, a_at), _ = _row_outcomes(
        model, fly, fly_gears, [value, finish, turns]
    )
    fly_w = np.where(dead, penalty, np.where(done, 0.0, v_at))[:, top]
    k = int(np.argmin(fly_w))
    fly_value = float(fly_w[k])
    fly_f = 0.0 if dead[k, top] else (1.0 if done[k, top] else float(f_at[k, top]))
    fly_a = 0.0 if dead[k, top] or done[k, top] else float(a_at[k, top])

    objective = 1.0 + stall * value[p, 0, top] + normal * normal_value + flying * fly_value
    fin = stall * finish[p, 0, top] + normal * f_norm + flying * fly_f
    tot = fin + stall * turns[p, 0, top] + normal * a_norm + flying * fly_a
    # expected turns of every race: the objective without the penalty part
    expected_turns = objective - penalty * (1.0 - fin)
    return float(objective), float(fin), float(expected_turns), float(tot)


def _group_finish(
    model: SoloModel,
    tables: _Tables,
    rows: OptionRows,
    p: int,
    value: np.ndarray,
    finish: np.ndarray,
    turns: np.ndarray,
    penalty: float,
    gear: int,
) -> tuple[float, float]:
    """Finish probability and E[turns * 1{finish}] after rolling ``gear``'s die, healthy."""
    _, _, w, _, _ = _bellman(model, tables, p, value, penalty)
    gears = tables.gear_of_group[rows.group]
    dead, done, lower_dead, (f_at, a_at), (f_below, a_below) = _row_outcomes(
        model, rows, gears, [finish, turns]
    )
    hit = model.engine_hit()
    checked = (tables.trigger[rows.group] & ~rows.exempt & (rows.target != FINISHED))[:, None]
    f_cont = np.where(checked, (1 - hit) * f_at + hit * np.where(lower_dead, 0.0, f_below), f_at)
    a_cont = np.where(checked, (1 - hit) * a_at + hit * np.where(lower_dead, 0.0, a_below), a_at)
    f_row = np.where(dead, 0.0, np.where(done, 1.0, f_cont))
    a_row = np.where(dead | done, 0.0, a_cont)
    chosen = _first_argmin(w, rows.starts)
    top = model.pool_max
    lo = tables.gear_starts[gear - 1]
    hi = tables.gear_starts[gear] if gear < len(tables.gear_starts) else len(tables.prob)
    f = sum(tables.prob[k] * f_row[chosen[k, top], top] for k in range(lo, hi))
    a = sum(tables.prob[k] * a_row[chosen[k, top], top] for k in range(lo, hi))
    return float(f), float(a)
