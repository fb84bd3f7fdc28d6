"""Playtests and solvers: exact solo par, Monte Carlo races, circuit analytics.

* :func:`solve_par`: the exact solo par of a board and its optimal policy
  (from :mod:`fdlab.par`);
* :func:`playtest`: many races between bots, on every core or a Dask cluster,
  as tidy tables;
* :func:`circuit_report`: where the circuit bites, drawn on the board;
* :func:`compare_playtests`: two versions of a circuit, the differences that
  are more than luck;
* :func:`suggest`: concrete changes, measured, that bring a circuit toward
  its :class:`Targets`.

The solver, report and comparison are imported on first use, so a
playtest's worker process loads only what a race needs (not scipy.stats).
:func:`playtest` is imported at once: its name is also its module's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fdlab._lazy import lazy_exports
from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.playtest import PlaytestResult, playtest

if TYPE_CHECKING:
    from fdlab.analysis.compare import Comparison, compare_playtests
    from fdlab.analysis.report import CircuitReport, circuit_report
    from fdlab.analysis.suggestions import Suggestions, Targets, suggest
    from fdlab.par import ParSolution, SoloModel, SoloModelError, solve_par

__all__ = [
    "CircuitReport",
    "Comparison",
    "ParSolution",
    "PlaytestError",
    "PlaytestResult",
    "SoloModel",
    "SoloModelError",
    "Suggestions",
    "Targets",
    "circuit_report",
    "compare_playtests",
    "playtest",
    "solve_par",
    "suggest",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    {
        "CircuitReport": "fdlab.analysis.report",
        "Comparison": "fdlab.analysis.compare",
        "circuit_report": "fdlab.analysis.report",
        "compare_playtests": "fdlab.analysis.compare",
        "Suggestions": "fdlab.analysis.suggestions",
        "Targets": "fdlab.analysis.suggestions",
        "suggest": "fdlab.analysis.suggestions",
        # the solver lives in fdlab.par (below the bots); named here too for playtests
        "ParSolution": "fdlab.par",
        "SoloModel": "fdlab.par",
        "SoloModelError": "fdlab.par.errors",
        "solve_par": "fdlab.par",
    },
)
