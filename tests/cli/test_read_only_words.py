"""A project that cannot be written: the store says what failed and why, each front what still works (issue 32
item 2). The command line names its read-only commands, word for word as before; the window offers its own
"Open it read-only?" and names no command."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project, ProjectReadOnly, core

USE = "(ndcg status PROJECT works, score and export-qrels too once a version is frozen)"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="ann").close()
    (tmp_path / "q.txt").write_text("q1 0 A 3\n")
    return path


def test_opening_a_read_only_file_to_write_names_the_commands_that_still_work(project, capsys, monkeypatch):
    monkeypatch.setattr(core.os, "access", lambda *args, **kwargs: False)  # as root, permission bits do not bite
    assert main(["import-qrels", str(project), str(project.parent / "q.txt")]) == 2
    assert capsys.readouterr().err == (
        f"error: {project}: cannot be opened for writing: the file or its folder is read-only (or on read-only "
        f"media); open it read-only {USE}, or copy it to a folder you can write\n"
    )


def test_a_write_sqlite_refuses_as_read_only_names_them_too(project, capsys, monkeypatch):
    connect = core._connect
    monkeypatch.setattr(core, "_connect", lambda target, *, read_only: connect(target, read_only=True))
    assert main(["import-qrels", str(project), str(project.parent / "q.txt")]) == 2
    assert capsys.readouterr().err == (
        f"error: {project}: cannot be written: the file, its folder or its disk is read-only (SQLite: attempt to "
        f"write a readonly database); nothing was written: open it read-only {USE}, or copy it to a folder you can "
        "write\n"
    )


def test_the_window_is_told_what_failed_without_the_command_lines_words(project, monkeypatch):
    monkeypatch.setattr(core.os, "access", lambda *args, **kwargs: False)
    with pytest.raises(ProjectReadOnly) as refused:
        Project.open(project)
    assert refused.value.located() == (
        f"{project}: cannot be opened for writing: the file or its folder is read-only (or on read-only media); "
        "open it read-only, or copy it to a folder you can write"
    )
    known = core.known_error(sqlite3.OperationalError("attempt to write a readonly database"), project)
    assert isinstance(known, ProjectReadOnly) and "ndcg status" not in known.located()
