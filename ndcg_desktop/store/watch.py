"""What changed in an open project file, for the project's events (``sessions/events.py``).

Two sources, so that no writer has to remember to announce itself:

- this connection's own writes are recorded by TEMP triggers (they live in the connection, never in the
  file, so the file's protection is untouched) into ``temp.ndcg_touched``: which table, which pool version and
  which query;
- every other connection's commits (a worker's, another program's) move ``PRAGMA data_version``; what they
  changed is then read from cheap marks: the audit log's new rows name each version and query written (when
  they are a few thousand at most; past that, every draft), and the small tables' counts and last ids. A
  commit no mark explains (a draft edited through raw SQL, documents imported) may have changed any draft. A
  worker's bulk write is not watched row by row: a trigger per row costs about as much as the write.

The triggers are generated from the file's own tables, so a table added by a later format is watched
without anyone listing it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ndcg_desktop.store.sql import NOT_SQLITES, identifier, text_literal

NO_VERSION = -1  # a table without a version column (runs, texts, settings)
NO_QUERY = ""  # a table without a query column (pool versions, runs); never a query ID (rule 14)
_UNWATCHED = ("audit_log",)  # written with every change it describes: says nothing more
_FEW_AUDITED = 5_000  # new audit rows read one by one after another connection's commit; more: every draft


@dataclass(frozen=True)
class Changes:
    """What changed since the last look: ``(table, version or NO_VERSION, query ID or NO_QUERY)`` for each table
    written, by this connection or (read from the marks) by another. ``documents`` is True when another
    connection committed: documents are too many to mark cheaply, so they may have changed."""

    touched: frozenset[tuple[str, int, str]] = frozenset()
    documents: bool = False

    def __bool__(self) -> bool:
        return bool(self.touched) or self.documents


def _marks(conn: sqlite3.Connection) -> dict[str, object]:
    """Cheap marks of what other connections may change (read only when ``data_version`` moved)."""

    def one(sql: str) -> object:
        return tuple(conn.execute(sql).fetchone())

    def each(sql: str) -> object:
        return tuple(tuple(row) for row in conn.execute(sql).fetchall())

    tables = {name for (name,) in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
    # Each a row or an index's end, or a small table: never a scan of the pool's millions of items or ratings (a
    # draft of 7.7M items is read here, on the window's thread, after every task that wrote).
    marks: dict[str, object] = {"audit_log": one("SELECT max(id) FROM main.audit_log")}
    if "assignments" in tables:
        marks["assignments"] = each("SELECT version, count(*) FROM main.assignments GROUP BY version")
    marks["runs"] = one("SELECT count(*), max(run_id) FROM main.runs")
    marks["evaluations"] = one("SELECT count(*), max(id) FROM main.evaluations")
    marks["queries"] = one(
        "SELECT count(*), total(length(text)), total(length(description)), total(length(narrative)) FROM main.queries"
    )
    if "guidelines" in tables:
        marks["guidelines"] = one("SELECT max(id) FROM main.guidelines")
    marks["meta"] = each("SELECT key, value FROM main.meta ORDER BY key")
    return marks


class ChangeWatch:
    """Records what the connection the file was opened with writes, and notices everyone else's commits."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        # No unique key: the conflict policy of the statement that fires a trigger overrides the trigger's own
        # (an upsert's would abort on a second row), so a row is added only where none is alike.
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS ndcg_touched (tbl TEXT NOT NULL, version INTEGER NOT NULL, "
            "query_id TEXT NOT NULL)"
        )
        conn.execute("CREATE INDEX IF NOT EXISTS temp.ndcg_touched_rows ON ndcg_touched (tbl, version, query_id)")
        tables = [
            name
            for (name,) in conn.execute(f"SELECT name FROM main.sqlite_master WHERE type = 'table' AND {NOT_SQLITES}")
            if name not in _UNWATCHED
        ]
        for table in tables:
            columns = {row[1] for row in conn.execute(f"PRAGMA main.table_info({identifier(table)})")}
            name = text_literal(table)
            for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
                statements = []
                for row in rows:
                    # coalesce: a NULL in a later table's column must never abort the write that fired the trigger
                    version = f"coalesce({row}.version, {NO_VERSION})" if "version" in columns else str(NO_VERSION)
                    query = f"coalesce({row}.query_id, '{NO_QUERY}')" if "query_id" in columns else f"'{NO_QUERY}'"
                    statements.append(
                        f"INSERT INTO ndcg_touched SELECT {name}, {version}, {query} WHERE NOT EXISTS "
                        f"(SELECT 1 FROM ndcg_touched WHERE tbl = {name} AND version = {version} "
                        f"AND query_id = {query});"
                    )
                conn.execute(
                    f"CREATE TEMP TRIGGER IF NOT EXISTS {identifier(f'watch_{table}_{event.lower()}')} AFTER {event} "
                    f"ON main.{identifier(table)} BEGIN {' '.join(statements)} END"
                )
        self._stamp = self._data_version()
        self._marks = _marks(conn)

    def _audited(self, since: int) -> set[tuple[str, int, str]]:
        """The versions and queries of the audit rows after ``since``: each one when they are few, else every draft
        (a bulk import or a send for judging: reading millions of rows would stall the window)."""
        many = self._conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM main.audit_log WHERE id > ? LIMIT ?)", (since, _FEW_AUDITED + 1)
        ).fetchone()[0]
        if many > _FEW_AUDITED:
            return self._every_draft()
        rows = self._conn.execute("SELECT DISTINCT version, query_id FROM main.audit_log WHERE id > ?", (since,))
        return {("judgments", int(v), str(q)) for v, q in rows}

    def _every_draft(self) -> set[tuple[str, int, str]]:
        rows = self._conn.execute("SELECT version FROM main.pool_versions WHERE state = 'draft'")
        return {("judgments", int(v), NO_QUERY) for (v,) in rows}

    def _data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def take(self) -> Changes:
        """What changed since the last call (and forget it). Call on the thread that opened the file."""
        if self._conn.in_transaction:  # an open write: its rows are not committed yet
            return Changes()
        rows = self._conn.execute("SELECT DISTINCT tbl, version, query_id FROM temp.ndcg_touched").fetchall()
        if rows:
            self._conn.execute("DELETE FROM temp.ndcg_touched")
        touched = {(str(t), int(v), str(q)) for t, v, q in rows}
        stamp = self._data_version()
        if stamp == self._stamp:
            return Changes(frozenset(touched))
        self._stamp = stamp
        before, after = self._marks, _marks(self._conn)
        self._marks = after
        explained = False
        for table in after:
            if after[table] == before.get(table):
                continue
            explained = True
            if table == "audit_log":  # each written judgment and rating left a row naming its version and query
                touched |= self._audited(int(before["audit_log"][0] or 0))  # type: ignore[index]
            elif table == "assignments":
                versions = {row[0] for row in (*before.get(table, ()), *after[table])}  # type: ignore[misc]
                touched |= {(table, int(v), NO_QUERY) for v in versions}
            else:
                touched.add((table, NO_VERSION, NO_QUERY))
        if not explained:  # raw SQL on a draft, documents: any draft may have changed
            touched |= self._every_draft()
        return Changes(frozenset(touched), documents=True)
