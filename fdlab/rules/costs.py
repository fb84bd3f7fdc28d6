"""What a move costs: braking, blocking and overshooting (D-2..D-4, C-3, C-4, A-2..A-6).

Movement (:mod:`fdlab.rules.movement`) says which paths exist and what they
cross; this module turns one :class:`~fdlab.rules.movement.MoveOption` into
pool losses for one car under one preset. Random damage (collisions,
engine, street hazards) happens after the move and lives in
:mod:`fdlab.rules.engine`.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fdlab.rules.board import Board
from fdlab.rules.movement import MoveOption, Overshoot
from fdlab.rules.presets import Preset
from fdlab.rules.state import CarState


@dataclass(frozen=True, slots=True)
class MoveCost:
    """The certain cost of one option for one car.

    Attributes
    ----------
    loss : tuple of int
        Loss per pool, in the order of ``preset.pools``.
    allowed : bool
        False when the rules forbid the option (A-5: not enough brakes).
    eliminated : bool
        The option eliminates the car (D-2, C-4, A-2, A-4, A-6).
    spin : bool
        The car spins (A-3, A-4).
    reasons : tuple of str
        One line per cost, with its clause id.
    """

    loss: tuple[int, ...]
    allowed: bool = True
    eliminated: bool = False
    spin: bool = False
    reasons: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """Sum of the losses over every pool."""
        return sum(self.loss)

    def describe(self) -> str:
        """The reasons in one line, or ``no damage``."""
        return "; ".join(self.reasons) if self.reasons else "no damage"


_NO_COST: dict[int, MoveCost] = {}

#: Costs of options that do not cross the finish line on the last lap, per preset object:
#: ``id(preset) -> (preset, {(braked, blocked, overshoots, pit_free, pools): cost})``. Such a
#: cost depends on nothing else, and a roll's options share few of them (speed: a priced
#: move list).
_KNOWN: dict[int, tuple[Preset, dict[tuple[Any, ...], MoveCost]]] = {}


def _no_cost(pools: int) -> MoveCost:
    """The shared cost of an option with no braking and no overshoot."""
    cost = _NO_COST.get(pools)
    if cost is None:
        cost = _NO_COST[pools] = MoveCost((0,) * pools)
    return cost


def spaces(n: int) -> str:
    """``1 space``, ``2 spaces``.

    Examples
    --------
    >>> spaces(1), spaces(3)
    ('1 space', '3 spaces')
    """
    return f"{n} space" if n == 1 else f"{n} spaces"


def in_pit_zone(board: Board, index: int) -> bool:
    """The space is in the pit lane or a box (P-4: several rules do not apply there).

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . . .
    ...     x p p x
    ... '''))
    >>> in_pit_zone(board, board.index[0]), in_pit_zone(board, board.index[3])
    (False, True)
    """
    return index >= 0 and board.kind[index] != "track"


def move_cost(board: Board, preset: Preset, car: CarState, option: MoveOption) -> MoveCost:
    """The certain cost of ``option`` for ``car``.

    Decisions where rules.md is silent (listed in docs/decisions.md):

    * Decision (P-4), pit zone: braking is free when the car starts or ends its move
      in the pit lane or a box.
    * Blocked (D-4, A-6): the option that moves as far as the car can pays the
      blocked cost on the spaces not moved (basic: as braking; advanced: the
      A-6 table); stopping shorter is ordinary braking (D-3, A-5), as
      :func:`fdlab.rules.movement.braking` marks it.
    * Decision (C-3, C-4), double overshoot: a move leaving two corners short of stops pays each
      overshoot on its own (the spaces beyond each exit line are counted
      for each corner), and C-4 is checked for each corner.
    * Decision (A-5), advanced braking: braking more spaces than the car has brake WP
      is not allowed; blocking (A-6) is paid from the table instead.
    * A pool that cannot pay its loss eliminates the car (D-2, A-2, A-6),
      except A-4: a car with 0 tires overshooting by one space spins again.
    * Decision (S-4), finish: a move that crosses the finish line on the last lap ends
      the car's race at the line. Braking is free and only corners whose exit
      line comes before the finish line cost anything, counted up to the line.

    Examples
    --------
    >>> from fdlab.rules.movement import move_options
    >>> board = compile_board(from_ascii(". . . . ."))
    >>> options = move_options(board, 0, 3)
    >>> brake_two = [o for o in options if o.moved == 1][0]  # D-3: roll 3, move 1
    >>> move_cost(board, BASIC, CarState(space=0, pools=(18,)), brake_two).describe()
    'D-3 braking 2 spaces: -2 SP'
    """
    return move_costs(board, preset, car, (option,))[0]


def move_costs(
    board: Board, preset: Preset, car: CarState, options: Iterable[MoveOption]
) -> list[MoveCost]:
    """:func:`move_cost` of each option of one car: a move list priced in one call.

    Examples
    --------
    >>> from fdlab.rules.movement import move_options
    >>> board = compile_board(from_ascii(". . . . ."))
    >>> costs = move_costs(board, BASIC, CarState(space=0, pools=(18,)), move_options(board, 0, 3))
    >>> [cost.total for cost in costs]
    [0, 1, 2, 3]
    """
    free = _no_cost(len(preset.pool_names))
    last_lap = car.lap >= preset.laps
    memo = _KNOWN.get(id(preset))
    if memo is None or memo[0] is not preset:
        if len(_KNOWN) > 64:
            _KNOWN.clear()
        memo = _KNOWN[id(preset)] = (preset, {})
    known = memo[1]
    if len(known) > 100_000:
        known.clear()
    kind = board.kind
    start_free = in_pit_zone(board, car.space)
    pools = car.pools
    costs = []
    for option in options:
        if last_lap and "finish" in option.lines:  # S-4: the move ends at the line, unbraked
            if not option.overshoots:
                costs.append(free)
                continue
            option = _cut_at_finish(board, car.space, option)
        if not option.overshoots and (not option.braked or option.boxed):
            costs.append(free)
        else:
            # in_pit_zone, inlined: the destination is a board index
            pit_free = start_free or kind[option.destination] != "track"
            key = (option.braked, option.blocked, option.overshoots, pit_free, pools)
            cost = known.get(key)
            if cost is None:
                cost = known[key] = _priced(board, preset, car, option)
            costs.append(cost)
    return costs


def _priced(board: Board, preset: Preset, car: CarState, option: MoveOption) -> MoveCost:  # noqa: C901 (hot path: every option's cost, one branch per rule (benchmarks/movegen.py))
    """:func:`move_cost` without the shortcuts, of an option already cut at the finish
    line where S-4 cuts it (:func:`move_costs` does: a cut option is not cut again)."""
    names = preset.pool_names
    index = preset.pool_index
    loss = [0] * len(names)
    reasons: list[str] = []
    eliminated = False
    spin = False
    pit_free = in_pit_zone(board, car.space) or in_pit_zone(board, option.destination)

    braked = option.braked
    if braked and not pit_free:
        if option.blocked and preset.blocked_costs is not None:
            table = preset.blocked_costs
            if braked > max(table):
                eliminated = True
                reasons.append(
                    f"A-6 blocked {spaces(braked)} short: more than {max(table)} eliminates"
                )
            else:
                parts = []
                for pool, amount in table[braked].items():
                    loss[index[pool]] += amount
                    parts.append(f"-{amount} {pool}")
                reasons.append(f"A-6 blocked {spaces(braked)} short: " + ", ".join(parts))
        else:
            pool = preset.brake_pool
            clause = "D-4 blocked" if option.blocked else "D-3 braking"
            if preset.model == "advanced":
                clause = "A-5 braking"
                have = car.pools[index[pool]]
                if braked > have and not option.blocked:
                    return MoveCost(
                        tuple(loss),
                        allowed=False,
                        reasons=(
                            f"A-5: braking {spaces(braked)} needs {braked} brake WP; "
                            f"the car has {have}",
                        ),
                    )
            loss[index[pool]] += braked
            reasons.append(f"{clause} {spaces(braked)}: -{braked} {pool}")

    overshoot_spaces = 0
    for over in option.overshoots:
        missing = over.required - over.stops_made
        if missing >= preset.missing_stops_eliminate:
            eliminated = True
            reasons.append(
                f"C-4 left corner {over.corner!r} ({over.required} stops) after "
                f"{over.stops_made} stop(s): eliminated"
            )
        overshoot_spaces += over.beyond
        if over.beyond:
            clause = "A-2" if preset.model == "advanced" else "C-3"
            reasons.append(
                f"{clause} overshoot of corner {over.corner!r} by {over.beyond}: "
                f"-{over.beyond} {preset.overshoot_pool}"
            )
    if overshoot_spaces:
        loss[index[preset.overshoot_pool]] += overshoot_spaces

    for i, amount in enumerate(loss):
        if not amount:
            continue
        name = names[i]
        have = car.pools[i]
        left = have - amount
        if name == preset.spin_pool:
            if have == 0 and amount == 1 and overshoot_spaces == 1:
                spin = True
                loss[i] = 0
                reasons.append(f"A-4 overshoot by one space with 0 {name}: spins again")
                continue
            if left < 0:
                eliminated = True
                reasons.append(f"A-2 needs {amount} {name}, the car has {have}: eliminated")
            elif left == 0:
                spin = True
                reasons.append(f"A-3 {name} reach 0: the car spins")
        elif left < 0 or (left == 0 and name in preset.eliminate_at_zero):
            eliminated = True
            clause = "D-2" if preset.model == "basic" else "A-6"
            if left < 0:
                unit = " WP" if preset.model == "advanced" else ""
                reasons.append(
                    f"{clause} needs {amount} {name}{unit}, the car has {have}: eliminated"
                )
            else:
                reasons.append(f"{clause} {name} {have} - {amount} reaches 0: eliminated")
    return MoveCost(tuple(loss), eliminated=eliminated, spin=spin, reasons=tuple(reasons))


def _cut_at_finish(board: Board, start: int, option: MoveOption) -> MoveOption:
    """``option`` as if the move stopped at the finish line (S-4 on the last lap).

    Braking is dropped, overshoots of corners left after the line are dropped,
    and the spaces beyond an earlier exit line are counted up to the line, a
    tunnel pair as one space (M-6, X-5).
    """
    walk = (start, *option.path)
    crossing, tunnels = _finish_steps(board)
    finish_at = len(walk)
    for j, step in enumerate(zip(walk, option.path, strict=False), start=1):  # walk is one longer
        if step in crossing:
            finish_at = j
            break
    kept = []
    if option.overshoots:
        exits = _exits(board, walk, option.overshoots)
        for over, exit_at in zip(option.overshoots, exits, strict=True):
            if exit_at > finish_at:  # the corner is left after the line
                continue
            # Spaces from the exit line to the finish line; a tunnel pair is one space (M-6, X-5).
            if tunnels:
                tunnel_exit = board.tunnel_exit
                between = sum(
                    1
                    for j in range(exit_at + 1, finish_at + 1)
                    if tunnel_exit[walk[j - 1]] != walk[j]
                )
            else:
                between = finish_at - exit_at
            kept.append(over._replace(beyond=min(over.beyond, between)))
    return option._replace(overshoots=tuple(kept), braked=0, blocked=False)


def _exits(board: Board, walk: tuple[int, ...], overshoots: tuple[Overshoot, ...]) -> list[int]:
    """Where along ``walk`` (the start, then the path) each of ``overshoots`` left its
    corner: the step onto the first space outside it.

    Every exit of a corner entered during the move is an overshoot (no stop is counted
    before the move ends), and only the start corner may be left with its stops made,
    at its first exit: so a corner's overshoots are its last exits, in order. A move
    longer than a lap of a small board can leave the same corner twice.
    """
    corner = board.corner
    exits: dict[Any, list[int]] = {}
    for j in range(1, len(walk)):
        left = corner[walk[j - 1]]
        if left is not None and corner[walk[j]] != left:
            exits.setdefault(left, []).append(j)
    count = Counter(over.corner for over in overshoots)
    seen: Counter[Any] = Counter()
    found = []
    for over in overshoots:
        at = exits.get(over.corner, [])
        k = len(at) - count[over.corner] + seen[over.corner]
        found.append(at[k] if k >= 0 else len(walk))  # never left: as if after the line
        seen[over.corner] += 1
    return found


#: Board -> the steps that cross the finish line, and whether the board has a tunnel.
_FINISH_STEPS: weakref.WeakKeyDictionary[Board, tuple[frozenset[tuple[int, int]], bool]] = (
    weakref.WeakKeyDictionary()
)


def _finish_steps(board: Board) -> tuple[frozenset[tuple[int, int]], bool]:
    """The steps ``(from, to)`` that cross the finish line, and whether a tunnel is on the
    board (made once per board: :func:`_cut_at_finish` runs for every move over the line)."""
    known = _FINISH_STEPS.get(board)
    if known is None:
        steps = frozenset(step for step, lines in board.step_lines.items() if "finish" in lines)
        known = _FINISH_STEPS[board] = (steps, any(t >= 0 for t in board.tunnel_exit))
    return known
