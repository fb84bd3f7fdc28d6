"""The track validator: every problem of a board at once, in plain words.

:func:`validate` runs every check in :data:`CHECKS` and returns a
:class:`ValidationReport`, a list of :class:`Problem` objects, each naming
the spaces involved so that the editor can highlight them. It is fast
enough to run after every edit (``benchmarks/validate_track.py`` measures
it on a 500-space board).

Examples
--------
>>> report = validate(from_ascii(". . .", grid=[0]), cars=1)
>>> report.ok
False
>>> print(report)
Track 'ascii board': 2 problems
- [dead_end] space 2 is a dead end: no step leads out of it
- [no_finish_line] no step crosses the finish line, so a lap can never be completed
"""

from __future__ import annotations

import html
import math
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from fdlab._text import shown as _shown
from fdlab._text import whole_at_least
from fdlab.track.corner_count import (
    CORNER_COUNT_CHECKS,
    MIN_LAP_SPACES,
    corner_count_problems,
)
from fdlab.track.corners import path_counts_near
from fdlab.track.errors import TrackError
from fdlab.track.model import TRACK_DEFAULTS, SpaceId, Track, starts_lap_again
from fdlab.track.schema import (
    CONTACT_FIELDS,
    CORNER_FIELDS,
    CORNER_ID,
    CORNER_RECORD,
    GRAPH_FIELDS,
    SPACE_FIELDS,
    STEP_FIELDS,
    Field,
    is_finite_number,
    is_int,
)

__all__ = [
    "ADVICE_CHECKS",
    "CHECKS",
    "GAIN_TOLERANCE",
    "LONG_STEP_FACTOR",
    "MAX_CARS",
    "MAX_OUTLINE_POINTS",
    "MIN_BOX_SHARE",
    "MIN_STEP_GAIN",
    "OVERLAP_TOLERANCE",
    "Problem",
    "ValidationReport",
    "validate",
]

#: Every problem code the validator reports, with what it means.
CHECKS: dict[str, str] = {
    "empty": "the board has no spaces",
    "attribute": "a space, step, corner or track attribute of the wrong type or value",
    "check_failed": "a check that could not run on this board (fix the other problems first)",
    "dead_end": "a space with no step out of it",
    "unreachable": "spaces no car can reach from the grid",
    "no_finish_line": "no step crosses the finish line",
    "lap_not_closed": "no way round from the finish line back to it",
    "cannot_finish": "spaces from which a car can never reach the finish line",
    "progress": "progress does not increase along an ahead or lane-change step",
    "sideways_step": "an ahead or lane-change step gaining less than half a space of progress",
    "lap_jump": "a step whose progress starts the lap again without crossing the finish line, or the other way round",
    "corner_undefined": "spaces name a corner that has no stop count",
    "corner_stops": "a corner's stop count is missing or not 1, 2 or 3",
    "corner_empty": "a corner with no spaces",
    "corner_split": "a corner whose spaces form separate pieces",
    "corner_no_exit": "a corner, or some of its spaces, with no way out of the corner",
    "corner_counts": "a corner's long/short counts do not match its steps",
    "short_corner": "a corner whose shortest path is shorter than its stop count",
    "finish_in_corner": "the finish line lies inside a corner",
    **CORNER_COUNT_CHECKS,
    "pit_broken": "a pit lane in pieces, looped, or without entry or exit",
    "pit_branch": "a pit lane that forks or merges",
    "pit_misses_finish": "a way through the pit lane that does not cross the finish line",
    "pit_crosses_finish_twice": "a way through the pit lane that crosses the finish line twice",
    "box_unreachable": "a box no car can reach from the pit lane",
    "box_slot": "a box with no owner slot, or two boxes with the same slot",
    "tunnel_pair": "a tunnel label not shared by exactly two spaces",
    "tunnel_step": "a tunnel pair without a tunnel step, or a tunnel step between non-pairs",
    "grid_too_small": "fewer grid spots than cars in the race",
    "grid_numbering": "grid spots not numbered 1, 2, 3... without gaps or repeats",
    "grid_ahead_of_finish": "grid spots just after the finish line instead of behind it",
    "grid_in_corner": "a grid spot inside a corner",
    "pit_beside_corner": "a pit lane beside a corner: a way through it skips a corner's exit line",
    "box_too_small": "a box too small to hold a car (under half a space)",
    "step_kind": "a step whose kind does not fit the spaces it joins",
    "long_step": "a step far longer than a space",
    "polygon_invalid": "a space outline that is not a valid polygon",
    "overlap": "spaces that overlap without being connected or on different levels",
}

#: Checks that give design advice, not a broken board: a report with only these is ok.
ADVICE_CHECKS = frozenset(CORNER_COUNT_CHECKS)

#: Most cars a race has (the rules engine's limit: ``fdlab.rules``, 1 to 10 cars).
MAX_CARS = 10

#: Reads a number of cars from a command line (an ``argparse`` ``type=``): 1 to MAX_CARS.
read_car_count = whole_at_least(1, most=MAX_CARS)

#: Overlapping area, as a fraction of the smaller space, above which two spaces overlap.
OVERLAP_TOLERANCE = 0.05

#: Most points a space outline may have. Built boards use about 30; checking an outline
#: costs more than linear time in its points (a self-intersecting one of a million points
#: took minutes), so a larger one is reported instead of checked, which keeps every
#: validation (the editor runs one after each edit) bounded per space.
MAX_OUTLINE_POINTS = 1000

#: A step longer than this many ``space_length`` between centres is reported.
LONG_STEP_FACTOR = 2.5

#: An ahead or lane-change step gaining less progress than this (in spaces) goes sideways.
MIN_STEP_GAIN = 0.5

#: Slack (spaces) when comparing progress gains: a built board's float arithmetic.
GAIN_TOLERANCE = 1e-6

#: A box smaller than this share of a typical track space cannot hold a car (half a
#: space, with slack for boxes beside a bend of the pit lane).
MIN_BOX_SHARE = 0.4

#: Space kinds a step of each kind may join: ``(from, to)`` pairs.
STEP_ENDS: dict[str, frozenset[tuple[str, str]]] = {
    "ahead": frozenset({("track", "track"), ("pit", "pit")}),
    "lane_change": frozenset({("track", "track")}),
    "pit_in": frozenset({("track", "pit")}),
    "pit_out": frozenset({("pit", "track")}),
    "box_in": frozenset({("pit", "box")}),
    "box_out": frozenset({("box", "pit")}),
    "tunnel": frozenset({("track", "track")}),
}

_SHOWN_SPACES = 8


@dataclass(frozen=True)
class Problem:
    """One problem of a board.

    Parameters
    ----------
    code : str
        Which check found it (a key of :data:`CHECKS`).
    message : str
        What is wrong and where, in plain words.
    spaces : tuple
        The spaces involved (possibly empty), for highlighting.

    Examples
    --------
    >>> Problem("dead_end", "space 3 is a dead end", (3,))
    Problem(code='dead_end', message='space 3 is a dead end', spaces=(3,))
    """

    code: str
    message: str
    spaces: tuple[SpaceId, ...] = ()

    @property
    def advice(self) -> bool:
        """A piece of design advice (:data:`ADVICE_CHECKS`), not something broken.

        Examples
        --------
        >>> Problem("few_corners", "the lap has 2 corners").advice
        True
        """
        return self.code in ADVICE_CHECKS

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


@dataclass(frozen=True)
class ValidationReport:
    """Every problem found on one board.

    Iterate over it for the :class:`Problem` objects; ``len`` counts them
    and :attr:`ok` says none is broken (design advice, such as a lap with
    fewer corners than a printed board, leaves a board ok). In a notebook it
    shows as a table.

    Examples
    --------
    >>> report = ValidationReport("Oval", (Problem("dead_end", "space 3 is a dead end", (3,)),))
    >>> report.ok, len(report), report.spaces
    (False, 1, frozenset({3}))
    >>> [p.code for p in report]
    ['dead_end']
    >>> print(ValidationReport("Oval", (Problem("few_corners", "the lap has 2 corners"),)))
    Track 'Oval': no problems found; 1 piece of advice:
    - [few_corners] the lap has 2 corners
    """

    track_name: str
    problems: tuple[Problem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when nothing on the board is broken (advice aside)."""
        return all(p.advice for p in self.problems)

    @property
    def advice(self) -> tuple[Problem, ...]:
        """The pieces of design advice (:data:`ADVICE_CHECKS`) among the problems."""
        return tuple(p for p in self.problems if p.advice)

    @property
    def spaces(self) -> frozenset[SpaceId]:
        """Every space named by some problem."""
        return frozenset(s for p in self.problems for s in p.spaces)

    @property
    def codes(self) -> list[str]:
        """The code of each problem, in report order."""
        return [p.code for p in self.problems]

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def __getitem__(self, index: int) -> Problem:
        return self.problems[index]

    def _headline(self) -> str:
        count, advice = len(self.problems), len(self.advice)
        if not count:
            return "no problems found"
        pieces = f"{advice} piece{'s' if advice != 1 else ''} of advice"
        if self.ok:
            return f"no problems found; {pieces}"
        broken = count - advice
        return f"{broken} problem{'s' if broken != 1 else ''}" + (f"; {pieces}" if advice else "")

    def __str__(self) -> str:
        lines = [f"Track {self.track_name!r}: {self._headline()}"]
        if self.problems:
            lines[0] += ":" if self.ok else ""
        lines += [f"- {problem}" for problem in self.problems]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        title = html.escape(f"Track {self.track_name!r}")
        if not self.problems:
            return f"<p><b>{title}</b>: no problems found.</p>"
        rows = "".join(
            "<tr>"
            f"<td><code>{html.escape(p.code)}</code></td>"
            f"<td style='text-align:left'>{html.escape(p.message)}</td>"
            f"<td style='text-align:left'>{html.escape(_space_list(p.spaces))}</td>"
            "</tr>"
            for p in self.problems
        )
        return (
            f"<p><b>{title}</b>: {html.escape(self._headline())}.</p>"
            "<table><thead><tr><th>check</th><th>problem</th><th>spaces</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )


def validate(track: Track, *, cars: int = 10) -> ValidationReport:
    """Check a board and report every problem at once.

    Parameters
    ----------
    track : Track
        The board.
    cars : int
        Cars in the race, 0 to :data:`MAX_CARS`: the grid needs at least this
        many spots.

    Returns
    -------
    ValidationReport
        Empty (``report.ok``) for a sound board.

    Raises
    ------
    TrackError
        If ``cars`` is not a whole number from 0 to :data:`MAX_CARS`. Whatever
        the board holds, its problems are reported, never raised.

    Examples
    --------
    >>> ring = from_ascii('''
    ...     . . 1 1 . .
    ...     . . 1 1 . .
    ... ''', corners={1: 1}, closed=True, grid=[11, 10], ring=True)
    >>> validate(ring, cars=2).ok
    True
    >>> print(validate(ring, cars=3))
    Track 'ascii board': 1 problem
    - [grid_too_small] the grid has 2 spots but the race has 3 cars
    """
    if isinstance(cars, bool) or not isinstance(cars, int) or not 0 <= cars <= MAX_CARS:
        raise TrackError(f"cars: a race has 0 to {MAX_CARS} cars, not {_shown(cars, 40)}")
    return _Validator(track, cars).run()


def _must_be(field: Field, value: Any) -> str:
    """What a refused value must be, and why it is not when the field can say more."""
    why = field.why(value)
    return f"{field.expected} ({why})" if why else field.expected


def _space_list(spaces: Iterable[Any]) -> str:
    return ", ".join(repr(s) for s in spaces)


def _name_spaces(spaces: list[Any], noun: str = "space") -> str:
    """``space 3`` or ``spaces 3, 4 and 5`` or ``spaces 1, 2, ... (40 in all)``."""
    plural = "boxes" if noun == "box" else f"{noun}s"
    if len(spaces) == 1:
        return f"{noun} {spaces[0]!r}"
    if len(spaces) <= _SHOWN_SPACES:
        return f"{plural} {_space_list(spaces[:-1])} and {spaces[-1]!r}"
    return f"{plural} {_space_list(spaces[:_SHOWN_SPACES])}, ... ({len(spaces)} in all)"


def _sorted(spaces: Iterable[Any]) -> list[Any]:
    return sorted(spaces, key=lambda s: (isinstance(s, str), s))


class _Validator:
    def __init__(self, track: Track, cars: int) -> None:
        self.track = track
        self.graph = track.graph
        self.nodes = track.graph._node
        # The plain adjacency dicts behind networkx's read-only views: the checks only
        # read them, and skipping the view wrappers makes validation several times faster.
        self.succ = track.graph._succ
        self.pred = track.graph._pred
        self.cars = cars
        self.problems: list[Problem] = []
        self.finish_steps = [
            (u, v)
            for u, v, lines in track.graph.edges(data="lines")
            if isinstance(lines, (frozenset, set, list, tuple)) and "finish" in lines
        ]

    def report(self, code: str, message: str, spaces: Iterable[Any] = ()) -> None:
        self.problems.append(Problem(code, message, tuple(spaces)))

    def run(self) -> ValidationReport:
        if len(self.graph) == 0:
            self.report("empty", "the board has no spaces")
            self.check_track_attributes()
        else:
            # Coordinates near the float limit overflow in shapely's and numpy's arithmetic:
            # the checks report what they find, with no warning printed.
            with np.errstate(all="ignore"):
                self.run_checks()
        name = self.graph.graph.get("name", TRACK_DEFAULTS["name"])
        if not isinstance(name, str):  # reported by check_track_attributes
            name = _shown(name)
        return ValidationReport(name, tuple(self.problems))

    def run_checks(self) -> None:
        self.check_attributes()
        checks = (
            self.check_flow,
            self.check_steps,
            self.check_corners,
            self.check_corner_count,
            self.check_pit,
            self.check_tunnels,
            self.check_grid,
            self.check_grid_behind_finish,
            self.check_outlines,
        )
        for check in checks:
            # A board being edited may hold a value of the wrong type (reported by
            # check_attributes); the other checks still run and say what they can.
            try:
                check()
            except (
                TypeError,
                ValueError,
                KeyError,
                AttributeError,
                ArithmeticError,  # a coordinate too large for a float (10**400)
                shapely.errors.ShapelyError,
            ) as error:
                name = check.__name__.removeprefix("check_")
                detail = str(error)[:200]
                self.report(
                    "check_failed",
                    f"the {name} checks could not run ({type(error).__name__}: {detail}); "
                    "fix the problems above first",
                )

    # -- attribute types ---------------------------------------------------------------
    # What each attribute may hold comes from the tables of fdlab.track.schema, which the
    # loader reads too. This runs before the other checks, outside their guard: it must
    # never raise, whatever the track holds.
    def check_attributes(self) -> None:
        self.check_track_attributes()
        for n, data in self.nodes.items():
            self.check_fields(f"space {n!r}", data, SPACE_FIELDS, [n])
        for u, v, data in self.graph.edges(data=True):
            self.check_fields(f"step {u!r} -> {v!r}", data, STEP_FIELDS, [u, v])
        for a, b, data in self.track.contacts.edges(data=True):
            self.check_contact(a, b, data)

    def check_fields(
        self, where: str, data: dict[str, Any], fields: dict[str, Field], spaces: list[Any]
    ) -> None:
        """Report each of ``fields`` that ``data`` (a space's or a step's) lacks or holds wrong."""
        for key, schema in fields.items():
            if key not in data:
                self.report("attribute", f"{where} has no {key!r} attribute", spaces)
            elif not schema.accepts(data[key]):
                self.report(
                    "attribute",
                    f"{where}: {key} is {_shown(data[key])}; "
                    f"it must be {_must_be(schema, data[key])}",
                    spaces,
                )

    def check_contact(self, a: SpaceId, b: SpaceId, data: dict[str, Any]) -> None:
        """Report a contact's kind or rear that :data:`CONTACT_FIELDS` refuses, and a
        ``behind`` contact whose rear is not one of its two spaces (as the loader does)."""
        where, spaces = f"contact {a!r} - {b!r}", [a, b]
        if "kind" not in data:
            self.report("attribute", f"{where} has no 'kind' attribute", spaces)
        for key, schema in CONTACT_FIELDS.items():
            if key in data and not schema.accepts(data[key]):
                self.report(
                    "attribute",
                    f"{where}: {key} is {_shown(data[key])}; "
                    f"it must be {_must_be(schema, data[key])}",
                    spaces,
                )
        kind, rear = data.get("kind"), data.get("rear")
        behind = CONTACT_FIELDS["kind"].accepts(kind) and kind == "behind"
        if behind and CONTACT_FIELDS["rear"].accepts(rear) and rear not in (a, b):
            self.report(
                "attribute",
                f"{where}: rear is {_shown(rear)}; a 'behind' contact names its rear space, "
                f"{_shown(a)} or {_shown(b)}",
                spaces,
            )

    def check_track_attributes(self) -> None:
        graph = self.graph.graph
        for key, schema in GRAPH_FIELDS.items():
            if key not in graph:
                self.report("attribute", f"the track has no {key!r} attribute")
            elif key == "corners" and isinstance(graph[key], dict):
                self.check_corner_records(graph[key])  # says which corner and which field
            elif not schema.accepts(graph[key]):
                self.report(
                    "attribute",
                    f"track attribute {key} is {_shown(graph[key])}; "
                    f"it must be {_must_be(schema, graph[key])}",
                )

    def check_corner_records(self, corners: dict[Any, Any]) -> None:
        for corner, record in corners.items():
            if CORNER_ID.accepts(corner) and CORNER_RECORD.accepts(record):
                continue
            where = f"corner {_shown(corner)}"
            spaces = [n for n, data in self.nodes.items() if data.get("corner") == corner]
            if not CORNER_ID.accepts(corner):
                self.report("attribute", f"{where}: its id must be {CORNER_ID.expected}", spaces)
            if not isinstance(record, dict):
                self.report(
                    "attribute",
                    f"{where} is {_shown(record)}; it must be {CORNER_RECORD.expected}",
                    spaces,
                )
                continue
            for key, schema in CORNER_FIELDS.items():
                if key in record and not schema.accepts(record[key]):
                    self.report(
                        "attribute",
                        f"{where}: {key} is {_shown(record[key])}; "
                        f"it must be {_must_be(schema, record[key])}",
                        spaces,
                    )

    def lap_length(self) -> float | None:
        """The track's lap length, for the checks that measure round the lap: None when
        it is unknown (0) or not a length (reported by :meth:`check_track_attributes`)."""
        lap_length = self.graph.graph.get("lap_length")
        if (
            GRAPH_FIELDS["lap_length"].accepts(lap_length)
            and isinstance(lap_length, (int, float))  # what accepts() lets through, for mypy
            and lap_length > 0
        ):
            return lap_length
        return None

    # -- getting round the lap ---------------------------------------------------------
    def reach(self, sources: Iterable[Any], adjacency: Any) -> set[Any]:
        seen = set(sources)
        queue = deque(seen)
        while queue:
            for nxt in adjacency[queue.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    def check_flow(self) -> None:
        dead_ends = [n for n in self.graph if not self.succ[n]]
        for n in dead_ends:
            self.report("dead_end", f"space {n!r} is a dead end: no step leads out of it", [n])

        grid = self.track.grid_spots()
        finish_steps = self.finish_steps
        # Without a grid (reported by check_grid), cars are taken to start at the finish line.
        starts, origin = (
            (grid, "the grid") if grid else ([v for _, v in finish_steps], "the finish line")
        )
        if starts:
            reached = self.reach(starts, self.succ)
            lost = _sorted(n for n in self.graph if n not in reached)
            if lost:
                self.report(
                    "unreachable",
                    f"{_name_spaces(lost)} cannot be reached from {origin}",
                    lost,
                )
        if not finish_steps:
            self.report(
                "no_finish_line",
                "no step crosses the finish line, so a lap can never be completed",
            )
            return
        after = self.reach((v for _, v in finish_steps), self.succ)
        if not any(u in after for u, _ in finish_steps):
            crossing = _sorted({s for step in finish_steps for s in step})
            self.report(
                "lap_not_closed",
                "the lap does not close: no way leads from the finish line back round to it",
                crossing,
            )
        can_finish = self.reach((u for u, _ in finish_steps), self.pred)
        dead = set(dead_ends)
        trapped = _sorted(n for n in self.graph if n not in can_finish and n not in dead)
        if trapped:
            self.report(
                "cannot_finish",
                f"a car on {_name_spaces(trapped)} can never reach the finish line",
                trapped,
            )

    def check_steps(self) -> None:
        nodes = self.nodes
        space_length = self.graph.graph.get("space_length")
        if not GRAPH_FIELDS["space_length"].accepts(space_length):  # reported as an attribute
            space_length = TRACK_DEFAULTS["space_length"]
        limit = LONG_STEP_FACTOR * float(space_length)
        for u, v, data in self.graph.edges(data=True):
            kind = data.get("kind")
            a, b = nodes[u], nodes[v]
            # A kind that is none of STEP_ENDS' is reported as an attribute.
            ends = STEP_ENDS[kind] if STEP_FIELDS["kind"].accepts(kind) else None
            if ends is not None and (a["kind"], b["kind"]) not in ends:
                allowed = " or ".join(f"{x} -> {y}" for x, y in sorted(ends))
                self.report(
                    "step_kind",
                    f"step {u!r} -> {v!r} is '{kind}' but joins a {a['kind']} space to a "
                    f"{b['kind']} space ('{kind}' steps go {allowed})",
                    [u, v],
                )
            if (
                kind in ("ahead", "lane_change")
                and "finish" not in data["lines"]
                and not b["progress"] > a["progress"]
            ):
                self.report(
                    "progress",
                    f"progress does not increase along step {u!r} -> {v!r} "
                    f"({a['progress']:g} -> {b['progress']:g}): the step goes backwards or sideways",
                    [u, v],
                )
            if kind in ("ahead", "lane_change"):
                self.check_step_gain(u, v, a, b, "finish" in data["lines"])
            self.check_lap_count(u, v, a, b, "finish" in data["lines"])
            if kind != "tunnel":
                length = math.hypot(b["x"] - a["x"], b["y"] - a["y"])
                if length > limit:
                    self.report(
                        "long_step",
                        f"step {u!r} -> {v!r} is {length:.3g} long between centres, more than "
                        f"{LONG_STEP_FACTOR:g} space lengths ({limit:.3g})",
                        [u, v],
                    )

    def check_lap_count(
        self, u: Any, v: Any, a: dict[str, Any], b: dict[str, Any], crosses_finish: bool
    ) -> None:
        """A step of any kind (pit and box steps too) crosses the finish line exactly when
        its progress starts the lap again (S-4): lap and progress count a car's race
        together, so a step that disagrees moves it a lap forward or back."""
        lap_length = self.lap_length()
        if lap_length is None:
            return
        if not (is_finite_number(a["progress"]) and is_finite_number(b["progress"])):
            return
        wraps = starts_lap_again(a["progress"], b["progress"], lap_length)
        if wraps == crosses_finish:
            return
        said = (
            "crosses the finish line, but its progress does not start the lap again"
            if crosses_finish
            else "does not cross the finish line, but its progress starts the lap again"
        )
        self.report(
            "lap_jump",
            f"step {u!r} -> {v!r} {said} ({a['progress']:g} -> {b['progress']:g} of "
            f"{lap_length:g}): a car taking it would count a lap "
            f"{'more' if crosses_finish else 'less'} than it drove (move the finish line "
            "onto the step, or correct the spaces' progress)",
            [u, v],
        )

    def check_step_gain(
        self, u: Any, v: Any, a: dict[str, Any], b: dict[str, Any], crosses_finish: bool
    ) -> None:
        """A step forward gains at least :data:`MIN_STEP_GAIN` spaces (M-3: lane changes
        are diagonal, never sideways), within :data:`GAIN_TOLERANCE`. Steps that do not
        gain at all are ``progress`` problems; across the finish line the gain is counted
        round the lap. Inside a corner the steps are the arrows the board prints (M-5),
        so the check is for straights only."""
        if a["corner"] is not None and a["corner"] == b["corner"]:
            return
        gain = b["progress"] - a["progress"]
        lap_length = self.lap_length()
        if crosses_finish:
            if lap_length is None:
                return
            gain %= lap_length
        elif gain <= 0:
            return
        if gain < MIN_STEP_GAIN - GAIN_TOLERANCE:
            self.report(
                "sideways_step",
                f"step {u!r} -> {v!r} gains only {gain:.3g} spaces of progress "
                f"({a['progress']:g} -> {b['progress']:g}): a step goes at least "
                f"{MIN_STEP_GAIN:g} spaces forward (a lane change is diagonal, not sideways)",
                [u, v],
            )

    # -- corners -----------------------------------------------------------------------
    def check_corners(self) -> None:
        corners = self.track.corners
        members: dict[Any, list[Any]] = {}
        for n, data in self.nodes.items():
            if data["corner"] is not None:
                members.setdefault(data["corner"], []).append(n)
        for corner, spaces in members.items():
            if corner not in corners:
                self.report(
                    "corner_undefined",
                    f"{_name_spaces(spaces)} belong to corner {corner!r}, which has no stop count",
                    spaces,
                )
        for corner, info in corners.items():
            stops = info.get("stops") if isinstance(info, dict) else None
            spaces = members.get(corner, [])
            if not (isinstance(stops, int) and not isinstance(stops, bool) and 1 <= stops <= 3):
                what = "has no stop count" if stops is None else f"has stop count {stops!r}"
                self.report(
                    "corner_stops", f"corner {corner!r} {what}; it must be 1, 2 or 3", spaces
                )
            if not spaces:
                self.report("corner_empty", f"corner {corner!r} has no spaces")
                continue
            self.check_corner_shape(corner, info if isinstance(info, dict) else {}, spaces)

        for u, v in self.finish_steps:
            corner = self.nodes[u]["corner"]
            if corner is not None and self.nodes[v]["corner"] == corner:
                self.report(
                    "finish_in_corner",
                    f"the finish line crosses step {u!r} -> {v!r} inside corner {corner!r}: "
                    "a lap would end in the middle of a corner",
                    [u, v],
                )

    def check_corner_count(self) -> None:
        """A lap the size of a real circuit has at least as many corners as a printed board."""
        lap_length = self.lap_length()
        if lap_length is None or lap_length < MIN_LAP_SPACES:
            return
        for code, message, spaces in corner_count_problems(self.track):
            self.report(code, message, spaces)

    def check_corner_shape(self, corner: Any, info: dict[str, Any], spaces: list[Any]) -> None:
        inside = set(spaces)
        contacts = self.track.contacts.adj
        # Pieces: steps and contacts (side-by-side lanes) both hold a corner together.
        pieces = 0
        seen: set[Any] = set()
        for start in spaces:
            if start in seen:
                continue
            pieces += 1
            seen.add(start)
            queue = deque([start])
            while queue:
                n = queue.popleft()
                neighbours = [*self.succ[n], *self.pred[n], *contacts[n]]
                for m in neighbours:
                    if m in inside and m not in seen:
                        seen.add(m)
                        queue.append(m)
        if pieces > 1:
            self.report(
                "corner_split",
                f"corner {corner!r} is split into {pieces} separate pieces",
                _sorted(spaces),
            )
        exits = [n for n in spaces if any(m not in inside for m in self.succ[n])]
        if not exits:
            self.report(
                "corner_no_exit",
                f"corner {corner!r} has no way out: no step leaves it",
                _sorted(spaces),
            )
        else:
            inner_pred = {n: [m for m in self.pred[n] if m in inside] for n in spaces}
            out = self.reach(exits, inner_pred)
            stuck = _sorted(inside - out)
            if stuck:
                self.report(
                    "corner_no_exit",
                    f"a car on {_name_spaces(stuck)} of corner {corner!r} can never leave the corner",
                    stuck,
                )
        computed = path_counts_near(self.graph, corner, spaces)
        stored = (info.get("long"), info.get("short"))
        if computed == (0, 0):
            self.report(
                "corner_counts",
                f"corner {corner!r} has no path from an entry to an exit (or its steps loop)",
                _sorted(spaces),
            )
        elif stored != computed:
            self.report(
                "corner_counts",
                f"corner {corner!r} says long {stored[0]!r}, short {stored[1]!r} but its steps "
                f"give long {computed[0]}, short {computed[1]} (run update_corner_counts)",
                _sorted(spaces),
            )
        stops = info.get("stops")
        if computed != (0, 0) and is_int(stops) and computed[1] < stops:
            self.report(
                "short_corner",
                f"corner {corner!r} has {stops} stops but its shortest path is {computed[1]} "
                f"space{'s' if computed[1] != 1 else ''}: a car could not make its stops "
                f"without braking to a standstill (C-2)",
                _sorted(spaces),
            )

    # -- pit lane and boxes ------------------------------------------------------------
    def check_pit(self) -> None:
        nodes = self.nodes
        pit = [n for n in self.graph if nodes[n]["kind"] == "pit"]
        boxes = [n for n in self.graph if nodes[n]["kind"] == "box"]
        entries = [(u, v) for u, v, k in self.graph.edges(data="kind") if k == "pit_in"]
        if pit:
            self.check_pit_lane(pit, entries)
        elif entries:
            self.report(
                "pit_broken",
                "a pit_in step exists but the board has no pit lane",
                _sorted({s for e in entries for s in e}),
            )
        if not boxes:
            return
        lane = {n for n in self.graph if nodes[n]["kind"] in ("pit", "box")}
        lane_succ = {n: [m for m in self.succ[n] if m in lane] for n in lane}
        reached = self.reach((v for _, v in entries if v in lane), lane_succ)
        lost = _sorted(b for b in boxes if b not in reached)
        if lost:
            self.report(
                "box_unreachable",
                f"{_name_spaces(lost, 'box')} cannot be reached from the pit lane",
                lost,
            )
        self.check_box_size(boxes)
        slots: dict[Any, list[Any]] = {}
        for b in boxes:
            slots.setdefault(nodes[b]["box"], []).append(b)
        for slot, owners in slots.items():
            if slot is None:
                for owner in owners:
                    self.report("box_slot", f"box {owner!r} has no owner slot", [owner])
            elif len(owners) > 1:
                self.report(
                    "box_slot", f"{_name_spaces(owners, 'box')} share slot {slot!r}", owners
                )

    def check_box_size(self, boxes: list[Any]) -> None:
        """Each box holds a car: at least :data:`MIN_BOX_SHARE` of a typical track space."""
        nodes = self.nodes
        areas = [
            nodes[n]["polygon"].area
            for n in self.graph
            if nodes[n]["kind"] == "track" and isinstance(nodes[n]["polygon"], Polygon)
        ]
        if not areas:
            return
        typical = float(np.median(areas))
        for b in boxes:
            polygon = nodes[b]["polygon"]
            if isinstance(polygon, Polygon) and polygon.area < MIN_BOX_SHARE * typical:
                self.report(
                    "box_too_small",
                    f"box {b!r} is {polygon.area / typical:.2f} of a track space: too small "
                    "to hold a car (a box is at least half a space)",
                    [b],
                )

    def check_pit_lane(self, pit: list[Any], entries: list[tuple[Any, Any]]) -> None:
        nodes = self.nodes
        in_pit = set(pit)
        pit_succ = {n: [m for m in self.succ[n] if m in in_pit] for n in pit}
        pit_pred = {n: [m for m in self.pred[n] if m in in_pit] for n in pit}
        for n in pit:
            if len(pit_succ[n]) > 1:
                self.report(
                    "pit_branch",
                    f"the pit lane forks at space {n!r} (to {_space_list(pit_succ[n])}): "
                    "it must be a single lane",
                    [n, *pit_succ[n]],
                )
            if len(pit_pred[n]) > 1:
                self.report(
                    "pit_branch",
                    f"the pit lane merges at space {n!r} (from {_space_list(pit_pred[n])}): "
                    "it must be a single lane",
                    [*pit_pred[n], n],
                )
        undirected = {n: pit_succ[n] + pit_pred[n] for n in pit}
        pieces = []
        seen: set[Any] = set()
        for n in pit:
            if n not in seen:
                piece = self.reach([n], undirected)
                seen |= piece
                pieces.append(piece)
        if len(pieces) > 1:
            firsts = [_sorted(piece)[0] for piece in pieces]
            self.report(
                "pit_broken",
                f"the pit lane is broken into {len(pieces)} pieces (starting at {_space_list(firsts)})",
                _sorted(pit),
            )
        starts = [n for n in pit if not pit_pred[n]]
        if not starts:
            self.report("pit_broken", "the pit lane loops back on itself", _sorted(pit))
        exits = [u for u, v, k in self.graph.edges(data="kind") if k == "pit_out"]
        if not entries:
            self.report("pit_broken", "the pit lane has no entry (no pit_in step)", starts)
        else:
            for u, v in entries:
                if nodes[v]["kind"] == "pit" and pit_pred[v]:
                    self.report(
                        "pit_broken",
                        f"pit_in step {u!r} -> {v!r} enters the pit lane in its middle, "
                        "not at its start",
                        [u, v],
                    )
        if not exits:
            ends = [n for n in pit if not pit_succ[n]]
            self.report("pit_broken", "the pit lane has no exit (no pit_out step)", ends)
        self.check_pit_crosses_finish()
        self.check_pit_beside_corner()

    def check_pit_beside_corner(self) -> None:
        """No way through the pit lane skips a corner's exit line: between the track
        spaces a pit lane leaves and rejoins lie no spaces of a corner the car does not
        rejoin (the pit lane runs beside straights only)."""
        nodes, edges = self.nodes, self.graph.edges
        lap_length = self.lap_length()
        if lap_length is None:
            return
        lane = {n for n, d in nodes.items() if d["kind"] in ("pit", "box")}
        lane_succ = {n: [m for m in self.succ[n] if m in lane] for n in lane}
        exits = [(u, v) for u, v, k in edges(data="kind") if k == "pit_out"]
        corner_spaces = [
            (n, d["corner"], d["progress"])
            for n, d in nodes.items()
            if d["kind"] == "track" and d["corner"] is not None
        ]
        for entry, first in [(u, v) for u, v, k in edges(data="kind") if k == "pit_in"]:
            if first not in lane:
                continue
            reached = self.reach([first], lane_succ)
            start = nodes[entry]["progress"]
            for _, out in [(u, v) for u, v in exits if u in reached]:
                span = (nodes[out]["progress"] - start) % lap_length
                passed = {c for _, c, p in corner_spaces if 0 < (p - start) % lap_length < span}
                passed.discard(nodes[out]["corner"])
                for corner in sorted(passed, key=str):
                    beside = [n for n, c, _ in corner_spaces if c == corner]
                    self.report(
                        "pit_beside_corner",
                        f"the pit lane from space {entry!r} to space {out!r} runs beside "
                        f"corner {corner!r}: a car in the pits would skip its exit line "
                        "(the pit lane belongs beside a straight)",
                        _sorted([entry, out, *beside]),
                    )

    def check_pit_crosses_finish(self) -> None:
        """Every way from a ``pit_in`` step to a ``pit_out`` step crosses the finish
        line exactly once (schema: the pit lane lies beside the finish straight and
        crosses the line too; P-2: cars pit between laps; S-4: a lap through the pits
        counts once). One walk through the lane counts the lines crossed on the way
        (0, 1, or 2 for "more than once"); a way out after 0 is ``pit_misses_finish``,
        after 2 ``pit_crosses_finish_twice``."""
        if not self.finish_steps:
            return
        nodes = self.nodes
        lane = {n for n, d in nodes.items() if d["kind"] in ("pit", "box")}
        edges = self.graph.edges

        def crossings(u: Any, v: Any) -> int:
            return int("finish" in edges[u, v]["lines"])

        entries = [(u, v) for u, v, k in edges(data="kind") if k == "pit_in" and v in lane]
        seen = {(v, crossings(u, v)) for u, v in entries}  # (space, lines crossed)
        frontier = list(seen)
        while frontier:
            here, crossed = frontier.pop()
            for there in self.succ[here]:
                if there in lane:
                    state = (there, min(2, crossed + crossings(here, there)))
                    if state not in seen:
                        seen.add(state)
                        frontier.append(state)
        exits = [(u, v) for u, v, k in edges(data="kind") if k == "pit_out"]
        leaks = [(u, v) for u, v in exits if (u, 0) in seen and not crossings(u, v)]
        if leaks:
            open_entries = {u for u, v in entries if not crossings(u, v)}
            reached = {space for space, crossed in seen if crossed == 0}
            self.report(
                "pit_misses_finish",
                f"a car can drive through the pit lane from space {_sorted(open_entries)[0]!r} "
                f"to space {_sorted({v for _, v in leaks})[0]!r} without crossing the finish "
                "line: the pit lane must run beside the finish line and cross it too (P-2: "
                "cars pit between laps), on every way through it, boxes included",
                _sorted(reached | open_entries | {v for _, v in leaks}),
            )
        twice = [(u, v) for u, v in exits if (u, 2) in seen or ((u, 1) in seen and crossings(u, v))]
        if twice:
            on_the_line = {
                space
                for u, v in edges
                if crossings(u, v) and (u in lane or v in lane)
                for space in (u, v)
            }
            self.report(
                "pit_crosses_finish_twice",
                f"a car can drive through the pit lane from space "
                f"{_sorted({u for u, _ in entries})[0]!r} to space "
                f"{_sorted({v for _, v in twice})[0]!r} crossing the finish line twice, so a "
                "lap through the pits would count as two (S-4): the line crosses the pit "
                "lane once, on every way through it, boxes included",
                _sorted(on_the_line),
            )

    # -- tunnels and grid --------------------------------------------------------------
    def check_tunnels(self) -> None:
        pairs = self.track.tunnel_pairs()
        for label, spaces in pairs.items():
            if len(spaces) != 2:
                self.report(
                    "tunnel_pair",
                    f"tunnel {label!r} is on {len(spaces)} space(s) ({_space_list(spaces)}); "
                    "a tunnel label marks exactly two spaces",
                    spaces,
                )
            elif not (self.graph.has_edge(*spaces) or self.graph.has_edge(spaces[1], spaces[0])):
                self.report(
                    "tunnel_step",
                    f"tunnel {label!r} ({_space_list(spaces)}) has no tunnel step joining its ends",
                    spaces,
                )
        for u, v, kind in self.graph.edges(data="kind"):
            if kind != "tunnel":
                continue
            a, b = self.nodes[u]["tunnel"], self.nodes[v]["tunnel"]
            if a is None or a != b:
                self.report(
                    "tunnel_step",
                    f"tunnel step {u!r} -> {v!r} joins spaces that are not a tunnel pair "
                    f"(labels {a!r} and {b!r})",
                    [u, v],
                )

    def check_grid(self) -> None:
        numbers = sorted(
            ((d["grid"], n) for n, d in self.nodes.items() if d["grid"] is not None),
            key=lambda item: item[0],
        )
        if len(numbers) < self.cars:
            self.report(
                "grid_too_small",
                f"the grid has {len(numbers)} spots but the race has {self.cars} cars",
                [n for _, n in numbers],
            )
        expected = list(range(1, len(numbers) + 1))
        if [g for g, _ in numbers] != expected:
            seen: dict[Any, list[Any]] = {}
            for g, n in numbers:
                seen.setdefault(g, []).append(n)
            repeats = {g: ns for g, ns in seen.items() if len(ns) > 1}
            missing = [g for g in expected if g not in seen]
            parts = [f"spot {g} is on {_space_list(ns)}" for g, ns in repeats.items()]
            if missing:
                parts.append(f"spot(s) {', '.join(map(str, missing))} missing")
            self.report(
                "grid_numbering",
                "grid spots must be numbered 1, 2, 3... once each: " + "; ".join(parts),
                [n for _, n in numbers],
            )
        self.check_grid_corners([n for _, n in numbers])

    def check_grid_corners(self, spots: list[Any]) -> None:
        """Grid spots lie on the straight behind the finish line; only the back of the
        grid may reach into the one corner behind that straight, as on some printed
        boards (S-5: a car starting there counts that corner's stops as made)."""
        corners = [self.nodes[n]["corner"] for n in spots]
        back = len(spots)
        while back > 0 and corners[back - 1] is not None and corners[back - 1] == corners[-1]:
            back -= 1
        for spot, (n, corner) in enumerate(zip(spots[:back], corners[:back], strict=True)):
            if corner is not None:
                self.report(
                    "grid_in_corner",
                    f"grid spot {spot + 1} (space {n!r}) lies inside corner {corner!r} with "
                    "spots behind it: the grid belongs on the straight behind the finish "
                    "line (only its back rows may reach into the corner behind it, S-5)",
                    [n],
                )

    def check_grid_behind_finish(self) -> None:
        """Grid spots lie behind the finish line: from each, the line is fewer steps
        ahead than behind (schema: a car's first crossing starts lap 1)."""
        finish_steps = self.finish_steps
        grid = self.track.grid_spots()
        if not finish_steps or not grid:
            return
        edges = self.graph.edges
        succ = {
            n: [m for m in nbrs if "finish" not in edges[n, m]["lines"]]
            for n, nbrs in self.succ.items()
        }
        pred = {
            n: [m for m in nbrs if "finish" not in edges[m, n]["lines"]]
            for n, nbrs in self.pred.items()
        }
        to_line = self.distances((u for u, _ in finish_steps), pred)
        from_line = self.distances((v for _, v in finish_steps), succ)
        ahead = [n for n in grid if n in from_line and from_line[n] < to_line.get(n, math.inf)]
        if ahead:
            where = ", ".join(
                f"{n!r} ({from_line[n] + 1} spaces past the line"
                + (f", {to_line[n] + 1} before it)" if n in to_line else ")")
                for n in ahead[:_SHOWN_SPACES]
            )
            more = f" and {len(ahead) - _SHOWN_SPACES} more" if len(ahead) > _SHOWN_SPACES else ""
            self.report(
                "grid_ahead_of_finish",
                f"grid {'spot' if len(ahead) == 1 else 'spots'} {where}{more} "
                f"{'is' if len(ahead) == 1 else 'are'} past the finish line: the grid must "
                "lie just behind it, so that the first crossing starts lap 1 (move the grid "
                "or the finish line)",
                ahead,
            )

    def distances(self, sources: Iterable[Any], adjacency: Any) -> dict[Any, int]:
        """Steps from the nearest source to every space reached through ``adjacency``."""
        distance = {s: 0 for s in sources}
        queue = deque(distance)
        while queue:
            n = queue.popleft()
            for nxt in adjacency[n]:
                if nxt not in distance:
                    distance[nxt] = distance[n] + 1
                    queue.append(nxt)
        return distance

    # -- outlines ----------------------------------------------------------------------
    def check_outlines(self) -> None:
        ids = [n for n, p in self.graph.nodes(data="polygon") if p is not None]
        if not ids:
            return
        polygons = np.array([self.nodes[n]["polygon"] for n in ids], dtype=object)
        points = shapely.get_num_coordinates(polygons)
        detailed = points > MAX_OUTLINE_POINTS
        empty = shapely.is_empty(polygons)
        checkable = ~empty & ~detailed
        valid = np.zeros(len(ids), dtype=bool)
        valid[checkable] = shapely.is_valid(polygons[checkable])
        for index in np.flatnonzero(~valid):
            n = ids[index]
            if empty[index]:
                reason = "it is empty"
            elif detailed[index]:
                reason = (
                    f"it has {points[index]} points, more than the {MAX_OUTLINE_POINTS} a space "
                    "outline may have (simplify it); it was not checked further"
                )
            else:
                reason = shapely.is_valid_reason(polygons[index])
            self.report("polygon_invalid", f"the outline of space {n!r} is invalid: {reason}", [n])
        keep = np.flatnonzero(valid)
        if len(keep) < 2:
            return
        ids = [ids[i] for i in keep]
        polygons = polygons[keep]
        tree = shapely.STRtree(polygons)
        left, right = tree.query(polygons, predicate="intersects")
        # Spaces joined by a step or a contact, or on different levels, may overlap:
        # drop those pairs before measuring any intersection.
        nodes, succ, contacts = self.nodes, self.succ, self.track.contacts.adj
        candidates = []
        for i, j in zip(left.tolist(), right.tolist(), strict=True):
            a, b = ids[i], ids[j]
            if (
                i < j
                and nodes[a]["level"] == nodes[b]["level"]
                and b not in succ[a]
                and a not in succ[b]
                and b not in contacts[a]
            ):
                candidates.append((i, j))
        if not candidates:
            return
        first, second = np.array(candidates).T
        shared = shapely.area(shapely.intersection(polygons[first], polygons[second]))
        smaller = np.minimum(shapely.area(polygons[first]), shapely.area(polygons[second]))
        fraction = np.divide(shared, smaller, out=np.zeros_like(shared), where=smaller > 0)
        for i, j, f in zip(first.tolist(), second.tolist(), fraction.tolist(), strict=True):
            if f > OVERLAP_TOLERANCE:
                self.report(
                    "overlap",
                    f"spaces {ids[i]!r} and {ids[j]!r} overlap ({f:.0%} of the smaller) but are "
                    "neither connected nor on different levels (a crossing needs level 1 for the "
                    "bridge)",
                    [ids[i], ids[j]],
                )
