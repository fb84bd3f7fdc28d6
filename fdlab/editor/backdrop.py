"""A picture under the board: a scanned or photographed board to trace.

The picture is read from a PNG or JPEG file on disk (never the network)
and shown under the plot as a ``data:`` URL, so nothing but the notebook
serves it. Its size in metres comes from the width the designer gives
(the height follows from the picture's pixel size), its place from the
position of its lower left corner, and it can be made faint so the spaces
drawn over it stay readable.

A designer places it as on a table: drag it (tool *Move picture*), turn it
(*angle*), and scale it by clicking two points of the picture whose real
distance is known (:meth:`Backdrop.scaled`). The placement is saved with the
board (:meth:`Backdrop.placement`, the track's ``picture`` field), so the
picture is back under the board when the file is opened again.
"""

from __future__ import annotations

import base64
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fdlab.editor.errors import EditError

#: The track's graph attribute that keeps the picture's placement (:meth:`Backdrop.placement`).
PICTURE_KEY = "picture"

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: JPEG start-of-frame markers, which carry the picture's size.
_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def picture_size(data: bytes, name: str = "the picture") -> tuple[str, int, int]:
    """The type (``"png"`` or ``"jpeg"``), width and height in pixels of a picture file.

    Raises
    ------
    EditError
        When the bytes are neither a PNG nor a JPEG picture.

    Examples
    --------
    >>> header = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR" + (640).to_bytes(4, "big")
    >>> picture_size(header + (480).to_bytes(4, "big"))
    ('png', 640, 480)
    >>> picture_size(b"GIF89a")
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: picture: the picture is not a PNG or JPEG file
    """
    if data.startswith(_PNG_SIGNATURE) and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 < len(data):
            if data[at] != 0xFF:
                at += 1
                continue
            marker = data[at + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                at += 1 if marker == 0xFF else 2
                continue
            (length,) = struct.unpack(">H", data[at + 2 : at + 4])
            if marker in _JPEG_FRAMES:
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return "jpeg", width, height
            at += 2 + length
        raise EditError(f"picture: {name} is a JPEG file without a picture size (damaged?)")
    raise EditError(f"picture: {name} is not a PNG or JPEG file")


@dataclass(frozen=True)
class Backdrop:
    """A picture placed under the board, in metres.

    Parameters
    ----------
    path : Path
        The file it was read from.
    kind : {"png", "jpeg"}
    pixels : (int, int)
        Width and height in pixels.
    data : bytes
        The file's bytes.
    width : float
        Width on the board, metres; the height follows the picture's shape.
    x, y : float
        Position of the lower left corner, metres.
    opacity : float
        0 (invisible) to 1 (opaque).
    angle : float
        Turn in degrees, anticlockwise about the lower left corner.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from fdlab.editor.backdrop import Backdrop
    >>> png = b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR" + (200).to_bytes(4, "big") + (100).to_bytes(4, "big")
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scan.png"
    >>> _ = path.write_bytes(png)
    >>> picture = Backdrop.read(path, width=1000)
    >>> picture.height, picture.metres_per_pixel, picture.data_url()[:22]
    (500.0, 5.0, 'data:image/png;base64,')
    """

    path: Path
    kind: str
    pixels: tuple[int, int]
    data: bytes
    width: float
    x: float = 0.0
    y: float = 0.0
    opacity: float = 0.5
    angle: float = 0.0

    @classmethod
    def read(
        cls, path: str | Path, *, width: float | None = None, x: float = 0.0, y: float = 0.0,
        opacity: float = 0.5,
    ) -> Backdrop:  # fmt: skip
        """Read a PNG or JPEG file; ``width`` in metres defaults to one metre a pixel.

        Raises
        ------
        EditError
            When the file is missing or no PNG/JPEG picture, naming it.
        """
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise EditError(f"picture {path}: {error.strerror or error}") from None
        kind, w, h = picture_size(data, str(path))
        if w <= 0 or h <= 0:
            raise EditError(f"picture {path}: it is {w} x {h} pixels")
        picture = cls(path, kind, (w, h), data, float(width or w), float(x), float(y))
        return picture.moved(opacity=opacity)

    @property
    def height(self) -> float:
        """Height on the board in metres."""
        w, h = self.pixels
        return self.width * h / w

    @property
    def metres_per_pixel(self) -> float:
        """The scale: metres on the board per pixel of the picture."""
        return self.width / self.pixels[0]

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of the picture on the board, metres."""
        return self.to_board(0.5 * self.width, 0.5 * self.height)

    def to_board(self, u: float, v: float) -> tuple[float, float]:
        """Board coordinates of the point ``(u, v)`` metres from the picture's lower left corner."""
        turn = math.radians(self.angle)
        cos, sin = math.cos(turn), math.sin(turn)
        return (self.x + u * cos - v * sin, self.y + u * sin + v * cos)

    def turned(self, angle: float) -> Backdrop:
        """The picture turned to ``angle`` degrees about its centre (the centre stays put).

        Examples
        --------
        >>> picture = _example()
        >>> turned = picture.turned(90)
        >>> [round(c, 6) for c in turned.centre] == [round(c, 6) for c in picture.centre]
        True
        """
        cx, cy = self.centre
        half_w, half_h = 0.5 * self.width, 0.5 * self.height
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        x = cx - (half_w * cos - half_h * sin)
        y = cy - (half_w * sin + half_h * cos)
        return self.moved(angle=angle, x=x, y=y)

    def scaled(
        self, first: tuple[float, float], second: tuple[float, float], metres: float
    ) -> Backdrop:
        """The picture scaled so that two points of it lie ``metres`` apart.

        ``first`` and ``second`` are where the designer clicked on the
        picture as it lies now (board coordinates); ``first`` stays where it is.

        Raises
        ------
        EditError
            When the points are the same or the distance is not positive.

        Examples
        --------
        >>> picture = _example()  # 1000 m wide
        >>> bigger = picture.scaled((0, 0), (100, 0), 250)
        >>> bigger.width, (bigger.x, bigger.y)
        (2500.0, (0.0, 0.0))
        """
        if not (math.isfinite(metres) and metres > 0):
            raise EditError(f"picture: the real distance must be more than 0 m, not {metres:g}")
        (x1, y1), (x2, y2) = first, second
        measured = math.hypot(x2 - x1, y2 - y1)
        if measured <= 1e-9 * max(self.width, 1.0):
            raise EditError("picture: click two different points of the picture to scale it")
        factor = metres / measured
        return self.moved(
            width=self.width * factor,
            x=x1 + (self.x - x1) * factor,
            y=y1 + (self.y - y1) * factor,
        )

    def placement(self, file: str) -> dict[str, Any]:
        """What the track file keeps of the picture: its file and where it lies.

        Examples
        --------
        >>> _example().placement("scan.png")
        {'file': 'scan.png', 'width': 1000.0, 'x': 0.0, 'y': 0.0, 'angle': 0.0, 'opacity': 0.5}
        """
        return {
            "file": file,
            "width": self.width,
            "x": self.x,
            "y": self.y,
            "angle": self.angle,
            "opacity": self.opacity,
        }

    def moved(self, **changes: float) -> Backdrop:
        """The same picture with another ``width``, ``x``, ``y``, ``angle`` or ``opacity``."""
        # Any: mypy checks ** values against every field (path, kind...); only floats are meant
        values: dict[str, Any] = {k: float(v) for k, v in changes.items()}
        picture = replace(self, **values)
        if not picture.width > 0:
            raise EditError(f"picture: the width must be more than 0 m, not {picture.width:g}")
        if not 0.0 <= picture.opacity <= 1.0:
            raise EditError(f"picture: opacity goes from 0 to 1, not {picture.opacity:g}")
        if not all(math.isfinite(v) for v in (picture.width, picture.x, picture.y, picture.angle)):
            raise EditError("picture: its width, place and angle must be finite numbers")
        return picture

    def data_url(self) -> str:
        """The picture as a ``data:`` URL (the browser shows it without fetching anything)."""
        return f"data:image/{self.kind};base64,{base64.b64encode(self.data).decode('ascii')}"

    def columns(self) -> dict[str, list[object]]:
        """One row for a Bokeh ``image_url`` glyph anchored at its lower left corner."""
        return {
            "url": [self.data_url()],
            "x": [self.x],
            "y": [self.y],
            "w": [self.width],
            "h": [self.height],
            "alpha": [self.opacity],
            "angle": [math.radians(self.angle)],
        }


#: The numbers of a placement and their defaults (a placement needs its width).
_PLACEMENT_DEFAULTS: dict[str, float | None] = {
    "width": None, "x": 0.0, "y": 0.0, "angle": 0.0, "opacity": 0.5,
}  # fmt: skip
#: What each number may be, and how that is said.
_PLACEMENT_RANGES: dict[str, tuple[Callable[[float], bool], str]] = {
    "width": (lambda v: v > 0, "a number more than 0"),
    "x": (lambda v: True, "a finite number"),
    "y": (lambda v: True, "a finite number"),
    "angle": (lambda v: True, "a finite number"),
    "opacity": (lambda v: 0 <= v <= 1, "a number from 0 to 1"),
}


def checked_placement(placement: object) -> dict[str, Any]:
    """A picture placement read from a board (a file may hold anything), or one clear error.

    Examples
    --------
    >>> checked_placement({"file": "scan.png", "width": 900})["width"]
    900.0
    >>> checked_placement({"file": "", "width": 900})
    Traceback (most recent call last):
    ...
    fdlab.editor.errors.EditError: picture: file must be the picture's file name, not ''
    """
    if not isinstance(placement, dict):
        raise EditError(f"picture: the placement must be an object, not {placement!r}")
    file = placement.get("file")
    if not isinstance(file, str) or not file.strip():
        raise EditError(f"picture: file must be the picture's file name, not {file!r}")
    checked: dict[str, Any] = {"file": file}
    for key, default in _PLACEMENT_DEFAULTS.items():
        value: object = placement.get(key, default)
        allowed, words = _PLACEMENT_RANGES[key]
        if (
            not isinstance(value, (int, float))
            or isinstance(value, bool)
            or not (math.isfinite(value) and allowed(float(value)))
        ):
            raise EditError(f"picture: {key} must be {words}, not {value!r}")
        checked[key] = float(value)
    return checked


def _example() -> Backdrop:
    """A 1000 m wide picture of 200 x 100 pixels at the origin (for the examples)."""
    png = (
        _PNG_SIGNATURE + b"\x00\x00\x00\rIHDR" + (200).to_bytes(4, "big") + (100).to_bytes(4, "big")
    )
    return Backdrop(Path("scan.png"), "png", (200, 100), png, 1000.0)
