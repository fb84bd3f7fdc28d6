"""The widget shell the editor, the race table and Formula Fun share (private).

One home for what every fdlab widget needs around its own content:

- a :class:`MessageLine` that says what was done or, in one colour, why an
  action was refused (with the traceback folded under "details" when the
  error was a bug, not a refusal);
- :func:`reported`, the decorator that runs a widget callback and shows any
  error on that line instead of losing it in the browser console
  (:func:`bug_report` words an unexpected one, for a task that catches its own);
- :func:`button`, a button with a CSS class (the browser tests and the
  enabling logic find it by it), and :class:`Buttons`, which makes them and
  keeps them by that class;
- :func:`row` and :func:`labelled`, layout rows that wrap on a narrow screen,
  and :func:`table_row`, a row made from a table of label, CSS class,
  control and tooltip;
- :func:`load_bokehjs`, which puts BokehJS on the page once, from the
  installed package (no CDN);
- :func:`fold` and :func:`board_beside_panel`, the one-screen layout: the
  board on the left, the controls beside it in sections that fold, so a
  1366x768 laptop shows both without scrolling;
- :func:`in_background`, for work longer than a callback may block (about
  0.3 s): it runs in a worker thread and its answer comes back to the
  notebook's thread;
- :class:`Poller`, the polling task of the shared tables (the race's and
  Formula Fun's): their ``poll_once`` every few seconds in the notebook's
  loop, a trouble said once, one poller per table in a kernel; and
  :func:`owners_html`, their line saying who holds which seat.

The rules engine never imports this module (the layer test keeps it so).

Examples
--------
>>> line = MessageLine()
>>> line.refuse("make corner: select a space on the plot first")
>>> line.last_error
'make corner: select a space on the plot first'
>>> line.say("corner 3: 2 stops")
>>> line.last_error is None, line.last_message
(True, 'corner 3: 2 stops')
"""

from __future__ import annotations

import asyncio
import functools
import html
import importlib
import sys
import traceback
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import ipywidgets as w

from fdlab.errors import FdlabError

__all__ = [
    "ERROR_COLOR",
    "PANEL_WIDTH",
    "SCREEN_HEIGHT",
    "Buttons",
    "MessageLine",
    "PolledWidget",
    "LOCK_WAIT",
    "POLL_SECONDS",
    "Poller",
    "ReportingWidget",
    "board_beside_panel",
    "bug_report",
    "button",
    "fold",
    "import_in_background",
    "in_background",
    "labelled",
    "load_bokehjs",
    "owners_html",
    "reported",
    "row",
    "running_loop",
    "table_row",
]

#: The one colour of a refusal, in every fdlab widget (dark red, readable on white).
ERROR_COLOR = "#b00020"

Handler = TypeVar("Handler", bound=Callable[..., Any])


class MessageLine:
    """The lines of a widget that say what was done, or why not.

    Every message has a *topic*; a new message replaces the last one of its
    topic only. The newest shows first and up to :attr:`SHOWN` topics show
    at once, the older ones greyed, so a verdict that arrives by itself
    does not wipe out what the designer's last action said. Widgets that
    never give a topic keep one line with the last message.

    The line keeps its height when empty, so nothing below it jumps when a
    message comes. With ``lines`` it is always that many lines tall, and
    what does not fit scrolls inside it (the newest message on top): a
    widget whose board lies below its messages keeps the board still.

    Parameters
    ----------
    lines : int, optional
        The fixed height in lines; by default one line at least, growing
        with the message.

    Attributes
    ----------
    widget : ipywidgets.HTML
        The lines on the page (CSS class ``fdlab-message``).
    last_message : str or None
        The text of the last message, refusal or not.
    last_error : str or None
        The text of the last refusal, ``None`` once something else was said.

    Examples
    --------
    >>> line = MessageLine()
    >>> line.refuse("no such file", details="Traceback ...")
    >>> "details" in line.widget.value and "#b00020" in line.widget.value
    True
    >>> line.say("corner 3: 2 stops")
    >>> line.say("Par 7.9 (-0.1)", topic="verdict")
    >>> line.shown()
    ['Par 7.9 (-0.1)', 'corner 3: 2 stops']
    >>> line.clear(); line.widget.value, line.last_error, line.shown()
    ('', None, [])
    """

    #: How many topics show at once, newest first.
    SHOWN = 3

    def __init__(self, lines: int | None = None) -> None:
        layout = (
            # ipywidgets sets a line of HTML that tall
            w.Layout(
                height=f"calc({lines} * var(--jp-widgets-inline-height, 28px))", overflow="auto"
            )
            if lines is not None
            else w.Layout(min_height="1.8em")
        )
        self.widget = w.HTML(layout=layout)
        self.widget.add_class("fdlab-message")
        self.last_message: str | None = None
        self.last_error: str | None = None
        # topic -> (plain text, html), oldest first
        self._recent: dict[str, tuple[str, str]] = {}

    def say(self, message: str, *, markup: bool = False, topic: str = "action") -> None:
        """Show what was done (plain text, or HTML when ``markup`` is true).

        It replaces the last message of the same ``topic``.
        """
        self.last_error = None
        self.last_message = message
        shown = message if markup else html.escape(message)
        self._show(topic, message, f"<span class='fdlab-said'>{shown}</span>")

    def refuse(self, message: str, details: str = "", *, topic: str = "action") -> None:
        """Show why an action was refused; ``details`` (a traceback) folds under it."""
        self.last_error = message
        self.last_message = message
        more = (
            f"<details><summary>details</summary><pre>{html.escape(details)}</pre></details>"
            if details
            else ""
        )
        self._show(
            topic,
            message,
            f"<span class='fdlab-refused' style='color:{ERROR_COLOR}'>"
            f"\u26a0 {html.escape(message)}</span>{more}",
        )

    def shown(self) -> list[str]:
        """The messages on the page, newest first (their plain text)."""
        return [text for text, _ in reversed(self._recent.values())][: self.SHOWN]

    def clear(self) -> None:
        """Empty the line."""
        self.last_error = None
        self.last_message = None
        self._recent.clear()
        self.widget.value = ""

    def _show(self, topic: str, text: str, markup: str) -> None:
        self._recent.pop(topic, None)
        self._recent[topic] = (text, markup)
        while len(self._recent) > self.SHOWN:
            del self._recent[next(iter(self._recent))]
        newest_first = list(reversed(self._recent.values()))
        if len(newest_first) == 1:
            self.widget.value = newest_first[0][1]
            return
        # a line break between the messages: their text never runs together (a search
        # for "to 2" must not find "to 2How it plays")
        older = "".join(
            f"\n<div class='fdlab-older' style='opacity:0.6'>{shown}</div>"
            for _, shown in newest_first[1:]
        )
        self.widget.value = f"<div>{newest_first[0][1]}</div>{older}"


#: One worker thread for the widgets' long work (printing...): one job at a time.
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fdlab-widget")

T = TypeVar("T")


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The notebook's event loop, or ``None`` in plain Python (a script, a test).

    Examples
    --------
    >>> running_loop() is None
    True
    """
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def in_background(
    work: Callable[[], T], done: Callable[[T], None], failed: Callable[[BaseException], None]
) -> None:
    """Run ``work`` in a worker thread, then ``done(result)`` or ``failed(error)``.

    In a notebook the call returns at once and ``done`` or ``failed`` runs
    later on the notebook's thread (widgets are updated there). In plain
    Python, where no event loop runs, everything runs here and now.

    Examples
    --------
    >>> in_background(lambda: 6 * 7, print, print)
    42
    >>> in_background(lambda: 1 / 0, print, lambda error: print(type(error).__name__))
    ZeroDivisionError
    """
    loop = running_loop()
    if loop is None:
        try:
            result = work()
        except Exception as error:  # handed to the caller's handler
            failed(error)
            return
        done(result)
        return

    async def wait() -> None:
        try:
            result = await asyncio.wrap_future(_WORKER.submit(work))
        except Exception as error:  # handed to the caller's handler
            failed(error)
            return
        done(result)

    _TASKS.add(task := loop.create_task(wait()))
    task.add_done_callback(_TASKS.discard)


def import_in_background(module: str) -> None:
    """Import ``module`` in the widgets' worker thread now, ahead of its first use.

    For a module that is slow to import and first needed by a button (the
    board builder takes 0.7 s, most of it scipy): the first press then
    waits only for its own work. The notebook's thread is not held up. In
    plain Python (no event loop), or when ``module`` is imported already,
    nothing happens: it is imported where it is used.

    Examples
    --------
    >>> import_in_background("fdlab.track.build")  # plain Python: imported on first use
    """
    if module not in sys.modules and running_loop() is not None:
        _WORKER.submit(importlib.import_module, module)


#: Tasks of :func:`in_background` still running (the loop keeps only weak references).
_TASKS: set[asyncio.Task[None]] = set()


class ReportingWidget(Protocol):
    """What :func:`reported` needs of the widget whose callbacks it runs."""

    messages: MessageLine

    def after_callback(self) -> None:
        """Bring the controls up to date after any callback, refused or not."""


def bug_report(error: BaseException) -> tuple[str, str]:
    """What a message line says of an error that is a bug: its type and words, and its traceback.

    Examples
    --------
    >>> try:
    ...     {}["lap"]
    ... except KeyError as error:
    ...     message, details = bug_report(error)
    >>> message, details.startswith("Traceback")
    ("KeyError: 'lap'", True)
    """
    return f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error))


def reported(method: Handler) -> Handler:
    """Run a widget callback, showing any error on the widget's message line.

    An fdlab error (a refused move, a bad file, a wrong value) is shown in its
    own words; anything else is a bug, shown with its type and the traceback
    folded under "details". The widget's ``after_callback`` runs either way.

    Examples
    --------
    >>> class Demo:
    ...     def __init__(self):
    ...         self.messages = MessageLine()
    ...     def after_callback(self):
    ...         pass
    ...     @reported
    ...     def act(self):
    ...         raise FdlabError("not now: the race is over")
    >>> demo = Demo(); demo.act(); demo.messages.last_error
    'not now: the race is over'
    """

    @functools.wraps(method)
    def wrapper(self: ReportingWidget, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except FdlabError as error:
            self.messages.refuse(str(error))
        except Exception as error:  # callbacks must never lose an error
            self.messages.refuse(*bug_report(error))
        finally:
            self.after_callback()
        return None

    return wrapper  # type: ignore[return-value]


def button(
    text: str,
    css: str,
    handler: Callable[[], None],
    tip: str = "",
    *,
    layout: w.Layout | None = None,
    **options: Any,
) -> w.Button:
    """A button labelled ``text`` with the CSS class ``css`` that calls ``handler()`` when clicked.

    It is as wide as its text unless a ``layout`` is given; ``tip`` is its
    tooltip (its text when empty); ``options`` go to :class:`ipywidgets.Button`
    (``button_style``...).

    Examples
    --------
    >>> clicks = []
    >>> gear = button("3rd", "fdlab-gear", lambda: clicks.append(3), "free shift",
    ...               layout=w.Layout(width="100%"), button_style="warning")
    >>> gear.click(); clicks, gear.tooltip, gear.layout.width, gear.button_style
    ([3], 'free shift', '100%', 'warning')
    """
    if layout is None:
        layout = w.Layout(width="auto", flex="0 0 auto")
    control = w.Button(description=text, tooltip=tip or text, layout=layout, **options)
    control.add_class(css)
    control.on_click(lambda _button: handler())
    return control


class Buttons:
    """Make buttons that carry a CSS class (:func:`button`) and keep them by it.

    Examples
    --------
    >>> buttons = Buttons()
    >>> save = buttons.make("Save", "fdlab-save", lambda: None, "write the file")
    >>> buttons["fdlab-save"] is save, save.tooltip
    (True, 'write the file')
    """

    def __init__(self) -> None:
        self.by_class: dict[str, w.Button] = {}

    def make(
        self, text: str, css: str, handler: Callable[[], None], tip: str = "", **options: Any
    ) -> w.Button:
        """A :func:`button`, kept by its CSS class."""
        control = button(text, css, handler, tip, **options)
        self.by_class[css] = control
        return control

    def __getitem__(self, css: str) -> w.Button:
        return self.by_class[css]

    def items(self) -> list[tuple[str, w.Button]]:
        """(CSS class, button) pairs in the order they were made."""
        return list(self.by_class.items())


def labelled(control: w.Widget, css: str) -> Any:
    """Give a control its CSS class and a description as wide as its text.

    Examples
    --------
    >>> labelled(w.Text(description="Corner name"), "fdlab-corner-name").style.description_width
    'initial'
    """
    control.add_class(css)
    control.style = {"description_width": "initial"}
    return control


def row(*children: w.Widget) -> w.HBox:
    """Controls side by side, wrapping onto the next line on a narrow screen.

    Examples
    --------
    >>> len(row(w.Button(), w.Button()).children)
    2
    """
    return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap"))


#: One control of a :func:`table_row`: (label, CSS class, control) or (label, CSS class,
#: control, tooltip). The control is a widget, or the handler of a button.
RowEntry = tuple[str, str, Any] | tuple[str, str, Any, str]


def table_row(buttons: Buttons, table: Sequence[RowEntry]) -> w.HBox:
    """A :func:`row` of controls from a table, one entry a control, in the row's order.

    An entry's control is a widget (a text box, a dropdown...): the label
    becomes its description (none when the label is empty), the tooltip its
    tooltip, and it is :func:`labelled` with the CSS class. Otherwise it is a
    handler: the entry makes a button of ``buttons`` (:meth:`Buttons.make`)
    labelled so, with that CSS class and tooltip, that calls it.

    Examples
    --------
    >>> buttons, stops = Buttons(), w.Dropdown(options=[1, 2, 3])
    >>> corner = table_row(buttons, [
    ...     ("Stops", "fdlab-stops", stops, "stops in the corner"),
    ...     ("Make corner", "fdlab-make-corner", lambda: None),
    ... ])
    >>> [child.description for child in corner.children], stops.tooltip
    (['Stops', 'Make corner'], 'stops in the corner')
    >>> buttons["fdlab-make-corner"] is corner.children[1]
    True
    """
    controls = []
    for label, css, control, *tip in table:
        if isinstance(control, w.Widget):
            if label:
                control.description = label
            if tip:
                control.tooltip = tip[0]
            controls.append(labelled(control, css))
        else:
            controls.append(buttons.make(label, css, control, *tip))
    return row(*controls)


#: How wide the control panel beside the board is.
PANEL_WIDTH = "30em"
#: As tall as the browser window leaves room for below JupyterLab's menu, tab bar and
#: notebook toolbar (about 130 px), never shorter than a usable board.
SCREEN_HEIGHT = "max(440px, calc(100vh - 132px))"


def fold(title: str, children: list[w.Widget], css: str, *, open: bool = True) -> w.VBox:
    """A section of controls under a title that folds it away and back.

    The title is a toggle button with the CSS class ``{css}-fold`` (tests and
    people click it); the section carries ``css``.

    Examples
    --------
    >>> section = fold("Picture to trace", [w.Button(description="Load")], "fdlab-picture",
    ...                open=False)
    >>> header, body = section.children
    >>> body.layout.display, header.description
    ('none', '▸ Picture to trace')
    >>> header.value = True
    >>> body.layout.display, header.description
    ('flex', '▾ Picture to trace')
    """
    body = w.VBox(children, layout=w.Layout(display="flex" if open else "none"))
    body.add_class("fdlab-fold-body")
    header = w.ToggleButton(value=open, layout=w.Layout(width="100%"))
    header.add_class("fdlab-fold")
    header.add_class(f"{css}-fold")
    header.style.font_weight = "bold"

    def show(is_open: bool) -> None:
        body.layout.display = "flex" if is_open else "none"
        header.description = f"{'▾' if is_open else '▸'} {title}"
        header.tooltip = f"{'fold' if is_open else 'show'} {title.lower()}"

    show(open)
    header.observe(lambda change: show(bool(change["new"])), names="value")
    section = w.VBox([header, body], layout=w.Layout(width="100%", flex="0 0 auto"))
    section.add_class(css)
    return section


#: Widgets keep a margin of 2 px a side: one made as wide as its section would stick out
#: 4 px and give every section of the panel a sideways scrollbar.
_PANEL_STYLE = """<style>
.fdlab-panel .widget-box > .jupyter-widgets:not(.widget-box) {
  max-width: calc(100% - 2 * var(--jp-widgets-margin, 2px));
}
</style>"""


def board_beside_panel(
    board: list[w.Widget],
    panel: list[w.Widget],
    css: str,
    *,
    height: str | None = None,
    fill: bool = True,
) -> w.Box:
    """The one-screen layout: the board column on the left, the controls on the right.

    The panel scrolls on its own when its open sections are taller than the
    board; on a screen too narrow for both, it wraps below the board.

    Parameters
    ----------
    board : list of ipywidgets.Widget
        The board column, top to bottom.
    panel : list of ipywidgets.Widget
        The controls beside it (sections made by :func:`fold`).
    css : str
        The CSS class of the whole layout.
    height : str, optional
        A CSS height for the board column, e.g. :data:`SCREEN_HEIGHT`: the
        column is that tall and a child laid out to grow (``flex="1 1 0"``)
        takes what the others leave; the panel is no taller, scrolling inside
        itself. By default the column is as tall as its content and the panel
        at most 88 % of the window.
    fill : bool
        With a ``height``: the column is that tall (true), or at most that
        tall (false): as tall as its content, a child laid out to shrink
        (``flex="0 1 auto"``) giving up what does not fit. A board that has a
        height of its own (the race table's small boards) takes no more of a
        big screen than it needs.

    Examples
    --------
    >>> layout = board_beside_panel([w.HTML("board")], [w.HTML("controls")], "fdlab-demo")
    >>> [child.layout.flex for child in layout.children]
    ['1 1 34em', '0 1 30em']
    >>> left, right = board_beside_panel([w.HTML("board")], [], "fdlab-demo",
    ...                                  height=SCREEN_HEIGHT).children
    >>> left.layout.height == right.layout.max_height == SCREEN_HEIGHT
    True
    >>> left, _ = board_beside_panel([w.HTML("board")], [], "fdlab-demo", height=SCREEN_HEIGHT,
    ...                              fill=False).children
    >>> left.layout.height is None and left.layout.max_height == SCREEN_HEIGHT
    True
    """
    left = w.VBox(
        board,
        layout=w.Layout(
            flex="1 1 34em",
            min_width="0",
            height=height if fill else None,
            max_height=None if fill else height,
        ),
    )
    left.add_class("fdlab-board-column")
    style = w.HTML(_PANEL_STYLE, layout=w.Layout(display="none"))  # <style> applies unseen
    right = w.VBox(
        [style, *panel],
        layout=w.Layout(
            flex=f"0 1 {PANEL_WIDTH}",
            max_height=height or "88vh",
            overflow="hidden auto",
            padding="0 0 0 6px",
        ),
    )
    right.add_class("fdlab-panel")
    box = w.Box([left, right], layout=w.Layout(flex_flow="row wrap", width="100%"))
    box.add_class(css)
    return box


#: The page BokehJS was last put on (see :func:`_page`), or ``None`` before that.
_bokeh_page: list[object] = []


def _page() -> object:
    """A token of the notebook page the kernel talks to: the widget control channel.

    JupyterLab opens that channel (``jupyter.widget.control``) anew each time a
    page connects to a running kernel, to ask for the widgets' state; so a
    tab closed and opened again, or reloaded, brings a new one.
    """
    return w.Widget._control_comm


def load_bokehjs(*, again: bool = False) -> None:
    """Put BokehJS on the notebook page from the installed package (no CDN).

    Does nothing outside an IPython kernel, or when it is on the page already:
    it is sent again when the page is new (a tab closed and opened again, or
    reloaded, on a running kernel: the widget control channel changed) or
    when asked (``again``: a widget that expects a page of its own, such as
    a shared race table joined again).

    Examples
    --------
    >>> load_bokehjs()  # in a plain Python session there is no page to load it on
    """
    page = _page()
    if _bokeh_page and _bokeh_page[0] is page and not again:
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with ipywidgets
        return
    if get_ipython() is None:
        return
    from fdlab.plot.notebook import inline_bokehjs

    inline_bokehjs()
    _bokeh_page[:] = [page]


class PolledWidget(Protocol):
    """What a :class:`Poller` needs of the widget it polls for."""

    messages: MessageLine
    #: Seconds between two polls in a notebook (read before every pause: settable).
    poll_seconds: float

    def poll_once(self) -> bool:
        """One poll: read what changed (a shared game log), redraw; True if anything did."""


#: How often a table reads the shared game log, in seconds.
POLL_SECONDS = 0.5
#: The longest a button waits for the log's lock (a callback never blocks the page longer).
LOCK_WAIT = 0.25


class Poller:
    """A widget's polling task: its ``poll_once`` every few seconds in the notebook's loop.

    The shared tables of the race and of Formula Fun read their game log this
    way (an ``asyncio`` task in the kernel's event loop: no thread). The task
    calls the widget's ``poll_once``, then waits its ``poll_seconds``, less
    when a paced step (a bot's next move) falls due sooner, four times as long
    while the polls are in trouble. A poll's work runs under :meth:`reporting`:
    an error is said on the message line once, not twice a second. One
    poller runs per ``key`` in a kernel: :meth:`start` stops the one before
    (a table joined again, from a page opened anew, replaces the older).
    Outside a notebook (a script, a test) nothing runs by itself: call the
    widget's ``poll_once``.

    Parameters
    ----------
    widget : PolledWidget
        Its ``poll_once``, ``poll_seconds`` and ``messages``.
    key : hashable
        What it polls, e.g. (the log's real path, the player): one poller a key.
    pace : callable, optional
        How many seconds after the last :meth:`changed` a paced step is due
        (a bot's delay), or None when none waits.
    expected : exception class or tuple of them
        The errors :meth:`reporting` says in their own words; any other is a
        bug, said with its traceback.

    Examples
    --------
    >>> class Demo:
    ...     def __init__(self):
    ...         self.messages, self.poll_seconds, self.polls = MessageLine(), 0.01, 0
    ...         self.poller = Poller(self, key="demo")
    ...     def poll_once(self):
    ...         self.polls += 1
    ...         with self.poller.reporting():
    ...             raise FdlabError("the log is gone")
    ...         return False
    >>> demo = Demo()
    >>> demo.poll_once(); demo.poll_once(); demo.messages.last_error  # said once
    False
    False
    'the log is gone'
    >>> async def notebook():
    ...     demo.poller.start()
    ...     await asyncio.sleep(0.1)
    ...     Demo().poller.start()  # the same key again: the first one stops
    ...     return demo.poller.stopped
    >>> asyncio.run(notebook()), demo.polls > 2
    (True, True)
    """

    #: The pollers of this kernel by key (weakly: a widget dropped is forgotten).
    _live: weakref.WeakValueDictionary[Hashable, Poller] = weakref.WeakValueDictionary()

    def __init__(
        self,
        widget: PolledWidget,
        *,
        key: Hashable,
        pace: Callable[[], float | None] | None = None,
        expected: type[Exception] | tuple[type[Exception], ...] = FdlabError,
    ) -> None:
        self.widget = widget
        self.key = key
        self.pace = pace
        self.expected = expected
        #: What the polls' trouble is (said once), None while they go well.
        self.trouble: str | None = None
        #: Stopped for good: :meth:`start` does nothing any more.
        self.stopped = False
        self._task: asyncio.Task[None] | None = None
        self._last_change = 0.0

    @classmethod
    def of(cls, key: Hashable) -> Poller | None:
        """The poller of ``key`` started in this kernel (still alive, perhaps stopped), or None."""
        return cls._live.get(key)

    def start(self) -> None:
        """Poll from now on in the notebook's event loop (stopping the poller of the same
        key); does nothing once stopped, or while already polling."""
        if self.stopped:
            return
        older = Poller._live.get(self.key)
        if older is not None and older is not self:
            older.stop()
        Poller._live[self.key] = self
        loop = running_loop()
        if loop is None or (self._task is not None and not self._task.done()):
            return
        self._task = loop.create_task(self._run())

    def stop(self) -> None:
        """Stop polling, for good."""
        self.stopped = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    @contextmanager
    def reporting(self) -> Iterator[None]:
        """Run one poll's work: an error stops it and is said on the message line, once
        (the same words are not said again at the next poll); work that goes through
        ends the trouble. The polling task never dies of an error."""
        try:
            yield
        except self.expected as error:
            self._say(str(error), "")
        except Exception as error:  # the polling task must not die of a bug
            self._say(*bug_report(error))
        else:
            self.trouble = None

    def changed(self) -> None:
        """Something changed now: a paced step waits its delay from here."""
        loop = running_loop()
        self._last_change = loop.time() if loop is not None else 0.0

    def due(self) -> bool:
        """A paced step is due now: ``pace`` says one waits and that long has passed since
        the last change (at once outside a notebook)."""
        delay = self.pace() if self.pace is not None else None
        if delay is None:
            return False
        loop = running_loop()
        return loop is None or loop.time() - self._last_change >= delay

    def _say(self, message: str, details: str) -> None:
        if message != self.trouble:  # said once, not twice a second
            self.trouble = message
            self.widget.messages.refuse(message, details)

    async def _run(self) -> None:
        while not self.stopped:
            self.widget.poll_once()
            pause = self.widget.poll_seconds
            delay = self.pace() if self.pace is not None else None
            if delay is not None:  # the next paced step on time, not a poll later
                due = self._last_change + delay - asyncio.get_running_loop().time()
                pause = min(pause, max(due, 0.05))
            await asyncio.sleep(pause * (4 if self.trouble else 1))


def owners_html(
    player: str, seats: Sequence[tuple[str, str]], on_turn: int | None, log: str, more: str = ""
) -> str:
    """The line above a shared table: who plays, who holds which seat (the one on turn in
    bold), the log's name; ``more`` (HTML) after it.

    Examples
    --------
    >>> line = owners_html("Ana", [("Blue", "Ana (you)"), ("Red", "Ben")], 1, "shared race: x.log")
    >>> "You: <b>Ana</b> · Blue: Ana (you) · <b>Red: Ben</b>" in line, "(shared race: x.log)" in line
    (True, True)
    """
    parts = [f"You: <b>{html.escape(player)}</b>"]
    for k, (name, label) in enumerate(seats):
        text = f"{html.escape(name)}: {html.escape(label)}"
        parts.append(f"<b>{text}</b>" if k == on_turn else text)
    return (
        f"<div style='font-size:0.85em;line-height:1.4'>{' · '.join(parts)} "
        f"<span style='color:#666'>({html.escape(log)})</span>{more}</div>"
    )
