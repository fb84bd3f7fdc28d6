"""Monte Carlo playtests (fdlab.analysis.playtest): tables, seeds, workers, Dask."""

from __future__ import annotations

import pandas as pd
import pytest

from fdlab.analysis.playtest import PlaytestError, playtest, race_seeds
from fdlab.bots import RandomBot
from fdlab.bots.roster import BotSpecError, bot_label, make_bot
from fdlab.rules.board import compile_board
from fdlab.rules.presets import BASIC
from fdlab.track import from_ascii


def ring():
    row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    return from_ascii(
        "\n".join([row] * 2),
        corners={1: 2, 2: 1, 3: 1},
        closed=True,
        grid=[64, 65, 62, 63],
    )


BOTS = ["heuristic", "lookahead:reckless", RandomBot(3), "heuristic:cautious"]


def test_tables_are_tidy_and_consistent():
    result = playtest(ring(), BOTS, races=6, workers=1, progress=False, keep_events=True)
    assert list(result.races["race"]) == list(range(6))
    assert len(result.cars) == 6 * 4
    assert set(result.cars["status"]) <= {"finished", "eliminated"}
    # every car's turns add up to the turns table
    counted = result.turns.groupby(["race", "car"]).size()
    assert (
        counted.values == result.cars.set_index(["race", "car"])["turns"].loc[counted.index].values
    ).all()
    # S-4: the winner is the car placed first
    winners = result.cars[result.cars["place"] == 1].set_index("race")["car"]
    assert (winners == result.races.set_index("race")["winner"].loc[winners.index]).all()
    # D-1: damage per car never exceeds what its turns recorded
    per_car = result.turns.groupby(["race", "car"])["damage"].sum()
    assert (
        per_car.values == result.cars.set_index(["race", "car"])["damage"].loc[per_car.index].values
    ).all()
    assert not result.events.empty and set(result.events.columns) == {
        "race",
        "round",
        "car",
        "kind",
        "text",
    }
    assert "Playtest of" in result._repr_html_()


def test_same_seed_same_tables_with_one_or_two_workers():
    one = playtest(ring(), BOTS, races=8, seed=5, workers=1, progress=False)
    two = playtest(ring(), BOTS, races=8, seed=5, workers=2, chunk_size=3, progress=False)
    pd.testing.assert_frame_equal(one.races, two.races)
    pd.testing.assert_frame_equal(one.cars, two.cars)
    pd.testing.assert_frame_equal(one.turns, two.turns)


def test_another_seed_gives_other_races():
    one = playtest(ring(), 2, races=5, seed=1, workers=1, progress=False)
    two = playtest(ring(), 2, races=5, seed=2, workers=1, progress=False)
    assert not one.turns.equals(two.turns)


def test_race_seeds_do_not_depend_on_the_number_of_races():
    assert race_seeds(3, 4) == race_seeds(3, 10)[:4]


def test_dask_client_gives_the_same_tables():
    distributed = pytest.importorskip("dask.distributed")
    # worker processes, as on a real cluster: the payload and the logs are pickled
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        on_dask = playtest(
            ring(), BOTS, races=4, seed=9, client=client, chunk_size=2, progress=False
        )
    local = playtest(ring(), BOTS, races=4, seed=9, workers=1, progress=False)
    pd.testing.assert_frame_equal(on_dask.turns, local.turns)
    pd.testing.assert_frame_equal(on_dask.cars, local.cars)


def test_more_cars_than_grid_spots_is_refused():
    with pytest.raises(PlaytestError, match="4 grid spots"):
        playtest(ring(), 5, races=1, workers=1, progress=False)


@pytest.mark.parametrize("bots", [11, ["heuristic"] * 11, ["par", "random"] * 6])
def test_more_cars_than_a_race_holds_is_refused_up_front_with_one_message(bots):
    """Twelve grid spots, eleven cars or more: one message, for every bot and lap count
    (it used to be "box_slot is a car number from 1 to 10, not 11" from the par
    bot with two laps, or "11 policies for 10 cars" from the heuristic bot)."""
    row = ". " * 16
    track = from_ascii(
        "\n".join([row, row, row]), closed=True, grid=list(range(12)), name="Wide grid"
    )
    for laps in (1, 2):
        with pytest.raises(PlaytestError) as caught:
            playtest(track, bots, races=1, laps=laps, workers=1, progress=False)
        message = str(caught.value)
        cars = bots if isinstance(bots, int) else len(bots)
        assert message.startswith(f"{cars} cars, but a race has at most 10")
        assert "pass at most 10 bots" in message


def test_unknown_bot_is_refused_with_the_choices():
    with pytest.raises(BotSpecError, match="heuristic, lookahead, random, solo"):
        bot_label("speedy")
    with pytest.raises(BotSpecError, match="driving style"):
        make_bot("heuristic:wild", board=compile_board(ring()), preset=BASIC, seed=0)


def test_styles_change_the_bots():
    board = compile_board(ring())
    cautious = make_bot("heuristic:cautious", board=board, preset=BASIC, seed=0)
    reckless = make_bot("heuristic:reckless", board=board, preset=BASIC, seed=0)
    assert cautious.caution > reckless.caution


def test_solo_bot_under_advanced_rules_is_refused_before_racing():
    with pytest.raises(PlaytestError, match="'solo' bot"):
        playtest(ring(), ["solo", "heuristic"], races=2, preset="advanced", workers=2)


def test_advanced_and_street_presets_play(tmp_path):
    """R-3, R-4: the playtest runs under every preset (pools summed in the damage columns)."""
    for preset in ("advanced", "street"):
        result = playtest(
            ring(), ["lookahead", "heuristic"], races=3, preset=preset, workers=1, progress=False
        )
        assert len(result.cars) == 6 and (result.cars["damage"] >= 0).all()


def test_a_script_without_a_main_guard_gets_a_clear_error_not_a_hang(tmp_path):
    """Spawned workers import the script again: say so rather than hang (or recurse)."""
    import subprocess
    import sys
    import textwrap

    script = tmp_path / "unguarded.py"
    script.write_text(
        textwrap.dedent(
            """
            from fdlab.analysis import playtest
            from fdlab.track import from_ascii

            row = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
            track = from_ascii("\\n".join([row] * 2), corners={1: 2, 2: 1, 3: 1},
                               closed=True, grid=[64, 65, 62, 63])
            playtest(track, 2, races=4, workers=2, progress=False)
            """
        )
    )
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("fdlab.analysis.errors.PlaytestError")
    assert 'if __name__ == "__main__":' in last


def test_solo_bots_in_a_two_lap_race_use_their_own_boxes():
    """P-2: each 'solo' car is solved for its own box, so two-lap races with pits end."""
    top = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    pit = "x " * 27 + "p p p p p x"
    box = "x " * 28 + "B B x x x"
    track = from_ascii(
        "\n".join([top, top, pit, box]), corners={1: 2, 2: 1, 3: 1}, closed=True, grid=[128, 129]
    )
    result = playtest(track, ["heuristic", "solo"], races=12, laps=2, workers=1, progress=False)
    solo = result.cars[result.cars["bot"] == "solo"]
    assert len(solo) == 12 and (solo["status"] == "finished").mean() > 0.9
    boxed = result.turns[result.turns["space"].isin([115, 119])]
    assert set(boxed[boxed["car"] == 1]["space"]) == {119}  # car 2 pits, in box 2 only


def test_a_playtest_solves_the_tables_it_lacks_side_by_side_with_a_bar(
    tmp_path, monkeypatch, capsys
):
    """P-2: two par cars of a two-lap race with pits need a table each (their own boxes);
    the playtest solves both at once on its workers, shows it, and keeps them: the same
    playtest again solves nothing."""
    from fdlab.par import table as tables

    monkeypatch.setenv("FDLAB_CACHE_DIR", str(tmp_path))
    tables.forget_tables()
    top = ". . . . 1 1 . . . . . . . 2 2 2 . . . . . . . . 3 . . . . . . . ."
    pit = "x " * 27 + "p p p p p x"
    box = "x " * 28 + "B B x x x"
    track = from_ascii(
        "\n".join([top, top, pit, box]),
        corners={1: 2, 2: 1, 3: 1},
        closed=True,
        grid=[128, 129],
        name="two boxes",
    )
    first = playtest(track, ["par", "par"], races=2, laps=2, workers=2, seed=5)
    shown = capsys.readouterr().err
    assert "solving par tables of two boxes" in shown and "2/2" in shown
    board = compile_board(track)
    rules = BASIC.with_laps(2)
    keys = {tables.table_key(board, rules, slot) for slot in (1, 2)}
    assert len(keys) == 2 and all(tables.known_table(board, rules, k[2]) for k in keys)
    tables.forget_tables()  # read again from the disk, where the workers kept them

    def no_solve(*args, **kwargs):
        raise AssertionError("solved again")

    monkeypatch.setattr("fdlab.par.solve.solve_par", no_solve)
    again = playtest(track, ["par", "par"], races=2, laps=2, workers=2, seed=5)
    assert "solving" not in capsys.readouterr().err
    assert first.races.equals(again.races)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"chunk_size": -1}, "chunk_size must be at least 1, not -1"),
        ({"chunk_size": 0}, "chunk_size must be at least 1, not 0"),
        ({"seed": -1}, "seed must be at least 0, not -1"),
        ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
        ({"races": 1.5}, "races must be a whole number, not 1.5"),
        ({"races": 0}, "races must be at least 1, not 0"),
        ({"races": True}, "races must be a whole number, not True"),
        ({"workers": 0}, "workers must be at least 1, not 0"),
    ],
)
def test_bad_counts_are_refused_up_front_naming_the_parameter(options, words):
    with pytest.raises(PlaytestError) as info:
        playtest(ring(), 2, **({"races": 2, "workers": 1, "progress": False} | options))
    assert str(info.value) == words


def test_a_board_with_no_finish_line_is_refused_before_racing():
    track = ring()
    for _, _, lines in track.graph.edges(data="lines"):
        assert isinstance(lines, frozenset)
    for u, v in list(track.graph.edges):
        track.graph.edges[u, v]["lines"] = track.graph.edges[u, v]["lines"] - {"finish"}
    with pytest.raises(PlaytestError, match=r"has no finish line .*no race could ever end"):
        playtest(track, 2, races=1, workers=1, progress=False)


def test_a_move_leaving_two_corners_records_the_stops_made_in_each():
    """A car leaves a 3-stop corner with its 3 stops and overshoots the next corner in the
    same move: the 3-stop corner's passage counts 3 stops made, the next one's 0."""
    from types import SimpleNamespace

    from fdlab.analysis.racelog import TURN_COLUMNS, _move_row
    from fdlab.rules.movement import MoveRules, move_options

    board = compile_board(from_ascii(". 1 1 . 2 . . . .", corners={1: 3, 2: 1}))
    start = board.index[2]
    option = next(
        o
        for o in move_options(board, start, 4, MoveRules(stops_made=3))
        if o.overshoots and board.corner[o.destination] is None
    )
    assert option.corners_left == (1,) and [o.corner for o in option.overshoots] == [2]
    before = SimpleNamespace(cars=[SimpleNamespace(stops=3)])
    zones = tuple(board.corner)
    row = dict(
        zip(
            TURN_COLUMNS[8:],
            _move_row(board, zones, option, before, 0, before, False),
            strict=False,
        )
    )
    assert row["stops_by_corner"] == ((2, 0), (1, 3))
    assert row["beyond_by_corner"] == ((2, option.overshoots[0].beyond),)
    assert row["overshot_corners"] == (2,) and row["left_corners"] == (1,)


def test_a_corner_left_properly_counts_its_own_stops_in_the_corner_table():
    """Corners back to back (a 3-stop corner, then a 1-stop one a space on): a move may leave
    the first with its 3 stops and overshoot the second. The first corner's passage counts
    3 stops made (C-3), not the 0 made in the second, and the table's mean is of those."""
    from fdlab.analysis.stats import corner_table, to_the_flag

    row = ". . . . . . 1 1 1 . 2 . . . . . . . . . . . . . . . . . . . . . . . . ."
    track = from_ascii(
        "\n".join([row] * 2), corners={1: 3, 2: 1}, closed=True, grid=[70, 71, 68, 69]
    )
    result = playtest(track, [RandomBot(1), RandomBot(2), "heuristic", RandomBot(3)], races=12,
                      workers=1, progress=False)  # fmt: skip
    turns = result.turns
    both = turns["overshot_corners"].map(lambda left: 2 in left) & turns["left_corners"].map(
        lambda left: 1 in left
    )
    assert both.any()  # the case in question: corner 1 left properly, corner 2 overshot
    table = corner_table(result)
    for corner, needed in ((1, 3), (2, 1)):
        left = turns["overshot_corners"].map(lambda cs, c=corner: c in cs)
        proper = turns["left_corners"].map(lambda cs, c=corner: c in cs)
        made = [dict(pairs)[corner] for pairs in turns.loc[left | proper, "stops_by_corner"]]
        assert all(dict(pairs)[corner] >= needed for pairs in turns.loc[proper, "stops_by_corner"])
        assert table.loc[corner, "mean_stops"] == pytest.approx(sum(made) / len(made))
        # overshoots on the run to the flag are counted apart (to_the_flag)
        counted = left & ~to_the_flag(turns)
        beyond = [dict(pairs)[corner] for pairs in turns.loc[counted, "beyond_by_corner"]]
        assert table.loc[corner, "mean_overshoot"] == pytest.approx(sum(beyond) / len(beyond))
        shares = table.loc[corner, "overshoot_rate"] + table.loc[corner, "flag_overshoot_rate"]
        assert shares == pytest.approx(left.sum() / (left | proper).sum())


def test_overshoots_on_the_run_to_the_flag_are_counted_apart():
    """A corner just before the line, on a one-lap race: cars that finish spend their spare
    points overshooting it. The corner table counts those passages apart (flag_overshoot_rate),
    in neither its overshoot rate nor its damage, so the report does not blame the corner."""
    from fdlab.analysis.stats import blame, corner_table, to_the_flag

    row = ". . . . . . 1 1 . . . . . . . . . . . 2 2 . . ."
    track = from_ascii("\n".join([row] * 2), corners={1: 2, 2: 2}, grid=[2, 3, 0, 1], finish=22)
    result = playtest(track, ["par", "par", "par", "par"], races=8, laps=1, workers=1,
                      progress=False)  # fmt: skip
    turns = result.turns
    flag = to_the_flag(turns)
    assert flag.any()
    # past the last corner but one, only the last corner is overshot; never an elimination
    assert all(set(corners) <= {2} for corners in turns.loc[flag, "overshot_corners"])
    assert turns.loc[flag, "overshot_corners"].map(bool).any()
    assert not turns.loc[flag, "eliminated"].any()
    table = corner_table(result)
    at_flag = turns["overshot_corners"].map(lambda cs: 2 in cs) & flag
    passages = table.loc[2, "passages"]
    assert table.loc[2, "flag_overshoot_rate"] == pytest.approx(at_flag.sum() / passages)
    blamed_damage = turns.loc[(blame(turns) == 2) & ~flag, "damage"].sum()
    assert table.loc[2, "damage_per_passage"] == pytest.approx(blamed_damage / passages)
