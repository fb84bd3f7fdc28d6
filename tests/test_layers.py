"""The layers of fdlab, read from the imports themselves (ast), never guessed.

Two towers stand on the track model: the pictures and the editor
(``track -> plot -> editor``) and the game (``track -> rules -> par -> bots ->
analysis``), and the race table (``fdlab.table``) on both towers' tops;
Formula Fun stands beside them on ``championship``; the
``fdlab`` command sits on top. A module may import its own package and the
packages below it (:data:`ALLOWED`). Display code of a lower layer may reach
a picture only lazily, inside a ``_repr_*`` method (:data:`DISPLAY`); the
analysis layer may also draw its reports lazily from any function. The rules
engine and what builds on it never import Bokeh or ipywidgets at all except
lazily for display.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "fdlab"

#: Always allowed: the package root, the error root, atomic files, untrusted input, lazy
#: exports and the text of messages.
BASE = {"fdlab", "fdlab.errors", "fdlab.files", "fdlab.untrusted", "fdlab._lazy", "fdlab._text"}

#: Layer -> the layers it may import (besides itself and :data:`BASE`).
ALLOWED: dict[str, set[str]] = {
    "fdlab": set(),
    "fdlab.files": set(),
    "fdlab.untrusted": set(),
    "fdlab.errors": set(),
    "fdlab._lazy": set(),
    "fdlab._text": set(),
    # the shared game log (a bottom layer: the games' logs build on it)
    "fdlab.shared_log": set(),
    "fdlab.track": set(),
    "fdlab._shell": {"fdlab.plot"},  # BokehJS on the page: fdlab.plot.notebook
    "fdlab.plot": {"fdlab.track"},
    # the editor shows the default bot's verdict beside the board (analysis, lazily)
    "fdlab.editor": {
        "fdlab._shell",
        "fdlab.analysis",
        "fdlab.bots",
        "fdlab.par",
        "fdlab.plot",
        "fdlab.rules",
        "fdlab.track",
    },
    "fdlab.rules": {"fdlab.track"},
    "fdlab.par": {"fdlab.rules", "fdlab.track"},
    "fdlab.bots": {"fdlab.par", "fdlab.rules", "fdlab.track"},
    "fdlab.analysis": {"fdlab.bots", "fdlab.par", "fdlab.rules", "fdlab.track"},
    "fdlab.table": {
        "fdlab._shell",
        "fdlab.bots",
        "fdlab.par",
        "fdlab.plot",
        "fdlab.rules",
        "fdlab.shared_log",
        "fdlab.track",
    },
    "fdlab.championship": set(),
    "fdlab.fun": {"fdlab._shell", "fdlab.championship", "fdlab.shared_log"},
    "fdlab.cli": {
        "fdlab.analysis",
        "fdlab.bots",
        "fdlab.editor",
        "fdlab.par",
        "fdlab.plot",
        "fdlab.rules",
        "fdlab.track",
    },
    "fdlab.__main__": {"fdlab.cli"},
}

#: Layer -> what its display code may import lazily (inside ``_repr_*``; anywhere for analysis).
DISPLAY: dict[str, set[str]] = {
    "fdlab.track": {"fdlab.plot"},
    "fdlab.rules": {"fdlab.plot"},
    "fdlab.par": {"fdlab.plot"},
    "fdlab.bots": {"fdlab.plot"},
    "fdlab.analysis": {"fdlab.plot"},
}

#: Third-party user-interface packages, display only below the editor and the plots.
UI = {"bokeh", "ipywidgets", "jupyter_bokeh", "IPython"}

#: Layers that may import the UI packages anywhere.
UI_LAYERS = {"fdlab._shell", "fdlab.plot", "fdlab.editor", "fdlab.fun", "fdlab.table", "fdlab.cli"}


def layer_of(module: str) -> str:
    """``fdlab.rules.engine`` -> ``fdlab.rules``; ``fdlab.cli`` -> ``fdlab.cli``."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str | None = None) -> list[tuple[str, int, str | None]]:
    """Every import of a file: (imported module, line, enclosing function or None).

    ``name`` is the file's module name (default: from its place in the
    package). Imports under ``if TYPE_CHECKING:`` are skipped (they never run).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = module_name(path) if name is None else name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, function)
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, function or child.name)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = package.split(".")
                    base = parts[: len(parts) - child.level + 1]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                found.append((target, child.lineno, function))
            visit(child, function)

    visit(tree, None)
    return found


def _is_display(layer: str, function: str | None) -> bool:
    """Code that draws: a ``_repr_*`` method, or any function of the analysis layer."""
    return function is not None and (function.startswith("_repr_") or layer == "fdlab.analysis")


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_layer_is_in_the_table():
    layers = {layer_of(module_name(path)) for path in SOURCES}
    assert layers <= set(ALLOWED), f"add {sorted(layers - set(ALLOWED))} to ALLOWED"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_imports_go_down_the_layers(path):
    """Every fdlab import of a module points at its own layer or one below it."""
    me = layer_of(module_name(path))
    wrong = []
    for name, line, function in imports(path):
        top = name.split(".")[0]
        if top in UI and me not in UI_LAYERS:
            if not _is_display(me, function):
                wrong.append(f"line {line}: {name} (a UI package; only lazily, for display)")
            continue
        if top != "fdlab":
            continue
        target = layer_of(name)
        if target == me or target in BASE or target in ALLOWED[me]:
            continue
        if target in DISPLAY.get(me, set()) and _is_display(me, function):
            continue
        where = f"inside {function}()" if function else "at module level"
        wrong.append(f"line {line}: {name} {where}")
    assert not wrong, f"{me} may not import these:\n" + "\n".join(wrong)


def test_the_checker_reads_lazy_relative_and_type_checking_imports(tmp_path):
    """The reader finds function-level and relative imports and skips TYPE_CHECKING blocks."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "from .movement import MoveRules\n"
        "if TYPE_CHECKING:\n    from fdlab.analysis import playtest\n"
        "def _repr_html_(self):\n    from fdlab.plot import track_svg\n"
        "def helper():\n    import bokeh.plotting\n"
    )
    found = [(name, function) for name, _, function in imports(probe, "fdlab.rules.probe")]
    assert found == [
        ("typing", None),
        ("fdlab.rules.movement", None),
        ("fdlab.plot", "_repr_html_"),
        ("bokeh.plotting", "helper"),
    ]
