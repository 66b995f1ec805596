"""The single-writer lock on a project file: one writer per file, whatever path reaches it."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any


class FileLock:
    """The single-writer lock, taken on the project file itself (issue 11 item 12).

    Keyed to the file (device and inode), not to the path typed: a symlink, a hard link or
    ``dir/../dir/NAME`` reaches the same lock, and there is no lock file to delete. On POSIX it is
    ``flock`` on a descriptor of the project file, released by the OS if the process dies; it does
    not interact with SQLite's own ``fcntl`` locks. Closing any descriptor of a file drops every
    ``fcntl`` lock the process holds on it, SQLite's too: so the descriptor is closed only once no
    project of this process has that file open any more (:meth:`enter` / :meth:`leave` count them).
    Windows keeps a lock file beside the project's resolved path.
    """

    _guard = threading.Lock()
    _held: set[tuple[int, int]] = set()  # files this process holds for writing
    _descriptors: dict[tuple[int, int], int] = {}  # one open descriptor per file, while it is in use
    _users: dict[tuple[int, int], int] = {}  # open ProjectFiles (readers and writers) per file

    @classmethod
    def enter(cls, target: Path) -> tuple[int, int]:
        """Count an open project on ``target``'s file; returns the file's key for :meth:`leave`."""
        st = os.stat(target)
        key = (st.st_dev, st.st_ino)
        with cls._guard:
            cls._users[key] = cls._users.get(key, 0) + 1
        return key

    @classmethod
    def leave(cls, key: tuple[int, int]) -> None:
        """Uncount one; the last to leave closes the lock descriptor (no SQLite lock of ours remains)."""
        with cls._guard:
            cls._users[key] -= 1
            if cls._users[key] == 0:
                del cls._users[key]
                fd = cls._descriptors.pop(key, None)
                if fd is not None and key not in cls._held:
                    os.close(fd)

    def __init__(self, target: Path) -> None:
        self.target = target
        self.key: tuple[int, int] | None = None
        self.handle: Any = None

    def acquire(self) -> bool:
        if sys.platform == "win32":
            return self._acquire_lock_file()
        import fcntl

        with self._guard:
            st = os.stat(self.target)  # follows symlinks: the file itself
            key = (st.st_dev, st.st_ino)
            if key in self._held:
                return False
            fd = self._descriptors.get(key)
            if fd is None or os.fstat(fd).st_nlink == 0:  # a deleted file's inode can be reused
                fd = os.open(self.target, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                if (os.fstat(fd).st_dev, os.fstat(fd).st_ino) != key:  # replaced meanwhile: try again later
                    os.close(fd)
                    return False
                self._descriptors[key] = fd
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
            self._held.add(key)
            self.key = key
            return True

    def release(self) -> None:
        if sys.platform == "win32":
            if self.handle is not None:
                self.handle.close()  # closing drops the lock
                self.handle = None
            return
        import fcntl

        with self._guard:
            if self.key is not None:
                fd = self._descriptors[self.key]
                fcntl.flock(fd, fcntl.LOCK_UN)
                self._held.discard(self.key)
                if self.key not in self._users:  # an open that failed: nobody will leave() this file
                    del self._descriptors[self.key]
                    os.close(fd)
                self.key = None

    def _acquire_lock_file(self) -> bool:
        import msvcrt

        real = self.target.resolve()
        self.handle = open(real.with_name(real.name + ".lock"), "a+b")  # noqa: SIM115 - held while open
        try:
            msvcrt.locking(self.handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            self.handle.close()
            self.handle = None
            return False
        return True
