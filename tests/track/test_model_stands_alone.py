"""The track model's modules never import the board builder (issue 9, item 7).

``fdlab.track`` hands out the builder's names lazily (:func:`fdlab._lazy.lazy_exports`);
no module of the model imports it by a statement that runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TRACK = Path(__file__).resolve().parents[2] / "fdlab" / "track"
MODEL_MODULES = sorted(TRACK.glob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` of ``path`` names, at any depth.

    Imports under ``if TYPE_CHECKING:`` never run (they name types for checkers) and are skipped.
    """
    found = set()
    tree = ast.parse(path.read_text(), filename=str(path))
    for block in ast.walk(tree):
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test):
            block.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_model_is_the_modules_beside_the_builder_package():
    names = {path.stem for path in MODEL_MODULES}
    assert {"model", "io", "validate", "corners"} <= names
    assert (TRACK / "build" / "__init__.py").is_file()


@pytest.mark.parametrize("path", MODEL_MODULES, ids=lambda path: path.name)
def test_a_model_module_does_not_import_the_builder(path):
    builder = {
        name
        for name in imported_modules(path)
        if name == "fdlab.track.build" or name.startswith("fdlab.track.build.")
    }
    assert not builder, f"{path.name} imports {sorted(builder)}"


def test_the_check_sees_an_import_of_the_builder(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from fdlab.track import build\n")
    assert "fdlab.track.build" in imported_modules(module)
