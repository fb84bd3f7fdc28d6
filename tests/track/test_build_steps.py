"""Lane changes go diagonally forward and corners are long enough for their stops (issue 2)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from fdlab.track.build import build_track
from fdlab.track.validate import validate


@st.composite
def bendy_laps(draw):
    """Closed centrelines with corners from sweepers to hairpins."""
    a = draw(st.floats(400, 700))
    b = draw(st.floats(60, 350))
    harmonics = [
        (k, draw(st.floats(-0.12, 0.12)), draw(st.floats(0, 2 * math.pi))) for k in (2, 3, 4, 5)
    ]
    points = []
    for i in range(160):
        t = 2 * math.pi * i / 160
        scale = 1 + sum(amp * math.cos(k * t + phase) for k, amp, phase in harmonics)
        points.append((a * scale * math.sin(t), -b * scale * math.cos(t)))
    return points


def gains(track, kind):
    lap = track.lap_length
    return [
        (u, v, (track.space(v)["progress"] - track.space(u)["progress"]) % lap)
        for u, v, data in track.graph.edges(data=True)
        if data["kind"] == kind
    ]


@settings(max_examples=15, deadline=None)
@given(bendy_laps(), st.integers(2, 4), st.integers(50, 100))
def test_lane_changes_go_forward_and_corners_hold_their_stops(points, lanes, spaces):
    track = build_track(points, name="Bendy", lanes=lanes, spaces_per_lap=spaces, pit=True)
    for u, v, gain in gains(track, "lane_change"):
        assert 0.5 <= gain <= 2.0, (u, v, gain)
        assert not track.contacts.has_edge(u, v), (u, v)  # never to the space beside
    for u, v, gain in gains(track, "ahead"):
        assert gain >= 0.5, (u, v, gain)
    for corner, info in track.corners.items():
        assert info["short"] >= info["stops"], (corner, info)
        for lane in {track.space(s)["lane"] for s in track.spaces(corner=corner)}:
            assert len(track.spaces(corner=corner, lane=lane)) >= 2, (corner, lane)
    report = validate(track)
    assert report.ok, report
