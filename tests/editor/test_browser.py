"""The editor in a real browser: JupyterLab in Debian's chromium, driven by Playwright.

Opens ``notebooks/design-a-circuit.ipynb`` in a fresh JupyterLab serving a
temporary copy of the notebook and of ``tracks/`` and runs it. One test
draws a lap with the mouse in the notebook's blank editor (Poly Draw tool)
and rebuilds the board from it. The other, in its last
editor (a shipped board opened from ``../tracks/``) clicks a corner space on
the Bokeh canvas, changes the corner's stop count with the *Stops*
dropdown, presses *Save* and reads the saved file. Screenshots are kept in
``test-artifacts/`` (``editor-browser.png``, ``editor-draw.png``).

Needs ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run`` does
it). Without it the test skips, or fails when the ``CI`` variable is set.
"""

from __future__ import annotations

import json
import math
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
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "design-a-circuit.ipynb"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
]
SERVER_START_TIMEOUT = 60.0
STEP_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.browser


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server on a free port serving a copy of the notebook."""
    _require_chromium()
    root = tmp_path / "lab"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOK, root / "notebooks" / NOTEBOOK.name)
    for track in (REPO / "tracks").glob("*.json"):
        (root / "tracks").mkdir(exist_ok=True)
        shutil.copy(track, root / "tracks" / track.name)
    port, token = _free_port(), secrets.token_hex(16)
    home = tmp_path / "home"
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
    )
    # No "get Jupyter news?" pop-up over the plot, no "Select Kernel" dialog.
    for plugin, settings in {
        "apputils-extension/notification": {"fetchNews": "false"},
        "notebook-extension/tracker": {"autoStartDefaultKernel": True},
    }.items():
        file = home / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(settings))
    command = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.port_retries=0",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
        "--LabApp.extension_manager=readonly",
        # If pytest is killed before its teardown, the server still goes away.
        "--MappingKernelManager.cull_idle_timeout=300",
        "--MappingKernelManager.cull_interval=60",
        "--ServerApp.shutdown_no_activity_timeout=300",
    ]  # fmt: skip
    log = (tmp_path / "jupyter.log").open("wb")
    server = subprocess.Popen(
        command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_server(url, token, server, tmp_path / "jupyter.log")
        yield f"{url}/lab/tree/notebooks/{NOTEBOOK.name}?token={token}", root
    finally:
        _stop(server)
        log.close()


def _wait_for_server(url: str, token: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"jupyter lab exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    pytest.fail(
        f"jupyter lab did not answer within {SERVER_START_TIMEOUT:.0f} s:\n{log.read_text()[-3000:]}"
    )


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=5)


# JavaScript run in the page: is the notebook's kernel connected and idle?
_KERNEL_READY = """
() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext;
  const kernel = session && session.isReady && session.session && session.session.kernel;
  return !!kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
}
"""

# ... and has every code cell run (a number in each prompt, none still "[*]")?
_ALL_CELLS_RUN = """
() => {
  const prompts = [...document.querySelectorAll(".jp-CodeCell .jp-InputArea-prompt")];
  return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
}
"""

# The Bokeh view of the editor's figure, the first
# space of a corner in its data source, and that space's centre in page pixels
# computed from the plot's ranges and its frame.
_FIND_CORNER_SPACE = """
() => {
  const plots = document.querySelectorAll(".fdlab-plot");
  const last = plots[plots.length - 1];  // the last editor of the notebook
  const views = window.Bokeh && last ? window.Bokeh.index.roots : [];
  const view = views.find((v) => v.model.name === "fdlab-board" && last.contains(v.el));
  if (!view) return null;
  const spaces = view.model.renderers.find((r) => r.name === "spaces");
  const data = spaces.data_source.data;
  const row = [...data.corner].findIndex((corner) => corner !== null && corner !== undefined);
  if (row < 0) return null;
  const {x_range, y_range} = view.model;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const x = data.x[row], y = data.y[row];
  const px = canvas.left + frame.left + (x - x_range.start) / (x_range.end - x_range.start) * frame.width;
  const py = canvas.top + frame.top + (y_range.end - y) / (y_range.end - y_range.start) * frame.height;
  return {id: data.id[row], corner: data.corner[row], stops: data.stops[row], px, py};
}
"""


# The plot frame of the Bokeh view inside ``editor`` (an element): page position,
# size and data ranges, to turn metres into mouse positions.
_FRAME = """
(editor) => {
  const view = window.Bokeh.index.roots.find(
    (v) => v.model.name === "fdlab-board" && editor.contains(v.el));
  if (!view) return null;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const {x_range, y_range} = view.model;
  return {left: canvas.left + frame.left, top: canvas.top + frame.top,
          width: frame.width, height: frame.height,
          x0: x_range.start, x1: x_range.end, y0: y_range.start, y1: y_range.end};
}
"""


def _run_notebook(page: Any, url: str) -> None:
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(url)
    page.wait_for_function(_KERNEL_READY)
    # not awaited: the command's promise settles only when every cell has run
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(_ALL_CELLS_RUN)
    page.wait_for_function(_KERNEL_READY)


def test_draw_a_centreline_with_the_mouse_and_rebuild(lab: tuple[str, Path]) -> None:
    """In the notebook's blank editor: draw a lap with Poly Draw, rebuild, see the board."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    url, _ = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        try:
            _run_notebook(page, url)
            editors = page.locator(".fdlab-editor")
            blank = editors.evaluate_all(
                "(all) => all.findIndex((e) =>"
                " e.querySelector('.fdlab-status').textContent.includes(' 0 spaces'))"
            )
            assert blank >= 0, "the notebook has no blank editor to draw in"
            editor = editors.nth(blank)
            editor.scroll_into_view_if_needed()
            frame = page.evaluate(_FRAME, editor.element_handle())
            assert frame is not None and all(
                math.isfinite(frame[key]) for key in ("x0", "x1", "y0", "y1")
            ), f"a blank board must offer finite ranges to draw in: {frame}"
            editor.locator("[title='Polygon Draw Tool']").click()
            lap = [(0.2, 0.8), (0.8, 0.8), (0.9, 0.5), (0.8, 0.2), (0.5, 0.3), (0.2, 0.2)]
            points = [
                (frame["left"] + fx * frame["width"], frame["top"] + fy * frame["height"])
                for fx, fy in lap
            ]
            for index, (x, y) in enumerate(points):
                page.mouse.move(x, y)
                if index in (0, len(points) - 1):  # press and hold: first and last point
                    page.mouse.down()
                    page.wait_for_timeout(600)
                    page.mouse.up()
                else:
                    page.mouse.click(x, y)
                page.wait_for_timeout(500)  # two clicks within 300 ms make a double tap
            expect(editor.locator(".fdlab-centreline")).to_contain_text(
                f"Centreline: {len(points)} points"
            )
            editor.locator("button.fdlab-rebuild").click()
            status = editor.locator(".fdlab-status")
            expect(status).to_contain_text("rebuild from a centreline of")
            spaces = int(re.search(r"(\d+) spaces", status.inner_text()).group(1))
            assert spaces > 100, status.inner_text()
            expect(editor.locator(".fdlab-errors")).to_have_text("")
        finally:
            page.screenshot(path=str(ARTIFACTS / "editor-draw.png"))
            browser.close()


def test_edit_a_corner_in_jupyterlab_and_save(lab: tuple[str, Path]) -> None:
    """Click a corner space, set 3 stops with the dropdown, save, read the file."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=STEP_TIMEOUT_MS)

    url, root = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        try:
            _run_notebook(page, url)
            plot = page.locator(".fdlab-plot").last
            plot.scroll_into_view_if_needed()
            page.wait_for_function(_FIND_CORNER_SPACE)
            target = page.evaluate(_FIND_CORNER_SPACE)
            page.mouse.move(target["px"] - 1, target["py"])
            page.mouse.move(target["px"], target["py"])  # hovering shows what the space is
            tooltip = page.locator(".bk-Tooltip").last
            expect(tooltip).to_contain_text(re.compile(rf"space: {target['id']}\b"))
            expect(tooltip).to_contain_text(f"corner {target['corner']}")
            page.mouse.click(target["px"], target["py"])
            selection = page.locator(".fdlab-selection").last
            expect(selection).to_contain_text(f"corner {target['corner']}")
            expect(selection).to_contain_text(str(target["id"]))
            new_stops = 3 if target["stops"] != 3 else 2
            page.locator(".fdlab-stops select").last.select_option(label=str(new_stops))
            status = page.locator(".fdlab-status").last
            expect(status).to_contain_text(f"set stops of corner {target['corner']} to {new_stops}")
            saved_to = page.locator(".fdlab-path input").last.input_value()
            page.locator("button.fdlab-save").last.click()
            expect(status).to_contain_text("saved to")
            # the screenshot shows the whole editor, status line first
            status.evaluate("(element) => element.scrollIntoView({block: 'start'})")
        finally:
            # kept whether the test passed or not: it shows where it stopped
            page.screenshot(path=str(ARTIFACTS / "editor-browser.png"), full_page=True)
            browser.close()

    saved_path = Path(saved_to)
    if not saved_path.is_absolute():  # relative to the notebook's folder, the kernel's cwd
        saved_path = root / "notebooks" / saved_path
    saved = json.loads(saved_path.read_text())
    corners = {entry["id"]: entry for entry in saved["graph"]["corners"]}
    assert corners[target["corner"]]["stops"] == new_stops
    space = next(s for s in saved["spaces"] if s["id"] == target["id"])
    assert space["corner"] == target["corner"]
