"""A grade or note that could not be written is reported and never claimed (issue 11, item 8).

Another SQLite client holding the write lock (``BEGIN IMMEDIATE``) makes the store's write fail
after its busy timeout. The window must say so (dialog and status bar), keep the undo stack and
the row as the file has them, and stay on the document so the key can be pressed again.
"""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt

from ndcg_desktop.store import Project
from tests.gui.conftest import shot
from tests.helpers import write_lock


def stored(path, doc_id, column="grade"):
    with Project.open(path, read_only=True) as p:
        value = p.pools.pool_items(1, "q1").set_index("doc_id").loc[doc_id, column]
    return None if pd.isna(value) else value


def test_a_grade_that_cannot_be_written_is_shown_and_not_claimed(window, small_project, qtbot, messages):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    assert ws.session.doc_id == "C"
    with write_lock(small_project):
        qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    assert stored(small_project, "C") is None
    assert window.undo_stack.count() == 0 and not window.undo_stack.canUndo()
    assert ws.pool.grade(ws.pool.row_of("C")) is None and ws.grade_buttons.checkedId() == -1
    assert ws.session.doc_id == "C"  # not moved on as if graded
    assert "2 of 5 graded" in window.progress_label.text()
    assert len(messages) == 1 and messages[0][0] == "warning"
    assert messages[0][1].startswith(
        f"C was not graded: {small_project}: another program is writing to the project file"
    )
    assert window.statusBar().currentMessage() == messages[0][1]
    # Once the other program lets go, the same key works.
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    assert stored(small_project, "C") == 2 and window.undo_stack.count() == 1 and ws.session.doc_id == "D"


def test_an_undo_that_cannot_be_written_leaves_the_grade_and_says_so(window, small_project, qtbot, messages):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    assert stored(small_project, "C") == 1 and window.undo_stack.count() == 1
    with write_lock(small_project):
        window.undo_stack.undo()
    assert stored(small_project, "C") == 1
    assert ws.pool.grade(ws.pool.row_of("C")) == 1
    assert window.undo_stack.count() == 0  # the stack no longer offers an undo it could not do
    assert len(messages) == 1 and messages[0][1].startswith("The grade of C could not be undone: ")


def test_a_note_that_cannot_be_written_is_kept_in_the_box(window, small_project, qtbot, messages):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_E)
    qtbot.keyClicks(ws.note_edit, "check the date")
    with write_lock(small_project):
        qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    assert stored(small_project, "C", "note") == ""
    assert window.undo_stack.count() == 0
    assert ws.note_edit.text() == "check the date" and ws.note_edit.hasFocus()
    assert len(messages) == 1 and messages[0][1].startswith("The note on C was not saved: ")


def test_a_note_past_the_limit_is_refused_in_one_line_and_kept_to_shorten(window, small_project, qtbot, messages):
    """Issue 23 item 6: the note box is bounded as the store bounds notes, not only by Qt's line edit."""
    from ndcg_desktop.formats.common import MAX_NOTE_CHARS

    window.open_project(small_project)
    ws = window.workspace
    assert ws.session.doc_id == "C"
    long = "x" * (MAX_NOTE_CHARS + 1)
    ws.note_edit.setText(long)
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    assert stored(small_project, "C", "note") == ""
    assert window.undo_stack.count() == 0
    expected = (
        f"The note on C was not saved: {small_project}: a note holds at most {MAX_NOTE_CHARS:,} characters; "
        f"this one has {MAX_NOTE_CHARS + 1:,}"
    )
    assert messages == [("warning", expected)] and window.statusBar().currentMessage() == expected
    assert ws.note_edit.text() == long and ws.note_edit.hasFocus()  # kept, to shorten and save again
    shot(window, "T7_note_too_long")
