"""What can go wrong with a project file, and the one place that turns SQLite and OS errors into it.

Like qutebrowser's ``misc/sql.py``, errors the user can do something about (a full disk, a file
another program has locked, read-only media, a damaged file) become an :class:`InputError` whose
one-line message names the file, says what happened and what to do; anything else is a bug and
is raised as it is.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale


class ProjectInUse(InputError):
    """Another ndcg-desktop process or window has the project open for writing."""


class ProtectionAltered(InputError):
    """The file's protection triggers are missing, altered or joined by others: it is not written to."""


class NoFrozenVersion(InputError):
    """The project has no frozen pool version to use; what to do to get one is the caller's to say (tasks.advice),
    from the state of the project."""


class NegativeGradeOutside(InputError):
    """A negative grade (trec_eval's "pooled, not judged") below the project's ``scale``, in an import that does
    not take it as an ungraded item: the store says where (file, line, ``grade``); naming the choice that takes
    such grades is each front's (the command line's option: tasks.importing; the window asks its own question)."""

    def __init__(self, grade: int, scale: GradeScale, *, path: str | Path, line: int) -> None:
        self.grade, self.scale = grade, scale
        super().__init__(f"grade {grade} is outside the scale {scale}", path=path, line=line)


class StorageProblem(InputError):
    """The project file's storage failed (disk, permissions, another program, damage); nothing was written."""


class ProjectBusy(StorageProblem):
    """Another program (an ``sqlite3`` shell, a backup tool) holds the file's write lock.

    A grade or note write waits only briefly for it, so the window can say so at once.
    """


class DiskFull(StorageProblem):
    """The disk (or the file's size limit) is full; the write was undone."""


class ProjectReadOnly(StorageProblem):
    """The file, its folder or its disk cannot be written; read-only use still works.

    The store says what failed and why (``why``) and whether opening the file read-only is a way out
    (``reopen``); what a read-only project still allows is each front's to say (:meth:`reopened`): the command
    line names its commands (``tasks.refusals.READ_ONLY_USE``), the window offers to open it read-only.
    """

    def __init__(self, why: str, *, path: str | Path, reopen: bool = False, nothing_written: bool = False) -> None:
        self.why, self.reopen, self.nothing_written = why, reopen, nothing_written
        super().__init__(self._said(""), path=path)

    def reopened(self, use: str) -> str:
        """The located message, ``use`` (what a read-only project still allows, in a front's words) named where it
        says to open it read-only."""
        return InputError(self._said(use), path=self.path).located()

    def _said(self, use: str) -> str:
        if not self.reopen:
            return self.why
        lead = self.why + ("; nothing was written: " if self.nothing_written else "; ")
        return lead + f"open it read-only{f' ({use})' if use else ''}, or copy it to a folder you can write"


class ProjectDamaged(StorageProblem):
    """SQLite found the file damaged."""


# SQLite's primary result codes (https://sqlite.org/rescode.html); the extended code's low byte.
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 26


# What SQLite says when the schema or the stored text is not what ndcg-desktop wrote: a table or a column
# dropped or renamed, a foreign key pointing nowhere, bytes that are not UTF-8 in a text column.
_ALTERED = (
    "no such table",
    "no such column",
    "has no column named",
    "foreign key mismatch",
    "Could not decode to UTF-8",
)


def altered(path: str | Path, what: str, detail: str) -> ProjectDamaged:
    """A stored value or table that does not read back as ndcg-desktop wrote it."""
    return ProjectDamaged(
        f"cannot be read as ndcg-desktop wrote it: {what} ({detail}); it was changed outside ndcg-desktop: restore "
        "it from a backup",
        path=path,
    )


@contextmanager
def stored_value(path: str | Path, what: str) -> Iterator[None]:
    """Around the parsing of a value the project stores (JSON, a scale, a count): a value that does not parse was
    not written by ndcg-desktop, and is refused as :func:`altered`, naming ``what`` (never a traceback)."""
    try:
        yield
    except ProjectDamaged:
        raise
    except sqlite3.Error as exc:  # text that is not UTF-8: damage; a locked or full disk: what known_error says
        known = known_error(exc, path)
        if known is None:
            raise
        raise known from None
    except (ValueError, KeyError, IndexError, TypeError, InputError) as exc:  # JSON and UTF-8 errors are ValueErrors
        detail = exc.message if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"
        raise altered(path, what, detail[:200]) from None


def known_error(exc: BaseException, path: str | Path) -> StorageProblem | None:
    """The user error that ``exc`` (from SQLite or the OS, touching ``path``) stands for; None for a bug.

    >>> str(known_error(sqlite3.OperationalError("database is locked"), "p.ndcgproj")).split(";")[0]
    'p.ndcgproj: another program is writing to the project file (SQLite: database is locked)'
    """
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        text = str(exc)
        if any(fragment in text for fragment in _ALTERED):
            return altered(path, "its tables", f"SQLite: {text[:200]}")
        primary = code & 0xFF if isinstance(code, int) else _code_from_text(text)
        return _from_sqlite(primary, text, Path(path))
    if isinstance(exc, OSError):
        return _from_os(exc, Path(path))
    return None


def _code_from_text(text: str) -> int | None:
    """Errors raised by the sqlite3 module itself carry no code; their text is fixed by SQLite."""
    for fragment, code in (
        ("database is locked", _BUSY),
        ("database table is locked", _LOCKED),
        ("database or disk is full", _FULL),
        ("readonly database", _READONLY),
        ("disk I/O error", _IOERR),
        ("malformed", _CORRUPT),
        ("file is not a database", _NOTADB),
        ("unable to open database file", _CANTOPEN),
    ):
        if fragment in text:
            return code
    return None


def _from_sqlite(code: int | None, text: str, path: Path) -> StorageProblem | None:
    said = f"(SQLite: {text})"
    if code in (_BUSY, _LOCKED):
        return ProjectBusy(
            f"another program is writing to the project file {said}; nothing was written: close the other program "
            "(an sqlite3 shell, a sync or backup tool) or wait for it, or for this program's own long task (an import) "
            "to end, then try again",
            path=path,
        )
    if code == _FULL:
        return DiskFull(
            f"the disk is full {said}; nothing was written: free some space on the disk holding {path.parent}, "
            "then try again",
            path=path,
        )
    if code in (_READONLY, _PERM):
        return ProjectReadOnly(
            f"cannot be written: the file, its folder or its disk is read-only {said}",
            path=path,
            reopen=True,
            nothing_written=True,
        )
    if code == _CANTOPEN:
        return ProjectReadOnly(
            f"cannot be opened {said}: its folder is not writable or not accessible (SQLite keeps a journal beside "
            "the file); open it read-only, or copy it to a folder you can write",
            path=path,
        )
    if code in (_CORRUPT, _NOTADB):
        return ProjectDamaged(
            f"is damaged {said}: restore it from a backup; the sqlite3 shell's .recover command may save what is left",
            path=path,
        )
    if code == _IOERR:
        return StorageProblem(
            f"could not be read or written {said}; nothing was written: check that the disk is present, not full "
            "and healthy, then try again",
            path=path,
        )
    return None


def _from_os(exc: OSError, path: Path) -> StorageProblem | None:
    where = path  # the project the user named, not a temporary or lock file beside it
    said = f"({exc.strerror or exc})"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ProjectReadOnly(
            f"cannot be written {said}: the folder or the disk is read-only or belongs to someone else; choose a "
            "folder you can write (read-only use of an existing project still works)",
            path=where,
        )
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(
            f"the disk is full {said}; nothing was written: free some space, then try again",
            path=where,
        )
    if exc.errno == errno.EIO:
        return StorageProblem(f"could not be read or written {said}: check the disk, then try again", path=where)
    return None
