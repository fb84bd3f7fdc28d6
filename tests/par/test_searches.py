"""The batched move search of the solo model (fdlab.par.searches) against the plain search.

M-1..M-6, C-2..C-6, P-2, P-7, X-3: every option of every search the solo
model makes, with its path, lines and overshoots, is the plain search's
(:func:`fdlab.rules.movement.option_columns`), in the same order.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from par_boards import pit_ring

from fdlab.par.errors import SoloModelError
from fdlab.par.model import SoloModel
from fdlab.par.searches import search_many
from fdlab.rules.board import compile_board
from fdlab.rules.movement import MoveRules, _overshoots, option_columns
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii, load_track

TRACKS = Path(__file__).resolve().parents[2] / "tracks"


def assert_same_as_plain(board, keys, roll):
    """Every search of ``keys`` (start, rules) made at once equals the plain search."""
    found = search_many(board, [start for start, _ in keys], [rules for _, rules in keys], roll)
    assert len(found.first) == len(keys) + 1
    for k, (start, rules) in enumerate(keys):
        plain = option_columns(board, start, roll, rules)
        mine = range(int(found.first[k]), int(found.first[k + 1]))
        assert found.destination[mine.start : mine.stop].tolist() == plain.destination, start
        assert found.moved[mine.start : mine.stop].tolist() == plain.moved
        assert found.boxed[mine.start : mine.stop].tolist() == plain.boxed
        assert [found.path(i) for i in mine] == plain.path
        assert [found.line_set(int(found.lines[i])) for i in mine] == plain.lines
        overshoots = [
            _overshoots(found.records[found.record[i]], int(found.moved[i]))
            if found.record[i]
            else ()
            for i in mine
        ]
        assert overshoots == plain.overshoots
        assert found.stops[mine.start : mine.stop].tolist() == plain.stops
        assert (found.finish_at[mine.start : mine.stop] > 0).tolist() == [
            bool(n) for n in plain.laps
        ]
        for i, path in zip(mine, plain.path, strict=True):  # S-4: where the line is crossed
            assert found.finish_at[i] == finish_layer(board, start, path)


def finish_layer(board, start, path):
    """Spaces moved when ``path`` first crosses the finish line (a tunnel pair is one
    space, M-6), 0 if it does not."""
    walk = (start, *path)
    moved = 0
    for a, b in zip(walk, walk[1:], strict=False):
        if board.tunnel_exit[a] != b:
            moved += 1
        if "finish" in board.step_lines.get((a, b), ()):
            return moved
    return 0


@pytest.mark.parametrize(
    ("name", "laps"),
    [("training", 1), ("monaco", 1), ("street", 1), ("zandvoort", 2), ("pit ring", 2)],
)
def test_every_search_of_the_solo_model_is_the_plain_search(name, laps):
    """The searches of the solo model on the shipped boards (Baku: a tunnel and danger
    spaces; two laps: the pit lane open and closed, P-7) and on a ring with boxes."""
    if name == "pit ring":
        track = pit_ring(boxes=2)
    elif name == "small ring":  # 12 spaces a lane: a 30 leaves its corners two or three times
        row = ". . 1 1 . . . 2 . . . ."
        track = from_ascii("\n".join([row] * 2), corners={1: 1, 2: 2}, closed=True, grid=[22, 23])
    else:
        track = load_track(TRACKS / f"{name}.json")
    board = compile_board(track)
    model = SoloModel(board, BASIC.with_laps(laps))
    keys = list(model._searches)
    assert any(rules.stops_made for _, rules in keys)
    assert_same_as_plain(board, keys, model.max_roll)


lanes = st.integers(min_value=1, max_value=3)


@st.composite
def small_boards(draw):
    """A closed ring of 8-20 columns in 1-3 lanes with 1-3 corners of 1-3 stops."""
    columns = draw(st.integers(min_value=8, max_value=20))
    rows = draw(lanes)
    count = draw(st.integers(min_value=1, max_value=3))
    cells = ["."] * columns
    starts = sorted(draw(st.sets(st.integers(0, columns - 3), min_size=count, max_size=count)))
    stops = {}
    for cid, first in enumerate(starts, start=1):
        width = draw(st.integers(min_value=1, max_value=3))
        for c in range(first, min(first + width, columns - 1)):
            if cells[c] == ".":
                cells[c] = str(cid)
        stops[cid] = draw(st.integers(min_value=1, max_value=3))
    row = " ".join(cells)
    used = {int(c) for c in cells if c != "."}
    track = from_ascii(
        "\n".join([row] * rows),
        corners={cid: s for cid, s in stops.items() if cid in used},
        closed=True,
        finish=columns // 2,
    )
    return compile_board(track), draw(st.integers(min_value=0, max_value=2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(), st.integers(min_value=1, max_value=2))
def test_searches_on_small_rings_are_the_plain_search(board_and_made, lane_changes):
    """Rings a 30 goes round more than once (corners left twice, C-3), stops made before
    the move (C-2), one or two lane changes allowed (M-3): every space, every count."""
    board, made = board_and_made
    rules = MoveRules(max_lane_changes=lane_changes)
    keys = [(space, replace(rules, stops_made=made)) for space in range(len(board.ids))]
    assert_same_as_plain(board, keys, 30)


def test_a_search_with_another_car_is_refused_with_the_reason():
    """Only a lone car is searched in a batch: another car on the board is for the plain
    search (M-2)."""
    board = compile_board(from_ascii(". . . . ."))
    with pytest.raises(SoloModelError, match="lone car"):
        search_many(board, [0], [MoveRules(occupied=frozenset({2}))], 3)


@pytest.mark.parametrize(
    ("name", "laps"),
    [("pit ring", 2), ("street", 1), ("monaco", 1), ("training", 1), ("small ring", 3)],
)
def test_the_batched_model_has_the_rows_of_the_plain_one(name, laps):
    """The positions, targets and option rows of the solo model are the same whichever
    search made it: the batch, or one plain search per position (``batched=False``).
    S-4: the cost of a move that ends the race, cut at the line from its overshoot
    record without walking its path (a board without tunnels), is the plain cut's."""
    if name == "pit ring":
        track = pit_ring(boxes=2)
    elif name == "small ring":  # 12 spaces a lane: a 30 leaves its corners two or three times
        row = ". . 1 1 . . . 2 . . . ."
        track = from_ascii("\n".join([row] * 2), corners={1: 1, 2: 2}, closed=True, grid=[22, 23])
    else:
        track = load_track(TRACKS / f"{name}.json")
    board = compile_board(track)
    batched = SoloModel(board, BASIC.with_laps(laps))
    plain = SoloModel(board, BASIC.with_laps(laps), batched=False)
    assert all(found._batch is not None for found in batched._searches.values())
    assert all(found._batch is None for found in plain._searches.values())
    assert batched.positions == plain.positions
    for p in range(len(plain.positions)):
        assert batched.targets(p).tolist() == plain.targets(p).tolist()
        mine, theirs = batched.rows(p), plain.rows(p)
        for column in ("group", "target", "loss", "doomed", "restore", "exempt", "starts"):
            assert getattr(mine, column).tolist() == getattr(theirs, column).tolist(), column
    cut = [price for price in batched._finish_prices.values() if price is not None]
    assert bool(cut) == (name != "street")  # Baku has a tunnel: its paths are walked
