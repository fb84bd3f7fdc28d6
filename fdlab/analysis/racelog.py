"""One race between bots, recorded turn by turn for the playtest tables.

:func:`play_logged_race` drives the race with the one race loop
(:func:`fdlab.rules.loop.iter_race`, as :func:`fdlab.rules.simulate.simulate`
does) and writes down, for every car's turn, where it went, what it cost and whom it
passed. Records are plain tuples so that worker processes send them back
cheaply; :data:`TURN_COLUMNS`, :data:`CAR_COLUMNS`, :data:`RACE_COLUMNS` and
:data:`EVENT_COLUMNS` name their fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from fdlab.rules.actions import ChooseGear
from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, move_cost
from fdlab.rules.dice import SeededDice
from fdlab.rules.engine import CAR_NAMES, Engine
from fdlab.rules.events import Event
from fdlab.rules.loop import RaceStep, iter_race
from fdlab.rules.movement import MoveOption, move_options_for_rolls
from fdlab.rules.order import next_corners, race_distance
from fdlab.rules.policy import Policy
from fdlab.rules.presets import Preset
from fdlab.rules.state import FINISHED, RaceState
from fdlab.track.model import SpaceId

#: One record: a plain tuple of values in the order of its columns (``TURN_COLUMNS``...).
Record: TypeAlias = tuple[Any, ...]

#: Fields of a turn record: one car's turn (gear, roll, move and what followed).
TURN_COLUMNS = (
    "race",
    "round",
    "car",
    "bot",
    "lap",
    "start",
    "gear",
    "roll",
    "space",
    "corner",
    "zone",
    "moved",
    "braked",
    "stopped_in_corner",
    "overshoot",
    "overshot",
    "left_corner",
    "stops_made",
    "overshot_corners",
    "left_corners",
    "stops_by_corner",
    "beyond_by_corner",
    "certain_damage",
    "damage",
    "overtakes",
    "eliminated",
    "cause",
    "finished",
    "took_lead",
)

#: Why a car was eliminated on a turn (the ``cause`` column; None when it was not).
#: A *safe option* is a legal move whose cost neither eliminates the car nor is
#: forbidden, after the roll, or before it a legal gear whose every roll leaves one.
#:
#: * ``"mistake"``: the car had a safe option and did not take it (the bot's fault);
#: * ``"worn out"``: it had none, but the same car with the preset's full pools
#:   (same space, gear, stops, lap and roll) would have had one: it arrived
#:   without the points this corner needs, spent by its earlier driving;
#: * ``"no safe option"``: not even a healthy car would have had one (the
#:   circuit's danger, or the traffic's);
#: * ``"chance"``: random damage after a safe move (contact, the engine,
#:   danger or shooting spaces).
CAUSES = ("mistake", "worn out", "no safe option", "chance")

#: Fields of a car record: one car in one race.
CAR_COLUMNS = (
    "race",
    "car",
    "name",
    "bot",
    "grid",
    "place",
    "status",
    "turns",
    "damage",
    "eliminated_space",
)

#: Fields of a race record.
RACE_COLUMNS = (
    "race",
    "seed",
    "rounds",
    "cars",
    "finished",
    "eliminated",
    "winner",
    "winner_bot",
    "winner_grid",
)

#: Fields of an event record.
EVENT_COLUMNS = ("race", "round", "car", "kind", "text")


@dataclass
class RaceLog:
    """The records of one race (lists of tuples in the column orders above)."""

    race: Record
    cars: list[Record] = field(default_factory=list)
    turns: list[Record] = field(default_factory=list)
    events: list[Record] = field(default_factory=list)


def play_logged_race(
    board: Board,
    preset: Preset,
    policies: Sequence[Policy],
    labels: Sequence[str],
    *,
    race: int,
    seed: int,
    keep_events: bool = True,
    zones: tuple[Any, ...] | None = None,
) -> RaceLog:
    """Play one race between ``policies`` (car 1 first) and record it.

    Parameters
    ----------
    board : Board
    preset : Preset
    policies : sequence of Policy
        One policy per car.
    labels : sequence of str
        The bot label of each car (the ``bot`` column).
    race : int
        Race number written in every record.
    seed : int
        Dice seed of the race.
    keep_events : bool
        Also record every engine event (plain text).
    zones : tuple, optional
        ``next_corners(board)``: the corner a space belongs to for overtakes.

    Returns
    -------
    RaceLog

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> board = compile_board(from_ascii('''
    ...     . . . 1 1 . . . . . . .
    ...     . . . 1 1 . . . . . . .
    ... ''', corners={1: 1}, closed=True, grid=[22, 23]))
    >>> log = play_logged_race(board, BASIC, [HeuristicBot(), HeuristicBot()], ["h", "h"],
    ...                        race=0, seed=3)
    >>> len(log.cars), log.race[2] == len({t[1] for t in log.turns})
    (2, True)
    """
    n = len(policies)
    names = CAR_NAMES[:n]
    engine = Engine(board, preset, names)
    zones = zones if zones is not None else next_corners(board)
    log = RaceLog(race=())
    ids = board.ids
    grid: list[int | None] = [None] * n
    turns = [0] * n
    damage = [0] * n
    lost_at: list[SpaceId | None] = [None] * n
    state = engine.initial_state()
    turn: _Turn | None = None

    def close(turn: _Turn, state: RaceState) -> None:
        """Write the record of a finished turn (one car's gear, roll and move)."""
        c = turn.car
        before = turn.before.cars[c]
        after = state.cars[c]
        turns[c] += 1
        lost = sum(before.pools) - sum(after.pools)
        lost += sum(e.amount for e in turn.events if e.kind == "bonus" and e.car == c)
        damage[c] += max(0, lost)
        eliminated = after.status == "eliminated" and before.status != "eliminated"
        finished = after.status == FINISHED
        move = turn.move
        cause = _cause(engine, turn.before, c, move) if eliminated else None
        if move is not None:
            option, cost, moved_from = move.option, move.cost, move.before
            assert option is not None  # a turn's move is a step with an option (see below)
            row = _move_row(board, zones, option, moved_from, c, state, finished)
            row = (race, turn.before.round, c, labels[c], before.lap, ids[before.space],
                   turn.gear, moved_from.roll, *row, cost.total if cost is not None else 0,
                   max(0, lost), _overtakes(board, moved_from, state, c), eliminated,
                   cause, finished, _took_lead(board, moved_from, state, c))  # fmt: skip
            if eliminated:
                lost_at[c] = ids[option.destination]
        else:
            here = before.space if before.space >= 0 else None
            row = (
                race, turn.before.round, c, labels[c], before.lap,
                ids[here] if here is not None else None, turn.gear, 0,
                ids[here] if here is not None else None,
                board.corner[here] if here is not None else None,
                zones[here] if here is not None else None,
                0, 0, False, 0, None, None, None, (), (), (), (), 0, max(0, lost), 0, eliminated,
                cause,
                finished, False,
            )  # fmt: skip
            if eliminated:
                lost_at[c] = row[5]
        log.turns.append(row)
        if keep_events:
            log.events.extend((race, turn.before.round, e.car, e.kind, e.text) for e in turn.events)

    for step in iter_race(engine, policies, SeededDice(seed), state):
        state = step.state
        if step.car is None:  # the grid roll (S-1)
            grid = [board.grid[car.space] for car in state.cars]
            if keep_events:
                log.events.extend((race, 0, e.car, e.kind, e.text) for e in step.events)
            continue
        if isinstance(step.action, ChooseGear):
            turn = _Turn(step.car, step.before, step.action.gear)
        assert turn is not None
        turn.events.extend(step.events)
        if step.option is not None:
            turn.move = step
        if state.phase != "move" or state.current != turn.car:
            close(turn, state)
            turn = None

    place = {c: k + 1 for k, c in enumerate(state.finished)}
    for c in range(n):
        car = state.cars[c]
        log.cars.append(
            (
                race,
                c,
                names[c],
                labels[c],
                grid[c],
                place.get(c),
                car.status,
                turns[c],
                damage[c],
                lost_at[c],
            )
        )
    winner = state.finished[0] if state.finished else None
    log.race = (
        race,
        seed,
        state.round,
        n,
        len(state.finished),
        len(state.eliminated),
        winner,
        labels[winner] if winner is not None else None,
        grid[winner] if winner is not None else None,
    )
    return log


def _cause(engine: Engine, before: RaceState, c: int, move: RaceStep | None) -> str:
    """Why car ``c`` was eliminated on the turn that began at ``before``: one of :data:`CAUSES`.

    ``move`` is the car's move step (``move.before``: the state after its
    roll), ``None`` when it was eliminated before moving. Only eliminations
    are judged, so the replay pays for this on a few turns.
    """
    if move is not None and move.cost is not None and not move.cost.eliminated:
        return "chance"
    moving = move.before if move is not None else None
    if _safe_option(engine, before, moving, c):
        return "mistake"
    healthy_before, healthy_moving = _healthy(engine.preset, before, moving, c)
    if _safe_option(engine, healthy_before, healthy_moving, c):
        return "worn out"
    return "no safe option"


def _safe_option(engine: Engine, before: RaceState, moving: RaceState | None, c: int) -> bool:
    """Whether car ``c`` had a safe option: a safe move for its roll, or a safe gear."""
    if moving is not None and any(not cost.eliminated for _, cost in engine.legal_moves(moving)):
        return True
    return _safe_gear(engine, before, c)


def _healthy(
    preset: Preset, before: RaceState, moving: RaceState | None, c: int
) -> tuple[RaceState, RaceState | None]:
    """The turn of car ``c`` again with the preset's full pools (minus what this turn spent)."""
    full = preset.pool_max
    worn = before.cars[c]
    cars = list(before.cars)
    cars[c] = replace(worn, pools=full)
    healthy_before = replace(before, cars=tuple(cars))
    if moving is None:
        return healthy_before, None
    now = moving.cars[c]  # the gear step may have cost points (G-4, A-7)
    spent = [b - m for b, m in zip(worn.pools, now.pools, strict=True)]
    cars = list(moving.cars)
    cars[c] = replace(now, pools=tuple(f - s for f, s in zip(full, spent, strict=True)))
    return healthy_before, replace(moving, cars=tuple(cars))


def _safe_gear(engine: Engine, state: RaceState, c: int) -> bool:
    """Whether some legal gear leaves, on every roll of its die, a legal move that does not eliminate."""
    board = engine.board
    preset = engine.preset
    car = state.cars[c]
    if car.space < 0 or state.phase != "gear":
        return False
    rules = engine.move_rules(state, c)
    for gear in engine.legal_gears(state):
        if engine.gear_eliminates(car, gear):
            continue
        shift = engine.downshift_cost(car, gear)
        pools = tuple(
            v - shift.get(name, 0) for name, v in zip(preset.pool_names, car.pools, strict=True)
        )
        probe = replace(car, gear=gear, pools=pools)
        faces = sorted(set(preset.gear_faces[gear - 1]))
        by_roll = move_options_for_rolls(board, car.space, faces, rules)
        if all(
            any(_safe(move_cost(board, preset, probe, o)) for o in by_roll[roll]) for roll in faces
        ):
            return True
    return False


def _safe(cost: MoveCost) -> bool:
    """A move cost that neither eliminates nor is forbidden (A-5)."""
    return cost.allowed and not cost.eliminated


def _corners_before_flag(board: Board, start: int, path: Sequence[int]) -> set[Any]:
    """Corners the car was in before its move crossed the finish line."""
    corners = {board.corner[start]}
    previous = start
    for i in path:
        if "finish" in board.step_lines.get((previous, i), ()):
            break
        corners.add(board.corner[i])
        previous = i
    corners.discard(None)
    return corners


@dataclass
class _Turn:
    """One car's turn while it is played: the gear step, then nitro and the move."""

    car: int
    before: RaceState
    gear: int
    events: list[Event] = field(default_factory=list)
    move: RaceStep | None = None


def _move_row(
    board: Board,
    zones: tuple[Any, ...],
    option: MoveOption,
    before: RaceState,
    c: int,
    after: RaceState,
    finished: bool,
) -> Record:
    """The move columns of a turn record: from ``space`` to ``beyond_by_corner``.

    ``stops_made`` is the stops made in the first corner the move left, and
    ``overshoot`` the spaces beyond every corner it overshot; ``stops_by_corner``
    pairs every corner it left (overshot, then left properly) with the stops
    made there, and ``beyond_by_corner`` every corner it overshot with the
    spaces beyond it: a move may leave two corners.
    """
    dest = option.destination
    overshoots = option.overshoots
    left_ok = list(option.corners_left)
    start = before.cars[c]
    if finished:  # corners past the flag do not count as passages
        counted = _corners_before_flag(board, start.space, option.path)
        overshoots = tuple(o for o in overshoots if o.corner in counted)
        left_ok = [k for k in left_ok if k in counted]
    left = [over.corner for over in overshoots]
    return (
        board.ids[dest],
        board.corner[dest],
        zones[dest],
        option.moved,
        option.braked,
        board.corner[dest] is not None and option.stop_counts,
        sum(over.beyond for over in overshoots),
        left[0] if left else None,
        left_ok[0] if left_ok else None,
        overshoots[0].stops_made if overshoots else (start.stops if left_ok else None),
        tuple(left),
        tuple(left_ok),
        # a corner left properly is the one the move started in (C-6)
        (*((o.corner, o.stops_made) for o in overshoots), *((k, start.stops) for k in left_ok)),
        tuple((o.corner, o.beyond) for o in overshoots),
    )


def _in_the_lead(board: Board, state: RaceState, c: int) -> bool:
    """Car ``c`` leads alone: it finished first, or it is farther on than every racing car.

    Cars side by side (the grid's first row) share the lead: neither leads alone.
    """
    if state.finished:
        return state.finished[0] == c
    car = state.cars[c]
    if not car.racing or car.space < 0:
        return False
    mine = race_distance(board, car)
    return all(
        mine > race_distance(board, other)
        for k, other in enumerate(state.cars)
        if k != c and other.racing and other.space >= 0
    )


def _took_lead(board: Board, before: RaceState, after: RaceState, c: int) -> bool:
    """Car ``c``'s move put it alone in the lead (a lead change); none after the first finish."""
    if before.finished:
        return False
    return not _in_the_lead(board, before, c) and _in_the_lead(board, after, c)


def _overtakes(board: Board, before: RaceState, after: RaceState, c: int) -> int:
    """Cars still racing that car ``c`` passed with its move (race distance)."""
    car = after.cars[c]
    if car.space < 0:
        return 0
    mine_before = race_distance(board, before.cars[c])
    mine_after = race_distance(board, car)
    return sum(
        1
        for k, other in enumerate(before.cars)
        if k != c
        and other.racing
        and other.space >= 0
        and mine_before < race_distance(board, other) < mine_after
        and after.cars[k].racing
    )
