"""Write the example boards of ``examples/``: one small board in each format ``fdlab import`` reads.

Run ``python examples/make_examples.py`` (or give another folder to write
into); a test checks that the committed files equal a fresh run. Each file
holds the stadium of ``examples/stadium.py``, a made-up three-lane board
with a ten-spot grid, so that ``fdlab import`` accepts it for a race of ten
cars:

* ``stadium.dat``: a GP Online board;
* ``stadium-tts.json``: a Tabletop Simulator track (tts-formula-d mod);
* ``stadium.geojson``: the GP Online board once imported, exported as
  GeoJSON (what ``fdlab export`` writes).

The output is the same on every run: JSON keys are sorted, numbers are
rounded where the board is laid out, and every file ends with a newline.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # stadium.py, if not run as a script

from stadium import gponline_text, stadium, tts_document

from fdlab.track.formats import import_track, track_to_geojson

#: This folder, where the examples are written by default.
EXAMPLES = Path(__file__).resolve().parent

#: Grid spots of the example boards: ``fdlab import`` checks for a race of ten cars.
GRID_SPOTS = 10

#: The files written, in order.
FILES = ("stadium.dat", "stadium-tts.json", "stadium.geojson")


def json_text(doc: dict[str, Any], rows: str) -> str:
    """A JSON object as text with sorted keys and the list ``doc[rows]`` one item a line.

    Parameters
    ----------
    doc : dict
        A JSON-ready object (no NaN or infinity).
    rows : str
        The key of its long list (spaces, features): one item a line keeps
        the file short and its changes readable line by line.

    Returns
    -------
    str
        The text, ending with a newline.

    Examples
    --------
    >>> print(json_text({"b": [1, {"y": 2, "x": 1}], "a": "z"}, "b"), end="")
    {
     "a": "z",
     "b": [
      1,
      {"x": 1, "y": 2}
     ]
    }
    """
    fields = []
    for key in sorted(doc):
        if key == rows:
            items = ",\n".join(
                f"  {json.dumps(item, sort_keys=True, allow_nan=False)}" for item in doc[key]
            )
            value = f"[\n{items}\n ]"
        else:
            value = json.dumps(doc[key], sort_keys=True, allow_nan=False)
        fields.append(f" {json.dumps(key)}: {value}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def make_examples(folder: str | Path = EXAMPLES) -> list[Path]:
    """Write the example boards into a folder.

    Parameters
    ----------
    folder : str or Path, optional
        Where to write them (made if missing); by default ``examples/``.

    Returns
    -------
    list of Path
        The files written, in the order of :data:`FILES`.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    board = stadium(grid_spots=GRID_SPOTS)
    dat, tts, geojson = (out / name for name in FILES)
    dat.write_text(gponline_text(board), encoding="utf-8", newline="\n")
    tts.write_text(json_text(tts_document(board), "spaces"), encoding="utf-8", newline="\n")
    collection = track_to_geojson(import_track(dat))
    geojson.write_text(json_text(collection, "features"), encoding="utf-8", newline="\n")
    return [dat, tts, geojson]


def main(argv: Sequence[str] | None = None) -> int:
    """Write the examples, into the folder named on the command line or ``examples/``.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (by default those of the process).

    Returns
    -------
    int
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folder", nargs="?", default=str(EXAMPLES), help="where to write (default: examples/)"
    )
    args = parser.parse_args(argv)
    for path in make_examples(args.folder):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
