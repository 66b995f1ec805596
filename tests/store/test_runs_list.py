"""Listing a project's runs does not read their stored data (the window lists them at every refresh).

``imported_at`` sits after the Arrow blob in a run's row, so selecting it walked every overflow page
of every run: tens of milliseconds per run of a million lines, on the GUI thread after each import.
"""

from __future__ import annotations

import sqlite3

from ndcg_desktop.store import Project


def statements(project: Project, action) -> list[str]:
    """The SQL statements ``action`` ran on the project's connection."""
    seen: list[str] = []
    project.file.conn.set_trace_callback(seen.append)
    try:
        action()
    finally:
        project.file.conn.set_trace_callback(None)
    return seen


def test_runs_are_listed_from_the_file_once_until_another_run_is_stored(tmp_path):
    (tmp_path / "a.run").write_text("q1 Q0 A 1 2 s\nq1 Q0 B 2 1 s\n")
    (tmp_path / "b.run").write_text("q1 Q0 B 1 2 s\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        project.runs.import_run(tmp_path / "a.run", name="a", annotator="ann")
        assert [r.name for r in project.runs.all()] == ["a"]
        again = statements(project, project.runs.all)
        assert [s for s in again if "imported_at" in s] == []  # the rows (and their blobs) are not read again
        assert [r.name for r in project.runs.all()] == ["a"]
        project.runs.import_run(tmp_path / "b.run", name="b", annotator="ann")
        assert [(r.name, r.rows) for r in project.runs.all()] == [("a", 2), ("b", 1)]
        # Another program's run, committed through its own connection, is listed too.
        other = sqlite3.connect(project.path)
        columns = "name, source_name, sha256, format, reading, rows, queries, data, imported_at, imported_by, data_hash"
        other.execute(
            f"INSERT INTO runs ({columns}) SELECT 'c', source_name, sha256, format, reading, rows, queries, data, "
            "imported_at, imported_by, data_hash FROM runs WHERE name = 'b'"
        )
        other.commit()
        other.close()
        assert [r.name for r in project.runs.all()] == ["a", "b", "c"]
