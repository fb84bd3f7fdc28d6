"""The risk before the roll (issue 27): each gear's chance of elimination, expected loss and
corner outcome, checked against a brute force that plays every roll and every move.

The brute force shares nothing with :func:`fdlab.rules.odds.gear_risks` but the engine's
public steps: for every face of the die (each black-die face too on a car's first turn) it
announces the gear with :meth:`Engine.step` and loaded dice, plays every legal move with
:meth:`Engine.push` (black dice loaded with 20s, so collisions and engine checks cost
nothing, D-5, D-6, A-8, A-9), reads what happened to the car from the state after it (its
status, its pools, its corner stops) and picks the move a careful player would: one that
does not eliminate the car if any exists, then the cheapest, a free stop in the corner
first, then the farthest, a stop first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fdlab.rules import ChooseGear, LoadedDice, Race
from fdlab.rules.board import compile_board
from fdlab.rules.engine import Engine
from fdlab.rules.odds import gear_risks, percent, target_corner
from fdlab.rules.presets import BASIC
from fdlab.table import TableController
from fdlab.track import from_ascii, load_track

ROOT = Path(__file__).resolve().parents[2]

#: Black dice for every collision and engine check after a move: a 20 never costs anything.
QUIET = [20] * 80

# Two lanes, 44 columns: corner 1 (one stop) on columns 6-8, corner 2 (two stops) on 30-31.
# Space ids run down each column: column k holds spaces 2k (top) and 2k + 1.
_ROW = ". . . . . . 1 1 1 " + ". " * 21 + "2 2 " + ". " * 12
LANES = from_ascii("\n".join([_ROW, _ROW]), corners={1: 1, 2: 2}, grid=[5, 4], name="lanes")


def col(k: int, lane: int = 0) -> int:
    """Space id of column ``k`` (lane 0 on top)."""
    return 2 * k + lane


@dataclass
class Brute:
    """The figures of one gear, found by playing everything."""

    elimination: Fraction
    loss: Fraction
    stop: Fraction
    overshoot: Fraction
    reach: Fraction
    beyond: tuple[int, int] | None


def _walk_outcome(race: Race, start: int, path: tuple[int, ...], corner: Any) -> tuple[str, int]:
    """``short``, ``in`` (ends in the corner) or ``overshoot`` with the spaces past its exit."""
    board = race.board
    walk = (start, *path)
    inside = [k for k, i in enumerate(walk) if board.corner[i] == corner]
    if corner is None or not inside:
        return "short", 0
    if board.corner[walk[-1]] == corner:
        return "in", 0
    return "overshoot", len(walk) - 1 - inside[-1]


def _cases(race: Race, gear: int) -> list[tuple[Fraction, list[int]]]:
    """Every face (with the black die's on a first turn, S-2, S-3) and its chance."""
    preset = race.preset
    car = race.state.cars[race.state.on_turn]
    faces = Counter(preset.gear_dice[gear - 1].faces)
    n = sum(faces.values())
    cases = [(Fraction(k, n), [face]) for face, k in faces.items()]
    if car.started:
        return cases
    black = Counter(preset.black_die.faces)
    nb = sum(black.values())
    return [(Fraction(kb, nb) * p, [b, *dice]) for b, kb in black.items() for p, dice in cases]


def brute_force(race: Race, gear: int) -> Brute:
    """The gear's figures from playing every roll and every legal move (see the module)."""
    engine, state, board = race.engine, race.state, race.board
    c = state.on_turn
    before = state.cars[c]
    corner = target_corner(engine, state, c)
    out = loss = stop = over = reach = Fraction(0)
    beyond: list[int] = []
    for p, dice in _cases(race, gear):
        after, _ = engine.step(state, ChooseGear(gear), LoadedDice(dice + QUIET))
        me = after.cars[c]
        shifted = sum(before.pools) - sum(me.pools)  # the downshift (G-4, A-7)
        if not me.racing:  # the downshift alone eliminated the car (D-2): its full cost
            out += p
            loss += p * sum(race.preset.downshift_costs[before.gear - gear].values())
            continue
        if after.phase != "move" or after.on_turn != c:  # stalled (S-2, S-3): no move
            loss += p * shifted
            continue
        stops_before = me.stops if board.corner[me.space] == corner else 0
        best = None
        for option, cost in engine.legal_moves(after):
            final, _ = engine.push(after, option, cost, LoadedDice(QUIET))
            car = final.cars[c]
            eliminated = car.status == "eliminated"
            # a survivor's loss is read from its pools; an eliminated car's pools stop at 0
            lost = cost.total if eliminated else sum(me.pools) - sum(car.pools)
            kind, spaces = _walk_outcome(race, me.space, option.path, corner)
            if kind == "in":
                counted = option.stop_counts if not car.racing else car.stops > stops_before
                kind = "stop" if counted else "in"
            stopped = kind == "stop"
            key = (eliminated, lost, not (stopped and lost == 0), -option.moved, not stopped)
            if best is None or key < best[0]:
                best = (key, kind, spaces)
        assert best is not None
        (eliminated, lost, *_), kind, spaces = best
        out += p if eliminated else 0
        loss += p * (shifted + lost)
        stop += p if kind == "stop" else 0
        reach += p if kind != "short" else 0
        if kind == "overshoot":
            over += p
            beyond.append(spaces)
    span = (min(beyond), max(beyond)) if beyond else None
    return Brute(out, loss, stop, over, reach, span)


def assert_figures(race: Race, gears: list[int] | None = None) -> dict[int, Any]:
    """``race.odds().risks`` agree with the brute force on every legal gear."""
    risks = race.odds().risks
    assert sorted(risks) == race.legal_gears()
    for gear in gears or race.legal_gears():
        risk, brute = risks[gear], brute_force(race, gear)
        found = (risk.elimination, risk.loss, risk.stop, risk.overshoot, risk.reach)
        want = (brute.elimination, brute.loss, brute.stop, brute.overshoot, brute.reach)
        assert found == want, f"gear {gear}: {found} != {want}"
        assert risk.overshoot_range == brute.beyond, f"gear {gear}"
        assert sum(risk.losses.values()) == risk.loss
    return risks


def lanes(*, preset: str = "basic", **blue: Any) -> Race:
    """Blue alone on the two-lane board, ``blue`` its placement."""
    return Race.from_position(LANES, {"Blue": {"started": True, **blue}}, preset=preset, seed=1)


# -- the four positions of the issue ------------------------------------------------------
def test_partial_stop_chance_c2():
    """C-2, C-3: in 3rd from column 2 some rolls stop in corner 1, the others overshoot it."""
    race = lanes(space=col(2), gear=3)
    risk = assert_figures(race)[3]
    assert 0 < risk.stop < 1 and risk.elimination == 0
    assert risk.stop + risk.overshoot + risk.chance("short") == 1
    assert risk.short_words() == f"stops {round(float(risk.stop) * 100)}%"


def test_certain_overshoot_c3():
    """C-3: in 5th every roll carries the car past corner 1: the words say certain, with the
    range, and the expected loss is the overshoot's SP (an overshoot beats braking into the
    corner for the same SP: the car ends farther on)."""
    race = lanes(space=col(4), gear=5)
    risk = assert_figures(race)[5]
    assert risk.overshoot == 1 and risk.stop == 0 and risk.elimination == 0
    low, high = risk.overshoot_range or (0, 0)
    assert risk.corner_words() == f"corner 1: certain to overshoot it by {low}-{high} spaces"
    assert risk.short_words() == "overshoots"
    faces = {f.roll: f for f in risk.faces}
    assert faces[11].beyond == low and faces[20].beyond == high
    assert risk.loss == sum(f.chance * f.beyond for f in risk.faces)  # C-3: 1 SP a space


def test_certain_elimination_d2():
    """D-2, C-3: with 4 SP every 6th-gear roll overshoots corner 1 by more than 4 spaces, and
    braking costs as much: every move of every roll eliminates the car."""
    race = lanes(space=col(4), gear=5, pools=(4,))
    risks = assert_figures(race)
    assert risks[6].elimination == 1 and all(f.eliminated for f in risks[6].faces)
    assert "every roll leaves only moves that eliminate the car" in str(risks[6])
    assert 0 < risks[4].elimination < 1


def test_corner_out_of_reach():
    """C-2: from column 10 corner 2 (column 30) is out of reach in 1st to 3rd."""
    race = lanes(space=col(10), gear=2)
    risks = assert_figures(race)
    for gear in (1, 2, 3):
        assert risks[gear].corner == 2 and risks[gear].reach == 0
        assert risks[gear].corner_words() == "corner 2: can't reach it"
        assert risks[gear].short_words() == "can't reach corner 2"
        assert risks[gear].stop == risks[gear].overshoot == 0


# -- the rules that shape the risk --------------------------------------------------------
def test_downshift_alone_eliminates_g4():
    """G-4, D-2: 6th to 3rd costs 2 SP; with 2 SP left it eliminates the car before any roll."""
    race = lanes(space=col(10), gear=6, pools=(2,))
    risks = assert_figures(race)
    assert risks[3].elimination == 1 and risks[3].shift_eliminates and risks[3].faces == ()
    assert risks[3].loss == 2 and "downshift alone" in str(risks[3])
    assert risks[4].shift == 1 and risks[4].elimination == 0


def test_a_two_stop_corner_is_braked_into_c4():
    """C-4, D-3: leaving corner 2 without a stop eliminates the car, so the careful player
    brakes into it: the stop is certain, paid in SP."""
    race = lanes(space=col(26), gear=4)
    risk = assert_figures(race, [4])[4]
    assert risk.corner == 2 and risk.elimination == 0
    assert risk.stop == 1 and risk.loss > 0
    assert risk.corner_words() == "corner 2: certain to stop in it"


def test_a_car_in_the_way_m2_d4():
    """M-2, D-4: a car in each lane ahead blocks the long rolls; the brute force agrees."""
    race = Race.from_position(
        LANES,
        {
            "Blue": {"space": col(2), "gear": 3},
            "Red": {"space": col(9), "gear": 1},
            "Green": {"space": col(9, 1), "gear": 1},
        },
        order=["Blue", "Red", "Green"],
        seed=1,
    )
    risks = assert_figures(race)
    assert any(f.move is not None and f.move.blocked for f in risks[4].faces)


def test_advanced_wear_points_a2_a5():
    """A-2, A-5, A-7: advanced rules count wear points, summed over the pools; braking is
    limited by the brake WP, so long rolls overshoot and eat the tires."""
    race = lanes(space=col(4), gear=4, preset="advanced")
    risks = assert_figures(race)
    assert {risk.unit for risk in risks.values()} == {"WP"}
    assert risks[5].losses["tires"] > 0 and risks[5].elimination > 0
    assert risks[2].losses["fuel"] == 1  # two gears down costs 1 fuel


def test_first_turn_start_roll_s2():
    """S-2: on a car's first turn the black die comes first (stall, flying start, normal)."""
    track = from_ascii(". . . . 1 1 . . . . . .", corners={1: 1}, grid=[2], finish=11)
    race = Race(track, cars=1, seed=1)
    risk = assert_figures(race)[1]
    assert risk.chance("stall") == Fraction(1, 20)
    assert risk.overshoot == Fraction(4, 20)  # a flying start, 4 spaces, passes the corner


# -- seeded races on Monaco ---------------------------------------------------------------
@pytest.mark.parametrize("seed", [3, 11])
def test_seeded_monaco_positions_match_the_brute_force(seed):
    """C-2, C-3, C-4, D-2, G-4 on a real board: a seeded race (a person taking a middle or
    the top gear in turn, two heuristic bots), checked at three of the person's decisions."""
    monaco = load_track(ROOT / "tracks" / "monaco.json")
    race = Race(monaco, cars=["Blue", "Red", "Green"], seed=seed)
    table = TableController(race, ["person", "heuristic", "heuristic"])
    decisions = 0
    while decisions < 9:
        table.run_bots()
        assert not race.over, "the person's car left the race before the checks"
        if table.start_roll_due:
            table.start_roll()
        else:
            decisions += 1
            if decisions % 3 == 0:
                assert_figures(race)
            gears = table.gear_choices()
            table.choose_gear(gears[-1 if decisions % 2 else len(gears) // 2].gear)
        if table.phase == "move" and table.person_on_turn:
            table.choose_move(table.move_choices()[0].destination)


def test_the_issue_at_mirabeau():
    """C-3, D-2 (issue 27): before Mirabeau (corner 4) in 5th every roll overshoots it, and
    with 6 SP left 6th gear eliminates the car whatever the roll."""
    monaco = load_track(ROOT / "tracks" / "monaco.json")
    race = Race.from_position(monaco, {"Blue": {"space": 147, "gear": 5, "pools": (6,)}})
    risks = assert_figures(race, [5, 6])
    assert risks[5].corner == 4 and risks[5].overshoot == 1
    assert 0 < risks[5].elimination < 1
    assert risks[6].elimination == 1


def test_gear_risks_for_a_car_off_turn_and_a_given_corner():
    """C-2: ``gear_risks`` answers for any car and any corner it is given."""
    race = Race.from_position(
        LANES,
        {"Blue": {"space": col(2), "gear": 2}, "Red": {"space": col(12), "gear": 3}},
        order=["Blue", "Red"],
        seed=1,
    )
    engine, state = race.engine, race.state
    risks = gear_risks(engine, state, 1)
    assert sorted(risks) == [1, 2, 3, 4, 5, 6]  # off turn: every gear
    assert risks[1].corner == 2 and risks[1].reach == 0
    far = gear_risks(engine, state, 0, [2], corner=2)[2]
    assert far.corner == 2 and far.corner_words() == "corner 2: can't reach it"


def test_odds_html_shows_the_risk():
    """The odds table of a notebook carries the risk columns."""
    html = lanes(space=col(4), gear=5).odds()._repr_html_()
    assert "out this turn" in html and "certain to overshoot" in html


def test_a_later_corner_the_move_overshoots_is_named_in_the_words():
    """A fast gear out of a corner whose stops are made runs into the next one short of stops."""
    board = compile_board(from_ascii(". 1 . 2 . . . . . . . . . . .", corners={1: 1, 2: 1}))
    engine = Engine(board, BASIC, ["Solo"])
    state = engine.position([{"space": 1, "gear": 2, "stops": 1}])
    risk = gear_risks(engine, state, 0, [2], corner=1)[2]
    overshooting = sum(
        (f.chance for f in risk.faces if f.move is not None and f.move.overshoots), Fraction(0)
    )
    assert risk.later_overshoots() == {2: overshooting} and 0 < overshooting < 1
    assert risk.short_words().endswith(f", corner 2 overshot {percent(overshooting)}")
    assert risk.corner_words().endswith(f", then overshoots corner 2 {percent(overshooting)}")
    # the corner ahead alone: nothing added
    alone = gear_risks(engine, engine.position([{"space": 0, "gear": 1}]), 0, [1])[1]
    assert alone.later_overshoots() == {} and "overshot" not in alone.short_words()
