"""Issue 23 item 5: the window credits grades to the project's spelling of the stated name (tasks.identity)."""

from __future__ import annotations

from ndcg_desktop.tasks.grading import grade_item
from ndcg_desktop.tasks.project import open_project


def test_the_window_grades_as_the_annotator_the_project_knows(window, qtbot, small_project, monkeypatch):
    with open_project(small_project, user="ana") as p:
        grade_item(p, "q1", "C", 1, version=1)  # ana's rating
    monkeypatch.setenv("NDCG_USER", "ANA")
    assert window.open_project(small_project)
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.queries.rowCount() > 0, timeout=10_000)
    workspace.select_query_row(0)
    workspace.select_doc_row(3)  # q1/D, ungraded
    assert workspace.session.doc_id == "D"
    workspace.grade_current(2)
    with open_project(small_project, read_only=True) as p:
        ratings = p.ratings.verified(1)
    assert ratings.loc[ratings["doc_id"] == "D", "annotator"].tolist() == ["ana"]
    assert sorted(set(ratings["annotator"])) == ["ana", "import:j.qrels"]
