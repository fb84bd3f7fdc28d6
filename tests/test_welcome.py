"""The welcome notebook is the front door: it leads to every other notebook, by links that work."""

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WELCOME = NOTEBOOKS / "welcome.ipynb"

# A markdown link or image: [text](target), [text](<target>) or [text](target "title").
MARKDOWN_LINK = re.compile(r"!?\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+[\"'][^)]*[\"'])?\s*\)")


def markdown_links(notebook: Path) -> list[str]:
    """Every link target written in the markdown cells of ``notebook``, in order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join(
        "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for cell in cells
        if cell["cell_type"] == "markdown"
    )
    return [bracketed or bare for bracketed, bare in MARKDOWN_LINK.findall(text)]


def relative_links(notebook: Path) -> list[str]:
    """The links of ``notebook`` to files beside it: no scheme, no host, not a bare #anchor."""
    found = []
    for link in markdown_links(notebook):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        found.append(unquote(parts.path))
    return found


def other_notebooks() -> list[str]:
    """The names of the notebooks in ``notebooks/`` besides the welcome notebook."""
    return sorted(path.name for path in NOTEBOOKS.glob("*.ipynb") if path != WELCOME)


def test_the_notebooks_folder_has_notebooks_besides_welcome():
    assert other_notebooks(), f"no notebook besides {WELCOME.name} in {NOTEBOOKS}"


@pytest.mark.parametrize("name", other_notebooks())
def test_welcome_links_to_every_notebook(name):
    linked = {(NOTEBOOKS / link).resolve() for link in relative_links(WELCOME)}
    assert NOTEBOOKS / name in linked, f"{WELCOME.name} has no markdown link to {name}"


def test_every_relative_link_in_welcome_points_to_a_file_that_exists():
    links = relative_links(WELCOME)
    assert links, f"{WELCOME.name} has no relative links"
    missing = [link for link in links if not (NOTEBOOKS / link).exists()]
    assert not missing, f"{WELCOME.name} links to files that do not exist: {missing}"
