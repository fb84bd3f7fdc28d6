"""``fdlab import``: boards of other Formula D software as fdlab track files.

Listed in :data:`fdlab.cli.COMMAND_MODULES`, which reads :data:`NAME`,
:data:`HELP`, :func:`arguments` and :func:`run` from here (this module does
not import :mod:`fdlab.cli`)::

    fdlab import silverstone.dat -o silverstone.json     # GP Online
    fdlab import FDMonaco.json -o monaco.json            # Tabletop Simulator
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fdlab.errors import CommandError
from fdlab.track.formats.dispatch import FORMATS
from fdlab.track.validate import read_car_count

#: The subcommand's name.
NAME = "import"

#: One line for ``fdlab --help``.
HELP = "import a board from other Formula D software"

#: Exit status when the imported board has problems (as ``fdlab validate``).
EXIT_PROBLEMS = 1


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab import`` to its parser."""
    parser.add_argument(
        "board", metavar="BOARD", help="a .dat (GP Online), TTS track JSON or GeoJSON board"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT.json", help="the track file to write"
    )
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default=None,
        help="the board's format (default: from the file)",
    )
    parser.add_argument(
        "--cars",
        type=read_car_count,
        default=10,
        metavar="N",
        help="cars the grid must hold, 1-10 (default 10)",
    )
    parser.add_argument("--force", action="store_true", help="replace OUT.json if it exists")


def run(args: argparse.Namespace) -> int:
    """Import a board of GP Online (.dat), the Tabletop Simulator mod (track JSON) or a GeoJSON export.

    Lanes, progress, contacts, corners, pit boxes and grid are derived as
    the board implies; space ids stay the file's, so the validator's report
    (printed) names them. The track file is written either way, so that it
    can be fixed in the editor; exit status 1 if the board has problems.
    """
    output = Path(args.output)
    if output.exists() and not args.force:
        raise CommandError(f"{output} already exists; pass --force to replace it")
    from fdlab.track.formats import detect_format, import_track
    from fdlab.track.io import save_track
    from fdlab.track.validate import validate

    chosen = args.format or detect_format(args.board)
    track = import_track(args.board, format=chosen)
    save_track(track, output)
    print(
        f"wrote {output}: {track.name!r} from {FORMATS[chosen]}, {len(track)} spaces, "
        f"{len(track.corners)} corners, {len(track.grid_spots())} grid spots, {len(track.boxes())} boxes"
    )
    report = validate(track, cars=args.cars)
    print(report)
    return 0 if report.ok else EXIT_PROBLEMS
