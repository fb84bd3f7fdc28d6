"""Checks of what a caller passes to the race API: whole numbers in range, said plainly.

A race is played from a notebook, where ``race.odds("3")`` or
``table.set_seat(1.5, "par")`` is a slip of the keyboard: each such value is
refused with one error naming the parameter and what it must be, never a
``TypeError`` or ``IndexError`` from deep inside the engine.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from fdlab._text import shown
from fdlab.errors import FdlabError
from fdlab.rules.errors import RuleError

__all__ = ["whole_number"]


def whole_number(
    value: Any,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[FdlabError] = RuleError,
) -> int:
    """``value`` as an ``int`` if it is a whole number from ``low`` to ``high``, else ``error``.

    Booleans, floats (even ``2.0``), strings and ``None`` are refused: a
    count or an index is never any of those.

    Parameters
    ----------
    value : object
        What the caller passed.
    name : str
        How the message names it (``"gear"``, ``"rounds"``).
    low, high : int, optional
        The smallest and largest value allowed (inclusive).
    error : type
        The error to raise (an :class:`~fdlab.errors.FdlabError` of the caller's
        package; :class:`~fdlab.rules.errors.RuleError` unless told).

    Returns
    -------
    int

    Examples
    --------
    >>> whole_number(3, "gear", low=1, high=6)
    3
    >>> whole_number(1.5, "rounds", low=0)
    Traceback (most recent call last):
    ...
    fdlab.rules.errors.RuleError: rounds must be a whole number of 0 or more, not 1.5
    >>> whole_number(10**5000, "rounds", low=0, high=9)  # too long to write out: described
    Traceback (most recent call last):
    ...
    fdlab.rules.errors.RuleError: rounds must be a whole number from 0 to 9, not an integer of about 5000 digits
    """
    if isinstance(value, Integral) and not isinstance(value, bool):
        number = int(value)
        if (low is None or number >= low) and (high is None or number <= high):
            return number
    raise error(f"{name} must be a whole number{_range(low, high)}, not {shown(value, 40)}")


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of {low} or more"
    if high is not None:
        return f" of {high} or less"
    return ""
