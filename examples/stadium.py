"""A small stadium-shaped board written in other programs' formats, by fdlab itself.

``stadium`` lays out a three-lane stadium-shaped circuit in image pixels
(y down): a top straight running right with the finish line and the grid,
a 2-stop hairpin on the right, a bottom straight running left that narrows
to two lanes for three rows, and a 1-stop corner on the left. A pit lane
with garages runs above the top straight and crosses the finish line.
``gponline_text`` and ``tts_document`` write it in the formats of GP Online
(``.dat``) and of the Tabletop Simulator mod (track JSON).

Nothing here is copied from those programs: the board is made up, and the
writers follow the formats as :mod:`fdlab.track.formats` reads them.
``examples/make_examples.py`` writes the shipped example files with it, and
the import tests (``tests/track/conftest.py``) use it too. It is a plain
module, not part of the ``fdlab`` package: put this folder on ``sys.path``
to import it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SPACE = 40.0  # pixels along a lane
LANE = 25.0  # pixels between lanes
ROWS = 10  # rows of each straight
FINISH_ROW = 5  # the top straight's row just past the finish line
INNER_RADIUS = 60.0
LEFT, RIGHT, MIDDLE_Y = 200.0, 200.0 + ROWS * SPACE, 300.0
NARROW_ROWS = (4, 5, 6)  # bottom straight rows where the inner lane is blocked


@dataclass
class Cell:
    """One space of the board, or a blocked (virtual) space or a garage."""

    ident: int
    x: float
    y: float
    lane: int  # 0 = inner lane (nearest the middle of the stadium)
    stretch: str  # top, right, bottom, left, pit, garage
    index: int  # row on straights, space number in corners
    offset: float | None = None  # distance into a corner
    heading: float = 0.0  # degrees, image coordinates
    blocked: bool = False
    finish: bool = False


@dataclass
class Stadium:
    """The board: cells, the steps between them and the grid."""

    cells: list[Cell] = field(default_factory=list)
    steps: list[tuple[int, int]] = field(default_factory=list)
    grid: list[int] = field(default_factory=list)  # pole first
    corner_stops: dict[str, int] = field(default_factory=lambda: {"right": 2, "left": 1})
    inline_garages: bool = False

    def cell(self, stretch: str, lane: int, index: int) -> Cell:
        return self.by_key[stretch, lane, index]

    def lane_cells(self, stretch: str, lane: int) -> list[Cell]:
        found = [c for c in self.cells if c.stretch == stretch and c.lane == lane]
        return sorted(found, key=lambda c: c.index)


def _radius(lane: int) -> float:
    return INNER_RADIUS + lane * LANE


def stadium(*, inline_garages: bool = False, grid_spots: int = 5) -> Stadium:
    """Lay out the stadium board.

    Parameters
    ----------
    inline_garages : bool, optional
        Put the garages on the pit lane itself instead of beside it.
    grid_spots : int, optional
        Spots of the grid, 1 to 10: one a row behind the finish line,
        alternating inside and outside lanes, pole on the inside; past the
        fifth they run on back into the corner behind the straight.

    Returns
    -------
    Stadium
        Its cells numbered along the lap from the finish line, steps and grid.
    """
    board = Stadium(inline_garages=inline_garages)
    cells = board.cells

    def add(*args, **kwargs) -> Cell:
        cell = Cell(len(cells), *args, **kwargs)
        cells.append(cell)
        return cell

    # ids follow the lap from the finish line, so pole is a high number
    for lane in range(3):
        r = _radius(lane)
        for row in range(ROWS):
            add(LEFT + (row + 0.5) * SPACE, MIDDLE_Y - r, lane, "top", row, heading=0.0)
    for lane in range(3):
        r, count = _radius(lane), round(math.pi * _radius(lane) / SPACE)
        span = round(math.pi * _radius(1) / SPACE)
        for i in range(count):
            angle = -90 + (i + 0.5) * 180 / count
            x = RIGHT + r * math.cos(math.radians(angle))
            y = MIDDLE_Y + r * math.sin(math.radians(angle))
            add(x, y, lane, "right", i, offset=round((i + 1) * span / count, 2), heading=angle + 90)
    for lane in range(3):
        r = _radius(lane)
        for row in range(ROWS):
            add(
                RIGHT - (row + 0.5) * SPACE,
                MIDDLE_Y + r,
                lane,
                "bottom",
                row,
                heading=180.0,
                blocked=lane == 0 and row in NARROW_ROWS,
            )
    for lane in range(3):
        r, count = _radius(lane), round(math.pi * _radius(lane) / SPACE)
        span = round(math.pi * _radius(1) / SPACE)
        for i in range(count):
            angle = 90 + (i + 0.5) * 180 / count
            x = LEFT + r * math.cos(math.radians(angle))
            y = MIDDLE_Y + r * math.sin(math.radians(angle))
            add(x, y, lane, "left", i, offset=round((i + 1) * span / count, 2), heading=angle + 90)
    board.by_key = {(c.stretch, c.lane, c.index): c for c in cells}
    for lane in range(3):
        board.cell("top", lane, FINISH_ROW).finish = True
    _link_lap(board)
    _add_pit(board)
    board.grid = [cell.ident for cell in _grid(board, grid_spots)]
    return board


def _grid(board: Stadium, spots: int) -> list[Cell]:
    """A staggered grid behind the line: pole on the inside, one spot a row, alternating.

    Past the straight's rows it goes on into the left corner (S-5), each
    spot at least one space behind the one before.
    """
    lanes = (0, 2)
    straight = range(FINISH_ROW - 1, -1, -1)
    grid = [board.cell("top", lanes[n % 2], row) for n, row in enumerate(straight)][:spots]
    behind = round(math.pi * _radius(1) / SPACE) + 1.0  # the straight's first row, as an offset
    while len(grid) < spots:
        lane = lanes[len(grid) % 2]
        free = [c for c in board.lane_cells("left", lane) if c.offset <= behind - 1 + 1e-9]
        if not free:
            raise ValueError(f"the stadium's grid holds at most {len(grid)} spots, not {spots}")
        grid.append(free[-1])
        behind = free[-1].offset
    return grid


def _link_lap(board: Stadium) -> None:
    order = ("top", "right", "bottom", "left")
    for k, stretch in enumerate(order):
        following = order[(k + 1) % 4]
        for lane in range(3):
            run = board.lane_cells(stretch, lane)
            for i, cell in enumerate(run):
                if cell.blocked:
                    continue
                ahead = run[i + 1] if i + 1 < len(run) else board.lane_cells(following, lane)[0]
                board.steps.append((cell.ident, ahead.ident))  # into blocked spaces too
                for other in (lane - 1, lane + 1):
                    if not 0 <= other < 3:
                        continue
                    target = _diagonal(board, cell, other, following)
                    if target is not None and not target.blocked:
                        board.steps.append((cell.ident, target.ident))
    # blocked spaces lead on down their lane (the track leaves them out)
    for cell in board.cells:
        if cell.blocked:
            run = board.lane_cells(cell.stretch, cell.lane)
            board.steps.append((cell.ident, run[run.index(cell) + 1].ident))


def _diagonal(board: Stadium, cell: Cell, lane: int, following: str) -> Cell | None:
    """The neighbouring lane's space about one space ahead of ``cell``."""
    if cell.offset is None:
        run = board.lane_cells(cell.stretch, lane)
        if cell.index + 1 < len(run):
            return run[cell.index + 1]
        return board.lane_cells(following, lane)[0]
    beside = board.lane_cells(cell.stretch, lane)
    later = [c for c in beside if c.offset > cell.offset + 0.5]
    if later:
        return later[0]
    return board.lane_cells(following, lane)[0]


def _add_pit(board: Stadium) -> None:
    """A pit lane above the top straight from row 1 to row 8, crossing the finish line."""
    y = MIDDLE_Y - _radius(2) - 30.0
    pit = {}
    for row in range(2, 9):
        cell = Cell(len(board.cells), LEFT + (row + 0.5) * SPACE, y, 0, "pit", row)
        cell.finish = row == FINISH_ROW
        board.cells.append(cell)
        pit[row] = cell
    board.steps.append((board.cell("top", 2, 1).ident, pit[2].ident))
    for row in range(2, 8):
        board.steps.append((pit[row].ident, pit[row + 1].ident))
    board.steps.append((pit[8].ident, board.cell("top", 2, 9).ident))
    board.garages = []
    if board.inline_garages:
        board.garages = [pit[row].ident for row in (3, 4, 6, 7)]
        return
    for row in (3, 4, 6, 7):
        garage = Cell(len(board.cells), LEFT + (row + 0.5) * SPACE, y - LANE, 0, "garage", row)
        board.cells.append(garage)
        board.steps += [(pit[row - 1].ident, garage.ident), (garage.ident, pit[row + 1].ident)]
        board.garages.append(garage.ident)


def _type_number(board: Stadium, cell: Cell) -> int:
    if cell.stretch in ("pit", "garage"):
        return 7
    if cell.blocked:
        return 4
    if cell.offset is not None:
        return {1: 3, 2: 2, 3: 6}[board.corner_stops[cell.stretch]]
    return 1


def gponline_text(board: Stadium) -> str:
    """The board as a GP Online ``.dat`` file.

    Parameters
    ----------
    board : Stadium

    Returns
    -------
    str
        The file's text: header, spaces, steps, curve distances and
        garages, grid spots; one record a line, ending with a newline.
    """
    lines = ["stadium.png 1 20 3", ""]
    for cell in board.cells:
        flag = " F" if cell.finish else ""
        lines.append(f"{cell.ident} {cell.x:.0f} {cell.y:.0f} {_type_number(board, cell)}{flag}")
    lines.append("")
    lines += [f"{u} {v}" for u, v in board.steps]
    lines.append("")
    lines += [f"{c.ident} {c.offset}" for c in board.cells if c.offset is not None]
    lines += [f"{ident} 1.0" for ident in board.garages]
    lines.append("")
    lines += [f"{spot} 0" for spot in reversed(board.grid)]  # any order: ranked by progress
    return "\n".join(lines) + "\n"


def _code(board: Stadium, cell: Cell) -> str:
    sector = {"top": "s1", "right": "c1", "bottom": "s2", "left": "c2", "pit": "p", "garage": "g"}
    return f"{'imo'[cell.lane]}.{sector[cell.stretch]}.{cell.index}"


def _corner_counts(board: Stadium, stretch: str) -> tuple[int, int]:
    """Longest and shortest way through a corner over the board's own steps."""
    inside = {c.ident for c in board.cells if c.stretch == stretch}
    after: dict[int, list[int]] = {}
    before: dict[int, list[int]] = {}
    for u, v in board.steps:
        if u in inside and v in inside:
            after.setdefault(u, []).append(v)
        if v in inside and u not in inside:
            before.setdefault(v, []).append(u)
    memo: dict[int, tuple[int, int]] = {}

    def ways(n: int) -> tuple[int, int]:
        if n not in memo:
            onward = [ways(m) for m in after.get(n, [])]
            if onward:
                memo[n] = (1 + max(w[0] for w in onward), 1 + min(w[1] for w in onward))
            else:
                memo[n] = (1, 1)
        return memo[n]

    starts = [ways(n) for n in before]
    return max(w[0] for w in starts), min(w[1] for w in starts)


def tts_document(board: Stadium) -> dict:
    """The board as a Tabletop Simulator track document.

    Parameters
    ----------
    board : Stadium

    Returns
    -------
    dict
        JSON-ready: space codes such as ``"m.c1.0"`` for ids, lanes counted
        from the inside, the grid as the ``start`` list pole first.
    """
    # the mod has no garages: its pit lane is the lane alone
    code = {
        c.ident: _code(board, c) for c in board.cells if not c.blocked and c.stretch != "garage"
    }
    onward: dict[int, list[str]] = {}
    for u, v in board.steps:
        if u in code and v in code:
            onward.setdefault(u, []).append(code[v])
    corner_ids = {"right": 1, "left": 2}
    spaces = []
    for cell in board.cells:
        if cell.ident not in code:
            continue
        spaces.append(
            {
                "id": code[cell.ident],
                "pos": [round(cell.x, 1), round(cell.y, 1)],
                "rot": round(cell.heading, 1),
                "lane": cell.lane + 1 if cell.stretch not in ("pit", "garage") else 4,
                "next": onward.get(cell.ident, []),
                "corner": corner_ids.get(cell.stretch),
                "sector": code[cell.ident].split(".")[1],
            }
        )
    corners = []
    for stretch, corner in corner_ids.items():
        longest, shortest = _corner_counts(board, stretch)
        by_lane = [len(board.lane_cells(stretch, lane)) for lane in range(3)]
        corners.append(
            {
                "id": corner,
                "stops": board.corner_stops[stretch],
                "spaces": sum(by_lane),
                "lanes": by_lane,
                "long": longest,
                "short": shortest,
            }
        )
    pit_lane = [c for c in board.cells if c.stretch == "pit"]
    return {
        "id": "Stadium",
        "name": "Stadium",
        "ruleset": "formula_d",
        "image": {"width": 800, "height": 600},
        "lanes": 3,
        "laps": 1,
        "spaces": spaces,
        "corners": corners,
        "start": [code[n] for n in board.grid],
        "finish": {"line": [code[board.cell("top", lane, FINISH_ROW).ident] for lane in range(3)]},
        "pit": {
            "entry": code[board.cell("top", 2, 1).ident],
            "exit": code[board.cell("top", 2, 9).ident],
            "spaces": [code[c.ident] for c in pit_lane],
        },
    }
