"""Progress of imported boards as GP Online counts its distances (issue 25: lap lengths).

Boards are made here, never taken from GP Online: a two-lane ring of eight
rows (row r at x = r, lane at y = 0 or 1), every space stepping ahead and
diagonally into the next row, as in :func:`fdlab.track.formats.assemble.assemble`'s example.
"""

from fdlab.track.formats.assemble import RawBoard, RawSpace, assemble

ROWS = 8


def _ring(extra_steps=(), curves=None):
    """The ring's spaces (id = 2 * row + lane) and steps; ``curves``: id -> offset into corner 1."""
    curves = curves or {}
    spaces = {
        i: RawSpace(
            i,
            float(i // 2),
            float(i % 2),
            finish=i < 2,
            curve=i in curves,
            corner=1 if i in curves else None,
            offset=curves.get(i),
            stops=1 if i in curves else None,
        )
        for i in range(2 * ROWS)
    }
    steps = [(i, j) for i in spaces for j in spaces if j // 2 == (i // 2 + 1) % ROWS]
    return RawBoard("Ring", "ring.dat", spaces, [*steps, *extra_steps], grid_spots=[14, 15])


def _progress(track, *ids):
    return [track.graph.nodes[i]["progress"] for i in ids]


def test_a_lane_runs_on_one_space_a_row_though_a_sideways_step_leads_beside_it():
    """A space level with another, reached by a sideways step, adds no half row to the lane
    after it: a diagonal step from it into a space its own lane runs into gains half a space."""
    plain = assemble(_ring())
    sideways = assemble(_ring(extra_steps=[(2, 3)]))  # row 1: lane 0 -> lane 1, level
    assert _progress(plain, 2, 4, 6) == [1.0, 2.0, 3.0]
    assert _progress(sideways, 3) == [1.5]  # a lane change gains half a space
    assert _progress(sideways, 4, 6, 8) == [2.0, 3.0, 4.0]  # lane 0 runs on a space a row
    assert plain.lap_length == ROWS


def test_a_two_lane_corner_counts_its_distances_from_half_a_space_past_the_straight():
    """GP Online starts the distances of curves entered from one straight at the straight's
    farthest space plus half a space per lane short of three: +0.5 for two lanes."""
    track = assemble(_ring(curves={8: 0.5, 9: 0.5, 10: 1.5, 11: 1.5}))
    straight_end = _progress(track, 6, 7)
    assert straight_end == [3.0, 3.0]
    assert _progress(track, 8, 9, 10, 11) == [4.0, 4.0, 5.0, 5.0]  # 3 + 0.5 + offset
    assert _progress(track, 12, 14) == [6.0, 7.0]
    assert track.lap_length == ROWS
