"""The project file: judgment pools that freeze, imported runs, and an audit trail.

One SQLite file per project. Every public method that changes something is one
committed transaction, so a grade is on disk when the call returns; imports validate
while writing inside a single transaction, so a failure or a cancel leaves the file as it was.
"""

from __future__ import annotations

import datetime as _dt
import getpass
import hashlib
import io
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.data import OrderKind, Qrels, Run, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale, TiePolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.texts import iter_documents, read_queries
from ndcg_desktop.scoring.ranking import top_documents
from ndcg_desktop.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA, SCHEMA_VERSION

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]

SUFFIX = ".ndcgproj"
DEFAULT_LABELS = ("Not relevant", "Related", "Highly relevant", "Perfect")


class ProjectInUse(InputError):
    """Another process has the project open for writing."""


class ImportCancelled(Exception):
    """The caller cancelled an import; the project is unchanged."""


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def default_user() -> str:
    return os.environ.get("NDCG_USER") or getpass.getuser()


def default_labels(scale: GradeScale) -> list[str]:
    if (scale.low, scale.high) == (0, 3):
        return list(DEFAULT_LABELS)
    return [f"Grade {g}" for g in range(scale.low, scale.high + 1)]


def pool_hash(triples: pd.DataFrame, scale: GradeScale) -> str:
    """SHA-256 over the scale and the sorted (query, doc, grade) triples.

    The same judgments give the same hash wherever they come from (a project, or its
    exported qrels imported into another project with the same scale).
    """
    digest = hashlib.sha256(f"ndcg-pool-v1 scale={scale}\n".encode())
    ordered = triples.sort_values(["query_id", "doc_id"], kind="stable")
    for q, d, g in zip(ordered["query_id"], ordered["doc_id"], ordered["grade"], strict=True):
        digest.update(f"{q}\t{d}\t{int(g)}\n".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class PoolVersion:
    version: int
    state: str  # draft | frozen
    parent: int | None
    scale: GradeScale
    labels: list[str]
    created_at: str
    created_by: str
    frozen_at: str | None
    frozen_by: str | None
    hash: str | None

    @property
    def frozen(self) -> bool:
        return self.state == "frozen"

    @property
    def short_hash(self) -> str:
        return (self.hash or "")[:8]


@dataclass(frozen=True)
class RunInfo:
    name: str
    source_name: str
    sha256: str
    format: str
    reading: dict[str, Any]
    rows: int
    queries: int
    imported_at: str


class _Lock:
    """An advisory lock on a file beside the project, released by the OS if the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle: Any = None

    def acquire(self) -> bool:
        self.handle = open(self.path, "a+b")  # noqa: SIM115 - held for the project's lifetime
        try:
            if sys.platform == "win32":
                import msvcrt

                msvcrt.locking(self.handle.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.handle.close()
            self.handle = None
            return False
        return True

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing drops the lock
            self.handle = None


class Project:
    """An open project file. Use :meth:`create` or :meth:`open`; close it (or use ``with``)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool, user: str, lock: _Lock | None):
        self.path = path
        self._conn = conn
        self.read_only = read_only
        self.user = user
        self._lock = lock

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | Path,
        *,
        scale: GradeScale | None = None,
        labels: list[str] | None = None,
        user: str | None = None,
    ) -> Project:
        """Create a new, empty project with a grade scale and a label per grade."""
        target = Path(path)
        scale = scale or GradeScale()
        labels = list(labels) if labels else default_labels(scale)
        if len(labels) != scale.high - scale.low + 1:
            raise InputError(f"the scale {scale} needs {scale.high - scale.low + 1} labels, {len(labels)} given")
        if target.exists():
            raise InputError("already exists; choose another name or open it", path=target)
        if not target.parent.is_dir():
            raise InputError("the folder does not exist", path=target.parent)
        # Built under a temporary name and moved into place: a crash never leaves half a project.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.executescript(
                    "BEGIN;\n" + SCHEMA + f"\nPRAGMA application_id = {APPLICATION_ID};\n"
                    f"PRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;"
                )
                conn.execute("BEGIN")
                conn.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [
                        ("scale", str(scale)),
                        ("labels", json.dumps(labels)),
                        ("created_at", _now()),
                        ("created_by", user or default_user()),
                    ],
                )
                conn.execute("COMMIT")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                conn.close()
            if target.exists():
                raise InputError("already exists; choose another name or open it", path=target)
            os.replace(tmp, target)
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)
        return cls.open(target, user=user)

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False, user: str | None = None) -> Project:
        """Open a project; refuses files that are not projects, or come from a newer version.

        A second writer is refused with :class:`ProjectInUse`; readers need no lock.
        """
        target = Path(path)
        if not target.is_file():
            raise InputError("no such project file" if not target.exists() else "is not a file", path=target)
        cls._check_file(target)
        lock = None
        if not read_only:
            lock = _Lock(target.with_name(target.name + ".lock"))
            if not lock.acquire():
                raise ProjectInUse(
                    "is open in another ndcg-desktop window or process; close it there, or open it read-only",
                    path=target,
                )
        uri = target.resolve().as_uri() + ("?mode=ro" if read_only else "")
        conn = None
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 5000")
            if not read_only:
                conn.execute("PRAGMA synchronous = FULL")  # a grade survives a power cut, not only a crash
                cls._migrate(conn)
        except BaseException:
            if conn is not None:
                conn.close()
            if lock is not None:
                lock.release()
            raise
        return cls(target, conn, read_only=read_only, user=user or default_user(), lock=lock)

    @staticmethod
    def _check_file(target: Path) -> None:
        with open(target, "rb") as handle:
            header = handle.read(16)
        if header != b"SQLite format 3\x00":
            raise InputError("is not an ndcg-desktop project (not a SQLite file)", path=target)
        try:
            conn = sqlite3.connect(target.resolve().as_uri() + "?mode=ro", uri=True)
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                problems = _quick_check(conn) if app_id == APPLICATION_ID else [("ok",)]
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"is damaged and cannot be opened ({exc})", path=target) from None
        if app_id != APPLICATION_ID:
            raise InputError("is a SQLite file but not an ndcg-desktop project", path=target)
        if problems != [("ok",)]:
            detail = "; ".join(str(row[0]) for row in problems[:3])
            raise InputError(f"is damaged and cannot be opened ({detail})", path=target)
        if version < 1:
            raise InputError("is an incomplete ndcg-desktop project (its creation was interrupted)", path=target)
        if version > SCHEMA_VERSION:
            raise InputError(
                f"was written by a newer ndcg-desktop (file format {version}, this version reads up to "
                f"{SCHEMA_VERSION}); update ndcg-desktop to open it",
                path=target,
            )

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Apply forward migrations, each in one transaction with its version bump."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        while version < SCHEMA_VERSION:
            # executescript would commit an open transaction first: put BEGIN inside the script.
            script = f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            try:
                conn.executescript(script)
            except sqlite3.Error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            version += 1

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None  # type: ignore[assignment]
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all."""
        if self.read_only:
            raise InputError("is open read-only", path=self.path)
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        else:
            self._conn.execute("COMMIT")

    def _query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        cur = self._conn.execute(sql, params)
        return cur.fetchall()

    # -- project settings ------------------------------------------------------------------
    @property
    def scale(self) -> GradeScale:
        return GradeScale.parse(self._meta("scale"))

    @property
    def labels(self) -> list[str]:
        return list(json.loads(self._meta("labels")))

    def _meta(self, key: str) -> str:
        return str(self._query("SELECT value FROM meta WHERE key = ?", (key,))[0][0])

    # -- queries and documents -------------------------------------------------------------
    def import_queries(self, path: str | Path) -> int:
        """Add or update query texts (TSV ``query_id<TAB>text``, CSV, JSONL). Returns the count."""
        frame = read_queries(path)
        with self.transaction() as conn:
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
        with self.transaction() as conn:
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
        rows = self._query("SELECT query_id, text FROM queries WHERE query_id = ?", (query_id,))
        return {"query_id": rows[0][0], "text": rows[0][1]} if rows else None

    def document(self, doc_id: str) -> dict[str, str] | None:
        rows = self._query("SELECT doc_id, title, text FROM documents WHERE doc_id = ?", (doc_id,))
        return {"doc_id": rows[0][0], "title": rows[0][1], "text": rows[0][2]} if rows else None

    def counts(self) -> dict[str, int]:
        one = self._query
        return {
            "queries": one("SELECT count(*) FROM queries")[0][0],
            "documents": one("SELECT count(*) FROM documents")[0][0],
            "runs": one("SELECT count(*) FROM runs")[0][0],
            "versions": one("SELECT count(*) FROM pool_versions")[0][0],
        }

    # -- pool versions ---------------------------------------------------------------------
    def versions(self) -> list[PoolVersion]:
        rows = self._query(
            "SELECT version, state, parent, scale_low, scale_high, labels, created_at, created_by, "
            "frozen_at, frozen_by, hash FROM pool_versions ORDER BY version"
        )
        return [
            PoolVersion(r[0], r[1], r[2], GradeScale(r[3], r[4]), json.loads(r[5]), r[6], r[7], r[8], r[9], r[10])
            for r in rows
        ]

    def version(self, number: int) -> PoolVersion:
        for v in self.versions():
            if v.version == number:
                return v
        raise InputError(f"has no pool version {number}", path=self.path)

    def draft(self) -> PoolVersion | None:
        drafts = [v for v in self.versions() if not v.frozen]
        return drafts[-1] if drafts else None

    def latest_frozen(self) -> PoolVersion | None:
        frozen = [v for v in self.versions() if v.frozen]
        return frozen[-1] if frozen else None

    def ensure_draft(self) -> PoolVersion:
        """The draft to edit: the existing one, else a new one from the latest frozen version."""
        draft = self.draft()
        if draft is not None:
            return draft
        latest = self.latest_frozen()
        if latest is not None:
            return self.new_draft_from(latest.version)
        with self.transaction() as conn:
            self._insert_version(conn, parent=None, scale=self.scale, labels=self.labels)
        return self.draft()  # type: ignore[return-value]

    def _insert_version(
        self, conn: sqlite3.Connection, *, parent: int | None, scale: GradeScale, labels: list[str]
    ) -> int:
        cur = conn.execute(
            "INSERT INTO pool_versions (state, parent, scale_low, scale_high, labels, created_at, created_by) "
            "VALUES ('draft', ?, ?, ?, ?, ?, ?)",
            (parent, scale.low, scale.high, json.dumps(labels), _now(), self.user),
        )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def new_draft_from(self, number: int) -> PoolVersion:
        """Start the next round: a draft that copies frozen version ``number``."""
        source = self.version(number)
        if not source.frozen:
            raise InputError(f"pool version {number} is a draft; only a frozen version can be copied", path=self.path)
        if self.draft() is not None:
            raise InputError(
                f"already has a draft (version {self.draft().version}); freeze or continue it first",  # type: ignore[union-attr]
                path=self.path,
            )
        with self.transaction() as conn:
            new = self._insert_version(conn, parent=number, scale=source.scale, labels=source.labels)
            conn.execute(
                "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, note, updated_at) "
                "SELECT ?, query_id, doc_id, grade, annotator, note, updated_at FROM judgments WHERE version = ?",
                (new, number),
            )
        return self.version(new)

    def _writable_draft(self, number: int | None) -> PoolVersion:
        version = self.version(number) if number is not None else self.ensure_draft()
        if version.frozen:
            raise InputError(
                f"pool version {version.version} is frozen (hash {version.short_hash}) and cannot change; "
                "start a new draft from it",
                path=self.path,
            )
        return version

    def pool_items(self, number: int, query_id: str | None = None) -> pd.DataFrame:
        """The pool of a version: query_id, doc_id, grade (None if ungraded), annotator, note, title."""
        sql = (
            "SELECT j.query_id, j.doc_id, j.grade, j.annotator, j.note, j.updated_at, "
            "coalesce(d.title, '') AS title FROM judgments j LEFT JOIN documents d ON d.doc_id = j.doc_id "
            "WHERE j.version = ?"
        )
        params: list[Any] = [number]
        if query_id is not None:
            sql += " AND j.query_id = ?"
            params.append(query_id)
        frame = pd.read_sql_query(sql + " ORDER BY j.query_id, j.doc_id", self._conn, params=params)
        frame["grade"] = frame["grade"].astype("Int64")
        return frame

    def query_progress(self, number: int) -> pd.DataFrame:
        """Every query (imported or pooled) with its text, pool size and graded count in a version."""
        return pd.read_sql_query(
            "WITH p AS (SELECT query_id, count(*) AS pool_size, count(grade) AS graded"
            "           FROM judgments WHERE version = ? GROUP BY query_id),"
            "     ids AS (SELECT query_id FROM queries UNION SELECT query_id FROM p) "
            "SELECT ids.query_id, coalesce(q.text, '') AS text, coalesce(p.pool_size, 0) AS pool_size,"
            "       coalesce(p.graded, 0) AS graded "
            "FROM ids LEFT JOIN p ON p.query_id = ids.query_id LEFT JOIN queries q ON q.query_id = ids.query_id "
            "ORDER BY ids.query_id",
            self._conn,
            params=[number],
        )

    def set_grade(self, query_id: str, doc_id: str, grade: int | None, *, version: int | None = None) -> int | None:
        """Grade one pool item (``None`` clears it). Returns the previous grade. Audited."""
        v = self._writable_draft(version)
        if grade is not None and not (v.scale.low <= grade <= v.scale.high):
            raise InputError(f"grade {grade} is outside the scale {v.scale}")
        with self.transaction() as conn:
            old = self._item(conn, v.version, query_id, doc_id)
            conn.execute(
                "UPDATE judgments SET grade = ?, annotator = ?, updated_at = ? "
                "WHERE version = ? AND query_id = ? AND doc_id = ?",
                (grade, self.user, _now(), v.version, query_id, doc_id),
            )
            self._audit(conn, v.version, query_id, doc_id, "grade", old_grade=old[0], new_grade=grade)
        return old[0]

    def set_note(self, query_id: str, doc_id: str, note: str, *, version: int | None = None) -> str:
        """Set the note of one pool item. Returns the previous note. Audited."""
        v = self._writable_draft(version)
        with self.transaction() as conn:
            old = self._item(conn, v.version, query_id, doc_id)
            conn.execute(
                "UPDATE judgments SET note = ?, updated_at = ? WHERE version = ? AND query_id = ? AND doc_id = ?",
                (note, _now(), v.version, query_id, doc_id),
            )
            self._audit(conn, v.version, query_id, doc_id, "note", old_note=old[1], new_note=note)
        return str(old[1])

    def _item(self, conn: sqlite3.Connection, version: int, query_id: str, doc_id: str) -> tuple[Any, Any]:
        row = conn.execute(
            "SELECT grade, note FROM judgments WHERE version = ? AND query_id = ? AND doc_id = ?",
            (version, query_id, doc_id),
        ).fetchone()
        if row is None:
            raise InputError(f"document {doc_id} is not in the pool of query {query_id} (version {version})")
        return row[0], row[1]

    def _audit(
        self, conn: sqlite3.Connection, version: int, query_id: str, doc_id: str, action: str, **values: Any
    ) -> None:
        conn.execute(
            "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, old_note, new_note, "
            "who, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                version,
                query_id,
                doc_id,
                action,
                values.get("old_grade"),
                values.get("new_grade"),
                values.get("old_note"),
                values.get("new_note"),
                self.user,
                _now(),
            ),
        )

    def audit_log(self, version: int | None = None) -> pd.DataFrame:
        sql = "SELECT * FROM audit_log" + (" WHERE version = ?" if version is not None else "") + " ORDER BY id"
        return pd.read_sql_query(sql, self._conn, params=[version] if version is not None else [])

    def add_items(self, pairs: pd.DataFrame, *, version: int | None = None, action: str = "add") -> pd.DataFrame:
        """Add ungraded (query_id, doc_id) items to a draft; returns per query how many were new."""
        v = self._writable_draft(version)
        pairs = pairs[["query_id", "doc_id"]].drop_duplicates()
        existing = self.pool_items(v.version)[["query_id", "doc_id"]]
        merged = pairs.merge(existing, how="left", indicator=True)
        new = merged[merged["_merge"] == "left_only"][["query_id", "doc_id"]]
        with self.transaction() as conn:
            rows = list(new.itertuples(index=False, name=None))
            conn.executemany(
                "INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (?, ?, ?, NULL)",
                [(v.version, q, d) for q, d in rows],
            )
            conn.executemany(
                "INSERT INTO audit_log (version, query_id, doc_id, action, who, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(v.version, q, d, action, self.user, _now()) for q, d in rows],
            )
        return _per_query_counts(pairs, new)

    def remove_ungraded(self, *, version: int | None = None) -> int:
        """Remove every ungraded item of a draft (an explicit step before freezing). Audited."""
        v = self._writable_draft(version)
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT query_id, doc_id FROM judgments WHERE version = ? AND grade IS NULL", (v.version,)
            ).fetchall()
            conn.execute("DELETE FROM judgments WHERE version = ? AND grade IS NULL", (v.version,))
            conn.executemany(
                "INSERT INTO audit_log (version, query_id, doc_id, action, who, at) VALUES (?, ?, ?, 'remove', ?, ?)",
                [(v.version, q, d, self.user, _now()) for q, d in rows],
            )
        return len(rows)

    def import_qrels(
        self, path: str | Path, *, negative_as_ungraded: bool = False, fmt: str | None = None
    ) -> dict[str, int]:
        """Import judgments into the draft. Conflicting grades already in the draft are refused.

        Negative grades (trec_eval's "pooled but not judged") are refused, or imported as
        ungraded pool items when ``negative_as_ungraded``.
        """
        v = self._writable_draft(None)
        wide = GradeScale(min(v.scale.low, -(10**9)), v.scale.high)
        qrels = read_qrels(path, scale=wide, fmt=fmt)
        frame = qrels.frame
        low = frame[frame["grade"] < v.scale.low]
        negative_ok = negative_as_ungraded and (low["grade"] < 0).all()
        if len(low) and not negative_ok:
            first = low.sort_values("line").iloc[0]
            hint = "; import trec_eval's -1 as ungraded items with --negative-as-ungraded" if first["grade"] < 0 else ""
            raise InputError(
                f"grade {int(first['grade'])} is outside the scale {v.scale}{hint}", path=path, line=int(first["line"])
            )
        grades = frame["grade"].astype("Int64")
        grades[frame["grade"] < v.scale.low] = pd.NA  # only with negative_as_ungraded; -1 on a -1..4 scale is a grade
        incoming = pd.DataFrame(
            {"query_id": frame["query_id"], "doc_id": frame["doc_id"], "grade": grades, "line": frame["line"]}
        )
        existing = self.pool_items(v.version)[["query_id", "doc_id", "grade"]]
        both = incoming.merge(existing, on=["query_id", "doc_id"], how="left", suffixes=("", "_old"), indicator=True)
        present = both[both["_merge"] == "both"]
        clash = present[
            present["grade_old"].notna() & present["grade"].notna() & (present["grade"] != present["grade_old"])
        ]
        if len(clash):
            c = clash.sort_values("line").iloc[0]
            raise InputError(
                f"document {c['doc_id']} for query {c['query_id']} is already graded {int(c['grade_old'])} in "
                f"draft version {v.version}, the file says {int(c['grade'])}",
                path=path,
                line=int(c["line"]),
            )
        new = both[both["_merge"] == "left_only"]
        fill = present[present["grade_old"].isna() & present["grade"].notna()]
        now = _now()

        def triples(frame: pd.DataFrame) -> list[tuple[Any, Any, Any]]:
            return list(frame[["query_id", "doc_id", "grade"]].itertuples(index=False, name=None))

        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(v.version, q, d, _opt_int(g), None if pd.isna(g) else self.user, now) for q, d, g in triples(new)],
            )
            conn.executemany(
                "UPDATE judgments SET grade = ?, annotator = ?, updated_at = ? "
                "WHERE version = ? AND query_id = ? AND doc_id = ?",
                [(int(g), self.user, now, v.version, q, d) for q, d, g in triples(fill)],
            )
            conn.executemany(
                "INSERT INTO audit_log (version, query_id, doc_id, action, new_grade, who, at) "
                "VALUES (?, ?, ?, 'import', ?, ?, ?)",
                [(v.version, q, d, _opt_int(g), self.user, now) for q, d, g in triples(pd.concat([new, fill]))],
            )
        return {
            "lines": int(len(frame) + qrels.repeats),
            "added": int(len(new)),
            "graded_existing": int(len(fill)),
            "unchanged": int(len(present) - len(fill)),
            "ungraded": int(incoming["grade"].isna().sum()),
            "identical_repeats": int(qrels.repeats),
        }

    def freeze(self, *, version: int | None = None, remove_ungraded: bool = False) -> PoolVersion:
        """Freeze a draft into an immutable, hashed version. Ungraded items block it unless removed."""
        draft = self.version(version) if version is not None else self.draft()
        if draft is None:
            raise InputError("has no draft pool to freeze", path=self.path)
        v = self._writable_draft(draft.version)
        items = self.pool_items(v.version)
        ungraded = int(items["grade"].isna().sum())
        if ungraded and not remove_ungraded:
            raise InputError(
                f"draft version {v.version} has {ungraded} ungraded item{'s' if ungraded != 1 else ''}; grade them, "
                "or remove them explicitly (--remove-ungraded)",
                path=self.path,
            )
        if len(items) == ungraded:
            raise InputError(f"draft version {v.version} has no graded items to freeze", path=self.path)
        if ungraded:
            self.remove_ungraded(version=v.version)
            items = self.pool_items(v.version)
        digest = pool_hash(items, v.scale)
        with self.transaction() as conn:
            conn.execute(
                "UPDATE pool_versions SET state = 'frozen', frozen_at = ?, frozen_by = ?, hash = ? "
                "WHERE version = ? AND state = 'draft'",
                (_now(), self.user, digest, v.version),
            )
        return self.version(v.version)

    def qrels(self, number: int | None = None) -> Qrels:
        """The judgments of a frozen version, ready for scoring. Drafts are refused."""
        v = self.frozen_version(number)
        items = self.pool_items(v.version)
        frame = pd.DataFrame(
            {
                "query_id": items["query_id"].astype(str),
                "doc_id": items["doc_id"].astype(str),
                "grade": items["grade"].astype(np.int64),
                "line": np.arange(1, len(items) + 1, dtype=np.int64),
            }
        )
        source = Source(path=f"{self.path.name} pool v{v.version}", sha256=v.hash or "", format="pool")
        return Qrels(frame=frame, source=source)

    def frozen_version(self, number: int | None) -> PoolVersion:
        if number is None:
            latest = self.latest_frozen()
            if latest is None:
                raise InputError("has no frozen pool version; freeze the draft first (ndcg freeze)", path=self.path)
            return latest
        v = self.version(number)
        if not v.frozen:
            raise InputError(f"pool version {number} is a draft; scores need a frozen version", path=self.path)
        return v

    def export_qrels(self, path: str | Path, *, version: int | None = None, fmt: str = "trec") -> PoolVersion:
        """Write a frozen version as TREC qrels (or CSV); re-importing it gives the same hash."""
        from ndcg_desktop.formats.export import atomic_write

        v = self.frozen_version(version)
        items = self.pool_items(v.version)
        if fmt == "csv":
            text = items[["query_id", "doc_id", "grade"]].to_csv(index=False, lineterminator="\n")
        else:
            text = "".join(
                f"{q} 0 {d} {int(g)}\n"
                for q, d, g in zip(items["query_id"], items["doc_id"], items["grade"], strict=True)
            )
        atomic_write(path, text)
        return v

    # -- runs ------------------------------------------------------------------------------
    def import_run(
        self,
        path: str | Path,
        *,
        name: str,
        ties: TiePolicy = TiePolicy.DOCID_DESC,
        id_map: str | None = None,
        fmt: str | None = None,
        order: OrderKind | None = None,
    ) -> RunInfo:
        """Store a run as read (rows in file order) with the reading settings that order it."""
        if not name.strip():
            raise InputError("a run needs a name")
        if self._query("SELECT 1 FROM runs WHERE name = ?", (name,)):
            raise InputError(f"already has a run named {name!r}; choose another name", path=self.path)
        run = read_run(path, fmt=fmt, order=order)
        top_documents(run, 1, ties=ties, id_map=id_map)  # validates the ID map before anything is written
        table = pa.table(
            {
                "query_id": pa.DictionaryArray.from_arrays(pa.array(run.q), run.queries),
                "doc_id": pa.DictionaryArray.from_arrays(pa.array(run.d), run.docs),
                "score": pa.array(run.score) if run.score is not None else pa.nulls(len(run), pa.float64()),
                "rank": pa.array(run.rank) if run.rank is not None else pa.nulls(len(run), pa.float64()),
                "line": pa.array(
                    run.line_numbers if run.line_numbers is not None else np.arange(len(run)) + run.first_line
                ),
            }
        )
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, table.schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as writer:
            writer.write_table(table)
        reading = {
            "order": run.order.value,
            "ties": ties.value,
            "id_map": id_map,
            "notes": run.notes,
            "empty_queries": list(run.empty_queries),
        }
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO runs (name, source_name, sha256, format, reading, rows, queries, data, imported_at, "
                "imported_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    Path(path).name,
                    run.source.sha256,
                    run.source.format,
                    json.dumps(reading),
                    len(run),
                    len(run.answered_queries()),
                    sink.getvalue(),
                    _now(),
                    self.user,
                ),
            )
        return self.run_info(name)

    def runs(self) -> list[RunInfo]:
        rows = self._query(
            "SELECT name, source_name, sha256, format, reading, rows, queries, imported_at FROM runs ORDER BY run_id"
        )
        return [RunInfo(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7]) for r in rows]

    def run_info(self, name: str) -> RunInfo:
        for info in self.runs():
            if info.name == name:
                return info
        known = ", ".join(i.name for i in self.runs()) or "none"
        raise InputError(f"has no run named {name!r} (runs: {known})", path=self.path)

    def load_run(self, name: str) -> tuple[Run, RunInfo]:
        """Rebuild a stored run exactly as it was read from its file."""
        info = self.run_info(name)
        blob = self._query("SELECT data FROM runs WHERE name = ?", (name,))[0][0]
        table = pa.ipc.open_stream(blob).read_all().combine_chunks()
        qcol, dcol = table.column("query_id").chunk(0), table.column("doc_id").chunk(0)
        order = OrderKind(info.reading["order"])
        run = Run(
            queries=qcol.dictionary,
            docs=dcol.dictionary,
            q=qcol.indices.to_numpy().astype(np.int32),
            d=dcol.indices.to_numpy().astype(np.int32),
            score=None if table.column("score").null_count == len(table) else table.column("score").to_numpy(),
            rank=table.column("rank").to_numpy() if order is OrderKind.RANK else None,
            order=order,
            source=Source(path=info.source_name, sha256=info.sha256, format=info.format),
            line_numbers=table.column("line").to_numpy(),
            notes=list(info.reading["notes"]),
            empty_queries=tuple(info.reading.get("empty_queries", ())),
        )
        return run, info

    def pool_from_runs(
        self, names: list[str], depth: int, *, version: int | None = None, apply: bool = True
    ) -> pd.DataFrame:
        """Depth-k pooling: the top ``depth`` documents of each run per query join the draft.

        Returns per query the candidates and how many are new. With ``apply=False`` nothing
        is written (the preview the GUI shows before applying).
        """
        if depth < 1:
            raise InputError(f"the pool depth must be a positive integer, not {depth}")
        frames = []
        for name in names:
            run, info = self.load_run(name)
            frames.append(
                top_documents(run, depth, ties=TiePolicy(info.reading["ties"]), id_map=info.reading["id_map"])
            )
        pairs = (
            pd.concat(frames)[["query_id", "doc_id"]].drop_duplicates()
            if frames
            else pd.DataFrame(columns=["query_id", "doc_id"])
        )
        if apply:
            return self.add_items(pairs, version=version, action="pool")
        v = self._writable_draft(version)
        existing = self.pool_items(v.version)[["query_id", "doc_id"]]
        merged = pairs.merge(existing, how="left", indicator=True)
        return _per_query_counts(pairs, merged[merged["_merge"] == "left_only"])

    def send_for_judging(self, name: str, *, depth: int | None = None) -> pd.DataFrame:
        """PRODUCT.md rule 6's third resolution: a run's unjudged documents join the draft.

        Every returned document (or the top ``depth``) that the draft's pool lacks is added
        ungraded to the draft (created from the latest frozen version if needed). Returns per
        query how many documents now await grading.
        """
        run, info = self.load_run(name)
        depth = depth or max(len(run), 1)
        pairs = top_documents(run, depth, ties=TiePolicy(info.reading["ties"]), id_map=info.reading["id_map"])
        return self.add_items(pairs[["query_id", "doc_id"]], action="send for judging")

    # -- evaluations -----------------------------------------------------------------------
    def save_evaluation(self, run_name: str, version: int, settings_text: str, manifest: dict[str, Any]) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO evaluations (run_name, pool_version, settings, manifest, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (run_name, version, settings_text, json.dumps(manifest), _now()),
            )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def status(self) -> dict[str, Any]:
        """A summary for `ndcg status`: versions, pool sizes, grading progress, runs."""
        versions = []
        for v in self.versions():
            row = self._query(
                "SELECT count(*), count(grade), count(DISTINCT query_id) FROM judgments WHERE version = ?",
                (v.version,),
            )[0]
            versions.append(
                {
                    "version": v.version,
                    "state": v.state,
                    "parent": v.parent,
                    "hash": v.hash,
                    "items": row[0],
                    "graded": row[1],
                    "ungraded": row[0] - row[1],
                    "queries": row[2],
                    "created_at": v.created_at,
                    "frozen_at": v.frozen_at,
                    "frozen_by": v.frozen_by,
                }
            )
        return {
            "project": str(self.path),
            "scale": str(self.scale),
            "labels": self.labels,
            "counts": self.counts(),
            "pool_versions": versions,
            "runs": [
                {
                    "name": r.name,
                    "source": r.source_name,
                    "sha256": r.sha256,
                    "format": r.format,
                    "rows": r.rows,
                    "queries": r.queries,
                    "ties": r.reading["ties"],
                    "id_map": r.reading["id_map"],
                }
                for r in self.runs()
            ],
        }


# Checked on every open. The corpus (documents) is left out: a full check reads the whole
# file, seconds for a multi-GB corpus, and damage there surfaces as an error when read.
_CHECKED_TABLES = ("meta", "queries", "pool_versions", "judgments", "audit_log", "runs", "evaluations")


def _quick_check(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    if sqlite3.sqlite_version_info < (3, 33, 0):  # no per-table checks before SQLite 3.33
        return conn.execute("PRAGMA quick_check").fetchall()
    problems = [
        row
        for table in _CHECKED_TABLES
        for row in conn.execute(f"PRAGMA quick_check({table})").fetchall()
        if row != ("ok",)
    ]
    return problems or [("ok",)]


def _opt_int(value: Any) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


def _per_query_counts(candidates: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    total = candidates.groupby("query_id").size().rename("candidates")
    added = new.groupby("query_id").size().rename("new")
    out = pd.concat([total, added], axis=1).fillna(0).astype(int).reset_index()
    return out.rename(columns={"index": "query_id"})
