"""What to change (issue 28): suggestions measured by exact solves and seeded races."""

from __future__ import annotations

import pytest

from fdlab.analysis.errors import PlaytestError
from fdlab.analysis.playtest import playtest
from fdlab.analysis.suggestions import Change, Targets, candidate_changes, fitting_stops, suggest
from fdlab.analysis.verdict import board_verdict
from fdlab.cli import main
from fdlab.editor import EditorController
from fdlab.par import solo_table
from fdlab.rules.board import compile_board
from fdlab.rules.presets import get_preset
from fdlab.track import from_ascii
from fdlab.track.io import save_track

#: A 3-stop corner of two spaces: printed boards give a corner this short one stop.
ROW = ". . . . . . . . . 1 1 . . . . . . . . . . . 2 2 2 2 2 2 2 2 2 . . . ."
HAIRPIN_TOO_SHORT = {"corners": {1: 3, 2: 2}, "grid": [0, 35], "finish": 30}


def short_hairpin():
    return from_ascii("\n".join([ROW, ROW]), **HAIRPIN_TOO_SHORT)


@pytest.fixture(scope="module")
def found():
    return suggest(short_hairpin(), Targets(par=None), races=3, workers=1, progress=False)


def test_the_known_fix_is_proposed_first(found):
    assert found.missing == {("stops", 1): "Corner 1: 3 stops on a corner of 2 spaces "
                                           "(printed boards: 1)"}  # fmt: skip
    best = found[0]
    assert best.change.description == "Corner 1: 3 stops -> 1"
    assert best.fixed == ("Corner 1: 3 stops on a corner of 2 spaces (printed boards: 1)",)
    assert best.broken == ()


def test_the_par_effect_is_a_re_solve_of_the_changed_board(found):
    best = found[0]
    changed = best.apply(short_hairpin())
    preset = get_preset("basic", 1)
    assert best.after.par == solo_table(compile_board(changed), preset).par
    assert best.before.par == solo_table(compile_board(short_hairpin()), preset).par
    assert best.after.par < best.before.par  # two stops fewer: a faster lap
    assert f"par {best.before.par:.2f} -> {best.after.par:.2f}" in best.effect


def test_suggestions_are_ranked_and_every_one_helps(found):
    gains = [s.gain for s in found]
    assert gains == sorted(gains, reverse=True) and min(gains) > 0


def test_apply_changes_a_copy_and_apply_in_is_one_undoable_edit(found):
    track = short_hairpin()
    changed = found[0].apply(track)
    assert track.corners[1]["stops"] == 3 and changed.corners[1]["stops"] == 1
    editor = EditorController(short_hairpin())
    found[0].apply_in(editor)
    assert editor.track.corners[1]["stops"] == 1
    editor.undo()
    assert editor.track.corners[1]["stops"] == 3


def test_longer_and_shorter_move_one_space_per_lane():
    track = short_hairpin()
    changes = {c.description: c for c in candidate_changes(track)}
    longer = changes["Corner 2: one space longer in each lane"]
    shorter = changes["Corner 2: one space shorter in each lane"]
    assert len(longer.spaces) == len(shorter.spaces) == 2  # one in each of the two lanes
    before = len(track.corner_spaces(2))
    assert len(longer.apply(track).corner_spaces(2)) == before + 2
    assert len(shorter.apply(track).corner_spaces(2)) == before - 2
    assert "Corner 1: one space shorter in each lane" in changes
    editor = EditorController(short_hairpin())
    longer.apply_in(editor)
    assert sorted(editor.track.corner_spaces(2), key=str) == sorted(
        longer.apply(track).corner_spaces(2), key=str
    )


def test_a_fitting_corner_keeps_its_stops():
    track = short_hairpin()
    assert fitting_stops(track, 2) == 2  # nine spaces: within a 2-stop corner's range
    assert fitting_stops(track, 1) == 1


def test_a_board_that_cannot_be_raced_is_refused_in_words():
    with pytest.raises(PlaytestError, match="suggest: not playable yet"):
        suggest(from_ascii(". . . ."), races=2, workers=1, progress=False)


def test_given_changes_are_the_only_ones_tried():
    only = [Change("stops", 1, "Corner 1: 3 stops -> 2", stops=2)]
    targets = Targets(par=(1.0, 5.0), stops_fit_length=False, max_corner_elimination=None)
    found = suggest(short_hairpin(), targets, changes=only, races=2, workers=1, progress=False)
    assert found.tried == 1
    assert [s.change.description for s in found] == ["Corner 1: 3 stops -> 2"]  # par comes down
    assert list(found.missing) == ["par"]


def test_fdlab_suggest_writes_the_page_and_prints_the_best(tmp_path, capsys):
    path = tmp_path / "hairpin.json"
    save_track(short_hairpin(), path)
    out = tmp_path / "ideas.html"
    argv = ["suggest", str(path), "--races", "2", "--workers", "1", "--quiet", "-o", str(out)]
    assert main([*argv, "--par", "5-40"]) == 0
    said = capsys.readouterr().out
    assert "1. Corner 1: 3 stops -> 1: par" in said
    page = out.read_text(encoding="utf-8")
    assert "What to change on" in page and "<svg" in page
    assert main([*argv, "--par", "9-3"]) == 2
    assert "LOW < HIGH" in capsys.readouterr().err


def _figures(found):
    return [(s.change.description, round(s.after.par, 9), s.after.rounds, s.gain) for s in found]


def test_worker_processes_and_a_dask_cluster_find_the_same_as_one_process(found):
    """The board as it is and every change are measured wherever: the same seeds, the same list."""
    on_processes = suggest(short_hairpin(), Targets(par=None), races=3, workers=2, progress=False)
    assert _figures(on_processes) == _figures(found)
    assert on_processes.verdict.par == found.verdict.par
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:  # fmt: skip
        on_dask = suggest(short_hairpin(), Targets(par=None), races=3, client=client,
                          progress=False)  # fmt: skip
    assert _figures(on_dask) == _figures(found)


def test_a_board_that_cannot_be_raced_is_refused_from_worker_processes_too():
    with pytest.raises(PlaytestError, match="suggest: not playable yet"):
        suggest(from_ascii(". . . ."), races=2, workers=2, progress=False)


def test_after_solve_for_edits_a_change_re_solves_only_what_it_touches(monkeypatch):
    """A worker solves the board as it is first, even when a cache holds its table."""
    from fdlab.analysis.verdict import solve_for_edits
    from fdlab.par import reuse
    from fdlab.par.approx import solo_preset
    from fdlab.par.solve import solve_par

    monkeypatch.setenv("FDLAB_CACHE", "off")
    row = " ".join(["."] * 40 + ["1"] * 2 + ["."] * 40 + ["2"] * 9 + ["."] * 20)
    track = from_ascii("\n".join([row, row]), corners={1: 1, 2: 2}, grid=[0, 111], finish=105)
    solo_table(compile_board(track), get_preset("basic", 1))  # a table alone has no model
    reuse.forget_models()
    solve_for_edits(track)
    changed = compile_board(Change("stops", 2, "Corner 2: 2 stops -> 3", stops=3).apply(track))
    preset = solo_preset(get_preset("basic", 1))
    again = solve_par(changed, preset)
    assert again.stats["searches_reused"] > 0, again.stats
    assert again.par == solve_par(changed, preset, reuse=False).par


def test_the_grid_moves_one_space_along_its_lanes_as_one_undoable_edit():
    track = short_hairpin()  # the grid at the start of an open strip: it can only move ahead
    changes = {c.description: c for c in candidate_changes(track)}
    assert "Grid: one space further back" not in changes
    ahead = changes["Grid: one space nearer the start"]
    nodes = track.graph.nodes
    expected = [
        next(v for _, v, step in track.graph.out_edges(spot, data=True) if step["kind"] == "ahead")
        for spot in track.grid_spots()
    ]
    assert all(nodes[new]["lane"] == nodes[old]["lane"]
               for new, old in zip(expected, track.grid_spots(), strict=True))  # fmt: skip
    before = track.grid_spots()
    assert ahead.apply(track).grid_spots() == expected and track.grid_spots() == before
    editor = EditorController(short_hairpin())
    ahead.apply_in(editor)
    assert editor.track.grid_spots() == expected
    editor.undo()
    assert editor.track.grid_spots() == before


def test_the_pole_target_counts_the_races_the_car_from_pole_won():
    track = short_hairpin()
    verdict = board_verdict(track, races=6)
    result = playtest(track, verdict.cars, races=6, seed=0, laps=1, workers=1, progress=False)
    assert verdict.pole_wins == (result.races["winner_grid"] == 1).mean()
    strict = Targets(par=None, stops_fit_length=False, max_pole_wins=verdict.pole_wins - 0.01)
    assert strict.distance(verdict, track)[1] == {
        "pole": f"pole wins {verdict.pole_wins:.0%} of races"
    }
    assert "pole" not in Targets(par=None).distance(verdict, track)[1]


def test_on_a_street_circuit_hazard_zones_are_moved_and_removed():
    """Issue 28: a hazard moved or removed, under street rules (X-2, X-3)."""
    from fdlab.analysis.suggestions import candidate_changes
    from fdlab.editor import EditorController
    from fdlab.track import from_ascii

    track = from_ascii(". . . . . . . . 1 1 . .\n. . . . . . . . 1 1 . .", corners={1: 1})
    zone = [s for s, d in track.graph.nodes(data=True) if d["lane"] == 0][2:4]
    for space in zone:
        track.graph.nodes[space]["hazard"] = "danger"
    assert not [c for c in candidate_changes(track) if c.kind == "hazard"]  # basic: no effect
    hazard = [c for c in candidate_changes(track, "street") if c.kind == "hazard"]
    on, back, removed = hazard
    assert "one space further on" in on.description and "removed" in removed.description
    assert set(on.cleared) == set(zone) and len(on.spaces) == len(zone)
    moved = on.apply(track)
    assert sorted(moved.spaces(hazard="danger"), key=str) == sorted(on.spaces, key=str)
    assert removed.apply(track).spaces(hazard="danger") == []
    assert sorted(track.spaces(hazard="danger"), key=str) == sorted(zone, key=str)  # a copy
    editor = EditorController(track)
    back.apply_in(editor)
    assert sorted(editor.track.spaces(hazard="danger"), key=str) == sorted(back.spaces, key=str)
    editor.undo()  # one edit
    assert sorted(editor.track.spaces(hazard="danger"), key=str) == sorted(zone, key=str)


def test_suggest_races_a_board_with_hazards_under_street_rules():
    from fdlab.analysis import suggest
    from fdlab.analysis.suggestions import candidate_changes
    from fdlab.track import from_ascii

    track = from_ascii(
        " ".join(["."] * 8 + ["1", "1"] + ["."] * 10), corners={1: 2}, grid=[0], finish=18
    )
    track.graph.nodes[4]["hazard"] = "shooting"
    found = suggest(track, races=2, workers=1, progress=False)
    assert found.verdict.rules == "street"
    assert found.verdict.lines()[0].endswith("(street rules).")
    # the hazard zone was moved and removed too
    assert found.tried == len(candidate_changes(track, "street")) > len(candidate_changes(track))


def test_a_suggestion_says_which_missed_target_it_moves_further_off():
    """The fix of corner 1 makes the lap faster: with a par target far above, par gets worse."""
    fix = Change("stops", 1, "Corner 1: 3 stops -> 1", stops=1)
    targets = Targets(par=(50.0, 60.0))
    found = suggest(short_hairpin(), targets, changes=[fix], races=2, workers=1, progress=False)
    (only,) = found
    assert only.fixed == ("Corner 1: 3 stops on a corner of 2 spaces (printed boards: 1)",)
    assert len(only.worse) == 1 and only.worse[0].startswith(f"par {only.after.par:.1f} turns")
    assert only.worse[0].endswith("is below 50") and "; but: par" in only.effect
    assert found.table.loc[0, "but"] == only.worse[0]
