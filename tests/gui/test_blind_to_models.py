"""Blind in the window (issue 25, contract rule 18): Annotate shows exactly what it showed before a model judged; the
Adjudicate and Agreement tabs show the model as one more annotator, labelled as a model."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView

from ndcg_desktop.store import Project

from .conftest import shot


def model_rates(path: Path, annotator: str, grades: dict[tuple[str, str], int]) -> None:
    """Record ``grades`` as one run of the model's answers, through the assessor's own recording (as a job does)."""
    with Project.open(path, user="tester") as project:
        version = project.draft().version
        run = project.assessor.start_run(
            version,
            annotator=annotator,
            model=annotator.removeprefix("model:"),
            endpoint_host="127.0.0.1:1",
            parameters={},
            template_sha256="0" * 64,
            template_source="built-in",
        )
        project.assessor.record(run, [(q, d, g, None, f'{{"grade": {g}}}', 0.1, 10, 2) for (q, d), g in grades.items()])


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
    item = window.project.pool_items(window.project.draft().version, "q1").set_index("doc_id").loc["C"]
    assert (int(item["grade"]), item["annotator"]) == (1, "tester")
    shot(window, "T6_annotate_blind")


def test_adjudicate_and_agreement_show_the_model_as_an_annotator_labelled_as_a_model(
    window, small_project, qtbot, messages
):
    from ndcg_desktop.cli.main import main

    ben = small_project.parent / "ben.qrels"
    ben.write_text("q1 0 A 1\n")  # a person who differs from the file on A
    assert main(["import-qrels", str(small_project), str(ben), "--annotator", "ben"]) == 0
    model_rates(small_project, "model:alpha", {("q1", "A"): 0, ("q1", "B"): 0})  # differs from the file on A and B
    assert window.open_project(small_project)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=20_000)
    listed = [(view.model.index(r, 1).data(), view.model.index(r, 2).data()) for r in range(view.model.rowCount())]
    # A: two people differ. B: only the model differs from a person, which never makes an item differ (rule 18)
    assert listed == [("q1", "A")]
    view.table.setCurrentIndex(view.proxy.index(0, 0))
    detail = view.detail.toPlainText()
    assert "model:alpha (a language model): 0" in detail and "import:j.qrels: 3" in detail and "ben: 1" in detail
    shot(window, "T6_adjudicate_model")

    agreement = window.agreement
    window.tabs.setCurrentWidget(agreement)
    agreement.compute()
    qtbot.waitUntil(lambda: agreement.result is not None, timeout=30_000)
    leniency = agreement.leniency
    names = [leniency.index(r, 0).data() for r in range(leniency.rowCount())]
    assert names == ["ben", "import:j.qrels", "model:alpha"]
    pairs = agreement.pairs
    assert [(pairs.index(r, 0).data(), pairs.index(r, 1).data()) for r in range(pairs.rowCount())] == [
        ("ben", "import:j.qrels"),
        ("ben", "model:alpha"),
        ("import:j.qrels", "model:alpha"),
    ]
    assert "model:alpha is a language model, compared here with the people as one more annotator." in (
        agreement.summary.text()
    )
    ratings = window.project.ratings(window.project.draft().version)
    mine = ratings[ratings["annotator"] == "model:alpha"]
    expected_mean = (0 + 0) / 2  # the model's two ratings, as recorded
    assert float(mine["grade"].mean()) == expected_mean
    assert leniency.index(2, 2).data() == f"{expected_mean:.4f}"
    shot(window, "T6_agreement_model")
    assert not pd.isna(expected_mean)
