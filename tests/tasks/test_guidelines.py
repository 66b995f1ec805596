"""tasks.guidelines: one use case sets the guidelines for every front and names where the text came from."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.guidelines import MAX_GUIDELINES_BYTES, guidelines_sha256
from ndcg_desktop.tasks.guidelines import GuidelinesEdit, set_guidelines
from ndcg_desktop.tasks.project import create_project

TEXT = "# Grades\n\n3: answers the question\n0: off topic\n"


def test_a_file_is_recorded_by_its_name_and_the_windows_edits_by_their_kind(tmp_path):
    with create_project(tmp_path / "p.ndcgproj", annotator="ana") as project:
        done = set_guidelines(project, TEXT, source=tmp_path / "sub" / "rules.md", annotator="ana")
        assert (done.changed, done.lines, done.guidelines.sha256) == (
            True,
            len(TEXT.splitlines()),
            guidelines_sha256(TEXT),
        )
        set_guidelines(project, "other", source=GuidelinesEdit.WINDOW, annotator="ana")
        set_guidelines(project, TEXT, source=GuidelinesEdit.UNDO, annotator="ana")
        set_guidelines(project, "other", source=GuidelinesEdit.REDO, annotator="ana")
        assert [(g.source, g.who) for g in project.texts.guidelines_history()] == [
            ("file:rules.md", "ana"),
            ("window", "ana"),
            ("undo", "ana"),
            ("redo", "ana"),
        ]


def test_the_same_text_again_changes_nothing_and_says_so(tmp_path):
    with create_project(tmp_path / "p.ndcgproj", annotator="ana") as project:
        first = set_guidelines(project, TEXT, source=tmp_path / "rules.md", annotator="ana")
        again = set_guidelines(
            project, TEXT.replace("\n", "\r\n"), source=tmp_path / "rules.md", annotator="ana"
        )  # the same, stored
        assert (first.changed, again.changed, again.guidelines) == (True, False, first.guidelines)
        assert len(project.texts.guidelines_history()) == 1


def test_guidelines_edited_in_the_window_are_bounded_as_a_file_of_guidelines_is(tmp_path):
    """Issue 23 item 6's class: every text the store keeps has the limit its file form has (1 MiB here)."""
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="ana") as project:
        at_limit = "é" * (MAX_GUIDELINES_BYTES // 2)  # two bytes each in UTF-8: exactly the limit
        assert set_guidelines(project, at_limit, source=GuidelinesEdit.WINDOW, annotator="ana").changed
        with pytest.raises(InputError) as caught:
            set_guidelines(project, at_limit + "x", source=GuidelinesEdit.WINDOW, annotator="ana")
        assert str(caught.value) == f"{path}: guidelines are limited to 1 MiB of text; these are 1,048,577 bytes"
        assert [g.text for g in project.texts.guidelines_history()] == [at_limit]
