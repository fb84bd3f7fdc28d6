"""What a policy (a bot or a person's helper) sees on its turn: :class:`RaceView`."""

from __future__ import annotations

from dataclasses import dataclass

from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost
from fdlab.rules.engine import Engine
from fdlab.rules.movement import MoveOption
from fdlab.rules.presets import Preset
from fdlab.rules.state import CarState, RaceState


@dataclass(frozen=True)
class RaceView:
    """A read-only view of a race for the car on turn.

    Attributes
    ----------
    engine : Engine
    state : RaceState
    car_index : int

    Examples
    --------
    >>> from fdlab.rules.dice import LoadedDice
    >>> from fdlab.rules.actions import RollGrid
    >>> board = compile_board(from_ascii(". . . . .", grid=[1], finish=4))
    >>> engine = Engine(board, BASIC, ["Solo"])
    >>> state, _ = engine.step(engine.initial_state(), RollGrid(), LoadedDice([]))
    >>> view = RaceView(engine, state, state.current)
    >>> view.legal_gears(), view.car.space
    ([1], 1)
    """

    engine: Engine
    state: RaceState
    car_index: int

    @property
    def board(self) -> Board:
        """The compiled board."""
        return self.engine.board

    @property
    def preset(self) -> Preset:
        """The rules preset."""
        return self.engine.preset

    @property
    def car(self) -> CarState:
        """The car on turn."""
        return self.state.cars[self.car_index]

    @property
    def roll(self) -> int:
        """Spaces to move this turn (move phase)."""
        return self.state.roll

    def legal_gears(self) -> list[int]:
        """Gears the car may announce."""
        return self.engine.legal_gears(self.state)

    def gear_eliminates(self, gear: int) -> bool:
        """Announcing ``gear`` would eliminate the car (downshift cost, D-2)."""
        return self.engine.gear_eliminates(self.car, gear)

    def legal_moves(self) -> list[tuple[MoveOption, MoveCost]]:
        """Legal options with their certain costs."""
        return self.engine.legal_moves(self.state)

    def nitro_available(self) -> bool:
        """Nitro may be used now (X-1)."""
        return self.engine.nitro_available(self.state)
