"""The editor's plain-Python controller: edits as undoable operations.

The controller owns one :class:`~fdlab.track.model.Track`. Every change goes
through :meth:`EditorController.apply` (or a named helper that builds the
operation), which checks it, makes it, pushes it on the undo stack, marks
the track unsaved, recomputes the corner path counts and revalidates.
Widgets only translate clicks into these calls and redraw from the model, so
everything here runs, and is tested, without a browser.
"""

from __future__ import annotations

import functools
import html
import inspect
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

from fdlab._text import counted
from fdlab.editor import edit_log
from fdlab.editor.backdrop import PICTURE_KEY, checked_placement
from fdlab.editor.errors import (
    EditError,
    LoadError,
    NothingChangedError,
    NothingToUndoError,
    SaveError,
    UnsavedChangesError,
)
from fdlab.editor.operations import (
    AddSpaces,
    AddStep,
    Composite,
    Operation,
    RemoveSpaces,
    RemoveStep,
    ReplaceBoard,
    SetCorner,
    SetGraphValue,
    SetSpaceAttributes,
    SetStepLines,
    SetTrackInfo,
    set_same,
)
from fdlab.track.corners import update_corner_counts
from fdlab.track.model import LINE_NAMES, CornerId, SpaceId, StepKind, Track, new_graph

Listener = Callable[["EditorController", str], None]
Method = TypeVar("Method", bound=Callable[..., Any])

#: Graph attribute holding the edits made since the last build (see :mod:`fdlab.editor.edit_log`).
EDITS_KEY = "edits"
#: The labels of placing and of removing the picture under the board (it is not played
#: on: the editor keeps its verdict through them).
PLACE_PICTURE = "place the picture"
REMOVE_PICTURE = "remove the picture"
_SKIP = object()  # an edit that needs no record (a rebuild, the board's name)


def recorded(method: Method) -> Method:
    """Write the edit a controller method makes into the board's edit log, placed by lap position.

    The record is made from the arguments before the edit changes the board;
    a method called by another recorded method (``set_hazard`` calls
    ``set_spaces``) adds no record of its own.
    """
    signature = inspect.signature(method)

    @functools.wraps(method)
    def wrapper(self: EditorController, *args: Any, **kwargs: Any) -> Any:
        if self._recording is not None:
            return method(self, *args, **kwargs)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = {}
        for name, value in list(bound.arguments.items())[1:]:
            kind = signature.parameters[name].kind
            if kind is inspect.Parameter.VAR_KEYWORD:
                arguments.update(value)
                continue
            if edit_log.SIGNATURES[method.__name__].get(name) in ("spaces", "steps"):
                value = list(value)  # a generator is read once: for the record and the edit
                bound.arguments[name] = value
            arguments[name] = value
        try:
            self._recording = edit_log.encode(self.track, method.__name__, arguments)
        except (KeyError, LookupError, ValueError, TypeError):
            self._recording = _SKIP  # the method itself names what is wrong
        try:
            return method(*bound.args, **bound.kwargs)
        finally:
            self._recording = None

    return wrapper  # type: ignore[return-value]


def board_state(track: Track) -> tuple[Any, ...]:
    """What a save writes, in the order it writes it, as comparable Python values.

    Two boards with equal states save to the same bytes. Cheaper than
    :func:`fdlab.track.io.dumps`, so the editor can tell after every edit
    whether the board still is the saved one.

    Examples
    --------
    >>> a, b = from_ascii(". . ."), from_ascii(". . .")
    >>> board_state(a) == board_state(b)
    True
    >>> a.graph.add_edge(0, 2, kind="ahead", lines=frozenset())
    >>> b.graph.remove_edge(0, 1)
    >>> b.graph.add_edge(0, 2, kind="ahead", lines=frozenset())
    >>> b.graph.add_edge(0, 1, kind="ahead", lines=frozenset())
    >>> board_state(a) == board_state(b)  # the same steps in another order
    False
    """
    graph = track.graph
    attrs = {
        key: ([(c, dict(info)) for c, info in value.items()] if key == "corners" else value)
        for key, value in graph.graph.items()
    }
    return (
        attrs,
        [(n, dict(d)) for n, d in graph.nodes(data=True)],
        [(u, v, dict(d)) for u, v, d in graph.edges(data=True)],
        [(a, b, dict(d)) for a, b, d in track.contacts.edges(data=True)],
    )


class EditorController:
    """Holds a track and applies undoable edits to it.

    Parameters
    ----------
    track : Track, optional
        The board to edit (edited in place). A new blank board by default.
    path : str or Path, optional
        The file the track came from; :meth:`save` writes there by default.
    validator : callable, optional
        ``validator(track)`` returning a report with ``.problems``. Defaults
        to :func:`fdlab.track.validate.validate`.

    Examples
    --------
    >>> editor = EditorController(from_ascii(". . 1 1 .", corners={1: 1}))
    >>> editor.set_corner_stops(1, 3)
    >>> editor.track.corners[1]["stops"], editor.dirty
    (3, True)
    >>> editor.undo()
    'set stops of corner 1 to 3'
    >>> editor.track.corners[1]["stops"], editor.dirty
    (1, False)
    """

    def __init__(
        self,
        track: Track | None = None,
        *,
        path: str | Path | None = None,
        validator: Callable[[Track], Any] | None = None,
    ) -> None:
        self.track = track if track is not None else Track(new_graph("new circuit"))
        self.path = Path(path) if path is not None else None
        self._validator = validator
        self._undo: list[Operation] = []
        self._redo: list[Operation] = []
        self._saved_history: list[Operation] = []
        self._saved_state = board_state(self.track)
        self._version = 0
        self._dirty_cache: tuple[int, bool] | None = None
        self._recording: Any = None
        self._batch = False
        self._listeners: list[Listener] = []
        self._report: Any = None
        self._report_version = -1  # the _version the report was made at
        self.last_replay: edit_log.Replayed | None = None
        self.revalidate()

    # -- history ----------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        """True when saving would write other bytes than the last save or load did.

        An edit and its inverse (3 stops, then 1 stop again) leave the board
        clean; so does undoing back to the saved state.
        """
        if self.unsaved_edits == 0:
            return False
        if self._dirty_cache is None or self._dirty_cache[0] != self._version:
            self._dirty_cache = (self._version, board_state(self.track) != self._saved_state)
        return self._dirty_cache[1]

    @property
    def unsaved_edits(self) -> int:
        """How many edits (done or undone) lie between the last save or load and now.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.set_hazard([1], "danger"); editor.set_hazard([2], "danger")
        >>> label = editor.undo()
        >>> editor.unsaved_edits
        1
        """
        saved, now = self._saved_history, self._undo
        common = 0
        for a, b in zip(saved, now, strict=False):
            if a is not b:
                break
            common += 1
        return len(saved) + len(now) - 2 * common

    @property
    def can_undo(self) -> bool:
        """Whether there is an edit to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone edit to redo."""
        return bool(self._redo)

    @property
    def last_edit(self) -> object | None:
        """The edit :meth:`undo` would revert now, as a token compared by identity (or ``None``).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> before = editor.last_edit
        >>> editor.set_hazard([1], "danger")
        >>> editor.last_edit is before, before is None
        (False, True)
        """
        return self._undo[-1] if self._undo else None

    @property
    def history(self) -> list[str]:
        """Labels of the edits that :meth:`undo` would revert, oldest first."""
        return [op.label for op in self._undo]

    def apply(self, operation: Operation) -> None:
        """Apply one edit, record it for undo and revalidate.

        The edit also goes into the board's edit log (graph attribute
        ``edits``), placed by lap position, so a rebuild can make it again;
        an operation applied directly, not through a named method, is
        logged by its label only (a rebuild lists it as not placeable).

        Raises
        ------
        EditError
            When the edit does not fit the track; the track is unchanged.
        """
        record = self._recording
        if record is None:
            record = {"edit": None, "args": {}, "label": operation.label}
        if record is not _SKIP and len(self.track):
            log = edit_log.appended(
                self.track.graph.graph.get(EDITS_KEY, []), {**record, "label": operation.label}
            )
            operation = Composite([operation, SetGraphValue(EDITS_KEY, log)], label=operation.label)
        operation.apply(self.track)
        self._undo.append(operation)
        self._redo.clear()
        self._after_change(operation.label)

    def undo(self) -> str:
        """Revert the last edit and return its label."""
        if not self._undo:
            raise NothingToUndoError("nothing to undo: no edit since the track was opened")
        operation = self._take_back()
        self._after_change(f"undo {operation.label}")
        return operation.label

    def _take_back(self) -> Operation:
        """Revert the last edit, ready to be redone (listeners are told by the caller)."""
        operation = self._undo.pop()
        operation.revert(self.track)
        self._redo.append(operation)
        return operation

    def undo_rebuild(self) -> str:
        """Bring back the board as it was before the last rebuild: revert the rebuild
        and every edit made since, as one change (each step can be redone).

        Returns the rebuild's label.

        Raises
        ------
        NothingToUndoError
            When no board replacement (a rebuild) is in the undo history.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.replace_board(from_ascii(". . . . ."))
        >>> editor.set_hazard([1], "danger")
        >>> editor.undo_rebuild(), len(editor.track), editor.can_redo
        ('rebuild the board', 3, True)
        """
        rebuilds = [i for i, op in enumerate(self._undo) if isinstance(op, ReplaceBoard)]
        if not rebuilds:
            raise NothingToUndoError(
                "undo rebuild: the board was not rebuilt since it was opened (nothing to undo)"
            )
        after = len(self._undo) - rebuilds[-1] - 1
        while len(self._undo) > rebuilds[-1]:
            operation = self._take_back()
        also = f" and the {counted(after, 'edit')} after it" if after else ""
        self._after_change(f"undo {operation.label}{also}")
        return operation.label

    def redo(self) -> str:
        """Apply again the last undone edit and return its label."""
        if not self._redo:
            raise NothingToUndoError("nothing to redo: no edit was undone since the last edit")
        operation = self._redo.pop()
        operation.apply(self.track)
        self._undo.append(operation)
        self._after_change(f"redo {operation.label}")
        return operation.label

    # -- listeners and validation -----------------------------------------------
    def observe(self, listener: Listener) -> None:
        """Call ``listener(controller, what)`` after every change of the track.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.observe(lambda controller, what: print(what))
        >>> editor.set_hazard([1], "danger")
        set hazard='danger' on space 1
        """
        self._listeners.append(listener)

    def revalidate(self) -> Any:
        """Recompute corner path counts and the validator's report.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 2}))
        >>> editor.track.corners[1]["long"] = 99  # changed behind the editor's back
        >>> editor.revalidate().problems == editor.report.problems, editor.track.corners[1]["long"]
        (True, 2)
        """
        update_corner_counts(self.track.graph)
        validator = self._validator
        if validator is None:
            from fdlab.track.validate import validate

            validator = validate
        self._report = validator(self.track)
        self._report_version = self._version
        return self._report

    @property
    def report(self) -> Any:
        """The validator's report on the track as it is now.

        Made when first asked after an edit, not by the edit: a view draws
        the edited board first and reads the report after (validating a
        Monaco-size board takes as long as redrawing it).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 2}))
        >>> editor.set_corner_stops(1, 3)  # its shortest path is 2 spaces
        >>> "short_corner" in [problem.code for problem in editor.report.problems]
        True
        """
        if self._report_version != self._version:
            self.revalidate()
        return self._report

    @property
    def problems(self) -> list[Any]:
        """The problems of the validation report on the track as it is now."""
        return list(getattr(self.report, "problems", []))

    def _after_change(self, what: str) -> None:
        self._version += 1
        if self._batch:
            return  # a replay counts and validates once, at its end
        update_corner_counts(self.track.graph)  # drawn with the board; the report waits
        for listener in self._listeners:
            listener(self, what)

    # -- the board ----------------------------------------------------------------
    def set_info(
        self, *, name: str | None = None, description: str | None = None, laps: int | None = None
    ) -> None:
        """Rename the board, describe it or change its default race length.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.set_info(name="Stadium", laps=2)
        >>> editor.track.name, editor.track.laps
        ('Stadium', 2)
        """
        changes = {
            key: value
            for key, value in (("name", name), ("description", description), ("laps", laps))
            if value is not None
        }
        if not changes:
            raise EditError("set info: give a name, a description or laps")
        text = ", ".join(f"{key}={value!r}" for key, value in changes.items())
        self._recording = _SKIP  # a rebuild keeps the name, description and laps anyway
        try:
            self.apply(SetTrackInfo(changes, label=f"set {text}"))
        finally:
            self._recording = None

    def set_picture(self, placement: dict[str, Any] | None) -> None:
        """Keep where the traced picture lies with the board (``None``: no picture).

        ``placement`` is :meth:`fdlab.editor.backdrop.Backdrop.placement`: the
        picture's ``file`` (relative to the board's file) and its ``width``,
        ``x``, ``y``, ``angle`` and ``opacity``. It is saved with the board
        (the track's ``picture`` field), so the picture is back under the
        board when the file is opened again. An edit like any other: undo
        puts the picture back where it was.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.set_picture({"file": "scan.png", "width": 800.0, "x": 0.0, "y": 0.0,
        ...                     "angle": 0.0, "opacity": 0.5})
        >>> editor.track.graph.graph["picture"]["width"], editor.dirty
        (800.0, True)
        >>> editor.set_picture({"file": "scan.png", "width": -1})
        Traceback (most recent call last):
        ...
        fdlab.editor.errors.EditError: picture: width must be a number more than 0, not -1
        """
        if placement is not None:
            placement = checked_placement(placement)
        if placement == self.track.graph.graph.get(PICTURE_KEY):
            return
        label = PLACE_PICTURE if placement is not None else REMOVE_PICTURE
        self._recording = _SKIP  # a rebuild keeps the picture anyway
        try:
            self.apply(SetGraphValue(PICTURE_KEY, placement, label=label, remove=placement is None))
        finally:
            self._recording = None

    # -- spaces -----------------------------------------------------------------
    @recorded
    def set_spaces(self, spaces: Iterable[SpaceId], **attrs: Any) -> None:
        """Give every space in ``spaces`` the same attribute values.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.set_spaces([1, 2], hazard="danger")
        >>> editor.track.spaces(hazard="danger")
        [1, 2]
        """
        spaces = _as_list(spaces, "set spaces")
        names = ", ".join(f"{k}={v!r}" for k, v in attrs.items())
        self.apply(set_same(spaces, label=f"set {names} on {_count(spaces)}", **attrs))

    @recorded
    def set_hazard(self, spaces: Iterable[SpaceId], hazard: str | None) -> None:
        """Mark spaces as ``"shooting"`` or ``"danger"`` (street rules), or clear them.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.set_hazard([0, 2], "shooting")
        >>> editor.track.spaces(hazard="shooting")
        [0, 2]
        """
        self.set_spaces(spaces, hazard=hazard)

    @recorded
    def move_hazard(
        self, old: Iterable[SpaceId], new: Iterable[SpaceId], hazard: str | None
    ) -> None:
        """Move a hazard zone: clear ``old``, mark ``new`` with ``hazard``; one edit, one Undo.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . ."))
        >>> editor.set_hazard([0, 1], "danger")
        >>> editor.move_hazard([0, 1], [1, 2], "danger")
        >>> editor.track.spaces(hazard="danger")
        [1, 2]
        >>> editor.undo()
        'move the danger zone to 2 spaces'
        """
        cleared = self._require_spaces(old, "move hazard")
        marked = self._require_spaces(new, "move hazard")
        changes: dict[SpaceId, dict[str, Any]] = {space: {"hazard": None} for space in cleared}
        changes.update({space: {"hazard": hazard} for space in marked})
        label = f"move the {hazard} zone to {_count(marked)}"
        self.apply(SetSpaceAttributes(changes, label=label))

    @recorded
    def set_grid_spot(self, space: SpaceId, number: int | None) -> None:
        """Make ``space`` grid spot ``number`` (1 = pole); a space already on it loses it.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . .", grid=[2, 1]))
        >>> editor.set_grid_spot(0, 1)
        >>> editor.track.grid_spots()
        [0, 1]
        """
        changes: dict[SpaceId, dict[str, Any]] = {}
        if number is not None:
            for other in self.track.spaces(grid=number):
                if other != space:
                    changes[other] = {"grid": None}
        changes[space] = {"grid": number}
        label = f"make space {space} grid spot {number}" if number else f"clear grid on {space}"
        self.apply(SetSpaceAttributes(changes, label=label))

    @recorded
    def set_grid(self, spaces: Iterable[SpaceId]) -> None:
        """Lay the whole grid again on ``spaces``, pole first: one edit, undone by one Undo.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . .", grid=[2, 3]))
        >>> editor.set_grid([0, 1])
        >>> editor.track.grid_spots()
        [0, 1]
        >>> editor.undo()
        'lay the grid on 2 spaces'
        >>> editor.track.grid_spots()
        [2, 3]
        """
        spaces = self._require_spaces(spaces, "set grid")
        if len(set(spaces)) != len(spaces):
            raise EditError(f"set grid: a space is given twice in {spaces}")
        changes: dict[SpaceId, dict[str, Any]] = {
            old: {"grid": None} for old in self.track.grid_spots()
        }
        for number, space in enumerate(spaces, start=1):
            changes[space] = {"grid": number}
        self.apply(SetSpaceAttributes(changes, label=f"lay the grid on {_count(spaces)}"))

    @recorded
    def set_box(self, space: SpaceId, slot: int) -> None:
        """Give the pit box ``space`` to car ``slot`` (its owner, 1-based).

        Boxes are laid with the pit lane (:meth:`add_pit_lane` with
        ``boxes``), each hanging off it by a ``box_in`` and a ``box_out``
        step; a track or pit-lane space cannot become one without breaking
        the lane, so it is refused. To remove a box, delete its space.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . . .", closed=True))
        >>> pits = editor.add_pit_lane([1, 2, 3, 4], boxes=1)
        >>> box = editor.track.boxes()[0]
        >>> editor.set_box(box, 3)
        >>> editor.track.space(box)["box"]
        3
        >>> editor.set_box(pits[0], 2)
        Traceback (most recent call last):
        ...
        fdlab.editor.errors.EditError: box: space 6 is a pit space, not a box; boxes are laid with the pit lane (Remove pit lane, then Add pit lane with Boxes)
        """
        kind = self.track.space(space)["kind"] if space in self.track.graph else None
        if kind is None:
            raise EditError(f"box: space {space!r} is not on track {self.track.name!r}")
        if kind != "box":
            raise EditError(
                f"box: space {space!r} is a {kind} space, not a box; boxes are laid with the "
                "pit lane (Remove pit lane, then Add pit lane with Boxes)"
            )
        self.apply(
            SetSpaceAttributes({space: {"box": slot}}, label=f"give box {space} to car {slot}")
        )

    @recorded
    def pair_tunnel(self, entry: SpaceId, exit_: SpaceId, label: str | None = None) -> str:
        """Join two spaces as a tunnel pair (M-6, X-5) with a ``tunnel`` step; returns the label.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . ."))
        >>> editor.pair_tunnel(1, 3)
        '1'
        >>> editor.track.tunnel_pairs(), editor.track.graph.edges[1, 3]["kind"]
        ({'1': [1, 3]}, 'tunnel')
        """
        if entry == exit_:
            raise EditError(f"tunnel: entry and exit are the same space {entry!r}")
        if label is None:
            used = set(self.track.tunnel_pairs())
            label = next(str(n) for n in range(1, len(used) + 2) if str(n) not in used)
        elif label in self.track.tunnel_pairs():
            raise EditError(f"tunnel {label!r} already joins {self.track.tunnel_pairs()[label]}")
        parts: list[Operation] = [
            set_same([entry, exit_], tunnel=label),
            AddStep(entry, exit_, "tunnel"),
        ]
        self.apply(Composite(parts, label=f"tunnel {label}: {entry} -> {exit_}"))
        return label

    @recorded
    def clear_tunnel(self, label: str) -> None:
        """Remove a tunnel pair and its tunnel steps.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . .", tunnels={"A": (1, 3)}))
        >>> editor.clear_tunnel("A")
        >>> editor.track.tunnel_pairs(), editor.track.graph.has_edge(1, 3)
        ({}, False)
        """
        members = self.track.tunnel_pairs().get(label)
        if not members:
            raise EditError(f"tunnel {label!r} does not exist on track {self.track.name!r}")
        parts: list[Operation] = [set_same(members, tunnel=None)]
        parts += [
            RemoveStep(u, v)
            for u, v, d in self.track.graph.edges(data=True)
            if d["kind"] == "tunnel" and u in members and v in members
        ]
        self.apply(Composite(parts, label=f"remove tunnel {label}"))

    # -- corners ----------------------------------------------------------------
    @recorded
    def make_corner(
        self, spaces: Iterable[SpaceId], stops: int = 1, name: str | None = None
    ) -> CornerId:
        """Make ``spaces`` a new corner with ``stops`` stops; returns its id.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . ."))
        >>> editor.make_corner([1, 2], stops=2)
        1
        >>> editor.track.corners[1]["long"], editor.track.corner_spaces(1)
        (2, [1, 2])
        """
        spaces = _as_list(spaces, "make corner")
        corner = max((c for c in self.track.corners if isinstance(c, int)), default=0) + 1
        info = {"stops": stops, "name": name or f"Corner {corner}"}
        parts = [SetCorner(corner, info), set_same(spaces, corner=corner)]
        self.apply(Composite(parts, label=f"make corner {corner} of {_count(spaces)}"))
        return corner

    @recorded
    def set_corner(self, spaces: Iterable[SpaceId], corner: CornerId | None) -> None:
        """Put spaces into an existing corner, or take them out of any (``None``).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 1}))
        >>> editor.set_corner([3], 1)
        >>> editor.track.corner_spaces(1)
        [1, 2, 3]
        >>> editor.set_corner([0], None)
        Traceback (most recent call last):
        ...
        fdlab.editor.errors.NothingChangedError: not a corner: no selected space is in a corner; nothing changed
        """
        spaces = _as_list(spaces, "set corner")
        what = f"corner {corner}" if corner is not None else "no corner"
        nodes = self.track.graph.nodes
        if spaces and all(s in nodes and nodes[s].get("corner") == corner for s in spaces):
            raise NothingChangedError(  # an edit that changes nothing: none to save or undo
                "not a corner: no selected space is in a corner; nothing changed"
                if corner is None
                else f"put in corner {corner}: every selected space is in it already; "
                "nothing changed"
            )
        self.apply(set_same(spaces, label=f"put {_count(spaces)} in {what}", corner=corner))

    @recorded
    def set_corner_stops(self, corner: CornerId, stops: int) -> None:
        """Change the number of stops (1-3) a corner requires (C-1).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 1}))
        >>> editor.set_corner_stops(1, 2)
        >>> editor.track.corners[1]["stops"]
        2
        """
        self._require_corner(corner)
        self.apply(
            SetCorner(corner, {"stops": stops}, label=f"set stops of corner {corner} to {stops}")
        )

    @recorded
    def rename_corner(self, corner: CornerId, name: str) -> None:
        """Change the printed name of a corner.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 1}))
        >>> editor.rename_corner(1, "Hairpin")
        >>> editor.track.corners[1]["name"]
        'Hairpin'
        """
        self._require_corner(corner)
        self.apply(SetCorner(corner, {"name": name}, label=f"rename corner {corner} to {name!r}"))

    @recorded
    def merge_corners(self, keep: CornerId, other: CornerId, stops: int | None = None) -> None:
        """Make corners ``keep`` and ``other`` one corner ``keep``, with the spaces between them.

        The merged corner keeps the larger stop count of the two, or
        ``stops`` when given; the label of the edit says which. Refused,
        with the reason, when another corner or the finish line lies
        between them (:func:`fdlab.editor.corner_merge.plan_merge`).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 . 2 . .", corners={1: 1, 2: 2}, closed=True))
        >>> editor.merge_corners(1, 2)
        >>> sorted(editor.track.corners), editor.track.corner_spaces(1), editor.track.corners[1]["stops"]
        ([1], [1, 2, 3], 2)
        >>> editor.history
        ['merge corner 2 into 1 with the space between them (2 stops: the larger of 1 and 2)']
        """
        from fdlab.editor.corner_merge import plan_merge

        self._require_corner(keep)
        self._require_corner(other)
        if keep == other:
            raise EditError(f"merge corners: corner {keep!r} cannot be merged with itself")
        plan = plan_merge(self.track, keep, other, stops)
        parts: list[Operation] = [
            set_same(plan.moved + plan.between, corner=keep),
            SetCorner(other, None),
        ]
        if plan.stops != self.track.corners[keep]["stops"]:
            parts.append(SetCorner(keep, {"stops": plan.stops}))
        gap = (
            ""
            if not plan.between
            else " with the space between them"
            if len(plan.between) == 1
            else f" with the {len(plan.between)} spaces between them"
        )
        label = f"merge corner {other} into {keep}{gap} ({plan.stops} stops: {plan.why_stops})"
        self.apply(Composite(parts, label=label))

    @recorded
    def split_corner(self, corner: CornerId, spaces: Iterable[SpaceId]) -> CornerId:
        """Move some spaces of ``corner`` into a new corner with the same stops; returns its id.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 1 1 .", corners={1: 2}))
        >>> editor.split_corner(1, [3, 4])
        2
        >>> editor.track.corner_spaces(1), editor.track.corner_spaces(2), editor.track.corners[2]["stops"]
        ([1, 2], [3, 4], 2)
        """
        self._require_corner(corner)
        spaces = self._require_spaces(spaces, "split corner")
        strangers = [s for s in spaces if self.track.space(s)["corner"] != corner]
        if strangers:
            raise EditError(f"split corner {corner}: spaces {strangers} are not in that corner")
        if len(spaces) == len(self.track.corner_spaces(corner)):
            raise EditError(f"split corner {corner}: leave at least one space in the old corner")
        new = max(c for c in self.track.corners if isinstance(c, int)) + 1
        info = {"stops": self.track.corners[corner]["stops"], "name": f"Corner {new}"}
        parts = [SetCorner(new, info), set_same(spaces, corner=new)]
        self.apply(Composite(parts, label=f"split {_count(spaces)} of corner {corner} into {new}"))
        return new

    @recorded
    def delete_corner(self, corner: CornerId) -> None:
        """Delete a corner; its spaces become plain track.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". 1 1 .", corners={1: 1}))
        >>> editor.delete_corner(1)
        >>> editor.track.corners, editor.track.spaces(corner=1)
        ({}, [])
        """
        self._require_corner(corner)
        parts = [set_same(self.track.corner_spaces(corner), corner=None), SetCorner(corner, None)]
        self.apply(Composite(parts, label=f"delete corner {corner}"))

    def _require_spaces(self, spaces: Iterable[SpaceId], what: str) -> list[SpaceId]:
        listed = _as_list(spaces, what)
        missing = [s for s in listed if s not in self.track.graph]
        if missing:
            raise EditError(f"{what}: spaces {missing} are not on track {self.track.name!r}")
        return listed

    def _require_corner(self, corner: CornerId) -> None:
        if corner not in self.track.corners:
            raise EditError(
                f"corner {corner!r} does not exist on track {self.track.name!r} "
                f"(known: {sorted(self.track.corners)})"
            )

    # -- steps and lines --------------------------------------------------------
    @recorded
    def add_step(self, u: SpaceId, v: SpaceId, kind: StepKind = "ahead") -> None:
        """Add an arrow ``u -> v`` where the builder missed one.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . ."))
        >>> editor.add_step(0, 2, "ahead")
        >>> sorted(editor.track.graph.successors(0))
        [1, 2]
        """
        self.apply(AddStep(u, v, kind, label=f"add {kind} step {u} -> {v}"))

    @recorded
    def remove_step(self, u: SpaceId, v: SpaceId) -> None:
        """Remove the arrow ``u -> v``.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . ."))
        >>> editor.remove_step(2, 3)
        >>> [p.code for p in editor.problems][:1]
        ['dead_end']
        """
        self.apply(RemoveStep(u, v, label=f"remove step {u} -> {v}"))

    @recorded
    def move_step(self, u: SpaceId, v: SpaceId, new_u: SpaceId, new_v: SpaceId) -> None:
        """Move the arrow ``u -> v`` to ``new_u -> new_v``, keeping its kind and lines.

        One edit, one Undo: how a pit lane's entry or exit moves along the track.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . . .\\nx p p p x x"))
        >>> [(u, v) for u, v, k in editor.track.graph.edges(data="kind") if k == "pit_in"]
        [(0, 3)]
        >>> editor.move_step(0, 3, 2, 3)
        >>> editor.track.graph.edges[2, 3]["kind"], editor.history[-1]
        ('pit_in', 'move the pit_in step 0 -> 3 to 2 -> 3')
        """
        if not self.track.graph.has_edge(u, v):
            raise EditError(f"move step: step {u!r}->{v!r} is not on track {self.track.name!r}")
        data = self.track.graph.edges[u, v]
        label = f"move the {data['kind']} step {u} -> {v} to {new_u} -> {new_v}"
        moved = AddStep(new_u, new_v, data["kind"], frozenset(data["lines"]))
        self.apply(Composite([RemoveStep(u, v), moved], label=label))

    @recorded
    def set_line(self, line: str, steps: Iterable[tuple[SpaceId, SpaceId]]) -> None:
        """Make ``line`` cross exactly the given steps (and no other).

        Moving the finish line counts every space's ``progress`` from the
        new line (0 just after it); the line then crosses every step where
        the lap starts again (:func:`fdlab.track.starts_lap_again`), the
        grid keeps its place behind the line, a pit lane that no longer runs
        across the line is laid again beside it, and a built board's build
        spec follows
        (:func:`fdlab.editor.finish_line.move_finish`).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . . .", closed=True))
        >>> editor.set_line("police", [(2, 3)])
        >>> editor.history
        ['move the police line to step 2 -> 3']
        """
        if line not in LINE_NAMES:
            raise EditError(f"set line: unknown line {line!r}; use one of {LINE_NAMES}")
        wanted = {tuple(step) for step in steps}
        if not wanted:
            raise EditError(f"set line {line!r}: give at least one step for the line to cross")
        for u, v in wanted:
            if not self.track.graph.has_edge(u, v):
                raise EditError(f"set line {line!r}: step {u!r}->{v!r} is not on the track")
        if line == "finish":
            from fdlab.editor.finish_line import move_finish

            self._recording = _SKIP  # the spec and the edit log follow the line instead
            self.apply(move_finish(self.track, {v for _, v in wanted}, EDITS_KEY))
            return
        changes = {}
        for u, v, data in self.track.graph.edges(data=True):
            has, wants = line in data["lines"], (u, v) in wanted
            if has != wants:
                changes[(u, v)] = data["lines"] | {line} if wants else data["lines"] - {line}
        where = (
            f"step {next(iter(wanted))[0]} -> {next(iter(wanted))[1]}"
            if len(wanted) == 1
            else f"{len(wanted)} steps"
        )
        self.apply(SetStepLines(changes, label=f"move the {line} line to {where}"))

    @recorded
    def set_line_before(self, line: str, spaces: Iterable[SpaceId]) -> None:
        """Make ``line`` cross every step that enters ``spaces`` from outside them.

        Select the column of spaces just after where the line should be.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . .", closed=True))
        >>> editor.set_line_before("finish", [2])
        >>> editor.track.edges_crossing("finish"), editor.track.space(2)["progress"]
        ([(1, 2)], 0.0)
        """
        chosen = set(self._require_spaces(spaces, f"set {line} line"))
        steps = [
            (u, v)
            for v in chosen
            for u in self.track.graph.predecessors(v)
            if u not in chosen
            and self.track.graph.edges[u, v]["kind"]
            in ("ahead", "lane_change", "pit_out", "box_out")
        ]
        if not steps:
            raise EditError(f"set {line} line: no step enters spaces {sorted(chosen)} from outside")
        self.set_line(line, steps)

    # -- pit lane and rebuild ---------------------------------------------------
    @recorded
    def add_pit_lane(
        self, along: Sequence[SpaceId], boxes: int = 0, side: float | None = None
    ) -> list[SpaceId]:
        """Add a one-lane pit lane beside the run of track spaces ``along``.

        One pit space is laid beside each space of ``along`` (the outermost
        lane of a straight, in driving order), offset sideways by one space
        width (``side`` = +1 to the right of travel, -1 to the left; by
        default the side away from the other lanes). A
        ``pit_in`` step joins the space before the run to the first pit space
        and a ``pit_out`` step joins the last pit space to the space after the
        run. The last ``boxes`` pit spaces but one get a pit box hanging off
        them (``box_in`` / ``box_out``). Returns the new pit space ids.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . . . .", closed=True))
        >>> pits = editor.add_pit_lane([1, 2, 3, 4])
        >>> [editor.track.space(p)["kind"] for p in pits]
        ['pit', 'pit', 'pit', 'pit']
        >>> editor.track.graph.edges[0, pits[0]]["kind"], editor.track.graph.edges[pits[-1], 5]["kind"]
        ('pit_in', 'pit_out')
        """
        from fdlab.editor.pitlane import plan_pit_lane

        plan = plan_pit_lane(self.track, list(along), boxes=boxes, side=side)
        self.apply(
            AddSpaces(
                plan.spaces,
                plan.steps,
                plan.contacts,
                label=f"add a pit lane of {len(plan.pit_spaces)} spaces",
            )
        )
        return plan.pit_spaces

    @recorded
    def remove_spaces(self, spaces: Iterable[SpaceId]) -> None:
        """Delete spaces with their steps and contacts (e.g. a pit lane to lay again).

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . ."))
        >>> editor.remove_spaces([3])
        >>> len(editor.track), editor.track.graph.has_edge(2, 3)
        (3, False)
        """
        spaces = self._require_spaces(spaces, "remove spaces")
        self.apply(RemoveSpaces(spaces, label=f"remove {_count(spaces)}"))

    @recorded
    def remove_pit_lane(self) -> None:
        """Delete every pit and box space, so a new pit lane can be laid.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . . .\\nx p p x"))
        >>> editor.remove_pit_lane()
        >>> editor.track.spaces(kind="pit")
        []
        """
        spaces = [s for s, d in self.track.graph.nodes(data=True) if d["kind"] in ("pit", "box")]
        if not spaces:
            raise EditError(f"remove pit lane: track {self.track.name!r} has no pit lane")
        self.apply(RemoveSpaces(spaces, label=f"remove the pit lane ({len(spaces)} spaces)"))

    def replace_board(self, board: Track, label: str = "rebuild the board") -> None:
        """Replace the whole board (one undo step), e.g. by a rebuilt one.

        Examples
        --------
        >>> editor = EditorController(from_ascii(". . ."))
        >>> editor.replace_board(from_ascii(". . . . ."))
        >>> len(editor.track), editor.undo(), len(editor.track)
        (5, 'rebuild the board', 3)
        """
        previous, self._recording = self._recording, _SKIP  # the board brings its own log
        try:
            self.apply(ReplaceBoard(board, label=label))
        finally:
            self._recording = previous

    @property
    def unplaced_edits(self) -> list[tuple[str, str]]:
        """Edits a rebuild could not place on the board, as ``(label, reason)`` pairs.

        They stay in the edit log and the next rebuild tries them again;
        :meth:`drop_unplaced_edits` forgets them, undo brings the old board back.
        """
        log = self.track.graph.graph.get(EDITS_KEY, [])
        return [
            (r.get("label") or str(r.get("edit")), r["unplaced"]) for r in log if "unplaced" in r
        ]

    def drop_unplaced_edits(self) -> None:
        """Forget the edits the last rebuild could not place (one undo step)."""
        log = self.track.graph.graph.get(EDITS_KEY, [])
        kept = [r for r in log if "unplaced" not in r]
        if len(kept) == len(log):
            raise EditError("drop unplaced edits: every edit was placed on the board")
        self._recording = _SKIP
        try:
            label = f"drop {len(log) - len(kept)} edit(s) the rebuild could not place"
            self.apply(SetGraphValue(EDITS_KEY, kept, label=label))
        finally:
            self._recording = None

    def rebuild(
        self, centreline: Any, *, keep: bool = False, **options: Any
    ) -> edit_log.Replayed | None:
        """Build a new board from a centreline with the builder and edit that.

        ``options`` go to :func:`fdlab.track.build.build_track` (``lanes``,
        ``space_length``, ``pit``...). With ``keep=True`` a board made by the
        builder is built again with the options it was built with (stored
        in its ``build`` graph attribute: corners, stops, street hazards,
        tunnels and police line, grid, pit lane, finish), ``options``
        changing some of them, and every edit made since that build (the
        board's edit log) is made again on the new board, placed by lap
        position. Edits that cannot be placed are listed
        (:attr:`unplaced_edits`, and the returned report) and kept for the
        next rebuild. The name, description and laps of the current track
        are kept. One undo step brings the old board back.

        The same in two steps, the long one anywhere (a worker thread):
        :meth:`rebuild_request`, :meth:`RebuildRequest.build`, :meth:`apply_rebuild`.

        Examples
        --------
        >>> editor = EditorController()
        >>> editor.rebuild([(0, 0), (160, 0), (160, 160), (0, 160)], lanes=2, space_length=16.0)
        >>> len(editor.track) > 40, editor.track.name, editor.history
        (True, 'new circuit', ['rebuild from a centreline of 4 points'])
        >>> editor.rebuild([(0, 0), (200, 0), (200, 160), (0, 160)], keep=True)
        >>> editor.track.graph.graph["build"]["lanes"], editor.track.graph.graph["space_length"]
        (2, 16.0)
        """
        return self.apply_rebuild(self.rebuild_request(centreline, keep=keep, **options).build())

    def rebuild_request(
        self, centreline: Any, *, keep: bool = False, **options: Any
    ) -> RebuildRequest:
        """What :meth:`rebuild` needs of the board now, to build the new one later.

        Quick: it checks the centreline and takes a copy of the board. The
        build itself (:meth:`RebuildRequest.build`, up to a second on a
        large board) touches nothing of this controller, so it may run in
        a worker thread while the notebook stays usable; then
        :meth:`apply_rebuild` puts the new board in place (one undo step).

        Examples
        --------
        >>> editor = EditorController()
        >>> request = editor.rebuild_request([(0, 0), (160, 0), (160, 160), (0, 160)], lanes=2)
        >>> rebuilt = request.build()  # anywhere: it reads only its copy of the board
        >>> editor.apply_rebuild(rebuilt); editor.history
        ['rebuild from a centreline of 4 points']
        """
        _require_a_loop(getattr(centreline, "points", centreline))
        board = self.track.copy()
        if EDITS_KEY in board.graph.graph:  # the log goes on growing here; the copy stays
            board.graph.graph[EDITS_KEY] = list(board.graph.graph[EDITS_KEY])
        return RebuildRequest(
            centreline=centreline,
            keep=keep,
            options=dict(options),
            board=board,
            version=self._version,
        )

    def apply_rebuild(self, rebuilt: RebuiltBoard) -> edit_log.Replayed | None:
        """Put a board built by :meth:`RebuildRequest.build` in place (one undo step).

        Raises
        ------
        EditError
            When the board was edited after the request was made: the new
            board would lose that edit, so nothing changes (rebuild again).
        """
        if rebuilt.version != self._version:
            raise EditError(
                "rebuild: the board was edited while the new one was being built; "
                "nothing changed, press Rebuild again to include that edit"
            )
        self.last_replay = rebuilt.replayed
        self.replace_board(rebuilt.board, label=rebuilt.label)
        return rebuilt.replayed

    # -- files ------------------------------------------------------------------
    def save(self, path: str | Path | None = None, *, overwrite: bool = False) -> Path:
        """Write the track atomically to ``path`` (or where it came from).

        Writing over a file other than the one this track was loaded from or
        saved to needs ``overwrite=True`` (the *overwrite* box), so another
        board is never replaced by accident.

        Raises
        ------
        SaveError
            Naming the file and the reason (no path, refused overwrite, disk
            error...). The track stays marked unsaved.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise SaveError(f"save {self.track.name!r}: no file given and the track has none yet")
        if target.suffix != ".json":
            raise SaveError(f"save {self.track.name!r} to {target}: track files end in .json")
        if not target.parent.is_dir():
            start = "" if target.is_absolute() else f" (a relative path starts in {Path.cwd()})"
            raise SaveError(
                f"save {self.track.name!r} to {target}: there is no folder "
                f"{target.parent}{start}; create it or save elsewhere"
            )
        same_file = self.path is not None and _same_file(target, self.path)
        if target.exists() and not same_file and not overwrite:
            raise SaveError(
                f"save {self.track.name!r}: {target} already holds another board; "
                "tick 'overwrite' and press Save again to replace it, or type another file name"
            )
        from fdlab.track.io import save_track

        try:
            save_track(self.track, target)
        except (OSError, ValueError, TypeError) as error:
            raise SaveError(f"save {self.track.name!r} to {target} failed: {error}") from error
        self.path = target
        self._mark_saved()
        for listener in self._listeners:
            listener(self, f"saved to {target}")
        return target

    def load(self, path: str | Path, *, discard_unsaved: bool = False) -> None:
        """Replace the track by the one in ``path``; the history starts afresh.

        Raises
        ------
        UnsavedChangesError
            When there are unsaved edits and ``discard_unsaved`` (the
            *discard unsaved* box) is False.
        LoadError
            When the file cannot be read, naming the file and the reason.
        """
        self._check_discard(f"load {path}", discard_unsaved)
        from fdlab.track.io import load_track

        try:
            track = load_track(path)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise LoadError(f"load {path} failed: {error}") from error
        self._reset(track, Path(path), f"loaded {path}")

    def new(self, name: str = "new circuit", *, discard_unsaved: bool = False) -> None:
        """Start a blank track (no spaces); the history starts afresh.

        Examples
        --------
        >>> editor = EditorController()
        >>> editor.new("Sketch")
        >>> editor.track.name, len(editor.track), editor.dirty
        ('Sketch', 0, False)
        """
        self._check_discard(f"start a new track {name!r}", discard_unsaved)
        self._reset(Track(new_graph(name)), None, f"new track {name!r}")

    def _check_discard(self, action: str, discard_unsaved: bool) -> None:
        if self.dirty and not discard_unsaved:
            count = self.unsaved_edits
            last = self._undo[-1].label if self._undo else "an undone edit"
            raise UnsavedChangesError(
                f"{action}: {self.track.name!r} has {count} unsaved edit{'s' if count != 1 else ''} "
                f"(last: {last}); press Save first, or tick 'discard unsaved' to drop them"
            )

    def _mark_saved(self) -> None:
        self._saved_history = list(self._undo)
        self._saved_state = board_state(self.track)
        self._dirty_cache = None

    def _reset(self, track: Track, path: Path | None, what: str) -> None:
        # Keep the same Track object so views bound to it stay valid.
        self.track.graph, self.track.contacts = track.graph, track.contacts
        self.path = path
        self._undo.clear()
        self._redo.clear()
        self._mark_saved()
        self._after_change(what)

    def _repr_html_(self) -> str:
        state = "<b>unsaved changes</b>" if self.dirty else "saved"
        where = f" to <code>{html.escape(str(self.path))}</code>" if self.path else ""
        recent = "".join(f"<li>{html.escape(label)}</li>" for label in self.history[-5:])
        report = getattr(self.report, "_repr_html_", None)
        return (
            f"<p>Editing <b>{html.escape(self.track.name)}</b>: {len(self.track)} spaces, "
            f"{len(self.track.corners)} corners; {len(self.history)} edit(s), {state}{where}.</p>"
            + (f"<p>Last edits:</p><ul>{recent}</ul>" if recent else "")
            + (report() if report else "")
        )

    def __repr__(self) -> str:
        state = "unsaved" if self.dirty else "saved"
        return f"<EditorController {self.track!r}, {len(self._undo)} edits, {state}>"


@dataclass(frozen=True)
class RebuiltBoard:
    """A board built from a centreline, ready for :meth:`EditorController.apply_rebuild`."""

    board: Track
    label: str  # the undo step's label: what was built, and what the builder did or kept
    replayed: edit_log.Replayed | None  # the edits made again, or None
    version: int  # the controller's version the request was made at


@dataclass(frozen=True)
class RebuildRequest:
    """A rebuild asked for (:meth:`EditorController.rebuild_request`), to build anywhere."""

    centreline: Any
    keep: bool
    options: dict[str, Any]
    board: Track  # a copy of the board when asked: name, build options and edit log
    version: int

    def build(self) -> RebuiltBoard:
        """Build the new board and make the logged edits again on it (the long part).

        Raises
        ------
        EditError
            When the builder refuses the centreline or the options.
        """
        from fdlab.track.build import build_track

        options = self.options
        spec = self.board.graph.graph.get("build") if self.keep else None
        if spec is not None:
            from fdlab.track.build import BuildSpec

            stored = BuildSpec.from_json(spec)
            kept = {f.name: getattr(stored, f.name) for f in fields(stored)}
            del kept["centreline"]
            options = {**kept, **options}
        try:
            with warnings.catch_warnings(record=True) as notes:
                warnings.simplefilter("always", UserWarning)
                board = build_track(self.centreline, **options)
        except (ValueError, TypeError) as error:
            raise EditError(f"rebuild from the centreline failed: {error}") from error
        for key in ("name", "description", "laps"):
            board.graph.graph[key] = self.board.graph.graph[key]
        if PICTURE_KEY in self.board.graph.graph:  # the picture traced stays under the board
            board.graph.graph[PICTURE_KEY] = self.board.graph.graph[PICTURE_KEY]
        points = getattr(self.centreline, "points", self.centreline)
        label = "rebuild from a centreline" + (
            f" of {len(points)} points" if isinstance(points, Sequence) else ""
        )
        # what the builder did other than asked (fewer pit boxes...) goes with the rebuild
        label += "".join(f"; {note.message}" for note in notes)
        replayed = None
        records = self.board.graph.graph.get(EDITS_KEY, []) if spec is not None else []
        if records:
            board, replayed = _replayed(board, records)
            label += f"; {replayed.summary()}"
        return RebuiltBoard(board=board, label=label, replayed=replayed, version=self.version)


def _replayed(board: Track, records: list[dict[str, Any]]) -> tuple[Track, edit_log.Replayed]:
    """``board`` with the logged edits made again on it, and what could not be placed."""
    scratch = EditorController(board, validator=lambda track: None)
    scratch._batch = True  # no corner counts and no validation after every replayed edit
    pending = [{k: v for k, v in r.items() if k != "unplaced"} for r in records]
    replayed = edit_log.replay_edits(
        pending,
        lambda edit, arguments: getattr(scratch, edit)(**arguments),
        lambda: scratch.track,
    )
    update_corner_counts(scratch.track.graph)
    log = list(scratch.track.graph.graph.get(EDITS_KEY, []))
    log += [{**record, "unplaced": why} for record, why in replayed.unplaced]
    if log:
        scratch.track.graph.graph[EDITS_KEY] = log
    return scratch.track, replayed


def _as_list(spaces: Iterable[SpaceId], what: str) -> list[SpaceId]:
    listed = list(dict.fromkeys(spaces))
    if not listed:
        raise EditError(f"{what}: select at least one space first")
    return listed


def _count(spaces: Sequence[SpaceId]) -> str:
    return f"space {spaces[0]}" if len(spaces) == 1 else f"{len(spaces)} spaces"


def _require_a_loop(points: Any) -> None:
    """Refuse drawn points that all lie on one line: such a "lap" doubles back on itself."""
    if isinstance(points, (str, Path)) or not isinstance(points, Sequence) or len(points) < 3:
        return  # files, GeoJSON data and too-short lines are the builder's to explain
    from shapely.geometry import MultiPoint

    try:
        hull = MultiPoint([(float(x), float(y)) for x, y in points]).convex_hull
    except (TypeError, ValueError):
        return
    if hull.area <= 1e-9 * max(hull.length, 1e-9) ** 2:
        raise EditError(
            f"rebuild: the {len(points)} centreline points lie on one straight line; "
            "draw a loop that goes round the circuit and back to its start"
        )


def _same_file(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()
