"""Who is grading (tasks.identity): one answer for the window and the command line (issue 23 item 5)."""

from __future__ import annotations

import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.tasks.grading import grade_item
from ndcg_desktop.tasks.identity import grading_name, saved_name, stated_user
from ndcg_desktop.tasks.project import create_project, open_project
from ndcg_desktop.tasks.work_files import open_to_grade


@pytest.fixture
def prefs(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("NDCG_DESKTOP_CONFIG_DIR", str(folder))
    monkeypatch.delenv("NDCG_USER", raising=False)

    def save(name: str) -> None:
        (folder / "preferences.json").write_text(json.dumps({"annotator": name}), encoding="utf-8")

    return save


def test_ndcg_user_overrides_the_saved_name_which_overrides_the_login(prefs, monkeypatch):
    assert (saved_name(), stated_user()) == ("", None)  # nobody stated a name: the login name is a default
    prefs("ana")
    assert (stated_user(), grading_name()) == ("ana", "ana")
    monkeypatch.setenv("NDCG_USER", "ben")
    assert (stated_user(), grading_name()) == ("ben", "ben")


def test_a_preferences_file_that_does_not_read_states_nothing(prefs, tmp_path):
    (tmp_path / "config" / "preferences.json").write_text("{not json", encoding="utf-8")
    assert saved_name() == "" and stated_user() is None
    (tmp_path / "config" / "preferences.json").write_text("[1, 2]", encoding="utf-8")
    assert saved_name() == ""


def test_the_command_line_credits_the_name_the_window_saved(prefs, tmp_path, write, capsys):
    prefs("ana")
    project = tmp_path / "p.ndcgproj"
    assert main(["init", str(project)]) == 0
    assert main(["import-qrels", str(project), str(write("q.txt", "q1 0 A 1\n"))]) == 0
    with open_project(project, read_only=True) as p:
        log = p.judgments.audit_log()
    assert set(log["who"]) == {"ana"}  # the import is the user's; its grades are credited to the file


def _graded_by_ana(path, write) -> None:
    """A project where ``ana`` graded q1/A directly (her rating), with q1/B left ungraded."""
    with create_project(path, user="ana") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 1\nq1 0 B -1\n"), negative_as_ungraded=True)
        grade_item(p, "q1", "A", 2, version=1)


@pytest.mark.parametrize("typed", ["Ana", "ANA", "ａｎａ", "A\u0301na"])
def test_a_stated_name_is_folded_onto_the_annotator_the_project_knows(prefs, tmp_path, write, monkeypatch, typed):
    """Handouts and merges compare names without case, accents or width; direct grading credits the same way."""
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    monkeypatch.setenv("NDCG_USER", typed)
    with open_to_grade(path) as p:
        assert p.file.user == "ana"
        grade_item(p, "q1", "B", 1, version=1)
        # one annotator beside the import's credit, not a second one spelled otherwise
        assert set(p.ratings.verified(1)["annotator"]) == {"ana", "import:q.txt"}


def test_a_name_the_project_holds_as_typed_is_kept_even_beside_a_folded_twin(prefs, tmp_path, write, monkeypatch):
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    with open_project(path, user="Ana") as p:  # an older project where both spellings rated
        grade_item(p, "q1", "B", 1, version=1)
    monkeypatch.setenv("NDCG_USER", "Ana")
    with open_to_grade(path) as p:
        assert p.file.user == "Ana"
    monkeypatch.setenv("NDCG_USER", "bob")
    with open_to_grade(path) as p:
        assert p.file.user == "bob"  # nobody the project knows: the name as stated


def test_the_command_line_credits_the_folded_name(prefs, tmp_path, write, monkeypatch):
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    monkeypatch.setenv("NDCG_USER", "ANA")
    assert main(["import-qrels", str(path), str(write("more.txt", "q2 0 C 1\n"))]) == 0
    with open_project(path, read_only=True) as p:
        log = p.judgments.audit_log()
    assert set(log["who"]) == {"ana"}
