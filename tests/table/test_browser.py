"""The race table in a real browser: JupyterLab in Debian's chromium, driven by Playwright.

Serves a temporary copy of ``notebooks/play-a-race.ipynb`` (and ``tracks/``,
``docs/rules.md``) from a fresh JupyterLab, runs every cell, then plays in the
first table as a person would: rolls for the grid, makes the start roll (a
gear button after a stall), clicks one of the highlighted spaces on the Bokeh
canvas, and checks that Blue now stands there and that the log says so; then
follows the table's link to the rules text. Screenshots are kept in
``test-artifacts/`` (``table-browser.png``, the whole page, ``table-start.png``
after the start roll and ``table-board.png``, the table after Blue's move).

Needs ``/usr/bin/chromium``; without it the test skips (fails if ``CI`` is set).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab_server import CHROMIUM, CHROMIUM_ARGS, jupyter_lab, require_chromium, run_all_cells
from table_helpers import FIRST_TARGET

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 120_000

pytestmark = pytest.mark.browser


@pytest.fixture
def notebook_url(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """URL of the notebook (the test's ``notebook`` mark) in a JupyterLab of its own."""
    notebook = NOTEBOOKS / request.node.get_closest_marker("notebook").args[0]
    require_chromium()
    root, home = tmp_path / "lab", tmp_path / "home"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(notebook, root / "notebooks" / notebook.name)
    shutil.copytree(REPO / "tracks", root / "tracks", ignore=shutil.ignore_patterns("*.py"))
    (root / "docs").mkdir()
    shutil.copy(REPO / "docs" / "rules.md", root / "docs" / "rules.md")
    with jupyter_lab(root, home, f"notebooks/{notebook.name}") as url:
        yield url


def _wait_until_still(page: Any, element: Any, tries: int = 20) -> None:
    """Wait until ``element`` stays where it is for 200 ms (at most ``tries`` looks)."""
    before = element.bounding_box()
    for _ in range(tries):
        page.wait_for_timeout(200)
        now = element.bounding_box()
        if now == before:
            return
        before = now


def hover_first_target(page: Any, table: Any) -> dict[str, Any]:
    """Hover the first highlighted space until its tooltip names it; return the target.

    The board may still be redrawing (a zoom onto the car moves the ranges), and a
    redraw between reading the target's pixels and the hover leaves no tooltip: so
    the pixels are read again before every try.
    """
    from playwright.sync_api import expect

    tooltip = page.locator(".bk-Tooltip").last
    for attempt in range(6):
        page.wait_for_timeout(300 * attempt)
        # an output above that grows late (a notebook still drawing) moves the table: it
        # is brought back into view, and left to settle, before its pixels are read
        table.scroll_into_view_if_needed()
        _wait_until_still(page, table)
        target: dict[str, Any] = page.evaluate(FIRST_TARGET, table.element_handle())
        page.mouse.move(target["px"] - 3, target["py"] - 3)
        page.mouse.move(target["px"], target["py"])
        try:
            expect(tooltip).to_contain_text(
                re.compile(rf"move to:\s*{target['id']}(?!\d)"), timeout=5_000
            )
            return target
        except AssertionError:
            continue
    expect(tooltip).to_contain_text(re.compile(rf"move to:\s*{target['id']}(?!\d)"))
    return target


# The width of the first table's view and of the whole board, in board units.
_VIEW_AND_BOARD = """
(table) => {
  const view = window.Bokeh.index.roots.find(
    (v) => v.model.name === "fdlab-race-board" && table.contains(v.el));
  const spaces = view.model.renderers.find((r) => r.name === "spaces").data_source.data;
  const xs = spaces.xs.flat();
  return {view: view.model.x_range.end - view.model.x_range.start,
          board: Math.max(...xs) - Math.min(...xs)};
}
"""


@pytest.mark.notebook("play-a-race.ipynb")
def test_play_a_turn_in_the_race_table(notebook_url: str) -> None:
    """Pick a gear with a click, click a highlighted space, see the car there and in the log."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1900})
        try:
            run_all_cells(page, notebook_url, TIMEOUT_MS)
            table = page.locator(".fdlab-race-table").first
            table.scroll_into_view_if_needed()
            prompt = table.locator(".fdlab-prompt")
            log = table.locator(".fdlab-log")
            expect(prompt).to_contain_text("Roll for the grid")  # S-1: a button of its own
            table.locator("button.fdlab-roll-grid").click()
            expect(log).to_contain_text("Grid roll")
            expect(prompt).to_contain_text("Blue (person): make the start roll")
            expect(table.locator("button.fdlab-gear")).to_have_count(0)
            target = None
            for _ in range(4):  # a stalled start (S-2) ends the turn without a move: try again
                expect(prompt).to_contain_text(re.compile(r"Blue \(person\): (make|choose)"))
                if "make the start roll" in prompt.inner_text():
                    table.locator("button.fdlab-start-roll").click()
                    expect(log).to_contain_text("Blue, 1st gear, start roll")
                else:
                    table.locator("button.fdlab-gear").first.click()
                expect(prompt).not_to_contain_text(re.compile("make the start|choose a gear"))
                if "click a highlighted space" in prompt.inner_text():
                    handle = table.element_handle()
                    page.wait_for_function(FIRST_TARGET, arg=handle)
                    target = page.evaluate(FIRST_TARGET, handle)
                    break
            assert target is not None, "Blue never got a move to make"
            if not re.search(r"Blue, 1st gear, start roll \d+: stalls", log.inner_text()):
                expect(table.locator(".fdlab-die")).to_contain_text("start:")  # the black die
            table.screenshot(path=str(ARTIFACTS / "table-start.png"))
            expect(table.locator(".fdlab-die")).to_contain_text("die")
            # the target's pixels again: the screenshot may have scrolled the page
            target = hover_first_target(page, table)  # the hover tells the cost
            page.screenshot(path=str(ARTIFACTS / "table-hover.png"))
            page.mouse.click(target["px"], target["py"])
            expect(log).to_contain_text(
                re.compile(rf"Blue moves \d+ to space {target['id']}(?!\d)")
            )
            blue_row = table.locator(".fdlab-dashboard tr", has_text="Blue")
            expect(blue_row).to_contain_text(str(target["id"]))
            # one click moved Blue once (the browser change arrives twice)
            moves = re.findall(rf"Blue moves \d+ to space {target['id']}(?!\d)", log.inner_text())
            assert len(moves) == 1, log.inner_text()
            expect(table.locator(".fdlab-message")).not_to_contain_text("Error")
            expect(prompt).to_contain_text("Blue (person): choose a gear")  # bots played on
            page.wait_for_timeout(500)  # the last redraw
            extent = page.evaluate(_VIEW_AND_BOARD, table.element_handle())
            assert extent["view"] < 0.5 * extent["board"], extent  # still close up on Blue
            table.screenshot(path=str(ARTIFACTS / "table-board.png"))
            # the help line links the rules text: JupyterLab opens it beside the notebook
            link = table.locator(".fdlab-help a", has_text="docs/rules.md")
            expect(link).to_have_attribute("href", re.compile(r"docs/rules\.md"))
            link.click()
            tab = page.locator(".lm-TabBar-tabLabel", has_text="rules.md")
            expect(tab).to_be_visible()
        finally:
            page.screenshot(path=str(ARTIFACTS / "table-browser.png"), full_page=True)
            browser.close()


@pytest.mark.notebook("learn-the-rules.ipynb")
def test_try_a_rule_at_a_lesson_table(notebook_url: str) -> None:
    """Lesson 2's table: press 2nd (the die is loaded), click a pink space, Undo."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1200})
        try:
            run_all_cells(page, notebook_url, TIMEOUT_MS)
            table = page.locator(".fdlab-race-table").first
            table.scroll_into_view_if_needed()
            table.locator("button.fdlab-gear-2").click()
            prompt = table.locator(".fdlab-prompt")
            expect(prompt).to_contain_text("click a highlighted space")
            handle = table.element_handle()
            page.wait_for_function(FIRST_TARGET, arg=handle)
            table.screenshot(path=str(ARTIFACTS / "lesson-table.png"))  # may scroll the page
            # the target's pixels are read after anything that may scroll, and the
            # hover must name it before the click
            target = hover_first_target(page, table)
            page.mouse.click(target["px"], target["py"])
            log = table.locator(".fdlab-log")
            expect(log).to_contain_text(
                re.compile(rf"Blue moves \d+ to space {target['id']}(?!\d)")
            )
            table.locator("button.fdlab-undo").click()
            expect(prompt).to_contain_text("click a highlighted space")
            expect(log).not_to_contain_text("Blue moves")
        finally:
            page.screenshot(path=str(ARTIFACTS / "lesson-browser.png"), full_page=True)
            browser.close()


def test_the_replay_page_opens_offline_and_its_slider_moves_the_cars(tmp_path: Path) -> None:
    """A bots' race on the training ring as a replay page; round 1, then the finish."""
    from playwright.sync_api import expect, sync_playwright

    from fdlab.rules import Race
    from fdlab.table import TableController, save_replay
    from fdlab.track import load_track

    require_chromium()
    race = Race(load_track(REPO / "tracks" / "training.json"), cars=3, seed=5)
    TableController(race, ["heuristic", "lookahead", "random"]).run_bots()
    page_path = save_replay(race, tmp_path / "replay.html")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        try:
            page.goto(page_path.as_uri())
            page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
            expect(page.get_by_text("(finish)")).to_be_visible()
            page.evaluate(
                "() => { Bokeh.documents[0].get_model_by_name('fdlab-replay-slider').value = 1; }"
            )
            expect(page.get_by_text("Round 1", exact=True)).to_be_visible()
            cars = page.evaluate(
                "() => Bokeh.documents[0].get_model_by_name('cars').data_source.data.label.length"
            )
            assert cars == 3  # after round 1 every car is on the board
            page.screenshot(path=str(ARTIFACTS / "replay-page.png"))
        finally:
            browser.close()
    assert all(url.startswith("file:") for url in requests), requests  # nothing from a network


# Bounding boxes in the viewport of the first table's board canvas, the legend under it,
# its gear buttons and the panel, and the board's view (to see that the wheel leaves it
# alone).
_LAYOUT = """
(table) => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const view = window.Bokeh.index.roots.find(
    (v) => v.model.name === "fdlab-race-board" && table.contains(v.el));
  const gears = [...table.querySelectorAll("button.fdlab-gear")].map(box);
  return {
    plot: box(view.canvas_view.el), gears, legend: box(table.querySelector(".fdlab-legend")),
    panel: box(table.querySelector(".fdlab-panel")),
    x: [view.model.x_range.start, view.model.x_range.end],
    y: [view.model.y_range.start, view.model.y_range.end],
    frame: [view.frame.bbox.width, view.frame.bbox.height],
  };
}
"""


def _inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


@pytest.mark.notebook("play-a-race.ipynb")
def test_the_table_fits_a_laptop_screen_and_links_its_replay_page(notebook_url: str) -> None:
    """Issue 27, one screen: at 1366x768 the board and the gear buttons show together,
    the wheel scrolls the page, the help line follows the phase; the replay page opens
    from the link the table gives, in a tab of its own."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        try:
            run_all_cells(page, notebook_url, TIMEOUT_MS)
            table = page.locator(".fdlab-race-table").first
            help_line = table.locator(".fdlab-help")
            prompt = table.locator(".fdlab-prompt")
            top = "(element) => element.scrollIntoView({block: 'start'})"
            table.evaluate(top)
            expect(help_line).to_contain_text("Roll for the grid: press Roll for the grid")
            table.locator("button.fdlab-roll-grid").click()
            for _ in range(6):  # to Blue's first gear: the start roll, a move, the bots
                expect(prompt).to_contain_text(re.compile(r"Blue \(person\): (make|choose|rolled)"))
                text = prompt.inner_text()
                if "choose a gear" in text:
                    break
                if "make the start roll" in text:
                    expect(help_line).to_contain_text("Blue: make your start roll.")
                    table.locator("button.fdlab-start-roll").click()
                    expect(prompt).not_to_contain_text("make the start roll")
                    continue
                expect(help_line).to_contain_text("Blue: choose where to go.")
                table.locator("button.fdlab-move").click()
                expect(prompt).not_to_contain_text("rolled")
            expect(prompt).to_contain_text("Blue (person): choose a gear")
            expect(help_line).to_contain_text("Blue: choose a gear.")
            expect(table.locator("button.fdlab-gear").first).to_be_visible()
            table.evaluate(top)
            page.wait_for_timeout(800)  # the board's last redraw
            page.screenshot(path=str(ARTIFACTS / "table-laptop.png"))
            layout = page.evaluate(_LAYOUT, table.element_handle())
            assert _inside(layout["plot"], 1366, 768), layout
            assert _inside(layout["legend"], 1366, 768), layout  # the board leaves it room
            assert layout["gears"] and all(_inside(g, 1366, 768) for g in layout["gears"]), layout
            assert layout["gears"][0]["x"] >= layout["plot"]["x"] + layout["plot"]["width"] - 1
            # the board keeps its proportions on the canvas the screen gives it
            (x0, x1), (y0, y1), (fw, fh) = layout["x"], layout["y"], layout["frame"]
            assert abs((x1 - x0) / fw - (y1 - y0) / fh) < 0.02 * (x1 - x0) / fw, layout
            # the wheel over the board scrolls the page and leaves the board's view alone
            plot = layout["plot"]
            page.mouse.move(plot["x"] + plot["width"] / 2, plot["y"] + plot["height"] / 2)
            page.mouse.wheel(0, 200)
            page.wait_for_timeout(500)
            after = page.evaluate(_LAYOUT, table.element_handle())
            assert after["x"] == layout["x"] and after["plot"]["y"] < plot["y"] - 50, after
            # a big screen gives the board the room
            page.set_viewport_size({"width": 1920, "height": 1080})
            page.wait_for_timeout(800)
            table.evaluate(top)
            page.wait_for_timeout(800)
            page.screenshot(path=str(ARTIFACTS / "table-desktop.png"))
            wide = page.evaluate(_LAYOUT, table.element_handle())
            assert _inside(wide["plot"], 1920, 1080) and _inside(wide["legend"], 1920, 1080), wide
            assert wide["plot"]["width"] > 1.5 * plot["width"], (wide, plot)
            # the replay page: written from the Game file section, opened from its link
            table.locator(".fdlab-file-section-fold").click()
            table.locator("button.fdlab-export").click()
            link = table.locator(".fdlab-message a", has_text="game.html")
            expect(link).to_have_attribute("target", "_blank")
            expect(link).to_have_attribute("href", re.compile(r"/files/notebooks/game\.html$"))
            with page.context.expect_page() as opened:
                link.click()
            replay = opened.value
            replay.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
            assert "/files/notebooks/game.html" in replay.url
            replay.close()
        finally:
            page.screenshot(path=str(ARTIFACTS / "table-laptop-end.png"), full_page=True)
            browser.close()
