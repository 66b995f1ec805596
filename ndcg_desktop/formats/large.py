"""Large runs and judgment files parsed by pyarrow straight from disk (or from a gzip stream) while a
thread hashes and scans the same bytes: a multi-GB file is never held in memory beside its columns."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO, cast

import numpy as np
import pyarrow as pa

from ndcg_desktop.formats.common import BLANK, BOM, bomb_limit, empty_fields, read_separated, row_line_numbers


class FileScan:
    """One pass over a file on a thread, while pyarrow parses the same file from disk.

    For large files, so that their bytes are never held in memory next to their columns: the
    scan gives the SHA-256 and what the in-memory readers check on the bytes (separators,
    ASCII, line ends). Files with anything unusual go back to the in-memory readers.
    """

    def __init__(self, path: Path, *, gzip_limit: int | None = None) -> None:
        self.sha256 = ""
        self.newlines = 0
        self.carriage_returns = 0
        self.crlf = 0  # CR LF pairs: CRs outside them are line ends to pyarrow, not to line numbers
        self.has_tab = self.has_space = False
        self.irregular = False  # runs of separators or separators at a line's edge: the in-memory reader's job
        self.ascii = True
        self.error: Exception | None = None
        # A gzip file (``gzip_limit``: the most bytes it may expand to) is decompressed here, once: the
        # scan sees its text, the digest its compressed bytes, and pyarrow reads the text from ``stream``.
        self.expanded, self.bomb, self.tail = 0, False, b""
        self._limit = gzip_limit
        self.stream: IO[bytes] | None = None
        self._pipe: IO[bytes] | None = None
        if gzip_limit is not None:
            read_end, write_end = os.pipe()
            self.stream, self._pipe = os.fdopen(read_end, "rb"), os.fdopen(write_end, "wb")
        self._thread = threading.Thread(target=self._scan, args=(path,), name="scan", daemon=True)
        self._thread.start()

    def _scan(self, path: Path) -> None:
        # numpy counts without holding the GIL (bytes.count would hold it while the main thread
        # imports and parses), and the one buffer is reused: no 4 MiB allocation per read.
        digest = hashlib.sha256()
        buffer = bytearray(1 << 20)  # 1 MiB: this and its seven masks stay 8 MiB (32 at 4 MiB), as fast (issue 28)
        view, array = memoryview(buffer), np.frombuffer(buffer, dtype=np.uint8)
        # Work arrays made once: a fresh 4 MiB mask per operation and chunk costs more than the operation.
        nl_, cr_, tab_, space_, sep_, end_, pair_ = (np.empty(len(buffer), dtype=bool) for _ in range(7))
        ends_with_cr = False
        previous_sep, previous_nl = False, True  # the byte before the chunk: a file starts like a line
        try:
            with open(path, "rb") as handle:
                source = (
                    handle if self._pipe is None else gzip.GzipFile(fileobj=cast(IO[bytes], _Hashed(handle, digest)))
                )
                while size := source.readinto(buffer):
                    chunk = array[:size]
                    if self._pipe is None:
                        digest.update(view[:size])
                    elif not self._pass_on(view[:size]):
                        break
                    nl, cr, tab, space = (
                        np.equal(chunk, c, out=b[:size]) for c, b in ((10, nl_), (13, cr_), (9, tab_), (32, space_))
                    )
                    self.newlines += int(np.count_nonzero(nl))
                    if ends_with_cr and chunk[0] == 10:
                        self.crlf += 1
                    has_cr, has_tab = bool(cr.any()), bool(tab.any())
                    if has_cr:
                        self.carriage_returns += int(np.count_nonzero(cr))
                        self.crlf += int(np.count_nonzero(np.logical_and(cr[:-1], nl[1:], out=pair_[: size - 1])))
                    ends_with_cr = bool(cr[-1])
                    self.has_tab = self.has_tab or has_tab
                    self.has_space = self.has_space or bool(space.any())
                    self.ascii = self.ascii and int(chunk.max()) < 128
                    if not self.irregular:
                        # A separator before a separator or a line end, or after a line end (or the file's
                        # start): an empty field to a one-separator reader. numpy, so the GIL stays free;
                        # a chunk without tabs or CRs (the usual run) needs the space and LF masks only.
                        sep = np.logical_or(tab, space, out=sep_[:size]) if has_tab else space
                        end = np.logical_or(nl, cr, out=end_[:size]) if has_cr else nl
                        self.irregular = (
                            empty_fields(sep, nl, end, pair_[: size - 1])
                            or (previous_sep and bool(sep[0] or end[0]))
                            or (previous_nl and bool(sep[0]))
                        )
                        previous_sep = bool(sep[-1])
                    previous_nl = bool(nl[-1])
        except (OSError, EOFError, zlib.error) as exc:  # a broken pipe too: the parse stopped reading
            self.error = exc
        finally:
            if self._pipe is not None:
                with contextlib.suppress(OSError):
                    self._pipe.close()  # the end of the text for pyarrow
        self.sha256 = digest.hexdigest()

    def _pass_on(self, text: memoryview) -> bool:
        """Hand decompressed text to the parse; False once it expands past the bomb limit."""
        self.expanded += len(text)
        if self._limit is not None and self.expanded > self._limit:
            self.bomb = True
            return False
        self.tail = (self.tail + bytes(text[-4096:]))[-4096:]
        self._pipe.write(text)  # type: ignore[union-attr]
        return True

    def result(self) -> FileScan:
        self._thread.join()
        return self


class _Hashed:
    """A file whose bytes feed a digest as they are read (a gzip file's own SHA-256 while it is decompressed)."""

    def __init__(self, raw: IO[bytes], digest: hashlib._Hash) -> None:
        self._raw, self._digest = raw, digest

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._digest.update(data)
        return data


LARGE_FILE_BYTES = 32 << 20  # plain files at least this large are parsed straight from disk
GZIP_EXPANSION = 4  # a gzip file counts as this many times its size (runs and qrels compress 4-8 times)


def read_large_separated(
    path: str | Path,
    names: list[str],
    types: dict[str, pa.DataType],
    is_format: Callable[[bytes], bool],
    *,
    min_bytes: int | None = None,
) -> tuple[pa.Table, str, np.ndarray | None] | None:
    """A large whitespace-separated file parsed by pyarrow straight from disk while a thread hashes and scans it.

    Returns the table, the file's SHA-256 and the line number of each row (None: row ``i`` is on
    line ``i + 1``). Holding the bytes next to their columns would add the file's size to the peak.
    A gzip file is decompressed by that thread as pyarrow reads (never whole in memory), and counts
    as large from a quarter of ``min_bytes``. None, for the in-memory readers, when the file is
    smaller than ``min_bytes`` (default :data:`LARGE_FILE_BYTES`), starts with a BOM, is not of the
    format (``is_format`` sees its first 64 KiB) or has anything that needs their exact checks:
    mixed or repeated separators, non-ASCII bytes, lone CRs, a bad line, a gzip stream that is
    broken or expands past :func:`bomb_limit`.
    """
    p = Path(path)
    if not p.is_file():  # a pipe, a FIFO, a device: read once, in memory (a look at its head here would eat it)
        return None
    try:
        size = p.stat().st_size
        with open(p, "rb") as handle:
            head = handle.read(1 << 16)
            compressed = head[:2] == b"\x1f\x8b"
            if size * (GZIP_EXPANSION if compressed else 1) < (LARGE_FILE_BYTES if min_bytes is None else min_bytes):
                return None
            handle.seek(max(size - 4096, 0))
            tail = handle.read()
        if compressed:
            with gzip.open(p, "rb") as text:
                head = text.read(1 << 16)
    except (OSError, EOFError, zlib.error):
        return None
    if head.startswith(BOM) or b"\n" not in head.lstrip() or not is_format(head):
        return None  # the second: the first line must be whole for format detection
    if not compressed and not tail.rstrip(BLANK):
        return None
    scan = FileScan(p, gzip_limit=bomb_limit(size) if compressed else None)
    try:
        table = read_separated(scan.stream or p, "\t" if b"\t" in head else " ", names, types)
    finally:
        if scan.stream is not None:
            scan.stream.close()  # a parse that stopped early: the thread's next write fails and it ends
    scan.result()
    pa.default_memory_pool().release_unused()  # the parse's freed blocks, kept by pyarrow's allocator until asked
    tail = scan.tail if compressed else tail
    content = tail.rstrip(BLANK)
    unusual = (
        (scan.has_tab and scan.has_space) or scan.irregular or not scan.ascii or scan.carriage_returns != scan.crlf
    )
    if table is None or not table.num_rows or scan.error or scan.bomb or unusual or not content:
        return None
    # pyarrow skips empty lines: when the rows fill every line up to the last data line there are none.
    lines = scan.newlines - tail.count(b"\n", len(content)) + 1
    if lines != table.num_rows and compressed:
        return None  # blank lines inside: the in-memory reader numbers the lines
    line_numbers = None if lines == table.num_rows else row_line_numbers(p.read_bytes(), table.num_rows, 1)
    return table, scan.sha256, line_numbers
