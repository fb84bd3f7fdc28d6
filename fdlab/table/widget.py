"""The race table on screen: ipywidgets around a jupyter_bokeh board, on one screen.

:class:`RaceTable` is a thin view over :class:`~fdlab.table.controller.TableController`,
laid out with the shared shell (:func:`fdlab._shell.board_beside_panel`): the
board on the left, sized to the screen, and beside it a panel whose top is the
turn (what to do now, the die, the gear buttons with their cost and risk, the
grid roll, start roll, nitro and box buttons when they apply, the destinations
in a list, undo and redo), then sections that fold: the cars, the log (newest
first), the seats and the bots' pace, the game file (save, load, replay page,
new race) and what each bot does. A 1366x768 laptop shows the board and the
turn together; the mouse wheel scrolls the page, not the board. The legal
destinations are coloured on the board by what they cost (a colour-blind-safe
palette, :data:`fdlab.plot.colors.MOVE_FREE` and its neighbours; cost on hover,
a click plays the move). The help line says what to do in the phase the race
is in and links the rules text of the repository (``docs/rules.md``).

Handlers are idempotent, because jupyter_bokeh delivers every browser
change twice: a click on a destination is played only while the car on
turn is a person's and in its move phase, and the second delivery finds
the next phase. Errors go to the message line and
:attr:`RaceTable.last_error`. Every control carries a CSS class
``fdlab-...`` for browser tests and stylesheets.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import ipywidgets as w
from bokeh.models import ColumnDataSource, CustomJS, HoverTool, Range1d, TapTool
from jupyter_bokeh import BokehModel

from fdlab._shell import (
    SCREEN_HEIGHT,
    Buttons,
    MessageLine,
    board_beside_panel,
    bug_report,
    button,
    fold,
    load_bokehjs,
    reported,
    row,
    running_loop,
    table_row,
)
from fdlab._text import counted
from fdlab.plot import colors
from fdlab.plot.data import board_data, car_data
from fdlab.plot.figure import board_figure, car_rows, pixels_per_unit
from fdlab.plot.geometry import space_size
from fdlab.rules.collector import spare_long_lived
from fdlab.rules.costs import spaces
from fdlab.rules.presets import ordinal
from fdlab.rules.race import Race
from fdlab.table.controller import TableController
from fdlab.table.errors import TableError

if TYPE_CHECKING:
    from fdlab.table.shared_widget import SharedRaceTable

__all__ = ["RULES_FILE", "RaceTable", "file_link", "rules_link"]

#: Where the rules are written down in the repository, for the table's help line.
RULES_FILE = "docs/rules.md"

#: The tallest the board gets, in pixels: on a shorter screen the board column is as tall
#: as the screen leaves room for (:data:`fdlab._shell.SCREEN_HEIGHT`, as the editor's) and
#: the board gives up what the legend under it needs.
_HEIGHT = 900
#: The narrowest view when following the car on turn, in spaces across the board.
_FOLLOW_SPACES = 22

_GEAR_COLORS = ("#f4d03f", "#f39c12", "#e74c3c", "#8e44ad", "#2e86c1", "#1e8449")

# Fits the view box (the board, or the car on turn and its destinations) to the canvas
# the browser gives the board, keeping the board's proportions whatever the screen.
_FIT_VIEW = """
const d = view.data;
if (!d.x0 || d.x0.length === 0) return;
const w = fig.inner_width, h = fig.inner_height;
if (!(w > 0 && h > 0)) return;
const cx = (d.x0[0] + d.x1[0]) / 2, cy = (d.y0[0] + d.y1[0]) / 2;
const hw = Math.max((d.x1[0] - d.x0[0]) / 2, (d.y1[0] - d.y0[0]) / 2 * w / h);
const hh = hw * h / w;
fig.x_range.setv({start: cx - hw, end: cx + hw});
fig.y_range.setv({start: cy - hh, end: cy + hh});
"""

# The panel's long labels wrap instead of being cut: gear buttons, the move list.
_STYLE = """<style>
.fdlab-race-table .fdlab-turn { gap: 2px; }
.fdlab-race-table button.fdlab-gear {
  white-space: normal; height: auto; min-height: var(--jp-widgets-inline-height, 28px);
  line-height: 1.3; padding: 3px 8px; text-align: left; margin: 1px 0;
}
/* a gear without risk is white with a border, not the theme's grey (it looked disabled) */
.fdlab-race-table button.fdlab-gear:not(.mod-warning):not(.mod-danger):not(:disabled) {
  background: var(--jp-layout-color0, #fff); border: 1px solid var(--jp-border-color1, #999);
}
.fdlab-race-table button.fdlab-gear:not(.mod-warning):not(.mod-danger):not(:disabled):hover {
  background: var(--jp-layout-color2, #eee);
}
.fdlab-race-table button.fdlab-start-roll, .fdlab-race-table button.fdlab-roll-grid {
  white-space: normal; height: auto; min-height: var(--jp-widgets-inline-height, 28px);
  line-height: 1.3; padding: 3px 8px; text-align: left;
}
.fdlab-race-table .fdlab-move-list .widget-radio-box label {
  height: auto; line-height: 1.3; white-space: normal; overflow-wrap: break-word;
  display: flex; align-items: flex-start; gap: 0.35em; margin: 0 0 3px 0;
}
.fdlab-race-table .fdlab-move-list .widget-radio-box label input {
  order: -1; flex: 0 0 auto; margin: 0.15em 0 0 0;
}
.fdlab-race-table .fdlab-move-list .widget-radio-box { flex: 1 1 auto; min-width: 0; }
.fdlab-race-table .fdlab-help .jp-RenderedMarkdown p { margin: 0 0 0.2em 0; }
.fdlab-race-table .fdlab-help .jp-OutputArea-output { padding: 0; }
.fdlab-race-table .fdlab-help { font-size: 0.92em; line-height: 1.35; }
.fdlab-race-table .fdlab-message a { text-decoration: underline; }
</style>"""


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
        The board's width in pixels when it is drawn (the board then fills
        its column on the page, as tall as the screen allows); the cars'
        labels are placed for it.
    path : str
        The game file *Save* and *Load* use by default.

    Attributes
    ----------
    controller : TableController
    widget : ipywidgets.Box
        The table: the board column and the panel beside it.
    last_error : str or None

    Examples
    --------
    >>> track = sprint()
    >>> table = RaceTable(Race(track, cars=["Blue", "Red"], seed=4), ["person", "heuristic"])
    >>> table.start_button.description  # Blue's first turn: the start roll (S-2)
    'Start roll (black die: 1 stalls, 17-20 flying start)'
    >>> table.help_text.startswith("**Blue: make your start roll.**")
    True
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
        width: int = 700,
        path: str = "game.json",
    ) -> None:
        load_bokehjs()
        spare_long_lived()  # the kernel's own objects: no collector pause walks them
        self.controller = self._make_controller(race, seats)
        self.messages = MessageLine()
        self._task: asyncio.Task[None] | None = None
        self._width = width
        self._moves: list[Any] = []
        self._help_shown: str | None = None
        self._was_over = race.over
        #: The actions of the game file last saved or loaded (none: nothing saved yet).
        self._saved_actions: list[Any] = []
        self._build_board()
        self._build_controls(bot_delay, path)
        self.refresh()
        self.play_bots()

    def _make_controller(self, race: Race, seats: Sequence[Any] | None) -> TableController:
        """The table's controller (a shared table's comes from its game log)."""
        return TableController(race, seats)

    @classmethod
    def join(
        cls, path: str | os.PathLike[str], player: str, *, seat: int | str | None = None,
        **options: Any,
    ) -> SharedRaceTable:  # fmt: skip
        """A table on the race shared in the game log ``path``, played as ``player``.

        Every player joins the same file from their own notebook (one Jupyter
        server, or a shared folder): each sees the others' moves within about
        a second and acts only for the seats they hold. ``seat`` (a car's
        name or index) is taken at once, or taken back when it is already
        this player's. The race is started with
        :meth:`SharedTable.create <fdlab.table.shared.SharedTable.create>`;
        see :mod:`fdlab.table.shared` for what the log guarantees.

        Raises
        ------
        SharedLogError
            When the file cannot be read or does not replay. (A ``seat``
            another player holds is refused on the table's message line.)
        """
        from fdlab.table.shared import SharedTable
        from fdlab.table.shared_widget import SharedRaceTable

        # in a notebook a par bot's board is solved in the background: joining returns at once
        shared = SharedTable.join(path, player, background=running_loop() is not None)
        return SharedRaceTable(shared, seat=seat, **options)

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
        saved = list(loaded.race.actions)
        table = cls(loaded.race, loaded.seats, path=str(path), **options)
        table._saved_actions = saved
        return table

    @property
    def race(self) -> Race:
        """The race being played."""
        return self.controller.race

    # -- building -----------------------------------------------------------------
    def _build_board(self) -> None:
        race = self.race
        track = race.track
        laps = counted(race.preset.laps, "lap")
        self._space = space_size(track)
        data = board_data(track)
        x0, y0, x1, y1 = _bounds(data)
        least = _FOLLOW_SPACES * self._space
        self._big = max(x1 - x0, y1 - y0) > 1.5 * least  # a small board is always shown whole
        self.figure = board_figure(
            track,
            width=self._width,
            title=f"{track.name} · {race.preset.name} rules · {laps}",
            space_ids=True if self._big else None,  # a big board is seen close up
        )
        self.figure.name = "fdlab-race-board"
        flags = self.figure.select_one({"name": "flags"})
        self._bounds = _bounds(data, None if flags is None else flags.data_source.data)
        x0, y0, x1, y1 = self._bounds
        # The board fills its column and is as tall as the screen allows (a small board
        # no taller than it needs); the view keeps the board's proportions (_FIT_VIEW).
        height = _HEIGHT if self._big else min(self.figure.height, _HEIGHT)
        self.figure.height = height
        self.figure.sizing_mode = "stretch_both"
        # Fixed ranges: BokehJS recomputes a data range whenever a source changes (the
        # cars after every action), which would undo the view framed on the car on turn.
        self.figure.x_range = Range1d(x0, x1)
        self.figure.y_range = Range1d(y0, y1)
        self._view_source = ColumnDataSource({"x0": [x0], "y0": [y0], "x1": [x1], "y1": [y1]})
        fit = CustomJS(args={"view": self._view_source, "fig": self.figure}, code=_FIT_VIEW)
        self._view_source.js_on_change("data", fit)
        self.figure.js_on_change("inner_width", fit)
        self.figure.js_on_change("inner_height", fit)
        self.figure.js_on_event("reset", fit)
        self.figure.toolbar.active_scroll = None  # the wheel scrolls the page
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
            {"xs": [], "ys": [], "id": [], "cost": [], "way": [], "fill": [], "hatch": []}
        )
        targets = self.figure.patches(
            "xs",
            "ys",
            source=self.target_source,
            fill_color="fill",
            fill_alpha=colors.MOVE_ALPHA,
            hatch_pattern="hatch",
            hatch_color=colors.MOVE_OUT_HATCH,
            hatch_weight=1.5,
            hatch_scale=8,
            line_color=colors.HIGHLIGHT,
            line_width=3,
            name="targets",
        )
        # over the spaces, under their ids, the flags and the cars
        renderers = list(self.figure.renderers)
        renderers.remove(targets)
        above = [r for r in ("space_ids", "cars") if r in by_name]
        at = renderers.index(by_name[above[0]])
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
        # its own height, less where the screen is shorter (it shrinks in the board column)
        self.plot = BokehModel(
            self.figure,
            layout=w.Layout(
                width="100%", height=f"{height}px", flex="0 1 auto", min_height="300px"
            ),
        )
        self.plot.add_class("fdlab-race-plot")

    def _build_controls(self, bot_delay: float, path: str) -> None:
        self.buttons = Buttons()
        make = self.buttons.make

        self.prompt = w.HTML()
        self.prompt.add_class("fdlab-prompt")
        self.message = self.messages.widget
        self.die_face = w.HTML(layout=w.Layout(flex="0 0 auto"))
        self.die_face.add_class("fdlab-die")
        self.gear_buttons = w.VBox(layout=w.Layout(width="100%"))
        self._gears_shown: list[tuple[int, str, str, str]] = []
        self.gear_buttons.add_class("fdlab-gears")
        self.grid_button = make(
            "Roll for the grid",
            "fdlab-roll-grid",
            self.roll_grid,
            "S-1: every car rolls the black die",
            button_style="primary",
        )
        self.start_button = make(
            _start_text(self.race), "fdlab-start-roll", self.start_roll,
            "S-2: before its first move a car rolls the black die", button_style="primary",
        )  # fmt: skip
        extras = table_row(self.buttons, [
            ("Nitro", "fdlab-nitro", self.use_nitro, "X-1: add your gear"),
            ("Into the box", "fdlab-box", self.into_box, "P-2: your pit box"),
        ])  # fmt: skip
        self.nitro_button, self.box_button = extras.children
        # Radio buttons, not a <select>: a long move (braking, overshoots...) wraps.
        self.move_list = w.RadioButtons(
            options=[], layout=w.Layout(width="100%", max_height="15em", overflow="auto")
        )
        self.move_list.add_class("fdlab-move-list")
        self.move_button = make(
            "Move", "fdlab-move", self.move_from_list, "play the move chosen in the list",
            button_style="primary",
        )  # fmt: skip
        history = table_row(self.buttons, [
            ("Undo", "fdlab-undo", self.undo, "back to the last decision"),
            ("Redo", "fdlab-redo", self.redo),
        ])  # fmt: skip
        self.undo_button, self.redo_button = history.children
        self.bot_delay = w.FloatSlider(
            value=bot_delay,
            min=0.0,
            max=2.0,
            step=0.1,
            description="Bot pace (s)",
            style={"description_width": "initial"},
            layout=w.Layout(width="95%"),
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
                layout=w.Layout(width="95%"),
                style={"description_width": "5em"},
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
        self.dashboard = w.HTML(layout=w.Layout(width="100%", overflow="auto hidden"))
        self.dashboard.add_class("fdlab-dashboard")
        self.log = w.HTML(layout=w.Layout(max_height="16em", overflow="auto", width="100%"))
        self.log.add_class("fdlab-log")
        self.path = w.Text(value=path, description="Game file", layout=w.Layout(width="95%"))
        self.path.add_class("fdlab-path")
        self.discard = w.Checkbox(indent=False, layout=w.Layout(width="auto"))
        files = table_row(self.buttons, [
            ("Save", "fdlab-save", self.save),
            ("Load", "fdlab-load", self.load_file, "replace this race by the game in the file"),
            ("discard unsaved", "fdlab-discard", self.discard,
             "let Load and New race replace moves that were not saved"),
            ("Replay page", "fdlab-export", self.export_replay, "an offline HTML page of the race"),
            ("New race", "fdlab-new-race", self.new_race, "the same cars and seats, a new seed"),
        ])  # fmt: skip
        self.save_button, self.load_button, _, self.export_button, self.new_race_button = (
            files.children
        )
        self.file_note = w.HTML()
        self.file_note.add_class("fdlab-file-note")
        self.legend = w.HTML(_legend_html(self.race))
        self.legend.add_class("fdlab-legend")
        self.bots_help = w.HTML(_bots_html())
        self.bots_help.add_class("fdlab-bots-help")
        # An Output renders Markdown as the notebook does: JupyterLab opens a relative
        # link in the notebook's folder as a file of the Lab (an HTML widget would not).
        self.help_line = w.Output(layout=w.Layout(width="100%"))
        self.help_line.add_class("fdlab-help")
        self._rules = rules_link()
        style = w.HTML(_STYLE, layout=w.Layout(display="none"))  # <style> applies unseen
        style.add_class("fdlab-table-style")
        actions = w.VBox(
            [
                self.grid_button,
                self.start_button,
                self.gear_buttons,
                extras,
                self.move_list,
                row(self.move_button),
            ],
            layout=w.Layout(flex="1 1 auto", min_width="0"),
        )
        turn = w.VBox(
            [
                self.prompt,
                self.help_line,
                self.message,
                w.HBox([self.die_face, actions], layout=w.Layout(width="100%")),
                history,
            ],
            layout=w.Layout(width="100%", flex="0 0 auto"),
        )
        turn.add_class("fdlab-turn")
        self._file_section = fold(
            "Game file: save, load, replay page, new race",
            [
                self.path,
                files,
                self.file_note,
            ],
            "fdlab-file-section",
            open=False,
        )
        self.widget = board_beside_panel(
            [self.plot, self.legend],
            [
                style,
                turn,
                fold("Cars", [self.dashboard], "fdlab-cars-section"),
                fold("Race log (newest first)", [self.log], "fdlab-log-section"),
                fold(
                    "Seats, bot pace, view",
                    [*self.seat_boxes, self.bot_delay, self.follow],
                    "fdlab-seats-section",
                    open=False,
                ),
                self._file_section,
                fold("What the bots do", [self.bots_help], "fdlab-bots-section", open=False),
            ],
            "fdlab-race-table",
            # at most the screen's height, the panel no taller (it scrolls inside itself,
            # not the page); a small board takes no more of a big screen than it needs
            height=SCREEN_HEIGHT,
            fill=False,
        )

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
        prompt = html.escape(self._prompt_text())
        self.prompt.value = f"<b style='font-size:1.1em'>{swatch}{prompt}</b>"
        person = self._may_decide()
        cars = [
            (race.board.ids[car.space], name, row.color)
            for car, name, row in zip(race.state.cars, race.names, c.dashboard(), strict=True)
            if car.space >= 0
        ]
        self.car_source.data = car_rows(car_data(race.track, cars), self._scale, self._space)
        # gears: one button a line, its label wrapping in the panel; the buttons on the page
        # stay while they offer the same (a redraw must not swap a button under the pointer)
        starting = person and c.start_roll_due
        choices = c.gear_choices() if person and not starting else []
        shown = [(ch.gear, ch.label, _gear_tip(ch), _gear_style(ch)) for ch in choices]
        if shown != self._gears_shown:
            self._gears_shown = shown
            self.gear_buttons.children = [self._gear_button(*gear) for gear in shown]
        self.grid_button.layout.display = "" if person and race.phase == "grid" else "none"
        self.start_button.layout.display = "" if starting else "none"
        # the die (with the start roll just made) and the destinations
        die, fresh = c.die(), self._fresh_start()
        self.die_face.value = _die_html(die, fresh)
        self.die_face.layout.display = "none" if die is None and fresh is None else ""
        moves = c.move_choices() if person else []
        self._moves = moves
        self._show_targets(moves)
        self.move_list.options = [(m.label, i) for i, m in enumerate(moves)]
        self.move_list.value = _safe_first(moves)
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
        self._show_help()
        if race.over and not self._was_over:  # what comes next is in the file section
            self._file_section.children[0].value = True
        self._was_over = race.over
        self._frame_view()

    def _gear_button(self, gear: int, label: str, tip: str, style: str) -> w.Button:
        control = button(
            label, "fdlab-gear", functools.partial(self.choose_gear, gear), tip,
            layout=w.Layout(width="100%"), button_style=style,
        )  # fmt: skip
        control.add_class(f"fdlab-gear-{gear}")
        return control

    def _may_decide(self) -> bool:
        """The buttons are live: a person decides now (a shared table: this player)."""
        return self.controller.person_on_turn

    def _prompt_text(self) -> str:
        return self.controller.prompt()

    def _player(self) -> Any:
        """What the buttons play through: the controller (a shared table: its game log)."""
        return self.controller

    @property
    def help_text(self) -> str:
        """What to do now, in the phase the race is in (Markdown; the help line adds the rules).

        Examples
        --------
        >>> track = sprint()
        >>> table = RaceTable(Race(track, seed=4, roll_grid=False), ["person", "heuristic"])
        >>> print(table.help_text)
        **Roll for the grid:** press *Roll for the grid*: every car rolls the black die and the highest roll takes pole position (S-1).
        """
        c = self.controller
        race = self.race
        if race.over:
            finished = race.state.finished
            result = f"{race.names[finished[0]]} wins" if finished else "no car finished"
            return (
                f"**The race is over: {result}.** Next, under *Game file*: *Save* the game, "
                "write a *Replay page* to watch it again, or start a *New race* with the "
                "same cars and seats."
            )
        current = race.state.current
        if not c.person_on_turn:
            if current is None:
                return "**The bots roll for the grid** (S-1)."
            who = f"{race.current} ({c.seat_label(current)})"
            if c.bot_waiting() is not None:
                return (
                    f"**{who} waits for its board to be solved** (once per board, then "
                    "cached): the race goes on as soon as it is done."
                )
            return (
                f"**{who} is playing.** The bots play at the *Bot pace* set under *Seats*; "
                "the buttons come back on your turn."
            )
        if race.phase == "grid":
            pole = "lowest" if race.preset.model == "advanced" else "highest"
            return (
                "**Roll for the grid:** press *Roll for the grid*: every car rolls the black "
                f"die and the {pole} roll takes pole position (S-1)."
            )
        name = race.current
        if c.start_roll_due:
            stall, fast, kind = _start_odds(race)
            rule = "S-3" if race.preset.model == "advanced" else "S-2"
            return (
                f"**{name}: make your start roll.** Press *Start roll*: the black die decides. "
                f"{stall} stalls (the turn ends), {fast} is a {kind} start of 4 spaces, "
                f"anything else a normal start with the 1st-gear die ({rule})."
            )
        unit = race.preset.unit
        if race.phase == "gear":
            return (
                f"**{name}: choose a gear.** Each button tells the shift's cost, the chance "
                f"to be eliminated (OUT), the {unit} you may lose braking and overshooting, "
                "and the corner ahead (hover for more); collisions and engine rolls may cost "
                "more, and the move list says which moves bring them. Press one to roll."
            )
        extra = ""
        if c.nitro_available():
            extra += " *Nitro* first adds to the roll (X-1)."
        if c.box_move() is not None:
            extra += " *Into the box* stops in your pit box (P-2)."
        return (
            f"**{name}: choose where to go.** Click a space outlined in pink (blue: free, "
            f"orange: costs {unit}, black hatched: eliminates, dotted: a collision check "
            f"that may cost {unit}; hover for the cost and the risk) or pick "
            f"a move in the list and press *Move*.{extra}"
        )

    def _show_help(self) -> None:
        text = self.help_text
        if text != self._help_shown:
            self._help_shown = text
            self.help_line.outputs = (_help_output(self._rules, text),)

    def _frame_view(self) -> None:
        """Zoom on the car on turn and its destinations (the whole board when not following).

        The view box goes to the browser, which fits it to the board's canvas
        (whatever the screen gives it) keeping the board's proportions.
        """
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
        self._view_source.data = {"x0": [x0], "y0": [y0], "x1": [x1], "y1": [y1]}

    def _show_targets(self, moves: list[Any]) -> None:
        keys = ("xs", "ys", "id", "cost", "way", "fill", "hatch")
        data: dict[str, list[Any]] = {k: [] for k in keys}
        for choice in moves:
            xs, ys = self._outlines[choice.destination]
            data["xs"].append(xs)
            data["ys"].append(ys)
            data["id"].append(choice.destination)
            data["cost"].append(choice.cost)
            way = spaces(choice.move.moved)
            if choice.move.braked:
                way += f", braking {choice.move.braked}"
            if choice.move.boxed:
                way += ", into the box"
            data["way"].append(way)
            fill, hatch = _move_colors(choice.move, risky=choice.risky)
            data["fill"].append(fill)
            data["hatch"].append(hatch)
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
        if self.controller.solving:  # still said while a bot's board is solved
            self.messages.say(self._solving_text())
        self.refresh()
        self.play_bots()

    @reported
    def roll_grid(self) -> None:
        """Roll for the grid (S-1), as the button does."""
        self._player().roll_grid()
        self._played()

    @reported
    def start_roll(self) -> None:
        """Make the start roll (S-2, S-3), as the button does; a stall ends the turn."""
        c = self.controller
        car = c.race.state.on_turn
        self._player().start_roll()
        self._played()
        roll, outcome = c.start_result(car) or (0, "")
        if c.race.state.current != car or c.phase != "move":  # a stall: the turn is over
            self.messages.say(f"{c.race.names[car]}'s start roll: {roll}, {outcome}")

    @reported
    def choose_gear(self, gear: int) -> None:
        """Announce a gear, as its button does."""
        self._player().choose_gear(gear)
        self._played()

    @reported
    def click_space(self, space: Any) -> None:
        """A click on a space of the board: the move there, if it is a highlighted one.

        Plays only while a person's car is in its move phase, so the second
        delivery of one click (jupyter_bokeh) does nothing.
        """
        if not (self._may_decide() and self.controller.phase == "move"):
            return
        if space not in {m.destination for m in self._moves}:
            self.messages.refuse(f"space {space} is not a highlighted destination")
            return
        self._player().choose_move(space)
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
        self._player().use_nitro()
        self._played()

    @reported
    def into_box(self) -> None:
        """Drive into the own box (P-2), as the button does."""
        self._player().into_box()
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
            background = running_loop() is not None
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
        loop = running_loop()
        if loop is None or (delay <= 0 and not self.controller.solving):
            self._run_bots_now()
            return
        self._task = loop.create_task(self._paced_bots(delay))

    @reported
    def _run_bots_now(self) -> None:
        self.controller.run_bots()
        self.refresh()

    async def _paced_bots(self, delay: float) -> None:
        c = self.controller
        try:
            while c.bots_to_play:
                await self._solved()
                # one step at a time from the race as it is now: a person may act while
                # the task sleeps (the last bot made their turn), and the bots play on after
                if next(c.bot_steps(), None) is None:
                    break
                self.refresh()
                await asyncio.sleep(float(self.bot_delay.value) or 0)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a task must not lose its error
            self.messages.refuse(*bug_report(error))
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
    @property
    def unsaved_decisions(self) -> int:
        """How many decisions of people were taken since the game file was last saved or loaded.

        The bots' actions do not count: they follow from the seed and the position.

        Examples
        --------
        >>> track = sprint()
        >>> table = RaceTable(Race(track, seed=4), ["person", "heuristic"])
        >>> table.unsaved_decisions
        0
        >>> table.start_button.click(); table.unsaved_decisions
        1
        """
        race, c = self.race, self.controller
        same = 0
        for played, saved in zip(race.actions, self._saved_actions, strict=False):
            if played != saved:
                break
            same += 1
        people = set(c.people)
        grid_here = bool(getattr(c, "_grid_rolled_here", False))
        return sum(
            1
            for index in range(same, len(race.actions))
            if (actor := race.actor(index)) in people or (actor is None and grid_here)
        )

    def _check_discard(self, action: str, button: str) -> bool:
        """Refuse ``action`` when it would drop unsaved decisions and *discard unsaved* is off."""
        count = self.unsaved_decisions
        if count and not self.discard.value:
            self.messages.refuse(
                f"{action}: this race has {count} decision{'s' if count != 1 else ''} not "
                "saved, which it would replace; press Save first, or tick 'discard unsaved' "
                f"(Game file) and press {button} again"
            )
            self._file_section.children[0].value = True  # show the box to tick
            return False
        return True

    @reported
    def save(self, path: str | None = None) -> None:
        """Save the game to ``path`` (default: the path box)."""
        from fdlab.table.game_file import save_game

        target = save_game(self.controller, path or self.path.value)
        self._saved_actions = list(self.race.actions)
        self.messages.say(f"saved to {target}")

    @reported
    def load_file(self, path: str | None = None) -> None:
        """Load the game in ``path`` (default: the path box) into this table.

        Decisions not saved yet are not replaced unless *discard unsaved* is
        ticked: the table refuses, and says so.
        """
        from fdlab.table.game_file import load_game

        where = path or self.path.value
        if not self._check_discard(f"load {where}", "Load"):
            return
        self._stop_bots()
        loaded = load_game(where)
        if loaded.race.track.name != self.race.track.name:
            self.messages.refuse(
                f"the game is on {loaded.race.track.name}: open it with RaceTable.load(path)"
            )
            return
        self._use(loaded)
        self._saved_actions = list(loaded.race.actions)
        self._played()
        self.messages.say(f"loaded {where}")

    @reported
    def new_race(self, seed: int | None = None) -> None:
        """Start a new race on this board: the same cars, rules and seats, a new seed.

        Decisions not saved yet are not replaced unless *discard unsaved* is
        ticked, as for :meth:`load_file`.

        Parameters
        ----------
        seed : int, optional
            The new race's seed (default: a random one).

        Examples
        --------
        >>> track = sprint()
        >>> table = RaceTable(Race(track, seed=4), ["person", "heuristic"])
        >>> table.start_button.click()  # one decision, not saved
        >>> table.new_race(seed=5); table.last_error[:40]
        'new race: this race has 1 decision not s'
        >>> table.discard.value = True
        >>> table.new_race(seed=5); table.race.seed, table.race.phase
        (5, 'grid')
        """
        if not self._check_discard("new race", "New race"):
            return
        self._stop_bots()
        old = self.race
        race = Race(old.track, cars=list(old.names), preset=old.preset, seed=seed,
                    roll_grid=False)  # fmt: skip
        self._use(TableController(race, list(self.controller.seats)))
        self._saved_actions = []
        self._played()
        self.messages.say(f"a new race on {race.track.name} (seed {race.seed})")

    def _use(self, controller: TableController) -> None:
        """Play on with ``controller`` (a loaded game, a new race) on this board."""
        self.discard.value = False  # a tick lets one replacement through, not the next
        self.controller = controller
        self._help_shown = None
        self._was_over = controller.race.over
        for k, box in enumerate(self.seat_boxes[: len(controller.race.names)]):
            label = controller.seat_label(k)
            if label not in box.options:
                box.options = [*box.options, label]
            box.value = label

    @reported
    def export_replay(self, path: str | None = None) -> None:
        """Write the standalone replay page beside the game file (``.html``).

        The message line links it: the link opens the page in a new browser tab.
        """
        from fdlab.table.replay_html import save_replay

        target = Path(path) if path else Path(self.path.value).with_suffix(".html")
        save_replay(self.race, target)
        link = file_link(target)
        self.file_note.value = f"Replay page: {link}"
        self.messages.say(f"replay page written: {link}", markup=True)

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


def _bounds(
    data: dict[str, list[Any]], flags: dict[str, list[Any]] | None = None
) -> tuple[float, float, float, float]:
    """The board's extent with room for the corner flags around it.

    A flag stands a number of pixels off its corner (``flags``: the columns of
    the board figure's flag layer, anchors in track units, offsets in pixels):
    the extent takes in every flag as the board shows at its smallest, on a
    laptop screen (:data:`_SMALLEST_BOARD_PX` across), so that none is cut at
    the board's edge.
    """
    xs = [x for row in data["xs"] for x in row] or [0.0]
    ys = [y for row in data["ys"] for y in row] or [0.0]
    pad = 0.06 * max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    if not flags or not flags.get("px"):
        return x0, y0, x1, y1
    track = (x0, y0, x1, y1)
    for _ in range(4):  # the flags' pixels in track units depend on the extent they widen
        scale = _SMALLEST_BOARD_PX / max(x1 - x0, y1 - y0)
        left, bottom, right, top = track
        for px, py, fx, fy in zip(flags["px"], flags["py"], flags["fx"], flags["fy"], strict=True):
            # the stops flag and its long/short labels: about 22 px each side of the
            # flag's centre, from 14 px above it to 27 px below (screen y grows down)
            left = min(left, px + (fx - _FLAG_HALF_WIDTH) / scale)
            right = max(right, px + (fx + _FLAG_HALF_WIDTH) / scale)
            top = max(top, py - (fy - _FLAG_ABOVE) / scale)
            bottom = min(bottom, py - (fy + _FLAG_BELOW) / scale)
        x0, y0, x1, y1 = left, bottom, right, top
    return x0, y0, x1, y1


#: The board's smallest width and height on the page, in pixels (a 1366x768 screen).
_SMALLEST_BOARD_PX = 520.0
#: A corner flag's reach from its centre, in pixels: half its width, above and below.
_FLAG_HALF_WIDTH, _FLAG_ABOVE, _FLAG_BELOW = 24.0, 16.0, 30.0


def _legend_html(race: Race) -> str:
    """A key to the board's colours, only for what this board has."""
    track = race.track
    kinds = {d["kind"] for _, d in track.graph.nodes(data=True)}
    hazards = {d["hazard"] for _, d in track.graph.nodes(data=True)}
    unit = race.preset.unit
    out = (
        f"repeating-linear-gradient(45deg,{colors.MOVE_OUT_HATCH} 0 2px,{colors.MOVE_OUT} 2px 5px)"
    )
    entries = [
        (colors.MOVE_FREE, "a move at no cost", colors.HIGHLIGHT),
        (colors.MOVE_COSTLY, f"a move that costs {unit} (hover for the cost)", colors.HIGHLIGHT),
        (out, "a move that eliminates the car", colors.HIGHLIGHT),
        (
            f"radial-gradient(circle,{colors.MOVE_OUT_HATCH} 28%,transparent 32%) 0 0/5px 5px,"
            f"{colors.MOVE_FREE}",
            f"dotted: ends touching a car, a collision check (may cost {unit})",
            colors.HIGHLIGHT,
        ),
    ]
    if track.corners:
        entries.append((colors.CORNER, "corner: flag = stops, green/red = long/short way", ""))
    if "pit" in kinds:
        entries.append((colors.PIT, "pit lane", ""))
    if "box" in kinds:
        entries.append((colors.BOX, "pit box", ""))
    if "shooting" in hazards:
        entries.append((colors.SHOOTING, "shooting space", ""))
    if "danger" in hazards:
        entries.append((colors.DANGER, "danger space", ""))
    if track.tunnel_pairs():
        entries.append((colors.TUNNEL_PURPLE, "tunnel", ""))
    items = "".join(
        f"<span style='margin-right:0.9em;white-space:nowrap'><span style='display:inline-block;"
        f"width:1.1em;height:0.8em;background:{color};"
        f"border:{'2px solid ' + line if line else '1px solid #666'};"
        f"vertical-align:middle;margin-right:0.3em'></span>{html.escape(text)}</span> "
        for color, text, line in entries
    )
    return f"<div style='font-size:0.8em;line-height:1.5;margin:0.1em 0 0.2em'>{items}</div>"


def _safe_first(moves: Sequence[Any]) -> int | None:
    """The move the list offers first: the farthest that costs nothing and touches no car,
    else the farthest that does not eliminate the car, else the first (None: no move).

    Examples
    --------
    >>> from types import SimpleNamespace as Choice
    >>> def choice(total, risky=False, out=False):
    ...     return Choice(move=Choice(cost=Choice(total=total), eliminates=out), risky=risky)
    >>> _safe_first([choice(0, risky=True), choice(2), choice(0), choice(0)])
    2
    >>> _safe_first([choice(1, out=True), choice(2, risky=True)]), _safe_first([])
    (1, None)
    """
    if not moves:
        return None
    for index, choice in enumerate(moves):
        if choice.move.cost.total == 0 and not choice.risky and not choice.move.eliminates:
            return index
    for index, choice in enumerate(moves):
        if not choice.move.eliminates:
            return index
    return 0


def _move_colors(move: Any, *, risky: bool = False) -> tuple[str, str]:
    """Fill and hatch of a destination on the board: free, costly or eliminating; dotted
    when ending there brings a collision check (``risky``: random damage, D-5).

    Examples
    --------
    >>> from types import SimpleNamespace as Move
    >>> free = Move(eliminates=False, cost=Move(total=0))
    >>> _move_colors(free) == (colors.MOVE_FREE, " ")
    True
    >>> _move_colors(free, risky=True) == (colors.MOVE_FREE, ".")
    True
    >>> _move_colors(Move(eliminates=True, cost=Move(total=3)))[1]
    'x'
    """
    if move.eliminates:
        return colors.MOVE_OUT, "x"
    fill = colors.MOVE_COSTLY if move.cost.total > 0 else colors.MOVE_FREE
    return fill, "." if risky else " "


def file_link(path: str | os.PathLike[str], start: str | os.PathLike[str] | None = None) -> str:
    """HTML for a link that opens the file ``path`` in a new browser tab, or why there is none.

    In JupyterLab the link goes through the server's ``files/`` route (the
    page opens as itself, its scripts running, not in the Lab's HTML viewer);
    the server is the one that started this kernel, found by its runtime
    file. Elsewhere (a plain HTML page beside the notebook) it is the path
    relative to ``start``. A file outside ``start`` gets no link: its path
    and the reason.

    Parameters
    ----------
    path : str or path-like
        The file, absolute or relative to ``start``.
    start : str or path-like, optional
        The notebook's folder (default: the working folder, which in a
        notebook is the notebook's own).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> print(file_link("replays/game.html", root))  # no Jupyter server around
    <a href="replays/game.html" target="_blank" rel="noopener">replays/game.html</a>
    >>> "no link" in file_link("/elsewhere/game.html", root)
    True
    """
    here = Path(start if start is not None else Path.cwd()).resolve()
    target = Path(path)
    target = (target if target.is_absolute() else here / target).resolve()
    try:
        relative = target.relative_to(here).as_posix()
    except ValueError:
        return (
            f"<code>{html.escape(str(target))}</code> (no link: the file is outside the "
            "notebook's folder, where the page cannot reach it; open it from your file "
            "browser)"
        )
    href = quote(relative)
    server = _jupyter_server(here)
    if server is not None:
        root, base_url = server
        api_path = target.relative_to(root).as_posix()
        href = f"{base_url.rstrip('/')}/files/{quote(api_path)}"
    return (
        f'<a href="{html.escape(href)}" target="_blank" rel="noopener">{html.escape(relative)}</a>'
    )


def _jupyter_server(folder: Path) -> tuple[Path, str] | None:
    """The Jupyter server serving ``folder``: its root folder and base URL, or None.

    Read from the servers' runtime files (``jpserver-<pid>.json``, only their
    ``root_dir``, ``base_url`` and ``pid``); the one that started this kernel
    (its parent process) first, else the one whose root is nearest ``folder``.
    """
    try:
        from jupyter_core.paths import jupyter_runtime_dir
    except ImportError:  # pragma: no cover - ipykernel brings jupyter_core
        return None
    found = []
    for file in Path(jupyter_runtime_dir()).glob("jpserver-*.json"):
        try:
            info = json.loads(file.read_text(encoding="utf-8"))
            root = Path(str(info["root_dir"])).expanduser().resolve()
            base_url = str(info.get("base_url") or "/")
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if root == folder or root in folder.parents:
            found.append((info.get("pid") == os.getppid(), len(root.parts), root, base_url))
    if not found:
        return None
    _parent, _depth, root, base_url = max(found, key=lambda entry: entry[:2])
    return root, base_url


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


def _help_output(link: str | None, text: str) -> dict[str, Any]:
    """The help line as a display output (Markdown, so the notebook resolves its link).

    ``text`` says what to do now (:attr:`RaceTable.help_text`); the rules
    text follows, linked when the repository is around.
    """
    rules = f"[{RULES_FILE}]({link})" if link else f"`{RULES_FILE}` in the fdlab repository"
    text = f"{text} The rules, clause by clause: {rules}."
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


def _start_odds(race: Race) -> tuple[str, str, str]:
    """What the black die does at the start (S-2 basic, S-3 advanced): stall, fast start, kind.

    Examples
    --------
    >>> _start_odds(Race(from_ascii(". . . .", grid=[0], finish=3), cars=1, seed=1))
    ('1', '17-20', 'flying')
    """
    preset = race.preset
    kind = "rocket" if preset.model == "advanced" else "flying"
    high = preset.black_die.high
    fast = (
        f"{preset.start_flying_min}" if preset.start_flying_min >= high
        else f"{preset.start_flying_min}-{high}"
    )  # fmt: skip
    stall = f"1-{preset.start_stall_max}" if preset.start_stall_max > 1 else "1"
    return stall, fast, kind


def _start_text(race: Race) -> str:
    """The start roll button: what the black die does (S-2 basic, S-3 advanced)."""
    stall, fast, kind = _start_odds(race)
    return f"Start roll (black die: {stall} stalls, {fast} {kind} start)"


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


def _dashboard_html(controller: TableController, seats: Sequence[str] | None = None) -> str:
    """The cars, one row each; narrow enough for the panel (cells wrap, never overlap).

    ``seats``: who drives each car, when the seat column should say more than
    the controller's label (a shared table names the players).
    """
    rows = controller.dashboard()
    pools = list(controller.race.preset.pool_names)
    head = "".join(
        f"<th style='padding:1px 4px;text-align:left'>{h}</th>"
        for h in ["", "car", "seat", "lap", "gear", *pools, "stops", "space"]
    )
    body = []
    for car in rows:
        style = "background:#fff3c4;font-weight:bold" if car.on_turn else ""
        swatch = (
            f"<span style='display:inline-block;width:0.9em;height:0.9em;background:{car.color};"
            "border:1px solid #333;vertical-align:middle'></span>"
        )
        cells = [
            str(car.place),
            f"<span style='white-space:nowrap'>{swatch} {html.escape(car.name)}</span>",
            html.escape(car.seat if seats is None else seats[car.index]),
            html.escape(car.lap),
            car.gear,
            *(str(car.pools[p]) for p in pools),
            html.escape(car.stops),
            html.escape("" if car.space is None else str(car.space)),
        ]
        tds = "".join(
            f"<td style='padding:1px 4px;vertical-align:top'>{cell}</td>" for cell in cells
        )
        body.append(f"<tr style='{style}'>{tds}</tr>")
    return (
        "<table style='border-collapse:collapse;font-size:0.85em;line-height:1.3'>"
        f"<thead><tr style='border-bottom:1px solid #999'>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _log_html(lines: list[str]) -> str:
    if not lines:
        return "<i>nothing yet</i>"
    first, rest = html.escape(lines[0]), [html.escape(line) for line in lines[1:]]
    body = "<br>\n".join([f"<b>{first}</b>", *rest])
    return f"<div style='font-size:0.85em;line-height:1.35'>{body}\n</div>"
