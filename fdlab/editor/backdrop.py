"""A picture under the board: a scanned or photographed board to trace.

The picture is read from a PNG or JPEG file on disk (never the network)
and shown under the plot as a ``data:`` URL, so nothing but the notebook
serves it. Its size in metres comes from the width the designer gives
(the height follows from the picture's pixel size), its place from the
position of its lower left corner, and it can be made faint so the spaces
drawn over it stay readable.
"""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fdlab.editor.errors import EditError

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

    def moved(self, **changes: float) -> Backdrop:
        """The same picture with another ``width``, ``x``, ``y`` or ``opacity`` (checked)."""
        # Any: mypy checks ** values against every field (path, kind...); only floats are meant
        values: dict[str, Any] = {k: float(v) for k, v in changes.items()}
        picture = replace(self, **values)
        if not picture.width > 0:
            raise EditError(f"picture: the width must be more than 0 m, not {picture.width:g}")
        if not 0.0 <= picture.opacity <= 1.0:
            raise EditError(f"picture: opacity goes from 0 to 1, not {picture.opacity:g}")
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
        }
