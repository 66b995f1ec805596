"""Every field the project file stores, by class, and the one guarded read of each class (issue 33 item 9).

A project or a work file may come from someone else, or have been edited by another program: a value read back is
data ndcg-desktop may never have written. Before any of it is read into Python, SQL checks each field's class:

- **JSON** (``json``): text of at most its bound that ``json_valid`` accepts (``'not json {'`` is refused);
- **text** (``text``): text (not a BLOB, a number or a NULL where none is written) of at most its bound in characters:
  the limits of the contract (a note 10,000, a topic field 100,000, a document's text 10,000,000, guidelines 1 MiB),
  rule 14's for an ID or a name (2,048), 4,096 for a file name, 128 for a time, a hash, a state or a format;
- **numbers** (``integer``, ``real``): stored as numbers.

A field past its class is refused in one line naming the file, the table and the column, before a 10 MB string
reaches Python. The checks run when a file opens (:func:`first_problem` over every table but the ones read one row
at a time, which SQLite's quick check leaves out too), and the rest (``lazy``: a document's text, a model's raw
answer, the guidelines' history) are checked in the read that fetches them (:func:`guard`).

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> _ = conn.execute("CREATE TABLE assessor_runs (run_id INTEGER PRIMARY KEY, parameters TEXT NOT NULL)")
>>> _ = conn.execute("INSERT INTO assessor_runs (parameters) VALUES ('not json {')")
>>> first_problem(conn, tables=("assessor_runs",))
'assessor_runs.parameters of row 1 is not JSON'
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ndcg_desktop.store.errors import altered
from ndcg_desktop.store.sql import identifier

ID = 2_048  # rule 14: an ID, a run's name, an annotator's name
PATH = 4_096  # a file's name as given (PATH_MAX)
SHORT = 128  # a time, a SHA-256, a state, a format, a strategy's text form
NOTE = 10_000  # a note (judgments, ratings, the audit log's copies); the audit log's longest action is 1,000
TOPIC = 100_000  # a query's title, description, narrative; a document's title
DOCUMENT = 10_000_000  # a document's text
GUIDELINES = 1_048_576  # 1 MiB (bytes; a character is at least one)
SMALL_JSON = 1_048_576  # parameters, labels, a reading
LARGE_JSON = 64 * 1_048_576  # a manifest, a team record, a pool build's queries and runs
RAW = 4_194_304 + 64  # a model's raw answer: 4,096 characters since issue 33 item 4, up to 4 MiB before


@dataclass(frozen=True)
class Field:
    """One stored column and its class: ``kind`` json, text, integer or real; ``bound`` in characters."""

    table: str
    column: str
    kind: str
    bound: int = 0
    nullable: bool = False
    lazy: bool = False  # checked by the read that fetches it (guard), not when the file opens


def _fields() -> tuple[Field, ...]:
    def t(table: str, column: str, bound: int, *, nullable: bool = False, lazy: bool = False) -> Field:
        return Field(table, column, "text", bound, nullable, lazy)

    def j(table: str, column: str, bound: int, *, nullable: bool = False) -> Field:
        return Field(table, column, "json", bound, nullable)

    def n(table: str, column: str, *, nullable: bool = False, kind: str = "integer") -> Field:
        return Field(table, column, kind, 0, nullable)

    return (
        t("meta", "key", ID),
        t("meta", "value", SMALL_JSON),
        t("queries", "query_id", ID),
        t("queries", "text", TOPIC),
        t("queries", "description", TOPIC),
        t("queries", "narrative", TOPIC),
        t("documents", "doc_id", ID, lazy=True),
        t("documents", "title", TOPIC, lazy=True),
        t("documents", "text", DOCUMENT, lazy=True),
        n("pool_versions", "version"),
        t("pool_versions", "state", SHORT),
        n("pool_versions", "parent", nullable=True),
        n("pool_versions", "scale_low"),
        n("pool_versions", "scale_high"),
        j("pool_versions", "labels", SMALL_JSON),
        t("pool_versions", "created_at", SHORT),
        t("pool_versions", "created_by", ID),
        t("pool_versions", "frozen_at", SHORT, nullable=True),
        t("pool_versions", "frozen_by", ID, nullable=True),
        t("pool_versions", "hash", SHORT, nullable=True),
        t("pool_versions", "guidelines_sha256", SHORT, nullable=True),
        j("pool_versions", "team", LARGE_JSON, nullable=True),
        n("judgments", "version"),
        t("judgments", "query_id", ID),
        t("judgments", "doc_id", ID),
        n("judgments", "grade", nullable=True),
        t("judgments", "annotator", PATH, nullable=True),  # import:FILE names the file
        t("judgments", "note", NOTE),
        t("judgments", "updated_at", SHORT, nullable=True),
        t("judgments", "adjudication", ID, nullable=True),
        t("judgments", "iteration", ID),  # the round as the qrels wrote it (issue 35 item 4), an ID by rule 14
        n("audit_log", "id"),
        n("audit_log", "version"),
        t("audit_log", "query_id", ID),
        t("audit_log", "doc_id", ID),
        t("audit_log", "action", NOTE),
        n("audit_log", "old_grade", nullable=True),
        n("audit_log", "new_grade", nullable=True),
        t("audit_log", "old_note", NOTE, nullable=True),
        t("audit_log", "new_note", NOTE, nullable=True),
        t("audit_log", "who", PATH),
        t("audit_log", "at", SHORT),
        n("runs", "run_id"),
        t("runs", "name", ID),
        t("runs", "source_name", PATH),
        t("runs", "sha256", SHORT),
        t("runs", "format", SHORT),
        j("runs", "reading", SMALL_JSON),
        n("runs", "rows"),
        n("runs", "queries"),
        t("runs", "imported_at", SHORT),
        t("runs", "imported_by", ID),
        t("runs", "data_hash", SHORT),
        n("evaluations", "id"),
        t("evaluations", "run_name", ID),
        n("evaluations", "pool_version"),
        t("evaluations", "settings", TOPIC),
        j("evaluations", "manifest", LARGE_JSON),
        t("evaluations", "created_at", SHORT),
        n("guidelines", "id"),
        t("guidelines", "text", GUIDELINES, lazy=True),
        t("guidelines", "sha256", SHORT),
        t("guidelines", "source", PATH),
        t("guidelines", "who", ID),
        t("guidelines", "at", SHORT),
        n("ratings", "version"),
        t("ratings", "query_id", ID),
        t("ratings", "doc_id", ID),
        t("ratings", "annotator", ID),
        n("ratings", "grade"),
        t("ratings", "note", NOTE),
        t("ratings", "rated_at", SHORT),
        n("assignments", "version"),
        t("assignments", "annotator", ID),
        t("assignments", "query_id", ID),
        t("assignments", "work_id", ID),
        n("frozen_chain", "version"),
        t("frozen_chain", "hash", SHORT),
        t("frozen_chain", "link", SHORT),
        t("handouts", "work_id", ID),
        n("handouts", "version"),
        t("handouts", "annotator", ID),
        t("handouts", "scope_sha256", SHORT),
        t("handouts", "digest", SHORT),
        t("handouts", "assigned_at", SHORT),
        t("handout_items", "work_id", ID),
        t("handout_items", "query_id", ID),
        t("handout_items", "doc_id", ID),
        n("assessor_runs", "run_id"),
        n("assessor_runs", "version"),
        t("assessor_runs", "annotator", ID),
        t("assessor_runs", "model", ID),
        t("assessor_runs", "endpoint_host", ID),
        j("assessor_runs", "parameters", SMALL_JSON),
        t("assessor_runs", "template_sha256", SHORT),
        t("assessor_runs", "template_source", PATH),
        t("assessor_runs", "started_at", SHORT),
        t("assessor_runs", "started_by", ID),
        n("assessor_attempts", "id"),
        n("assessor_attempts", "run_id"),
        n("assessor_attempts", "version"),
        t("assessor_attempts", "query_id", ID),
        t("assessor_attempts", "doc_id", ID),
        n("assessor_attempts", "grade", nullable=True),
        t("assessor_attempts", "failure", TOPIC, nullable=True, lazy=True),
        t("assessor_attempts", "raw", RAW, lazy=True),
        n("assessor_attempts", "latency", kind="real"),
        n("assessor_attempts", "prompt_tokens", nullable=True),
        n("assessor_attempts", "completion_tokens", nullable=True),
        t("assessor_attempts", "at", SHORT),
        n("pool_builds", "build_id"),
        n("pool_builds", "version"),
        t("pool_builds", "strategy", ID),
        j("pool_builds", "parameters", SMALL_JSON),
        t("pool_builds", "budget", SHORT),
        n("pool_builds", "depth"),
        n("pool_builds", "batch_size", nullable=True),
        j("pool_builds", "queries", LARGE_JSON),
        j("pool_builds", "runs", LARGE_JSON),
        t("pool_builds", "built_at", SHORT),
        t("pool_builds", "built_by", ID),
        n("pool_choices", "build_id"),
        n("pool_choices", "version"),
        t("pool_choices", "query_id", ID),
        n("pool_choices", "position"),
        t("pool_choices", "doc_id", ID),
        n("pool_choices", "batch"),
        n("pool_choices", "new"),
    )


FIELDS = _fields()
# Not a field of a class: the runs' Arrow blob (its hash, data_hash, is checked at every load).
UNCLASSED = frozenset({("runs", "data")})


def _wrong(f: Field) -> str:
    """SQL: true when the column of ``f`` is past its class (CASE keeps the order: the length before the JSON)."""
    c = identifier(f.column)
    if f.kind in ("integer", "real"):
        kinds = "'integer'" if f.kind == "integer" else "'integer', 'real'"
        return f"typeof({c}) NOT IN ({kinds}{', ' + repr('null') if f.nullable else ''})"
    empty = f"WHEN {c} IS NULL THEN {0 if f.nullable else 1} "
    json = f"WHEN NOT json_valid({c}) THEN 1 " if f.kind == "json" else ""
    return f"(CASE {empty}WHEN typeof({c}) != 'text' THEN 1 WHEN length({c}) > {f.bound} THEN 1 {json}ELSE 0 END)"


def _present(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({identifier(table)})")}


def _table_problem(
    conn: sqlite3.Connection, table: str, fields: Iterable[Field], where: str = "", params: tuple[object, ...] = ()
) -> str | None:
    present = _present(conn, table)
    wanted = [f for f in fields if f.column in present]  # an older format lacks some columns
    if not wanted:
        return None
    which = " ".join(f"WHEN {_wrong(f)} THEN {i}" for i, f in enumerate(wanted))
    key = "rowid" if _has_rowid(conn, table) else "NULL"
    # a table without a rowid: its key, each part cut to 40 characters (it may be the hostile value itself)
    parts = [
        str(r[1])
        for r in sorted(conn.execute(f"PRAGMA main.table_info({identifier(table)})"), key=lambda r: r[5])
        if r[5]
    ]
    named = (
        " || ', ' || ".join(
            f"(CASE WHEN typeof({identifier(c)}) IN ('integer', 'real') THEN {identifier(c)} "
            f"ELSE quote(substr({identifier(c)}, 1, 40)) END)"
            for c in parts
        )
        if parts
        else "NULL"
    )
    row = conn.execute(
        f"SELECT CASE {which} END, {key}, {named if key == 'NULL' else 'NULL'} FROM main.{identifier(table)} "
        f"WHERE ({' OR '.join(_wrong(f) for f in wanted)}){f' AND ({where})' if where else ''} LIMIT 1",
        params,
    ).fetchone()
    if row is None:
        return None
    f = wanted[int(row[0])]
    c = identifier(f.column)
    # its type, length, JSON validity and (a number, or the first 40 characters quoted) the value itself
    details = (
        f"SELECT typeof({c}), length({c}), {'json_valid(' + c + ')' if f.kind == 'json' else '1'}, "
        f"CASE WHEN typeof({c}) IN ('integer', 'real') THEN CAST({c} AS TEXT) ELSE quote(substr({c}, 1, 40)) END "
        f"FROM main.{identifier(table)} WHERE "
    )
    kind, size, valid, shown = conn.execute(
        details
        + (f"{key} IS ? LIMIT 1" if row[1] is not None else f"{_wrong(f)}{f' AND ({where})' if where else ''} LIMIT 1"),
        (row[1],) if row[1] is not None else params,
    ).fetchone()
    place = f"{table}.{f.column}" + (
        f" of row {row[1]}" if row[1] is not None else f" of the row keyed {row[2]}" if row[2] is not None else ""
    )
    if f.kind in ("integer", "real"):
        return f"{place} holds {f'the {kind} {shown}' if kind != 'null' else 'nothing'} where a number is stored"
    if kind == "null":
        return f"{place} is empty where ndcg-desktop always writes a value"
    if kind != "text":
        return f"{place} holds {'an' if kind == 'integer' else 'a'} {kind} where text is stored"
    if int(size) > f.bound:
        return f"{place} holds {int(size):,} characters, more than the {f.bound:,} it may hold"
    if not valid:
        return f"{place} is not JSON"
    return f"{place} is past its class"  # pragma: no cover - the CASE above and these tests agree


def _has_rowid(conn: sqlite3.Connection, table: str) -> bool:
    (sql,) = conn.execute("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    return "WITHOUT ROWID" not in str(sql).upper()


def first_problem(conn: sqlite3.Connection, *, tables: Iterable[str] | None = None) -> str | None:
    """The first stored field past its class in ``tables`` (default: every table; lazy fields left to their reads),
    as a phrase (``assessor_runs.parameters of row 1 is not JSON``), or None."""
    present = {str(n) for (n,) in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
    wanted = list(tables) if tables is not None else sorted({f.table for f in FIELDS})
    for table in wanted:
        if table in present:
            problem = _table_problem(conn, table, [f for f in FIELDS if f.table == table and not f.lazy])
            if problem is not None:
                return problem
    return None


def guard(
    conn: sqlite3.Connection, path: str | Path, table: str, where: str = "", params: tuple[object, ...] = ()
) -> None:
    """Before a read of ``table``'s rows matching ``where``: refuse (one line naming the file) a lazy field of those
    rows that is past its class, so a 10 MB title or a 4 GB raw answer never reaches Python."""
    fields = [f for f in FIELDS if f.table == table and f.lazy]
    problem = _table_problem(conn, table, fields, where, params)
    if problem is not None:
        raise altered(path, problem, "a value ndcg-desktop never writes")
