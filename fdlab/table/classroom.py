"""The class app: a teacher serves one shared race to a room, no code on anyone's screen.

``fdlab class TRACK`` (:mod:`fdlab.table.class_cli`) starts a shared race
(:mod:`fdlab.table.shared`) and serves the page this module draws with
Voila, the Jupyter dashboard server (``pip install 'fdlab[class]'``). Every
student opens the address the command prints, in their own browser, and
gets a kernel of their own that runs one cell: ``ClassLobby()``. The page
shows the race and its seats; the student types a name, picks a free car
(or watches) and presses *Join the race*: the lobby gives way to the race
table (:class:`~fdlab.table.shared_widget.SharedRaceTable`). Closing the
tab and joining again under the same name finds the race where it is.

A link can carry the name and the car, so a teacher can hand each student
their own: ``http://HOST:8866/?name=Ana&seat=Blue`` joins at once.

The page (:data:`CLASS_NOTEBOOK`) is a notebook shipped in the package; the
shared game log it plays is named by the environment variable
:data:`GAME_VARIABLE`, which ``fdlab class`` sets for the server.

Examples
--------
>>> import pathlib, tempfile
>>> from fdlab.table.shared import SharedTable
>>> log = pathlib.Path(tempfile.mkdtemp()) / "class.log"
>>> track = from_ascii(" ".join(["."] * 14), grid=[1, 0], finish=13, name="Strip")
>>> _ = SharedTable.create(log, track, cars=["Blue", "Red"], seats=["person", "heuristic"])
>>> lobby = ClassLobby(log)
>>> [label for label, _seat in lobby.seat_menu.options]
['Blue', 'watch only']
>>> lobby.name_box.value = "Ana"
>>> lobby.join_button.click()
>>> lobby.table.shared.mine, lobby.table.shared.player
([0], 'Ana')
"""

from __future__ import annotations

import html
import os
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as w

from fdlab._shell import Buttons, MessageLine, load_bokehjs, reported, row
from fdlab.shared_log import name_problem
from fdlab.table.errors import ClassAppError
from fdlab.table.shared import SharedTable
from fdlab.table.shared_widget import SharedRaceTable

__all__ = [
    "CLASS_INSTALL",
    "CLASS_NOTEBOOK",
    "GAME_VARIABLE",
    "ClassLobby",
    "class_notebook",
    "class_page",
]

#: The environment variable naming the shared game log the class page plays.
GAME_VARIABLE = "FDLAB_CLASS_GAME"

#: The notebook Voila serves to the class (in the package, beside this module).
CLASS_NOTEBOOK = "class_race.ipynb"

#: What to install for the class app.
CLASS_INSTALL = "pip install 'fdlab[class]'"

#: The name the lobby reads the log under (it never writes: it only lists the seats).
_READER = "lobby"

#: The seat menu's entry for a student who only watches.
WATCH = "watch only"


def class_notebook() -> Path:
    """The path of the page Voila serves (a one-cell notebook shipped with fdlab).

    Examples
    --------
    >>> class_notebook().name
    'class_race.ipynb'
    """
    return Path(str(resources.files("fdlab.table").joinpath(CLASS_NOTEBOOK)))


def class_page(path: str | os.PathLike[str] | None = None, **options: Any) -> Any:
    """What the class page shows: the lobby, or in plain words why there is none.

    The one cell of :data:`CLASS_NOTEBOOK`. A student never sees a
    traceback: a page opened without a race (no ``fdlab class`` behind it),
    or on a game log that cannot be read, says what is wrong and what the
    teacher can do.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The shared game log (default: :data:`GAME_VARIABLE`).
    **options
        As :class:`ClassLobby` takes them.

    Returns
    -------
    ClassLobby or ipywidgets.HTML

    Examples
    --------
    >>> page = class_page("no-such-race.log")
    >>> "no-such-race.log" in page.value
    True
    """
    from fdlab.errors import FdlabError

    try:
        return ClassLobby(path, **options)
    except FdlabError as error:
        page = w.HTML(
            "<h3>Formula D: no race to join yet</h3>"
            f"<p>{html.escape(str(error))}</p>"
            "<p>Ask your teacher for the address of the class race.</p>"
        )
        page.add_class("fdlab-class-missing")
        return page


class ClassLobby:
    """A student's page: the race and its seats, a name, a car, then the race table.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The shared game log (default: the environment variable
        :data:`GAME_VARIABLE`, as ``fdlab class`` sets it).
    query : str, optional
        The page address's query string (default: ``QUERY_STRING``, which
        Voila sets): ``name=Ana&seat=Blue`` fills the form and joins at once.
    table_options
        Passed to :class:`~fdlab.table.shared_widget.SharedRaceTable`
        (``poll``, ``bot_delay``, ``width``).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The page: the lobby, then the race table once joined.
    table : SharedRaceTable or None
        The student's race table, once joined.

    Raises
    ------
    ClassAppError
        When no game log is named (the page was opened without ``fdlab class``).
    SharedLogError
        When the game log cannot be read.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        query: str | None = None,
        **table_options: Any,
    ) -> None:
        if path is None:
            path = os.environ.get(GAME_VARIABLE) or None
        if path is None:
            raise ClassAppError(
                f"no class race to show: {GAME_VARIABLE} names no game log. A teacher starts "
                "one with `fdlab class TRACK.json` and gives the class the address it prints"
            )
        self.path = Path(path)
        load_bokehjs()  # now, while the cell runs: the table comes in a callback, with no page
        self.table_options = table_options
        self.table: SharedRaceTable | None = None
        self.reader = SharedTable.join(self.path, _READER)
        self.messages = MessageLine()
        self.heading = w.HTML()
        self.heading.add_class("fdlab-class-heading")
        self.name_box = w.Text(
            description="Your name", placeholder="as the others will see it",
            style={"description_width": "6em"}, layout=w.Layout(width="22em"),
        )  # fmt: skip
        self.name_box.add_class("fdlab-class-name")
        self.seat_menu = w.Dropdown(
            description="Car", style={"description_width": "3em"}, layout=w.Layout(width="14em")
        )
        self.seat_menu.add_class("fdlab-class-seat")
        buttons = Buttons()
        self.join_button = buttons.make(
            "Join the race", "fdlab-class-join", self.join,
            "take the car (or watch) and open the race table", button_style="primary",
        )  # fmt: skip
        self.refresh_button = buttons.make(
            "↻ Seats", "fdlab-class-refresh", self.refresh, "read again which cars are free"
        )
        self.widget = w.VBox(
            [
                self.heading,
                row(self.name_box, self.seat_menu, self.join_button, self.refresh_button),
                self.messages.widget,
            ]
        )
        self.widget.add_class("fdlab-class-lobby")
        self.refresh()
        name, seat = _wanted(os.environ.get("QUERY_STRING", "") if query is None else query)
        if name:
            self.name_box.value = name
            if seat in {label for label, _seat in self.seat_menu.options}:
                self.seat_menu.label = seat
            self.join()

    # -- what the page shows ------------------------------------------------------------
    def refresh(self) -> None:
        """Read the log again: who holds which car, which cars are free."""
        reader = self.reader
        reader.sync()
        race = reader.race
        self.heading.value = _heading_html(reader)
        free = [(race.names[k], k) for k in reader.free_seats()]
        # the first car free is offered first; later, what the student chose stays chosen
        chosen = self.seat_menu.value if self.seat_menu.options else -1
        self.seat_menu.options = [*free, (WATCH, None)]
        kept = chosen is None or chosen in {seat for _label, seat in free}
        self.seat_menu.value = chosen if kept else (free[0][1] if free else None)

    def after_callback(self) -> None:
        """Nothing to bring up to date after a callback (the table keeps itself)."""

    # -- joining ------------------------------------------------------------------------
    @reported
    def join(self) -> None:
        """Join the race under the name typed, taking the car chosen (or only watching)."""
        if self.table is not None:
            return
        name = self.name_box.value.strip()
        if not name:
            raise ClassAppError("type your name first: the others see it beside your car")
        problem = name_problem(name)
        if problem:
            raise ClassAppError(problem)
        if name == _READER:
            raise ClassAppError(f"{name!r} is the page's own name: choose another")
        self.refresh()
        seat = self.seat_menu.value
        shared = SharedTable.join(self.path, name)
        if shared.mine:  # joined again: the student's cars are theirs still, and no more
            seat = None
        table = SharedRaceTable(shared, seat=seat, **self.table_options)
        self.table = table
        self.messages.clear()
        self.widget.children = [table.widget]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        joined = f"joined as {self.table.shared.player}" if self.table else "not joined"
        return f"<ClassLobby {self.path.name}: {joined}>"


def _wanted(query: str) -> tuple[str, str]:
    """The name and car a page address asks for (``name=Ana&seat=Blue``).

    Examples
    --------
    >>> _wanted("name=Ana&seat=Blue"), _wanted("")
    (('Ana', 'Blue'), ('', ''))
    """
    fields = parse_qs(query.lstrip("?"))
    return (fields.get("name", [""])[0].strip(), fields.get("seat", [""])[0].strip())


def _heading_html(reader: SharedTable) -> str:
    """The race in one line, then each car with who drives it."""
    controller = reader.controller
    race = reader.race
    board = html.escape(str(race.track.name or "the board"))
    laps = f"{race.preset.laps} lap" + ("" if race.preset.laps == 1 else "s")
    cars = []
    for k, name in enumerate(race.names):
        owner = reader.owners[k]
        seat = controller.seat_label(k)
        who = (
            html.escape(owner)
            if owner is not None
            else ("<i>free</i>" if seat == "person" else f"bot ({html.escape(seat)})")
        )
        cars.append(f"<b>{html.escape(name)}</b>: {who}")
    state = "over" if race.over else "on" if race.actions else "about to start"
    return (
        f"<h3 style='margin:0.2em 0'>Formula D: {board}</h3>"
        f"<div>{html.escape(race.preset.name)} rules · {laps} · the race is {state}</div>"
        f"<div style='margin:0.3em 0'>{' · '.join(cars)}</div>"
    )
