"""A race to play in a notebook: :class:`Race`.

``Race`` wraps the pure :class:`~fdlab.rules.engine.Engine` with a history,
so a person can play move by move, undo, read the log, ask for odds and see
the position drawn on the board::

    race = Race(track, cars=["Blue", "Red"], preset="basic", seed=1)
    race.legal_gears()      # [1]
    race.play(1)            # gear (the start roll and the die are rolled)
    race.legal_moves()      # every option with its cost
    race.play(17)           # move to space 17 (the cheapest way there)
    race.undo()

Every action is recorded; ``Race.replay(track, seed, race.actions, ...)``
plays the same race again, roll for roll.
"""

from __future__ import annotations

import numbers
import os
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fdlab._text import shown
from fdlab.rules.actions import Action, ChooseGear, ChooseMove, RollGrid, UseNitro
from fdlab.rules.arguments import whole_number
from fdlab.rules.board import Board, compile_board
from fdlab.rules.costs import MoveCost, spaces
from fdlab.rules.dice import DiceSource, make_dice
from fdlab.rules.engine import CAR_NAMES, Engine
from fdlab.rules.errors import (
    IllegalGearError,
    IllegalMoveError,
    RaceOverError,
    RuleError,
    RuleTypeError,
    WrongPhaseError,
)
from fdlab.rules.events import Event, EventList
from fdlab.rules.loop import RaceStep, iter_race
from fdlab.rules.movement import MoveOption
from fdlab.rules.odds import GearOdds, gear_risks, stop_odds, target_corner
from fdlab.rules.policy import Policy, Seat
from fdlab.rules.presets import PRESETS, Preset, get_preset
from fdlab.rules.state import Phase, RaceState
from fdlab.rules.state_check import check_state
from fdlab.rules.view import RaceView
from fdlab.track.model import SpaceId, Track


@dataclass(frozen=True)
class LegalMove:
    """One legal move, in space ids, with its certain cost.

    Attributes
    ----------
    destination : space id
    path : tuple of space ids
    moved, braked : int
    blocked, boxed : bool
    cost : MoveCost
    option : MoveOption
        The underlying movement option (board indices).
    """

    destination: SpaceId
    path: tuple[SpaceId, ...]
    moved: int
    braked: int
    blocked: bool
    boxed: bool
    cost: MoveCost
    option: MoveOption

    @property
    def eliminates(self) -> bool:
        """The move eliminates the car (D-2: listed, never picked by a bot unless forced)."""
        return self.cost.eliminated

    @property
    def lane_changes(self) -> int:
        """Lane changes on straights along the path (M-3)."""
        return self.option.lane_changes

    @property
    def overshoot(self) -> str:
        """Corners left short, e.g. ``corner 3 by 2`` (C-3), or an empty string."""
        return ", ".join(f"corner {o.corner} by {o.beyond}" for o in self.option.overshoots)

    def __str__(self) -> str:
        text = f"to {self.destination!r} ({spaces(self.moved)}"
        if self.braked:
            text += f", braking {self.braked}"
        if self.boxed:
            text += ", into the box"
        return text + f"): {self.cost.describe()}"


class MoveList(list[LegalMove]):
    """The legal moves of the car on turn; shows itself as a table in a notebook."""

    def _repr_html_(self) -> str:
        """One row per move: destination, spaces, braking, lane changes, overshoot, cost, path."""
        from fdlab.plot.tables import move_list_html

        return move_list_html(self)


def _legal_move(board: Board, option: MoveOption, cost: MoveCost) -> LegalMove:
    ids = board.ids
    return LegalMove(
        destination=ids[option.destination],
        path=tuple(ids[i] for i in option.path),
        moved=option.moved,
        braked=option.braked,
        blocked=option.blocked,
        boxed=option.boxed,
        cost=cost,
        option=option,
    )


def _board_of(track: Any) -> Board:
    if isinstance(track, Board):
        return track
    if isinstance(track, Track):
        return compile_board(track)
    hint = ""
    if isinstance(track, (str, os.PathLike)):
        hint = f"; to race on a track file, load it first: Race(load_track({str(track)!r}), ...)"
    raise RuleTypeError(
        f"track must be a Track (or a compiled Board), not {type(track).__name__}{hint}"
    )


def _preset_of(preset: Any, laps: Any) -> Preset:
    if not isinstance(preset, (str, Preset)):
        raise RuleTypeError(
            f"preset must be a preset name ({', '.join(sorted(PRESETS))}) or a Preset, "
            f"not {shown(preset)}"
        )
    if laps is not None and (not isinstance(laps, numbers.Integral) or isinstance(laps, bool)):
        raise RuleTypeError(f"laps must be a whole number of laps (or None), not {shown(laps)}")
    return get_preset(preset, None if laps is None else int(laps))


def _car_names(cars: Any) -> list[str]:
    """``cars`` as the list of names: a count 1-10 or 1-10 different names."""
    if isinstance(cars, bool) or not isinstance(cars, (numbers.Integral, Sequence)):
        raise RuleTypeError(
            f"cars must be a number of cars (1 to 10) or a list of names, not {shown(cars)}"
        )
    if isinstance(cars, str):
        raise RuleTypeError(f"cars must be a list of names, not the single string {cars!r}")
    if isinstance(cars, numbers.Integral):
        count = int(cars)
        if not 1 <= count <= len(CAR_NAMES):
            raise RuleError(f"cars: a race has 1 to {len(CAR_NAMES)} cars, not {count}")
        return list(CAR_NAMES[:count])
    names = [str(name) for name in cars]
    if not 1 <= len(names) <= len(CAR_NAMES):
        raise RuleError(f"cars: a race has 1 to {len(CAR_NAMES)} cars, not {len(names)} names")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise RuleError(f"cars: every car needs its own name; {twice[0]!r} is there twice")
    return names


def _check_options(seed: Any, dice: Any, max_rounds: Any, start: Any) -> None:
    if seed is not None and (not isinstance(seed, numbers.Integral) or isinstance(seed, bool)):
        raise RuleTypeError(f"seed must be a whole number (or None), not {shown(seed)}")
    if dice is not None and not all(
        callable(getattr(dice, name, None)) for name in ("roll", "snapshot", "restore")
    ):
        raise RuleTypeError(
            f"dice must be a dice source with roll, snapshot and restore (SeededDice, "
            f"LoadedDice...), not {type(dice).__name__}"
        )
    if max_rounds is not None and (
        not isinstance(max_rounds, numbers.Integral)
        or isinstance(max_rounds, bool)
        or max_rounds < 1
    ):
        raise RuleError(
            f"max_rounds must be a whole number of at least 1 (or None), not {shown(max_rounds)}"
        )
    if start is not None and not isinstance(start, (RaceState, dict)):
        raise RuleTypeError(
            f"start must be a RaceState or its JSON form (a dict), not {type(start).__name__}"
        )


def _destination_id(value: Any, what: str) -> Any:
    """A space id a player named; an unhashable one is an illegal move, not a crash."""
    try:
        hash(value)
    except TypeError:
        raise IllegalMoveError(
            f"M-1: {what} is a space id (a number or a name), not {shown(value)}; "
            "to name the path, play(to=SPACE, path=[...])"
        ) from None
    return value


def _path_ids(path: Any) -> tuple[Any, ...] | None:
    if path is None:
        return None
    if isinstance(path, (str, bytes)) or not isinstance(path, Iterable):
        raise IllegalMoveError(f"M-1: path is a list of space ids, not {shown(path)}")
    return tuple(_destination_id(space, "each space of a path") for space in path)


def _gear_number(value: Any) -> Any:
    """A gear typed as ``4`` or ``"4"`` as the number 4; anything else unchanged (G-1 refuses it)."""
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    return value


class Race:
    """A Formula D race on a track, played action by action.

    Parameters
    ----------
    track : Track or Board
        The circuit (compiled once; pass a Board to share it between races).
    cars : int or sequence of str
        Number of cars (named Blue, Red, Green...) or their names; car ``k``
        (1-based) owns box ``k`` (P-2).
    preset : str or Preset
        ``basic``, ``street``, ``advanced`` or a custom :class:`Preset`.
    seed : int, optional
        Seed of the dice (ignored when ``dice`` is given). Decision (replay):
        without a seed or dice a fresh seed is drawn and kept in
        ``race.seed``, so every race can be replayed with :meth:`replay`.
    dice : DiceSource, optional
        Injected dice, e.g. ``LoadedDice([...])``.
    laps : int, optional
        Race length (default: the preset's, one lap for ``basic`` as R-1
        says; pass ``laps=track.laps`` for the board's own default length).
    roll_grid : bool
        Roll for the grid at once (S-1); it is recorded as the first action.
    max_rounds : int, optional
        Hard cap on rounds (see :class:`~fdlab.rules.engine.Engine`).
    start : RaceState or dict, optional
        Start from this state (or its JSON form) instead of the grid, e.g. a
        position set up with :meth:`from_position`.

    Examples
    --------
    >>> from fdlab.rules.dice import LoadedDice
    >>> track = from_ascii(". . . . . . . .", grid=[1, 0], finish=7)
    >>> race = Race(track, cars=["Blue", "Red"], dice=LoadedDice([15, 4, 10, 2]))
    >>> race.current, race.legal_gears()
    ('Blue', [1])
    >>> _ = race.play(1)  # start roll 10 (normal), 1st-gear die 2
    >>> [m.destination for m in race.legal_moves()]
    [3, 2, 1]
    >>> _ = race.play(3)
    >>> race.log[-2:]
    ['Blue rolls 2', 'Blue moves 2 to space 3']
    """

    def __init__(  # noqa: PLR0913 (a race's options are keywords, read in notebooks)
        self,
        track: Track | Board,
        cars: int | Sequence[str] = 2,
        preset: str | Preset = "basic",
        *,
        seed: int | None = None,
        dice: DiceSource | None = None,
        laps: int | None = None,
        roll_grid: bool = True,
        max_rounds: int | None = None,
        start: RaceState | dict[Any, Any] | None = None,
    ) -> None:
        self.board = _board_of(track)
        self.track = self.board.track
        self.preset = _preset_of(preset, laps)
        names = _car_names(cars)
        _check_options(seed, dice, max_rounds, start)
        self.engine = Engine(self.board, self.preset, names, max_rounds=max_rounds)
        if seed is None and dice is None:
            seed = secrets.randbelow(2**32)
        self.seed = None if seed is None else int(seed)
        self.dice = make_dice(self.seed, dice)
        if isinstance(start, dict):
            start = RaceState.from_json(start)
        if start is not None:
            check_state(self.engine, start)
        self.start: RaceState = start if start is not None else self.engine.initial_state()
        self.state: RaceState = self.start
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._history: list[tuple[RaceState, Any, int]] = []
        self._named_bots: dict[tuple[int, str], Policy] = {}
        if roll_grid and self.state.phase == "grid":
            self.play(RollGrid())

    # -- reading the race -------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Car names, car 1 first."""
        return self.engine.names

    @property
    def phase(self) -> Phase:
        """``grid``, ``gear``, ``move`` or ``over``."""
        return self.state.phase

    @property
    def over(self) -> bool:
        """Every car has finished or is eliminated."""
        return self.state.over

    @property
    def current(self) -> str | None:
        """Name of the car on turn."""
        c = self.state.current
        return None if c is None else self.names[c]

    @property
    def log(self) -> list[str]:
        """Every event so far, in plain words."""
        return [e.text for e in self.events]

    def view(self) -> RaceView:
        """What the car on turn sees (for bots)."""
        return RaceView(self.engine, self.state, self.state.on_turn)

    def legal_gears(self) -> list[int]:
        """Gears the car on turn may announce."""
        return self.engine.legal_gears(self.state)

    def legal_moves(self) -> MoveList:
        """Every legal move of the car on turn, with its cost (eliminating ones marked)."""
        return MoveList(
            _legal_move(self.board, o, k) for o, k in self.engine.legal_moves(self.state)
        )

    def nitro_available(self) -> bool:
        """Street rules: nitro may be used now (X-1)."""
        return self.engine.nitro_available(self.state)

    def standings(self) -> list[dict[str, Any]]:
        """One row per car in race order: place, name, status, lap, space, gear, pools.

        ``lap`` is the lap the car is on, 1 to the race's laps (a car waiting
        behind the line on the grid is on lap 1, a finished car shows the last
        lap, never one beyond the race).

        Examples
        --------
        >>> track = from_ascii(". . . . . .", grid=[1, 0], finish=5)
        >>> Race(track, cars=["Blue", "Red"], seed=2).standings()[0]
        {'place': 1, 'car': 'Blue', 'status': 'racing', 'lap': 1, 'space': 1, 'gear': 1, 'SP': 18}
        """
        state = self.state
        board = self.board
        preset = self.preset
        rows: list[dict[str, Any]] = []
        racing = [c for c in (state.order or range(len(self.names))) if state.cars[c].racing]
        racing += [c for c in range(len(self.names)) if state.cars[c].racing and c not in racing]
        for c in list(state.finished) + racing + list(reversed(state.eliminated)):
            car = state.cars[c]
            rows.append(
                {
                    "place": len(rows) + 1,
                    "car": self.names[c],
                    "status": car.status,
                    "lap": min(max(car.lap, 1), preset.laps),
                    "space": board.ids[car.space] if car.space >= 0 else None,
                    "gear": car.gear,
                    **dict(zip(preset.pool_names, car.pools, strict=True)),
                }
            )
        return rows

    def odds(self, gear: int | None = None, *, max_damage: int = 0) -> GearOdds:
        """Exact odds for the car on turn to stop in its next corner, per legal gear.

        The result's ``odds`` are the chances of a stop at most ``max_damage``
        certain damage (:func:`fdlab.rules.odds.stop_odds`); its ``risks`` are
        the risk of each gear before the roll (:func:`fdlab.rules.odds.gear_risks`):
        the chance of being eliminated this turn, the expected SP (WP) lost
        and the corner outcome, collisions and engine rolls not counted.

        Examples
        --------
        >>> track = from_ascii(". . . . 1 1 . .", corners={1: 1}, grid=[2], finish=7)
        >>> race = Race(track, cars=1, seed=1)
        >>> print(race.odds())
        50% to stop in corner 1 in 1st
        >>> print(race.odds().risks[1].corner_words())  # with the start roll (S-2): 1 stalls
        corner 1: stops in it 38%, overshoots it 20% (by 1 space), ends short of it 38%, stalls 5%
        """
        state = self.state
        c = state.current
        if state.phase == "grid":
            raise WrongPhaseError(
                "S-1: odds are for the car on turn; roll for the grid first (play())"
            )
        if c is None:
            raise RaceOverError("S-4: odds are for the car on turn; the race is over")
        gears_in_box = self.preset.gears
        if gear is not None:
            gear = whole_number(
                gear, "G-1: the gear", low=1, high=gears_in_box, error=IllegalGearError
            )
        max_damage = whole_number(max_damage, "max_damage", low=0, error=RuleError)
        corner = target_corner(self.engine, state, c)
        gears = [gear] if gear is not None else self.legal_gears() or [state.cars[c].gear]
        table = {
            g: stop_odds(self.engine, state, c, g, corner=corner, max_damage=max_damage)
            for g in gears
        }
        risks = gear_risks(self.engine, state, c, gears, corner=corner)
        return GearOdds(
            corner=corner, car=self.names[c], odds=table, max_damage=max_damage, risks=risks
        )

    # -- playing ------------------------------------------------------------------------
    def play(
        self,
        action: Action | int | str | None = None,
        *,
        gear: int | None = None,
        to: Any = None,
        path: Sequence[Any] | None = None,
        nitro: bool = False,
    ) -> EventList:
        """Play one action and return its events.

        ``race.play(4)`` announces 4th gear in the gear phase; in the move
        phase ``race.play(17)`` moves to space 17 (the cheapest legal way).
        Keywords say it explicitly: ``play(gear=4)``, ``play(to=17, path=[...])``,
        ``play(nitro=True)``. Action objects are accepted as they are.

        Raises
        ------
        RuleError
            A subclass naming the clause when the action is illegal; the race
            is unchanged.
        """
        if action is None:
            if nitro:
                action = UseNitro()
            elif gear is not None:
                action = ChooseGear(gear)
            elif to is not None:
                action = ChooseMove(_destination_id(to, "a move's destination"), _path_ids(path))
            elif self.phase == "grid":
                action = RollGrid()
            else:
                error = RaceOverError if self.over else WrongPhaseError
                raise error(self._what_to_play())
        elif isinstance(action, ChooseMove):
            _destination_id(action.destination, "a move's destination")
            _path_ids(action.path)
        elif not isinstance(action, RollGrid | ChooseGear | UseNitro):
            if self.phase == "gear":
                action = ChooseGear(_gear_number(action))
            elif self.phase == "move":
                action = ChooseMove(
                    _destination_id(action, "a move's destination"), _path_ids(path)
                )
            elif self.over:
                raise RaceOverError(
                    f"S-4: the race is over, nothing more to play ({shown(action)})"
                )
            else:
                raise WrongPhaseError(
                    f"S-1: roll for the grid first (play() or RollGrid()); nothing to play "
                    f"with {shown(action)} before it"
                )
        snapshot = self.dice.snapshot()
        before = self.state
        try:
            state, events = self.engine.step(before, action, self.dice)
        except Exception:
            self.dice.restore(snapshot)
            raise
        self._history.append((before, snapshot, len(self.events)))
        self.state = state
        self.actions.append(action)
        self.events.extend(events)
        return EventList(events)

    def _what_to_play(self) -> str:
        """The message for ``play()`` without an action: what the car on turn may play now."""
        if self.over:
            return "S-4: the race is over; every car has finished or is out"
        if self.phase == "gear":
            return f"G-2: {self.current} announces a gear first: play one of {self.legal_gears()}"
        reach = sorted({m.destination for m in self.legal_moves()}, key=str)
        return (
            f"G-2: {self.current} rolled {self.state.roll}; play a destination space, "
            f"one of {reach}"
        )

    def play_bots(self, bots: Sequence[Seat], *, rounds: int | None = None) -> EventList:
        """Let policies play (one per car, in car order) until the race ends or ``rounds`` pass.

        A ``None`` seat is a car a person drives: the bots play until that
        car is on turn, then the race waits for :meth:`play`.

        Parameters
        ----------
        bots : sequence of Seat
            One seat per car, car 1 first: a policy, a bot's name as the race
            table takes it (``"par"``, ``"heuristic:bold"``, see
            :func:`fdlab.make_bot`), or ``None`` for a person's car. A named bot
            is made once per car and kept for the race's later calls, its own
            randomness seeded from the race's (:meth:`bot_seed`).
        rounds : int, optional
            Stop when this many more rounds have started.

        Raises
        ------
        RuleError
            When ``bots`` does not have one entry per car.
        BotSpecError
            For an unknown bot name or style.

        Examples
        --------
        >>> from fdlab.bots import HeuristicBot, RandomBot
        >>> race = Race(from_ascii(". . . . . . . .", grid=[0], finish=7), cars=1, seed=1)
        >>> _ = race.play_bots([RandomBot(2)], rounds=1)
        >>> race.state.round
        2
        >>> race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=1)
        >>> _ = race.play_bots([HeuristicBot(), None])  # Blue is a bot, Red a person
        >>> race.current, race.phase
        ('Red', 'gear')
        >>> _ = race.play(1), race.play(race.legal_moves()[0].destination)  # the person's turn
        >>> _ = race.play_bots(["lookahead:bold", None])  # a bot by name
        >>> race.current, race.phase
        ('Red', 'gear')
        """
        if rounds is not None:
            rounds = whole_number(rounds, "rounds", low=0, error=RuleError)
        stop = None if rounds is None else self.state.round + rounds
        events = EventList()
        if self.over or (stop is not None and self.state.round >= stop):
            return events
        for step in self.bot_steps(bots):
            events += step.events
            if stop is not None and self.state.round >= stop:
                break
        return events

    def bot_steps(self, bots: Sequence[Seat]) -> Iterator[RaceStep]:
        """Let policies play one action at a time; each step is recorded, then yielded.

        The steps come from :func:`~fdlab.rules.loop.iter_race` and end at
        a person's seat (``None``) or at the end of the race. Each one is
        already part of the race (its action, events and an undo point) when
        it is yielded, so a caller may stop after any step (a table showing
        the bots' moves one by one does).

        Parameters
        ----------
        bots : sequence of Seat
            One seat per car, car 1 first, as :meth:`play_bots` takes them: a
            policy, a bot's name or ``None`` for a person's car.

        Yields
        ------
        RaceStep

        Examples
        --------
        >>> from fdlab.bots import HeuristicBot
        >>> race = Race(from_ascii(" ".join(["."] * 12), grid=[0], finish=11), cars=1, seed=1)
        >>> steps = race.bot_steps([HeuristicBot()])
        >>> next(steps).action, race.actions[-1]
        (ChooseGear(gear=1), ChooseGear(gear=1))
        """
        if self.over:
            return
        policies = self._policies(bots)
        snapshot = self.dice.snapshot()
        for step in iter_race(self.engine, policies, self.dice, self.state):
            self._history.append((step.before, snapshot, len(self.events)))
            self.state = step.state
            self.actions.append(step.action)
            self.events.extend(step.events)
            yield step
            snapshot = self.dice.snapshot()

    def bot_seed(self, index: int) -> int:
        """The seed of the own randomness of the bot driving car ``index`` (0 for car 1).

        It follows from the race's seed, so a race replays exactly from its
        seed and actions whatever bots drive it (the race table seeds its
        bots the same way).

        Examples
        --------
        >>> Race(from_ascii(". . . .", grid=[1, 0], finish=3), seed=2).bot_seed(1)
        63
        """
        return (self.seed or 0) * 31 + index

    def _policies(self, bots: Sequence[Seat]) -> list[Policy | None]:
        """``bots`` with every bot's name made a policy (once per car and name, then kept).

        Names are resolved at the front door (:func:`fdlab.make_bot`, which
        imports the bots on first use): the rules never import the bots.
        """
        if isinstance(bots, str):
            raise RuleError(
                f"bots: give one seat per car ({len(self.names)}: {', '.join(self.names)}), "
                f"each a bot's name, a policy or None for a person's car; got {bots!r}"
            )
        return [
            self._named_bot(index, seat) if isinstance(seat, str) else seat
            for index, seat in enumerate(bots)
        ]

    def _named_bot(self, index: int, name: str) -> Policy:
        key = (index, name)
        if key not in self._named_bots:
            import fdlab  # the front door: the bots sit above the rules

            self._named_bots[key] = fdlab.make_bot(
                name,
                board=self.board,
                preset=self.preset,
                seed=self.bot_seed(index),
                slot=index + 1,
            )
        return self._named_bots[key]

    def history(self) -> list[tuple[RaceState, Action, list[Event]]]:
        """Every action with the state before it and the events it made, in the order played.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=1, seed=3)
        >>> _ = race.play(1)
        >>> [(before.phase, action) for before, action, _ in race.history()]
        [('grid', RollGrid()), ('gear', ChooseGear(gear=1))]
        """
        ends = [n for _, _, n in self._history[1:]] + [len(self.events)]
        return [
            (before, action, self.events[start:end])
            for (before, _, start), action, end in zip(
                self._history, self.actions, ends, strict=True
            )
        ]

    def actor(self, index: int) -> int | None:
        """The car (index) that played action number ``index``; ``None`` for the grid roll.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=3)
        >>> _ = race.play(1)  # the grid roll put Red first
        >>> race.actor(0), race.actor(1), race.names[race.actor(1)]
        (None, 1, 'Red')
        """
        last = len(self._history) - 1
        index = whole_number(
            index, "the action's number", low=0, high=max(last, 0), error=RuleError
        )
        if last < 0:
            raise WrongPhaseError(
                "S-1: no action has been played yet (a race opens with the grid roll)"
            )
        return self._history[index][0].current

    def undo_to(self, count: int) -> list[Action]:
        """Take back actions until ``count`` are left; returns them in the order played.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=1, seed=3)
        >>> _ = race.play(1); _ = race.play(race.legal_moves()[0].destination)
        >>> [type(a).__name__ for a in race.undo_to(1)]
        ['ChooseGear', 'ChooseMove']
        """
        count = whole_number(count, "count", error=RuleError)
        if not 0 <= count <= len(self.actions):
            raise WrongPhaseError(
                f"cannot go back to {count} actions: the race has {len(self.actions)}"
            )
        taken: list[Action] = []
        while len(self.actions) > count:
            taken.append(self.undo())
        return taken[::-1]

    def undo(self) -> Action:
        """Take back the last action (the dice rewind too); returns it.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[0], finish=5), cars=1, seed=3)
        >>> before = race.state
        >>> _ = race.play(1)
        >>> race.undo()
        ChooseGear(gear=1)
        >>> race.state is before
        True

        Raises
        ------
        WrongPhaseError
            When there is nothing to undo.
        """
        if not self._history:
            raise WrongPhaseError(
                "nothing to undo: no action has been played (S-1: a race opens with the grid roll)"
            )
        before, snapshot, n_events = self._history.pop()
        self.state = before
        self.dice.restore(snapshot)
        del self.events[n_events:]
        return self.actions.pop()

    @classmethod
    def from_position(
        cls,
        track: Track | Board,
        cars: dict[str, dict[Any, Any]],
        preset: str | Preset = "basic",
        *,
        order: Sequence[str] | None = None,
        **options: Any,
    ) -> Race:
        """A race starting from a position set by hand (lessons, puzzles, tests).

        Parameters
        ----------
        track : Track or Board
        cars : dict
            Car name -> ``{"space": id, "gear": n, ...}`` (any car field,
            see :meth:`fdlab.rules.engine.Engine.position`).
        preset : str or Preset
        order : sequence of str, optional
            Turn order of the first round (default: T-1..T-3).
        **options
            Other :class:`Race` parameters (``seed``, ``dice``, ``laps``...).

        Examples
        --------
        >>> from fdlab.rules.dice import LoadedDice
        >>> track = from_ascii(". . . . . . . . .", finish=8)
        >>> race = Race.from_position(track, {"Blue": {"space": 2, "gear": 4}}, dice=LoadedDice([2]))
        >>> [str(e) for e in race.play(1)]  # G-4: 4th to 1st costs 2 SP
        ['Blue loses 2 SP (G-4 drop from 4th to 1st)', 'Blue, 1st gear, rolls 2']
        """
        board = track if isinstance(track, Board) else compile_board(track)
        names = list(cars)
        preset_obj = get_preset(preset, options.pop("laps", None))
        engine = Engine(board, preset_obj, names)
        ranks = [names.index(n) for n in order] if order is not None else None
        state = engine.position([cars[n] for n in names], order=ranks)
        return cls(board, names, preset_obj, start=state, **options)

    @classmethod
    def replay(
        cls,
        track: Track | Board,
        seed: int | None,
        actions: Sequence[Action | dict[Any, Any]],
        **options: Any,
    ) -> Race:
        """Play ``actions`` again from ``seed``: the same race, roll for roll.

        ``options`` are the other :class:`Race` parameters (cars, preset,
        laps...). Actions may be given in their JSON form.

        Examples
        --------
        >>> from fdlab.bots import HeuristicBot
        >>> track = from_ascii(". . . . . . . .", grid=[1, 0], finish=7)
        >>> race = Race(track, cars=2, seed=9)
        >>> _ = race.play_bots([HeuristicBot(), HeuristicBot()])
        >>> again = Race.replay(track, 9, [a.to_json() for a in race.actions], cars=2)
        >>> again.state == race.state
        True
        """
        from fdlab.rules.actions import action_from_json

        race = cls(track, seed=seed, roll_grid=False, **options)
        for action in actions:
            race.play(action_from_json(action) if isinstance(action, dict) else action)
        return race

    # -- display ----------------------------------------------------------------------
    def __repr__(self) -> str:
        where = f"round {self.state.round}, {self.current} to play" if not self.over else "over"
        laps = f"{self.preset.laps} lap" + ("s" if self.preset.laps > 1 else "")
        return (
            f"<Race on {self.track.name!r}, {self.preset.name} rules, {laps}, "
            f"{len(self.names)} cars: {where}>"
        )

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import race_html

        return race_html(self)
