"""Two players, each in their own browser, race at one shared table (issue 27), in JupyterLab.

One JupyterLab serves a folder with a shared game log (``race.log``: a small
two-lane sprint, Blue and Red for people, Green a heuristic bot) and two
notebooks, ``ana.ipynb`` and ``ben.ipynb``, each joining the log as its
player (``RaceTable.join("race.log", player="Ana", seat="Blue")``). Two
browser contexts (two players, each in a JupyterLab workspace of their own)
run their notebook; then, as people would:

- both press *Roll for the grid* at once: the grid is rolled once, and the
  one whose click came second is told who rolled first (S-1);
- they play their turns from their own page, each seeing the other's moves
  and the bot's (which is written once) within about a second;
- mid-race Ben closes his tab; Ana plays on until the race waits for Red;
  Ben opens his notebook again, runs it, and finds the race where it is,
  his seat still his;
- they play to the end. The race in the log is the race a hot-seat table
  plays with the same decisions: nothing lost, nothing played twice.

Screenshots: ``test-artifacts/shared-ana.png`` and ``shared-ben.png`` (the
end), ``shared-ben-back.png`` (Ben's page reopened). Needs
``/usr/bin/chromium``; without it the test skips (fails if ``CI`` is set).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from lab_server import (
    CHROMIUM,
    CHROMIUM_ARGS,
    jupyter_lab,
    require_chromium,
    run_cells,
)
from shared_players import (
    BOARD_DRAWN,
    CARS,
    PLAYERS,
    SEATS,
    SEED,
    Seat,
    hot_seat,
    play_until,
    sprint,
    wait_for_any,
)

from fdlab.table import SharedTable

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 30_000

pytestmark = pytest.mark.browser

_CELL = """\
from fdlab.table import RaceTable

table = RaceTable.join("race.log", player={player!r}, seat={car!r}, bot_delay=0.2)
table
"""


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """Each player's notebook URL (a workspace each) in one JupyterLab, and the log."""
    require_chromium()
    root, home = tmp_path / "lab", tmp_path / "home"
    folder = root / "notebooks"
    folder.mkdir(parents=True)
    log = folder / "race.log"
    SharedTable.create(log, sprint(), cars=CARS, seats=SEATS, seed=SEED)
    for player, car in PLAYERS.items():
        cell = nbformat.v4.new_code_cell(_CELL.format(player=player, car=car))
        notebook = nbformat.v4.new_notebook(cells=[cell])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(notebook, folder / f"{player.lower()}.ipynb")
    with jupyter_lab(root, home, "notebooks/ana.ipynb") as url:
        urls = {
            player: url.replace("/lab/tree/", f"/lab/workspaces/{player.lower()}/tree/").replace(
                "ana.ipynb", f"{player.lower()}.ipynb"
            )
            for player in PLAYERS
        }
        yield urls, log


def test_two_players_race_from_their_own_browsers(lab: tuple[dict[str, str], Path]) -> None:
    from playwright.sync_api import expect, sync_playwright

    urls, log = lab
    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        contexts = {
            p: browser.new_context(viewport={"width": 1400, "height": 1000}) for p in PLAYERS
        }
        pages = {p: contexts[p].new_page() for p in PLAYERS}
        try:
            for player, page in pages.items():  # both kernels start at once
                page.set_default_timeout(TIMEOUT_MS * 3)
                page.goto(urls[player])
            for page in pages.values():
                run_cells(page)
            ana, ben = Seat(pages["Ana"], "Ana"), Seat(pages["Ben"], "Ben")
            for page in pages.values():
                page.wait_for_function(BOARD_DRAWN)
            expect(ana.table.locator(".fdlab-owners")).to_contain_text(
                "Blue: Ana (you) · Red: Ben · Green: heuristic"
            )
            expect(ben.table.locator(".fdlab-owners")).to_contain_text("Blue: Ana · Red: Ben (you)")

            # both roll for the grid at once (S-1): once, and the second is told who rolled
            buttons = [s.table.locator("button.fdlab-roll-grid") for s in (ana, ben)]
            for button in buttons:
                expect(button).to_be_visible()
            handles = [button.element_handle() for button in buttons]
            for handle in handles:
                handle.dispatch_event("click")
            for seat in (ana, ben):
                expect(seat.log).to_contain_text("Grid roll")
            refused = re.compile(r"(Ana|Ben) rolled for the grid before you: your action was not")
            said = wait_for_any([ana, ben], refused)
            assert sum(bool(refused.search(text)) for text in said) == 1, said
            for seat in (ana, ben):
                assert seat.log.inner_text().count("Grid roll") == 1

            # turns from each page until Ben's car has moved and it is Ana's turn
            play_until([ana, ben], lambda: "Red moves" in ana.log.inner_text() and ana.on_turn(),
                        time.monotonic() + 40)  # fmt: skip
            ben.page.close()  # Ben closes his tab mid-race
            play_until([ana], lambda: "Red (Ben) is deciding" in ana.prompt.inner_text(),
                        time.monotonic() + 30)  # fmt: skip

            # Ben comes back: his notebook again, run again, the race where it is
            page = pages["Ben"] = contexts["Ben"].new_page()
            page.set_default_timeout(TIMEOUT_MS * 3)
            page.goto(urls["Ben"])
            run_cells(page, runs=2)
            ben = Seat(page, "Ben")
            page.wait_for_function(BOARD_DRAWN)  # BokehJS is on the page opened anew
            expect(ben.prompt).to_contain_text(re.compile(r"Red \(Ben\): (choose a gear|make)"))
            expect(ben.table.locator(".fdlab-owners")).to_contain_text("Red: Ben (you)")
            assert ben.log.inner_text() == ana.log.inner_text()
            page.screenshot(path=str(ARTIFACTS / "shared-ben-back.png"))

            # to the end
            play_until([ana, ben], lambda: "The race is over" in ana.prompt.inner_text(),
                        time.monotonic() + 60)  # fmt: skip
            expect(ben.prompt).to_contain_text("The race is over")
            expect(ben.log).to_have_text(ana.log.inner_text())
            for seat in (ana, ben):
                assert "Error" not in seat.message.inner_text()
        finally:
            for player, page in pages.items():
                if not page.is_closed():
                    page.screenshot(path=str(ARTIFACTS / f"shared-{player.lower()}.png"))
            browser.close()
    print(f"two players, a race to the end: {time.monotonic() - started:.1f} s")
    table = SharedTable.join(log, "Referee")
    assert table.race.over and table.owners == ["Ana", "Ben", None]
    assert table.race.actions == hot_seat()
