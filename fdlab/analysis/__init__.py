"""Playtests and solvers: exact solo par, Monte Carlo races, circuit analytics.

* :func:`solve_par`: the exact solo par of a board and its optimal policy;
* :func:`playtest`: many races between bots, on every core or a Dask cluster,
  as tidy tables;
* :func:`circuit_report`: where the circuit bites, drawn on the board;
* :func:`compare_playtests`: two versions of a circuit, the differences that
  are more than luck.
"""

from fdlab.analysis.compare import Comparison, compare_playtests
from fdlab.analysis.par import ParSolution, solve_par
from fdlab.analysis.playtest import PlaytestError, PlaytestResult, playtest
from fdlab.analysis.report import CircuitReport, circuit_report
from fdlab.analysis.solo_model import SoloModel, SoloModelError

__all__ = [
    "CircuitReport",
    "Comparison",
    "ParSolution",
    "PlaytestError",
    "PlaytestResult",
    "SoloModel",
    "SoloModelError",
    "circuit_report",
    "compare_playtests",
    "playtest",
    "solve_par",
]
