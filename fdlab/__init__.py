"""fdlab: design, playtest and teach Formula D race circuits in JupyterLab.

The front door: ``import fdlab as fd`` gives the verbs a user starts from,
each imported on first use, so ``import fdlab`` itself loads nothing heavy
(no networkx, Bokeh, ipywidgets or bots until a name is used).

==================  ===============================================================
``load_track``      a board from a track file (``tracks/monaco.json``)
``build_track``     a board from a circuit centreline (GeoJSON or drawn points)
``validate``        every problem of a board at once, each naming its spaces
``import_track``    a board of other software (GP Online ``.dat``, Tabletop Simulator)
``Race``            a race to play move by move; ``race.play_bots(["par", None])``
``RaceTable``       the race table widget: people and bots at one screen
``TrackEditor``     the track editor widget
``playtest``        many races between bots, on every core
``solve_par``       the exact solo par of a board
``print_board``     a board at real size as a PDF, to print and play
``make_bot``        a bot by name (``"par"``, ``"heuristic:bold"``) for a race
``Game``            Formula Fun, the championship card game
==================  ===============================================================

Examples
--------
>>> import fdlab as fd
>>> race = fd.Race(fd.load_track("tracks/training.json"), cars=2, seed=3)
>>> _ = race.play_bots(["heuristic", "random"])
>>> race.over
True
"""

from typing import TYPE_CHECKING

from fdlab._lazy import lazy_exports

__version__ = "0.1.0"

#: The front door's names and the modules that define them (imported on first use).
FRONT_DOOR = {
    "load_track": "fdlab.track.io",
    "build_track": "fdlab.track.build",
    "validate": "fdlab.track.validate",
    "import_track": "fdlab.track.formats",
    "Race": "fdlab.rules.race",
    "RaceTable": "fdlab.table.widget",
    "TrackEditor": "fdlab.editor.widgets",
    "playtest": "fdlab.analysis.playtest",
    "solve_par": "fdlab.par.solve",
    "print_board": "fdlab.plot.printing",
    "make_bot": "fdlab.bots.roster",
    "Game": "fdlab.fun.game",
}

__all__ = [
    "Game",
    "Race",
    "RaceTable",
    "TrackEditor",
    "__version__",
    "build_track",
    "import_track",
    "load_track",
    "make_bot",
    "playtest",
    "print_board",
    "solve_par",
    "validate",
]

if TYPE_CHECKING:
    from fdlab.analysis.playtest import playtest
    from fdlab.bots.roster import make_bot
    from fdlab.editor.widgets import TrackEditor
    from fdlab.fun.game import Game
    from fdlab.par.solve import solve_par
    from fdlab.plot.printing import print_board
    from fdlab.rules.race import Race
    from fdlab.table.widget import RaceTable
    from fdlab.track.build import build_track
    from fdlab.track.formats import import_track
    from fdlab.track.io import load_track
    from fdlab.track.validate import validate

__getattr__, __dir__ = lazy_exports(__name__, globals(), FRONT_DOOR)
