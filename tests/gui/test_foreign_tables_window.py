"""The window refuses a project file with a table the schema lacks exactly as the command line does (issue 33,
item 8): the same one line, no crash, nothing opened."""

from __future__ import annotations

import sqlite3

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project


def test_the_window_refuses_a_foreign_table_with_the_command_lines_line(window, messages, tmp_path, capsys):
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\n")
    with Project.create(path, annotator="ana") as p:
        p.judgments.import_qrels(tmp_path / "q.txt", annotator="ana")
    con = sqlite3.connect(path, isolation_level=None)
    con.execute('CREATE TABLE "a""b" (version INTEGER REFERENCES pool_versions (version))')
    con.close()
    assert main(["status", str(path)]) == 2
    cli_line = capsys.readouterr().err.strip()
    assert window.open_project(path) is False
    assert window.project is None
    assert len(messages) == 1
    assert "holds a table 'a\"b' that is not part of ndcg-desktop's schema" in messages[0][1]
    assert messages[0][1].strip() in cli_line  # the same sentence, the CLI's prefixed with its program name
