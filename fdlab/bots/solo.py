"""The solo-optimal bot: replays the policy of the exact solo solver.

:class:`SoloOptimalBot` announces the gear of
:attr:`fdlab.par.solve.ParSolution.gear_policy` and picks, among the
engine's legal moves, the one with the least expected turns still to play
(:meth:`~fdlab.par.solve.ParSolution.option_value`). Alone on the board
it plays perfectly: its races average the par. Among other cars it plays as
if it were alone (cars only take options away); where the solver never went
(a grid spot behind others, a stop count only blocking gives) it falls back
to a :class:`~fdlab.bots.heuristic.HeuristicBot`.
"""

from __future__ import annotations

from fdlab.bots.heuristic import HeuristicBot
from fdlab.par.solve import ParSolution
from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.view import RaceView


class SoloOptimalBot:
    """Plays the exact solo policy of a :class:`~fdlab.par.solve.ParSolution`.

    Parameters
    ----------
    solution : ParSolution
        From :func:`fdlab.par.solve_par` on the same board and preset
        (in races of two laps or more, with ``box_slot`` the number of the
        car it drives: its pit box).

    Examples
    --------
    >>> from fdlab.track import from_ascii
    >>> from fdlab.par import solve_par
    >>> from fdlab.rules.simulate import simulate
    >>> track = from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1)
    >>> bot = SoloOptimalBot(solve_par(track))
    >>> simulate(track, [bot], seed=1).finished
    (0,)
    """

    def __init__(self, solution: ParSolution) -> None:
        self.solution = solution
        self.fallback = HeuristicBot()

    def _check(self, view: RaceView) -> None:
        if view.board is not self.solution.board and view.board.ids != self.solution.board.ids:
            raise ValueError(
                f"this SoloOptimalBot was solved for board {self.solution.board.track.name!r}, "
                f"not {view.board.track.name!r}"
            )
        model = self.solution.model
        if view.preset.pits and view.engine.own_box[view.car_index] != model.own_box:
            # its policy would wait for a box the car may not enter (P-2): refuse, do not stall
            raise ValueError(
                f"this SoloOptimalBot was solved for the pit box of car {model.box_slot} but "
                f"drives car {view.car_index + 1}; solve with "
                f"solve_par(..., box_slot={view.car_index + 1}) for this car"
            )

    def choose_gear(self, view: RaceView) -> int:
        """The solver's gear for the car's position, gear and pool."""
        self._check(view)
        gears = view.legal_gears()
        car = view.car
        if not car.started:
            return gears[0]
        gear = self.solution.best_gear(car.space, car.lap, car.stops, car.gear, car.pools[0])
        if gear is None or gear not in gears:
            return self.fallback.choose_gear(view)
        return gear

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """The legal move with the least expected turns still to play."""
        self._check(view)
        car = view.car
        if self.solution.position_index(car.space, car.lap, car.stops) is None:
            return self.fallback.choose_move(view, moves)
        best, best_value = moves[0][0], float("inf")
        for option, cost in moves:
            value = self.solution.option_value(
                car.space,
                car.lap,
                car.stops,
                car.gear,
                car.pools[0],
                option,
                cost,
                view.state.die_roll,
            )
            if value < best_value:
                best, best_value = option, value
        return best

    def use_nitro(self, view: RaceView) -> bool:
        """Never: the solver does not model street rules."""
        return False

    def __repr__(self) -> str:
        return f"SoloOptimalBot(par={self.solution.par:.3f})"
