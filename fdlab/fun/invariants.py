"""Invariants every Formula Fun state satisfies; used by tests and bot playouts."""

from __future__ import annotations

from fdlab.errors import FdlabError
from fdlab.fun.state import GameState

__all__ = ["InvariantError", "check_invariants"]


class InvariantError(FdlabError, AssertionError):
    """A state breaks an invariant of the rules: an engine bug, never a player error."""


def check_invariants(state: GameState) -> None:  # noqa: C901 (one flat check per invariant)
    """Raise :class:`InvariantError` if ``state`` breaks an invariant.

    Checked: money never negative; every card of the deck in exactly one
    place (draw pile, discard, market, a hand or a team); at most two sponsors
    and two drivers per team; team slots hold cards of the right kind; the
    championship is 6 to 8 races long and no more races were run than that;
    the phase matches the pending auction or driver choice.

    Parameters
    ----------
    state : GameState

    Raises
    ------
    InvariantError

    Examples
    --------
    >>> from fdlab.fun.engine import new_game
    >>> check_invariants(new_game(4, seed=0))
    """
    deck = state.deck
    rules = state.rules
    problems: list[str] = []
    for i, p in enumerate(state.players):
        if p.money < 0:
            problems.append(f"player {i} has negative money {p.money}")
        if len(p.sponsors) > rules.max_sponsors:
            problems.append(f"player {i} has {len(p.sponsors)} sponsors")
        if len(p.drivers) > rules.max_drivers:
            problems.append(f"player {i} has {len(p.drivers)} drivers")
        if any(deck[c].kind != "driver" for c in p.drivers):
            problems.append(f"player {i} has a non-driver in a driver seat")
        if p.engine is not None and deck[p.engine].kind != "engine":
            problems.append(f"player {i} has a non-engine as engine")
        if p.chassis is not None and deck[p.chassis].kind != "chassis":
            problems.append(f"player {i} has a non-chassis as chassis")
        if any(deck[c].kind != "sponsor" for c in p.sponsors):
            problems.append(f"player {i} has a non-sponsor among sponsors")
    try:
        where = state.card_locations()
    except AssertionError as err:
        problems.append(str(err))
    else:
        if sorted(where) != list(range(len(deck))):
            missing = sorted(set(range(len(deck))) - set(where))
            problems.append(f"cards not conserved: {len(where)} of {len(deck)}, missing {missing}")
    if any(deck[c].kind not in ("driver", "engine", "chassis") for c in state.market_cards):
        problems.append("a card that is not a driver, engine or chassis is on the market")
    if not rules.races <= state.length <= rules.max_races:
        problems.append(
            f"championship length {state.length} outside {rules.races}-{rules.max_races}"
        )
    if len(state.races) > state.length:
        problems.append(f"{len(state.races)} races run in a {state.length}-race championship")
    if (state.phase == "auction") != (state.auction is not None):
        problems.append(f"phase {state.phase} with auction {state.auction}")
    if (state.phase == "return_driver") != (state.pending_driver is not None):
        problems.append(f"phase {state.phase} with pending driver {state.pending_driver}")
    if state.auction is not None and state.auction.card not in state.market_cards:
        problems.append("the auctioned card is not on the market")
    if sum(p.points for p in state.players) != sum(c.points for r in state.races for c in r.cars):
        problems.append("points do not add up to the race results")
    if problems:
        raise InvariantError("; ".join(problems))
