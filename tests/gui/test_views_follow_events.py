"""Every view shows only what is true now: after an undo, a discard, a task's write or another project (issue 23).

The views follow the open project's events (sessions.events); nothing is refreshed by a hand-written list.
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pooling import apply_send_for_judging, plan_send_for_judging

from .conftest import shot


def listed(window) -> dict[str, tuple[int, int]]:
    """Annotate's query list: query -> (pool size, graded), as the model holds it."""
    model = window.workspace.queries
    return {model.query_id(r): model.counts(r)[:2] for r in range(model.rowCount())}


def stored(path, version) -> dict[str, tuple[int, int]]:
    """Every query of the project -> (pool size, graded) in ``version``, read from the file."""
    with Project.open(path, read_only=True) as p:
        items = p.pools.pool_items(version)
        queries = p.pools.query_progress(version)["query_id"]
    counts = {q: (len(g), int(g["grade"].notna().sum())) for q, g in items.groupby("query_id")}
    return {q: counts.get(q, (0, 0)) for q in queries}


def frozen_then_draft(path) -> None:
    """v1 frozen from the small project's graded items (q1: A=3, B=2), and draft v2 copied from it."""
    with Project.open(path) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")


def test_undoing_a_send_for_judging_takes_the_documents_out_of_annotate(window, small_project, qtbot, messages):
    frozen_then_draft(small_project)
    window.open_project(small_project)
    ws = window.workspace
    plan = plan_send_for_judging(window.project, "sys", 1, depth=10)
    sent = apply_send_for_judging(
        window.project, plan, annotator="tester"
    )  # what the Scores view's dialog does on a worker
    window._sent_for_judging(sent, "sys")
    assert "X" in ws.pool.doc_ids() and listed(window)["q1"] == (3, 2)
    window.undo_stack.undo()
    assert ws.session.version.version == 2 and ws.session.query_id == "q1"
    assert sorted(ws.pool.doc_ids()) == ["A", "B"]  # X went back out
    assert listed(window) == stored(small_project, 2) == {"q1": (2, 2), "q2": (0, 0)}
    assert window.progress_label.text() == "Pool v2: 2 of 2 graded (100%)"
    ws.select_doc_row(0)
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)  # on a document that is there: graded, no traceback
    assert stored(small_project, 2)["q1"] == (2, 2)
    window.undo_stack.redo()  # the grade's redo is gone with the new command; the history still works
    window.undo_stack.undo()
    assert listed(window) == stored(small_project, 2)


def test_an_undone_grade_in_another_query_updates_that_querys_counts(window, small_project, qtbot):
    window.open_project(small_project)
    ws = window.workspace
    ws.select_query_row(1)  # q2: E ungraded
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_2)
    assert listed(window)["q2"] == (1, 1)
    ws.select_query_row(0)
    window.undo_stack.undo()
    assert listed(window) == stored(small_project, 1)
    assert listed(window)["q2"] == (1, 0)


def test_discarding_a_draft_shows_the_versions_that_remain(window, small_project, qtbot, messages):
    frozen_then_draft(small_project)
    window.open_project(small_project)
    assert window.current_version().version == 2
    messages.answer = QMessageBox.StandardButton.Discard
    window.pool_editor.discard_draft()
    qtbot.waitUntil(lambda: window.project.pools.draft() is None, timeout=10_000)
    qtbot.waitUntil(lambda: window.current_version() is not None, timeout=10_000)
    assert [window.version_box.itemData(i) for i in range(window.version_box.count())] == [1]
    assert window.current_version().version == 1 and window.current_version().frozen
    assert window.workspace.session.version.version == 1
    assert listed(window) == stored(small_project, 1)
    assert window.progress_label.text() == "Pool v1: 2 of 2 graded (100%)"
    shot(window, "annotate-after-discard")
    window.undo_stack.undo()  # the draft comes back, and is shown
    qtbot.waitUntil(lambda: window.current_version() is not None and window.current_version().version == 2)
    assert listed(window) == stored(small_project, 2)


def test_a_change_made_by_another_program_reaches_annotate(window, small_project, qtbot):
    import sqlite3

    window.open_project(small_project)
    conn = sqlite3.connect(small_project)  # a draft may be edited through raw SQL (only frozen versions are guarded)
    conn.execute("UPDATE judgments SET grade = 1, annotator = 'raw' WHERE doc_id = 'E'")
    conn.commit()
    conn.close()
    qtbot.waitUntil(lambda: listed(window)["q2"] == (1, 1), timeout=5_000)  # the window's watch timer


def texts(view) -> list[tuple[str, ...]]:
    """Everything a view holds to show: labels, buttons, fields, boxes, tables (headers and cells), charts, text
    panes, and whether each is visible in the view: what a person sees there, now or on the next click."""
    from PySide6.QtCharts import QChartView
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QLabel,
        QLineEdit,
        QTextEdit,
        QWidget,
    )

    shown: list[tuple[str, ...]] = []
    for widget in view.findChildren(QWidget):
        state = "shown" if widget.isVisibleTo(view) else "hidden"
        name = type(widget).__name__
        if isinstance(widget, QLabel | QAbstractButton | QLineEdit):
            shown.append((name, state, widget.text()))
        elif isinstance(widget, QComboBox):
            shown.append((name, state, *[widget.itemText(i) for i in range(widget.count())]))
        elif isinstance(widget, QTextEdit):
            shown.append((name, state, widget.toPlainText()))
        elif isinstance(widget, QChartView):
            shown.append((name, state, widget.chart().title()))
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            columns = range(model.columnCount())
            header = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in columns]
            cells = [str(model.index(r, c).data()) for r in range(min(model.rowCount(), 50)) for c in columns]
            shown.append((name, state, *header, *cells))
    return shown


VIEWS = ("workspace", "scores", "runs", "agreement", "team")


def view(window, name):
    return window.team.view if name == "team" else getattr(window, name)


def test_opening_another_project_leaves_nothing_of_the_last_one_in_any_view(
    window, small_project, tmp_path, data_dir, qtbot, messages
):
    """Every view after a switch holds exactly what a fresh window shows for the new project (the class of 'the
    Runs view kept the last project's check result, pair headers and chart title')."""
    from ndcg_desktop.gui.main_window import MainWindow

    from .conftest import cranfield_project

    cranfield = cranfield_project(tmp_path / "cran.ndcgproj", data_dir, {"bm25": None, "tfidf": None})
    window.resize(1280, 800)
    window.open_project(cranfield)
    runs = window.runs
    window.tabs.setCurrentWidget(runs)
    runs.inputs.ks.setText("5,10")
    runs.inputs.ks.editingFinished.emit()
    runs.inputs.check_button.click()
    qtbot.waitUntil(lambda: not runs.session.unchecked(), timeout=30_000)
    combo = runs.resolve.all_combos["unjudged"]
    combo.setCurrentIndex(combo.findData("zero"))
    runs.resolve.apply_all.click()
    runs.inputs.score_button.click()
    qtbot.waitUntil(lambda: runs.session.result is not None, timeout=60_000)
    runs.open_pair(10, "bm25", "tfidf")
    scores = window.scores
    window.tabs.setCurrentIndex(1)
    scores.inputs.check_button.click()
    qtbot.waitUntil(lambda: bool(scores.session.checks), timeout=30_000)
    window.tabs.setCurrentWidget(window.agreement)
    window.agreement.compute()
    qtbot.waitUntil(lambda: window.agreement.session.result is not None or bool(messages), timeout=30_000)
    window.open_project(small_project)
    for name in ("scores", "runs", "agreement"):
        window.tabs.setCurrentWidget(getattr(window, name) if name != "scores" else window.tabs.widget(1))
        qtbot.wait(10)
    switched = {name: texts(view(window, name)) for name in VIEWS}
    window.close_project()  # one writer at a time: the fresh window opens it now

    fresh = MainWindow()
    qtbot.addWidget(fresh)
    fresh.resize(1280, 800)
    fresh.show()
    fresh.open_project(small_project)
    for name in ("scores", "runs", "agreement"):
        fresh.tabs.setCurrentWidget(getattr(fresh, name) if name != "scores" else fresh.tabs.widget(1))
        qtbot.wait(10)
    for name in VIEWS:
        now = Counter(texts(view(fresh, name)))
        before = Counter(switched[name])
        assert (name, before - now, now - before) == (name, Counter(), Counter())  # stale, missing
    fresh.close_project()


def test_redoing_a_send_for_judging_shows_the_draft_again(window, small_project, qtbot, messages):
    """Sent from frozen v1 into a new draft: undo takes the draft away (v1 shown), redo brings it back and shows it,
    as after the first send."""
    with Project.open(small_project) as p:
        freeze_draft(p, remove_ungraded=True, annotator="tester")
    window.open_project(small_project)
    ws = window.workspace
    plan = plan_send_for_judging(window.project, "sys", 1, depth=10)
    sent = apply_send_for_judging(window.project, plan, annotator="tester")
    window._sent_for_judging(sent, "sys")
    assert (window.current_version().version, ws.session.version.version) == (2, 2)
    window.undo_stack.undo()
    assert (window.current_version().version, ws.session.version.version) == (1, 1)
    window.undo_stack.redo()
    assert [window.version_box.itemData(i) for i in range(window.version_box.count())] == [2, 1]
    assert (window.current_version().version, ws.session.version.version) == (2, 2)
    assert "X" in ws.pool.doc_ids() and listed(window) == stored(small_project, 2)
    assert (ws.session.query_id, ws.session.doc_id) == ("q1", "X")  # the draft's first ungraded item, as after the send
    assert window.progress_label.text().startswith("Pool v2:")
    shot(window, "annotate-after-redoing-a-send")
