"""The actions a player (or a bot) takes: every decision is explicit.

* :class:`RollGrid`: everybody rolls the black die for the grid (S-1);
* :class:`ChooseGear`: announce a gear, then the engine rolls (the start
  roll first on a car's first turn, S-2/S-3; then the gear die, G-2);
* :class:`UseNitro`: street rules, after the roll (X-1);
* :class:`ChooseMove`: one destination (a space id) and optionally the path
  (space ids) among the legal options (M-7); entering the pit lane is a
  move whose path goes through it (P-2).

Actions are small values with a JSON form, so a race is replayed exactly
from its seed and its list of actions.

Examples
--------
>>> action_from_json(ChooseGear(4).to_json())
ChooseGear(gear=4)
>>> ChooseMove(12, path=(10, 12)).to_json()
{'move': 12, 'path': [10, 12]}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fdlab.rules.errors import RuleError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from fdlab.rules.movement import MoveOption
    from fdlab.track.model import SpaceId


@dataclass(frozen=True, slots=True)
class RollGrid:
    """Roll the black die for every car to set the grid (S-1)."""

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"grid": True}


@dataclass(frozen=True, slots=True)
class ChooseGear:
    """Announce a gear for this turn (G-2..G-5)."""

    gear: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"gear": self.gear}


@dataclass(frozen=True, slots=True)
class UseNitro:
    """Add the nitro bonus (the gear number) to this turn's roll (X-1)."""

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"nitro": True}


@dataclass(frozen=True, slots=True)
class ChooseMove:
    """End the move on ``destination`` (a space id), optionally along ``path``.

    ``moved`` picks among options that reach the same space with different
    numbers of spaces (rare: loops, pit lane). Without a path the engine picks
    the cheapest option to that space. The engine refuses, naming it, a space
    that is not on the board (M-1).
    """

    destination: SpaceId
    path: tuple[SpaceId, ...] | None = None
    moved: int | None = None

    @classmethod
    def of(cls, option: MoveOption, ids: Sequence[SpaceId]) -> ChooseMove:
        """The action naming a move option by space ids (``ids``: a board's ``ids``).

        Examples
        --------
        >>> from fdlab.rules.movement import move_options
        >>> board = compile_board(from_ascii(". . . ."))
        >>> ChooseMove.of(move_options(board, 0, 2)[0], board.ids)
        ChooseMove(destination=2, path=(1, 2), moved=2)
        """
        return cls(ids[option.destination], tuple(ids[i] for i in option.path), option.moved)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        data: dict[str, Any] = {"move": self.destination}
        if self.path is not None:
            data["path"] = list(self.path)
        if self.moved is not None:
            data["moved"] = self.moved
        return data


Action = RollGrid | ChooseGear | UseNitro | ChooseMove


def action_from_json(data: dict[str, Any]) -> Action:
    """Inverse of ``action.to_json()``.

    Raises
    ------
    RuleError
        For a dict that is no known action.

    Examples
    --------
    >>> action_from_json({"move": 12, "path": [10, 12]})
    ChooseMove(destination=12, path=(10, 12), moved=None)
    >>> action_from_json({"grid": True})
    RollGrid()
    """
    if "grid" in data:
        return RollGrid()
    if "gear" in data:
        return ChooseGear(int(data["gear"]))
    if "nitro" in data:
        return UseNitro()
    if "move" in data:
        path = data.get("path")
        return ChooseMove(
            data["move"], tuple(path) if path is not None else None, data.get("moved")
        )
    raise RuleError(f"not an action: {data!r} (expected a 'grid', 'gear', 'nitro' or 'move' key)")
