"""Runs, judgments, queries or documents given as a stream (a pipe, a FIFO, ``<(zcat run.gz)``, a device).

The stream is copied to a temporary file as it comes, checked on the way (:class:`~.common.StreamCheck`:
line length, UTF-8, runs of blank lines), and its first lines are parsed as soon as they are there, so a
stream that never gives a valid line (``/dev/urandom``, ``yes x``) is refused at once, naming what is
wrong. The copy is then read by the same code as a regular file of the same bytes, so a stream of N
lines costs the memory a file of N lines costs (a large one is parsed by pyarrow from disk), and an
endless stream of valid lines ends when the temporary folder is nearly full or the copy is larger than
the computer's memory (whose columns could not be read anyway), never in the memory's end.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.common import StreamCheck

HEAD_BYTES = 1 << 16  # the first lines parsed while the stream still comes
_PIECE = 1 << 20
_RESERVE_FRACTION = 0.1  # what the copy leaves free in the temporary folder
_RESERVE_BYTES = 256 << 20
_ROOM_STEP = 64 << 20  # how often the free space is looked at


def is_stream(path: str | Path) -> bool:
    """True for a pipe, a FIFO, a socket or a device: something read once, whose size is not known up front."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # missing: the readers name it
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextlib.contextmanager
def as_file(path: str | Path, check_head: Callable[[bytes], object]) -> Iterator[str | Path]:
    """``path`` itself, or for a stream (:func:`is_stream`) a checked temporary copy, removed afterwards.

    ``check_head`` parses the first complete lines (about :data:`HEAD_BYTES`) of a stream that goes on,
    raising :class:`InputError` for what is wrong there. Errors raised inside the block that name the
    copy are given the stream's own name.

    >>> # with as_file("/dev/stdin", lambda head: parse(head)) as readable: read_run(readable)
    """
    if not is_stream(path):
        yield path
        return
    try:
        folder = Path(tempfile.mkdtemp(prefix="ndcg-stream-"))
    except OSError as exc:
        where = tempfile.gettempdir()
        why = exc.strerror or exc
        raise InputError(f"cannot copy the stream into the temporary folder {where} ({why})", path=path) from None
    copy = folder / (Path(path).name or "stream")  # the same name: formats are told by extension too
    try:
        _copy(path, copy, check_head)
        try:
            yield copy
        except InputError as exc:
            if exc.path == str(copy):
                exc.path = str(path)
                exc.args = (str(exc),)
            raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copy(path: str | Path, copy: Path, check_head: Callable[[bytes], object]) -> None:
    total = 0
    check: StreamCheck | None = None  # None for a gzip stream: checked as the file it becomes, decompressed
    head: bytes | None = b""
    try:
        with open(path, "rb") as stream, open(copy, "wb") as out:
            while piece := stream.read(_PIECE):  # a buffered read: a whole piece unless the stream ends
                if total == 0 and piece[:2] != b"\x1f\x8b":
                    check = StreamCheck(path)
                total += len(piece)
                if check is not None:
                    check.feed(piece)
                    if head is not None:
                        head = _checked_head(head + piece, check_head)
                out.write(piece)
                if total // _ROOM_STEP != (total - len(piece)) // _ROOM_STEP:
                    _room_left(path, copy, total)
            if check is not None:
                check.end()
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise _no_room(path, copy, total) from None
        raise InputError(f"cannot be read: {exc.strerror or exc}", path=path) from None


def _checked_head(head: bytes, check_head: Callable[[bytes], object]) -> bytes | None:
    """``head`` while it is shorter than :data:`HEAD_BYTES`; then its complete lines are parsed, and None."""
    end = head.rfind(b"\n", 0, HEAD_BYTES) + 1 or head.find(b"\n", HEAD_BYTES) + 1  # whole lines, about HEAD_BYTES
    if len(head) < HEAD_BYTES or not end:
        return head
    complete = head[:end]
    if complete.strip():  # blank lines are StreamCheck's to count
        try:
            check_head(complete)
        except InputError as exc:
            # The last line may be a record cut short (a quoted CSV cell going on): the whole read decides it.
            if exc.line is not None and exc.line < complete.count(b"\n"):
                raise
    return None


def _room_left(path: str | Path, copy: Path, total: int) -> None:
    usage = shutil.disk_usage(copy.parent)
    if usage.free < max(_RESERVE_FRACTION * usage.total, min(_RESERVE_BYTES, usage.total // 4)):
        raise _no_room(path, copy, total)
    memory = _memory_bytes()
    if memory is not None and total > memory:  # its columns would not fit either: stop filling the disk
        raise InputError(
            f"the stream had not ended after {total / (1 << 20):,.0f} MiB, more than this computer's memory "
            "could read; save it to a file and read that",
            path=path,
        )


def _memory_bytes() -> int | None:
    """The computer's physical memory, where the system says (Linux, macOS)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _no_room(path: str | Path, copy: Path, total: int) -> InputError:
    return InputError(
        f"the stream had not ended after {total / (1 << 20):,.0f} MiB, when the temporary folder "
        f"{copy.parent.parent} was nearly full; save it to a file and read that",
        path=path,
    )
