"""Exact solo par: the fewest expected turns for one car alone on a board.

Like golf's par for a hole, a circuit's *par* is what perfect play needs on
average. :func:`solve_par` finds it by value iteration over the states of a
lone car, ``(position, gear, pool)`` where a position is ``(space, lap,
stops made in the corner)`` (:mod:`fdlab.par.model`), and returns
the policy that reaches it.

The race is modelled exactly as the engine plays it: the start roll (S-2:
stall, normal or flying start), the gear rules and downshift costs (G-3,
G-4), every option of every face of the gear die with its certain cost
(braking, overshoot, C-4), the engine check after a 20 in 5th or a 30 in 6th
(D-6), pit stops in races of two laps or more (P-2..P-5).

Eliminations. Decision (D-2): the solver minimises the expected number of turns plus
``elimination_penalty`` turns for a race that ends in an elimination. With
the default penalty (1000 turns) the optimal policy takes a risk of
elimination only when every choice has one, just as the bots never pick an
eliminating option when another exists (D-2). *Par* is the expected number
of turns of the races that finish under that policy;
``finish_probability`` says how many do (nearly all on a sane board).

Vectorisation. The move searches of every position are made together, as
arrays (:mod:`fdlab.par.model`, :mod:`fdlab.par.searches`); a search with the
largest roll lists every smaller roll's options. The rows of a face group
that land alike are kept once (:mod:`fdlab.par.rows`). The graph of moves is
cut into levels (:mod:`fdlab.par.values`):
strongly connected groups of positions (a car braking to a standstill or
waiting in the pit lane stays where it is), each one level above the
highest group it leads to. A level is solved at once, its positions' rows
as one table: the rows leaving a group land on final values and are
reduced once, and only the rows inside a group are iterated to a fixed
point, group by group as if solved alone. A state table with a margin for
eliminated cars and a finish-line position makes every landing one
lookup. The solution is the same as a Bellman update position by position
over all the rows.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field, replace
from numbers import Real

import numpy as np
from numpy.typing import NDArray

from fdlab._text import counted
from fdlab.par.errors import SoloModelError
from fdlab.par.model import FINISHED, OptionRows, SoloModel
from fdlab.par.reuse import remember_model
from fdlab.par.rows import _distinct_rows, _Tables, _tables
from fdlab.par.table import ParTable, board_key
from fdlab.par.values import (
    _levels,
    _moves,
    _solve_levels,
    _start_values,
    _Store,
)
from fdlab.rules.board import Board, compile_board
from fdlab.rules.collector import paused_collections
from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.presets import Preset, get_preset
from fdlab.track.model import SpaceId, Track


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
    finish : ndarray, same shape
        Probability that a race from that state finishes, under ``gear_policy``.
    seconds : float
        Wall-clock solve time.
    phases : dict of str to float
        Wall-clock seconds of each part of the solve: ``"model"`` (positions
        and move searches, :class:`~fdlab.par.model.SoloModel`), ``"tables"``
        (option rows and gear tables) and ``"values"`` (value iteration and
        the start), for ``benchmarks/par.py``.
    stats : dict of str to int
        Sizes of the solve: ``"positions"``, ``"rows"`` (option rows) and ``"iterations"``;
        what a re-solve took from the earlier solve (:mod:`fdlab.par.reuse`):
        ``"searches_reused"``, ``"positions_reused"`` (values) and
        ``"rows_carried"`` (positions valued again from the earlier option rows).
    """

    par: float
    finish_probability: float
    expected_turns: float
    objective: float
    elimination_penalty: float
    model: SoloModel
    value: NDArray[np.float64]
    gear_policy: NDArray[np.int8]
    finish: NDArray[np.float64]
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)
    phases: dict[str, float] = field(default_factory=dict)

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

    def table(self, key: str | None = None) -> ParTable:
        """The compact table of this solution (:class:`~fdlab.par.table.ParTable`).

        ``key`` is the board's content hash (:func:`~fdlab.par.table.board_key`, the default).
        """
        return ParTable(
            board_key=key if key is not None else board_key(self.board),
            preset=self.preset,
            box_slot=self.model.box_slot,
            positions=tuple(self.model.positions),
            value=self.value,
            gear_policy=self.gear_policy,
            par=self.par,
            finish_probability=self.finish_probability,
            elimination_penalty=self.elimination_penalty,
        )

    def space_table(self) -> dict[SpaceId, float]:
        """Space id -> expected turns to the flag from there, healthy, in 1st gear.

        For each space the lowest value over the laps and stop counts a lone
        car reaches it with; spaces it never reaches are left out.
        """
        model = self.model
        best: dict[SpaceId, float] = {}
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
            f"({html.escape(self.preset.name)} rules, {counted(self.preset.laps, 'lap')})"
            f"<table>{body}</table></div>"
        )


def solve_par(
    track: Track | Board,
    preset: str | Preset = "basic",
    *,
    laps: int | None = None,
    elimination_penalty: float = 1000.0,
    tolerance: float = 1e-10,
    box_slot: int = 1,
    reuse: bool = True,
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
    box_slot : int
        The car number whose pit box the car uses (races of two laps or
        more, P-2); a :class:`~fdlab.bots.solo.SoloOptimalBot` must drive
        that car.
    reuse : bool
        Take the move searches an edit did not touch from the boards solved
        last in this process (:mod:`fdlab.par.reuse`), and remember this
        one's. The solution is the same either way; ``False`` searches
        everything afresh.

    Returns
    -------
    ParSolution

    Raises
    ------
    fdlab.par.errors.SoloModelError
        For a preset the solver does not model, or an ``elimination_penalty`` or
        ``tolerance`` that is not a finite number of at least 0.

    Examples
    --------
    A straight of three spaces to the line: the start roll stalls (1 in 20,
    three turns), starts normally (15 in 20, two turns) or flies four spaces
    over the line (4 in 20, one turn): par = (3 + 30 + 4) / 20.

    >>> track = from_ascii(". . . . . . . .", grid=[0], finish=3)
    >>> round(solve_par(track).par, 6)
    1.85
    """
    for name, number in (("elimination_penalty", elimination_penalty), ("tolerance", tolerance)):
        if not (isinstance(number, Real) and 0 <= number < float("inf")):
            raise SoloModelError(
                f"solve_par: {name} must be a finite number of at least 0, not {number!r}"
            )
    began = time.perf_counter()
    # the model makes many objects and no cycles: collector passes over them are waste
    with paused_collections():
        board = track if isinstance(track, Board) else compile_board(track)
        model = SoloModel(board, get_preset(preset, laps), box_slot, reuse=reuse)
        modelled = time.perf_counter()
        penalty = float(elimination_penalty)
        settled, old_index, earlier_store, made, carried = _settled(model, penalty, tolerance)
        tables = _tables(model, settled, made, carried)
        kept_rows = _kept_rows(model, tables, settled, old_index)
        tabled = time.perf_counter()
        n_pos = len(model.positions)

        store = _Store(model, penalty)
        if earlier_store is not None:
            store.take(np.flatnonzero(settled), old_index[settled], earlier_store)

        label, loops, levels = _levels(tables.rows)
        unsettled = [part[~settled[part]] for part in levels]
        iterations = _solve_levels(
            model, tables, unsettled, label, loops, store, penalty, tolerance
        )

        objective, fin, expected, tot = _start_values(model, tables, store, penalty)
        # freed here, before the collector is back on: it would pass over every option
        model.release_options()
        if reuse:
            remember_model(model, _Kept(store, penalty, tolerance, kept_rows))
    value = np.ascontiguousarray(store.value)
    finish = np.ascontiguousarray(store.finish)
    policy = store.policy
    ended = time.perf_counter()
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
        seconds=ended - began,
        phases={"model": modelled - began, "tables": tabled - modelled, "values": ended - tabled},
        stats={
            "positions": n_pos,
            "rows": int(sum(len(r.group) for r in tables.rows if r is not None)),
            "iterations": iterations,
            "searches": len(model._searches),
            "searches_reused": model.searches_reused,
            "positions_reused": int(settled.sum()),
            "rows_carried": len(carried),
        },
    )


@dataclass(frozen=True)
class _Kept:
    """What a solve keeps for the next solve of an edited board (:mod:`fdlab.par.reuse`)."""

    store: _Store
    penalty: float
    tolerance: float
    #: The distinct option rows of each position (``None`` where none were made or carried).
    rows: list[OptionRows | None]


def _settled(
    model: SoloModel, penalty: float, tolerance: float
) -> tuple[
    NDArray[np.bool_], NDArray[np.intp], _Store | None, dict[int, OptionRows], dict[int, OptionRows]
]:
    """The positions whose values an earlier solve already gives, and where they are in it.

    A position keeps its values when its rows are the earlier model's
    (:meth:`SoloModel.unchanged_positions`) and so are those of every
    position it can reach: its value, finish probability and policy are
    then computed from the same numbers. Returns the mask over positions,
    the index of each position in the earlier model (-2 where it has none),
    the earlier solve's store, the distinct rows made on the way (position -> rows)
    and the distinct rows carried over from the earlier solve for the
    positions valued again whose search the edit did not touch.
    """
    n = len(model.positions)
    earlier = model.earlier
    kept = None if earlier is None else earlier.solved
    if (
        earlier is None
        or not isinstance(kept, _Kept)
        or (kept.penalty, kept.tolerance) != (penalty, tolerance)
    ):
        return np.zeros(n, dtype=bool), np.full(n, -2, dtype=np.intp), None, {}, {}
    unchanged = model.unchanged_positions()
    changed = ~unchanged
    before_edit = earlier.model
    old_index = np.fromiter(
        (before_edit.index.get(position, -2) for position in model.positions), np.intp, n
    )
    # a new search can still give the same rows (a corner past the finish line is cut, S-4;
    # a grid spot moved): the distinct rows, those the solver reads, compared with those the
    # earlier solve kept (made again only where it kept none)
    made = {}
    for p in np.flatnonzero(changed & (old_index >= 0)).tolist():
        old = int(old_index[p])
        kept_rows = kept.rows[old]
        rows = made[p] = _distinct_rows(model, p)
        if kept_rows is None:
            kept_rows = _distinct_rows(before_edit, old)
        if _same_rows(rows, kept_rows, old_index):
            changed[p] = False
            unchanged[p] = True
    # walk the moves backwards from every changed position: whatever reaches one changes
    src, dst = _moves(n, [model.targets(p) for p in range(n)])
    order = np.argsort(dst, kind="stable")
    bounds = np.searchsorted(dst[order], np.arange(n + 1))
    before = src[order]
    frontier = np.flatnonzero(changed)
    while len(frontier):
        reached = np.concatenate([before[bounds[q] : bounds[q + 1]] for q in frontier.tolist()])
        frontier = np.unique(reached[~changed[reached]])
        changed[frontier] = True
    settled = ~changed
    # a position valued again with the earlier rows (its search untouched, or searched
    # again alike) takes them as the earlier solve made them
    carried = _carried(kept.rows, old_index, np.flatnonzero(unchanged & changed))
    return settled, old_index, kept.store, made, carried


def _carried(
    rows: list[OptionRows | None], old_index: NDArray[np.intp], positions: NDArray[np.intp]
) -> dict[int, OptionRows]:
    """The earlier solve's distinct ``rows`` of ``positions``, their targets renumbered.

    ``old_index`` gives each position's index in the earlier model. A
    position is left out when the earlier solve kept no rows for it, or
    one of its rows leads where the new model has no position.
    """
    renumber = np.full(len(rows) + 1, -2, dtype=np.int64)
    known = np.flatnonzero(old_index >= 0)
    renumber[old_index[known]] = known
    renumber[-1] = FINISHED  # a target FINISHED (-1) reads the last element
    carried = {}
    for p in positions.tolist():
        before = rows[int(old_index[p])]
        if before is None:
            continue
        target = renumber[before.target]
        if (target == -2).any():
            continue
        carried[p] = replace(before, target=target)
    return carried


def _kept_rows(
    model: SoloModel, tables: _Tables, settled: NDArray[np.bool_], old_index: NDArray[np.intp]
) -> list[OptionRows | None]:
    """The distinct rows of every position, to keep for the next solve of an edited board:
    those of this solve, and the earlier solve's for the positions it settled."""
    rows = list(tables.rows)
    earlier = model.earlier
    kept = None if earlier is None else earlier.solved
    if isinstance(kept, _Kept) and settled.any():
        for p, carried in _carried(kept.rows, old_index, np.flatnonzero(settled)).items():
            rows[p] = carried
    return rows


def _same_rows(rows: OptionRows, before: OptionRows, old_index: NDArray[np.intp]) -> bool:
    """Whether ``rows`` are ``before`` (an earlier model's), the targets renumbered."""
    if len(rows.group) != len(before.group):
        return False
    target = np.where(rows.target == FINISHED, FINISHED, old_index[rows.target])
    return bool(
        np.array_equal(rows.group, before.group)
        and np.array_equal(target, before.target)
        and np.array_equal(rows.loss, before.loss)
        and np.array_equal(rows.doomed, before.doomed)
        and np.array_equal(rows.restore, before.restore)
        and np.array_equal(rows.exempt, before.exempt)
    )
