"""The editor in a real browser: JupyterLab in Debian's chromium, driven by Playwright.

Opens ``notebooks/design-a-circuit.ipynb`` in a fresh JupyterLab serving a
temporary copy of the notebook (with its pictures) and of ``tracks/`` and
runs it. One test traces a board scan in the notebook's blank editor: it
loads the picture under the plot, scales it by clicking two points and
typing their distance, drags it with the tool *Move picture*, sets its
width and place by typing, draws a lap
over it with the mouse (tool *Draw centreline*: a click a point, the first
clicked again to close the lap) and rebuilds the board from
it. The other, in the last editor (a shipped board opened from
``../tracks/``), clicks a corner space on the Bokeh canvas (its tooltip gives
way to the selection until the pointer moves) and sets its stop
count with the *Stops* dropdown (the verdict beside the board follows by
itself and says what the edit did to par), marks a danger space and a tunnel pair,
drags a centreline point from 8 px off it, slowly, and another quickly (tool
*Move points*), rebuilds, finds all three
edits on the new board, presses *Save* and reads the saved file, then
checks the board and the corner controls are in sight together at 1366x768
and 1920x1080 (the board taller there, in proportion on both), JupyterLab's
file browser open, the toolbar above the plot one line on both and the
plot's own toolbar unfolded; on the laptop the mouse wheel over the board
scrolls the notebook and leaves the board's zoom alone.
Screenshots are kept in ``test-artifacts/`` (``editor-browser.png``,
``editor-trace.png``, ``editor-laptop.png``, ``editor-full-hd.png``).

Needs ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run`` does
it). Without it the test skips, or fails when the ``CI`` variable is set.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab_server import CHROMIUM, CHROMIUM_ARGS, jupyter_lab, require_chromium, run_all_cells

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "design-a-circuit.ipynb"
ARTIFACTS = REPO / "test-artifacts"
STEP_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.browser


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server on a free port serving a copy of the notebook."""
    require_chromium()
    root = tmp_path / "lab"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOK, root / "notebooks" / NOTEBOOK.name)
    shutil.copytree(NOTEBOOK.parent / "images", root / "notebooks" / "images")
    for track in (REPO / "tracks").glob("*.json"):
        (root / "tracks").mkdir(exist_ok=True)
        shutil.copy(track, root / "tracks" / track.name)
    with jupyter_lab(root, tmp_path / "home", f"notebooks/{NOTEBOOK.name}") as url:
        yield url, root


# The Bokeh view of the editor's figure inside ``editor`` (an element).
_VIEW = """
  const view = window.Bokeh.index.roots.find(
    (v) => v.model.name === "fdlab-board" && editor.contains(v.el));
"""

# The plot frame of that view: page position, size and data ranges, to turn
# metres into mouse positions.
_FRAME = (
    "(editor) => {"
    + _VIEW
    + """
  if (!view) return null;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const {x_range, y_range} = view.model;
  return {left: canvas.left + frame.left, top: canvas.top + frame.top,
          width: frame.width, height: frame.height,
          x0: x_range.start, x1: x_range.end, y0: y_range.start, y1: y_range.end};
}
"""
)

# How far the notebook that holds the editor is scrolled.
_SCROLLER = """
(editor) => {
  let node = editor.parentElement;
  while (node && !(node.scrollHeight > node.clientHeight
                   && getComputedStyle(node).overflowY.match(/auto|scroll/))) {
    node = node.parentElement;
  }
  return node ? node.scrollTop : -1;
}
"""

# Whether the plot's frame is whole in sight and settled: Bokeh lays a resized canvas out
# a frame later (the plot fills its column, so a line above or below it that changes
# height resizes it), so the frame is read until two looks agree, its corners on the plot.
_FRAME_SETTLED = (
    "(editor) => {"
    + _VIEW
    + """
  if (!view) return false;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const frame = view.frame.bbox;
  const now = [canvas.left, canvas.top, canvas.width, canvas.height,
               frame.left, frame.top, frame.width, frame.height].join();
  const looks = window.fdlabFrameLooks ??= new WeakMap();
  const settled = looks.get(editor) === now;
  looks.set(editor, now);
  const plot = editor.querySelector(".fdlab-plot");
  const shown = (x, y) => plot.contains(document.elementFromPoint(x, y));
  const [x0, y0] = [canvas.left + frame.left + 2, canvas.top + frame.top + 2];
  const [x1, y1] = [canvas.left + frame.right - 2, canvas.top + frame.bottom - 2];
  return settled && frame.width > 0 && frame.height > 0
    && shown(x0, y0) && shown(x1, y0) && shown(x0, y1) && shown(x1, y1);
}
"""
)

# The vertical middles of the toolbar's controls (those shown) and the board column's width:
# the toolbar is one line when the middles agree.
_TOOLBAR = """
(editor) => ({
  middles: [...editor.querySelector(".fdlab-toolbar").children]
    .map((child) => child.getBoundingClientRect())
    .filter((box) => box.width > 0)
    .map((box) => box.top + box.height / 2),
  column: editor.querySelector(".fdlab-board-column").getBoundingClientRect().width,
})
"""

# Spaces of the board in the browser's data source: id, corner, stops, hover
# text and page position of each (for clicking them).
_SPACES = (
    "(editor) => {"
    + _VIEW
    + """
  if (!view) return null;
  const spaces = view.model.renderers.find((r) => r.name === "spaces");
  const data = spaces.data_source.data;
  const {x_range, y_range} = view.model;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const px = (x) => canvas.left + frame.left + (x - x_range.start) / (x_range.end - x_range.start) * frame.width;
  const py = (y) => canvas.top + frame.top + (y_range.end - y) / (y_range.end - y_range.start) * frame.height;
  return [...data.id].map((id, row) => ({
    id, corner: data.corner[row], stops: data.stops[row], lane: data.lane[row],
    progress: data.progress[row], hover: data.hover[row],
    px: px(data.x[row]), py: py(data.y[row])}));
}
"""
)

# The centreline's points in page pixels.
_CENTRELINE = (
    "(editor) => {"
    + _VIEW
    + """
  const line = view.model.renderers.find((r) => r.name === "centreline");
  const data = line.data_source.data;
  const {x_range, y_range} = view.model;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const xs = [...data.xs[0]], ys = [...data.ys[0]];
  return xs.map((x, i) => ({
    x, y: ys[i],
    px: canvas.left + frame.left + (x - x_range.start) / (x_range.end - x_range.start) * frame.width,
    py: canvas.top + frame.top + (y_range.end - ys[i]) / (y_range.end - y_range.start) * frame.height}));
}
"""
)

# Whether the ring of Move points is on point ``index`` of the centreline.
_RINGED = (
    "([editor, index]) => {"
    + _VIEW
    + """
  const cue = view.model.renderers.find((r) => r.name === "centreline-cue");
  const data = cue.data_source.data;
  return cue.visible && data.index.length === 1 && data.index[0] === index;
}
"""
)

# The picture under the plot, as the browser has it.
_PICTURE = (
    "(editor) => {"
    + _VIEW
    + """
  const picture = view.model.renderers.find((r) => r.name === "picture");
  const data = picture.data_source.data;
  return data.url.length ? {url: data.url[0].slice(0, 22), w: data.w[0], alpha: data.alpha[0]} : null;
}
"""
)


def _in_sight(page: Any, editor: Any) -> None:
    """Scroll the whole plot into the window and wait until its frame is settled there.

    Positions on the plot are read after this: the plot is as tall as the window leaves
    room for, so the editor may be only partly in view, and a point read off screen
    (or before Bokeh has laid a resized canvas out) is no place to click.
    """
    editor.locator(".fdlab-plot").evaluate("(e) => e.scrollIntoView({block: 'nearest'})")
    page.wait_for_function(_FRAME_SETTLED, arg=editor.element_handle())


def _frame(page: Any, editor: Any) -> dict[str, float]:
    """The plot frame (:data:`_FRAME`), whole in the window and settled."""
    _in_sight(page, editor)
    return page.evaluate(_FRAME, editor.element_handle())


def _tool_button(editor: Any, name: str) -> Any:
    """The Tool button of the tool ``name``: its label is a word, its tooltip the full name."""
    return editor.locator(f".fdlab-tool button[title^='{name}: ']")


def _use_tool(page: Any, editor: Any, button: str, tool: str | None, points: bool = True) -> None:
    """Press one of the editor's Tool buttons and wait until the plot has that tool active.

    *Move points* and *Draw centreline* (``tool=None``) have no Bokeh tool: they are
    ready when the centreline's points show (``points``: the line has some).
    """
    _tool_button(editor, button).click()
    if tool is None:
        page.wait_for_function(
            "([editor, points]) => {" + _VIEW + " return !!view && view.model.renderers.some("
            "(r) => r.name === 'centreline-points' && r.visible"
            " && (!points || r.data_source.data.x.length > 0)); }",
            arg=[editor.element_handle(), points],
        )
        return
    page.wait_for_function(
        "([editor, tool]) => {" + _VIEW + " return !!view && view.model.toolbar.tools.some("
        "(t) => t.name === tool && t.active); }",
        arg=[editor.element_handle(), tool],
    )


def _click_space(page: Any, editor: Any, space: Any, *, shift: bool = False) -> None:
    """Click the middle of a space where it is on the page now (the page may have moved)."""
    _in_sight(page, editor)
    where = next(s for s in page.evaluate(_SPACES, editor.element_handle()) if s["id"] == space)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(where["px"], where["py"])
    if shift:
        page.keyboard.up("Shift")
    page.wait_for_timeout(300)


def _press_and_hold(page: Any, x: float, y: float) -> None:
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(600)
    page.mouse.up()
    page.wait_for_timeout(400)


def _set_box(editor: Any, css: str, value: str) -> None:
    """Type into a number or text box and leave it, as a person would (it syncs on change)."""
    box = editor.locator(f".{css} input").first
    box.fill(value)
    box.press("Enter")
    box.press("Tab")


def _on_page(frame: dict[str, float], x: float, y: float) -> tuple[float, float]:
    """The page position of the point ``(x, y)`` metres of the plot frame."""
    return (
        frame["left"] + (x - frame["x0"]) / (frame["x1"] - frame["x0"]) * frame["width"],
        frame["top"] + (frame["y1"] - y) / (frame["y1"] - frame["y0"]) * frame["height"],
    )


def _picture_place(page: Any, editor: Any) -> dict[str, float]:
    return page.evaluate(
        "(editor) => {" + _VIEW + " const d = view.model.renderers.find("
        "(r) => r.name === 'picture').data_source.data;"
        " return {x: d.x[0], y: d.y[0], w: d.w[0]}; }",
        editor.element_handle(),
    )


def _scale_and_drag_the_picture(page: Any, editor: Any) -> None:
    """Scale the 1215 m picture by two clicks 500 m apart, drag it, and put it back by typing."""
    from playwright.sync_api import expect

    message = editor.locator(".fdlab-message")
    _set_box(editor, "fdlab-picture-distance", "1000")
    editor.locator("button.fdlab-scale-picture").click()
    expect(message).to_contain_text("click the first")
    frame = _frame(page, editor)
    page.mouse.click(*_on_page(frame, -480, -390))
    expect(message).to_contain_text("click the second point")
    page.wait_for_timeout(500)  # two clicks within 300 ms make a double tap
    page.mouse.click(*_on_page(frame, 20, -390))
    expect(message).to_contain_text("the two points are 1000 m apart")
    place = _picture_place(page, editor)
    # 500 m on screen are 1000 m now: twice as wide, the first point where it was
    assert abs(place["w"] - 2430) < 0.03 * 2430, place
    assert abs(place["x"] - (-480 + 2 * (-580 + 480))) < 0.03 * 2430, place
    # the tool Move picture: the picture follows the mouse, and stays where it is left
    _tool_button(editor, "Move picture").click()
    expect(message).to_contain_text("Tool: Move picture")
    frame = _frame(page, editor)
    start = _on_page(frame, place["x"] + 300, place["y"] + 300)
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(start[0] + 8 * step, start[1])
        page.wait_for_timeout(30)
    page.mouse.up()
    expect(message).to_contain_text("picture moved")
    moved = _picture_place(page, editor)
    metres = 80 / frame["width"] * (frame["x1"] - frame["x0"])
    assert abs(moved["x"] - place["x"] - metres) < 0.1 * metres, (place, moved, metres)
    assert abs(moved["y"] - place["y"]) < 0.1 * metres
    editor.locator(".fdlab-tool button[data-value='Select']").click()
    for css, value in (("width", "1215"), ("x", "-580"), ("y", "-490")):
        _set_box(editor, f"fdlab-picture-{css}", value)
    page.wait_for_function(
        "(editor) => {" + _VIEW[:-1] + "; const d = view.model.renderers.find("
        "(r) => r.name === 'picture').data_source.data;"
        " return d.w[0] === 1215 && d.x[0] === -580 && d.y[0] === -490; }",
        arg=editor.element_handle(),
    )


def test_trace_a_board_scan_with_the_mouse_and_rebuild(lab: tuple[str, Path]) -> None:
    """In the notebook's blank editor: load a scan under the plot, draw a lap over it, rebuild."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    url, _ = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        try:
            run_all_cells(page, url, STEP_TIMEOUT_MS)
            editors = page.locator(".fdlab-editor")
            blank = editors.evaluate_all(
                "(all) => all.findIndex((e) =>"
                " e.querySelector('.fdlab-status').textContent.includes(' 0 spaces'))"
            )
            assert blank >= 0, "the notebook has no blank editor to draw in"
            editor = editors.nth(blank)
            editor.scroll_into_view_if_needed()
            message = editor.locator(".fdlab-message")
            editor.locator(".fdlab-picture-section-fold").click()  # a folded section
            _set_box(editor, "fdlab-picture-path", "images/zandvoort-scan.png")
            editor.locator("button.fdlab-load-picture").click()
            expect(message).to_contain_text("under the board")
            _set_box(editor, "fdlab-picture-width", "1215")
            _set_box(editor, "fdlab-picture-x", "-580")
            _set_box(editor, "fdlab-picture-y", "-490")
            page.wait_for_function(
                "(editor) => {" + _VIEW[:-1] + "; const p = view.model.renderers.find("
                "(r) => r.name === 'picture'); const d = p.data_source.data;"
                " return d.w[0] === 1215 && d.x[0] === -580 && d.y[0] === -490; }",
                arg=editor.element_handle(),
            )
            picture = page.evaluate(_PICTURE, editor.element_handle())
            assert picture == {"url": "data:image/png;base64,", "w": 1215, "alpha": 0.5}
            _scale_and_drag_the_picture(page, editor)
            _use_tool(page, editor, "Draw centreline", None, points=False)
            expect(message).to_contain_text("Tool: Draw centreline")
            frame = _frame(page, editor)
            assert frame is not None and all(
                math.isfinite(frame[key]) for key in ("x0", "x1", "y0", "y1")
            ), f"the picture must give finite ranges to draw in: {frame}"
            # the picture spans 1215 m: the view shows it all, so metres are on screen
            assert frame["x1"] - frame["x0"] >= 1215
            lap = [(-340, 80), (-170, 455), (-110, 430), (-170, 170), (-280, 90), (200, 80),
                   (500, 100), (420, -120), (210, -150), (-200, -340), (-450, -300)]  # fmt: skip
            points = [
                (
                    frame["left"]
                    + (x - frame["x0"]) / (frame["x1"] - frame["x0"]) * frame["width"],
                    frame["top"]
                    + (frame["y1"] - y) / (frame["y1"] - frame["y0"]) * frame["height"],
                )
                for x, y in lap
            ]
            for index, (x, y) in enumerate(points):
                if index == 3:  # a click held still (Bokeh's press) adds its point too
                    _press_and_hold(page, x, y)
                else:
                    page.mouse.click(x, y)
                    page.wait_for_timeout(350)  # two clicks within 300 ms make a double tap
            # the dotted guide runs from the last point to the pointer and back to the first
            page.mouse.move(points[0][0] + 40, points[0][1] + 40)
            page.wait_for_function(
                "(editor) => {" + _VIEW + " const guide = view.model.renderers.find("
                "(r) => r.name === 'centreline-guide'); return guide.data_source.data.x.length"
                " === 3; }",
                arg=editor.element_handle(),
            )
            page.mouse.click(points[0][0] + 4, points[0][1] - 3)  # the first point: lap closed
            expect(message).to_contain_text(f"lap drawn: {len(points)} points")
            expect(editor.locator(".fdlab-centreline")).to_contain_text(
                f"Centreline: {len(points)} points"
            )
            editor.locator("button.fdlab-rebuild").click()
            expect(message).to_contain_text("rebuild from a centreline of")
            expect(message).to_contain_text("Tool: Select")
            status = editor.locator(".fdlab-status")
            spaces = int(re.search(r"(\d+) spaces", status.inner_text()).group(1))
            assert spaces > 100, status.inner_text()
            assert page.evaluate(_PICTURE, editor.element_handle())["w"] == 1215
            assert "\u26a0" not in message.inner_text()
            editor.locator(".fdlab-plot").scroll_into_view_if_needed()
        finally:
            page.screenshot(path=str(ARTIFACTS / "editor-trace.png"))
            browser.close()


def test_edits_survive_dragging_a_point_and_rebuilding_then_save(lab: tuple[str, Path]) -> None:
    """Set stops, a danger space and a tunnel by clicking; drag a point; rebuild; find them; save."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=STEP_TIMEOUT_MS)

    url, root = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        try:
            run_all_cells(page, url, STEP_TIMEOUT_MS)
            editor = page.locator(".fdlab-editor").last
            handle = editor.element_handle()
            page.wait_for_function(_SPACES, arg=handle)
            _in_sight(page, editor)
            spaces = page.evaluate(_SPACES, handle)
            message = editor.locator(".fdlab-message")
            verdict_state = editor.locator(".fdlab-verdict-state")
            verdict = editor.locator(".fdlab-verdict")
            # 0. the default bot's verdict comes by itself, in the background
            expect(verdict_state).to_contain_text("up to date")
            expect(verdict).to_contain_text(re.compile(r"Par \d+\.\d turns a lap"))
            # 1. a corner space: hover says what it is, a click selects it, Stops edits it
            target = next(s for s in spaces if s["corner"] is not None)
            page.mouse.move(target["px"] - 1, target["py"])
            page.mouse.move(target["px"], target["py"])
            tooltip = page.locator(".bk-Tooltip").last
            expect(tooltip).to_contain_text(re.compile(rf"space: {target['id']}\b"))
            expect(tooltip).to_contain_text(f"corner {target['corner']}")
            page.mouse.click(target["px"], target["py"])
            expect(editor.locator(".fdlab-selection")).to_contain_text(f"corner {target['corner']}")
            # the tooltip gives way to what the click did (the selection, the corner's flag),
            # the kernel's answer drawn, and comes back when the pointer moves
            expect(page.locator(".bk-Tooltip:visible")).to_have_count(0)
            page.mouse.move(target["px"] + 1, target["py"])
            expect(tooltip).to_contain_text(re.compile(rf"space: {target['id']}\b"))
            new_stops = 3 if target["stops"] != 3 else 2
            editor.locator(".fdlab-stops select").select_option(label=str(new_stops))
            expect(message).to_contain_text(
                f"set stops of corner {target['corner']} to {new_stops}"
            )
            # the verdict follows the edit by itself and says what it did to par
            expect(verdict).to_contain_text(re.compile(r"than before the last change|unchanged by"))
            expect(verdict_state).to_contain_text("up to date")
            # 2. a straight space of lane 0 well away from the corners: Danger
            straight = [s for s in spaces if s["corner"] is None and "grid" not in s["hover"]
                        and s["lane"] == 0 and s["px"] > 0]  # fmt: skip
            plain = straight[len(straight) // 2]
            _click_space(page, editor, plain["id"])
            expect(editor.locator(".fdlab-selection")).to_contain_text(str(plain["id"]))
            editor.locator("button.fdlab-danger").click()
            expect(message).to_contain_text("hazard='danger'")
            expect(editor.locator("button.fdlab-danger")).to_be_disabled()  # the selection is used
            # 3. two spaces of lane 1, a few apart, with shift: Tunnel pair
            lane1 = sorted((s for s in spaces if s["lane"] == 1 and s["corner"] is None
                            and s["id"] != plain["id"]), key=lambda s: s["progress"])  # fmt: skip
            entry, exit_ = lane1[2], lane1[5]
            _click_space(page, editor, entry["id"])
            _click_space(page, editor, exit_["id"], shift=True)
            expect(editor.locator(".fdlab-selection")).to_contain_text("2 spaces selected")
            editor.locator("button.fdlab-tunnel").click()
            expect(message).to_contain_text("tunnel 1:")
            # 4. drag one centreline point (Move points shows the points; the ringed one moves)
            _use_tool(page, editor, "Move points", None)
            _in_sight(page, editor)
            line = page.evaluate(_CENTRELINE, handle)
            middle = line[len(line) // 2]
            # the drag starts 8 px off the point: within the snap radius, it still takes
            # it, or a closer neighbour on a line whose points are close together
            grab_x, grab_y = middle["px"] + 6, middle["py"] - 5
            taken = min(range(len(line)), key=lambda i: math.dist(
                (line[i]["px"], line[i]["py"]), (grab_x, grab_y)))  # fmt: skip
            page.mouse.move(grab_x - 3, grab_y)
            page.mouse.move(grab_x, grab_y)
            page.wait_for_function(_RINGED, arg=[handle, taken])  # the cue shows which point
            page.mouse.down()
            # slow first steps: Bokeh takes the hold for a press, which drags all the same
            for step in [*range(1, 8), 10, 14, 18, 22, 26]:
                page.mouse.move(grab_x + step, grab_y + 0.75 * step)
                page.wait_for_timeout(40)
            page.mouse.up()
            page.wait_for_timeout(300)
            moved = page.evaluate(_CENTRELINE, handle)
            changed = [i for i, (a, b) in enumerate(zip(line, moved, strict=True))
                       if (a["x"], a["y"]) != (b["x"], b["y"])]  # fmt: skip
            assert changed == [taken], f"the drag moved points {changed}, not only {taken}"
            # the point went where the pointer went (26 px right, 19.5 px down)
            assert moved[taken]["px"] - line[taken]["px"] == pytest.approx(26, abs=1.5)
            assert moved[taken]["py"] - line[taken]["py"] == pytest.approx(19.5, abs=1.5)
            expect(message).to_contain_text(f"moved centreline point {taken + 1} of {len(line)}")
            # a quick drag (the pointer moves at once: Bokeh's pan) takes the point too
            other = (taken + len(line) // 4) % len(line)
            start_x, start_y = moved[other]["px"], moved[other]["py"]
            page.mouse.move(start_x, start_y)
            page.wait_for_function(_RINGED, arg=[handle, other])
            page.mouse.down()
            page.mouse.move(start_x - 20, start_y, steps=4)
            page.mouse.up()
            expect(message).to_contain_text(f"moved centreline point {other + 1} of {len(line)}")
            again = page.evaluate(_CENTRELINE, handle)
            assert again[other]["px"] - moved[other]["px"] == pytest.approx(-20, abs=1.5)
            # Undo takes the last drag back (not the tunnel before it)
            editor.locator("button.fdlab-undo").click()
            expect(message).to_contain_text(f"undo: centreline point {other + 1} back")
            page.wait_for_function(
                "([editor, index, x]) => {" + _VIEW + " const line = view.model.renderers.find("
                "(r) => r.name === 'centreline'); return line.data_source.data.xs[0][index] === x; }",
                arg=[handle, other, moved[other]["x"]],
            )
            # 5. rebuild with 'keep my edits': all three are found on the new board
            assert editor.locator(".fdlab-keep-build input").is_checked()
            editor.locator("button.fdlab-rebuild").click()
            expect(message).to_contain_text("kept 3 edits")
            rebuilt = page.evaluate(_SPACES, handle)
            hover = " ".join(s["hover"] for s in rebuilt)
            assert "danger" in hover and "tunnel 1" in hover, hover[:500]
            assert any(s["stops"] == new_stops for s in rebuilt if s["corner"] is not None)
            saved_to = editor.locator(".fdlab-path input").input_value()
            editor.locator("button.fdlab-save").click()
            expect(editor.locator(".fdlab-status")).to_contain_text(
                re.compile(r"problems? · saved")
            )
            # the screenshot shows the whole editor, status line first
            editor.locator(".fdlab-status").evaluate(
                "(element) => element.scrollIntoView({block: 'start'})"
            )
            page.screenshot(path=str(ARTIFACTS / "editor-browser-wide.png"))
            # 6. one screen: on a 1366x768 laptop the whole board and the corner controls
            # show together, with no scrolling between them, and the toolbar above the
            # plot is one line, JupyterLab's file browser open beside the notebook; a
            # 1920x1080 screen shows them so too, with a taller board; a metre is as long
            # across as up on both
            page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
            heights = {}
            for width, height, shot in ((1366, 768, "laptop"), (1920, 1080, "full-hd")):
                page.set_viewport_size({"width": width, "height": height})
                editor.locator(".fdlab-status").evaluate(
                    "(element) => element.scrollIntoView({block: 'start'})"
                )
                frame = _frame(page, editor)
                page.screenshot(path=str(ARTIFACTS / f"editor-{shot}.png"))
                toolbar = page.evaluate(_TOOLBAR, handle)
                assert max(toolbar["middles"]) - min(toolbar["middles"]) < 8, (shot, toolbar)
                if shot == "laptop":  # the narrow column of a laptop with the file browser open
                    assert toolbar["column"] < 600, toolbar
                # every tool of the plot's own toolbar shows: none folded behind its "more"
                assert editor.locator(".bk-tool-overflow").count() == 0, shot
                if shot == "laptop":  # the wheel over the board scrolls the page, no zoom
                    scroller = editor.evaluate(_SCROLLER)
                    page.mouse.move(frame["left"] + frame["width"] / 2, frame["top"] + 40)
                    page.mouse.wheel(0, -120)  # up: the notebook has cells above
                    page.wait_for_timeout(400)
                    after = page.evaluate(_FRAME, handle)
                    assert (after["x0"], after["x1"]) == (frame["x0"], frame["x1"]), after
                    assert 0 <= editor.evaluate(_SCROLLER) < scroller, "the page did not scroll"
                    editor.locator(".fdlab-status").evaluate(
                        "(element) => element.scrollIntoView({block: 'start'})"
                    )
                    frame = _frame(page, editor)
                plot = editor.locator(".fdlab-plot").bounding_box()
                make_corner = editor.locator("button.fdlab-make-corner").bounding_box()
                assert plot is not None and make_corner is not None
                assert plot["y"] >= 0 and plot["y"] + plot["height"] <= height, (shot, plot)
                assert make_corner["x"] > plot["x"] + plot["width"] - 1, "controls beside it"
                assert make_corner["y"] >= 0 and make_corner["y"] + make_corner["height"] <= height
                across = (frame["x1"] - frame["x0"]) / frame["width"]
                up = (frame["y1"] - frame["y0"]) / frame["height"]
                assert across == pytest.approx(up, rel=0.02), (shot, frame)
                heights[shot] = plot["height"]
            assert heights["full-hd"] > 1.5 * heights["laptop"], heights
        finally:
            # kept whether the test passed or not: it shows where it stopped
            page.screenshot(path=str(ARTIFACTS / "editor-browser.png"), full_page=True)
            browser.close()

    saved_path = Path(saved_to)
    if not saved_path.is_absolute():  # relative to the notebook's folder, the kernel's cwd
        saved_path = root / "notebooks" / saved_path
    saved = json.loads(saved_path.read_text())
    assert [s for s in saved["spaces"] if s["hazard"] == "danger"]
    assert len([s for s in saved["spaces"] if s["tunnel"] == "1"]) == 2
    assert new_stops in [entry["stops"] for entry in saved["graph"]["corners"]]
    assert len(saved["graph"]["edits"]) == 3  # the edits stay with the board
