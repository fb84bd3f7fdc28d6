"""Steps between the cells of the lap (ahead and diagonal lane changes), the lines
they cross, and the contacts of the finished board.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fdlab.track.build.cells import _at, _Cell, _lanes
from fdlab.track.build.stretches import _EPS
from fdlab.track.model import StepKind, Track, starts_lap_again

#: A lane change gains at least this much progress (spaces): never a sideways step.
MIN_DIAGONAL_GAIN = 0.5
#: ... and at most this much, so that it never skips a space of the lane it joins.
MAX_DIAGONAL_GAIN = 2.0
#: Progress is compared to this many decimals (a millionth of a space): two spaces
#: equally far from where a step should land are a tie broken by rule, never by the
#: last bits of floating point, which differ between numpy and GEOS versions.
PROGRESS_DECIMALS = 6


def _track_steps(
    cells: list[_Cell], lap: float, lap_length: float, tunnels: list[tuple[_Cell, _Cell]]
) -> list[tuple[_Cell, _Cell, StepKind]]:
    """``ahead`` steps along each lane and diagonal ``lane_change`` steps forward to a
    neighbouring lane; tunnel portals only lead into / come out of their tunnel.

    A lane change goes to the neighbouring lane's space whose progress best matches
    where the space's own ``ahead`` step lands (M-3: a diagonal step forward), gaining
    between :data:`MIN_DIAGONAL_GAIN` and :data:`MAX_DIAGONAL_GAIN` spaces, and never to
    a space side by side with it. One that enters or leaves a corner crosses its entry
    or exit line: it leaves from the last space of a lane's run and lands on the first.
    """
    steps: list[tuple[_Cell, _Cell, StepKind]] = []
    lanes = _lanes(cells)
    firsts, lasts = set(), set()
    for row in lanes.values():
        for index, cell in enumerate(row):
            if row[index - 1].corner != cell.corner:
                firsts.add(id(cell))
            if row[(index + 1) % len(row)].corner != cell.corner:
                lasts.add(id(cell))

    def crosses_the_line(a: _Cell, b: _Cell) -> bool:
        return a.corner == b.corner or (id(a) in lasts and id(b) in firsts)

    by_progress = {lane: sorted(row, key=lambda c: c.progress) for lane, row in lanes.items()}
    tunnel_entries = {id(entry) for entry, _ in tunnels}
    tunnel_exits = {id(exit_) for _, exit_ in tunnels}
    for lane, row in lanes.items():
        for cell in row:
            if id(cell) in tunnel_entries:
                continue
            ahead_at = cell.end + 0.01 if cell.end < lap - _EPS else 0.01
            ahead = _at(row, ahead_at, lap)
            if ahead is cell or (ahead is not None and id(ahead) in tunnel_exits):
                ahead = None
            if ahead is not None:
                steps.append((cell, ahead, "ahead"))
                wanted = _gain(cell, ahead, lap_length)
            else:  # the lane ends here (fewer lanes ahead): one space forward
                wanted = 1.0
            for other in (lane - 1, lane + 1):
                if other not in lanes:
                    continue
                target = _diagonal_target(
                    cell, by_progress[other], wanted, lap_length, crosses_the_line
                )
                if target is not None and id(target) not in tunnel_exits:
                    steps.append((cell, target, "lane_change"))
    return steps


def _gain(a: _Cell, b: _Cell, lap_length: float) -> float:
    """Progress gained from ``a`` to ``b``, counted round the finish line, to
    :data:`PROGRESS_DECIMALS` decimals."""
    return round((b.progress - a.progress) % lap_length, PROGRESS_DECIMALS)


def _diagonal_target(
    cell: _Cell,
    other_lane: list[_Cell],
    wanted: float,
    lap_length: float,
    allowed: Callable[[_Cell, _Cell], bool],
) -> _Cell | None:
    """The space of ``other_lane`` (sorted by progress) a diagonal step from ``cell`` goes
    to: the one gaining nearest ``wanted`` among those ``allowed`` (of two equally near,
    the one gaining less), or None."""
    progress = [c.progress for c in other_lane]
    goal = (cell.progress + wanted) % lap_length
    index = int(np.searchsorted(progress, goal))
    best: tuple[float, float, _Cell] | None = None
    for offset in range(-4, 5):  # spaces cover 0.5+ of progress: all within reach
        candidate = other_lane[(index + offset) % len(other_lane)]
        gain = _gain(cell, candidate, lap_length)
        if (
            not MIN_DIAGONAL_GAIN <= gain <= MAX_DIAGONAL_GAIN
            or _side_by_side(cell, candidate)
            or not allowed(cell, candidate)
        ):
            continue
        key = (round(abs(gain - wanted), PROGRESS_DECIMALS), gain)
        if best is None or key < best[:2]:
            best = (*key, candidate)
    return None if best is None else best[2]


def _side_by_side(a: _Cell, b: _Cell) -> bool:
    """Whether two cells of neighbouring lanes lie beside each other (a ``beside`` contact)."""
    overlap = min(a.end, b.end) - max(a.start, b.start)
    shorter = min(a.end - a.start, b.end - b.start)
    return overlap > 0.3 * shorter


def _lines_crossed(a: _Cell, b: _Cell, kind: str, police: float | None, lap: float) -> list[str]:
    lines = []
    forward = (b.middle - a.middle) % lap
    # the line is where the lap starts again, measured along the lap path (metres): a
    # step going back a hair (into the pit lane beside a long space) crosses nothing
    if starts_lap_again(a.middle, b.middle, lap):
        lines.append("finish")
    if police is not None and kind != "tunnel" and 0 < (police - a.middle) % lap <= forward:
        lines.append("police")
    if kind == "pit_in":
        lines.append("pit_entry")
    if kind == "pit_out":
        lines.append("pit_exit")
    return lines


def _add_contacts(
    track: Track, cells: list[_Cell], steps: list[tuple[_Cell, _Cell, StepKind]]
) -> None:
    for a, b, kind in steps:
        if kind == "ahead":
            track.add_contact(a.ident, b.ident, "behind", rear=a.ident)
    lanes = _lanes(cells)
    for lane, row in lanes.items():
        if lane + 1 not in lanes:
            continue
        for cell in row:
            for other in lanes[lane + 1]:
                if _side_by_side(cell, other):
                    track.add_contact(cell.ident, other.ident, "beside")
