"""Text in messages: a value shown briefly, a number read from a command line.

One home for the small text helpers every layer needs, so each message cuts
a value the same way and never fails on it. This module imports nothing
from the rest of fdlab, so any layer may use it.

Examples
--------
>>> shown("lava"), shown(10**5000)
("'lava'", 'an integer of about 5000 digits')
>>> whole_at_least(1)("3")
3
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["counted", "number_in", "shown", "whole_at_least"]


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1.

    Examples
    --------
    >>> counted(1, "lap"), counted(2, "lap"), counted(0, "stop")
    ('1 lap', '2 laps', '0 stops')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut short for a message (a 400-digit number is not read out, and
    a 5000-digit one, whose ``repr`` raises, is described).

    Parameters
    ----------
    value : object
        What to show.
    limit : int
        The most characters the text may have (a longer one keeps its start
        and its last two characters).

    Examples
    --------
    >>> shown("lava"), shown(list(range(30)))
    ("'lava'", '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ...9]')
    >>> shown(10**5000), shown([1, 10**5000])
    ('an integer of about 5000 digits', 'a list holding an integer too long to write out')
    >>> shown("x" * 50, 20)
    "'xxxxxxxxxxxxxx...x'"
    """
    try:
        text = repr(value)
    except ValueError:  # an int beyond sys.get_int_max_str_digits(), perhaps in a list
        if isinstance(value, int):
            return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
        return f"a {type(value).__name__} holding an integer too long to write out"
    except Exception:  # a repr that fails (nested too deep, a broken __repr__)
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def whole_at_least(low: int, most: int | None = None) -> Callable[[str], int]:
    """A command-line reader of a whole number of ``low`` or more (an ``argparse`` ``type=``).

    One reader for every whole-number option: counts (``low=1``: races,
    workers, laps, lanes) and seeds (``low=0``). Text that is not a whole
    number, or one below ``low``, is an ``argparse.ArgumentTypeError``, which
    ``argparse`` prints after the option's name
    (``argument --seed: must be at least 0, not -1``) and exits with status 2.

    Parameters
    ----------
    low : int
        The least number accepted.
    most : int, optional
        The largest number accepted (cars in a race: 10).

    Returns
    -------
    callable
        ``read(text) -> int``, to pass as ``type=`` to ``add_argument``.

    Examples
    --------
    >>> seed = whole_at_least(0)
    >>> seed("0"), seed(" 42 ")
    (0, 42)
    >>> seed("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 0, not -1
    >>> whole_at_least(1)("2.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number, not '2.5'
    >>> whole_at_least(1, most=10)("12")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at most 10, not 12

    On a parser:

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--races", type=whole_at_least(1), default=1000)
    >>> parser.parse_args(["--races", "12"]).races
    12
    """

    def read(text: str) -> int:
        import argparse  # here, so that the layers that only show values never load it

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {shown(value, 20)}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}, not {shown(value, 20)}")
        return value

    bounds = f"{low}" if most is None else f"{low}, most={most}"
    read.__name__ = read.__qualname__ = f"whole_at_least({bounds})"
    return read


def number_in(
    low: float,
    high: float,
    *,
    open_low: bool = False,
    open_high: bool = False,
    what: str = "a number",
) -> Callable[[str], float]:
    """A command-line reader of a number from ``low`` to ``high`` (an ``argparse`` ``type=``).

    The companion of :func:`whole_at_least` for numbers with a fraction: a
    share, a lap fraction, a size in metres. ``open_low`` / ``open_high``
    leave the bound itself out. Text that is not a finite number, or one out
    of range, is an ``argparse.ArgumentTypeError`` saying what was expected.

    Parameters
    ----------
    low, high : float
        The range (``math.inf`` for no upper bound).
    open_low, open_high : bool
        Refuse the bound itself.
    what : str
        What the text should have been, for a text that is no number
        (``"a lap fraction like 0.25"``).

    Returns
    -------
    callable
        ``read(text) -> float``, to pass as ``type=`` to ``add_argument``.

    Examples
    --------
    >>> share = number_in(0, 1)
    >>> share("0.25"), share("1")
    (0.25, 1.0)
    >>> share("1.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be from 0 to 1, not 1.5
    >>> number_in(0, math.inf, open_low=True)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be more than 0, not 0
    >>> number_in(0, 1, open_high=True)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number, not 'nan'
    """
    if math.isinf(high):
        wanted = f"more than {low:g}" if open_low else f"at least {low:g}"
    elif open_low or open_high:
        wanted = (
            f"{'more than' if open_low else 'at least'} {low:g} "
            f"and {'below' if open_high else 'at most'} {high:g}"
        )
    else:
        wanted = f"from {low:g} to {high:g}"

    def read(text: str) -> float:
        import argparse  # here, so that the layers that only show values never load it

        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected {what}, not {shown(text, 20)}")
        above = value > low if open_low else value >= low
        under = value < high if open_high else value <= high
        if not (above and under):
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {value:g}")
        return value

    read.__name__ = read.__qualname__ = f"number_in({low:g}, {high:g})"
    return read
