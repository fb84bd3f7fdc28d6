"""``fdlab export``: a board as GeoJSON, for GIS tools and sharing.

Listed in :data:`fdlab.cli.COMMAND_MODULES`, which reads :data:`NAME`,
:data:`HELP`, :func:`arguments` and :func:`run` from here (this module does
not import :mod:`fdlab.cli`)::

    fdlab export tracks/monaco.json -o monaco.geojson
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fdlab.errors import CommandError

#: The subcommand's name.
NAME = "export"

#: One line for ``fdlab --help``.
HELP = "export a board as GeoJSON (centreline and spaces)"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab export`` to its parser."""
    parser.add_argument("track", metavar="TRACK", help="the board to export")
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT.geojson", help="the GeoJSON file to write"
    )


def run(args: argparse.Namespace) -> int:
    """Export a board as a GeoJSON FeatureCollection: the centreline, every space's
    outline, steps and contacts, in the board's own plane coordinates.
    `fdlab import OUT.geojson` reads it back unchanged.
    """
    output = Path(args.output)
    if output.suffix.lower() not in (".geojson", ".json"):
        raise CommandError(f"{output}: name the GeoJSON file .geojson")
    from fdlab.track.formats import import_track, save_geojson

    track = import_track(args.track)
    save_geojson(track, output)
    print(f"wrote {output}: {track.name!r}, {len(track)} spaces as GeoJSON features")
    return 0
