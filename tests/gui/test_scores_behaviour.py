"""Issue 10's defects of the Scores view, one test each: nothing stale, nothing unchecked, nothing silent."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

from ndcg_desktop.domain import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.runs import RunRepository
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot
from .test_workspace_plain_text import red_pixels, red_png  # noqa: F401 - red_png is a fixture

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\n"
RUN = "q1 Q0 B 1 2.0 s\nq1 Q0 X 2 1.5 s\nq1 Q0 C 3 1.0 s\nq2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\n"
OTHER = "q1 Q0 A 1 3.0 s\nq1 Q0 B 2 2.0 s\nq1 Q0 A 3 1.0 s\nq2 Q0 E 1 1.0 s\n"  # A twice: a duplicate


def make_project(folder, name="p", *, runs=(("sys", RUN), ("other", OTHER)), freeze=True):
    folder.mkdir(exist_ok=True)
    (folder / "q.txt").write_text(QRELS)
    (folder / "queries.tsv").write_text("q1\tfirst query\nq2\tsecond query\n")
    path = folder / f"{name}.ndcgproj"
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(folder / "queries.tsv")
        p.judgments.import_qrels(folder / "q.txt", annotator="tester")
        if freeze:
            freeze_draft(p, annotator="tester")
        for i, (run_name, text) in enumerate(runs):
            (folder / f"run{i}.run").write_text(text)
            p.runs.import_run(folder / f"run{i}.run", name=run_name, annotator="tester")
    return path


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))


def check_and_score(view, qtbot, **choices):
    view.check()
    qtbot.waitUntil(lambda: view.session.checked(), timeout=10_000)
    for group, value in choices.items():
        choose(view.choices[group], value)
    assert view.score_button.isEnabled(), view.missing_label.text()
    view.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=10_000)


def assert_scores_empty(view):
    panel = view.results_panel
    assert panel.results.rowCount() == 0 and panel.owner.text() == "" and panel.headline.text() == ""
    assert not panel.export_button.isEnabled()
    assert view.breakdown.positions.rowCount() == 0 and view.comparison_panel.comparison.rowCount() == 0
    assert view.session.choices == {"unjudged": None, "duplicates": None, "unknown_queries": None, "queries": "pool"}
    assert view.resolve.flag_details.rowCount() == 0 and not view.score_button.isEnabled()


def test_opening_or_creating_a_project_resets_both_tabs_in_both_directions(window, tmp_path, qtbot):
    scored = make_project(tmp_path / "a", "scored")
    bare = tmp_path / "b" / "bare.ndcgproj"
    bare.parent.mkdir()
    (bare.parent / "queries.tsv").write_text("n1\tnew query\n")
    with Project.create(bare, annotator="tester") as p:
        p.texts.import_topics(bare.parent / "queries.tsv")
    window.open_project(scored)
    view = window.scores
    check_and_score(view, qtbot, unjudged="zero")
    assert window.workspace.banner.isVisibleTo(window.workspace)  # "Frozen: pool version 1 …"
    # Scored project -> a project with queries and no pool.
    window.open_project(bare)
    assert_scores_empty(view)
    assert view.run_box.count() == 0 and view.version_box.count() == 0
    assert view.history.model.rowCount() == 0
    workspace = window.workspace
    assert not workspace.banner.isVisibleTo(workspace) and workspace.grade_buttons.buttons() == []
    assert [b.text() for b in workspace.grade_bar.findChildren(QPushButton) if b.isVisibleTo(workspace)] == []
    assert workspace.queries.rowCount() == 1 and workspace.queries.query_id(0) == "n1"
    assert (
        workspace.query_label.text() == "No pool yet: import judgments (File ▸ Import judgments) or build one from runs"
    )
    shot(window, "scores_after_switch_bare")
    # And back: the scored project's tab comes up unchecked and unscored, its draft-free pool frozen.
    window.open_project(scored)
    assert_scores_empty(view)
    assert view.run_box.currentData() == "sys" and view.version_box.currentData() == 1
    assert workspace.banner.isVisibleTo(workspace) and len(workspace.grade_buttons.buttons()) == 4
    assert view.history.model.rowCount() == 1  # its own saved evaluation, not the other project's
    window.tabs.setCurrentIndex(1)
    window.resize(1280, 800)
    qtbot.wait(30)
    shot(window, "scores_after_switch")


def test_choices_start_unset_for_every_run_and_version_pair(window, tmp_path, qtbot):
    first = make_project(tmp_path / "a", "first")
    second = make_project(tmp_path / "b", "second")
    window.open_project(first)
    view = window.scores
    check_and_score(view, qtbot, unjudged="zero")
    window.open_project(second)  # before: "count as non-relevant" came up already chosen
    assert view.choices["unjudged"].currentData() is None
    choose(view.choices["unjudged"], "send")
    window.open_project(first)  # before: "send for judging" came up chosen
    assert view.choices["unjudged"].currentData() is None and view.session.choices["unjudged"] is None
    # The first project scored sys against v1 with "zero": offered, not applied.
    assert view.resolve.suggestion_label.isVisibleTo(view) and view.resolve.suggestion_button.isVisibleTo(view)
    assert view.resolve.suggestion_label.text().startswith("Last time sys was scored against this version:")
    view.resolve.suggestion_button.click()  # the user confirms it
    assert view.choices["unjudged"].currentData() == "zero"
    choose(view.run_box, "other")  # another pair: unset again
    assert view.choices["unjudged"].currentData() is None


def test_changing_the_run_clears_the_old_results(window, tmp_path, qtbot):
    window.open_project(make_project(tmp_path / "a"))
    view = window.scores
    check_and_score(view, qtbot, unjudged="zero")
    assert view.results_panel.results.rowCount() == 2
    choose(view.run_box, "other")
    assert_scores_empty(view)
    assert view.report is None and view.resolve.found["unjudged"].text() == "—"


def test_the_comparison_run_is_checked_and_no_message_names_a_command_line_option(window, tmp_path, qtbot, messages):
    window.open_project(make_project(tmp_path / "a"))
    view = window.scores
    choose(view.compare_box, "other")
    view.check()
    qtbot.waitUntil(lambda: view.session.checked(), timeout=10_000)
    choose(view.choices["unjudged"], "zero")
    # sys has no duplicate, other has one (A twice): before, "Ready to score" then "choose --duplicates first".
    assert view.resolve.found["duplicates"].text() == "sys: 0 · other: 1"
    assert view.missing_label.text() == "Before scoring: Duplicate documents (other: 1) need a choice."
    assert not view.score_button.isEnabled()
    choose(view.choices["duplicates"], "first")
    view.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=10_000)
    assert view.session.result.second.evaluation.settings.policies.duplicates.value == "first"
    # Errors reach the window without the command line's hints: a draft cannot be frozen with ungraded items.
    window.project.pools.new_draft_from(1, annotator="tester")
    window.project.judgments.add_items(
        __import__("pandas").DataFrame({"query_id": ["q1"], "doc_id": ["Z"]}), annotator="tester"
    )
    from ndcg_desktop.gui import tasks as gui_tasks

    failed = []
    gui_tasks.run_with_progress(
        window, "x", lambda **_: freeze_draft(window.project, annotator="tester"), print, failed.append
    )
    qtbot.waitUntil(lambda: bool(failed), timeout=10_000)
    texts = [text for _, text in messages] + failed + [view.missing_label.text()]
    assert [t for t in texts if "--" in t or "ndcg " in t] == []
    assert failed[0].startswith(f"{window.project.path}: draft version 2 has 1 ungraded item")


def test_history_lists_saved_evaluations_and_reopens_one(window, tmp_path, qtbot):
    window.open_project(make_project(tmp_path / "a"))
    view = window.scores
    view.k.setValue(2)
    check_and_score(view, qtbot, unjudged="condense")
    mean_at_2 = view.evaluation.summary["mean_ndcg"]
    view.k.setValue(3)
    check_and_score(view, qtbot, unjudged="zero")
    history = view.history
    assert history.model.rowCount() == 2
    newest_first = [history.model.value(r, "run_name") + " " + history.model.value(r, "mean_ndcg") for r in range(2)]
    assert newest_first[0].startswith("sys ") and newest_first[1] == f"sys {mean_at_2:.4f}"
    assert history.model.value(1, "settings_text").startswith("nDCG@2, linear gain, log2 discount, unjudged: condense")
    history.view.selectRow(history.proxy.mapFromSource(history.model.index(1, 0)).row())
    history.reopen_selected()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=10_000)
    assert (view.k.value(), view.choices["unjudged"].currentData()) == (2, "condense")
    assert view.evaluation.summary["mean_ndcg"] == mean_at_2


def test_user_data_in_the_scores_view_is_plain_text(window, tmp_path, qtbot, red_png, messages):  # noqa: F811
    name = f'<img src="{red_png.as_uri()}">'
    path = make_project(tmp_path / "a", runs=((name, RUN), ("<b>other</b>", OTHER)))
    window.open_project(path)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    choose(view.compare_box, "<b>other</b>")
    check_and_score(view, qtbot, unjudged="zero", duplicates="first")
    view.lower_tabs.setCurrentIndex(1)
    window.resize(1440, 960)
    qtbot.wait(30)
    assert view.results_panel.owner.text().startswith(f"{name} against pool v1")
    assert view.resolve.found["duplicates"].text() == f"{name}: 0 · <b>other</b>: 1"
    assert red_pixels(window) == 0
    view.lower_tabs.setCurrentIndex(2)
    assert red_pixels(window) == 0
    # Sending its unjudged documents names the run in the preview and in the message that follows.
    choose(view.compare_box, None)
    view.check()
    qtbot.waitUntil(lambda: view.session.checked(), timeout=10_000)
    choose(view.choices["unjudged"], "send")
    dialog = view.send_for_judging()
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=10_000)
    assert dialog.summary.text().startswith(f"2 documents of {name} in 2 queries")
    assert red_pixels(dialog) == 0
    dialog.add_button.click()
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages[-1][1].startswith(f"2 documents of {name} await grading")
    assert messages.boxes[-1].textFormat() == Qt.TextFormat.PlainText


def test_discard_draft_asks_first_and_runs_in_the_background(window, tmp_path, qtbot, messages, monkeypatch):
    window.open_project(make_project(tmp_path / "a"))
    window.project.pools.new_draft_from(1, annotator="tester")
    window.refresh()
    editor = window.pool_editor
    assert editor.discard_action.isEnabled()
    editor.discard_draft()  # the recorded box answers Ok: neither Discard nor Cancel, so nothing happens
    assert messages[-1][0] == "question"
    assert messages[-1][1].startswith("Discard draft pool v2?")
    assert window.project.pools.draft() is not None
    threads = []
    from ndcg_desktop.sessions import pool_edit as pool_editing  # the editor's session runs the discard

    real = pool_editing.discard
    monkeypatch.setattr(
        pool_editing, "discard", lambda p, plan, **kw: threads.append(threading.current_thread()) or real(p, plan, **kw)
    )
    messages.answer = QMessageBox.StandardButton.Discard
    editor.discard_draft()
    qtbot.waitUntil(lambda: window.project.pools.draft() is None, timeout=10_000)
    assert threads and threads[0] is not threading.main_thread()
    qtbot.waitUntil(lambda: window.version_box.count() == 1, timeout=10_000)
    assert not editor.discard_action.isEnabled()


@pytest.mark.parametrize("scale", [GradeScale(0, 3)])
def test_freeze_runs_in_the_background(window, tmp_path, qtbot, monkeypatch, scale, messages):
    window.open_project(make_project(tmp_path / "a", freeze=False))
    from ndcg_desktop.gui.project import actions
    from ndcg_desktop.tasks import project as project_tasks

    threads = []
    real = project_tasks.freeze_draft
    monkeypatch.setattr(
        project_tasks,
        "freeze_draft",
        lambda project, **kw: threads.append(threading.current_thread()) or real(project, **kw),
    )
    monkeypatch.setattr(actions.FreezeDialog, "exec", lambda self: actions.QDialog.DialogCode.Accepted)
    window.freeze()
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert threads and threads[0] is not threading.main_thread()
    assert messages[-1][1].startswith("Pool version 1 is frozen.")
    assert window.scores.version_box.currentData() == 1  # the Scores view learned of it


def test_scores_whose_record_fails_are_shown_and_the_failure_said(window, tmp_path, qtbot, messages, monkeypatch):
    """Another program holding the write lock stops the record, not the scores (and the window says so)."""
    from ndcg_desktop.store import ProjectBusy

    window.open_project(make_project(tmp_path / "a"))
    view = window.scores

    def busy(*_args, **_kwargs):
        raise ProjectBusy("another program is writing to the project file", path=window.project.path)

    monkeypatch.setattr(RunRepository, "save_evaluation", busy)
    check_and_score(view, qtbot, unjudged="zero")
    assert view.session.result.first.evaluation_id is None
    assert view.results_panel.results.rowCount() == 2
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages[-1][1] == (
        "The scores are shown but not recorded in the project: "
        f"{window.project.path}: another program is writing to the project file"
    )
