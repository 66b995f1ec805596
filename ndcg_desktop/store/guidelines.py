"""The project's grading guidelines: a history of Markdown texts, the last one current, each change audited."""

from __future__ import annotations

from dataclasses import dataclass

from ndcg_desktop.formats.guidelines import check_guidelines, guidelines_sha256, normalise_guidelines
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.fields import guard


@dataclass(frozen=True)
class Guidelines:
    """One state of the guidelines: the text, its SHA-256, and who set it when, from where."""

    id: int
    text: str
    sha256: str  # '' when the text is empty (no guidelines)
    source: str  # file:NAME, window, undo, redo
    who: str
    at: str


class GuidelinesRepository:
    """Reads and appends the guidelines history of one project file."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file

    def current(self) -> Guidelines | None:
        """The guidelines in force (None if never set; an entry with empty text if cleared)."""
        if self.file.schema_version < 3:  # an older file opened read-only: no guidelines yet
            return None
        guard(self.file.conn, self.file.path, "guidelines", "id = (SELECT max(id) FROM guidelines)")
        rows = self.file.query("SELECT id, text, sha256, source, who, at FROM guidelines ORDER BY id DESC LIMIT 1")
        return Guidelines(*rows[0]) if rows else None

    def history(self) -> list[Guidelines]:
        """Every change, oldest first."""
        if self.file.schema_version < 3:
            return []
        guard(self.file.conn, self.file.path, "guidelines")
        return [
            Guidelines(*row)
            for row in self.file.query("SELECT id, text, sha256, source, who, at FROM guidelines ORDER BY id")
        ]

    def set(self, text: str, *, source: str, annotator: str) -> Guidelines:
        """Record ``text`` as the guidelines set by ``annotator`` (one committed row); setting the current text again
        adds nothing."""
        text = check_guidelines(normalise_guidelines(text), self.file.path)
        current = self.current()
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
