"""The race table on screen: ipywidgets around a jupyter_bokeh board.

:class:`RaceTable` is a thin view over :class:`~fdlab.table.controller.TableController`:
gear buttons (legal gears only, each with its cost and odds), the die, the
legal destinations outlined on the board (cost on hover, a click plays the
move; a list below does the same), the grid roll, start roll, nitro and
box buttons when they apply, a dashboard per car, the log (newest first), seats, the
bots' pace, undo/redo and game files. The seats offer a person and every
bot of :func:`fdlab.bots.roster.bot_specs` in every style; the help line
links the rules text of the repository (``docs/rules.md``).

Handlers are idempotent, because jupyter_bokeh delivers every browser
change twice: a click on a destination is played only while the car on
turn is a person's and in its move phase, and the second delivery finds
the next phase. Errors go to an ``Output`` widget and
:attr:`RaceTable.last_error`. Every control carries a CSS class
``fdlab-...`` for browser tests and stylesheets.
"""

from __future__ import annotations

import asyncio
import functools
import html
import os
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w
from bokeh.models import ColumnDataSource, HoverTool, Range1d, TapTool
from jupyter_bokeh import BokehModel

from fdlab._shell import Buttons, MessageLine, load_bokehjs, reported
from fdlab.plot import colors
from fdlab.plot.data import board_data, car_data
from fdlab.plot.figure import board_figure, car_rows, pixels_per_unit
from fdlab.plot.geometry import space_size
from fdlab.rules.presets import ordinal
from fdlab.rules.race import Race
from fdlab.table.controller import TableController
from fdlab.table.errors import TableError

__all__ = ["RULES_FILE", "RaceTable", "rules_link"]

#: Where the rules are written down in the repository, for the table's help line.
RULES_FILE = "docs/rules.md"

#: The tallest the board gets in the table, in pixels.
_HEIGHT = 660
#: The narrowest view when following the car on turn, in spaces across the board.
_FOLLOW_SPACES = 22

_GEAR_COLORS = ("#f4d03f", "#f39c12", "#e74c3c", "#8e44ad", "#2e86c1", "#1e8449")


class RaceTable:
    """Play a Formula D race in a notebook, people and bots at one table.

    Parameters
    ----------
    race : Race
        The race to play (in place).
    seats : sequence, optional
        One per car: ``"person"`` (or None) or a bot spec (any of
        :meth:`TableController.seat_choices
        <fdlab.table.controller.TableController.seat_choices>`, any
        :func:`fdlab.bots.roster.make_bot` spec, or a policy object).
        Default: a person in car 1, heuristic bots in the others.
    bot_delay : float
        Seconds between two bot actions when the table runs in a notebook
        (0: the bots play at once). Outside a running event loop (tests,
        scripts) the bots always play at once.
    width : int
        Width of the board in pixels.
    path : str
        The game file *Save* and *Load* use by default.

    Attributes
    ----------
    controller : TableController
    last_error : str or None

    Examples
    --------
    >>> track = from_ascii(" ".join(["."] * 14), grid=[1, 0], finish=13)
    >>> table = RaceTable(Race(track, cars=["Blue", "Red"], seed=4), ["person", "heuristic"])
    >>> table.start_button.description  # Blue's first turn: the start roll (S-2)
    'Start roll (black die: 1 stalls, 17-20 flying start)'
    >>> table.start_button.click()
    >>> table.click_space(table.target_source.data["id"][0])
    >>> table.log.value.count("Blue moves")
    1
    """

    def __init__(
        self,
        race: Race,
        seats: Sequence[Any] | None = None,
        *,
        bot_delay: float = 0.6,
        width: int = 1000,
        path: str = "game.json",
    ) -> None:
        load_bokehjs()
        self.controller = TableController(race, seats)
        self.messages = MessageLine()
        self._task: asyncio.Task[None] | None = None
        self._width = width
        self._build_board()
        self._build_controls(bot_delay, path)
        self.refresh()
        self.play_bots()

    @classmethod
    def load(cls, path: str | Path, **options: Any) -> RaceTable:
        """A table on the game saved in ``path`` (replayed and checked first).

        Raises
        ------
        GameFileError
            When the file cannot be read or does not replay.
        """
        from fdlab.table.game_file import load_game

        loaded = load_game(path)
        return cls(loaded.race, loaded.seats, path=str(path), **options)

    @property
    def race(self) -> Race:
        """The race being played."""
        return self.controller.race

    # -- building -----------------------------------------------------------------
    def _build_board(self) -> None:
        race = self.race
        track = race.track
        laps = f"{race.preset.laps} lap" + ("" if race.preset.laps == 1 else "s")
        self._space = space_size(track)
        data = board_data(track)
        self._bounds = _bounds(data)
        x0, y0, x1, y1 = self._bounds
        least = _FOLLOW_SPACES * self._space
        self._big = max(x1 - x0, y1 - y0) > 1.5 * least  # a small board is always shown whole
        self.figure = board_figure(
            track,
            width=self._width,
            title=f"{track.name} · {race.preset.name} rules · {laps}",
            space_ids=True if self._big else None,  # a big board is seen close up
        )
        self.figure.name = "fdlab-race-board"
        # the table, its buttons and the log should fit a laptop screen together
        self.figure.height = min(self.figure.height, _HEIGHT)
        # Fixed ranges: BokehJS recomputes a data range whenever a source changes (the
        # cars after every action), which would undo the view framed on the car on turn.
        self.figure.x_range = Range1d(x0, x1)
        self.figure.y_range = Range1d(y0, y1)
        self._outlines = {
            space: (xs, ys)
            for space, xs, ys in zip(*(data[k] for k in ("id", "xs", "ys")), strict=True)
        }
        by_name = {r.name: r for r in self.figure.renderers}  # select() walks every model: slow
        self.car_source = by_name["cars"].data_source
        # the table zooms in on the car on turn: cars keep their size on the board
        by_name["cars"].glyph.update(
            width="width", height="height", width_units="data", height_units="data"
        )
        self._scale = (
            (self._width - 20) / least
            if self._big
            else pixels_per_unit(track, self._width, self.figure.height)
        )
        self.target_source = ColumnDataSource(
            {"xs": [], "ys": [], "id": [], "cost": [], "way": [], "fill": []}
        )
        targets = self.figure.patches(
            "xs",
            "ys",
            source=self.target_source,
            fill_color="fill",
            fill_alpha=0.45,
            line_color=colors.HIGHLIGHT,
            line_width=3,
            name="targets",
        )
        # the cars stay on top of the targets
        renderers = list(self.figure.renderers)
        renderers.remove(targets)
        at = renderers.index(by_name["cars"])
        self.figure.renderers = [*renderers[:at], targets, *renderers[at:]]
        self.figure.add_tools(
            HoverTool(
                renderers=[targets],
                tooltips=[("move to", "@id"), ("cost", "@cost"), ("", "@way")],
            )
        )
        tap = TapTool(renderers=[targets])
        self.figure.add_tools(tap)
        self.figure.toolbar.active_tap = tap
        # Handlers go on before the figure is wrapped (design notes, Jupyter pitfalls).
        self.target_source.selected.on_change("indices", self._on_target_indices)
        self.plot = BokehModel(self.figure)
        self.plot.add_class("fdlab-race-plot")

    def _build_controls(self, bot_delay: float, path: str) -> None:
        self.buttons = Buttons()
        button = self.buttons.make

        self.prompt = w.HTML()
        self.prompt.add_class("fdlab-prompt")
        self.message = self.messages.widget
        self.die_face = w.HTML()
        self.die_face.add_class("fdlab-die")
        self.gear_buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.gear_buttons.add_class("fdlab-gears")
        self.grid_button = button(
            "Roll for the grid",
            "fdlab-roll-grid",
            self.roll_grid,
            "S-1: every car rolls the black die",
        )
        self.start_button = button(
            _start_text(self.race), "fdlab-start-roll", self.start_roll,
            "S-2: before its first move a car rolls the black die",
        )  # fmt: skip
        self.nitro_button = button("Nitro", "fdlab-nitro", self.use_nitro, "X-1: add your gear")
        self.box_button = button("Into the box", "fdlab-box", self.into_box, "P-2: your pit box")
        self.move_list = w.Select(rows=6, layout=w.Layout(width="29em"))
        self.move_list.add_class("fdlab-move-list")
        self.move_button = button("Move", "fdlab-move", self.move_from_list)
        self.undo_button = button("Undo", "fdlab-undo", self.undo, "back to the last decision")
        self.redo_button = button("Redo", "fdlab-redo", self.redo)
        self.bot_delay = w.FloatSlider(
            value=bot_delay,
            min=0.0,
            max=2.0,
            step=0.1,
            description="Bot pace (s)",
            style={"description_width": "initial"},
            layout=w.Layout(width="20em"),
        )
        self.bot_delay.add_class("fdlab-speed")
        self.seat_boxes = []
        choices = self.controller.seat_choices()
        for k, name in enumerate(self.race.names):
            label = self.controller.seat_label(k)
            options = choices if label in choices else [*choices, label]
            box = w.Dropdown(
                description=name,
                options=options,
                value=label,
                layout=w.Layout(width="16em"),
                style={"description_width": "4em"},
            )
            box.add_class("fdlab-seat")
            box.observe(functools.partial(self._on_seat, k), names="value")
            self.seat_boxes.append(box)
        self.follow = w.Checkbox(
            value=True, description="Follow the car on turn", indent=False,
            layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.follow.add_class("fdlab-follow")
        self.follow.observe(lambda _: self._frame_view(), names="value")
        self.dashboard = w.HTML()
        self.dashboard.add_class("fdlab-dashboard")
        self.log = w.HTML(layout=w.Layout(max_height="22em", overflow="auto", width="100%"))
        self.log.add_class("fdlab-log")
        self.path = w.Text(value=path, description="Game file", layout=w.Layout(width="24em"))
        self.path.add_class("fdlab-path")
        self.save_button = button("Save", "fdlab-save", self.save)
        self.load_button = button("Load", "fdlab-load", self.load_file)
        self.export_button = button(
            "Replay page", "fdlab-export", self.export_replay, "an offline HTML page of the race"
        )
        self.legend = w.HTML(_legend_html(self.race))
        self.legend.add_class("fdlab-legend")
        self.bots_help = w.HTML(_bots_html())
        self.bots_help.add_class("fdlab-bots-help")
        # An Output renders Markdown as the notebook does: JupyterLab opens a relative
        # link in the notebook's folder as a file of the Lab (an HTML widget would not).
        self.help_line = w.Output()
        self.help_line.add_class("fdlab-help")
        self.help_line.outputs = (_help_output(rules_link()),)
        turn = w.VBox(
            [
                self.prompt,
                w.HBox([self.die_face, self.gear_buttons, self.grid_button, self.start_button]),
                w.HBox([self.nitro_button, self.box_button]),
                self.message,
                w.HBox([self.move_list, w.VBox([self.move_button])]),
            ],
            layout=w.Layout(width="36em"),
        )
        side = w.VBox(
            [
                w.HTML("<b>Cars</b>"),
                self.dashboard,
                w.HTML("<b>Race log</b> (newest first)"),
                self.log,
            ],
            layout=w.Layout(flex="1 1 auto"),
        )
        self.widget = w.VBox(
            [
                self.plot,
                self.legend,
                w.HBox([turn, side]),
                w.HBox([self.undo_button, self.redo_button, self.bot_delay, self.follow]),
                w.HBox(
                    [w.HTML("<b>Seats</b>&nbsp;"), *self.seat_boxes],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                self.bots_help,
                w.HBox([self.path, self.save_button, self.load_button, self.export_button]),
                self.help_line,
            ]
        )
        self.widget.add_class("fdlab-race-table")

    # -- drawing --------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the race."""
        c = self.controller
        race = self.race
        current = race.state.current
        swatch = (
            f"<span style='display:inline-block;width:0.8em;height:0.8em;margin-right:0.3em;"
            f"background:{colors.car_color(current, race.names[current])};"
            "border:1px solid #333'></span>"
            if current is not None
            else ""
        )
        self.prompt.value = f"<b style='font-size:1.15em'>{swatch}{html.escape(c.prompt())}</b>"
        person = c.person_on_turn
        cars = [
            (race.board.ids[car.space], name, row.color)
            for car, name, row in zip(race.state.cars, race.names, c.dashboard(), strict=True)
            if car.space >= 0
        ]
        self.car_source.data = car_rows(car_data(race.track, cars), self._scale, self._space)
        # gears
        buttons = []
        starting = person and c.start_roll_due
        for choice in c.gear_choices() if person and not starting else []:
            control = w.Button(
                description=choice.label,
                tooltip=_gear_tip(choice),
                layout=w.Layout(width="auto"),
                button_style=_gear_style(choice),
            )
            control.add_class("fdlab-gear")
            control.add_class(f"fdlab-gear-{choice.gear}")
            control.on_click(functools.partial(self._on_gear, choice.gear))
            buttons.append(control)
        self.gear_buttons.children = buttons
        self.grid_button.layout.display = "" if person and race.phase == "grid" else "none"
        self.start_button.layout.display = "" if starting else "none"
        # the die (with the start roll just made) and the destinations
        self.die_face.value = _die_html(c.die(), self._fresh_start())
        moves = c.move_choices() if person else []
        self._show_targets(moves)
        self.move_list.options = [(m.label, i) for i, m in enumerate(moves)]
        self.move_list.value = 0 if moves else None
        self._moves = moves
        self.move_list.layout.display = "" if moves else "none"
        self.move_button.layout.display = "" if moves else "none"
        self.nitro_button.layout.display = "" if person and c.nitro_available() else "none"
        box = c.box_move() if person else None
        self.box_button.layout.display = "" if box is not None else "none"
        if box is not None:
            self.box_button.description = f"Into the box ({box.destination})"
        self.undo_button.disabled = not c.can_undo
        self.redo_button.disabled = not c.can_redo
        self.dashboard.value = _dashboard_html(c)
        self.log.value = _log_html(c.log())
        self._frame_view()

    def _frame_view(self) -> None:
        """Zoom on the car on turn and its destinations (the whole board when not following)."""
        x0, y0, x1, y1 = self._bounds
        race = self.race
        current = race.state.current
        least = _FOLLOW_SPACES * self._space  # never closer than this many spaces across
        if (
            self._big
            and self.follow.value
            and current is not None
            and race.state.cars[current].space >= 0
        ):
            nodes = race.track.graph.nodes
            spaces = [
                race.board.ids[race.state.cars[current].space],
                *(m.destination for m in self._moves),
            ]
            xs = [float(nodes[s]["x"]) for s in spaces]
            ys = [float(nodes[s]["y"]) for s in spaces]
            margin = 6 * self._space
            x0, x1 = min(xs) - margin, max(xs) + margin
            y0, y1 = min(ys) - margin, max(ys) + margin
            if x1 - x0 < least:
                x0, x1 = (x0 + x1 - least) / 2, (x0 + x1 + least) / 2
        fig = self.figure
        aspect = (fig.height - 60) / max(fig.width - 20, 1)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half_w = max((x1 - x0) / 2, (y1 - y0) / 2 / aspect)
        half_h = half_w * aspect
        fig.x_range.start, fig.x_range.end = cx - half_w, cx + half_w
        fig.y_range.start, fig.y_range.end = cy - half_h, cy + half_h

    def _show_targets(self, moves: list[Any]) -> None:
        data: dict[str, list[Any]] = {k: [] for k in ("xs", "ys", "id", "cost", "way", "fill")}
        for choice in moves:
            xs, ys = self._outlines[choice.destination]
            data["xs"].append(xs)
            data["ys"].append(ys)
            data["id"].append(choice.destination)
            data["cost"].append(choice.cost)
            way = f"{choice.move.moved} spaces"
            if choice.move.braked:
                way += f", braking {choice.move.braked}"
            if choice.move.boxed:
                way += ", into the box"
            data["way"].append(way)
            damage = choice.move.eliminates or choice.move.cost.total > 0
            data["fill"].append("#ff9f1c" if damage else colors.HIGHLIGHT)
        self.target_source.selected.indices = []
        self.target_source.data = data

    def _fresh_start(self) -> tuple[int, str] | None:
        """The start roll of the car on turn when its gear die came with it (this very action)."""
        race = self.race
        current = race.state.current
        if race.phase != "move" or current is None or not race.actions:
            return None
        last = race.history()[-1]
        if last[0].current == current and not last[0].cars[current].started:
            return self.controller.start_result(current)
        return None

    # -- actions --------------------------------------------------------------------
    def _played(self) -> None:
        self.messages.clear()
        self.refresh()
        self.play_bots()

    @reported
    def roll_grid(self) -> None:
        """Roll for the grid (S-1), as the button does."""
        self.controller.roll_grid()
        self._played()

    @reported
    def start_roll(self) -> None:
        """Make the start roll (S-2, S-3), as the button does; a stall ends the turn."""
        c = self.controller
        car = c.race.state.on_turn
        c.start_roll()
        self._played()
        roll, outcome = c.start_result(car) or (0, "")
        if c.race.state.current != car or c.phase != "move":  # a stall: the turn is over
            self.messages.say(f"{c.race.names[car]}'s start roll: {roll}, {outcome}")

    @reported
    def choose_gear(self, gear: int) -> None:
        """Announce a gear, as its button does."""
        self.controller.choose_gear(gear)
        self._played()

    def _on_gear(self, gear: int, _button: Any) -> None:
        self.choose_gear(gear)

    @reported
    def click_space(self, space: Any) -> None:
        """A click on a space of the board: the move there, if it is a highlighted one.

        Plays only while a person's car is in its move phase, so the second
        delivery of one click (jupyter_bokeh) does nothing.
        """
        c = self.controller
        if not (c.person_on_turn and c.phase == "move"):
            return
        if space not in {m.destination for m in self._moves}:
            self.messages.refuse(f"space {space} is not a highlighted destination")
            return
        c.choose_move(space)
        self._played()

    def _on_target_indices(self, attr: str, old: Any, new: Sequence[int]) -> None:
        ids = self.target_source.data["id"]
        rows = [i for i in new if 0 <= i < len(ids)]
        if rows:
            self.click_space(ids[rows[0]])

    @reported
    def move_from_list(self) -> None:
        """Play the move chosen in the list (the fallback for the board)."""
        if self.move_list.value is None:
            raise TableError("choose a move in the list first")
        self.click_space(self._moves[self.move_list.value].destination)

    @reported
    def use_nitro(self) -> None:
        """Use nitro (X-1), as the button does."""
        self.controller.use_nitro()
        self._played()

    @reported
    def into_box(self) -> None:
        """Drive into the own box (P-2), as the button does."""
        self.controller.into_box()
        self._played()

    @reported
    def undo(self) -> None:
        """Back to the last decision of a person (bots' actions after it taken back)."""
        self._stop_bots()
        self.controller.undo()
        self.messages.clear()
        self.refresh()

    @reported
    def redo(self) -> None:
        """Play the undone decision again, with the bots' actions that followed it."""
        self._stop_bots()
        self.controller.redo()
        self._played()

    @reported
    def _on_seat(self, index: int, change: dict[str, Any]) -> None:
        before = self.controller.seat_label(index)
        if change["new"] == before:
            return
        self._stop_bots()
        try:
            # in a notebook a bot that needs the board solved is made in the background
            background = _running_loop() is not None
            self.controller.set_seat(index, change["new"], background=background)
        except ValueError:
            self.seat_boxes[index].value = before  # the menu shows the seat the car has
            raise
        self._played()
        if self.controller.solving:
            self.messages.say(self._solving_text())

    # -- bots -----------------------------------------------------------------------
    def play_bots(self) -> None:
        """Let the bots play until a person is on turn: at the set pace in a notebook.

        Outside a running event loop, or with a pace of 0, they play at once.
        """
        c = self.controller
        if not c.bots_to_play or (self._task is not None and not self._task.done()):
            return
        delay = float(self.bot_delay.value)
        loop = _running_loop()
        if loop is None or (delay <= 0 and not self.controller.solving):
            self._run_bots_now()
            return
        self._task = loop.create_task(self._paced_bots(delay))

    @reported
    def _run_bots_now(self) -> None:
        self.controller.run_bots()
        self.refresh()

    async def _paced_bots(self, delay: float) -> None:
        try:
            steps = self.controller.bot_steps()
            while True:
                await self._solved()
                if next(steps, None) is None:
                    break
                self.refresh()
                await asyncio.sleep(float(self.bot_delay.value) or 0)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a task must not lose its error
            self.messages.refuse(f"{type(error).__name__}: {error}", traceback.format_exc())
        self.refresh()

    async def _solved(self) -> None:
        """Wait, with the page live, until the bot on turn is made (its board solved)."""
        bot = self.controller.bot_waiting()
        while bot is not None and not bot.ready:
            self.messages.say(self._solving_text())
            await asyncio.wait([asyncio.wrap_future(bot.future)], timeout=0.5)
        if bot is not None:
            bot.wait()  # a failed solve raises here, and the error is shown
            self.messages.clear()

    def _solving_text(self) -> str:
        names = self.controller.solving
        bot = self.controller.bot_waiting()
        waited = f" ({bot.seconds_waited():.0f} s)" if bot is not None else ""
        return (
            f"solving the board for {' and '.join(names)}{waited}... the race goes on; "
            "a bot's first decision waits for its solve (once per board, then cached)"
            if names
            else ""
        )

    def _stop_bots(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def wait(self) -> None:
        """Wait until the bots have played (for code that drives the table in a notebook)."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    # -- files ----------------------------------------------------------------------
    @reported
    def save(self, path: str | None = None) -> None:
        """Save the game to ``path`` (default: the path box)."""
        from fdlab.table.game_file import save_game

        target = save_game(self.controller, path or self.path.value)
        self.messages.say(f"saved to {target}")

    @reported
    def load_file(self, path: str | None = None) -> None:
        """Load the game in ``path`` (default: the path box) into this table."""
        from fdlab.table.game_file import load_game

        self._stop_bots()
        loaded = load_game(path or self.path.value)
        if loaded.race.track.name != self.race.track.name:
            self.messages.refuse(
                f"the game is on {loaded.race.track.name}: open it with RaceTable.load(path)"
            )
            return
        self.controller = loaded
        for k, box in enumerate(self.seat_boxes[: len(loaded.race.names)]):
            label = loaded.seat_label(k)
            if label not in box.options:
                box.options = [*box.options, label]
            box.value = label
        self._played()
        self.messages.say(f"loaded {path or self.path.value}")

    @reported
    def export_replay(self, path: str | None = None) -> None:
        """Write the standalone replay page beside the game file (``.html``)."""
        from fdlab.table.replay_html import save_replay

        target = Path(path) if path else Path(self.path.value).with_suffix(".html")
        save_replay(self.race, target)
        self.messages.say(f"replay page written to {target}")

    # -- display --------------------------------------------------------------------
    @property
    def last_error(self) -> str | None:
        """The refusal the last control reported, ``None`` once an action went through."""
        return self.messages.last_error

    def after_callback(self) -> None:
        """Nothing to bring up to date: :meth:`refresh` runs after every action."""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # A BokehModel renders a new view from the document as it was when the
        # widget was made; refresh it with what happened since.
        self.plot.update_from_model(self.figure)
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<RaceTable: {self.race!r}>"


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The notebook's event loop, or ``None`` in plain Python (the bots then play at once)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _bounds(data: dict[str, list[Any]]) -> tuple[float, float, float, float]:
    """The board's extent with room for the corner flags around it."""
    xs = [x for row in data["xs"] for x in row] or [0.0]
    ys = [y for row in data["ys"] for y in row] or [0.0]
    pad = 0.06 * max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _legend_html(race: Race) -> str:
    """A key to the board's colours, only for what this board has."""
    track = race.track
    kinds = {d["kind"] for _, d in track.graph.nodes(data=True)}
    hazards = {d["hazard"] for _, d in track.graph.nodes(data=True)}
    entries = [
        (colors.HIGHLIGHT, "a move at no cost"),
        ("#ff9f1c", "a move that costs damage (hover for the cost)"),
    ]
    if track.corners:
        entries.append((colors.CORNER, "corner: yellow flag = stops, green/red = long/short way"))
    if "pit" in kinds:
        entries.append((colors.PIT, "pit lane"))
    if "box" in kinds:
        entries.append((colors.BOX, "pit box"))
    if "shooting" in hazards:
        entries.append((colors.SHOOTING, "shooting space"))
    if "danger" in hazards:
        entries.append((colors.DANGER, "danger space"))
    if track.tunnel_pairs():
        entries.append((colors.TUNNEL_PURPLE, "tunnel"))
    items = "".join(
        f"<span style='margin-right:1.1em;white-space:nowrap'><span style='display:inline-block;"
        f"width:1.1em;height:0.8em;background:{color};border:1px solid #666;"
        f"vertical-align:middle;margin-right:0.3em'></span>{html.escape(text)}</span>"
        for color, text in entries
    )
    return f"<div style='font-size:0.85em;margin:0.2em 0 0.4em'>{items}</div>"


def rules_link(start: str | os.PathLike[str] | None = None) -> str | None:
    """The rules text of the repository the notebook is in, relative to it (None if none).

    Looks for :data:`RULES_FILE` in ``start`` (default: the working folder, a
    notebook's own folder) and the folders above it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "docs").mkdir(); _ = (root / "docs" / "rules.md").write_text("# rules")
    >>> (root / "notebooks").mkdir()
    >>> rules_link(root / "notebooks"), rules_link(root / "docs")
    ('../docs/rules.md', 'rules.md')
    """
    here = Path(start if start is not None else os.getcwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / RULES_FILE).is_file():
            return Path(os.path.relpath(folder / RULES_FILE, here)).as_posix()
    return None


def _help_output(link: str | None) -> dict[str, Any]:
    """The help line as a display output (Markdown, so the notebook resolves its link)."""
    rules = f"[{RULES_FILE}]({link})" if link else f"`{RULES_FILE}` in the fdlab repository"
    text = (
        "Choose a gear, then click a pink space (hover shows what the move costs). "
        f"The rules, clause by clause: {rules}."
    )
    return {
        "output_type": "display_data",
        "data": {"text/markdown": text, "text/plain": text},
        "metadata": {},
    }


def _bots_html() -> str:
    from fdlab.bots.roster import BOT_SUMMARIES
    from fdlab.bots.style import STYLES

    bots = "; ".join(
        f"<b>{html.escape(name)}</b>: {html.escape(text)}" for name, text in BOT_SUMMARIES.items()
    )
    styles = ", ".join(STYLES)
    return (
        f"<div style='font-size:0.8em;line-height:1.35;color:#555;max-width:70em'>Bots: {bots}. "
        "A style after "
        f"the colon ({html.escape(styles)}; none: balanced) sets how much damage a bot risks."
        "</div>"
    )


def _start_text(race: Race) -> str:
    """The start roll button: what the black die does (S-2 basic, S-3 advanced)."""
    preset = race.preset
    kind = "rocket" if preset.model == "advanced" else "flying"
    high = preset.black_die.high
    flying = (
        f"{preset.start_flying_min}" if preset.start_flying_min >= high
        else f"{preset.start_flying_min}-{high}"
    )  # fmt: skip
    stall = f"1-{preset.start_stall_max}" if preset.start_stall_max > 1 else "1"
    return f"Start roll (black die: {stall} stalls, {flying} {kind} start)"


def _gear_tip(choice: Any) -> str:
    """The gear button's tooltip: the risk before the roll in sentences (GearChoice.tip)."""
    return str(choice.tip)


def _gear_style(choice: Any) -> str:
    """Red when the gear certainly eliminates the car, orange when it may."""
    if choice.eliminates or choice.elimination == 1:
        return "danger"
    return "warning" if choice.elimination else ""


def _die_html(die: dict[str, Any] | None, start: tuple[int, str] | None = None) -> str:
    if die is None:
        return "<div style='width:3.6em'></div>"
    black = ""
    if start is not None:
        roll, outcome = start
        black = (
            f"<div style='text-align:center;margin-right:0.6em' title='{html.escape(outcome)}'>"
            "<div style='width:2.6em;height:2.6em;line-height:2.6em;border-radius:0.45em;"
            "background:#222;color:#fff;font-size:1.5em;font-weight:bold;"
            f"box-shadow:1px 2px 4px #0006;margin:auto'>{roll}</div>"
            f"<div style='font-size:0.75em;color:#444'>start: {html.escape(outcome)}</div></div>"
        )
    gear = max(die["gear"], 1)
    color = _GEAR_COLORS[(gear - 1) % len(_GEAR_COLORS)]
    face = die["face"]
    shown = die["roll"]
    below = (f"{ordinal(gear)} die {die['faces']}" if face is not None else "flying start") + (
        " + nitro" if die["nitro"] else ""
    )
    gear_die = (
        f"<div style='text-align:center;margin-right:0.8em' title='{html.escape(below)}'>"
        f"<div style='width:2.6em;height:2.6em;line-height:2.6em;border-radius:0.45em;"
        f"background:{color};color:#111;font-size:1.5em;font-weight:bold;"
        f"box-shadow:1px 2px 4px #0006;margin:auto'>{shown}</div>"
        f"<div style='font-size:0.75em;color:#444'>{html.escape(below)}</div></div>"
    )
    return f"<div style='display:flex;align-items:flex-start'>{black}{gear_die}</div>"


def _dashboard_html(controller: TableController) -> str:
    rows = controller.dashboard()
    pools = list(controller.race.preset.pool_names)
    head = "".join(
        f"<th style='padding:2px 6px;text-align:left'>{h}</th>"
        for h in ["", "car", "seat", "lap", "gear", *pools, "stops", "space"]
    )
    body = []
    for row in rows:
        style = "background:#fff3c4;font-weight:bold" if row.on_turn else ""
        swatch = (
            f"<span style='display:inline-block;width:0.9em;height:0.9em;background:{row.color};"
            "border:1px solid #333;vertical-align:middle'></span>"
        )
        cells = [
            str(row.place),
            f"{swatch} {html.escape(row.name)}",
            html.escape(row.seat),
            html.escape(row.lap),
            row.gear,
            *(str(row.pools[p]) for p in pools),
            html.escape(row.stops),
            html.escape("" if row.space is None else str(row.space)),
        ]
        tds = "".join(f"<td style='padding:2px 6px'>{cell}</td>" for cell in cells)
        body.append(f"<tr style='{style}'>{tds}</tr>")
    return (
        "<table style='border-collapse:collapse;font-size:0.92em'>"
        f"<thead><tr style='border-bottom:1px solid #999'>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _log_html(lines: list[str]) -> str:
    if not lines:
        return "<i>nothing yet</i>"
    first, rest = html.escape(lines[0]), [html.escape(line) for line in lines[1:]]
    body = "<br>\n".join([f"<b>{first}</b>", *rest])
    return f"<div style='font-family:monospace;font-size:0.88em;line-height:1.35'>{body}\n</div>"
