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

Races between policies all run through one loop, :func:`iter_race`; a
move is played checked (:meth:`Engine.step`, what a person names) or
unchecked (:meth:`Engine.push`, an option from the legal list).

Where ``rules.md`` is silent the engine takes decisions; ``docs/decisions.md``
lists each with the function that applies it, whose docstring holds the words.
"""

from fdlab.rules.actions import ChooseGear, ChooseMove, RollGrid, UseNitro, action_from_json
from fdlab.rules.board import Board, compile_board
from fdlab.rules.costs import MoveCost, move_cost
from fdlab.rules.dice import Die, LoadedDice, SeededDice
from fdlab.rules.engine import Engine
from fdlab.rules.errors import (
    BoardError,
    DiceError,
    IllegalGearError,
    IllegalMoveError,
    IllegalNitroError,
    MovementError,
    PresetError,
    RaceOverError,
    RaceStuckError,
    RuleError,
    RuleTypeError,
    StateError,
    WrongPhaseError,
)
from fdlab.rules.events import Event, EventList
from fdlab.rules.loop import RaceStep, iter_race
from fdlab.rules.movement import MoveOption, MoveRules, Overshoot, move_options
from fdlab.rules.odds import GearOdds, GearRisk, gear_risks, stop_odds
from fdlab.rules.policy import NitroPolicy, Policy
from fdlab.rules.presets import ADVANCED, BASIC, PRESETS, STREET, Preset, get_preset
from fdlab.rules.race import LegalMove, Race
from fdlab.rules.simulate import RaceResult, simulate
from fdlab.rules.state import CarState, RaceState
from fdlab.rules.state_check import check_state
from fdlab.rules.view import RaceView

__all__ = [
    "ADVANCED",
    "BASIC",
    "PRESETS",
    "STREET",
    "Board",
    "BoardError",
    "CarState",
    "ChooseGear",
    "ChooseMove",
    "DiceError",
    "Die",
    "Engine",
    "Event",
    "EventList",
    "GearOdds",
    "GearRisk",
    "IllegalGearError",
    "IllegalMoveError",
    "IllegalNitroError",
    "LegalMove",
    "LoadedDice",
    "MoveCost",
    "MovementError",
    "NitroPolicy",
    "MoveOption",
    "MoveRules",
    "Overshoot",
    "Policy",
    "Preset",
    "PresetError",
    "Race",
    "RaceOverError",
    "RaceResult",
    "RaceState",
    "RaceStep",
    "RaceStuckError",
    "RaceView",
    "RollGrid",
    "RuleError",
    "RuleTypeError",
    "SeededDice",
    "StateError",
    "UseNitro",
    "WrongPhaseError",
    "action_from_json",
    "check_state",
    "compile_board",
    "iter_race",
    "gear_risks",
    "get_preset",
    "move_cost",
    "move_options",
    "simulate",
    "stop_odds",
]
