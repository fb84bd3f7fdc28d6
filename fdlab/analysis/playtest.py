"""Monte Carlo playtests: race bots on a board many times, on every core or a Dask cluster.

:func:`playtest` plays ``races`` races and returns a :class:`PlaytestResult`
holding four tidy pandas tables (one row per race, per car per race, per
turn and, if asked, per engine event).

Reproducibility: race ``i`` uses the ``i``-th child of
``numpy.random.SeedSequence(seed)`` for its dice and its bots, and every race
gets fresh bots, so the tables are the same whatever the number of workers
or the cluster (a test checks 1 against 2 workers).

Parallelism: by default races are spread over all cores with
:class:`concurrent.futures.ProcessPoolExecutor` (spawned processes). The
track (as its JSON dict), preset and bots go to each worker once, through a
temporary file its initializer reads, and the board is compiled once per
worker; tasks are chunks of races and carry only race numbers and seeds.
Given a ``dask.distributed.Client``, the payload is scattered to every
worker once and chunks of races are sent with ``client.map``.
``workers=1`` plays in this process.

A script that plays on several processes must keep its top-level code under
``if __name__ == "__main__":`` (each spawned worker imports the script);
otherwise :class:`PlaytestError` says so instead of the pool failing.
"""

from __future__ import annotations

import html
import multiprocessing
import numbers
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import pandas as pd

from fdlab._text import counted
from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.race_helper import RaceHelper
from fdlab.analysis.racelog import (
    CAR_COLUMNS,
    EVENT_COLUMNS,
    RACE_COLUMNS,
    TURN_COLUMNS,
    RaceLog,
    Record,
    play_logged_race,
)
from fdlab.bots.roster import DEFAULT_BOT, bot_label, make_bot, table_slots
from fdlab.par.table import ParTable, board_key, keyed_board, known_table, remember, solo_table
from fdlab.rules.board import Board, compile_board
from fdlab.rules.collector import fewer_collections
from fdlab.rules.engine import CAR_NAMES
from fdlab.rules.order import next_corners
from fdlab.rules.policy import Policy
from fdlab.rules.presets import Preset, get_preset
from fdlab.track.io import load_track, track_from_dict, track_to_dict
from fdlab.track.model import Track


@dataclass
class PlaytestResult:
    """The tables of a playtest.

    Attributes
    ----------
    track : Track
    preset : Preset
    bots : list of str
        Bot label of each car, car 1 first.
    seed : int
    races : pandas.DataFrame
        One row per race: ``race``, ``seed`` (of its dice), ``rounds``,
        ``cars``, ``finished``, ``eliminated``, ``winner`` (car index),
        ``winner_bot``, ``winner_grid``.
    cars : pandas.DataFrame
        One row per car per race: ``grid`` spot, finishing ``place`` (NaN
        if eliminated), ``status``, ``turns`` played, ``damage`` taken,
        ``eliminated_space``.
    turns : pandas.DataFrame
        One row per car's turn: where it started and ended (space ids),
        gear, roll, spaces moved and braked, the corner it stopped in,
        overshoots (spaces beyond and the corner), the corner it left
        properly and with how many stops, certain and total damage,
        overtakes, elimination, finish, and whether the move took the lead
        (``took_lead``: a lead change). ``zone`` is the corner a space leads
        to (the corner itself, or the next one ahead).
    events : pandas.DataFrame
        Engine events (``race``, ``round``, ``car``, ``kind``, ``text``);
        empty unless ``keep_events``.
    """

    track: Track
    preset: Preset
    bots: list[str]
    seed: int
    races: pd.DataFrame
    cars: pd.DataFrame
    turns: pd.DataFrame
    events: pd.DataFrame
    info: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.races)

    @property
    def laps_note(self) -> str:
        """What to say when the board is set for more laps than were raced ("" otherwise).

        Examples
        --------
        >>> from fdlab.analysis.examples import small_playtest
        >>> small_playtest().laps_note
        ''
        """
        board, raced = self.track.laps, self.preset.laps
        if board == raced:
            return ""
        return f" (the board is set for {board}: give laps={board} to race those)"

    def __repr__(self) -> str:
        return (
            f"<PlaytestResult {self.track.name!r}: {len(self.races)} races, "
            f"{len(self.bots)} cars ({', '.join(self.bots)}), {self.preset.name} rules>"
        )

    def _repr_html_(self) -> str:
        cars = self.cars
        finished = (cars["status"] == "finished").mean() if len(cars) else float("nan")
        rows = [
            ("races", f"{len(self.races)}"),
            ("cars", ", ".join(self.bots)),
            (
                "rules",
                f"{self.preset.name}, {counted(self.preset.laps, 'lap')}{self.laps_note}",
            ),
            ("mean race length", f"{self.races['rounds'].mean():.2f} rounds"),
            ("cars finishing", f"{finished:.1%}"),
            ("seed", f"{self.seed}"),
        ]
        body = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        return (
            f"<div><b>Playtest of {html.escape(self.track.name)}</b><table>{body}</table>"
            "<i>circuit_report(result) draws where the circuit bites</i></div>"
        )


def _check_counts(**counts: Any) -> None:
    """``races``, ``seed``, ``workers`` and ``chunk_size`` are whole numbers in range."""
    lowest = {"races": 1, "seed": 0, "workers": 1, "chunk_size": 1}
    for name, value in counts.items():
        if value is None and name in ("workers", "chunk_size"):
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise PlaytestError(f"{name} must be a whole number, not {value!r}")
        if value < lowest[name]:
            raise PlaytestError(f"{name} must be at least {lowest[name]}, not {value}")


def race_seeds(seed: int, races: int) -> list[tuple[int, int]]:
    """Per race, the seeds of its dice and of its bots (independent of the workers).

    Examples
    --------
    >>> race_seeds(7, 3) == race_seeds(7, 5)[:3]
    True
    """
    children = np.random.SeedSequence(seed).spawn(races)
    states = (child.generate_state(2, dtype=np.uint32) for child in children)
    return [(int(dice), int(bots)) for dice, bots in states]


#: A task: race numbers and, per race, the seeds of its dice and of its bots.
_Chunk: TypeAlias = tuple[list[int], list[tuple[int, int]]]

# -- worker side -----------------------------------------------------------------
_BOARDS: dict[str, tuple[Board, tuple[Any, ...]]] = {}


def _board_for(payload: dict[str, Any]) -> tuple[Board, tuple[Any, ...]]:
    token = payload["token"]
    cached = _BOARDS.get(token)
    if cached is None:
        board = payload.get("board")
        if board is None:
            board = compile_board(track_from_dict(payload["track"]))
        cached = (board, next_corners(board))
        _BOARDS.clear()
        _BOARDS[token] = cached
    return cached


def run_races(
    payload: dict[str, Any], numbers: Sequence[int], seeds: Sequence[tuple[int, int]]
) -> list[RaceLog]:
    """Play the races ``numbers`` with their ``seeds`` (the worker's task).

    ``payload`` holds the track (as a JSON dict, with a ``token`` naming it),
    the preset, the bot specs and ``keep_events``.

    Examples
    --------
    >>> from fdlab.track import from_ascii, track_to_dict
    >>> track = from_ascii('''
    ...     . . . 1 1 . . . . . . .
    ...     . . . 1 1 . . . . . . .
    ... ''', corners={1: 1}, closed=True, grid=[22, 23])
    >>> payload = {"token": "doc", "track": track_to_dict(track), "preset": BASIC,
    ...            "bots": ["heuristic", "random"], "keep_events": False}
    >>> [log.race[0] for log in run_races(payload, [7, 8], race_seeds(0, 2))]
    [7, 8]
    """
    board, zones = _board_for(payload)
    remember(payload.get("tables", {}))
    preset = payload["preset"]
    specs = payload["bots"]
    labels = [bot_label(s) for s in specs]
    logs = []
    with fewer_collections():
        for number, (dice_seed, bot_seed) in zip(numbers, seeds, strict=True):
            policies = [
                make_bot(spec, board=board, preset=preset, seed=(bot_seed + k) % 2**32, slot=k + 1)
                for k, spec in enumerate(specs)
            ]
            logs.append(
                play_logged_race(
                    board,
                    preset,
                    policies,
                    labels,
                    race=number,
                    seed=dice_seed,
                    keep_events=payload["keep_events"],
                    zones=zones,
                )
            )
    return logs


# -- driver side -----------------------------------------------------------------
def playtest(  # noqa: PLR0913 (a playtest's options are keywords, read in notebooks)
    track: Track | Board | str | os.PathLike[str],
    bots: Sequence[str | Policy] | int | None = None,
    races: int = 100,
    preset: str | Preset = "basic",
    seed: int = 0,
    *,
    laps: int | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
    keep_events: bool = False,
    chunk_size: int | None = None,
    helper: RaceHelper | None = None,
) -> PlaytestResult:
    """Race bots on a board ``races`` times and tabulate what happened.

    Parameters
    ----------
    track : Track, Board or path
        The board, a board compiled from it (:func:`fdlab.rules.board.compile_board`:
        not compiled again), or a track file.
    bots : sequence of bot specs, or int, optional
        One per car (:mod:`fdlab.bots.roster`: ``"par"``, ``"par:cautious"``,
        ``"heuristic"``, ``"lookahead:reckless"``, ``"solo"``, a policy
        object...). An int means that many ``"par"`` bots (the default bot,
        guided by the exact solo solution). Default: six (fewer if the grid
        has fewer spots).
    races : int
    preset : str or Preset
    seed : int
        Master seed; race ``i`` uses the ``i``-th child of
        ``numpy.random.SeedSequence(seed)``.
    laps : int, optional
    workers : int, optional
        Processes to use (default: every core). ``1`` plays here.
    client : dask.distributed.Client, optional
        Run on this Dask cluster instead of local processes.
    progress : bool
        Show a progress bar (``tqdm.auto``).
    keep_events : bool
        Keep every engine event in ``result.events``.
    chunk_size : int, optional
        Races per task (default: about eight tasks per worker).
    helper : RaceHelper, optional
        With ``workers=1``: a process kept alive beside this one
        (:mod:`fdlab.analysis.race_helper`) that plays part of the races
        while this process plays the rest. The editor's verdict uses one:
        no process starts for it.

    Returns
    -------
    PlaytestResult

    Raises
    ------
    PlaytestError
        Before any race is played, naming the parameter: ``races``,
        ``seed``, ``workers`` or ``chunk_size`` not a whole number in range
        (at least 1; the seed at least 0), no bots, more cars than a race
        holds (:data:`fdlab.rules.engine.CAR_NAMES`: 10) or than grid
        spots, or a board with no finish line (no race could end).

    Examples
    --------
    >>> from fdlab.track.examples import two_corner_ring
    >>> track = two_corner_ring(stops=(1, 2))
    >>> result = playtest(track, ["heuristic", "lookahead"], races=4, workers=1, progress=False)
    >>> len(result.races), sorted(result.cars["bot"].unique())
    (4, ['heuristic', 'lookahead'])
    """
    # tqdm ships no type hints: pyproject.toml treats it as Any
    from tqdm.auto import tqdm

    _check_counts(races=races, seed=seed, workers=workers, chunk_size=chunk_size)
    track, board = _opened(track)
    rules = get_preset(preset, laps)
    spots = sum(1 for g in board.grid if g is not None)
    if bots is None:
        bots = min(6, spots)
    if isinstance(bots, int):
        bots = [DEFAULT_BOT] * bots
    specs = list(bots)
    if not specs:
        raise PlaytestError("a playtest needs at least one bot")
    if len(specs) > len(CAR_NAMES):
        raise PlaytestError(
            f"{len(specs)} cars, but a race has at most {len(CAR_NAMES)} (the rules engine's "
            f"limit: one car per colour, {', '.join(CAR_NAMES)}); pass at most "
            f"{len(CAR_NAMES)} bots"
        )
    if len(specs) > spots:
        raise PlaytestError(
            f"{len(specs)} cars but track {track.name!r} has {spots} grid spots (S-1); "
            "pass fewer bots or add grid spots"
        )
    labels = [bot_label(s) for s in specs]
    if any(label == "solo" for label in labels) and (len(rules.pools) != 1 or rules.street):
        raise PlaytestError(
            f"the 'solo' bot replays the exact solo par, which is solved for one-pool rules "
            f"without street rules; preset {rules.name!r} is not (use 'par' instead)"
        )
    seeds = race_seeds(seed, races)
    numbers = list(range(races))
    if client is None:
        workers = workers or os.cpu_count() or 1
    else:
        workers = max(1, len(client.scheduler_info().get("workers", {})) or 1)
    # the track's JSON form travels to other processes; here the board is enough
    track_dict: dict[str, Any] = {}
    if workers > 1 or client is not None:
        track_dict = track_to_dict(track)
        keyed_board(board, track_dict)
    token = board_key(board)
    payload = {
        "token": token,
        "track": track_dict,
        "preset": rules,
        "bots": specs,
        "keep_events": keep_events,
    }
    # solved here once per board content (and remembered), sent to every worker
    payload["tables"] = _solo_tables(
        specs, board, track_dict, rules, 1 if client is not None else workers, progress
    )
    size = chunk_size or max(1, min(50, races // (workers * 8) or 1))
    chunks = [(numbers[i : i + size], seeds[i : i + size]) for i in range(0, races, size)]

    logs: list[RaceLog] = []
    bar = tqdm(total=races, desc=f"playtest {track.name}", unit="race", disable=not progress)
    try:
        if client is not None:
            logs = _on_dask(client, payload, chunks, bar)
        elif workers == 1:
            local = dict(payload, board=board, token=token)

            def play_here(
                numbers: Sequence[int], seeds: Sequence[tuple[int, int]]
            ) -> list[RaceLog]:
                part = run_races(local, numbers, seeds)
                bar.update(len(part))
                return part

            if helper is not None and all(isinstance(spec, str) for spec in specs):
                logs = helper.share(local, chunks, play_here)
                bar.update(races - bar.n)  # the helper's races too
            else:
                for chunk_numbers, chunk_seeds in chunks:
                    logs.extend(play_here(chunk_numbers, chunk_seeds))
        else:
            logs = _on_processes(payload, chunks, workers, bar)
    finally:
        bar.close()
    logs.sort(key=lambda log: log.race[0])
    return _tables(
        track, rules, labels, seed, logs, workers=workers, dask=client is not None, specs=specs
    )


_PAYLOAD: dict[str, Any] = {}

_UNGUARDED_SCRIPT = (
    "a script that plays on several processes must keep its top-level code under `if "
    '__name__ == "__main__":` (each worker imports the script, and an unguarded playtest() '
    "call starts workers again); or pass workers=1"
)


def _broken_pool_message(error: BaseException, work: str = "its races") -> str:
    """What to tell a user whose worker processes died before finishing ``work``."""
    text = f"a playtest worker process stopped before finishing {work} ({error})"
    if getattr(sys.modules.get("__main__"), "__file__", None):
        text += f". If this runs from a script: {_UNGUARDED_SCRIPT}"
    return text


def _init_worker(path: str) -> None:
    """Load the playtest's payload into the worker process, once (not with every task).

    The payload comes through a file, not the process start-up pipe: a worker
    that dies while starting would leave a large pipe write blocked forever.
    """
    with open(path, "rb") as file:
        payload = pickle.load(file)  # written by this playtest's own process
    _PAYLOAD.clear()
    _PAYLOAD.update(payload)


def _run_in_worker(numbers: Sequence[int], seeds: Sequence[tuple[int, int]]) -> list[RaceLog]:
    return run_races(_PAYLOAD, numbers, seeds)


def _starting_worker() -> bool:
    """Whether this process is a spawned worker still importing the parent's main script."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def _on_processes(
    payload: dict[str, Any], chunks: list[_Chunk], workers: int, bar: Any
) -> list[RaceLog]:
    if _starting_worker():
        raise PlaytestError(f"playtest() called while a worker process starts: {_UNGUARDED_SCRIPT}")
    logs: list[RaceLog] = []
    context = multiprocessing.get_context("spawn")
    handle, path = tempfile.mkstemp(prefix="fdlab-playtest-", suffix=".pickle")
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump(payload, file, protocol=pickle.HIGHEST_PROTOCOL)
        with ProcessPoolExecutor(
            max_workers=min(workers, len(chunks)),
            mp_context=context,
            initializer=_init_worker,
            initargs=(path,),
        ) as pool:
            futures = [pool.submit(_run_in_worker, n, s) for n, s in chunks]
            for future in as_completed(futures):
                part = future.result()
                logs.extend(part)
                bar.update(len(part))
    except BrokenProcessPool as error:
        raise PlaytestError(_broken_pool_message(error)) from error
    finally:
        os.unlink(path)
    return logs


def _opened(track: Track | Board | str | os.PathLike[str]) -> tuple[Track, Board]:
    """The track and its compiled board (a track file is read), if a race could end on it."""
    board: Board | None = None
    if isinstance(track, Board):
        board, track = track, track.track
    elif not isinstance(track, Track):
        track = load_track(track)
    if not any("finish" in lines for _, _, lines in track.graph.edges(data="lines", default=())):
        raise PlaytestError(
            f"track {track.name!r} has no finish line (no step crosses it), so no race could "
            "ever end; mark one in the editor or with fdlab build (validate: no_finish_line)"
        )
    return track, board if board is not None else compile_board(track)


def _solo_tables(
    specs: list[str | Policy],
    board: Board,
    track_dict: dict[str, Any],
    rules: Preset,
    workers: int,
    progress: bool,
) -> dict[tuple[str, str, int], ParTable]:
    """The solo tables the bots need: from the caches, the missing ones solved side by side.

    A two-lap race with pits needs one table per pit box, each a solve of a
    few seconds: they are solved on up to ``workers`` processes at once,
    with a progress bar, and each is kept on disk by the process that
    solved it (:func:`fdlab.par.solo_table`).
    """
    from tqdm.auto import tqdm  # untyped, as in playtest() (mypy says so once per module)

    tables: dict[tuple[str, str, int], ParTable] = {}
    missing: dict[tuple[str, str, int], int] = {}
    for key, slot in table_slots(specs, board, rules).items():
        table = known_table(board, rules, slot)
        if table is None:
            missing[key] = slot
        else:
            tables[key] = table
    if not missing:
        return tables
    desc = f"solving par tables of {board.track.name}"
    with tqdm(total=len(missing), desc=desc, unit="table", disable=not progress) as bar:
        if workers == 1 or len(missing) == 1 or _starting_worker():
            for key, slot in missing.items():
                tables[key] = solo_table(board, rules, slot)
                bar.update(1)
            return tables
        context = multiprocessing.get_context("spawn")
        try:
            with ProcessPoolExecutor(
                max_workers=min(workers, len(missing)), mp_context=context
            ) as pool:
                futures = {
                    pool.submit(_solve_table, track_dict, rules, slot): key
                    for key, slot in missing.items()
                }
                for future in as_completed(futures):
                    tables[futures[future]] = future.result()
                    bar.update(1)
        except BrokenProcessPool as error:
            raise PlaytestError(_broken_pool_message(error, "its par table")) from error
    remember({key: tables[key] for key in missing})
    return tables


def _solve_table(track_dict: dict[str, Any], rules: Preset, slot: int) -> ParTable:
    """Solve (or read from the disk cache) one solo table, in a worker process."""
    return solo_table(compile_board(track_from_dict(track_dict)), rules, slot)


def _on_dask(client: Any, payload: dict[str, Any], chunks: list[_Chunk], bar: Any) -> list[RaceLog]:
    from dask.distributed import as_completed as dask_completed

    shared = client.scatter(payload, broadcast=True)
    futures = client.map(
        run_races,
        [shared] * len(chunks),
        [n for n, _ in chunks],
        [s for _, s in chunks],
        pure=False,
    )
    logs: list[RaceLog] = []
    # distributed's as_completed is not annotated (its package is typed, this class is not)
    for future in dask_completed(futures):  # type: ignore[no-untyped-call]
        part = future.result()
        logs.extend(part)
        bar.update(len(part))
    return logs


def _frame(rows: Iterable[Record], columns: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame.from_records(list(rows), columns=list(columns))


def _tables(
    track: Track, preset: Preset, labels: list[str], seed: int, logs: list[RaceLog], **info: Any
) -> PlaytestResult:
    races = _frame((log.race for log in logs), RACE_COLUMNS)
    cars = _frame((row for log in logs for row in log.cars), CAR_COLUMNS)
    turns = _frame((row for log in logs for row in log.turns), TURN_COLUMNS)
    events = _frame((row for log in logs for row in log.events), EVENT_COLUMNS)
    cars["place"] = cars["place"].astype("Int64")
    return PlaytestResult(
        track=track,
        preset=preset,
        bots=labels,
        seed=seed,
        races=races,
        cars=cars,
        turns=turns,
        events=events,
        info=dict(info),
    )
