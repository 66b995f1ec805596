"""Who is grading (tasks.identity): one answer for the window and the command line (issue 23 item 5)."""

from __future__ import annotations

import ast
import getpass
import json
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.tasks.grading import grade_item
from ndcg_desktop.tasks.identity import Opened, grading_name, open_to_grade, saved_name, stated_user
from ndcg_desktop.tasks.project import create_project, open_project


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
    with create_project(path, annotator="ana") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 1\nq1 0 B -1\n"), negative_as_ungraded=True, annotator="ana")
        grade_item(p, "q1", "A", 2, version=1, annotator="ana")


@pytest.mark.parametrize("typed", ["Ana", "ANA", "ａｎａ", "A\u0301na"])
def test_a_stated_name_is_folded_onto_the_annotator_the_project_knows(prefs, tmp_path, write, monkeypatch, typed):
    """Handouts and merges compare names without case, accents or width; direct grading credits the same way."""
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    monkeypatch.setenv("NDCG_USER", typed)
    with open_to_grade(path) as (p, annotator):
        assert annotator == "ana"
        grade_item(p, "q1", "B", 1, version=1, annotator=annotator)
        # one annotator beside the import's credit, not a second one spelled otherwise
        assert set(p.ratings.verified(1)["annotator"]) == {"ana", "import:q.txt"}


def test_a_name_the_project_holds_as_typed_is_kept_even_beside_a_folded_twin(prefs, tmp_path, write, monkeypatch):
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    with open_project(path) as p:  # an older project where both spellings rated
        grade_item(p, "q1", "B", 1, version=1, annotator="Ana")
    monkeypatch.setenv("NDCG_USER", "Ana")
    with open_to_grade(path) as (_, annotator):
        assert annotator == "Ana"
    monkeypatch.setenv("NDCG_USER", "bob")
    with open_to_grade(path) as (_, annotator):
        assert annotator == "bob"  # nobody the project knows: the name as stated


def test_the_command_line_credits_the_folded_name(prefs, tmp_path, write, monkeypatch):
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    monkeypatch.setenv("NDCG_USER", "ANA")
    assert main(["import-qrels", str(path), str(write("more.txt", "q2 0 C 1\n"))]) == 0
    with open_project(path, read_only=True) as p:
        log = p.judgments.audit_log()
    assert set(log["who"]) == {"ana"}


# -- the one decision, pinned (issue 32 item 5) ------------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parents[2] / "ndcg_desktop"


def test_the_precedence_and_the_stripping_are_the_ones_before(prefs, monkeypatch, tmp_path):
    monkeypatch.setattr(getpass, "getuser", lambda: "login-name")
    assert (stated_user(), grading_name()) == (None, "login-name")  # nothing stated: the login name
    prefs(" ana ")
    assert (saved_name(), stated_user(), grading_name()) == ("ana", "ana", "ana")  # a saved name, stripped
    monkeypatch.setenv("NDCG_USER", " ben ")
    assert (stated_user(), grading_name()) == ("ben", "ben")  # NDCG_USER first, stripped
    monkeypatch.setenv("NDCG_USER", "  ")
    assert (stated_user(), grading_name()) == ("ana", "ana")  # only spaces: not stated, the saved name counts
    prefs("")
    path = tmp_path / "p.ndcgproj"
    create_project(path, annotator="cy").close()
    with pytest.raises(InputError, match="user name"):  # only spaces and nothing saved: refused, as it was
        open_to_grade(path)


def test_a_project_is_opened_with_the_one_name_its_changes_carry(prefs, tmp_path, write, monkeypatch):
    path = tmp_path / "p.ndcgproj"
    _graded_by_ana(path, write)
    monkeypatch.setenv("NDCG_USER", "ANA")
    opened = open_to_grade(path)
    with opened as (project, annotator):
        assert isinstance(opened, Opened) and annotator == "ana"
        grade_item(project, "q1", "B", 1, version=1, annotator=annotator)
        assert project.judgments.audit_log()["who"].tolist()[-1] == "ana"


def _sources() -> list[tuple[str, ast.Module]]:
    return [
        (str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def test_only_the_identity_reads_who_the_user_is():
    """NDCG_USER and the login name are read in tasks/identity.py alone; the window's preferences read the saved
    name through it."""
    readers = set()
    for name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == "NDCG_USER":
                readers.add(name)
            if isinstance(node, ast.Attribute) and node.attr == "getuser":
                readers.add(name)
    assert readers == {"tasks/identity.py"}


def test_nothing_parks_a_name_on_the_project():
    parked = [
        f"{name}:{node.lineno}"
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and target.attr == "user"
    ]
    assert parked == []
