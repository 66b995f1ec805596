"""The main window: one policy for negative grades, shared with the command line."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.importing import NegativeGrades


def test_negative_grades_are_a_question_not_a_silent_choice(window, tmp_path, qtbot, messages):
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="tester").close()
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
    assert window.project.pools.pool_items(1).empty  # nothing imported
    messages.answer = QMessageBox.StandardButton.Yes
    window.import_judgments(str(qrels))
    status = window.statusBar().currentMessage
    qtbot.waitUntil(lambda: status().startswith("Judgments imported: 1 items graded (2 added"), timeout=5000)
    items = window.project.pools.pool_items(1)
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

    from ndcg_desktop.gui.pools import dialogs as pools_dialogs
    from ndcg_desktop.gui.project import actions as main_window  # where the window's Build pool calls its task

    calls = []
    real = main_window.plan_pool

    def preview(project, request):
        calls.append((request.depth, threading.current_thread() is threading.main_thread()))
        return real(project, request)

    monkeypatch.setattr(main_window, "plan_pool", preview)
    seen = {}

    def typing(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        for depth in (2, 3, 4, 5):  # four ticks within the pause: one preview, for the last value
            dialog.pool_depth.setValue(depth)
        assert dialog.counts is None and not dialog.ok.isEnabled()
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        seen["summary"] = dialog.summary.text()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", typing)
    window.open_project(small_project)
    window.build_pool()
    assert calls == [(10, False), (5, False)]
    assert seen["summary"] == "2 new documents for 2 queries will await grading."


def test_the_import_dialog_collects_the_annotators_name_and_checks_it(qtbot):
    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog

    dialog = ImportJudgmentsDialog("ana.qrels")
    qtbot.addWidget(dialog)
    assert (dialog.annotator(), dialog.name.isEnabled()) == (None, False)  # the pool's judgments by default
    dialog.as_ratings.setChecked(True)
    assert dialog.name.isEnabled()
    dialog.name.setText("import:ana.qrels")
    dialog._accept()
    assert "starts with 'import:'" in dialog.error.text() and dialog.result() == 0
    dialog.name.setText("  ana ")
    dialog._accept()
    assert (dialog.annotator(), dialog.result()) == ("ana", 1)


def test_import_judgments_as_an_annotators_ratings_starts_the_draft_and_asks_before_replacing(
    window, tmp_path, qtbot, messages, monkeypatch
):
    from PySide6.QtWidgets import QDialog

    from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog
    from ndcg_desktop.tasks.teams import ratings_table

    def as_ana(dialog):
        dialog.as_ratings.setChecked(True)
        dialog.name.setText("ana")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ImportJudgmentsDialog, "exec", as_ana)
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="lead").close()
    qrels = tmp_path / "ana.qrels"
    qrels.write_text("q1 0 A 3\nq1 0 B 0\n")
    window.open_project(path)
    monkeypatch.setattr(window.project_actions, "_pick", lambda *a: str(qrels))
    window.import_judgments()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("ana: 2 new ratings"), timeout=5000)
    assert window.statusBar().currentMessage() == (
        "ana: 2 new ratings in draft v1, 2 items joined the pool; 0 items rated differently wait in the Adjudicate "
        "view."
    )
    assert ratings_table(window.project).values.tolist() == [["q1", "A", "ana", 3], ["q1", "B", "ana", 0]]
    qrels.write_text("q1 0 A 2\n")
    window.import_judgments()  # ana again: a question, answered "Ok" (neither Yes nor Cancel): nothing changes
    qtbot.waitUntil(lambda: any(kind == "question" for kind, _ in messages), timeout=5000)
    assert messages[-1] == (
        "question",
        f"{path}: ana already has 2 ratings in draft version 1; import this file under another name, or replace "
        "ana's ratings with it\n\nReplace ana's ratings in the draft with this file's?",
    )
    assert len(ratings_table(window.project)) == 2
    messages.answer = QMessageBox.StandardButton.Yes
    window.import_judgments()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("ana: 0 new ratings"), timeout=5000)
    assert ratings_table(window.project).values.tolist() == [["q1", "A", "ana", 2]]


def test_reimporting_queries_names_the_topics_it_replaced(window, small_project, qtbot):
    """Issue 35, item 6: the window says which stored topics an import replaced, as ``ndcg import-queries`` does."""
    topics = small_project.parent / "again.tsv"
    topics.write_text("q2\twhy fixed universes matter\nq1\tother words\nq10\ta new query\n")
    window.open_project(small_project)
    window.import_queries(str(topics))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Imported 3 queries."), timeout=5000)
    assert window.statusBar().currentMessage() == "Imported 3 queries. Replaced 1 existing topics: q1."


def test_freezing_a_copy_of_its_parent_shows_the_refusal_naming_the_parent(window, small_project, qtbot, messages,
                                                                          monkeypatch):  # fmt: skip
    """Issue 35, item 3: the window shows the one line ``ndcg freeze`` prints, and nothing is frozen."""
    from ndcg_desktop.gui.project import actions

    with Project.open(small_project) as project:
        freeze_draft(project, remove_ungraded=True, annotator="tester")
        project.pools.new_draft_from(1, annotator="tester")
    window.open_project(small_project)
    window.refresh(version=2)
    monkeypatch.setattr(actions.FreezeDialog, "exec", lambda self: actions.QDialog.DialogCode.Accepted)
    window.freeze()
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages[-1][1].endswith(
        "draft version 2 is identical to its parent, pool version 1 (the same items with the same grades): freezing "
        "it would repeat version 1 under a new number; change the draft first, or score against version 1"
    )
    assert [v.state for v in window.project.pools.versions()] == ["frozen", "draft"]


def test_the_windows_import_reads_trec_lines_as_trec_eval_does(window, tmp_path, qtbot):
    """Issue 33: a comment line is skipped (it was a query named '#'), and TREC lines in a .tsv file are TREC."""
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="tester").close()
    qrels = tmp_path / "ciral.tsv"
    qrels.write_text("# judged by 2\n1\tQ0\tTUKO#13640#0\t1\n1\tQ0\tTUKO#2#0\t0\n", encoding="utf-8")
    window.open_project(path)
    window.import_judgments(str(qrels))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Judgments imported"), timeout=5000)
    items = window.project.pools.pool_items(1)
    assert items["query_id"].tolist() == ["1", "1"]
    assert sorted(items["doc_id"].tolist()) == ["TUKO#13640#0", "TUKO#2#0"]
