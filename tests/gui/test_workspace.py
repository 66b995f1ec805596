"""The annotation workspace driven as a user would: keyboard grading, undo, filters, freezing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QMessageBox

from ndcg_desktop.gui.pools import dialogs as pools_dialogs
from ndcg_desktop.gui.project import dialogs as project_dialogs
from ndcg_desktop.store import Project

from .conftest import shot


def pool_grades(path, version=1, query="q1"):
    with Project.open(path, read_only=True) as p:
        items = p.pools.pool_items(version, query)
    grades = items["grade"].astype(object).where(items["grade"].notna(), None)
    return dict(zip(items["doc_id"], grades, strict=True))


def test_models_pass_qtmodeltester(window, small_project, qtmodeltester):
    window.open_project(small_project)
    qtmodeltester.check(window.workspace.queries)
    qtmodeltester.check(window.workspace.pool)
    qtmodeltester.check(window.workspace.query_proxy)
    qtmodeltester.check(window.workspace.pool_proxy)


def test_welcome_then_open_shows_the_draft(window, small_project):
    shot(window, "welcome")
    assert window.stack.currentWidget() is window.welcome
    assert window.open_project(small_project)
    ws = window.workspace
    assert window.stack.currentWidget() is window.tabs and window.tabs.currentWidget() is ws
    assert ws.session.version.version == 1 and not ws.session.version.frozen
    assert ws.queries.rowCount() == 2
    assert ws.session.query_id == "q1"
    assert ws.session.doc_id == "C"  # the first ungraded document is selected
    assert "Pool v1: 2 of 5 graded" in window.progress_label.text()
    assert "Cooking" in ws.reader.toPlainText()
    shot(window, "workspace")


def test_keyboard_grading_moves_on_and_undo_redo(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_0)
    assert pool_grades(small_project)["C"] == 0  # on disk at once
    assert ws.session.doc_id == "D"  # moved to the next ungraded one
    assert ws.grade_buttons.checkedId() == -1  # and its grade bar shows no grade
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    assert pool_grades(small_project)["D"] == 2
    assert "4 of 5 graded" in window.progress_label.text()
    assert window.undo_stack.undoText() == "Grade D as 2 · Highly relevant for q1"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert pool_grades(small_project)["D"] is None
    assert ws.session.doc_id == "D"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert pool_grades(small_project)["D"] == 2
    with Project.open(small_project, read_only=True) as p:
        log = p.judgments.audit_log()
    # graded C (earlier in this test), D, the undo of D, its redo: the undo is not a judgment
    assert list(log[log["action"] == "grade"]["who"]) == ["tester"] * 3
    undone = log[log["action"] == "undo grade"]
    assert list(undone["doc_id"]) == ["D"] and list(undone["old_grade"]) == [2] and undone["new_grade"].isna().all()


def test_grade_outside_scale_is_ignored_and_n_jumps_to_next_query(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_7)
    assert pool_grades(small_project)["C"] is None
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_N)
    assert ws.session.query_id == "q2" and ws.session.doc_id == "E"


def test_j_k_and_note(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_K)
    assert ws.session.doc_id == "B"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_E)
    assert ws.note_edit.hasFocus()
    qtbot.keyClicks(ws.note_edit, "clear answer 42")  # digits typed into the note do not grade
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    assert pool_grades(small_project)["B"] == 2
    with Project.open(small_project, read_only=True) as p:
        assert p.pools.pool_items(1, "q1").set_index("doc_id").loc["B", "note"] == "clear answer 42"
    assert window.undo_stack.undoText() == "Note on B for q1"


def test_filter_and_ungraded_only(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.ungraded_only.setChecked(True)
    assert ws.pool_proxy.rowCount() == 2  # C and D
    ws.ungraded_only.setChecked(False)
    assert ws.pool_proxy.rowCount() == 4
    qtbot.keyClicks(ws.filter_box, "universes")
    assert ws.query_proxy.rowCount() == 1
    ws.select_query_row(0)
    assert ws.session.query_id == "q2" and ws.pool_proxy.rowCount() == 1
    ws.filter_box.clear()
    assert ws.query_proxy.rowCount() == 2


def test_freeze_blocks_edits_then_new_draft(window, small_project, qtbot, monkeypatch, messages):
    window.open_project(small_project)
    ws = window.workspace
    shown = {}

    def accept_with_removal(dialog):
        shown["dialog"] = dialog
        shot(dialog, "freeze_dialog")
        dialog.grab().save("/tmp/shots/T7_freeze_dialog.png")
        # Issue 23 item 2: the figures are freeze_preview's (small_project: A=3, B=2, C, D and q2's E ungraded)
        texts = [label.text() for label in dialog.findChildren(QLabel)]
        labels = ws.session.version.labels
        for grade, count in ((0, 0), (1, 0), (2, 1), (3, 1)):
            assert texts[texts.index(f"Grade {grade} · {labels[grade]}") + 1] == str(count)
        assert texts[texts.index("Queries") + 1 : texts.index("Documents") + 2] == ["2", "Documents", "5"]
        assert "3 ungraded" in texts
        assert not dialog.ok.isEnabled()  # ungraded items block freezing...
        dialog.remove.setChecked(True)  # ...unless removed explicitly
        assert dialog.ok.isEnabled()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(pools_dialogs.FreezeDialog, "exec", accept_with_removal)
    window.freeze()  # hashing runs in the background
    qtbot.waitUntil(lambda: bool(messages) and messages[-1][0] == "information", timeout=10_000)
    assert "SHA-256" in messages[-1][1]
    assert ws.session.version.frozen and ws.banner.isVisible() and not ws.grade_bar.isEnabled()
    assert "Frozen:" in ws.banner.text() and ws.session.version.short_hash in ws.banner.text()
    shot(window, "frozen_pool")
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_3)
    assert pool_grades(small_project) == {"A": 3, "B": 2}  # nothing changed
    assert window.new_draft_action.isEnabled() and not window.freeze_action.isEnabled()
    window.new_draft()
    assert ws.session.version.version == 2 and not ws.session.version.frozen
    ws.pool_view.setFocus()

    messages.answer = QMessageBox.StandardButton.Yes  # A's grade came from the imported file: replacing it asks
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    assert [m for m in messages if m[0] == "warning"] == []
    assert messages[-1][0] == "question" and messages[-1][1].startswith("A was graded 3 · Perfect by import:j.qrels.")
    assert pool_grades(small_project, version=2)["A"] == 1
    assert pool_grades(small_project, version=1)["A"] == 3


def test_reopen_finds_everything(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    window.close_project()
    assert window.stack.currentWidget() is window.welcome
    assert window.welcome.recent.count() == 1
    window.open_project(window.welcome.recent.item(0).data(Qt.ItemDataRole.UserRole))
    assert pool_grades(small_project)["C"] == 1
    assert "3 of 5 graded" in window.progress_label.text()


def test_build_pool_dialog_previews_then_adds(window, small_project, qtbot, monkeypatch):
    window.open_project(small_project)
    captured = {}

    def accept(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)  # the preview runs in the background
        captured["rows"] = dialog.table.model().rowCount()
        captured["summary"] = dialog.summary.text()
        shot(dialog, "build_pool_dialog")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", accept)
    window.build_pool()
    assert captured["rows"] == 2 and "2 new documents" in captured["summary"]
    qtbot.waitUntil(lambda: len(pool_grades(small_project)) == 5, timeout=5000)
    assert pool_grades(small_project)["X"] is None


def test_background_import_reports_errors_with_file_and_line(window, small_project, qtbot, messages, tmp_path):
    window.open_project(small_project)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": "Z1", "text": "fine"}\n{"doc_id": \n')
    window.import_documents(str(bad))
    qtbot.waitUntil(lambda: bool(messages), timeout=5000)
    assert messages[0][0] == "warning" and f"{bad}:2: not valid JSON" in messages[0][1]
    with Project.open(small_project, read_only=True) as p:
        assert p.texts.document("Z1") is None  # nothing half-imported


def test_background_import_of_documents_and_run(window, small_project, qtbot, tmp_path):
    window.open_project(small_project)
    docs = tmp_path / "more.jsonl"
    docs.write_text("".join(f'{{"doc_id": "N{i}", "title": "t", "text": "x"}}\n' for i in range(30)))
    window.import_documents(str(docs))
    qtbot.waitUntil(lambda: "Imported 30 documents" in window.statusBar().currentMessage(), timeout=5000)
    run = tmp_path / "second.run"
    run.write_text("q1 Q0 A 1 1 s\n")
    window.import_run(str(run), values=("second", project_dialogs.TiePolicy.DOCID_DESC, None, None))
    qtbot.waitUntil(lambda: "Imported run second" in window.statusBar().currentMessage(), timeout=5000)


def test_shortcuts_dialog_lists_keys(qtbot):
    dialog = project_dialogs.ShortcutsDialog()
    qtbot.addWidget(dialog)
    shot(dialog, "shortcuts")
    texts = [label.text() for label in dialog.findChildren(project_dialogs.QLabel)]
    assert any("Ctrl+Z" in t for t in texts) and any("Next query" in t for t in texts)


def test_window_state_is_restored(qtbot, small_project):
    from ndcg_desktop.gui.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    first.resize(760, 600)  # inside the offscreen screen
    first.open_project(small_project)
    first.workspace.splitter.setSizes([300, 300, 400])
    sizes = first.workspace.splitter.sizes()
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    assert (second.size().width(), second.size().height()) == (760, 600)
    second.open_project(small_project)
    restored = second.workspace.splitter.sizes()
    assert [round(x / sum(restored), 1) for x in restored] == [round(x / sum(sizes), 1) for x in sizes]
    second.close()


def test_import_run_dialog_previews_the_first_lines(qtbot, data_dir):
    dialog = project_dialogs.ImportRunDialog("chunks", [], str(data_dir / "cranfield" / "chunks.run.gz"))
    qtbot.addWidget(dialog)
    assert dialog.preview.rowCount() == 8
    assert dialog.preview.item(0, 2).text() == "184#0"
    dialog.id_map.setText("#")
    assert dialog.preview.item(0, 2).text() == "184#0 → 184"
    assert dialog.reading.text() == (
        "TREC run, ordered by score, highest first; the rank column is ignored, as trec_eval does."
    )
    assert "rank column ignored" in dialog.reading.toolTip()  # the reader's own note
    # The orders the file supports, the format's default first; choosing one re-reads the preview.
    assert [dialog.order.itemData(i) for i in range(dialog.order.count())] == ["score", "rank", "list"]
    assert dialog.values()[3] is project_dialogs.OrderKind.SCORE
    dialog.order.setCurrentIndex(1)
    assert dialog.reading.text() == (
        "TREC run, ordered by rank column, lowest first; scores are ignored (not trec_eval's order)."
    )
    assert dialog.preview.horizontalHeaderItem(3).text() == "Rank" and dialog.preview.item(0, 3).text() == "1"
    assert dialog.values() == ("chunks", project_dialogs.TiePolicy.DOCID_DESC, "#", project_dialogs.OrderKind.RANK)
    shot(dialog, "import_run_dialog")


def test_import_run_dialog_offers_only_list_order_for_jsonl(qtbot, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"query_id": "q1", "doc_ids": ["A", "B"]}\n')
    dialog = project_dialogs.ImportRunDialog("r", [], str(path))
    qtbot.addWidget(dialog)
    assert [dialog.order.itemText(i) for i in range(dialog.order.count())] == [
        "the order of the lines in the file (the file's default)"
    ]


def test_import_run_dialog_shows_file_and_line_of_a_bad_line(qtbot, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 A 1 1 s\nq1 Q0 B 2\n")
    dialog = project_dialogs.ImportRunDialog("bad", [], str(bad))
    qtbot.addWidget(dialog)
    assert f"{bad}:2: expected 6 columns" in dialog.reading.text()
