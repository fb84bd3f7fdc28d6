"""The Formula Fun table in a real browser: JupyterLab in Debian's chromium, via Playwright.

Serves a temporary copy of ``notebooks/formula-fun.ipynb`` from a fresh
JupyterLab, runs every cell (``FDLAB_QUICK=1``, so the study is small), then
plays a few moves in the widget table as a person would: pick an entry in the
list, press *Play*, read the board, whose decision it is and the log, then open
the rules panel. Screenshots are kept in ``test-artifacts/``.

Needs ``/usr/bin/chromium``; without it the test skips (fails if ``CI`` is set).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "formula-fun.ipynb"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 120_000

pytestmark = pytest.mark.browser


@pytest.fixture
def notebook_url(tmp_path: Path) -> Iterator[str]:
    """URL of the notebook in a JupyterLab of its own (stopped afterwards)."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    root, home = tmp_path / "lab", tmp_path / "home"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOK, root / "notebooks" / NOTEBOOK.name)
    settings = {  # no news pop-up, no "Select Kernel" dialog
        "apputils-extension/notification": {"fetchNews": "false"},
        "notebook-extension/tracker": {"autoStartDefaultKernel": True},
    }
    for plugin, values in settings.items():
        file = home / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(values))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = secrets.token_hex(16)
    env = dict(
        os.environ,
        FDLAB_QUICK="1",
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
    )
    log_path = tmp_path / "jupyter.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyter",
                "lab",
                "--no-browser",
                "--allow-root",
                "--ip=127.0.0.1",
                f"--port={port}",
                "--ServerApp.port_retries=0",
                f"--IdentityProvider.token={token}",
                f"--ServerApp.root_dir={root}",
                "--LabApp.expose_app_in_browser=True",
                "--LabApp.news_url=None",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                # an orphaned server (pytest killed) goes away by itself
                "--MappingKernelManager.cull_idle_timeout=300",
                "--MappingKernelManager.cull_interval=60",
                "--ServerApp.shutdown_no_activity_timeout=300",
            ],  # fmt: skip
            cwd=root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not start:\n{log_path.read_text()[-3000:]}")
                try:
                    with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.3)
            yield f"{base}/lab/tree/notebooks/{NOTEBOOK.name}?token={token}"
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait(timeout=5)


KERNEL_IDLE = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return !!kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
}"""

EVERY_CELL_RUN = """() => {
  const prompts = [...document.querySelectorAll(".jp-CodeCell .jp-InputArea-prompt")];
  return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
}"""


def test_play_moves_in_the_formula_fun_table(notebook_url: str) -> None:
    """The table shows standings, market and hand; pressing Play plays the chosen move."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.goto(notebook_url)
            page.wait_for_function(KERNEL_IDLE, timeout=TIMEOUT_MS)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_function(EVERY_CELL_RUN, timeout=4 * TIMEOUT_MS)

            table = page.locator(".widget-vbox").filter(has_text="Your move").first
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
            expect(table).to_contain_text("Your decision")  # whose decision it is
            ARTIFACTS.mkdir(exist_ok=True)
            table.get_by_text("Standings").first.scroll_into_view_if_needed()
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
