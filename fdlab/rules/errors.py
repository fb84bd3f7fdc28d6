"""Errors raised by the rules engine.

Every illegal action raises a subclass of :class:`RuleError` (itself a
``ValueError``) whose message names the rule clause (``G-3``, ``M-2``...) and
says in plain words what is wrong, so a player or a lesson can show it as is.

Examples
--------
>>> err = IllegalGearError("G-3: you can shift up only one gear per turn")
>>> isinstance(err, RuleError), isinstance(err, ValueError)
(True, True)
"""

from __future__ import annotations

from fdlab.errors import FdlabError


class RuleError(FdlabError):
    """An action that the rules do not allow (the message names the clause), or a value
    the race API cannot take (``Race(track, cars=11)``: the message names the parameter)."""


class RuleTypeError(RuleError, TypeError):
    """A value of the wrong type for the race API (``Race(track, seed="x")``, an action
    that is no action); a ``TypeError`` too, so ``except TypeError`` still catches it."""


class IllegalGearError(RuleError):
    """A gear that may not be chosen now (G-3, G-4, P-3, A-3, A-7, S-2)."""


class IllegalMoveError(RuleError):
    """A destination or path that is not among the legal options (M, C, D, P)."""


class IllegalNitroError(RuleError):
    """Nitro asked for when it is not available (X-1)."""


class WrongPhaseError(RuleError):
    """An action of the wrong kind for the moment (a move before a gear...)."""


class RaceOverError(RuleError):
    """An action after every car has finished or been eliminated (S-4)."""


class PresetError(FdlabError):
    """A rules preset whose numbers do not fit together (R-5); the message names the field."""


class DiceError(FdlabError):
    """A dice source that cannot give the requested roll (exhausted, wrong face)."""


class StateError(FdlabError):
    """A race state that cannot happen (a tampered or broken JSON); the message names the field."""


class RaceStuckError(FdlabError, RuntimeError):
    """A race that hit its hard cap on rounds: a bug in the engine or a bot, not a rule."""


class BoardError(FdlabError):
    """A track that cannot be compiled for play; the message names the space."""


class MovementError(FdlabError):
    """A request the move generator cannot answer (bad start space, negative roll...)."""
