"""A project file from someone else is untrusted (issue 33, item 8): a table or view the schema does not have is
refused when the file opens, on every path (the library, the command line read-only or not, the window), with one
line naming the file and the table; so no mechanism built from the file's own tables (undo's dumps, the window's
change tracking, a discard) ever meets a name it did not write. And every name put into SQL text goes through
one helper (store/sql.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.sql import identifier, text_literal
from ndcg_desktop.store.watch import ChangeWatch
from ndcg_desktop.tasks.status import project_status

INJECTION = "z', -1, 'x'; UPDATE ratings SET annotator = 'mallory'; END /*"
HOSTILE = [INJECTION, 'a"b', "it's", "x; DROP TABLE judgments", "c -- d", "e /* f", "sqliteXnot_sqlites"]


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 2\n")
    with Project.create(path, annotator="ana") as p:
        p.judgments.import_qrels(tmp_path / "q.txt", annotator="ana")
    return path


def add_table(path: Path, name: str, *, view: bool = False) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        if view:
            con.execute(f"CREATE VIEW {identifier(name)} AS SELECT 1")
        else:  # a foreign key to the pool versions: a discard's undo would dump and restore it
            con.execute(
                f"CREATE TABLE {identifier(name)} (version INTEGER REFERENCES pool_versions (version), query_id TEXT)"
            )
            con.execute(f"INSERT INTO {identifier(name)} VALUES (1, 'q1')")
    finally:
        con.close()


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("view", [False, True])
def test_a_table_not_in_the_schema_is_refused_by_every_open_naming_the_file_and_the_table(project, name, view, capsys):
    add_table(project, name, view=view)
    before = project.read_bytes()  # (sqlite3's iterdump itself pastes names unquoted)
    kind = "view" if view else "table"
    said = f"holds a {kind} {name!r} that is not part of ndcg-desktop's schema"
    for read_only in (False, True):
        with pytest.raises(InputError, match="not part of ndcg-desktop's schema") as caught:
            Project.open(project, read_only=read_only)
        assert said in caught.value.located() and str(project) in caught.value.located()
    assert main(["status", str(project)]) == 2
    err = capsys.readouterr().err
    assert said in err and str(project) in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert project.read_bytes() == before  # nothing written, nothing re-credited


def test_sqlites_own_tables_are_not_foreign(project):
    con = sqlite3.connect(project, isolation_level=None)
    try:
        con.execute("ANALYZE")  # sqlite_stat1
    finally:
        con.close()
    with Project.open(project) as p:
        assert project_status(p)["pool_versions"]


@pytest.mark.parametrize("name", HOSTILE)
def test_the_change_watch_and_the_helpers_treat_any_name_as_data(name):
    """Even on a connection no check guarded, the watch's triggers take a hostile name as a name."""
    con = sqlite3.connect(":memory:", isolation_level=None)
    con.execute("CREATE TABLE audit_log (id INTEGER PRIMARY KEY)")
    con.execute("CREATE TABLE ratings (annotator TEXT)")
    con.execute("INSERT INTO ratings VALUES ('ana')")
    con.execute(f"CREATE TABLE {identifier(name)} (version INTEGER, query_id TEXT)")
    for sql in ("runs (run_id)", "evaluations (id)", "queries (text, description, narrative)", "meta (key, value)"):
        con.execute(f"CREATE TABLE {sql}")
    con.execute("CREATE TABLE pool_versions (version, state)")
    watch = ChangeWatch(con)
    con.execute(f"INSERT INTO {identifier(name)} VALUES (1, 'q1')")
    assert (name, 1, "q1") in watch.take().touched
    assert con.execute("SELECT annotator FROM ratings").fetchall() == [("ana",)]
    assert con.execute(f"SELECT {text_literal(name)}").fetchone() == (name,)
