"""``fdlab playtest``: race bots on a track file headless and write the circuit report.

Listed in :data:`fdlab.cli.COMMAND_MODULES`, which reads :data:`NAME`,
:data:`HELP`, :func:`arguments` and :func:`run` from here (this module does
not import :mod:`fdlab.cli`)::

    fdlab playtest tracks/monaco.json --races 1000 -o monaco-report.html
    fdlab playtest my.json --bots par,par:reckless,heuristic --workers 2
    fdlab playtest my.json --scheduler tcp://scheduler:8786   # on a Dask cluster
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from fdlab._text import whole_at_least
from fdlab.analysis.cluster import dask_classes, dask_client, scheduler_help
from fdlab.analysis.playtest import playtest
from fdlab.analysis.report import circuit_report

#: The subcommand's name.
NAME = "playtest"

#: One line for ``fdlab --help``.
HELP = "race bots on a board and write the circuit report"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab playtest`` to its parser."""
    parser.add_argument("track", metavar="TRACK.json", help="the track file to playtest")
    parser.add_argument(
        "--races",
        type=whole_at_least(1),
        default=1000,
        metavar="N",
        help="races to play (default 1000)",
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="SPECS",
        help="comma-separated bots, one per car: par (the default, guided by the exact solo "
        "solution), heuristic, lookahead, random, solo; par, heuristic and lookahead "
        "optionally with a style (par:cautious, heuristic:reckless, lookahead:0.2); or a "
        "number of par bots "
        "(default: 6, fewer if the grid is smaller)",
    )
    parser.add_argument(
        "--preset", default="basic", help="rules: basic, street or advanced (default basic)"
    )
    parser.add_argument(
        "--laps",
        type=whole_at_least(1),
        default=None,
        help="race length in laps (default: the preset's, 1 for basic; the board's own "
        "'laps' is not used); two or more open the pits",
    )
    parser.add_argument(
        "--seed", type=whole_at_least(0), default=0, help="master seed, 0 or more (default 0)"
    )
    parser.add_argument(
        "--workers",
        type=whole_at_least(1),
        default=None,
        help="processes (default: every core); with --scheduler local, the LocalCluster's workers",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help=scheduler_help("the races"),
    )
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="REPORT.html",
        help="where to write the report (default: TRACK-report.html beside the track)",
    )
    parser.add_argument("--no-par", action="store_true", help="do not solve the solo par")
    parser.add_argument(
        "--force",
        action="store_true",
        help="playtest a board the validator finds problems in (the report says so)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _bots(text: str | None) -> list[str] | int | None:
    if text is None:
        return None
    if text.strip().isdecimal():
        return int(text)
    return [part.strip() for part in text.split(",") if part.strip()]


def run(args: argparse.Namespace) -> int:
    """Race bots on a track many times and write a standalone HTML circuit report.

    Prints the report's sentences; the page adds the damage heatmap on the
    board, race lengths, win rate by grid spot and the corner table. A board
    with problems (the validator's) is refused, exit status 1, unless
    ``--force``; the report then says so. ``--scheduler ADDRESS`` plays the
    races on that Dask cluster (``local``: a ``LocalCluster`` on this machine,
    shut down afterwards); the same seed gives the same races either way.
    """
    from fdlab.bots.roster import bot_label
    from fdlab.rules.presets import get_preset
    from fdlab.track.io import load_track
    from fdlab.track.validate import validate

    track_path = Path(args.track)
    began = time.perf_counter()
    get_preset(args.preset)  # an unknown name is a PresetError (a ValueError): one line
    if args.scheduler is not None:
        dask_classes()  # no Dask: one line (exit 2) before the board is read
    bots = _bots(args.bots)
    for spec in bots if isinstance(bots, list) else []:
        bot_label(spec)  # an unknown bot is bad input (exit 2) before the board is checked
    track = load_track(track_path)
    checked = validate(track, cars=1)
    if not checked.ok and not args.force:
        print(checked, file=sys.stderr)
        print(
            f"fdlab playtest: {track_path}: the board has problems; fix them, or pass "
            "--force to playtest it anyway",
            file=sys.stderr,
        )
        return 1
    with dask_client(args.scheduler, args.workers) as client:
        result = playtest(
            track,
            bots,
            races=args.races,
            preset=args.preset,
            seed=args.seed,
            laps=args.laps,
            workers=args.workers,
            client=client,
            progress=not args.quiet,
        )
    problems = tuple(f"[{p.code}] {p.message}" for p in checked.problems)
    report = circuit_report(result, par=not args.no_par, problems=problems)
    output = (
        Path(args.output) if args.output else track_path.with_name(f"{track_path.stem}-report.html")
    )
    report.save_html(output)
    if problems:
        print(report.sentences()[0])  # the validator's problems first
    for finding in report.findings():
        print(finding.text)
    seconds = time.perf_counter() - began
    print(f"report written to {output} ({len(result)} races in {seconds:.1f} s)", file=sys.stderr)
    return 0
