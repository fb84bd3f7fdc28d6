"""Small boards drawn as text, for tests, lessons and quick experiments.

Each text row is a lane (the top row is lane 0, the leftmost lane when
driving to the right); each column is one space along the track. Tokens are
separated by blanks:

======  =====================================================
token   meaning
======  =====================================================
``.``   a plain space
``1-9`` a space of that corner (the number is the corner id)
``S``   a shooting space (street rules)
``D``   a danger space (street rules)
``x``   no space here
``p``   a pit-lane space (pit rows go below the track rows)
``B``   a pit box (box rows go below the pit row)
======  =====================================================

Space ids are ``column * rows + row`` so a test can name them by position.
Every space steps ahead in its lane and diagonally to the neighbouring
lanes of the next column (``lane_change``); inside corners the diagonal
arrows can be switched off with ``corner_lane_changes=False``.

Spaces are unit squares laid out as drawn, so the step that closes a
``closed`` board jumps from the last column back to the first. With
``ring=True`` a closed board is bent into a ring instead (driving
anticlockwise, lane 0 inside, pit and box rows outside), so that its
geometry is sound too: no long closing step, no overlapping spaces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
from shapely.geometry import Polygon
from shapely.geometry import box as rectangle

from fdlab.track.corners import update_corner_counts
from fdlab.track.errors import AsciiBoardError
from fdlab.track.model import Track, add_space, add_step, new_graph

_HAZARD_TOKENS = {"S": "shooting", "D": "danger"}


def from_ascii(  # noqa: PLR0913 (a board's features are its keywords, the public API)
    text: str,
    *,
    corners: Mapping[int, int | Mapping[str, Any]] | None = None,
    closed: bool = False,
    finish: int | None = None,
    police: int | None = None,
    grid: Sequence[int] = (),
    tunnels: Mapping[str, tuple[int, int]] | None = None,
    corner_lane_changes: bool = True,
    name: str = "ascii board",
    laps: int = 1,
    ring: bool = False,
) -> Track:
    """Build a :class:`~fdlab.track.model.Track` from a board drawn as text.

    Parameters
    ----------
    text : str
        The board, one row per lane (see the module docstring for tokens).
    corners : mapping, optional
        Corner id -> stop count, or -> ``{"stops": n, "name": "..."}``.
    closed : bool
        Join the last column to the first (a loop). The finish line then lies
        between them unless ``finish`` says otherwise.
    finish : int, optional
        Column that starts the lap: steps into it cross the finish line.
    police : int, optional
        Column whose incoming steps cross the police line.
    grid : sequence of int
        Space ids of the grid spots, pole first.
    tunnels : mapping, optional
        Label -> ``(entry, exit)`` space ids; a ``tunnel`` step joins them.
    corner_lane_changes : bool
        Allow diagonal steps inside corners (the arrows of a wide corner).
    name : str
        The board's name.
    laps : int
        Default race length.
    ring : bool
        Bend a ``closed`` board into a ring (see the module docstring).

    Returns
    -------
    Track

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . 1 1 .
    ...     . . 1 1 .
    ... ''', corners={1: 2}, finish=0)
    >>> track.corners[1]
    {'stops': 2, 'name': 'Corner 1', 'long': 2, 'short': 2}
    >>> sorted(track.graph.successors(0))
    [2, 3]
    """
    board = _read_board(text, closed=closed, finish=finish, police=police)
    if ring and not closed:
        raise AsciiBoardError("ring=True bends a closed board into a ring; pass closed=True too")
    graph = new_graph(name, laps=laps, space_length=1.0, lap_length=float(board.ncols))
    _add_corners(graph, corners or {})
    _add_spaces(graph, board, ring)
    _add_steps(graph, board, corner_lane_changes)
    _join_pit(graph, board)
    _add_tunnels(graph, tunnels or {})
    _add_grid(graph, grid)
    update_corner_counts(graph)
    track = Track(graph)
    _add_contacts(track, board)
    return track


@dataclass(frozen=True)
class _Board:
    """The board as drawn: the token in each cell and the kind of each row.

    Rows are numbered from the top, columns from the left; ``cells`` holds
    every cell that is a space (not ``x``), in reading order.
    """

    cells: dict[tuple[int, int], str]
    kinds: dict[int, str]
    nrows: int
    ncols: int
    closed: bool
    finish: int | None
    police: int | None

    def rows(self, kind: str) -> list[int]:
        """The rows of one kind (``"track"``, ``"pit"`` or ``"box"``), top first."""
        return [r for r in range(self.nrows) if self.kinds[r] == kind]

    def sid(self, r: int, c: int) -> int:
        """The space id of row ``r``, column ``c``."""
        return c * self.nrows + r

    def next_col(self, c: int) -> int | None:
        """The column after ``c``: the first one after the last on a closed board."""
        if c + 1 < self.ncols:
            return c + 1
        return 0 if self.closed else None

    def progress(self, c: int) -> float:
        """How far column ``c`` lies along the lap, counted from the finish column."""
        if self.finish is None:
            return float(c)
        if self.closed:
            return float((c - self.finish) % self.ncols)
        return float(c - self.finish)

    def lines_into(self, c_from: int, c_to: int) -> list[str]:
        """The lines (finish, police) a step from column ``c_from`` to ``c_to`` crosses."""
        crossed = []
        if self.finish is not None and c_to == self.finish and c_from != c_to:
            crossed.append("finish")
        if self.police is not None and c_to == self.police and c_from != c_to:
            crossed.append("police")
        return crossed


def _read_board(text: str, *, closed: bool, finish: int | None, police: int | None) -> _Board:
    """The tokens of ``text`` laid out in rows and columns, each row's kind checked."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise AsciiBoardError("the board is empty: draw at least one row of spaces")
    cells: dict[tuple[int, int], str] = {}
    kinds: dict[int, str] = {}
    for r, row in enumerate(rows):
        kinds[r] = _row_kind(row, r)
        cells.update({(r, c): tok for c, tok in enumerate(row) if tok != "x"})
    track_rows = [r for r in range(len(rows)) if kinds[r] == "track"]
    if track_rows != list(range(len(track_rows))):
        raise AsciiBoardError("track rows must come first, then the pit row, then box rows")
    return _Board(
        cells=cells,
        kinds=kinds,
        nrows=len(rows),
        ncols=max(len(row) for row in rows),
        closed=closed,
        finish=0 if finish is None and closed else finish,
        police=police,
    )


def _row_kind(row: Sequence[str], r: int) -> str:
    """The one kind of space (track, pit or box) in row ``r``; a row of gaps is track."""
    row_kinds = {_token_kind(tok, r, c) for c, tok in enumerate(row)} - {"gap"}
    if len(row_kinds) > 1:
        raise AsciiBoardError(f"row {r} mixes {sorted(row_kinds)} spaces; keep one kind a row")
    return row_kinds.pop() if row_kinds else "track"


def _token_kind(tok: str, r: int, c: int) -> str:
    if tok == "x":
        return "gap"
    if tok == "p":
        return "pit"
    if tok == "B":
        return "box"
    if tok == "." or tok in _HAZARD_TOKENS or tok.isdecimal():
        return "track"
    raise AsciiBoardError(
        f"row {r}, column {c}: unknown token {tok!r}; use . 1-9 S D x p B (see fdlab.track.ascii)"
    )


def _add_corners(graph: nx.DiGraph, corners: Mapping[int, int | Mapping[str, Any]]) -> None:
    """Record each corner's stops and name (``Corner <id>`` unless named)."""
    corner_info: dict[Any, dict[str, Any]] = {
        cid: dict(spec) if isinstance(spec, Mapping) else {"stops": spec}
        for cid, spec in corners.items()
    }
    for cid, info in corner_info.items():
        info.setdefault("name", f"Corner {cid}")
        graph.graph["corners"][cid] = {"stops": int(info["stops"]), "name": info["name"]}


def _add_spaces(graph: nx.DiGraph, board: _Board, ring: bool) -> None:
    """Add a space for each cell, column by column; box spaces are numbered in that order."""
    box_slot = 0
    for (r, c), tok in sorted(board.cells.items(), key=lambda item: (item[0][1], item[0][0])):
        corner = int(tok) if tok.isdecimal() else None
        if corner is not None and corner not in graph.graph["corners"]:
            raise AsciiBoardError(
                f"row {r}, column {c}: corner {corner} has no stop count; pass corners={{{corner}: n}}"
            )
        kind = board.kinds[r]
        x, y, polygon = _ring_cell(r, c, board.ncols) if ring else _square_cell(r, c)
        attrs: dict[str, Any] = {
            "x": x,
            "y": y,
            "polygon": polygon,
            "lane": r if kind == "track" else 0,
            "progress": board.progress(c),
            "kind": kind,
            "corner": corner,
            "hazard": _HAZARD_TOKENS.get(tok),
        }
        if kind == "box":
            box_slot += 1
            attrs["box"] = box_slot
        add_space(graph, board.sid(r, c), **attrs)


def _add_steps(graph: nx.DiGraph, board: _Board, corner_lane_changes: bool) -> None:
    """Add the steps to the next column: ahead and diagonal on the track, ahead in the pit lane."""
    for r, c in board.cells:
        c2 = board.next_col(c)
        if c2 is None:
            continue
        if board.kinds[r] == "track":
            _add_track_steps(graph, board, r, c, c2, corner_lane_changes)
        elif board.kinds[r] == "pit" and (r, c2) in board.cells:
            add_step(graph, board.sid(r, c), board.sid(r, c2), "ahead", board.lines_into(c, c2))


def _add_track_steps(
    graph: nx.DiGraph, board: _Board, r: int, c: int, c2: int, corner_lane_changes: bool
) -> None:
    """Add the steps from track cell ``(r, c)`` to the same and neighbouring lanes of ``c2``."""
    here = board.sid(r, c)
    for dr in (0, -1, 1):
        r2 = r + dr
        if board.kinds.get(r2) != "track" or (r2, c2) not in board.cells:
            continue
        there = board.sid(r2, c2)
        in_corner = graph.nodes[here]["corner"] is not None and (
            graph.nodes[there]["corner"] == graph.nodes[here]["corner"]
        )
        if dr and in_corner and not corner_lane_changes:
            continue
        add_step(graph, here, there, "ahead" if dr == 0 else "lane_change", board.lines_into(c, c2))


def _add_tunnels(graph: nx.DiGraph, tunnels: Mapping[str, tuple[int, int]]) -> None:
    """Join each tunnel's entry to its exit and label both spaces."""
    for label, (entry, exit_) in tunnels.items():
        for s in (entry, exit_):
            if s not in graph:
                raise AsciiBoardError(f"tunnel {label!r}: space {s} is not on the board")
            graph.nodes[s]["tunnel"] = str(label)
        add_step(graph, entry, exit_, "tunnel")


def _add_grid(graph: nx.DiGraph, grid: Sequence[int]) -> None:
    """Number the grid spots, pole first."""
    for pos, s in enumerate(grid, start=1):
        if s not in graph:
            raise AsciiBoardError(f"grid spot {pos}: space {s} is not on the board")
        graph.nodes[s]["grid"] = pos


def _square_cell(r: int, c: int) -> tuple[float, float, Polygon]:
    return float(c) + 0.5, -float(r) - 0.5, rectangle(c, -r - 1, c + 1, -r)


def _ring_cell(r: int, c: int, ncols: int) -> tuple[float, float, Polygon]:
    """Centre and outline of row ``r``, column ``c`` on a ring of ``ncols`` columns.

    Lane 0 runs at one space length per column; outer rows are longer.
    """
    inner = max(0.5, ncols / (2 * math.pi) - 0.5) + r

    def point(radius: float, column: float) -> tuple[float, float]:
        angle = 2 * math.pi * column / ncols
        return radius * math.cos(angle), radius * math.sin(angle)

    outline = Polygon(
        [point(inner, c), point(inner, c + 1), point(inner + 1, c + 1), point(inner + 1, c)]
    )
    x, y = point(inner + 0.5, c + 0.5)
    return x, y, outline


def _join_pit(graph: nx.DiGraph, board: _Board) -> None:
    """Join the pit row (if any) to the outer track lane, and each box to the pit lane."""
    pit_rows = board.rows("pit")
    if not pit_rows:
        return
    pit_row, outer_lane = pit_rows[0], board.rows("track")[-1]
    cells, sid = board.cells, board.sid
    pit_cols = sorted(c for (r, c) in cells if r == pit_row)
    first, last = pit_cols[0], pit_cols[-1]
    if first > 0 and (outer_lane, first - 1) in cells:
        add_step(graph, sid(outer_lane, first - 1), sid(pit_row, first), "pit_in", ["pit_entry"])
    exit_col = board.next_col(last)
    if exit_col is not None and (outer_lane, exit_col) in cells:
        add_step(
            graph,
            sid(pit_row, last),
            sid(outer_lane, exit_col),
            "pit_out",
            ["pit_exit", *board.lines_into(last, exit_col)],
        )
    for r in board.rows("box"):
        for c in sorted(c for (rr, c) in cells if rr == r):
            if (pit_row, c - 1) in cells:
                add_step(graph, sid(pit_row, c - 1), sid(r, c), "box_in")
            if (pit_row, c + 1) in cells:
                add_step(
                    graph, sid(r, c), sid(pit_row, c + 1), "box_out", board.lines_into(c, c + 1)
                )


def _add_contacts(track: Track, board: _Board) -> None:
    """Add the contacts: beside (neighbouring track lanes) and behind (the next column)."""
    cells, kinds, sid = board.cells, board.kinds, board.sid
    for r, c in cells:
        if kinds[r] == "box":
            continue
        here = sid(r, c)
        if kinds[r] == "track" and (r + 1, c) in cells and kinds[r + 1] == "track":
            track.add_contact(here, sid(r + 1, c), "beside")
        c2 = board.next_col(c)
        if c2 is not None and (r, c2) in cells:
            track.add_contact(here, sid(r, c2), "behind", rear=here)
