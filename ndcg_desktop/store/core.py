"""The project file itself: creating, opening, locking, migrating, and one transaction helper.

Repositories (pools, judgments, ratings, runs, texts, ...) take a :class:`ProjectFile` and do every read through
:meth:`ProjectFile.query` and every write inside :meth:`ProjectFile.transaction`.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import os
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.progress import Cancelled
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.export import honour_umask
from ndcg_desktop.store.chain import audit_problems
from ndcg_desktop.store.errors import (
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    altered,
    known_error,
    stored_value,
)
from ndcg_desktop.store.fields import first_problem
from ndcg_desktop.store.lock import FileLock
from ndcg_desktop.store.schema import (
    APPLICATION_ID,
    CHAIN_FORMAT,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    TRIGGERS_SINCE,
    chain_link,
    run_hash,
)
from ndcg_desktop.store.sql import NOT_SQLITES, identifier
from ndcg_desktop.store.watch import ChangeWatch

if TYPE_CHECKING:
    import pandas as pd

F = TypeVar("F", bound=Callable[..., Any])

SUFFIX = ".ndcgproj"
BUSY_MS = 5000  # how long a write waits for another program's write lock
INTERACTIVE_BUSY_MS = 500  # a grade or a note: fail promptly, so the window can say so (issue 11 item 8)

__all__ = ["ProjectInUse", "ProtectionAltered"]  # defined in .errors, imported from here by older callers


@contextmanager
def translated(path: Path, *, os_errors: bool = True) -> Iterator[None]:
    """Turn SQLite (and, with ``os_errors``, OS) errors the user can act on into their InputError; re-raise bugs."""
    kinds: tuple[type[BaseException], ...] = (sqlite3.Error, OSError) if os_errors else (sqlite3.Error,)
    try:
        yield
    except kinds as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT:  # the project closed meanwhile
            raise Cancelled("the project was closed while this ran; nothing was written") from exc
        known = known_error(exc, path)
        if known is None:
            raise
        raise known from exc


def writes(method: F) -> F:
    """Mark ``method`` as one that changes the project file (or writes on its behalf): a use case's step, never
    called by a front (tests/test_architecture.py)."""
    method.writes = True  # type: ignore[attr-defined]
    return method


def is_write(member: object) -> bool:
    """Whether ``member`` is marked :func:`writes`: what the architecture test collects instead of a list."""
    return bool(getattr(member, "writes", False))


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


class ProjectFile:
    """An open project file: its connection, its lock, and the transaction helper."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool, lock: FileLock | None):
        self.path = path
        self._conn: sqlite3.Connection | None = conn
        # Every other thread (a worker importing, pooling, scoring) gets a connection of its own: one shared
        # connection serialises its statements, so the window's thread waited out a worker's long write (1.3 s
        # while a 7M-line run was stored), and a write started on one thread joined another's open transaction.
        # Only its own thread closes a worker's connection (closing one that another thread is running a statement
        # on crashes Python's sqlite3 module): at the end of each task (release_thread_connections), or, once its
        # thread has ended, when the project closes.
        self._owner = threading.get_ident()
        self._local = threading.local()
        self._others: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._others_guard = threading.Lock()
        self._identity = _identity(path)  # a worker connects by name: to this very file, or not at all
        self.read_only = read_only
        self._lock = lock
        self._key = FileLock.enter(path) if sys.platform != "win32" else None
        # Compared with the schema's at open; a file whose protection is not intact is never written.
        self.protection = protection_problems(conn)
        self._committed: list[Callable[[], None]] = []  # told after each commit on the opening thread

    def adopt(self) -> None:
        """Make the calling thread the one that opened the file: a project opened (and checked) on a worker is handed
        to the window's thread, which then uses the opening connection, watches it and hears its commits.

        Only once the opening thread is done with the file (its task returned) and before anything watches it; the
        connection is not bound to a thread (``check_same_thread=False``), only never used by two at once.
        """
        if self._conn is None or self._committed:
            raise RuntimeError("a project is handed to another thread while open and before it is watched")
        self._owner = threading.get_ident()

    def watch(self, committed: Callable[[], None]) -> ChangeWatch:
        """Watch what changes in the file (store/watch.py); ``committed()`` is called after every write committed
        on the thread that opened it (other threads' and programs' commits show in the watch's next ``take``)."""
        if self._conn is None or threading.get_ident() != self._owner:
            raise RuntimeError("a project is watched from the thread that opened it")
        watch = ChangeWatch(self._conn)
        self._committed.append(committed)
        return watch

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection: the one the file was opened with on its own thread, another on any other."""
        if self._conn is None or threading.get_ident() == self._owner:
            return self._conn  # type: ignore[return-value]  # None once closed, as before
        own: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if own is None:
            if _identity(self.path) != self._identity:
                raise InputError(
                    "was moved, renamed or replaced while it was open; nothing was read from or written to the file "
                    "now at that name: open the project again",
                    path=self.path,
                )
            own = _connect(self.path, read_only=self.read_only, create=False)
            with self._others_guard:
                if self._conn is None:  # closed meanwhile
                    own.close()
                    return None
                self._others[threading.get_ident()] = (threading.current_thread(), own)
            self._local.conn = own
            _opened_here().append(self)
        return own

    def change_stamp(self) -> int:
        """``PRAGMA data_version`` of the connection the file was opened with: it changes whenever any other
        connection commits (another program's, or a worker's), so a check remembered under it serves every thread.

        Each worker's own connection counts from its own start: a fresh one opened after another program changed
        the file would read as unchanged against a value the window's connection had before.
        """
        primary = self._conn
        if primary is None:
            return -1  # closed: matches no remembered check
        return int(primary.execute("PRAGMA data_version").fetchone()[0])

    def release_thread(self) -> None:
        """Close the calling thread's own connection, if it has one (the next use opens another)."""
        own: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if own is None:
            return
        self._local.conn = None
        with self._others_guard:
            self._others.pop(threading.get_ident(), None)
        own.close()

    @staticmethod
    def create(target: Path, *, scale: GradeScale, labels: list[str], created_by: str) -> None:
        """Write a new, empty project file at ``target`` (which must not exist), recording who created it."""
        if target.exists():
            raise InputError("already exists; choose another name or open it", path=target)
        if not target.parent.is_dir():
            raise InputError("the folder does not exist", path=target.parent)
        with translated(target):
            ProjectFile._build(target, scale=scale, labels=labels, created_by=created_by)

    @staticmethod
    def _build(target: Path, *, scale: GradeScale, labels: list[str], created_by: str) -> None:
        # Built under a temporary name and moved into place: a crash never leaves half a project.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            honour_umask(fd)  # mkstemp makes 0600; a project is shared like any file the user saves
        finally:
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
                        ("created_by", created_by),
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
    def open(cls, target: Path, *, read_only: bool) -> ProjectFile:
        """Open a project; refuses files that are not projects, or come from a newer version.

        A second writer is refused with :class:`ProjectInUse`; readers need no lock.
        """
        if not target.is_file():
            raise InputError("no such project file" if not target.exists() else "is not a file", path=target)
        with translated(target):
            return cls._open(target, read_only=read_only)

    @classmethod
    def _open(cls, target: Path, *, read_only: bool) -> ProjectFile:
        links = os.stat(target).st_nlink
        if links > 1:  # https://sqlite.org/howtocorrupt.html, "multiple links to the same file"
            raise InputError(
                f"has {links} names (hard links) on this disk; SQLite keeps its journal beside the name used, so two "
                "names can corrupt the project: remove the other links (or copy the file) and open it through one name",
                path=target,
            )
        cls._check_file(target)
        lock = None
        if not read_only:
            # SQLite would quietly open a file it cannot write read-only, and fail at the first grade.
            if not (os.access(target, os.W_OK) and os.access(target.parent, os.W_OK)):
                raise ProjectReadOnly(
                    "cannot be opened for writing: the file or its folder is read-only (or on read-only media)",
                    path=target,
                    reopen=True,
                )
            lock = FileLock(target)
            if not lock.acquire():
                raise ProjectInUse(
                    "is open in another ndcg-desktop window or process; close it there, or open it read-only",
                    path=target,
                )
        conn = None
        try:
            conn = _connect(target, read_only=read_only)
            if not read_only:
                if not protection_problems(conn):  # altered protection: never written, not even migrated
                    cls._migrate(conn)
        except BaseException:
            if conn is not None:
                conn.close()
            if lock is not None:
                lock.release()
            raise
        return cls(target, conn, read_only=read_only, lock=lock)

    @staticmethod
    def _check_file(target: Path) -> None:
        try:
            with open(target, "rb") as handle:
                header = handle.read(16)
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror or exc}); check its permissions", path=target) from None
        if header != b"SQLite format 3\x00":
            raise InputError("is not an ndcg-desktop project (not a SQLite file)", path=target)
        conn = connect_read_only(target)  # SQLite's errors (damaged, unreadable) are translated by the caller
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            problems = _quick_check(conn) if app_id == APPLICATION_ID else [("ok",)]
            foreign = foreign_tables(conn) if app_id == APPLICATION_ID else []
            # every stored field by its class, in SQL, before any of it is read (store/fields.py, issue 33 item 9)
            odd = first_problem(conn) if app_id == APPLICATION_ID and problems == [("ok",)] and not foreign else None
        finally:
            conn.close()
        if app_id != APPLICATION_ID:
            raise InputError("is a SQLite file but not an ndcg-desktop project", path=target)
        if problems != [("ok",)]:
            detail = "; ".join(str(row[0]) for row in problems[:3])
            raise InputError(f"is damaged and cannot be opened ({detail})", path=target)
        if foreign:  # ignored by nothing: refused, so no mechanism (undo, discard, the window's watch) meets it
            raise InputError(
                f"holds a {foreign[0][0]} {foreign[0][1]!r} that is not part of ndcg-desktop's schema (another program "
                "added it); nothing was read: remove it with that program, or export what you need from a copy",
                path=target,
            )
        if version < 1:
            raise InputError("is an incomplete ndcg-desktop project (its creation was interrupted)", path=target)
        if odd is not None and version <= SCHEMA_VERSION:
            raise altered(target, odd, "a value ndcg-desktop never writes; nothing was read")
        if version > SCHEMA_VERSION:
            raise InputError(
                f"was written by a newer ndcg-desktop (file format {version}, this version reads up to "
                f"{SCHEMA_VERSION}); update ndcg-desktop to open it",
                path=target,
            )

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Apply every forward migration, with its version bump, in one transaction: a file is either migrated
        to this format or left as it was (a full disk after two of four steps left a file in between)."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version >= SCHEMA_VERSION:
            return
        conn.create_function("ndcg_run_hash", 8, run_hash, deterministic=True)
        conn.create_function("ndcg_chain_link", 3, chain_link, deterministic=True)
        steps = "\n".join(f"{MIGRATIONS[v]}\nPRAGMA user_version = {v + 1};" for v in range(version, SCHEMA_VERSION))
        # executescript would commit an open transaction first: put BEGIN inside the script.
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{steps}\nCOMMIT;")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @property
    def schema_version(self) -> int:
        """The file's format (PRAGMA user_version): older than SCHEMA_VERSION only when opened read-only."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._others_guard:
            others, self._others = list(self._others.items()), {}
            primary, self._conn = self._conn, None
        self._committed.clear()
        for ident, (thread, conn) in others:
            if ident == threading.get_ident() or not thread.is_alive():
                conn.close()
            else:  # a task may be running a statement on it: stop that; its thread closes it when the task ends
                conn.interrupt()
        if primary is not None:
            primary.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._key is not None:
            FileLock.leave(self._key)
            self._key = None

    @contextmanager
    @writes
    def transaction(self, *, wait_ms: int = BUSY_MS) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all.

        ``wait_ms`` bounds the wait for another program's write lock (then :class:`ProjectBusy`).
        A full disk, a lock or read-only media become their user errors, after the rollback.
        """
        if self.read_only:
            raise InputError("is open read-only", path=self.path)
        if self.protection:
            raise ProtectionAltered(f"is not written to: {'; '.join(self.protection)}", path=self.path)
        with translated(self.path, os_errors=False):
            conn = self.conn
            conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    self._rollback(conn)  # this transaction's connection, even if the project closed meanwhile
                    raise
            finally:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        if conn is self._conn and not conn.in_transaction:  # committed on the opening thread, not nested
            for committed in list(self._committed):
                try:
                    committed()
                except Exception:  # a bug of a view that follows the project: shown as one, never as a failed write
                    sys.excepthook(*sys.exc_info())

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        # SQLite may already have rolled back (a full disk does): a second ROLLBACK would raise
        # "cannot rollback - no transaction is active" and hide the real error.
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the original error says more; SQLite rolls back a failed transaction on close

    def query(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[sqlite3.Row]:
        cur = self.conn.execute(sql, params)
        return cur.fetchall()

    def graded_frame(self, sql: str, params: list[Any], what: str, *, grade: str = "Int64") -> pd.DataFrame:
        """Rows with a ``grade`` column as a frame, grades as ``grade`` (``Int64``: None where ungraded). A value
        ndcg-desktop never writes (a grade of 2.5, an ID that is not text: a draft edited by hand) is refused as
        :func:`~ndcg_desktop.store.errors.altered`, naming ``what``."""
        import pandas as pd  # the store's core reads no frames otherwise

        with stored_value(self.path, what):
            frame = pd.read_sql_query(sql, self.conn, params=params)
            frame["grade"] = frame["grade"].astype(grade)
        return frame

    def setting(self, key: str) -> str | None:
        """A project-wide setting (the ``meta`` table), or None."""
        with translated(self.path, os_errors=False):  # as each repository's reads (store.repository)
            rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def meta(self, key: str, default: str | None = None) -> str:
        """A setting every project has (or ``default``): its absence is an altered file."""
        value = self.setting(key)
        if value is None and default is not None:
            return default
        if value is None:
            raise altered(self.path, f"its setting {key!r}", "missing")
        return value

    @writes
    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    @property
    def scale(self) -> GradeScale:
        with stored_value(self.path, "its grade scale"):
            return GradeScale.parse(self.meta("scale"))

    @property
    def labels(self) -> list[str]:
        with stored_value(self.path, "its grade labels"):
            return [str(label) for label in json.loads(self.meta("labels"))]


_threads = threading.local()


def _opened_here() -> list[ProjectFile]:
    """The project files the calling thread has a connection of its own to."""
    if not hasattr(_threads, "files"):
        _threads.files = []
    files: list[ProjectFile] = _threads.files
    return files


def release_thread_connections() -> None:
    """Close every connection the calling thread opened to a project file; run at the end of each background task.

    A project closed meanwhile on another thread interrupted this thread's statements and left the closing here.
    """
    files = _opened_here()
    while files:
        files.pop().release_thread()


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _connect(target: Path, *, read_only: bool, create: bool = True) -> sqlite3.Connection:
    """One connection to a project file with the settings every connection to it has (``create=False``: the file
    must exist; SQLite would otherwise make an empty one)."""
    if read_only:
        conn = connect_read_only(target)
    elif create:
        conn = sqlite3.connect(target.resolve(), isolation_level=None, check_same_thread=False)
    else:
        uri = target.resolve().as_uri() + "?mode=rw"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        if not read_only:
            conn.execute("PRAGMA synchronous = FULL")  # a grade survives a power cut, not only a crash
    except BaseException:
        conn.close()
        raise
    return conn


def connect_read_only(target: Path) -> sqlite3.Connection:
    """A read-only connection that also works in a read-only folder or on read-only media.

    A WAL-mode file needs a ``-shm`` index beside it, which such a folder cannot hold; with no
    journal left to replay, ``immutable=1`` reads the file as it is, without that index.
    """
    uri = target.resolve().as_uri()
    conn = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        if not isinstance(known_error(exc, target), ProjectReadOnly):
            raise
    wal = Path(f"{target}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise ProjectReadOnly(
            f"has changes in its journal ({wal.name}) that cannot be read in a read-only folder: copy the project "
            "and its -wal file to a folder you can write, and open it there",
            path=target,
        )
    return sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False)


@functools.cache
def schema_triggers() -> dict[str, str]:
    """Each protection trigger of the current schema with its SQL, exactly as SQLite stores it."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
    finally:
        conn.close()


@functools.cache
def schema_tables() -> frozenset[str]:
    """Every table of the current schema (an older format's are among them: no migration drops or renames one)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return frozenset(name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        conn.close()


def foreign_tables(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The tables and views of the file that the schema does not have, as ``(type, name)`` (SQLite's own
    ``sqlite_`` tables aside)."""
    rows = conn.execute(
        f"SELECT type, name FROM main.sqlite_master WHERE type IN ('table', 'view') AND {NOT_SQLITES} ORDER BY name"
    ).fetchall()
    return [(str(kind), str(name)) for kind, name in rows if kind == "view" or name not in schema_tables()]


def protection_problems(conn: sqlite3.Connection) -> list[str]:
    """How the file's triggers differ from the schema's: missing, altered, or foreign ones. Empty if intact.

    SQLite compiles a trigger from the text it stores, so equal text means equal behaviour.
    """
    version = conn.execute("PRAGMA user_version").fetchone()[0]  # an older file opened read-only: its own triggers
    expected = {name: sql for name, sql in schema_triggers().items() if TRIGGERS_SINCE.get(name, 1) <= version}
    actual = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
    problems = [
        f"trigger {name} is missing" if name not in actual else f"trigger {name} is altered"
        for name, sql in expected.items()
        if actual.get(name) != sql
    ]
    problems += [f"trigger {name} is not part of ndcg-desktop's schema" for name in actual if name not in expected]
    return problems + (chain_problems(conn) if version >= CHAIN_FORMAT else [])


def chain_problems(conn: sqlite3.Connection) -> list[str]:
    """How the record of frozen versions (schema ``frozen_chain``) and the versions differ: a broken link, a
    version recorded as frozen that is not (or has another hash now), a frozen version the record lacks."""
    problems: list[str] = []
    link = ""
    chain = conn.execute("SELECT version, hash, link FROM frozen_chain ORDER BY version").fetchall()
    for version, digest, stored in chain:
        link = chain_link(link, version, digest)
        if stored != link:
            problems.append(f"the record of frozen versions is broken at version {version} (a row edited or removed)")
            break
    recorded = {int(v): str(h) for v, h, _ in chain}
    rows = conn.execute("SELECT version, state, coalesce(hash, '') FROM pool_versions").fetchall()
    states = {int(v): (str(s), str(h)) for v, s, h in rows}
    for version, digest in recorded.items():
        state, now_hash = states.get(version, ("missing", ""))
        if state != "frozen" or now_hash != digest:
            now = {"missing": "is missing", "frozen": f"has sha256 {now_hash or 'none'} now"}.get(
                state, f"is a {state} with sha256 {now_hash or 'none'} now"
            )
            problems.append(f"pool version {version} was frozen with sha256 {digest}; it {now}")
    problems += [
        f"frozen pool version {v} is missing from the record of frozen versions"
        for v, (state, _h) in sorted(states.items())
        if state == "frozen" and v not in recorded
    ]
    return problems + audit_problems(conn, recorded)


# Checked on every open. The corpus (documents) is left out: a full check reads the whole
# file, seconds for a multi-GB corpus, and damage there surfaces as an error when read.
_CHECKED_TABLES = ("meta", "queries", "pool_versions", "judgments", "audit_log", "runs", "evaluations")


def _quick_check(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    if sqlite3.sqlite_version_info < (3, 33, 0):  # no per-table checks before SQLite 3.33
        return conn.execute("PRAGMA quick_check").fetchall()
    problems = [
        row
        for table in _CHECKED_TABLES
        for row in conn.execute(f"PRAGMA quick_check({identifier(table)})").fetchall()
        if row != ("ok",)
    ]
    return problems or [("ok",)]
