"""The Formula Fun table in a real browser: JupyterLab in Debian's chromium, via Playwright.

Serves a temporary copy of ``notebooks/formula-fun.ipynb`` from a fresh
JupyterLab, runs every cell (``FDLAB_QUICK=1``, so the study is small), then
plays a few moves in the widget table as a person would: pick an entry in the
list, press *Play*, read the board, whose decision it is and the log, then open
the rules panel. Screenshots are kept in ``test-artifacts/``.

Needs ``/usr/bin/chromium``; without it the test skips (fails if ``CI`` is set).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab_server import (
    ALL_CELLS_RUN,
    CHROMIUM,
    CHROMIUM_ARGS,
    KERNEL_READY,
    jupyter_lab,
    require_chromium,
)

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "formula-fun.ipynb"
ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 120_000

pytestmark = pytest.mark.browser


@pytest.fixture
def notebook_url(tmp_path: Path) -> Iterator[str]:
    """URL of the notebook in a JupyterLab of its own (stopped afterwards)."""
    require_chromium()
    root, home = tmp_path / "lab", tmp_path / "home"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOK, root / "notebooks" / NOTEBOOK.name)
    with jupyter_lab(root, home, f"notebooks/{NOTEBOOK.name}", env={"FDLAB_QUICK": "1"}) as url:
        yield url


def test_play_moves_in_the_formula_fun_table(notebook_url: str) -> None:
    """The table shows standings, market and hand; pressing Play plays the chosen move."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
        )
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.goto(notebook_url)
            page.wait_for_function(KERNEL_READY, timeout=TIMEOUT_MS)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_function(ALL_CELLS_RUN, timeout=4 * TIMEOUT_MS)

            table = page.locator(".fdlab-fun-table").first
            expect(table).to_contain_text("Standings")
            expect(table).to_contain_text("Your decision")
            expect(table).to_contain_text("Market:")
            expect(table).to_contain_text("Your hand:")
            choices = table.locator(".widget-select select")
            play = table.get_by_role("button", name="Play")
            log = table.locator(".fdlab-fun-log ul")

            played = []
            for _ in range(8):
                options = choices.locator("option").all_text_contents()
                if not options:
                    break
                plain = [o.replace("\xa0", " ") for o in options]
                pick = next(
                    (o for o in ("End the turn", "Pass", "Draw 1 card (free)") if o in plain),
                    plain[0],
                )
                choices.select_option(index=plain.index(pick))
                before = log.inner_text()
                play.click()
                expect(log).not_to_have_text(before)
                played.append(pick)
            text = table.inner_text()
            assert not re.search(r"FF-\d+:", text), text  # no move was refused
            assert len(played) == 8
            assert re.search(r"You (pass|draw|bid)\b|turn \d+: P2 \(manager bot\)", text)
            assert not re.search(r"You (passes|draws|bids|pays)\b", text)
            header = table.locator(".fdlab-fun-header")  # the one header, at the top
            expect(header).to_contain_text("Your decision")  # whose decision it is
            ARTIFACTS.mkdir(exist_ok=True)
            header.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "formula-fun-table.png"))

            # the rules are at hand: the panel opens on the rules text, clause by clause
            table.get_by_text("Rules of Formula Fun (FF-1 to FF-17)").click()
            rules = table.get_by_text("FF-17", exact=True)
            expect(rules).to_be_visible()
            expect(table).to_contain_text("Cars of equal value: the player with more cards")
            rules.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "formula-fun-rules.png"))
        finally:
            browser.close()
