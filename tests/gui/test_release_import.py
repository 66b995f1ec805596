"""*File ▸ Import judgments…* → "Make the draft equal to this file" (issue 35 item 2): the per-query preview of
``plan_release`` is shown before anything is written, applying it is one step of Edit ▸ Undo, and undo and redo
put the draft back and forth exactly."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.importing import import_judgments
from ndcg_desktop.tasks.project import freeze, start_draft
from tests.gui.conftest import shot
from tests.store.test_undo import append_only, assert_same, full_dump
from tests.tasks.test_releases import _expected, as_set, read_file


def test_the_release_is_previewed_per_query_then_applied_as_one_undo_step(window, tmp_path, qtbot, monkeypatch):
    from ndcg_desktop.gui.project import release
    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog

    path = tmp_path / "p.ndcgproj"
    (tmp_path / "r1.qrels").write_text("q1 1 a 1\nq1 1 b 0\nq2 1 c 2\nq10 1 e 3\n")
    final = tmp_path / "final.qrels"
    final.write_text("q1 1 a 2\nq2 1.5 c 2\nq10 2 d 1\nq10 1 e 3\nq2 2 f 0\n")
    with Project.create(path, annotator="ana") as project:
        import_judgments(project, tmp_path / "r1.qrels", annotator="ana")
        freeze(project, annotator="ana")
        start_draft(project, 1, annotator="ana")
    dump, logs = full_dump(path), append_only(path)

    def as_release(dialog):
        dialog.as_release.setChecked(True)
        return QDialog.DialogCode.Accepted

    seen: dict[str, object] = {}

    def look(dialog):
        seen["rows"] = [
            [dialog.table.item(r, c).text() for c in range(dialog.table.columnCount())]
            for r in range(dialog.table.rowCount())
        ]
        seen["summary"] = dialog.summary.text()
        seen["written"] = full_dump(path) == dump  # nothing written while the preview is shown
        shot(dialog, "release_preview")
        dialog.grab().save("/tmp/roundsb_release_preview.png")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ImportJudgmentsDialog, "exec", as_release)
    monkeypatch.setattr(release.ReleasePreviewDialog, "exec", look)
    window.open_project(path)
    monkeypatch.setattr(window.project_actions, "_pick", lambda *a: str(final))
    window.import_judgments()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Draft v2 now holds"), timeout=10000)
    expected = _expected(read_file(tmp_path / "r1.qrels"), read_file(final))
    assert seen["rows"] == [[str(v) for v in row] for row in expected.itertuples(index=False)]  # q10 after q2
    assert seen["written"] is True
    assert "2 added, 1 withdrawn, 1 regraded, 1 moved to another iteration, in 3 queries" in str(seen["summary"])
    assert as_set(window.project.pools.pool_items(2)) == as_set(read_file(final))
    assert window.undo_stack.undoText() == "Make draft v2 equal to final.qrels"
    window.undo_stack.undo()
    assert_same(dump, full_dump(path), logs)
    window.undo_stack.redo()
    assert as_set(window.project.pools.pool_items(2)) == as_set(read_file(final))


def test_the_window_says_when_the_draft_already_equals_the_file(window, tmp_path, qtbot, monkeypatch):
    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog

    path = tmp_path / "p.ndcgproj"
    qrels = tmp_path / "same.qrels"
    qrels.write_text("q1 0 a 1\n")
    with Project.create(path, annotator="ana") as project:
        import_judgments(project, qrels, annotator="ana")
    monkeypatch.setattr(ImportJudgmentsDialog, "exec", lambda d: d.as_release.setChecked(True) or 1)
    window.open_project(path)
    monkeypatch.setattr(window.project_actions, "_pick", lambda *a: str(qrels))
    window.import_judgments()
    qtbot.waitUntil(lambda: "already holds exactly" in window.statusBar().currentMessage(), timeout=10000)
    assert not window.undo_stack.canUndo() and Path(path).exists()


def test_a_regrade_in_a_plain_import_offers_the_release(window, tmp_path, qtbot, monkeypatch, messages):
    from PySide6.QtWidgets import QMessageBox

    from ndcg_desktop.gui.project import release
    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog

    path = tmp_path / "p.ndcgproj"
    (tmp_path / "r1.qrels").write_text("q1 1 a 1\n")
    final = tmp_path / "final.qrels"
    final.write_text("q1 1 a 2\n")
    with Project.create(path, annotator="ana") as project:
        import_judgments(project, tmp_path / "r1.qrels", annotator="ana")
    shown: list[int] = []
    monkeypatch.setattr(ImportJudgmentsDialog, "exec", lambda d: QDialog.DialogCode.Accepted)  # the pool's judgments
    monkeypatch.setattr(release.ReleasePreviewDialog, "exec", lambda d: shown.append(d.table.rowCount()) or 0)
    messages.answer = QMessageBox.StandardButton.Yes
    window.open_project(path)
    monkeypatch.setattr(window.project_actions, "_pick", lambda *a: str(final))
    window.import_judgments()
    qtbot.waitUntil(lambda: shown == [1], timeout=10000)
    kind, text = messages[0]
    assert kind == "question" and "is already graded 1 in draft version 1, the file says 2" in text
    assert "--release" not in text  # the window's words, not the command line's option
    assert window.project.pools.pool_items(1)["grade"].tolist() == [1]  # nothing imported, the preview cancelled


def test_a_release_with_negative_grades_asks_as_a_plain_import_does(window, tmp_path, qtbot, monkeypatch, messages):
    """trec_eval's -1 in a corrected release is the same question as in a plain import (before, the window only
    said the grade was outside the scale, with no way to take it); yes plans the release with them ungraded."""
    from PySide6.QtWidgets import QMessageBox

    from ndcg_desktop.gui.project import release
    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog

    path = tmp_path / "p.ndcgproj"
    (tmp_path / "r1.qrels").write_text("q1 0 a 1\n")
    final = tmp_path / "final.qrels"
    final.write_text("q1 0 a 1\nq1 0 b -1\n")
    with Project.create(path, annotator="ana") as project:
        import_judgments(project, tmp_path / "r1.qrels", annotator="ana")
    previews: list[list[str]] = []

    def look(dialog):
        previews.append([dialog.table.item(0, c).text() for c in range(dialog.table.columnCount())])
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(ImportJudgmentsDialog, "exec", lambda d: d.as_release.setChecked(True) or 1)
    monkeypatch.setattr(release.ReleasePreviewDialog, "exec", look)
    messages.answer = QMessageBox.StandardButton.Yes
    window.open_project(path)
    monkeypatch.setattr(window.project_actions, "_pick", lambda *a: str(final))
    window.import_judgments()
    qtbot.waitUntil(lambda: len(previews) == 1, timeout=10000)
    kind, text = messages[0]
    assert (kind, text) == (
        "question",
        f"{final}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged)\n\n"
        "Import the negative grades as ungraded pool items, to be graded before freezing?",
    )
    assert previews == [["q1", "1", "0", "0", "0"]]  # q1: b added (ungraded), none withdrawn, regraded or moved
    assert window.project.pools.pool_items(1)["doc_id"].tolist() == ["a"]  # the preview cancelled: nothing written
