"""The type annotations are checked: mypy over the package, as pyproject.toml configures it.

Every module is checked strictly (mypy --strict); only libraries without
types are Any (pyproject.toml lists them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors():
    out, err, status = mypy_api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "fdlab")]
    )
    assert status == 0, out + err
