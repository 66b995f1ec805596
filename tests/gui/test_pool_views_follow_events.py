"""Pool editing and Compare pool versions show what is true now: a change made elsewhere (another view, an undo,
another connection to the same file) reaches each through the project's events, with no refresh by hand (the
Adjudicate view's test is in tests/gui/test_team.py, beside its fixture)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ndcg_desktop.tasks.freezing import freeze_draft
from tests.conftest import RUN_X
from tests.helpers import raw_sql as write_elsewhere


def test_a_grade_written_by_another_connection_reaches_the_pool_editor(window, small_project, qtbot):
    window.open_project(small_project)
    ws, editor = window.workspace, window.pool_editor
    ws.select_doc_row(0)
    assert ws.session.doc_id == "A"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_Delete)  # A is graded: refused, and the editor now acts on q1 of v1
    assert editor.session.query_id == "q1" and editor.session.grade_of("C") is None
    write_elsewhere(small_project, "UPDATE judgments SET grade = 1, annotator = 'raw' WHERE doc_id = 'C'")
    qtbot.waitUntil(lambda: editor.session.grade_of("C") == 1, timeout=5_000)  # the window's watch timer
    ws.select_doc_row(2)
    assert ws.session.doc_id == "C"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_Delete)
    assert (
        window.statusBar().currentMessage()
        == "C is graded 1 · Related: only an ungraded item can be removed from a pool."
    )  # the label, as the pool shows it
    assert window.undo_stack.count() == 0 and "C" in editor.session.in_pool()


def test_an_undone_add_reaches_the_pool_editor(window, small_project, qtbot):
    window.open_project(small_project)
    editor = window.pool_editor
    editor.add_document("E")
    assert "E" in editor.session.in_pool()
    window.undo_stack.undo()  # Edit ▸ Undo: the session hears the removal from the project, not from the command
    assert "E" not in editor.session.in_pool()
    assert editor.session.add_refusal() is None


def test_a_version_frozen_and_a_run_imported_elsewhere_reach_the_open_comparison(window, two_versions, qtbot, tmp_path):
    from ndcg_desktop.gui import tasks

    assert window.open_project(two_versions)
    dialog = window.pool_diff.open()
    dialog.unjudged.setCurrentIndex(dialog.unjudged.findData("zero"))
    dialog.compare_button.click()
    qtbot.waitUntil(lambda: not tasks._running and dialog.tables is not None, timeout=20_000)
    window.project.pools.new_draft_from(2, annotator="tester")  # as Pool ▸ New draft and Freeze do, in the window
    item = window.project.pools.pool_items(3).iloc[0]  # a regrade: a copy of its parent would not freeze (issue 35)
    window.project.judgments.set_grade(
        item["query_id"], item["doc_id"], 0 if item["grade"] else 1, version=3, annotator="tester"
    )
    freeze_draft(window.project, version=3, annotator="tester")
    offered = [dialog.version_b.itemData(i) for i in range(dialog.version_b.count())]
    assert offered == [1, 2, 3] and dialog.tables is not None  # v1 against v2 still holds
    (tmp_path / "x2.txt").write_text(RUN_X.replace(" x\n", " x2\n"))
    window.project.runs.import_run(tmp_path / "x2.txt", name="x2", annotator="tester")  # File ▸ Import run
    assert dialog.tables is None and dialog.runs_view.model().rowCount() == 0  # its runs table would lack x2
    assert dialog.summary.text() == "Choose two versions and press Compare."
