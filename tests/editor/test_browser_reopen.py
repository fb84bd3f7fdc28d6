"""The board is drawn again after the notebook's page is opened anew on a running kernel.

A designer closes the notebook's tab (or reloads the page) and opens it
again; the kernel still runs, so the page has lost BokehJS but the kernel
had sent it already. Running the cell again must draw the board, not fail
with "Could not create a view" (the kernel tells a new page by its widget
control channel, :func:`fdlab._shell.load_bokehjs`).

Needs ``/usr/bin/chromium``; without it the test skips, or fails when the
``CI`` variable is set.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lab_server import (
    CHROMIUM,
    CHROMIUM_ARGS,
    jupyter_lab,
    require_chromium,
    run_all_cells,
    run_cells,
)

REPO = Path(__file__).resolve().parents[2]
STEP_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.browser

CELL = (
    "from fdlab.editor import TrackEditor\n"
    "editor = TrackEditor.open('../tracks/training.json', verdict=False)\n"
    "editor"
)


def _notebook(path: Path) -> None:
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": []}
    notebook = {
        "cells": [{**cell, "source": CELL}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def test_the_board_is_drawn_again_in_a_page_opened_anew(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    require_chromium()
    root = tmp_path / "lab"
    (root / "notebooks").mkdir(parents=True)
    (root / "tracks").mkdir()
    shutil.copy(REPO / "tracks" / "training.json", root / "tracks" / "training.json")
    _notebook(root / "notebooks" / "reopen.ipynb")
    with (
        jupyter_lab(root, tmp_path / "home", "notebooks/reopen.ipynb") as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        try:
            run_all_cells(page, url, STEP_TIMEOUT_MS)
            page.locator(".fdlab-editor canvas").first.wait_for()
            page.goto(url)  # the tab opened again: a new page, the same kernel
            run_cells(page, runs=2)
            page.locator(".fdlab-editor canvas").first.wait_for()
            assert not [e for e in errors if "Could not create a view" in e], errors
        finally:
            browser.close()
