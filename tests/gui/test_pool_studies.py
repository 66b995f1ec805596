"""Pool ▸ Simulate pooling… and Pool ▸ Reusability… (issue 34 items 3 and 4, the window): the project's latest frozen
version as the oracle, its stored runs as the runs; the tables show exactly what the tasks' functions return."""

from __future__ import annotations

import threading
from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.gui import i18n
from ndcg_desktop.gui.scores.tables import SORT_ROLE, format_value
from ndcg_desktop.scoring.pooling import Budget, Strategy
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_runs import pool_runs_from_project
from ndcg_desktop.tasks.pool_simulation import reusability, simulate_pooling

from .conftest import shot

RUNS = {
    "teamA1": {"q1": ["a1", "a2", "a3", "a4"], "q2": ["x1", "x2", "x3"]},
    "teamA2": {"q1": ["a1", "b1", "a3", "b2"], "q2": ["x2", "y1"]},
    "teamC": {"q1": ["c1", "c2", "a2", "c3"], "q2": ["y1", "y2", "x1"]},
}
QRELS = "q1 0 a1 2\nq1 0 a2 1\nq1 0 b1 1\nq1 0 c2 3\nq1 0 c3 0\nq2 0 x1 1\nq2 0 y1 2\nq2 0 y2 0\n"


def project_with_runs(tmp_path: Path, *, freeze: bool = True, runs: tuple[str, ...] = tuple(RUNS)) -> Path:
    path = tmp_path / "studies.ndcgproj"
    (tmp_path / "q.tsv").write_text("q1\tfrozen pools\nq2\tfixed universes\n")
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        for name in runs:
            queries = RUNS[name]
            run = tmp_path / f"{name}.run"
            run.write_text(
                "".join(
                    f"{q} Q0 {d} {r + 1} {10 - r} {name}\n" for q, docs in queries.items() for r, d in enumerate(docs)
                )
            )
            p.runs.import_run(run, name=name, annotator="tester")
        (tmp_path / "v1.qrels").write_text(QRELS)
        p.judgments.import_qrels(tmp_path / "v1.qrels", annotator="tester")
        if freeze:
            freeze_draft(p, annotator="tester")
    return path


def cells(model) -> list[list[str]]:
    return [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


def expected_cells(frame, columns) -> list[list[str]]:
    return [[format_value(row[name], fmt) for _, name, fmt in columns] for row in frame.to_dict("records")]


def test_simulate_pooling_shows_what_simulate_pooling_returns(window, tmp_path, qtbot, qtmodeltester):
    from ndcg_desktop.gui.pools.studies import SIMULATION_COLUMNS

    path = project_with_runs(tmp_path)
    window.open_project(path)
    dialog = window.studies.open_simulation()
    qtbot.addWidget(dialog)
    dialog.pool_depth.setValue(4)
    dialog.cutoff.setValue(3)
    dialog.budgets.setText("25%, 50%, 4")
    dialog.strategy_boxes["rbp"].setChecked(False)
    dialog.compute()
    qtbot.waitUntil(lambda: dialog.session.result is not None, timeout=10000)
    with Project.open(path, read_only=True) as p:
        pool = pool_runs_from_project(p, list(RUNS), None, EvalSettings())
        want = simulate_pooling(
            pool,
            depth=4,
            k=3,
            strategies=[Strategy.parse("depth"), Strategy.parse("rrf"), Strategy.parse("maxmean")],
            budgets=[Budget.parse("25%"), Budget.parse("50%"), Budget.parse("4")],
            base=EvalSettings(),
        )
    assert len(want.rows) == 9
    assert cells(dialog.model) == expected_cells(want.rows, SIMULATION_COLUMNS)
    qtmodeltester.check(dialog.model)
    qtmodeltester.check(dialog.table.model())
    # sorted by the raw value, not the text: the proxy's sort role holds the numbers
    proxy = dialog.table.model()
    judged = SIMULATION_COLUMNS.index(next(c for c in SIMULATION_COLUMNS if c[1] == "judged"))
    dialog.table.sortByColumn(judged, Qt.SortOrder.DescendingOrder)
    shown = [proxy.index(r, judged).data(SORT_ROLE) for r in range(proxy.rowCount())]
    assert shown == sorted(want.rows["judged"].tolist(), reverse=True)
    # the chart: relevant found against judged, one line per strategy
    depth = want.rows["strategy"].iloc[0]  # the strategies' text form, as the table shows them
    assert depth.startswith("depth")
    depth_points = sorted(
        (float(j), float(f))
        for j, f, s in zip(want.rows["judged"], want.rows["relevant_found"], want.rows["strategy"], strict=True)
        if s == depth
    )
    from ndcg_desktop.gui.charts import points

    assert points(dialog.chart.found[depth]) == depth_points
    assert "v1" in dialog.summary.text()
    dialog.export(str(tmp_path / "out"))  # the button's folder chooser bypassed: the same use case as --export
    assert dialog.summary.text() == f"Wrote 4 files into {tmp_path / 'out'}."
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["manifest.json", "means.csv", "per_query.csv", "simulation.csv"]
    table = pd.read_csv(tmp_path / "out" / "simulation.csv")
    assert table["judged"].tolist() == want.rows["judged"].tolist()
    assert table["relevant_found"].tolist() == want.rows["relevant_found"].tolist()
    dialog.budgets.setText("a lot")  # not a budget: the core's sentence, nothing run, the table kept
    dialog.compute()
    assert "a lot" in dialog.summary.text() and dialog.model.rowCount() == 9
    shot(dialog, "pool_simulate_pooling")
    dialog.close()


def test_reusability_shows_what_reusability_returns(window, tmp_path, qtbot, qtmodeltester):
    from ndcg_desktop.gui.pools.studies import REUSABILITY_COLUMNS

    path = project_with_runs(tmp_path)
    window.open_project(path)
    dialog = window.studies.open_reusability()
    qtbot.addWidget(dialog)
    dialog.pool_depth.setValue(3)
    dialog.cutoff.setValue(3)
    dialog.group_by.setText(r"^team([A-Z])")
    dialog.compute()
    qtbot.waitUntil(lambda: dialog.session.result is not None, timeout=10000)
    with Project.open(path, read_only=True) as p:
        pool = pool_runs_from_project(p, list(RUNS), None, EvalSettings())
        want = reusability(pool, depth=3, k=3, base=EvalSettings(), groups=["A", "A", "C"])
    assert want.runs["group"].tolist() == ["A", "A", "C"]
    assert cells(dialog.model) == expected_cells(want.runs, REUSABILITY_COLUMNS)
    qtmodeltester.check(dialog.model)
    qtmodeltester.check(dialog.table.model())
    from ndcg_desktop.gui.charts import points

    assert sorted(points(dialog.chart.points)) == sorted(
        zip(want.runs["mean_full"].tolist(), want.runs["mean_without_own"].tolist(), strict=True)
    )
    shot(dialog, "pool_reusability")
    dialog.group_by.setText("(")  # not a regular expression: the core's sentence, no worker started
    dialog.compute()
    assert "not a regular expression" in dialog.summary.text()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5000)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_without_a_frozen_version_both_views_say_so(window, tmp_path, qtbot):
    window.open_project(project_with_runs(tmp_path, freeze=False))
    for dialog in (window.studies.open_simulation(), window.studies.open_reusability()):
        qtbot.addWidget(dialog)
        assert dialog.summary.text() == (
            "The project has no frozen version to serve as the oracle: freeze a pool first."
        )
        assert not dialog.run_button.isEnabled()
        dialog.close()


def test_the_simulation_can_be_cancelled_on_its_worker(window, tmp_path, qtbot, monkeypatch):
    from ndcg_desktop.sessions import pool_studies as pool_study_sessions

    window.open_project(project_with_runs(tmp_path))
    dialog = window.studies.open_simulation()
    qtbot.addWidget(dialog)
    started, go_on = threading.Event(), threading.Event()
    real = pool_study_sessions.simulate_pooling

    def slow(*args, **kwargs):
        started.set()
        go_on.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(pool_study_sessions, "simulate_pooling", slow)
    dialog.compute()
    qtbot.waitUntil(started.is_set, timeout=5000)
    from PySide6.QtWidgets import QProgressDialog

    progress = dialog.findChild(QProgressDialog)
    assert progress is not None
    progress.canceled.emit()  # what its Cancel button sends
    go_on.set()
    qtbot.waitUntil(lambda: dialog.findChild(QProgressDialog) is None, timeout=10000)
    assert dialog.session.result is None
    dialog.close()


@pytest.mark.parametrize("language", ["zh_CN"])
def test_the_views_read_in_chinese(window, tmp_path, qtbot, qapp, language):
    path = project_with_runs(tmp_path)
    assert i18n.install(qapp, language) == language
    try:
        window.open_project(path)
        dialog = window.studies.open_simulation()
        qtbot.addWidget(dialog)
        dialog.pool_depth.setValue(4)
        dialog.cutoff.setValue(3)
        dialog.compute()
        qtbot.waitUntil(lambda: dialog.session.result is not None, timeout=10000)
        header = dialog.model.headerData(3, Qt.Orientation.Horizontal)
        assert header != "Relevant found"
        shot(dialog, "pool_simulate_pooling_zh_CN")
        dialog.close()
        other = window.studies.open_reusability()
        qtbot.addWidget(other)
        other.compute()
        qtbot.waitUntil(lambda: other.session.result is not None, timeout=10000)
        shot(other, "pool_reusability_zh_CN")
        other.close()
    finally:
        i18n.uninstall(qapp)


def test_with_one_stored_run_both_views_say_two_are_needed(window, tmp_path, qtbot):
    window.open_project(project_with_runs(tmp_path, runs=("teamA1",)))
    for open_view in (window.studies.open_reusability, window.studies.open_simulation):
        dialog = open_view()
        qtbot.addWidget(dialog)
        assert dialog.summary.text() == "A pooling study needs at least two stored runs: import runs first."
        assert not dialog.run_button.isEnabled()
        qtbot.waitUntil(lambda d=dialog: QApplication.activeWindow() is d, timeout=5000)  # keys go to it
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert not dialog.isVisible()


def test_the_pool_menu_holds_both_items(window, tmp_path):
    window.open_project(project_with_runs(tmp_path))
    pool_menu = window.studies.simulate_action.associatedObjects()
    texts = [a.text() for menu in pool_menu if hasattr(menu, "actions") for a in menu.actions()]
    assert "&Simulate pooling…" in texts and "Re&usability…" in texts
    assert window.studies.simulate_action.isEnabled() and window.studies.reusability_action.isEnabled()
