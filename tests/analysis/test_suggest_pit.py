"""What to change in the pit lane (issue 28): its entry and exit moved, measured over two laps."""

from __future__ import annotations

import math

import pytest

from fdlab.analysis.examples import pit_ring
from fdlab.analysis.pit_worth import close_pit_lane, has_pit_lane, pit_worth
from fdlab.analysis.suggestions import (
    Targets,
    candidate_changes,
    pit_changes,
    suggest,
)
from fdlab.analysis.verdict import board_verdict
from fdlab.editor import EditorController
from fdlab.par import solve_par
from fdlab.track.validate import validate

#: The ring's pits save a lone car about 2.2 turns over two laps: above this target.
TOO_MUCH = Targets(par=None, stops_fit_length=False, max_corner_elimination=None,
                   pit_saves=(0.5, 1.5))  # fmt: skip


def steps_of(track, kind):
    return sorted((u, v) for u, v, k in track.graph.edges(data="kind") if k == kind)


@pytest.fixture(scope="module")
def found():
    return suggest(pit_ring(), TOO_MUCH, races=2, workers=1, progress=False, pit=True)


def test_the_pit_lane_is_worth_the_two_lap_par_it_saves():
    track = pit_ring()
    worth = pit_worth(track)
    assert worth is not None
    assert worth.two_laps == pytest.approx(solve_par(track, laps=2, reuse=False).par, abs=1e-9)
    closed = close_pit_lane(track)
    assert not has_pit_lane(closed) and has_pit_lane(track)  # the copy only
    assert worth.closed == pytest.approx(solve_par(closed, laps=2, reuse=False).par, abs=1e-9)
    assert worth.saves > 0  # the 3-stop corner wears a car: a stop pays on this ring
    assert pit_worth(close_pit_lane(track)) is None


def test_entry_and_exit_move_one_space_along_the_track_and_keep_the_board_sound():
    track = pit_ring()
    (entry,), (exit_,) = steps_of(track, "pit_in"), steps_of(track, "pit_out")
    changes = {c.description: c for c in pit_changes(track)}
    assert set(changes) == {f"Pit lane: {end} one space {when}"
                            for end in ("entry", "exit") for when in ("earlier", "later")}  # fmt: skip
    nodes = track.graph.nodes
    for description, change in changes.items():
        moved = change.apply(track)
        assert steps_of(track, "pit_in") == [entry]  # a copy is changed
        new_in, new_out = steps_of(moved, "pit_in"), steps_of(moved, "pit_out")
        kept, new = (new_out, new_in) if "entry" in description else (new_in, new_out)
        assert kept == ([exit_] if "entry" in description else [entry])
        (u, v), = new  # fmt: skip
        old_u, old_v = entry if "entry" in description else exit_
        on_track, was = (u, old_u) if "entry" in description else (v, old_v)
        assert (u, v) != (old_u, old_v) and nodes[on_track]["lane"] == nodes[was]["lane"]
        later = "later" in description
        assert track.graph.has_edge(*((was, on_track) if later else (on_track, was)))
        assert moved.graph.edges[u, v]["lines"] == track.graph.edges[old_u, old_v]["lines"]
        assert validate(moved).codes == validate(track).codes


def test_a_longer_way_through_the_pits_saves_less():
    track = pit_ring()
    saves = pit_worth(track).saves
    for change in pit_changes(track):
        changed = pit_worth(change.apply(track)).saves
        if change.description in (
            "Pit lane: entry one space later",
            "Pit lane: exit one space earlier",
        ):
            assert changed < saves, change.description
        else:
            assert changed > saves, change.description


def test_a_pit_lane_that_saves_too_much_gets_the_changes_that_make_a_stop_dearer(found):
    assert found.missing["pit"] == "over two laps the pits save a lone car 2.17 turns, not 0.5-1.5"
    pit = [s for s in found if s.change.kind == "pit"]
    assert {s.change.description for s in pit} == {
        "Pit lane: entry one space later",
        "Pit lane: exit one space earlier",
    }
    for suggestion in pit:
        assert suggestion.after.pit.saves < suggestion.before.pit.saves
        assert suggestion.after.pit.closed == suggestion.before.pit.closed
        assert suggestion.after.par == suggestion.before.par  # a one-lap race never pits
        assert "over two laps the pits save a lone car 2.17 ->" in suggestion.effect


def test_a_pit_change_s_two_lap_par_is_a_fresh_solve_of_the_changed_board(found):
    suggestion = next(s for s in found if s.change.kind == "pit")
    changed = suggestion.apply(pit_ring())
    fresh = solve_par(changed, laps=2, reuse=False).par
    assert suggestion.after.pit.two_laps == pytest.approx(fresh, abs=1e-9)
    assert suggestion.after.pit.saves == pytest.approx(
        solve_par(close_pit_lane(changed), laps=2, reuse=False).par - fresh, abs=1e-9
    )


def test_changes_elsewhere_keep_the_board_s_pit_figure(found):
    for suggestion in found:
        if suggestion.change.kind != "pit":
            assert suggestion.after.pit == found.verdict.pit
    assert "pit_saves_after" in found.table.columns


def test_a_pit_suggestion_is_one_undoable_edit_in_the_editor(found):
    suggestion = next(s for s in found if s.change.kind == "pit")
    editor = EditorController(pit_ring())
    suggestion.apply_in(editor)
    expected = suggestion.apply(pit_ring())
    assert steps_of(editor.track, "pit_in") == steps_of(expected, "pit_in")
    assert steps_of(editor.track, "pit_out") == steps_of(expected, "pit_out")
    assert editor.history[-1].startswith("move the pit_")
    editor.undo()
    assert steps_of(editor.track, "pit_in") == steps_of(pit_ring(), "pit_in")
    assert steps_of(editor.track, "pit_out") == steps_of(pit_ring(), "pit_out")


def test_the_pit_lane_is_studied_by_default_on_a_board_set_for_two_laps():
    one_lap = pit_ring()
    assert not any(c.kind == "pit" for c in candidate_changes(one_lap))
    quick = Targets(par=None, stops_fit_length=False)
    stops_only = [c for c in candidate_changes(one_lap) if c.kind == "stops"][:1]
    assert suggest(one_lap, quick, changes=stops_only, races=1, workers=1,
                   progress=False).verdict.pit is None  # fmt: skip
    two_laps = pit_ring()
    two_laps.graph.graph["laps"] = 2
    result = suggest(two_laps, quick, changes=stops_only, races=1, workers=1, progress=False)
    assert result.verdict.pit == pit_worth(two_laps)
    assert suggest(two_laps, quick, changes=stops_only, races=1, workers=1, progress=False,
                   pit=False).verdict.pit is None  # fmt: skip


def test_worker_processes_measure_the_pit_lane_as_one_process_does(found):
    again = suggest(pit_ring(), TOO_MUCH, races=2, workers=2, progress=False, pit=True)
    assert [(s.change, s.after.pit) for s in again] == [(s.change, s.after.pit) for s in found]


def test_a_board_without_a_pit_lane_has_no_pit_change_and_no_pit_figure():
    track = close_pit_lane(pit_ring())
    assert pit_changes(track) == []
    result = suggest(track, TOO_MUCH, races=1, workers=1, progress=False, pit=True)
    assert result.verdict.pit is None and "pit" not in result.missing
    assert board_verdict(track, races=1).pit is None
    assert not math.isnan(result.verdict.par)


def test_fdlab_suggest_studies_the_pit_lane_when_asked(tmp_path, capsys):
    from fdlab.cli import main
    from fdlab.track.io import save_track

    path = tmp_path / "ring.json"
    save_track(pit_ring(), path)
    out = tmp_path / "ideas.html"
    argv = ["suggest", str(path), "--races", "1", "--workers", "1", "--quiet", "-o", str(out),
            "--par", "1-40", "--any-stops", "--pit-saves", "0.5-1.5"]  # fmt: skip
    assert main([*argv, "--pit"]) == 0
    said = capsys.readouterr().out
    assert "over two laps the pits save a lone car 2.17 turns, not 0.5-1.5" in said
    assert "Pit lane: entry one space later: over two laps the pits save" in said
    assert "Pit lane: entry" in out.read_text(encoding="utf-8")
    assert main(argv) == 0  # set for one lap: no pit stop to study
    assert "pits save" not in capsys.readouterr().out


def test_pit_changes_are_not_solved_when_the_board_meets_its_pit_target(monkeypatch):
    import fdlab.analysis.suggestions as suggestions

    solved = []
    real = suggestions.two_lap_par
    monkeypatch.setattr(suggestions, "two_lap_par", lambda board: solved.append(1) or real(board))
    targets = Targets(par=None, stops_fit_length=False, pit_saves=(0.5, 3.0))
    track = pit_ring()
    stops = [c for c in candidate_changes(track) if c.kind == "stops"][:1]
    result = suggest(track, targets, changes=[*stops, *pit_changes(track)], races=1, workers=1,
                     progress=False)  # fmt: skip
    assert len(solved) == 2  # the board's two-lap par, open and closed: no change's
    assert result.verdict.pit == pit_worth(track) and "pit" not in result.missing
    assert result.tried == 1 and all(s.change.kind != "pit" for s in result)
    assert "Pit lane: over two laps the pits save a lone car 2.17 turns" in result._repr_html_()
