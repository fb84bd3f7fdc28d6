"""Every legal move for a roll: the movement rules M-1..M-7 and C-1..C-6.

:func:`move_options` searches once, layer by layer (one layer per space
moved), over states ``(space, lane changes used, lanes the car may not
return to, corners overshot, danger spaces crossed)`` and keeps, for each
space and history, only the states that are not dominated (fewer lane
changes and fewer forbidden lanes are never worse). Every layer is also the
set of destinations for braking by ``roll - depth`` spaces, so one pass gives
the options for every braking amount. A layer holds only a few dozen states,
so each carries its path as a tuple: extending it is cheaper in Python than
rebuilding paths from parent pointers for every option returned.

Rules, in the words of ``rules.md``:

* M-1 a move is a walk along the steps, one space per step, never backwards;
* M-2 no passing through nor ending on another car;
* M-3 at most ``max_lane_changes`` lane changes on straights (a
  ``lane_change`` step between two non-corner spaces);
* M-4 no returning to a lane left on the same straight unless, while out of
  it, the car passed a space of that lane holding a car or listed in
  ``avoid`` (street rules: danger spaces, X-3); Decision (M-4): a car
  "passed" a car in another lane when it was side by side with it (the
  track's ``beside`` contacts), which keeps the test local on boards with
  staggered lanes;
* M-5 inside corners only the board's arrows (its steps) exist;
* M-6 / X-5 a tunnel pair counts as one space and a move never ends on an
  entry portal;
* C-3 / C-5 leaving a corner without the required stops is an overshoot;
  the overshooting step and every later one may not change lane and a stop
  in a later corner does not count; Decision (C-5): a turn into the pit lane
  counts as a lane change (the car "continues in the lane it left the
  corner in");
* P-2 / P-5 / P-7 the pit lane only when ``pit_allowed``, one lane, and the
  car's own box ends the move.

:func:`move_options_for_rolls` answers several rolls (a die's faces) with one
search; :func:`fdlab.rules.explain.explain_illegal` says in words why a
destination is not among the options. :func:`check_path` (and
:func:`follow_path`, which also sums the walk up) judges one path a player
names by walking it through the search itself, allowed only the named step
at each layer: the bookkeeping above has one home, the search's inner loop
(:func:`_explore`). It is for player-named paths only, never on the hot path.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, replace
from numbers import Integral
from operator import itemgetter
from typing import Any, NamedTuple

from fdlab.rules.board import (
    STEP_BOX_IN,
    STEP_CORNER_LANE_CHANGE,
    STEP_PIT_IN,
    STEP_STRAIGHT_LANE_CHANGE,
    STEP_TUNNEL,
    Board,
)
from fdlab.rules.errors import MovementError
from fdlab.track.model import CornerId

__all__ = [
    "FREE_RUN",
    "MoveOption",
    "MoveRules",
    "MovementError",
    "OptionColumns",
    "OvershootMemo",
    "Overshoot",
    "PathCheck",
    "after_move",
    "braking",
    "check_path",
    "follow_path",
    "forget_searches",
    "move_options",
    "move_options_for_rolls",
    "option_columns",
]

#: Steps that take the car out of its lane: refused during and after an overshoot (C-5).
_LEAVES_LANE = frozenset({STEP_STRAIGHT_LANE_CHANGE, STEP_CORNER_LANE_CHANGE, STEP_PIT_IN})


@dataclass(frozen=True, slots=True)
class MoveRules:
    """What, besides the board, the start and the roll, decides which moves are legal.

    One value instead of six keyword arguments, built by the engine for the
    car on turn (:meth:`fdlab.rules.engine.Engine.move_rules`) and passed to
    :func:`move_options`, :func:`move_options_for_rolls`, :func:`check_path`,
    :func:`follow_path` and :func:`fdlab.rules.explain.explain_illegal`.

    Attributes
    ----------
    occupied : frozenset of int
        Board indices of the other cars (the start is ignored if present, M-2).
    stops_made : int
        Stops already counted in the corner of the start (ignored when the
        start is not in a corner, C-2).
    pit_allowed : bool
        The car may turn into the pit lane (P-2, P-7).
    own_box : int, optional
        Board index of the car's box; entering it ends the move (P-2).
    avoid : frozenset of int
        Spaces that justify a return to a lane like a car does (street rules:
        the danger spaces, X-3 / M-4).
    max_lane_changes : int
        Lane changes allowed on straights (M-3).
    cars_block, no_zigzag, lane_lock : bool
        M-2, M-4 and C-5 in force (always, in play); switched off one at a
        time by :func:`fdlab.rules.explain.explain_illegal` to find the rule
        that refuses a destination.

    Examples
    --------
    >>> from dataclasses import replace
    >>> rules = MoveRules(occupied=frozenset({3}), stops_made=1)
    >>> replace(rules, max_lane_changes=1).max_lane_changes
    1
    """

    occupied: frozenset[int] = frozenset()
    stops_made: int = 0
    pit_allowed: bool = False
    own_box: int | None = None
    avoid: frozenset[int] = frozenset()
    max_lane_changes: int = 2
    cars_block: bool = True
    no_zigzag: bool = True
    lane_lock: bool = True


#: The rules of a lone car on an empty board, outside a corner: the default value.
FREE_RUN = MoveRules()


class Overshoot(NamedTuple):
    """A corner left (its exit line crossed) without the required stops (C-3).

    A named tuple, like :class:`MoveOption`: options are made by the hundred
    per move list and priced with their overshoots as dictionary keys.

    Attributes
    ----------
    corner : corner id
    stops_made : int
        Stops counted in that corner before this move (0 if entered this move).
    required : int
        The corner's stop count.
    beyond : int
        Spaces moved after crossing the corner's exit line (the C-3 / A-2 cost).
    """

    corner: CornerId
    stops_made: int
    required: int
    beyond: int


class MoveOption(NamedTuple):
    """One legal way to end a move: a destination with what it costs.

    Immutable, as a named tuple: a move list holds a hundred options or more
    and is built on every turn, so options are tuples (cheap to make, hashed
    and compared in C). ``option._replace(braked=...)`` gives a variant.

    Attributes
    ----------
    destination : int
        Board index of the final space (space id: ``board.ids[destination]``).
    path : tuple of int
        One representative path: the indices entered in order, destination
        last (empty when the car stays put). Tunnel portals both appear.
    moved : int
        Spaces moved; a tunnel pair counts as one space (M-6).
    braked : int
        ``roll - moved``, or 0 when the car entered its own box (P-2).
    blocked : bool
        True when no legal path of the full roll exists and this option moves
        as far as the car can (D-4, A-6, P-5); a shorter stop is braking.
    lane_changes : int
        Lane changes on straights used by the path (M-3).
    overshoots : tuple of Overshoot
        Corners left without the required stops, in the order left (C-3).
    corners_left : tuple
        Corners left with the required stops made: their count resets (C-6).
    stop_counts : bool
        False when the destination is in a corner but, after an overshoot
        earlier in this move, the stop does not count (C-5). When it counts,
        the stop continues the start corner's count if the destination is in
        that corner and the corner is neither in ``corners_left`` nor
        overshot (the car never left it), and is the first stop otherwise.
    lines : frozenset of str
        Lines crossed by the path: ``finish``, ``police``, ``pit_entry``,
        ``pit_exit``.
    danger : tuple of int
        Danger spaces moved over or ended on (X-3), tunnel portals excluded
        (X-5).
    boxed : bool
        The move ended in the car's own box (P-2).
    """

    destination: int
    path: tuple[int, ...]
    moved: int
    braked: int
    blocked: bool
    lane_changes: int
    overshoots: tuple[Overshoot, ...]
    corners_left: tuple[Any, ...]
    stop_counts: bool
    lines: frozenset[str]
    danger: tuple[int, ...]
    boxed: bool

    def describe(self, board: Board) -> str:
        """The option in plain words, with space ids.

        Examples
        --------
        >>> board = compile_board(from_ascii(". . . ."))
        >>> print(move_options(board, 0, 2)[0].describe(board))
        to space 2 via 1, 2: moved 2
        """
        ids = board.ids
        text = f"to space {ids[self.destination]!r}"
        if self.path:
            text += " via " + ", ".join(repr(ids[i]) for i in self.path)
        text += f": moved {self.moved}"
        if self.braked:
            text += f", braked {self.braked}"
        if self.blocked:
            text += " (blocked)"
        if self.boxed:
            text += ", into the box"
        if self.lane_changes:
            text += f", {self.lane_changes} lane change(s)"
        for over in self.overshoots:
            text += (
                f", overshoot corner {over.corner!r} by {over.beyond} "
                f"({over.stops_made}/{over.required} stops)"
            )
        if self.danger:
            text += f", {len(self.danger)} danger space(s)"
        if self.lines:
            text += ", crosses " + " and ".join(sorted(self.lines))
        return text


def move_options(
    board: Board,
    start: int,
    roll: int,
    rules: MoveRules = FREE_RUN,
) -> list[MoveOption]:
    """Every legal option of a car at ``start`` for a roll, all braking amounts.

    Parameters
    ----------
    board : Board
        The compiled track (:func:`fdlab.rules.board.compile_board`).
    start : int
        Board index of the car's space.
    roll : int
        Spaces rolled (or granted, e.g. a flying start).
    rules : MoveRules
        The other cars, the stops made, the pit lane and box, the street
        rules' danger spaces and the lane-change limit (default: a lone car
        outside corners, :data:`FREE_RUN`).

    Returns
    -------
    list of MoveOption
        Distinct per (destination, moved, overshoots, number of danger
        spaces), sorted by moved (descending) then destination. ``moved=0``
        (staying put) is always among them.

    Raises
    ------
    MovementError
        For a start index not on the board or a negative roll.

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . . .
    ...     . . . .
    ... '''))
    >>> options = move_options(board, 0, 2, MoveRules(occupied=frozenset({2})))  # car on 2
    >>> [(board.ids[o.destination], o.moved, o.lane_changes) for o in options]
    [(4, 2, 2), (5, 2, 1), (3, 1, 1), (0, 0, 0)]
    """
    return list(_searched(board, start, roll, rules).options(board, roll))


def move_options_for_rolls(
    board: Board,
    start: int,
    rolls: Iterable[int],
    rules: MoveRules = FREE_RUN,
) -> dict[int, list[MoveOption]]:
    """:func:`move_options` for several rolls at once (a die's faces), with one search.

    The search does not depend on the roll until it stops, so the states
    found for the largest roll give the options of every smaller one. This
    is the one way fdlab answers "every option of every face": odds, bots
    and the solo solver all use it.

    Parameters
    ----------
    board, start, rules
        As for :func:`move_options`.
    rolls : iterable of int
        The rolls wanted (e.g. the faces of a gear's die).

    Returns
    -------
    dict
        Roll -> the list :func:`move_options` returns for it.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . ."))
    >>> car_on_3 = MoveRules(occupied=frozenset({3}))
    >>> by_roll = move_options_for_rolls(board, 0, [1, 2], car_on_3)
    >>> {roll: [(o.moved, o.blocked) for o in options] for roll, options in by_roll.items()}
    {1: [(1, False), (0, False)], 2: [(2, False), (1, False), (0, False)]}
    >>> [(o.moved, o.braked, o.blocked) for o in move_options_for_rolls(board, 0, [4], car_on_3)[4]]
    [(2, 2, True), (1, 3, False), (0, 4, False)]
    """
    wanted = sorted(set(rolls))
    if not wanted:
        return {}
    if wanted[0] < 0:
        raise MovementError(f"roll {wanted[0]} is negative; a move is 0 or more spaces")
    search = _searched(board, start, wanted[-1], rules)
    return {roll: list(search.options(board, roll)) for roll in wanted}


def braking(roll: Any, moved: Any, boxed: Any, full: Any, farthest: Any) -> tuple[Any, Any]:
    """Spaces braked and the blocked flag of an option that moved ``moved`` of ``roll``.

    The one statement of the rule (D-4, A-6, P-2): braking is ``roll - moved``,
    except into the car's own box, which ends the move at no cost. A blocked
    car first moves as far as it can (D-4, A-6): only the options that move
    ``farthest`` are blocked; stopping shorter than it could is ordinary
    braking (D-3, A-5). Decision (D-4, A-6, P-2): a roll is blocked when no
    legal path of the full roll exists (``full`` is False); entering the own
    box is never blocked. Written with arithmetic only, so it applies to
    numbers and, element by element, to numpy arrays (the solo solver's
    option tables).

    Parameters
    ----------
    roll : int
    moved : int or array of int
    boxed : bool or array of bool
    full : bool
        Some option of this roll moved all ``roll`` spaces or entered the box.
    farthest : int
        The most spaces any option of this roll moved (``roll`` when ``full``).

    Returns
    -------
    (braked, blocked)

    Examples
    --------
    >>> braking(5, 3, False, True, 5)
    (2, False)
    >>> braking(5, 2, True, False, 3)
    (0, False)
    >>> braking(5, 3, False, False, 3), braking(5, 2, False, False, 3)  # blocked at 3; 2 brakes
    ((2, True), (3, False))
    """
    braked = (roll - moved) * (1 - boxed)
    blocked = ((1 - full) * (1 - boxed) == 1) & (moved == farthest)
    return braked, blocked


def after_move(
    board: Board, start: int, stops: int, lap: int, option: MoveOption
) -> tuple[int, int]:
    """Stops made and lap counter after a move: what a move does to the car's counts.

    The one home of C-2 (a move that ends in a corner counts a stop there;
    ending in the corner it started in continues its count, even after
    moving 0 spaces), C-6 (leaving a corner resets the count), C-5 (after an
    overshoot, a stop in a later corner does not count) and the lap counter
    (S-4: crossing the finish line starts a lap). The engine and the solo
    solver both count with it.

    Parameters
    ----------
    board : Board
    start : int
        Board index the car moved from.
    stops : int
        Stops made in the corner of ``start`` before the move.
    lap : int
        Lap counter before the move.
    option : MoveOption

    Returns
    -------
    (stops, lap) : tuple of int
        ``stops`` is not capped at the corner's requirement.

    Examples
    --------
    >>> board = compile_board(from_ascii(". 1 1 .", corners={1: 2}))
    >>> stay = move_options(board, 1, 1, MoveRules(stops_made=1))[0]
    >>> after_move(board, 1, 1, 1, stay)  # one more stop in the same corner
    (2, 1)
    """
    start_corner = board.corner[start]
    dest_corner = board.corner[option.destination]
    left_start = start_corner in option.corners_left or any(
        over.corner == start_corner for over in option.overshoots
    )
    if dest_corner is None:
        new_stops = 0
    elif dest_corner == start_corner and not left_start:
        new_stops = stops + 1
    else:
        new_stops = 1 if option.stop_counts else 0
    return new_stops, lap + (1 if "finish" in option.lines else 0)


class _Search:
    """The states one search found from a start, and the option lists made from them.

    The states are let go as soon as the options of the roll searched are
    made (every smaller roll's options come from those, :func:`_rebraked`):
    freed while still in the processor's cache, not later with the search.

    It does not hold its board (the caller hands it in): :data:`_SEARCHES` is
    keyed weakly by board, and a search holding its key would keep every
    board ever searched alive.
    """

    __slots__ = ("start", "roll", "stops_made", "found", "by_roll")

    def __init__(self, board: Board, start: int, roll: int, rules: MoveRules) -> None:
        self.start = start
        self.roll = roll
        self.stops_made = rules.stops_made
        self.found: list[tuple[Any, ...]] = _explore(board, start, roll, rules)[0]
        self.by_roll: dict[int, list[MoveOption]] = {}

    def options(self, board: Board, roll: int) -> list[MoveOption]:
        """The options of ``roll`` (at most the roll searched) on ``board``, the board
        searched; shared: callers copy."""
        options = self.by_roll.get(roll)
        if options is None:
            if roll == self.roll:
                options = _options(board, self.start, roll, self.stops_made, self.found)
                self.found = []
            else:
                options = _rebraked(self.options(board, self.roll), roll)
            self.by_roll[roll] = options
        return options


#: Board -> (start, rules) -> the last search from there. A race asks the same question
#: twice in a row: a bot weighs every face of its gear's die, then the engine lists the
#: moves of the face rolled, from the same space among the same cars.
_SEARCHES: weakref.WeakKeyDictionary[Board, dict[tuple[int, MoveRules], _Search]] = (
    weakref.WeakKeyDictionary()
)

#: Searches kept per board (the oldest half is dropped when full).
_SEARCHES_KEPT = 16


def forget_searches() -> None:
    """Drop the searches kept for the move lists that follow them (benchmarks start cold).

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . ."))
    >>> first = move_options(board, 0, 2)
    >>> forget_searches()
    >>> move_options(board, 0, 2) == first  # searched again, the same options
    True
    """
    _SEARCHES.clear()


def _searched(board: Board, start: int, roll: int, rules: MoveRules) -> _Search:
    """The search from ``start`` under ``rules`` that reached ``roll``: remembered, or made."""
    if roll < 0:
        raise MovementError(f"roll {roll} is negative; a move is 0 or more spaces")
    known = _SEARCHES.get(board)
    if known is None:
        known = _SEARCHES[board] = {}
    key = (start, rules)
    try:
        search = known.get(key)
    except TypeError:  # an unhashable start: let the search name the error
        return _Search(board, start, roll, rules)
    if search is None or search.roll < roll:
        search = _Search(board, start, roll, rules)
        if len(known) >= _SEARCHES_KEPT:
            for old in list(known)[: _SEARCHES_KEPT // 2]:
                del known[old]
        known[key] = search
    return search


#: Board -> per space, its steps as the search reads them (see :func:`_edges`).
_EDGES: weakref.WeakKeyDictionary[Board, list[tuple[tuple[Any, ...], ...]]] = (
    weakref.WeakKeyDictionary()
)


def _edges(board: Board) -> list[tuple[tuple[Any, ...], ...]]:
    """Per space, each step out of it with what the search reads about its target.

    ``(target, step code, lines crossed or None, target's corner, target's
    lane, target is a danger space, target's tunnel exit or -1)``: one tuple
    per step, made once per board, so the search's inner loop reads no
    other table. Tunnel steps are left out: the search enters a tunnel
    through its exit (M-6), never by that step.
    """
    edges = _EDGES.get(board)
    if edges is None:
        lines = board.step_lines
        edges = _EDGES[board] = [
            tuple(
                (
                    j,
                    code,
                    lines.get((v, j)),
                    board.corner[j],
                    board.lane[j],
                    bool(board.danger_space[j]),
                    board.tunnel_exit[j],
                )
                for j, code in board.moves[v]
                if code != STEP_TUNNEL
            )
            for v in range(len(board.ids))
        ]
    return edges


def _explore(  # noqa: C901 (hot loop: the move search; a call per step costs 15% in benchmarks/movegen.py)
    board: Board,
    start: int,
    roll: int,
    rules: MoveRules,
    route: list[dict[int, tuple[tuple[Any, ...], ...]]] | None = None,
) -> tuple[list[tuple[Any, ...]], tuple[Any, ...] | None]:
    """Search every state reachable in at most ``roll`` spaces, layer by layer.

    The one home of the movement bookkeeping: lane changes on straights and
    the lanes a car may not return to (M-3, M-4), corners left with or
    without their stops (C-3, C-6), the lane lock after an overshoot (C-5),
    danger spaces (X-3), tunnels (M-6), the pit lane and the box (P-2, P-7).
    :func:`follow_path` judges a named path by walking it through here.

    Returns ``(found, why)``. ``found`` holds the states as ``(moved, key,
    best entry, boxed)``; the states with ``moved <= r`` are the options for
    any roll ``r <= roll``. ``why`` is the last refusal met: ``(reason,)``
    for a step refused before the car entered its target, ``(reason, lane
    changes, overshoots, danger)`` after (C-5, and a car on a tunnel's exit),
    with a key of :data:`_REFUSALS`. ``route`` (from :func:`_route`) gives,
    per layer, the one step allowed out of each space: the search then
    follows one named path and ``why`` says why it stopped early.
    ``rules.cars_block``, ``no_zigzag`` and ``lane_lock`` switch rules off
    for :mod:`fdlab.rules.explain`.
    """
    blocked_spaces, passmask = _obstacles(board, start, rules)
    start = int(start)
    stops_made, pit_allowed = rules.stops_made, rules.pit_allowed
    max_lane_changes, no_zigzag = rules.max_lane_changes, rules.no_zigzag
    lane_lock = rules.lane_lock
    own_box = -1 if rules.own_box is None else rules.own_box

    corner = board.corner
    lane = board.lane
    edges = _edges(board)
    lane_change, pit_in, box_in = STEP_STRAIGHT_LANE_CHANGE, STEP_PIT_IN, STEP_BOX_IN
    lane_locks = _LEAVES_LANE if lane_lock else frozenset()  # refused after an overshoot (C-5)
    required = board.stops
    is_danger = board.danger_space
    step_lines = board.step_lines
    start_corner = corner[start]

    def enter(
        v: int,
        j: int,
        d: int,
        left: bool,
        overs: tuple[Any, ...],
        danger: tuple[int, ...],
        forbid: int,
    ) -> tuple[bool, tuple[Any, ...], tuple[int, ...], int]:
        """Corner and zig-zag bookkeeping for stepping from v into j (C-3, C-6, M-4)."""
        cv = corner[v]
        cj = corner[j]
        if cv is not None and cj != cv:
            if cv == start_corner and not left:
                made = stops_made
                left = True
            else:
                made = 0
            need = required[cv]
            if made < need:
                overs = overs + ((cv, made, need, d),)
        if is_danger[j]:
            danger = danger + (j,)
        forbid = 0 if cj is not None else forbid & ~passmask.get(j, 0)
        return left, overs, danger, forbid

    # A layer maps a state key (space, left_start_corner, overshoots, number of
    # danger spaces) to its non-dominated entries (lane changes, forbidden lanes
    # as a bitset, path, danger spaces, lines crossed). Paths are tuples that
    # share nothing but are cheap to extend: a layer holds a few dozen states.
    layer: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = {
        (start, start_corner is None, (), 0): ((0, 0, (), (), _NO_LINES),)
    }
    found: list[tuple[Any, ...]] = []  # (moved, key, best entry, boxed)
    why: tuple[Any, ...] | None = None  # a refusal: a key of _REFUSALS, then the state
    for d in range(roll + 1):
        for key, entries in layer.items():  # each with its first entry of fewest lane changes
            best = entries[0] if len(entries) == 1 else min(entries, key=_LANE_CHANGES)
            found.append((d, key, best, False))
        if d == roll:
            break
        table = edges if route is None else route[d]
        following: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = {}
        for (v, left, overs, _), entries in layer.items():
            locked = lane_lock and bool(overs)
            cv = corner[v]
            steps = table[v]
            for lc, forbid, path, danger, lines in entries:
                for j, code, crossed, cj, lane_j, danger_j, t in steps:
                    if j in blocked_spaces:
                        why = ("car",)
                        continue
                    new_lc = lc
                    new_forbid = forbid
                    if code:  # not a plain step ahead (STEP_AHEAD is 0)
                        if code == lane_change:
                            if locked:
                                why = ("locked",)
                                continue
                            if lc >= max_lane_changes:
                                why = ("lane_limit",)
                                continue
                            if no_zigzag and forbid >> lane_j & 1:
                                why = ("zigzag",)
                                continue
                            new_lc = lc + 1
                            new_forbid = forbid | (1 << lane[v])
                        elif code == pit_in:
                            if not pit_allowed:
                                why = ("pit",)
                                continue
                        elif code == box_in:
                            if j == own_box:
                                new_lines = lines | crossed if crossed else lines
                                entry = (lc, 0, path + (j,), danger, new_lines)
                                found.append((d + 1, (j, left, overs, len(danger)), entry, True))
                            else:
                                why = ("box",)
                            continue
                    if cv is None or cj == cv:  # no corner left: the common step, inline
                        nleft, novers = left, overs
                        ndanger = danger + (j,) if danger_j else danger
                        if cj is not None:
                            new_forbid = 0
                        elif new_forbid:
                            new_forbid &= ~passmask.get(j, 0)
                    else:
                        nleft, novers, ndanger, new_forbid = enter(
                            v, j, d, left, overs, danger, new_forbid
                        )
                    if code and novers and code in lane_locks:
                        why = ("leaves_lane", new_lc, novers, ndanger)
                        continue  # C-5: no lane change while or after overshooting
                    new_lines = lines | crossed if crossed else lines
                    if t < 0:
                        here = j
                        new_path = path + (j,)
                    else:
                        if t in blocked_spaces:
                            why = ("exit_car", new_lc, novers, ndanger)
                            continue
                        nleft, novers, ndanger, new_forbid = enter(
                            j, t, d + 1, nleft, novers, ndanger, new_forbid
                        )
                        crossed = step_lines.get((j, t))
                        if crossed:
                            new_lines = new_lines | crossed
                        here = t
                        new_path = path + (j, t)
                    key = (here, nleft, novers, len(ndanger))
                    entry = (new_lc, new_forbid, new_path, ndanger, new_lines)
                    others = following.get(key)
                    if others is None:
                        following[key] = (entry,)
                    else:
                        following[key] = _insert(others, entry)
        layer = following
        if not layer:
            break
    return found, why


def _obstacles(board: Board, start: int, rules: MoveRules) -> tuple[set[int], dict[int, int]]:
    """The spaces a car may not enter (M-2) and, per space, the lanes passing it reopens (M-4).

    ``passmask[a]`` has bit ``lane`` set when a car (or an ``avoid`` space) in
    that lane is side by side with space ``a``: a car on ``a`` has overtaken
    it and may return to that lane (M-4, X-3). The start is never an
    obstacle. Raises :class:`MovementError` for a start not on the board.
    """
    n = len(board.ids)
    if not isinstance(start, int | Integral) or not 0 <= start < n:
        raise MovementError(f"start {start!r} is not a board index (0..{n - 1}) of {board!r}")
    start = int(start)
    occupied = rules.occupied
    blocked_spaces = set(occupied) if rules.cars_block else set()
    blocked_spaces.discard(start)
    lane = board.lane
    passmask: dict[int, int] = {}
    for o in set(occupied) | set(rules.avoid):
        if o == start:
            continue
        bit = 1 << lane[o]
        for a in board.abreast[o]:
            passmask[a] = passmask.get(a, 0) | bit
    return blocked_spaces, passmask


def _chosen(found: list[Any]) -> tuple[list[tuple[Any, ...]], bool]:
    """The states of a search that make its options, in the options' order, and whether
    one of them entered the car's box.

    One option per (destination, moved, overshoots, danger count), the state with
    fewest lane changes (the first found among equals); the key is also the sort
    order: moved descending, destination, danger, overshoots.
    """
    # sorted by key, found order among equals (a stable sort), then one state per key: a
    # sort of the keys' positions costs less than a dict of the keys, sorted after
    keys = [(-moved, key[0], key[3], key[2], boxed) for moved, key, _, boxed in found]
    chosen: list[tuple[Any, ...]] = []
    last = None
    for i in sorted(range(len(found)), key=keys.__getitem__):
        key = keys[i]
        item = found[i]
        if key != last:
            chosen.append(item)
            last = key
        elif item[2][0] < chosen[-1][2][0]:
            chosen[-1] = item
    return chosen, any(key[4] for key in keys)


def _overshoots(overs: tuple[Any, ...], moved: int) -> tuple[Overshoot, ...]:
    """The overshoots of a state that moved ``moved`` (each state's item: corner, stops
    made, stops required, spaces moved when its exit line was crossed)."""
    # made by the hundred: ``tuple.__new__`` builds the named tuples without the
    # Python-level ``__new__`` (same objects, a third of the time)
    new = tuple.__new__
    if len(overs) == 1:  # one or two corners overshot: without a comprehension
        ((c, made, need, at),) = overs
        return (new(Overshoot, (c, made, need, moved - at)),)
    if len(overs) == 2:
        (c, made, need, at), (c2, made2, need2, at2) = overs
        return (
            new(Overshoot, (c, made, need, moved - at)),
            new(Overshoot, (c2, made2, need2, moved - at2)),
        )
    return tuple([new(Overshoot, (c, made, need, moved - at)) for c, made, need, at in overs])


def _options(
    board: Board, start: int, roll: int, stops_made: int, found: list[Any]
) -> list[MoveOption]:
    """The options for ``roll`` from the states :func:`_explore` found searching ``roll``."""
    corner = board.corner
    start_corner = corner[start]
    corners_left: tuple[Any, ...] = ()
    if start_corner is not None and stops_made >= board.stops[start_corner]:
        corners_left = (start_corner,)
    # ``found`` is the search of this very roll, in the order found: spaces moved never
    # fall along it, so the last state moved farthest.
    farthest = found[-1][0] if found else 0
    items, any_boxed = _chosen(found)
    full = farthest == roll or any_boxed
    new = tuple.__new__  # the named tuples without the Python-level __new__ (_overshoots)
    options = []
    for moved, (v, left, overs, _), (lc, _, path, danger, lines), boxed in items:
        overshoots: tuple[Overshoot, ...]
        if not overs:
            overshoots = ()
            stop_counts = True
        else:
            overshoots = _overshoots(overs, moved)
            stop_counts = corner[v] is None
        # braking(), inlined (it is the rule's statement; this loop runs per option)
        if boxed:
            braked, blocked = 0, False
        else:
            braked, blocked = roll - moved, not full and moved == farthest
        options.append(
            new(
                MoveOption,
                (
                    v,  # destination
                    path,
                    moved,
                    braked,
                    blocked,
                    lc,  # lane_changes
                    overshoots,
                    corners_left if left else (),
                    stop_counts,
                    lines,
                    danger,
                    boxed,
                ),
            )
        )
    return options


class OptionColumns(NamedTuple):
    """The options of :func:`move_options` column by column, with what
    :func:`after_move` makes of each: for solvers that need arrays, not options.

    Attributes
    ----------
    destination, moved : list of int
    boxed : list of bool
    overshoots : list of tuple of Overshoot
    stops : list of int
        Stops made after the move (:func:`after_move` from the rules' ``stops_made``).
    laps : list of int
        1 where the move crosses the finish line, else 0 (:func:`after_move`).
    path : list of tuple of int
    lines : list of frozenset of str
    """

    destination: list[int]
    moved: list[int]
    boxed: list[bool]
    overshoots: list[tuple[Overshoot, ...]]
    stops: list[int]
    laps: list[int]
    path: list[tuple[int, ...]]
    lines: list[frozenset[str]]


class OvershootMemo(dict[tuple[tuple[Any, ...], int], tuple[Overshoot, ...]]):
    """(a search state's overshoot record, spaces moved) -> the option's overshoots.

    Made once per distinct key, and one tuple object per distinct value
    (:attr:`distinct`): a solver asks :func:`option_columns` for hundreds of
    thousands of options, most of them with overshoots it has met before.

    Examples
    --------
    >>> memo = OvershootMemo()
    >>> board = compile_board(from_ascii(". 1 1 . .", corners={1: 1}))
    >>> columns = option_columns(board, 0, 4, overshoots=memo)
    >>> columns.overshoots[0] is memo[((1, 0, 1, 2), ), 4], len(memo.distinct)
    (True, 2)
    """

    def __init__(self) -> None:
        super().__init__()
        #: Each distinct tuple of overshoots, mapped to itself.
        self.distinct: dict[tuple[Overshoot, ...], tuple[Overshoot, ...]] = {}

    def __missing__(self, key: tuple[tuple[Any, ...], int]) -> tuple[Overshoot, ...]:
        made = _overshoots(*key)
        made = self[key] = self.distinct.setdefault(made, made)
        return made

    def copy(self) -> OvershootMemo:
        """A memo holding the same entries (new ones are not shared)."""
        other = OvershootMemo()
        other.update(self)
        other.distinct.update(self.distinct)
        return other


def option_columns(
    board: Board,
    start: int,
    roll: int,
    rules: MoveRules = FREE_RUN,
    overshoots: OvershootMemo | None = None,
) -> OptionColumns:
    """:func:`move_options` as columns, in the same order, with the counts of :func:`after_move`.

    The same search as :func:`move_options`, without making an option object
    per option (a lone car's solver reads a few hundred per space): a test
    checks every column against the options and :func:`after_move`. Not
    remembered for the next call, unlike :func:`move_options`. With
    ``overshoots`` (an :class:`OvershootMemo` kept across calls) the
    overshoot column holds the memo's objects.

    Examples
    --------
    >>> board = compile_board(from_ascii(". 1 1 . .", corners={1: 1}))
    >>> columns = option_columns(board, 0, 3)
    >>> columns.destination, columns.moved, columns.stops
    ([3, 2, 1, 0], [3, 2, 1, 0], [0, 1, 1, 0])
    >>> [[o.beyond for o in overs] for overs in columns.overshoots]
    [[1], [], [], []]
    """
    if roll < 0:
        raise MovementError(f"roll {roll} is negative; a move is 0 or more spaces")
    found, _ = _explore(board, start, roll, rules)
    start = int(start)
    corner = board.corner
    start_corner = corner[start]
    stops_made = rules.stops_made
    # a state that left the start corner has it in corners_left when its stops were made
    start_done = start_corner is not None and stops_made >= board.stops[start_corner]
    items, _ = _chosen(found)
    # column by column (comprehensions: a list append per option and column costs more)
    moved_column = [item[0] for item in items]
    keys = [item[1] for item in items]
    entries = [item[2] for item in items]
    destination = [key[0] for key in keys]
    lines_column = [entry[4] for entry in entries]
    states = [(key[1], key[2]) for key in keys]  # (left the start corner, overshoot record)
    memo = OvershootMemo() if overshoots is None else overshoots
    overshoot_column = [
        memo[overs, moved] if overs else ()
        for (_, overs), moved in zip(states, moved_column, strict=True)
    ]

    # after_move(), inlined (C-2, C-6, C-5): stops made after the move
    def stops_after(v: int, left: bool, overs: tuple[Any, ...]) -> int:
        dest_corner = corner[v]
        if dest_corner is None:
            return 0
        if dest_corner == start_corner and not (
            (left and start_done) or any(over[0] == start_corner for over in overs)
        ):
            return stops_made + 1
        return 0 if overs else 1  # with overshoots stop_counts is False: a corner

    return OptionColumns(
        destination,
        moved_column,
        [item[3] for item in items],
        overshoot_column,
        [
            0 if corner[v] is None else stops_after(v, left, overs)
            for v, (left, overs) in zip(destination, states, strict=True)
        ],
        [1 if "finish" in lines else 0 for lines in lines_column],
        [entry[2] for entry in entries],
        lines_column,
    )


def _rebraked(options: list[MoveOption], roll: int) -> list[MoveOption]:
    """The options of a smaller ``roll``, from the option list of a larger one.

    Options are sorted by spaces moved, descending, and everything but the
    braking depends only on the path: the options that move at most ``roll``
    are the tail of the longer roll's list, braked again for ``roll``.
    """
    first = len(options)
    while first and options[first - 1].moved <= roll:
        first -= 1
    tail = options[first:]
    farthest = tail[0].moved if tail else 0
    full = farthest == roll or any(option.boxed for option in tail)
    new = tuple.__new__
    rebraked = []
    for option in tail:
        moved = option.moved
        # braking(), inlined as in _options (this loop runs per option of every move list)
        if option.boxed:
            braked, blocked = 0, False
        else:
            braked, blocked = roll - moved, not full and moved == farthest
        rebraked.append(new(MoveOption, (*option[:3], braked, blocked, *option[5:])))
    return rebraked


_NO_LINES: frozenset[str] = frozenset()


#: An entry's lane changes (its first item): the entries of a state are ranked by them.
_LANE_CHANGES = itemgetter(0)


def _insert(entries: tuple[Any, ...], entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """A state's entries with ``entry`` added, unless one has as few lane changes and forbidden
    lanes (dominance: then ``entries`` itself); the entries ``entry`` dominates are dropped."""
    lc, forbid = entry[0], entry[1]
    for other in entries:
        if other[0] <= lc and other[1] & ~forbid == 0:
            return entries
    return (*[e for e in entries if not (lc <= e[0] and forbid & ~e[1] == 0)], entry)


@dataclass(frozen=True)
class PathCheck:
    """One named path judged step by step (:func:`follow_path`).

    Attributes
    ----------
    reason : str or None
        None for a legal path; otherwise one sentence naming the step by
        space ids and the rule clause.
    moved : int
        Spaces moved up to the refused step (the whole path when legal); a
        tunnel pair counts as one space (M-6).
    lane_changes : int
        Lane changes on straights (M-3).
    overshoots : tuple of Overshoot
        Corners left without the required stops (C-3), as in
        :attr:`MoveOption.overshoots`.
    danger : tuple of int
        Danger spaces moved over or ended on (X-3).
    boxed : bool
        The path ends in the car's own box (P-2).
    """

    reason: str | None
    moved: int
    lane_changes: int
    overshoots: tuple[Overshoot, ...]
    danger: tuple[int, ...]
    boxed: bool


def check_path(
    board: Board,
    start: int,
    path: Iterable[int],
    rules: MoveRules = FREE_RUN,
) -> str | None:
    """Why a named path is not a legal walk from ``start``, or None when it is.

    Applies exactly the rules :func:`move_options` applies (M-1..M-6, C-3,
    C-5, P-2, P-7) to one path: ``check_path(...) is None`` exactly when the
    path is a walk the search would accept. The roll is not checked: compare
    the spaces moved (:func:`follow_path`) with it.

    Parameters
    ----------
    board, start
        As for :func:`move_options`.
    path : iterable of int
        Board indices entered in order, as in :attr:`MoveOption.path`: both
        portals of a tunnel appear, entry then exit.
    rules : MoveRules
        As for :func:`move_options`.

    Returns
    -------
    str or None
        One sentence naming the first illegal step by space ids and ending
        with the clause id, e.g. ``(M-4)``; None for a legal path.

    Raises
    ------
    MovementError
        For a start index not on the board.

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . . .
    ...     . . . .
    ... '''))
    >>> print(check_path(board, 0, [3, 4], MoveRules(occupied=frozenset({2}))))  # overtakes
    None
    >>> print(check_path(board, 0, [3, 4]))
    the step from space 3 to space 4 returns to lane 0, left earlier on this straight, without overtaking a car in it: no zig-zag on straights (M-4)
    >>> print(check_path(board, 0, [3, 4], MoveRules(max_lane_changes=1)))
    the step from space 3 to space 4 would be lane change 2 on straights; at most 1 are allowed in one move (M-3)
    """
    return follow_path(board, start, path, rules).reason


def follow_path(
    board: Board,
    start: int,
    path: Iterable[int],
    rules: MoveRules = FREE_RUN,
) -> PathCheck:
    """Judge a named path step by step and sum it up (:class:`PathCheck`).

    The path is walked through the search itself (the search allowed only
    the named step at each layer), so the bookkeeping is the search's, kept
    in one place: lane changes on straights (M-3), lanes left on this
    straight and not yet justified by passing a car or an ``avoid`` space
    abreast (M-4), corner arrows only (M-5), tunnel pairs (M-6), overshoots
    and the lane lock after them (C-3, C-5), the pit lane only when allowed
    (P-2, P-7), only the car's own box, which ends the move (P-2). Every
    rule is in force whatever ``rules.cars_block``, ``no_zigzag`` and
    ``lane_lock`` say.

    Parameters
    ----------
    board, start, path, rules
        As for :func:`check_path`.

    Returns
    -------
    PathCheck
        ``reason`` is None for a legal path.

    Examples
    --------
    >>> board = compile_board(from_ascii('''
    ...     . . . .
    ...     . . . .
    ... '''))
    >>> walk = follow_path(board, 0, [3, 4], MoveRules(occupied=frozenset({2})))
    >>> walk.reason, walk.moved, walk.lane_changes
    (None, 2, 2)
    >>> print(follow_path(board, 0, [2, 3]).reason)
    no step leads from space 2 to space 3: a path goes one step at a time along the track, never backwards nor sideways (M-1)
    """
    n = len(board.ids)
    if not isinstance(start, int | Integral) or not 0 <= start < n:
        raise MovementError(f"start {start!r} is not a board index (0..{n - 1}) of {board!r}")
    route, stop = _route(board, int(start), list(path))
    in_force = replace(rules, cars_block=True, no_zigzag=True, lane_lock=True)
    layers: list[dict[int, tuple[tuple[Any, ...], ...]]] = [{here: (edge,)} for here, edge in route]
    found, why = _explore(board, start, len(route), in_force, layers)
    moved, (_, _, overs, _), (lane_changes, _, _, danger, _), boxed = found[-1]
    reason: str | None = None
    if why is not None:  # the search refused the step out of the last state it reached
        refused, *after = why
        if after:  # refused once in the target: the summary counts the target's corner
            lane_changes, overs, danger = after
        here, (j, code, *_) = route[moved]
        reason = _refusal(board, rules, refused, here, j, code, lane_changes, overs)
    elif stop is not None:
        refused, here, j = stop
        if refused == "tunnel_step":  # summed up before the step
            moved, (_, _, overs, _), (lane_changes, _, _, danger, _), boxed = found[-2]
        elif refused == "exit_unnamed":  # the pair counts one space, never completed (M-6)
            moved -= 1
        reason = _refusal(board, rules, refused, here, j, None, lane_changes, overs)
    shots = tuple(Overshoot(c, made, need, moved - at) for c, made, need, at in overs)
    return PathCheck(reason, moved, lane_changes, shots, danger, boxed)


def _route(
    board: Board, start: int, steps: list[int]
) -> tuple[list[tuple[int, tuple[Any, ...]]], tuple[str, int, int] | None]:
    """A named path as the search's steps, up to the first step that is not one.

    Returns ``(route, stop)``: ``route`` lists ``(space, edge)`` per space
    moved, each edge as :func:`_edges` makes it (both tunnel portals are one
    edge); ``stop`` is None when the whole path became steps, else
    ``(reason, space, next space)`` with a key of :data:`_REFUSALS`. A path
    that takes a tunnel step or names no exit after an entry portal ends on
    that step, as a plain step onto it, so the search still judges what
    comes first (M-2, M-3, M-4, C-5, P-2).
    """
    edges = _edges(board)
    route: list[tuple[int, tuple[Any, ...]]] = []
    here = start
    k = 0
    while k < len(steps):
        j = steps[k]
        if route and route[-1][1][1] == STEP_BOX_IN:
            return route, ("after_box", here, j)
        edge = next((e for e in edges[here] if e[0] == j), None)
        if edge is None:
            if (j, STEP_TUNNEL) not in board.moves[here]:
                return route, ("no_step", here, j)
            plain = (j, STEP_TUNNEL, board.step_lines.get((here, j)), board.corner[j])
            route.append((here, (*plain, board.lane[j], bool(board.danger_space[j]), -1)))
            return route, ("tunnel_step", here, j)
        exit_portal = edge[6]
        if exit_portal >= 0 and (k + 1 == len(steps) or steps[k + 1] != exit_portal):
            route.append((here, (*edge[:6], -1)))
            return route, ("exit_unnamed", here, j)
        route.append((here, edge))
        here, k = (edge[0], k + 1) if exit_portal < 0 else (exit_portal, k + 2)
    return route, None


#: Why a named path stops, per reason :func:`_explore` and :func:`_route` give: one sentence
#: naming the step by space ids (``a`` to ``b``; ``t`` the tunnel exit) and the rule clause.
_REFUSALS = {
    "after_box": (
        "the path goes on after entering the car's box, space {a}: entering its own box ends "
        "the move (P-2)"
    ),
    "no_step": (
        "no step leads from space {a} to space {b}: a path goes one step at a time along the "
        "track, never backwards nor sideways (M-1)"
    ),
    "car": "space {b} holds another car: a car may not pass through nor end on a car (M-2)",
    "tunnel_step": (
        "the path takes the tunnel from space {a} without entering it there: a tunnel is "
        "entered by moving onto its entry portal (M-6)"
    ),
    "locked": (
        "the step from space {a} to space {b} changes lane after overshooting corner {over}: "
        "no lane change for the rest of the move (C-5)"
    ),
    "lane_limit": (
        "the step from space {a} to space {b} would be lane change {count} on straights; at "
        "most {most} are allowed in one move (M-3)"
    ),
    "zigzag": (
        "the step from space {a} to space {b} returns to lane {lane}, left earlier on this "
        "straight, without overtaking a car in it: no zig-zag on straights (M-4)"
    ),
    "pit": (
        "the step from space {a} to space {b} turns into the pit lane, which this car may not "
        "enter now (P-2: only between laps; P-7: not on the last lap nor from the grid)"
    ),
    "box": "space {b} is the box of car {owner}: a car may only enter its own box (P-2)",
    "leaves_lane": (
        "the step from space {a} to space {b} {leaves} while or after overshooting corner "
        "{over}: the car continues in the lane it left the corner in (C-5)"
    ),
    "exit_unnamed": (
        "space {b} is a tunnel entry: a move that reaches it continues from the exit, space "
        "{t}, which the path must name next (M-6)"
    ),
    "exit_car": (
        "space {t}, the exit of the tunnel entered at space {b}, holds another car: a car may "
        "not pass through nor end on a car (M-2)"
    ),
}


def _refusal(
    board: Board,
    rules: MoveRules,
    reason: str,
    here: int,
    j: int,
    code: int | None,
    lane_changes: int,
    overs: tuple[Any, ...],
) -> str:
    """The sentence of :data:`_REFUSALS` for the step from ``here`` to ``j``, words filled in."""
    ids = board.ids
    on_board = isinstance(j, int | Integral) and 0 <= j < len(ids)
    exit_portal = board.tunnel_exit[j] if on_board else -1
    return _REFUSALS[reason].format(
        a=repr(ids[here]),
        b=repr(ids[j]) if on_board else repr(j),
        t=repr(ids[exit_portal]) if exit_portal >= 0 else "",
        count=lane_changes + 1,
        most=rules.max_lane_changes,
        lane=board.lane[j] if on_board else None,
        owner=board.box[j] if on_board else None,
        leaves="turns into the pit lane" if code == STEP_PIT_IN else "changes lane",
        over=", ".join(f"{c!r} ({made}/{need} stops)" for c, made, need, _ in overs),
    )
