"""What many test files do to a project from outside the store, written once (issue 32 item 7).

Another program's view of the file: raw SQL that reads it or tampers with it (its guard triggers dropped and put
back, as the sqlite3 shell would), another SQLite client holding the write lock, another process holding the
project open as the window does, and a model's answers recorded the way a judging job records them.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ndcg_desktop.domain import DataTerms, EvalSettings, Measure
from ndcg_desktop.store import Project

REPO = Path(__file__).resolve().parents[1]

FROZEN_JUDGMENTS_GUARD = "frozen_judgment_not_updated"

Statement = str | tuple[str, tuple[Any, ...]]  # SQL text, or SQL text and its parameters


def measure(**fields: Any) -> Measure:
    """The policies and the data terms as one set of keywords (``unjudged="zero", scale=...``), joined as
    :meth:`EvalSettings.under` joins them: what the kernel's tests score under."""
    terms = {name: fields.pop(name) for name in ("scale", "ties", "id_map") if name in fields}
    return EvalSettings(**fields).under(DataTerms(**terms))


def sql_rows(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` reads from ``path``, through a read-only connection: reading never changes the file."""
    con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return [tuple(row) for row in con.execute(sql, params).fetchall()]
    finally:
        con.close()


def raw_sql(path: Path, *statements: Statement) -> None:
    """Run ``statements`` on ``path`` through plain sqlite3, each committed at once, as another program would."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        _run(con, statements)
    finally:
        con.close()


def tamper(
    path: Path,
    *statements: Statement,
    triggers: tuple[str, ...] | None = (FROZEN_JUDGMENTS_GUARD,),
    restore: bool = True,
) -> None:
    """Drop the guard ``triggers`` (None: every trigger), run ``statements``, and (with ``restore``, even when a
    statement fails) recreate the triggers verbatim: what a hand edit with the sqlite3 shell does to a guarded file."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        found = dict(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
        saved = {name: found[name] for name in (found if triggers is None else triggers)}
        _run(con, [f'DROP TRIGGER "{name}"' for name in saved])
        try:
            _run(con, statements)
        finally:
            if restore:
                _run(con, list(saved.values()))
    finally:
        con.close()


def _run(con: sqlite3.Connection, statements: Iterable[Statement]) -> None:
    for statement in statements:
        sql, params = (statement, ()) if isinstance(statement, str) else statement
        con.execute(sql, params)


@contextmanager
def write_lock(path: Path) -> Iterator[Path]:
    """Another SQLite client holds ``path``'s write lock (``BEGIN IMMEDIATE``, what the sqlite3 shell holds while it
    writes) until the block ends."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield path
    finally:
        other.execute("ROLLBACK")
        other.close()


HOLDER = """
import sys
from ndcg_desktop.store import Project

project = Project.open(sys.argv[1])
print("open", flush=True)
sys.stdin.read()  # hold the project until the parent closes our stdin
project.close()
"""


@contextmanager
def held_open(path: Path) -> Iterator[Path]:
    """Another process holds the project ``path`` open for writing (the project's own lock), as the window does,
    until the block ends; it must then close it cleanly."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    assert child.stdout is not None and child.stdout.readline() == b"open\n"
    try:
        yield path
    finally:
        assert child.stdin is not None
        child.stdin.close()
        assert child.wait(60) == 0


def start_model_run(project: Project, annotator: str, version: int | None = None, *, started_by: str = "coord") -> int:
    """A run of the model ``annotator`` on ``version`` (default: the draft) as a judging job started by
    ``started_by`` starts one, recorded through the assessor's own path; its host is never reached."""
    if version is None:
        draft = project.pools.draft()
        assert draft is not None, "a judging job rates a draft"
        version = draft.version
    return int(
        project.assessor.start_run(
            version,
            annotator=annotator,
            model=annotator.removeprefix("model:"),
            endpoint_host="127.0.0.1:9",
            parameters={"temperature": 0.0},
            template_sha256="a" * 64,
            template_source="built-in",
            started_by=started_by,
        )
    )


def model_answer(query_id: str, doc_id: str, grade: int | None) -> tuple[Any, ...]:
    """One answer as the assessor records it: a grade, or (None) an answer that is not one."""
    failure = None if grade is not None else 'the answer is not a JSON object {"grade": N}'
    raw = f'{{"grade": {grade}}}' if grade is not None else "I think it is relevant"
    return (query_id, doc_id, grade, failure, raw, 0.25, 100, 5)


def model_rates(
    project: Project | Path, annotator: str, grades: dict[tuple[str, str], int], version: int | None = None
) -> None:
    """Record ``grades`` ((query, doc) -> grade) as one run of the model ``annotator``'s answers, as a job does, in
    an open project or in the project file ``project`` (opened for it)."""
    if isinstance(project, Path):
        with Project.open(project) as opened:
            model_rates(opened, annotator, grades, version)
        return
    run = start_model_run(project, annotator, version)
    answers = [model_answer(q, d, g) for (q, d), g in grades.items()]
    assert project.assessor.record(run, answers) == len(answers)
