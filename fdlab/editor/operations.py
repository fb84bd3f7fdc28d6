"""Undoable edits of a track, as small command objects.

Every operation has ``apply(track)`` and ``revert(track)``. ``apply`` checks
the edit against the track first and raises :class:`EditError` before it
changes anything; it records what it overwrites, so ``revert`` puts the
track back exactly as it was. Applying again after a revert (redo) gives
the same result as the first time.

Operations change the graph in place (a 500-space board is not copied for
each click) and leave derived values (corner ``long``/``short``) to the
controller, which recomputes them after every apply and revert.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from fdlab.editor.errors import EditError
from fdlab.editor.graph_order import GraphOrder, record_order, reorder_keys, restore_order
from fdlab.track.model import (
    EDGE_KINDS,
    HAZARDS,
    LINE_NAMES,
    SPACE_DEFAULTS,
    SPACE_KINDS,
    ContactKind,
    CornerId,
    SpaceId,
    StepKind,
    Track,
)

_MISSING = object()


class Operation(ABC):
    """One undoable edit. Subclasses set ``label`` and implement the two methods."""

    label: str = "edit"

    @abstractmethod
    def apply(self, track: Track) -> None:
        """Check the edit against ``track``, then make it."""

    @abstractmethod
    def revert(self, track: Track) -> None:
        """Undo the last :meth:`apply` on ``track``."""

    def __str__(self) -> str:
        return self.label


def _check_space(track: Track, space: SpaceId, what: str) -> None:
    if space not in track.graph:
        raise EditError(f"{what}: space {space!r} is not on track {track.name!r}")


def check_space_value(track: Track, space: SpaceId, key: str, value: Any) -> None:
    """Raise :class:`EditError` unless ``value`` is a legal ``key`` of ``space``.

    Examples
    --------
    >>> track = from_ascii(". 1 .", corners={1: 1})
    >>> check_space_value(track, 0, "hazard", "danger")
    >>> check_space_value(track, 0, "corner", 7)
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: space 0: corner 7 does not exist; create it first (known: [1])
    """
    where = f"space {space!r}"
    if key not in SPACE_DEFAULTS:
        raise EditError(f"{where}: {key!r} is not a space attribute (see docs/schema.md)")
    if key == "kind" and value not in SPACE_KINDS:
        raise EditError(f"{where}: kind must be one of {SPACE_KINDS}, not {value!r}")
    if key == "hazard" and value not in HAZARDS:
        raise EditError(f"{where}: hazard must be one of {HAZARDS}, not {value!r}")
    if key == "corner" and value is not None and value not in track.corners:
        raise EditError(
            f"{where}: corner {value!r} does not exist; create it first "
            f"(known: {sorted(track.corners)})"
        )
    if key in ("grid", "box") and value is not None and (not isinstance(value, int) or value < 1):
        raise EditError(f"{where}: {key} must be a whole number from 1, or None, not {value!r}")
    if key in ("lane", "level") and (not isinstance(value, int) or value < 0):
        raise EditError(f"{where}: {key} must be a whole number from 0, not {value!r}")
    if key == "tunnel" and value is not None and not (isinstance(value, str) and value):
        raise EditError(f"{where}: a tunnel label is a non-empty text, not {value!r}")


@dataclass
class SetSpaceAttributes(Operation):
    """Set attributes of some spaces; ``changes`` maps space -> {attribute: value}.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> op = SetSpaceAttributes({1: {"hazard": "shooting"}})
    >>> op.apply(track); track.space(1)["hazard"]
    'shooting'
    >>> op.revert(track); track.space(1)["hazard"] is None
    True
    """

    changes: Mapping[SpaceId, Mapping[str, Any]]
    label: str = "set spaces"
    _old: dict[SpaceId, dict[str, Any]] = field(default_factory=dict, repr=False)

    def apply(self, track: Track) -> None:
        for space, attrs in self.changes.items():
            _check_space(track, space, self.label)
            for key, value in attrs.items():
                check_space_value(track, space, key, value)
        self._old = {
            space: {key: track.graph.nodes[space][key] for key in attrs}
            for space, attrs in self.changes.items()
        }
        for space, attrs in self.changes.items():
            track.graph.nodes[space].update(attrs)

    def revert(self, track: Track) -> None:
        for space, attrs in self._old.items():
            track.graph.nodes[space].update(attrs)


def set_same(
    spaces: Iterable[SpaceId], label: str = "set spaces", **attrs: Any
) -> SetSpaceAttributes:
    """A :class:`SetSpaceAttributes` giving every space in ``spaces`` the same values."""
    return SetSpaceAttributes({space: dict(attrs) for space in spaces}, label=label)


@dataclass
class AddStep(Operation):
    """Add the step ``u -> v`` (an arrow a car may follow)."""

    u: SpaceId
    v: SpaceId
    kind: StepKind = "ahead"
    lines: frozenset[str] = frozenset()
    label: str = "add step"

    def apply(self, track: Track) -> None:
        where = f"step {self.u!r}->{self.v!r}"
        _check_space(track, self.u, where)
        _check_space(track, self.v, where)
        if self.u == self.v:
            raise EditError(f"{where}: a step must lead to another space")
        if track.graph.has_edge(self.u, self.v):
            raise EditError(f"{where} already exists")
        if self.kind not in EDGE_KINDS:
            raise EditError(f"{where}: kind must be one of {EDGE_KINDS}, not {self.kind!r}")
        unknown = set(self.lines) - set(LINE_NAMES)
        if unknown:
            raise EditError(f"{where}: unknown line(s) {sorted(unknown)}; use {LINE_NAMES}")
        track.graph.add_edge(self.u, self.v, kind=self.kind, lines=frozenset(self.lines))

    def revert(self, track: Track) -> None:
        track.graph.remove_edge(self.u, self.v)


@dataclass
class RemoveStep(Operation):
    """Remove the step ``u -> v``."""

    u: SpaceId
    v: SpaceId
    label: str = "remove step"
    _old: dict[str, Any] = field(default_factory=dict, repr=False)
    _order: GraphOrder | None = field(default=None, repr=False)

    def apply(self, track: Track) -> None:
        if not track.graph.has_edge(self.u, self.v):
            raise EditError(f"step {self.u!r}->{self.v!r} is not on track {track.name!r}")
        self._old = dict(track.graph.edges[self.u, self.v])
        self._order = record_order(track.graph, [self.u, self.v])
        track.graph.remove_edge(self.u, self.v)

    def revert(self, track: Track) -> None:
        track.graph.add_edges_from([(self.u, self.v, self._old)])
        assert self._order is not None, "revert before apply"
        restore_order(track.graph, self._order)


@dataclass
class SetStepLines(Operation):
    """Set the ``lines`` of some steps; ``changes`` maps (u, v) -> line names."""

    changes: Mapping[tuple[SpaceId, SpaceId], frozenset[str]]
    label: str = "set lines"
    _old: dict[tuple[SpaceId, SpaceId], frozenset[str]] = field(default_factory=dict, repr=False)

    def apply(self, track: Track) -> None:
        for (u, v), lines in self.changes.items():
            if not track.graph.has_edge(u, v):
                raise EditError(f"{self.label}: step {u!r}->{v!r} is not on track {track.name!r}")
            unknown = set(lines) - set(LINE_NAMES)
            if unknown:
                raise EditError(f"step {u!r}->{v!r}: unknown line(s) {sorted(unknown)}")
        self._old = {edge: track.graph.edges[edge]["lines"] for edge in self.changes}
        for edge, lines in self.changes.items():
            track.graph.edges[edge]["lines"] = frozenset(lines)

    def revert(self, track: Track) -> None:
        for edge, lines in self._old.items():
            track.graph.edges[edge]["lines"] = lines


@dataclass
class SetCorner(Operation):
    """Create, change (``info`` given) or delete (``info=None``) one corner's entry.

    ``info`` holds ``stops`` (1-3) and ``name``; ``long``/``short`` are derived.
    Deleting a corner that still has spaces is refused.
    """

    corner: CornerId
    info: Mapping[str, Any] | None
    label: str = "set corner"
    _old: Any = field(default=_MISSING, repr=False)
    _order: tuple[Any, ...] = field(default=(), repr=False)

    def apply(self, track: Track) -> None:
        where = f"corner {self.corner!r}"
        if self.info is None:
            if self.corner not in track.corners:
                raise EditError(f"{where} does not exist on track {track.name!r}")
            members = track.corner_spaces(self.corner)
            if members:
                raise EditError(f"{where} still has spaces {members}; clear them first")
        else:
            stops = self.info.get("stops")
            needs_stops = "stops" in self.info or self.corner not in track.corners
            if needs_stops and (not isinstance(stops, int) or not 1 <= stops <= 3):
                raise EditError(f"{where}: stops must be 1, 2 or 3 (C-1), not {stops!r}")
            name = self.info.get("name", "")
            if not isinstance(name, str):
                raise EditError(f"{where}: a corner name is text, not {name!r}")
        corners = track.corners
        self._old = dict(corners[self.corner]) if self.corner in corners else _MISSING
        self._order = tuple(track.corners)
        if self.info is None:
            del track.corners[self.corner]
        else:
            entry = dict(track.corners.get(self.corner, {"long": 0, "short": 0}))
            entry.update(self.info)
            entry.setdefault("name", f"Corner {self.corner}")
            track.corners[self.corner] = entry

    def revert(self, track: Track) -> None:
        if self._old is _MISSING:
            track.corners.pop(self.corner, None)
        else:
            track.corners[self.corner] = dict(self._old)
            reorder_keys(track.corners, self._order)


@dataclass
class SetTrackInfo(Operation):
    """Set the board's ``name``, ``description`` or ``laps`` (graph attributes)."""

    changes: Mapping[str, Any]
    label: str = "set track info"
    _old: dict[str, Any] = field(default_factory=dict, repr=False)

    def apply(self, track: Track) -> None:
        for key, value in self.changes.items():
            if key in ("name", "description") and not isinstance(value, str):
                raise EditError(f"track {key} must be text, not {value!r}")
            if key == "name" and not value.strip():
                raise EditError("track name must not be empty")
            if key == "laps" and (not isinstance(value, int) or value < 1):
                raise EditError(f"track laps must be a whole number from 1 (P-1), not {value!r}")
            if key not in ("name", "description", "laps"):
                raise EditError(f"{key!r} is not editable track info; use name, description, laps")
        self._old = {key: track.graph.graph[key] for key in self.changes}
        track.graph.graph.update(self.changes)

    def revert(self, track: Track) -> None:
        track.graph.graph.update(self._old)


@dataclass
class AddSpaces(Operation):
    """Add new spaces with their steps and contacts (a pit lane, boxes...).

    ``spaces`` maps new id -> attributes; ``steps`` are ``(u, v, kind, lines)``;
    ``contacts`` are ``(a, b, kind, rear)``.
    """

    spaces: Mapping[SpaceId, Mapping[str, Any]]
    steps: Sequence[tuple[SpaceId, SpaceId, StepKind, frozenset[str]]] = ()
    contacts: Sequence[tuple[SpaceId, SpaceId, ContactKind, SpaceId | None]] = ()
    label: str = "add spaces"

    def apply(self, track: Track) -> None:
        for space, attrs in self.spaces.items():
            if space in track.graph:
                raise EditError(f"{self.label}: space {space!r} already exists")
            for key, value in attrs.items():
                check_space_value(track, space, key, value)
        known = set(track.graph) | set(self.spaces)
        for u, v, kind, _ in self.steps:
            if u not in known or v not in known:
                raise EditError(f"{self.label}: step {u!r}->{v!r} joins a missing space")
            if kind not in EDGE_KINDS:
                raise EditError(f"{self.label}: step {u!r}->{v!r} has unknown kind {kind!r}")
        for space, attrs in self.spaces.items():
            data = dict(SPACE_DEFAULTS)
            data.update(attrs)
            track.graph.add_nodes_from([(space, data)])
            track.contacts.add_node(space)
        for u, v, kind, lines in self.steps:
            track.graph.add_edge(u, v, kind=kind, lines=frozenset(lines))
        for a, b, contact_kind, rear in self.contacts:
            track.add_contact(a, b, contact_kind, rear=rear)

    def revert(self, track: Track) -> None:
        track.graph.remove_nodes_from(list(self.spaces))
        track.contacts.remove_nodes_from(list(self.spaces))


@dataclass
class RemoveSpaces(Operation):
    """Remove spaces with every step and contact that touches them."""

    spaces: Sequence[SpaceId]
    label: str = "remove spaces"
    _nodes: dict[SpaceId, dict[str, Any]] = field(default_factory=dict, repr=False)
    _steps: list[tuple[SpaceId, SpaceId, dict[str, Any]]] = field(default_factory=list, repr=False)
    _contacts: list[tuple[SpaceId, SpaceId, dict[str, Any]]] = field(
        default_factory=list, repr=False
    )
    _orders: tuple[GraphOrder, GraphOrder] | None = field(default=None, repr=False)

    def apply(self, track: Track) -> None:
        for space in self.spaces:
            _check_space(track, space, self.label)
        graph, doomed = track.graph, set(self.spaces)
        self._orders = (record_order(graph, doomed), record_order(track.contacts, doomed))
        self._nodes = {s: dict(graph.nodes[s]) for s in self.spaces}
        self._steps = [
            (u, v, dict(d)) for u, v, d in graph.edges(data=True) if u in doomed or v in doomed
        ]
        self._contacts = [
            (a, b, dict(d))
            for a, b, d in track.contacts.edges(data=True)
            if a in doomed or b in doomed
        ]
        graph.remove_nodes_from(self.spaces)
        track.contacts.remove_nodes_from(self.spaces)

    def revert(self, track: Track) -> None:
        for space, attrs in self._nodes.items():
            track.graph.add_nodes_from([(space, attrs)])
            track.contacts.add_node(space)
        for u, v, attrs in self._steps:
            track.graph.add_edges_from([(u, v, attrs)])
        for a, b, attrs in self._contacts:
            track.contacts.add_edges_from([(a, b, attrs)])
        assert self._orders is not None, "revert before apply"
        restore_order(track.graph, self._orders[0])
        restore_order(track.contacts, self._orders[1])


@dataclass
class ReplaceBoard(Operation):
    """Swap the whole board (graph and contacts) for another one, e.g. a rebuild.

    The :class:`Track` object stays the same, so views holding it stay valid.
    """

    new: Track
    label: str = "replace board"
    _old: tuple[nx.DiGraph, nx.Graph] | None = field(default=None, repr=False)

    def apply(self, track: Track) -> None:
        self._old = (track.graph, track.contacts)
        replacement = self.new.copy()
        track.graph, track.contacts = replacement.graph, replacement.contacts

    def revert(self, track: Track) -> None:
        assert self._old is not None, "revert before apply"
        track.graph, track.contacts = self._old


@dataclass
class Composite(Operation):
    """Several operations applied as one undo step (all or nothing).

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> op = Composite([AddStep(0, 2), AddStep(0, 2)], label="twice")
    >>> op.apply(track)
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: step 0->2 already exists
    >>> track.graph.has_edge(0, 2)  # the first half was rolled back
    False
    """

    parts: Sequence[Operation]
    label: str = "edit"

    def apply(self, track: Track) -> None:
        done: list[Operation] = []
        try:
            for part in self.parts:
                part.apply(track)
                done.append(part)
        except Exception:
            for part in reversed(done):
                part.revert(track)
            raise

    def revert(self, track: Track) -> None:
        for part in reversed(self.parts):
            part.revert(track)


@dataclass
class SetGraphValue(Operation):
    """Set one graph attribute (the build spec, the edit log...) to a new value.

    The value replaces the old one (never changed in place), so the old one
    can be put back.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> op = SetGraphValue("edits", [{"edit": "remove_pit_lane", "args": {}}])
    >>> op.apply(track); len(track.graph.graph["edits"])
    1
    >>> op.revert(track); "edits" in track.graph.graph
    False
    """

    key: str
    value: Any
    label: str = "set a board attribute"
    #: Take the attribute away instead (``value`` is not used).
    remove: bool = False
    _old: Any = field(default=_MISSING, repr=False)

    def apply(self, track: Track) -> None:
        self._old = track.graph.graph.get(self.key, _MISSING)
        if self.remove:
            track.graph.graph.pop(self.key, None)
        else:
            track.graph.graph[self.key] = self.value

    def revert(self, track: Track) -> None:
        if self._old is _MISSING:
            track.graph.graph.pop(self.key, None)
        else:
            track.graph.graph[self.key] = self._old


@dataclass
class Staged(Operation):
    """Operations made one after another, each planned on the board the previous ones left.

    ``stages`` are callables ``stage(track) -> Operation | None``; the
    operations they return are kept, so a redo makes exactly the same ones.
    All or nothing, like :class:`Composite`.

    Examples
    --------
    >>> track = from_ascii(". . .")
    >>> op = Staged([lambda t: AddStep(0, 2), lambda t: RemoveStep(0, 1)], label="bypass")
    >>> op.apply(track); sorted(track.graph.edges)
    [(0, 2), (1, 2)]
    >>> op.revert(track); op.apply(track); sorted(track.graph.edges)
    [(0, 2), (1, 2)]
    """

    stages: Sequence[Callable[[Track], Operation | None]]
    label: str = "edit"
    _done: list[Operation] | None = field(default=None, repr=False)

    def apply(self, track: Track) -> None:
        if self._done is not None:  # redo: the same operations again
            Composite(self._done).apply(track)
            return
        done: list[Operation] = []
        try:
            for stage in self.stages:
                operation = stage(track)
                if operation is None:
                    continue
                operation.apply(track)
                done.append(operation)
        except Exception:
            for operation in reversed(done):
                operation.revert(track)
            raise
        self._done = done

    def revert(self, track: Track) -> None:
        assert self._done is not None, "revert before apply"
        for operation in reversed(self._done):
            operation.revert(track)
