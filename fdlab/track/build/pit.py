"""The pit lane: beside the finish straight or a given stretch, entry and exit on
straights, and its boxes side by side beside its straightest part.
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import shapely

from fdlab.track.build.cells import _at, _Cell, _lanes, _shape
from fdlab.track.build.corner_fit import corner_cuts, corner_lane_count
from fdlab.track.build.corners import _turn_between
from fdlab.track.build.lap_path import LapPath
from fdlab.track.build.notes import FewerBoxesWarning, caller_level
from fdlab.track.build.spec import PitSpec
from fdlab.track.build.stretches import _EPS, _progress_at, _progress_span, _Stretch
from fdlab.track.errors import BuildError
from fdlab.track.model import StepKind
from fdlab.track.validate import MIN_BOX_SHARE, OVERLAP_TOLERANCE

#: A pit lane cut short by a corner is lengthened along the straights to this many spaces.
_PIT_SPACES = 5


class _NoRoomForBoxes(BuildError):
    """The pit lane, or the stretch it runs along, holds fewer boxes than asked."""


def _pit_lane(
    pit: PitSpec | None,
    path: LapPath,
    cells: list[_Cell],
    stretches: list[_Stretch],
    offsets: list[float],
    width: float,
    lap: float,
) -> tuple[list[_Cell], list[tuple[_Cell, _Cell, StepKind]]]:
    """The pit lane and its boxes (:func:`_pit_lane_for`); beside the finish straight, as
    many boxes as its pit spaces hold when that is fewer than asked, with a
    :class:`FewerBoxesWarning` saying so (a given stretch builds as asked or not at all)."""
    try:
        return _pit_lane_for(pit, path, cells, stretches, offsets, width, lap)
    except _NoRoomForBoxes:
        if pit is None or pit.start is not None:
            raise
        for boxes in range(pit.boxes - 1, 0, -1):
            fewer = dataclasses.replace(pit, boxes=boxes)
            try:
                built = _pit_lane_for(fewer, path, cells, stretches, offsets, width, lap)
            except BuildError:
                continue
            warnings.warn(
                f"pit: the pit lane beside the finish straight holds {boxes} boxes, not "
                f"{pit.boxes}: built with {boxes} (cars {boxes + 1} to {pit.boxes} have no box); "
                "for more, give a longer straight its own stretch (PitSpec(start=..., end=...))",
                FewerBoxesWarning,
                stacklevel=caller_level(),
            )
            return built
        raise


def _pit_lane_for(
    pit: PitSpec | None,
    path: LapPath,
    cells: list[_Cell],
    stretches: list[_Stretch],
    offsets: list[float],
    width: float,
    lap: float,
) -> tuple[list[_Cell], list[tuple[_Cell, _Cell, StepKind]]]:
    """The pit lane and its boxes, beside straights only, on a side where it lies over no track.

    The pit lane never runs beside a corner (a car in the pits would skip it):
    by default it runs along the straight through the finish line, entry after
    the last corner and exit before the first. It goes on the outside of the
    circuit, or the inside when the outside holds other track (a parallel
    straight); where its last spaces cross another part of the lap, they pass
    under it (level -1, like a bridge), the boxes beside the pit lane before them.
    Boxes are at least half a space long.
    """
    if pit is None:
        return [], []
    lap_length = float(sum(s.columns for s in stretches))
    space = lap / lap_length
    needed = math.ceil(pit.boxes / 2) + 2  # two boxes beside each space, entry and exit
    if pit.start is not None:
        start, end = pit.start * lap, pit.end * lap  # type: ignore[operator]
        stretches_to_try = [_pit_ends_on_straights(stretches, start % lap, end % lap, lap)]
    else:  # a box beside each pit space, or two beside each in a shorter pit lane
        stretches_to_try = [
            _finish_straight(stretches, lap, space, needed, wanted)
            for wanted in (pit.boxes + 2, needed)
        ]
    outside = "right" if _signed_area(path) > 0 else "left"
    sides = [pit.side] if pit.side else [outside, "left" if outside == "right" else "right"]
    track_cells = [c for c in cells if c.kind == "track"]
    tree = shapely.STRtree([c.polygon for c in track_cells])
    blocked = []
    for start, end in stretches_to_try:
        if end <= start:
            end += lap
        where = f"the stretch from lap fraction {start / lap:.3f} to {(end % lap) / lap:.3f}"
        _check_pit_stretch(stretches, start, end, lap, space, needed, pit.boxes, where)
        for side in sides:
            built = _lay_pit(pit, path, cells, stretches, offsets, width, lap, start, end, side)
            over = _laid_over(built[0], track_cells, tree)
            under = _passes_under(built[0], over, lap_length)
            if under and any(c.kind == "box" for c, _ in over):
                # the boxes go beside the pit lane before it passes under the track
                built = _lay_pit(
                    pit, path, cells, stretches, offsets, width, lap, start, end, side, under
                )
                over = _laid_over(built[0], track_cells, tree)
                under = _passes_under(built[0], over, lap_length)
            if under is not None and not any(c.kind == "box" for c, _ in over):
                pits = [c for c in built[0] if c.kind == "pit"]
                for cell in pits[under:]:
                    if any(mine is cell for mine, _ in over):
                        cell.level = -1  # the pit exit passes under the track
                return built
            count = len({id(t) for _, t in over})
            blocked.append(f"on the {side} of {where} it would lie over {count} track spaces")
    raise _NoRoomForBoxes(
        f"pit: no room for the pit lane and its boxes ({'; '.join(blocked)}); "
        "give another stretch (PitSpec(start=..., end=...)) or side"
    )


def _check_pit_stretch(
    stretches: list[_Stretch],
    start: float,
    end: float,
    lap: float,
    space: float,
    needed: int,
    boxes: int,
    where: str,
) -> None:
    """A pit lane runs beside no corner and holds its boxes, or a :class:`BuildError` says why."""
    beside = _corners_beside(stretches, start, end, lap)
    if beside:
        raise BuildError(
            f"pit: {where} runs beside corner {', '.join(map(str, beside))}: a car in the pits "
            "would skip it; put the pit lane on a straight (PitSpec(start=..., end=...))"
        )
    if end - start < (needed - 0.5) * space:  # cut into ``needed`` spaces, rounded
        raise _NoRoomForBoxes(
            f"pit: {where} holds {(end - start) / space:.1f} spaces of straight, fewer than the "
            f"{needed} a pit lane with {boxes} boxes needs (a pit lane never runs beside a "
            "corner): give fewer boxes (PitSpec(boxes=...)), or move the finish line to a "
            "longer straight (finish=...)"
        )


def _finish_straight(
    stretches: list[_Stretch], lap: float, space: float, needed: int, wanted: int
) -> tuple[float, float]:
    """Where the default pit lane runs: on the straight through the finish line, from just
    after the last corner to just before the first, no longer than the boxes need (a few
    spaces before the line, fewer after it): ``wanted`` spaces (a box beside each) where
    the straight has room, else at least ``needed`` (two boxes beside each)."""
    low, high = 0.0, lap
    for stretch in reversed(stretches):
        if stretch.corner is not None:
            low = stretch.end
            break
    for stretch in stretches:
        if stretch.corner is not None:
            high = stretch.start
            break
    room_before = max(0.0, lap - low - 0.1 * space)
    room_after = max(0.0, high - 0.1 * space)
    length = (wanted if room_before + room_after >= (wanted + 1) * space else needed) + 1
    before = min(room_before, (length - 2) * space)
    after = min(room_after, 3 * space)
    if before + after < length * space:  # one side short: take more from the other
        before = min(room_before, length * space - after)
        after = min(room_after, length * space - before)
    return (lap - before) % lap, after


def _corners_beside(stretches: list[_Stretch], start: float, end: float, lap: float) -> list[int]:
    """Corners with part of their stretch between arc lengths ``start`` and ``end``."""
    found = []
    for stretch in stretches:
        if stretch.corner is None:
            continue
        for shift in (0.0, lap):
            a, b = stretch.start + shift, stretch.end + shift
            if min(b, end) - max(a, start) > _EPS and stretch.corner not in found:
                found.append(stretch.corner)
    return found


def _laid_over(
    pit_cells: list[_Cell], track_cells: list[_Cell], tree: shapely.STRtree
) -> list[tuple[_Cell, _Cell]]:
    """(pit or box cell, track cell) pairs that overlap (the validator's tolerance)."""
    found: list[tuple[_Cell, _Cell]] = []
    polygons = [c.polygon for c in pit_cells]
    for i, j in zip(*tree.query(polygons, predicate="intersects"), strict=True):
        mine, other = pit_cells[int(i)], track_cells[int(j)]
        assert mine.polygon is not None and other.polygon is not None  # shaped before
        shared = mine.polygon.intersection(other.polygon).area
        if shared > OVERLAP_TOLERANCE * min(mine.polygon.area, other.polygon.area):
            found.append((mine, other))
    return found


def _passes_under(
    built: list[_Cell], over: list[tuple[_Cell, _Cell]], lap_length: float
) -> int | None:
    """Where the pit lane may pass under the track to its exit: the index (among its pit
    spaces) of the first that lies over a track space or holds a box that does, when
    every pit space from there on is away from the track beside it (crossing under
    another part of the lap) and past the entry; 0 when nothing lies over track, None
    when the pit lane may not pass under the track there."""
    if not over:
        return 0

    def apart(a: float, b: float) -> float:
        return abs((a - b + lap_length / 2) % lap_length - lap_length / 2)

    pits = [c for c in built if c.kind == "pit"]
    index = {id(c): i for i, c in enumerate(pits)}
    if any(apart(mine.progress, track.progress) < 3 for mine, track in over):
        return None  # over the track beside it, not under another part of the lap
    firsts = [
        index[id(mine)]
        if id(mine) in index
        else min(range(len(pits)), key=lambda i: apart(pits[i].progress, mine.progress))
        for mine, _ in over
    ]
    return min(firsts) if min(firsts) >= 2 else None


def _lay_pit(  # noqa: PLR0913 (the pieces of one build it lays the pit lane among: path, cells, stretches, lanes)
    pit: PitSpec,
    path: LapPath,
    cells: list[_Cell],
    stretches: list[_Stretch],
    offsets: list[float],
    width: float,
    lap: float,
    start: float,
    end: float,
    side: str,
    boxes_before: int | None = None,
) -> tuple[list[_Cell], list[tuple[_Cell, _Cell, StepKind]]]:
    """Pit spaces and boxes on one side of the stretch from ``start`` to ``end``; the
    boxes and their ways in and out beside pit spaces before index ``boxes_before`` of
    the pit lane, if given."""
    lap_length = float(sum(s.columns for s in stretches))
    lanes = _lanes(cells)
    edge_lane = min(lanes) if side == "left" else max(lanes)
    sign = 1.0 if side == "left" else -1.0
    edge = max(abs(d) for d in offsets) + width / 2
    pit_offset = sign * (edge + 0.35 * width + width / 2)
    box_offset = sign * (edge + 2.0 * width)
    space_length = lap / lap_length
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
    steps: list[tuple[_Cell, _Cell, StepKind]] = []
    before = _at(lanes[edge_lane], pit_cells[0].start - 0.01, lap)
    after = _at(lanes[edge_lane], pit_cells[-1].end + 0.01, lap)
    if before is None or after is None:
        raise BuildError("pit: no track space beside the pit entry or exit")
    steps.append((before, pit_cells[0], "pit_in"))
    for a, b in zip(pit_cells, pit_cells[1:], strict=False):
        steps.append((a, b, "ahead"))
    steps.append((pit_cells[-1], after, "pit_out"))
    # a box's way out leads to the next pit space: none into the part passing under the track
    last = len(pit_cells) - 1 if boxes_before is None else boxes_before - 1
    holders = pit_cells[1:last]
    if not holders:
        raise BuildError("pit: the pit lane needs at least 3 spaces for a box")
    # one box beside each pit space, or two half a space long each where room is short
    per_column = 1 if len(holders) >= pit.boxes else 2
    if pit.boxes > per_column * len(holders):
        raise _NoRoomForBoxes(
            f"pit: {len(holders)} pit spaces hold at most {2 * len(holders)} boxes, "
            f"not {pit.boxes}: give fewer boxes (PitSpec(boxes=...)) or a longer pit lane"
        )
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
            # a box counts from its pit space's progress: just after the finish line that may
            # be a hair below 0, and must stay so (wrapped, it would lie at the lap's end,
            # a lap behind the pit space the car leaves it by)
            progress = holder.progress + (k + 0.5) / per_column - 0.5
            box = _Cell(
                0,
                holder.start + k * length,
                holder.start + (k + 1) * length,
                box_offset,
                progress - lap_length if progress >= lap_length else progress,
                kind="box",
                box=slot,
            )
            _shape(path, box, width)
            boxes.append(box)
            steps.append((pit_cells[index - 1], box, "box_in"))
            steps.append((box, pit_cells[index + 1], "box_out"))
    # a box too small to hold a car (the validator's rule, with a margin: two beside a
    # short pit space, or one on the inside of a bend) is no room: fewer boxes instead
    typical = float(np.median([c.polygon.area for c in cells if c.polygon is not None]))
    smallest = min(b.polygon.area for b in boxes if b.polygon is not None)
    if smallest < (MIN_BOX_SHARE + 0.05) * typical:
        raise _NoRoomForBoxes(
            f"pit: beside {used} pit spaces a box would be {smallest / typical:.2f} of a "
            "track space, too small to hold a car: give fewer boxes (PitSpec(boxes=...)) "
            "or a longer pit lane"
        )
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
    along the straights at either end (up to :data:`_PIT_SPACES` spaces). It never
    grows beside a corner: a car in the pits would skip it.
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
    return low, high


def _signed_area(path: LapPath) -> float:
    x, y = path.xy[:, 0], path.xy[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
