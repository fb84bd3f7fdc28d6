"""The code in README.md and docs/*.md runs as written, so it never drifts from fdlab.

Every ``python`` block of a page runs in order in one namespace, from the
repository root, as a reader pasting them into one notebook would; every
``fdlab`` command of a ``bash`` block runs in a temporary folder, and one of
a ``console`` block prints what the page shows; the ``json`` block of the
schema page is a whole track file as fdlab writes it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fdlab.track.io import dumps, track_from_dict

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "examples" / "README.md"]

FENCE = re.compile(r"^```(?P<language>\w*)\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)

#: Commands shortened so that the test run stays quick: the option and the value it gets.
SHORTER = {"playtest": ("--races", "4"), "suggest": ("--races", "2")}

#: Commands that would serve until stopped: the test asks for what they would run instead.
SERVING = {"class": "--print-command"}


def _blocks(page: Path, language: str) -> list[str]:
    """The fenced code blocks of ``page`` in ``language``, in the order they appear."""
    return [
        match["code"]
        for match in FENCE.finditer(page.read_text(encoding="utf-8"))
        if match["language"] == language
    ]


def _name(page: Path) -> str:
    return str(page.relative_to(REPO))


def _commands(page: Path) -> list[str]:
    """The ``fdlab ...`` lines of the page's bash blocks (installs and venvs left out)."""
    return [
        line.split("#")[0].strip()
        for block in _blocks(page, "bash")
        for line in block.splitlines()
        if line.startswith("fdlab ")
    ]


PYTHON_PAGES = [page for page in PAGES if _blocks(page, "python")]


def test_the_readme_has_python_and_command_blocks_to_run():
    """The README shows both: if the fences changed spelling, this test would run nothing."""
    assert REPO / "README.md" in PYTHON_PAGES
    assert any(page.name == "README.md" for page, _, _ in COMMANDS)


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=_name)
def test_every_python_block_of_the_page_runs_in_order(page, monkeypatch):
    monkeypatch.chdir(REPO)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for number, code in enumerate(_blocks(page, "python"), start=1):
        try:
            exec(compile(code, f"{_name(page)}, python block {number}", "exec"), namespace)
        except Exception as error:  # the block's own error, named by page and block
            pytest.fail(f"{_name(page)}, python block {number} fails: {error!r}\n{code}")


def _commands_with_output(page: Path) -> list[tuple[str, str]]:
    """The ``$ fdlab ...`` lines of the page's console blocks, each with the output shown."""
    shown: list[tuple[str, str]] = []
    for block in _blocks(page, "console"):
        for part in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = part.partition("\n")
            if command.startswith("fdlab "):
                shown.append((command.strip(), output.strip()))
    return shown


COMMANDS = [(page, command, None) for page in PAGES for command in _commands(page)]
COMMANDS += [(page, *shown) for page in PAGES for shown in _commands_with_output(page)]


def _run_in(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Run an ``fdlab`` command line in ``folder``, which sees the repository's boards.

    Its files are written in ``folder``; ``tracks/``, ``examples/`` and
    ``circuits/`` are the repository's. Long runs are shortened (``SHORTER``).
    """
    for shared in ("tracks", "examples", "circuits"):
        if not (folder / shared).exists():
            (folder / shared).symlink_to(REPO / shared, target_is_directory=True)
    arguments = shlex.split(command)[1:]
    option, value = SHORTER.get(arguments[0], (None, None))
    if option in arguments:
        arguments[arguments.index(option) + 1] = value
    elif option is not None:
        arguments += [option, value]
    if arguments[0] in SERVING:
        arguments.append(SERVING[arguments[0]])
    return subprocess.run(
        [sys.executable, "-m", "fdlab", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize(
    ("page", "command", "output"), COMMANDS, ids=[f"{_name(p)}: {c}" for p, c, _ in COMMANDS]
)
def test_every_fdlab_command_of_the_page_runs_and_prints_what_the_page_shows(
    page, command, output, tmp_path
):
    done = _run_in(tmp_path, command)
    assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    if "-o" in command.split():
        written = command.split()[command.split().index("-o") + 1]
        assert (tmp_path / written).is_file(), f"{command} did not write {written}"
    if output is not None:
        assert done.stdout.strip() == output, f"{_name(page)} shows other output for {command}"


def test_the_schema_page_example_is_a_whole_track_file_as_fdlab_writes_it():
    (example,) = _blocks(REPO / "docs" / "schema.md", "json")
    track = track_from_dict(json.loads(example))
    assert len(track.graph) == 4
    assert dumps(track) == example
