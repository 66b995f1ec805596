"""tasks.guidelines: one use case sets the guidelines for every front and names where the text came from."""

from __future__ import annotations

from ndcg_desktop.formats.guidelines import guidelines_sha256
from ndcg_desktop.tasks.guidelines import GuidelinesEdit, set_guidelines
from ndcg_desktop.tasks.project import create_project

TEXT = "# Grades\n\n3: answers the question\n0: off topic\n"


def test_a_file_is_recorded_by_its_name_and_the_windows_edits_by_their_kind(tmp_path):
    with create_project(tmp_path / "p.ndcgproj", user="ana") as project:
        done = set_guidelines(project, TEXT, source=tmp_path / "sub" / "rules.md")
        assert (done.changed, done.lines, done.guidelines.sha256) == (
            True,
            len(TEXT.splitlines()),
            guidelines_sha256(TEXT),
        )
        set_guidelines(project, "other", source=GuidelinesEdit.WINDOW)
        set_guidelines(project, TEXT, source=GuidelinesEdit.UNDO)
        set_guidelines(project, "other", source=GuidelinesEdit.REDO)
        assert [(g.source, g.who) for g in project.guidelines_history()] == [
            ("file:rules.md", "ana"),
            ("window", "ana"),
            ("undo", "ana"),
            ("redo", "ana"),
        ]


def test_the_same_text_again_changes_nothing_and_says_so(tmp_path):
    with create_project(tmp_path / "p.ndcgproj", user="ana") as project:
        first = set_guidelines(project, TEXT, source=tmp_path / "rules.md")
        again = set_guidelines(project, TEXT.replace("\n", "\r\n"), source=tmp_path / "rules.md")  # the same, stored
        assert (first.changed, again.changed, again.guidelines) == (True, False, first.guidelines)
        assert len(project.guidelines_history()) == 1
