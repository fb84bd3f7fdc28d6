"""Playtests and solvers: exact solo par, Monte Carlo races, circuit analytics."""

from fdlab.analysis.par import ParSolution, solve_par
from fdlab.analysis.solo_model import SoloModel, SoloModelError

__all__ = ["ParSolution", "SoloModel", "SoloModelError", "solve_par"]
