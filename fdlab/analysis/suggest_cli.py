"""``fdlab suggest``: try changes on a board and write what to change, measured, as a page.

Listed in :data:`fdlab.cli.COMMAND_MODULES`::

    fdlab suggest tracks/monaco.json -o monaco-suggestions.html
    fdlab suggest my.json --par 14-20 --max-corner-elimination 0.03 --workers 2
    fdlab suggest my.json --scheduler tcp://scheduler:8786   # on a Dask cluster
    fdlab suggest my.json --pit --pit-saves 0.5-1.5          # the pit lane too
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fdlab._text import number_in, whole_at_least
from fdlab.analysis.cluster import dask_classes, dask_client, scheduler_help
from fdlab.analysis.suggestions import PIT_SAVES_RANGE, Targets, suggest

#: The subcommand's name.
NAME = "suggest"

#: One line for ``fdlab --help``.
HELP = "try changes on a board and list those that bring it toward its targets"


def _range(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        pair = (float(low), float(high))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 14-20, not {text!r}") from None
    if not sep or not pair[0] < pair[1]:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH with LOW < HIGH, not {text!r}")
    return pair


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab suggest`` to its parser."""
    parser.add_argument("track", metavar="TRACK.json", help="the track file")
    parser.add_argument(
        "--par", type=_range, default=(11.6, 22.8), metavar="LOW-HIGH",
        help="one-lap par the board should have, in turns (default 11.6-22.8: printed boards)",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=_range, default=None, metavar="LOW-HIGH",
        help="rounds a one-lap race of six cars should last (default: no target)",
    )  # fmt: skip
    parser.add_argument(
        "--max-corner-elimination", type=number_in(0, 1), default=0.05, metavar="SHARE",
        help="the most any corner may eliminate, a share of the cars (default 0.05)",
    )  # fmt: skip
    parser.add_argument(
        "--any-stops", action="store_true",
        help="do not ask a corner's stops to fit its length as on printed boards",
    )  # fmt: skip
    parser.add_argument(
        "--more-overtaking", action="store_true", help="count more lead changes as better"
    )
    parser.add_argument(
        "--rules", choices=("basic", "street"), default=None,
        help="the rules to race under (default: street when the board has hazard spaces, "
        "and then each hazard zone is moved and removed too; else basic)",
    )  # fmt: skip
    parser.add_argument(
        "--max-pole-wins", type=number_in(0, 1), default=None, metavar="SHARE",
        help="the most races the car from pole may win (default: no target; six cars share "
        "fairly at 0.17; measure with --races 24 or more)",
    )  # fmt: skip
    parser.add_argument(
        "--pit", action=argparse.BooleanOptionalAction, default=None,
        help="study the pit lane: what it saves a lone car over two laps, and its entry and "
        "exit moved (default: when the board is set for two laps or more)",
    )  # fmt: skip
    parser.add_argument(
        "--pit-saves", type=_range, default=PIT_SAVES_RANGE, metavar="LOW-HIGH",
        help="turns the pits may save a lone car over two laps (default "
        f"{PIT_SAVES_RANGE[0]:g}-{PIT_SAVES_RANGE[1]:g}: printed boards)",
    )  # fmt: skip
    parser.add_argument(
        "--races", type=whole_at_least(1), default=12, metavar="N",
        help="six-car races per measured board (default 12; the par is exact)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=whole_at_least(0), default=0, help="seed of the races (default 0)"
    )
    parser.add_argument(
        "--workers", type=whole_at_least(1), default=None,
        help="processes (default: every core); with --scheduler local, the LocalCluster's workers",
    )  # fmt: skip
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=scheduler_help("the changed boards"))  # fmt: skip
    parser.add_argument(
        "-o", "--output", default=None, metavar="SUGGESTIONS.html",
        help="where to write the page (default: TRACK-suggestions.html beside the track)",
    )  # fmt: skip
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Measure every candidate change, print the best and write them all as a page."""
    from fdlab.track.io import load_track

    began = time.perf_counter()
    if args.scheduler is not None:
        dask_classes()  # no Dask: one line (exit 2) before the board is read
    track_path = Path(args.track)
    track = load_track(track_path)
    targets = Targets(
        par=args.par,
        race_rounds=args.rounds,
        max_corner_elimination=args.max_corner_elimination,
        stops_fit_length=not args.any_stops,
        more_overtaking=args.more_overtaking,
        max_pole_wins=args.max_pole_wins,
        pit_saves=args.pit_saves,
    )
    with dask_client(args.scheduler, args.workers) as client:
        found = suggest(
            track, targets, races=args.races, seed=args.seed, workers=args.workers,
            client=client, progress=not args.quiet, rules=args.rules, pit=args.pit,
        )  # fmt: skip
    output = (
        Path(args.output)
        if args.output
        else track_path.with_name(f"{track_path.stem}-suggestions.html")
    )
    found.save_html(output)
    if found.missing:
        print("The board misses: " + "; ".join(found.missing.values()) + ".")
    else:
        print("The board meets every target as it is.")
    if found.verdict.pit is not None:
        print(f"Pit lane: {found.verdict.pit.words}.")
    for k, item in enumerate(found[:5], start=1):
        print(f"{k}. {item.change.description}: {item.effect}")
    if not len(found):
        print("No change tried brings it closer to its targets.")
    print(f"{found.tried} changes measured in {time.perf_counter() - began:.0f} s; see {output}")
    return 0
