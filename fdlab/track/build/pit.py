"""The pit lane: beside the finish straight or a given stretch, entry and exit on
straights, and its boxes side by side beside its straightest part.
"""

from __future__ import annotations

import math

import numpy as np

from fdlab.track.build.cells import _at, _Cell, _lanes, _shape
from fdlab.track.build.corner_fit import corner_cuts, corner_lane_count
from fdlab.track.build.corners import _turn_between
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.spec import PitSpec
from fdlab.track.build.stretches import _EPS, _progress_at, _progress_span, _Stretch
from fdlab.track.errors import BuildError

#: A pit lane cut short by a corner is lengthened along the straights to this many spaces.
_PIT_SPACES = 5


def _pit_lane(
    pit: PitSpec | None,
    path: LapPath,
    cells: list[_Cell],
    stretches: list[_Stretch],
    offsets: list[float],
    width: float,
    lap: float,
) -> tuple[list[_Cell], list[tuple[_Cell, _Cell, str]]]:
    if pit is None:
        return [], []
    lap_length = float(sum(s.columns for s in stretches))
    if pit.start is not None:
        start, end = pit.start * lap, pit.end * lap  # type: ignore[operator]
    else:
        # the finish straight, lengthened into its neighbours until the boxes fit
        after, before = 0, len(stretches) - 1
        columns = stretches[after].columns + stretches[before].columns
        while columns < math.ceil(pit.boxes / 2) + 3 and after + 1 < before - 1:
            if (after + before) % 2:
                after += 1
                columns += stretches[after].columns
            else:
                before -= 1
                columns += stretches[before].columns
        start, end = stretches[before].start, stretches[after].end
        # no longer than the boxes need: a few spaces before the line, fewer after it
        space = lap / lap_length
        start = max(start, lap - (math.ceil(pit.boxes / 2) + 4) * space)
        end = min(end, 4 * space)
    start, end = _pit_ends_on_straights(stretches, start % lap, end % lap, lap)
    if end <= start:
        end += lap
    side = pit.side or ("right" if _signed_area(path) > 0 else "left")
    lanes = _lanes(cells)
    edge_lane = min(lanes) if side == "left" else max(lanes)
    sign = 1.0 if side == "left" else -1.0
    edge = max(abs(d) for d in offsets) + width / 2
    pit_offset = sign * (edge + 0.35 * width + width / 2)
    box_offset = sign * (edge + 2.0 * width)
    space_length = lap / lap_length
    if end - start < 3 * space_length:
        raise BuildError(
            f"pit: the stretch from {start / lap:.3f} to {(end % lap) / lap:.3f} holds fewer than 3 spaces"
        )
    # cut at the finish line too, so that one pit step crosses it
    pieces = [(start, min(end, lap)), (lap, end)] if start < lap < end else [(start, end)]
    pit_cells: list[_Cell] = []
    for low, high in pieces:
        if high - low < 0.5 * space_length:
            continue
        # equal lengths along the pit lane itself (longer than the centreline outside a bend)
        shift = lap if low >= lap - _EPS else 0.0
        arc = path.offset_arc(pit_offset)
        s_closed = np.concatenate([path.s, [lap]])
        a_low, a_high = np.interp([low - shift, high - shift], s_closed, arc)
        # ... but every pit space gains between half a space and 1.5 spaces of progress
        # (beside a corner the pit lane is longer or shorter than the track)
        table = np.linspace(low, high, 200)
        table_progress = np.array([_progress_at(stretches, x % lap, lap) for x in table - shift])
        table_progress[-1] = table_progress[0] + _progress_span(stretches, low, high, lap)
        progress_span = float(table_progress[-1] - table_progress[0])
        count = corner_lane_count(a_high - a_low, high - low, progress_span)
        by_length = np.interp(np.linspace(a_low, a_high, count + 1), arc, s_closed) + shift
        by_length[0], by_length[-1] = low, high
        progress_cuts = corner_cuts(np.interp(by_length, table, table_progress), progress_span)
        cuts = np.interp(progress_cuts, table_progress, table)
        cuts[0], cuts[-1] = low, high
        for a, b in zip(cuts[:-1], cuts[1:], strict=True):
            progress = _progress_at(stretches, 0.5 * (a + b) % lap, lap) - 0.5
            cell = _Cell(0, float(a), float(b), pit_offset, progress, kind="pit")
            _shape(path, cell, width)
            pit_cells.append(cell)
    steps: list[tuple[_Cell, _Cell, str]] = []
    before = _at(lanes[edge_lane], pit_cells[0].start - 0.01, lap)
    after = _at(lanes[edge_lane], pit_cells[-1].end + 0.01, lap)
    if before is None or after is None:
        raise BuildError("pit: no track space beside the pit entry or exit")
    steps.append((before, pit_cells[0], "pit_in"))
    for a, b in zip(pit_cells, pit_cells[1:], strict=False):
        steps.append((a, b, "ahead"))
    steps.append((pit_cells[-1], after, "pit_out"))
    holders = pit_cells[1:-1]
    if not holders:
        raise BuildError("pit: the pit lane needs at least 3 spaces for a box")
    per_column = max(2, math.ceil(pit.boxes / len(holders)))
    used = math.ceil(pit.boxes / per_column)
    # the boxes go side by side beside the straightest part of the pit lane
    bend = [abs(_turn_between(path, h.start - space_length, h.end + space_length)) for h in holders]
    best = min(range(len(holders) - used + 1), key=lambda i: (round(sum(bend[i : i + used]), 6), i))
    boxes: list[_Cell] = []
    slot = 0
    for index in range(best + 1, best + used + 1):
        holder = pit_cells[index]
        for k in range(per_column):
            if slot == pit.boxes:
                break
            slot += 1
            length = (holder.end - holder.start) / per_column
            box = _Cell(
                0,
                holder.start + k * length,
                holder.start + (k + 1) * length,
                box_offset,
                (holder.progress + (k + 0.5) / per_column - 0.5) % lap_length,
                kind="box",
                box=slot,
            )
            _shape(path, box, width)
            boxes.append(box)
            steps.append((pit_cells[index - 1], box, "box_in"))
            steps.append((box, pit_cells[index + 1], "box_out"))
    for cell in pit_cells + boxes:
        cell.start, cell.end = cell.start % lap, (cell.end - 1e-9) % lap + 1e-9
    return pit_cells + boxes, steps


def _pit_ends_on_straights(
    stretches: list[_Stretch], start: float, end: float, lap: float
) -> tuple[float, float]:
    """Pit entry and exit moved out of corners, so that ``pit_in`` and ``pit_out`` join
    straight spaces.

    The pit lane first shrinks: it starts one space after the corner it would have
    started in and ends one space before the corner it would have ended in, then grows
    along the straights at either end. If that leaves fewer than :data:`_PIT_SPACES`
    spaces, it grows instead, running beside the corner: entry before it, exit after it.
    """
    space = lap / sum(s.columns for s in stretches)

    def stretch_at(position: float) -> _Stretch:
        position %= lap
        return next(
            (s for s in stretches if s.start - _EPS <= position < s.end - _EPS), stretches[-1]
        )

    def neighbour(stretch: _Stretch, offset: int) -> _Stretch:
        return stretches[(stretches.index(stretch) + offset) % len(stretches)]

    low, high = start, end
    for _ in range(len(stretches)):
        here = stretch_at(low - 0.01)
        if here.corner is None:
            break
        after = neighbour(here, 1)
        low = (after.start + (after.end - after.start) / after.columns) % lap
    for _ in range(len(stretches)):
        here = stretch_at(high + 0.01)
        if here.corner is None:
            break
        before = neighbour(here, -1)
        high = (before.end - (before.end - before.start) / before.columns) % lap
    for _ in range(_PIT_SPACES):
        if (high - low) % lap >= _PIT_SPACES * space:
            return low, high
        if stretch_at(low - space - 0.01).corner is None:
            low = (low - space) % lap
        elif stretch_at(high + space + 0.01).corner is None:
            high = (high + space) % lap
        else:
            break
    if (high - low) % lap >= _PIT_SPACES * space:
        return low, high
    for _ in range(len(stretches)):
        here = stretch_at(start - 0.01)
        if here.corner is None:
            break
        start = here.start
    for _ in range(len(stretches)):
        here = stretch_at(end + 0.01)
        if here.corner is None:
            break
        end = here.end % lap
    return start, end


def _signed_area(path: LapPath) -> float:
    x, y = path.xy[:, 0], path.xy[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
