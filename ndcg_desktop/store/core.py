"""The project file itself: creating, opening, locking, migrating, and one transaction helper.

Repositories (pools, judgments, runs, texts, evaluations) take a :class:`ProjectFile` and do
every read through :meth:`ProjectFile.query` and every write inside :meth:`ProjectFile.transaction`.
"""

from __future__ import annotations

import datetime as _dt
import functools
import getpass
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA, SCHEMA_VERSION

SUFFIX = ".ndcgproj"


class ProjectInUse(InputError):
    """Another process has the project open for writing."""


class ProtectionAltered(InputError):
    """The file's protection triggers are missing, altered or joined by others: it is not written to."""


class ImportCancelled(Exception):
    """The caller cancelled an import; the project is unchanged."""


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def default_user() -> str:
    return os.environ.get("NDCG_USER") or getpass.getuser()


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


class ProjectFile:
    """An open project file: its connection, its lock, and the transaction helper."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool, user: str, lock: _Lock | None):
        self.path = path
        self.conn = conn
        self.read_only = read_only
        self.user = user
        self._lock = lock
        # Compared with the schema's at open; a file whose protection is not intact is never written.
        self.protection = protection_problems(conn)

    @staticmethod
    def create(target: Path, *, scale: GradeScale, labels: list[str], user: str | None) -> None:
        """Write a new, empty project file at ``target`` (which must not exist)."""
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
                        ("created_at", now()),
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

    @classmethod
    def open(cls, target: Path, *, read_only: bool, user: str | None) -> ProjectFile:
        """Open a project; refuses files that are not projects, or come from a newer version.

        A second writer is refused with :class:`ProjectInUse`; readers need no lock.
        """
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
        if self.conn is not None:
            self.conn.close()
            self.conn = None  # type: ignore[assignment]
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all."""
        if self.read_only:
            raise InputError("is open read-only", path=self.path)
        if self.protection:
            raise ProtectionAltered(f"is not written to: {'; '.join(self.protection)}", path=self.path)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")

    def query(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[sqlite3.Row]:
        cur = self.conn.execute(sql, params)
        return cur.fetchall()

    def meta(self, key: str) -> str:
        return str(self.query("SELECT value FROM meta WHERE key = ?", (key,))[0][0])

    @property
    def scale(self) -> GradeScale:
        return GradeScale.parse(self.meta("scale"))

    @property
    def labels(self) -> list[str]:
        return list(json.loads(self.meta("labels")))


@functools.cache
def schema_triggers() -> dict[str, str]:
    """Each protection trigger of the current schema with its SQL, exactly as SQLite stores it."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
    finally:
        conn.close()


def protection_problems(conn: sqlite3.Connection) -> list[str]:
    """How the file's triggers differ from the schema's: missing, altered, or foreign ones. Empty if intact.

    SQLite compiles a trigger from the text it stores, so equal text means equal behaviour.
    """
    expected = schema_triggers()
    actual = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
    problems = [
        f"trigger {name} is missing" if name not in actual else f"trigger {name} is altered"
        for name, sql in expected.items()
        if actual.get(name) != sql
    ]
    problems += [f"trigger {name} is not part of ndcg-desktop's schema" for name in actual if name not in expected]
    return problems


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
