"""Judging as a team in the window (issue 15): Pool ▸ Assign work…, Pool ▸ Merge returned work…, Adjudicate."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from ndcg_desktop.gui.team import AssignDialog
from ndcg_desktop.sessions.team import AssignChoices
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.adjudication import disagreements
from ndcg_desktop.tasks.pooling import pool_from_runs
from ndcg_desktop.tasks.teams import plan_summary, read_work_file
from tests.helpers import raw_sql as write_elsewhere

from .conftest import shot

COLUMNS = ["query_id", "doc_id", "annotator", "grade", "note", "rated_at"]


@pytest.fixture
def team_project(tmp_path) -> Path:
    """Six queries of four documents each, ungraded, with texts; run sys returns every query's pool."""
    path = tmp_path / "team.ndcgproj"
    (tmp_path / "q.tsv").write_text("".join(f"q{i}\tquery about topic {i}\n" for i in range(6)))
    (tmp_path / "d.jsonl").write_text(
        "".join(f'{{"doc_id": "D{j}", "title": "Document {j}", "text": "Text of document {j}."}}\n' for j in range(24))
    )
    (tmp_path / "r.run").write_text(
        "".join(f"q{i} Q0 D{4 * i + k} {k + 1} {10 - k} sys\n" for i in range(6) for k in range(4))
    )
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "q.tsv")
        p.texts.import_documents(tmp_path / "d.jsonl")
        p.runs.import_run(tmp_path / "r.run", name="sys", annotator="tester")
        pool_from_runs(p, ["sys"], 4, annotator="tester")
    return path


def test_the_assign_dialog_shows_the_plan_before_writing(qtbot, qtmodeltester, tmp_path):
    sizes = pd.Series({f"q{i}": 4 for i in range(6)})
    dialog = AssignDialog(sizes, str(tmp_path / "work"), known=("ana", "ben", "chen"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtmodeltester.check(dialog.model)
    expected = plan_summary(sizes, ["ana", "ben", "chen"], overlap=0.2, seed=0)
    model = dialog.model
    shown = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    assert shown == [[a, str(q), str(s), str(i)] for a, q, s, i in expected.itertuples(index=False)]
    assert dialog.ok.isEnabled()
    dialog.names.setText("ana, ../ben")
    assert not dialog.ok.isEnabled() and "cannot name a work file" in dialog.problem.text()
    dialog.names.setText("ana, ben, chen")
    dialog.overlap.setValue(50)
    assert dialog.values() == AssignChoices(
        annotators=("ana", "ben", "chen"), out_dir=str(tmp_path / "work"), overlap=0.5, per_query=2, seed=0
    )
    shot(dialog, "team_assign")


def test_the_assign_dialog_offers_no_invented_names(qtbot, tmp_path):
    """Issue 36: "ana, ben, chen" stood in the field as real text in a project without such annotators."""
    dialog = AssignDialog(pd.Series({"q1": 4}), str(tmp_path / "work"))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.names.text() == "" and dialog.names.placeholderText() != ""
    assert dialog.values().annotators == () and not dialog.ok.isEnabled()
    assert dialog.problem.text() == "Name the annotators, separated by commas."
    assert dialog.model.rowCount() == 0
    shot(dialog, "team_assign_empty")
    known = AssignDialog(pd.Series({"q1": 4}), str(tmp_path / "work"), known=("ana", "tester"))
    qtbot.addWidget(known)
    assert known.names.text() == "ana, tester" and known.ok.isEnabled()


def test_assign_merge_and_adjudicate_from_the_window(window, team_project, tmp_path, qtbot, monkeypatch, messages):
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    assert sorted(path.stem for path in (tmp_path / "work").glob("*.ndcgproj")) == ["ana", "ben", "chen"]
    # 6 queries, round(0.5 * 6) = 3 shared by two annotators who always differ: 12 open items
    assert "12 items rated differently wait in the Adjudicate view" in messages[-1][1]

    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 12, timeout=20000)
    expected = disagreements(window.project, k=10).items
    first = view.proxy.index(0, 0)
    assert first.data() == f"{expected['swing'].iloc[0]:.4f}"
    view.table.setCurrentIndex(first)
    assert "query about topic" in view.detail.toPlainText()
    q, d = expected["query_id"].iloc[0], expected["doc_id"].iloc[0]
    view.pick_selected(2)
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 11, timeout=20000)
    assert window.project.pools.pool_items(1).set_index(["query_id", "doc_id"]).loc[(q, d), "grade"] == 2
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 12, timeout=20000)
    view.rule.setCurrentIndex(view.rule.findData("lowest"))
    view.apply_button.click()
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 0, timeout=20000)
    assert window.project.ratings.settled_items(1)["how"].tolist() == ["lowest"] * 12
    window.resize(1200, 720)
    view.table.setCurrentIndex(view.proxy.index(0, 0))
    shot(window, "team_adjudicate")
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 12, timeout=20000)


def merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages):
    """Three work files (ana grades 1, ben 2, chen 3, half the queries shared) merged into the open project."""
    window.open_project(team_project)
    folder = tmp_path / "work"

    def accept(dialog):
        dialog.names.setText("ana, ben, chen")  # a new team: the project knows no one yet
        dialog.folder.setText(str(folder))
        dialog.overlap.setValue(50)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(AssignDialog, "exec", accept)
    window.team.assign_action.trigger()
    qtbot.waitUntil(lambda: any("work files for draft v1" in text for _, text in messages), timeout=20000)
    files = sorted(folder.glob("*.ndcgproj"))
    for path in files:
        _, items, _ = read_work_file(path)
        with Project.open(path) as work:
            for q, d in items[["query_id", "doc_id"]].itertuples(index=False):
                work.judgments.set_grade(q, d, {"ana": 1, "ben": 2, "chen": 3}[path.stem], annotator=path.stem)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(f) for f in files], ""))
    window.team.merge_action.trigger()
    qtbot.waitUntil(lambda: any("wait in the Adjudicate view" in text for _, text in messages), timeout=20000)


def test_digit_keys_in_adjudicate_pick_the_grade_of_the_selected_item(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 12, timeout=20000)
    view.table.setFocus()
    index = view.proxy.index(3, 0)
    view.table.setCurrentIndex(index)
    item = view._selected()
    q, d = str(item["query_id"]), str(item["doc_id"])
    qtbot.keyClick(view.table, Qt.Key.Key_2)  # a grade, never the table's search for a document starting with 2
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 11, timeout=20000)
    assert window.project.pools.pool_items(1).set_index(["query_id", "doc_id"]).loc[(q, d), "grade"] == 2
    qtbot.keyClick(view.table, Qt.Key.Key_7)  # not on the 0..3 scale: nothing, and the status bar says why
    assert view.found.open == 11 and window.undo_stack.count() == 1
    assert window.statusBar().currentMessage() == "7 is not a grade here: this draft's grades run from 0 to 3."


def test_items_awaiting_adjudication_are_marked_in_annotate_and_not_graded_there(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    open_items = disagreements(window.project, k=10).items
    q, d = str(open_items["query_id"].iloc[0]), str(open_items["doc_id"].iloc[0])
    ws = window.workspace
    window.tabs.setCurrentWidget(ws)
    ws.select_query_row(ws.query_proxy.mapFromSource(ws.queries.index(ws.queries.row_of(q), 0)).row())
    row = ws.pool.row_of(d)
    shown = ws.pool_proxy.mapFromSource(ws.pool.index(row, 2))
    assert shown.data() == "awaiting adjudication"
    assert "Adjudicate tab" in shown.data(Qt.ItemDataRole.ToolTipRole)
    ws.select_doc_row(shown.row())
    qtbot.keyClick(ws.pool_view, Qt.Key.Key_1)
    assert window.statusBar().currentMessage().startswith(f"{d} awaits adjudication")
    assert pd.isna(window.project.pools.pool_items(1, q).set_index("doc_id").loc[d, "grade"])
    assert ws.session.doc_id == d  # it stays: the key did nothing


def test_the_window_grades_in_a_work_file_as_its_annotator_and_says_so(
    window, team_project, tmp_path, monkeypatch, messages
):
    """Issue 24 item 3: bob's work file opened by a window whose user is not stated is graded as bob; a window whose
    user is alice is refused it (tasks.identity.annotator decides for both fronts)."""
    from ndcg_desktop.tasks.teams import assign_work

    monkeypatch.delenv("NDCG_USER", raising=False)
    with Project.open(team_project) as project:
        files = assign_work(project, ["bob"], tmp_path / "work", overlap=0.0).files
    window.prefs.annotator = ""
    window.prefs.save()  # the saved name is the command line's too (tasks.identity)
    assert window.open_project(files["bob"])
    assert window.project is not None and window.slot.annotator == "bob"
    handed = read_work_file(files["bob"])[0].assigned_at[:10]  # the banner the issue asks for: who, for what, when
    assert window.grader_label.text() == f"Grading as bob for team.ndcgproj, handed out {handed}"
    window.close_project()
    assert window.grader_label.text() == ""
    window.prefs.annotator = "alice"
    window.prefs.save()
    before = files["bob"].read_bytes()
    assert not window.open_project(files["bob"])
    assert window.project is None
    assert [text for _, text in messages][-1].startswith(
        f"{files['bob']}: is a work file handed to bob, and you are alice"
    )
    assert files["bob"].read_bytes() == before


def test_a_query_whose_open_items_all_await_adjudication_is_not_one_to_grade(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    """Found by a new user: such queries read "to grade", and N took the annotator there to regrade a graded item."""
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    disputed = set(disagreements(window.project, k=10).items["query_id"])
    ws = window.workspace
    window.tabs.setCurrentWidget(ws)
    states = {ws.queries.query_id(r): ws.queries.index(r, 2).data() for r in range(ws.queries.rowCount())}
    assert {q for q, state in states.items() if state == "awaiting adjudication"} == disputed
    assert all(ws.queries.ungraded(r) == 0 for r in range(ws.queries.rowCount()))
    ws.next_query_with_ungraded()
    waiting = disagreements(window.project, k=10).open
    assert window.statusBar().currentMessage() == (
        f"No query has documents left to grade here; {waiting} await adjudication in the Adjudicate tab."
    )


def test_the_freeze_dialog_says_items_await_adjudication_and_offers_no_way_that_is_refused(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    """Found by a new user: it offered to remove the ungraded items, and only then the freeze was refused."""
    from ndcg_desktop.gui.pools import dialogs

    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    seen = {}

    def look(dialog):
        seen["ok"], seen["remove"] = dialog.ok.isEnabled(), dialog.remove.isVisibleTo(dialog)
        seen["texts"] = [label.text() for label in dialog.findChildren(dialogs.QLabel)]
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(dialogs.FreezeDialog, "exec", look)
    window.freeze()
    open_items = disagreements(window.project, k=10).open
    assert (seen["ok"], seen["remove"]) == (False, False)
    assert f"{open_items} of them: settle them in the Adjudicate tab first" in seen["texts"]


def test_the_adjudicate_grade_column_and_the_ratings_show_each_grade_with_its_label(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    """Found with issue 23: the Grade column said "2" where Annotate says "2 · Highly relevant"."""
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 12, timeout=20000)
    labels = window.project.pools.version(1).labels  # the draft's own labels, 0..3
    view.table.setCurrentIndex(view.proxy.index(0, 0))
    item = view._selected()
    q, d = str(item["query_id"]), str(item["doc_id"])
    view.pick_selected(2)
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 11, timeout=20000)
    grade_column = [c for c, (_h, field, _f) in enumerate(view.model.columns) if field == "grade_text"][0]
    shown = {
        (view.proxy.index(r, 1).data(), view.proxy.index(r, 2).data()): view.proxy.index(r, grade_column).data()
        for r in range(view.proxy.rowCount())
    }
    assert shown[(q, d)] == f"2 · {labels[2]}"
    assert sorted(set(shown.values()) - {f"2 · {labels[2]}"}) == ["open"]
    view.table.setCurrentIndex(view.proxy.index([*shown].index((q, d)), 0))
    ratings = window.project.ratings.verified(1)
    mine = ratings[(ratings["query_id"] == q) & (ratings["doc_id"] == d)]
    rated = dict(zip(mine["annotator"], mine["grade"], strict=True))
    for annotator, grade in rated.items():  # each annotator's grade in the detail pane, labelled too
        assert f"{annotator}: {grade} · {labels[grade]}" in view.detail.toPlainText()
    # The Ratings summary column and the undo step name grades the same way (issue 23 item 4).
    ratings_column = [c for c, (_h, field, _f) in enumerate(view.model.columns) if field == "ratings"][0]
    row = [*shown].index((q, d))
    assert view.proxy.index(row, ratings_column).data() == ", ".join(
        f"{a} {g} · {labels[g]}" for a, g in sorted(rated.items())
    )
    assert window.undo_stack.undoText() == f"Adjudicate {d} as 2 · {labels[2]} for {q}"
    view.table.resizeColumnsToContents()
    view.grab().save("/tmp/shots/T7_adjudicate_ratings_labelled.png")
    window.resize(1200, 720)
    view.grab().save("/tmp/shots/T3_adjudicate_labels.png")


def test_a_rating_written_by_another_connection_reaches_adjudicate(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 12, timeout=20_000)
    item = disagreements(window.project, k=10).items.iloc[0]
    q, d = str(item["query_id"]), str(item["doc_id"])
    # the second annotator now agrees with the first on that item: it no longer differs
    write_elsewhere(
        team_project,
        "UPDATE ratings SET grade = (SELECT min(grade) FROM ratings r WHERE r.query_id = ratings.query_id AND "
        f"r.doc_id = ratings.doc_id AND r.version = ratings.version) WHERE query_id = '{q}' AND doc_id = '{d}'",
    )
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 11, timeout=20_000)
    shown = {(view.proxy.index(r, 1).data(), view.proxy.index(r, 2).data()) for r in range(view.proxy.rowCount())}
    assert (q, d) not in shown


def test_a_pick_moves_to_the_next_open_item_as_a_grade_does_in_annotate(
    window, team_project, tmp_path, qtbot, monkeypatch, messages
):
    merged_team(window, team_project, tmp_path, qtbot, monkeypatch, messages)
    view = window.team.view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None and view.model.rowCount() == 12, timeout=20_000)
    order = disagreements(window.project, k=10).items[["query_id", "doc_id"]].values.tolist()  # swing first
    view.table.setCurrentIndex(view.proxy.index(0, 0))
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 11, timeout=20_000)
    item = view._selected()
    assert [item["query_id"], item["doc_id"]] == order[1]
    current = view.table.currentIndex()  # and the table shows it selected (the list computed again since)
    assert [view.proxy.index(current.row(), c).data() for c in (1, 2)] == order[1]
    window.undo_stack.undo()  # the pick is taken back; the place stays where the adjudicator is
    qtbot.waitUntil(lambda: view.found is not None and view.found.open == 12, timeout=20_000)
    assert [view._selected()["query_id"], view._selected()["doc_id"]] == order[1]
