"""The default deck and deck files (FF-17)."""

import json

import pytest

from fdlab.fun import Game
from fdlab.fun.deck import deck_from_dict, default_deck, load_deck
from fdlab.fun.engine import new_game
from fdlab.fun.errors import DeckError


def test_ff17_default_deck_contents():
    """FF-17: parts of every value, drivers with clauses, sponsors, specials, six circuits."""
    deck = default_deck()
    for kind in ("driver", "engine", "chassis"):
        assert {c.value for c in deck.of_kind(kind)} == {1, 2, 3, 4, 5, 6}
    assert any(c.clauses for c in deck.of_kind("driver"))
    assert any(not c.clauses for c in deck.of_kind("driver"))
    assert all(c.income > 0 for c in deck.of_kind("sponsor"))
    assert len(deck.of_kind("special")) >= 6
    circuits = deck.of_kind("circuit")
    assert len(circuits) == 6
    assert all(c.modifiers for c in circuits)
    assert "+2 to cars with a driver of 5 or 6" in [c.text for c in circuits]
    assert [c.id for c in deck.cards] == list(range(len(deck)))


def test_ff17_every_card_has_readable_text():
    """FF-17: every clause, modifier and effect renders as text for the table."""
    for card in default_deck().cards:
        if card.kind in ("sponsor", "special", "circuit") or card.clauses:
            assert card.text and "None" not in card.text


def _doc(*cards):
    return {"format": "fdlab-fun-deck", "version": 1, "name": "t", "cards": list(cards)}


BASIC = [
    {"kind": "driver", "name": "D", "value": 3, "count": 4},
    {"kind": "engine", "name": "E", "value": 3, "count": 2},
    {"kind": "chassis", "name": "C", "value": 3, "count": 2},
    {"kind": "sponsor", "name": "S", "income": 2, "count": 4},
    {"kind": "circuit", "name": "Oval", "modifiers": [{"add": 1}]},
]


@pytest.mark.parametrize(
    "entry, where",
    [
        ({"kind": "engine", "name": "E", "value": 7}, "cards[5].value"),
        ({"kind": "engine", "name": "E"}, "cards[5].value"),
        ({"kind": "rocket", "name": "R"}, "cards[5].kind"),
        ({"kind": "engine", "name": "", "value": 2}, "cards[5].name"),
        ({"kind": "engine", "name": "E", "value": 2, "colour": "red"}, "cards[5].colour"),
        ({"kind": "sponsor", "name": "S", "income": 0}, "cards[5].income"),
        (
            {"kind": "driver", "name": "D", "value": 2, "clauses": [{"on": "lap", "money": 1}]},
            "cards[5].clauses[0].on",
        ),
        ({"kind": "special", "name": "X", "effects": []}, "cards[5].effects"),
        (
            {"kind": "special", "name": "X", "effects": [{"op": "teleport"}]},
            "cards[5].effects[0].op",
        ),
        (
            {"kind": "special", "name": "X", "effects": [{"op": "money", "who": "self"}]},
            "cards[5].effects[0].amount",
        ),
        (
            {
                "kind": "special",
                "name": "X",
                "effects": [{"op": "discard_in_play", "kinds": ["circuit"]}],
            },
            "cards[5].effects[0].kinds",
        ),
        (
            {"kind": "circuit", "name": "X", "modifiers": [{"add": 2, "if": {"driver": [7]}}]},
            "cards[5].modifiers[0].if.driver",
        ),
        (
            {"kind": "circuit", "name": "X", "modifiers": [{"double": "wing"}]},
            "cards[5].modifiers[0].double",
        ),
        ({"kind": "engine", "name": "E", "value": 2, "count": 0}, "cards[5].count"),
    ],
)
def test_ff17_bad_deck_entries_name_the_field(entry, where):
    """FF-17: a bad deck raises DeckError naming the source and the field."""
    with pytest.raises(DeckError) as info:
        deck_from_dict(_doc(*BASIC, entry), source="house.json")
    assert str(info.value).startswith(f"house.json: {where}: ")
    assert info.value.where == where


def test_ff17_errors_name_the_card_so_a_designer_finds_it():
    """FF-17: in a long deck file, ``cards[49]`` alone is hard to find: the card is named."""
    data = json.loads(json.dumps(default_deck().source))
    data["cards"].append(
        {"kind": "driver", "name": "Ada", "value": 6, "clauses": [{"on": "lap", "money": 1}]}
    )
    data["cards"][3]["value"] = "4"
    with pytest.raises(DeckError) as info:
        deck_from_dict(data, source="house.json")
    assert str(info.value) == (
        "house.json: cards[3].value: must be an integer from 1 to 6, got '4' "
        "(in driver 'Giulia Sprint')"
    )
    data["cards"][3]["value"] = 4
    with pytest.raises(DeckError, match=r"cards\[49\]\.clauses\[0\]\.on: .* \(in driver 'Ada'\)$"):
        deck_from_dict(data)
    data["cards"][49] = {"kind": "circuit", "name": "Ring", "modifier": []}
    with pytest.raises(DeckError, match=r"cards\[49\]\.modifier: unknown field; the fields are"):
        deck_from_dict(data)
    data["cards"][49] = {"kind": "rocket", "name": "Ring"}
    with pytest.raises(DeckError, match=r"cards\[49\]\.kind: .*got 'rocket' \(in card 'Ring'\)$"):
        deck_from_dict(data)


def test_ff17_deck_needs_parts_and_circuits():
    with pytest.raises(DeckError, match="at least one circuit"):
        deck_from_dict(_doc(*BASIC[:4]))
    with pytest.raises(DeckError, match="format"):
        deck_from_dict({**_doc(*BASIC), "format": "other"})
    with pytest.raises(DeckError, match="must be an object"):
        deck_from_dict([1, 2])


def test_ff17_load_deck_file_errors_name_the_file(tmp_path):
    bad_json = tmp_path / "broken.json"
    bad_json.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(DeckError, match=r"^broken\.json: not valid JSON: .* at line 1 column"):
        load_deck(bad_json)
    with pytest.raises(DeckError, match="missing.json: cannot read"):
        load_deck(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_doc(*BASIC, {"kind": "sponsor", "name": "S"})), encoding="utf-8")
    with pytest.raises(DeckError, match=r"^bad\.json: cards\[5\]\.income: is required"):
        load_deck(bad)


def test_ff17_designer_adds_a_card_without_code(tmp_path):
    """FF-17: a new circuit written only in the data file changes the race result."""
    data = json.loads(json.dumps(default_deck().source))
    data["cards"].append(
        {"kind": "circuit", "name": "Nordschleife", "modifiers": [{"double": "chassis"}]}
    )
    path = tmp_path / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    deck = load_deck(path)
    ring = deck.of_kind("circuit")[-1]
    assert ring.name == "Nordschleife" and ring.text == "the chassis counts double"
    game = Game(2, seed=1, deck=deck)
    assert game.state.deck[ring.id] == ring
    assert len(new_game(2, deck=deck).draw_pile) == len(deck) - 10


def test_ff17_count_makes_identical_cards():
    deck = deck_from_dict(_doc(*BASIC))
    assert len(deck) == 4 + 2 + 2 + 4 + 1
    assert len({c.name for c in deck.of_kind("driver")}) == 1


@pytest.mark.parametrize(
    "effect, text",
    [
        ({"op": "discard_in_play", "kinds": ["engine"], "whose": "own"}, "your own engine"),
        (
            {"op": "discard_in_play", "kinds": ["driver", "sponsor"], "whose": "others"},
            "discard a rival's driver or sponsor in play",
        ),
        ({"op": "money", "who": "all", "amount": -1}, "every player pays the bank 1 M$"),
        ({"op": "extend", "races": 2}, "the championship lasts 2 more races (at most 8)"),
    ],
)
def test_ff17_effect_vocabulary_reads_as_english(effect, text):
    """FF-17: the table shows a designer's effects as plain sentences."""
    entry = {"kind": "special", "name": "X", "effects": [effect]}
    card = deck_from_dict(_doc(*BASIC, entry)).cards[-1]
    assert text in card.text


# --------------------------------------------------------------------------- issue 15: bad input


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_ff17_a_latin1_deck_file_is_refused_with_the_line(tmp_path):
    entry = {"kind": "sponsor", "name": "Caffè", "income": 2}
    text = json.dumps(_doc(*BASIC, entry), indent=1, ensure_ascii=False)
    path = _write(tmp_path, "latin.json", text.encode("latin-1"))
    with pytest.raises(DeckError) as info:
        load_deck(path)
    message = str(info.value)
    assert message.startswith("latin.json: not UTF-8 text: byte 0xe8 on line ")
    assert "save the deck file as UTF-8" in message


def test_ff17_a_utf16_deck_file_is_refused_by_name(tmp_path):
    path = _write(tmp_path, "wide.json", json.dumps(_doc(*BASIC)).encode("utf-16"))
    with pytest.raises(DeckError, match=r"^wide\.json: the file is UTF-16 text; save the deck"):
        load_deck(path)


def test_ff17_an_op_that_is_a_list_names_the_field():
    entry = {"kind": "special", "name": "X", "effects": [{"op": ["money"], "amount": 2}]}
    with pytest.raises(DeckError) as info:
        deck_from_dict(_doc(*BASIC, entry), source="house.json")
    assert str(info.value).startswith("house.json: cards[5].effects[0].op: must be one of ")
    assert "got ['money'] (in special 'X')" in str(info.value)


def test_ff17_a_5000_digit_count_names_the_field(tmp_path):
    text = json.dumps(_doc(*BASIC)).replace('"count": 4', '"count": ' + "9" * 1000, 1)
    path = _write(tmp_path, "huge.json", text.encode())
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert str(info.value) == (
        "huge.json: cards[0].count: must be an integer from 1 to 20, got a 1000-digit number "
        "(in driver 'D')"
    )
    # past Python's limit for printing an integer, fdlab.untrusted.parse_json refuses it
    text = json.dumps(_doc(*BASIC)).replace('"count": 4', '"count": ' + "9" * 5000, 1)
    path = _write(tmp_path, "huge.json", text.encode())
    with pytest.raises(
        DeckError, match=r"^huge\.json: not valid JSON: an integer with 5000 digits"
    ):
        load_deck(path)
    data = _doc({**BASIC[0], "value": 10**5000}, *BASIC[1:])  # the same from Python
    with pytest.raises(DeckError, match=r"cards\[0\]\.value: .*got a 5001-digit number"):
        deck_from_dict(data, source="huge")


def test_ff17_deep_nesting_is_one_clear_error(tmp_path):
    path = _write(tmp_path, "deep.json", b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(DeckError, match=r"^deep\.json: nested more than 64 levels deep"):
        load_deck(path)
    doc = _doc(*BASIC)
    deep: list = []
    for _ in range(50_000):
        deep = [deep]
    doc["description"] = deep
    with pytest.raises(DeckError, match=r"^house: description: must be a string, got a list$"):
        deck_from_dict(doc, source="house")
    card = {"kind": "driver", "name": "D2", "value": 2, "clauses": [deep]}
    with pytest.raises(DeckError, match=r"clauses\[0\]: must be an object, got list"):
        deck_from_dict(_doc(*BASIC, card), source="house")


def test_ff17_a_card_name_may_not_hold_control_characters():
    """Control characters would garble the log (the log marks players with two of them)."""
    entry = {"kind": "engine", "name": "V\x1f0\x1e", "value": 2}
    with pytest.raises(DeckError, match=r"cards\[5\]\.name: must not contain control characters"):
        deck_from_dict(_doc(*BASIC, entry))
