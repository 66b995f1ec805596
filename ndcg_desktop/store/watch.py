"""What changed in an open project file, for the project's events (``tasks/events.py``).

Two sources, so that no writer has to remember to announce itself:

- this connection's own writes are recorded by TEMP triggers (they live in the connection, never in the
  file, so the file's protection is untouched) into ``temp.ndcg_touched``: which table, and which pool version;
- every other connection's commits (a worker's, another program's) move ``PRAGMA data_version``.

The triggers are generated from the file's own tables, so a table added by a later format is watched
without anyone listing it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

NO_VERSION = -1  # a table without a version column (runs, texts, settings)
_UNWATCHED = ("audit_log",)  # written with every change it describes: says nothing more


@dataclass(frozen=True)
class Changes:
    """What changed since the last look: tables (with the pool version, or ``NO_VERSION``) this connection
    wrote, and whether another connection committed (then anything may have changed)."""

    touched: frozenset[tuple[str, int]] = frozenset()
    external: bool = False

    def __bool__(self) -> bool:
        return bool(self.touched) or self.external


class ChangeWatch:
    """Records what the connection the file was opened with writes, and notices everyone else's commits."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS ndcg_touched (tbl TEXT NOT NULL, version INTEGER NOT NULL, "
            "PRIMARY KEY (tbl, version)) WITHOUT ROWID"
        )
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            if name not in _UNWATCHED
        ]
        for table in tables:
            columns = {row[1] for row in conn.execute(f'PRAGMA main.table_info("{table}")')}
            for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
                values = ", ".join(
                    f"('{table}', {row}.version)" if "version" in columns else f"('{table}', {NO_VERSION})"
                    for row in rows
                )
                conn.execute(
                    f'CREATE TEMP TRIGGER IF NOT EXISTS "watch_{table}_{event.lower()}" AFTER {event} '
                    f'ON main."{table}" BEGIN INSERT OR IGNORE INTO ndcg_touched VALUES {values}; END'
                )
        self._stamp = self._data_version()

    def _data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def take(self) -> Changes:
        """What changed since the last call (and forget it). Call on the thread that opened the file."""
        if self._conn.in_transaction:  # an open write: its rows are not committed yet
            return Changes()
        rows = self._conn.execute("SELECT tbl, version FROM temp.ndcg_touched").fetchall()
        if rows:
            self._conn.execute("DELETE FROM temp.ndcg_touched")
        stamp = self._data_version()
        external, self._stamp = stamp != self._stamp, stamp
        return Changes(frozenset((str(t), int(v)) for t, v in rows), external)
