"""Text in messages: a value shown briefly, a whole number read from a command line.

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

from collections.abc import Callable
from typing import Any

__all__ = ["shown", "whole_at_least"]


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


def whole_at_least(low: int) -> Callable[[str], int]:
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
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    read.__name__ = read.__qualname__ = f"whole_at_least({low})"
    return read
