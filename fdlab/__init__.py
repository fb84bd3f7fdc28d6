"""fdlab: design, playtest and teach Formula D race circuits in JupyterLab."""

__version__ = "0.1.0"
