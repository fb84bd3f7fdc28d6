"""The rules text in the repository: every clause id once, and links that stay in the repository."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "docs" / "rules.md"
CLAUSE = re.compile(r"\b([GTMCDSPXAR]-\d+)\b")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_rules_text_defines_every_clause_once():
    defined = re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", RULES.read_text(encoding="utf-8"), re.M)
    assert len(defined) == len(set(defined)), "a clause is defined twice"
    groups = {prefix: sorted(int(c.split("-")[1]) for c in defined if c.split("-")[0] == prefix)
              for prefix in "GTMCDSPXAR"}  # fmt: skip
    for prefix, numbers in groups.items():
        assert numbers == list(range(1, len(numbers) + 1)), f"{prefix}: {numbers}"
    assert len(defined) == 61  # G5 T4 M7 C6 D6 S5 P7 X6 A10 R5


def test_every_clause_the_tests_name_is_in_the_rules_text():
    defined = set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", RULES.read_text(encoding="utf-8"), re.M))
    named = set()
    for path in (REPO / "tests" / "rules").rglob("*.py"):
        named |= set(CLAUSE.findall(path.read_text(encoding="utf-8")))
    assert named - defined == set()


def test_the_readme_and_the_docs_link_only_files_of_the_repository():
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address, not a file
            resolved = (page.parent / target).resolve()
            assert resolved.is_relative_to(REPO), f"{page.name} links {target}, outside the repo"
            assert resolved.exists(), f"{page.name} links {target}, which does not exist"


def test_the_lessons_and_the_table_point_at_the_rules_text():
    lessons = (REPO / "notebooks" / "learn-the-rules.ipynb").read_text(encoding="utf-8")
    assert "../docs/rules.md" in lessons
    assert "../docs/rules.md" in (REPO / "notebooks" / "play-a-race.ipynb").read_text()
    from fdlab.table.widget import RULES_FILE, rules_link

    assert (REPO / RULES_FILE).exists()
    # a table in a notebook of the repository links the rules text relative to it
    link = rules_link(REPO / "notebooks")
    assert link == "../docs/rules.md" and (REPO / "notebooks" / link).resolve() == RULES.resolve()


def test_the_table_help_line_links_the_rules_from_the_notebook_folder(monkeypatch):
    from fdlab.rules import Race
    from fdlab.table import RaceTable
    from fdlab.track import from_ascii

    race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=1)
    monkeypatch.chdir(REPO / "notebooks")
    (output,) = RaceTable(race, ["person", "heuristic"]).help_line.outputs
    assert "[docs/rules.md](../docs/rules.md)" in output["data"]["text/markdown"]
    monkeypatch.chdir("/")  # no repository around: the path in words, no dead link
    (output,) = RaceTable(race, ["person", "heuristic"]).help_line.outputs
    assert "](" not in output["data"]["text/markdown"]
    assert "`docs/rules.md` in the fdlab repository" in output["data"]["text/markdown"]
