"""A race table shared across computers: one append-only game log that every player reaches.

Several people, each in their own notebook (their own kernel, on one
Jupyter server or on several computers that see one shared folder), play
one race. The race lives in one file, the *shared game log*, and in nothing
else: every kernel replays the log on a :class:`TableController` of its own
and appends to it what its player does. Nothing is sent between kernels;
reading the file is how a player sees the others' moves (the race table
reads it twice a second: :mod:`fdlab.table.shared_widget`).

The file
--------
Line 1 is the header: ``{"format": "fdlab-shared-race", "version": 1,
"game": GAME}`` where ``GAME`` is what a game file holds to start the race
(board, rules, laps, seed, cars, seats, with the digest of each:
:func:`fdlab.table.game_file.game_to_dict`, checked and replayed by
:func:`~fdlab.table.game_file.game_from_dict`). Every other line is one
record, a JSON object on one line::

    {"seq": 1, "kind": "claim", "seat": 0, "by": "Ana"}
    {"seq": 2, "kind": "action", "seat": null, "by": "Ana", "action": {"grid": true}}
    {"seq": 3, "kind": "action", "seat": 2, "by": "Ben", "action": {"gear": 1}}
    {"seq": 4, "kind": "release", "seat": 0, "by": "Ana"}

``seq`` numbers the records 1, 2, 3... in order; ``kind`` is ``action`` (a
move of the race, as a game file writes it; ``seat`` is the car that plays
it, ``null`` for the grid roll), ``claim`` (``by`` takes a person's seat) or
``release`` (``by`` leaves it); ``by`` is the player who wrote the record.
A bot's action is written by whichever player's kernel played it first
(Ben's, above, for car 3's bot).

What the log guarantees
-----------------------
*Compare-and-append.* A record is written under a file lock (the
``filelock`` package, a ``.lock`` file beside the log), after reading every
record before it, as number last + 1 (the log itself, its header,
numbering, lock and reading, is :class:`fdlab.shared_log.SharedLog`, as for
Formula Fun's shared games; this module says what a record means). An
action also carries the position it was decided on: if another action
landed since the player's view was drawn, it is refused
(:class:`~fdlab.table.errors.StaleTableError`, "Ana rolled for the grid
before you: ..."), the table reads the log and shows the race as it is,
and the player decides again on what they see. So when
two click at once, one action lands, the other is refused and says why:
none is lost without a word, none is played twice. Claims are checked on
the latest log: a seat claimed by two at once goes to the first, and the
second is told who has it.

*Bots once.* A bot's seat is played by every player's kernel at once, and
the first append wins: the others are refused (quietly) and replay it. The
bots' choices follow from the race's seed and the position
(:meth:`Race.bot_seed <fdlab.rules.race.Race.bot_seed>`), so whoever plays
a bot plays the same move, and a bot's move is written once.

*Seats.* A person's seat belongs to one player name; only that player acts
for it, and only on its turn (an action out of turn is refused naming
T-1). Claiming a seat someone holds is refused, naming them; claiming
one's own seat again is allowed and writes nothing: a player who closed
the tab joins again under the same name and finds the race where it is,
their seats still theirs. The grid roll (S-1) is made by
any player holding a seat. Names are how players tell each other apart,
not a password: anyone who can write the file can write any name.

*No undo.* A shared race is not taken back: every player has seen the move
and the dice that followed it, and the log only grows. (Taking back one's
own last action while nobody has acted since would be possible; a teacher
who wants it can save the game, :func:`~fdlab.table.game_file.save_game`,
and share the loaded game again.)

*Reading.* Reading executes nothing: each line goes through
:func:`fdlab.untrusted.parse_json`, each field is checked, each claim
against the seats, each action against the turn and its seat's owner and
replayed through the checked engine. A line that fails is one
:class:`~fdlab.table.errors.SharedLogError` naming the file and the line.
A last line without its newline is a record still being written, and is
read once it is whole (a writer killed in the middle of a line leaves
one: the next writer, under the lock, cuts it off).

*Where.* The lock is an operating-system lock (``flock``): it holds between
the kernels of one Jupyter server and on a shared folder whose file system
has locks that work between computers (NFS, SMB). A folder copied between
computers by a sync service (Dropbox...) has no such lock: do not share a
race through one.

Examples
--------
>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "race.log"
>>> track = sprint()
>>> _ = SharedTable.create(path, track, cars=["Blue", "Red"], seats=["person", "heuristic"],
...                        seed=4)
>>> ana = SharedTable.join(path, player="Ana")
>>> ana.claim("Blue")
>>> ana.roll_grid()  # S-1
>>> ben = SharedTable.join(path, player="Ben")  # another kernel, another computer
>>> ben.owner(0), ben.race.phase, ben.prompt()
('Ana', 'gear', 'Blue (Ana) is deciding')
>>> ana.prompt(), ana.my_turn, ben.my_turn
('Blue (Ana): make the start roll', True, False)
>>> ben.claim("Blue")
Traceback (most recent call last):
...
fdlab.table.errors.SeatError: Blue is taken by Ana: take a free seat, or ask Ana to leave it
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from fdlab.rules.actions import Action, ChooseGear, ChooseMove, RollGrid, UseNitro
from fdlab.rules.presets import ordinal
from fdlab.rules.race import Race
from fdlab.shared_log import (
    LOCK_TIMEOUT,
    RECORD_KINDS,
    GameLogError,
    SharedLog,
    _path_of,
    name_problem,
)
from fdlab.table.controller import PERSON, TableController
from fdlab.table.errors import (
    GameFileError,
    NotYourTurnError,
    SeatError,
    SharedLogError,
    StaleTableError,
    TableError,
    TableTypeError,
)
from fdlab.table.game_file import MAX_FILE_BYTES, _action, _shown, game_from_dict, game_to_dict

__all__ = ["FORMAT", "KINDS", "MAX_RECORD_BYTES", "VERSION", "SharedTable"]

#: The ``format`` of a shared game log's header.
FORMAT = "fdlab-shared-race"
#: The version of the layout written and read.
VERSION = 1
#: The kinds of record after the header (every shared log's).
KINDS = RECORD_KINDS
#: The longest record line (a move's path is a few dozen spaces: a record is under 1 kB).
MAX_RECORD_BYTES = 64 * 1024

_ERRORS = (ValueError, TypeError, LookupError, ArithmeticError)
_HINTS = {
    "fdlab-game": " (a game file: load it with fdlab.table.load_game)",
    "fdlab-shared-fun": " (a shared Formula Fun game: join it with fdlab.fun.FunTable.join)",
}
_EXISTS = (
    "join its race with SharedTable.join(path, player=...), or start the new race in another file"
)


class SharedTable:
    """One player's view of a race shared through a game log (see the module's documentation).

    Use :meth:`create` to start a shared race and :meth:`join` (or the
    constructor) to take part in one: the log is read and replayed at once.

    Parameters
    ----------
    path : str or os.PathLike
        The shared game log.
    player : str
        This player's name (1 to 40 printable characters), as the others see it.
    lock_timeout : float
        How long a write waits for the file lock, in seconds (a table in a
        notebook waits a quarter of a second, never blocking the page).
    background : bool
        Make the bots whose board must be solved first (``par``) in a worker
        thread, so joining returns at once (a race table in a notebook does);
        such a bot's first move waits for its solve
        (:meth:`TableController.bot_waiting
        <fdlab.table.controller.TableController.bot_waiting>`).

    Attributes
    ----------
    controller : TableController
        The race as the log has it, replayed here (never played on directly).
    owners : list of str or None
        Per car, the player holding its seat (None: free, or a bot's seat).
    log : SharedLog
        The file (:mod:`fdlab.shared_log`).

    Raises
    ------
    SharedLogError
        When the file cannot be read or a line does not check out.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        player: str,
        *,
        lock_timeout: float = LOCK_TIMEOUT,
        background: bool = False,
    ) -> None:
        _path_of(path, error=TableTypeError)
        problem = _name_problem(player)
        if problem:
            raise SeatError(f"player: {problem}")
        self.player = player
        self.log = SharedLog(path, **_log_options(lock_timeout=lock_timeout))
        self.path, self.source = self.log.path, self.log.source
        #: (actions in the race after it, what it did) of the last action records read
        self._landed: list[tuple[int, str]] = []
        self.controller = self._start(self.log.header, background)
        self.owners: list[str | None] = [None] * len(self.race.names)
        self.log.read_new(self._apply)

    # -- making and joining ----------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        track: Any,
        cars: int | Sequence[str] = 2,
        seats: Sequence[str] | None = None,
        *,
        preset: str = "basic",
        seed: int | None = None,
        laps: int | None = None,
        player: str = "host",
    ) -> SharedTable:
        """Start a shared race in a new file; returns it joined as ``player``.

        Parameters
        ----------
        path : str or os.PathLike
            The new game log (refused if the file exists).
        track : Track or Board
        cars : int or sequence of str
            As :class:`~fdlab.rules.race.Race` takes them.
        seats : sequence of str, optional
            One per car: ``"person"`` for a seat a player takes, or a bot by
            name (``"heuristic"``, ``"lookahead:bold"``...). Default: every
            car a person's.
        preset, seed, laps
            As :class:`~fdlab.rules.race.Race` takes them (a random seed by
            default). The grid is not rolled yet: that is the first action.
        player : str
            Who this object plays as (the creator need not take a seat).

        Raises
        ------
        SharedLogError
            When the file exists or cannot be written.
        SeatError, GameFileError
            For seats that are not a person or a bot by name.
        """
        _path_of(path, error=TableTypeError)
        race = Race(track, cars=cars, preset=preset, seed=seed, laps=laps, roll_grid=False)
        names = race.names
        table = TableController(race, [PERSON] * len(names) if seats is None else seats)
        SharedLog.create(path, {"game": game_to_dict(table)}, exists=_EXISTS, **_log_options())
        return cls(path, player)

    @classmethod
    def join(
        cls,
        path: str | os.PathLike[str],
        player: str,
        *,
        lock_timeout: float = LOCK_TIMEOUT,
        background: bool = False,
    ) -> SharedTable:
        """Take part in the shared race in ``path`` as ``player`` (read and replayed at once).

        Joining again under the same name (after closing the tab, in another
        notebook) finds the race where it is, with the player's seats.
        """
        return cls(path, player, lock_timeout=lock_timeout, background=background)

    # -- what there is to see --------------------------------------------------------
    @property
    def seq(self) -> int:
        """How many records have been read (or written) here."""
        return self.log.seq

    @property
    def lock_timeout(self) -> float:
        """How long a write waits for the file lock, in seconds (settable)."""
        return self.log.lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, seconds: float) -> None:
        self.log.lock_timeout = float(seconds)

    @property
    def race(self) -> Race:
        """The race as the log has it."""
        return self.controller.race

    def owner(self, seat: int | str) -> str | None:
        """The player holding car ``seat``'s seat (an index or a car's name), or None."""
        return self.owners[self._seat(seat)]

    @property
    def mine(self) -> list[int]:
        """The cars this player drives."""
        return [k for k, owner in enumerate(self.owners) if owner == self.player]

    def free_seats(self) -> list[int]:
        """The person's seats nobody holds."""
        seats = self.controller.seats
        return [k for k, o in enumerate(self.owners) if o is None and seats[k] == PERSON]

    @property
    def my_turn(self) -> bool:
        """This player decides now (the grid roll: any player holding a seat)."""
        return self._problem("action", self.race.state.current, self.player, person=True) is None

    @property
    def bots_to_play(self) -> bool:
        """A bot is on turn (or rolls for the grid, when no car is a person's)."""
        return self.controller.bots_to_play

    def seat_label(self, seat: int) -> str:
        """Who drives car ``seat``: its player (``Ana (you)``), ``free seat`` or the bot.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "race.log"
        >>> table = SharedTable.create(path, from_ascii(". . . . . .", grid=[1, 0], finish=5),
        ...                            seats=["person", "heuristic"], seed=1, player="Ana")
        >>> table.claim(0)
        >>> table.seat_label(0), table.seat_label(1)
        ('Ana (you)', 'heuristic')
        """
        if self.controller.seats[seat] != PERSON:
            return self.controller.seat_label(seat)
        owner = self.owners[seat]
        if owner is None:
            return "free seat"
        return f"{owner} (you)" if owner == self.player else owner

    def prompt(self) -> str:
        """What the table waits for, naming who decides."""
        c, race = self.controller, self.race
        current = race.state.current
        if race.over:
            return c.prompt()
        if current is None:
            if c.people and not self.mine:
                return "Roll for the grid: a player holding a seat rolls"
            return c.prompt()
        name = race.names[current]
        if c.seats[current] != PERSON:
            return f"{name} ({c.seat_label(current)}) is playing"
        owner = self.owners[current]
        if owner is None:
            return f"{name} (free seat): waiting for a player to take the seat"
        if owner != self.player:
            return f"{name} ({owner}) is deciding"
        return c.prompt().replace(f"{name} ({PERSON})", f"{name} ({owner})", 1)

    # -- reading ---------------------------------------------------------------------
    def sync(self) -> bool:
        """Read the records appended since the last read and replay them; True if any.

        Raises
        ------
        SharedLogError
            When the file is gone, was replaced, or a new line does not check out
            (the table stays at the last good record).
        """
        return bool(self.log.read_new(self._apply))

    def _start(self, header: dict[str, Any], background: bool) -> TableController:
        """The race before any record, from the header's fields."""
        extra = sorted(set(header) - {"game"})
        if extra:
            raise self.log.fail(1, f"{extra[0]}: not a field of the header (format, version, game)")
        try:
            return game_from_dict(
                header.get("game"), source=f"{self.source}: line 1: game", background=background
            )
        except GameFileError as error:
            raise SharedLogError(str(error), source=self.source, line=1) from None

    def _apply(self, line: int, record: dict[str, Any]) -> None:
        """Check one record read from the log and replay it (raising names the line)."""
        kind, seat, by, action = self._fields(record, line)
        problem = self._problem(kind, seat, by, person=False)
        if problem:
            raise self.log.fail(line, problem)
        try:
            self._do(kind, seat, by, action)
        except _ERRORS as error:
            raise self.log.fail(
                line, f"the action {_shown(record['action'])} cannot be played: {error}"
            ) from None

    def _fields(
        self, record: dict[str, Any], line: int
    ) -> tuple[str, int | None, str, Action | None]:
        """The parts of a record (a JSON object with its seq: the log checked), each checked."""
        fail = self.log.fail
        kind, by = self.log.envelope(line, record)
        seat = record["seat"]
        cars = len(self.race.names)
        if not (seat is None and kind == "action") and not (_whole(seat) and 0 <= seat < cars):
            raise fail(line, f"seat: a car, 0 to {cars - 1}, not {_shown(seat)}")
        action = None
        if kind == "action":
            action = _action(record["action"])
            if action is None:
                raise fail(line, f"action: not an action: {_shown(record['action'])}")
        return kind, seat, by, action

    def _problem(self, kind: str, seat: int | None, by: str, *, person: bool) -> str | None:
        """Why ``by`` may not write this record now (None: they may).

        ``person``: a player's own action, not a bot's played by their kernel.
        """
        c, race = self.controller, self.race
        if kind != "action":
            assert seat is not None
            name = race.names[seat]
            owner = self.owners[seat]
            if kind == "claim":
                if c.seats[seat] != PERSON:
                    return f"{name} is driven by a bot ({c.seat_label(seat)}): no player takes it"
                if owner is not None:
                    return (
                        f"{name} is taken by {owner}: take a free seat, or ask {owner} to leave it"
                    )
                return None
            return None if owner == by else f"{name} is not {by}'s seat"
        if race.over:
            return "S-4: the race is over"
        current = race.state.current
        if current is None:
            if seat is not None:
                return "the grid roll (S-1) is no car's action: its seat is null"
            if c.people and by not in self.owners:
                return f"{by} holds no seat: a player at the table rolls for the grid (S-1)"
            return None if c.people or not person else "the bots roll for the grid (S-1)"
        # T-1: the cars play in race order, each its own turn (as TableController says)
        name = race.names[current]
        if seat != current:
            return f"T-1: {name} is on turn, not car {_shown(seat)}"
        if c.seats[current] != PERSON:
            if person:
                return (
                    f"T-1: {name} is driven by a bot ({c.seat_label(current)}): it plays by itself"
                )
            return None
        owner = self.owners[current]
        if owner is None:
            return f"T-1: {name}'s seat is free: {by} takes it first (claim)"
        if owner != by:
            return f"T-1: {name} is {owner}'s seat: only {owner} plays it"
        return None

    def _do(self, kind: str, seat: int | None, by: str, action: Action | None) -> None:
        """Play a checked record here (an illegal action raises, nothing changed)."""
        if kind == "action":
            assert action is not None
            text = self._describe(seat, by, action)
            self.race.play(action)
            self._landed = [*self._landed[-30:], (len(self.race.actions), text)]
        else:
            assert seat is not None
            self.owners[seat] = by if kind == "claim" else None

    def _describe(self, seat: int | None, by: str, action: Action) -> str:
        """An action in a few words, before it is played: ``Red (Ben) chose 3rd gear``."""
        race = self.race
        if seat is None:
            return f"{by} rolled for the grid"
        name = race.names[seat]
        who = by if self.controller.seats[seat] == PERSON else self.controller.seat_label(seat)
        if isinstance(action, ChooseGear):
            started = race.state.cars[seat].started
            what = f"chose {ordinal(action.gear)} gear" if started else "made the start roll"
        elif isinstance(action, UseNitro):
            what = "used nitro"
        elif isinstance(action, ChooseMove):
            what = f"moved to {action.destination}"
        else:
            what = "played"
        return f"{name} ({who}) {what}"

    # -- writing ---------------------------------------------------------------------
    def _append(self, kind: str, seat: int | None, action: Action | None, *, person: bool) -> None:
        """Write one record as number seq + 1 (inside ``log.locked``: the log read to its end)."""
        problem = self._problem(kind, seat, self.player, person=person)
        if problem:
            raise (NotYourTurnError if kind == "action" else SeatError)(problem)
        record: dict[str, Any] = {"kind": kind, "seat": seat, "by": self.player}
        if action is not None:
            record["action"] = action.to_json()
        actions, owners, landed = len(self.race.actions), list(self.owners), self._landed
        self._do(kind, seat, self.player, action)  # an illegal action raises (with its clause)
        try:
            self.log.append(record)
        except GameLogError:  # nothing written: nothing played
            if len(self.race.actions) > actions:
                self.race.undo_to(actions)
            self.owners, self._landed = owners, landed
            raise

    def claim(self, seat: int | str) -> None:
        """Take car ``seat``'s seat (its index or name); one's own seat again is allowed.

        Raises
        ------
        SeatError
            When another player holds it, or a bot drives the car.
        """
        k = self._seat(seat)
        with self.log.locked(self._apply):
            if self.owners[k] == self.player:
                return
            self._append("claim", k, None, person=True)

    def release(self, seat: int | str) -> None:
        """Leave car ``seat``'s seat: another player may take it."""
        k = self._seat(seat)
        with self.log.locked(self._apply):
            self._append("release", k, None, person=True)

    def act(self, action: Action, *, seen: int | None = None) -> None:
        """Play ``action`` for this player's car on turn (or roll for the grid).

        Parameters
        ----------
        action : Action
            ``RollGrid()``, ``ChooseGear(n)``, ``UseNitro()`` or ``ChooseMove(...)``.
        seen : int, optional
            How many actions the race had when the player decided (default:
            as many as it has here now).

        Raises
        ------
        StaleTableError
            When another action landed in the log since: the table has read
            it and shows the race as it is now; nothing was played.
        NotYourTurnError
            When the car on turn is not this player's.
        RuleError
            When the rules refuse the action (naming the clause).
        """
        if not isinstance(action, RollGrid | ChooseGear | UseNitro | ChooseMove):
            raise TableTypeError(
                f"action: RollGrid, ChooseGear, UseNitro or ChooseMove, not {action!r}"
            )
        seen = len(self.race.actions) if seen is None else seen
        problem = self._problem("action", self.race.state.current, self.player, person=True)
        if problem and len(self.race.actions) == seen:  # on what the player sees
            raise NotYourTurnError(problem)
        self._commit(action, seen, person=True)

    def _commit(self, action: Action, seen: int, *, person: bool) -> None:
        with self.log.locked(self._apply):
            self._up_to_date(seen)
            self._append("action", self.race.state.current, action, person=person)

    def _up_to_date(self, seen: int | None) -> None:
        """Refuse an action decided on a race that has moved on since (``seen`` actions)."""
        if seen is None or seen == len(self.race.actions):
            return
        landed = [text for count, text in self._landed if count > seen]
        raise StaleTableError(_stale(landed or ["another action landed"]))

    def play_bot(self) -> bool:
        """Play the next bot action if a bot is on turn; True if this player's kernel wrote it.

        The bot decides on the race as read now; if another player's kernel
        wrote an action first, this one is dropped (and the log replayed).
        """
        self.sync()
        c = self.controller
        waiting = c.bot_waiting()
        if not c.bots_to_play or (waiting is not None and not waiting.ready):
            return False  # a bot still being made plays once its board is solved
        count = len(self.race.actions)
        step = next(c.bot_steps(), None)  # one step; the generator is dropped at once
        if step is None:
            return False
        self.race.undo_to(count)  # played again from the log's record, once it is written
        try:
            self._commit(step.action, count, person=False)
        except StaleTableError:
            return False
        return True

    def play_bots(self) -> int:
        """Play the bots until a person is on turn or the race ends; returns how many were written.

        (For scripts and tests; the race table plays them at its pace.)
        """
        written = 0
        while self.bots_to_play:
            waiting = self.controller.bot_waiting()
            if waiting is not None:
                waiting.wait()  # a bot made in the background: its board solved first
            written += self.play_bot()
        return written

    # -- a person's decisions, as TableController names them --------------------------
    # ``seen``: how many actions the race had when the player decided (see act).
    def roll_grid(self, *, seen: int | None = None) -> None:
        """Roll for the grid (S-1); refused, naming who rolled, when it is rolled already."""
        if self.race.actions and self.race.phase != "grid" and not self.race.over:
            rolled = [text for count, text in self._landed if count == 1]
            raise StaleTableError(_stale(rolled or ["S-1: the grid was rolled"]))
        self.act(RollGrid(), seen=seen)

    def choose_gear(self, gear: int, *, seen: int | None = None) -> None:
        """Announce ``gear`` for this player's car on turn (G-2)."""
        self.act(ChooseGear(gear), seen=seen)

    def start_roll(self, *, seen: int | None = None) -> int:
        """Make the start roll of this player's car on turn (S-2, S-3); returns the black die."""
        c = self.controller
        car = self.race.state.on_turn
        if not c.start_roll_due:
            self._up_to_date(seen)
            raise TableError("S-2: the start roll is made once, on a car's first turn")
        self.act(ChooseGear(1), seen=seen)
        made = c.start_result(car)
        if made is None:  # pragma: no cover - the engine makes it with a car's first gear
            raise TableError(f"S-2: {self.race.names[car]} made no start roll")
        return made[0]

    def choose_move(self, destination: Any, *, seen: int | None = None) -> None:
        """Move to ``destination`` the cheapest legal way, as the table shows it (M-7)."""
        for choice in self.controller.move_choices():
            if choice.destination == destination:
                move = choice.move
                self.act(ChooseMove(move.destination, move.path, move.moved), seen=seen)
                return
        self.act(ChooseMove(destination), seen=seen)

    def use_nitro(self, *, seen: int | None = None) -> None:
        """Add the nitro bonus to this roll (X-1)."""
        self.act(UseNitro(), seen=seen)

    def into_box(self, *, seen: int | None = None) -> None:
        """Drive into the car's own box (P-2)."""
        move = self.controller.box_move()
        if move is None:
            self._up_to_date(seen)
            raise TableError("P-2: no move into the box now (the pit lane is open between laps)")
        self.act(ChooseMove(move.destination, move.path, move.moved), seen=seen)

    def undo(self) -> None:
        """Refused: a shared race is not taken back (see the module's documentation)."""
        raise TableError(
            "a shared race is not taken back: every player has seen the move and its dice, "
            "and the game log only grows"
        )

    # -- helpers ---------------------------------------------------------------------
    def _seat(self, seat: int | str) -> int:
        names = self.race.names
        if isinstance(seat, str) and seat in names:
            return names.index(seat)
        if _whole(seat) and 0 <= int(seat) < len(names):
            return int(seat)
        raise SeatError(
            f"no car {seat!r} at this table: a car's name ({', '.join(names)}) or 0 to "
            f"{len(names) - 1}"
        )

    def __repr__(self) -> str:
        return (
            f"<SharedTable {self.source!r} as {self.player!r}: {self.race!r}, {self.seq} records>"
        )


def _stale(landed: list[str]) -> str:
    """Why an action was not played: what landed in the log first."""
    return (
        f"{'; '.join(landed[-3:])} before you: your action was not played; the table now "
        "shows the race as it is"
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _log_options(**options: Any) -> dict[str, Any]:
    """How the race table's log is read: its format, limits, errors and quoting (JSON)."""
    return {
        "format": FORMAT, "version": VERSION, "max_bytes": MAX_FILE_BYTES,
        "max_record_bytes": MAX_RECORD_BYTES, "hints": _HINTS, "error": SharedLogError,
        "busy_error": SharedLogError, "quote": _shown, **options,
    }  # fmt: skip


def _name_problem(name: Any) -> str | None:
    """What is wrong with a player's name (:func:`fdlab.shared_log.name_problem`), or None.

    Examples
    --------
    >>> _name_problem("Ana"), _name_problem(" Ana")
    (None, "a player's name has no spaces around it: ' Ana'")
    """
    return name_problem(name, _shown)
