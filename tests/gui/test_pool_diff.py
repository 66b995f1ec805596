"""Pool ▸ Compare pool versions… (Ctrl+Shift+D): the diff of two frozen versions in the window.

The project is ``two_versions`` (tests/conftest.py): bob regraded q1/A 3->0, q1/B 2->0 and q2/F 0->2,
removed q1/D and added q2/G (grade 1) in v2; run x leads under v1, y under v2. The expected cells are
those facts and nDCG@2 by its formula, as ``ndcg diff-pools`` is tested on the same project.
"""

from __future__ import annotations

import threading
from math import log2

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication

from ndcg_desktop.domain.settings import GradeScale, default_labels
from ndcg_desktop.gui.pools.diff import PoolDiffDialog
from ndcg_desktop.tasks import pool_diff as module  # the use case the dialog's session calls
from tests.gui.conftest import shot

IDEAL_V1 = 3 / log2(2) + 2 / log2(3)
X_V1 = ((2 / log2(2) + 3 / log2(3)) / IDEAL_V1 + 1.0) / 2
Y_V1 = ((3 / log2(2) + 1 / log2(3)) / IDEAL_V1 + 0.0) / 2
X_V2 = (0.0 + (1 / log2(2)) / (2 / log2(2) + 1 / log2(3))) / 2
Y_V2 = ((1 / log2(3)) / (1 / log2(2)) + (2 / log2(2)) / (2 / log2(2) + 1 / log2(3))) / 2


def _cells(view) -> list[list[str]]:
    model = view.model()
    return [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


@pytest.fixture
def compared(qtbot, window, two_versions, monkeypatch):
    """The dialog opened with its shortcut, K=2 and unjudged=zero chosen, compared; records the worker thread."""
    threads: list[str] = []
    real = module.diff_pools

    def recording(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "diff_pools", recording)
    assert window.open_project(two_versions)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.pool_diff.dialog is not None)
    dialog = window.pool_diff.dialog
    assert isinstance(dialog, PoolDiffDialog) and dialog.isVisible()
    assert (dialog.version_a.currentData(), dialog.version_b.currentData()) == (1, 2)  # the two latest
    assert dialog.unjudged.currentData() == "reject"  # nothing guessed until chosen, as the command
    dialog.k.setValue(2)
    dialog.unjudged.setCurrentIndex(dialog.unjudged.findData("zero"))
    dialog.compare_button.click()
    qtbot.waitUntil(lambda: dialog.tables is not None, timeout=20_000)
    dialog.threads = threads
    return dialog


def test_changes_runs_and_tau_computed_on_a_worker(compared, qtmodeltester):
    dialog = compared
    assert dialog.threads and dialog.threads[0] != threading.main_thread().name
    assert dialog.summary.text().startswith("v1 → v2: 1 added, 1 removed, 3 regraded, in 2 queries")
    assert _cells(dialog.queries_view) == [["q1", "0", "1", "2"], ["q2", "1", "0", "1"]]
    items = [row[:6] for row in _cells(dialog.items_view)]
    # grades with their labels, as every other grade in the window (issue 23 item 4; both versions keep 0..3's)
    g = dict(enumerate(f"{grade} · {label}" for grade, label in enumerate(default_labels(GradeScale()))))
    assert items == [
        ["q1", "A", "regraded", g[3], g[0], "bob"],
        ["q1", "B", "regraded", g[2], g[0], "bob"],
        ["q1", "D", "removed", g[0], "—", "bob"],
        ["q2", "F", "regraded", g[0], g[2], "bob"],
        ["q2", "G", "added", "—", g[1], "bob"],
    ]
    assert all(len(row[6]) == len("2026-01-01 00:00:00") for row in _cells(dialog.items_view))  # when, in UTC
    # each item's round in both versions, as read ("—": not in that version); issue 35 item 4
    assert [row[7:] for row in _cells(dialog.items_view)] == [
        ["0", "0"], ["0", "0"], ["0", "—"], ["0", "0"], ["—", "0"],
    ]  # fmt: skip
    dialog.resize(1100, 660)
    dialog.grab().save("/tmp/shots/T7_pool_diff_grades_labelled.png")
    headers = [dialog.items_view.model().headerData(c, Qt.Orientation.Horizontal) for c in (3, 4)]
    assert headers == ["Grade in v1", "Grade in v2"]
    assert _cells(dialog.runs_view) == [
        ["x", f"{X_V1:.4f}", f"{X_V2:.4f}", f"{X_V2 - X_V1:.4f}", "1", "2"],
        ["y", f"{Y_V1:.4f}", f"{Y_V2:.4f}", f"{Y_V2 - Y_V1:.4f}", "2", "1"],
    ]
    assert "-1.0000" in dialog.tau.text()  # two runs whose order flips
    assert dialog.settings_line.text().startswith("nDCG@2(") and "unjudged=zero" in dialog.settings_line.text()
    for model in (dialog.queries_model, dialog.items_model, dialog.runs_model, dialog.items_filter):
        qtmodeltester.check(model)


def test_sorting_and_narrowing_to_one_query(compared, qtbot):
    dialog = compared
    dialog.runs_view.sortByColumn(3, Qt.SortOrder.DescendingOrder)  # difference: y gained, x lost
    assert [row[0] for row in _cells(dialog.runs_view)] == ["y", "x"]
    dialog.queries_view.sortByColumn(1, Qt.SortOrder.DescendingOrder)  # added: q2 first
    assert [row[0] for row in _cells(dialog.queries_view)] == ["q2", "q1"]
    first = dialog.queries_view.model().index(0, 0)
    dialog.queries_view.selectionModel().setCurrentIndex(
        first, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    )
    assert [row[:3] for row in _cells(dialog.items_view)] == [["q2", "F", "regraded"], ["q2", "G", "added"]]
    dialog.items_view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    assert [row[1] for row in _cells(dialog.items_view)] == ["G", "F"]
    dialog.resize(1100, 660)
    qtbot.wait(50)
    shot(dialog, "pool_diff")


def test_refused_runs_are_listed_with_why_and_the_dialog_closes_with_the_project(compared, qtbot, window):
    dialog = compared
    dialog.unjudged.setCurrentIndex(dialog.unjudged.findData("reject"))  # y returns C... every doc is judged in v1
    dialog.k.setValue(2)
    dialog.version_a.setCurrentIndex(1)  # v2 against v1: the other way round
    dialog.version_b.setCurrentIndex(0)
    before = dialog.tables
    dialog.compare_button.click()
    qtbot.waitUntil(lambda: dialog.tables is not before, timeout=20_000)
    assert dialog.summary.text().startswith("v2 → v1: 1 added, 1 removed, 3 regraded, in 2 queries")
    assert dialog.refused.isHidden()  # every returned document is judged in both: nothing refused
    window.close_project()
    assert window.pool_diff.dialog is None and not dialog.isVisible()
    assert not window.pool_diff.action.isEnabled()


def test_one_frozen_version_says_compare_needs_two(qtbot, window, small_project):
    assert window.open_project(small_project)
    dialog = window.pool_diff.open()
    assert dialog is not None
    assert not dialog.compare_button.isEnabled()
    assert dialog.summary.text() == "Compare needs two frozen pool versions."


def test_another_choice_clears_the_result_and_the_headers_name_the_choice(compared, qtbot):
    """A result belongs to the versions, K and policy it was computed for; headers never show ``{a}``."""
    dialog = compared

    def headers(view):
        model = view.model()
        return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]

    from ndcg_desktop.gui import tasks

    for change in (lambda: dialog.k.setValue(3), lambda: dialog.version_a.setCurrentIndex(1)):
        dialog.compare_button.click()
        qtbot.waitUntil(lambda: not tasks._running, timeout=20_000)
        assert dialog.tables is not None
        change()
        assert dialog.tables is None
        assert [dialog.queries_view.model().rowCount(), dialog.runs_view.model().rowCount()] == [0, 0]
        assert dialog.summary.text() == "Choose two versions and press Compare."
        assert dialog.tau.text() == dialog.settings_line.text() == ""
    assert headers(dialog.items_view)[3:5] == ["Grade in v2", "Grade in v2"]  # From now says v2 too
    assert headers(dialog.runs_view)[1:3] == ["Mean nDCG, v2", "Mean nDCG, v2"]
    dialog.compare_button.click()  # a result computed for a choice changed meanwhile never lands
    dialog.k.setValue(4)
    qtbot.waitUntil(lambda: not tasks._running, timeout=20_000)
    assert dialog.tables is None and dialog.runs_view.model().rowCount() == 0


def test_a_header_placeholder_not_filled_yet_reads_as_an_ellipsis(qapp):
    from ndcg_desktop.gui.scores.tables import FrameModel

    model = FrameModel([("nDCG {a}", "ndcg_a", "f4"), ("{other} − {run}", "difference", "f4"), ("Run", "run", "")])
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(3)] == ["nDCG …", "… − …", "Run"]
    model.header_fields = {"a": "bm25"}
    assert model.headerData(0, Qt.Orientation.Horizontal) == "nDCG bm25"


def test_a_refused_comparison_leaves_no_earlier_figures_beside_the_refusal(compared, qtbot):
    """Compared once, then refused (here: a version changed on disk): the summary says why, and the tables, tau
    and settings line of the earlier comparison are gone."""
    from ndcg_desktop.gui import tasks
    from ndcg_desktop.store import FrozenVersionChanged

    dialog = compared
    dialog.compare_button.click()
    qtbot.waitUntil(lambda: not tasks._running, timeout=20_000)
    assert dialog.tables is not None and dialog.runs_view.model().rowCount() > 0

    def refuse(*args, **kwargs):
        raise FrozenVersionChanged("pool version 1 has changed since it was frozen: …", path="p.ndcgproj")

    original = module.diff_pools
    module.diff_pools = refuse
    try:
        dialog.compare_button.click()
        qtbot.waitUntil(lambda: not tasks._running, timeout=20_000)
    finally:
        module.diff_pools = original
    assert "has changed since it was frozen" in dialog.summary.text()
    assert dialog.tables is None
    assert [dialog.queries_view.model().rowCount(), dialog.runs_view.model().rowCount()] == [0, 0]
    assert dialog.tau.text() == dialog.settings_line.text() == ""
