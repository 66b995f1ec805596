"""Putting pool items back exactly as they were: the inverse of removing an item and of discarding a draft.

Undo needs more than "add an ungraded item": a removed item may carry a note (and who last touched
it), a discarded draft its grades, annotators and notes, and its own version number and history.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.pools import PoolRepository, PoolVersion

ROW_COLUMNS = ["query_id", "doc_id", "grade", "annotator", "note", "updated_at"]


def _value(value: Any) -> Any:
    """A cell as SQLite takes it: pandas' missing values become NULL, numpy integers plain ints."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    return int(value) if hasattr(value, "__index__") else value


class PoolEditRepository:
    """Restores pool items and whole drafts, each restore one audited transaction."""

    def __init__(self, file: ProjectFile, pools: PoolRepository) -> None:
        self.file = file
        self.pools = pools

    def restore_items(self, rows: pd.DataFrame, *, version: int, action: str) -> int:
        """Put items back into draft ``version`` with their grade, annotator, note and time. Audited.

        An item already in the pool is refused (nothing is written): a restore never overwrites.
        """
        v = self.pools.writable_draft(version)
        with self.file.transaction() as conn:
            for query_id, doc_id in rows[["query_id", "doc_id"]].itertuples(index=False, name=None):
                taken = conn.execute(
                    "SELECT 1 FROM judgments WHERE version = ? AND query_id = ? AND doc_id = ?",
                    (v.version, query_id, doc_id),
                ).fetchone()
                if taken:
                    raise InputError(
                        f"document {doc_id} is in the pool of query {query_id} already (version {v.version}); "
                        "nothing was restored",
                        path=self.file.path,
                    )
            self._insert(conn, v.version, rows, action)
        return len(rows)

    def restore_draft(self, draft: PoolVersion, rows: pd.DataFrame, *, action: str = "restore draft") -> PoolVersion:
        """Recreate a discarded draft under its own number, with its items exactly as they were. Audited.

        Refused when the project has a draft again, or when that number has been used since.
        """
        if draft.frozen:
            raise InputError(f"pool version {draft.version} is frozen; only a draft is restored", path=self.file.path)
        current = self.pools.draft()
        if current is not None:
            raise InputError(
                f"cannot bring back draft version {draft.version}: the project has draft version {current.version} "
                "now; discard or freeze it first",
                path=self.file.path,
            )
        if any(v.version >= draft.version for v in self.pools.versions()):
            raise InputError(
                f"cannot bring back draft version {draft.version}: that version number has been used since",
                path=self.file.path,
            )
        with self.file.transaction() as conn:
            conn.execute(
                "INSERT INTO pool_versions (version, state, parent, scale_low, scale_high, labels, created_at, "
                "created_by) VALUES (?, 'draft', ?, ?, ?, ?, ?, ?)",
                (
                    draft.version,
                    draft.parent,
                    draft.scale.low,
                    draft.scale.high,
                    json.dumps(draft.labels),
                    draft.created_at,
                    draft.created_by,
                ),
            )
            self._insert(conn, draft.version, rows, action)
        return self.pools.version(draft.version)

    def _insert(self, conn: sqlite3.Connection, version: int, rows: pd.DataFrame, action: str) -> None:
        values = [tuple(_value(x) for x in row) for row in rows[ROW_COLUMNS].itertuples(index=False, name=None)]
        conn.executemany(
            "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, note, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(version, *row) for row in values],
        )
        stamp = now()
        conn.executemany(
            "INSERT INTO audit_log (version, query_id, doc_id, action, new_grade, new_note, who, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(version, q, d, action, g, n or None, self.file.user, stamp) for q, d, g, _a, n, _u in values],
        )
