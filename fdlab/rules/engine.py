"""The step function: a state and an action in, the next state and events out.

:class:`Engine` holds what never changes during a race (the compiled
:class:`~fdlab.rules.board.Board`, the :class:`~fdlab.rules.presets.Preset`,
car names and per-board tables) and applies actions to immutable
:class:`~fdlab.rules.state.RaceState` values. Dice come from an injected
source (:mod:`fdlab.rules.dice`), so the same seed and actions replay the
same race.

A round (T-1..T-4): each racing car in order announces a gear
(:class:`~fdlab.rules.actions.ChooseGear`, which rolls), may use nitro
(street), and chooses a move (:class:`~fdlab.rules.actions.ChooseMove`).
After the move: street hazards (X-2, X-3), lines (finish S-4, police X-4,
checkpoint X-6), box (P-2), collision (D-5 / A-8), engine check (D-6 / A-9);
those after-move rules live in :mod:`fdlab.rules.incidents`.

Moves are played two ways: :meth:`Engine.step` with a
:class:`~fdlab.rules.actions.ChooseMove` checks what a person names and
explains a refusal; :meth:`Engine.push` plays an option taken from
:meth:`Engine.legal_moves` without checking it again (bots, playtests).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from numbers import Integral
from typing import Any

from fdlab._text import shown
from fdlab.rules.actions import Action, ChooseGear, ChooseMove, RollGrid, UseNitro
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, in_pit_zone, move_cost, move_costs
from fdlab.rules.dice import DiceSource
from fdlab.rules.errors import (
    IllegalGearError,
    IllegalMoveError,
    IllegalNitroError,
    RaceOverError,
    RaceStuckError,
    RuleError,
    RuleTypeError,
    WrongPhaseError,
)
from fdlab.rules.events import Event
from fdlab.rules.explain import explain_illegal
from fdlab.rules.incidents import IncidentRules
from fdlab.rules.movement import MoveOption, MoveRules, after_move, follow_path, move_options
from fdlab.rules.order import inside_ranks, turn_order
from fdlab.rules.presets import Preset, ordinal
from fdlab.rules.state import OFF_BOARD, CarState, Phase, RaceState
from fdlab.track.model import SpaceId

#: Default car names, in car-number order.
CAR_NAMES = ("Blue", "Red", "Green", "Yellow", "Black", "White", "Orange", "Purple", "Grey", "Pink")


class Engine(IncidentRules):
    """The rules of one race: board, preset and car names; applies actions.

    Parameters
    ----------
    board : Board
        The compiled track, shared by every race on it.
    preset : Preset
    names : sequence of str
        One name per car (car number = position + 1, which is also its box
        slot, P-2).
    max_rounds : int, optional
        Hard cap on rounds; reaching it raises :class:`RaceStuckError`.
        Default: generous for the lap count and board size.

    Examples
    --------
    >>> from fdlab.rules.dice import LoadedDice
    >>> board = compile_board(from_ascii('''
    ...     . . . . . .
    ...     . . . . . .
    ... ''', grid=[2, 3], finish=5))
    >>> engine = Engine(board, BASIC, ["Blue", "Red"])
    >>> dice = LoadedDice([20, 3, 10, 2])  # grid rolls, then Blue's start roll and 1st-gear die
    >>> state, events = engine.step(engine.initial_state(), RollGrid(), dice)
    >>> state, events = engine.step(state, ChooseGear(1), dice)
    >>> [str(e) for e in events]
    ['Blue, 1st gear, start roll 10: normal start', 'Blue rolls 2']
    """

    def __init__(
        self,
        board: Board,
        preset: Preset,
        names: Sequence[str],
        max_rounds: int | None = None,
    ) -> None:
        if not 1 <= len(names) <= 10:
            raise RuleError(f"a race has 1 to 10 cars, not {len(names)}")
        self.board = board
        self.preset = preset
        self.names = tuple(names)
        self.n_cars = len(names)
        self.inside = inside_ranks(board)
        boxes = {board.box[i]: i for i in range(len(board.ids)) if board.kind[i] == "box"}
        self.own_box = tuple(boxes.get(c + 1) for c in range(self.n_cars))
        self.danger = (
            frozenset(
                i
                for i in range(len(board.ids))
                if board.hazard[i] == "danger" and board.tunnel[i] is None
            )
            if preset.street
            else frozenset()
        )
        self.grid_spots = tuple(
            i for _, i in sorted((g, i) for i, g in enumerate(board.grid) if g is not None)
        )
        entries = [
            board.progress[i]
            for i, steps in enumerate(board.steps)
            for _, k, _ in steps
            if k == "pit_in"
        ]
        self.pit_entry_progress = min(entries) if entries else None
        lap = max(board.lap_length, 1.0)
        self.max_rounds = max_rounds or int(60 + 40 * (preset.laps + 1) * lap)

    # -- naming helpers ------------------------------------------------------------
    def space_id(self, index: int) -> SpaceId:
        """Space id of a board index."""
        return self.board.ids[index]

    # -- initial state -------------------------------------------------------------
    def initial_state(self) -> RaceState:
        """All cars off the board, full pools, waiting for the grid roll (S-1)."""
        car = CarState(pools=self.preset.pool_max)
        return RaceState(cars=(car,) * self.n_cars)

    def position(
        self,
        placements: Sequence[dict[str, Any]],
        *,
        order: Sequence[int] | None = None,
        phase: Phase = "gear",
    ) -> RaceState:
        """A race state with cars placed by hand, for lessons and tests.

        Parameters
        ----------
        placements : sequence of dict
            One per car, car 1 first: ``space`` (a space id, or ``None`` for a
            car off the board) and any other :class:`CarState` field (``gear``,
            ``pools``, ``lap``, ``stops``...). Cars are ``started`` unless
            told otherwise; ``pools`` default to full.
        order : sequence of int, optional
            Turn order of this round (default: computed, T-1..T-3).
        phase : Phase
            ``gear`` (default): the first car in order is about to choose.

        Examples
        --------
        >>> engine = Engine(compile_board(from_ascii(". . . .")), BASIC, ["A", "B"])
        >>> state = engine.position([{"space": 1, "gear": 2}, {"space": 3}])
        >>> state.order, state.cars[0].gear
        ((1, 0), 2)
        """
        if len(placements) != self.n_cars:
            raise RuleError(f"{len(placements)} placements for {self.n_cars} cars")
        cars = []
        for spec in placements:
            values = {"pools": self.preset.pool_max, "started": True, **spec}
            sid = values.pop("space", None)
            values["space"] = OFF_BOARD if sid is None else self.board.index[sid]
            values["pools"] = tuple(values["pools"])
            car = CarState(**values)
            if in_pit_zone(self.board, car.space) and car.pit_entry is None:
                car = replace(car, pit_entry=self._pit_entry_of(car))
            cars.append(car)
        state = RaceState(cars=tuple(cars), phase=phase, round=1)
        if order is None:
            order = turn_order(
                self.board, cars, inside=self.inside, tie_break=self.preset.tie_break
            )
        return replace(state, order=tuple(order))

    def _pit_entry_of(self, car: CarState) -> float | None:
        """Race distance of the pit entry for a car placed in the pit zone (P-6)."""
        entry = self.pit_entry_progress
        if entry is None:
            return None
        lap = car.lap if self.board.progress[car.space] >= entry else car.lap - 1
        return float(lap * self.board.lap_length + entry)

    # -- queries ---------------------------------------------------------------------
    def pit_allowed(self, car_index: int, car: CarState) -> bool:
        """P-2, P-7: between laps only, never on the last lap nor from the grid."""
        preset = self.preset
        return preset.pits and self.own_box[car_index] is not None and 1 <= car.lap < preset.laps

    def gear_error(self, state: RaceState, gear: int) -> str | None:
        """Why ``gear`` may not be chosen now (with the clause id), or ``None``.

        Decision (S-2): a stalled car sits in "gear 0"; 1st is its only choice
        next turn.

        Examples
        --------
        >>> engine = Engine(compile_board(from_ascii(". . . .")), BASIC, ["A"])
        >>> state = engine.position([{"space": 0, "gear": 2}])
        >>> print(engine.gear_error(state, 4))
        G-3: you can shift up only one gear per turn: from 2nd you may choose 1st-3rd, not 4th
        >>> engine.legal_gears(state)
        [1, 2, 3]
        """
        preset = self.preset
        c = state.current
        if c is None:
            return None
        car = state.cars[c]
        top = preset.gears
        if isinstance(gear, bool) or not isinstance(gear, Integral):
            return f"G-1: a gear is a whole number from 1 to {top}, not {shown(gear)}"
        if not 1 <= gear <= top:
            return f"G-1: gears are 1st to {ordinal(top)}, there is no gear {shown(gear)}"
        if not car.started:
            return None if gear == 1 else f"S-2: every car starts in 1st gear, not {ordinal(gear)}"
        if car.spun:
            return (
                None
                if gear == 1
                else f"A-3: after a spin the car restarts in 1st gear, not {ordinal(gear)}"
            )
        if car.gear == 0:
            return (
                None if gear == 1 else f"S-2: a stalled car engages 1st gear, not {ordinal(gear)}"
            )
        board = self.board
        if board.kind[car.space] == "box":
            if gear > preset.pit_exit_max_gear:
                return (
                    f"P-3: a car leaves its box in any gear up to {ordinal(preset.pit_exit_max_gear)}, "
                    f"not {ordinal(gear)}"
                )
            return None
        low = max(1, car.gear - preset.max_downshift)
        high = min(top, car.gear + 1)
        if gear > high:
            return (
                f"G-3: you can shift up only one gear per turn: from {ordinal(car.gear)} you may "
                f"choose {ordinal(low)}-{ordinal(high)}, not {ordinal(gear)}"
            )
        if gear < low:
            return (
                f"G-4: you can drop at most {preset.max_downshift} gears at once: from "
                f"{ordinal(car.gear)} you may choose {ordinal(low)}-{ordinal(high)}, not {ordinal(gear)}"
            )
        if preset.model == "advanced" and not in_pit_zone(board, car.space):
            costs = preset.downshift_costs.get(car.gear - gear, {})
            short = [
                f"{pool} (has {car.pools[preset.pool_index[pool]]})"
                for pool, amount in costs.items()
                if car.pools[preset.pool_index[pool]] < amount
            ]
            if short:
                need = ", ".join(f"{a} {p}" for p, a in costs.items())
                return (
                    f"A-7: dropping from {ordinal(car.gear)} to {ordinal(gear)} costs {need} WP; "
                    f"the car lacks " + ", ".join(short)
                )
        return None

    def legal_gears(self, state: RaceState) -> list[int]:
        """Gears the car on turn may announce (G-3, G-4, G-5, S-2, P-3, A-3, A-7)."""
        if state.phase != "gear":
            return []
        return [g for g in range(1, self.preset.gears + 1) if self.gear_error(state, g) is None]

    def downshift_cost(self, car: CarState, gear: int) -> dict[str, int]:
        """Pool losses of shifting from ``car.gear`` to ``gear`` (G-4, A-7; free in the pit zone, P-4)."""
        if not car.started or car.spun or in_pit_zone(self.board, car.space):
            return {}
        return dict(self.preset.downshift_costs.get(car.gear - gear, {}))

    def gear_eliminates(self, car: CarState, gear: int) -> bool:
        """The downshift cost would eliminate the car (D-2)."""
        preset = self.preset
        for pool, amount in self.downshift_cost(car, gear).items():
            left = car.pools[preset.pool_index[pool]] - amount
            if left < 0 or (left == 0 and pool in preset.eliminate_at_zero):
                return True
        return False

    def move_rules(self, state: RaceState, car_index: int | None = None) -> MoveRules:
        """The movement rules of a car now: other cars, its stops, pit lane and box, street hazards.

        Parameters
        ----------
        state : RaceState
        car_index : int, optional
            Default: the car on turn.

        Examples
        --------
        >>> engine = Engine(compile_board(from_ascii(". . . .")), BASIC, ["A", "B"])
        >>> rules = engine.move_rules(engine.position([{"space": 1}, {"space": 3}]), 1)
        >>> rules.occupied, rules.max_lane_changes
        (frozenset({1}), 2)
        """
        c = state.on_turn if car_index is None else car_index
        car = state.cars[c]
        return MoveRules(
            occupied=state.occupied(skip=c),
            stops_made=car.stops,
            pit_allowed=self.pit_allowed(c, car),
            own_box=self.own_box[c],
            avoid=self.danger,
            max_lane_changes=self.preset.max_lane_changes,
        )

    def options(self, state: RaceState) -> list[MoveOption]:
        """Every movement option of the car on turn, for its roll (costs not checked)."""
        if state.phase != "move":
            return []
        car = state.cars[state.on_turn]
        return move_options(self.board, car.space, state.roll, self.move_rules(state))

    def legal_moves(self, state: RaceState) -> list[tuple[MoveOption, MoveCost]]:
        """Options the rules allow, each with its certain cost (eliminating ones included, D-2).

        Examples
        --------
        >>> from fdlab.rules.dice import LoadedDice
        >>> engine = Engine(compile_board(from_ascii(". . . . .")), BASIC, ["A"])
        >>> state = engine.position([{"space": 0, "gear": 2, "pools": (2,)}])
        >>> state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
        >>> [(o.moved, cost.total, cost.eliminated) for o, cost in engine.legal_moves(state)]
        [(3, 0, False), (2, 1, False), (1, 2, True), (0, 3, True)]
        """
        if state.phase != "move":
            return []
        car = state.cars[state.on_turn]
        options = self.options(state)
        costs = move_costs(self.board, self.preset, car, options)
        return [(option, cost) for option, cost in zip(options, costs, strict=True) if cost.allowed]

    def nitro_available(self, state: RaceState) -> bool:
        """X-1: street rules, after the roll, once per lap (the grid belongs to lap 1).

        A flying start (S-2, no die rolled) may use it too: the seed makes no exception.
        """
        if not self.preset.street or state.phase != "move" or state.nitro:
            return False
        car = state.cars[state.on_turn]
        return car.nitro_lap != max(car.lap, 1)

    # -- the two ways to play a move ----------------------------------------------------
    def push(
        self, state: RaceState, option: MoveOption, cost: MoveCost, dice: DiceSource
    ) -> tuple[RaceState, list[Event]]:
        """Play a move taken from :meth:`legal_moves`, unchecked: the fast path for bots.

        Like python-chess's ``push`` beside ``push_san``: ``option`` and
        ``cost`` must be a pair :meth:`legal_moves` returned for ``state``;
        nothing is looked up or checked again. A move a person names goes
        through :meth:`step` with a :class:`~fdlab.rules.actions.ChooseMove`,
        which checks it and explains a refusal with the clause id.

        Examples
        --------
        >>> from fdlab.rules.dice import LoadedDice
        >>> engine = Engine(compile_board(from_ascii(". . . . .")), BASIC, ["A"])
        >>> state = engine.position([{"space": 0, "gear": 2}])
        >>> state, _ = engine.step(state, ChooseGear(2), LoadedDice([3]))
        >>> option, cost = engine.legal_moves(state)[0]
        >>> state, events = engine.push(state, option, cost, LoadedDice([]))
        >>> str(events[0])
        'A moves 3 to space 3'
        """
        events: list[Event] = []
        return self._move(state, option, cost, dice, events), events

    # -- the step function ---------------------------------------------------------
    def step(
        self, state: RaceState, action: Action, dice: DiceSource
    ) -> tuple[RaceState, list[Event]]:
        """Apply one action; return the next state and what happened.

        Raises
        ------
        RuleError
            A subclass naming the clause, when the action is not legal now.
        """
        if state.phase == "over":
            raise RaceOverError("S-4: the race is over; every car has finished or is out")
        events: list[Event] = []
        if isinstance(action, RollGrid):
            if state.phase != "grid":
                raise WrongPhaseError("S-1: the grid has already been set")
            return self._grid(state, dice, events), events
        if state.phase == "grid":
            raise WrongPhaseError("S-1: roll for the grid first (RollGrid)")
        if isinstance(action, ChooseGear):
            if state.phase != "gear":
                raise WrongPhaseError(
                    f"G-2: {self.names[state.on_turn]} has already rolled; choose a move"
                )
            return self._gear(state, action.gear, dice, events), events
        if isinstance(action, UseNitro):
            if not self.nitro_available(state):
                raise IllegalNitroError(self._nitro_refusal(state))
            return self._nitro(state, events), events
        if isinstance(action, ChooseMove):
            if state.phase != "move":
                raise WrongPhaseError(
                    f"G-2: {self.names[state.on_turn]} must announce a gear before moving"
                )
            option, cost = self.resolve_move(state, action)
            return self._move(state, option, cost, dice, events), events
        raise RuleTypeError(f"not an action: {shown(action)}")

    def _nitro_refusal(self, state: RaceState) -> str:
        if not self.preset.street:
            return (
                "X-1: nitro is a street-racing rule; this race uses the "
                + self.preset.name
                + " rules"
            )
        if state.phase != "move":
            return "X-1: nitro is chosen after the roll; announce a gear first"
        if state.nitro:
            return "X-1: nitro is already used this turn"
        return "X-1: nitro may be used once per lap; this car already used it on this lap"

    # -- grid --------------------------------------------------------------------------
    def _grid(self, state: RaceState, dice: DiceSource, events: list[Event]) -> RaceState:
        preset = self.preset
        if len(self.grid_spots) < self.n_cars:
            raise RuleError(
                f"S-1: the board has {len(self.grid_spots)} grid spots for {self.n_cars} cars"
            )
        black = preset.black_die
        rolls: dict[int, list[int]] = {c: [] for c in range(self.n_cars)}
        pending = [list(range(self.n_cars))]
        ranking: list[int] = []
        while pending:
            group = pending.pop(0)
            if len(group) == 1:
                ranking.append(group[0])
                continue
            values = {c: dice.roll(black) for c in group}
            for c, v in values.items():
                rolls[c].append(v)
            distinct = sorted(set(values.values()), reverse=preset.grid_order == "high")
            pending = [[c for c in group if values[c] == v] for v in distinct] + pending
        if self.n_cars == 1:
            text = f"Grid (S-1): {self.names[0]} is alone and takes pole without a roll"
        else:
            rule = "highest" if preset.grid_order == "high" else "lowest"
            rolled = ", ".join(
                f"{self.names[c]} " + "/".join(str(v) for v in rolls[c]) for c in range(self.n_cars)
            )
            text = f"Grid roll ({rule} takes pole, S-1): {rolled}"
            tied = next((c for c in range(self.n_cars) if len(rolls[c]) > 1), None)
            if tied is not None:  # say once what the slashes mean
                first, *again = rolls[tied]
                text += (
                    f" (tied cars roll again: {self.names[tied]} rolled {first}, "
                    f"then {', then '.join(map(str, again))})"
                )
        events.append(Event("grid", None, text))
        cars = list(state.cars)
        for spot, c in enumerate(ranking):
            index = self.grid_spots[spot]
            cars[c] = replace(
                cars[c], space=index, lap=self.grid_lap(index), stops=self.grid_stops(index)
            )
            events.append(Event("grid", c, f"{self.names[c]} starts from grid spot {spot + 1}"))
        new = replace(state, cars=tuple(cars), phase="gear")
        return self._new_round(new, events)

    def grid_stops(self, index: int) -> int:
        """The stops made by a car placed on a grid spot (C-2, S-5).

        Decision (S-5): a car whose grid spot lies inside a corner starts with
        that corner's required stops made: it has not left the corner, and the
        seed gives no reason to punish the back of the grid. Elsewhere 0.

        Examples
        --------
        >>> board = compile_board(from_ascii(". 1 1 . .", corners={1: 2}, grid=[2, 0]))
        >>> engine = Engine(board, BASIC, ["A", "B"])
        >>> engine.grid_stops(board.index[2]), engine.grid_stops(board.index[0])
        (2, 0)
        """
        corner = self.board.corner[index]
        return 0 if corner is None else self.board.stops[corner]

    def grid_lap(self, index: int) -> int:
        """The lap counter of a car placed on a grid spot (S-4, docs/schema.md).

        Decision (S-4), laps: on a closed board a spot behind the finish line
        (progress in the second half of the lap) starts on lap 0, so the first
        crossing starts lap 1; a spot past the line starts on lap 1; a car
        finishes on reaching lap ``laps + 1``.

        Decision (S-4), open boards: an open board (:attr:`Board.wraps` False, such as a text
        board for a lesson) has no lap to go round, so a race on it is a
        sprint to the finish line: a spot behind the line (negative progress)
        starts on the last lap and its first crossing finishes the race,
        whatever the number of laps. Spots past the line, or on an open board
        without a finish line, start on lap 0 and never finish.

        Examples
        --------
        >>> open_board = compile_board(from_ascii(". . . . . . . . . .", finish=5))
        >>> engine = Engine(open_board, BASIC, ["Blue"])
        >>> engine.grid_lap(open_board.index[3]), engine.grid_lap(open_board.index[7])
        (1, 0)
        >>> ring = compile_board(from_ascii(". . . . . . . . . .", closed=True, finish=5))
        >>> engine = Engine(ring, BASIC, ["Blue"])
        >>> engine.grid_lap(ring.index[3]), engine.grid_lap(ring.index[7])
        (0, 1)
        """
        board = self.board
        progress = board.progress[index]
        if board.wraps:
            return 0 if progress >= board.lap_length / 2 else 1
        has_finish = any("finish" in lines for lines in board.step_lines.values())
        return self.preset.laps if has_finish and progress < 0 else 0

    # -- gear and roll -------------------------------------------------------------------
    def _gear(
        self, state: RaceState, gear: int, dice: DiceSource, events: list[Event]
    ) -> RaceState:
        error = self.gear_error(state, gear)
        if error is not None:
            raise IllegalGearError(error)
        preset = self.preset
        c = state.on_turn
        car = state.cars[c]
        name = self.names[c]
        cost = self.downshift_cost(car, gear)
        was = car.gear
        car = replace(car, gear=gear, spun=False)
        cars = list(state.cars)
        if cost:
            clause = "A-7" if preset.model == "advanced" else "G-4"
            car, out = self._damage(
                c, car, cost, f"{clause} drop from {ordinal(was)} to {ordinal(gear)}", events
            )
            cars[c] = car
            if out:
                state = replace(state, cars=tuple(cars))
                state = self._eliminate(state, c, f"{clause} downshift", events)
                return self._end_turn(state, events)
        if not car.started:
            start = dice.roll(preset.black_die)
            car = replace(car, started=True)
            cars[c] = car
            if start <= preset.start_stall_max:
                clause = "S-3" if preset.model == "advanced" else "S-2"
                events.append(
                    Event(
                        "start",
                        c,
                        f"{name}, {ordinal(gear)} gear, start roll {start}: stalls ({clause})",
                    )
                )
                cars[c] = replace(car, gear=0)  # neutral: 1st next turn, no black die
                return self._end_turn(replace(state, cars=tuple(cars)), events)
            if start >= preset.start_flying_min:
                kind = "rocket" if preset.model == "advanced" else "flying"
                spaces = preset.start_flying_spaces
                events.append(
                    Event(
                        "start",
                        c,
                        f"{name}, {ordinal(gear)} gear, start roll {start}: {kind} start, {spaces} spaces",
                    )
                )
                return replace(
                    state, cars=tuple(cars), phase="move", roll=spaces, die_roll=0, nitro=False
                )
            events.append(
                Event("start", c, f"{name}, {ordinal(gear)} gear, start roll {start}: normal start")
            )
            value = dice.roll(preset.gear_dice[gear - 1])
            events.append(Event("roll", c, f"{name} rolls {value}"))
        else:
            cars[c] = car
            value = dice.roll(preset.gear_dice[gear - 1])
            events.append(Event("roll", c, f"{name}, {ordinal(gear)} gear, rolls {value}"))
        return replace(
            state, cars=tuple(cars), phase="move", roll=value, die_roll=value, nitro=False
        )

    def _nitro(self, state: RaceState, events: list[Event]) -> RaceState:
        c = state.on_turn
        car = state.cars[c]
        bonus = car.gear
        cars = list(state.cars)
        cars[c] = replace(car, nitro_lap=max(car.lap, 1))  # the grid belongs to lap 1
        events.append(
            Event(
                "nitro",
                c,
                f"{self.names[c]} uses nitro: +{bonus}, moves up to {state.roll + bonus} (X-1)",
            )
        )
        return replace(state, cars=tuple(cars), roll=state.roll + bonus, nitro=True)

    # -- moves ---------------------------------------------------------------------------
    def resolve_move(self, state: RaceState, action: ChooseMove) -> tuple[MoveOption, MoveCost]:
        """The legal option an action names, or an :class:`IllegalMoveError` saying why not."""
        board = self.board
        name = self.names[state.on_turn]
        if action.destination not in board.index:
            raise IllegalMoveError(
                f"M-1: there is no space {shown(action.destination)} on this board"
            )
        target = board.index[action.destination]
        car = state.cars[state.on_turn]
        candidates = [o for o in self.options(state) if o.destination == target]
        if action.moved is not None:
            candidates = [o for o in candidates if o.moved == action.moved]
        if action.path is not None:
            try:
                wanted = tuple(board.index[s] for s in action.path)
            except KeyError as err:
                raise IllegalMoveError(
                    f"M-1: the path names space {shown(err.args[0])}, not on this board"
                ) from None
            same = [o for o in candidates if o.path == wanted]
            if not same and candidates:
                same = self._equivalent(state, wanted, candidates)
            if not same and candidates:
                raise IllegalMoveError(
                    f"M-7: space {action.destination!r} is reachable but not along that path; "
                    f"legal path: {[board.ids[i] for i in candidates[0].path]}"
                )
            candidates = same
        if not candidates:
            raise IllegalMoveError(self._unreachable(state, target, name))
        priced = [(o, move_cost(board, self.preset, car, o)) for o in candidates]
        allowed = [(o, k) for o, k in priced if k.allowed]
        if not allowed:
            raise IllegalMoveError(priced[0][1].reasons[0])
        allowed.sort(
            key=lambda ok: (ok[1].eliminated, ok[1].total, len(ok[0].danger), -ok[0].moved)
        )
        return allowed[0]

    def _equivalent(
        self, state: RaceState, path: tuple[int, ...], candidates: list[MoveOption]
    ) -> list[MoveOption]:
        """Options with the same effect as a legal path the player gave that is not the listed one.

        The move generator lists one representative path per destination,
        spaces moved, overshoots and danger count (M-7). A path the player
        names is judged with the search's own rules
        (:func:`~fdlab.rules.movement.follow_path`: M-1..M-6, C-5, P-2, P-7)
        and an illegal one is refused with the reason; a legal one with the
        same spaces moved, overshoots, danger count and box as a listed
        option has the same costs and checks, so it is played as that option;
        the log shows the listed path (Decision (M-7)).

        Raises
        ------
        IllegalMoveError
            When the path breaks a movement rule or does not end on the
            destination.
        """
        board = self.board
        c = state.on_turn
        car = state.cars[c]
        name = self.names[c]
        target = candidates[0].destination
        last = path[-1] if path else car.space
        if last != target:
            raise IllegalMoveError(
                f"M-7: {name}'s path ends on space {board.ids[last]!r}, not on the "
                f"destination, space {board.ids[target]!r}"
            )
        walk = follow_path(board, car.space, path, self.move_rules(state))
        if walk.reason is not None:
            raise IllegalMoveError(
                f"{name} may not take that path to space {board.ids[target]!r}: {walk.reason}"
            )
        return [
            o
            for o in candidates
            if o.moved == walk.moved
            and o.overshoots == walk.overshoots
            and len(o.danger) == len(walk.danger)
            and o.boxed == walk.boxed
        ]

    def _unreachable(self, state: RaceState, target: int, name: str) -> str:
        board = self.board
        sid = board.ids[target]
        if target in state.occupied(skip=state.on_turn):
            return f"M-2: space {sid!r} holds another car; a move may not end on a car"
        reach = sorted({board.ids[o.destination] for o in self.options(state)}, key=str)
        c = state.on_turn
        car = state.cars[c]
        why = explain_illegal(board, car.space, state.roll, target, self.move_rules(state))
        if why:
            return f"{name} cannot end on space {sid!r} with a roll of {state.roll}: {why}"
        return (
            f"M-1: {name} cannot reach space {sid!r} with a roll of {state.roll} "
            f"(no legal path: cars block it (M-2), lane changes (M-3, M-4, C-5) or corner arrows "
            f"(M-5)); reachable: {reach}"
        )

    def _move(  # noqa: C901 (the rules after a move in rules.md's order, in one place)
        self,
        state: RaceState,
        option: MoveOption,
        cost: MoveCost,
        dice: DiceSource,
        events: list[Event],
    ) -> RaceState:
        """Apply a chosen option: costs, position, stops, lines, box, hazards, collisions, engine.

        Decisions where rules.md is silent (listed in docs/decisions.md):

        * Decision (C-2): a move that ends in the corner it started in counts
          a stop even if the car moved 0 spaces (blocked or braking to a
          standstill): its move ended there (:func:`~fdlab.rules.movement.after_move`);
        * Decision (S-4, D-1): a car that finishes or is eliminated leaves
          the board at once, so it blocks nobody;
        * Decision (X-5, P-4): no collision roll when ending on a tunnel
          portal or in the pit zone; the engine check skips cars in the pit zone;
        * Decision (X-4): the police speed of a flying start (no die) is the
          spaces moved x 10, not counting a nitro bonus (X-1, X-4: nitro does not count).
        """
        board = self.board
        preset = self.preset
        c = state.on_turn
        name = self.names[c]
        car = state.cars[c]
        start = car.space
        dest = option.destination
        text = f"{name} moves {option.moved} to space {board.ids[dest]!r}"
        if option.braked:
            text += f", braking {option.braked}" + (" (blocked)" if option.blocked else "")
        events.append(Event("move", c, text))
        cars = list(state.cars)
        if any(cost.loss) or cost.eliminated:
            losses = {preset.pool_names[i]: a for i, a in enumerate(cost.loss) if a}
            car, _ = self._damage(c, car, losses, "; ".join(cost.reasons), events, check=False)
        if cost.eliminated:
            cars[c] = car
            state = replace(state, cars=tuple(cars))
            state = self._eliminate(state, c, "; ".join(cost.reasons), events)
            if option.blocked and preset.blocked_costs is not None:
                state = self._rammed(state, c, dest, events)
            if preset.engine_triggers.get(car.gear) == state.die_roll:
                state = self._engine_check(state, c, dice, events)  # D-6: the others still roll
            return self._end_turn(state, events)

        stops, lap = after_move(board, start, car.stops, car.lap, option)  # C-2, C-6, S-4
        pit_entry = car.pit_entry
        if board.kind[dest] == "track":
            pit_entry = None
        elif pit_entry is None:
            before = start
            for i in option.path:
                if board.kind[i] != "track":
                    break
                before = i
            pit_entry = car.lap * board.lap_length + board.progress[before]
        car = replace(car, space=dest, stops=stops, lap=lap, pit_entry=pit_entry)
        if cost.spin:
            car = replace(car, spun=True)
            events.append(
                Event("spin", c, f"{name} spins and restarts in 1st gear next turn (A-3)")
            )
        if option.boxed:
            restored = list(car.pools)
            for pool in preset.pit_restore:
                restored[preset.pool_index[pool]] = preset.pool_max[preset.pool_index[pool]]
            car = replace(car, pools=tuple(restored))
            clause = "A-10" if preset.model == "advanced" else "P-2"
            events.append(
                Event(
                    "pit",
                    c,
                    f"{name} stops in its box: {', '.join(preset.pit_restore)} restored ({clause})",
                )
            )
        if preset.street and "police" in option.lines:
            bonus = car.gear if state.nitro else 0  # nitro does not count
            speed = state.die_roll * 10 if state.die_roll else max(option.moved - bonus, 0) * 10
            stamp = state.round * 100 + state.turn
            car = replace(car, police=car.police + ((speed, stamp),))
            events.append(Event("check", c, f"{name} crosses the police line at {speed} (X-4)"))
        cars[c] = car
        state = replace(state, cars=tuple(cars))

        if "finish" in option.lines:
            if preset.street and car.lap > preset.laps:
                # X-3 before S-4: the danger spaces before the line are rolled for first
                state = self._danger_before_line(state, c, start, option, dice, events)
            if state.cars[c].racing:
                state = self._cross_line(state, c, events)
        car = state.cars[c]
        if car.racing and preset.street:
            state = self._street_hazards(state, c, option, dice, events)
        car = state.cars[c]
        if car.racing and not in_pit_zone(board, dest) and board.tunnel[dest] is None:
            state = self._collisions(state, c, dice, events)
        trigger = preset.engine_triggers.get(state.cars[c].gear)
        if trigger is not None and state.die_roll == trigger:
            state = self._engine_check(state, c, dice, events)
        return self._end_turn(state, events)

    # -- turns and rounds ------------------------------------------------------------------
    def _end_turn(self, state: RaceState, events: list[Event]) -> RaceState:
        """Pass the turn, after the police award (X-4) that the turn's end may have made due.

        The award is checked at the end of every turn, whatever happened in
        it: a car eliminated (the mover by its own move or downshift, another
        by a collision or the engine check) may be the last one the police
        were waiting for.
        """
        if self.preset.street:
            state = self._police_award(state, events)
        turn = state.turn + 1
        order = state.order
        while turn < len(order) and not state.cars[order[turn]].racing:
            turn += 1
        if turn < len(order):
            return replace(state, turn=turn, phase="gear", roll=0, die_roll=0, nitro=False)
        return self._new_round(state, events)

    def _new_round(self, state: RaceState, events: list[Event]) -> RaceState:
        if not any(car.racing for car in state.cars):
            events.append(Event("round", None, "The race is over"))
            return replace(state, phase="over", order=(), turn=0, roll=0, die_roll=0, nitro=False)
        number = state.round + 1
        if number > self.max_rounds:
            raise RaceStuckError(
                f"the race reached its cap of {self.max_rounds} rounds with cars still racing: "
                "a bug in the engine or a bot, not a rule"
            )
        order = turn_order(
            self.board,
            state.cars,
            inside=self.inside,
            tie_break=self.preset.tie_break,
            previous=state.order or state.previous_order,
        )
        events.append(
            Event("round", None, f"Round {number}: " + ", ".join(self.names[c] for c in order))
        )
        return replace(
            state,
            round=number,
            order=order,
            previous_order=state.order,
            turn=0,
            phase="gear",
            roll=0,
            die_roll=0,
            nitro=False,
        )
