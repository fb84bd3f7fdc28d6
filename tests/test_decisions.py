"""Every decision where the rules are silent is written once and indexed (issue 9, item 9).

The words of a decision live in the docstring of the code that applies it,
after the marker ``Decision (CLAUSE)``; ``docs/decisions.md`` indexes them
in a table (clause, decision, where). This test reads both ways: every
marker in the code has its row, and every row points at a docstring that
holds a marker with those clauses.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "fdlab"
INDEX = ROOT / "docs" / "decisions.md"
MARKER = re.compile(r"Decision \(([^)]+)\)")
ROW = re.compile(r"^\| ([^|]+) \| [^|]+ \| `([\w.]+)` \|$")


def clauses(text: str) -> frozenset[str]:
    return frozenset(part.strip() for part in text.split(","))


def markers_in_code() -> set[tuple[str, frozenset[str]]]:
    """(qualified name, clauses) of every ``Decision (...)`` in a docstring of fdlab."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def visit(node: ast.AST, prefix: str) -> None:
            doc = ast.get_docstring(node, clean=False) if hasattr(node, "body") else None
            for match in MARKER.finditer(doc or ""):
                found.add((prefix, clauses(match.group(1))))
            for child in getattr(node, "body", []):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    visit(child, f"{prefix}.{child.name}")

        visit(tree, module)
    return found


def rows_in_index() -> set[tuple[str, frozenset[str]]]:
    rows = set()
    for line in INDEX.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line.strip())
        if match and match.group(1) != "clause":
            rows.add((match.group(2), clauses(match.group(1))))
    return rows


def test_every_decision_in_the_code_is_indexed():
    missing = markers_in_code() - rows_in_index()
    assert not missing, "add these rows to docs/decisions.md: " + ", ".join(
        f"{', '.join(sorted(ids))} -> {where}" for where, ids in sorted(missing)
    )


def test_every_indexed_decision_is_written_where_the_index_says():
    stale = rows_in_index() - markers_in_code()
    assert not stale, "no 'Decision (...)' docstring marker for: " + ", ".join(
        f"{', '.join(sorted(ids))} -> {where}" for where, ids in sorted(stale)
    )


def test_the_index_has_the_rules_decisions():
    """A sanity check that the reader finds the table (a parse that finds nothing passes nothing)."""
    rows = rows_in_index()
    assert len(rows) >= 15
    assert ("fdlab.rules.engine.Engine._move", frozenset({"C-2"})) in rows
