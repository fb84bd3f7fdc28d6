"""``fdlab class``: serve one shared race to a room; each student plays from their browser.

Listed in :data:`fdlab.cli.COMMAND_MODULES`::

    fdlab class tracks/monaco.json                       # four cars, all people
    fdlab class tracks/monaco.json --seats person,person,person,heuristic,par
    fdlab class tracks/monaco.json --game 3b-race.log    # the race in that file goes on

The command starts the shared race (a game log, :mod:`fdlab.table.shared`)
unless the file exists already, then serves the class page
(:mod:`fdlab.table.classroom`) with Voila (``pip install 'fdlab[class]'``)
on every network address of this computer, and prints the address to give
the class. Stop it with Ctrl+C; the game log keeps the race, and the same
command serves it again.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from fdlab._text import whole_at_least
from fdlab.table.classroom import CLASS_INSTALL, GAME_VARIABLE, class_notebook
from fdlab.table.errors import ClassAppError

#: The subcommand's name.
NAME = "class"

#: One line for ``fdlab --help``.
HELP = "serve a shared race to a class: each student plays from their own browser"

#: Voila's port unless told otherwise.
DEFAULT_PORT = 8866


def arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``fdlab class`` to its parser."""
    parser.add_argument("track", metavar="TRACK.json", help="the board")
    parser.add_argument(
        "--seats", default=None, metavar="SEAT,SEAT,...",
        help="one per car, car 1 first: person, or a bot (heuristic, par, lookahead:bold...); "
        "default: --cars seats, all people",
    )  # fmt: skip
    parser.add_argument(
        "--cars",
        type=whole_at_least(1),
        default=None,
        help="how many cars (default 4, or one per seat)",
    )
    parser.add_argument(
        "--preset", default="basic", help="rules: basic, street or advanced (default basic)"
    )
    parser.add_argument(
        "--laps", type=whole_at_least(1), default=None, help="laps (default the rules')"
    )
    parser.add_argument(
        "--seed", type=whole_at_least(0), default=None,
        help="the race's seed, 0 or more (default: a fresh one, kept in the game log)",
    )  # fmt: skip
    parser.add_argument(
        "--game", default=None, metavar="FILE",
        help="the shared game log (default TRACK-class.log beside where you run the command); "
        "when it exists, its race goes on",
    )  # fmt: skip
    parser.add_argument("--port", type=whole_at_least(1), default=DEFAULT_PORT, help="default 8866")
    parser.add_argument(
        "--ip", default="0.0.0.0",
        help="the address to listen on (default 0.0.0.0: every network of this computer; "
        "127.0.0.1 for this computer only)",
    )  # fmt: skip
    parser.add_argument(
        "--print-command", action="store_true",
        help="prepare the race and print the server's command instead of running it",
    )  # fmt: skip


@dataclass(frozen=True)
class ClassServer:
    """The Voila server of a class race: its command, its environment and its addresses.

    Attributes
    ----------
    command : list of str
        The program and its arguments.
    environment : dict
        The environment to run it in (the game log named by
        :data:`~fdlab.table.classroom.GAME_VARIABLE`).
    game : Path
        The shared game log.
    port : int
    """

    command: list[str]
    environment: dict[str, str]
    game: Path
    port: int

    def addresses(self, ip: str) -> list[str]:
        """The addresses students open: this computer's name on the network, and localhost."""
        hosts = [socket.gethostname(), "localhost"] if ip in {"0.0.0.0", "::"} else [ip]
        return [f"http://{host}:{self.port}/" for host in hosts]


def class_server(game: str | os.PathLike[str], *, port: int = DEFAULT_PORT,
                 ip: str = "0.0.0.0") -> ClassServer:  # fmt: skip
    """The Voila command that serves the class page on the shared race in ``game``.

    Parameters
    ----------
    game : str or os.PathLike
        An existing shared game log (:meth:`SharedTable.create
        <fdlab.table.shared.SharedTable.create>` makes one).
    port : int
    ip : str
        The address to listen on.

    Returns
    -------
    ClassServer

    Examples
    --------
    >>> server = class_server("race.log", port=8900, ip="127.0.0.1")
    >>> server.command[1:3], server.environment["FDLAB_CLASS_GAME"].endswith("race.log")
    (['-m', 'voila'], True)
    >>> server.addresses("127.0.0.1")
    ['http://127.0.0.1:8900/']
    """
    path = Path(game).resolve()
    command = [
        sys.executable, "-m", "voila", str(class_notebook()),
        f"--port={port}", f"--Voila.ip={ip}", "--no-browser",
        "--show_tracebacks=False", "--theme=light",
    ]  # fmt: skip
    environment = {**os.environ, GAME_VARIABLE: str(path)}
    return ClassServer(command, environment, path, port)


def _race_file(args: argparse.Namespace) -> tuple[Path, bool]:
    """The game log to serve, made from the options unless it exists; True if made now."""
    from fdlab.table.shared import SharedTable
    from fdlab.track.formats import import_track

    game = Path(args.game or f"{Path(args.track).stem}-class.log")
    if game.exists():
        SharedTable.join(game, "teacher")  # read and replayed: refused at once if it is not one
        ignored = [f"--{o}" for o in ("seats", "cars", "preset", "laps", "seed")
                   if getattr(args, o) not in (None, "basic")]  # fmt: skip
        if ignored:
            print(f"fdlab class: {', '.join(ignored)} not used: the race in {game} is set "
                  "already (pass --game NEW.log for a new race)")  # fmt: skip
        return game, False
    seats = [seat.strip() for seat in args.seats.split(",")] if args.seats else None
    cars = args.cars or (len(seats) if seats else 4)
    if seats is not None and len(seats) != cars:
        raise ClassAppError(f"--seats gives {len(seats)} seats for {cars} cars: give one per car")
    track = import_track(args.track)
    SharedTable.create(
        game, track, cars=cars, seats=seats, preset=args.preset, seed=args.seed,
        laps=args.laps, player="teacher",
    )  # fmt: skip
    return game, True


def run(args: argparse.Namespace) -> int:
    """Start (or go on with) the shared race, then serve the class page until Ctrl+C."""
    if find_spec("voila") is None and not args.print_command:
        raise ClassAppError(f"the class app needs Voila: {CLASS_INSTALL}")
    game, made = _race_file(args)
    server = class_server(game, port=args.port, ip=args.ip)
    said = "started the race in" if made else "the race in this file goes on:"
    print(f"fdlab class: {said} {game}")
    if args.print_command:
        print(f"{GAME_VARIABLE}={server.game} " + " ".join(server.command))
        return 0
    print("Students open: " + "  or  ".join(server.addresses(args.ip)))
    print("Each types a name and picks a car; stop the server with Ctrl+C (the race is kept).")
    try:
        return subprocess.call(server.command, env=server.environment)
    except KeyboardInterrupt:
        return 0
