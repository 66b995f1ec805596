"""A grade given in Annotate reaches every view computed from the draft's ratings: the Agreement view's result and
the Adjudicate tab's list are computed again, never shown as if they still held (found by trying the window as an
attacker would: both kept the counts from before the grade)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from ndcg_desktop.demo import build_demo
from ndcg_desktop.tasks.adjudication import disagreements

ADJUDICATE_TAB = 4


@pytest.fixture
def demo(tmp_path):
    return build_demo(tmp_path / "demo.ndcgproj")


def regrade_first_item(window, qtbot, messages) -> None:
    """As the window's user (not the demo's annotators): grade the first item of the first query differently."""
    messages.answer = QMessageBox.StandardButton.Yes  # "Replace that grade with yours?"
    window.tabs.setCurrentIndex(0)
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.queries.rowCount() > 0, timeout=10_000)
    workspace.select_query_row(0)
    workspace.select_doc_row(0)
    old = workspace.pool.grade(workspace.pool.row_of(workspace.session.doc_id))
    workspace.grade_current(3 if old != 3 else 0)
    qtbot.wait(50)


def test_the_agreement_on_the_draft_goes_when_a_grade_is_given(window, demo, qtbot, messages):
    assert window.open_project(demo)
    view = window.agreement
    view.compute()  # the draft, v2
    qtbot.waitUntil(lambda: view.result is not None, timeout=30_000)
    assert view.result.version.version == 2
    regrade_first_item(window, qtbot, messages)
    assert view.result is None  # computed again on request, from the ratings as they are now


def test_the_items_to_adjudicate_are_listed_again_after_a_grade(window, demo, qtbot, messages):
    assert window.open_project(demo)
    window.tabs.setCurrentIndex(ADJUDICATE_TAB)
    view = window.team.view
    qtbot.waitUntil(lambda: view.found is not None, timeout=20_000)
    before = len(view.found.items)
    regrade_first_item(window, qtbot, messages)
    window.tabs.setCurrentIndex(ADJUDICATE_TAB)
    expected = len(disagreements(window.project).items)
    assert expected != before  # the grade made a disagreement: the check can fail
    qtbot.waitUntil(lambda: view.found is not None and len(view.found.items) == expected, timeout=20_000)


def test_the_agreement_views_captions_go_with_its_result(window, demo, qtbot, messages):
    assert window.open_project(demo)
    view = window.agreement
    window.tabs.setCurrentIndex(2)
    view.compute()
    qtbot.waitUntil(lambda: view.result is not None, timeout=30_000)
    assert view.matrix_caption.text().startswith("Rows: ")  # the check can fail: there was a caption
    assert view.systems_note.text() != ""
    regrade_first_item(window, qtbot, messages)
    assert view.result is None
    assert (view.matrix_caption.text(), view.systems_note.text(), view.systems_note.toolTip()) == ("", "", "")
    assert view.pair_box.count() == 0 and view.pairs.rowCount() == 0


def test_the_adjudicate_detail_pane_shows_the_selected_items_ratings_as_they_are_now(window, demo, qtbot, messages):
    assert window.open_project(demo)
    regrade_first_item(window, qtbot, messages)  # the window's user (tester) now disagrees on one item
    window.tabs.setCurrentIndex(ADJUDICATE_TAB)
    view = window.team.view
    qtbot.waitUntil(lambda: view.found is not None and len(view.found.items) > 0, timeout=20_000)
    mine = view.found.ratings[view.found.ratings["annotator"] == "tester"].iloc[0]
    q, d = str(mine["query_id"]), str(mine["doc_id"])
    items = view.found.items
    row = items.index.get_loc(items.index[(items["query_id"] == q) & (items["doc_id"] == d)][0])
    view.table.setCurrentIndex(view.proxy.mapFromSource(view.model.index(row, 0)))
    assert f"tester: {int(mine['grade'])}" in view.detail.toPlainText()
    theirs = view.found.ratings[(view.found.ratings["doc_id"] == d) & (view.found.ratings["annotator"] != "tester")]
    new = min(set(range(4)) - {int(mine["grade"]), *theirs["grade"].astype(int)})  # still a disagreement
    window.project.judgments.set_grade(q, d, new, version=view.found.version, annotator="tester")
    view.changed.emit()  # as every write in the window does
    assert view.detail.toPlainText() == ""  # not shown beside a list being computed again
    qtbot.waitUntil(lambda: view.found is not None and view._selected() is not None, timeout=20_000)
    assert (str(view._selected()["query_id"]), str(view._selected()["doc_id"])) == (q, d)  # still selected
    assert f"tester: {new}" in view.detail.toPlainText()  # from the ratings as they are now
