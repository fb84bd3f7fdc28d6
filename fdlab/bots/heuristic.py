"""A sensible bot: gear from the distance to the next corner, moves by damage then progress.

Gear (one-ply over the gear die's exact outcomes, no move search): for each
legal gear, the expected spaces gained minus a damage weight times the
expected spaces the car would have to brake (or overshoot) because the roll
goes past the farthest space where it can still stop in the corner it must
stop in next. The weight grows as the car's damage pools run low.

Move: never an eliminating move unless nothing else is legal (D-2); then the
least certain damage; then the least expected random damage (collisions,
danger, shooting) weighed against spaces gained; a car that lost much of
its pools turns into its box when it can (P-2).
"""

from __future__ import annotations

from fdlab.bots.windows import HORIZON, corner_window
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, in_pit_zone
from fdlab.rules.movement import MoveOption
from fdlab.rules.odds import target_corner
from fdlab.rules.presets import Preset
from fdlab.rules.view import RaceView
from fdlab.track.model import CornerId

__all__ = ["HORIZON", "HeuristicBot", "corner_before_the_line", "corner_window"]

#: What being eliminated is worth, in spaces, when weighing a risk.
ELIMINATION = 30.0

#: How far ahead (in progress) a hurt car starts moving to the pit-entry lane.
PIT_LOOKAHEAD = 25.0

#: Spaces before the finish line from which nitro is used in any gear (use it or lose it).
NITRO_LAST_CALL = 12.0

#: A point of a pool with ``n`` points left weighs ``SCARCITY / n`` points (at least 1).
SCARCITY = 18.0


def corner_before_the_line(board: Board, start: int, corner: object) -> bool:
    """Whether ``corner`` can be reached from ``start`` without crossing the finish line.

    On its last lap a car that crosses the line has finished (S-4), so a
    corner that lies only beyond the line needs no stop. Looks at most
    :data:`HORIZON` spaces ahead.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . 1 1 . 2 2 .", corners={1: 1, 2: 1}, finish=5))
    >>> corner_before_the_line(board, 0, 1), corner_before_the_line(board, 0, 2)
    (True, False)
    """
    cor = board.corner
    if cor[start] == corner:
        return True
    layer = {start}
    seen = {start}
    for _ in range(HORIZON):
        following = set()
        for v in layer:
            for j, kind, _ in board.steps[v]:
                if kind in ("pit_in", "box_in") or j in seen:
                    continue
                if "finish" in board.step_lines.get((v, j), ()):
                    continue
                if cor[j] == corner:
                    return True
                following.add(j)
        if not following:
            return False
        seen |= following
        layer = following
    return False


class HeuristicBot:
    """Gear from the way to the next corner; moves by damage, then progress.

    Parameters
    ----------
    caution : float
        Weight of a space of expected damage against a space of progress
        when the car is healthy; it grows as the pools run low.
    pit_below : float
        Turn into the box when the pools are below this share of their
        start values (P-2).

    Examples
    --------
    >>> from fdlab.rules.race import Race
    >>> track = from_ascii(". . . . . . 1 1 . . . .", corners={1: 1}, grid=[1], finish=11)
    >>> race = Race(track, cars=1, seed=2)
    >>> _ = race.play_bots([HeuristicBot()])
    >>> race.over
    True
    """

    def __init__(self, caution: float = 1.5, pit_below: float = 0.7) -> None:
        self.caution = caution
        self.pit_below = pit_below
        self._lane_changes = 2
        #: (preset id, gear, room, drops, weight, budget) -> :meth:`_slowing`
        self._slowing_cache: dict[tuple[int, int, int, tuple[int, ...], float, int], float] = {}
        self._entries: tuple[Board | None, tuple[int, ...]] = (None, ())  # board, its pit entries

    def _window(self, board: Board, start: int, corner: CornerId) -> tuple[int, int] | None:
        """The legal-move window of ``corner`` (:func:`fdlab.bots.windows.corner_window`)."""
        return corner_window(board, start, corner, self._lane_changes)

    def _health(self, view: RaceView) -> float:
        """Share of the pools left that pay for braking and overshooting, 0..1."""
        preset = view.preset
        car = view.car
        names = {preset.brake_pool, preset.overshoot_pool}
        have = sum(car.pools[preset.pool_index[n]] for n in names)
        full = sum(preset.pool_max[preset.pool_index[n]] for n in names)
        return have / full if full else 1.0

    def _weight(self, view: RaceView) -> float:
        return self.caution * (1.0 + 3.0 * (1.0 - self._health(view)))

    def _need(self, view: RaceView, corner: CornerId) -> int:
        """Stops still needed in ``corner`` (all of them when the car is not in it)."""
        board = view.board
        car = view.car
        required = board.stops[corner]
        if board.corner[car.space] == corner:
            return max(0, required - car.stops)
        return required

    def _brake_budget(self, view: RaceView) -> int:
        """Spaces the car can brake without being eliminated (D-2, A-5)."""
        preset = view.preset
        car = view.car
        have = car.pools[preset.pool_index[preset.brake_pool]]
        if preset.brake_pool in preset.eliminate_at_zero:
            return have - 1
        return have

    def choose_gear(self, view: RaceView) -> int:
        """The legal gear with the best expected progress minus weighted damage.

        On the last lap a corner that lies beyond the finish line is ignored
        (S-4). For each face of the gear die: the spaces gained up to the farthest
        space where the car can still stop in its next corner while leaving
        one space per further stop it needs; beyond that, the spaces it would
        have to brake, weighted (an outcome it could not afford counts as a
        near-elimination); plus the downshift cost now and, when the car will
        need more stops in the same corner, the downshift to 2nd it will need.
        """
        self._lane_changes = view.preset.max_lane_changes
        gears = view.legal_gears()
        safe = [g for g in gears if not view.gear_eliminates(g)] or gears
        if len(safe) == 1:
            return safe[0]
        board = view.board
        preset = view.preset
        engine = view.engine
        car = view.car
        corner = target_corner(engine, view.state, view.car_index)
        if (
            corner is not None
            and car.lap >= preset.laps
            and not corner_before_the_line(board, car.space, corner)
        ):
            corner = None  # S-4: past the line on the last lap the race is over
        window = self._window(board, car.space, corner) if corner is not None else None
        limit = 0  # read only when there is a window
        need = 0
        if window is not None and corner is not None:
            need = self._need(view, corner)
            limit = max(window[0], window[1] - max(0, need - 1))
        weight = self._weight(view)
        budget = self._brake_budget(view)
        drops = self._affordable_drops(view)
        best, best_score = safe[0], float("-inf")
        for gear in safe:
            die = preset.gear_dice[gear - 1]
            score = 0.0
            for value, p in die.float_outcomes():
                if window is None:
                    gain = float(value)
                elif value <= limit:
                    gain = float(value)
                    if value < window[0] or need >= 2:
                        # next turn it must still stop (again) before the far end
                        spare = need - 2 if value >= window[0] else need - 1
                        room = window[1] - value - max(0, spare)
                        gain -= self._slowing(preset, gear, room, drops, weight, budget)
                else:
                    excess = value - limit
                    gain = limit - (weight * excess if excess <= budget else ELIMINATION)
                score += p * gain
            score -= weight * sum(engine.downshift_cost(car, gear).values())
            score += 0.05 * gear  # keep momentum: upshifts are one gear a turn (G-3)
            if score > best_score:
                best, best_score = gear, score
        return best

    def _affordable_drops(self, view: RaceView) -> tuple[int, ...]:
        """Gears the car can drop at once next turn, given its pools (G-4, A-7)."""
        preset = view.preset
        pools = view.car.pools
        result = [0, 1]
        for drop in range(2, preset.max_downshift + 1):
            cost = preset.downshift_costs.get(drop, {})
            if all(
                pools[preset.pool_index[pool]] - amount
                >= (1 if pool in preset.eliminate_at_zero else 0)
                for pool, amount in cost.items()
            ):
                result.append(drop)
        return tuple(result)

    def _slowing(
        self,
        preset: Preset,
        gear: int,
        room: int,
        drops: tuple[int, ...],
        weight: float,
        budget: int,
    ) -> float:
        """Expected cost next turn of stopping within ``room`` spaces, from ``gear``.

        The best next gear the car can afford to drop to: its downshift cost
        plus the spaces it would likely have to brake (a braking it cannot
        afford counts as elimination).
        """
        key = (id(preset), gear, room, drops, round(weight, 2), budget)
        cached = self._slowing_cache.get(key)
        if cached is not None:
            return cached
        best = ELIMINATION
        for drop in drops:
            nxt = gear - drop
            if nxt < 1:
                continue
            cost = sum(preset.downshift_costs.get(drop, {}).values()) if drop >= 2 else 0
            expected = 0.0
            for value, p in preset.gear_dice[nxt - 1].float_outcomes():
                excess = value - max(room, 0)
                if excess > 0:
                    expected += p * (excess if excess <= budget else ELIMINATION / weight)
            best = min(best, weight * (cost + expected))
        self._slowing_cache[key] = best
        return best

    def _random_damage(
        self, view: RaceView, option: MoveOption, occupied: frozenset[int] | None = None
    ) -> float:
        """Expected loss from collisions, danger and shooting at the destination."""
        board = view.board
        preset = view.preset
        dest = option.destination
        faces = len(preset.black_faces)
        expected = 0.0
        if not in_pit_zone(board, dest) and board.tunnel[dest] is None:
            if occupied is None:
                occupied = view.state.occupied(skip=view.car_index)
            touched = sum(1 for s in board.touching[dest] if s in occupied)
            if touched:
                hit = preset.collision_fail / faces
                pool = preset.collision_pool
                have = view.car.pools[preset.pool_index[pool]]
                # a point of a small pool (2 body WP) is worth more than one of 18 SP
                expected += touched * hit * max(1.0, SCARCITY / max(have, 1))
                if pool in preset.eliminate_at_zero and have <= touched:
                    # a hit could end the race: weigh the chance of losing it all
                    expected += (1 - (1 - hit) ** touched) * ELIMINATION / 5
        if preset.street:
            expected += len(option.danger) * preset.danger_fail * preset.danger_loss / faces
            if board.hazard[dest] == "shooting":
                hits = sum(1 for f in preset.black_faces if f >= preset.shooting_min)
                expected += hits / faces * preset.shooting_loss
        return expected

    def _future_braking(self, view: RaceView, option: MoveOption) -> float:
        """Spaces the car will likely have to brake to make the stops it still needs here.

        Ending a first stop at the far end of a 3-stop corner leaves no room
        for the other two; each further stop needs about 1.5 spaces in 1st.
        """
        board = view.board
        dest = option.destination
        corner = board.corner[dest]
        if corner is None or option.boxed:
            return 0.0
        car = view.car
        same = (
            board.corner[car.space] == corner
            and corner not in option.corners_left
            and not any(o.corner == corner for o in option.overshoots)
        )
        stops_after = car.stops + 1 if same else (1 if option.stop_counts else 0)
        need_more = board.stops[corner] - stops_after
        if need_more <= 0:
            return 0.0
        window = self._window(board, dest, corner)
        room = window[1] if window is not None else 0
        return max(0.0, 1.5 * need_more - room)

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """Least damage (certain, plus the braking a bad corner position will cost), then progress.

        The braking a corner position will cost later counts relative to the
        best position in the same corner among the options, so it only picks
        *where* to stop in a corner; it never makes waiting (a free stand
        still in the pit lane) look better than going on.
        """
        self._lane_changes = view.preset.max_lane_changes
        safe = [(o, k) for o, k in moves if not k.eliminated] or moves
        if self._pit_health(view) < self.pit_below:
            boxed = [(o, k) for o, k in safe if o.boxed]
            if boxed:
                return min(boxed, key=lambda ok: ok[1].total)[0]
            board = view.board
            if board.kind[view.car.space] == "track":
                # head for the box: turn into the pit lane now, stop in the box next turn
                lane = [(o, k) for o, k in safe if board.kind[o.destination] == "pit"]
                if lane:
                    return min(lane, key=lambda ok: (ok[1].total, -ok[0].moved))[0]
        weight = self._weight(view)
        board = view.board
        corner = board.corner
        occupied = view.state.occupied(skip=view.car_index)
        pit_lane = self._pit_lane_ahead(view)
        future = {id(o): self._future_braking(view, o) for o, _ in safe}
        least: dict[object, float] = {}  # corner -> the least future braking of its options
        for option, _ in safe:
            c = corner[option.destination]
            if c is not None:
                least[c] = min(least.get(c, float("inf")), future[id(option)])

        def key(item: tuple[MoveOption, MoveCost]) -> tuple[float, float, int]:
            option, cost = item
            value = option.moved - weight * 5 * self._random_damage(view, option, occupied)
            if option.boxed:
                value -= 2  # a pit stop costs time; only worth it when hurt
            c = corner[option.destination]
            if c is not None and option.stop_counts:
                value += 0.5  # a counted stop is worth having
            if pit_lane is not None and board.lane[option.destination] == pit_lane:
                value += 3  # hurt: get into the lane of the pit entry (P-2)
            later = future[id(option)] - least[c] if c is not None else 0.0
            if option.braked and not option.blocked and in_pit_zone(board, option.destination):
                later += option.braked  # braking is free in the pit lane (P-4), time is not
            return (round(cost.total + later, 3), -value, option.lane_changes)

        return min(safe, key=key)[0]

    def _pit_lane_ahead(self, view: RaceView) -> int | None:
        """The lane of the pit entry when the car is hurt, may pit, and it is near ahead."""
        board = view.board
        car = view.car
        if (
            self._pit_health(view) >= self.pit_below
            or board.kind[car.space] != "track"
            or not view.engine.pit_allowed(view.car_index, car)
        ):
            return None
        here = board.progress[car.space]
        for i in self._pit_entries(board):
            ahead = (board.progress[i] - here) % board.lap_length
            if ahead <= PIT_LOOKAHEAD:
                return board.lane[i]
        return None

    def _pit_entries(self, board: Board) -> tuple[int, ...]:
        """Board indices of the track spaces with a ``pit_in`` step."""
        if self._entries[0] is not board:
            found = tuple(
                i for i, steps in enumerate(board.steps) if any(k == "pit_in" for _, k, _ in steps)
            )
            self._entries = (board, found)
        return self._entries[1]

    def _pit_health(self, view: RaceView) -> float:
        """Health counting the street checkpoint's bonus still to come this lap (X-6)."""
        health = self._health(view)
        preset = view.preset
        if preset.street and preset.laps >= 2 and view.car.lap == 1:
            index = preset.pool_index[preset.street_pool]
            health += preset.checkpoint_bonus / preset.pool_max[index]
        return min(1.0, health)

    def use_nitro(self, view: RaceView) -> bool:
        """Use nitro (X-1) when it is worth it and safe.

        Worth it: the bonus equals the gear, so keep it for 3rd gear or more,
        unless the lap (and the nitro of this lap) ends within
        :data:`NITRO_LAST_CALL` spaces; the grid belongs to lap 1, so a car
        that has not crossed the line yet keeps it. Safe: the extra spaces still stop
        short of the far end of the corner the car must stop in.
        """
        self._lane_changes = view.preset.max_lane_changes
        board = view.board
        car = view.car
        to_line = (board.lap_length - board.progress[car.space]) % board.lap_length
        if car.lap < 1:  # on the grid side of the line: this is lap 1's nitro (X-1)
            to_line += board.lap_length
        if car.gear < 3 and to_line > NITRO_LAST_CALL:
            return False
        corner = target_corner(view.engine, view.state, view.car_index)
        if corner is None:
            return True
        window = self._window(board, car.space, corner)
        return window is None or view.roll + car.gear <= window[1]

    def __repr__(self) -> str:
        return f"HeuristicBot(caution={self.caution}, pit_below={self.pit_below})"
