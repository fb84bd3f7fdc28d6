"""Build the boards shipped in ``tracks/`` from their centrelines.

Run ``python tracks/build_shipped.py`` after changing the builder; a test
checks that the committed JSON files equal a fresh build. The real circuits
are built at the builder's calibrated default size (that of the printed
boards); the training ring is small, for lessons. Real circuits are
read from ``circuits/`` (GeoJSON, MIT licence in that folder).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

from fdlab.track import Track
from fdlab.track.build import CornerSpec, PitSpec, StreetSpec, Stretch, build_track
from fdlab.track.io import save_track

TRACKS = Path(__file__).resolve().parent
CIRCUITS = TRACKS.parent / "circuits"

#: A drawn practice circuit: straights (metres) and turns (degrees, left
#: positive; radius in metres), anticlockwise from the finish line.
TRAINING_LAYOUT: tuple[tuple[float, ...], ...] = (
    (60,), (180, 35), (70,), (-90, 40), (40,), (90, 40), (70,), (90, 35), (120,), (90, 35), (160,),
)  # fmt: skip


def drawn_centreline(
    layout: tuple[tuple[float, ...], ...], step: float = 5.0
) -> list[tuple[float, float]]:
    """Points of a centreline drawn as straights ``(length,)`` and turns ``(angle, radius)``."""
    x, y, heading = 0.0, 0.0, 0.0
    points = [(x, y)]
    for piece in layout:
        if len(piece) == 1:
            count = max(1, round(piece[0] / step))
            for _ in range(count):
                x += piece[0] / count * math.cos(heading)
                y += piece[0] / count * math.sin(heading)
                points.append((round(x, 2), round(y, 2)))
        else:
            angle, radius = math.radians(piece[0]), piece[1]
            count = max(2, round(abs(angle) * radius / step))
            for _ in range(count):
                turn = angle / count
                chord = 2 * radius * math.sin(abs(turn) / 2)
                heading += turn / 2
                x += chord * math.cos(heading)
                y += chord * math.sin(heading)
                heading += turn / 2
                points.append((round(x, 2), round(y, 2)))
    return points


def layout_corners(layout: tuple[tuple[float, ...], ...]) -> list[CornerSpec]:
    """A corner on each turn of a drawn layout, as lap fractions of its arc."""
    lengths = [
        piece[0] if len(piece) == 1 else math.radians(abs(piece[0])) * piece[1] for piece in layout
    ]
    lap = sum(lengths)
    corners, travelled = [], 0.0
    for piece, length in zip(layout, lengths, strict=True):
        if len(piece) == 2:
            corners.append(CornerSpec(travelled / lap, (travelled + length) / lap))
        travelled += length
    return corners


#: Stop counts of the training ring's turns: the hairpin, two fast bends, two sharp ones.
TRAINING_STOPS = (3, 1, 1, 2, 2)


def training() -> Track:
    """A small practice ring with corners of 1, 2 and 3 stops (a lesson board: its corners
    and stop counts are drawn, its bends being wide for its small spaces)."""
    return build_track(
        drawn_centreline(TRAINING_LAYOUT),
        name="Training ring",
        lanes=2,
        space_length=16.0,
        corners=layout_corners(TRAINING_LAYOUT),
        stops=TRAINING_STOPS,
        pit=PitSpec(boxes=6),
        description=(
            "A small practice ring for first races and lessons: "
            "a hairpin, sharp and fast corners, a short pit lane."
        ),
    )


#: Monaco's corners as lap fractions from the finish line (the GeoJSON line
#: starts at Casino square; the finish line is 0.715 of its lap further on).
MONACO_CORNERS = (
    CornerSpec(0.079, 0.098, name="Sainte-Dévote"),
    CornerSpec(0.250, 0.292, name="Massenet"),
    CornerSpec(0.299, 0.325, name="Casino"),
    CornerSpec(0.362, 0.385, name="Mirabeau"),
    CornerSpec(0.387, 0.410, name="Hairpin"),
    CornerSpec(0.412, 0.444, name="Portier"),
    CornerSpec(0.628, 0.662, name="Harbour chicane"),
    CornerSpec(0.723, 0.746, name="Tabac"),
    CornerSpec(0.770, 0.852, name="Piscine"),
    CornerSpec(0.880, 0.923, name="Rascasse"),
)


def monaco() -> Track:
    """Monaco with the corners and stop counts of the printed board."""
    return build_track(
        CIRCUITS / "mc-1929.geojson",
        name="Monaco",
        finish=0.715,
        corners=MONACO_CORNERS,
        stops=(1, 1, 1, 1, 3, 1, 1, 2, 2, 1),
        pit=PitSpec(),
        laps=2,
        # given, not the default (151): at 151 the corners widen to where the lap's last
        # digits decide, and numpy versions round those differently
        spaces_per_lap=150,
        description=(
            "The harbour street circuit: slow corners, a hairpin and little room "
            "to pass. Three lanes and a pit lane on the start straight."
        ),
    )


def zandvoort() -> Track:
    """Zandvoort, the dunes circuit on the other side of the first board."""
    return build_track(
        CIRCUITS / "nl-1948.geojson",
        name="Zandvoort",
        pit=PitSpec(),
        description=(
            "The seaside circuit in the dunes: a long start straight into a banked "
            "hairpin, then fast sweepers. Good for a first two-lap race."
        ),
    )


def street() -> Track:
    """Baku old town, a street board with every street-rules feature."""
    return build_track(
        CIRCUITS / "az-2016.geojson",
        name="Baku",
        pit=PitSpec(),
        street=StreetSpec(
            shooting=(Stretch(0.30, 0.34), Stretch(0.62, 0.64)),
            danger=(Stretch(0.44, 0.48),),
            police=0.80,
            tunnels=(Stretch(0.14, 0.17),),
        ),
        description=(
            "Street racing through the old town and along the seafront boulevard: "
            "shooting spaces, a danger zone by the walls, a police line and a tunnel."
        ),
    )


BOARDS: dict[str, Callable[[], Track]] = {
    "training": training,
    "monaco": monaco,
    "zandvoort": zandvoort,
    "street": street,
}


def main(argv: list[str] | None = None) -> int:
    """Build every board (or the named ones) and write ``tracks/<name>.json``."""
    names = argv if argv else list(BOARDS)
    for name in names:
        track = BOARDS[name]()
        save_track(track, TRACKS / f"{name}.json")
        print(f"{name}: {track!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
