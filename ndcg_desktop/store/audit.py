"""The audit log's one row writer: every change a person makes to a pool item is a row naming them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from ndcg_desktop.store.core import now

# (version, query_id, doc_id, action, old_grade, new_grade, old_note, new_note): what a row says was done
Change = tuple[int, str, str, str, Any, Any, Any, Any]


def change(version: int, query_id: str, doc_id: str, action: str, **values: Any) -> Change:
    """A row of :func:`audit` from the values it names (old_grade, new_grade, old_note, new_note; None otherwise)."""
    get = values.get
    return (version, query_id, doc_id, action, get("old_grade"), get("new_grade"), get("old_note"), get("new_note"))


def audit(conn: sqlite3.Connection, changes: Iterable[Change], *, annotator: str, at: str | None = None) -> None:
    """Log ``changes`` as made by ``annotator``, all at one time (``at``, else now): one transaction, one stamp."""
    stamp = at or now()
    conn.executemany(
        "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, old_note, new_note, "
        "who, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(*row, annotator, stamp) for row in changes],
    )
