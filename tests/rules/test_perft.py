"""Perft-style regression counts: option counts from fixed positions.

Like chess perft numbers, the counts in ``perft_counts.json`` were recorded
from fixed positions (start space, other cars, roll, stops, pit) on text
boards defined here and on every shipped board in ``tracks/``. Any change of
movement behaviour changes some count. When the change is intended, record
the counts again with::

    python tests/rules/test_perft.py

Counts per position: ``[options, options using the full roll, options with
an overshoot, total spaces moved over all options]``. Each board also keeps a
fingerprint (a hash of its spaces, steps, corners and contacts): a shipped
board rebuilt since its counts were recorded, or shipped without counts,
fails its test with the command that records them, so the regression data
always matches the boards in ``tracks/``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from fdlab.rules.board import Board, compile_board
from fdlab.rules.movement import MoveRules, move_options
from fdlab.track import Track, from_ascii

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
COUNTS = HERE / "perft_counts.json"
ROLLS = (2, 4, 7, 12, 20, 30)  # one face of each gear's die


def _loop() -> Track:
    row = " ".join("1" if 10 <= c < 14 else "2" if 30 <= c < 33 else "." for c in range(48))
    return from_ascii("\n".join([row] * 3), corners={1: 2, 2: 1}, closed=True, name="loop")


def _street() -> Track:
    rows = """
        . . . D . . 1 1 1 . . . . D D . . . 2 2 . . . .
        . . . . . . 1 1 1 . . . . . . . . . 2 2 . . . .
        . . D . . . 1 1 1 . . . D . . . . . 2 2 . . . .
        x p p p p p p x x x x x x x x x x x x x x x x x
        x x B x B x B x x x x x x x x x x x x x x x x x
    """
    return from_ascii(
        rows,
        corners={1: 3, 2: 1},
        closed=True,
        tunnels={"T": (4 * 5 + 0, 10 * 5 + 0)},
        corner_lane_changes=False,
        name="street",
    )


#: Text boards always checked (no file needed).
ASCII_BOARDS = {"ascii-loop": _loop, "ascii-street": _street}


def shipped_tracks() -> list[Path]:
    return sorted((REPO / "tracks").glob("*.json"))


def load(name: str) -> Track:
    if name in ASCII_BOARDS:
        return ASCII_BOARDS[name]()
    from fdlab.track.io import load_track

    return load_track(REPO / "tracks" / f"{name}.json")


def fingerprint(track: Track) -> str:
    """A short hash of everything movement reads: spaces, steps, corners, beside contacts."""
    keys = ("lane", "kind", "corner", "hazard", "tunnel", "box", "progress")
    spaces = sorted((repr(s), [repr(track.space(s)[k]) for k in keys]) for s in track.graph.nodes)
    steps = sorted(
        (repr(u), repr(v), d["kind"], sorted(d["lines"]))
        for u, v, d in track.graph.edges(data=True)
    )
    beside = sorted(
        sorted((repr(a), repr(b)))
        for a, b, d in track.contacts.edges(data=True)
        if d.get("kind") == "beside"
    )
    stops = sorted((repr(c), info["stops"]) for c, info in track.corners.items())
    text = json.dumps([spaces, steps, beside, stops])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def counts(board: Board, position: dict) -> list[int]:
    ix = board.index
    own_box = position.get("own_box")
    options = move_options(
        board,
        ix[position["start"]],
        position["roll"],
        MoveRules(
            occupied=frozenset(ix[s] for s in position["occupied"]),
            stops_made=position["stops_made"],
            pit_allowed=position.get("pit_allowed", False),
            own_box=None if own_box is None else ix[own_box],
        ),
    )
    return [
        len(options),
        sum(1 for o in options if o.moved == position["roll"]),
        sum(1 for o in options if o.overshoots),
        sum(o.moved for o in options),
    ]


def positions(track: Track, name: str) -> list[dict]:
    """Fixed positions: one per gear, three cars just ahead; one at the pit entry if any.

    The pit position starts on the space of the ``pit_in`` step with the stops
    of its corner made, so the car may turn into the pit lane (C-5, P-2).
    """
    rng = random.Random(name)
    spaces = sorted(s for s in track if track.space(s)["kind"] == "track")
    lap = track.lap_length or 1.0
    result = []
    for roll in ROLLS:
        start = rng.choice(spaces)
        near = [
            s
            for s in spaces
            if s != start
            and 1 <= (track.space(s)["progress"] - track.space(start)["progress"]) % lap <= 12
        ]
        occupied = sorted(rng.sample(near, min(3, len(near))), key=spaces.index)
        stops = rng.randint(0, 1) if track.space(start)["corner"] is not None else 0
        result.append({"start": start, "occupied": occupied, "roll": roll, "stops_made": stops})
    boxes = track.boxes()
    entries = [u for u, _, kind in track.graph.edges(data="kind") if kind == "pit_in"]
    if boxes and entries:
        corner = track.space(entries[0])["corner"]
        result.append(
            {
                "start": entries[0],
                "occupied": [],
                "roll": 12,
                "stops_made": 0 if corner is None else track.corners[corner]["stops"],
                "pit_allowed": True,
                "own_box": boxes[-1],
            }
        )
    return result


def record() -> dict:
    """Positions and counts for every text board and shipped track."""
    data: dict = {"boards": {}}
    names = list(ASCII_BOARDS) + [path.stem for path in shipped_tracks()]
    for name in names:
        track = load(name)
        board = compile_board(track)
        chosen = positions(track, name)
        for position in chosen:
            position["counts"] = counts(board, position)
        data["boards"][name] = {"fingerprint": fingerprint(track), "positions": chosen}
    return data


def recorded() -> dict:
    """The recorded boards (empty before the first recording)."""
    if not COUNTS.exists():
        return {}
    return json.loads(COUNTS.read_text())["boards"]


def test_counts_file_covers_the_text_boards():
    assert set(ASCII_BOARDS) <= set(recorded()), "record: python tests/rules/test_perft.py"


@pytest.mark.parametrize("name", sorted(recorded()))
def test_perft_counts_are_unchanged(name):
    """M-1..M-6, C-3, P-2: option counts from fixed positions match the recorded ones."""
    entry = recorded()[name]
    if name not in ASCII_BOARDS and not (REPO / "tracks" / f"{name}.json").exists():
        pytest.skip(f"tracks/{name}.json is gone; record again: python tests/rules/test_perft.py")
    track = load(name)
    assert fingerprint(track) == entry["fingerprint"], (
        f"tracks/{name}.json was rebuilt after its perft counts were recorded; check the "
        "movement changes it brings, then record again: python tests/rules/test_perft.py"
    )
    board = compile_board(track)
    got = [counts(board, position) for position in entry["positions"]]
    assert got == [position["counts"] for position in entry["positions"]]


@pytest.mark.parametrize("path", shipped_tracks(), ids=lambda p: p.stem)
def test_every_shipped_track_has_counts(path):
    assert path.stem in recorded(), (
        f"no perft counts for tracks/{path.name}; record them: python tests/rules/test_perft.py"
    )


def test_positions_are_reproducible():
    """The positions are drawn from a generator seeded by the board name."""
    track = ASCII_BOARDS["ascii-street"]()
    assert positions(track, "ascii-street") == positions(track, "ascii-street")
    assert (
        recorded()["ascii-street"]["positions"][0]["start"]
        == positions(track, "ascii-street")[0]["start"]
    )


if __name__ == "__main__":
    COUNTS.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"recorded {', '.join(recorded())} in {COUNTS.relative_to(REPO)}", file=sys.stderr)
