"""What happened during a step, in plain words.

Each :class:`Event` has a ``kind`` a program can filter on, the car it
concerns (an index, or ``None``), a readable ``text`` and, for damage and
bonuses, the pool and amount.

Examples
--------
>>> e = Event("damage", 1, "Red loses 1 SP (D-5 collision)", pool="SP", amount=-1)
>>> str(e)
'Red loses 1 SP (D-5 collision)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

#: What an event is about (:data:`KINDS`), for a program to filter on.
EventKind: TypeAlias = Literal[
    "grid",
    "round",
    "gear",
    "start",
    "roll",
    "nitro",
    "move",
    "damage",
    "bonus",
    "spin",
    "pit",
    "lap",
    "finish",
    "eliminated",
    "check",
]
#: Event kinds, in the order :data:`EventKind` lists them.
KINDS: tuple[EventKind, ...] = get_args(EventKind)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: ``kind``, ``car`` index, ``text``, optional pool change."""

    kind: EventKind
    car: int | None
    text: str
    pool: str | None = None
    amount: int = 0

    def __str__(self) -> str:
        return self.text


class EventList(list[Event]):
    """The events of one or more steps; a notebook shows them as lines of text.

    Examples
    --------
    >>> events = EventList([Event("roll", 0, "Blue, 5th gear, rolls 20")])
    >>> print(events)
    Blue, 5th gear, rolls 20
    >>> events._repr_html_()
    "<div style='font-family:monospace'>Blue, 5th gear, rolls 20</div>"
    """

    def __str__(self) -> str:
        return "\n".join(str(event) for event in self)

    def _repr_html_(self) -> str:
        from fdlab.plot.tables import events_html

        return events_html(self)
