"""Exact odds a teacher can show: "38% to stop in this corner in 4th".

The gear die's chance outcomes (:meth:`fdlab.rules.dice.Die.chance_outcomes`)
are combined with the move generator: for each face, is there a legal move
that ends in the corner (its stop counting) at no more than a given
certain cost (:func:`stop_odds`)? And the risk before the roll
(:func:`gear_risks`): for each gear, the chance of being eliminated this
turn, the expected SP (or WP) lost and what the move does with the corner
ahead, the player choosing carefully after the roll.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, NamedTuple

from fdlab.rules.board import Board
from fdlab.rules.costs import MoveCost, in_pit_zone, move_cost, move_costs, spaces
from fdlab.rules.engine import Engine
from fdlab.rules.movement import MoveOption, after_move, move_options_for_rolls
from fdlab.rules.order import next_corners
from fdlab.rules.presets import Preset, ordinal
from fdlab.rules.state import CarState, RaceState
from fdlab.track.model import CornerId

_NEXT_CORNER_CACHE: dict[int, tuple[Board, tuple[CornerId | None, ...]]] = {}


def target_corner(engine: Engine, state: RaceState, car_index: int) -> CornerId | None:
    """The corner the car must stop in next: its own if stops are missing, else the next one.

    Returns ``None`` when no corner lies ahead.

    Examples
    --------
    >>> board = compile_board(from_ascii(". 1 1 . 2 .", corners={1: 2, 2: 1}))
    >>> engine = Engine(board, BASIC, ["A"])
    >>> target_corner(engine, engine.position([{"space": 1, "stops": 1}]), 0)
    1
    >>> target_corner(engine, engine.position([{"space": 2, "stops": 2}]), 0)
    2
    """
    board = engine.board
    car = state.cars[car_index]
    here: CornerId | None = board.corner[car.space]
    if here is not None and car.stops < board.stops[here]:
        return here
    key = id(board)
    if key not in _NEXT_CORNER_CACHE or _NEXT_CORNER_CACHE[key][0] is not board:
        _NEXT_CORNER_CACHE[key] = (board, next_corners(board))
    table = _NEXT_CORNER_CACHE[key][1]
    if here is None:
        return table[car.space]
    # in a corner with its stops made: look past its spaces
    seen = {car.space}
    frontier = [car.space]
    while frontier:
        nxt = []
        for i in frontier:
            for j, _, _ in board.steps[i]:
                if j in seen:
                    continue
                seen.add(j)
                if board.corner[j] != here:
                    return table[j]
                nxt.append(j)
        frontier = nxt
    return None


def stop_odds(
    engine: Engine,
    state: RaceState,
    car_index: int,
    gear: int,
    *,
    corner: CornerId | None = None,
    max_damage: int = 0,
) -> Fraction:
    """Exact probability that, in ``gear``, the car can end its move in ``corner``.

    The move must be legal, its stop must count (C-2, C-5) and its certain
    cost (braking, overshoot) at most ``max_damage`` pool points; random
    damage (collisions) is not counted.

    Parameters
    ----------
    engine : Engine
    state : RaceState
    car_index : int
        The car (it need not be on turn; other cars stay where they are).
    gear : int
    corner : corner id, optional
        Default: :func:`target_corner`.
    max_damage : int

    Examples
    --------
    >>> from fdlab.rules.state import CarState, RaceState
    >>> board = compile_board(from_ascii(". . . . 1 1 . .", corners={1: 1}))
    >>> engine = Engine(board, BASIC, ["Solo"])
    >>> state = RaceState(cars=(CarState(space=0, pools=(18,)),), phase="gear", order=(0,))
    >>> stop_odds(engine, state, 0, 2)  # 2nd gear: only a 4 (1/2) reaches the corner
    Fraction(1, 2)
    """
    board = engine.board
    car = state.cars[car_index]
    if corner is None:
        corner = target_corner(engine, state, car_index)
    if corner is None:
        return Fraction(0)
    die = engine.preset.gear_dice[gear - 1]
    outcomes = die.chance_outcomes()
    rules = replace(engine.move_rules(state, car_index), pit_allowed=False)
    by_face = move_options_for_rolls(board, car.space, [v for v, _ in outcomes], rules)
    total = Fraction(0)
    probe = replace(car, gear=gear)
    for value, p in outcomes:
        for option in by_face[value]:
            if board.corner[option.destination] != corner or not option.stop_counts:
                continue
            cost = move_cost(board, engine.preset, probe, option)
            if cost.allowed and not cost.eliminated and cost.total <= max_damage:
                total += p
                break
    return total


@dataclass(frozen=True)
class GearOdds:
    """Odds of stopping in a corner for each gear, ready to show in a notebook.

    Attributes
    ----------
    corner : corner id
    car : str
    odds : dict
        Gear -> exact probability (:class:`fractions.Fraction`).
    max_damage : int
        The certain damage the stop may cost (0: a stop at no cost).
    risks : dict
        Gear -> :class:`GearRisk`: the chance of being eliminated this turn,
        the expected loss and the corner outcome (:func:`gear_risks`); empty
        when not computed.
    """

    corner: CornerId | None
    car: str
    odds: dict[Any, Any]
    max_damage: int = 0
    risks: dict[Any, GearRisk] = field(default_factory=dict)

    def __str__(self) -> str:
        return "\n".join(
            f"{float(p):.0%} to stop in corner {self.corner!r} in {ordinal(g)}"
            for g, p in self.odds.items()
        )

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import gear_odds_html

        return gear_odds_html(self)


class FaceRisk(NamedTuple):
    """What one roll of a gear's die leads to, the player choosing as :func:`gear_risks` says.

    Attributes
    ----------
    roll : int
        Spaces rolled (a flying or rocket start: its spaces; a stall: 0).
    chance : Fraction
        Exact probability of this roll.
    eliminated : bool
        Every legal move eliminates the car (D-2, C-4, A-2, A-4, A-6).
    loss : int
        Certain cost of the chosen move in pool points (braking, blocking,
        overshoot), the downshift not included.
    corner : str
        What the chosen move does with the corner ahead: ``"stop"`` (ends in
        it, the stop counting, C-2), ``"overshoot"`` (leaves it short of
        stops, C-3), ``"in"`` (ends in it, the stop not counting, C-5),
        ``"short"`` (ends before it), ``"past"`` (leaves it with its stops
        made: only for a corner given by hand), ``"stall"`` (no move, S-2,
        S-3) or ``"none"`` (no corner ahead).
    beyond : int
        Spaces past the corner's exit line when ``corner == "overshoot"``.
    move : MoveOption or None
        The chosen move (None for a stall).
    cost : MoveCost or None
        Its certain cost.
    stall : bool
        The start roll stalled (no move).
    """

    roll: int
    chance: Fraction
    eliminated: bool
    loss: int
    corner: str
    beyond: int = 0
    move: MoveOption | None = None
    cost: MoveCost | None = None
    stall: bool = False


@dataclass(frozen=True)
class GearRisk:
    """The risk of one gear before the roll: elimination, expected loss and the corner ahead.

    Computed by :func:`gear_risks` (see there for the definition). Random
    damage (collisions, the engine rolls after a 20 or a 30, street hazards)
    is not counted.

    Attributes
    ----------
    gear : int
    corner : corner id or None
        The corner ahead (:func:`target_corner`); None when there is none.
    elimination : Fraction
        Chance that the car is eliminated this turn: the downshift alone
        eliminates it, or the roll leaves only eliminating moves.
    loss : Fraction
        Expected pool points lost this turn: the downshift plus the chosen
        move's certain cost (SP in the basic rules, WP summed over the pools
        in the advanced rules).
    losses : dict
        Pool name -> expected points lost from that pool (sums to ``loss``).
    unit : str
        ``"SP"`` or ``"WP"``.
    shift : int
        Pool points the downshift costs (G-4, A-7).
    shift_eliminates : bool
        The downshift alone eliminates the car (D-2); then no die is rolled
        and ``faces`` is empty.
    faces : tuple of FaceRisk
        One per distinct roll, smallest first.
    """

    gear: int
    corner: CornerId | None
    elimination: Fraction
    loss: Fraction
    losses: dict[str, Fraction]
    unit: str
    shift: int = 0
    shift_eliminates: bool = False
    faces: tuple[FaceRisk, ...] = ()

    def chance(self, outcome: str) -> Fraction:
        """Chance that the chosen move does ``outcome`` with the corner (see :class:`FaceRisk`).

        Examples
        --------
        >>> board = compile_board(from_ascii(". . . . 1 1 . .", corners={1: 1}))
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> risk = gear_risks(engine, engine.position([{"space": 0, "gear": 2}]), 0, [2])[2]
        >>> risk.chance("stop"), risk.chance("short")
        (Fraction(1, 2), Fraction(1, 2))
        """
        return sum((f.chance for f in self.faces if f.corner == outcome), Fraction(0))

    @property
    def reach(self) -> Fraction:
        """Chance that the chosen move ends in the corner or goes past it."""
        return sum((f.chance for f in self.faces if f.corner in _REACHED), Fraction(0))

    @property
    def stop(self) -> Fraction:
        """Chance that the chosen move ends in the corner with the stop counting (C-2)."""
        return self.chance("stop")

    @property
    def overshoot(self) -> Fraction:
        """Chance that the chosen move overshoots the corner (C-3)."""
        return self.chance("overshoot")

    @property
    def overshoot_range(self) -> tuple[int, int] | None:
        """Fewest and most spaces past the exit line over the rolls that overshoot, or None."""
        beyond = [f.beyond for f in self.faces if f.corner == "overshoot"]
        return (min(beyond), max(beyond)) if beyond else None

    def later_overshoots(self) -> dict[CornerId, Fraction]:
        """Corners after the one ahead that the chosen move overshoots, with the chance of it.

        A fast gear can carry the car through the corner ahead (its stops
        made, or ending in it) and out of the next one short of stops: that
        overshoot is priced in :attr:`loss`, and named here so the words say it.

        Examples
        --------
        >>> board = compile_board(from_ascii(
        ...     ". 1 . 2 . . . . . . . . . . .", corners={1: 1, 2: 1}))
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> state = engine.position([{"space": 1, "gear": 2, "stops": 1}])
        >>> risk = gear_risks(engine, state, 0, [2], corner=1)[2]
        >>> risk.later_overshoots()
        {2: Fraction(5, 6)}
        >>> print(risk.corner_words())
        corner 1: goes past it, its stops made 100%, then overshoots corner 2 83%
        >>> risk.short_words()
        'no stop, corner 2 overshot 83%'
        """
        later: dict[CornerId, Fraction] = {}
        for face in self.faces:
            if face.move is None:
                continue
            for corner in dict.fromkeys(o.corner for o in face.move.overshoots):
                if corner != self.corner:
                    later[corner] = later.get(corner, Fraction(0)) + face.chance
        return later

    def _later_words(self, short: bool) -> str:
        """``, then overshoots corner 5 20%`` (``, corner 5 overshot 20%`` on a button)."""
        words = []
        for corner, p in self.later_overshoots().items():
            chance = "" if p == 1 else f" {percent(p)}"
            if short:
                words.append(f"corner {corner} overshot{chance}")
            else:
                certain = "certain to overshoot" if p == 1 else "overshoots"
                words.append(f"then {certain} corner {corner}{chance}")
        return "".join(f", {w}" for w in words)

    def corner_words(self) -> str:
        """The corner outcome in words: ``corner 4: can't reach it``, ``corner 4: stops in it 40%, ...``.

        A later corner the move overshoots is named after it (``..., then
        overshoots corner 5 20%``).

        Examples
        --------
        >>> board = compile_board(corner_strip())
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> risks = gear_risks(engine, engine.position([{"space": 0, "gear": 3}]), 0, [1, 2, 3, 4])
        >>> for gear in (1, 2, 3, 4):
        ...     print(risks[gear].corner_words())
        corner 1: can't reach it
        corner 1: stops in it 50%, ends short of it 50%
        corner 1: stops in it 25%, overshoots it 75% (by 1-3 spaces)
        corner 1: certain to overshoot it by 2-7 spaces
        """
        if self.corner is None:
            return "no corner ahead"
        name = f"corner {self.corner}: "
        if self.shift_eliminates:
            return name + "the car is out before it"
        if not self.reach:
            return name + "can't reach it"
        later = self._later_words(short=False)
        if self.stop == 1:
            return name + "certain to stop in it" + later
        if self.overshoot == 1:
            return (
                name + f"certain to overshoot it by {_spaces_range(self.overshoot_range)}" + later
            )
        parts = [f"stops in it {percent(self.stop)}"] if self.stop else []
        for outcome, words in _OUTCOME_WORDS:
            p = self.chance(outcome)
            if p:
                parts.append(f"{words} {percent(p)}")
                if outcome == "overshoot":
                    parts[-1] += f" (by {_spaces_range(self.overshoot_range)})"
        return name + ", ".join(parts) + later

    def short_words(self) -> str:
        """The corner outcome for a button: ``stops 40%``, ``overshoots``, ``can't reach``.

        ``overshoots`` alone: every roll overshoots; ``overshoots 60%``: no
        roll stops in the corner, some overshoot it. A later corner the
        move overshoots follows (``stops 40%, corner 5 overshot 20%``).

        Empty when no corner is ahead or the downshift alone eliminates the car.

        Examples
        --------
        >>> board = compile_board(corner_strip())
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> risks = gear_risks(engine, engine.position([{"space": 0, "gear": 3}]), 0, [1, 3, 4])
        >>> [risks[gear].short_words() for gear in (1, 3, 4)]
        ["can't reach corner 1", 'stops 25%', 'overshoots']
        """
        if self.corner is None or self.shift_eliminates:
            return ""
        if not self.reach:
            return f"can't reach corner {self.corner}"
        later = self._later_words(short=True)
        if self.stop:
            return f"stops {percent(self.stop)}" + later
        if self.overshoot == 1:
            return "overshoots" + later
        if self.overshoot:
            return f"overshoots {percent(self.overshoot)}" + later
        return "no stop" + later

    def loss_words(self) -> str:
        """The expected loss in words: ``no certain SP loss``, ``4.5 SP lost on average``...

        A roll that eliminates the car counts the full cost of its move
        (which may exceed what the car has): said when some rolls do.

        Examples
        --------
        >>> board = compile_board(corner_strip())
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> state = engine.position([{"space": 0, "gear": 5}])
        >>> print(gear_risks(engine, state, 0, [3])[3].loss_words())
        2.5 SP lost on average (1 SP for the downshift included)
        >>> state = engine.position([{"space": 0, "gear": 4, "pools": (3,)}])
        >>> print(gear_risks(engine, state, 0, [3])[3].loss_words())
        1.5 SP lost on average (a roll that eliminates the car counts its move's full cost)
        """
        if not self.loss:
            return f"no certain {self.unit} loss"
        if self.shift and self.loss == self.shift:
            return f"{self.shift} {self.unit} for the downshift, nothing more"
        text = f"{amount(self.loss)} {self.unit} lost on average"
        notes = []
        if self.shift:
            notes.append(f"{self.shift} {self.unit} for the downshift included")
        if 0 < self.elimination < 1:
            notes.append("a roll that eliminates the car counts its move's full cost")
        return text + (f" ({'; '.join(notes)})" if notes else "")

    def figures(self) -> dict[str, str]:
        """The figures as short text for a table: ``out``, ``loss`` and ``corner``.

        Examples
        --------
        >>> board = compile_board(corner_strip())
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> state = engine.position([{"space": 0, "gear": 4, "pools": (3,)}])
        >>> gear_risks(engine, state, 0, [3])[3].figures()
        {'out': '25%', 'loss': '1.5 SP', 'corner': 'corner 1: stops in it 25%, overshoots it 75% (by 1-3 spaces)'}
        """
        return {
            "out": percent(self.elimination),
            "loss": f"{amount(self.loss)} {self.unit}",
            "corner": self.corner_words(),
        }

    def __str__(self) -> str:
        """The whole risk in sentences (a tooltip, a lesson).

        Examples
        --------
        >>> board = compile_board(corner_strip())
        >>> engine = Engine(board, BASIC, ["Solo"])
        >>> state = engine.position([{"space": 0, "gear": 4, "pools": (3,)}])
        >>> print(gear_risks(engine, state, 0, [4])[4])
        4th gear: out this turn 83% (every move eliminates the car on a roll of 8-12). 4.5 SP lost on average (a roll that eliminates the car counts its move's full cost). Corner 1: certain to overshoot it by 2-7 spaces. Collisions and engine rolls are not counted.
        """
        first = f"{ordinal(self.gear)} gear: "
        if self.shift_eliminates:
            return first + (
                f"the downshift alone costs {self.shift} {self.unit} and eliminates the car."
            )
        if self.elimination:
            rolls = _roll_ranges(f.roll for f in self.faces if f.eliminated and not f.stall)
            first += f"out this turn {percent(self.elimination)}"
            if self.elimination != 1:
                first += f" (every move eliminates the car on a roll of {rolls})"
            else:
                first += " (every roll leaves only moves that eliminate the car)"
        else:
            first += "no roll eliminates the car"
        sentences = [first] if self.elimination == 1 else [first, self.loss_words()]
        if self.corner is not None:
            sentences.append(self.corner_words())
        sentences.append("collisions and engine rolls are not counted")
        return ". ".join(text[:1].upper() + text[1:] for text in sentences) + "."


#: The corner outcomes past the corner ahead, or in it.
_REACHED = frozenset({"stop", "overshoot", "in", "past"})

#: Corner outcomes after a stop, in the order :meth:`GearRisk.corner_words` lists them.
_OUTCOME_WORDS = (
    ("overshoot", "overshoots it"),
    ("in", "ends in it without a counting stop"),
    ("past", "goes past it, its stops made"),
    ("short", "ends short of it"),
    ("stall", "stalls"),
)


@dataclass(frozen=True)
class ContactRisk:
    """The collision check a move would bring (D-5, A-8): who it touches, what it may cost.

    The car that moved rolls the black die once for every car it touches;
    each roll at or below the preset's ``collision_fail`` costs it 1 point
    of the collision pool. That is random damage: a move's certain cost
    leaves it out.

    Attributes
    ----------
    touched : tuple of int
        The cars touched (car indices), in car order.
    names : tuple of str
        Their names.
    pool : str
        The pool a failed roll takes from (``"SP"``, or ``"body"`` WP).
    unit : str
        ``"SP"`` or ``"WP"``.
    lose : Fraction
        Chance to lose at least 1 point.
    out : Fraction
        Chance that the losses eliminate the car (D-1, D-2), after the move's certain cost.

    Examples
    --------
    >>> from fractions import Fraction
    >>> risk = ContactRisk((1,), ("Red",), "SP", "SP", Fraction(1, 5), Fraction(0))
    >>> str(risk)
    'touches Red: 20% to lose 1 SP'
    """

    touched: tuple[int, ...]
    names: tuple[str, ...]
    pool: str
    unit: str
    lose: Fraction
    out: Fraction

    def __str__(self) -> str:
        count = len(self.touched)
        points = "1 SP" if self.unit == "SP" else f"1 {self.pool} WP"
        if count > 1:
            points += " or more"
        text = f"touches {' and '.join(self.names)}: {percent(self.lose)} to lose {points}"
        if self.out > 0:
            text += f", {percent(self.out)} to be eliminated"
        return text


def contact_risk(
    engine: Engine, state: RaceState, option: MoveOption, cost: MoveCost
) -> ContactRisk | None:
    """The collision check the car on turn would roll after ``option`` (D-5, A-8), or None.

    None when the move touches nobody, eliminates the car, finishes the race
    (the car leaves the board, S-4), or ends in the pit zone or on a tunnel
    space (P-4, X-5: no collision roll there), as the engine decides after a move.
    Street hazards rolled before the collision check are not counted.

    Examples
    --------
    >>> from fdlab.rules import Race
    >>> from fdlab.rules.dice import LoadedDice
    >>> from fdlab.track import from_ascii
    >>> cars = {"Blue": {"space": 1, "gear": 1, "pools": (1,)}, "Red": {"space": 4, "gear": 1}}
    >>> race = Race.from_position(from_ascii(". . . . . . . . .", finish=8), cars,
    ...                           order=["Blue", "Red"], dice=LoadedDice([2]))
    >>> _ = race.play(1)  # Blue, 1 SP left, rolls 2
    >>> free = race.legal_moves()[0]
    >>> print(free)
    to 3 (2 spaces): no damage
    >>> print(contact_risk(race.engine, race.state, free.option, free.cost))
    touches Red: 20% to lose 1 SP, 20% to be eliminated
    """
    board = engine.board
    preset = engine.preset
    c = state.on_turn
    car = state.cars[c]
    dest = option.destination
    if cost.eliminated or in_pit_zone(board, dest) or board.tunnel[dest] is not None:
        return None
    _stops, lap = after_move(board, car.space, car.stops, car.lap, option)
    if "finish" in option.lines and lap > preset.laps:
        return None
    touched = engine.touched_at(state, c, dest)
    if not touched:
        return None
    black = preset.black_die
    fail = black.probability(lambda value: value <= preset.collision_fail)
    rolls = len(touched)
    pool = preset.collision_pool
    index = preset.pool_index[pool]
    left = car.pools[index] - cost.loss[index]
    # the losses that eliminate: down to 0 where that is out (D-1), below 0 anyway (D-2)
    fatal = left if pool in preset.eliminate_at_zero else left + 1
    out = sum(
        (
            math.comb(rolls, hits) * fail**hits * (1 - fail) ** (rolls - hits)
            for hits in range(max(fatal, 0), rolls + 1)
        ),
        Fraction(0),
    )
    return ContactRisk(
        touched=tuple(touched),
        names=tuple(engine.names[k] for k in touched),
        pool=pool,
        unit=preset.unit,
        lose=1 - (1 - fail) ** rolls,
        out=out,
    )


def percent(p: Fraction) -> str:
    """A chance for a button: ``40%``, never ``0%`` nor ``100%`` unless exact.

    Examples
    --------
    >>> from fractions import Fraction
    >>> percent(Fraction(2, 5)), percent(Fraction(1, 300)), percent(Fraction(299, 300)), percent(1)
    ('40%', '<1%', '>99%', '100%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    value = float(p) * 100
    if value < 1:
        return "<1%"
    if value > 99:
        return ">99%"
    return f"{round(value)}%"


def amount(x: Fraction) -> str:
    """An expected number of points: ``12``, ``4.5``, ``0.03``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> amount(Fraction(25, 2)), amount(Fraction(9, 2)), amount(Fraction(1, 30)), amount(Fraction(3))
    ('12', '4.5', '0.03', '3')
    """
    value = float(x)
    if value >= 10:
        text = f"{value:.0f}"
    elif value >= 0.095:
        text = f"{value:.1f}"
    elif value >= 0.005:
        text = f"{value:.2f}"
    else:
        return "<0.01" if value > 0 else "0"
    return text[:-2] if text.endswith(".0") else text


def _spaces_range(span: tuple[int, int] | None) -> str:
    """``3 spaces``, ``1-4 spaces``, ``1 space``."""
    low, high = span or (0, 0)
    if low == high:
        return spaces(low)
    return f"{low}-{high} spaces"


def _roll_ranges(rolls: Iterable[int]) -> str:
    """``10-12``, ``3, 5-6``: sorted rolls, runs joined."""
    values = sorted(set(rolls))
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _rolls(engine: Engine, car: CarState, gear: int) -> list[tuple[int, Fraction, bool]]:
    """``(spaces, chance, stall)`` of the roll a car makes in ``gear``, the start roll included.

    A car that has not started rolls the black die first (S-2, S-3): a stall
    moves nothing, a flying (rocket) start moves its spaces, a normal start
    rolls the gear's die.
    """
    preset = engine.preset
    die = preset.gear_dice[gear - 1].chance_outcomes()
    if car.started:
        return [(value, p, False) for value, p in die]
    black = preset.black_die.chance_outcomes()
    stall = sum((p for v, p in black if v <= preset.start_stall_max), Fraction(0))
    flying = sum((p for v, p in black if v >= preset.start_flying_min), Fraction(0))
    normal = 1 - stall - flying
    chances: dict[int, Fraction] = {}
    for value, p in die:
        chances[value] = chances.get(value, Fraction(0)) + normal * p
    if flying:
        spaces_ = preset.start_flying_spaces
        chances[spaces_] = chances.get(spaces_, Fraction(0)) + flying
    rolls = [(value, p, False) for value, p in sorted(chances.items()) if p]
    return ([(0, stall, True)] if stall else []) + rolls


def _corner_outcome(board: Board, option: MoveOption, corner: CornerId | None) -> tuple[str, int]:
    """What ``option`` does with ``corner``: an outcome of :class:`FaceRisk` and spaces beyond."""
    if corner is None:
        return "none", 0
    for over in option.overshoots:
        if over.corner == corner:
            return "overshoot", over.beyond
    if board.corner[option.destination] == corner:
        return ("stop" if option.stop_counts else "in"), 0
    if corner in option.corners_left:  # left with its stops made (a corner given by hand)
        return "past", 0
    return "short", 0


def _careful_move(
    board: Board,
    preset: Preset,
    car: CarState,
    options: list[MoveOption],
    corner: CornerId | None,
) -> tuple[MoveOption, MoveCost] | None:
    """The move a careful player picks among ``options`` (see :func:`gear_risks`)."""
    best = None
    best_key: tuple[Any, ...] = ()
    where = board.corner
    for option, cost in zip(options, move_costs(board, preset, car, options), strict=True):
        if not cost.allowed:
            continue
        stop = corner is not None and option.stop_counts and where[option.destination] == corner
        total = cost.total
        key = (cost.eliminated, total, not (stop and total == 0), -option.moved, not stop)
        if best is None or key < best_key:
            best, best_key = (option, cost), key
    return best


def gear_risks(
    engine: Engine,
    state: RaceState,
    car_index: int,
    gears: Iterable[int] | None = None,
    *,
    corner: CornerId | None = None,
) -> dict[int, GearRisk]:
    """The risk of each gear before the roll: elimination, expected loss, the corner ahead.

    Definition. For each roll of the gear's die (its exact chance outcomes,
    :meth:`fdlab.rules.dice.Die.chance_outcomes`; on the car's first turn
    the start roll first, S-2, S-3) every legal move is listed with its
    certain cost (:func:`fdlab.rules.costs.move_cost`: braking, blocking,
    overshoot, C-3, C-4, D-2..D-4, A-2..A-6) and the player is assumed to
    pick the move a careful player would:

    1. one that does not eliminate the car, if any exists;
    2. among those, the least certain cost (pool points summed);
    3. at no cost, a move that stops in the corner ahead (the stop
       counting, C-2) before any other;
    4. then the move that goes farthest (so an overshoot is preferred to
       braking for the same cost: the car ends farther on), and a stop in
       the corner before another move of the same length.

    Then:

    * ``elimination`` is the chance that the downshift alone eliminates the
      car (G-4, A-7, D-2) or that every legal move of the roll eliminates it;
    * ``loss`` is the downshift's cost plus the expectation, over the rolls,
      of the chosen move's certain cost (as :func:`~fdlab.rules.costs.move_cost`
      prices it, also on a roll that eliminates the car);
    * the corner outcome of each roll is what the chosen move does with the
      corner ahead (:func:`target_corner`): stops in it, overshoots it (by
      how many spaces past the exit line), ends short of it, ...; a corner
      after it is priced in ``loss`` but not described.

    Random damage is not counted: collisions (D-5, A-8), the engine rolls
    after a 20 or a 30 (D-6, A-9) and street hazards (X-2, X-3); nitro (X-1)
    is not used. Other cars stay where they are.

    Parameters
    ----------
    engine : Engine
    state : RaceState
    car_index : int
        The car (it need not be on turn).
    gears : iterable of int, optional
        Default: the legal gears when the car is on turn, else every gear.
    corner : corner id, optional
        Default: :func:`target_corner`.

    Returns
    -------
    dict
        Gear -> :class:`GearRisk`, exact (:class:`fractions.Fraction`).

    Examples
    --------
    >>> board = compile_board(corner_strip())
    >>> engine = Engine(board, BASIC, ["Solo"])
    >>> state = engine.position([{"space": 0, "gear": 4, "pools": (3,)}])
    >>> risks = gear_risks(engine, state, 0)
    >>> {gear: (risk.elimination, risk.loss, risk.short_words()) for gear, risk in risks.items()}
    ... # doctest: +NORMALIZE_WHITESPACE
    {1: (Fraction(0, 1), Fraction(2, 1), "can't reach corner 1"),
     2: (Fraction(0, 1), Fraction(1, 1), 'stops 50%'),
     3: (Fraction(1, 4), Fraction(3, 2), 'stops 25%'),
     4: (Fraction(5, 6), Fraction(9, 2), 'overshoots'),
     5: (Fraction(1, 1), Fraction(21, 2), 'overshoots')}
    """
    board = engine.board
    preset = engine.preset
    car = state.cars[car_index]
    if corner is None:
        corner = target_corner(engine, state, car_index)
    if gears is None:
        gears = (
            engine.legal_gears(state) if state.current == car_index else range(1, preset.gears + 1)
        )
    gears = list(gears)
    names = preset.pool_names
    unit = preset.unit
    rolls = {g: _rolls(engine, car, g) for g in gears}
    wanted = {value for table in rolls.values() for value, _, stall in table if not stall}
    by_roll = move_options_for_rolls(board, car.space, wanted, engine.move_rules(state, car_index))
    risks = {}
    for gear in gears:
        shift = engine.downshift_cost(car, gear)
        shifted = replace(car, gear=gear, spun=False, started=True)
        pools = list(car.pools)
        for pool, value in shift.items():
            pools[preset.pool_index[pool]] -= value
        shifted = replace(shifted, pools=tuple(max(0, v) for v in pools))
        losses = {name: Fraction(shift.get(name, 0)) for name in names}
        shift_total = sum(shift.values())
        if engine.gear_eliminates(car, gear):
            risks[gear] = GearRisk(
                gear, corner, Fraction(1), Fraction(shift_total), losses, unit,
                shift_total, True,
            )  # fmt: skip
            continue
        faces = []
        out = Fraction(0)
        for value, p, stall in rolls[gear]:
            if stall:
                faces.append(FaceRisk(0, p, False, 0, "stall", stall=True))
                continue
            chosen = _careful_move(board, preset, shifted, by_roll[value], corner)
            if chosen is None:  # no legal move at all: counted as an elimination
                faces.append(FaceRisk(value, p, True, 0, "short" if corner is not None else "none"))
                out += p
                continue
            option, cost = chosen
            outcome, beyond = _corner_outcome(board, option, corner)
            faces.append(
                FaceRisk(value, p, cost.eliminated, cost.total, outcome, beyond, option, cost)
            )
            if cost.eliminated:
                out += p
            for name, lost in zip(names, cost.loss, strict=True):
                if lost:
                    losses[name] += p * lost
        risks[gear] = GearRisk(
            gear, corner, out, sum(losses.values(), Fraction(0)), losses, unit,
            shift_total, False, tuple(faces),
        )  # fmt: skip
    return risks
