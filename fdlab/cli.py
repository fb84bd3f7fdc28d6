"""The ``fdlab`` command: headless work on track files.

Subcommands (each with ``--help``)::

    fdlab validate TRACK.json [TRACK.json ...] [--cars N]
    fdlab build CIRCUIT.geojson -o OUT.json [--name ...] [--lanes N] [--finish F] [--stops 1,2,...] [--pit] ...
    fdlab show TRACK.json -o board.html|board.svg

Subcommands of other layers (``fdlab playtest``, in
:mod:`fdlab.analysis.cli`) live in modules listed in :data:`COMMAND_MODULES`.
Such a module never imports this one: it defines ``NAME``, ``HELP``,
``arguments(parser)`` and ``run(args) -> int``, and :func:`main` registers it
when the command line asks for a subcommand not registered here, so
``fdlab validate`` does not load the playtest machinery::

    # fdlab/analysis/cli.py
    NAME = "playtest"
    HELP = "race bots on a board"

    def arguments(parser):
        parser.add_argument("track")

    def run(args):
        ...
        return 0

Exit status (:data:`EXIT_PROBLEMS`, :data:`EXIT_BAD_INPUT`, :data:`EXIT_CRASH`):
0 success, 1 the board has problems (``validate``), 2 bad input (an
unreadable file, a bad option), 3 fdlab itself failed (a bug: the message
names the exception; set ``FDLAB_TRACEBACK=1`` to see the traceback). Every
failure is one short message, never a traceback. ``python -m fdlab`` runs
the same command.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fdlab._text import number_in, whole_at_least
from fdlab.errors import CommandError

__all__ = [
    "COMMANDS",
    "COMMAND_MODULES",
    "EXIT_BAD_INPUT",
    "EXIT_CRASH",
    "EXIT_PROBLEMS",
    "Command",
    "build_parser",
    "main",
    "register_command",
]

#: Exit status when a track has problems.
EXIT_PROBLEMS = 1
#: Exit status for bad input: unreadable files, bad options.
EXIT_BAD_INPUT = 2
#: Exit status when fdlab itself fails (a bug, not the board or the input).
EXIT_CRASH = 3

Arguments = Callable[[argparse.ArgumentParser], None]
Runner = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    """One ``fdlab`` subcommand.

    Parameters
    ----------
    name : str
        The word typed after ``fdlab``.
    help : str
        One line for ``fdlab --help``.
    arguments : callable
        Adds the subcommand's arguments to its ``argparse`` parser.
    run : callable
        Takes the parsed arguments and returns the exit status.
    """

    name: str
    help: str
    arguments: Arguments
    run: Runner


#: Subcommand name -> :class:`Command`, in the order they were registered.
COMMANDS: dict[str, Command] = {}

#: Modules whose subcommand (``NAME``, ``HELP``, ``arguments``, ``run``) :func:`main` registers.
COMMAND_MODULES: list[str] = [
    "fdlab.analysis.cli",
    "fdlab.analysis.suggest_cli",
    "fdlab.plot.print_cli",
    "fdlab.track.formats.import_cli",
    "fdlab.track.formats.export_cli",
    "fdlab.table.class_cli",
]


def register_command(name: str, *, help: str, arguments: Arguments) -> Callable[[Runner], Runner]:
    """Register a function as the ``fdlab NAME`` subcommand.

    Parameters
    ----------
    name : str
        The subcommand.
    help : str
        One line shown by ``fdlab --help``; the function's docstring is the
        subcommand's own ``--help`` description.
    arguments : callable
        ``arguments(parser)`` adds the subcommand's arguments.

    Examples
    --------
    >>> def _arguments(parser):
    ...     parser.add_argument("who")
    >>> @register_command("hello", help="say hello", arguments=_arguments)
    ... def hello(args):
    ...     '''Greet someone.'''
    ...     print(f"hello {args.who}")
    ...     return 0
    >>> main(["hello", "Ada"])
    hello Ada
    0
    >>> del COMMANDS["hello"]
    """

    def register(run: Runner) -> Runner:
        if name in COMMANDS:
            raise CommandError(f"an fdlab subcommand named {name!r} is already registered")
        COMMANDS[name] = Command(name, help, arguments, run)
        return run

    return register


def build_parser(*, extra_commands: bool = True) -> argparse.ArgumentParser:
    """The ``fdlab`` argument parser with every registered subcommand.

    Parameters
    ----------
    extra_commands : bool
        Import the :data:`COMMAND_MODULES` first, so that their subcommands
        are included.
    """
    if extra_commands:
        _import_command_modules()
    parser = argparse.ArgumentParser(
        prog="fdlab",
        description="Design, check and draw Formula D boards from the command line.",
    )
    from fdlab import __version__

    parser.add_argument("--version", action="version", version=f"fdlab {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS.values():
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=inspect.cleandoc(command.run.__doc__ or command.help),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def _import_command_modules() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
            if module.NAME not in COMMANDS:
                register_command(module.NAME, help=module.HELP, arguments=module.arguments)(
                    module.run
                )
        except Exception as error:  # a broken extra command must not take the others down
            print(
                f"fdlab: the commands of {name} are unavailable ({type(error).__name__}: {error})",
                file=sys.stderr,
            )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``fdlab`` command; returns the exit status.

    The extra command modules are only imported when the subcommand is not
    one already registered, so ``fdlab validate`` starts fast however heavy
    the others are.

    Examples
    --------
    >>> main(["validate", "no/such/board.json"])
    2
    """
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(extra_commands=not (words and words[0] in COMMANDS))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version or a usage error (already printed)
        return stop.code if isinstance(stop.code, int) else 0
    try:
        status: int = args.run(args)
        return status
    except (ValueError, OSError) as error:
        # Bad input (unreadable or malformed files, builder refusals): one line, no traceback.
        print(f"fdlab {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        if os.environ.get("FDLAB_TRACEBACK"):
            raise
        # Not the board, not the input: fdlab failed. Say so, in one short message.
        detail = str(error).splitlines()[0][:200] if str(error) else ""
        print(
            f"fdlab {args.command}: internal error ({type(error).__name__}"
            f"{': ' + detail if detail else ''}); this is a bug in fdlab. "
            "Set FDLAB_TRACEBACK=1 to see where it happened.",
            file=sys.stderr,
        )
        return EXIT_CRASH


def _stop_counts(text: str) -> list[int]:
    try:
        stops = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected stop counts separated by commas, like 1,2,3; got {text!r}"
        ) from None
    bad = [s for s in stops if s not in (1, 2, 3)]
    if bad:
        raise argparse.ArgumentTypeError(f"stop counts are 1, 2 or 3, not {bad[0]}")
    return stops


# -- fdlab validate ---------------------------------------------------------------------


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    from fdlab.track.validate import read_car_count

    parser.add_argument(
        "tracks", nargs="+", metavar="TRACK.json", help="the track file(s) to check"
    )
    parser.add_argument(
        "--cars",
        type=read_car_count,
        default=10,
        metavar="N",
        help="cars in the race, 1-10: the grid needs this many spots (default 10)",
    )


@register_command(
    "validate", help="check track files and list their problems", arguments=_validate_arguments
)
def run_validate(args: argparse.Namespace) -> int:
    """Check track files and list every problem of each at once.

    Exit status: 0 every board is sound, 1 some board has problems, 2 some
    file cannot be read (the other files are still checked).
    """
    from fdlab.track.io import TrackFileError, load_track
    from fdlab.track.validate import validate

    status = 0
    for path in args.tracks:
        if len(args.tracks) > 1:
            print(f"{path}:")
        try:
            track = load_track(path)
        except TrackFileError as error:
            print(f"fdlab validate: error: {error}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        report = validate(track, cars=args.cars)
        print(report)
        if not report.ok:
            status = max(status, EXIT_PROBLEMS)
    return status


# -- fdlab build --------------------------------------------------------------------------


def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "circuit", metavar="CIRCUIT.geojson", help="the circuit's centreline (GeoJSON lon/lat)"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT.json", help="the track file to write"
    )
    parser.add_argument("--name", help="the board's name (default: the circuit's Name)")
    parser.add_argument(
        "--feature", metavar="ID", help="which circuit of a GeoJSON collection (id or name)"
    )
    parser.add_argument("--description", default="", help="one or two sentences about the board")
    parser.add_argument(
        "--lanes", type=whole_at_least(1), default=3, metavar="N", help="lanes (2-4, default 3)"
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--space-length",
        type=number_in(0, math.inf, open_low=True),
        metavar="M",
        help="length of a space along the centreline, in metres",
    )
    size.add_argument(
        "--spaces-per-lap",
        type=whole_at_least(1),
        metavar="N",
        help="number of spaces along the centre of the lap (default 144: lanes of about 154 spaces, the printed boards' size)",
    )
    parser.add_argument(
        "--finish",
        type=number_in(0, 1, open_high=True, what="a lap fraction like 0.25"),
        default=0.0,
        metavar="F",
        help="where the finish line goes, as a fraction of the lap from the GeoJSON line's "
        "first point (default 0: the first point)",
    )
    parser.add_argument(
        "--stops",
        type=_stop_counts,
        metavar="1,2,3",
        help="stop counts of the corners in running order (default: suggested by the builder)",
    )
    parser.add_argument(
        "--pit", action="store_true", help="add a pit lane with 10 boxes beside the finish straight"
    )
    parser.add_argument(
        "--grid", type=whole_at_least(1), default=10, metavar="N", help="grid spots (default 10)"
    )
    parser.add_argument(
        "--laps", type=whole_at_least(1), default=1, metavar="N", help="default race length"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace OUT.json if it exists (it may hold edits)"
    )


@register_command(
    "build", help="build a board from a circuit centreline", arguments=_build_arguments
)
def run_build(args: argparse.Namespace) -> int:
    """Build a board from a circuit centreline and save it as a track file.

    The board is checked by the validator and its report printed; the file
    is written either way, so that it can be fixed in the editor, and the
    exit status is 1 when it has problems. An existing OUT.json is only
    replaced with --force.
    """
    output = Path(args.output)
    if output.exists() and not args.force:
        raise CommandError(f"{output} already exists; pass --force to replace it")
    from fdlab.track.build import build_track, centreline_from_geojson
    from fdlab.track.build.notes import BuilderNote
    from fdlab.track.io import save_track
    from fdlab.track.validate import validate

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BuilderNote)
        track = build_track(
            centreline_from_geojson(args.circuit, feature=args.feature),
            name=args.name,
            description=args.description,
            lanes=args.lanes,
            space_length=args.space_length,
            spaces_per_lap=args.spaces_per_lap,
            stops=args.stops,
            pit=True if args.pit else None,
            grid=args.grid,
            laps=args.laps,
            finish=args.finish,
        )
    save_track(track, output)
    print(
        f"wrote {output}: {track.name!r}, {len(track)} spaces, {len(track.corners)} corners, "
        f"{len(track.grid_spots())} grid spots"
    )
    for warning in caught:  # what the builder did instead of what was asked: said plainly
        if issubclass(warning.category, BuilderNote):
            print(f"note: {warning.message}")
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    report = validate(track, cars=min(args.grid, 10))
    print(report)
    return 0 if report.ok else EXIT_PROBLEMS


# -- fdlab show ---------------------------------------------------------------------------

_PICTURE_SUFFIXES = (".html", ".svg")


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    from fdlab.track.validate import read_car_count

    parser.add_argument("track", metavar="TRACK.json", help="the track file to draw")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="PICTURE",
        help="board.html (interactive Bokeh page, works offline) or board.svg",
    )
    parser.add_argument("--steps", action="store_true", help="draw an arrow for every step")
    parser.add_argument(
        "--problems",
        action="store_true",
        help="outline the spaces named by the validator's problems",
    )
    parser.add_argument(
        "--cars",
        type=read_car_count,
        default=10,
        metavar="N",
        help="cars in the race, 1-10, for --problems (default 10)",
    )


@register_command("show", help="draw a track file as HTML or SVG", arguments=_show_arguments)
def run_show(args: argparse.Namespace) -> int:
    """Draw a track file as a standalone picture.

    ``.html`` gives an interactive Bokeh page with BokehJS inlined, so it
    opens without a network; ``.svg`` gives a static picture.
    """
    output = Path(args.output)
    if output.suffix.lower() not in _PICTURE_SUFFIXES:
        raise CommandError(f"{output}: the picture must end in .html or .svg")
    from fdlab.files import atomic_write
    from fdlab.plot import board_figure, save_html, track_svg
    from fdlab.track.io import load_track

    track = load_track(args.track)
    highlight: frozenset[Any] = frozenset()
    if args.problems:
        from fdlab.track.validate import validate

        highlight = validate(track, cars=args.cars).spaces
    if output.suffix.lower() == ".svg":
        svg = track_svg(track, highlight=highlight, show_steps=args.steps)
        atomic_write(output, svg.encode("utf-8"))
    else:
        figure = board_figure(track, highlight=highlight, show_steps=args.steps)
        save_html(figure, output, title=track.name)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
