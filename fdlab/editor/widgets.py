"""The track editor as ipywidgets around a jupyter_bokeh plot.

The widgets only translate clicks and values into
:class:`~fdlab.editor.controller.EditorController` calls and redraw from the
model. Handlers are idempotent, because jupyter_bokeh delivers every browser
change twice, and their errors go to the one message area (and
:attr:`TrackEditor.last_error`) instead of being swallowed. The message area
keeps the last message: what the last edit did, or why it was refused.

The gesture tools of the plot are switched by the editor's own *Tool*
buttons (the plot's toolbar keeps only zoom, reset and save), so the active
tool is always the one shown pressed. Controls that act on selected spaces
are disabled while nothing is selected.

Every control carries a CSS class ``fdlab-...`` so a browser test (or a
stylesheet) can find it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from jupyter_bokeh import BokehModel

from fdlab._shell import (
    SCREEN_HEIGHT,
    Buttons,
    MessageLine,
    board_beside_panel,
    fold,
    import_in_background,
    in_background,
    labelled,
    load_bokehjs,
    reported,
    table_row,
)
from fdlab._text import counted
from fdlab.editor.backdrop import Backdrop
from fdlab.editor.board_plot import (
    ARROW_MODES,
    TOOLS,
    EditorSources,
    editor_figure,
    refill,
    verdict_marks,
)
from fdlab.editor.centreline import board_centreline
from fdlab.editor.controller import (
    PLACE_PICTURE,
    REMOVE_PICTURE,
    EditorController,
    RebuildRequest,
    RebuiltBoard,
)
from fdlab.editor.errors import EditError
from fdlab.editor.line_moves import LineMoves
from fdlab.editor.tracing import Tracing
from fdlab.editor.verdict_panel import VerdictPanel
from fdlab.rules.collector import spare_long_lived
from fdlab.track.model import EDGE_KINDS, SpaceId, Track

if TYPE_CHECKING:
    from fdlab.analysis.verdict import Verdict

#: How to draw a line (fdlab.editor.line_draw).
DRAWING_HINT = (
    "No centreline: press <i>Draw</i> above the plot and click the points of the lap in "
    "the direction of travel, from the finish line; click the first point again to close it"
)
#: What each tool does, said in the message area when it is picked.
TOOL_HINTS = {
    "Select": "click a space to select it, shift-click to add more",
    "Box select": "drag a box round the spaces to select",
    "Draw centreline": "click the points of a new lap in the direction of travel, from the "
    "finish line; click the first point again to close it",
    "Move points": "drag a point of the centreline: the ringed one is the one that moves",
    "Move picture": "drag the picture under the board to where it belongs",
    "Pan": "drag the board to move it; to zoom with the wheel, pick the wheel-zoom tool above the plot",
}
#: What each tool's button says: a word, so the row above the plot fits a 1366 px laptop
#: with JupyterLab's file browser open (the board column is then about 540 px wide); the
#: tooltip and the message on picking it give the tool's full name.
TOOL_LABELS = {
    "Select": "Select",
    "Box select": "Box",
    "Draw centreline": "Draw",
    "Move points": "Points",
    "Move picture": "Picture",
    "Pan": "Pan",
}
#: What the Arrows dropdown says of each mode (:data:`ARROW_MODES`): the word "arrows" in
#: every choice, so the dropdown needs no label of its own.
ARROW_LABELS = {"in corners": "corner arrows", "all": "all arrows", "none": "no arrows"}
#: The toolbar's buttons a little tighter than ipywidgets' (10 px a side): with one-word
#: tools and icons for Undo and Redo the row then fits 540 px. The tool buttons sit on a
#: line of text whose descent makes them 4 px taller than a button; aligned to its top and
#: the row centred, the tools, the dropdown and the buttons line up.
_TOOLBAR_STYLE = """<style>
.fdlab-toolbar { align-items: center; }
.fdlab-toolbar .widget-toggle-button { vertical-align: top; }
.fdlab-toolbar .widget-toggle-button, .fdlab-toolbar .widget-button { padding: 0 6px; }
</style>"""
#: Controls that act on the selection (CSS class -> what they need: "any" or a count).
NEEDS_SELECTION = {
    "fdlab-make-corner": "any",
    "fdlab-clear-corner": "any",
    "fdlab-merge-corners": "any",
    "fdlab-split-corner": "any",
    "fdlab-shooting": "any",
    "fdlab-danger": "any",
    "fdlab-no-hazard": "any",
    "fdlab-tunnel": 2,
    "fdlab-grid": 1,
    "fdlab-box": 1,
    "fdlab-finish": "any",
    "fdlab-police": "any",
    "fdlab-pit": "any",
    "fdlab-delete-spaces": "any",
}


class TrackEditor:
    """Edit a board in a notebook: a Bokeh plot of the spaces and widgets around it.

    Parameters
    ----------
    track : Track, optional
        The board to edit (in place). A blank board by default: draw a
        centreline with the draw tool and press *Rebuild*.
    path : str or Path, optional
        The file the board came from, and where *Save* writes by default.
    height : int, optional
        Height of the plot in pixels. By default the board column and the
        panel beside it are as tall as the browser window leaves room for
        (:data:`fdlab._shell.SCREEN_HEIGHT`) and the plot fills what the
        column's lines leave it, so a 1366x768 laptop shows the whole board
        and its controls, and a 1920x1080 screen a larger board. With a height
        the plot is that tall and the column as tall as its content. The plot
        is as wide as the board column either way.
    verdict : bool
        Show what the board plays like for the default bot (*How it plays*:
        par, race length, the corners that bite, marked on the board),
        refreshed in the background a moment after each edit.

    Attributes
    ----------
    controller : EditorController
        Does every edit; usable directly from code.
    selected : list
        Ids of the selected spaces, in driving (progress) order.
    last_error : str or None
        The error the last control reported (also shown in the message
        area), None when the last action went through.
    backdrop : Backdrop or None
        The picture under the board, to trace (*Load picture*).
    verdict : VerdictPanel or None
        The *How it plays* panel (``None`` with ``verdict=False``).

    Examples
    --------
    >>> editor = TrackEditor(from_ascii(". . 1 1 .", corners={1: 1}))
    >>> editor.select([2, 3])
    >>> editor.stops.value = 3
    >>> editor.track.corners[1]["stops"]
    3
    """

    def __init__(
        self,
        track: Track | None = None,
        *,
        path: str | Path | None = None,
        height: int | None = None,
        verdict: bool = True,
    ) -> None:
        load_bokehjs()
        spare_long_lived()  # the kernel's own objects: no collector pause walks them
        self._with_verdict = verdict
        self._fills_screen = height is None
        self.controller = EditorController(track, path=path)
        self.selected: list[SpaceId] = []
        self.highlighted: list[SpaceId] = []
        self._problem_shown: tuple[Any, ...] | None = None
        self.messages = MessageLine(lines=2)  # the board below never jumps
        self._syncing = False
        self._rebuilding = False  # a new board is being built in the background
        self._row_of: dict[SpaceId, int] = {}
        self.sources = EditorSources.of(self.track)
        self.board_source = self.sources.board
        self.step_source = self.sources.steps
        self.note_sources = self.sources.notes
        self.centreline_source = self.sources.centreline
        # drags of centreline points, for Undo and Redo (not edits of the board)
        self.line_moves = LineMoves()
        self._line_settled: list[tuple[float, float]] = []  # the line before a drag
        self.figure = editor_figure(self.sources, height)
        # Handlers go on before the figure is wrapped (design.md, Jupyter pitfalls).
        self.board_source.selected.on_change("indices", self._on_indices)
        self.centreline_source.on_change("data", self._on_centreline)
        self.sources.points.drag.on_change("data", self._on_point_moved)
        self.sources.draw.state.on_change("data", self._on_draw_state)
        self._line_before_draw: list[tuple[float, float]] = []
        # by default the plot takes the column's height that its lines leave (flex grows it)
        self.plot = BokehModel(
            self.figure,
            layout=w.Layout(width="100%", flex="1 1 0", min_height="0")
            if height is None
            else w.Layout(width="100%"),
        )
        self.plot.add_class("fdlab-plot")
        self._build_controls()
        self.controller.observe(self._on_model_change)
        self.redraw()
        self.set_centreline(board_centreline(self.track))
        self._sync_controls()
        self._sync_enabled()
        self.tracing.follow_board()  # the picture saved with the board, where it was left
        if self.verdict is not None:
            self.verdict.start()
        import_in_background("fdlab.track.build")  # ready for the first Rebuild

    @classmethod
    def open(cls, path: str | Path, **options: Any) -> TrackEditor:
        """An editor on the board saved in ``path``.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> from fdlab.track.io import save_track
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "ring.json"
        >>> save_track(from_ascii(". . . .", closed=True, name="Ring"), path)
        >>> editor = TrackEditor.open(path)
        >>> editor.track.name, editor.path.value == str(path)
        ('Ring', True)
        """
        from fdlab.track.io import load_track

        return cls(load_track(path), path=path, **options)

    @property
    def track(self) -> Track:
        """The board being edited."""
        return self.controller.track

    # -- building the view ------------------------------------------------------
    def _build_controls(self) -> None:
        self._buttons = Buttons()

        self.status = labelled(w.HTML(), "fdlab-status")
        self.centreline_info = labelled(w.HTML(), "fdlab-centreline")
        # two lines, whatever it says: the plot takes the column's height these lines leave,
        # and a click that changed the line's height would resize the board under the pointer
        self.selection = labelled(
            w.HTML(
                layout=w.Layout(
                    height="calc(2 * var(--jp-widgets-inline-height, 28px))",
                    overflow="hidden auto",
                    flex="0 0 auto",
                )
            ),
            "fdlab-selection",
        )
        self.message = self.messages.widget

        tool_row = self._tool_row()
        corner_row = self._corner_row()
        space_row = self._space_row()
        step_row = self._step_row()
        pit_row = self._pit_row()
        self.tracing = Tracing(self)
        # the picture's controls, by the names the notebooks use
        self.picture_path, self.picture_width = self.tracing.path, self.tracing.width
        self.picture_x, self.picture_y = self.tracing.x, self.tracing.y
        self.picture_opacity, self.picture_scale = self.tracing.opacity, self.tracing.scale_info
        build_row = self._build_row()
        self.unplaced_row = self._unplaced_row()
        file_row = self._file_row()
        self.problem_list = labelled(
            w.Select(options=[], rows=3, layout=w.Layout(width="98%")),
            "fdlab-problems",
        )
        self.problem_list.observe(self._on_problem, names="value")
        self.no_problems = labelled(w.HTML("no problems found"), "fdlab-no-problems")
        self.verdict = (
            VerdictPanel(lambda: self.track, self._mark_worst) if self._with_verdict else None
        )
        plays = (
            [fold("How it plays", [self.verdict.widget], "fdlab-verdict-section")]
            if self.verdict is not None
            else []
        )
        # Open where the work is, the rest folded so the panel fits a laptop screen beside
        # the board: the verdict, the problems, corners and spaces; the centreline's
        # section on a blank board and whenever a centreline tool is picked (use_tool).
        self._build_section = fold(
            "Rebuild from the centreline",
            [self.centreline_info, build_row, self.unplaced_row],
            "fdlab-build-section",
            open=not len(self.track),
        )
        self.widget = board_beside_panel(
            [self.status, self.message, tool_row, self.plot, self.selection],
            [
                *plays,
                fold("Problems", [self.no_problems, self.problem_list], "fdlab-problem-section"),
                fold("Corner", [corner_row], "fdlab-corner-section"),
                fold("Spaces: hazards, tunnels, grid, boxes", [space_row], "fdlab-space-section"),
                fold(
                    "Steps, finish and police lines",
                    [step_row],
                    "fdlab-step-section",
                    open=False,
                ),
                fold("Pit lane, deleting spaces", [pit_row], "fdlab-pit-section", open=False),
                self._build_section,
                fold(
                    "Picture to trace", [self.tracing.widget], "fdlab-picture-section", open=False
                ),
                fold("File: load, save as, print", [file_row], "fdlab-file-section", open=False),
            ],
            "fdlab-editor",
            height=SCREEN_HEIGHT if self._fills_screen else None,
        )
        self.path.value = str(self.controller.path) if self.controller.path else ""
        self._fill_build_boxes()

    def _tool_row(self) -> w.HBox:
        """The toolbar above the plot: the tools, then arrows, Undo, Redo and Save.

        Undo, Redo and Save sit here, always in sight beside the board, so a
        designer never scrolls the panel to take an edit back or keep the work.
        All share one row, even in the 540 px board column of a 1366x768 laptop
        with JupyterLab's file browser open: a word a tool (:data:`TOOL_LABELS`,
        the full name and what it does in the tooltip), arrows named in the
        dropdown's choices, Undo and Redo as the usual curved arrows. The row
        wraps only where the column is narrower still: the height it saves
        goes to the plot.
        """
        hints = [f"{name}: {TOOL_HINTS[name]}" for name in TOOLS]
        self.tool = w.ToggleButtons(
            options=[(TOOL_LABELS[name], name) for name in TOOLS], value="Select", tooltips=hints
        )
        self.tool.observe(self._on_tool, names="value")
        self.arrows = w.Dropdown(
            options=[(ARROW_LABELS[mode], mode) for mode in ARROW_MODES],
            value="in corners",
            layout=w.Layout(width="auto"),
        )
        self.arrows.observe(self._on_arrows, names="value")
        toolbar = table_row(
            self._buttons,
            [
                ("", "fdlab-tool", self.tool),
                ("", "fdlab-arrows", self.arrows, "Arrows: which steps the plot draws"),
                ("", "fdlab-undo", self.undo, "Undo: take the last edit back"),
                ("", "fdlab-redo", self.redo, "Redo: make the edit taken back again"),
                (
                    "Save",
                    "fdlab-save",
                    self.save,
                    "write the board to the file named under File (atomic)",
                ),
            ],
        )
        # the tool buttons as wide as their names
        self.tool.style = {"description_width": "initial", "button_width": "auto"}
        self.undo_button, self.redo_button = (
            self._buttons["fdlab-undo"],
            self._buttons["fdlab-redo"],
        )
        self.undo_button.icon, self.redo_button.icon = "undo", "redo"
        style = w.HTML(_TOOLBAR_STYLE, layout=w.Layout(display="none"))  # <style> applies unseen
        toolbar.children = (*toolbar.children, style)
        toolbar.add_class("fdlab-toolbar")
        return toolbar

    def _corner_row(self) -> w.HBox:
        """Stops, corner name and the corner buttons."""
        self.stops = w.Dropdown(options=[1, 2, 3], value=1, layout=w.Layout(width="9em"))
        self.stops.observe(self._on_stops, names="value")
        self.corner_name = w.Text(continuous_update=False, layout=w.Layout(width="18em"))
        self.corner_name.observe(self._on_corner_name, names="value")
        return table_row(
            self._buttons,
            [
                ("Stops", "fdlab-stops", self.stops),
                ("Corner name", "fdlab-corner-name", self.corner_name),
                ("Make corner", "fdlab-make-corner", self.make_corner),
                ("Not a corner", "fdlab-clear-corner", self.clear_corner),
                (
                    "Merge corners",
                    "fdlab-merge-corners",
                    self.merge_corners,
                    "one corner from the selected corners and the spaces between them "
                    "(the larger stop count)",
                ),
                ("Split corner", "fdlab-split-corner", self.split_corner),
            ],
        )

    def _space_row(self) -> w.HBox:
        """Hazards, tunnels, grid spots and boxes of the selected spaces."""
        self.grid_number = w.BoundedIntText(value=1, min=1, max=99, layout=w.Layout(width="8em"))
        self.box_number = w.BoundedIntText(value=1, min=1, max=99, layout=w.Layout(width="8em"))
        return table_row(
            self._buttons,
            [
                ("Shooting", "fdlab-shooting", lambda: self.set_hazard("shooting")),
                ("Danger", "fdlab-danger", lambda: self.set_hazard("danger")),
                ("No hazard", "fdlab-no-hazard", lambda: self.set_hazard(None)),
                ("Tunnel pair", "fdlab-tunnel", self.pair_tunnel, "select two spaces"),
                ("Spot", "fdlab-grid-number", self.grid_number),
                ("Grid spot", "fdlab-grid", self.set_grid_spot, "select one space"),
                ("Car", "fdlab-box-number", self.box_number),
                ("Pit box", "fdlab-box", self.set_box, "the selected pit box becomes the car's"),
            ],
        )

    def _step_row(self) -> w.HBox:
        """Add or remove a step; finish and police lines."""
        self.step_from = w.Text(layout=w.Layout(width="11em"))
        self.step_to = w.Text(layout=w.Layout(width="8em"))
        self.step_kind = w.Dropdown(options=list(EDGE_KINDS), layout=w.Layout(width="11em"))
        return table_row(
            self._buttons,
            [
                ("Step from", "fdlab-step-from", self.step_from),
                ("to", "fdlab-step-to", self.step_to),
                ("kind", "fdlab-step-kind", self.step_kind),
                ("Add step", "fdlab-add-step", self.add_step),
                ("Remove step", "fdlab-remove-step", self.remove_step),
                (
                    "Finish line here",
                    "fdlab-finish",
                    lambda: self.set_line("finish"),
                    "the line goes just before the selected spaces; the grid and pit lane follow",
                ),
                ("Police line here", "fdlab-police", lambda: self.set_line("police")),
            ],
        )

    def _pit_row(self) -> w.HBox:
        """Delete spaces; add or remove the pit lane."""
        self.pit_boxes = w.BoundedIntText(value=0, min=0, max=20, layout=w.Layout(width="8em"))
        return table_row(
            self._buttons,
            [
                ("Delete spaces", "fdlab-delete-spaces", self.delete_spaces),
                ("Remove pit lane", "fdlab-remove-pit", self.remove_pit_lane),
                ("Boxes", "fdlab-pit-boxes", self.pit_boxes),
                (
                    "Add pit lane",
                    "fdlab-pit",
                    self.add_pit_lane,
                    "pit lane beside the selected spaces",
                ),
            ],
        )

    def _build_row(self) -> w.HBox:
        """Lanes, space length, lanes per stretch, pit lane: how Rebuild builds."""
        self.lanes = w.BoundedIntText(value=2, min=2, max=4, layout=w.Layout(width="8em"))
        self.space_length = w.BoundedFloatText(
            value=0.0, min=0.0, max=1e4, layout=w.Layout(width="19em")
        )
        self.lane_counts = w.Text(placeholder="0.2-0.4:3, 0.7-0.8:2", layout=w.Layout(width="20em"))
        self.with_pit = w.Checkbox(indent=False)
        self.keep_build = w.Checkbox(indent=False, layout=w.Layout(width="auto"))
        return table_row(
            self._buttons,
            [
                ("Lanes", "fdlab-lanes", self.lanes),
                (
                    "Space length (m, 0 = auto)",
                    "fdlab-space-length",
                    self.space_length,
                    "metres along the centreline; 0 lets the builder choose (its default spaces a lap)",
                ),
                ("Lanes per stretch", "fdlab-lane-counts", self.lane_counts),
                ("with pit lane", "fdlab-with-pit", self.with_pit),
                (
                    "keep my edits",
                    "fdlab-keep-build",
                    self.keep_build,
                    "rebuild with the corners, stops, street features, grid and pit lane "
                    "of the last build, and make every edit since then again on the new board",
                ),
                ("Rebuild from centreline", "fdlab-rebuild", self.rebuild_in_background),
            ],
        )

    def _unplaced_row(self) -> w.HBox:
        """Edits a rebuild could not place, and what to do with them."""
        self.unplaced = w.HTML()
        return table_row(
            self._buttons,
            [
                ("", "fdlab-unplaced", self.unplaced),
                (
                    "Drop unplaced edits",
                    "fdlab-drop-unplaced",
                    self.drop_unplaced_edits,
                    "keep the rebuilt board without the edits it could not place",
                ),
                (
                    "Undo rebuild",
                    "fdlab-undo-rebuild",
                    self.undo_rebuild,
                    "bring back the board from before the rebuild (edits made since are undone too)",
                ),
            ],
        )

    def _file_row(self) -> w.HBox:
        """Name, laps, and the file: save (also above the board), load and print."""
        self.name_box = w.Text(continuous_update=False, layout=w.Layout(width="16em"))
        self.name_box.observe(self._on_name, names="value")
        self.laps = w.BoundedIntText(value=1, min=1, max=99, layout=w.Layout(width="8em"))
        self.laps.observe(self._on_laps, names="value")
        self.path = w.Text(placeholder=tracks_suggestion(), layout=w.Layout(width="22em"))
        self.overwrite = w.Checkbox(indent=False)
        self.discard = w.Checkbox(indent=False)
        files = table_row(
            self._buttons,
            [
                ("Name", "fdlab-name", self.name_box),
                ("Laps", "fdlab-laps", self.laps),
                ("File", "fdlab-path", self.path),
                (
                    "Save",
                    "fdlab-save-file",
                    self.save,
                    "write the board to this file (the same as Save above the board)",
                ),
                ("overwrite", "fdlab-overwrite", self.overwrite),
                ("Load", "fdlab-load", self.load),
                ("discard unsaved", "fdlab-discard", self.discard),
                (
                    "Print",
                    "fdlab-print",
                    self.print_board,
                    "write the board at real size as a PDF beside its file, to print and play on",
                ),
            ],
        )
        return files

    def _fill_build_boxes(self) -> None:
        """Set the rebuild controls to what made the board (its build spec, or its look)."""
        graph = self.track.graph
        spec = graph.graph.get("build")
        self.keep_build.disabled = spec is None
        self.keep_build.value = spec is not None
        self.with_pit.value = bool(self.track.spaces(kind="pit"))  # a rebuild keeps the pits
        if spec is not None:
            self.lanes.value = spec["lanes"]
            self.space_length.value = float(spec["space_length"] or 0.0)
            self.lane_counts.value = ", ".join(
                f"{stretch['start']:g}-{stretch['end']:g}:{lanes}"
                for stretch, lanes in spec["lane_counts"]
            )
            return
        lanes = {d["lane"] for _, d in graph.nodes(data=True) if d["kind"] == "track"}
        self.lanes.value = min(max(len(lanes), 2), 4)  # the builder makes 2-4 lanes
        self.lane_counts.value = ""
        # a blank board lets the builder choose (0 = auto)
        self.space_length.value = (
            float(graph.graph.get("space_length") or 0.0) if len(graph) else 0.0
        )

    # -- display ----------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # A BokehModel renders a new view from the document as it was when the
        # widget was made; edits made since then reached no view. Refresh it.
        self.plot.update_from_model(self.figure)
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<TrackEditor of {self.controller!r}>"

    # -- redrawing --------------------------------------------------------------
    def redraw(self) -> None:
        """Redraw every layer from the model, keeping the selection."""
        spaces = [s for s in self.highlighted if s in self.track.graph]
        self._row_of = self.sources.refresh(self.track, spaces, self.arrows.value)
        if self.backdrop is not None:
            refill(self.sources.canvas, {"x": [], "y": []})  # the picture gives the range
        kept = [s for s in self.selected if s in self._row_of]
        self._select_rows([self._row_of[s] for s in kept])

    def _on_model_change(self, controller: EditorController, what: str) -> None:
        # The board and the message first; then the problems, which validate the
        # edited board (the controller's report is made when first read).
        self.redraw()
        self.tracing.follow_board()
        if not what.startswith(("undo ", "redo ")):
            self.line_moves.board_edited()  # drags taken back are not made again after an edit
        if self.verdict is not None and not _picture_only(what):
            refill(self.sources.verdict, verdict_marks(self.track, []))
            self.verdict.edited()
        if what.startswith(("undo rebuild", "redo rebuild", "rebuild")) and len(self.track):
            # the board shows the centreline and settings it was built from
            self.set_centreline(board_centreline(self.track))
            self._fill_build_boxes()
        if what:
            self._say(what)
        # A highlighted problem stays highlighted only while the board still has it.
        if self._problem_shown is not None and self._problem_shown not in _problem_keys(controller):
            self._problem_shown = None
            self.highlighted = []
            self.redraw()
        self._sync_controls()

    @property
    def status_text(self) -> str:
        """The status line in plain words: board, spaces, problems, whether it is saved, its file.

        Examples
        --------
        A board that came from no file says so: *Save* asks for a file first.

        >>> TrackEditor(from_ascii(". . .", name="Oval")).status_text
        'Oval · 3 spaces · 3 problems · no file yet'
        """
        return " · ".join(self._status())

    def _status(self) -> tuple[str, str, str, str]:
        """The status line's parts: name, spaces, problems ('no problems', '1 problem'...),
        then whether it is saved and its file."""
        controller = self.controller
        dirty = controller.dirty
        state = counted(controller.unsaved_edits, "unsaved edit") if dirty else "saved"
        if controller.path:
            where = f" · {controller.path}"
        else:  # nothing on disk to call saved
            state, where = (f"{state} · " if dirty else "") + "no file yet", ""
        problems = len(controller.problems)
        said = f"{problems} problem{'s' if problems != 1 else ''}" if problems else "no problems"
        return controller.track.name, f"{len(controller.track)} spaces", said, state + where

    def _sync_controls(self, what: str = "") -> None:
        controller = self.controller
        name, spaces, problems, rest = (_escape(part) for part in self._status())
        if controller.problems:  # in red while there is one: the list is in the panel's Problems
            problems = (
                f'<span style="color:#b00020" title="listed under Problems">{problems}</span>'
            )
        self.status.value = f"<b>{name}</b> · {spaces} · {problems} · {rest}"
        if what:
            self._say(what)
        marker = controller.last_edit
        self.undo_button.disabled = not (controller.can_undo or self.line_moves.can_undo(marker))
        self.redo_button.disabled = not (controller.can_redo or self.line_moves.can_redo(marker))
        unplaced = controller.unplaced_edits
        self.unplaced_row.layout.display = "flex" if unplaced else "none"
        self.unplaced.value = (
            f"<b>{len(unplaced)} edit{'s' if len(unplaced) != 1 else ''} could not be placed "
            "on the rebuilt board</b> (kept for the next rebuild):<ul>"
            + "".join(f"<li>{_escape(label)}: {_escape(why)}</li>" for label, why in unplaced)
            + "</ul>"
            if unplaced
            else ""
        )
        options = [(f"{p.code}: {p.message}", index) for index, p in enumerate(controller.problems)]
        options = options or [("no problems found", -1)]
        self._syncing = True
        try:
            if list(self.problem_list.options) != options:
                self.problem_list.options = options
            # a board without problems says so in one line, not in an empty list box
            self.problem_list.layout.display = "" if controller.problems else "none"
            self.no_problems.layout.display = "none" if controller.problems else ""
            keys = _problem_keys(controller)
            shown = self._problem_shown
            self.problem_list.value = keys.index(shown) if shown in keys else None
            if controller.path is not None:
                self.path.value = str(controller.path)
            self.name_box.value = controller.track.name
            self.laps.value = controller.track.laps
        finally:
            self._syncing = False

    def _sync_enabled(self) -> None:
        """Disable what needs a selection (or a pit lane) the board does not have."""
        count = len(self.selected)
        for css, needs in NEEDS_SELECTION.items():
            self._buttons[css].disabled = count == 0 if needs == "any" else count != needs
        self._buttons["fdlab-remove-pit"].disabled = not any(
            d["kind"] in ("pit", "box") for _, d in self.track.graph.nodes(data=True)
        )
        corner = self._selected_corner() if count else None
        self.stops.disabled = count == 0
        self.corner_name.disabled = corner is None
        self._buttons["fdlab-rebuild"].disabled = self._rebuilding
        self._buttons["fdlab-remove-picture"].disabled = self.backdrop is None
        self._buttons["fdlab-scale-picture"].disabled = self.backdrop is None

    # -- selection --------------------------------------------------------------
    def select(self, spaces: Iterable[SpaceId]) -> None:
        """Select spaces as a click on the plot would."""
        rows = []
        for space in spaces:
            if space not in self._row_of:
                raise EditError(f"select: space {space!r} is not on track {self.track.name!r}")
            rows.append(self._row_of[space])
        self._select_rows(rows)

    def _select_rows(self, rows: Sequence[int]) -> None:
        self.board_source.selected.indices = list(rows)
        self._on_indices("indices", None, list(rows))

    @reported
    def _on_indices(self, attr: str, old: Any, new: Sequence[int]) -> None:
        ids = self.board_source.data["id"]
        nodes = self.track.graph.nodes
        spaces = {ids[i] for i in new if 0 <= i < len(ids)}
        self.selected = sorted(
            spaces, key=lambda s: (nodes[s]["progress"], nodes[s]["lane"], str(s))
        )
        self._sync_selection()

    def _sync_selection(self) -> None:
        nodes = self.track.graph.nodes
        chosen = self.selected
        if not chosen:
            self.selection.value = (
                "Nothing selected: with the tool <i>Select</i>, click a space "
                "(shift-click, or drag with the tool <i>Box</i>, for more)."
            )
            self._syncing = True
            try:  # no corner's figures left in the corner boxes
                self.corner_name.value = ""
                self.stops.value = 1
            finally:
                self._syncing = False
            self._sync_enabled()
            return
        corners = sorted(
            {nodes[s]["corner"] for s in chosen if nodes[s]["corner"] is not None}, key=str
        )
        names = ", ".join(str(s) for s in chosen[:12]) + (" ..." if len(chosen) > 12 else "")
        corner_text = f" · corner {', '.join(map(str, corners))}" if corners else ""
        count = f"{len(chosen)} spaces selected: " if len(chosen) > 1 else "Selected space "
        self.selection.value = f"{count}{names}{corner_text}"
        corner = self._selected_corner()
        self._syncing = True
        try:
            if corner is not None:
                self.stops.value = self.track.corners[corner]["stops"]
                self.corner_name.value = self.track.corners[corner].get("name", "")
            else:  # a straight, or spaces of several corners: no name to show
                self.corner_name.value = ""
            if len(chosen) == 2:
                self.step_from.value, self.step_to.value = str(chosen[0]), str(chosen[1])
            elif len(chosen) == 1:
                self.step_from.value = str(chosen[0])
        finally:
            self._syncing = False
        self._sync_enabled()

    def _selected_corner(self) -> Any:
        found = {self.track.graph.nodes[s]["corner"] for s in self.selected}
        if len(found) == 1:
            return found.pop()
        return None

    def clear_selection(self) -> None:
        """Select nothing (after an edit that used the selection, so it cannot act twice)."""
        self._select_rows([])

    def _require_selection(self, what: str, count: int | None = None) -> list[SpaceId]:
        if not self.selected:
            raise EditError(f"{what}: select a space on the plot first")
        if count is not None and len(self.selected) != count:
            raise EditError(f"{what}: select exactly {count} space(s), not {len(self.selected)}")
        return list(self.selected)

    # -- handlers (each one controller call) ------------------------------------
    @reported
    def _on_stops(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        corner = self._selected_corner() if self.selected else None
        if corner is None:
            if self.selected:
                self._say(f"Make corner will make a {change['new']}-stop corner")
            return
        if self.track.corners[corner]["stops"] == change["new"]:
            return  # idempotent: the second delivery of a change finds nothing to do
        self.controller.set_corner_stops(corner, change["new"])

    @reported
    def _on_corner_name(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        corner = self._selected_corner() if self.selected else None
        if corner is None or self.track.corners[corner].get("name", "") == change["new"]:
            return  # idempotent
        self.controller.rename_corner(corner, change["new"])

    @reported
    def _on_laps(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] == self.track.laps:
            return  # idempotent
        self.controller.set_info(laps=change["new"])

    @reported
    def _on_tool(self, change: dict[str, Any]) -> None:
        self.use_tool(change["new"])

    def use_tool(self, name: str) -> None:
        """Make ``name`` (one of the *Tool* buttons) the plot's active tool.

        Drawing or moving centreline points drops the selection, so no
        earlier selection is edited by accident afterwards.
        """
        if name not in TOOLS:
            raise EditError(f"tool: {name!r} is not one of {list(TOOLS)}")
        if self.tool.value != name:
            self.tool.value = name  # comes back here through the observer
            return
        find = self.figure.select_one
        tools = {key: find({"name": value}) for key, value in TOOLS.items()}
        toolbar = self.figure.toolbar
        drawing = name in ("Draw centreline", "Move points")
        if drawing:  # the rebuild that follows a drawn or moved line is in sight
            self._build_section.children[0].value = True
        toolbar.active_multi = None  # drawing and moving points are the editor's own gestures
        toolbar.active_tap = None if drawing else tools["Select"]
        toolbar.active_drag = tools[name] if name in ("Box select", "Pan") else None
        self._show_points(drawing)
        self._draw(name == "Draw centreline")
        if name == "Move picture":
            toolbar.active_tap = None  # a click there must not change the selection
        self.tracing.set_tool(name == "Move picture")
        if drawing and self.selected:
            self.clear_selection()
        self._say(f"Tool: {name} ({TOOL_HINTS[name]})")

    @reported
    def _on_arrows(self, change: dict[str, Any]) -> None:
        self.redraw()

    @reported
    def _on_name(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] == self.track.name:
            return  # idempotent
        try:
            self.controller.set_info(name=change["new"])
        except EditError:
            self._sync_controls()  # show the name the board still has
            raise

    @reported
    def make_corner(self) -> None:
        """Make the selected spaces a new corner with the chosen stop count."""
        self.controller.make_corner(self._require_selection("make corner"), self.stops.value)

    @reported
    def clear_corner(self) -> None:
        """Take the selected spaces out of their corners."""
        self.controller.set_corner(self._require_selection("not a corner"), None)

    @reported
    def merge_corners(self) -> None:
        """Merge every corner touched by the selection into the first one."""
        nodes = self.track.graph.nodes
        chosen = self._require_selection("merge corners")
        corners = list(
            dict.fromkeys(nodes[s]["corner"] for s in chosen if nodes[s]["corner"] is not None)
        )
        if len(corners) < 2:
            raise EditError("merge corners: select spaces of at least two corners")
        for other in corners[1:]:
            self.controller.merge_corners(corners[0], other)

    @reported
    def split_corner(self) -> None:
        """Move the selected spaces of one corner into a new corner."""
        corner = self._selected_corner()
        if corner is None:
            raise EditError("split corner: select spaces of one corner only")
        self.controller.split_corner(corner, self._require_selection("split corner"))

    @reported
    def set_hazard(self, hazard: str | None) -> None:
        """Mark the selected spaces with a street hazard, or clear it."""
        self.controller.set_hazard(self._require_selection("hazard"), hazard)
        self.clear_selection()

    @reported
    def pair_tunnel(self) -> None:
        """Join the two selected spaces as a tunnel, from the earlier to the later."""
        entry, exit_ = self._require_selection("tunnel pair", 2)
        self.controller.pair_tunnel(entry, exit_)
        self.clear_selection()

    @reported
    def set_grid_spot(self) -> None:
        """Make the selected space the grid spot in the *Spot* box."""
        (space,) = self._require_selection("grid spot", 1)
        self.controller.set_grid_spot(space, self.grid_number.value)
        self.clear_selection()

    @reported
    def set_box(self) -> None:
        """Give the selected pit box to the car in the *Car* box."""
        (space,) = self._require_selection("box", 1)
        self.controller.set_box(space, self.box_number.value)
        self.clear_selection()

    @reported
    def add_step(self) -> None:
        """Add the arrow given by *Step from*, *to* and *kind*."""
        u, v = self._step_ends("add step")
        self.controller.add_step(u, v, self.step_kind.value)

    @reported
    def remove_step(self) -> None:
        """Remove the arrow given by *Step from* and *to*."""
        u, v = self._step_ends("remove step")
        if not self.track.graph.has_edge(u, v):
            return  # idempotent: already gone
        self.controller.remove_step(u, v)

    def _step_ends(self, what: str) -> tuple[SpaceId, SpaceId]:
        ends = []
        for box in (self.step_from, self.step_to):
            text = box.value.strip()
            space = _parse_space(text, self.track)
            if space is None:
                raise EditError(f"{what}: {box.description!r} holds {text!r}, not a space id")
            ends.append(space)
        return ends[0], ends[1]

    @reported
    def set_line(self, line: str) -> None:
        """Put the finish or police line just before the selected spaces."""
        self.controller.set_line_before(line, self._require_selection(f"{line} line"))
        self.clear_selection()

    @reported
    def add_pit_lane(self) -> None:
        """Add a pit lane beside the selected run of spaces of one lane."""
        chosen = self._require_selection("add pit lane")
        self.controller.add_pit_lane(chosen, boxes=self.pit_boxes.value)
        self.clear_selection()

    @reported
    def delete_spaces(self) -> None:
        """Delete the selected spaces with their steps."""
        self.controller.remove_spaces(self._require_selection("delete spaces"))
        self.clear_selection()

    @reported
    def remove_pit_lane(self) -> None:
        """Delete the pit lane and its boxes."""
        self.controller.remove_pit_lane()

    @reported
    def rebuild(self) -> None:
        """Build a new board from the drawn centreline, lane count and space length.

        Called from code (a notebook cell, a script) it returns with the new
        board in place. The *Rebuild* button does the same in the
        background (:meth:`rebuild_in_background`).
        """
        self._put_rebuilt(self._rebuild_request().build())

    @reported
    def rebuild_in_background(self) -> None:
        """What *Rebuild from centreline* does: :meth:`rebuild` without freezing the notebook.

        The build (up to a second on a large board, more with many edits to
        make again) runs in a worker thread: the message line says the board
        is being built and the button waits until it is in place. An edit
        made meanwhile wins: the new board is then dropped and the message
        says to rebuild again. In plain Python (no event loop) this is
        :meth:`rebuild`.
        """
        request = self._rebuild_request()
        self._rebuilding = True
        self._say(
            f"building a new board from the centreline of {len(request.centreline)} points..."
        )
        in_background(request.build, self._rebuilt, self._rebuild_failed)

    def _rebuild_request(self) -> RebuildRequest:
        """The rebuild the controls ask for (:meth:`EditorController.rebuild_request`)."""
        points = self.centreline_points()
        if len(points) < 3:
            raise EditError("rebuild: draw a centreline of at least 3 points first (draw tool)")
        options: dict[str, Any] = {
            "lanes": self.lanes.value,
            "space_length": self.space_length.value
            or None,  # 0: the builder's default spaces a lap
            "lane_counts": parse_lane_counts(self.lane_counts.value),
        }
        spec = self.track.graph.graph.get("build")
        keep = self.keep_build.value and spec is not None
        if not self.with_pit.value:
            options["pit"] = None
        elif not (keep and spec.get("pit")):
            options["pit"] = True  # the builder's pit lane beside the finish straight
        return self.controller.rebuild_request(points, keep=keep, **options)

    @reported
    def _rebuilt(self, rebuilt: RebuiltBoard) -> None:
        """Put the board the worker built in place (the end of :meth:`rebuild_in_background`)."""
        self._rebuilding = False
        self._put_rebuilt(rebuilt)

    @reported
    def _rebuild_failed(self, error: BaseException) -> None:
        self._rebuilding = False
        raise error

    def _put_rebuilt(self, rebuilt: RebuiltBoard) -> None:
        self.selected = []
        # the board's change shows its centreline (_on_model_change), before the message
        # says it is built: setting it again after would overwrite a point moved meanwhile
        self.controller.apply_rebuild(rebuilt)
        if self.tool.value != "Select":
            self.use_tool("Select")  # the new board's spaces can be clicked at once
            self._say(self.controller.history[-1] + " · Tool: Select")

    @reported
    def drop_unplaced_edits(self) -> None:
        """Keep the rebuilt board without the edits the rebuild could not place."""
        self.controller.drop_unplaced_edits()

    @reported
    def undo_rebuild(self) -> None:
        """Bring back the board from before the last rebuild, with the edits made since
        undone too (:meth:`EditorController.undo_rebuild`; Redo makes them again)."""
        self.controller.undo_rebuild()

    # -- the picture under the board ---------------------------------------------
    @property
    def backdrop(self) -> Backdrop | None:
        """The picture under the board, to trace (``None`` when there is none)."""
        return self.tracing.backdrop

    def load_picture(self, path: str | Path | None = None) -> None:
        """Show a PNG or JPEG file under the board, to trace (:meth:`Tracing.load`)."""
        self.tracing.load(path)

    def remove_picture(self) -> None:
        """Take the picture away from under the board."""
        self.tracing.remove()

    @reported
    def undo(self) -> None:
        """Undo the last edit: of the board, or a drag of a centreline point after it.

        While a line is being drawn, Undo takes the whole drawing back.
        """
        if self.sources.draw.state.data["on"][0]:
            self._draw(True)  # the drawing so far becomes a line Undo can take back
        if self.line_moves.can_undo(self.controller.last_edit):
            before = self.centreline_points()
            self._set_line(self.line_moves.undo())
            self._sync_controls(f"undo: {_line_move(before, self.centreline_points())} back")
            return
        self.controller.undo()

    @reported
    def redo(self) -> None:
        """Redo the last undone edit (of the board, or a centreline drag)."""
        if self.line_moves.can_redo(self.controller.last_edit):
            before = self.centreline_points()
            self._set_line(self.line_moves.redo())
            self._sync_controls(f"redo: {_line_move(before, self.centreline_points())} again")
            return
        self.controller.redo()

    def _set_line(self, points: list[tuple[float, float]]) -> None:
        """Show ``points`` as the centreline (undo, redo); the points to drag follow.

        A drawing under way starts again from it: it is not drawn by the designer.
        """
        self.set_centreline(points)
        self._line_before_draw = list(points)
        self.sources.points.cue.data = {"x": [], "y": [], "index": []}

    @reported
    def save(self) -> None:
        """Save to the file named in *File* (atomic; errors say why)."""
        text = self.path.value.strip()
        target = Path(text).expanduser() if text else self.controller.path
        if target is not None:
            self.tracing.before_save(target)  # the picture's file, named from the board's folder
        saved = self.controller.save(text or None, overwrite=self.overwrite.value)
        self.overwrite.value = False
        self._sync_controls(f"saved to {saved}")

    @reported
    def print_board(self) -> None:
        """Write the board at real size as a PDF beside its file (in the background).

        The PDF is named after the file in *File* (``monaco.json`` prints to
        ``monaco.pdf``); printing takes about a second on a large board, so it
        runs in a worker thread and the message line says when it is written.
        """
        from fdlab.plot.printing import print_board

        text = self.path.value.strip()
        if not text:
            raise EditError("print: type the board's file in 'File' (the PDF goes beside it)")
        target = Path(text).expanduser().with_suffix(".pdf")
        if not target.parent.is_dir():
            raise EditError(f"print: there is no folder {str(target.parent)!r} to write into")
        snapshot = self.track.copy()
        self._say(f"printing {snapshot.name} to {target}...", topic="print")

        def printed(layout: Any) -> None:
            self._say(
                f"printed {snapshot.name} to {target}: {layout.pages} {layout.paper} page"
                f"{'s' if layout.pages != 1 else ''} at real size (the first shows how they join)",
                topic="print",
            )

        def failed(error: BaseException) -> None:
            self.messages.refuse(f"print: {error}", topic="print")

        in_background(lambda: print_board(snapshot, target), printed, failed)

    @reported
    def load(self) -> None:
        """Load the file named in *File*; unsaved edits need *discard unsaved* ticked."""
        text = self.path.value.strip()
        if not text:
            raise EditError("load: type the file to load in 'File'")
        self.selected = []
        self.controller.load(text, discard_unsaved=self.discard.value)
        self.line_moves.clear()
        self.discard.value = False
        self._fill_build_boxes()
        self.highlighted = []
        self._problem_shown = None
        self.redraw()
        self.set_centreline(board_centreline(self.track))

    @reported
    def _on_problem(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        index = change["new"]
        problems = self.controller.problems
        chosen = problems[index] if index is not None and 0 <= index < len(problems) else None
        spaces = list(chosen.spaces) if chosen is not None else []
        self._problem_shown = _problem_keys(self.controller)[index] if chosen is not None else None
        if spaces == self.highlighted:
            return  # idempotent
        self.highlighted = spaces
        self.redraw()

    # -- centreline -------------------------------------------------------------
    def centreline_points(self) -> list[tuple[float, float]]:
        """The drawn centreline (the last line drawn) as ``(x, y)`` points."""
        data = self.centreline_source.data
        if not len(data["xs"]):
            return []
        xs, ys = data["xs"][-1], data["ys"][-1]
        return [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]

    def set_centreline(self, points: Sequence[tuple[float, float]]) -> None:
        """Show ``points`` as the centreline, as if drawn with the draw tool."""
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        self.centreline_source.data = {"xs": [xs] if points else [], "ys": [ys] if points else []}
        self.sources.vertices.data = {"x": xs, "y": ys}

    def _draw(self, on: bool) -> None:
        """Let clicks draw a new centreline (tool *Draw centreline*), or stop.

        A line drawn since the tool was picked (or since the last call) is
        kept for Undo; the next click starts a new line.
        """
        state = self.sources.draw.state
        if state.data["on"][0]:
            self._keep_drawn_line()
        self._line_before_draw = self.centreline_points()
        state.data = {"on": [1 if on else 0], "fresh": [1], "closed": [0]}
        self.sources.draw.guide.data = {"x": [], "y": []}

    def _keep_drawn_line(self) -> None:
        """Remember the line drawn since the tool was picked, for Undo."""
        before, after = self._line_before_draw, self.centreline_points()
        if after != before:
            self.line_moves.moved(before, after, self.controller.last_edit)
            self._line_before_draw = after
            self._sync_controls()

    @reported
    def _on_draw_state(self, attr: str, old: Any, new: Any) -> None:
        closed = int(new["closed"][0]) if new.get("closed") else 0
        if closed:  # the lap was closed on its first point in the browser
            self._keep_drawn_line()
            self._say(
                f"lap drawn: {closed} points; press Rebuild from centreline to build the board"
                " (a next click starts a new line; Undo takes this one back)"
            )

    def _show_points(self, shown: bool) -> None:
        """Show the centreline's points (tools *Draw centreline* and *Move points*), or hide them.

        The points are the line as it is now: one drawn in the browser
        reaches the kernel before the tool is picked.
        """
        if shown:
            points = self.centreline_points()
            self.sources.vertices.data = {"x": [x for x, _ in points], "y": [y for _, y in points]}
        self.sources.points.cue.data = {"x": [], "y": [], "index": []}
        for name in ("centreline-points", "centreline-cue"):
            self.figure.select_one({"name": name}).visible = shown

    @reported
    def _on_point_moved(self, attr: str, old: Any, new: Any) -> None:
        moved = [index for index in new["moved"] if index >= 0]
        if moved:  # the end of a drag in the browser (fdlab.editor.point_drag)
            before, after = self._line_settled, self.centreline_points()
            if before != after and not self.sources.draw.state.data["on"][0]:  # else: drawing
                self.line_moves.moved(before, after, self.controller.last_edit)
            self._line_settled = after
            self._sync_controls(
                f"moved centreline point {int(moved[0]) + 1} of {len(after)}:"
                " press Rebuild from centreline to build the board from the new line"
                " (Undo puts it back)"
            )

    @reported
    def _on_centreline(self, attr: str, old: Any, new: Any) -> None:
        # Idempotent: the second delivery writes the same text again.
        if not any(i >= 0 for i in self.sources.points.drag.data["index"]):  # no drag under way
            self._line_settled = self.centreline_points()
        count = len(self.centreline_points())
        self.centreline_info.value = (
            f"Centreline: {count} points; press <i>Rebuild from centreline</i> to build a board"
            " (to move a point: tool <i>Points</i>, then drag the point)"
            if count
            else DRAWING_HINT
        )

    def _mark_worst(self, verdict: Verdict | None) -> None:
        """Label the corners that bite most on the board (none without a verdict), and say
        under the plot how an edit changed par: the verdict's section may be scrolled away
        while the designer works in another."""
        worst = (
            [(c.corner, f"{c.overshoot:.0%} overshot, {c.damage:.1f} SP") for c in verdict.worst]
            if verdict is not None
            else []
        )
        refill(self.sources.verdict, verdict_marks(self.track, worst))
        if verdict is not None and verdict.par_change is not None:
            self._say(f"How it plays now: {verdict.headline()}", topic="verdict")

    # -- errors -----------------------------------------------------------------
    def _say(self, message: str, *, topic: str = "action") -> None:
        """Show what was done in the message area.

        A message replaces the last one of its ``topic`` only: the verdict,
        which comes by itself, and a print running in the background keep
        their own line beside what the designer's last action said.
        """
        self.messages.say(message, topic=topic)

    @property
    def last_error(self) -> str | None:
        """The refusal the last control reported, ``None`` once an action went through."""
        return self.messages.last_error

    @property
    def last_message(self) -> str | None:
        """The last thing the message area said, refusal or not."""
        return self.messages.last_message

    def after_callback(self) -> None:
        """Enable the controls that fit the selection, after every callback."""
        self._sync_enabled()


def _picture_only(what: str) -> bool:
    """Whether the change ``what`` (a controller's label) only placed or removed the
    picture under the board: the board plays the same, so its verdict stands.

    Examples
    --------
    >>> _picture_only("place the picture"), _picture_only("undo remove the picture")
    (True, True)
    >>> _picture_only("set hazard='danger' on space 1")
    False
    """
    for prefix in ("undo ", "redo "):
        what = what.removeprefix(prefix)
    return what in (PLACE_PICTURE, REMOVE_PICTURE)


def _line_move(before: Sequence[tuple[float, float]], after: Sequence[tuple[float, float]]) -> str:
    """Name the centreline points that differ between two lines, for the message line.

    Examples
    --------
    >>> _line_move([(0, 0), (5, 0), (9, 9)], [(0, 0), (6, 1), (9, 9)])
    'centreline point 2'
    """
    changed = [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b]
    if len(before) != len(after) or not changed:
        return "the centreline"
    if len(changed) == 1:
        return f"centreline point {changed[0]}"
    return f"centreline points {', '.join(map(str, changed))}"


def parse_lane_counts(text: str) -> list[tuple[tuple[float, float], int]]:
    """Read lane counts per stretch typed as ``start-end:lanes`` lap fractions.

    Examples
    --------
    >>> parse_lane_counts("0.2-0.4:3, 0.9-0.1:2")
    [((0.2, 0.4), 3), ((0.9, 0.1), 2)]
    >>> parse_lane_counts("")
    []
    >>> parse_lane_counts("half:3")
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: lanes per stretch: 'half:3' is not start-end:lanes (e.g. 0.2-0.4:3)
    """
    counts = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            span, lanes = part.split(":")
            start, end = span.split("-")
            counts.append(((float(start), float(end)), int(lanes)))
        except ValueError:
            raise EditError(
                f"lanes per stretch: {part!r} is not start-end:lanes (e.g. 0.2-0.4:3)"
            ) from None
    return counts


def tracks_suggestion(start: Path | None = None) -> str:
    """A file name to suggest for saving: in ``tracks/`` beside or above ``start`` (the cwd).

    A notebook runs in its own folder, so the repository's ``tracks/`` is
    usually ``../tracks``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> repo = pathlib.Path(tempfile.mkdtemp())
    >>> (repo / "tracks").mkdir(); (repo / "notebooks").mkdir()
    >>> tracks_suggestion(repo / "notebooks"), tracks_suggestion(repo)
    ('../tracks/my-circuit.json', 'tracks/my-circuit.json')
    """
    start = Path.cwd() if start is None else start
    if not (start / "tracks").is_dir() and (start.parent / "tracks").is_dir():
        return "../tracks/my-circuit.json"
    return "tracks/my-circuit.json"


def _problem_keys(controller: EditorController) -> list[tuple[Any, ...]]:
    return [(p.code, p.message, tuple(p.spaces)) for p in controller.problems]


def _parse_space(text: str, track: Track) -> SpaceId | None:
    if text in track.graph:
        return text
    try:
        number = int(text)
    except ValueError:
        return None
    return number if number in track.graph else None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
