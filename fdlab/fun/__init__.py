"""Formula Fun: a championship card game of running a racing team (rules section FF).

The engine is pure and immutable: :func:`new_game` deals, :func:`legal_actions`
lists the decisions, :func:`step` applies one and returns the new state with
the events it caused. :class:`Game` wraps it for notebooks (history, undo,
replay, bots); :mod:`fdlab.fun.opponents` names the bots, the manager
(:class:`ManagerBot`) being the default opponent; :mod:`fdlab.fun.widgets` is
the ipywidgets table, imported on demand; :class:`SharedFunGame` is one
championship played from several notebooks through a shared game log
(:mod:`fdlab.fun.shared`, its table :mod:`fdlab.fun.shared_widget`).
"""

from fdlab.fun.actions import (
    Action,
    Bid,
    Discard,
    Draw,
    EndTurn,
    Pass,
    PlayCircuit,
    PlaySpecial,
    PlaySponsor,
    PutOnMarket,
    ReturnDriver,
    StartAuction,
    parse_action,
)
from fdlab.fun.bots import FunRandomBot, SensibleBot, SimpleBot
from fdlab.fun.cards import Card, Clause, Condition, Effect, Modifier
from fdlab.fun.deck import Deck, deck_from_dict, default_deck, load_deck
from fdlab.fun.engine import legal_actions, new_game, replay, step
from fdlab.fun.errors import ArgumentError, DeckError, IllegalActionError, SavedGameError
from fdlab.fun.events import FunEvent
from fdlab.fun.game import Game, play_championship
from fdlab.fun.manager import ManagerBot
from fdlab.fun.opponents import BOTS, DEFAULT_OPPONENT, make_opponent
from fdlab.fun.shared import FunSeatError, NotYourDecisionError, SharedFunGame, StaleGameError
from fdlab.fun.state import FunRules, GameState, PlayerState

__all__ = [
    "BOTS",
    "DEFAULT_OPPONENT",
    "Action",
    "ArgumentError",
    "Bid",
    "Card",
    "Clause",
    "Condition",
    "Deck",
    "DeckError",
    "Discard",
    "Draw",
    "Effect",
    "EndTurn",
    "FunEvent",
    "FunRules",
    "FunSeatError",
    "Game",
    "SavedGameError",
    "GameState",
    "IllegalActionError",
    "ManagerBot",
    "Modifier",
    "NotYourDecisionError",
    "Pass",
    "PlayCircuit",
    "PlaySpecial",
    "PlaySponsor",
    "PlayerState",
    "PutOnMarket",
    "FunRandomBot",
    "ReturnDriver",
    "SensibleBot",
    "SharedFunGame",
    "SimpleBot",
    "StartAuction",
    "StaleGameError",
    "deck_from_dict",
    "default_deck",
    "legal_actions",
    "load_deck",
    "make_opponent",
    "new_game",
    "parse_action",
    "play_championship",
    "replay",
    "step",
]
