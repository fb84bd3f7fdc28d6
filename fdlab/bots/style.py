"""Driving styles: one knob from cautious to reckless, shared by the bots.

A style is a number from 0 (cautious) to 1 (reckless), or one of the names
of :data:`STYLES`. Each bot turns it into its own weights: how much a point
of damage is worth against a space of progress, and how much of the pool a
driver keeps in reserve. A playtest mixes driver types by giving each car a
bot with its own style (``"heuristic:reckless"``, see
:func:`fdlab.bots.roster.make_bot`).
"""

from __future__ import annotations

from fdlab.bots.errors import StyleError

#: Named styles, cautious to reckless.
STYLES: dict[str, float] = {
    "cautious": 0.0,
    "careful": 0.25,
    "balanced": 0.5,
    "bold": 0.75,
    "reckless": 1.0,
}


def style_value(style: str | float) -> float:
    """A style as a number from 0 (cautious) to 1 (reckless).

    Parameters
    ----------
    style : str or float
        A name of :data:`STYLES` or a number in [0, 1].

    Raises
    ------
    StyleError
        Naming the accepted styles.

    Examples
    --------
    >>> style_value("bold"), style_value(0.1)
    (0.75, 0.1)
    """
    if isinstance(style, str):
        try:
            return STYLES[style]
        except KeyError:
            raise StyleError(
                f"unknown driving style {style!r}; choose one of {', '.join(STYLES)} "
                "or a number from 0 (cautious) to 1 (reckless)"
            ) from None
    value = float(style)
    if not 0.0 <= value <= 1.0:
        raise StyleError(f"a driving style is a number from 0 to 1, not {value}")
    return value


def style_name(style: str | float) -> str:
    """The nearest named style.

    Examples
    --------
    >>> style_name(0.7)
    'bold'
    """
    value = style_value(style)
    return min(STYLES, key=lambda name: abs(STYLES[name] - value))


def damage_weight(style: str | float) -> float:
    """Spaces of progress one point of damage is worth to a healthy driver.

    3 for a cautious driver, 1.5 balanced, 0.25 for a reckless one
    (geometric in between).

    Examples
    --------
    >>> round(damage_weight("balanced"), 2), round(damage_weight("reckless"), 2)
    (1.5, 0.25)
    """
    value = style_value(style)
    weight: float  # float ** float is typed Any (a negative base gives a complex number)
    if value <= 0.5:
        weight = 3.0 * (0.5 ** (value / 0.5))
    else:
        weight = 1.5 * ((0.25 / 1.5) ** ((value - 0.5) / 0.5))
    return weight


def reserve(style: str | float) -> float:
    """Share of the pool a driver keeps in reserve before it drives carefully.

    Examples
    --------
    >>> reserve("cautious"), reserve("reckless")
    (0.5, 0.1)
    """
    return round(0.5 - 0.4 * style_value(style), 6)
