"""The main window: one policy for negative grades, shared with the command line."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.importing import NegativeGrades


def test_negative_grades_are_a_question_not_a_silent_choice(window, tmp_path, qtbot, messages):
    path = tmp_path / "p.ndcgproj"
    Project.create(path, user="tester").close()
    qrels = tmp_path / "j.qrels"
    qrels.write_text("q1 0 A 3\nq1 0 B -1\n")
    window.open_project(path)
    window.import_judgments(str(qrels))  # the recorded question answers "Ok", which is neither "Yes" nor "Cancel"
    qtbot.waitUntil(lambda: any(kind == "question" for kind, _ in messages), timeout=5000)
    assert messages[-1] == (
        "question",
        f"{qrels}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged)\n\n"
        "Import the negative grades as ungraded pool items, to be graded before freezing?",
    )
    assert window.project.pool_items(1).empty  # nothing imported
    messages.answer = QMessageBox.StandardButton.Yes
    window.import_judgments(str(qrels))
    status = window.statusBar().currentMessage
    qtbot.waitUntil(lambda: status().startswith("Judgments imported: 1 items graded (2 added"), timeout=5000)
    items = window.project.pool_items(1)
    assert items["doc_id"].tolist() == ["A", "B"]
    assert items["grade"].tolist()[0] == 3 and items["grade"].isna().tolist() == [False, True]


def test_the_status_after_importing_judgments_counts_every_item_the_file_graded(window, small_project, qtbot):
    # small_project's draft: q1 A=3, B=2, C and D ungraded; q2 E ungraded. The file grades C and E (in the
    # pool, ungraded), adds F and G graded and H ungraded (-1), and repeats A's grade (unchanged).
    qrels = small_project.parent / "more.qrels"
    lines = ["q1 0 C 1", "q2 0 E 2", "q2 0 F 3", "q2 0 G 0", "q2 0 H -1", "q1 0 A 3"]
    qrels.write_text("\n".join(lines) + "\n")
    window.open_project(small_project)
    window.import_judgments(str(qrels), negative=NegativeGrades.UNGRADED)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Judgments imported"), timeout=5000)
    graded = [line for line in lines if not line.endswith("-1") and not line.startswith("q1 0 A")]
    assert window.statusBar().currentMessage() == (
        f"Judgments imported: {len(graded)} items graded (3 added to the pool, of them 1 ungraded; "
        "2 already in it graded now); 1 unchanged."
    )


def test_build_pool_preview_is_debounced_and_computed_off_the_gui_thread(window, small_project, qtbot, monkeypatch):
    import threading

    from PySide6.QtWidgets import QDialog

    from ndcg_desktop.gui import dialogs, main_window

    calls = []
    real = main_window.pool_preview

    def preview(project, names, depth):
        calls.append((depth, threading.current_thread() is threading.main_thread()))
        return real(project, names, depth)

    monkeypatch.setattr(main_window, "pool_preview", preview)
    seen = {}

    def typing(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        for depth in (2, 3, 4, 5):  # four ticks within the pause: one preview, for the last value
            dialog.pool_depth.setValue(depth)
        assert dialog.counts is None and not dialog.ok.isEnabled()
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        seen["summary"] = dialog.summary.text()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(dialogs.BuildPoolDialog, "exec", typing)
    window.open_project(small_project)
    window.build_pool()
    assert calls == [(10, False), (5, False)]
    assert seen["summary"] == "2 new documents for 2 queries will await grading."
