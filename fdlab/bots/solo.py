"""The solo-optimal bot: replays the policy of the exact solo solver.

:class:`SoloOptimalBot` announces the gear of the solved policy and picks,
among the engine's legal moves, the one with the least expected turns still
to play. It drives by a :class:`~fdlab.par.table.ParTable` (the compact
solution a playtest solves once per board and sends to its workers,
:func:`fdlab.par.solo_table`) or by a :class:`~fdlab.par.solve.ParSolution`
(its table). Alone on the board it plays perfectly: its races average the
par. Among other cars it plays as if it were alone (cars only take options
away); where the solver never went (a grid spot behind others, a stop count
only blocking gives) it falls back to a
:class:`~fdlab.bots.heuristic.HeuristicBot`.
"""

from __future__ import annotations

from fdlab.bots.errors import WrongBoardError
from fdlab.bots.heuristic import HeuristicBot
from fdlab.par.model import FINISHED, engine_check, engine_hit
from fdlab.par.solve import ParSolution
from fdlab.par.table import ParTable, board_key
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost
from fdlab.rules.movement import MoveOption
from fdlab.rules.view import RaceView


class SoloOptimalBot:
    """Plays the exact solo policy of a :class:`~fdlab.par.table.ParTable` or ``ParSolution``.

    Parameters
    ----------
    solution : ParTable or ParSolution
        From :func:`fdlab.par.solo_table` or :func:`fdlab.par.solve_par` on
        the same board and preset (in races of two laps or more, with
        ``box_slot`` the number of the car it drives: its pit box).

    Examples
    --------
    >>> from fdlab.par import solo_table, solve_par
    >>> from fdlab.rules.simulate import simulate
    >>> track = from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1)
    >>> bot = SoloOptimalBot(solve_par(track))
    >>> simulate(track, [bot], seed=1).finished
    (0,)
    >>> board = compile_board(track)
    >>> simulate(board, [SoloOptimalBot(solo_table(board, BASIC))], seed=1).finished
    (0,)
    """

    def __init__(self, solution: ParTable | ParSolution) -> None:
        self._board: Board | None = None  # the last board checked to be the table's
        if isinstance(solution, ParSolution):
            self._board = solution.board
            solution = solution.table()
        self.table = solution
        self.fallback = HeuristicBot()

    def _check(self, view: RaceView) -> None:
        table = self.table
        if view.board is not self._board:
            if board_key(view.board) != table.board_key:
                raise WrongBoardError(
                    f"this SoloOptimalBot was solved for another board, not {view.board.track.name!r}"
                )
            self._board = view.board
        if not view.preset.pits:
            return
        own = view.engine.own_box
        slot = table.box_slot
        if not 1 <= slot <= len(own) or own[view.car_index] != own[slot - 1]:
            # its policy would wait for a box the car may not enter (P-2): refuse, do not stall
            raise WrongBoardError(
                f"this SoloOptimalBot was solved for the pit box of car {slot} but "
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
        gear = self.table.best_gear(
            view.board, car.space, car.lap, car.stops, car.gear, car.pools[0]
        )
        if gear is None or gear not in gears:
            return self.fallback.choose_gear(view)
        return gear

    def choose_move(self, view: RaceView, moves: list[tuple[MoveOption, MoveCost]]) -> MoveOption:
        """The legal move with the least expected turns still to play."""
        self._check(view)
        car = view.car
        if self.table.position_index(view.board, car.space, car.lap, car.stops) is None:
            return self.fallback.choose_move(view, moves)
        roll = view.state.die_roll
        return min(moves, key=lambda move: self.option_value(view, move[0], move[1], roll))[0]

    def option_value(self, view: RaceView, option: MoveOption, cost: MoveCost, roll: int) -> float:
        """Expected turns still to play (plus the penalty) after the car on turn takes ``option``.

        ``cost`` is its cost for the car (``Engine.legal_moves``), ``roll`` the
        gear die's result (0 for a flying start): a 20 in 5th or 30 in 6th
        brings an engine check (D-6), paid from the pool in the solver's odds.
        """
        table = self.table
        if cost.eliminated:
            return table.elimination_penalty
        board, car = view.board, view.car
        q = table.successor(board, car.space, car.lap, car.stops, option)
        if q == FINISHED:
            return 0.0
        if q is None:
            return table.elimination_penalty
        gear = car.gear
        left = table.pool_max if (option.boxed and table.restores) else car.pools[0] - cost.total
        base = table.value_at(q, gear, left)
        checked = engine_check(table.preset, gear, roll)
        if option.boxed or roll == 0 or not checked or board.kind[option.destination] != "track":
            return base
        hit = engine_hit(table.preset)
        return (1 - hit) * base + hit * table.value_at(q, gear, left - 1)

    def use_nitro(self, view: RaceView) -> bool:
        """Never: the solver does not model street rules."""
        return False

    def __repr__(self) -> str:
        return f"SoloOptimalBot(par={self.table.par:.3f})"
