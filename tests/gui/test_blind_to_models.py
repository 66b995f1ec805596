"""Blind in the window (issue 25, contract rule 18): Annotate shows exactly what it showed before a model judged; the
Adjudicate and Agreement tabs show the model as one more annotator, labelled as a model."""

from __future__ import annotations

import threading
from pathlib import Path

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView

from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import RATING_COLUMNS
from tests.helpers import model_rates

from .conftest import shot


def person_rates(path: Path, annotator: str, grades: dict[tuple[str, str], int]) -> None:
    """Record ``grades`` as a person's ratings (as a merged work file does)."""
    with Project.open(path) as project:
        rows = [(q, d, annotator, g, "", "2026-01-01T00:00:00") for (q, d), g in grades.items()]
        project.ratings.add_ratings(
            pd.DataFrame(rows, columns=RATING_COLUMNS),
            version=project.pools.draft().version,
            source="test",
            annotator="tester",
        )


def annotate_shows(window) -> list[str]:
    """Every text the Annotate tab shows, query by query: its tables' cells and tooltips, its labels, the status bar's
    grading progress and pace."""
    ws = window.workspace
    texts: list[str] = []
    for row in range(ws.query_proxy.rowCount()):
        ws.select_query_row(row)
        for view in ws.findChildren(QTableView):
            model = view.model()
            for r in range(model.rowCount()):
                for c in range(model.columnCount()):
                    index = model.index(r, c)
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                        texts.append(str(index.data(role) or ""))
        texts += [label.text() for label in ws.findChildren(QLabel) if label.isVisibleTo(ws)]
        texts += [window.progress_label.text(), window.pace_label.text()]
    return texts


def test_annotate_shows_the_same_before_and_after_models_judged(window, small_project, qtbot, messages):
    assert window.open_project(small_project)
    before = annotate_shows(window)
    window.close_project()
    # q1: A graded 3 and B graded 2 by a file, C and D ungraded; q2: E ungraded. Two models differ on D and E.
    model_rates(small_project, "model:alpha", {("q1", "A"): 0, ("q1", "C"): 3, ("q1", "D"): 0, ("q2", "E"): 2})
    model_rates(small_project, "model:beta", {("q1", "D"): 3, ("q2", "E"): 0})
    assert window.open_project(small_project)
    after = annotate_shows(window)
    assert after == before
    assert not [t for t in after if "model:" in t]
    # grading an item a model rated: no question about replacing anyone's grade, and the grade is the person's
    ws = window.workspace
    ws.select_query_row(0)
    ws.select_doc_row(ws.pool_proxy.mapFromSource(ws.pool.index(ws.pool.row_of("C"), 0)).row())
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    assert messages == []
    item = window.project.pools.pool_items(window.project.pools.draft().version, "q1").set_index("doc_id").loc["C"]
    assert (int(item["grade"]), item["annotator"]) == (1, "tester")
    shot(window, "T6_annotate_blind")


def test_adjudicate_and_agreement_show_the_model_as_an_annotator_labelled_as_a_model(
    window, small_project, qtbot, messages
):
    model_rates(small_project, "model:alpha", {("q1", "A"): 0, ("q1", "B"): 2})  # differs from the file on A
    assert window.open_project(small_project)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=20_000)
    assert view.model.rowCount() == 0  # a model differing from a person makes nothing for anyone to adjudicate
    window.close_project()
    person_rates(small_project, "ben", {("q1", "A"): 1})  # two people differ on A: the model is shown beside them
    assert window.open_project(small_project)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=20_000)
    listed = [(view.model.index(r, 1).data(), view.model.index(r, 2).data()) for r in range(view.model.rowCount())]
    assert listed == [("q1", "A")]  # B: the model agrees with the file
    view.table.setCurrentIndex(view.proxy.index(0, 0))
    detail = view.detail.toPlainText()
    assert "model:alpha (a language model): 0 · " in detail and "import:j.qrels: 3 · " in detail
    assert "ben: 1 · " in detail
    shot(window, "T6_adjudicate_model")

    agreement = window.agreement
    window.tabs.setCurrentWidget(agreement)
    agreement.compute()
    qtbot.waitUntil(lambda: agreement.result is not None, timeout=30_000)
    leniency = agreement.leniency
    names = [leniency.index(r, 0).data() for r in range(leniency.rowCount())]
    assert names == ["ben", "import:j.qrels", "model:alpha"]
    pairs = agreement.pairs
    listed_pairs = {(pairs.index(r, 0).data(), pairs.index(r, 1).data()) for r in range(pairs.rowCount())}
    assert ("import:j.qrels", "model:alpha") in listed_pairs or ("model:alpha", "import:j.qrels") in listed_pairs
    # the people's headline, the model on its own line (contract rule 18, issue 36 item 12)
    assert "model:alpha is a language model, an annotator and not the truth: its alpha with the people is " in (
        agreement.summary.text()
    )
    ratings = window.project.ratings.verified(window.project.pools.draft().version)
    mine = ratings[ratings["annotator"] == "model:alpha"]
    expected_mean = (0 + 2) / 2  # the model's two ratings, as recorded
    assert float(mine["grade"].mean()) == expected_mean
    assert leniency.index(2, 2).data() == f"{expected_mean:.4f}"
    shot(window, "T6_agreement_model")
    assert not pd.isna(expected_mean)


def test_a_grade_is_undone_after_a_model_judged_the_item_and_the_models_answers_are_kept(
    window, small_project, qtbot, messages
):
    """Grade C, a model's answers for C (and D) are recorded on a worker thread's connection (as the Judge job
    does), Ctrl+Z: the person's grade is undone, without a refusal, and the model's rating and answers stay."""
    assert window.open_project(small_project)
    ws = window.workspace
    ws.select_query_row(0)
    ws.select_doc_row(ws.pool_proxy.mapFromSource(ws.pool.index(ws.pool.row_of("C"), 0)).row())
    ws.pool_view.setFocus()
    with Project.open(small_project, read_only=True) as project:
        c_before = project.pools.pool_items(1, "q1").set_index("doc_id").loc["C"].to_dict()
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    project = window.project
    judge = threading.Thread(target=lambda: model_rates(project, "model:alpha", {("q1", "C"): 0, ("q1", "D"): 3}))
    judge.start()
    judge.join()
    window.undo_stack.undo()
    assert messages == []
    assert "nothing was undone" not in window.statusBar().currentMessage()
    with Project.open(small_project, read_only=True) as project:
        c_now = project.pools.pool_items(1, "q1").set_index("doc_id").loc["C"].to_dict()
        rated = project.ratings.verified(1).query("doc_id in ['C', 'D']")
        answers = project.assessor.attempts(1)
    assert str(c_now) == str(c_before)  # NaN-safe: the item as it was before the grade
    assert rated[["doc_id", "annotator", "grade"]].values.tolist() == [["C", "model:alpha", 0], ["D", "model:alpha", 3]]
    assert answers["doc_id"].tolist() == ["C", "D"]
    source = ws.pool.row_of("C")
    assert (ws.pool.grade(source), ws.pool.annotator(source)) == (None, "")
