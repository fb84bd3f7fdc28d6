"""The default bot: drives by the exact solo solution, adjusted for the other cars.

:class:`ParBot` reads the value of every ``(position, gear, pool)`` of the
solo solution (:class:`~fdlab.par.table.ParTable`: the expected turns still
to play, plus a large penalty for an elimination) and scores every legal
move by the value of where it leads:

* **moves**: the engine's legal moves with their exact costs (other cars
  block spaces and paths, M-2; a blocked roll is paid, D-4/A-6); a move's
  score is the value of the position it reaches with the pool it leaves,
  averaged over the random damage that follows it: contact with the cars
  it stops beside or behind (D-5, A-8), the engine check (D-6), danger and
  shooting spaces (X-2, X-3). A move that spins the car (A-3, A-4) leads to
  a restart in 1st gear. Ending in the car's box restores the pool
  (P-2), so pit timing is the solver's. An eliminating move is never chosen
  while another exists (its score is the penalty);
* **gears**: alone, or with no car within reach, the solver's own gear. In
  traffic, and every turn under the advanced rules (whose five pools the
  solver models as one: its gear is checked against the exact costs), a
  one-ply look-ahead over that gear and the two below it (and the gears up
  to the car's own when the solver's gear costs fuel, A-7): for each gear,
  every face of its die, the best move the cars ahead leave, scored as
  above; the gear with the least expected value wins. That is where
  blocking and overtaking enter: a gear whose rolls run into a car ahead
  costs braking, a gear that finds the gaps does not;
* **nitro** (X-1): when the extra spaces lead to a better best move.

Driving style is a risk attitude on top: ``care`` turns of penalty per
point of expected damage (certain and random). A balanced driver adds a
little (:data:`CARE`, a margin for the traffic the solo values do not see),
a cautious one more, a reckless one none. The value function stays the
solver's, so the style never makes a bot drive into an elimination.

Under rules the solver does not model exactly (street, advanced) the table
is the solution of a one-pool approximation (:mod:`fdlab.par.approx`); the
moves' costs, eliminations and random damage are still the engine's, pool
by pool. Where the solver never went (a grid spot it did not solve, a
stop count only traffic gives) the bot falls back to
:class:`~fdlab.bots.heuristic.HeuristicBot`.
"""

from __future__ import annotations

import weakref
from typing import NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from fdlab.bots.heuristic import HeuristicBot
from fdlab.bots.prices import prices_for
from fdlab.bots.style import style_value
from fdlab.par.approx import solo_pool
from fdlab.par.model import FINISHED
from fdlab.par.table import ParTable
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, in_pit_zone, move_cost, move_costs
from fdlab.rules.movement import MoveOption, braking, move_options_for_rolls
from fdlab.rules.presets import Preset
from fdlab.rules.state import CarState
from fdlab.rules.view import RaceView

__all__ = ["CARE", "ParBot", "care_of"]

#: Turns of penalty per point of expected damage, for a balanced driver. First tuned on
#: six-car one-lap races (25 per value) and solo races (200) on four hard boards: 0.08
#: finished 96.3% of the cars, 0.2 98.5% and 0.4 99.0%, at a solo gap to par of +0.3%,
#: +0.2% and +0.6%. Retuned on the calibrated boards, whose corners have long outside lanes
#: (solo gap on Monza / Monaco / Suzuka, 100 races; six-car finishers, 20 races of 6):
#: 0.2 gave +4.5% / +2.7% / +2.6% (100% finish), 0.1 +1.3% / +0.9% / +0.7% (100%),
#: 0.05 +0.2% / -0.1% / +0.4% (98.3-100%).
CARE = 0.1

#: Turns per lost point of a pool outside the solver's model (advanced: fuel, body, engine),
#: divided by the points the car has left.
SIDE_POOL = 0.6

#: A car's pools, in the preset's order.
_Pools: TypeAlias = tuple[int, ...]

#: One chance of random damage: ``(pool index, probability, loss)`` (:meth:`ParBot._hits`).
_Hit: TypeAlias = tuple[int, float, int]

#: A distribution of random SP loss: ``((loss, probability), ...)`` (:meth:`ParBot._chances`).
_Chances: TypeAlias = tuple[tuple[int, float], ...]

#: What decides the random damage after a move: ``(cars touched, danger spaces crossed,
#: ends on a shooting space)`` (:meth:`ParBot._exposure`).
_Exposure: TypeAlias = tuple[int, int, bool]

#: A look-ahead's rows over some gears: ``(gear, face, probability)`` per row, the gears and
#: the faces as columns, and the largest face (:meth:`ParBot._die_rows`).
_DieRows: TypeAlias = tuple[list[tuple[int, int, float]], NDArray[np.int64], NDArray[np.int64], int]


class _Plan(NamedTuple):
    """What a look-ahead found for the gear it chose: the best move of each face.

    The look-ahead scores every move of every face exactly as
    :meth:`ParBot.choose_move` would; once the die is rolled, the move it
    found for that face is the choice, as long as the car and the cars
    around it are where the look-ahead saw them.
    """

    space: int
    lap: int
    stops: int
    gear: int
    pool: int  # the pool after the gear change
    occupied: frozenset[int]
    options: list[MoveOption]  # the options of the largest roll weighed
    best: dict[int, tuple[float, int]]  # roll -> (score, index in options)


#: Options per look-ahead row read from Python lists first (the rest only if a row needs it).
_HEAD = 8

#: Board -> per space, the spaces from which a car touches a car there (D-5's contacts
#: read backwards: a car touches the cars beside it and ahead of it, not behind).
_TOUCHED_FROM: weakref.WeakKeyDictionary[Board, list[list[int]]] = weakref.WeakKeyDictionary()


def _touched_from(board: Board) -> list[list[int]]:
    inverse = _TOUCHED_FROM.get(board)
    if inverse is None:
        inverse = [[] for _ in board.ids]
        for space, touched in enumerate(board.touching):
            for other in touched:
                inverse[other].append(space)
        _TOUCHED_FROM[board] = inverse
    return inverse


def care_of(style: str | float) -> float:
    """Turns of penalty per point of expected damage for a driving style.

    Cautious 4x :data:`CARE`, balanced :data:`CARE`, reckless 0 (geometric
    from cautious to balanced, linear from balanced to reckless).

    Examples
    --------
    >>> care_of("balanced") == CARE, care_of("reckless")
    (True, 0.0)
    """
    value = style_value(style)
    if value <= 0.5:
        care: float = CARE * 4.0 ** (1.0 - value / 0.5)  # float ** float is typed Any
        return care
    return CARE * (1.0 - value) / 0.5


class ParBot:
    """Scores moves by the exact solo value of where they lead; gears by a one-ply look-ahead in traffic.

    Parameters
    ----------
    table : ParTable
        The solo table of the race's board and rules for the car it drives
        (:func:`fdlab.par.table.solo_table`, with ``box_slot`` the car's
        number when the pits are open).
    style : str or float
        ``"cautious"`` ... ``"reckless"`` or 0..1 (:mod:`fdlab.bots.style`).

    Examples
    --------
    >>> from fdlab.rules.simulate import simulate
    >>> from fdlab.par import solo_table
    >>> board = compile_board(from_ascii('''
    ...     . . . 1 1 . . . . . . 2 2 . . . . .
    ...     . . . 1 1 . . . . . . 2 2 . . . . .
    ... ''', corners={1: 1, 2: 2}, closed=True, grid=[34, 35]))
    >>> table = solo_table(board, BASIC)
    >>> result = simulate(board, [ParBot(table), ParBot(table, "reckless")], seed=4)
    >>> len(result.ranking)
    2
    """

    def __init__(self, table: ParTable, style: str | float = "balanced") -> None:
        self.table = table
        self.style = style_value(style)
        self.care = care_of(self.style)
        self.fallback = HeuristicBot()
        self._plan: _Plan | None = None
        self._occupied: frozenset[int] = frozenset()
        self._touches_of: frozenset[int] | None = None
        self._touches: dict[int, int] = {}
        self._chances_memo: dict[_Exposure, tuple[_Chances, float]] = {}
        self._chances_preset: Preset | None = None
        self._rows_memo: dict[tuple[int, ...], _DieRows] = {}
        self._rows_preset: Preset | None = None

    def _touched(self, board: Board, space: int) -> int:
        """How many of the other cars a car on ``space`` touches (D-5, A-8)."""
        occupied = self._occupied
        if occupied is not self._touches_of and occupied != self._touches_of:
            counts: dict[int, int] = {}
            touched_from = _touched_from(board)
            for other in occupied:
                for s in touched_from[other]:
                    counts[s] = counts.get(s, 0) + 1
            self._touches, self._touches_of = counts, occupied
        return self._touches.get(space, 0)

    # -- what a move leads to ----------------------------------------------------------
    def _pools_after(self, preset: Preset, pools: _Pools, cost: MoveCost, boxed: bool) -> _Pools:
        left = tuple(p - loss for p, loss in zip(pools, cost.loss, strict=True))
        if boxed:
            restore = set(preset.pit_restore)
            left = tuple(
                preset.pool_max[i] if name in restore else v
                for i, (name, v) in enumerate(zip(preset.pool_names, left, strict=True))
            )
        return left

    def _exposure(self, view: RaceView, option: MoveOption) -> _Exposure:
        """What decides the random damage after ``option``, the engine check aside:
        the cars its destination touches (D-5, A-8), the danger spaces it crosses
        (X-3) and whether it ends on a shooting space (X-2)."""
        board = view.board
        dest = option.destination
        touched = 0
        if not in_pit_zone(board, dest) and board.tunnel[dest] is None:
            touched = self._touched(board, dest)
        if not view.preset.street:
            return touched, 0, False
        return touched, len(option.danger), board.hazard[dest] == "shooting"

    def _hits(self, view: RaceView, option: MoveOption, gear: int, roll: int) -> tuple[_Hit, ...]:
        """Random damage after ``option``: ``(pool index, probability, loss)`` per chance."""
        preset = view.preset
        faces = len(preset.black_faces)
        index = preset.pool_index
        touched, danger, shooting = self._exposure(view, option)
        hits = [(index[preset.collision_pool], preset.collision_fail / faces, 1)] * touched
        engine_hit = self._engine_hit(view, option, gear, roll)
        if engine_hit:
            hits.append((index[preset.engine_pool], engine_hit, 1))
        if preset.street:
            street = index[preset.street_pool]
            chance = preset.danger_fail / faces
            hits += [(street, chance, preset.danger_loss)] * danger
            if shooting:
                shot = sum(1 for f in preset.black_faces if f >= preset.shooting_min) / faces
                hits.append((street, shot, preset.shooting_loss))
        return tuple(hits)

    def _alive(self, preset: Preset, pools: _Pools) -> bool:
        dies = preset.eliminate_at_zero
        return all(
            v > 0 or (v == 0 and name not in dies)
            for name, v in zip(preset.pool_names, pools, strict=True)
        )

    def _settled(self, preset: Preset, q: int, gear: int, pools: _Pools) -> float:
        """Value of being at position ``q`` in ``gear`` with ``pools`` (no more chance)."""
        table = self.table
        if not self._alive(preset, pools):
            return table.elimination_penalty
        if q == FINISHED:
            return 0.0
        if len(pools) == 1:
            return table.value_at(q, gear, pools[0])
        # an approximated model: a car alive with its corner pools spent is not eliminated
        value = table.value_at(q, gear, max(1, solo_pool(preset, pools)))
        # pools outside the model: a point is dearer as they run low
        modelled = {preset.brake_pool, preset.overshoot_pool}
        for name, v, top in zip(preset.pool_names, pools, preset.pool_max, strict=True):
            if name not in modelled and v < top:
                value += SIDE_POOL * (top - v) / max(v, 1)
        return value

    def _score(
        self,
        view: RaceView,
        pools: _Pools,
        option: MoveOption,
        cost: MoveCost,
        gear: int,
        roll: int,
    ) -> float:
        """Expected value after ``option`` (turns still to play, penalty for elimination)."""
        car = view.car
        q = self.table.successor(view.board, car.space, car.lap, car.stops, option)
        return self._score_towards(view, pools, option, cost, gear, roll, q)

    def _score_towards(
        self,
        view: RaceView,
        pools: _Pools,
        option: MoveOption,
        cost: MoveCost,
        gear: int,
        roll: int,
        q: int | None,
        chances: bool = True,
    ) -> float:
        """:meth:`_score` of ``option``, which leads to position ``q`` (its successor).

        Without the ``chances`` of random damage, a lower bound of the score:
        damage only adds to it (fewer points are never worth more).
        """
        table = self.table
        preset = view.preset
        if cost.eliminated or not cost.allowed:
            return table.elimination_penalty + 1.0
        if q is None:
            return table.elimination_penalty / 2  # somewhere the solver never went
        damage: float = cost.total  # plus the expected random damage below
        if q == FINISHED:
            return self.care * damage
        left = self._pools_after(preset, pools, cost, option.boxed)
        hits = self._hits(view, option, gear, roll) if chances else ()
        # a car that spins restarts in 1st gear, whatever gear it drove in
        after = 1 if cost.spin else gear
        if not hits:
            return self._settled(preset, q, after, left) + self.care * damage
        # every combination of the chances (a few at most)
        outcomes = [(1.0, left)]
        for pool, chance, loss in hits:
            following = []
            for p, state in outcomes:
                following.append((p * (1 - chance), state))
                hurt = state[:pool] + (state[pool] - loss,) + state[pool + 1 :]
                following.append((p * chance, hurt))
            outcomes = following
            damage += chance * loss
        expected = sum(p * self._settled(preset, q, after, state) for p, state in outcomes)
        return expected + self.care * damage

    # -- one pool (basic, street): the fast path -------------------------------------------
    def _rows(self) -> list[list[list[float]]]:
        """The value table as nested lists (indexing lists is faster than numpy scalars)."""
        rows: list[list[list[float]]] | None = getattr(self.table, "_rows_list", None)
        if rows is None:
            rows = self.table.value.tolist()
            self.table._rows_list = rows
        return rows

    def _chances(self, view: RaceView, option: MoveOption) -> tuple[_Chances, float]:
        """Random SP loss after ``option`` but the engine check: ``((loss, p), ...)`` and its mean.

        Worked out once per :meth:`_exposure`: nothing else decides it.
        """
        preset = view.preset
        if preset is not self._chances_preset:
            self._chances_memo, self._chances_preset = {}, preset
        key = self._exposure(view, option)
        known = self._chances_memo.get(key)
        if known is not None:
            return known
        dist = {0: 1.0}
        mean = 0.0
        for _, chance, loss in self._hits(view, option, 0, 0):
            following: dict[int, float] = {}
            for k, p in dist.items():
                following[k] = following.get(k, 0.0) + p * (1 - chance)
                following[k + loss] = following.get(k + loss, 0.0) + p * chance
            dist = following
            mean += chance * loss
        known = self._chances_memo[key] = (tuple(dist.items()), mean)
        return known

    def _one_pool(
        self, row: list[float], left: int, chances: _Chances, engine_hit: float, penalty: float
    ) -> float:
        """Value over the random losses of a car left with ``left`` SP (``row``: values by pool)."""
        top = len(row) - 1
        dies = self.table.dies_at_zero
        total = 0.0
        for loss, p in chances:
            v = left - loss
            if v < 0 or (v == 0 and dies):
                here = penalty
            elif engine_hit:
                below = v - 1
                worse = penalty if below < 0 or (below == 0 and dies) else row[min(below, top)]
                here = (1 - engine_hit) * row[min(v, top)] + engine_hit * worse
            else:
                here = row[min(v, top)]
            total += p * here
        return total

    def _engine_hit(self, view: RaceView, option: MoveOption, gear: int, roll: int) -> float:
        preset = view.preset
        if (
            roll
            and not option.boxed
            and preset.engine_triggers.get(gear) == roll
            and gear in preset.engine_gears
            and not in_pit_zone(view.board, option.destination)
        ):
            return preset.engine_fail / len(preset.black_faces)
        return 0.0

    def _lean_score(
        self,
        view: RaceView,
        info: tuple[int | None, _Chances, float],
        option: MoveOption,
        loss: int,
        doomed: bool,
        pool: int,
        gear: int,
        roll: int,
    ) -> float:
        """:meth:`_score` for one-pool rules, from the option's precomputed ``info``."""
        penalty = self.table.elimination_penalty
        if doomed:
            return penalty + 1.0
        q, chances, mean = info
        if q is None:
            return penalty / 2
        if q == FINISHED:
            return self.care * loss
        left = self.table.pool_max if option.boxed and self.table.restores else pool - loss
        hit = self._engine_hit(view, option, gear, roll)
        value = self._one_pool(self._rows()[q][gear], left, chances, hit, penalty)
        return value + self.care * (loss + mean + hit)

    def _die_rows(self, preset: Preset, gears: list[int]) -> _DieRows:
        """The look-ahead's rows ``(gear, face, probability)``, as columns of gears and
        faces, and the largest face: the same for every look-ahead over these gears."""
        if preset is not self._rows_preset:
            self._rows_memo, self._rows_preset = {}, preset
        key = tuple(gears)
        known = self._rows_memo.get(key)
        if known is None:
            dice = {g: preset.gear_dice[g - 1].float_outcomes() for g in gears}
            rows_of = [(gear, roll, p) for gear in gears for roll, p in dice[gear]]
            column = np.array([[gear] for gear, _, _ in rows_of], dtype=np.int64)
            rolls = np.array([[roll] for _, roll, _ in rows_of], dtype=np.int64)
            column.flags.writeable = rolls.flags.writeable = False
            top_roll = max(value for g in gears for value, _ in dice[g])
            known = self._rows_memo[key] = (rows_of, column, rolls, top_roll)
        return known

    def _lean_look_ahead(self, view: RaceView, gears: list[int]) -> int:  # noqa: C901 (hot loop: ParBot's look-ahead per decision, one frame (benchmarks/bots.py))
        """:meth:`_look_ahead` for one-pool rules: one search, scored a whole die at a time.

        The options of the largest roll serve every face (a face's options are
        those that move at most that far, braked for the rest). For each gear
        the scores of every (face, option) pair are worked out at once with
        numpy, for a car whose pool is reduced by the option's certain cost
        (priced for a healthy car by ``move_cost`` and kept in a table
        all bots share, :mod:`fdlab.bots.prices`; the pool left decides elimination, as in the
        solver). Random damage only adds to a value, so for each face the
        options are visited from the lowest score up and the search stops as
        soon as no option left can beat the best found; only the few visited
        have their chances of damage worked out.
        """
        engine = view.engine
        preset = view.preset
        car = view.car
        board = view.board
        table = self.table
        penalty = table.elimination_penalty
        care = self.care
        top = table.pool_max
        rows_of, column, rolls, top_roll = self._die_rows(preset, gears)
        options = move_options_for_rolls(
            board, car.space, [top_roll], engine.move_rules(view.state, view.car_index)
        )[top_roll]
        healthy = CarState(space=car.space, lap=car.lap, pools=preset.pool_max, started=True)
        last_lap = car.lap >= preset.laps
        pit_start = in_pit_zone(board, car.space)
        prices = prices_for(board, preset)
        count = len(options)
        moved = np.fromiter((o.moved for o in options), dtype=np.int64, count=count)
        boxed = np.fromiter((o.boxed for o in options), dtype=bool, count=count)
        successors = table.successors(board, car.space, car.lap, car.stops, options)
        # position index; -1 finished; -2 unknown
        where = np.array([-2 if q is None else q for q in successors], dtype=np.int64)
        kinds = np.array(prices.kind_ids(options, pit_start, last_lap), dtype=np.int64)
        fixed: dict[int, MoveCost] = {}  # a loss that no roll changes (S-4)
        if last_lap:
            for k, option in enumerate(options):
                if "finish" in option.lines:
                    fixed[k] = move_cost(board, preset, healthy, option)  # S-4: braking is free
        unknown = where == -2
        finished = where == FINISHED
        known_q = np.where(where >= 0, where, 0)
        reached = {o.moved for o in options}
        box_moved = min((o.moved for o in options if o.boxed), default=top_roll + 1)
        # per roll: the most spaces an option moves, and whether one moves them all (or boxes)
        farthest_of, full_of, far = [], [], 0
        for r in range(top_roll + 1):
            if r in reached:
                far = r
            farthest_of.append(far)
            full_of.append(far == r or box_moved <= r)
        chances: dict[int, tuple[_Chances, float]] = {}  # option -> its chances of damage, once
        # one row per (gear, face): the whole look-ahead in a few array operations
        shifts = {gear: sum(engine.downshift_cost(car, gear).values()) for gear in gears}
        pools = np.array([[car.pools[0] - shifts[gear]] for gear, _, _ in rows_of])
        full = np.array([[full_of[roll]] for _, roll, _ in rows_of])
        farthest = np.array([[farthest_of[roll]] for _, roll, _ in rows_of], dtype=np.int64)
        braked, blocked = braking(rolls, moved, boxed, full, farthest)  # element by element
        reachable = moved <= rolls
        braked = np.where(reachable, braked, 0)
        loss, doomed = prices.losses(healthy, kinds, braked, blocked)
        if fixed:
            fixed_k = list(fixed)
            loss[:, fixed_k] = [cost.total for cost in fixed.values()]
            doomed[:, fixed_k] = [cost.eliminated or not cost.allowed for cost in fixed.values()]
        left = np.where(boxed & table.restores, top, pools - loss)
        dead = (left < 0) | ((left == 0) & table.dies_at_zero)
        value = table.value[known_q, column, np.minimum(np.maximum(left, 0), top)] + care * loss
        plain = ~(doomed | unknown | finished | dead) & reachable
        score = np.where(dead, penalty, value)
        score = np.where(finished, care * loss, score)
        score = np.where(unknown, penalty / 2, score)
        score = np.where(doomed, penalty + 1.0, score)
        score = np.where(reachable, score, np.inf)
        # each row's options from the lowest score up; a row rarely needs more than its head
        order = score.argsort(axis=1, kind="stable")
        head = order[:, :_HEAD]
        head_order = head.tolist()
        head_scores = np.take_along_axis(score, head, axis=1).tolist()
        expected = {gear: care * shift for gear, shift in shifts.items()}
        value_rows = self._rows()
        best_of: dict[tuple[int, int], tuple[float, int]] = {}
        for i, (gear, roll, p) in enumerate(rows_of):
            ks, values = head_order[i], head_scores[i]
            least, least_k = float("inf"), -1
            at = 0
            while True:
                if at == len(ks):
                    if at == count:
                        break
                    ks, values = order[i].tolist(), score[i, order[i]].tolist()  # the whole row
                k = ks[at]
                value_k = values[at]
                at += 1
                if value_k > least:  # equal bounds go on: ties go to the first move listed
                    break
                if plain[i, k]:
                    option = options[k]
                    known = chances.get(k)
                    if known is None:
                        known = chances[k] = self._chances(view, option)
                    hit = self._engine_hit(view, option, gear, roll)
                    if hit or known[0] != ((0, 1.0),):
                        value_k = self._one_pool(
                            value_rows[int(where[k])][gear], int(left[i, k]), known[0], hit, penalty
                        )
                        value_k += care * (int(loss[i, k]) + known[1] + hit)
                if value_k < least or (value_k == least and k < least_k):
                    least, least_k = value_k, k
            expected[gear] += p * least
            best_of[gear, roll] = (least, least_k)
        best, best_value = gears[0], float("inf")
        for gear in gears:
            if expected[gear] < best_value:
                best, best_value = gear, expected[gear]
        self._plan = _Plan(
            car.space,
            car.lap,
            car.stops,
            best,
            car.pools[0] - shifts[best],
            self._occupied,
            options,
            {roll: found for (gear, roll), found in best_of.items() if gear == best},
        )
        return best

    def _planned(
        self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]
    ) -> MoveOption | None:
        """The move the last look-ahead found for this roll, if it still applies."""
        plan, self._plan = self._plan, None
        car = view.car
        state = view.state
        if (
            plan is None
            or (plan.space, plan.lap, plan.stops, plan.gear)
            != (car.space, car.lap, car.stops, car.gear)
            or plan.pool != car.pools[0]
            or state.roll != state.die_roll
            or plan.occupied != self._occupied
        ):
            return None
        found = plan.best.get(state.roll)
        if found is None or found[0] >= self.table.elimination_penalty:
            return None  # no face seen, or only eliminating moves: let the choice say which
        k = found[1]
        j = k - (len(plan.options) - len(moves))  # the moves are the tail of the options
        if not 0 <= j < len(moves):
            return None
        option = moves[j][0]
        return option if option.path is plan.options[k].path else None

    # -- the policy ----------------------------------------------------------------------
    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """The legal move with the least expected value (never an eliminating one unless forced)."""
        car = view.car
        if self.table.position_index(view.board, car.space, car.lap, car.stops) is None:
            return self.fallback.choose_move(view, moves)
        self._occupied = view.state.occupied(skip=view.car_index)
        gear, roll = car.gear, view.state.die_roll
        if len(view.preset.pools) == 1:
            return self._planned(view, moves) or self._lean_choice(view, moves, gear, roll)
        best, best_key = moves[0][0], None
        for option, cost in moves:
            key = (self._score(view, car.pools, option, cost, gear, roll), -option.moved)
            if best_key is None or key < best_key:
                best, best_key = option, key
        return best

    def _lean_choice(
        self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]], gear: int, roll: int
    ) -> MoveOption:
        """:meth:`choose_move` for one-pool rules: the least ``(score, -moved)``.

        Each move's score without random damage is a lower bound of its score
        (damage only adds); the moves are visited from the lowest bound up and
        the chances of damage are worked out only while a move can still win.
        """
        car = view.car
        table = self.table
        pool = car.pools[0]
        no_chance = ((0, 1.0),)
        bounds = []
        successors = table.successors(
            view.board, car.space, car.lap, car.stops, [option for option, _ in moves]
        )
        for k, (option, cost) in enumerate(moves):
            doomed = cost.eliminated or not cost.allowed
            q = None if doomed else successors[k]
            bound = self._lean_score(
                view, (q, no_chance, 0.0), option, cost.total, doomed, pool, gear, 0
            )
            bounds.append((bound, -option.moved, k, q, doomed))
        bounds.sort()
        best, best_key = moves[0][0], None
        for bound, neg_moved, k, q, doomed in bounds:
            if best_key is not None and (bound, neg_moved, k) > best_key:
                break
            option, cost = moves[k]
            info = (q, no_chance, 0.0) if doomed else (q, *self._chances(view, option))
            score = self._lean_score(view, info, option, cost.total, doomed, pool, gear, roll)
            key = (score, neg_moved, k)  # ties: the first of the list, as the engine orders it
            if best_key is None or key < best_key:
                best, best_key = option, key
        return best

    def choose_gear(self, view: RaceView) -> int:
        """The solver's gear when no car is within reach (one pool), else the best of a
        one-ply look-ahead."""
        gears = view.legal_gears()
        safe = [g for g in gears if not view.gear_eliminates(g)] or gears
        car = view.car
        if not car.started or len(safe) == 1:
            return safe[0]
        board = view.board
        preset = view.preset
        table = self.table
        if table.position_index(board, car.space, car.lap, car.stops) is None:
            return self.fallback.choose_gear(view)
        pool = min(solo_pool(preset, car.pools), table.pool_max)
        solo = table.best_gear(board, car.space, car.lap, car.stops, car.gear, pool)
        # one pool: the solver's pool is the car's, its gear needs no check alone; several
        # (advanced): the solver's one pool stands for two of them, so its gear is checked
        # every turn against the exact costs of every face
        one_pool = len(preset.pools) == 1
        if solo in safe and one_pool and not self._traffic(view, solo):
            return solo
        centre = solo if solo in safe else max(safe)
        # traffic is a reason to hold or slow down, never to go faster than alone; a shift
        # that costs points the solver does not see (A-7: fuel) is weighed against the
        # gears up to the car's own
        top = car.gear if solo in safe and self._unmodelled_shift(view, solo) else centre
        candidates = [g for g in safe if centre - 2 <= g <= top]
        self._occupied = view.state.occupied(skip=view.car_index)
        if one_pool:
            return self._lean_look_ahead(view, candidates)
        return self._look_ahead(view, candidates)

    def _unmodelled_shift(self, view: RaceView, gear: int) -> bool:
        """Shifting to ``gear`` costs points outside the solver's pool (A-7: fuel, engine)."""
        preset = view.preset
        if len(preset.pools) == 1:
            return False
        modelled = {preset.brake_pool, preset.overshoot_pool}
        return any(
            amount and pool not in modelled
            for pool, amount in view.engine.downshift_cost(view.car, gear).items()
        )

    def _traffic(self, view: RaceView, gear: int) -> bool:
        """Another car within reach of ``gear``'s largest roll (or touching distance)."""
        board = view.board
        me = view.car
        if me.space < 0 or board.kind[me.space] != "track":
            return False
        reach = max(view.preset.gear_faces[gear - 1]) + 2
        here = board.progress[me.space]
        length = board.lap_length
        for k, other in enumerate(view.state.cars):
            if k == view.car_index or not other.racing or other.space < 0:
                continue
            ahead = (board.progress[other.space] - here) % length
            if ahead <= reach or ahead >= length - 1.5:
                return True
        return False

    def _look_ahead(self, view: RaceView, gears: list[int]) -> int:
        """The gear with the least expected value over its die's faces, cars as they stand."""
        engine = view.engine
        preset = view.preset
        car = view.car
        board = view.board
        self._occupied = view.state.occupied(skip=view.car_index)
        dice = {g: preset.gear_dice[g - 1].float_outcomes() for g in gears}
        rolls = {value for g in gears for value, _ in dice[g]}
        by_roll = move_options_for_rolls(
            board, car.space, rolls, engine.move_rules(view.state, view.car_index)
        )
        best, best_value = gears[0], float("inf")
        for gear in gears:
            shift = engine.downshift_cost(car, gear)
            pools = tuple(
                v - shift.get(name, 0) for name, v in zip(preset.pool_names, car.pools, strict=True)
            )
            probe = CarState(
                space=car.space, gear=gear, lap=car.lap, stops=car.stops, pools=pools, started=True
            )
            expected = self.care * sum(shift.values())
            for roll, p in dice[gear]:
                options = by_roll[roll]
                costs = move_costs(board, preset, probe, options)
                expected += p * self._least_score(view, pools, options, costs, gear, roll)
            if expected < best_value:
                best, best_value = gear, expected
        return best

    def _least_score(
        self,
        view: RaceView,
        pools: _Pools,
        options: list[MoveOption],
        costs: list[MoveCost],
        gear: int,
        roll: int,
    ) -> float:
        """The least :meth:`_score` of ``options``, scoring random damage only where it can win.

        Random damage only adds to a score (fewer points are never worth more), so
        each option's score without it is a lower bound: the options are visited
        from the lowest bound up, and the search stops at a bound no better than
        the least score found.
        """
        car = view.car
        successors = self.table.successors(view.board, car.space, car.lap, car.stops, options)
        bounds = sorted(
            (self._score_towards(view, pools, o, c, gear, roll, successors[k], chances=False), k)
            for k, (o, c) in enumerate(zip(options, costs, strict=True))
        )
        least = float("inf")
        for bound, k in bounds:
            if bound >= least:
                break
            score = self._score_towards(
                view, pools, options[k], costs[k], gear, roll, successors[k]
            )
            least = min(least, score)
        return least

    def use_nitro(self, view: RaceView) -> bool:
        """Nitro (X-1) when the best move of the longer roll beats the best move of this one."""
        engine = view.engine
        car = view.car
        preset = view.preset
        board = view.board
        if self.table.position_index(board, car.space, car.lap, car.stops) is None:
            return self.fallback.use_nitro(view)
        self._occupied = view.state.occupied(skip=view.car_index)
        roll = view.roll
        longer = roll + car.gear
        by_roll = move_options_for_rolls(
            board, car.space, [roll, longer], engine.move_rules(view.state, view.car_index)
        )
        die = view.state.die_roll

        def best(options: list[MoveOption]) -> float:
            return min(
                self._score(view, car.pools, o, move_cost(board, preset, car, o), car.gear, die)
                for o in options
            )

        return best(by_roll[longer]) < best(by_roll[roll])

    def __repr__(self) -> str:
        return f"ParBot(style={self.style}, par={self.table.par:.3f})"
