"""Load and validate Formula Fun deck files (FF-17).

A deck file is JSON::

    {
      "format": "fdlab-fun-deck",
      "version": 1,
      "name": "My deck",
      "cards": [
        {"kind": "driver", "name": "Ada", "value": 6, "count": 1,
         "clauses": [{"on": "win", "money": -3}]},
        {"kind": "engine", "name": "Engine", "value": 4, "count": 2},
        {"kind": "sponsor", "name": "Cola", "income": 2, "count": 3},
        {"kind": "special", "name": "Audit", "count": 1,
         "effects": [{"op": "money", "who": "others", "amount": -2}]},
        {"kind": "circuit", "name": "Monza", "count": 1,
         "modifiers": [{"add": 2, "if": {"engine": [5, 6]}}]}
      ]
    }

``count`` (default 1) makes that many identical cards. The effect vocabulary
is described in :mod:`fdlab.fun.cards`. Any problem raises
:class:`~fdlab.fun.errors.DeckError` naming the file and the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeGuard, TypeVar

from fdlab.fun.cards import CAR_PARTS, KINDS, Card, Clause, Condition, Effect, Kind, Modifier
from fdlab.fun.errors import ArgumentError, DeckError
from fdlab.fun.quoting import BigNumber, quoted
from fdlab.untrusted import UntrustedInputError, parse_json, read_file

__all__ = ["DECK_FORMAT", "Deck", "default_deck", "deck_from_dict", "load_deck"]

DECK_FORMAT = "fdlab-fun-deck"
#: Largest deck file read (a deck of 70 cards is about 5 kB).
MAX_DECK_BYTES = 5_000_000
_S = TypeVar("_S", bound=str)
_KEYS: dict[str, set[str]] = {
    "driver": {"kind", "name", "value", "count", "clauses"},
    "engine": {"kind", "name", "value", "count"},
    "chassis": {"kind", "name", "value", "count"},
    "sponsor": {"kind", "name", "income", "count"},
    "special": {"kind", "name", "effects", "count"},
    "circuit": {"kind", "name", "modifiers", "count"},
}
_EFFECT_KEYS: dict[str, set[str]] = {
    "discard_in_play": {"op", "kinds", "whose"},
    "money": {"op", "who", "amount"},
    "draw": {"op", "count"},
    "extend": {"op", "races"},
    "replace_sponsor": {"op"},
    "clear_market": {"op"},
}


@dataclass(frozen=True)
class Deck:
    """A validated deck: every physical card, ``cards[i].id == i``.

    Parameters
    ----------
    name : str
        Deck name.
    cards : tuple of Card
        The cards, one entry per physical card.
    source : Mapping
        The validated mapping the deck was built from (for saving a game).

    Examples
    --------
    >>> deck = default_deck()
    >>> len(deck.of_kind("circuit"))
    6
    >>> deck
    <Deck 'Formula Fun (fdlab default)': 70 cards (14 driver, 12 engine, 12 chassis, 14 sponsor, 12 special, 6 circuit)>
    """

    name: str
    cards: tuple[Card, ...]
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, card_id: int) -> Card:
        return self.cards[card_id]

    def __repr__(self) -> str:
        counts = ", ".join(
            f"{n} {kind}" for kind in KINDS if (n := sum(c.kind == kind for c in self.cards))
        )
        return f"<Deck {self.name!r}: {len(self.cards)} cards ({counts})>"

    def _repr_html_(self) -> str:
        """A table of the distinct cards, with how many of each, for notebooks."""
        from fdlab.fun.html import deck_html

        return deck_html(self)

    def of_kind(self, kind: Kind) -> tuple[Card, ...]:
        """Return the cards of one kind.

        Examples
        --------
        >>> sorted({c.value for c in default_deck().of_kind("engine")})
        [1, 2, 3, 4, 5, 6]
        """
        return tuple(c for c in self.cards if c.kind == kind)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    return "a number" if isinstance(value, BigNumber) else type(value).__name__


def _has_control_characters(text: str) -> bool:
    return any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in text)


class _Checker:
    """Small helper that raises DeckError with file and field path."""

    def __init__(self, source: str) -> None:
        self.source = source
        #: The card entry being read (``driver 'Ada'``), named in messages so a
        #: designer need not count entries to find ``cards[49]``.
        self.card: str | None = None

    def fail(self, where: str, message: str) -> DeckError:
        if self.card is not None and where.startswith("cards["):
            message = f"{message} (in {self.card})"
        return DeckError(self.source, where, message)

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"must be an object, got {_type_name(value)}")
        return value

    def keys(self, obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise self.fail(
                f"{where}.{unknown[0]}",
                f"unknown field; the fields are {', '.join(sorted(allowed))}",
            )

    def integer(
        self, obj: Mapping[str, Any], key: str, where: str, lo: int, hi: int, default: int | None
    ) -> int:
        if key not in obj:
            if default is None:
                raise self.fail(f"{where}.{key}", "is required")
            return default
        value = obj[key]
        if not _is_int(value) or not lo <= value <= hi:
            raise self.fail(
                f"{where}.{key}", f"must be an integer from {lo} to {hi}, got {quoted(value)}"
            )
        return value

    def choice(
        self, obj: Mapping[str, Any], key: str, where: str, options: tuple[_S, ...], default: _S
    ) -> _S:
        value: _S = obj.get(key, default)  # one of the options once checked below
        if value not in options:
            raise self.fail(
                f"{where}.{key}", f"must be one of {', '.join(options)}, got {quoted(value)}"
            )
        return value

    def array(self, obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
        value = obj.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{where}.{key}", f"must be a list, got {_type_name(value)}")
        return value


def _clause(ck: _Checker, raw: Any, where: str) -> Clause:
    obj = ck.mapping(raw, where)
    ck.keys(obj, {"on", "money"}, where)
    on: Literal["race", "win"] = ck.choice(obj, "on", where, ("race", "win"), "race")
    money = ck.integer(obj, "money", where, -20, 20, None)
    if money == 0:
        raise ck.fail(f"{where}.money", "must not be 0 (a clause that does nothing)")
    return Clause(on, money)


def _condition(ck: _Checker, raw: Any, where: str) -> Condition:
    obj = ck.mapping(raw, where)
    ck.keys(obj, {"driver", "engine", "chassis", "cars"}, where)
    values: dict[str, tuple[int, ...] | None] = {}
    for part in CAR_PARTS:
        if part not in obj:
            values[part] = None
            continue
        items = obj[part]
        if (
            not isinstance(items, list)
            or not items
            or not all(_is_int(v) and 1 <= v <= 6 for v in items)
        ):
            raise ck.fail(
                f"{where}.{part}", f"must be a non-empty list of values 1-6, got {quoted(items)}"
            )
        values[part] = tuple(items)
    cars = ck.integer(obj, "cars", where, 1, 2, 0) if "cars" in obj else None
    return Condition(
        driver=values["driver"], engine=values["engine"], chassis=values["chassis"], cars=cars
    )


def _modifier(ck: _Checker, raw: Any, where: str) -> Modifier:
    obj = ck.mapping(raw, where)
    ck.keys(obj, {"add", "double", "if"}, where)
    add = ck.integer(obj, "add", where, -10, 10, 0)
    double = obj.get("double")
    if double is not None and double not in CAR_PARTS:
        raise ck.fail(
            f"{where}.double", f"must be one of {', '.join(CAR_PARTS)}, got {quoted(double)}"
        )
    if add == 0 and double is None:
        raise ck.fail(where, "needs 'add' (non-zero) or 'double'")
    when = _condition(ck, obj["if"], f"{where}.if") if "if" in obj else Condition()
    return Modifier(add=add, double=double, when=when)


def _effect(ck: _Checker, raw: Any, where: str) -> Effect:
    obj = ck.mapping(raw, where)
    op = obj.get("op")
    if not isinstance(op, str) or op not in _EFFECT_KEYS:
        raise ck.fail(f"{where}.op", f"must be one of {', '.join(_EFFECT_KEYS)}, got {quoted(op)}")
    ck.keys(obj, _EFFECT_KEYS[op], where)
    if op == "discard_in_play":
        kinds = obj.get("kinds", list(CAR_PARTS) + ["sponsor"])
        allowed = (*CAR_PARTS, "sponsor")
        if not isinstance(kinds, list) or not kinds or not all(k in allowed for k in kinds):
            raise ck.fail(
                f"{where}.kinds",
                f"must be a non-empty list of {', '.join(allowed)}, got {quoted(kinds)}",
            )
        whose: Literal["any", "own", "others"] = ck.choice(
            obj, "whose", where, ("any", "own", "others"), "any"
        )
        return Effect(op, kinds=tuple(kinds), whose=whose)
    if op == "money":
        who: Literal["self", "others", "all"] = ck.choice(
            obj, "who", where, ("self", "others", "all"), "self"
        )
        amount = ck.integer(obj, "amount", where, -20, 20, None)
        if amount == 0:
            raise ck.fail(f"{where}.amount", "must not be 0")
        return Effect(op, who=who, amount=amount)
    if op == "draw":
        return Effect(op, count=ck.integer(obj, "count", where, 1, 5, None))
    if op == "extend":
        return Effect(op, count=ck.integer(obj, "races", where, 1, 2, None))
    return Effect(op)


def deck_from_dict(data: Any, source: str = "<mapping>") -> Deck:  # noqa: C901 (one flat check per deck field, in file order)
    """Build a :class:`Deck` from a parsed deck mapping, validating every field.

    Parameters
    ----------
    data : Mapping
        The parsed JSON document.
    source : str
        Name used in error messages (usually the file name).

    Returns
    -------
    Deck

    Raises
    ------
    DeckError
        Naming the source and the field, for the first problem found.

    Examples
    --------
    >>> data = {"format": "fdlab-fun-deck", "version": 1, "name": "tiny", "cards": [
    ...     {"kind": "driver", "name": "D", "value": 3, "count": 2},
    ...     {"kind": "engine", "name": "E", "value": 3},
    ...     {"kind": "chassis", "name": "C", "value": 3},
    ...     {"kind": "circuit", "name": "Oval", "modifiers": [{"add": 1}]}]}
    >>> len(deck_from_dict(data))
    5
    >>> deck_from_dict({**data, "version": 9})
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.DeckError: <mapping>: version: unsupported deck version 9 (expected 1)
    """
    ck = _Checker(source)
    doc = ck.mapping(data, "(top level)")
    ck.keys(doc, {"format", "version", "name", "cards", "description"}, "(top level)")
    if doc.get("format") != DECK_FORMAT:
        raise ck.fail("format", f"must be {DECK_FORMAT!r}, got {quoted(doc.get('format'))}")
    if doc.get("version") != 1 or isinstance(doc.get("version"), bool):
        raise ck.fail(
            "version", f"unsupported deck version {quoted(doc.get('version'))} (expected 1)"
        )
    name = doc.get("name", "unnamed deck")
    if not isinstance(name, str):
        raise ck.fail("name", "must be a string")
    if not isinstance(doc.get("description", ""), str):
        raise ck.fail("description", f"must be a string, got {quoted(doc['description'])}")
    entries = doc.get("cards")
    if not isinstance(entries, list) or not entries:
        raise ck.fail("cards", "must be a non-empty list of card entries")
    cards: list[Card] = []
    for index, raw in enumerate(entries):
        where = f"cards[{index}]"
        obj = ck.mapping(raw, where)
        kind = obj.get("kind")
        raw_name = obj.get("name")
        card_name = raw_name if isinstance(raw_name, str) and raw_name.strip() else None
        if card_name is not None:
            ck.card = f"card {card_name!r}"
        if kind not in KINDS:
            raise ck.fail(f"{where}.kind", f"must be one of {', '.join(KINDS)}, got {quoted(kind)}")
        if card_name is None:
            raise ck.fail(f"{where}.name", "must be a non-empty string")
        if _has_control_characters(card_name):
            raise ck.fail(f"{where}.name", "must not contain control characters")
        ck.card = f"{kind} {card_name!r}"
        ck.keys(obj, _KEYS[kind], where)
        count = ck.integer(obj, "count", where, 1, 20, 1)
        fields: dict[str, Any] = {}
        if kind in CAR_PARTS:
            fields["value"] = ck.integer(obj, "value", where, 1, 6, None)
        if kind == "driver":
            fields["clauses"] = tuple(
                _clause(ck, c, f"{where}.clauses[{i}]")
                for i, c in enumerate(ck.array(obj, "clauses", where))
            )
        elif kind == "sponsor":
            fields["income"] = ck.integer(obj, "income", where, 1, 10, None)
        elif kind == "special":
            effects = tuple(
                _effect(ck, e, f"{where}.effects[{i}]")
                for i, e in enumerate(ck.array(obj, "effects", where))
            )
            if not effects:
                raise ck.fail(f"{where}.effects", "a special card needs at least one effect")
            if sum(e.needs_target for e in effects) > 1:
                raise ck.fail(f"{where}.effects", "at most one effect per card may need a target")
            fields["effects"] = effects
        elif kind == "circuit":
            mods = ck.array(obj, "modifiers", where)
            fields["modifiers"] = tuple(
                _modifier(ck, m, f"{where}.modifiers[{i}]") for i, m in enumerate(mods)
            )
        for _ in range(count):
            cards.append(Card(id=len(cards), kind=kind, name=card_name, **fields))
        ck.card = None
    for kind in (*CAR_PARTS, "circuit"):
        if not any(c.kind == kind for c in cards):
            raise ck.fail("cards", f"the deck needs at least one {kind} card")
    return Deck(name=name, cards=tuple(cards), source=json.loads(json.dumps(doc)))


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Load and validate a deck file.

    The file is read through :func:`fdlab.untrusted.read_file` and
    :func:`~fdlab.untrusted.parse_json`: a folder, a named pipe (FIFO), a
    device such as ``/dev/zero`` or a file over :data:`MAX_DECK_BYTES` is
    refused at once (without waiting or filling the memory), and so are
    bytes that are not UTF-8, ``NaN`` or ``Infinity``, numbers too long to
    print and lists or objects nested deeper than a deck ever needs.

    Parameters
    ----------
    path : str or os.PathLike
        A JSON deck file.

    Returns
    -------
    Deck

    Raises
    ------
    DeckError
        If the file cannot be read, is not UTF-8 JSON or not a valid deck; the
        message names the file and the field.

    Examples
    --------
    >>> import json, tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = os.path.join(tmp, "bad.json")
    ...     _ = open(p, "w").write(json.dumps({"format": "fdlab-fun-deck", "version": 1,
    ...         "cards": [{"kind": "engine", "name": "E", "value": 7}]}))
    ...     try:
    ...         load_deck(p)
    ...     except Exception as err:
    ...         print(str(err).split(": ", 1)[1])
    cards[0].value: must be an integer from 1 to 6, got 7 (in engine 'E')
    >>> load_deck("/dev/zero")
    Traceback (most recent call last):
    ...
    fdlab.fun.errors.DeckError: zero: cannot read the deck file (it is a character device, not a file)
    """
    if not isinstance(path, str | os.PathLike):
        raise ArgumentError("path", f"path must be a file path, got {quoted(path)}")
    p = Path(path)
    name = p.name or str(path)
    try:
        raw = read_file(path, limit=MAX_DECK_BYTES, what="deck file")
    except UntrustedInputError as err:
        said = "it does not exist" if isinstance(err.__cause__, FileNotFoundError) else None
        message = f"cannot read the deck file ({said})" if said else str(err)
        raise DeckError(name, "", message.replace("read the file", "read the deck file")) from None
    text = _decoded(raw, name)
    try:
        data = parse_json(text)
    except UntrustedInputError as err:
        raise DeckError(name, "", str(err)) from None
    return deck_from_dict(data, source=name)


def _decoded(raw: bytes, name: str) -> str:
    """The text of a deck file, which must be UTF-8 (a UTF-8 byte order mark is allowed)."""
    for bom, encoding in (
        (b"\xff\xfe\x00\x00", "UTF-32"),
        (b"\x00\x00\xfe\xff", "UTF-32"),
        (b"\xff\xfe", "UTF-16"),
        (b"\xfe\xff", "UTF-16"),
    ):
        if raw.startswith(bom):
            raise DeckError(name, "", f"the file is {encoding} text; save the deck file as UTF-8")
    if len(raw) >= 2 and (raw[0] == 0) != (raw[1] == 0):
        raise DeckError(name, "", "the file is UTF-16 text; save the deck file as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise DeckError(
            name,
            "",
            f"not UTF-8 text: byte 0x{raw[err.start]:02x} on line {line} is not UTF-8 "
            "(perhaps Latin-1 or Windows-1252); save the deck file as UTF-8",
        ) from None


_DEFAULT: Deck | None = None


def default_deck() -> Deck:
    """Return the default deck shipped with fdlab (FF-17), loaded once.

    Returns
    -------
    Deck

    Examples
    --------
    >>> deck = default_deck()
    >>> deck.name
    'Formula Fun (fdlab default)'
    """
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("fdlab.fun").joinpath("default_deck.json").read_text("utf-8")
        _DEFAULT = deck_from_dict(json.loads(text), source="default_deck.json")
    return _DEFAULT
