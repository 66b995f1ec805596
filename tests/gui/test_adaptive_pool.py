"""Build pool with a strategy, a budget and a query subset, and an adaptive pool filled in batches in the Annotate
view (issue 34 items 1 and 2): the next batch joins when people graded the last, in blind order, undone with the
grade that brought it; the view shows nothing of runs, ranks or the strategy's numbers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from ndcg_desktop.domain.blind import judging_order
from ndcg_desktop.gui.pools import dialogs as pools_dialogs
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot

RUNS = {
    "A": {"q1": ["a1", "a2", "a3", "a4"], "q2": ["x1", "x2"]},
    "B": {"q1": ["b1", "a1", "b2", "b3"]},
    "C": {"q1": ["c1", "c2", "c3", "c4"]},
}


def three_runs(tmp_path: Path) -> Path:
    path = tmp_path / "adaptive.ndcgproj"
    (tmp_path / "q.tsv").write_text("q1\tfrozen pools\nq2\tfixed universes\n")
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        for name, queries in RUNS.items():
            run = tmp_path / f"{name}.run"
            run.write_text(
                "".join(
                    f"{q} Q0 {d} {r + 1} {10 - r} {name}\n" for q, docs in queries.items() for r, d in enumerate(docs)
                )
            )
            p.runs.import_run(run, name=name, annotator="tester")
    return path


def build(window, qtbot, monkeypatch, choose) -> dict:
    seen: dict = {}

    def fill(dialog):
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        choose(dialog)
        qtbot.waitUntil(lambda: dialog.counts is not None, timeout=5000)
        model = dialog.table.model()
        seen["rows"] = [[model.index(r, c).data() for c in range(5)] for r in range(model.rowCount())]
        seen["summary"] = dialog.summary.text()
        seen["batch_shown"] = not dialog.batch.isHidden()
        dialog.show()
        qtbot.wait(20)
        seen["shot"] = shot(dialog, "adaptive_build_pool_dialog")
        dialog.hide()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(pools_dialogs.BuildPoolDialog, "exec", fill)
    window.build_pool()
    qtbot.waitUntil(lambda: window.project.pools.draft() is not None, timeout=5000)
    return seen


def test_build_pool_takes_a_strategy_with_its_parameters_a_budget_and_queries(window, tmp_path, qtbot, monkeypatch):
    window.open_project(three_runs(tmp_path))

    def rrf_top_three_of_q1(dialog):
        dialog.strategy.setCurrentIndex(dialog.strategy.findData("rrf"))
        fields = dialog.parameter_fields[dialog.strategy.currentIndex()]
        fields.fields["k"].setValue(10)  # generated from the strategies' table: rrf's k
        dialog.pool_depth.setValue(4)
        dialog.budget.setText("3")
        dialog.queries.setText("q1")

    seen = build(window, qtbot, monkeypatch, rrf_top_three_of_q1)
    # rrf, k = 10: a1 = 1/11 + 1/12; b1 = c1 = 1/11 (ties by ID ascending); q1's depth pool holds 11 documents
    assert seen["rows"] == [["q1", "11", "3", "3", "3"]]
    assert seen["batch_shown"] is False  # a batch size is an adaptive strategy's only
    project = window.project
    (record,) = project.builds.of_version(project.pools.draft().version)
    assert (record.strategy, record.budget, record.depth, record.queries) == ("rrf(k=10)", "3", 4, ["q1"])
    order = project.builds.choices(record.version)["doc_id"].tolist()
    assert order == ["a1", "b1", "c1"]


def test_an_adaptive_pool_brings_the_next_batch_when_the_last_is_graded(window, tmp_path, qtbot, monkeypatch):
    window.open_project(three_runs(tmp_path))

    def maxmean_batches_of_two(dialog):
        dialog.strategy.setCurrentIndex(dialog.strategy.findData("maxmean"))
        dialog.pool_depth.setValue(4)
        dialog.budget.setText("6")
        dialog.batch.setValue(2)
        dialog.queries.setText("q1")

    seen = build(window, qtbot, monkeypatch, maxmean_batches_of_two)
    assert seen["batch_shown"] is True
    assert seen["rows"] == [["q1", "11", "6", "2", "2"]]  # the first batch: a1, a2 (tasks test derives it)
    assert seen["summary"].startswith("2 new documents for 1 queries will await grading. This is the first batch")
    ws = window.workspace
    qtbot.waitUntil(lambda: ws.session.query_id == "q1" and len(ws.session.pool) == 2, timeout=5000)
    first = ws.session.doc_id
    assert first == judging_order("q1", ["a1", "a2"])[0]  # blind order within the batch
    grades = {"a1": Qt.Key.Key_2, "a2": Qt.Key.Key_0}
    window.activateWindow()
    ws.pool_view.setFocus()
    qtbot.keyClick(ws.pool_view, grades[first])
    second = ws.session.doc_id
    qtbot.keyClick(ws.pool_view, grades[second])
    # a1 relevant, a2 not: the next batch is a3, a4, chosen from those grades, walked in blind order
    qtbot.waitUntil(lambda: len(ws.session.pool) == 4, timeout=5000)
    assert ws.session.doc_id == judging_order("q1", ["a3", "a4"])[0]
    model = ws.pool_view.model()
    headers = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]
    assert not any(word in " ".join(headers).lower() for word in ("run", "rank", "strategy", "budget", "batch"))
    shot(window, "adaptive_next_batch_in_the_workspace")
    window.undo_stack.undo()  # the grade that completed the batch, and the batch it brought
    qtbot.waitUntil(lambda: len(ws.session.pool) == 2, timeout=5000)
    project = window.project
    items = project.pools.pool_items(project.pools.draft().version, "q1").set_index("doc_id")["grade"]
    assert sorted(items.index) == ["a1", "a2"] and int(items.notna().sum()) == 1
    window.undo_stack.redo()  # graded again: the same batch, chosen again from the same grades
    qtbot.waitUntil(lambda: len(ws.session.pool) == 4, timeout=5000)
    assert sorted(project.builds.choices(project.pools.draft().version)["doc_id"]) == ["a1", "a2", "a3", "a4"]
    assert QApplication.activeModalWidget() is None


def test_pool_economics_plots_the_drafts_relevant_found(window, tmp_path, qtbot, monkeypatch):
    path = three_runs(tmp_path)
    (tmp_path / "v1.qrels").write_text("q1 0 a1 2\nq1 0 b1 1\nq1 0 c1 0\nq1 0 a2 0\n")
    with Project.open(path) as p:
        p.judgments.import_qrels(tmp_path / "v1.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    window.open_project(path)

    def rrf_of_q1(dialog):
        dialog.strategy.setCurrentIndex(dialog.strategy.findData("rrf"))
        dialog.pool_depth.setValue(4)
        dialog.budget.setText("5")
        dialog.queries.setText("q1")

    build(window, qtbot, monkeypatch, rrf_of_q1)
    # rrf (k = 60) on q1: a1, then b1 and c1 (1/61 each, by ID), then a2 and c2 (1/62): a1..a2 judged in v1
    project = window.project
    qtbot.waitUntil(lambda: len(project.builds.of_version(2)) == 1, timeout=5000)  # applied on a worker
    project.judgments.set_grade("q1", "c2", 1, annotator="tester")  # the one new document, graded by a person: relevant
    dialog = window.economics.open()
    qtbot.addWidget(dialog)
    dialog.compute()
    qtbot.waitUntil(lambda: dialog.session.result is not None, timeout=5000)
    from ndcg_desktop.gui.charts import points

    # the draft: a1 (2), b1 (1), c1 (0), a2 (0), c2 (1): 1, 2, 2, 2, 3; v1 as the oracle lacks c2 (non-relevant)
    assert points(dialog.chart.actual) == [(0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 3)]
    assert points(dialog.chart.expected) == [(0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 2)]
    assert "3 relevant found in 5 judgments" in dialog.summary.text()
    dialog.query.setCurrentIndex(dialog.query.findData("q1"))
    assert points(dialog.chart.actual)[-1] == (5, 3)
    dialog.show()
    qtbot.wait(20)
    shot(dialog, "adaptive_pool_economics")
    project.judgments.set_grade(
        "q1", "c2", 0, annotator="tester"
    )  # a grade changed: the curves shown are no longer the draft's
    qtbot.waitUntil(lambda: dialog.session.result is None, timeout=5000)
    assert dialog.model.rowCount() == 0
