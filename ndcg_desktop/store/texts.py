"""Query and document texts, imported, updated, looked up one at a time; and the grading guidelines, a history of
Markdown texts, the last one current, each change audited."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.progress import Cancelled, IsCancelled, Progress
from ndcg_desktop.formats.guidelines import check_guidelines, guidelines_sha256, normalise_guidelines
from ndcg_desktop.formats.texts import iter_documents, read_queries
from ndcg_desktop.store.core import ProjectFile, connect_read_only, now
from ndcg_desktop.store.fields import guard
from ndcg_desktop.store.repository import Repository, writes


@dataclass(frozen=True)
class Guidelines:
    """One state of the guidelines: the text, its SHA-256, and who set it when, from where."""

    id: int
    text: str
    sha256: str  # '' when the text is empty (no guidelines)
    source: str  # file:NAME, window, undo, redo
    who: str
    at: str


class TextRepository(Repository):
    """The queries, documents and grading guidelines of one project file."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file

    @writes
    def import_topics(self, path: str | Path, *, fmt: str | None = None) -> pd.DataFrame:
        """Add or update queries (topics: TREC topic files, TSV, CSV, JSONL); returns what was read.

        Each query of the file is stored whole: its title, description and narrative replace the
        stored ones (a file without descriptions clears them), in one transaction. The frame's ``stored`` column
        says, per query, what the import did: ``new``, ``replaced`` (a stored topic with other words) or
        ``unchanged``.
        """
        frame = read_queries(path, fmt)
        with self.file.transaction() as conn:
            ids = frame["query_id"].tolist()
            before: dict[str, tuple[str, str, str]] = {  # every stored topic: thousands at most, read at once
                row[0]: tuple(row[1:])
                for row in conn.execute(
                    "SELECT query_id, coalesce(text, ''), coalesce(description, ''), coalesce(narrative, '') "
                    "FROM queries"
                )
            }
            words = zip(frame["title"], frame["description"], frame["narrative"], strict=True)
            frame = frame.assign(
                stored=[
                    "new" if qid not in before else ("unchanged" if before[qid] == tuple(given) else "replaced")
                    for qid, given in zip(ids, words, strict=True)
                ]
            )
            conn.executemany(
                "INSERT INTO queries (query_id, text, description, narrative) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (query_id) DO UPDATE SET text = excluded.text, description = excluded.description, "
                "narrative = excluded.narrative",
                frame[["query_id", "title", "description", "narrative"]].itertuples(index=False, name=None),
            )
        return frame

    @writes
    def import_documents(
        self, path: str | Path, *, progress: Progress | None = None, cancelled: IsCancelled | None = None
    ) -> int:
        """Stream documents (JSONL or CSV/TSV with doc_id, title, text) into the project.

        Memory stays bounded (batches of rows); the whole import is one transaction.
        """
        total = 0
        with self.file.transaction() as conn:
            for batch, done, size in iter_documents(path):
                if cancelled is not None and cancelled():
                    raise Cancelled()
                conn.executemany(
                    "INSERT INTO documents (doc_id, title, text) VALUES (?, ?, ?) "
                    "ON CONFLICT (doc_id) DO UPDATE SET title = excluded.title, text = excluded.text",
                    batch,
                )
                total += len(batch)
                if progress is not None:
                    progress(done, size)
        return total

    def counts(self) -> tuple[int, int]:
        """How many queries and documents the project holds."""
        one = self.file.query
        return int(one("SELECT count(*) FROM queries")[0][0]), int(one("SELECT count(*) FROM documents")[0][0])

    def query(self, query_id: str) -> dict[str, str] | None:
        """The query's topic: query_id, title (also as ``text``), description, narrative; None if not imported."""
        topics = "description, narrative" if self.file.schema_version >= 3 else "'', ''"  # older, read-only
        rows = self.file.query(f"SELECT query_id, text, {topics} FROM queries WHERE query_id = ?", (query_id,))
        if not rows:
            return None
        query_id, title, description, narrative = rows[0]
        return {"query_id": query_id, "text": title, "title": title, "description": description, "narrative": narrative}

    def document(self, doc_id: str) -> dict[str, str] | None:
        guard(self.file.conn, self.file.path, "documents", "doc_id = ?", (doc_id,))  # bounded before it is read
        rows = self.file.query("SELECT doc_id, title, text FROM documents WHERE doc_id = ?", (doc_id,))
        return {"doc_id": rows[0][0], "title": rows[0][1], "text": rows[0][2]} if rows else None

    def search_documents(self, text: str, *, limit: int = 50, cancelled: IsCancelled | None = None) -> pd.DataFrame:
        """Up to ``limit`` documents for a search box: IDs starting with ``text`` first, then titles, then texts
        containing it (ASCII letters case-insensitively). Columns doc_id, title, match ("id", "title", "text").

        Runs on its own read-only connection, so a search on a worker thread never shares a statement with the
        window's writes; ``cancelled()`` is polled while SQLite scans (a million passages take a second or two).
        """
        needle = text.strip()
        columns = ["doc_id", "title", "match"]
        if not needle:
            return pd.DataFrame(columns=columns)
        conn = connect_read_only(self.file.path)
        if cancelled is not None:
            conn.set_progress_handler(lambda: 1 if cancelled() else 0, 10_000)  # non-zero interrupts the scan
        found: dict[str, tuple[str, str]] = {}
        try:
            # A primary-key range: IDs that start with the needle, found without a scan.
            steps = [
                ("id", "SELECT doc_id, NULL FROM documents WHERE doc_id >= ? AND doc_id < ? ORDER BY doc_id", 2),
                ("title", "SELECT doc_id, NULL FROM documents WHERE instr(lower(title), lower(?)) > 0", 1),
                ("text", "SELECT doc_id, NULL FROM documents WHERE instr(lower(text), lower(?)) > 0", 1),
            ]
            for kind, sql, arity in steps:
                if cancelled is not None and cancelled():
                    raise Cancelled()
                params = (needle, needle + "\U0010ffff") if arity == 2 else (needle,)
                for doc_id, _title in conn.execute(f"{sql} LIMIT ?", (*params, limit)):
                    found.setdefault(doc_id, ("", kind))
                if len(found) >= limit:
                    break
            if found:  # the titles shown, bounded (store/fields.py) before they are read
                marks = ", ".join("?" * len(found))
                guard(conn, self.file.path, "documents", f"doc_id IN ({marks})", tuple(found))
                titles = dict(
                    conn.execute(f"SELECT doc_id, title FROM documents WHERE doc_id IN ({marks})", tuple(found))
                )
                found = {d: (str(titles.get(d, "")), kind) for d, (_t, kind) in found.items()}
        except sqlite3.OperationalError as exc:
            if cancelled is not None and cancelled() and "interrupt" in str(exc):
                raise Cancelled() from None
            raise
        finally:
            conn.close()
        rows = [(doc_id, title, kind) for doc_id, (title, kind) in list(found.items())[:limit]]
        return pd.DataFrame(rows, columns=columns)

    def texts_of(self, query_ids: list[str], doc_ids: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The stored topics (query_id, text, description, narrative) and documents (doc_id, title, text) among
        the given IDs."""
        conn = self.file.conn
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted_ids (kind TEXT, id TEXT, PRIMARY KEY (kind, id))")
        conn.execute("DELETE FROM wanted_ids")
        conn.executemany("INSERT OR IGNORE INTO wanted_ids VALUES ('q', ?)", [(q,) for q in query_ids])
        conn.executemany("INSERT OR IGNORE INTO wanted_ids VALUES ('d', ?)", [(d,) for d in doc_ids])
        queries = pd.read_sql_query(
            "SELECT query_id, text, description, narrative FROM queries JOIN wanted_ids ON kind = 'q' "
            "AND id = query_id ORDER BY query_id",
            conn,
        )
        guard(conn, self.file.path, "documents", "doc_id IN (SELECT id FROM wanted_ids WHERE kind = 'd')")
        docs = pd.read_sql_query(
            "SELECT doc_id, title, text FROM documents JOIN wanted_ids ON kind = 'd' AND id = doc_id ORDER BY doc_id",
            conn,
        )
        conn.execute("DELETE FROM wanted_ids")
        return queries, docs

    @writes
    def put_texts(self, queries: pd.DataFrame, docs: pd.DataFrame) -> None:
        """Add topics (query_id, text, description, narrative) and documents (doc_id, title, text), in one
        transaction."""
        with self.file.transaction() as conn:
            conn.executemany(
                "INSERT INTO queries (query_id, text, description, narrative) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (query_id) DO UPDATE SET text = excluded.text, description = excluded.description, "
                "narrative = excluded.narrative",
                queries[["query_id", "text", "description", "narrative"]].itertuples(index=False, name=None),
            )
            conn.executemany(
                "INSERT INTO documents (doc_id, title, text) VALUES (?, ?, ?) "
                "ON CONFLICT (doc_id) DO UPDATE SET title = excluded.title, text = excluded.text",
                docs[["doc_id", "title", "text"]].itertuples(index=False, name=None),
            )

    def guidelines(self) -> Guidelines | None:
        """The guidelines in force (None if never set; an entry with empty text if cleared)."""
        if self.file.schema_version < 3:  # an older file opened read-only: no guidelines yet
            return None
        guard(self.file.conn, self.file.path, "guidelines", "id = (SELECT max(id) FROM guidelines)")
        rows = self.file.query("SELECT id, text, sha256, source, who, at FROM guidelines ORDER BY id DESC LIMIT 1")
        return Guidelines(*rows[0]) if rows else None

    def guidelines_history(self) -> list[Guidelines]:
        """Every change of the guidelines, oldest first."""
        if self.file.schema_version < 3:
            return []
        guard(self.file.conn, self.file.path, "guidelines")
        return [
            Guidelines(*row)
            for row in self.file.query("SELECT id, text, sha256, source, who, at FROM guidelines ORDER BY id")
        ]

    @writes
    def set_guidelines(self, text: str, *, source: str, annotator: str) -> Guidelines:
        """Record ``text`` as the guidelines set by ``annotator`` (one committed row); setting the current text again
        adds nothing."""
        text = check_guidelines(normalise_guidelines(text), self.file.path)
        current = self.guidelines()
        if current is not None and current.text == text or current is None and not text:
            return current or Guidelines(0, "", "", source, annotator, now())
        with self.file.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO guidelines (text, sha256, source, who, at) VALUES (?, ?, ?, ?, ?)",
                (text, guidelines_sha256(text), source, annotator, now()),
            )
            number = int(cursor.lastrowid or 0)
        return Guidelines(
            *self.file.query("SELECT id, text, sha256, source, who, at FROM guidelines WHERE id = ?", (number,))[0]
        )
