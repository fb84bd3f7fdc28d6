"""Many move searches of a lone car at once, layer by layer, as arrays.

The solo model (:mod:`fdlab.par.model`) needs the widest move search from
nearly every space of the board. :func:`fdlab.rules.movement.option_columns`
makes them one at a time, a Python loop per step of every path; this module
makes them all together: one layer (one more space moved) of every search
is a handful of numpy operations over all their states. It applies the very
bookkeeping of :func:`fdlab.rules.movement._explore` (lane changes and the
lanes a car may not return to, M-3, M-4; corners left with or without their
stops, C-3, C-6; the lane lock after an overshoot, C-5; danger spaces, X-3;
tunnels, M-6; the pit lane and the box, P-2, P-7) and keeps its order, so
each search gives the same options in the same order, with the same path
for each (a test compares every column on the shipped boards).

Only what a lone car meets is modelled: no other car on the board. Rules
with occupied spaces, or with a rule switched off, are for the plain search.

Overshoot records ``(corner, stops made, stops required, spaces moved
before the exit)`` are numbered (:class:`_Records`): a state holds the
number of its record, and a record is extended by one number per new
overshoot, so no state carries a tuple.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from fdlab.par.errors import SoloModelError
from fdlab.rules.board import (
    STEP_BOX_IN,
    STEP_CORNER_LANE_CHANGE,
    STEP_PIT_IN,
    STEP_STRAIGHT_LANE_CHANGE,
    Board,
)
from fdlab.rules.movement import MoveRules, _edges

_Ints = NDArray[np.int64]
_Bools = NDArray[np.bool_]


class _Records:
    """Overshoot records by number: 0 is "none", each other one extends an earlier one.

    ``tuples[k]`` is record ``k`` as :func:`~fdlab.rules.movement._explore`
    holds it: a tuple of ``(corner, stops made, stops required, spaces moved
    before the exit line)``.
    """

    def __init__(self) -> None:
        self.tuples: list[tuple[tuple[Any, ...], ...]] = [()]
        self._index: dict[tuple[int, int, int, int], int] = {}

    def extend(self, record: _Ints, corner: _Ints, made: _Ints, at: _Ints, board: _Board) -> _Ints:
        """The numbers of ``record`` extended by one overshoot each (corner codes, stops
        made, spaces moved before the exit), made once per distinct extension."""
        if not len(record):
            return record
        width = len(board.corner_ids) + 1
        code = ((record * width + corner) * (board.max_need + 1) + made) * (board.depth + 1) + at
        unique, inverse = np.unique(code, return_inverse=True)
        numbers = np.empty(len(unique), dtype=np.int64)
        index = self._index
        tuples = self.tuples
        pick = np.zeros(len(unique), dtype=np.int64)
        pick[inverse] = np.arange(len(code))
        for k, (r, c, m, a) in enumerate(
            zip(
                record[pick].tolist(),
                corner[pick].tolist(),
                made[pick].tolist(),
                at[pick].tolist(),
                strict=True,
            )
        ):
            key = (r, c, m, a)
            n = index.get(key)
            if n is None:
                cid = board.corner_ids[c]
                n = index[key] = len(tuples)
                tuples.append((*tuples[r], (cid, m, board.stops[c], a)))
            numbers[k] = n
        out: _Ints = numbers[inverse]
        return out

    def ranks(self) -> _Ints:
        """Each record's place among all of them in tuple order (how the search sorts them)."""
        tuples = self.tuples
        order = sorted(range(len(tuples)), key=tuples.__getitem__)
        rank = np.empty(len(tuples), dtype=np.int64)
        rank[order] = np.arange(len(tuples))
        return rank


@dataclass(frozen=True)
class _Board:
    """What the searches read of a board, as arrays (made once per search batch)."""

    corner: _Ints  # corner code per space, -1 off corners
    corner_ids: list[Any]
    stops: list[int]  # stops required per corner code
    stops_of: _Ints  # the same, as an array
    max_need: int
    lane: _Ints
    danger: _Ints  # 1 on a danger space
    passmask: _Ints
    first_edge: _Ints  # per space, its first step (CSR), and one past the last space's
    target: _Ints
    code: _Ints
    lines: _Ints  # bits of the lines the step crosses
    tunnel: _Ints  # exit of the target's tunnel, -1
    tunnel_lines: _Ints  # bits of the lines crossed from the target to that exit
    line_names: list[str]
    finish: int  # the bit of the finish line (0 if none)
    depth: int


def _board_arrays(board: Board, avoid: frozenset[int], roll: int) -> _Board:
    """What the searches read of ``board`` as arrays: corners by code, lanes, danger
    spaces, the lanes passing a space reopens (M-4, the ``avoid`` spaces), and the
    steps out of every space in the plain search's order (:func:`_edges`)."""
    corner_ids = sorted({c for c in board.corner if c is not None}, key=repr)
    code_of = {c: k for k, c in enumerate(corner_ids)}
    corner = np.asarray([-1 if c is None else code_of[c] for c in board.corner], dtype=np.int64)
    names = sorted({name for lines in board.step_lines.values() for name in lines})
    bit = {name: 1 << k for k, name in enumerate(names)}

    def bits(lines: frozenset[str] | None) -> int:
        return sum(bit[name] for name in lines) if lines else 0

    edges = _edges(board)
    first = np.zeros(len(edges) + 1, dtype=np.int64)
    first[1:] = np.cumsum([len(steps) for steps in edges])
    flat = [step for steps in edges for step in steps]
    passmask = np.zeros(len(board.ids), dtype=np.int64)
    for o in avoid:
        for a in board.abreast[o]:
            passmask[a] |= 1 << board.lane[o]
    step_lines = board.step_lines
    return _Board(
        corner=corner,
        corner_ids=corner_ids,
        stops=[board.stops[c] for c in corner_ids],
        stops_of=np.asarray([board.stops[c] for c in corner_ids] + [0], dtype=np.int64),
        max_need=max([board.stops[c] for c in corner_ids], default=0),
        lane=np.asarray(board.lane, dtype=np.int64),
        danger=np.asarray(board.danger_space, dtype=np.int64),
        passmask=passmask,
        first_edge=first,
        target=np.asarray([s[0] for s in flat], dtype=np.int64),
        code=np.asarray([s[1] for s in flat], dtype=np.int64),
        lines=np.asarray([bits(s[2]) for s in flat], dtype=np.int64),
        tunnel=np.asarray([s[6] for s in flat], dtype=np.int64),
        tunnel_lines=np.asarray(
            [bits(step_lines.get((s[0], s[6]))) if s[6] >= 0 else 0 for s in flat],
            dtype=np.int64,
        ),
        line_names=names,
        finish=bit.get("finish", 0),
        depth=roll + 1,
    )


@dataclass
class Searches:
    """The options of many searches, search by search in the order of
    :func:`~fdlab.rules.movement.option_columns`.

    Attributes
    ----------
    first : ndarray of int
        Per search, its first option (and one past the last search's).
    destination, moved : ndarray of int
    boxed : ndarray of bool
    record : ndarray of int
        The option's overshoot record (:attr:`records`).
    left : ndarray of bool
        The move left the start's corner (a state flag of the search).
    lines : ndarray of int
        Bits of the lines crossed (:attr:`line_names`).
    finish_at : ndarray of int
        Spaces moved when the finish line was first crossed (a tunnel pair is one
        space), 0 where it was not.
    stops : ndarray of int
        Stops made after the move, as :func:`~fdlab.rules.movement.option_columns`
        counts them (C-2, C-6, C-5).
    node : ndarray of int
        The option's last step in the path store (:meth:`path`).
    records : list of tuple
        Overshoot records by number.
    line_names : list of str
        The line of each bit of :attr:`lines`.
    """

    first: _Ints
    destination: _Ints
    moved: _Ints
    boxed: _Bools
    record: _Ints
    left: _Bools
    lines: _Ints
    finish_at: _Ints
    stops: _Ints
    node: _Ints
    records: list[tuple[tuple[Any, ...], ...]]
    line_names: list[str]
    _parent: _Ints
    _space: _Ints
    _walk: tuple[list[int], list[int]] | None = None

    def path(self, i: int) -> tuple[int, ...]:
        """The path of option ``i`` (board indices entered, as in ``MoveOption.path``)."""
        if self._walk is None:  # lists: a walk reads them element by element
            self._walk = (self._parent.tolist(), self._space.tolist())
        parent, space = self._walk
        steps = []
        node = int(self.node[i])
        while node >= 0 and parent[node] >= 0:
            steps.append(space[node])
            node = parent[node]
        return tuple(reversed(steps))

    def line_set(self, bits: int) -> frozenset[str]:
        """The lines of a :attr:`lines` value."""
        return frozenset(name for k, name in enumerate(self.line_names) if bits >> k & 1)


def search_many(board: Board, starts: list[int], rules: list[MoveRules], roll: int) -> Searches:
    """The widest searches from ``starts`` under ``rules``, all at once.

    Every rules value must be that of a lone car (no occupied space, every
    rule in force) with the same ``own_box``, ``avoid`` and
    ``max_lane_changes``; they differ in ``stops_made`` and ``pit_allowed``.

    Raises
    ------
    SoloModelError
        For rules of a car that is not alone, or rules that differ otherwise.

    Examples
    --------
    >>> from fdlab.rules.movement import option_columns
    >>> board = compile_board(from_ascii(". 1 1 . .\\n. 1 1 . .", corners={1: 1}))
    >>> found = search_many(board, [0, 5], [MoveRules(), MoveRules()], 3)
    >>> first = slice(found.first[0], found.first[1])  # the options of the first search
    >>> found.destination[first].tolist(), found.moved[first].tolist()
    ([6, 7, 4, 5, 2, 3, 0], [3, 3, 2, 2, 1, 1, 0])
    >>> option_columns(board, 0, 3).destination
    [6, 7, 4, 5, 2, 3, 0]
    """
    common = rules[0] if rules else MoveRules()
    for r in rules:
        if (
            r.occupied
            or not (r.cars_block and r.no_zigzag and r.lane_lock)
            or (r.own_box, r.avoid, r.max_lane_changes)
            != (common.own_box, common.avoid, common.max_lane_changes)
        ):
            raise SoloModelError(
                f"search_many models a lone car with the same box and limits, not {r}"
            )
    search = _Searching(board, starts, rules, common, roll)
    layer = search.first_layer()
    found: list[_Entries] = []
    for d in range(roll + 1):
        found.append(layer.best_of_each_key(d))
        if d == roll or not len(layer.s):
            break
        steps, boxed = search.steps(layer, d)
        layer = search.next_layer(steps)
        if boxed is not None:
            found.append(boxed)
    return search.options(_Entries.joined(found))


@dataclass
class _Entries:
    """Search entries, one per element: the state key (search, space, corner left,
    overshoot record, danger count) and what an entry holds (lane changes,
    forbidden lanes, lines crossed, its last node in the path store), with the
    spaces moved and whether the car is in its box (options), or the first entry
    of each key (a layer)."""

    s: _Ints
    v: _Ints
    left: _Bools
    rec: _Ints
    nd: _Ints
    lc: _Ints
    fb: _Ints
    ln: _Ints
    fin: _Ints
    node: _Ints
    moved: _Ints
    boxed: _Bools
    head: _Bools

    def take(self, k: NDArray[np.intp]) -> _Entries:
        """The entries ``k``."""
        return _Entries(*(getattr(self, name)[k] for name in _FIELDS))

    @staticmethod
    def joined(parts: list[_Entries]) -> _Entries:
        """All the entries of ``parts``, in order."""
        return _Entries(*(np.concatenate([getattr(p, name) for p in parts]) for name in _FIELDS))

    def best_of_each_key(self, d: int) -> _Entries:
        """Each key once, with its first entry of fewest lane changes (the options of
        ``d`` spaces moved)."""
        heads = np.flatnonzero(self.head)
        size = len(self.lc)
        rank = self.lc * size + np.arange(size)
        best = self.take(np.minimum.reduceat(rank, heads) % size if size else heads)
        best.moved = np.full(len(best.s), d, dtype=np.int64)
        return best


_FIELDS = (
    "s", "v", "left", "rec", "nd", "lc", "fb", "ln", "fin", "node", "moved", "boxed", "head",
)  # fmt: skip


class _Searching:
    """The state of many searches made together: the board as arrays, the overshoot
    records and the path store (a node per space entered: its parent node and the space)."""

    def __init__(
        self, board: Board, starts: list[int], rules: list[MoveRules], common: MoveRules, roll: int
    ) -> None:
        self.b = _board_arrays(board, common.avoid, roll)
        self.records = _Records()
        self.start = np.asarray(starts, dtype=np.int64)
        self.made_at_start = np.asarray([r.stops_made for r in rules], dtype=np.int64)
        self.pit_allowed = np.asarray([r.pit_allowed for r in rules], dtype=bool)
        self.start_corner = self.b.corner[self.start]
        self.own_box = -1 if common.own_box is None else common.own_box
        self.max_lane_changes = common.max_lane_changes
        self._parents: list[_Ints] = [np.full(len(starts), -1, dtype=np.int64)]
        self._spaces: list[_Ints] = [self.start.copy()]
        self._nodes = len(starts)

    def nodes(self, parent: _Ints, space: _Ints) -> _Ints:
        """New nodes of the path store: ``space`` entered after node ``parent``."""
        self._parents.append(parent)
        self._spaces.append(space)
        made = np.arange(self._nodes, self._nodes + len(space), dtype=np.int64)
        self._nodes += len(space)
        return made

    def first_layer(self) -> _Entries:
        """Each search at its start."""
        n = len(self.start)
        zeros = np.zeros(n, dtype=np.int64)
        return _Entries(
            s=np.arange(n, dtype=np.int64), v=self.start.copy(), left=self.start_corner < 0,
            rec=zeros, nd=zeros, lc=zeros, fb=zeros, ln=zeros, fin=zeros,
            node=np.arange(n, dtype=np.int64),
            moved=zeros, boxed=np.zeros(n, dtype=bool), head=np.ones(n, dtype=bool),
        )  # fmt: skip

    def steps(self, layer: _Entries, d: int) -> tuple[_Entries, _Entries | None]:
        """Every legal step out of every entry of ``layer`` (``d`` spaces moved), in the
        order the plain search tries them, as entries keyed by the space reached (its
        ``head`` unset); and the entries that ended in the car's box (P-2), if any."""
        b = self.b
        v = layer.v
        degree = b.first_edge[v + 1] - b.first_edge[v]
        entry = np.repeat(np.arange(len(v)), degree)
        offset = np.arange(len(entry)) - np.repeat(np.cumsum(degree) - degree, degree)
        edge = b.first_edge[v][entry] + offset
        j = b.target[edge]
        code = b.code[edge]
        # M-3, M-4: lane changes on straights, not back to a lane left; C-5: none after
        # an overshoot; P-7: the pit lane only when open (read from the entries' columns:
        # the steps refused are never made)
        change = code == STEP_STRAIGHT_LANE_CHANGE
        zigzag = ((layer.fb[entry] >> b.lane[j]) & 1).astype(bool)
        refused = change & (
            (layer.rec[entry] > 0) | (layer.lc[entry] >= self.max_lane_changes) | zigzag
        )
        refused |= (code == STEP_PIT_IN) & ~self.pit_allowed[layer.s[entry]]
        box = code == STEP_BOX_IN
        boxed = None
        into_box = np.flatnonzero(box & (j == self.own_box))
        if len(into_box):  # the move ends in the box: no corner bookkeeping
            boxed = self._stepped(layer, entry[into_box], edge[into_box], change[into_box], d)
            boxed.lc = layer.lc[entry[into_box]]
            boxed.v = j[into_box]
            boxed.node = self.nodes(boxed.node, boxed.v)
            boxed.moved = np.full(len(into_box), d + 1, dtype=np.int64)
            boxed.boxed = np.ones(len(into_box), dtype=bool)
        live = np.flatnonzero(~(refused | box))
        entry, j, code, edge = entry[live], j[live], code[live], edge[live]
        steps = self._stepped(layer, entry, edge, change[live], d)
        self.enter(steps, j, d)
        leaves_lane = (
            (code == STEP_STRAIGHT_LANE_CHANGE)
            | (code == STEP_CORNER_LANE_CHANGE)
            | (code == STEP_PIT_IN)
        )
        keep = np.flatnonzero(~(leaves_lane & (steps.rec > 0)))  # C-5
        steps, j, edge = steps.take(keep), j[keep], edge[keep]
        steps.node = self.nodes(steps.node, j)
        steps.v = j.copy()  # the path store keeps j: a tunnel's exit replaces the copy's space
        through = np.flatnonzero(b.tunnel[edge] >= 0)
        if len(through):  # on to the tunnel's exit: one space moved (M-6)
            inside = steps.take(through)
            self.enter(inside, b.tunnel[edge[through]], d + 1)
            self.cross(inside, b.tunnel_lines[edge[through]], d)
            inside.node = self.nodes(inside.node, inside.v)
            for name in ("v", "left", "rec", "nd", "fb", "ln", "node"):
                getattr(steps, name)[through] = getattr(inside, name)
        return steps, boxed

    def _stepped(
        self, layer: _Entries, entry: _Ints, edge: _Ints, change: _Bools, d: int
    ) -> _Entries:
        """The entries ``entry`` of ``layer`` after their steps ``edge`` (lines crossed,
        and for a lane change, ``change``, the lane left and one change more), before
        they enter the space reached."""
        steps = layer.take(entry)
        self.cross(steps, self.b.lines[edge], d)
        lane_left = 1 << self.b.lane[steps.v]
        steps.fb = np.where(change, steps.fb | lane_left, steps.fb)
        steps.lc = steps.lc + change
        return steps

    def cross(self, steps: _Entries, lines: _Ints, d: int) -> None:
        """Add the ``lines`` crossed by each entry's step from ``d`` spaces moved, and
        note the spaces moved when the finish line is first crossed."""
        first = (lines & ~steps.ln & self.b.finish) != 0
        steps.ln = steps.ln | lines
        steps.fin = np.where(first, d + 1, steps.fin)

    def enter(self, steps: _Entries, to: _Ints, d: int) -> None:
        """Step each entry from its space into ``to``: corners left (C-3, C-6), danger
        spaces (X-3), lanes one may return to (M-4); ``enter`` of the plain search."""
        b = self.b
        cv = b.corner[steps.v]
        cj = b.corner[to]
        leaving = (cv >= 0) & (cj != cv)
        first_exit = leaving & (cv == self.start_corner[steps.s]) & ~steps.left
        made = np.where(first_exit, self.made_at_start[steps.s], 0)
        steps.left = steps.left | first_exit
        need = np.where(leaving, b.stops_of[np.maximum(cv, 0)], 0)
        short = np.flatnonzero(leaving & (made < need))
        if len(short):
            rec = steps.rec.copy()
            rec[short] = self.records.extend(
                rec[short], cv[short], made[short], np.full(len(short), d), b
            )
            steps.rec = rec
        steps.nd = steps.nd + b.danger[to]
        steps.fb = np.where(cj >= 0, 0, steps.fb & ~b.passmask[to])
        steps.v = to

    def next_layer(self, steps: _Entries) -> _Entries:
        """The next layer from the steps taken (in the order the plain search takes them).

        Steps reaching the same state key (search, space, corner left, record,
        danger count) keep the entries no other entry dominates (as few lane
        changes and no more lanes forbidden; the earlier of two equal ones),
        which is what the plain search's insertions leave. Keys come in the order
        of their first step, entries in the order they were made.
        """
        n = len(steps.s)
        if not n:
            return steps
        numbers = _key_numbers(steps)
        order = np.argsort(numbers, kind="stable")  # key by key, each as made
        key = numbers[order]
        head = np.ones(n, dtype=bool)
        head[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(head)
        sizes = np.diff(np.append(starts, n))
        survive = ~_dominated(steps.lc[order], steps.fb[order], starts, sizes)
        # keys in the order of their first step; entries as made
        key_rank = np.empty(len(starts), dtype=np.int64)
        key_rank[np.argsort(order[starts], kind="stable")] = np.arange(len(starts))
        rank_of = np.repeat(key_rank, sizes)
        kept = np.flatnonzero(survive)
        ordered = kept[np.lexsort((order[kept], rank_of[kept]))]
        layer = steps.take(order[ordered])
        ranks = rank_of[ordered]
        layer.head = np.ones(len(ranks), dtype=bool)
        layer.head[1:] = ranks[1:] != ranks[:-1]
        return layer

    def options(self, found: _Entries) -> Searches:
        """One option per (destination, moved, danger, overshoots, boxed), its entry of
        fewest lane changes (the first of them), search by search in the plain
        search's order: moved descending, destination, danger, overshoots, boxed."""
        n = len(found.s)
        key = _packed(
            [
                found.s,
                found.moved.max(initial=0) - found.moved,
                found.v,
                found.nd,
                self.records.ranks()[found.rec],
                found.boxed.astype(np.int64),
            ]
        )
        order = np.argsort(key, kind="stable")
        key = key[order]
        differs = np.ones(n, dtype=bool)
        differs[1:] = key[1:] != key[:-1]
        heads = np.flatnonzero(differs)
        rank = found.lc[order] * n + np.arange(n)
        pick = order[np.minimum.reduceat(rank, heads) % n] if n else order
        # only the columns an option keeps (most of the entries' are for the search)
        search, destination, record, left = (
            found.s[pick],
            found.v[pick],
            found.rec[pick],
            found.left[pick],
        )
        return Searches(
            first=np.searchsorted(search, np.arange(len(self.start) + 1)).astype(np.int64),
            destination=destination,
            moved=found.moved[pick],
            boxed=found.boxed[pick],
            record=record,
            left=left,
            lines=found.ln[pick],
            finish_at=found.fin[pick],
            stops=self.stops_after(search, destination, record, left),
            node=found.node[pick],
            records=self.records.tuples,
            line_names=self.b.line_names,
            _parent=np.concatenate(self._parents),
            _space=np.concatenate(self._spaces),
        )

    def stops_after(self, search: _Ints, destination: _Ints, record: _Ints, left: _Bools) -> _Ints:
        """Stops made after each option (C-2, C-6, C-5), as
        :func:`~fdlab.rules.movement.option_columns` counts them, from each option's
        search, destination, overshoot record and start corner left: one more than made
        for a move that ends in the start corner without leaving it short (nor after
        leaving it with its stops made), else 0 after an overshoot and 1 without."""
        b = self.b
        made = self.made_at_start[search]
        start_corner = self.start_corner[search]
        dest_corner = b.corner[destination]
        start_done = (start_corner >= 0) & (made >= b.stops_of[start_corner])
        inside = (dest_corner >= 0) & (dest_corner == start_corner)
        # a move that ends in the start corner after leaving it without its stops
        left_short = np.zeros(len(search), dtype=bool)
        records = self.records.tuples
        for i in np.flatnonzero(inside & (record > 0)).tolist():
            mine = b.corner_ids[int(start_corner[i])]
            left_short[i] = any(over[0] == mine for over in records[int(record[i])])
        again = inside & ~((left & start_done) | left_short)
        after = np.where(again, made + 1, np.where(record > 0, 0, 1))
        stops: _Ints = np.where(dest_corner < 0, 0, after)
        return stops


def _key_numbers(steps: _Entries) -> _Ints:
    """A number per state key (search, space, corner left, record, danger count), equal
    exactly for equal keys (:func:`_packed`)."""
    return _packed([steps.s, steps.v, steps.left.astype(np.int64), steps.rec, steps.nd])


def _packed(fields: list[_Ints]) -> _Ints:
    """One number per element for non-negative ``fields``, in their lexicographic order
    (equal exactly where every field is): the fields packed into one integer, or, where
    they do not fit in one, numbered by a sort of the rows.

    Examples
    --------
    >>> _packed([np.array([1, 0, 1]), np.array([0, 5, 0])]).tolist()
    [6, 5, 6]
    """
    key = np.zeros(len(fields[0]), dtype=np.int64)
    room = 1
    for field in fields:
        width = int(field.max(initial=0)) + 1
        room *= width
        key = key * width + field
    if room >= 1 << 62:
        numbers: _Ints = np.unique(np.stack(fields), axis=1, return_inverse=True)[1]
        return numbers.reshape(-1)
    return key


def _dominated(lc: _Ints, fb: _Ints, starts: _Ints, sizes: _Ints) -> _Bools:
    """Per entry (entries key by key, each key's in the order made), whether another entry
    of its key has as few lane changes and no lane forbidden that it has not (and is not
    equal to it, or is equal and earlier): the entries the plain search's insertions drop.

    Examples
    --------
    >>> _dominated(np.array([1, 0, 0, 2]), np.array([0, 1, 1, 0]), np.array([0, 3]),
    ...            np.array([3, 1])).tolist()
    [False, False, True, False]
    """
    dropped = np.zeros(len(lc), dtype=bool)
    if not (sizes > 1).any():
        return dropped
    # every pair (x, y) of entries of one key
    member = np.flatnonzero(np.repeat(sizes > 1, sizes))
    group_size = np.repeat(sizes, sizes)[member]
    x = np.repeat(member, group_size)
    within = np.arange(len(x)) - np.repeat(np.cumsum(group_size) - group_size, group_size)
    y = np.repeat(np.repeat(starts, sizes)[member], group_size) + within
    weakly = (lc[y] <= lc[x]) & ((fb[y] & ~fb[x]) == 0) & (x != y)
    equal = (lc[y] == lc[x]) & (fb[y] == fb[x])
    dropped[x[weakly & (~equal | (y < x))]] = True
    return dropped
