"""A finished race as one standalone HTML page: the board, a slider over the rounds, the log.

The page carries BokehJS inline (no CDN), so it opens offline in any browser
and can be mailed or kept beside the game file. Moving the slider shows the
cars where they were at the end of that round, the standings and what
happened in the round.
"""

from __future__ import annotations

import html
import os
import reprlib
from pathlib import Path
from typing import Any, Protocol, TypedDict

from fdlab.files import atomic_write
from fdlab.plot.colors import car_color
from fdlab.plot.data import car_data
from fdlab.plot.figure import board_figure, car_rows, pixels_per_unit
from fdlab.plot.geometry import space_size
from fdlab.rules.presets import ordinal
from fdlab.rules.race import Race
from fdlab.rules.state import FINISHED, RaceState
from fdlab.table.errors import TableTypeError

__all__ = ["RaceHolder", "ReplayFrame", "replay_frames", "replay_html", "save_replay"]


class RaceHolder(Protocol):
    """Something that holds a race: a replay takes it instead of the race itself.

    A :class:`~fdlab.table.controller.TableController` and the race tables
    (:class:`~fdlab.table.widget.RaceTable`, a shared one) do.
    """

    @property
    def race(self) -> Race:
        """The race played at the table."""
        ...


class ReplayFrame(TypedDict):
    """One frame of a replay: a round (or the start), as the slider shows it.

    Attributes
    ----------
    title : str
        ``"Start"``, ``"Round 3"``...; the last frame of a finished race
        says ``(finish)``.
    state : RaceState
        The position at the end of the round.
    events : list of str
        What happened in the round, in the order played.
    """

    title: str
    state: RaceState
    events: list[str]


def replay_frames(race: Race | RaceHolder) -> list[ReplayFrame]:
    """One frame per round (and the start): the state at its end, its title and its events.

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=2)
    >>> _ = race.play_bots([HeuristicBot(), HeuristicBot()])
    >>> frames = replay_frames(race)
    >>> frames[0]["title"], frames[-1]["state"] == race.state
    ('Start', True)
    """
    race = _race_of(race)
    frames: list[ReplayFrame] = [{"title": "Start", "state": race.start, "events": []}]
    for before, _action, events in race.history():
        if before.round != frames[-1]["state"].round and before.round > 0:
            frames.append({"title": f"Round {before.round}", "state": before, "events": []})
        frames[-1]["events"] = [*frames[-1]["events"], *(e.text for e in events)]
    # each frame shows the position at the end of its round: the next frame's start
    ends = [frame["state"] for frame in frames[1:]] + [race.state]
    for frame, end in zip(frames, ends, strict=True):
        frame["state"] = end
    if race.over:
        frames[-1]["title"] += " (finish)"
    return frames


def replay_html(race: Race | RaceHolder, *, width: int = 900, title: str | None = None) -> str:
    """The replay page of ``race`` (or of a table's race) as HTML text (BokehJS inlined).

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=2)
    >>> _ = race.play_bots([HeuristicBot(), HeuristicBot()])
    >>> page = replay_html(race)
    >>> "fdlab-replay-slider" in page and "cdn.bokeh.org" not in page
    True
    >>> replay_html("race")
    Traceback (most recent call last):
    ...
    fdlab.table.errors.TableTypeError: race: a replay page shows a Race (or a table's), not 'race' (of type str)
    """
    race = _race_of(race)
    from bokeh.embed import file_html
    from bokeh.layouts import column, row
    from bokeh.models import CustomJS, Div, Slider
    from bokeh.resources import INLINE

    track = race.track
    name = title or f"{track.name}: a replay"
    frames = replay_frames(race)
    fig = board_figure(track, width=width, title=f"{track.name} · {race.preset.name} rules")
    scale = pixels_per_unit(track, width, fig.height)
    size = space_size(track)
    tables = [car_rows(_cars(race, frame["state"]), scale, size) for frame in frames]
    texts = [_frame_html(race, frame) for frame in frames]
    source = next(r for r in fig.renderers if r.name == "cars").data_source
    source.data = tables[-1]
    log = Div(text=texts[-1], width=340, height=fig.height, styles={"overflow-y": "auto"})
    slider = Slider(
        start=0,
        end=max(len(frames) - 1, 1),
        value=len(frames) - 1,
        step=1,
        title="Round",
        width=width,
        name="fdlab-replay-slider",
        disabled=len(frames) < 2,
    )
    slider.js_on_change(
        "value",
        CustomJS(
            args={"source": source, "log": log, "tables": tables, "texts": texts},
            code="const k = cb_obj.value; source.data = tables[k]; log.text = texts[k];",
        ),
    )
    heading = Div(
        text=f"<h2 style='margin:0'>{html.escape(name)}</h2>"
        f"<p style='margin:0.2em 0'>{html.escape(_summary(race))}</p>",
        width=width,
    )
    layout = column(heading, slider, row(fig, log))
    page: str = file_html(layout, resources=INLINE, title=name)
    return page


def save_replay(race: Race | RaceHolder, path: str | os.PathLike[str], **options: Any) -> Path:
    """Write :func:`replay_html` to ``path`` (atomically) and return the path.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> race = Race(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11), seed=2)
    >>> save_replay(race, pathlib.Path(tempfile.mkdtemp()) / "race.html").suffix
    '.html'
    """
    race = _race_of(race)
    if not isinstance(path, (str, os.PathLike)):
        raise TableTypeError(
            f"path: a replay page's path is a str or a pathlib.Path, not {reprlib.repr(path)} "
            f"(of type {type(path).__name__})"
        )
    target = Path(path)
    atomic_write(target, replay_html(race, **options).encode("utf-8"))
    return target


def _race_of(race: object) -> Race:
    """``race``, or the race of a table (a TableController or a RaceTable): a notebook may
    pass anything, so it is checked."""
    if isinstance(race, Race):
        return race
    inner = getattr(race, "race", None)
    if isinstance(inner, Race):
        return inner
    raise TableTypeError(
        f"race: a replay page shows a Race (or a table's), not {reprlib.repr(race)} "
        f"(of type {type(race).__name__})"
    )


def _cars(race: Race, state: RaceState) -> dict[str, list[Any]]:
    cars = [
        (race.board.ids[car.space], name, car_color(k, name))
        for k, (car, name) in enumerate(zip(state.cars, race.names, strict=True))
        if car.space >= 0
    ]
    return car_data(race.track, cars)


def _frame_html(race: Race, frame: ReplayFrame) -> str:
    state = frame["state"]
    rows = []
    for k in _order(state):
        car = state.cars[k]
        if car.status == FINISHED:
            where = f"finished {ordinal(state.finished.index(k) + 1)}"
        elif not car.racing:
            where = "out"
        else:
            space = race.board.ids[car.space] if car.space >= 0 else "-"
            lap = min(max(car.lap, 1), race.preset.laps)
            where = f"lap {lap}, space {space}, {ordinal(car.gear) if car.gear else '-'} gear"
        pools = ", ".join(
            f"{p} {v}" for p, v in zip(race.preset.pool_names, car.pools, strict=True)
        )
        color = car_color(k, race.names[k])
        rows.append(
            f"<li><span style='color:{color}'>&#9632;</span> <b>{html.escape(race.names[k])}</b>"
            f": {html.escape(where)} ({html.escape(pools)})</li>"
        )
    events = "".join(f"<div>{html.escape(text)}</div>" for text in reversed(frame["events"]))
    return (
        f"<h3 style='margin:0.2em 0'>{html.escape(frame['title'])}</h3>"
        f"<ol style='padding-left:1.2em;margin:0.2em 0'>{''.join(rows)}</ol>"
        "<div style='font-family:monospace;font-size:0.85em'>"
        f"{events or '<i>the grid</i>'}</div>"
    )


def _order(state: RaceState) -> list[int]:
    racing = [c for c in state.order if state.cars[c].racing]
    racing += [c for c in range(len(state.cars)) if state.cars[c].racing and c not in racing]
    return [*state.finished, *racing, *reversed(state.eliminated)]


def _summary(race: Race) -> str:
    state = race.state
    laps = f"{race.preset.laps} lap" + ("" if race.preset.laps == 1 else "s")
    text = f"{len(race.names)} cars, {laps}, seed {race.seed}, {state.round} rounds"
    if state.finished:
        text += f"; {race.names[state.finished[0]]} wins"
    return text + ". Move the slider to see the race round by round."
