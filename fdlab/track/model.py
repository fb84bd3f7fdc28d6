"""The track model: a Formula D board as a networkx graph of spaces.

The schema is documented in ``docs/schema.md``. In short:

* nodes are spaces, with attributes ``x``, ``y``, ``polygon``, ``lane``,
  ``progress``, ``kind``, ``corner``, ``hazard``, ``tunnel``, ``grid``,
  ``box`` and ``level``;
* directed edges are the steps a car may take, with ``kind`` and ``lines``;
* ``graph.graph`` holds ``name``, ``schema``, ``laps``, ``corners``,
  ``units``, ``space_length``, ``lap_length`` and ``description``;
* the *contacts* relation ("behind or beside", used for collisions) is a
  separate undirected graph whose edges carry ``kind`` (``beside`` or
  ``behind``) and, for ``behind``, ``rear``: the space of the car behind.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal, TypeAlias, TypedDict, cast, get_args

import networkx as nx

from fdlab.track.errors import SpaceNotOnTrackError, TrackError, TrackTypeError

SCHEMA_VERSION = 1

#: A space's id in a track file: a whole number, or a label (boards of other programs).
SpaceId: TypeAlias = int | str
#: A corner's id: its key in ``track.corners`` and a space's ``corner``. A whole number (the
#: loader refuses any other, ``fdlab.track.schema.CORNER_ID``).
CornerId: TypeAlias = int
#: What a space is (``SPACE_KINDS``).
SpaceKind: TypeAlias = Literal["track", "pit", "box"]
#: What a step is (``EDGE_KINDS``).
StepKind: TypeAlias = Literal[
    "ahead", "lane_change", "pit_in", "pit_out", "box_in", "box_out", "tunnel"
]
#: What a contact is (``CONTACT_KINDS``): side by side, or one space behind the other.
ContactKind: TypeAlias = Literal["beside", "behind"]
#: A street-rules hazard of a space (``HAZARDS``, where ``None`` is no hazard).
Hazard: TypeAlias = Literal["shooting", "danger"]

# Each tuple is read from its Literal, so the values are written once.
SPACE_KINDS: tuple[SpaceKind, ...] = get_args(SpaceKind)
EDGE_KINDS: tuple[StepKind, ...] = get_args(StepKind)
HAZARDS: tuple[Hazard | None, ...] = (None, *get_args(Hazard))
CONTACT_KINDS: tuple[ContactKind, ...] = get_args(ContactKind)
LINE_NAMES = ("finish", "police", "pit_entry", "pit_exit")

#: How tall a board's picture in a notebook may be, in pixels: a laptop screen
#: (1366x768) shows about 600 pixels of a notebook's output at once.
SCREEN_PICTURE_HEIGHT = 600

#: Default attribute values of a space; every node of a track carries all of them.
SPACE_DEFAULTS: dict[str, Any] = {
    "x": 0.0,
    "y": 0.0,
    "polygon": None,
    "lane": 0,
    "progress": 0.0,
    "kind": "track",
    "corner": None,
    "hazard": None,
    "tunnel": None,
    "grid": None,
    "box": None,
    "level": 0,
}

#: Default graph attributes of a track.
TRACK_DEFAULTS: dict[str, Any] = {
    "name": "untitled",
    "description": "",
    "schema": SCHEMA_VERSION,
    "laps": 1,
    "corners": {},
    "units": "m",
    "space_length": 1.0,
    "lap_length": 0.0,
}


class TrackAttributes(TypedDict):
    """The graph attributes every track carries (``graph.graph``), as the schema types them.

    ``docs/schema.md`` describes them. A track may carry more (``build``,
    ``picture``, ``imported_from``, ``edits``), which this type leaves out.

    Attributes
    ----------
    name : str
        The circuit's name.
    description : str
        One or two sentences for someone choosing a board.
    schema : int
        The file schema version (``SCHEMA_VERSION``).
    laps : int
        The default race length.
    corners : dict
        Corner id -> ``{"stops", "name", "long", "short"}``.
    units : str
        Unit of ``x`` and ``y``: ``"m"`` or ``"px"``.
    space_length : float
        Nominal length of a space along the centreline, in ``units``.
    lap_length : float
        Progress at which the lap closes.
    """

    name: str
    description: str
    schema: int
    laps: int
    corners: dict[CornerId, dict[str, Any]]
    units: str
    space_length: float
    lap_length: float


class SpaceAttributes(TypedDict):
    """The attributes every space carries (a node's dict), as the schema types them.

    ``docs/schema.md`` describes them; ``SPACE_DEFAULTS`` holds their
    defaults. A space may carry more (kept from a file), which this type
    leaves out.

    Attributes
    ----------
    x, y : float
        Centre of the space.
    polygon : shapely Polygon or None
        Outline of the space.
    lane : int
        0 is the leftmost lane in the direction of travel.
    progress : float
        Distance along the lap from the finish line, in spaces.
    kind : {"track", "pit", "box"}
    corner : int or None
        Corner id.
    hazard : {None, "shooting", "danger"}
        Street-rules hazard.
    tunnel : str or None
        Tunnel pair label.
    grid : int or None
        Grid spot, 1 for pole.
    box : int or None
        For ``box`` spaces: the owner slot (car number, 1-based).
    level : int
        0 on the ground, 1 on a bridge, -1 under the track.
    """

    x: float
    y: float
    polygon: Any  # a shapely Polygon or None (shapely has no types)
    lane: int
    progress: float
    kind: SpaceKind
    corner: CornerId | None
    hazard: Hazard | None
    tunnel: str | None
    grid: int | None
    box: int | None
    level: int


def track_attributes(graph: nx.DiGraph) -> TrackAttributes:
    """The graph attributes of ``graph`` (``graph.graph`` itself), typed as the schema says.

    networkx has no types: this is where a track's graph attributes get
    theirs. Nothing is checked or copied (:func:`fdlab.track.validate.validate`
    checks a track).

    Examples
    --------
    >>> track_attributes(new_graph("Test ring", laps=2))["laps"]
    2
    """
    return cast(TrackAttributes, graph.graph)


def space_attributes(graph: nx.DiGraph, space: SpaceId) -> SpaceAttributes:
    """The attribute dict of ``space`` in ``graph`` (the node's own dict), typed as the schema says.

    networkx has no types: this is where a space's attributes get theirs.
    Nothing is checked or copied.

    Raises
    ------
    KeyError
        When ``space`` is not a node of ``graph`` (networkx's own error).

    Examples
    --------
    >>> graph = new_graph()
    >>> add_space(graph, 7, lane=1)
    >>> space_attributes(graph, 7)["lane"]
    1
    """
    return cast(SpaceAttributes, graph.nodes[space])


class Track:
    """A Formula D board: spaces, the steps between them, corners and contacts.

    Parameters
    ----------
    graph : networkx.DiGraph
        Spaces as nodes and steps as edges, following the schema in
        ``docs/schema.md``. Missing node and graph attributes are filled with
        their defaults; the graph is used as is (not copied).
    contacts : networkx.Graph, optional
        The "behind or beside" relation. Each edge has ``kind`` (``"beside"``
        or ``"behind"``) and, for ``"behind"``, ``rear`` (the space behind).

    Examples
    --------
    >>> track = from_ascii('''
    ...     . . 1 1 . .
    ...     . . 1 1 . .
    ... ''', corners={1: 1})
    >>> len(track), track.corners[1]["stops"]
    (12, 1)
    """

    def __init__(self, graph: nx.DiGraph, contacts: nx.Graph | None = None) -> None:
        if not isinstance(graph, nx.DiGraph):
            raise TrackTypeError(f"a Track wraps a networkx.DiGraph, not {type(graph).__name__}")
        for key, value in TRACK_DEFAULTS.items():
            if key not in graph.graph:
                graph.graph[key] = dict(value) if isinstance(value, dict) else value
        for _, data in graph.nodes(data=True):
            for key, value in SPACE_DEFAULTS.items():
                data.setdefault(key, value)
        for _, _, data in graph.edges(data=True):
            data.setdefault("kind", "ahead")
            data["lines"] = frozenset(data.get("lines", ()))
        self.graph = graph
        self.contacts = contacts if contacts is not None else nx.Graph()
        self.contacts.add_nodes_from(graph.nodes)

    # -- graph-level attributes -------------------------------------------------
    @property
    def name(self) -> str:
        """The circuit's name."""
        return track_attributes(self.graph)["name"]

    @property
    def description(self) -> str:
        """A short description for people choosing a board."""
        return track_attributes(self.graph)["description"]

    @property
    def laps(self) -> int:
        """The default race length in laps."""
        return track_attributes(self.graph)["laps"]

    @property
    def corners(self) -> dict[CornerId, dict[str, Any]]:
        """Corner id -> ``{"stops", "name", "long", "short"}``."""
        return track_attributes(self.graph)["corners"]

    @property
    def lap_length(self) -> float:
        """Progress value at which a lap closes (the finish line is at 0)."""
        return track_attributes(self.graph)["lap_length"]

    # -- spaces -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.graph)

    def __iter__(self) -> Iterator[SpaceId]:
        return iter(self.graph.nodes)

    def __contains__(self, space: object) -> bool:
        return space in self.graph

    def space(self, space: SpaceId) -> SpaceAttributes:
        """The attribute dict of one space (the graph's own, not a copy).

        Raises
        ------
        SpaceNotOnTrackError
            A ``KeyError`` (and a :class:`~fdlab.track.errors.TrackError`) naming the
            missing space and the track.

        Examples
        --------
        >>> from_ascii(". .", name="Tiny").space(99)
        Traceback (most recent call last):
        ...
        fdlab.track.errors.SpaceNotOnTrackError: space 99 is not on track 'Tiny'
        """
        try:
            return space_attributes(self.graph, space)
        except KeyError:
            raise SpaceNotOnTrackError(f"space {space!r} is not on track {self.name!r}") from None

    def spaces(self, **attrs: Any) -> list[SpaceId]:
        """Ids of the spaces whose attributes equal all of ``attrs``.

        Examples
        --------
        >>> track = from_ascii(". . 1 1 .", corners={1: 2})
        >>> track.spaces(corner=1)
        [2, 3]
        """
        return [
            n
            for n, data in self.graph.nodes(data=True)
            if all(data.get(k) == v for k, v in attrs.items())
        ]

    def corner_spaces(self, corner: CornerId) -> list[SpaceId]:
        """The spaces of one corner."""
        return self.spaces(corner=corner)

    def grid_spots(self) -> list[SpaceId]:
        """Grid spaces ordered from pole (grid 1) backwards."""
        spots = [(d["grid"], n) for n, d in self.graph.nodes(data=True) if d["grid"] is not None]
        return [n for _, n in sorted(spots)]

    def boxes(self) -> list[SpaceId]:
        """Pit boxes ordered by their owner slot."""
        boxes = [(d["box"], n) for n, d in self.graph.nodes(data=True) if d["kind"] == "box"]
        return [n for _, n in sorted(boxes, key=lambda item: (item[0] is None, item[0] or 0))]

    def tunnel_pairs(self) -> dict[str, list[SpaceId]]:
        """Tunnel label -> the spaces that carry it."""
        pairs: dict[str, list[SpaceId]] = {}
        for n, d in self.graph.nodes(data=True):
            if d["tunnel"] is not None:
                pairs.setdefault(d["tunnel"], []).append(n)
        return pairs

    # -- steps and contacts -----------------------------------------------------
    def steps(self, space: SpaceId) -> list[tuple[SpaceId, dict[str, Any]]]:
        """The steps out of ``space`` as ``(next_space, edge_attributes)`` pairs."""
        return list(self.graph.adj[space].items())

    def edges_crossing(self, line: str) -> list[tuple[SpaceId, SpaceId]]:
        """Steps that cross the named line (``"finish"``, ``"police"``...)."""
        return [(u, v) for u, v, d in self.graph.edges(data=True) if line in d["lines"]]

    def touching(self, space: SpaceId) -> list[SpaceId]:
        """Spaces a car on ``space`` touches: it is behind or beside them (D-5).

        A car directly *ahead* of another does not touch it; the car behind
        does.

        Examples
        --------
        >>> track = from_ascii('''
        ...     . . .
        ...     . . .
        ... ''')
        >>> sorted(track.touching(2))  # lane 0, second column: beside 3, behind 4
        [3, 4]
        """
        touched: list[SpaceId] = []
        for other, data in self.contacts.adj[space].items():
            if data.get("kind") == "beside" or data.get("rear") == space:
                touched.append(other)
        return touched

    def add_contact(
        self, a: SpaceId, b: SpaceId, kind: ContactKind, rear: SpaceId | None = None
    ) -> None:
        """Record that spaces ``a`` and ``b`` touch.

        Parameters
        ----------
        a, b : SpaceId
        kind : ContactKind
            ``"beside"`` or ``"behind"``; any other text is refused.
        rear : SpaceId, optional
            For ``"behind"``: which of ``a`` and ``b`` is the rear space.

        Raises
        ------
        TrackError
            For an unknown kind, or a ``"behind"`` contact without its rear space.
        """
        if kind not in CONTACT_KINDS:
            raise TrackError(f"contact kind must be one of {CONTACT_KINDS}, not {kind!r}")
        if kind == "behind" and rear not in (a, b):
            raise TrackError(f"a 'behind' contact between {a!r} and {b!r} needs rear=one of them")
        attrs: dict[str, SpaceId | None] = {"kind": kind}
        if kind == "behind":
            attrs["rear"] = rear
        self.contacts.add_edge(a, b, **attrs)

    # -- copies and comparison --------------------------------------------------
    def copy(self) -> Track:
        """A deep-enough copy: graphs and attribute dicts are new objects.

        Shapely geometries are immutable and shared.
        """
        graph = self.graph.copy()
        graph.graph = {
            k: ({c: dict(v) for c, v in val.items()} if k == "corners" else val)
            for k, val in self.graph.graph.items()
        }
        return Track(graph, self.contacts.copy())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Track):
            return NotImplemented
        return (
            self.graph.graph == other.graph.graph
            and dict(self.graph.nodes(data=True)) == dict(other.graph.nodes(data=True))
            and _edge_dict(self.graph) == _edge_dict(other.graph)
            and _contact_dict(self.contacts) == _contact_dict(other.contacts)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Track {self.name!r}: {len(self)} spaces, {len(self.corners)} corners, "
            f"{self.graph.number_of_edges()} steps>"
        )

    # -- notebook display -------------------------------------------------------
    def _repr_svg_(self) -> str:
        from fdlab.plot import track_svg

        # the whole board in sight on a laptop screen (1366x768)
        return track_svg(self, max_height=SCREEN_PICTURE_HEIGHT)


def _edge_dict(graph: nx.DiGraph) -> dict[tuple[SpaceId, SpaceId], dict[str, Any]]:
    return {(u, v): d for u, v, d in graph.edges(data=True)}


def _contact_dict(contacts: nx.Graph) -> dict[frozenset[SpaceId], dict[str, Any]]:
    return {frozenset((u, v)): d for u, v, d in contacts.edges(data=True)}


def new_graph(name: str = "untitled", **attrs: Any) -> nx.DiGraph:
    """An empty track graph carrying the default graph attributes.

    Examples
    --------
    >>> g = new_graph("Test ring", laps=2)
    >>> g.graph["schema"], g.graph["laps"]
    (1, 2)
    """
    graph = nx.DiGraph()
    graph.graph.update(
        {k: (dict(v) if isinstance(v, dict) else v) for k, v in TRACK_DEFAULTS.items()}
    )
    graph.graph["name"] = name
    graph.graph.update(attrs)
    return graph


def add_space(graph: nx.DiGraph, space: SpaceId, **attrs: Any) -> None:
    """Add one space with every schema attribute set (defaults filled in)."""
    unknown = set(attrs) - set(SPACE_DEFAULTS)
    if unknown:
        raise TrackError(f"unknown space attribute(s) {sorted(unknown)} for space {space!r}")
    data = dict(SPACE_DEFAULTS)
    data.update(attrs)
    graph.add_node(space, **data)


def add_step(
    graph: nx.DiGraph, u: SpaceId, v: SpaceId, kind: StepKind = "ahead", lines: Iterable[str] = ()
) -> None:
    """Add one step ``u -> v`` of the given kind, crossing ``lines``.

    Parameters
    ----------
    graph : networkx.DiGraph
    u, v : SpaceId
    kind : StepKind
        One of ``EDGE_KINDS``; any other text is refused.
    lines : iterable of str
        The lines the step crosses (``LINE_NAMES``).

    Raises
    ------
    TrackError
        For an unknown kind.
    """
    if kind not in EDGE_KINDS:
        raise TrackError(f"step {u!r}->{v!r}: kind must be one of {EDGE_KINDS}, not {kind!r}")
    graph.add_edge(u, v, kind=kind, lines=frozenset(lines))


def starts_lap_again(before: float, after: float, lap_length: float) -> bool:
    """Whether a step from progress ``before`` to progress ``after`` starts the lap again.

    The finish line lies where the lap starts again (laps are counted by
    crossing it, S-4): a step over it goes from the end of the lap to its
    beginning, so progress falls by half a lap or more. A step may fall a
    hair without crossing anything (into a pit lane beside a long space of
    the track, whose progress is a hair lower): that is not a new lap.

    Parameters
    ----------
    before, after : float
        Progress (or any distance along the lap) where the step starts and ends.
    lap_length : float
        Where the lap closes, in the same unit. A board that does not know
        it (0, the model's default: a new board in the editor, a graph made
        by hand) has no half lap to measure by; then every fall of progress
        starts the lap again, since the step back to the start of the lap
        always falls.

    Returns
    -------
    bool

    Examples
    --------
    >>> starts_lap_again(142.0, 0.0, 143.0)  # over the finish line
    True
    >>> starts_lap_again(132.0, 131.98, 143.0)  # into the pit lane, a hair back
    False
    >>> starts_lap_again(3.0, 4.0, 143.0)
    False
    >>> starts_lap_again(1.0, 0.0, 2.0)  # a lap of two spaces: one forward, over the line
    True
    >>> starts_lap_again(132.0, 131.98, 0.0)  # lap length unknown: any fall
    True
    """
    fall = before - after
    if lap_length > 0:
        return fall >= lap_length / 2
    return fall > 0
