"""The track editor in a real browser on Monaco: edit latency, rebuild, kernel blocking, verdict.

Usage::

    python benchmarks/editor_browser.py [--edits 20] [--verdict-edits 3] [--during-verdict 4]
                                        [--rebuilds 3] [--verbose]

Needs Debian's chromium (``/usr/bin/chromium``) and the Playwright package:
without either it exits with 2 (no browser is ever downloaded). It writes, in
a temporary folder, a copy of ``tracks/`` and a notebook
``notebooks/editor-benchmark.ipynb`` of two cells, a *kernel probe* (see 3)
and ``editor = TrackEditor.open("../tracks/monaco.json"); editor``, serves
the folder from a JupyterLab of its own (``tests/lab_server.py``), opens the
notebook in headless chromium and runs every cell. Once the first verdict
is up to date it makes ``--edits`` edits, alternating

* *stops*: click a space of the next corner on the Bokeh canvas, then pick
  another stop count in the *Stops* dropdown;
* *danger*: click a straight space of the middle lane, then press *Danger*.

The edits follow each other as a designer clicking along would, without
waiting for the verdict (which may or may not be computing meanwhile: the
table splits the edits by that). A designer clicking along seldom lands an
edit in a verdict's computation (the panel waits 0.8 s of quiet first), so
``--during-verdict`` of them, spread over the edits, wait until *How it
plays* says "updating" and are made while it computes: no edit waits for
the verdict.

Figures (median and worst):

1. **click -> plot updated**: from the click that makes the edit (the
   ``pointerup`` of *Danger*, the ``change`` of the dropdown, noted in the
   page by a capturing listener) until the Bokeh ``spaces`` data source in
   the page holds the change (every space of the corner has the new stops,
   or the space's hazard is ``danger``) *and* the message line says the
   edit. A poller in the page looks every 4 ms; the canvas repaints in the
   next animation frame. Shown under it: the kernel's handler of that
   widget message (from the probe), the rest (transport, the browser
   applying and painting), the page's long tasks, and the selecting click
   before the edit (canvas click -> Bokeh's selection in the page -> the
   kernel's selection line), which is not part of the figure.
2. **rebuild keeping the edits**: once the verdict is up to date (the
   rebuild alone), the middle centreline point is moved by 10 m in the
   page's centreline source (as a drag with *Move points* does) and the
   script waits until the kernel has it; then *Rebuild from centreline* is
   pressed with *keep my edits* ticked: from its click until the message
   says ``kept N edits``, the status line counts the rebuild and the spaces
   source holds the new board (the sum of the spaces' x changed).
   ``--rebuilds`` times, moving the point back and forth.
3. **longest kernel block during the edits**: the probe cell starts an
   asyncio task that sleeps 10 ms in a loop and records how much later than
   asked it wakes up. Widget callbacks run on the event loop, so the largest
   overshoot is the longest the kernel could handle nothing else. JupyterLab
   (4.4 and later) sends widget messages over a kernel *subshell*, a thread
   with an event loop of its own (ipykernel 7), and a message goes to the
   thread that last sent on its comm, so callbacks run on the main thread
   or the subshell's: the probe starts the same watchdog on every loop that
   handles a widget message and reports the largest lag. It also wraps the
   kernel's ``comm_msg`` handler to time each widget message (the callback
   and all it sends back), notes garbage collections over 20 ms (one stops
   every thread) and the kernel's CPU time during each lag over 50 ms
   (little CPU: the machine did not run the kernel). The script resets the
   probe before the edits and reads it after them and after the rebuilds,
   running a request in the notebook's kernel from the page.
4. **verdict freshness**: the last ``--verdict-edits`` edits first wait for
   *How it plays* to say "up to date", then time from the edit's click until
   ``.fdlab-verdict-state`` has left "up to date" and says it again (the
   panel waits 0.8 s of quiet, then computes in a background thread). The
   probe also times each verdict computation (wall, and CPU of its thread)
   by wrapping the editor's ``VerdictWatch.compute``.

After *Danger* the script waits for the selection to be cleared before the
next click: the editor clears it after the edit's message, and once, on a
loaded machine, the selection of a click made in between was found cleared
a moment later. An edit whose control does not become usable after its
selection is skipped and reported, with what the kernel and the page show
and the last widget messages (start, duration, thread).

Prints a table (measure, median, worst, goal, met?) and the probe's
findings; ``--verbose`` prints each edit and every widget message. Exits 0
even when a goal is missed: this is a benchmark, not a test. The machine's
load shows in every figure; the goals are for an idle machine.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # for lab_server: JupyterLab and chromium settings

from lab_server import CHROMIUM, CHROMIUM_ARGS, jupyter_lab, run_all_cells  # noqa: E402

NOTEBOOK = "notebooks/editor-benchmark.ipynb"
GOALS = {"edit": 0.150, "rebuild": 1.0, "block": 0.3, "verdict": 5.0}
MOVE_METRES = 10.0
SYNC_TIMEOUT_MS = 10_000  # for a control to show what the kernel set after a selection
# The widget message of each timed edit, as the kernel probe describes it.
EDIT_MESSAGE = re.compile(r"fdlab-stops update|fdlab-danger custom")

# The first cell: time the kernel's event loop and its widget messages.
PROBE_CELL = '''\
# Benchmark probe: how late the kernel's event loops wake up, how long each widget message takes.
import asyncio, gc, json, threading, time
import ipywidgets


class KernelProbe:
    def __init__(self, tick=0.010):
        self.tick = tick
        self.kernel = get_ipython().kernel
        self.watched = {}
        self.reset()
        self._handle = self.kernel.shell_handlers["comm_msg"]
        self.kernel.shell_handlers["comm_msg"] = self._timed
        self._watch_this_loop()
        self._gc_start = None
        gc.callbacks.append(self._gc)

    def reset(self):
        self.worst = {name: 0.0 for name in self.watched}
        self.ticks, self.lags, self.messages, self.verdicts, self.gc_pauses = 0, [], [], [], []
        self.since = time.perf_counter()

    def _gc(self, phase, info):
        # a collection holds the GIL: every thread of the kernel waits for it
        if phase == "start":
            self._gc_start = time.perf_counter()
        elif self._gc_start is not None:
            took, self._gc_start = time.perf_counter() - self._gc_start, None
            if took > 0.02:
                self.gc_pauses.append((took, info["generation"], info["collected"]))

    def time_verdicts(self, watch):
        """Time each verdict the editor's VerdictWatch computes: wall and CPU of its thread."""
        compute = watch.compute

        def timed(*args):
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return compute(*args)
            finally:
                self.verdicts.append((time.perf_counter() - wall, time.thread_time() - cpu))

        watch.compute = timed

    def _watch_this_loop(self):
        # JupyterLab may send widget messages over a subshell: a thread with its own loop
        name = threading.current_thread().name
        if name not in self.watched:
            self.worst[name] = 0.0
            self.watched[name] = asyncio.get_running_loop().create_task(self._watch(name))

    async def _watch(self, name):
        while True:
            start, cpu = time.perf_counter(), time.process_time()
            await asyncio.sleep(self.tick)
            lag = time.perf_counter() - start - self.tick
            self.ticks += 1
            self.worst[name] = max(self.worst.get(name, 0.0), lag)
            if lag > 0.05:  # with the kernel process's CPU time meanwhile: ~0 = not scheduled
                self.lags.append((lag, name, time.process_time() - cpu))

    def _timed(self, stream, idents, msg):
        self._watch_this_loop()
        start = time.perf_counter()
        try:
            return self._handle(stream, idents, msg)
        finally:
            took, began = time.perf_counter() - start, start - self.since
            self.messages.append(
                (took, f"[{threading.current_thread().name}] {self._what(msg)}", began)
            )

    @staticmethod
    def _what(msg):
        content = msg["content"]
        widget = ipywidgets.Widget.widgets.get(content.get("comm_id"))
        data = content.get("data") or {}
        detail = sorted(data.get("state") or {}) or sorted(data.get("content") or {})
        classes = getattr(widget, "_dom_classes", ()) if widget is not None else ()
        return f"{type(widget).__name__} {' '.join(classes)} {data.get('method')} {detail}"

    def report(self):
        return {
            "worst_lag": max(self.worst.values(), default=0.0),
            "worst_by_thread": self.worst,
            "ticks": self.ticks,
            "lags_over_50ms": sorted(self.lags, reverse=True)[:10],
            "messages": len(self.messages),
            "worst_messages": sorted(self.messages, reverse=True)[:5],
            "all_messages": self.messages,
            "verdicts": self.verdicts,
            "gc_pauses": sorted(self.gc_pauses, reverse=True)[:10],
            "gc_objects": len(gc.get_objects()),
        }


fdlab_probe = KernelProbe()
'''

EDITOR_CELL = """\
from fdlab.editor import TrackEditor

editor = TrackEditor.open("../tracks/monaco.json")
editor
"""

# Installed once in the page: the spaces of the editor's plot, and a poller that
# notes when each condition of an edit first holds after the click.
BENCH_JS = """
() => {
  const editor = document.querySelector(".fdlab-editor");
  const view = () => window.Bokeh.index.roots.find(
    (v) => v.model.name === "fdlab-board" && editor.contains(v.el));
  const source = (name) => view().model.renderers.find((r) => r.name === name).data_source;
  const text = (css) => { const el = editor.querySelector(css); return el ? el.textContent : ""; };
  const fingerprint = () => {
    const d = source("spaces").data;
    let sum = 0;
    for (const x of d.x) sum += x;
    return `${d.x.length}:${sum.toFixed(3)}`;
  };
  const sourceHolds = (goal) => {
    const d = source("spaces").data;
    if (goal.kind === "stops") {
      let found = false;
      for (let row = 0; row < d.id.length; row++) {
        if (d.corner[row] !== goal.corner) continue;
        found = true;
        if (d.stops[row] !== goal.stops) return false;
      }
      return found;
    }
    if (goal.kind === "hazard") {
      const row = [...d.id].indexOf(goal.id);
      return row >= 0 && d.hazard[row] === goal.hazard;
    }
    if (goal.kind === "rebuild") return fingerprint() !== goal.before;
    return true;
  };
  const bench = {armed: false, t0: null, stateAtClick: null, current: null};
  for (const type of ["pointerup", "click", "change"]) {
    document.addEventListener(type, () => {
      if (!bench.armed) return;
      bench.armed = false;
      bench.t0 = performance.now();
      bench.stateAtClick = text(".fdlab-verdict-state");
    }, true);
  }
  // the page's own long tasks (over 50 ms: parsing messages, Bokeh redrawing, layout)
  bench.long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.long.push([e.startTime, e.duration]);
  }).observe({type: "longtask"});
  bench.fingerprint = fingerprint;
  bench.spaces = () => {
    const d = source("spaces").data;
    return [...d.id].map((id, row) => ({
      id, corner: d.corner[row], stops: d.stops[row], lane: d.lane[row], kind: d.kind[row],
      progress: d.progress[row], hazard: d.hazard[row], grid: d.grid[row]}));
  };
  bench.where = (id) => {
    const v = view();
    const d = source("spaces").data;
    const row = [...d.id].indexOf(id);
    const {x_range, y_range} = v.model;
    const frame = v.frame.bbox;
    const canvas = v.canvas_view.el.getBoundingClientRect();
    return {
      px: canvas.left + frame.left + (d.x[row] - x_range.start) / (x_range.end - x_range.start) * frame.width,
      py: canvas.top + frame.top + (y_range.end - d.y[row]) / (y_range.end - y_range.start) * frame.height};
  };
  // what is under a point of the page, and what the plot has selected (when a click missed)
  bench.under = (px, py) => {
    const element = document.elementFromPoint(px, py);
    const d = source("spaces").data;
    return {element: element ? `${element.tagName}.${element.className}` : null,
            selected: source("spaces").selected.indices.map((row) => d.id[row]),
            tapped: bench.current ? bench.current.tapped !== null : null};
  };
  bench.moveCentreline = (dy) => {
    const line = source("centreline");
    const xs = [...line.data.xs[0]], ys = [...line.data.ys[0]];
    const middle = Math.floor(xs.length / 2);
    ys[middle] += dy;
    line.data = {xs: [xs], ys: [ys]};
    return [middle, xs[middle], ys[middle]];
  };
  bench.start = (goal) => {
    const w = {goal, source: null, message: null, selection: null, tapped: null, left: null,
               busy: null, fresh: null, done: false};
    bench.current = w;
    bench.t0 = null;
    bench.armed = true;
    const selection = goal.selection ? new RegExp(goal.selection) : null;
    const message = goal.message ? new RegExp(goal.message) : null;
    const changed = goal.changed || [];
    const before = changed.map(text);
    const row = goal.tap === undefined ? -1 : [...source("spaces").data.id].indexOf(goal.tap);
    const tick = () => {
      if (bench.t0 === null) return;
      const now = performance.now();
      if (w.source === null && sourceHolds(goal)) w.source = now;
      if (w.message === null && (!message || message.test(text(".fdlab-message")))
          && changed.every((css, i) => text(css) !== before[i])) {
        w.message = now;
      }
      if (w.tapped === null && row >= 0 && source("spaces").selected.indices.includes(row)) {
        w.tapped = now;
      }
      if (w.selection === null && (!selection || selection.test(text(".fdlab-selection")))) {
        w.selection = now;
      }
      if (goal.verdict) {
        const state = text(".fdlab-verdict-state");
        if (w.left === null && !state.includes("up to date")) w.left = now;
        if (w.busy === null && state.includes("updating")) w.busy = now;
        if (w.left !== null && w.fresh === null && state.includes("up to date")) w.fresh = now;
      }
      if (w.source !== null && w.message !== null && w.selection !== null
          && (!goal.verdict || w.fresh !== null)) {
        w.done = true;
        clearInterval(w.timer);
      }
    };
    w.timer = setInterval(tick, 4);
  };
  bench.result = () => {
    const w = bench.current;
    const since = (t) => (t === null ? null : (t - bench.t0) / 1000);
    const end = Math.max(w.source, w.message, w.selection, w.fresh);
    const long = bench.long.filter(([start]) => start >= bench.t0 && start <= end);
    return {source: since(w.source), message: since(w.message), selection: since(w.selection),
            tapped: since(w.tapped), long: long.reduce((sum, [, took]) => sum + took, 0) / 1000,
            left: since(w.left), busy: since(w.busy), fresh: since(w.fresh),
            state_at_click: bench.stateAtClick, message_text: text(".fdlab-message")};
  };
  window.fdlabBench = bench;
}
"""

# What the kernel and the page show when an edit did not come through.
STATE_CODE = """\
print("selected:", editor.selected, "stops box:", editor.stops.value,
      "disabled:", editor.stops.disabled)
print("corners:", {c: v["stops"] for c, v in editor.track.corners.items()})
print("history:", editor.controller.history[-4:])
print("message:", editor.last_message, "error:", editor.last_error)
"""
PAGE_STATE_JS = """
() => {
  const editor = document.querySelector(".fdlab-editor");
  const select = editor.querySelector(".fdlab-stops select");
  return {selection: editor.querySelector(".fdlab-selection").textContent,
          message: editor.querySelector(".fdlab-message").textContent,
          stops: select.options[select.selectedIndex]?.textContent, disabled: select.disabled};
}
"""

# Run Python in the notebook's kernel from the page; returns what it printed.
KERNEL_EXEC_JS = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false, stop_on_error: true});
  let out = "";
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += msg.content.text;
    if (msg.header.msg_type === "error") out += `ERROR ${msg.content.ename}: ${msg.content.evalue}`;
  };
  await future.done;
  return out;
}
"""


def write_lab(root: Path) -> None:
    """The notebook and a copy of ``tracks/`` beside its folder."""
    shutil.copytree(REPO / "tracks", root / "tracks")
    cells = [
        {"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
         "execution_count": None}
        for source in (PROBE_CELL, EDITOR_CELL)
    ]  # fmt: skip
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    path = root / NOTEBOOK
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(notebook, indent=1))


class Unsynced(Exception):
    """A control did not show what the kernel set after a selection: the edit is skipped."""


class Bench:
    """The page with the editor, and the timed actions on it."""

    def __init__(self, page: Any, timeout_ms: int) -> None:
        self.page = page
        self.timeout_ms = timeout_ms
        self.editor = page.locator(".fdlab-editor")
        self.last_canvas_click = 0.0

    def kernel(self, code: str) -> str:
        out = self.page.evaluate(KERNEL_EXEC_JS, code)
        if "ERROR" in out:
            raise RuntimeError(f"the kernel refused {code!r}: {out}")
        return out

    def probe(self, reset: bool = False) -> dict[str, Any]:
        report = json.loads(self.kernel("print(json.dumps(fdlab_probe.report()))"))
        if reset:
            self.kernel("fdlab_probe.reset()")
        return report

    def wait_verdict_computing(self) -> None:
        self.page.locator(".fdlab-verdict-state", has_text="updating").wait_for(
            timeout=self.timeout_ms
        )

    def wait_verdict_fresh(self) -> None:
        self.page.locator(".fdlab-verdict-state", has_text="up to date").wait_for(
            timeout=self.timeout_ms
        )

    def timed(
        self, goal: dict[str, Any], action: Any, timeout_ms: int | None = None
    ) -> dict[str, Any]:
        """Arm the page, do ``action`` (a click), wait until ``goal`` holds; seconds from the click."""
        self.page.evaluate("(goal) => window.fdlabBench.start(goal)", goal)
        action()
        self.page.wait_for_function(
            "() => window.fdlabBench.current.done",
            polling=20,
            timeout=timeout_ms or self.timeout_ms,
        )
        return self.page.evaluate("() => window.fdlabBench.result()")

    def select(self, space: int) -> tuple[float, float]:
        """Click a space on the canvas; seconds until the plot selects it, and until the
        selection line names it (the kernel's answer)."""
        # two canvas clicks within 300 ms make a double tap
        self.page.wait_for_timeout(max(0.0, 350 - (self._now() - self.last_canvas_click)))
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        where = self.page.evaluate("(id) => window.fdlabBench.where(id)", space)
        try:
            result = self.timed(
                {"kind": None, "tap": space, "selection": rf"Selected space {space}\b"},
                lambda: self.page.mouse.click(where["px"], where["py"]),
                SYNC_TIMEOUT_MS,
            )
        except PlaywrightTimeout:
            under = self.page.evaluate(
                "([x, y]) => window.fdlabBench.under(x, y)", [where["px"], where["py"]]
            )
            raise Unsynced(
                f"a click on space {space} at ({where['px']:.0f}, {where['py']:.0f}) selected "
                f"nothing the kernel saw: {under}"
            ) from None
        self.last_canvas_click = self._now()
        return result["tapped"], result["selection"]

    def _now(self) -> float:
        return self.page.evaluate("() => performance.now()")


def pick_targets(spaces: list[dict[str, Any]], edits: int) -> list[dict[str, Any]]:
    """Alternate edits: the next corner's stops, then Danger on a straight space."""
    stops = {s["corner"]: s["stops"] for s in spaces if s["corner"] is not None}
    corners = sorted(stops)
    straight = sorted(
        (s for s in spaces if s["kind"] == "track" and s["corner"] is None
         and s["grid"] is None and s["hazard"] is None and s["lane"] == 1),
        key=lambda s: s["progress"],
    )  # fmt: skip
    dangers = (edits + 1) // 2
    plain = [straight[i * len(straight) // dangers] for i in range(dangers)]
    targets = []
    for index in range(edits):
        if index % 2 == 0:
            corner = corners[(index // 2) % len(corners)]
            before, stops[corner] = stops[corner], stops[corner] % 3 + 1
            space = next(s["id"] for s in spaces if s["corner"] == corner)
            targets.append({"kind": "stops", "space": space, "corner": corner,
                            "before": before, "stops": stops[corner]})  # fmt: skip
        else:
            targets.append({"kind": "hazard", "space": plain[index // 2]["id"]})
    return targets


def edit(bench: Bench, target: dict[str, Any], verdict: bool) -> dict[str, Any]:
    """Select the target's space, make the edit; the page's timings."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    editor, page, space = bench.editor, bench.page, target["space"]
    tapped, selected = bench.select(space)
    if target["kind"] == "stops":
        control = editor.locator(".fdlab-stops select")
        # the kernel sets the dropdown to the corner's stops with the selection: wait for it
        ready = (
            "([select, stops]) => !select.disabled && select.selectedIndex >= 0"
            " && select.options[select.selectedIndex].textContent.trim() === stops"
        )
        ready_arg: Any = [control.element_handle(), str(target["before"])]
        corner, stops = target["corner"], target["stops"]
        goal = {"kind": "stops", "corner": corner, "stops": stops,
                "message": rf"set stops of corner {corner} to {stops}\b", "verdict": verdict}  # fmt: skip
    else:
        control = editor.locator("button.fdlab-danger")
        ready, ready_arg = "(button) => !button.disabled", control.element_handle()
        goal = {"kind": "hazard", "id": space, "hazard": "danger",
                "message": rf"hazard='danger' on space {space}\b", "verdict": verdict}  # fmt: skip
    try:
        page.wait_for_function(ready, arg=ready_arg, timeout=SYNC_TIMEOUT_MS)
    except PlaywrightTimeout:
        raise Unsynced(
            f"after selecting space {space} the {target['kind']} control did not become usable "
            f"(for stops: show corner {target.get('corner')}'s {target.get('before')} stops)"
        ) from None

    def act() -> None:
        try:
            if target["kind"] == "stops":
                control.select_option(label=str(target["stops"]), timeout=SYNC_TIMEOUT_MS)
            else:
                control.click(timeout=SYNC_TIMEOUT_MS)
        except PlaywrightTimeout:
            raise Unsynced(
                f"the {target['kind']} control was disabled again before it could be used: "
                f"the selection of space {space} went away"
            ) from None

    result = bench.timed(goal, act)
    if target["kind"] == "hazard":
        # Danger clears the selection after its message: let that arrive before the next
        # click, which it could otherwise undo (see the docstring)
        page.locator(".fdlab-selection", has_text="Nothing selected").wait_for(
            timeout=SYNC_TIMEOUT_MS
        )
    result.update(
        kind=target["kind"],
        tapped=tapped,
        select=selected,
        plot=max(result["source"], result["message"]),
    )
    return result


def rebuild(bench: Bench, step: int, edits: int) -> dict[str, Any]:
    """Move a centreline point, wait until the kernel has it, press Rebuild; the page's timings."""
    page = bench.page
    dy = MOVE_METRES if step % 2 == 0 else -MOVE_METRES
    middle, x, y = page.evaluate("(dy) => window.fdlabBench.moveCentreline(dy)", dy)
    code = f"print(json.dumps(editor.centreline_points()[{middle}]))"
    for _ in range(100):
        got = json.loads(bench.kernel(code))
        if abs(got[0] - x) < 1e-6 and abs(got[1] - y) < 1e-6:
            break
        page.wait_for_timeout(100)
    else:
        raise RuntimeError(f"the kernel never saw the moved centreline point: {got} != {(x, y)}")
    bench.wait_verdict_fresh()  # the rebuild alone, not racing the verdict thread for the GIL
    keep = bench.editor.locator(".fdlab-keep-build input")
    if not keep.is_checked():
        raise RuntimeError("'keep my edits' is not ticked: the rebuild would drop the edits")
    fold = bench.editor.locator(".fdlab-build-section-fold")
    if "▸" in fold.inner_text():  # folded on a built board until a centreline tool is picked
        fold.click()
        bench.editor.locator("button.fdlab-rebuild").wait_for(timeout=SYNC_TIMEOUT_MS)
    before = page.evaluate("() => window.fdlabBench.fingerprint()")
    # the same message again after the first rebuild: the status line's edit count tells
    goal = {"kind": "rebuild", "before": before, "message": r"kept \d+ edit",
            "changed": [".fdlab-status"]}  # fmt: skip
    result = bench.timed(goal, bench.editor.locator("button.fdlab-rebuild").click)
    result["plot"] = max(result["source"], result["message"])
    kept = re.search(r"kept (\d+) edit", result["message_text"])
    result["kept"] = int(kept.group(1)) if kept else None
    if result["kept"] != edits:
        print(f"  note: rebuild {step + 1} says {result['message_text']!r}")
    return result


def row(name: str, times: list[float], goal: float | None = None) -> str:
    if not times:
        return f"{name:<46} {'-':>9} {'-':>9}"
    median, worst = statistics.median(times), max(times)
    figures = f"{name:<46} {_ms(median):>9} {_ms(worst):>9}"
    if goal is None:
        return figures
    return f"{figures} {'<= ' + _ms(goal):>10}  {'yes' if median <= goal else 'NO'}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 2 else f"{seconds:.2f} s"


def run(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="fdlab-editor-bench-") as folder:
        root = Path(folder) / "lab"
        write_lab(root)
        with jupyter_lab(root, Path(folder) / "home", NOTEBOOK) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1500, "height": 1100})
                run_all_cells(page, url, args.timeout * 1000)
                figures = measure(Bench(page, args.timeout * 1000), args)
            finally:
                browser.close()
    report(figures, args)


def measure(bench: Bench, args: argparse.Namespace) -> dict[str, Any]:
    page = bench.page
    bench.editor.locator(".fdlab-plot").scroll_into_view_if_needed()
    page.wait_for_function(
        "() => !!window.Bokeh && window.Bokeh.index.roots.some((v) => v.model.name === 'fdlab-board')"
    )
    page.evaluate(BENCH_JS)
    bench.wait_verdict_fresh()  # the first verdict, computed when the editor opened
    bench.kernel("fdlab_probe.time_verdicts(editor.verdict.watch)")
    targets = pick_targets(page.evaluate("() => window.fdlabBench.spaces()"), args.edits)
    quiet = max(0, min(args.verdict_edits, args.edits))
    clicking_along = len(targets) - quiet
    during = max(0, min(args.during_verdict, clicking_along))
    in_verdict = {clicking_along * (k + 1) // (during + 1) for k in range(during)}
    opened = bench.probe(reset=True)
    edits: list[dict[str, Any]] = []
    skipped: list[str] = []
    for index, target in enumerate(targets):
        waits = index >= len(targets) - quiet
        if waits:
            bench.wait_verdict_fresh()
        elif index in in_verdict:
            bench.wait_verdict_computing()
        try:
            edits.append(edit(bench, target, verdict=waits))
        except Exception as error:
            print(f"edit {index + 1} ({target}) did not come through: {error}")
            print("the kernel:", bench.kernel(STATE_CODE).strip().replace("\n", "; "))
            print("the page:", bench.page.evaluate(PAGE_STATE_JS))
            print("the last widget messages the kernel handled (start, duration, thread):")
            for took, what, began in bench.probe()["all_messages"][-10:]:
                print(f"  at {began:7.3f} s {_ms(took):>8}  {what}")
            if not isinstance(error, Unsynced):
                raise
            skipped.append(str(error))
            continue
        if args.verbose:
            print(f"  edit {index + 1:2} {_line(edits[-1])}")
    during_edits = bench.probe(reset=True)
    rebuilds = [rebuild(bench, step, len(edits)) for step in range(args.rebuilds)]
    if args.verbose:
        for step, result in enumerate(rebuilds):
            print(f"  rebuild {step + 1} {_line(result)}")
    after = bench.probe()
    return {
        "edits": edits,
        "rebuilds": rebuilds,
        "probe": during_edits,
        "rebuild_probe": after,
        "skipped": skipped,
        "objects": [opened["gc_objects"], during_edits["gc_objects"], after["gc_objects"]],
    }


def _line(result: dict[str, Any]) -> str:
    parts = [f"{key} {result[key] * 1000:.0f} ms" for key in
             ("tapped", "select", "source", "message", "busy", "fresh") if result.get(key) is not None]  # fmt: skip
    state = (result.get("state_at_click") or "").split("·")[-1].strip()
    return f"{result.get('kind', 'rebuild'):<7} " + ", ".join(parts) + f" (verdict: {state})"


def report(figures: dict[str, Any], args: argparse.Namespace) -> None:
    edits, rebuilds = figures["edits"], figures["rebuilds"]
    probe, rebuild_probe = figures["probe"], figures["rebuild_probe"]
    busy = ["updating" in (e["state_at_click"] or "") for e in edits]
    fresh = [e["fresh"] for e in edits if e.get("fresh") is not None]
    computing = [e["fresh"] - e["busy"] for e in edits if e.get("fresh") and e.get("busy")]
    verdicts = probe["verdicts"]
    print(f"Monaco in JupyterLab + chromium: {len(edits)} edits, {len(rebuilds)} rebuilds")
    for why in figures["skipped"]:
        print(f"  an edit was skipped: {why}")
    print(f"{'measure':<46} {'median':>9} {'worst':>9} {'goal':>10}  met?")
    print(row(f"click -> plot updated ({len(edits)} edits)", [e["plot"] for e in edits],
              GOALS["edit"]))  # fmt: skip
    print(row("  stops (dropdown)", [e["plot"] for e in edits if e["kind"] == "stops"]))
    print(row("  danger (button)", [e["plot"] for e in edits if e["kind"] == "hazard"]))
    print(row("  click -> data source only", [e["source"] for e in edits]))
    handlers = [took for took, what, _ in probe["all_messages"] if EDIT_MESSAGE.search(what)]
    if len(handlers) == len(edits):
        print(row("  of which the kernel's handler", handlers))
        print(row("  the rest: transport and browser",
                  [e["plot"] - took for e, took in zip(edits, handlers, strict=True)]))  # fmt: skip
    print(row("  long tasks of the page (over 50 ms)", [e["long"] for e in edits]))
    print(row(f"  verdict computing at the click ({sum(busy)})",
              [e["plot"] for e, b in zip(edits, busy, strict=True) if b]))  # fmt: skip
    print(row(f"  verdict not computing ({len(busy) - sum(busy)})",
              [e["plot"] for e, b in zip(edits, busy, strict=True) if not b]))  # fmt: skip
    print(row("  click on the board -> selection shown", [e["select"] for e in edits]))
    print(row("    of which Bokeh's own tap (in the page)", [e["tapped"] for e in edits]))
    kept = sorted({r["kept"] for r in rebuilds}, key=str)
    print(row(f"rebuild keeping {len(edits)} edits (said kept {kept})",
              [r["plot"] for r in rebuilds], GOALS["rebuild"]))  # fmt: skip
    print(row("longest kernel block during the edits", [probe["worst_lag"]], GOALS["block"]))
    print(row("  longest widget message handler",
              [probe["worst_messages"][0][0]] if probe["worst_messages"] else []))  # fmt: skip
    print(row("  longest kernel block during the rebuilds", [rebuild_probe["worst_lag"]]))
    print(row(f"verdict up to date after an edit ({len(fresh)})", fresh, GOALS["verdict"]))
    print(row("  of which 'updating...' shown", computing))
    print(row(f"  verdict computations ({len(verdicts)}): wall", [v[0] for v in verdicts]))
    print(row("  verdict computations: CPU of its thread", [v[1] for v in verdicts]))
    print()
    print(
        f"kernel probe during the edits: {probe['ticks']} ticks of 10 ms, "
        f"{probe['messages']} widget messages; worst lag by thread: "
        + ", ".join(f"{name} {_ms(lag)}" for name, lag in probe["worst_by_thread"].items())
    )
    print(
        "  lags over 50 ms (thread; kernel process CPU meanwhile): "
        + ", ".join(
            f"{_ms(lag)} ({name[:12]}; {_ms(cpu)})" for lag, name, cpu in probe["lags_over_50ms"]
        )
    )
    print(
        "  objects the garbage collector tracks (opened, after the edits, after the rebuilds): "
        + ", ".join(map(str, figures["objects"]))
    )
    print(
        "  garbage collections over 20 ms (generation, objects freed): "
        + ", ".join(
            f"{_ms(took)} ({generation}, {freed})" for took, generation, freed in probe["gc_pauses"]
        )
    )
    for title, found in (("the edits", probe), ("the rebuilds", rebuild_probe)):
        print(f"slowest widget messages during {title}:")
        for took, what, _ in found["worst_messages"][:3]:
            print(f"  {_ms(took):>8}  {what}")
    if args.verbose:
        print("every widget message during the edits, in order:")
        for took, what, began in probe["all_messages"]:
            print(f"  at {began:7.3f} s {_ms(took):>8}  {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20, help="edits to time (default 20)")
    parser.add_argument("--verdict-edits", type=int, default=3,
                        help="of those, the last ones that wait for the verdict (default 3)")  # fmt: skip
    parser.add_argument("--during-verdict", type=int, default=4,
                        help="of the others, how many wait for a verdict to be computing and "
                        "are made meanwhile (default 4)")  # fmt: skip
    parser.add_argument("--rebuilds", type=int, default=3, help="rebuilds to time (default 3)")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per step (default 60)")
    parser.add_argument("--verbose", action="store_true", help="print every edit's timings")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)",
              file=sys.stderr)  # fmt: skip
        sys.exit(2)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print("the playwright package is missing: pip install playwright (no browser download "
              "needed, the benchmark uses /usr/bin/chromium)", file=sys.stderr)  # fmt: skip
        sys.exit(2)
    run(args)


if __name__ == "__main__":
    main()
