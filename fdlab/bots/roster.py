"""Bots by name, so a playtest can build fresh drivers for every race in any process.

A *bot spec* is a name, optionally with a style after a colon, or a policy
object:

* ``"par"``, the default (:data:`DEFAULT_BOT`): :class:`~fdlab.bots.parbot.ParBot`,
  driven by the exact solo solution of the board (solved once per board
  content, preset and pit box, :func:`fdlab.par.solo_table`) and adjusted
  for the other cars; it plays every preset;
* the weaker bots, kept as named choices: ``"heuristic"`` (the engine's
  :class:`~fdlab.bots.heuristic.HeuristicBot` with a tuned caution,
  :data:`HEURISTIC_CAUTION`), ``"lookahead"``, ``"random"``, ``"solo"`` (the
  solo-optimal policy that ignores the other cars; one-pool rules without
  street rules only);
* ``"par:cautious"``, ``"heuristic:reckless"``, ``"lookahead:0.2"``: the same
  with a driving style (:mod:`fdlab.bots.style`; for ``par`` a risk
  attitude, :func:`fdlab.bots.parbot.care_of`); only these bots
  (:data:`STYLED_BOTS`) take a style, ``"random:bold"`` is refused;
* any policy object: each race gets a deep copy of it, so races never share
  a bot's state and results do not depend on how races are spread over
  workers.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from fdlab.bots.errors import BotSpecError
from fdlab.bots.heuristic import HeuristicBot
from fdlab.bots.lookahead import LookaheadBot
from fdlab.bots.parbot import ParBot
from fdlab.bots.random_bot import RandomBot
from fdlab.bots.solo import SoloOptimalBot
from fdlab.bots.style import STYLES, damage_weight, style_name, style_value
from fdlab.par import ParTable, solo_table
from fdlab.par.errors import SoloModelError
from fdlab.par.table import known_table, table_key
from fdlab.rules.board import Board
from fdlab.rules.policy import Policy
from fdlab.rules.presets import Preset

#: The bot names a spec may use.
BOT_NAMES = ("par", "heuristic", "lookahead", "random", "solo")

#: The bot of a playtest that names none.
DEFAULT_BOT = "par"

#: The bots whose play a driving style changes; a spec giving another bot a style is refused.
STYLED_BOTS = ("par", "heuristic", "lookahead")

#: One line per bot, for menus and help texts.
BOT_SUMMARIES = {
    "par": "plays the board's exact solo solution, adjusted for the other cars "
    "(solved once per board: seconds on a big one)",
    "heuristic": "a gear from the way to the next corner, then the cheapest safe move",
    "lookahead": "weighs each move by what the next turn can reach",
    "random": "any legal move that does not put it out",
    "solo": "the exact solo solution, ignoring the other cars (one-pool rules, no street rules)",
}

#: Heuristic bot's caution per unit of :func:`~fdlab.bots.style.damage_weight`.
#: Tuned on solo races on the shipped boards (150 per value, seeds 0-149; re-run
#: on the rebuilt boards): a caution of 0.5 finishes 150/150 on the training
#: ring and 149/150 on Monaco, 1.0 and 1.3 turns faster than the bot's own
#: default of 1.5; 0.75 finishes every race 0.2-0.3 turn slower; at 0.25 Monaco
#: eliminates 12 cars in 150.
HEURISTIC_CAUTION = 0.5

#: The bots that drive by the board's solo table (:func:`solo_tables`).
_TABLE_BOTS = ("par", "solo")


def bot_label(spec: str | Policy) -> str:
    """A short label of a spec for tables: ``"heuristic"``, ``"lookahead:bold"``...

    Examples
    --------
    >>> bot_label("lookahead:0.7"), bot_label(HeuristicBot())
    ('lookahead:bold', 'HeuristicBot')
    """
    if isinstance(spec, str):
        name, _, style = spec.partition(":")
        _check_name(name, spec, style)
        return f"{name}:{style_name(_style(style, spec))}" if style else name
    return type(spec).__name__


def plays(name: str, preset: Preset) -> bool:
    """Whether bot ``name`` can drive under ``preset`` (``"solo"`` needs one pool, no street rules).

    Examples
    --------
    >>> from fdlab.rules.presets import get_preset
    >>> plays("solo", get_preset("basic")), plays("solo", get_preset("advanced"))
    (True, False)
    """
    from fdlab.par.approx import exact

    return name != "solo" or exact(preset)


def bot_specs(preset: Preset | None = None) -> list[str]:
    """Every bot a menu offers: each bot of :data:`BOT_NAMES`, each styled one in every style.

    The plain name is the balanced style; the other styles of
    :data:`~fdlab.bots.style.STYLES` follow it. With ``preset``, only the
    bots that can drive under it (:func:`plays`).

    Examples
    --------
    >>> from fdlab.rules.presets import get_preset
    >>> specs = bot_specs(get_preset("street"))
    >>> specs[:3], "solo" in specs, "random" in specs, "random:bold" in specs
    (['par', 'par:cautious', 'par:careful'], False, True, False)
    """
    specs = []
    for name in BOT_NAMES:
        if preset is not None and not plays(name, preset):
            continue
        specs.append(name)
        if name in STYLED_BOTS:
            specs += [f"{name}:{style}" for style in STYLES if STYLES[style] != 0.5]
    return specs


def _check_name(name: str, spec: str, style: str = "") -> None:
    """Refuse an unknown bot, or a style (``style``: the text after the colon) it does not take."""
    if name not in BOT_NAMES:
        raise BotSpecError(
            f"unknown bot {spec!r}; choose one of {', '.join(BOT_NAMES)}, optionally with a "
            "style such as 'heuristic:cautious' or 'lookahead:0.8'"
        )
    if style and name not in STYLED_BOTS:
        raise BotSpecError(
            f"bot {spec!r}: {name!r} takes no style; only {', '.join(STYLED_BOTS)} do "
            f"(e.g. 'par:cautious'); write {name!r} alone"
        )


def _style(text: str, spec: str) -> float:
    try:
        return style_value(float(text) if _is_number(text) else text)
    except ValueError as err:
        raise BotSpecError(f"bot {spec!r}: {err}") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def solo_tables(
    specs: Iterable[str | Policy], board: Board, preset: Preset
) -> dict[tuple[str, str, int], ParTable]:
    """The solo tables the ``"par"`` and ``"solo"`` bots of ``specs`` need, by cache key.

    Each is solved once per board content (:func:`fdlab.par.solo_table`).

    A playtest needs the same tables (:func:`table_slots`): it reads those
    the caches hold, solves the others side by side on its workers, and
    sends them all to every worker (:func:`fdlab.par.table.remember`), so a
    board is solved once, not once per worker or per playtest.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . .", grid=[0, 1], finish=4))
    >>> len(solo_tables(["par", "par:bold", "solo"], board, BASIC))
    1
    >>> solo_tables(["heuristic"], board, BASIC)
    {}
    """
    return {
        key: solo_table(board, preset, slot)
        for key, slot in table_slots(specs, board, preset).items()
    }


def table_slots(
    specs: Iterable[str | Policy], board: Board, preset: Preset
) -> dict[tuple[str, str, int], int]:
    """The cache key of each solo table the bots of ``specs`` need, and the car number it is for.

    One key per pit box when the rules have pits, else one for the board.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . .", grid=[0, 1], finish=4))
    >>> list(table_slots(["heuristic", "par", "par:bold"], board, BASIC).values())
    [2]
    """
    slots: dict[tuple[str, str, int], int] = {}
    for slot, spec in enumerate(specs, start=1):
        if isinstance(spec, str) and spec.partition(":")[0] in _TABLE_BOTS:
            slots.setdefault(table_key(board, preset, slot), slot)
    return slots


def make_bot(
    spec: str | Policy, *, board: Board, preset: Preset, seed: int, slot: int = 1
) -> Policy:
    """A fresh policy for one race.

    Parameters
    ----------
    spec : str or policy
        See the module docstring.
    board : Board
        The board of the race (for ``"par"`` and ``"solo"``).
    preset : Preset
    seed : int
        Seed of the bot's own randomness (``"random"``).
    slot : int
        The number of the car it drives (``"par"`` and ``"solo"`` are solved for its pit box).

    Raises
    ------
    BotSpecError
        For an unknown name or style, or a style on a bot that takes none.
    SoloModelError
        For ``"solo"`` under rules the solver does not model exactly (:func:`plays`).

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . .", grid=[0], finish=2))
    >>> make_bot("heuristic:cautious", board=board, preset=BASIC, seed=1)
    HeuristicBot(caution=1.5, pit_below=0.8)
    """
    if not isinstance(spec, str):
        return copy.deepcopy(spec)
    name, style = _checked(spec, preset)
    if name == "heuristic":
        return HeuristicBot(
            caution=round(HEURISTIC_CAUTION * damage_weight(style), 6),
            pit_below=round(0.4 + 0.4 * (1 - style), 6),
        )
    if name == "lookahead":
        return LookaheadBot(style)
    if name == "random":
        return RandomBot(seed)
    if name == "par":
        return ParBot(solo_table(board, preset, slot), style)
    return SoloOptimalBot(solo_table(board, preset, slot))


def _checked(spec: str, preset: Preset) -> tuple[str, float]:
    """The bot's name and style value, or the error :func:`make_bot` raises for ``spec``."""
    name, _, style_text = spec.partition(":")
    _check_name(name, spec, style_text)
    style = _style(style_text, spec) if style_text else 0.5
    if name == "solo" and not plays(name, preset):  # its table would approximate these rules
        raise SoloModelError(
            "the 'solo' bot replays the exact solo solution, which models one-pool rules "
            f"without street rules; preset {preset.name!r} is not (use 'par' instead)"
        )
    return name, style


def needs_solve(spec: str | Policy, *, board: Board, preset: Preset, slot: int = 1) -> bool:
    """Whether :func:`make_bot` would solve the board first (seconds on a big board).

    Checks ``spec`` as :func:`make_bot` does, raising the same errors, but
    solves nothing: a caller can then make the bot in the background.

    Examples
    --------
    >>> board = compile_board(from_ascii(". . . . . . .", grid=[0], finish=3))
    >>> needs_solve("heuristic", board=board, preset=BASIC)
    False
    >>> _ = make_bot("par", board=board, preset=BASIC, seed=1)  # solves it once
    >>> needs_solve("par:cautious", board=board, preset=BASIC)
    False
    """
    if not isinstance(spec, str):
        return False
    name, _style = _checked(spec, preset)
    return name in _TABLE_BOTS and known_table(board, preset, slot) is None
