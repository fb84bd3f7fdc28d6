"""How error messages quote a bad value: briefly, and without ever failing.

A deck or a saved game can hold anything JSON allows: a number of 5,000
digits (which Python refuses to turn into text), lists nested thousands deep,
pages of text. An error message must still be one short line.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["BigNumber", "quoted"]


class BigNumber:
    """A JSON integer too long to be a sensible value, kept only as its number of digits.

    Deck files are read with integers of more than 100 digits replaced by
    this, so the reader never builds (or prints) them.

    Examples
    --------
    >>> quoted(BigNumber(5000))
    'a 5000-digit number'
    """

    def __init__(self, digits: int) -> None:
        self.digits = digits

    @classmethod
    def parse(cls, text: str) -> int | BigNumber:
        """``parse_int`` for :func:`json.loads`: an int, or a BigNumber past 100 digits."""
        digits = len(text.lstrip("-"))
        return cls(digits) if digits > 100 else int(text)


def _digits(value: int) -> int:
    """The number of decimal digits of ``value``, without printing it (which Python refuses
    past some 4,300 digits) and without the float rounding of ``log10``."""
    size = abs(value)
    digits = int(size.bit_length() * math.log10(2)) + 1
    if 10 ** (digits - 1) > size:
        digits -= 1
    elif 10**digits <= size:
        digits += 1
    return digits


def quoted(value: Any) -> str:
    """Return a short description of ``value`` for an error message.

    Examples
    --------
    >>> quoted(7), quoted("4"), quoted(10**5000), quoted([[[]]]), quoted({"a": 1})
    ('7', "'4'", 'a 5001-digit number', 'a list', 'an object')
    >>> quoted(10**1000 - 1), quoted(-(10**40))
    ('a 1000-digit number', 'a 41-digit number')
    """
    if isinstance(value, BigNumber):
        return f"a {value.digits}-digit number"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a {_digits(value)}-digit number"
    if isinstance(value, list | tuple):
        if all(isinstance(v, int | str) and not isinstance(v, bool) for v in value[:8]):
            short = repr(list(value[:8]))
            if len(value) <= 8 and len(short) <= 60:
                return short
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    return f"a {type(value).__name__}"
