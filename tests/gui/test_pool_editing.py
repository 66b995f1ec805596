"""Pool editing in the window: each edit, its undo and redo, the audit rows they leave, and qrels export."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import sqlite3

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from ndcg_desktop.gui.pools import editing as pool_editing
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot


def pool(path, version=1, query="q1"):
    with Project.open(path, read_only=True) as p:
        items = p.pools.pool_items(version, query)
    return {r.doc_id: (None if pd.isna(r.grade) else int(r.grade), r.note) for r in items.itertuples()}


def audit(path, n):
    with Project.open(path, read_only=True) as p:
        log = p.judgments.audit_log()
    return log.tail(n)[["version", "query_id", "doc_id", "action", "who"]].values.tolist()


def undo(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def redo(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)


def test_add_by_id_is_undoable_and_audited(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    before = pool(small_project)
    window.pool_editor.add_document(" E ")  # E is q2's document; typed with spaces
    assert pool(small_project)["E"] == (None, "")
    assert ws.session.doc_id == "E" and ws.pool.rowCount() == 5
    assert "Pool v1: 2 of 6 graded" in window.progress_label.text()
    assert audit(small_project, 1) == [[1, "q1", "E", "add", "tester"]]
    assert window.undo_stack.undoText() == "Add E to the pool of q1"
    undo(window, qtbot)
    assert pool(small_project) == before
    assert ws.pool.rowCount() == 4 and "Pool v1: 2 of 5 graded" in window.progress_label.text()
    assert audit(small_project, 1) == [[1, "q1", "E", "undo add", "tester"]]
    redo(window, qtbot)
    assert pool(small_project)["E"] == (None, "")
    assert audit(small_project, 1) == [[1, "q1", "E", "add", "tester"]]


def test_adding_a_document_already_in_the_pool_is_refused_and_not_on_the_undo_stack(window, small_project, messages):
    window.open_project(small_project)
    window.pool_editor.add_document("A")
    assert messages[-1] == ("warning", "A was not added: document A is in the pool of query q1 already (version 1)")
    assert window.undo_stack.count() == 0
    assert len(pool(small_project)) == 4


def test_add_picked_from_the_corpus_with_the_search_box(window, small_project, qtbot, monkeypatch):
    window.open_project(small_project)
    ws = window.workspace
    ws.select_query_row(1)  # q2: pool E only
    assert ws.session.query_id == "q2"
    seen = []

    def pick(dialog):
        qtbot.keyClicks(dialog.search, "pool")
        qtbot.waitUntil(lambda: dialog.model.rowCount() == 2, timeout=10_000)
        seen.append([dialog.model.display[c] for c in range(4)])
        seen.append(dialog.summary.text())
        dialog.show()
        shot(dialog, "pool-add-document")
        dialog.view.selectRow(1)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(pool_editing.AddDocumentDialog, "exec", pick)
    qtbot.keyClick(window, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    # Both titles contain "pool" (no ID starts with it), so both are found in their title.
    ids, found, in_pool, titles = seen[0]
    assert sorted(ids) == ["A", "D"]
    assert dict(zip(ids, found, strict=True)) == {"A": "title", "D": "title"}
    assert in_pool == ["", ""] and sorted(titles) == ["Freezing pools", "Pools"]
    assert seen[1] == "2 documents match; pick one, or Add takes the ID as typed."
    assert sorted(pool(small_project, query="q2")) == sorted(["E", ids[1]])
    assert audit(small_project, 1) == [[1, "q2", ids[1], "add", "tester"]]


def test_search_marks_documents_already_in_the_pool_and_refuses_them(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    dialog = pool_editing.AddDocumentDialog(ws.session.project, "q1", set(ws.pool.doc_ids()), window)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.search, "E")  # the ID prefix E, and every text with an "e"
    qtbot.waitUntil(lambda: dialog.model.rowCount() == 5, timeout=10_000)
    assert dialog.model.display[0][0] == "E" and dialog.model.display[1][0] == "ID"  # the ID match comes first
    in_pool = dict(zip(dialog.model.display[0], dialog.model.display[2], strict=True))
    assert in_pool == {"E": "", "A": "yes", "B": "yes", "C": "yes", "D": "yes"}
    dialog.view.selectRow(1)
    assert dialog.chosen() == dialog.model.display[0][1] and not dialog.add_button.isEnabled()
    dialog.view.selectRow(0)
    assert dialog.chosen() == "E" and dialog.add_button.isEnabled()
    dialog.reject()


def test_delete_removes_the_ungraded_item_and_undo_puts_it_back_with_its_note(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.pool_view.setFocus()
    assert ws.session.doc_id == "C"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_E)
    qtbot.keyClicks(ws.note_edit, "maybe")
    qtbot.keyClick(ws.note_edit, Qt.Key.Key_Return)
    before = pool(small_project)
    assert before["C"] == (None, "maybe")
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_Delete)
    assert "C" not in pool(small_project)
    assert ws.pool.row_of("C") == -1 and "Pool v1: 2 of 4 graded" in window.progress_label.text()
    assert audit(small_project, 1) == [[1, "q1", "C", "remove", "tester"]]
    assert window.undo_stack.undoText() == "Remove C from the pool of q1"
    undo(window, qtbot)
    assert pool(small_project) == before
    assert ws.session.doc_id == "C" and ws.note_edit.text() == "maybe"
    assert audit(small_project, 1) == [[1, "q1", "C", "undo remove", "tester"]]
    redo(window, qtbot)
    assert "C" not in pool(small_project)


def test_delete_on_a_graded_item_says_why_and_removes_nothing(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.select_doc_row(0)
    assert ws.session.doc_id == "A"
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_Delete)
    assert len(pool(small_project)) == 4 and window.undo_stack.count() == 0
    assert (
        window.statusBar().currentMessage()
        == "A is graded 3 · Perfect: only an ungraded item can be removed from a pool."
    )


def test_discard_names_what_is_lost_and_undo_brings_the_draft_back(window, small_project, qtbot, messages):
    window.open_project(small_project)
    qtbot.keyClick(window.workspace.pool_view, Qt.Key.Key_1)  # C graded 1 by tester
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    assert messages[-1] == (
        "question",
        "Discard draft pool v1?\n\nDeleted: its 5 items for 2 queries, with 3 grades and 0 notes; 3 ratings (by "
        "import:j.qrels, tester), 0 adjudications and 0 work-file assignments. 3 items were graded or noted in this "
        "draft and exist nowhere else.\n\n"
        "The audit log keeps a record, and Edit ▸ Undo brings all of it back while the project stays open.",
    )
    messages.boxes[-1].show()
    shot(messages.boxes[-1], "pool-discard-confirmation")
    messages.boxes[-1].close()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.waitUntil(lambda: window.project.pools.draft() is None, timeout=10_000)
    qtbot.waitUntil(lambda: window.undo_stack.undoText() == "Discard draft pool v1", timeout=10_000)
    assert sorted(audit(small_project, 5)) == [
        [1, q, d, "discard draft", "tester"]
        for q, d in [("q1", "A"), ("q1", "B"), ("q1", "C"), ("q1", "D"), ("q2", "E")]
    ]
    undo(window, qtbot)
    assert pool(small_project) == {"A": (3, ""), "B": (2, ""), "C": (1, ""), "D": (None, "")}
    assert window.current_version().version == 1 and not window.current_version().frozen
    assert sorted(audit(small_project, 5)) == [
        [1, q, d, "restore draft", "tester"]
        for q, d in [("q1", "A"), ("q1", "B"), ("q1", "C"), ("q1", "D"), ("q2", "E")]
    ]
    undo(window, qtbot)  # the grade before the discard is undone too: the stack kept it
    assert pool(small_project)["C"] == (None, "")


def test_export_qrels_of_a_frozen_version_in_both_formats(window, small_project, tmp_path, qtbot):
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        expected = p.pools.pool_items(1)
    window.open_project(small_project)
    assert window.pool_editor.export_action.isEnabled()
    assert not window.pool_editor.add_action.isEnabled()  # frozen: nothing to edit
    trec, csv = tmp_path / "out.qrels", tmp_path / "out.csv"
    window.pool_editor.export_qrels(str(trec), "trec")
    qtbot.waitUntil(lambda: "out.qrels.manifest.json" in window.statusBar().currentMessage(), timeout=10_000)
    rows = zip(expected["query_id"], expected["doc_id"], expected["grade"], strict=True)
    assert trec.read_text() == "".join(f"{q} 0 {d} {int(g)}\n" for q, d, g in rows)
    window.pool_editor.export_qrels(str(csv), "csv")
    qtbot.waitUntil(lambda: "out.csv.manifest.json" in window.statusBar().currentMessage(), timeout=10_000)
    rows = zip(expected["query_id"], expected["doc_id"], expected["grade"], strict=True)
    assert csv.read_text() == "query_id,doc_id,grade\n" + "".join(f"{q},{d},{int(g)}\n" for q, d, g in rows)
    assert window.statusBar().currentMessage().startswith("Wrote pool v1 (sha256 ")
    manifest = json.loads((tmp_path / "out.csv.manifest.json").read_text())  # the command line's manifest too
    assert (manifest["pool_version"], manifest["file"]["format"]) == (1, "csv")
    assert manifest["file"]["sha256"] == hashlib.sha256(csv.read_bytes()).hexdigest()


def test_export_refuses_the_project_file_itself(window, small_project, qtbot, messages):
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
    window.open_project(small_project)
    window.pool_editor.export_qrels(str(small_project), "trec")
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages[-1][0] == "warning" and str(small_project) in messages[-1][1]
    with Project.open(small_project, read_only=True) as p:
        assert p.pools.version(1).frozen  # still a project, untouched


def test_discard_and_undo_in_the_window_bring_back_ratings_assignments_and_adjudications(
    window, tmp_path, qtbot, messages, capsys
):
    """Issue 24 item 1, through the window: after Discard draft and Edit ▸ Undo the team's work is all there, so
    `ndcg agreement` still sees three annotators and a work file merges again."""
    from ndcg_desktop.cli.main import main
    from ndcg_desktop.tasks.teams import merge_work
    from tests.store.test_undo import ANNOTATORS, build_team_draft, full_dump

    path = build_team_draft(tmp_path)
    before = full_dump(path)
    window.open_project(path)
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    con = sqlite3.connect(path)
    ratings, assignments = (
        con.execute(f"SELECT count(*) FROM {t} WHERE version = 2").fetchone()[0] for t in ("ratings", "assignments")
    )
    handed = con.execute("SELECT count(*) FROM handouts WHERE version = 2").fetchone()[0]
    con.close()
    said = f"{ratings} ratings (by ana, ben, chen, import:q.txt), 1 adjudications and {assignments} work-file"
    assert said in messages[-1][1]
    # in words, never the tables' names (a new user read "17 rows of handout_items; 2 rows of handouts")
    assert f"; {handed} work files handed out." in messages[-1][1] and "handout" not in messages[-1][1]
    qtbot.waitUntil(lambda: window.project.pools.draft() is None, timeout=10_000)
    qtbot.waitUntil(lambda: window.undo_stack.undoText() == "Discard draft pool v2", timeout=10_000)
    undo(window, qtbot)
    assert window.project.pools.draft() is not None and window.project.pools.draft().version == 2
    after = full_dump(path)
    assert {t: rows for t, rows in after.items() if t != "audit_log"} == {
        t: rows for t, rows in before.items() if t != "audit_log"
    }
    capsys.readouterr()
    assert main(["agreement", str(path), "--version", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    named = {name for pair in report["pairs"] for name in (pair["annotator_a"], pair["annotator_b"])}
    assert set(ANNOTATORS) <= named
    work = sorted((tmp_path / "work").glob("*.ndcgproj"))
    merged = merge_work(window.project, work, annotator="tester")  # the assignments are back: every file was handed out
    assert merged.totals["new"] == 0 and merged.totals["changed"] == 0


# What the Annotate widget once passed through from its session for the pool editor (issue 23 item 1).
PASS_THROUGHS = ("project", "version", "query_id", "query_text", "current_doc", "reload_query", "locked_reason")


def test_the_pool_editor_acts_on_the_annotate_sessions_place_not_the_widgets(window, small_project, qtbot, monkeypatch):
    """The version, query and document acted on, and the query's text, are the AnnotateSession's; the editor reads
    nothing else of the Annotate widget, which keeps no pass-throughs for it."""
    from ndcg_desktop.gui.annotate.workspace import Workspace

    assert [name for name in PASS_THROUGHS if hasattr(Workspace, name)] == []
    assert set(re.findall(r"workspace\.(\w+)", inspect.getsource(pool_editing))) == {"session"}
    window.open_project(small_project)
    annotate = window.workspace.session
    annotate.select_query("q2")
    annotate.select_item("E")
    seen = []

    def look(dialog):
        seen.append(dialog.query_label.text())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pool_editing.AddDocumentDialog, "exec", look)
    window.pool_editor.add_document()
    assert seen == [f"q2 — {annotate.query_text}"] and annotate.query_text == "why fixed universes matter"
    window.pool_editor.remove_item()  # E, ungraded: removed from q2, where the session is
    assert "E" not in pool(small_project, query="q2") and window.pool_editor.session.query_id == "q2"
    undo(window, qtbot)
    assert "E" in pool(small_project, query="q2") and (annotate.query_id, annotate.doc_id) == ("q2", "E")


def test_a_draft_discarded_before_a_new_draft_is_brought_back_by_undo_whole(window, small_project, qtbot, messages):
    """Issue 23 item 3: after Discard draft and New draft, Edit ▸ Undo was refused (the new draft had taken the
    discarded one's number) and the step dropped, losing the draft. Now the new draft takes the next number, its
    start is an undo step, and undoing it and then the discard brings the discarded draft back, all of it."""
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
        p.judgments.set_note("q1", "A", "kept", version=2, annotator="tester")
    before = pool(small_project, version=2)
    window.open_project(small_project)
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    qtbot.waitUntil(lambda: window.undo_stack.undoText() == "Discard draft pool v2", timeout=10_000)
    window.version_box.setCurrentIndex(window.version_box.findData(1))
    window.new_draft()
    assert window.project.pools.draft().version == 3 and window.undo_stack.undoText() == "New draft from pool v1"
    assert window.statusBar().currentMessage() == "Draft v3 started from v1."
    undo(window, qtbot)  # the new draft goes...
    assert window.project.pools.draft() is None and window.undo_stack.undoText() == "Discard draft pool v2"
    undo(window, qtbot)  # ...and the discarded one comes back whole, under its own number
    assert window.project.pools.draft().version == 2 and pool(small_project, version=2) == before
    assert [kind for kind, _ in messages] == ["question"]  # the discard's confirmation only: nothing refused
    window.grab().save("/tmp/shots/T7_undo_discard_after_new_draft_v2_back.png")
    redo(window, qtbot)
    redo(window, qtbot)  # the same draft 3 again, not a fourth
    assert window.project.pools.draft().version == 3 and [v.version for v in window.project.pools.versions()] == [1, 3]
    window.grab().save("/tmp/shots/T7_undo_discard_after_new_draft.png")


def test_an_undo_refused_because_another_draft_exists_keeps_its_step(window, small_project, qtbot, messages):
    """A draft started by a step not on the undo stack (here straight through the store) makes the discard's undo
    refused, with why, and the step stays: once that draft is gone, Edit ▸ Undo brings the discarded one back."""
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    before = pool(small_project, version=2)
    window.open_project(small_project)
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    qtbot.waitUntil(lambda: window.undo_stack.undoText() == "Discard draft pool v2", timeout=10_000)
    window.project.pools.new_draft_from(1, annotator="tester")  # draft 3, outside the undo history
    undo(window, qtbot)
    expected = (
        f"Draft pool v2 was not brought back: {small_project}: draft pool version 3 was started after draft 2 was "
        "discarded, and a project holds one draft at a time: undo or discard draft 3 first, then draft 2 can be "
        "brought back. The step stays in Edit ▸ Undo."
    )
    assert messages[-1] == ("warning", expected)
    qtbot.waitUntil(lambda: window.undo_stack.undoText() == "Discard draft pool v2", timeout=5_000)
    assert window.undo_stack.count() == 1 and window.project.pools.draft().version == 3
    window.grab().save("/tmp/shots/T7_undo_discard_refused_kept.png")
    window.project.judgments.discard_draft(annotator="tester")
    undo(window, qtbot)
    assert window.project.pools.draft().version == 2 and pool(small_project, version=2) == before


def test_discard_words_a_models_answers_never_the_tables_names(window, small_project, qtbot, messages):
    """A draft a model judged: the confirmation said '2 rows of assessor_attempts; 1 rows of assessor_runs' (the
    tables' names, the class a new user met as 'rows of handout_items'). Every table the window writes is worded."""
    from tests.helpers import model_rates

    with Project.open(small_project) as p:
        model_rates(p, "model:tiny", {("q1", "C"): 1, ("q2", "E"): 0})
    window.open_project(small_project)
    messages.answer = QMessageBox.StandardButton.Cancel
    window.pool_editor.discard_draft()
    said = messages[-1][1]
    assert "; 2 answers given by language models." in said
    assert "by import:j.qrels, model:tiny)" in said
    assert "assessor" not in said and "rows of" not in said
    assert window.project.pools.draft() is not None  # cancelled: nothing discarded
