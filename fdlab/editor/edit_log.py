"""The edits made since the last build, as records placed by lap position.

Every named edit of :class:`~fdlab.editor.controller.EditorController`
(set stops, a hazard, a tunnel, a pit lane...) is written down as a
JSON-native record: the method's name and its arguments, with each space
replaced by its lap position (:mod:`fdlab.editor.placing`) and each corner by
the lap position of its middle. The records live in the board's graph
attribute ``edits`` (so undo, save and load keep them) and are replayed on
a board rebuilt from a dragged centreline, where the space ids are new.

A record that cannot be placed on the new board stays in the log marked
``unplaced`` with the reason, so the designer can see it, drop it, or undo
the rebuild; the next rebuild tries it again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fdlab.editor.errors import EditError
from fdlab.editor.placing import (
    Place,
    Unplaced,
    corner_place,
    locate,
    locate_corner,
    place_of,
    shift_place,
)
from fdlab.track.model import SpaceId, Track

Record = dict[str, Any]

#: Recorded controller methods: argument name -> what it names on the board.
SIGNATURES: dict[str, dict[str, str]] = {
    "set_spaces": {"spaces": "spaces"},
    "set_hazard": {"spaces": "spaces"},
    "set_grid_spot": {"space": "space"},
    "set_grid": {"spaces": "spaces"},
    "move_hazard": {"old": "spaces", "new": "spaces"},
    "set_box": {"space": "space"},
    "pair_tunnel": {"entry": "space", "exit_": "space"},
    "clear_tunnel": {"label": "tunnel"},
    "make_corner": {"spaces": "spaces"},
    "set_corner": {"spaces": "spaces", "corner": "corner"},
    "set_corner_stops": {"corner": "corner"},
    "rename_corner": {"corner": "corner"},
    "merge_corners": {"keep": "corner", "other": "corner"},
    "split_corner": {"corner": "corner", "spaces": "spaces"},
    "delete_corner": {"corner": "corner"},
    "add_step": {"u": "space", "v": "space"},
    "remove_step": {"u": "space", "v": "space"},
    "move_step": {"u": "space", "v": "space", "new_u": "space", "new_v": "space"},
    "set_line": {"steps": "steps"},
    "set_line_before": {"spaces": "spaces"},
    "add_pit_lane": {"along": "spaces"},
    "remove_spaces": {"spaces": "spaces"},
    "remove_pit_lane": {},
}


def encode(track: Track, edit: str, arguments: Mapping[str, Any], label: str = "") -> Record:
    """The record of ``edit`` called with ``arguments`` on ``track`` (before it is made).

    Examples
    --------
    >>> track = from_ascii(". . 1 1", corners={1: 2}, closed=True)
    >>> encode(track, "set_hazard", {"spaces": [1], "hazard": "danger"})
    {'edit': 'set_hazard', 'args': {'spaces': [{'at': 0.25, 'lane': 0, 'kind': 'track'}], 'hazard': 'danger'}, 'label': ''}
    """
    kinds = SIGNATURES[edit]
    args: dict[str, Any] = {}
    for name, value in arguments.items():
        kind = kinds.get(name)
        args[name] = _encode_value(track, kind, value) if kind else value
    return {"edit": edit, "args": args, "label": label}


def _encode_value(track: Track, kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind == "space":
        return place_of(track, value)
    if kind == "spaces":
        return [place_of(track, s) for s in value]
    if kind == "corner":
        return corner_place(track, value)
    if kind == "steps":
        return [[place_of(track, u), place_of(track, v)] for u, v in value]
    if kind == "tunnel":
        return [place_of(track, s) for s in track.tunnel_pairs().get(value, [])]
    raise EditError(f"unknown argument kind {kind!r}")


def decode(track: Track, record: Record) -> dict[str, Any]:
    """The arguments of a record, placed on ``track`` (space and corner ids of that board).

    Raises
    ------
    Unplaced
        When a space or corner of the record has no counterpart on ``track``.

    Examples
    --------
    >>> old = from_ascii(". . . .", closed=True)
    >>> record = encode(old, "set_hazard", {"spaces": [2], "hazard": "danger"})
    >>> decode(from_ascii(". . . . . . . .", closed=True), record)
    {'spaces': [4], 'hazard': 'danger'}
    """
    if record.get("edit") not in SIGNATURES:
        raise Unplaced(
            f"{record.get('label') or 'an edit'!r} was made from code as a raw operation "
            "and has no lap position"
        )
    kinds = SIGNATURES[record["edit"]]
    taken: list[SpaceId] = []
    out: dict[str, Any] = {}
    for name, value in record["args"].items():
        kind = kinds.get(name)
        out[name] = _decode_value(track, kind, value, taken) if kind else value
    return out


def _decode_value(track: Track, kind: str, value: Any, taken: list[SpaceId]) -> Any:
    if value is None:
        return None
    if kind == "space":
        space = locate(track, value, taken=taken)
        taken.append(space)
        return space
    if kind == "spaces":
        return [_decode_value(track, "space", place, taken) for place in value]
    if kind == "corner":
        return locate_corner(track, value)
    if kind == "steps":
        return [tuple(_decode_value(track, "spaces", pair, taken)) for pair in value]
    if kind == "tunnel":
        members = _decode_value(track, "spaces", value, taken)
        labels = {track.space(s)["tunnel"] for s in members} - {None}
        if len(labels) != 1:
            raise Unplaced("no tunnel pair at the places of the old one")
        return labels.pop()
    raise EditError(f"unknown argument kind {kind!r}")


#: Edits that set values: a later one on the same places replaces an earlier one.
SETTERS = ("set_spaces", "set_hazard", "set_corner_stops", "rename_corner", "set_box")


def _target(record: Record) -> tuple[Any, tuple[str, ...], tuple[tuple[str, str], ...]]:
    edit = record.get("edit")
    kinds = SIGNATURES.get(edit, {}) if edit is not None else {}
    args = record.get("args") or {}
    return (
        record.get("edit"),
        tuple(sorted(args)),
        tuple((name, repr(args[name])) for name in sorted(args) if name in kinds),
    )


def appended(log: list[Record], record: Record) -> list[Record]:
    """The log with ``record`` added at the end, dropping an earlier record it overwrites.

    An edit that sets values (:data:`SETTERS`) on the same places with the
    same arguments replaces the earlier one, so toggling a hazard a hundred
    times keeps the log, the saved file and the next rebuild short.

    Examples
    --------
    >>> place = {"at": 0.5, "lane": 0, "kind": "track"}
    >>> a = {"edit": "set_hazard", "args": {"spaces": [place], "hazard": "danger"}, "label": "a"}
    >>> b = {"edit": "set_hazard", "args": {"spaces": [place], "hazard": None}, "label": "b"}
    >>> [r["label"] for r in appended(appended([], a), b)]
    ['b']
    """
    if record.get("edit") in SETTERS:
        target = _target(record)
        log = [r for r in log if _target(r) != target]
    return [*log, record]


def shift_record(record: Record, by: float) -> Record:
    """The record seen from a finish line moved ``by`` lap fractions forward.

    Examples
    --------
    >>> record = {"edit": "set_grid_spot", "label": "",
    ...           "args": {"space": {"at": 0.9, "lane": 0, "kind": "track"}, "number": 1}}
    >>> shift_record(record, 0.5)["args"]["space"]["at"]
    0.4
    """
    if record.get("edit") not in SIGNATURES:
        return dict(record)
    kinds = SIGNATURES[record["edit"]]
    args = {}
    for name, value in record["args"].items():
        kind = kinds.get(name)
        args[name] = _shift_value(kind, value, by) if kind and value is not None else value
    return {**record, "args": args}


def _shift_value(kind: str, value: Any, by: float) -> Any:
    if kind in ("space", "corner"):
        return shift_place(value, by)
    if kind in ("spaces", "tunnel"):
        return [shift_place(p, by) for p in value]
    return [[shift_place(u, by), shift_place(v, by)] for u, v in value]


@dataclass
class Replayed:
    """What a replay placed on the new board and what it could not place.

    ``placed`` holds labels; ``unplaced`` pairs each record with the reason.
    """

    placed: list[str] = field(default_factory=list)
    unplaced: list[tuple[Record, str]] = field(default_factory=list)

    def summary(self) -> str:
        """One sentence for the status line.

        Examples
        --------
        >>> Replayed(["set stops"], [({"label": "tunnel 1"}, "no track space")]).summary()
        'kept 1 edit; 1 could not be placed: tunnel 1 (no track space)'
        """
        kept = f"kept {len(self.placed)} edit{'s' if len(self.placed) != 1 else ''}"
        if not self.unplaced:
            return kept
        missed = "; ".join(f"{r.get('label') or r.get('edit')} ({why})" for r, why in self.unplaced)
        return f"{kept}; {len(self.unplaced)} could not be placed: {missed}"


def replay_edits(
    records: list[Record], call: Callable[[str, dict[str, Any]], Any], board: Callable[[], Track]
) -> Replayed:
    """Place each record on ``board()`` and make the edit with ``call(edit, arguments)``.

    ``call`` raises an :class:`~fdlab.editor.errors.EditorError` (or
    :class:`Unplaced`) when the edit does not fit the new board; the record
    is then listed as unplaced with that reason.
    """
    from fdlab.editor.errors import EditorError, NothingChangedError

    result = Replayed()
    for record in records:
        try:
            arguments = decode(board(), record)
            call(record["edit"], arguments)
        except NothingChangedError:  # the new board is already as the edit made it
            result.placed.append(record.get("label") or record["edit"])
        except (Unplaced, EditorError) as error:
            result.unplaced.append((record, str(error)))
        else:
            result.placed.append(record.get("label") or record["edit"])
    return result


__all__ = [
    "Place",
    "Record",
    "Replayed",
    "appended",
    "decode",
    "encode",
    "replay_edits",
    "shift_record",
]
