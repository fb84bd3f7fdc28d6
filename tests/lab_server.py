"""JupyterLab in Debian's chromium for the browser tests: the server, and running a notebook.

The editor, Formula Fun and race-table browser tests each copy what their
notebook needs into a folder, serve it from a JupyterLab of its own
(:func:`jupyter_lab`: a free port, a fresh token, settings that keep JupyterLab's
start-up pop-ups off the page, stopped afterwards), and run every cell
(:func:`run_all_cells`) before they click.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

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
SERVER_START_TIMEOUT = 90.0

# No "get Jupyter news?" pop-up over the page, no "Select Kernel" dialog.
_SETTINGS = {
    "apputils-extension/notification": {"fetchNews": "false"},
    "notebook-extension/tracker": {"autoStartDefaultKernel": True},
}

# JavaScript run in the page: is the notebook's kernel connected and idle?
KERNEL_READY = """
() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext;
  const kernel = session && session.isReady && session.session && session.session.kernel;
  return !!kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
}
"""

# ... and has every code cell run (a number in each prompt, none still "[*]")?
ALL_CELLS_RUN = """
() => {
  const prompts = [...document.querySelectorAll(".jp-CodeCell .jp-InputArea-prompt")];
  return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
}
"""


def require_chromium() -> None:
    """Skip without Debian's chromium; fail instead when the ``CI`` variable is set."""
    if CHROMIUM.exists():
        return
    message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def jupyter_lab(
    root: Path, home: Path, notebook: str, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Serve ``root`` from a JupyterLab of its own; yield the URL of ``notebook`` in it.

    ``notebook`` is the notebook's path inside ``root``; ``home`` holds the
    server's configuration, settings and log; ``env`` adds variables for the
    kernel (e.g. ``FDLAB_QUICK``).
    """
    for plugin, values in _SETTINGS.items():
        file = home / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(values))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = secrets.token_hex(16)
    variables = dict(
        os.environ,
        **(env or {}),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
    )
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
    log_path = home / "jupyter.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            command,
            cwd=root,
            env=variables,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_for_server(url, token, server, log_path)
            yield f"{url}/lab/tree/{notebook}?token={token}"
        finally:
            _stop(server)


def run_all_cells(page: Any, url: str, timeout_ms: int) -> None:
    """Open the notebook at ``url`` in ``page``, run every cell, wait for the kernel."""
    page.set_default_timeout(timeout_ms)
    page.goto(url)
    run_cells(page)


def run_cells(page: Any, runs: int = 1) -> None:
    """Run the open notebook's cells (their ``runs``-th run in that kernel) and wait for them.

    For a notebook opened by ``page.goto``, or opened again after its tab was closed
    (``runs=2``: the prompts must show the second run, not the first one's output).
    """
    page.wait_for_function(KERNEL_READY)
    # not awaited: the command's promise settles only when every cell has run
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(ALL_CELLS_RUN)
    if runs > 1:
        page.wait_for_function(
            "(n) => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
            ".every((p) => p.textContent.includes(`[${n}]`))",
            arg=runs,
        )
    page.wait_for_function(KERNEL_READY)


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
