"""A one-ply look-ahead bot: every legal gear, every face of its die, the best move for each.

For each legal gear the bot lists the exact outcomes of its die
(:meth:`~fdlab.rules.dice.Die.chance_outcomes`) and, for every face, the
best option the engine would allow (one move search gives every face's
options, :func:`fdlab.rules.movement.move_options_for_rolls`). An option is
scored by

* progress: race distance gained (spaces along the lap);
* damage: the certain loss (braking, overshoot, downshift) and the expected
  collision loss where it ends, weighted by the driving style and by how
  much of the pool is left;
* stops still owed and the next corner: the spaces the car would have to
  brake or overshoot next turn to stop in the corner it must stop in next,
  with the best gear it can take from there.

The gear with the best expected score is announced; after the roll the same
score picks the move. Eliminating options are never taken when another
exists (D-2).
"""

from __future__ import annotations

from dataclasses import replace

from fdlab.bots.style import damage_weight, reserve, style_value
from fdlab.bots.windows import corner_window
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, in_pit_zone, move_cost
from fdlab.rules.movement import MoveOption, after_move, move_options_for_rolls
from fdlab.rules.order import next_corners
from fdlab.rules.view import RaceView
from fdlab.track.model import CornerId

#: Score of an option that eliminates the car.
ELIMINATED = -1000.0


class LookaheadBot:
    """Expected score over the exact die outcomes of each legal gear (one ply).

    Parameters
    ----------
    style : str or float
        ``"cautious"`` ... ``"reckless"`` or 0..1 (:mod:`fdlab.bots.style`).

    Examples
    --------
    >>> from fdlab.rules.simulate import simulate
    >>> from fdlab.track.examples import two_corner_ring
    >>> track = two_corner_ring(stops=(1, 2))
    >>> result = simulate(track, [LookaheadBot(), LookaheadBot("reckless")], seed=4)
    >>> len(result.ranking)
    2
    """

    def __init__(self, style: str | float = "balanced") -> None:
        self.style = style_value(style)
        self.weight = damage_weight(self.style)
        self.reserve = reserve(self.style)
        self._board: Board | None = None
        self._lanes = 2
        self._next: tuple[
            CornerId | None, ...
        ] = ()  # per space: its corner or the next (None: none)
        self._windows: dict[tuple[int, CornerId], tuple[int, int] | None] = {}  # (space, corner)
        self._overshoot: dict[tuple[int, int], float] = {}  # (gear, limit)
        self._ahead: dict[tuple[int, int, int], float] = {}  # (space, stops, gear)
        self._occupied: frozenset[int] = frozenset()

    # -- board tables --------------------------------------------------------------
    def _prepare(self, view: RaceView) -> None:
        """Tables of the view's board under its preset's lane-change limit (M-3)."""
        board, lanes = view.board, view.preset.max_lane_changes
        if board is not self._board or lanes != self._lanes:
            self._board = board
            self._lanes = lanes
            self._next = next_corners(board)
            self._windows = {}
            self._overshoot = {}
            self._ahead = {}

    def _target(self, board: Board, space: int, stops: int) -> CornerId | None:
        """The corner the car must stop in next (``None``: no corner ahead)."""
        corner = board.corner[space]
        if corner is not None and stops < board.stops[corner]:
            return corner
        if corner is None:
            return self._next[space]
        for j, _, _ in board.steps[space]:
            if board.corner[j] != corner:
                return self._next[j]
        return None

    def _window(self, board: Board, space: int, corner: CornerId) -> tuple[int, int] | None:
        key = (space, corner)
        if key not in self._windows:
            self._windows[key] = corner_window(board, space, corner, self._lanes)
        return self._windows[key]

    def _mean_overshoot(self, view: RaceView, gear: int, limit: int) -> float:
        """Expected spaces a roll of ``gear`` goes past ``limit``."""
        key = (gear, limit)
        if key not in self._overshoot:
            die = view.preset.gear_dice[gear - 1]
            self._overshoot[key] = sum(
                float(p) * max(0, value - limit) for value, p in die.chance_outcomes()
            )
        return self._overshoot[key]

    # -- scoring -------------------------------------------------------------------
    def _care(self, view: RaceView) -> float:
        """Damage weight, growing as the pools fall below the driver's reserve."""
        preset = view.preset
        car = view.car
        share = min(
            car.pools[i] / preset.pool_max[i]
            for i in range(len(preset.pools))
            if preset.pool_max[i]
        )
        low = max(0.0, self.reserve + 0.25 - share) * 8.0
        return self.weight * (1.0 + low)

    def _next_turn(self, view: RaceView, dest: int, stops: int, gear: int) -> float:
        """Spaces of braking or overshoot to expect next turn, best gear from ``gear``."""
        key = (dest, stops, gear)
        if key not in self._ahead:
            self._ahead[key] = self._next_turn_uncached(view, dest, stops, gear)
        return self._ahead[key]

    def _next_turn_uncached(self, view: RaceView, dest: int, stops: int, gear: int) -> float:
        board = view.board
        if board.kind[dest] != "track":
            return 0.0
        corner = self._target(board, dest, stops)
        if corner is None:
            return 0.0
        window = self._window(board, dest, corner)
        if window is None:
            return 0.0
        limit = window[1]
        costs = view.preset.downshift_costs
        best = float("inf")
        for nxt in range(
            max(1, gear - view.preset.max_downshift), min(view.preset.gears, gear + 1) + 1
        ):
            shift = sum(costs.get(gear - nxt, {}).values())
            best = min(best, self._mean_overshoot(view, nxt, limit) + shift)
        return best

    def _collision(self, view: RaceView, dest: int) -> float:
        board = view.board
        if in_pit_zone(board, dest) or board.tunnel[dest] is not None:
            return 0.0
        occupied = self._occupied
        if not occupied:
            return 0.0
        touched = sum(1 for s in board.touching[dest] if s in occupied)
        preset = view.preset
        return touched * 2 * preset.collision_fail / len(preset.black_faces)

    def _score(
        self, view: RaceView, gear: int, option: MoveOption, cost: MoveCost, care: float
    ) -> float:
        if cost.eliminated or not cost.allowed:
            return ELIMINATED
        board = view.board
        car = view.car
        dest = option.destination
        progress = board.progress[dest] - board.progress[car.space]
        if "finish" in option.lines:
            progress += board.lap_length
            if car.lap + 1 > view.preset.laps:
                return 1000.0 + progress - care * cost.total
        stops, _ = after_move(board, car.space, car.stops, car.lap, option)
        if option.boxed:
            progress -= 3.0
        ahead = self._next_turn(view, dest, stops, gear)
        return (
            progress
            - care * (cost.total + self._collision(view, dest))
            - 0.5 * care * ahead
            + (0.5 if board.corner[dest] is not None and option.stop_counts else 0.0)
        )

    # -- decisions -----------------------------------------------------------------
    def choose_gear(self, view: RaceView) -> int:
        """The legal gear with the best expected score over its die's faces."""
        gears = view.legal_gears()
        safe = [g for g in gears if not view.gear_eliminates(g)] or gears
        if len(safe) == 1:
            return safe[0]
        self._prepare(view)
        self._occupied = view.state.occupied(skip=view.car_index)
        engine = view.engine
        board = view.board
        preset = view.preset
        car = view.car
        care = self._care(view)
        faces = {face for g in safe for face in preset.gear_faces[g - 1]}
        by_face = move_options_for_rolls(
            board, car.space, faces, engine.move_rules(view.state, view.car_index)
        )
        best, best_score = safe[0], float("-inf")
        for gear in safe:
            probe = replace(car, gear=gear)
            shift = engine.downshift_cost(car, gear)
            score = -care * sum(shift.values())
            for value, p in preset.gear_dice[gear - 1].chance_outcomes():
                options = by_face[value]
                score += float(p) * max(
                    self._score(view, gear, o, move_cost(board, preset, probe, o), care)
                    for o in options
                )
            if score > best_score:
                best, best_score = gear, score
        return best

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """The legal move with the best score (never an eliminating one unless forced)."""
        self._prepare(view)
        self._occupied = view.state.occupied(skip=view.car_index)
        care = self._care(view)
        gear = view.car.gear
        return max(moves, key=lambda oc: self._score(view, gear, oc[0], oc[1], care))[0]

    def use_nitro(self, view: RaceView) -> bool:
        """Nitro when the extra spaces still stop short of the corner's far end."""
        self._prepare(view)
        car = view.car
        corner = self._target(view.board, car.space, car.stops)
        if corner is None:
            return True
        window = self._window(view.board, car.space, corner)
        return window is None or view.roll + car.gear <= window[1]

    def __repr__(self) -> str:
        return f"LookaheadBot(style={self.style})"
