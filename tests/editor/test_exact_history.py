"""Undo and redo give back the exact track, order included, and the dirty flag is exact.

"Exact" means the bytes a save would write (:func:`fdlab.track.io.dumps`):
those decide whether seeded races on the board replay the same.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fdlab.editor import EditorController, SaveError, UnsavedChangesError
from fdlab.track import from_ascii
from fdlab.track.io import dumps

BOARD = """
    . . 1 1 . . 2 2 .
    . . 1 1 . . 2 2 .
"""


def editor() -> EditorController:
    track = from_ascii(BOARD, corners={1: 1, 2: 2}, closed=True, grid=[17, 16])
    return EditorController(track)


EDITS = {
    "remove_step": lambda e: e.remove_step(4, 6),
    "remove_spaces": lambda e: e.remove_spaces([5, 8]),
    "delete_corner": lambda e: e.delete_corner(1),
    "merge_corners": lambda e: e.merge_corners(2, 1),  # corner 1 goes: undo puts it first again
    "clear_tunnel": lambda e: (e.pair_tunnel(0, 10), e.clear_tunnel("1")),
    "remove_pit_lane": lambda e: (e.add_pit_lane([3, 5, 7, 9], boxes=1), e.remove_pit_lane()),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_undo_gives_back_the_same_bytes_and_redo_the_edited_ones(edit):
    controller = editor()
    before = dumps(controller.track)
    EDITS[edit](controller)
    after = dumps(controller.track)
    while controller.can_undo:
        controller.undo()
    assert dumps(controller.track) == before
    assert not controller.dirty
    while controller.can_redo:
        controller.redo()
    assert dumps(controller.track) == after


def test_undo_all_after_a_save_gives_the_saved_bytes(tmp_path):
    controller = editor()
    controller.set_hazard([2, 3], "danger")
    controller.save(tmp_path / "board.json")
    saved = (tmp_path / "board.json").read_text()
    controller.delete_corner(2)
    controller.remove_step(4, 6)
    assert controller.dirty
    controller.undo()
    controller.undo()
    assert dumps(controller.track) == saved and not controller.dirty


STEPS = {
    "stops": lambda e: e.set_corner_stops(1, 1 + e.track.corners[1]["stops"] % 3),
    "hazard": lambda e: e.set_hazard([2], None if e.track.space(2)["hazard"] else "danger"),
    "undo": lambda e: e.can_undo and e.undo(),
    "redo": lambda e: e.can_redo and e.redo(),
    "save": lambda e: e.save(),
}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(sorted(STEPS)), max_size=12))
def test_the_dirty_flag_says_whether_saving_would_write_other_bytes(tmp_path, steps):
    controller = editor()
    controller.save(tmp_path / "board.json", overwrite=True)
    for step in steps:
        STEPS[step](controller)
        saved = (tmp_path / "board.json").read_text()
        assert controller.dirty == (dumps(controller.track) != saved), steps


def test_an_edit_and_its_inverse_leave_a_record_in_the_edit_log():
    controller = editor()
    controller.set_corner_stops(1, 3)
    controller.set_corner_stops(1, 1)
    assert controller.unsaved_edits == 2 and controller.dirty  # the file keeps the edit log
    controller.undo()
    controller.undo()
    assert not controller.dirty and "edits" not in controller.track.graph.graph


def test_unsaved_edits_are_counted_from_the_last_save(tmp_path):
    controller = editor()
    for _ in range(6):
        controller.set_hazard([2], "danger")
        controller.set_hazard([2], None)
    controller.set_hazard([3], "danger")
    controller.save(tmp_path / "board.json")
    controller.set_hazard([4], "shooting")
    assert controller.unsaved_edits == 1
    with pytest.raises(UnsavedChangesError, match=r"1 unsaved edit \(last: set hazard"):
        controller.load(tmp_path / "board.json")
    controller.undo()
    controller.undo()  # one step behind the save
    assert controller.unsaved_edits == 1 and controller.dirty


def test_refusals_speak_the_words_of_the_buttons(tmp_path):
    controller = editor()
    controller.set_hazard([2], "danger")
    with pytest.raises(UnsavedChangesError) as refused:
        controller.new("other")
    assert "discard_unsaved" not in str(refused.value)
    assert "tick 'discard unsaved'" in str(refused.value)
    other = tmp_path / "other.json"
    other.write_text(dumps(from_ascii(". . .", closed=True)))
    with pytest.raises(SaveError) as refused:
        controller.save(other)
    assert "overwrite=True" not in str(refused.value)
    assert "tick 'overwrite'" in str(refused.value)


@pytest.mark.parametrize("edit", ["remove_step", "remove_spaces"])
def test_undo_restores_extra_fields_named_like_networkx_arguments(edit):
    controller = editor()
    track = controller.track
    track.graph.nodes[5]["self"] = 1
    track.graph.nodes[8]["node_for_adding"] = 2
    track.graph.edges[4, 6]["u_of_edge"] = 3
    before = dumps(track)
    EDITS[edit](controller)
    controller.undo()
    assert dumps(controller.track) == before
