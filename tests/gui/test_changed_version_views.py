"""A frozen version changed on disk by another program while results from it are on screen (rule 15 in the window).

Every view forgets what it computed once the window or any task finds the change; an export proves the version
again before writing; the Runs view proves it before comparing runs it scored earlier; a version frozen meanwhile
is offered by every view. (Found by trying the window as an attacker would.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_desktop.demo import build_demo
from ndcg_desktop.tasks.freezing import freeze_draft
from tests import helpers

from .conftest import shot

SCORES_TAB, RUNS_TAB = 1, 3


@pytest.fixture
def demo(tmp_path) -> Path:
    return build_demo(tmp_path / "demo.ndcgproj")


def tamper(path: Path) -> None:
    """Another program: drop the guard trigger, set one graded item of frozen version 1 to 0, put the trigger back."""
    helpers.tamper(
        path,
        "UPDATE judgments SET grade = 0 WHERE version = 1 AND (query_id, doc_id) = "
        "(SELECT query_id, doc_id FROM judgments WHERE version = 1 AND grade > 0 ORDER BY 1, 2 LIMIT 1)",
    )


def scored(window, qtbot):
    view = window.scores
    view.check()
    qtbot.waitUntil(lambda: view.session.checked(), timeout=20_000)
    view.choices["unjudged"].setCurrentIndex(view.choices["unjudged"].findData("zero"))
    view.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=20_000)
    return view


def compared(window, qtbot):
    view = window.runs
    view.inputs.check_button.click()
    qtbot.waitUntil(lambda: not view.session.unchecked(), timeout=30_000)
    combo = view.resolve.all_combos["unjudged"]
    combo.setCurrentIndex(combo.findData("zero"))
    view.resolve.apply_all.click()
    view.inputs.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=60_000)
    return view


def test_when_the_window_refuses_a_version_every_view_forgets_its_results(window, demo, qtbot, messages, tmp_path):
    window.resize(1440, 960)
    assert window.open_project(demo)
    window.tabs.setCurrentIndex(SCORES_TAB)
    scores = scored(window, qtbot)
    window.tabs.setCurrentIndex(RUNS_TAB)
    runs = compared(window, qtbot)
    tamper(demo)
    window.refresh(version=1)  # the window proves v1 and refuses it
    assert messages and "has changed since it was frozen" in messages[-1][1]
    assert scores.session.result is None and runs.session.result is None
    assert not scores.results_panel.export_button.isEnabled() and not runs.inputs.export_button.isEnabled()
    assert scores.export(str(tmp_path / "out")) == [] and not (tmp_path / "out").exists()
    breakdown = scores.breakdown
    assert breakdown.positions.rowCount() == 0 and breakdown.missed_label.text().endswith("top K")  # no old count


def test_a_task_that_finds_the_change_clears_the_figures_on_screen(window, demo, qtbot, messages):
    assert window.open_project(demo)
    window.tabs.setCurrentIndex(SCORES_TAB)
    view = scored(window, qtbot)
    tamper(demo)
    view.score_button.click()  # the new scoring proves v1 on its worker and is refused
    qtbot.waitUntil(lambda: bool(messages), timeout=20_000)
    assert "has changed since it was frozen" in messages[-1][1]
    assert view.session.result is None and view.results_panel.headline.text() == ""
    assert not view.results_panel.export_button.isEnabled()


def test_an_export_proves_the_version_again_before_writing(window, demo, qtbot, messages, tmp_path):
    assert window.open_project(demo)
    window.tabs.setCurrentIndex(SCORES_TAB)
    view = scored(window, qtbot)
    tamper(demo)  # nothing in the window has looked since
    assert view.export(str(tmp_path / "out")) == [] and not (tmp_path / "out").exists()
    assert "has changed since it was frozen" in messages[-1][1] and view.session.result is None


def test_runs_scored_earlier_are_not_compared_again_from_a_changed_version(window, demo, qtbot, messages):
    window.resize(1440, 960)
    assert window.open_project(demo)
    window.tabs.setCurrentIndex(RUNS_TAB)
    view = compared(window, qtbot)
    tamper(demo)
    view.session.set_baseline("bm25")  # the result goes; the runs' scores stay cached
    view.inputs.score_button.click()
    qtbot.waitUntil(lambda: bool(messages), timeout=30_000)
    assert "has changed since it was frozen" in messages[-1][1] and view.session.result is None


def test_a_version_frozen_meanwhile_is_offered_by_the_runs_view(window, demo):
    assert window.open_project(demo)
    frozen = freeze_draft(window.project, remove_ungraded=True, annotator="tester")
    window.refresh(version=frozen.version)
    box = window.runs.inputs.version_box
    assert [box.itemData(i) for i in range(box.count())] == [2, 1]


def test_a_version_frozen_meanwhile_is_preselected_by_scores_and_runs(window, demo, qtbot):
    """Issue 36: both views kept v1 chosen until the project was reopened; a choice made meanwhile is kept."""
    assert window.open_project(demo)
    scores, runs = window.scores, window.runs
    assert (scores.version_box.currentData(), runs.inputs.version_box.currentData()) == (1, 1)
    freeze_draft(window.project, remove_ungraded=True, annotator="tester")
    window.refresh(version=2)
    assert (scores.version_box.currentData(), runs.inputs.version_box.currentData()) == (2, 2)
    assert (scores.session.pool_version, runs.session.pool_version) == (2, 2)
    window.tabs.setCurrentIndex(SCORES_TAB)
    window.resize(1280, 800)
    shot(window, "scores_preselects_the_new_version")


def test_choosing_a_run_to_compare_with_keeps_the_unjudged_choice(window, demo, qtbot):
    assert window.open_project(demo)
    view = scored(window, qtbot)
    other = next(i for i in range(view.compare_box.count()) if view.compare_box.itemData(i) is not None)
    view.compare_box.setCurrentIndex(other)
    assert view.session.other_run == view.compare_box.itemData(other)
    assert view.session.choices["unjudged"] == "zero"
    assert view.choices["unjudged"].currentData() == "zero"
