"""One judging job per project at a time, from any front (issue 33): a lock the command line and the window both
take before a job asks anything.

The lock is an advisory lock (``flock``; ``msvcrt.locking`` on Windows) on a file beside the project,
``PROJECT-judging.lock``, which holds who has it (process ID, host, start time) for the refusal to name. The
system releases it when the process ends, however it ends: a job killed or crashed never leaves a stale lock.
Two jobs in one process (the window started twice) take it on two open files, which exclude each other too.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ndcg_desktop.domain.errors import InputError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


def lock_path(project_path: str | Path) -> Path:
    """The lock file of a project: ``PROJECT-judging.lock`` beside it (as SQLite's ``-wal`` is)."""
    path = Path(project_path)
    return path.with_name(path.name + "-judging.lock")


@contextmanager
def judging(project_path: str | Path) -> Iterator[None]:
    """Hold the project's judging lock for the ``with`` block; another job holding it is an :class:`InputError`
    naming the project and who holds it (nothing asked, nothing written)."""
    where = lock_path(project_path)
    try:
        fd = os.open(where, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise InputError(
            f"cannot take the judging lock {where.name} beside it ({exc.strerror or exc})", path=project_path
        ) from None
    try:
        if not _try_lock(fd):
            holder = _holder(fd)
            raise InputError(
                f"a model is already judging this project ({holder}): one judging job at a time, so that no item "
                "is asked twice; wait for it to end or cancel it",
                path=project_path,
            )
        os.ftruncate(fd, 0)
        said = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.write(fd, json.dumps(said).encode("utf-8"))
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        else:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    except OSError:
        pass  # closing the file releases it anyway


def _holder(fd: int) -> str:
    """Who holds the lock, from what it wrote there (the process ID and since when), or a plain phrase."""
    try:
        said = json.loads(os.pread(fd, 4096, 0) if hasattr(os, "pread") else b"")
        return f"process {int(said['pid'])} on {str(said['host'])[:60]}, since {str(said['since'])[:19]}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process or window"
