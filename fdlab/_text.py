"""Text in messages: a value shown briefly, a count read from a command line.

One home for the small text helpers every layer needs, so each message cuts
a value the same way and never fails on it. This module imports nothing
from the rest of fdlab, so any layer may use it.

Examples
--------
>>> shown("lava"), shown(10**5000)
("'lava'", 'an integer of about 5000 digits')
>>> positive_int("3")
3
"""

from __future__ import annotations

from typing import Any

__all__ = ["positive_int", "shown"]


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


def positive_int(text: str) -> int:
    """A command-line count of 1 or more (an ``argparse`` ``type=``).

    Examples
    --------
    >>> positive_int("12")
    12
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1, not 0
    """
    import argparse  # here, so that the layers that only show values never load it

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
