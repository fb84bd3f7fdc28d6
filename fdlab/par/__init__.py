"""The exact solo solution of a board: par, and the value of every option.

* :func:`solve_par`: the minimum expected number of turns of one car alone
  on the board (the *par*) by value iteration, and the optimal policy;
* :class:`SoloModel`: that car's positions and option tables, built from the
  engine's own movement and cost functions (:mod:`fdlab.par.model`);
* :func:`solo_table`: the solution as a compact :class:`ParTable`, solved
  once per board content and preset (:mod:`fdlab.par.table`), kept in
  memory and on disk for the next session (:mod:`fdlab.par.store`); presets the
  solver cannot model exactly (street, advanced) are solved as a one-pool
  approximation (:func:`solo_preset`, :mod:`fdlab.par.approx`).

It sits between the rules and the bots: bots are guided by it
(:class:`fdlab.bots.SoloOptimalBot`), playtests measure bots against it.

Examples
--------
>>> ring = from_ascii(". . . . . . . .", closed=True, grid=[0], finish=1)
>>> round(solve_par(ring).par, 2)  # turns for one lap of 8 spaces, starts and stalls included
3.09
"""

from fdlab.par.approx import solo_pool, solo_preset
from fdlab.par.errors import SoloModelError
from fdlab.par.model import FINISHED, OptionRows, SoloModel
from fdlab.par.solve import ParSolution, solve_par
from fdlab.par.table import ParTable, board_key, known_table, solo_table

__all__ = [
    "FINISHED",
    "OptionRows",
    "ParSolution",
    "ParTable",
    "SoloModel",
    "SoloModelError",
    "board_key",
    "known_table",
    "solo_pool",
    "solo_preset",
    "solo_table",
    "solve_par",
]
