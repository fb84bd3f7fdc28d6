"""Tracing a picture in the editor: pick it, lay it under the board, keep it with the board.

The *Picture to trace* section of :class:`fdlab.editor.TrackEditor`:

- **pick** a PNG or JPEG with *Upload picture* (the browser's file picker;
  the file is written beside the board's file, so the board can find it
  again) or type its file name and press *Load picture*;
- **scale** it by two points: press *Scale by two points*, click two points
  of the picture whose real distance you know (the ends of a scale bar, a
  straight of known length), type that distance, and the picture is scaled
  about the first point;
- **drag** it with the tool *Move picture* and **turn** it with the *angle*
  slider (about its centre); *width*, *x*, *y*, *opacity* and the angle can be
  typed too;
- its placement is an edit of the board like any other (undo puts it back)
  and is saved with it (the track's ``picture`` field,
  :meth:`~fdlab.editor.backdrop.Backdrop.placement`): opening the file again
  shows the picture where it was left.

The drag happens in the browser (the picture follows the pointer with no
round trip to the kernel); where it is left comes back once, at the end.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from fdlab._shell import MessageLine, labelled, reported, row
from fdlab.editor.backdrop import PICTURE_KEY, Backdrop, checked_placement
from fdlab.editor.board_plot import PICTURE_COLUMNS, drawing_area, refill
from fdlab.editor.errors import EditError
from fdlab.files import atomic_write

if TYPE_CHECKING:
    from fdlab.editor.widgets import TrackEditor

__all__ = ["Tracing"]

#: What the section says while it waits for the clicks that scale the picture.
_SCALE_HINTS = (
    "click the first of two points of the picture whose real distance you know",
    "click the second point",
)


#: ipywidgets writes how many files were picked after the upload button's label
#: ("Upload picture (0)"): the button shows its label alone (its text, icon and
#: count set to size 0, the label written after them).
_UPLOAD_STYLE = """<style>
.fdlab-picture-upload.widget-upload { font-size: 0 !important; }
.fdlab-picture-upload.widget-upload::after {
  content: "Upload picture";
  font-size: var(--jp-widgets-font-size, 13px);
}
</style>"""


class Tracing:
    """The picture under an editor's board, and the controls that place it.

    Parameters
    ----------
    editor : TrackEditor
        The editor whose plot shows the picture.

    Attributes
    ----------
    backdrop : Backdrop or None
        The picture shown, ``None`` when there is none.
    widget : ipywidgets.VBox
        The section's controls.
    """

    def __init__(self, editor: TrackEditor) -> None:
        self.editor = editor
        self.messages: MessageLine = editor.messages
        self.backdrop: Backdrop | None = None
        self._syncing = False
        self._clicks: list[tuple[float, float]] = []
        self._gestures_seen = 0
        self.sources = editor.sources
        self.sources.picture_gesture.on_change("data", self._on_gesture)
        self.widget = self._controls()

    # -- the controls --------------------------------------------------------------
    def _controls(self) -> w.VBox:
        make = self.editor._buttons.make
        self.path = labelled(
            w.Text(
                description="Picture",
                placeholder="board-scan.png (PNG or JPEG)",
                layout=w.Layout(width="20em"),
            ),
            "fdlab-picture-path",
        )
        self.upload = w.FileUpload(
            accept=".png,.jpg,.jpeg", multiple=False, description="Upload picture",
            tooltip="pick a PNG or JPEG on this computer (it is kept beside the board's file)",
            layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.upload.add_class("fdlab-picture-upload")
        self.upload.observe(self._on_upload, names="value")
        self.width = self._number("width (m)", "fdlab-picture-width", 1000.0, "12em", low=0.001)
        self.x = self._number("x (m)", "fdlab-picture-x", 0.0, "9em")
        self.y = self._number("y (m)", "fdlab-picture-y", 0.0, "9em")
        self.angle = labelled(
            w.FloatSlider(
                description="angle (°)", value=0.0, min=-180.0, max=180.0, step=0.5,
                readout_format=".1f", continuous_update=False, layout=w.Layout(width="20em"),
                tooltip="turn the picture about its centre: drag, or type in the number",
            ),
            "fdlab-picture-angle",
        )  # fmt: skip
        self.opacity = labelled(
            w.FloatSlider(
                description="opacity", value=0.5, min=0.0, max=1.0, step=0.05,
                continuous_update=False, layout=w.Layout(width="16em"),
            ),
            "fdlab-picture-opacity",
        )  # fmt: skip
        for box in (self.width, self.x, self.y, self.opacity):
            box.observe(self._on_setting, names="value")
        self.angle.observe(self._on_angle, names="value")
        self.scale_info = labelled(w.HTML(), "fdlab-picture-scale")
        self.distance = self._number("distance (m)", "fdlab-picture-distance", 100.0, "12em")
        return w.VBox(
            [
                w.HTML(_UPLOAD_STYLE, layout=w.Layout(display="none")),  # applies unseen
                row(
                    self.path,
                    make(
                        "Load picture",
                        "fdlab-load-picture",
                        self.load,
                        "show a board scan (PNG or JPEG file) under the plot to trace it",
                    ),
                    self.upload,
                    make("Remove picture", "fdlab-remove-picture", self.remove),
                ),
                row(self.width, self.x, self.y),
                row(self.angle, self.opacity),
                row(
                    make(
                        "Scale by two points",
                        "fdlab-scale-picture",
                        self.start_scaling,
                        "click two points of the picture, then it is scaled so that they "
                        "lie 'distance' metres apart",
                    ),
                    self.distance,
                    self.scale_info,
                ),
            ]
        )

    @staticmethod
    def _number(text: str, css: str, value: float, width: str, low: float | None = None) -> Any:
        box = (
            w.BoundedFloatText(description=text, value=value, min=low, max=1e7)
            if low is not None
            else w.FloatText(description=text, value=value)
        )
        box.layout = w.Layout(width=width)
        return labelled(box, css)

    def after_callback(self) -> None:
        """Bring the editor's controls up to date (as after any editor callback)."""
        self.editor.after_callback()

    # -- picking a picture ---------------------------------------------------------
    @reported
    def load(self, path: str | Path | None = None) -> None:
        """Show the PNG or JPEG file named in *Picture* under the board, to trace.

        A blank board's picture starts 1000 m wide at (0, 0); a board's
        picture starts as wide as the board, at its lower left corner.
        """
        text = str(path) if path is not None else self.path.value.strip()
        if not text:
            raise EditError("load picture: type the picture's file name in 'Picture'")
        if path is not None:
            self.path.value = text
        nodes = self.editor.track.graph.nodes
        xs = [d["x"] for _, d in nodes(data=True)]
        ys = [d["y"] for _, d in nodes(data=True)]
        if xs:
            width, x, y = max(max(xs) - min(xs), 1.0) * 1.1, min(xs), min(ys)
        else:
            width, x, y = 1000.0, 0.0, 0.0
        picture = Backdrop.read(text, width=width, x=x, y=y, opacity=self.opacity.value)
        self._place(picture, "place the picture")
        w_px, h_px = picture.pixels
        self.messages.say(f"picture {Path(text).name} ({w_px} x {h_px} pixels) under the board")

    @reported
    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        name = Path(str(upload["name"])).name  # never a path the browser made up
        target = _free_name(self._folder() / name, bytes(upload["content"]))
        if not target.exists():
            atomic_write(target, bytes(upload["content"]))
        self.upload.value = ()  # the next pick, even of the same file, comes through
        self.load(target)

    @reported
    def remove(self) -> None:
        """Take the picture away from under the board (undo puts it back)."""
        self.backdrop = None
        self.editor.controller.set_picture(None)
        self._show()
        self.messages.say("picture removed")

    # -- placing it ----------------------------------------------------------------
    @reported
    def _on_setting(self, change: dict[str, Any]) -> None:
        if self._syncing or self.backdrop is None:
            return
        moved = self.backdrop.moved(
            width=self.width.value, x=self.x.value, y=self.y.value, opacity=self.opacity.value
        )
        if moved != self.backdrop:
            self._place(moved, "place the picture")

    @reported
    def _on_angle(self, change: dict[str, Any]) -> None:
        if self._syncing or self.backdrop is None:
            return
        self._place(self.backdrop.turned(float(self.angle.value)), "turn the picture")

    @reported
    def start_scaling(self) -> None:
        """Wait for two clicks on the picture, then scale it to the typed distance."""
        if self.backdrop is None:
            raise EditError("scale the picture: load or upload a picture first")
        self._clicks = []
        self._set_mode("scale")
        self.scale_info.value = f"<i>{_SCALE_HINTS[0]}</i>"
        self.messages.say(f"Scale by two points: {_SCALE_HINTS[0]}")

    def scale_by(self, first: tuple[float, float], second: tuple[float, float]) -> None:
        """Scale the picture so that ``first`` and ``second`` lie *distance* metres apart.

        The two points are where they lie on the board now; ``first`` stays put.
        """
        if self.backdrop is None:
            raise EditError("scale the picture: load or upload a picture first")
        metres = float(self.distance.value)
        self._place(self.backdrop.scaled(first, second, metres), "scale the picture")
        self.messages.say(
            f"picture scaled: the two points are {metres:g} m apart "
            f"({self.backdrop.metres_per_pixel:.3g} m per pixel)"
        )

    @reported
    def _on_gesture(self, attr: str, old: Any, new: dict[str, list[Any]]) -> None:
        # the browser only appends: the rows not seen yet are the new gestures
        rows = list(zip(new.get("kind", []), new.get("x", []), new.get("y", []), strict=True))
        fresh, self._gestures_seen = rows[self._gestures_seen :], len(rows)
        for kind, x, y in fresh:
            self._gesture(str(kind), float(x), float(y))

    def _gesture(self, kind: str, x: float, y: float) -> None:
        if kind == "moved" and self.backdrop is not None:
            self._place(self.backdrop.moved(x=x, y=y), "move the picture")
            self.messages.say(f"picture moved: lower left corner at ({x:.1f}, {y:.1f}) m")
        elif kind == "tap" and self.sources.picture_mode.data["mode"][0] == "scale":
            self._clicks.append((x, y))
            if len(self._clicks) < 2:
                self.scale_info.value = f"<i>{_SCALE_HINTS[1]}</i>"
                self.messages.say(f"Scale by two points: {_SCALE_HINTS[1]}")
                return
            first, second = self._clicks[:2]
            self._clicks = []
            self._set_mode("move" if self.editor.tool.value == "Move picture" else "off")
            self.scale_by(first, second)

    def set_tool(self, moving: bool) -> None:
        """Follow the editor's tool: *Move picture* drags the picture."""
        self._set_mode("move" if moving else "off")

    def _set_mode(self, mode: str) -> None:
        refill(
            self.sources.picture_mode,
            {"mode": [mode], "x0": [0.0], "y0": [0.0], "sx": [0.0], "sy": [0.0]},
        )

    def _place(self, picture: Backdrop, label: str) -> None:
        """Show ``picture`` and keep its placement with the board (an undoable edit)."""
        self.backdrop = picture
        self.editor.controller.set_picture(picture.placement(self._file_name(picture.path)))
        self._show()

    # -- keeping it with the board -------------------------------------------------
    def _folder(self) -> Path:
        """Where the board's file is (pictures are found beside it), else the working folder."""
        path = self.editor.controller.path
        if path is None and self.editor.path.value.strip():
            path = Path(self.editor.path.value.strip()).expanduser()
        return path.parent if path is not None else Path.cwd()

    def _file_name(self, picture: Path, folder: Path | None = None) -> str:
        """The picture's file as the board keeps it: relative to the board's folder."""
        base = folder if folder is not None else self._folder()
        try:
            return Path(os.path.relpath(picture.resolve(), base.resolve())).as_posix()
        except ValueError:  # another drive (Windows): only an absolute name finds it
            return str(picture.resolve())

    def before_save(self, target: Path) -> None:
        """Keep the picture's file name right for a board saved to ``target``."""
        if self.backdrop is None:
            return
        placement = self.backdrop.placement(self._file_name(self.backdrop.path, target.parent))
        self.editor.controller.set_picture(placement)

    def follow_board(self) -> None:
        """Show what the board keeps of the picture (after opening, undo, redo or load).

        A picture file that cannot be read is said on the message line; the
        board keeps its placement, so nothing is lost.
        """
        placement = self.editor.track.graph.graph.get(PICTURE_KEY)
        if placement is None:
            if self.backdrop is not None:
                self.backdrop = None
                self._show()
            return
        try:
            place = checked_placement(placement)
            path = Path(place["file"])
            if not path.is_absolute():
                path = self._folder() / path
            picture = self.backdrop
            if picture is None or picture.path.resolve() != path.resolve():
                picture = Backdrop.read(path, width=place["width"])
            picture = picture.moved(
                **{key: place[key] for key in ("width", "x", "y", "angle", "opacity")}
            )
        except EditError as error:
            self.messages.refuse(f"the board's picture is not shown: {error}")
            return
        if picture != self.backdrop:
            self.backdrop = picture
            self.path.value = str(place["file"])
            self._show()

    # -- showing it ----------------------------------------------------------------
    def _show(self) -> None:
        picture = self.backdrop
        columns = picture.columns() if picture is not None else {key: [] for key in PICTURE_COLUMNS}
        source = self.sources.picture
        if picture is not None and source.data.get("url") == columns["url"]:
            refill(source, columns)  # the same picture moved: only the numbers travel
        else:
            source.data = columns
        refill(
            self.sources.canvas,
            drawing_area(self.editor.track) if picture is None else {"x": [], "y": []},
        )
        self.scale_info.value = (
            f"{picture.metres_per_pixel:.3g} m per pixel" if picture is not None else ""
        )
        if picture is not None:
            self._syncing = True
            try:
                self.width.value = round(picture.width, 3)
                self.x.value, self.y.value = round(picture.x, 3), round(picture.y, 3)
                self.angle.value = round((picture.angle + 180.0) % 360.0 - 180.0, 3)
                self.opacity.value = picture.opacity
            finally:
                self._syncing = False


def _free_name(target: Path, data: bytes) -> Path:
    """``target``, or ``name-1.png``... when another file of that name is there already.

    The same bytes under the same name are the same picture: it is used as it is.
    """
    candidate, number = target, 0
    while candidate.exists() and candidate.read_bytes() != data:
        number += 1
        candidate = target.with_name(f"{target.stem}-{number}{target.suffix}")
    return candidate
