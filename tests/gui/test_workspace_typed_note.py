"""A note typed and not yet saved with Enter is never dropped: leaving its item (a grade button, J/K, N, a click
on another row) saves it to the item it was typed for, one undo step; and while it is being typed, a change shown
from elsewhere (a model's answers landing, any event that redraws the item) leaves the typed text alone.
It used to be wiped in both cases."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from ndcg_desktop.store import Project
from tests.helpers import model_rates


def notes(path) -> dict[tuple[str, str], str]:
    with Project.open(path, read_only=True) as p:
        items = p.pools.pool_items(p.pools.draft().version)
    return {(q, d): n for q, d, n in items[["query_id", "doc_id", "note"]].itertuples(index=False) if n}


def type_note(window, qtbot, text: str) -> tuple[str, str]:
    ws = window.workspace
    item = (ws.session.query_id, ws.session.doc_id)
    ws.note_edit.setFocus()
    qtbot.keyClicks(ws.note_edit, text)
    return item


LEAVE = {
    "grade button": lambda ws, qtbot: ws.grade_buttons.button(1).click(),
    "J": lambda ws, qtbot: ws.move_doc(1),
    "N": lambda ws, qtbot: ws.next_query_with_ungraded(),
    "click on another row": lambda ws, qtbot: ws.pool_view.setCurrentIndex(
        ws.pool_proxy.index((ws.pool_view.currentIndex().row() + 1) % ws.pool_proxy.rowCount(), 0)
    ),
    "another query": lambda ws, qtbot: ws.select_query_row(1),
}


@pytest.mark.parametrize("leave", list(LEAVE))
def test_leaving_the_item_saves_the_typed_note_to_it(window, small_project, qtbot, messages, leave):
    assert window.open_project(small_project)
    ws = window.workspace
    item = type_note(window, qtbot, "cold kitchen, check")
    LEAVE[leave](ws, qtbot)
    qtbot.waitUntil(lambda: (ws.session.query_id, ws.session.doc_id) != item, timeout=5_000)
    qtbot.wait(50)  # the save is queued after the move is shown
    assert notes(small_project).get(item) == "cold kitchen, check"
    assert ws.note_edit.text() == ""  # the item now shown has no note
    assert window.undo_stack.undoText() == f"Note on {item[1]} for {item[0]}"  # the last step: after a grade's
    window.undo_stack.undo()
    assert item not in notes(small_project)
    assert (ws.session.query_id, ws.session.doc_id) == item  # undone where it was typed


def test_a_redraw_while_typing_keeps_the_typed_text(window, small_project, qtbot, messages):
    assert window.open_project(small_project)
    ws = window.workspace
    item = type_note(window, qtbot, "half typed")
    model_rates(window.project, "model:tiny", {("q1", "D"): 1, ("q2", "E"): 0})  # a judging job's answers land
    window.slot.check()
    qtbot.wait(100)
    assert (ws.session.query_id, ws.session.doc_id) == item
    assert ws.note_edit.text() == "half typed"
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    assert notes(small_project).get(item) == "half typed"


def test_a_long_note_is_shown_from_its_start(window, small_project, qtbot, messages):
    assert window.open_project(small_project)
    ws = window.workspace
    type_note(window, qtbot, "Begins here. " + "y" * 300)
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    ws.move_doc(1)
    ws.move_doc(-1)
    assert ws.note_edit.text().startswith("Begins here.") and ws.note_edit.cursorPosition() == 0
