"""The one race loop: policies choose, the engine plays, each step is yielded.

:func:`iter_race` is how every part of fdlab drives a race between
policies: :func:`fdlab.rules.simulate.simulate` (whole races, no history),
:meth:`fdlab.rules.race.Race.play_bots` (bots' turns in an interactive race,
stopping at a person's seat) and the playtest log
(:func:`fdlab.analysis.racelog.play_logged_race`). A policy is any object
that satisfies :class:`fdlab.rules.policy.Policy` (``choose_gear`` and
``choose_move``; ``use_nitro`` too for the street rules, :class:`NitroPolicy`).

Gears and nitro go through the checked :meth:`~fdlab.rules.engine.Engine.step`;
a move chosen from the legal list is played with the unchecked
:meth:`~fdlab.rules.engine.Engine.push`, and the step records the
:class:`~fdlab.rules.actions.ChooseMove` that names it, so the race still
replays from its seed and actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from fdlab.rules.actions import Action, ChooseGear, ChooseMove, RollGrid, UseNitro
from fdlab.rules.costs import MoveCost
from fdlab.rules.dice import DiceSource
from fdlab.rules.engine import Engine
from fdlab.rules.errors import RuleError
from fdlab.rules.events import Event
from fdlab.rules.movement import MoveOption
from fdlab.rules.policy import Policy
from fdlab.rules.state import RaceState
from fdlab.rules.view import RaceView

__all__ = ["RaceStep", "bot_action", "iter_race"]


@dataclass(frozen=True, slots=True)
class RaceStep:
    """One action played by :func:`iter_race`, with the states around it.

    Attributes
    ----------
    car : int or None
        Index of the car that acted (None for the grid roll).
    action : Action
        What was played, as a person would name it (replayable).
    before, state : RaceState
        The state before and after the action.
    events : list of Event
    option, cost : MoveOption and MoveCost, or None
        For a move: the option chosen from the legal list and its cost.
    """

    car: int | None
    action: Action
    before: RaceState
    state: RaceState
    events: list[Event]
    option: MoveOption | None = None
    cost: MoveCost | None = None


def iter_race(
    engine: Engine,
    policies: Sequence[Policy | None],
    dice: DiceSource,
    state: RaceState | None = None,
) -> Iterator[RaceStep]:
    """Play a race between policies from ``state``, yielding every step.

    The generator ends when the race is over, or when the car on turn has no
    policy (``None`` in ``policies``: a person's seat), leaving that turn to
    the caller.

    Parameters
    ----------
    engine : Engine
    policies : sequence
        One per car, car 1 first; ``None`` for a car a person drives.
    dice : DiceSource
    state : RaceState, optional
        Where to start (default: the engine's initial state, before the grid).

    Yields
    ------
    RaceStep

    Raises
    ------
    RuleError
        When ``policies`` does not have one entry per car, or an entry is
        neither a policy nor None (a bot's name, say).

    Examples
    --------
    >>> from fdlab.rules.dice import SeededDice
    >>> from fdlab.bots import HeuristicBot
    >>> board = compile_board(from_ascii(" ".join(["."] * 12), grid=[1, 0], finish=11))
    >>> engine = Engine(board, BASIC, ["Blue", "Red"])
    >>> steps = list(iter_race(engine, [HeuristicBot(), None], SeededDice(2)))
    >>> steps[-1].state.cars[steps[-1].state.current] is steps[-1].state.cars[1]  # Red's turn
    True
    >>> steps[0].action, steps[1].car
    (RollGrid(), 0)
    """
    if len(policies) != engine.n_cars:
        raise RuleError(
            f"{len(policies)} policies for {engine.n_cars} cars: pass one per car "
            f"(None for a car a person drives)"
        )
    for number, policy in enumerate(policies, start=1):
        if policy is not None and not callable(getattr(policy, "choose_gear", None)):
            hint = (
                f"{policy!r} is a bot's name: pass the bot itself (fdlab.make_bot(name, "
                "...)), or play through Race.play_bots or a race table, which take names"
                if isinstance(policy, str)
                else f"{policy!r} has no choose_gear"
            )
            raise RuleError(
                f"policy of car {number}: {hint}; each entry is a policy (an object with "
                "choose_gear and choose_move) or None for a car a person drives"
            )
    state = engine.initial_state() if state is None else state
    while state.phase != "over":
        if state.phase == "grid":
            action: Action = RollGrid()
            after, events = engine.step(state, action, dice)
            yield RaceStep(None, action, state, after, events)
            state = after
            continue
        c = state.on_turn
        policy = policies[c]
        if policy is None:
            return
        view = RaceView(engine, state, c)
        if state.phase == "gear":
            action = ChooseGear(policy.choose_gear(view))
        elif _wants_nitro(policy, view):
            action = UseNitro()
        else:
            moves = engine.legal_moves(state)
            option = policy.choose_move(view, moves)
            cost = _cost_of(option, moves)
            after, events = engine.push(state, option, cost, dice)
            yield RaceStep(
                c, ChooseMove.of(option, engine.board.ids), state, after, events, option, cost
            )
            state = after
            continue
        after, events = engine.step(state, action, dice)
        yield RaceStep(c, action, state, after, events)
        state = after


def bot_action(policy: Policy, view: RaceView) -> Action:
    """The action a policy takes in ``view`` (gear, nitro, or move), as a person would name it.

    For stepping the engine by hand (tests, lessons); :func:`iter_race` plays
    whole races without naming moves by id and looking them up again.

    Examples
    --------
    >>> from fdlab.bots import HeuristicBot
    >>> engine = Engine(compile_board(from_ascii(" ".join(["."] * 30))), BASIC, ["A"])
    >>> state = engine.position([{"space": 0, "gear": 1}])
    >>> bot_action(HeuristicBot(), RaceView(engine, state, 0))
    ChooseGear(gear=2)
    """
    state = view.state
    if state.phase == "grid":
        return RollGrid()
    if state.phase == "gear":
        return ChooseGear(policy.choose_gear(view))
    if _wants_nitro(policy, view):
        return UseNitro()
    option = policy.choose_move(view, view.legal_moves())
    return ChooseMove.of(option, view.board.ids)


def _wants_nitro(policy: Policy, view: RaceView) -> bool:
    """X-1: nitro is on offer and the policy (if it has a say) takes it."""
    decide = getattr(policy, "use_nitro", None)
    return decide is not None and view.nitro_available() and bool(decide(view))


def _cost_of(option: MoveOption, moves: list[tuple[MoveOption, MoveCost]]) -> MoveCost:
    """The cost listed with ``option`` (a policy may return an equal copy of a listed option)."""
    for listed, cost in moves:
        if listed is option:
            return cost
    for listed, cost in moves:
        if listed == option:
            return cost
    raise RuleError(f"the policy chose an option that is not among the legal moves: {option!r}")
