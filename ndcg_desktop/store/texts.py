"""Query and document texts: imported, updated, looked up one at a time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ndcg_desktop.formats.texts import iter_documents, read_queries
from ndcg_desktop.store.core import ImportCancelled, ProjectFile

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]


class TextRepository:
    """The queries and documents of one project file."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file

    def import_queries(self, path: str | Path) -> int:
        """Add or update query texts (TSV ``query_id<TAB>text``, CSV, JSONL). Returns the count."""
        frame = read_queries(path)
        with self.file.transaction() as conn:
            conn.executemany(
                "INSERT INTO queries (query_id, text) VALUES (?, ?) "
                "ON CONFLICT (query_id) DO UPDATE SET text = excluded.text",
                frame[["query_id", "text"]].itertuples(index=False, name=None),
            )
        return len(frame)

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
                    raise ImportCancelled()
                conn.executemany(
                    "INSERT INTO documents (doc_id, title, text) VALUES (?, ?, ?) "
                    "ON CONFLICT (doc_id) DO UPDATE SET title = excluded.title, text = excluded.text",
                    batch,
                )
                total += len(batch)
                if progress is not None:
                    progress(done, size)
        return total

    def query(self, query_id: str) -> dict[str, str] | None:
        rows = self.file.query("SELECT query_id, text FROM queries WHERE query_id = ?", (query_id,))
        return {"query_id": rows[0][0], "text": rows[0][1]} if rows else None

    def document(self, doc_id: str) -> dict[str, str] | None:
        rows = self.file.query("SELECT doc_id, title, text FROM documents WHERE doc_id = ?", (doc_id,))
        return {"doc_id": rows[0][0], "title": rows[0][1], "text": rows[0][2]} if rows else None
