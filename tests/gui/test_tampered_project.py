"""The window refuses a frozen version that no longer matches its hash (issue 11 item 1, contract rule 15).

The store refuses such a version at every use; the window, which lists a version's queries when it
opens the project, must say so in a message instead of failing with a traceback, and a file whose
protection triggers were dropped by another program opens read-only when the user agrees.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

import ndcg_desktop.gui.main_window as main_window_module
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from tests.helpers import tamper

TRIGGER = "frozen_judgment_not_updated"


def frozen_then_tampered(tmp_path: Path, *, restore: bool) -> tuple[Path, str]:
    path = tmp_path / "t.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 1\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        recorded = freeze_draft(project, annotator="ann").hash
    assert recorded is not None
    tamper(path, "UPDATE judgments SET grade = 0 WHERE doc_id = 'A'", triggers=(TRIGGER,), restore=restore)
    return path, recorded


def capture_messages(monkeypatch, answer=QMessageBox.StandardButton.Cancel) -> list[str]:
    said: list[str] = []

    def fake(parent, icon, title, text, buttons=QMessageBox.StandardButton.Ok, *args, **kwargs):
        said.append(text)
        return answer

    monkeypatch.setattr(main_window_module, "show_message", fake)
    return said


def test_a_changed_frozen_version_is_refused_by_the_window_with_both_hashes(window, tmp_path, monkeypatch):
    path, recorded = frozen_then_tampered(tmp_path, restore=True)
    said = capture_messages(monkeypatch)
    assert window.open_project(path)
    assert len(said) == 1
    assert "pool version 1 has changed since it was frozen" in said[0] and recorded in said[0]
    assert window.workspace.pool_view.model().rowCount() == 0  # the changed grades are not shown


def test_altered_protection_offers_a_read_only_view_that_still_refuses_the_version(window, tmp_path, monkeypatch):
    path, recorded = frozen_then_tampered(tmp_path, restore=False)
    said = capture_messages(monkeypatch, answer=QMessageBox.StandardButton.Open)
    assert window.open_project(path)
    assert window.project is not None and window.project.read_only
    assert f"trigger {TRIGGER} is missing" in said[0] and said[0].endswith("Open it read-only?")
    assert "pool version 1 has changed since it was frozen" in said[1] and recorded in said[1]


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0, reason="a read-only bind mount needs root")
def test_a_read_only_project_file_opens_read_only_when_the_user_agrees(window, tmp_path, monkeypatch):
    path = tmp_path / "ro.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
    try:
        subprocess.run(["mount", "--bind", str(path), str(path)], check=True, capture_output=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot bind-mount read-only here: {exc}")
    try:
        said = capture_messages(monkeypatch, answer=QMessageBox.StandardButton.Open)
        assert window.open_project(path)
        assert window.project is not None and window.project.read_only
        assert said[0].startswith(f"{path}: cannot be opened for writing") and said[0].endswith("Open it read-only?")
        assert window.workspace.pool_view.model().rowCount() == 1
        window.close_project()
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def tampered_hash(tmp_path: Path) -> str:
    """The hash the tampered judgments (A now 0, B 1) have: what a project freezing exactly them records."""
    (tmp_path / "changed.txt").write_text("q1 0 A 0\nq1 0 B 1\n")
    with Project.create(tmp_path / "changed.ndcgproj", annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "changed.txt", annotator="ann")
        now = freeze_draft(project, annotator="ann").hash
    assert now is not None
    return now


def test_annotate_refuses_a_changed_frozen_version_naming_both_hashes(window, tmp_path, monkeypatch):
    path, recorded = frozen_then_tampered(tmp_path, restore=True)
    now = tampered_hash(tmp_path)
    said = capture_messages(monkeypatch)
    assert window.open_project(path)
    assert len(said) == 1 and recorded in said[0] and now in said[0] and recorded != now
    assert window.workspace.pool_view.model().rowCount() == 0  # nothing of the changed version to grade
    assert window.workspace.query_view.model().rowCount() == 0


def test_scores_refuses_a_changed_frozen_version_naming_both_hashes(window, tmp_path, monkeypatch, qtbot, messages):
    path, recorded = frozen_then_tampered(tmp_path, restore=True)
    now = tampered_hash(tmp_path)
    with Project.open(path) as project:  # a run to score: written through the store, the triggers still in place
        (tmp_path / "r.run").write_text("q1 Q0 A 1 2.0 s\nq1 Q0 B 2 1.0 s\n")
        project.runs.import_run(tmp_path / "r.run", name="sys", annotator="ann")
    said = capture_messages(monkeypatch)
    assert window.open_project(path)
    assert len(said) == 1  # the opening's refusal (test above)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    view.check()
    qtbot.waitUntil(lambda: bool(messages) or len(said) > 1, timeout=10_000)
    shown = [text for _, text in messages] + said[1:]
    assert len(shown) == 1
    assert "pool version 1 has changed since it was frozen" in shown[0] and recorded in shown[0] and now in shown[0]
    assert not view.session.checked() and view.session.result is None and not view.score_button.isEnabled()


def test_a_frozen_version_flipped_back_to_a_draft_is_warned_about_and_opens_read_only(window, tmp_path, monkeypatch):
    """Issue 24 item 5: triggers dropped, ``state='draft'``, triggers restored: the window warns, naming the
    version and its recorded hash, and never offers the flipped version for editing."""
    path = tmp_path / "f.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 1\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        recorded = freeze_draft(project, annotator="ann").hash
    tamper(path, "UPDATE pool_versions SET state = 'draft' WHERE version = 1", triggers=("frozen_version_is_final",))
    said = capture_messages(monkeypatch, answer=QMessageBox.StandardButton.Open)
    assert window.open_project(path)
    assert window.project is not None and window.project.read_only
    assert f"pool version 1 was frozen with sha256 {recorded}; it is a draft" in said[0]
