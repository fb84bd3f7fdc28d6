"""A teacher serves a race to a class with ``fdlab class``; two students play it (issue 27).

``fdlab class sprint.json`` starts a shared race and serves the class page
with Voila. Two browser contexts are two students:

- Ana opens the address the command printed: the page shows the race, its
  cars and who drives them, and no code; she types her name, keeps the car
  offered (Blue) and joins;
- Ben opens a link that carries his name and car (``?name=Ben&seat=Red``)
  and is at the table at once;
- they play from their own pages, each seeing the other's moves; mid-race
  Ben closes his tab, opens the address again with his name only, and finds
  the race where it is, Red still his;
- they play to the end: the race the log holds is the race a hot-seat table
  plays with the same decisions.

Screenshots: ``test-artifacts/class-lobby.png`` (the page before joining),
``class-ana.png`` and ``class-ben.png`` (the end). Needs
``/usr/bin/chromium`` and Voila (the ``class`` extra).
"""

from __future__ import annotations

import os
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
from lab_server import CHROMIUM, CHROMIUM_ARGS, require_chromium
from shared_players import BOARD_DRAWN, SEATS, SEED, Seat, hot_seat, play_until, sprint

from fdlab.table import SharedTable
from fdlab.track import save_track

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 60_000

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def class_app(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The address ``fdlab class`` serves the sprint at, and its game log."""
    require_chromium()
    pytest.importorskip("voila", reason="the class app needs Voila: pip install 'fdlab[class]'")
    board, log = tmp_path / "sprint.json", tmp_path / "class.log"
    save_track(sprint(), board)
    port = _free_port()
    home = tmp_path / "home"
    variables = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    command = [
        sys.executable, "-m", "fdlab", "class", str(board), "--seats", ",".join(SEATS),
        "--seed", str(SEED), "--game", str(log), "--port", str(port), "--ip", "127.0.0.1",
    ]  # fmt: skip
    output = tmp_path / "class.out"
    with output.open("wb") as out:
        server = subprocess.Popen(
            command, cwd=tmp_path, env=variables, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{port}/"
            deadline = time.monotonic() + 90
            while not _answers(f"{url}voila/static/voila.js"):
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"fdlab class did not serve:\n{output.read_text()[-3000:]}")
                time.sleep(0.3)
            printed = output.read_text()
            assert f"Students open: http://127.0.0.1:{port}/" in printed, printed
            yield url, log
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=5)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def _open(context, url: str):
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS * 2)
    page.goto(url)
    return page


def test_a_class_plays_a_race_served_by_fdlab_class(class_app: tuple[str, Path]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, log = class_app
    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        contexts = {p: browser.new_context(viewport={"width": 1366, "height": 768}) for p in "AB"}
        pages = {}
        try:
            # Ana: the page, its race and cars, no code; her name, the car offered, Join
            page = pages["Ana"] = _open(contexts["A"], url)
            lobby = page.locator(".fdlab-class-lobby")
            expect(lobby).to_contain_text("Formula D: Sprint")
            expect(lobby).to_contain_text("Blue: free · Red: free · Green: bot (heuristic)")
            assert page.locator(".jp-InputArea, .jp-Cell-inputWrapper").count() == 0
            assert "class_page" not in page.content()  # the cell's code never reaches the page
            page.screenshot(path=str(ARTIFACTS / "class-lobby.png"))
            lobby.locator(".fdlab-class-join").click()
            expect(lobby).to_contain_text("type your name first")
            lobby.locator(".fdlab-class-name input").fill("Ana")
            expect(lobby.locator(".fdlab-class-seat select")).to_have_value(
                lobby.locator(".fdlab-class-seat option", has_text="Blue").get_attribute("value")
            )
            lobby.locator(".fdlab-class-join").click()
            ana = Seat(page, "Ana")
            page.wait_for_function(BOARD_DRAWN)
            expect(ana.table.locator(".fdlab-owners")).to_contain_text("Blue: Ana (you)")

            # Ben: a link with his name and car takes him to the table at once
            page = pages["Ben"] = _open(contexts["B"], f"{url}?name=Ben&seat=Red")
            ben = Seat(page, "Ben")
            page.wait_for_function(BOARD_DRAWN)
            expect(ben.table.locator(".fdlab-owners")).to_contain_text("Blue: Ana · Red: Ben (you)")
            expect(ana.table.locator(".fdlab-owners")).to_contain_text("Red: Ben")

            ana.table.locator("button.fdlab-roll-grid").click()
            for seat in (ana, ben):
                expect(seat.log).to_contain_text("Grid roll")
            play_until([ana, ben], lambda: "Red moves" in ana.log.inner_text() and ana.on_turn(),
                       time.monotonic() + 60)  # fmt: skip

            # Ben closes his tab and comes back with his name only: Red is his, the race on
            pages["Ben"].close()
            page = pages["Ben"] = _open(contexts["B"], f"{url}?name=Ben")
            ben = Seat(page, "Ben")
            page.wait_for_function(BOARD_DRAWN)
            expect(ben.table.locator(".fdlab-owners")).to_contain_text("Red: Ben (you)")
            expect(ben.log).to_have_text(ana.log.inner_text())

            play_until([ana, ben], lambda: "The race is over" in ana.prompt.inner_text(),
                       time.monotonic() + 90)  # fmt: skip
            expect(ben.prompt).to_contain_text("The race is over")
            expect(ben.log).to_have_text(ana.log.inner_text())
            for seat in (ana, ben):
                assert "Error" not in seat.message.inner_text()
        finally:
            for player, page in pages.items():
                if not page.is_closed():
                    page.screenshot(path=str(ARTIFACTS / f"class-{player.lower()}.png"))
            browser.close()
    print(f"a class race to the end: {time.monotonic() - started:.1f} s")
    table = SharedTable.join(log, "Referee")
    assert table.race.over and table.owners == ["Ana", "Ben", None]
    assert table.race.actions == hot_seat()
