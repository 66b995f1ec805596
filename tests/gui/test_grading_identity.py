"""Issue 23 item 5: the window credits grades to the project's spelling of the stated name (tasks.identity)."""

from __future__ import annotations

from ndcg_desktop.tasks.grading import grade_item
from ndcg_desktop.tasks.project import open_project


def test_the_window_grades_as_the_annotator_the_project_knows(window, qtbot, small_project, monkeypatch):
    with open_project(small_project) as p:
        grade_item(p, "q1", "C", 1, version=1, annotator="ana")  # ana's rating
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


def test_the_windows_preferences_read_the_annotator_as_the_command_line_does(tmp_path, monkeypatch):
    """Issue 32 item 5: one reading of the saved name (tasks.identity), stripped, for the window too."""
    import json

    from ndcg_desktop.gui.preferences import Preferences
    from ndcg_desktop.tasks.identity import saved_name

    monkeypatch.setenv("NDCG_DESKTOP_CONFIG_DIR", str(tmp_path))
    (tmp_path / "preferences.json").write_text(json.dumps({"annotator": " ana ", "theme": "dark"}), encoding="utf-8")
    assert Preferences.load().annotator == saved_name() == "ana"
    assert Preferences.load().theme == "dark"


def test_the_undo_commands_keep_only_what_they_use():
    """Issue 32 item 7: the grade and note commands undo through what the write took; no earlier value is kept."""
    import inspect

    from ndcg_desktop.gui.commands import SetGradeCommand, SetNoteCommand

    assert "old" not in inspect.signature(SetGradeCommand.__init__).parameters
    assert "old" not in inspect.signature(SetNoteCommand.__init__).parameters


def test_a_key_press_is_credited_to_the_name_the_window_opened_the_project_with(
    window, qtbot, small_project, monkeypatch
):
    """The name is decided when the project opens and held by the window's sessions: changing NDCG_USER afterwards
    changes nothing (it was read once), and the audit row names the opener."""
    monkeypatch.setenv("NDCG_USER", "zoe")
    assert window.open_project(small_project)
    monkeypatch.setenv("NDCG_USER", "someone-later")
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.queries.rowCount() > 0, timeout=10_000)
    workspace.select_query_row(0)
    workspace.select_doc_row(3)
    workspace.grade_current(2)
    assert window.slot.annotator == workspace.session.annotator == "zoe"
    with open_project(small_project, read_only=True) as p:
        assert p.judgments.audit_log()["who"].tolist()[-1] == "zoe"
