"""Playtests and solvers: exact solo par, Monte Carlo races, circuit analytics.

* :func:`solve_par`: the exact solo par of a board and its optimal policy;
* :func:`playtest`: many races between bots, on every core or a Dask cluster,
  as tidy tables;
* :func:`circuit_report`: where the circuit bites, drawn on the board;
* :func:`compare_playtests`: two versions of a circuit, the differences that
  are more than luck.

The solver, report and comparison are imported on first use, so a
playtest's worker process loads only what a race needs (not scipy.stats).
:func:`playtest` is imported at once: its name is also its module's.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from fdlab.analysis.playtest import PlaytestError, PlaytestResult, playtest

if TYPE_CHECKING:
    from fdlab.analysis.compare import Comparison, compare_playtests
    from fdlab.analysis.par import ParSolution, solve_par
    from fdlab.analysis.report import CircuitReport, circuit_report
    from fdlab.analysis.solo_model import SoloModel, SoloModelError

#: Public name -> the module that defines it.
_HOMES = {
    "CircuitReport": "report",
    "Comparison": "compare",
    "ParSolution": "par",
    "SoloModel": "solo_model",
    "SoloModelError": "solo_model",
    "circuit_report": "report",
    "compare_playtests": "compare",
    "solve_par": "par",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'fdlab.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"fdlab.analysis.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
