"""One car alone on a board, as the engine plays it: positions and option tables.

The exact solo solver (:mod:`fdlab.par.solve`) needs, for every place a
lone car can be, every option of every die face with its certain cost and
where it leads. This module builds those tables from the engine's own
pieces, never from a second copy of the rules:

* movement is :func:`fdlab.rules.movement.move_options`, called once per
  position with the largest face of any gear die (once for all the
  positions on one space with the same movement rules: laps differ only in
  whether the pit lane is open, and not even that where no step into it is
  in reach). Its search goes layer by
  layer, one layer per space moved, and lists every braking amount, so the
  options of a smaller roll ``r`` are the options that moved at most ``r``
  spaces, with braking and blocking as :func:`fdlab.rules.movement.braking`
  states them (a test checks this against direct calls);
* costs are :func:`fdlab.rules.costs.move_cost`, memoised on what it reads
  (braked, blocked, overshoots, the pit zone at both ends); a move that
  ends the race is priced as the engine prices it on the last lap (S-4:
  nothing past the finish line, no braking), :meth:`SoloModel.finish_cost`;
* legal gears and downshift costs are :meth:`fdlab.rules.engine.Engine.gear_error`
  and :meth:`~fdlab.rules.engine.Engine.downshift_cost`;
* what a move does to the car's stop count and lap (C-2, C-6, S-4) is
  :func:`fdlab.rules.movement.after_move`, as in the engine.

A *position* is ``(space index, lap, stops)``: the lap counter of the car
(0 on a grid behind the line, see docs/schema.md) and the stops it made in
the corner it is in, capped at the corner's requirement (more stops change
nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final, Literal, TypeAlias

import numpy as np
from numpy.typing import NDArray

from fdlab.par.errors import SoloModelError
from fdlab.par.reuse import Earlier, closest_model
from fdlab.par.searches import search_many
from fdlab.rules.board import STEP_PIT_IN, Board
from fdlab.rules.costs import MoveCost, in_pit_zone, move_cost, move_costs
from fdlab.rules.engine import Engine
from fdlab.rules.movement import (
    MoveOption,
    MoveRules,
    Overshoot,
    OvershootMemo,
    after_move,
    braking,
    move_options,
    move_options_for_rolls,
    option_columns,
)
from fdlab.rules.presets import Preset
from fdlab.rules.state import CarState, RaceState
from fdlab.track.model import SpaceId

#: A lone car's place: (space index, lap counter, stops made in its corner).
Position: TypeAlias = tuple[int, int, int]

#: The lines of an option priced without them (:meth:`_Searched.priced_option`).
_NO_LINES: Final[frozenset[str]] = frozenset()

#: Stand-in "position" of a car that crossed the line for the last time.
FINISHED: Final = -1

#: The type of :data:`FINISHED` (``successor == FINISHED`` narrows it away).
Finished: TypeAlias = Literal[-1]

#: An option's overshoots, and whether it starts and whether it ends in the pit zone: the
#: key a cost class is looked up by (:meth:`SoloModel._new_cost_class`).
_CostClass: TypeAlias = tuple[tuple[Overshoot, ...], bool, bool]

#: What ``move_cost`` reads of an option besides braking (:func:`_cost_reading`): the
#: spaces beyond the exit lines in all, the most stops missing at a corner left, and
#: whether the move starts or ends in the pit zone.
_CostReading: TypeAlias = tuple[int, int, bool]

#: Face group, option, loss and doom of every row of a search (:meth:`SoloModel._shape`).
_Shape: TypeAlias = tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64], NDArray[np.bool_]]


@dataclass
class OptionRows:
    """Every option of every die face from one position, as parallel arrays.

    Rows are sorted by face group (:attr:`SoloModel.groups`), every group
    has at least the option of staying put.

    Attributes
    ----------
    group : ndarray of int
        Face group of the row.
    target : ndarray of int
        Index of the position reached, or :data:`FINISHED`.
    loss : ndarray of int
        Certain loss of the single damage pool (braking, overshoot).
    doomed : ndarray of bool
        The option eliminates the car whatever its pool (C-4, or a loss
        larger than the full pool).
    restore : ndarray of bool
        The car ends in its box: its pool is restored (P-2).
    exempt : ndarray of bool
        No engine check after this move (P-4: the car ends in the pit zone).
    starts : ndarray of int
        First row of each group (for ``numpy.minimum.reduceat``).
    """

    group: NDArray[np.int32]
    target: NDArray[np.int64]
    loss: NDArray[np.int64]
    doomed: NDArray[np.bool_]
    restore: NDArray[np.bool_]
    exempt: NDArray[np.bool_]
    starts: NDArray[np.int64]


#: The loss in a cost table of a combination not priced yet (a real loss is never negative).
_UNPRICED = -1


class SoloModel:
    """A lone car on a board under a preset: positions, gear rules and option rows.

    Parameters
    ----------
    board : Board
    preset : Preset
        A preset with a single damage pool and no street rules (``basic``,
        any number of laps).
    box_slot : int
        The car number whose pit box the car may use (P-2): in a race the
        solo car must be solved for its own box.
    reuse : bool
        Take the searches an edit did not touch from a model of an earlier
        version of the board (:mod:`fdlab.par.reuse`).
    batched : bool
        Make the searches all at once, as arrays (:mod:`fdlab.par.searches`);
        ``False`` makes them one by one with the plain search of
        :mod:`fdlab.rules.movement`, the reference (the same options).

    Raises
    ------
    SoloModelError
        For a preset with several pools or street rules, a board with no
        grid spot, or a box slot outside 1-10.

    Examples
    --------
    >>> model = SoloModel(compile_board(from_ascii(". . . . .", grid=[0], finish=3)), BASIC)
    >>> model.start, len(model.groups)
    ((0, 1, 0), 36)
    """

    def __init__(
        self,
        board: Board,
        preset: Preset,
        box_slot: int = 1,
        *,
        reuse: bool = False,
        batched: bool = True,
    ) -> None:
        if not 1 <= box_slot <= 10:
            raise SoloModelError(f"box_slot is a car number from 1 to 10, not {box_slot}")
        if len(preset.pools) != 1:
            raise SoloModelError(
                f"the solo solver models one damage pool; preset {preset.name!r} has "
                f"{len(preset.pools)} ({', '.join(preset.pool_names)})"
            )
        if preset.street:
            raise SoloModelError(
                f"the solo solver does not model street rules (nitro, hazards); preset "
                f"{preset.name!r} has them"
            )
        self.board = board
        self.preset = preset
        self._batched = batched
        self._tunnels = any(exit_ >= 0 for exit_ in board.tunnel_exit)
        #: The price of a move cut at the finish line (:meth:`_Searched._priced_at_line`).
        self._finish_prices: dict[tuple[int, int, int, bool, bool], tuple[int, bool]] = {}
        # the solo car is car number box_slot (cars before it only name the boxes)
        self.engine = Engine(board, preset, [f"Car {n}" for n in range(1, box_slot + 1)])
        self.box_slot = box_slot
        self._car = box_slot - 1
        #: Board index of the car's own box (``None`` if the board has none for it).
        self.own_box: int | None = self.engine.own_box[self._car]
        if not self.engine.grid_spots:
            raise SoloModelError(f"board {board.track.name!r} has no grid spot to start from")
        self.pool_max = preset.pool_max[0]
        self.pool_dies_at_zero = preset.pool_names[0] in preset.eliminate_at_zero
        self.restores = preset.pool_names[0] in preset.pit_restore
        #: Face groups: (gear, face value, probability), gear by gear, smallest face first.
        self.groups: list[tuple[int, int, float]] = [
            (g, value, float(p))
            for g, die in enumerate(preset.gear_dice, start=1)
            for value, p in die.chance_outcomes()
        ]
        self._rolls = np.asarray([roll for _, roll, _ in self.groups], dtype=np.int64)
        #: the face groups' numbers, 0 to ``len(groups) - 1`` (made once: asked per position)
        self.group_numbers = np.arange(len(self.groups), dtype=np.int64)
        self.max_roll = max(max(max(f) for f in preset.gear_faces), preset.start_flying_spaces)
        self.grid_positions: list[Position] = [
            (i, self.engine.grid_lap(i), self.engine.grid_stops(i)) for i in self.engine.grid_spots
        ]
        self.start: Position = self.grid_positions[0]
        #: (braked, blocked, overshoots, starts in the pit zone, ends in it) -> cost.
        self._costs: dict[tuple[int, bool, tuple[Overshoot, ...], bool, bool], MoveCost] = {}
        self._cars: dict[int, CarState] = {}  # a healthy car on each space, for move_cost
        self._classes: dict[_CostClass, int] = {}
        self._readings: dict[_CostReading, int] = {}  # the cost class of each reading
        #: The overshoots of the options searched, one tuple object per distinct value
        #: (:class:`_Searched`), made once per state's overshoot record and spaces moved.
        self._overshoots = OvershootMemo()
        empty = (0, self.max_roll + 1, 2)
        #: cost tables per (cost class, braked, blocked): the loss (:data:`_UNPRICED` where
        #: not priced yet) and the doom of such a move (:meth:`_price`)
        self._loss = np.zeros(empty, dtype=np.int64)
        self._doom = np.zeros(empty, dtype=bool)
        self._full_car = CarState(space=0, pools=preset.pool_max, started=True)
        self._last_lap_cars: dict[int, CarState] = {}
        self.positions: list[Position] = []
        self.index: dict[Position, int] = {}
        #: The searches made, one per space and movement rules (positions may share one).
        self._searches: dict[tuple[int, MoveRules], _Searched] = {}
        self._search_of: list[_Searched] = []  # per position
        self._targets: list[NDArray[np.int64]] = []  # per position and option: the index reached
        self._shape_cache: tuple[None, None] | tuple[_Searched, _Shape] = (None, None)
        #: A model of an earlier version of the board, and the spaces whose searches it gives.
        self._earlier: Earlier | None = (
            closest_model(board, preset, box_slot, self.max_roll) if reuse else None
        )
        if self._earlier is not None:
            self._take_costs(self._earlier.model)
        self._explore()

    def _take_costs(self, earlier: SoloModel) -> None:
        """Start from the cost tables of ``earlier`` (a cost never depends on the board)."""
        self._costs = dict(earlier._costs)
        self._classes = dict(earlier._classes)
        self._readings = dict(earlier._readings)
        self._overshoots = earlier._overshoots.copy()
        self._loss = earlier._loss.copy()
        self._doom = earlier._doom.copy()

    @property
    def earlier(self) -> Earlier | None:
        """The remembered model this one took searches from (``reuse=True``), if any."""
        return self._earlier

    def unchanged_positions(self) -> NDArray[np.bool_]:
        """Per position: its option rows are those of the same position in :attr:`earlier`.

        True where the position's search was taken from the earlier model and
        that model has the position: the rows are then the same, up to the
        numbering of the positions they lead to.
        """
        earlier = self._earlier
        if earlier is None:
            return np.zeros(len(self.positions), dtype=bool)
        known = earlier.model.index
        return np.fromiter(
            (
                found.reused and position in known
                for found, position in zip(self._search_of, self.positions, strict=True)
            ),
            bool,
            len(self.positions),
        )

    def targets(self, p: int) -> NDArray[np.int64]:
        """Per option of position ``p``'s search, the position reached (or :data:`FINISHED`)."""
        return self._targets[p]

    @property
    def searches_reused(self) -> int:
        """How many of this model's move searches were taken from an earlier model."""
        return sum(found.reused for found in self._searches.values())

    # -- positions ---------------------------------------------------------------
    def cap(self, space: int, stops: int) -> int:
        """Stops capped at the requirement of the space's corner (0 off corners)."""
        corner = self.board.corner[space]
        return 0 if corner is None else min(stops, self.board.stops[corner])

    def pit_allowed(self, lap: int) -> bool:
        """Whether the car may turn into the pit lane on this lap (P-2, P-7)."""
        return self.engine.pit_allowed(self._car, CarState(lap=lap, pools=self.preset.pool_max))

    def successor(self, position: Position, option: MoveOption) -> Position | Finished:
        """The position an option leads to, or :data:`FINISHED`."""
        space, lap, stops = position
        new_stops, new_lap = after_move(self.board, space, stops, lap, option)
        if new_lap > self.preset.laps:
            return FINISHED
        dest = option.destination
        return (dest, new_lap, self.cap(dest, new_stops))

    def _search(self, position: Position) -> _Searched:
        """The options of the widest roll from ``position``, shared by the positions that
        search alike: the same space and the same :class:`MoveRules` (the lap enters the
        rules only through ``pit_allowed``, and not even that where no step into the pit
        lane is in reach, :meth:`_pit_in_reach`)."""
        space = position[0]
        rules = self._rules(position)
        if rules.pit_allowed and not self._pit_in_reach(space):
            rules = replace(rules, pit_allowed=False)
        key = (space, rules)
        found = self._searches.get(key)
        if found is None:
            earlier = self._earlier
            if earlier is not None and earlier.untouched[space]:
                kept = earlier.model._searches.get(key)
                if kept is not None:
                    found = kept.on(self.board)
            if found is None:
                found = self._searched(space, rules)
            self._searches[key] = found
        return found

    def _searched(self, space: int, rules: MoveRules) -> _Searched:
        """A new search from ``space`` under ``rules``.

        A car in a corner with fewer stops than it needs searches like one
        with none: only the stops recorded when it leaves the corner differ
        (C-3), so outside the batch that search is made once
        (:meth:`_Searched.with_stops`).
        """
        corner = self.board.corner[space]
        batch = self._batch
        if (
            corner is None
            or not 0 < rules.stops_made < self.board.stops[corner]
            or (batch is not None and (space, rules) in batch.index)
        ):
            return self._new_search(space, rules)
        none_made = replace(rules, stops_made=0)
        base = self._searches.get((space, none_made))
        if base is None:
            base = self._searches[space, none_made] = self._new_search(space, none_made)
        return base.with_stops(self, rules)

    def _new_search(self, space: int, rules: MoveRules) -> _Searched:
        """The search from ``space`` under ``rules``: from the batch made before the
        positions were explored (:meth:`_batch_keys`), or made now."""
        batch = self._batch
        if batch is not None and (space, rules) in batch.index:
            return _Searched(self, space, rules, batch)
        return _Searched(self, space, rules)

    def _batch_keys(self) -> list[tuple[int, MoveRules]]:
        """The searches the exploration will ask for, to make them all at once: from every
        space, with every count of stops made in its corner (none off corners), with the
        pit lane open and closed as the laps have it where a step into it is in reach. A
        few are never asked for (a space no move ends on); one not made here is made when
        asked. Spaces whose searches an earlier model gives are left out."""
        board = self.board
        earlier = self._earlier
        pit_values = sorted({self.pit_allowed(lap) for lap in range(self.preset.laps + 1)})
        keys = []
        for space in range(len(board.ids)):
            if earlier is not None and earlier.untouched[space]:
                continue
            corner = board.corner[space]
            stops = [0] if corner is None else list(range(board.stops[corner] + 1))
            pits = [p for p in pit_values if not p or self._pit_in_reach(space)]
            for pit in pits:
                for made in stops:
                    rules = MoveRules(
                        stops_made=made,
                        pit_allowed=pit,
                        own_box=self.own_box,
                        avoid=self.engine.danger,
                        max_lane_changes=self.preset.max_lane_changes,
                    )
                    keys.append((space, rules))
        return keys

    def release_options(self) -> None:
        """Drop the option lists of the searches: what the solver needs of them is in arrays.

        A search keeps hundreds of options, each a few tuples: on a board of
        500 spaces, most of the objects the cycle collector would pass over
        after a solve. :meth:`rows` searches again if asked afterwards.
        """
        for found in self._searches.values():
            found.release()

    def _pit_in_reach(self, space: int) -> bool:
        """Whether a step into the pit lane lies within the widest roll of ``space``.

        Counted in steps of the board (a tunnel pair is two), so this errs on
        the side of "in reach"; beyond it ``pit_allowed`` cannot change a search.
        """
        reach = self._pit_reach
        if reach is None:
            reach = self._pit_reach = _steps_to_pit_in(self.board)
        return bool(reach[space] <= 2 * self.max_roll)

    _pit_reach: NDArray[np.int64] | None = None
    _batch: _Batch | None = None

    def _rules(self, position: Position) -> MoveRules:
        """The movement rules of the lone car at ``position``."""
        space, lap, stops = position
        return MoveRules(
            stops_made=stops,
            pit_allowed=self.pit_allowed(lap),
            own_box=self.own_box,
            avoid=self.engine.danger,
            max_lane_changes=self.preset.max_lane_changes,
        )

    def _explore(self) -> None:
        """Every position reachable from any grid spot, with its widest option list.

        Positions are numbered in the order they are first reached (grid
        spots first, then breadth first, options in the search's order).
        """
        board = self.board
        laps = self.preset.laps
        need = np.asarray(
            [0 if c is None else board.stops[c] for c in board.corner], dtype=np.int64
        )
        self._need = need
        #: Per space: not a track space (pit lane or box: the engine does not check, P-4).
        self._off_track = np.asarray([kind != "track" for kind in board.kind], dtype=bool)
        depth = int(need.max(initial=0)) + 1
        width = laps + 2
        # position code -> index, -1 where not reached yet
        lookup = np.full(len(board.ids) * width * depth, -1, dtype=np.int64)

        def add(position: Position) -> None:
            space, lap, stops = position
            lookup[(space * width + lap) * depth + stops] = len(self.positions)
            self.index[position] = len(self.positions)
            self.positions.append(position)

        for position in dict.fromkeys(self.grid_positions):
            add(position)
        if self._batched:
            self._batch = _Batch(self, self._batch_keys())
        head = 0
        while head < len(self.positions):
            space, lap, stops = position = self.positions[head]
            head += 1
            found = self._search(position)
            self._search_of.append(found)
            new_lap = lap + found.laps_gained
            done = new_lap > laps
            lap_code = np.where(done, 0, new_lap)
            code = (found.destination * width + lap_code) * depth + found.capped_stops
            target = np.where(done, FINISHED, lookup[code])
            fresh = np.nonzero(target < 0)[0]
            fresh = fresh[~done[fresh]]
            if len(fresh):
                _, first = np.unique(code[fresh], return_index=True)
                for i in fresh[np.sort(first)]:
                    add((int(found.destination[i]), int(new_lap[i]), int(found.capped_stops[i])))
                target = np.where(done, FINISHED, lookup[code])
            self._targets.append(target)
        self._batch = None  # the searches keep what they need of it

    # -- costs and rows ------------------------------------------------------------
    def cost(self, space: int, option: MoveOption) -> MoveCost:
        """``move_cost`` of the option for a healthy car, memoised on what it reads."""
        return self._priced(space, option, option.braked, option.blocked)

    def _priced(self, space: int, option: MoveOption, braked: int, blocked: bool) -> MoveCost:
        """``move_cost`` of ``option`` with ``braked`` and ``blocked`` replaced (memoised).

        ``move_cost`` reads the braking amount, the blocked flag, the
        overshoots and whether the car starts or ends in the pit zone, and
        the car's pools (here always full: pool-dependent eliminations are
        applied by the solver for each pool value).
        """
        key = self._cost_key(space, option, braked, blocked)
        cost = self._costs.get(key)
        if cost is None:
            if braked != option.braked or blocked != option.blocked:
                option = option._replace(braked=braked, blocked=blocked)
            cost = move_cost(self.board, self.preset, self._car_on(space), option)
            self._costs[key] = cost
        return cost

    def _cost_key(
        self, space: int, option: MoveOption, braked: int, blocked: bool
    ) -> tuple[int, bool, tuple[Overshoot, ...], bool, bool]:
        """What ``move_cost`` reads of a move from ``space`` (see :meth:`_priced`)."""
        board = self.board
        return (
            braked,
            blocked,
            option.overshoots,
            in_pit_zone(board, space),
            in_pit_zone(board, option.destination),
        )

    def _car_on(self, space: int) -> CarState:
        """A healthy car on ``space`` (what ``move_cost`` prices a move of)."""
        car = self._cars.get(space)
        if car is None:
            car = self._cars[space] = replace(self._full_car, space=space)
        return car

    def _price(
        self,
        found: _Searched,
        options: NDArray[np.intp],
        classes: NDArray[np.int64],
        braked: NDArray[np.int64],
        blocked: NDArray[np.int64],
    ) -> None:
        """Fill the cost tables for (cost class, braked, blocked) combinations not known yet.

        One ``move_costs`` call prices them all, each with an option of ``found`` of that
        class (``options``) braked and blocked as given: as :meth:`_priced` prices
        them one by one.
        """
        # a healthy car on lap 0, never on its last lap: move_cost reads no path (S-4)
        car = self._car_on(found.space)
        priced = [
            found.priced_option(i, b, bool(x), last_lap=False)
            for i, b, x in zip(options.tolist(), braked.tolist(), blocked.tolist(), strict=True)
        ]
        costs = move_costs(self.board, self.preset, car, priced)
        at = (classes, braked, blocked)
        totals = [cost.total for cost in costs]
        if min(totals, default=0) < 0:  # the tables and the solver's sorts rely on it
            raise SoloModelError(f"a move costs less than nothing under {self.preset.name!r}")
        self._loss[at] = totals
        self._doom[at] = [cost.eliminated or not cost.allowed for cost in costs]

    def finish_cost(self, space: int, option: MoveOption) -> MoveCost:
        """``move_cost`` of a move that ends the race (S-4: on the last lap, across the line).

        The engine charges such a move only for corners left before the line
        (no braking, nothing past the line), so its cost does not depend on
        the roll.
        """
        return move_cost(self.board, self.preset, self.last_lap_car(space), option)

    def last_lap_car(self, space: int) -> CarState:
        """A healthy car on ``space`` on the last lap (moves that end the race, S-4)."""
        car = self._last_lap_cars.get(space)
        if car is None:
            car = replace(self._full_car, space=space, lap=self.preset.laps)
            self._last_lap_cars[space] = car
        return car

    def _new_cost_class(self, key: _CostClass) -> int:
        """The cost class of a key not seen yet: a small integer naming what ``move_cost``
        reads of an option besides braking (:func:`_cost_reading`), shared by the keys
        that read alike; the cost tables grow when a new class fills them."""
        k = self._classes[key] = self._class_of_reading(_cost_reading(key))
        return k

    def _class_of_reading(self, reading: _CostReading) -> int:
        """The cost class of options that read as ``reading`` (:func:`_cost_reading`),
        numbered the first time it is met; the cost tables grow when a new class fills them."""
        known = self._readings.get(reading)
        if known is not None:
            return known
        k = self._readings[reading] = len(self._readings)
        if k >= self._loss.shape[0]:
            grow = max(64, k + 1)
            shape = (grow, self.max_roll + 1, 2)
            self._loss = np.concatenate([self._loss, np.full(shape, _UNPRICED, dtype=np.int64)])
            self._doom = np.concatenate([self._doom, np.zeros(shape, dtype=bool)])
        return k

    def rows(self, p: int) -> OptionRows:
        """The option rows of position ``p`` (an index into :attr:`positions`).

        Costs are looked up in a table per (cost class, braked, blocked),
        filled by :func:`~fdlab.rules.costs.move_cost` the first time a
        combination appears. What depends only on the search (which option
        is listed under which face, and its cost) is shared by the positions
        that search alike and made once when they are asked one after the
        other (the solver asks for the rows in that order).
        """
        found, group, idx, loss, doomed = self.row_parts(p)
        target = self._targets[p]
        return OptionRows(
            group=group,
            target=target[idx],
            loss=loss,
            doomed=doomed,
            restore=found.boxed[idx] & self.restores,
            exempt=found.pit[idx],
            starts=np.searchsorted(group, self.group_numbers),
        )

    def row_parts(
        self, p: int
    ) -> tuple[
        _Searched, NDArray[np.int32], NDArray[np.intp], NDArray[np.int64], NDArray[np.bool_]
    ]:
        """What :meth:`rows` makes the rows of position ``p`` from: its search, and each
        row's face group, option (an index into the search's options), loss and doom."""
        found = self._search_of[p]
        group, idx, loss, doomed = self._shape(found)
        target = self._targets[p]
        # S-4: a move that finishes the race is charged as the engine charges it on the last lap
        finishing = target == FINISHED
        if finishing.any():
            finish_loss, finish_doom = found.finish_costs(self, np.nonzero(finishing)[0])
            done = finishing[idx]
            loss = np.where(done, finish_loss[idx], loss)
            doomed = np.where(done, finish_doom[idx], doomed)
        return found, group, idx, loss, doomed

    def _shape(self, found: _Searched) -> _Shape:
        """Face group, option, loss and doom of every row of a search (the last one is kept)."""
        cache = self._shape_cache
        if cache[0] is found:
            return cache[1]
        group, idx, code = self._row_codes(found)
        loss = self._loss.reshape(-1)[code]
        if loss.min(initial=0) < 0:  # price the first row of each combination not priced yet
            missing = np.flatnonzero(loss < 0)
            missing = missing[np.sort(np.unique(code[missing], return_index=True)[1])]
            combination = code[missing]
            blocked = combination & 1
            cls, braked = np.divmod(combination >> 1, self.max_roll + 1)
            self._price(found, idx[missing], cls, braked, blocked)
            loss = self._loss.reshape(-1)[code]
        shape = (group, idx, loss, self._doom.reshape(-1)[code])
        self._shape_cache = (found, shape)
        return shape

    def _row_groups(
        self, found: _Searched
    ) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64], NDArray[np.int64]]:
        """Every (face group, option) row of a search: option i is listed under face group
        k when it moved at most that face's roll (rows sorted by group, then by option).
        Returns each row's group and option, and per face group its first option and the
        most spaces its options moved (-1 for none).

        The options are sorted by spaces moved, farthest first: those of a face are the
        last ones, from the first that moved at most its roll.
        """
        moved = found.moved
        rolls = self._rolls
        n = len(moved)
        first = np.searchsorted(-moved, -rolls)
        fits = n - first
        farthest = np.where(fits > 0, moved[np.minimum(first, n - 1)], -1)
        group = np.repeat(np.arange(len(rolls), dtype=np.int32), fits)
        idx = np.arange(len(group)) + np.repeat(first - (np.cumsum(fits) - fits), fits)
        return group, idx, first, farthest

    def _full_rolls(
        self, found: _Searched, first: NDArray[np.int64], farthest: NDArray[np.int64], any_box: bool
    ) -> NDArray[np.bool_]:
        """Per face group: some option moved the whole roll or entered the box (D-4, A-6);
        ``any_box``: some option of ``found`` entered the box."""
        full: NDArray[np.bool_] = farthest == self._rolls
        boxed = found.boxed
        if any_box:
            boxes = np.concatenate([[0], np.cumsum(boxed)])
            full |= boxes[len(boxed)] > boxes[first]
        return full

    def _row_codes(
        self, found: _Searched
    ) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64]]:
        """Each row's face group, option and flat index of (cost class, braked, blocked) in
        the cost tables: :meth:`_row_codes_by_braking` in fewer passes over the rows.

        Braking is the roll less the spaces moved, into the own box none, and a roll
        that no option moves in full blocks its farthest options (``braking``, D-4,
        A-6, P-2). So a row's index is a part of its option,
        ``2 * (class * (max_roll + 1) - moved)`` (no ``- moved`` into the box), plus a
        part of its face, ``2 * roll`` (none into the box), plus 1 where blocked: two
        lookups a row, the rest per option or per face group.
        """
        group, idx, first, farthest = self._row_groups(found)
        moved, boxed = found.moved, found.boxed
        any_box = bool(boxed.any())  # most searches reach no box
        full = self._full_rolls(found, first, farthest, any_box)
        width = self.max_roll + 1
        per_option = 2 * (found.classes * width - np.where(boxed, 0, moved))
        per_face = 2 * self._rolls
        code = per_option[idx] + per_face[group]
        if any_box:
            into_box = np.flatnonzero(boxed[idx])
            code[into_box] -= per_face[group[into_box]]
        short = ~full & (farthest >= 0)
        if short.any():  # a roll no option moves in full: its farthest options are blocked
            rows = np.flatnonzero(short[group])
            at = idx[rows]
            blocked = rows[(moved[at] == farthest[group[rows]]) & ~boxed[at]]
            code[blocked] += 1
        return group, idx, code

    def _row_codes_by_braking(
        self, found: _Searched
    ) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64]]:
        """:meth:`_row_codes` row by row with ``braking``, the rule's one statement (the
        plain reference the tests compare it with)."""
        group, idx, first, farthest = self._row_groups(found)
        full = self._full_rolls(found, first, farthest, bool(found.boxed.any()))
        braked, blocked = braking(  # arithmetic, so it applies element by element
            self._rolls[group],
            found.moved[idx],
            found.boxed[idx].astype(np.int64),
            full[group].astype(np.int64),
            farthest[group],
        )
        code = (found.classes[idx] * (self.max_roll + 1) + braked) * 2 + blocked
        return group, idx, code.astype(np.int64)

    def start_rows(self, p: int) -> OptionRows:
        """Option rows of a flying start from position ``p`` (one group: the flying roll)."""
        position = self.positions[p]
        flying = self.preset.start_flying_spaces
        space = position[0]
        options = move_options_for_rolls(self.board, space, [flying], self._rules(position))[flying]
        target, loss, doomed, restore, exempt = [], [], [], [], []
        for o in options:
            nxt = self.successor(position, o)
            cost = (
                self.finish_cost(position[0], o) if nxt == FINISHED else self.cost(position[0], o)
            )
            target.append(FINISHED if nxt == FINISHED else self.index[nxt])
            loss.append(cost.total)
            doomed.append(cost.eliminated or not cost.allowed)
            restore.append(o.boxed and self.restores)
            exempt.append(True)  # no die was rolled: no engine check (D-6)
        n = len(target)
        return OptionRows(
            group=np.zeros(n, dtype=np.int32),
            target=np.asarray(target, dtype=np.int64),
            loss=np.asarray(loss, dtype=np.int64),
            doomed=np.asarray(doomed, dtype=bool),
            restore=np.asarray(restore, dtype=bool),
            exempt=np.asarray(exempt, dtype=bool),
            starts=np.zeros(1, dtype=np.int64),
        )

    # -- gears -----------------------------------------------------------------------
    def gear_table(self, space: int) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """Legal gears and downshift losses from ``space`` for every previous gear.

        Returns
        -------
        legal : ndarray of bool, shape (gears + 1, gears)
            ``legal[previous, gear - 1]``; previous gear 0 is a stalled car (S-2).
        loss : ndarray of int, same shape
            Pool loss of the shift (G-4, free in the pit zone, P-4).
        """
        gears = self.preset.gears
        legal = np.zeros((gears + 1, gears), dtype=bool)
        loss = np.zeros((gears + 1, gears), dtype=np.int64)
        pool = self.preset.pool_names[0]
        for previous in range(gears + 1):
            car = CarState(space=space, gear=previous, pools=self.preset.pool_max, started=True)
            state = RaceState(cars=(car,), phase="gear", order=(0,))
            for gear in range(1, gears + 1):
                if self.engine.gear_error(state, gear) is None:
                    legal[previous, gear - 1] = True
                    loss[previous, gear - 1] = self.engine.downshift_cost(car, gear).get(pool, 0)
        return legal, loss

    def engine_check(self, gear: int, roll: int) -> bool:
        """The roll of this gear pushes the engine to the limit (D-6)."""
        return engine_check(self.preset, gear, roll)

    def engine_hit(self) -> float:
        """Probability that an engine check costs a point (D-6)."""
        return engine_hit(self.preset)

    def describe(self, p: int) -> dict[str, SpaceId | int]:
        """A position in words: space id, lap and stops."""
        space, lap, stops = self.positions[p]
        return {"space": self.board.ids[space], "lap": lap, "stops": stops}


def _cost_reading(key: _CostClass) -> _CostReading:
    """What ``move_cost`` reads of an option with the overshoots and pit zone ends of
    ``key``, besides braking: a car overshooting pays the spaces beyond every exit line
    together (C-3, A-2, A-4), is eliminated if a corner it left misses too many stops
    (C-4), and brakes for free when it starts or ends in the pit zone (P-4). Options
    that read alike cost alike at every braking (tested against ``move_cost``), so the
    solver prices one of them.

    Examples
    --------
    >>> from fdlab.rules.movement import Overshoot
    >>> left = (Overshoot(corner="1", required=2, stops_made=1, beyond=3),
    ...         Overshoot(corner="2", required=1, stops_made=0, beyond=2))
    >>> _cost_reading((left, False, True))
    (5, 1, True)
    """
    overshoots, starts_in_pit, ends_in_pit = key
    beyond = sum(over.beyond for over in overshoots)
    missing = max((over.required - over.stops_made for over in overshoots), default=0)
    return beyond, missing, starts_in_pit or ends_in_pit


class _Batch:
    """The widest searches of a model made all at once (:func:`fdlab.par.searches.search_many`),
    with the columns :class:`_Searched` reads, made for all of them together.

    Parameters
    ----------
    model : SoloModel
    keys : list of (space, MoveRules)
        The searches to make, as :attr:`SoloModel._searches` keys them.
    """

    def __init__(self, model: SoloModel, keys: list[tuple[int, MoveRules]]) -> None:
        board = model.board
        self.index = {key: k for k, key in enumerate(keys)}
        found = self.found = search_many(
            board, [space for space, _ in keys], [rules for _, rules in keys], model.max_roll
        )
        self._line_sets: dict[int, frozenset[str]] = {}
        n_search = len(keys)
        search = np.repeat(np.arange(n_search), np.diff(found.first))
        start = np.asarray([space for space, _ in keys], dtype=np.int64)[search]
        # cost classes, read from the overshoot records (_cost_reading) without making the
        # options' overshoots: a record's items are (corner, stops made, stops required,
        # spaces moved at its exit line), so the spaces beyond the exit lines are the
        # spaces moved times the items, less what was moved before each exit line
        records = found.records
        items = np.fromiter((len(r) for r in records), np.int64, len(records))
        before_exits = np.fromiter((sum(o[3] for o in r) for r in records), np.int64, len(records))
        missing = np.fromiter(
            (max((o[2] - o[1] for o in r), default=0) for r in records), np.int64, len(records)
        )
        most_missing = int(missing.max(initial=0)) + 1
        beyond = items[found.record] * found.moved - before_exits[found.record]
        pit = model._off_track[start] | model._off_track[found.destination]
        readings, inverse = _numbered((beyond * most_missing + missing[found.record]) * 2 + pit)
        numbers = np.asarray(
            [
                model._class_of_reading(
                    (code // 2 // most_missing, code // 2 % most_missing, bool(code % 2))
                )
                for code in readings.tolist()
            ],
            dtype=np.int64,
        )
        self.classes = numbers[inverse]
        # laps: the finish line crossed (S-4)
        self.laps = (found.finish_at > 0).astype(np.int64)

    def line_set(self, bits: int) -> frozenset[str]:
        """The lines of a :attr:`Searches.lines` value (one set object per value)."""
        lines = self._line_sets.get(bits)
        if lines is None:
            lines = self._line_sets[bits] = self.found.line_set(bits)
        return lines


def _numbered(values: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct ``values`` (non-negative, not much larger than their count), in
    increasing order, and each value's place among them: ``np.unique`` with
    ``return_inverse``, by counting instead of sorting.

    Examples
    --------
    >>> distinct, place = _numbered(np.array([5, 2, 5, 9]))
    >>> distinct.tolist(), place.tolist()
    ([2, 5, 9], [1, 0, 1, 2])
    """
    if not len(values):
        return values, values
    distinct = np.flatnonzero(np.bincount(values))
    place = np.zeros(int(distinct[-1]) + 1, dtype=np.int64)
    place[distinct] = np.arange(len(distinct))
    return distinct, place[values]


class _Searched:
    """One search (:func:`~fdlab.rules.movement.move_options` with the widest roll) as arrays.

    Shared by every position of the same space and movement rules: what a
    move does to the stop count (C-2, C-6) is the same for all of them, and
    the lap counter only adds (S-4), so both are taken from
    :func:`~fdlab.rules.movement.after_move` once per option.
    """

    def __init__(
        self,
        model: SoloModel,
        space: int,
        rules: MoveRules,
        batch: _Batch | None = None,
    ):
        board = model.board
        self.space = space
        self._board = board
        self._roll = model.max_roll
        self._rules = rules
        self._options: list[MoveOption] | None = None
        #: Path and lines of each option, for moves that end the race (S-4), until released:
        #: lists, or the batch of searches this one is part of (:meth:`_path_and_lines`).
        self._paths: list[tuple[int, ...]] | None = None
        self._lines: list[frozenset[str]] | None = None
        self._batch: tuple[_Batch, int] | None = None
        #: Per option its overshoot record and the spaces moved when it crossed the
        #: finish line, with the records (a batch search), for S-4 (:meth:`finish_costs`).
        self._cuts: tuple[NDArray[np.int64], NDArray[np.int64], list[Any]] | None = None
        self._memo = model._overshoots
        if batch is None:
            columns = option_columns(board, space, self._roll, rules, model._overshoots)
            self.destination = np.asarray(columns.destination, dtype=np.int64)
            self.moved = np.asarray(columns.moved, dtype=np.int64)
            self.boxed = np.asarray(columns.boxed, dtype=bool)
            #: Each option's overshoots (what ``move_cost`` reads of it besides braking).
            #: Equal tuples are one object: a model keeps hundreds of thousands of options,
            #: and the cycle collector would pass over each named tuple on every full
            #: collection.
            self._overshoot_list: list[tuple[Overshoot, ...]] | None = columns.overshoots
            self._paths, self._lines = columns.path, columns.lines
            self.laps_gained = np.asarray(columns.laps, dtype=np.int64)
            stops_after = np.asarray(columns.stops, dtype=np.int64)
            self.pit = model._off_track[self.destination]
            #: The cost class of each option (:meth:`SoloModel._new_cost_class`).
            self.classes = self._cost_classes(model)
        else:
            k = batch.index[space, rules]
            a, z = int(batch.found.first[k]), int(batch.found.first[k + 1])
            self._batch = (batch, a)
            self.destination = batch.found.destination[a:z]
            self.moved = batch.found.moved[a:z]
            self.boxed = batch.found.boxed[a:z]
            self._overshoot_list = None  # made from the records when asked (overshoots)
            self.laps_gained = batch.laps[a:z]
            stops_after = batch.found.stops[a:z]
            self.pit = model._off_track[self.destination]
            self.classes = batch.classes[a:z]
            self._cuts = (batch.found.record[a:z], batch.found.finish_at[a:z], batch.found.records)
        self.capped_stops = np.minimum(stops_after, model._need[self.destination])
        self._finish: dict[int, tuple[int, bool]] = {}
        #: Taken from a model of an earlier version of the board (:mod:`fdlab.par.reuse`).
        self.reused = False

    def on(self, board: Board) -> _Searched:
        """This search for another board on which it finds the same options (an edit's copy)."""
        copy = object.__new__(_Searched)
        copy.__dict__.update(self.__dict__)
        copy._board = board
        copy._options = None
        copy._finish = dict(self._finish)
        copy.reused = True
        return copy

    def with_stops(self, model: SoloModel, rules: MoveRules) -> _Searched:
        """This search, made with no stops in the start corner, for ``rules.stops_made``
        stops there (fewer than the corner needs).

        Both searches find the same moves in the same order: leaving the
        corner is an overshoot either way (C-3), whose record says how many
        stops were made, and a move that ends in the corner without leaving
        it counts one stop more than were made (C-2). Those two columns are
        changed; the first overshoot of the start corner in a record is its
        leaving (a later one is a second lap round it, with no stops made).
        """
        made = rules.stops_made
        corner = model.board.corner[self.space]
        copy = object.__new__(_Searched)
        copy.__dict__.update(self.__dict__)
        copy._rules = rules
        copy._options = None
        copy._finish = {}
        copy._cuts = None  # its records hold no stops made: S-4 walks the paths
        copy.reused = False
        distinct = model._overshoots.distinct
        # one changed record per distinct record object (equal records are one object)
        changed: dict[int, tuple[Overshoot, ...]] = {}

        def with_made(overshoots: tuple[Overshoot, ...]) -> tuple[Overshoot, ...]:
            for k, over in enumerate(overshoots):
                if over.corner == corner:
                    new = (*overshoots[:k], over._replace(stops_made=made), *overshoots[k + 1 :])
                    return distinct.setdefault(new, new)
            return overshoots

        column = []
        for overshoots in self.overshoots:
            key = id(overshoots)
            new = changed.get(key)
            if new is None:
                new = changed[key] = with_made(overshoots) if overshoots else overshoots
            column.append(new)
        copy._overshoot_list = column
        # ended in the start corner without leaving it: one stop more than made (C-2)
        ends_inside = np.fromiter(
            (model.board.corner[d] == corner for d in self.destination.tolist()),
            bool,
            len(self.destination),
        )
        copy.capped_stops = np.where(
            ends_inside & (self.capped_stops == 1), made + 1, self.capped_stops
        )
        copy.classes = copy._cost_classes(model)
        return copy

    @property
    def overshoots(self) -> list[tuple[Overshoot, ...]]:
        """Each option's overshoots (what ``move_cost`` reads of it besides braking); equal
        tuples are one object (:class:`~fdlab.rules.movement.OvershootMemo`). A batch's
        search makes them from its records the first time they are asked."""
        column = self._overshoot_list
        if column is None:
            column = self._overshoot_list = [
                self._overshoots_of(i) for i in range(len(self.destination))
            ]
        return column

    def _overshoots_of(self, i: int) -> tuple[Overshoot, ...]:
        """The overshoots of option ``i``, made from its record if the column is not made."""
        column = self._overshoot_list
        if column is not None:
            return column[i]
        assert self._cuts is not None
        records, _, tuples = self._cuts
        record = tuples[int(records[i])]
        return self._memo[record, int(self.moved[i])] if record else ()

    @property
    def options(self) -> list[MoveOption]:
        """The options of the widest roll, as :func:`~fdlab.rules.movement.move_options`
        lists them (searched when asked: the solver reads the columns)."""
        options = self._options
        if options is None:
            options = self._options = move_options(self._board, self.space, self._roll, self._rules)
        return options

    def release(self) -> None:
        """Drop the option list and the paths (the arrays stay)."""
        self._options = None
        self._paths = self._lines = None
        self._batch = None

    def _cost_classes(self, model: SoloModel) -> NDArray[np.int64]:
        """The cost class of each option (:meth:`SoloModel._new_cost_class`)."""
        start_pit = in_pit_zone(model.board, self.space)
        known = model._classes
        classes = []
        for overshoots, pit in zip(self.overshoots, self.pit.tolist(), strict=True):
            key = (overshoots, start_pit, pit)  # a cost class (_CostClass)
            k = known.get(key)
            classes.append(model._new_cost_class(key) if k is None else k)
        return np.asarray(classes, dtype=np.int64)

    def priced_option(
        self, i: int, braked: int, blocked: bool, *, last_lap: bool = True
    ) -> MoveOption:
        """Option ``i`` as ``move_cost`` reads it, with ``braked`` and ``blocked`` (the
        search's widest roll lists it once; a smaller roll brakes it less).

        ``last_lap=False`` leaves the path and lines out: ``move_cost`` reads them
        only for a car on its last lap (S-4), and they are rebuilt for each option.
        """
        overshoots = self._overshoots_of(i)
        destination = int(self.destination[i])
        path, lines = self._path_and_lines(i) if last_lap else ((), _NO_LINES)
        # the named tuple made without its Python-level __new__ (made by the thousand)
        return tuple.__new__(
            MoveOption,
            (
                destination,
                path,
                int(self.moved[i]),  # moved
                braked,
                blocked,
                0,  # lane_changes
                overshoots,
                (),  # corners_left
                not overshoots or self._board.corner[destination] is None,  # stop_counts
                lines,
                (),  # danger
                bool(self.boxed[i]),
            ),
        )

    def _path_and_lines(self, i: int) -> tuple[tuple[int, ...], frozenset[str]]:
        """The path and the lines crossed of option ``i``."""
        if self._batch is not None:
            batch, first = self._batch
            return batch.found.path(first + i), batch.line_set(int(batch.found.lines[first + i]))
        paths, lines = self._paths, self._lines
        if paths is None or lines is None:  # released: searched again
            columns = option_columns(self._board, self.space, self._roll, self._rules)
            paths, lines = self._paths, self._lines = columns.path, columns.lines
        return paths[i], lines[i]

    def finish_costs(
        self, model: SoloModel, which: NDArray[np.intp]
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """Loss and doom of the options ``which`` as moves that end the race (per option).

        S-4: such a move pays nothing but the corners it left before the line,
        so an option without overshoots is free; the others are priced by
        ``move_cost`` (which reads their path up to the line), or from their
        overshoot record (:meth:`_priced_at_line`).
        """
        n = len(self.destination)
        loss = np.zeros(n, dtype=np.int64)
        doom = np.zeros(n, dtype=bool)
        cuts = self._cuts
        if cuts is not None and not model._tunnels:
            which = which[cuts[0][which] != 0]  # record 0: no overshoot, nothing to pay
            loss[which], doom[which] = self._priced_at_line(model, which)
            return loss, doom
        overshoots = self.overshoots
        walk = [i for i in which.tolist() if overshoots[i]]
        if walk:
            known = self._finish
            new = [i for i in walk if i not in known]
            if new:  # the path walked up to the line, as model.finish_cost prices it
                options = [
                    self.priced_option(i, self._roll - int(self.moved[i]), False) for i in new
                ]
                costs = move_costs(
                    model.board, model.preset, model.last_lap_car(self.space), options
                )
                for i, cost in zip(new, costs, strict=True):
                    known[i] = (cost.total, cost.eliminated or not cost.allowed)
            for i in walk:
                loss[i], doom[i] = known[i]
        return loss, doom

    def _priced_at_line(
        self, model: SoloModel, which: NDArray[np.intp]
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """Loss and doom of the options ``which`` of a batch's search (on a board without
        tunnels) as S-4 cuts them at the finish line, from their overshoot records and
        the spaces moved when they crossed the line, without their paths.

        The overshoots kept are those whose exit line came no later than the finish
        line (the record lists them in that order), each with the spaces moved from
        its exit line up to the finish line. What is left is priced as the move of
        a car before its last lap (nothing more to cut), once per record, spaces
        moved at the line and pit zone at both ends (:attr:`SoloModel._finish_prices`).
        """
        assert self._cuts is not None
        records, finish_at, tuples = self._cuts
        start_pit = bool(model._off_track[self.space])
        codes = (records[which] * (self._roll + 2) + finish_at[which]) * 2 + self.pit[which]
        distinct, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        prices = np.zeros((len(distinct), 2), dtype=np.int64)  # loss, doom
        for u, i in enumerate(which[first].tolist()):
            number, crossed = int(records[i]), int(finish_at[i])
            key = (id(tuples), number, crossed, start_pit, bool(self.pit[i]))
            price = model._finish_prices.get(key)
            if price is None:
                price = model._finish_prices[key] = self._price_cut(
                    model, i, tuples[number], crossed
                )
            prices[u] = price
        priced = prices[inverse]
        return priced[:, 0], priced[:, 1].astype(bool)

    def _price_cut(
        self, model: SoloModel, i: int, record: tuple[Any, ...], crossed: int
    ) -> tuple[int, bool]:
        """Loss and doom of option ``i``, whose overshoot record is ``record``, cut at the
        finish line it crossed after moving ``crossed`` spaces (:meth:`_priced_at_line`).

        Each item of the record is one exit line crossed short of stops, with the
        spaces moved when it was crossed: a corner left twice in one move (round a
        small board) is two items, each kept or dropped by where it was left.
        """
        destination = int(self.destination[i])
        kept = tuple(over for over in record if over[3] < crossed)
        overshoots = model._overshoots[kept, crossed - 1] if kept else ()
        cut = MoveOption(
            destination=destination,
            path=(),
            moved=int(self.moved[i]),
            braked=0,
            blocked=False,
            lane_changes=0,
            overshoots=overshoots,
            corners_left=(),
            stop_counts=not overshoots or self._board.corner[destination] is None,
            lines=frozenset(),
            danger=(),
            boxed=bool(self.boxed[i]),
        )
        (cost,) = move_costs(model.board, model.preset, model._car_on(self.space), [cut])
        return cost.total, cost.eliminated or not cost.allowed


def engine_check(preset: Preset, gear: int, roll: int) -> bool:
    """Whether ``roll`` in ``gear`` pushes the engine to the limit under ``preset`` (D-6).

    Examples
    --------
    >>> engine_check(BASIC, 6, 30), engine_check(BASIC, 6, 29)
    (True, False)
    """
    return preset.engine_triggers.get(gear) == roll and gear in preset.engine_gears


def engine_hit(preset: Preset) -> float:
    """Probability that an engine check costs a point under ``preset`` (D-6).

    Examples
    --------
    >>> engine_hit(BASIC)
    0.2
    """
    faces = preset.black_faces
    return sum(1 for f in faces if f <= preset.engine_fail) / len(faces)


def _steps_to_pit_in(board: Board) -> NDArray[np.int64]:
    """Per space, the fewest steps of the board to a step into the pit lane (a large number if none)."""
    n = len(board.ids)
    far = np.iinfo(np.int64).max // 2
    steps = np.full(n, far, dtype=np.int64)
    back: list[list[int]] = [[] for _ in range(n)]
    queue = []
    for v in range(n):
        for j, code in board.moves[v]:
            back[j].append(v)
            if code == STEP_PIT_IN and steps[v] > 1:
                steps[v] = 1
    queue = [v for v in range(n) if steps[v] == 1]
    head = 0
    while head < len(queue):
        j = queue[head]
        head += 1
        for v in back[j]:
            if steps[v] > steps[j] + 1:
                steps[v] = steps[j] + 1
                queue.append(v)
    return steps
