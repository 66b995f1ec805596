"""Every stored field read back is validated and bounded in SQL before it is read (issue 33 item 9).

One hostile value per class of field (store/fields.py), written by raw sqlite3 as another program would: text that is
not JSON in a JSON field, one character past the bound in a text field, text in a number field. Each is refused in
one line naming the file, the table and the column: when the file opens, or (a document's text, a model's raw
answer, the guidelines' history) in the read that fetches it. Nothing reaches Python first."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.fields import FIELDS, UNCLASSED, Field
from ndcg_desktop.store.schema import SCHEMA
from ndcg_desktop.tasks.freezing import freeze_draft
from tests.helpers import sql_rows, tamper


def _valid(f: Field) -> object:
    return {"integer": 1, "real": 0.5, "json": "{}", "text": "x"}[f.kind]


def _rows(con: sqlite3.Connection, table: str) -> int:
    return int(con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> Path:
    """A project with a row in every table: version 1 frozen, a draft 2 with its items; the tables no command here
    fills get one row of valid values of each column's class, written by raw sqlite3."""
    folder = tmp_path_factory.mktemp("full")
    path = folder / "p.ndcgproj"
    (folder / "q.txt").write_text("q1 0 A 3\nq1 0 B 2\nq2 0 D 1\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(folder / "q.txt", annotator="ann")
        freeze_draft(project, annotator="ann")
        project.pools.new_draft_from(1, annotator="ann")
    keyed = {"version": 2, "query_id": "q1", "doc_id": "A", "run_id": 1, "build_id": 1, "work_id": "w1"}
    inserts = []
    for table in sorted({f.table for f in FIELDS}):
        if sql_rows(path, f'SELECT count(*) FROM "{table}"')[0][0]:
            continue
        columns = [f for f in FIELDS if f.table == table]
        values = [keyed.get(f.column, _valid(f)) for f in columns]
        if table == "runs":
            columns.append(Field("runs", "data", "blob"))
            values.append(b"\0")
        if table == "assessor_attempts":  # a graded answer: no failure (the schema's CHECK)
            values[[f.column for f in columns].index("failure")] = None
        names = ", ".join(f'"{f.column}"' for f in columns)
        inserts.append((f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(values))})', tuple(values)))
    tamper(path, *inserts, triggers=None)
    return path


def _hostile(f: Field) -> object:
    """The one hostile value of the field's class."""
    if f.kind == "json":
        return "not json {"
    if f.kind == "text":
        return "x" * (f.bound + 1)
    return "x"  # text where a number is stored


def _written(source: Path, target: Path, f: Field) -> bool:
    """Copy ``source`` to ``target`` with ``f``'s column set to the hostile value in every row, as another program
    would (triggers dropped and recreated exactly); False if SQLite itself refuses the value (a CHECK, an INTEGER
    PRIMARY KEY), so no file can hold it."""
    shutil.copyfile(source, target)
    also = ", grade = NULL" if (f.table, f.column) == ("assessor_attempts", "failure") else ""
    try:
        tamper(target, (f'UPDATE "{f.table}" SET "{f.column}" = ?{also}', (_hostile(f),)), triggers=None)
    except sqlite3.IntegrityError:
        return False
    return True


_LAZY_READS: dict[str, Callable[[Project], object]] = {
    "documents": lambda p: (p.texts.search_documents("x"), p.texts.document("A")),  # by a search, by its ID
    "guidelines": lambda p: p.texts.guidelines(),
    "assessor_attempts": lambda p: p.assessor.attempts(2),
}


def test_the_fixture_has_a_row_in_every_table_and_opens(full):
    con = sqlite3.connect(full)
    try:
        assert all(_rows(con, t) > 0 for t in {f.table for f in FIELDS})
    finally:
        con.close()
    with Project.open(full, read_only=True) as project:
        for read in _LAZY_READS.values():
            read(project)  # the valid values pass every guard


def test_every_column_of_the_schema_has_a_class():
    con = sqlite3.connect(":memory:")
    con.executescript(SCHEMA)
    columns = {
        (t, str(row[1]))
        for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        for row in con.execute(f'PRAGMA table_info("{t}")')
    }
    classed = {(f.table, f.column) for f in FIELDS}
    assert columns - classed == set(UNCLASSED)
    assert classed <= columns and len(classed) == len(FIELDS)


@pytest.mark.parametrize("f", FIELDS, ids=[f"{f.table}.{f.column}:{f.kind}" for f in FIELDS])
def test_a_field_past_its_class_is_refused_naming_the_file_the_table_and_the_column(full, tmp_path, f):
    path = tmp_path / "hostile.ndcgproj"
    if not _written(full, path, f):
        return  # SQLite keeps it in its class (a CHECK, an INTEGER PRIMARY KEY): no file can hold the value
    said = f"{f.table}.{f.column}"
    if f.lazy:
        with Project.open(path, read_only=True) as project:
            with pytest.raises(InputError) as refused:
                _LAZY_READS[f.table](project)
    else:
        with pytest.raises(InputError) as refused:
            Project.open(path, read_only=True)
    message = str(refused.value)
    assert message.startswith(f"{path}: ") and said in message and "\n" not in message
    assert len(message) < 600  # the value itself is never quoted


def test_a_model_runs_parameters_that_are_not_json_refuse_freeze_in_one_line(full, tmp_path, capsys):
    """The issue's example: it gave a traceback on freeze."""
    path = tmp_path / "hostile.ndcgproj"
    assert _written(full, path, next(f for f in FIELDS if (f.table, f.column) == ("assessor_runs", "parameters")))
    for command in (["freeze", str(path)], ["status", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and f"{path}: " in err and "assessor_runs.parameters of row 1 is not JSON" in err


def test_a_ten_megabyte_note_is_refused_before_it_is_read(full, tmp_path):
    path = tmp_path / "hostile.ndcgproj"
    shutil.copyfile(full, path)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("UPDATE judgments SET note = ? WHERE version = 2", ("n" * 10_000_000,))
    con.close()
    with pytest.raises(InputError, match="judgments.note of .* holds 10,000,000 characters, more than the 10,000"):
        Project.open(path, read_only=True)
