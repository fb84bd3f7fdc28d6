"""Helpers shared by the editor tests: boards, centrelines, pictures and browser messages.

``tests/editor/conftest.py`` puts this folder on ``sys.path`` so test modules
can import it (pytest runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

import json
import math
import struct
import zlib

from bokeh.core.serialization import Serializer


def stadium(straight=200.0, radius=30.0, step=5.0):
    count = int(straight // step)
    bend = int(math.pi * radius // step)
    points = [(i * straight / count, 0.0) for i in range(count)]
    for i in range(bend):
        angle = -math.pi / 2 + math.pi * i / bend
        points.append((straight + radius * math.cos(angle), radius + radius * math.sin(angle)))
    points += [(straight - i * straight / count, 2 * radius) for i in range(count)]
    for i in range(bend):
        angle = math.pi / 2 + math.pi * i / bend
        points.append((radius * math.cos(angle), radius + radius * math.sin(angle)))
    half = count // 2
    return points[half:] + points[:half]


def space_at(track, fraction, lane):
    lap = track.lap_length
    return min(
        (s for s, d in track.graph.nodes(data=True) if d["kind"] == "track" and d["lane"] == lane),
        key=lambda s: abs(track.space(s)["progress"] - fraction * lap),
    )


def dragged(points, by=(0.0, 12.0)):
    """The centreline with one point of the far straight moved outwards."""
    moved = list(points)
    index = len(moved) // 2
    x, y = moved[index]
    moved[index] = (x + by[0], y + by[1])
    return moved


def browser_change(editor, model, attr: str, new) -> None:
    """Deliver one property change the way jupyter_bokeh receives it from BokehJS."""
    content = {
        "event": "jsevent",
        "kind": "ModelChanged",
        "model": {"id": model.id},
        "attr": attr,
        "new": Serializer(deferred=False).encode(new),
    }
    editor.plot._sync_model(editor.plot, json.loads(json.dumps(content)), [])


def browser_select(editor, spaces) -> None:
    rows = [editor.board_source.data["id"].index(s) for s in spaces]
    browser_change(editor, editor.board_source.selected, "indices", rows)


def click(editor, css: str) -> None:
    found = [b for b in _walk(editor.widget) if css in getattr(b, "_dom_classes", ())]
    assert len(found) == 1, f"{css}: {len(found)} widgets"
    found[0].click()


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def png_bytes(width: int, height: int, pixel=(200, 180, 120)) -> bytes:
    """A plain RGB PNG of one colour with a dark diagonal."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            row += bytes((20, 20, 20)) if abs(x * height - y * width) < width else bytes(pixel)
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )
