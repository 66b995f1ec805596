"""Reading bytes from disk, detecting formats, and locating lines for messages."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ndcg_desktop.domain.data import Source
from ndcg_desktop.domain.errors import InputError

RUN_FORMATS = ("trec", "csv", "tsv", "jsonl")
QRELS_FORMATS = ("trec", "csv", "tsv")
BOM = b"\xef\xbb\xbf"
BLANK = b"\r\n\t "  # what has_inner_blank_lines ignores at the end of a file


class PendingDigest:
    """The SHA-256 of a buffer, computed on a thread while the caller parses the same bytes.

    hashlib releases the GIL on large buffers, so hashing a big run costs no wall time.
    """

    def __init__(self, raw: bytes) -> None:
        self._hexdigest = ""
        self._thread = threading.Thread(target=self._hash, args=(raw,), name="sha256", daemon=True)
        self._thread.start()

    def _hash(self, raw: bytes) -> None:
        self._hexdigest = hashlib.sha256(raw).hexdigest()

    def result(self) -> str:
        self._thread.join()
        return self._hexdigest


def read_input(path: str | Path, fmt_hint: str | None = None) -> tuple[bytes, str]:
    """Return the file's decompressed bytes (BOM removed) and the SHA-256 of the file as stored.

    Refuses a missing path, a directory and a file with no content, naming the path.
    """
    data, digest = open_input(path)
    return data, digest.result()


def open_input(path: str | Path) -> tuple[bytes, PendingDigest]:
    """Like :func:`read_input`, with the SHA-256 still being computed in the background."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=path)
    if p.is_dir():
        raise InputError("is a directory, not a file", path=path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path=path) from None
    digest = PendingDigest(raw)
    data = raw
    if raw[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is not a valid gzip file ({exc})", path=path) from None
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data or data.isspace():  # same as ``not data.strip()``, without copying a large file
        raise InputError("is empty: no data lines", path=path)
    return data, digest


def make_source(path: str | Path, digest: str, fmt: str) -> Source:
    return Source(path=str(path), sha256=digest, format=fmt)


def base_suffix(path: str | Path) -> str:
    """The extension that names the format, looking through a ``.gz``."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def first_line(data: bytes) -> str:
    for raw in io.BytesIO(data):
        text = raw.decode("utf-8", errors="replace").strip()
        if text:
            return text
    return ""


def iter_lines(data: bytes, path: str | Path) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without line ending) for every non-blank line, strictly UTF-8."""
    for number, raw in enumerate(io.BytesIO(data), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"invalid UTF-8 at byte {exc.start + 1} of the line", path=path, line=number) from None
        text = text.rstrip("\r\n")
        if text.strip():
            yield number, text


def _content_end(data: bytes) -> int:
    """Length of ``data`` without trailing blank space, looking at the tail only (no copy of the file)."""
    tail = data[-4096:].rstrip(BLANK)
    if tail or len(data) <= 4096:
        return len(data) - 4096 + len(tail) if len(data) > 4096 else len(tail)
    return len(data.rstrip(BLANK))  # more than 4 KiB of trailing blanks: rare, copying is fine


def has_inner_blank_lines(data: bytes) -> bool:
    """True if a blank line precedes a data line, so row numbers and line numbers differ."""
    end = _content_end(data)
    return data.startswith((b"\n", b"\r\n")) or data.find(b"\n\n", 0, end) >= 0 or data.find(b"\n\r\n", 0, end) >= 0


def row_line_numbers(data: bytes, n_rows: int, first: int) -> np.ndarray | None:
    """Line number of each of ``n_rows`` rows read from ``data`` by pyarrow, the first on line ``first``.

    None when row ``i`` is on line ``first + i``, the usual case. pyarrow skips empty lines, so when
    the rows fill every line up to the last data line there is no blank line and no need for the
    slower exact search; a lone CR (which pyarrow also takes for a line end) defeats that count.
    """
    end = _content_end(data)
    if data.count(b"\n", 0, end) + 1 == first - 1 + n_rows and data.find(b"\r", 0, end) < 0:
        return None
    if has_inner_blank_lines(data):
        return nonblank_line_numbers(data)[first - 1 : first - 1 + n_rows]
    return None


def nonblank_line_numbers(data: bytes) -> np.ndarray:
    """Line numbers (1-based) of the non-empty lines, vectorised for large files."""
    arr = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(arr == 10)
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [len(arr)]))
    lengths = ends - starts
    has_cr = np.zeros(len(starts), dtype=bool)
    nonzero = lengths > 0
    has_cr[nonzero] = arr[ends[nonzero] - 1] == 13
    lengths = lengths - has_cr
    return np.flatnonzero(lengths > 0) + 1


def check_utf8(data: bytes, path: str | Path) -> None:
    """Raise with the line number if the data is not valid UTF-8."""
    if data.isascii():  # the common case, checked without copying
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError("invalid UTF-8 (the file must be UTF-8 text)", path=path, line=line) from None


def read_whitespace_table(data: bytes, names: list[str], types: dict[str, pa.DataType]) -> pa.Table | None:
    """Vectorised read of a whitespace-separated file with exactly ``len(names)`` fields a line.

    Returns None when the file needs the line-by-line reader: a wrong field count, a bad
    number, or blank lines made of spaces, so that reader can name the exact line.
    """
    has_tab, has_space = b"\t" in data, b" " in data
    if not (has_tab and has_space):
        # One kind of separator: pyarrow's multi-threaded reader, the fast path for big runs.
        return read_separated(io.BytesIO(data), "\t" if has_tab else " ", names, types)
    # Mixed tabs and runs of spaces (trec_eval's own test files): pandas' C whitespace parser.
    import pandas as pd  # here only: reading a run otherwise needs no pandas (see domain.data)

    dtypes = {
        n: ("float64" if types.get(n) == pa.float64() else "int64" if types.get(n) == pa.int64() else str)
        for n in names
    }
    try:
        frame = pd.read_csv(
            io.BytesIO(data),
            sep=r"\s+",
            header=None,
            names=names,
            dtype=dtypes,
            quoting=csv.QUOTE_NONE,
            na_filter=False,
            engine="c",
        )
    except (ValueError, pd.errors.ParserError):
        return None
    if len(frame) != len(nonblank_line_numbers(data)) or (frame.astype(str) == "").to_numpy().any():
        return None
    return pa.Table.from_pandas(frame[list(types)], preserve_index=False)


def read_separated(
    source: str | Path | io.BytesIO, sep: str, names: list[str], types: dict[str, pa.DataType]
) -> pa.Table | None:
    """pyarrow's multi-threaded reader over a file (or bytes) with one separator; None if any line is bad."""
    try:
        return pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 23),  # 8 MiB: as fast, less memory
            parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={n: types.get(n, pa.string()) for n in names},
                include_columns=list(types),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None


class FileScan:
    """One pass over a file on a thread, while pyarrow parses the same file from disk.

    For large files, so that their bytes are never held in memory next to their columns: the
    scan gives the SHA-256 and what the in-memory readers check on the bytes (separators,
    ASCII, line ends). Files with anything unusual go back to the in-memory readers.
    """

    def __init__(self, path: Path) -> None:
        self.sha256 = ""
        self.newlines = 0
        self.carriage_returns = 0
        self.crlf = 0  # CR LF pairs: CRs outside them are line ends to pyarrow, not to line numbers
        self.has_tab = self.has_space = False
        self.ascii = True
        self.error: OSError | None = None
        self._thread = threading.Thread(target=self._scan, args=(path,), name="scan", daemon=True)
        self._thread.start()

    def _scan(self, path: Path) -> None:
        # numpy counts without holding the GIL (bytes.count would hold it while the main thread
        # imports and parses), and the one buffer is reused: no 4 MiB allocation per read.
        digest = hashlib.sha256()
        buffer = bytearray(1 << 22)
        view, array = memoryview(buffer), np.frombuffer(buffer, dtype=np.uint8)
        ends_with_cr = False
        try:
            with open(path, "rb") as handle:
                while size := handle.readinto(buffer):
                    chunk = array[:size]
                    digest.update(view[:size])
                    self.newlines += int(np.count_nonzero(chunk == 10))
                    cr = chunk == 13
                    if ends_with_cr and chunk[0] == 10:
                        self.crlf += 1
                    if cr.any():
                        self.carriage_returns += int(np.count_nonzero(cr))
                        self.crlf += int(np.count_nonzero(cr[:-1] & (chunk[1:] == 10)))
                    ends_with_cr = bool(cr[-1])
                    self.has_tab = self.has_tab or bool((chunk == 9).any())
                    self.has_space = self.has_space or bool((chunk == 32).any())
                    self.ascii = self.ascii and int(chunk.max()) < 128
        except OSError as exc:
            self.error = exc
        self.sha256 = digest.hexdigest()

    def result(self) -> FileScan:
        self._thread.join()
        return self
