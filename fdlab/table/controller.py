"""The race table's logic, in plain Python: seats, turns, choices, undo and redo.

:class:`TableController` wraps a :class:`~fdlab.rules.race.Race` with a seat
per car, a person or a bot, and says what the car on turn may do in terms a
table shows: gear choices with their cost and odds, the die, the
destinations with their cost, and the buttons that apply (grid roll, nitro,
into the box). Bots play through :meth:`Race.bot_steps
<fdlab.rules.race.Race.bot_steps>`, the race loop of
:func:`fdlab.rules.loop.iter_race`, one step at a time if the caller wants
to show them one by one. The widget (:mod:`fdlab.table.widget`) is a thin
view over it, so all of this is tested without a browser.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeGuard

from fdlab.rules.actions import Action, ChooseGear, ChooseMove, RollGrid, UseNitro
from fdlab.rules.loop import RaceStep
from fdlab.rules.odds import ContactRisk, GearRisk, amount, contact_risk, percent
from fdlab.rules.policy import Policy, Seat
from fdlab.rules.presets import ordinal
from fdlab.rules.race import LegalMove, Race
from fdlab.rules.state import FINISHED, Phase
from fdlab.table.errors import NotYourTurnError, SeatError, TableError
from fdlab.track.model import SpaceId

if TYPE_CHECKING:
    from fdlab.table import solving as background

__all__ = ["CarRow", "GearChoice", "MoveChoice", "PERSON", "TableController"]

#: The seat of a car a person drives.
PERSON = "person"


@dataclass(frozen=True)
class GearChoice:
    """One gear the car on turn may announce, as a button shows it, with its risk before the roll.

    The risk figures come from :func:`fdlab.rules.odds.gear_risks`: for each
    roll of the gear's die the player is assumed to pick a move that does
    not eliminate the car if one exists, the cheapest (braking, overshoot),
    a free stop in the corner ahead first, then the farthest. Collisions
    and engine rolls (random damage) are not counted.

    Attributes
    ----------
    gear : int
    cost : str
        What announcing it costs now (``"free"``, ``"2 SP"``...; G-4, A-7).
    odds : Fraction or None
        Chance of stopping in the next corner (C-2) at no cost; None when no
        corner is ahead or none of the gears can reach it this turn.
    eliminates : bool
        The downshift alone would eliminate the car (D-2).
    start : bool
        The car's first turn: the start roll is made with it (S-2, S-3).
    elimination : Fraction
        Chance of being eliminated this turn: the downshift alone, or a roll
        whose every move eliminates the car (D-2, C-4, A-2, A-6).
    loss : Fraction
        Expected SP (advanced rules: WP, all pools) lost this turn, the
        downshift included.
    unit : str
        ``"SP"`` or ``"WP"``.
    corner : corner id or None
        The corner ahead.
    corner_outcome : str
        What the move does with it, in words: ``"corner 4: can't reach it"``,
        ``"corner 4: stops in it 40%, ..."``, ``"corner 4: certain to overshoot
        it by 3-8 spaces"``; empty when no corner is ahead or no gear can reach it
        this turn (the label then leaves the corner out).
    risk : GearRisk or None
        All of it, roll by roll (:class:`fdlab.rules.odds.GearRisk`).
    """

    gear: int
    cost: str
    odds: Fraction | None
    eliminates: bool = False
    start: bool = False
    elimination: Fraction = Fraction(0)
    loss: Fraction = Fraction(0)
    unit: str = "SP"
    corner: Any = None
    corner_outcome: str = ""
    risk: GearRisk | None = None

    @property
    def label(self) -> str:
        """The button text: ``3rd · free · stops 62%``, ``5th · free · −12 SP · overshoots``.

        Gear, start roll, the downshift's cost, the chance of being
        eliminated, the expected loss (when the move itself may cost
        something; the downshift included) and the corner outcome (left out
        when no gear can reach the corner). A certain elimination reads
        ``6th · 100% OUT``.

        Examples
        --------
        >>> from fractions import Fraction
        >>> GearChoice(3, "free", Fraction(5, 8)).label
        '3rd · free · 62% stop'
        >>> risk = GearChoice(5, "free", None, elimination=Fraction(1, 5), loss=Fraction(49, 4))
        >>> risk.label
        '5th · free · 20% OUT · −12 SP'
        >>> GearChoice(6, "free", None, elimination=Fraction(1)).label
        '6th · 100% OUT'
        """
        parts = [f"{ordinal(self.gear)}"]
        if self.start:
            parts.append("start roll")
        if self.elimination == 1 or (self.eliminates and self.risk is None):
            return " · ".join([*parts, "100% OUT" if self.elimination == 1 else "OUT"])
        parts.append(self.cost)
        if self.elimination:
            parts.append(f"{percent(self.elimination)} OUT")
        shift = self.risk.shift if self.risk is not None else 0
        if self.loss > shift:
            parts.append(f"−{amount(self.loss)} {self.unit}")
        if self.risk is not None:
            words = self.risk.short_words() if self.corner_outcome else ""
            if words:
                parts.append(words)
        elif self.odds is not None:
            parts.append(f"{float(self.odds):.0%} stop")
        return " · ".join(parts)

    @property
    def tip(self) -> str:
        """The risk in sentences, for the button's tooltip.

        Examples
        --------
        >>> from fractions import Fraction
        >>> GearChoice(3, "free", Fraction(5, 8)).tip
        '3rd gear: the shift is free. 62% chance to stop in the next corner at no cost.'
        """
        shift = "the shift is free" if self.cost == "free" else f"the shift costs {self.cost}"
        first = f"{ordinal(self.gear)} gear: {shift}"
        if self.start:
            first += "; your first turn: the start roll comes first"
        if self.risk is None:
            odds = (
                f" {float(self.odds):.0%} chance to stop in the next corner at no cost."
                if self.odds is not None
                else ""
            )
            return first + "." + odds
        body = str(self.risk).partition(": ")[2]
        return f"{first}. {body[:1].upper()}{body[1:]}"


@dataclass(frozen=True)
class MoveChoice:
    """One destination of the car on turn with the cheapest legal way there.

    Attributes
    ----------
    destination : space id
    move : LegalMove
        The move a click on the destination plays (the cheapest one, as
        ``race.play(destination)`` does).
    ways : int
        How many legal moves end there.
    contact : ContactRisk or None
        The collision check ending there brings (D-5, A-8): the cars it
        touches and the chance to lose a point, or to be eliminated, by it.
    """

    destination: SpaceId
    move: LegalMove
    ways: int
    contact: ContactRisk | None = None

    @property
    def cost(self) -> str:
        """The move's certain cost in words, marking an eliminating move, then its risk."""
        text = self.move.cost.describe()
        text = f"OUT: {text}" if self.move.eliminates else text
        return f"{text}; {self.contact}" if self.contact is not None else text

    @property
    def risky(self) -> bool:
        """Ending there brings a collision check (random damage, D-5)."""
        return self.contact is not None

    @property
    def label(self) -> str:
        """One line for the list: ``to 17 (4 spaces): no damage · touches Red: 20% to lose 1 SP``."""
        text = str(self.move) + (" · eliminates the car" if self.move.eliminates else "")
        return f"{text} · {self.contact}" if self.contact is not None else text


@dataclass(frozen=True)
class CarRow:
    """One line of the dashboard."""

    index: int
    name: str
    color: str
    seat: str
    status: str
    place: int
    lap: str
    gear: str
    pools: dict[str, int]
    stops: str
    space: SpaceId | None
    on_turn: bool


class TableController:
    """Seats and turns around a race, for people and bots.

    Parameters
    ----------
    race : Race
        The race to play (it is played in place).
    seats : sequence, optional
        One per car, car 1 first: ``"person"`` (or None) for a person, a bot
        spec (``"heuristic"``, ``"lookahead:bold"``... see
        :func:`fdlab.bots.roster.make_bot`) or a policy object. Default: a
        person in car 1 and heuristic bots in the others. Several people
        make a hot-seat race.

    Examples
    --------
    >>> track = sprint()
    >>> table = TableController(Race(track, cars=["Blue", "Red"], seed=4), ["person", "heuristic"])
    >>> table.on_turn, [choice.label for choice in table.gear_choices()]
    ('Blue', ['1st · start roll · free'])
    >>> table.choose_gear(1)
    >>> table.phase, table.die()["gear"]
    ('move', 1)
    >>> table.choose_move(table.move_choices()[0].destination)
    >>> _ = table.run_bots()  # Red, a bot, plays its turn
    >>> table.on_turn, table.can_undo
    ('Blue', True)
    >>> table.undo()  # back to Blue's move; Red's turn is taken back too
    >>> table.phase, len(table.redo_stack)
    ('move', 1)
    """

    def __init__(
        self, race: Race, seats: Sequence[Seat] | None = None, *, background: bool = False
    ) -> None:
        self.race = race
        n = len(race.names)
        if seats is None:
            seats = [PERSON] + ["heuristic"] * (n - 1)
        if isinstance(seats, str) or len(seats) != n:
            raise SeatError(
                f"seats: give one seat per car ({n}: {', '.join(race.names)}), each "
                f"'person' or a bot such as 'heuristic' or 'lookahead:bold'; got {seats!r}"
            )
        #: One per car: ``"person"``, a bot's name or a policy.
        self.seats: list[Policy | str] = [PERSON if s is None else s for s in seats]
        #: One per car: the policy that drives it, ``None`` for a person's car.
        #: (With ``background``, a bot whose board must be solved first is made in a
        #: worker thread: :meth:`bot_waiting`, as :meth:`set_seat` does.)
        self.policies = [self._policy(k, seat, background) for k, seat in enumerate(self.seats)]
        self.redo_stack: list[list[Action]] = []
        self._grid_rolled_here = False

    def _policy(self, index: int, seat: Policy | str, background: bool = False) -> Policy | None:
        if seat == PERSON:
            return None
        if isinstance(seat, str):
            from fdlab.bots.errors import BotSpecError
            from fdlab.bots.roster import make_bot, needs_solve
            from fdlab.par.errors import SoloModelError

            # A bot's own choices come from this seed and the position it decides in
            # (RandomBot), so a saved game loaded again plays on exactly as it would have.
            board, preset, slot = self.race.board, self.race.preset, index + 1
            seed = self.race.bot_seed(index)
            try:
                if background and needs_solve(seat, board=board, preset=preset, slot=slot):
                    from fdlab.table.solving import bot_in_background

                    return bot_in_background(seat, board=board, preset=preset, seed=seed, slot=slot)
                return make_bot(seat, board=board, preset=preset, seed=seed, slot=slot)
            except (BotSpecError, SoloModelError) as error:
                name = self.race.names[index]
                raise SeatError(f"seat of {name} (car {index + 1}): {error}") from None
        if not callable(getattr(seat, "choose_gear", None)):
            raise SeatError(
                f"seat of {self.race.names[index]}: {seat!r} is neither 'person', a bot name "
                "nor a policy (an object with choose_gear and choose_move)"
            )
        return seat

    def set_seat(self, index: int, seat: Seat, *, background: bool = False) -> None:
        """Give car ``index`` another seat (a person, or a bot by name or object).

        With ``background``, a bot that needs its board solved first (``par``,
        ``solo``) is made in a worker thread and the call returns at once
        (:mod:`fdlab.table.solving`); the race goes on, and the bot's first
        decision waits for what is left of the solve (:attr:`solving` names
        the cars still waiting). A wrong name is refused at once either way.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=1)
        >>> table = TableController(race, ["person", "person"])
        >>> table.set_seat(1, "random")
        >>> table.people
        [0]
        >>> table.set_seat(0, "par", background=True)
        >>> table.bot_waiting() is None or table.bot_waiting().wait() is not None
        True
        """
        if not (isinstance(index, int) and not isinstance(index, bool)) or not (
            0 <= index < len(self.seats)
        ):
            raise SeatError(f"no car {index!r} at this table: cars are 0 to {len(self.seats) - 1}")
        seat = PERSON if seat is None else seat
        policy = self._policy(index, seat, background)
        self.seats[index] = seat
        self.policies[index] = policy

    def seat_choices(self) -> list[str]:
        """The seats a menu offers: a person, then every bot of the roster in every style.

        From :func:`fdlab.bots.roster.bot_specs`, only the bots that can drive
        under this race's rules, so a bot added to the roster is offered too.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), preset="advanced", seed=1)
        >>> choices = TableController(race, ["person", "person"]).seat_choices()
        >>> choices[:3], "lookahead:reckless" in choices, "solo" in choices
        (['person', 'par', 'par:cautious'], True, False)
        """
        from fdlab.bots.roster import bot_specs

        return [PERSON, *bot_specs(self.race.preset)]

    # -- who plays ------------------------------------------------------------------
    @property
    def people(self) -> list[int]:
        """Indices of the cars people drive."""
        return [k for k, policy in enumerate(self.policies) if policy is None]

    def seat_label(self, index: int) -> str:
        """``person`` or the bot's name and style.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=1)
        >>> TableController(race, [None, "lookahead:0.8"]).seat_label(1)
        'lookahead:bold'
        """
        from fdlab.bots.roster import bot_label

        seat = self.seats[index]
        return PERSON if seat == PERSON else bot_label(seat)

    @property
    def phase(self) -> Phase:
        """``grid``, ``gear``, ``move`` or ``over``."""
        return self.race.phase

    @property
    def on_turn(self) -> str | None:
        """Name of the car on turn (None at the grid roll and when the race is over)."""
        return self.race.current

    @property
    def person_on_turn(self) -> bool:
        """A person decides now (the grid roll counts when any seat is a person's)."""
        if self.race.over:
            return False
        current = self.race.state.current
        if current is None:
            return bool(self.people)
        return self.policies[current] is None

    @property
    def solving(self) -> list[str]:
        """Names of the cars whose bot waits for its board to be solved (in the background).

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=1)
        >>> TableController(race, ["person", "heuristic"]).solving
        []
        """
        return [self.race.names[k] for k, policy in enumerate(self.policies) if _pending(policy)]

    def bot_waiting(self) -> background.PendingBot | None:
        """The bot on turn, if it is still being made in the background (else ``None``).

        A notebook awaits it (``asyncio.wrap_future(bot.future)``) before the
        next bot step, so the page stays live while the board is solved.
        """
        current = self.race.state.current
        if current is None or self.race.over:
            return None
        policy = self.policies[current]
        return policy if _pending(policy) else None

    @property
    def bots_to_play(self) -> bool:
        """The race waits for bots: not over and no person is on turn."""
        return not self.race.over and not self.person_on_turn

    def bot_steps(self) -> Iterator[RaceStep]:
        """The bots' actions one at a time, until a person is on turn or the race ends.

        Each step is already played when it is yielded. Playing anything
        clears the redo stack.
        """
        if self.bots_to_play:
            self.redo_stack.clear()
            yield from self.race.bot_steps(self.policies)

    def run_bots(self) -> list[RaceStep]:
        """Let the bots play until a person is on turn or the race ends; returns their steps."""
        return list(self.bot_steps())

    # -- what the car on turn may do -------------------------------------------------
    def gear_choices(self) -> list[GearChoice]:
        """The legal gears of the car on turn, each with its cost, odds and risk (G-3..G-5).

        The risk before the roll (:func:`fdlab.rules.odds.gear_risks`): the
        chance of being eliminated this turn, the expected SP (WP) lost and
        what the move does with the corner ahead, for a careful player;
        collisions and engine rolls are not counted.

        Examples
        --------
        >>> track = from_ascii(" ".join(". . . . 1 1".split() + ["."] * 30), corners={1: 1})
        >>> race = Race.from_position(track, {"Blue": {"space": 0, "gear": 4, "pools": (3,)}})
        >>> for choice in TableController(race, ["person"]).gear_choices():
        ...     print(choice.label)
        1st · 2 SP · can't reach corner 1
        2nd · 1 SP · stops 50%
        3rd · free · 25% OUT · −1.5 SP · stops 25%
        4th · free · 83% OUT · −4.5 SP · overshoots
        5th · 100% OUT
        >>> print(TableController(race, ["person"]).gear_choices()[3].corner_outcome)
        corner 1: certain to overshoot it by 2-7 spaces
        """
        race = self.race
        if race.phase != "gear":
            return []
        state = race.state
        car = state.cars[state.on_turn]
        engine = race.engine
        gears = race.legal_gears()
        table = race.odds() if gears else None
        odds = table.odds if table is not None else {}
        risks = table.risks if table is not None else {}
        # no gear can stop in the corner ahead this turn: the odds would all read 0%
        corner_ahead = table is not None and table.corner is not None and any(odds.values())
        # no gear can reach it: "can't reach" on every button says nothing
        reachable = any(risk.reach for risk in risks.values())
        choices = []
        for gear in gears:
            cost = engine.downshift_cost(car, gear)
            text = ", ".join(f"{value} {pool}" for pool, value in cost.items()) or "free"
            risk = risks[gear]
            choices.append(
                GearChoice(
                    gear=gear,
                    cost=text,
                    odds=odds.get(gear) if corner_ahead else None,
                    eliminates=engine.gear_eliminates(car, gear),
                    start=not car.started,
                    elimination=risk.elimination,
                    loss=risk.loss,
                    unit=risk.unit,
                    corner=risk.corner,
                    corner_outcome=risk.corner_words() if reachable else "",
                    risk=risk,
                )
            )
        return choices

    def move_choices(self) -> list[MoveChoice]:
        """Every legal destination with the cheapest way there and its collision risk.

        The farthest first, the moves that eliminate the car last.
        """
        race = self.race
        if race.phase != "move":
            return []
        best: dict[SpaceId, LegalMove] = {}
        ways: dict[SpaceId, int] = {}
        for move in race.legal_moves():
            key = move.destination
            ways[key] = ways.get(key, 0) + 1
            known = best.get(key)
            if known is None or _cheaper(move, known):
                best[key] = move
        engine, state = race.engine, race.state
        choices = [
            MoveChoice(d, m, ways[d], contact_risk(engine, state, m.option, m.cost))
            for d, m in best.items()
        ]
        return sorted(choices, key=lambda c: (c.move.eliminates, -c.move.moved, c.move.cost.total))

    def box_move(self) -> LegalMove | None:
        """The cheapest move into the car's own box, when the pit lane is open to it (P-2)."""
        boxed = [m for m in self.race.legal_moves() if m.boxed] if self.phase == "move" else []
        return min(boxed, key=lambda m: m.cost.total) if boxed else None

    def nitro_available(self) -> bool:
        """Street rules: the car on turn may use nitro now (X-1)."""
        return self.phase == "move" and self.race.nitro_available()

    def die(self) -> dict[str, Any] | None:
        """The roll of the car on turn: gear, die faces, roll and nitro; None outside a move.

        A flying start moves without a gear die (``face`` is None then).
        """
        race = self.race
        if race.phase != "move":
            return None
        state = race.state
        car = state.cars[state.on_turn]
        die = race.preset.gear_dice[max(car.gear, 1) - 1]
        return {
            "gear": car.gear,
            "faces": f"{die.low}-{die.high}",
            "face": state.die_roll or None,
            "roll": state.roll,
            "nitro": state.nitro,
        }

    @property
    def start_roll_due(self) -> bool:
        """The car on turn has not started: its turn is the start roll (S-2, S-3).

        The car puts 1st gear in and rolls the black die; on a normal start
        the 1st-gear die follows, a stall ends the turn, a flying (rocket)
        start moves 4 spaces.
        """
        race = self.race
        if race.phase != "gear":
            return False
        return not race.state.cars[race.state.on_turn].started

    def start_roll(self) -> int:
        """Make the start roll of the car on turn (S-2, S-3); returns the black die.

        Raises
        ------
        TableError
            When the car on turn has already started.
        """
        if not self.start_roll_due:
            raise TableError("S-2: the start roll is made once, on a car's first turn")
        car = self.race.state.on_turn
        self._decide(ChooseGear(1))
        made = self.start_result(car)
        if made is None:  # the engine makes the start roll with a car's first gear
            raise TableError(f"S-2: {self.race.names[car]} made no start roll")
        return made[0]

    def start_result(self, car: int) -> tuple[int, str] | None:
        """The black die of car ``car``'s start roll and what it made (``"stalls"``...), if made.

        Examples
        --------
        >>> from fdlab.rules import LoadedDice
        >>> race = Race(from_ascii(" ".join(["."] * 9), grid=[0], finish=8), cars=1,
        ...             dice=LoadedDice([18]))
        >>> table = TableController(race, ["person"])
        >>> table.start_roll_due, table.start_roll(), table.start_result(0)
        (True, 18, (18, 'flying start, 4 spaces'))
        """
        for event in self.race.events:
            if event.kind == "start" and event.car == car:
                roll, _, outcome = event.text.partition("start roll ")[2].partition(": ")
                return int(roll), outcome
        return None

    # -- a person's decisions ------------------------------------------------------
    def roll_grid(self) -> None:
        """Roll for the grid (S-1)."""
        self._decide(RollGrid())
        self._grid_rolled_here = True

    def choose_gear(self, gear: int) -> None:
        """Announce ``gear`` for the car on turn; the engine rolls (G-2)."""
        self._decide(ChooseGear(gear))  # the engine checks it is a gear (G-1)

    def choose_move(self, destination: SpaceId) -> None:
        """Move the car on turn to ``destination`` the way :meth:`move_choices` shows (M-7).

        A space that is no legal destination is refused by the engine, which
        names the rule.
        """
        for choice in self.move_choices():
            if choice.destination == destination:
                move = choice.move
                self._decide(ChooseMove(move.destination, move.path, move.moved))
                return
        self._decide(ChooseMove(destination))

    def use_nitro(self) -> None:
        """Add the nitro bonus to this roll (X-1)."""
        self._decide(UseNitro())

    def into_box(self) -> None:
        """Drive into the car's own box (P-2)."""
        move = self.box_move()
        if move is None:
            raise TableError("P-2: no move into the box now (the pit lane is open between laps)")
        self._decide(ChooseMove(move.destination, move.path, move.moved))

    def _decide(self, action: Action) -> None:
        race = self.race
        if race.over:
            raise TableError("S-4: the race is over; every car has finished or is out")
        if not self.person_on_turn:
            who = race.current or "the grid"
            clause = "S-1" if race.phase == "grid" else "T-1"  # who plays now: grid, race order
            raise NotYourTurnError(f"{clause}: {who} is driven by a bot: let the bots play first")
        race.play(action)
        self.redo_stack.clear()

    # -- undo and redo -----------------------------------------------------------
    def _last_decision(self) -> int | None:
        """Index of the last action a person took, or None.

        The grid roll counts when a person rolled it at this table.
        """
        race = self.race
        people = set(self.people)
        for index in range(len(race.actions) - 1, -1, -1):
            actor = race.actor(index)
            if actor in people or (actor is None and self._grid_rolled_here):
                return index
        return None

    @property
    def can_undo(self) -> bool:
        """A person has decided something that can be taken back."""
        return self._last_decision() is not None

    @property
    def can_redo(self) -> bool:
        """An undone decision can be played again."""
        return bool(self.redo_stack)

    def undo(self) -> None:
        """Take back the last decision of a person, and every bot action after it.

        The race goes back to where that person decided (the dice rewind);
        :meth:`redo` plays the same actions again, roll for roll.

        Raises
        ------
        TableError
            When no person has decided anything yet.
        """
        index = self._last_decision()
        if index is None:
            raise TableError("nothing to undo: no person has decided anything yet")
        self.redo_stack.append(self.race.undo_to(index))

    def redo(self) -> None:
        """Play the last undone decision again, with the bots' actions that followed it."""
        if not self.redo_stack:
            raise TableError("nothing to redo")
        actions = self.redo_stack.pop()
        for action in actions:
            self.race.play(action)

    # -- what the table shows -----------------------------------------------------
    def dashboard(self) -> list[CarRow]:
        """One row per car, in car order: seat, status, lap, gear, pools, corner stops."""
        from fdlab.plot.colors import car_color

        race = self.race
        state = race.state
        preset = race.preset
        places = {row["car"]: row["place"] for row in race.standings()}
        rows = []
        for k, car in enumerate(state.cars):
            name = race.names[k]
            if car.status == FINISHED:
                lap = f"finished {ordinal(state.finished.index(k) + 1)}"
            elif not car.racing:
                lap = "out"
            else:
                lap = f"lap {min(max(car.lap, 1), preset.laps)} of {preset.laps}"
            corner = race.board.corner[car.space] if car.space >= 0 else None
            if corner is not None and car.racing:
                need = race.board.stops.get(corner, 0)
                # stops beyond the corner's count change nothing (C-2): "1 of 1", never "3 of 1"
                stops = f"{min(car.stops, need)} of {need} in corner {corner}"
            else:
                stops = ""
            rows.append(
                CarRow(
                    index=k,
                    name=name,
                    color=car_color(k, name),
                    seat=self.seat_label(k),
                    status=car.status,
                    place=places[name],
                    lap=lap,
                    gear="-" if car.gear == 0 else ordinal(car.gear),
                    pools=dict(zip(preset.pool_names, car.pools, strict=True)),
                    stops=stops,
                    space=race.board.ids[car.space] if car.space >= 0 else None,
                    on_turn=state.current == k,
                )
            )
        return rows

    def log(self, newest_first: bool = True) -> list[str]:
        """The race's events in plain words, newest first by default."""
        lines = self.race.log
        return lines[::-1] if newest_first else list(lines)

    def prompt(self) -> str:
        """What the table waits for, in a sentence.

        Examples
        --------
        >>> race = Race(from_ascii(". . . . . .", grid=[1, 0], finish=5), seed=1)
        >>> TableController(race, ["person", "person"]).prompt()  # Red won the grid roll
        'Red (person): make the start roll'
        """
        race = self.race
        if race.over:
            winner = race.state.finished
            return (
                f"The race is over: {race.names[winner[0]]} wins"
                if winner
                else "The race is over: no car finished"
            )
        if race.phase == "grid":
            return "Roll for the grid"
        who = f"{race.current} ({self.seat_label(race.state.on_turn)})"
        if not self.person_on_turn:
            return f"{who} is playing"
        if self.start_roll_due:
            return f"{who}: make the start roll"
        if race.phase == "gear":
            return f"{who}: choose a gear"
        roll = race.state.roll
        return f"{who}: rolled {roll}, click a highlighted space"


def _cheaper(move: LegalMove, other: LegalMove) -> bool:
    """``move`` is the better of two ways to one space: not eliminating, then cheaper."""
    return (move.eliminates, move.cost.total, move.braked) < (
        other.eliminates,
        other.cost.total,
        other.braked,
    )


def _pending(policy: Policy | None) -> TypeGuard[background.PendingBot]:
    """A bot still being made in the background."""
    from fdlab.table import solving  # the module as loaded now (doctests may load it again)

    return isinstance(policy, solving.PendingBot) and not policy.ready
