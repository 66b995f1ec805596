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
    old = workspace.pool.grade(workspace.pool.row_of(workspace.current_doc()))
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
