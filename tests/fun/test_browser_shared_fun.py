"""Two players, each in their own browser, play one Formula Fun championship (issue 27).

One JupyterLab serves a folder with a shared game log (``fun.log``: two
seats, both people's, seed 1) and two notebooks, ``ana.ipynb`` and
``ben.ipynb``, each joining the log as its player
(``FunTable.join("fun.log", player="Ana", seat=0)``). Two browser contexts
(two players, a JupyterLab workspace each) run their notebook; then, as
people would:

- each sees only their own hand, and who holds which seat;
- Ana draws, puts a card on the market and auctions it (FF-4); Ben's page
  shows the auction within a few seconds and Ben bids (an ordinary action
  of the bidder to act); Ana's page shows his bid;
- Ben closes his tab; Ana passes, so Ben buys the card; Ben opens his
  notebook again, runs it, and finds the game where it is, his seat still
  his;
- the log holds each action once: the hot-seat game with the same decisions.

Screenshots: ``test-artifacts/shared-fun-ana.png``, ``shared-fun-ben.png``
and ``shared-fun-ben-back.png``. Needs ``/usr/bin/chromium``; without it the
test skips (fails if ``CI`` is set).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from lab_server import (
    ALL_CELLS_RUN,
    CHROMIUM,
    CHROMIUM_ARGS,
    KERNEL_READY,
    jupyter_lab,
    require_chromium,
)

from fdlab.fun import Game
from fdlab.fun.shared import SharedFunGame

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 30_000
SEED = 1  # two players: P1 (Ana) starts; after "draw 1" her hand holds V6, card 19
PLAYERS = {"Ana": 0, "Ben": 1}
ACTIONS = ["draw 1", "market 19", "auction 19 1", "bid 3", "pass"]

pytestmark = pytest.mark.browser

_CELL = """\
from fdlab.fun.widgets import FunTable

table = FunTable.join("fun.log", player={player!r}, seat={seat!r})
table
"""


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """Each player's notebook URL (a workspace each) in one JupyterLab, and the log."""
    require_chromium()
    root, home = tmp_path / "lab", tmp_path / "home"
    folder = root / "notebooks"
    folder.mkdir(parents=True)
    log = folder / "fun.log"
    SharedFunGame.create(log, players=2, seed=SEED)
    for player, seat in PLAYERS.items():
        cell = nbformat.v4.new_code_cell(_CELL.format(player=player, seat=seat))
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


def _run(page, runs: int = 1) -> None:
    """Run the open notebook's cell (its ``runs``-th run in that kernel) and wait for it."""
    page.wait_for_function(KERNEL_READY)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(ALL_CELLS_RUN)
    if runs > 1:
        page.wait_for_function(
            "(n) => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
            ".every((p) => p.textContent.includes(`[${n}]`))",
            arg=runs,
        )
    page.wait_for_function(KERNEL_READY)


class Player:
    """One player's page: their table and how they pick a choice and play it."""

    def __init__(self, page) -> None:
        self.page = page
        self.table = page.locator(".fdlab-fun-table").first
        self.owners = self.table.locator(".fdlab-owners")
        self.header = self.table.locator(".fdlab-fun-header")
        self.log = self.table.locator(".fdlab-fun-log")
        self.message = self.table.locator(".fdlab-message")
        self.choices = self.table.locator(".widget-select select")

    def options(self) -> list[str]:
        return [o.replace("\xa0", " ") for o in self.choices.locator("option").all_text_contents()]

    def play(self, starts: str, amount: int | None = None) -> None:
        """Pick the choice starting with ``starts`` (the amount typed), press Play, and wait
        for the log to show it."""
        from playwright.sync_api import expect

        deadline = time.monotonic() + 20
        while not any(o.startswith(starts) for o in self.options()):
            assert time.monotonic() < deadline, (starts, self.options())
            self.page.wait_for_timeout(100)
        index = next(k for k, o in enumerate(self.options()) if o.startswith(starts))
        self.choices.select_option(index=index)
        if amount is not None:
            box = self.table.get_by_role("spinbutton")
            box.fill(str(amount))
            box.press("Tab")  # the box sends its value to the kernel when it loses focus
        before = self.log.inner_text()
        self.page.wait_for_timeout(300)  # the pick reaches the kernel before the click
        self.table.get_by_role("button", name="Play").click()
        expect(self.log).not_to_have_text(before)
        assert "\u26a0" not in self.message.inner_text(), self.message.inner_text()


def test_two_players_run_an_auction_from_their_own_browsers(lab) -> None:
    from playwright.sync_api import expect, sync_playwright

    urls, log = lab
    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        contexts = {
            p: browser.new_context(viewport={"width": 1300, "height": 1100}) for p in PLAYERS
        }
        pages = {p: contexts[p].new_page() for p in PLAYERS}
        try:
            for player, page in pages.items():  # both kernels start at once
                page.set_default_timeout(TIMEOUT_MS * 3)
                page.goto(urls[player])
            for page in pages.values():
                _run(page)
            ana, ben = Player(pages["Ana"]), Player(pages["Ben"])
            expect(ana.owners).to_contain_text("P1: Ana (you) · P2: Ben")
            expect(ben.owners).to_contain_text("P1: Ana · P2: Ben (you)")
            # each sees their own hand only
            for seat in (ana, ben):
                expect(seat.table).to_contain_text("Your hand:")
                assert "Ana's hand" not in seat.table.inner_text()
                assert "Ben's hand" not in seat.table.inner_text()
            expect(ana.header).to_contain_text("Your decision")
            expect(ben.header).to_contain_text("Ana is deciding")
            assert ben.options() == []

            # Ana opens an auction (FF-4); Ben sees it and bids; Ana sees the bid
            ana.play("Draw 1 card")
            ana.play("Put V6 (engine 3) on the market")
            ana.play("Auction V6 (engine 3)", amount=1)
            t0 = time.monotonic()
            expect(ben.header).to_contain_text("Your decision", timeout=5_000)
            expect(ben.log).to_contain_text("Ana auctions V6 (engine 3), opening at 1 M$")
            ben_saw = time.monotonic() - t0
            ben.play("Bid the amount", amount=3)
            t0 = time.monotonic()
            expect(ana.log).to_contain_text("Ben bids 3 M$", timeout=5_000)
            expect(ana.header).to_contain_text("Your decision")
            ana_saw = time.monotonic() - t0
            print(f"Ben saw the auction in {ben_saw:.1f} s, Ana the bid in {ana_saw:.1f} s")

            # Ben closes his tab; Ana passes: Ben buys the card while away
            ben.page.close()
            ana.play("Pass")
            expect(ana.log).to_contain_text("Ben buys V6 (engine 3) for 3 M$")

            # Ben comes back: his notebook again, run again, the game where it is
            page = pages["Ben"] = contexts["Ben"].new_page()
            page.set_default_timeout(TIMEOUT_MS * 3)
            page.goto(urls["Ben"])
            _run(page, runs=2)
            ben = Player(page)
            expect(ben.owners).to_contain_text("P2: Ben (you)")
            expect(ben.header).to_contain_text("Ana is deciding")
            expect(ben.table).to_contain_text("V6")
            expect(ben.log).to_contain_text("You buy V6 (engine 3) for 3 M$")  # his log says "you"
            page.screenshot(path=str(ARTIFACTS / "shared-fun-ben-back.png"))
            for seat in (ana, ben):
                assert "\u26a0" not in seat.message.inner_text()
        finally:
            for player, page in pages.items():
                if not page.is_closed():
                    page.screenshot(path=str(ARTIFACTS / f"shared-fun-{player.lower()}.png"))
            browser.close()
    print(f"two players, an auction across browsers: {time.monotonic() - started:.1f} s")
    referee = SharedFunGame.join(log, "Referee")
    assert [str(a) for a in referee.actions] == ACTIONS  # each once: none lost, none doubled
    assert referee.owners == ["Ana", "Ben"]
    assert referee.game.state == Game.replay(SEED, 2, ACTIONS).state
