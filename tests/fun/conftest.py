"""Helpers for Formula Fun tests: find cards by name and arrange exact positions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from fdlab.fun.deck import Deck, default_deck
from fdlab.fun.engine import new_game
from fdlab.fun.invariants import check_invariants
from fdlab.fun.state import GameState, PlayerState


def _card_id(deck: Deck, name: str, nth: int = 0) -> int:
    """Id of the ``nth`` card called ``name`` (or ``"engine 4"`` style: kind and value)."""
    words = name.split()
    if len(words) == 2 and words[0] in ("driver", "engine", "chassis") and words[1].isdigit():
        matches = [c.id for c in deck.cards if c.kind == words[0] and c.value == int(words[1])]
    else:
        matches = [c.id for c in deck.cards if c.name == name]
    if len(matches) <= nth:
        raise KeyError(f"no card #{nth} named {name!r}")
    return matches[nth]


def _arrange(
    players: int = 2,
    *,
    seed: int = 0,
    deck: Deck | None = None,
    turn: int = 0,
    phase: str = "play",
    hands: Mapping[int, Iterable[int]] | None = None,
    teams: Mapping[int, Mapping[str, object]] | None = None,
    money: Mapping[int, int] | None = None,
    points: Mapping[int, int] | None = None,
    market: Iterable[tuple[int, int]] = (),
    discard: Iterable[int] = (),
    **changes: object,
) -> GameState:
    """A legal state with exactly the given cards placed; the rest form the draw pile.

    Hands not given are empty. ``teams[i]`` may hold ``engine``, ``chassis``,
    ``drivers`` and ``sponsors``.
    """
    base = new_game(players, seed=seed, deck=deck)
    hands = {i: tuple(h) for i, h in (hands or {}).items()}
    teams = teams or {}
    money = money or {}
    points = points or {}
    market = tuple(market)
    discard = tuple(discard)
    placed: list[int] = [c for h in hands.values() for c in h]
    new_players = []
    for i in range(players):
        t = teams.get(i, {})
        p = PlayerState(
            money=money.get(i, 20),
            hand=hands.get(i, ()),
            drivers=tuple(t.get("drivers", ())),  # type: ignore[arg-type]
            engine=t.get("engine"),  # type: ignore[arg-type]
            chassis=t.get("chassis"),  # type: ignore[arg-type]
            sponsors=tuple(t.get("sponsors", ())),  # type: ignore[arg-type]
            points=points.get(i, 0),
        )
        placed.extend(p.in_play)
        new_players.append(p)
    placed.extend(c for c, _ in market)
    placed.extend(discard)
    assert len(placed) == len(set(placed)), "a card is placed twice"
    everything = list(base.draw_pile) + [c for p in base.players for c in p.hand]
    pile = tuple(c for c in everything if c not in set(placed))
    state = base.replace(
        players=tuple(new_players),
        draw_pile=pile,
        discard=discard,
        market=market,
        turn=turn,
        phase=phase,
        **changes,
    )
    if not points:
        check_invariants(state)
    return state


@pytest.fixture
def deck() -> Deck:
    return default_deck()


@pytest.fixture
def cid(deck: Deck):
    """``cid("V12")`` or ``cid("driver 5", 1)``: the id of a default-deck card."""

    def find(name: str, nth: int = 0) -> int:
        return _card_id(deck, name, nth)

    return find


@pytest.fixture
def arrange():
    """Build a position with exactly the given cards placed (see ``_arrange``)."""
    return _arrange
