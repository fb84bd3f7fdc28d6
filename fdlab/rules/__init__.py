"""The rules engine: movement, dice, presets, race state and steps (pure Python, no UI).

Quick start::

    from fdlab.rules import Race
    race = Race(track, cars=["Blue", "Red"], preset="basic", seed=1)
    race.legal_gears(); race.play(1); race.legal_moves(); race.play(12)

For many fast races between bots: :func:`simulate`. The pieces underneath:
:class:`Engine` (the step function), :class:`RaceState` (immutable, JSON
round trip), :mod:`~fdlab.rules.actions`, :mod:`~fdlab.rules.dice`,
:mod:`~fdlab.rules.presets`, and the movement interface
(:func:`compile_board`, :func:`move_options`).

Decisions where ``rules.md`` is silent (each is documented where it is applied):

* laps: a car starts on lap 0 when its grid spot is in the second half of the
  lap (just behind the line) and on lap 1 otherwise (open test boards), and
  finishes on reaching lap ``laps + 1`` (:meth:`Engine._grid`, S-4);
* a move ending in the corner it started in counts a stop even if the car
  moved 0 spaces (:meth:`Engine._move`, C-2);
* leaving two corners short in one move pays each overshoot on its own and
  checks C-4 for each (:func:`move_cost`, C-3);
* blocked (D-4 / A-6): every option of a blocked roll pays the blocked cost on
  the spaces not moved; advanced braking beyond the brake WP left is not
  allowed (:func:`move_cost`, A-5);
* pit zone (P-4): braking is free when the move starts or ends in the pit lane
  or a box; no collision there nor on tunnel portals (X-5);
* finished and eliminated cars leave the board at once;
* a stalled car sits in "gear 0": 1st is its only choice next turn (S-2);
* advanced pools grow by half their one-lap value per extra lap
  (:meth:`Preset.with_laps`, A-1);
* a flying start's police speed is the spaces moved x 10 (X-4);
* a :class:`Race` given neither a seed nor dice draws a seed and keeps it in
  ``race.seed``, so every race can be replayed (:meth:`Race.replay`).
"""

from fdlab.rules.actions import ChooseGear, ChooseMove, RollGrid, UseNitro, action_from_json
from fdlab.rules.board import Board, compile_board
from fdlab.rules.costs import MoveCost, move_cost
from fdlab.rules.dice import Die, LoadedDice, SeededDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import (
    DiceError,
    IllegalGearError,
    IllegalMoveError,
    IllegalNitroError,
    PresetError,
    RaceOverError,
    RaceStuckError,
    RuleError,
    WrongPhaseError,
)
from fdlab.rules.events import Event, EventList
from fdlab.rules.movement import MoveOption, Overshoot, move_options
from fdlab.rules.odds import GearOdds, stop_odds
from fdlab.rules.presets import ADVANCED, BASIC, PRESETS, STREET, Preset, get_preset
from fdlab.rules.race import LegalMove, Race
from fdlab.rules.simulate import RaceResult, simulate
from fdlab.rules.state import CarState, RaceState
from fdlab.rules.view import RaceView

__all__ = [
    "ADVANCED",
    "BASIC",
    "PRESETS",
    "STREET",
    "Board",
    "CarState",
    "ChooseGear",
    "ChooseMove",
    "DiceError",
    "Die",
    "Engine",
    "Event",
    "EventList",
    "GearOdds",
    "IllegalGearError",
    "IllegalMoveError",
    "IllegalNitroError",
    "LegalMove",
    "LoadedDice",
    "MoveCost",
    "MoveOption",
    "Overshoot",
    "Preset",
    "PresetError",
    "Race",
    "RaceOverError",
    "RaceResult",
    "RaceState",
    "RaceStuckError",
    "RaceView",
    "RollGrid",
    "RuleError",
    "SeededDice",
    "UseNitro",
    "WrongPhaseError",
    "action_from_json",
    "compile_board",
    "get_preset",
    "move_cost",
    "move_options",
    "simulate",
    "stop_odds",
]
