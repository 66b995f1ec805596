"""Who is grading (tasks.identity): one answer for the window and the command line (issue 23 item 5)."""

from __future__ import annotations

import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.tasks.identity import grading_name, saved_name, stated_user
from ndcg_desktop.tasks.project import open_project


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
        log = p.audit_log()
    assert set(log["who"]) == {"ana"}  # the import is the user's; its grades are credited to the file
