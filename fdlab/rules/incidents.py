"""What happens after a move: lines, street hazards, collisions, engine checks, damage.

:class:`IncidentRules` is the part of :class:`~fdlab.rules.engine.Engine`
that applies the random and bookkeeping rules once a car has moved (S-4,
X-2..X-4, X-6, D-5, D-6, A-6, A-8, A-9) and the damage helpers they share.
It expects the engine's ``board``, ``preset``, ``names`` and ``n_cars``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from fdlab.rules.board import Board
from fdlab.rules.costs import in_pit_zone
from fdlab.rules.dice import DiceSource
from fdlab.rules.events import Event
from fdlab.rules.movement import MoveOption
from fdlab.rules.presets import Preset, ordinal
from fdlab.rules.state import ELIMINATED, FINISHED, OFF_BOARD, CarState, RaceState


class IncidentRules:
    """Rules applied after a move, and the damage helpers (mixed into the Engine)."""

    board: Board
    preset: Preset
    names: tuple[str, ...]
    n_cars: int

    def _pool_text(self, pool: str, amount: int) -> str:
        unit = "" if pool == "SP" else " WP" if self.preset.model == "advanced" else ""
        word = pool if pool == "SP" else f"{pool}{unit}"
        return f"{amount} {word}"

    # -- after-move rules --------------------------------------------------------------
    def _cross_line(self, state: RaceState, c: int, events: list[Event]) -> RaceState:
        preset = self.preset
        car = state.cars[c]
        name = self.names[c]
        if car.lap > preset.laps:
            place = len(state.finished) + 1
            cars = list(state.cars)
            cars[c] = replace(car, status=FINISHED, space=OFF_BOARD, pit_entry=None)
            events.append(
                Event("finish", c, f"{name} crosses the finish line: {ordinal(place)} place (S-4)")
            )
            return replace(state, cars=tuple(cars), finished=state.finished + (c,))
        if car.lap >= 1:
            events.append(Event("lap", c, f"{name} starts lap {car.lap} of {preset.laps}"))
        if preset.street and preset.laps >= 2 and car.lap == 2:
            pool = preset.street_pool
            car, _ = self._damage(
                c, car, {pool: -preset.checkpoint_bonus}, "X-6 checkpoint", events
            )
            cars = list(state.cars)
            cars[c] = car
            state = replace(state, cars=tuple(cars))
        return state

    def _street_hazards(
        self, state: RaceState, c: int, option: MoveOption, dice: DiceSource, events: list[Event]
    ) -> RaceState:
        """X-3 for every danger space of the move, then X-2 on a shooting destination."""
        state = self._danger_rolls(state, c, option.danger, dice, events)
        if not state.cars[c].racing:
            return state
        preset = self.preset
        board = self.board
        black = preset.black_die
        pool = preset.street_pool
        name = self.names[c]
        dest = option.destination
        if board.hazard[dest] == "shooting" and board.tunnel[dest] is None:
            roll = dice.roll(black)
            hit = roll >= preset.shooting_min
            events.append(
                Event(
                    "check",
                    c,
                    f"{name} stops on a shooting space: black {roll}"
                    + (" (X-2)" if hit else ", missed"),
                )
            )
            if hit:
                state = self._hurt(state, c, {pool: preset.shooting_loss}, "X-2 shooting", events)
        return state

    def _danger_before_line(
        self,
        state: RaceState,
        c: int,
        start: int,
        option: MoveOption,
        dice: DiceSource,
        events: list[Event],
    ) -> RaceState:
        """X-3 on a move that ends the car's race at the line (S-4): only spaces before it."""
        board = self.board
        walk = (start, *option.path)
        finish_step = next(
            (
                j
                for j in range(1, len(walk))
                if "finish" in board.step_lines.get((walk[j - 1], walk[j]), ())
            ),
            len(walk),
        )
        danger = set(option.danger)
        before = [i for i in option.path[: finish_step - 1] if i in danger]
        return self._danger_rolls(state, c, before, dice, events)

    def _danger_rolls(
        self, state: RaceState, c: int, spaces: Sequence[int], dice: DiceSource, events: list[Event]
    ) -> RaceState:
        """X-3: one black-die roll per danger space moved over; stops if the car is out."""
        preset = self.preset
        board = self.board
        black = preset.black_die
        pool = preset.street_pool
        name = self.names[c]
        for i in spaces:
            roll = dice.roll(black)
            hit = roll <= preset.danger_fail
            events.append(
                Event(
                    "check",
                    c,
                    f"{name} crosses danger space {board.ids[i]!r}: black {roll}"
                    + (" (X-3)" if hit else ", safe"),
                )
            )
            if hit:
                state = self._hurt(state, c, {pool: preset.danger_loss}, "X-3 danger", events)
                if not state.cars[c].racing:
                    return state
        return state

    def _collisions(
        self, state: RaceState, c: int, dice: DiceSource, events: list[Event]
    ) -> RaceState:
        """D-5 / A-8: each touched car rolls once, then the mover once per touched car.

        Touched cars roll in race order (this round's order, leader first). A
        car standing on a tunnel space is not touched (X-5: no die is rolled
        for tunnel spaces); the mover on one is exempt too (checked by the caller).
        """
        preset = self.preset
        touched = self.touched_at(state, c, state.cars[c].space)
        if not touched:
            return state
        rank = {k: n for n, k in enumerate(state.order)}
        touched.sort(key=lambda k: (rank.get(k, 99), k))
        black = preset.black_die
        pool = preset.collision_pool
        clause = "A-8 contact" if preset.model == "advanced" else "D-5 collision"
        names = ", ".join(self.names[k] for k in touched)
        events.append(Event("check", c, f"{self.names[c]} stops touching {names}: collision check"))
        for k in touched + [c] * len(touched):
            if not state.cars[k].racing:
                continue
            roll = dice.roll(black)
            hit = roll <= preset.collision_fail
            events.append(
                Event(
                    "check",
                    k,
                    f"{self.names[k]} rolls {roll}" + (f" ({clause})" if hit else ", safe"),
                )
            )
            if hit:
                state = self._hurt(state, k, {pool: 1}, clause, events)
        return state

    def touched_at(self, state: RaceState, c: int, space: int) -> list[int]:
        """The cars car ``c`` touches standing on board index ``space`` (D-5, A-8).

        Cars right behind or beside it, in car order; a car on a tunnel space
        is not touched (X-5: no die is rolled for tunnel spaces).

        Examples
        --------
        >>> from fdlab.rules import Race
        >>> from fdlab.track import from_ascii
        >>> race = Race(from_ascii(". . . . . .", grid=[2, 3]), cars=["A", "B"], seed=1)
        >>> engine, state = race.engine, race.state
        >>> engine.board.ids[state.cars[1].space]  # B stands on space 2
        2
        >>> [engine.touched_at(state, 0, i) for i in range(4)]  # right behind B: space 1
        [[], [1], [], []]
        """
        board = self.board
        where = {o.space: i for i, o in enumerate(state.cars) if o.space >= 0 and i != c}
        return [where[s] for s in board.touching[space] if s in where and board.tunnel[s] is None]

    def _engine_check(
        self, state: RaceState, c: int, dice: DiceSource, events: list[Event]
    ) -> RaceState:
        """D-6 / A-9: the roller first, then every other car in 5th or 6th, in turn order.

        Cars in the pit zone are exempt (P-4), so are cars off the board and
        cars on a tunnel space, the roller too (X-5: no die is rolled there).
        """
        preset = self.preset
        board = self.board
        clause = "A-9 engine" if preset.model == "advanced" else "D-6 engine"
        events.append(
            Event(
                "check",
                c,
                f"{self.names[c]} pushed the engine to the limit ({state.die_roll}): engine check",
            )
        )
        others = [k for k in state.order if k != c] + [
            k for k in range(self.n_cars) if k not in state.order and k != c
        ]
        for k in [c] + others:
            car = state.cars[k]
            if not car.racing or car.space < 0 or in_pit_zone(board, car.space):
                continue
            if board.tunnel[car.space] is not None:
                continue
            if car.gear not in preset.engine_gears:
                continue
            roll = dice.roll(preset.black_die)
            hit = roll <= preset.engine_fail
            events.append(
                Event(
                    "check",
                    k,
                    f"engine check: {self.names[k]} rolls {roll}"
                    + (f" ({clause})" if hit else ", safe"),
                )
            )
            if hit:
                state = self._hurt(state, k, {preset.engine_pool: 1}, clause, events)
        return state

    def _police_award(self, state: RaceState, events: list[Event]) -> RaceState:
        """X-4: once every car still racing has crossed the police line k times, the fastest k-th crossing gains the bonus."""
        preset = self.preset
        while True:
            k = state.police_awarded + 1
            waiting = [car for car in state.cars if car.racing and len(car.police) < k]
            crossed = [
                (-car.police[k - 1][0], car.police[k - 1][1], i)
                for i, car in enumerate(state.cars)
                if car.status != ELIMINATED and len(car.police) >= k
            ]
            if waiting or not crossed:
                return state
            _, _, best = min(crossed)
            state = replace(state, police_awarded=k)
            pool = preset.street_pool
            car, _ = self._damage(
                best,
                state.cars[best],
                {pool: -preset.police_bonus},
                f"X-4 fastest past the police (lap {k})",
                events,
            )
            cars = list(state.cars)
            cars[best] = car
            state = replace(state, cars=tuple(cars))

    def _rammed(self, state: RaceState, c: int, dest: int, events: list[Event]) -> RaceState:
        """A-6: the car a blocked car runs into (on a step ahead of where it stopped) loses 1 body."""
        where = {o.space: i for i, o in enumerate(state.cars) if o.space >= 0}
        for j, _, _ in self.board.steps[dest]:
            if j in where:
                return self._hurt(
                    state, where[j], {self.preset.collision_pool: 1}, "A-6 rammed", events
                )
        return state

    # -- damage helpers ------------------------------------------------------------------
    def _damage(
        self,
        c: int,
        car: CarState,
        losses: dict[str, int],
        reason: str,
        events: list[Event],
        check: bool = True,
    ) -> tuple[CarState, bool]:
        """Apply pool changes (negative loss = bonus, capped at the start value).

        Returns the new car and whether a pool that eliminates at 0 reached it
        (only when ``check``).
        """
        preset = self.preset
        pools = list(car.pools)
        out = False
        for pool, amount in losses.items():
            i = preset.pool_index[pool]
            before = pools[i]
            after = min(preset.pool_max[i], max(0, before - amount))
            pools[i] = after
            if amount > 0:
                lost = self._pool_text(pool, before - after)
                text = (
                    f"{self.names[c]} loses {lost} ({reason})"
                    if before - after == amount
                    else f"{self.names[c]} loses its last {lost} of the {amount} needed ({reason})"
                )
                events.append(Event("damage", c, text, pool, after - before))
                if check and (
                    before - amount < 0 or (after == 0 and pool in preset.eliminate_at_zero)
                ):
                    out = True
            elif after != before:
                events.append(
                    Event(
                        "bonus",
                        c,
                        f"{self.names[c]} gains {self._pool_text(pool, after - before)} ({reason})",
                        pool,
                        after - before,
                    )
                )
            elif amount < 0:
                events.append(
                    Event("bonus", c, f"{self.names[c]} already has full {pool} ({reason})", pool)
                )
        return replace(car, pools=tuple(pools)), out

    def _hurt(
        self, state: RaceState, c: int, losses: dict[str, int], reason: str, events: list[Event]
    ) -> RaceState:
        """Random damage to car ``c``; eliminates it at 0 of an eliminating pool.

        A car whose tires (the spin pool) reach 0 this way spins (A-3).
        """
        car = state.cars[c]
        before = car.pools
        car, out = self._damage(c, car, losses, reason, events)
        preset = self.preset
        if preset.spin_pool is not None:
            i = preset.pool_index[preset.spin_pool]
            if before[i] > 0 and car.pools[i] == 0:
                car = replace(car, spun=True)
        cars = list(state.cars)
        cars[c] = car
        state = replace(state, cars=tuple(cars))
        if out:
            space = car.space
            state = self._eliminate(state, c, reason, events)
            if preset.model == "advanced" and ("contact" in reason or "rammed" in reason):
                state = self._contact_chain(state, c, space, events)
        return state

    def _contact_chain(
        self, state: RaceState, c: int, space: int, events: list[Event]
    ) -> RaceState:
        """A-8: when a car is eliminated by contact, every car touching it loses 1 body WP."""
        if space < 0:
            return state
        board = self.board
        near = set(board.touching[space]) | {i for i, t in enumerate(board.touching) if space in t}
        for k, car in enumerate(state.cars):
            if k != c and car.racing and car.space in near:
                state = self._hurt(
                    state,
                    k,
                    {self.preset.collision_pool: 1},
                    "A-8 contact: touching a wreck",
                    events,
                )
        return state

    def _eliminate(self, state: RaceState, c: int, reason: str, events: list[Event]) -> RaceState:
        car = state.cars[c]
        if car.status == ELIMINATED:
            return state
        cars = list(state.cars)
        cars[c] = replace(car, status=ELIMINATED, space=OFF_BOARD, pit_entry=None)
        events.append(Event("eliminated", c, f"{self.names[c]} is eliminated ({reason})"))
        return replace(state, cars=tuple(cars), eliminated=state.eliminated + (c,))
