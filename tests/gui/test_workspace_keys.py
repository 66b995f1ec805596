"""The annotation workspace as an assessor uses it: issue 14's defects, each pinned by a test."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QPushButton

from ndcg_desktop.gui.annotate.highlight import query_terms
from ndcg_desktop.gui.pools import dialogs as pools_dialogs
from ndcg_desktop.gui.project import dialogs as project_dialogs
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot


def row(path, doc_id, version=1, query="q1"):
    with Project.open(path, read_only=True) as p:
        rec = p.pools.pool_items(version, query).set_index("doc_id").loc[doc_id]
    return {k: (None if pd.isna(rec[k]) else rec[k]) for k in ("grade", "annotator", "note", "updated_at")}


def press(qtbot, key):
    """A key press where the user's keyboard sends it: to the focused widget."""
    target = QApplication.focusWidget()
    assert target is not None, "nothing has the keyboard focus"
    qtbot.keyClick(target, key)


def test_grading_keys_work_at_once_after_opening(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    assert ws.isAncestorOf(QApplication.focusWidget())
    press(qtbot, Qt.Key.Key_1)
    assert row(small_project, "C")["grade"] == 1


def test_keys_work_from_every_pane_but_not_while_typing(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.reader.setFocus()
    press(qtbot, Qt.Key.Key_0)
    assert row(small_project, "C")["grade"] == 0 and ws.session.doc_id == "D"
    window.version_box.setFocus()  # the toolbar, outside the workspace
    press(qtbot, Qt.Key.Key_2)
    assert row(small_project, "D")["grade"] == 2
    ws.query_view.setFocus()
    press(qtbot, Qt.Key.Key_N)
    assert ws.session.query_id == "q2"
    ws.filter_box.setFocus()
    qtbot.keyClicks(ws.filter_box, "3n")  # typed into the filter: neither a grade nor "next query"
    assert (
        ws.filter_box.text() == "3n"
        and ws.session.query_id == "q2"
        and row(small_project, "E", query="q2")["grade"] is None
    )
    ws.filter_box.clear()
    window.tabs.setCurrentIndex(1)  # the Scores view: the workspace's keys are off
    window.analysis.run_box.setFocus()
    press(qtbot, Qt.Key.Key_3)
    assert row(small_project, "E", query="q2")["grade"] is None


def test_grade_bar_is_drawn_once_and_the_window_keeps_its_width_while_a_message_is_open(
    window, small_project, monkeypatch
):
    window.resize(1280, 800)
    window.open_project(small_project)
    ws = window.workspace
    QApplication.processEvents()  # the window as the user sees it, grade buttons shown
    width = window.width()
    seen = {}

    def information(_parent, _title, _text, *args, **kwargs):
        loop = QEventLoop()  # a message box runs a nested event loop: queued shows run, deferred deletes wait
        QTimer.singleShot(30, loop.quit)
        loop.exec()
        seen["buttons"] = [b.text() for b in ws.grade_bar.findChildren(QPushButton) if not b.isHidden()]
        seen["width"] = window.width()
        shot(window, "freeze_message")
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "information", information)

    def accept(dialog):
        dialog.remove.setChecked(True)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(pools_dialogs.FreezeDialog, "exec", accept)
    outer = QEventLoop()  # as from the menu: inside the application's event loop, until the message shows
    QTimer.singleShot(0, window.freeze)
    QTimer.singleShot(20_000, outer.quit)  # a safety net: the assertion below then says what was missing
    done = QTimer(interval=10)
    done.timeout.connect(lambda: "buttons" in seen and outer.quit())
    done.start()
    outer.exec()
    done.stop()
    assert seen["buttons"] == ["Not relevant  [0]", "Related  [1]", "Highly relevant  [2]", "Perfect  [3]"]
    assert seen["width"] == width


def test_a_graded_query_stays_put_and_regrading_someone_elses_grade_is_deliberate(
    window, small_project, qtbot, messages
):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_0)  # C
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)  # D, the last ungraded one
    assert ws.session.doc_id == "D"  # not moved on to a graded document
    assert window.statusBar().currentMessage() == "Every document of q1 is graded; N goes to the next query to grade."
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_3)  # my own grade: changed without a question
    assert row(small_project, "D")["grade"] == 3 and messages == []
    ws.select_doc_row(0)
    assert ws.session.doc_id == "A"
    before = row(small_project, "A")
    assert before["annotator"] == "import:j.qrels"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)  # the imported grade: asks, and No is the answer
    assert messages == [
        (
            "question",
            "A was graded 3 · Perfect by import:j.qrels. Replace that grade with your 1 · Related?\n\n"
            "Both grades stay in the audit log, and Ctrl+Z undoes the change.",
        )
    ]
    assert messages.boxes[0].defaultButton() is messages.boxes[0].button(QMessageBox.StandardButton.No)
    assert row(small_project, "A") == before
    assert window.statusBar().currentMessage() == "Kept the grade 3 · Perfect that import:j.qrels gave A."
    messages.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    assert row(small_project, "A")["grade"] == 1 and row(small_project, "A")["annotator"] == "tester"
    with Project.open(small_project, read_only=True) as p:
        log = p.judgments.audit_log()
    on_a = [
        [action, None if pd.isna(old) else int(old), int(new)]
        for action, old, new in log[log["doc_id"] == "A"][["action", "old_grade", "new_grade"]].itertuples(index=False)
    ]
    assert on_a == [["import", None, 3], ["grade", 3, 1]]


def test_undo_restores_the_row_exactly(window, small_project, qtbot, messages):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    c_before = row(small_project, "C")
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    assert row(small_project, "C")["annotator"] == "tester"
    window.undo_stack.undo()
    assert row(small_project, "C") == c_before
    source = ws.pool.row_of("C")
    assert (ws.pool.grade(source), ws.pool.annotator(source)) == (None, "")
    assert ws.pool_proxy.index(ws.pool_proxy.mapFromSource(ws.pool.index(source, 0)).row(), 3).data() == ""
    ws.select_doc_row(0)
    a_before = row(small_project, "A")
    messages.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_0)
    window.undo_stack.undo()
    assert row(small_project, "A") == a_before  # grade, annotator and time as they were


def test_e_puts_the_cursor_after_the_existing_note(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_E)
    qtbot.keyClicks(ws.note_edit, "first")
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_E)
    assert not ws.note_edit.hasSelectedText() and ws.note_edit.cursorPosition() == len("first")
    qtbot.keyClicks(ws.note_edit, " and more")
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    assert row(small_project, "C")["note"] == "first and more"


def test_imported_judgments_are_credited_to_the_file(window, small_project):
    window.open_project(small_project)
    ws = window.workspace
    annotators = {ws.pool.doc_id(r): ws.pool.index(r, 3).data() for r in range(ws.pool.rowCount())}
    assert annotators == {"A": "import:j.qrels", "B": "import:j.qrels", "C": "", "D": ""}


def test_f1_lists_the_projects_own_keys_and_the_status_bar_says_why_a_key_did_nothing(
    window, small_project, qtbot, monkeypatch
):
    window.open_project(small_project)
    listed = {}

    def look(dialog):
        texts = [label.text() for label in dialog.findChildren(project_dialogs.QLabel)]
        listed["rows"] = texts[:2]
        listed["adjudicate"] = texts[texts.index("Adjudicate: the selected item's grade") - 1]
        shot(dialog, "shortcuts_project_keys")
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(project_dialogs.ShortcutsDialog, "exec", look)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    assert listed["rows"] == ["0 1 2 3", "Grade the current document and move to the next ungraded one"]
    assert listed["adjudicate"] == "0 1 2 3"  # issue 36: "0 … 9" in a 0..3 project
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_7)
    assert row(small_project, "C")["grade"] is None
    assert window.statusBar().currentMessage() == "7 is not a grade here: this project's grades run from 0 to 3."


def test_build_pool_without_runs_says_to_import_one(window, tmp_path, monkeypatch):
    path = tmp_path / "no_runs.ndcgproj"
    Project.create(path, annotator="tester").close()
    window.open_project(path)
    assert window.pool_action.isEnabled()
    seen = {}

    def look(dialog):
        seen["summary"], seen["ok"] = dialog.summary.text(), dialog.ok.isEnabled()
        seen["empty parts shown"] = [w.isVisibleTo(dialog) for w in (dialog.runs, dialog.table, dialog.preview_button)]
        dialog.show()
        shot(dialog, "build_pool_without_runs")
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", look)
    window.pool_action.trigger()
    assert seen == {
        "summary": "No runs imported yet: a pool is built from the documents runs returned. "
        "Import one with File ▸ Import run…, then come back here.",
        "ok": False,
        "empty parts shown": [False, False, False],
    }


def test_import_run_dialog_proposes_a_free_name_and_flags_a_taken_one_at_once(qtbot, tmp_path):
    run = tmp_path / "sys.run"
    run.write_text("q1 Q0 A 1 1 s\n")
    dialog = project_dialogs.ImportRunDialog("sys", ["sys", "sys-2"], str(run))
    qtbot.addWidget(dialog)
    assert dialog.name.text() == "sys-3" and dialog.ok.isEnabled() and dialog.error.text() == ""
    dialog.name.setText("sys")
    assert dialog.error.text() == "A run named 'sys' exists already." and not dialog.ok.isEnabled()


def test_highlighting_skips_stopwords_of_english_and_of_the_interface_language():
    assert query_terms("what must pools can do about freezing") == ["freezing", "pools"]
    assert query_terms("必须 冻结 评判池 的", "zh_CN") == ["评判池", "冻结"]


def test_the_status_bar_says_why_n_e_or_a_digit_did_nothing(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    for key in (Qt.Key.Key_0, Qt.Key.Key_1, Qt.Key.Key_N, Qt.Key.Key_2):  # C, D, then q2's E: all graded
        qtbot.keyClick(ws.pool_view, key)
    assert ws.session.query_id == "q2" and row(small_project, "E", query="q2")["grade"] == 2
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_N)
    assert window.statusBar().currentMessage() == "No query in the list has ungraded documents left."
    window.close_project()
    with Project.open(small_project) as p:
        freeze_draft(p, annotator="tester")
    window.open_project(small_project)
    ws.pool_view.setFocus()
    frozen = "Pool v1 is frozen: its grades cannot change (Pool ▸ New draft from this version)."
    for key in (Qt.Key.Key_3, Qt.Key.Key_E, Qt.Key.Key_N):
        window.statusBar().clearMessage()
        qtbot.keyClick(ws.pool_view, key)
        assert window.statusBar().currentMessage() == frozen
    assert not ws.note_edit.hasFocus()
