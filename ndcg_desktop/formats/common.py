"""Reading bytes from disk, detecting formats, and locating lines for messages."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ndcg_desktop.domain.data import Source
from ndcg_desktop.domain.errors import InputError

BOM = b"\xef\xbb\xbf"


def read_input(path: str | Path, fmt_hint: str | None = None) -> tuple[bytes, str]:
    """Return the file's decompressed bytes (BOM removed) and the SHA-256 of the file as stored.

    Refuses a missing path, a directory and a file with no content, naming the path.
    """
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=path)
    if p.is_dir():
        raise InputError("is a directory, not a file", path=path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path=path) from None
    digest = hashlib.sha256(raw).hexdigest()
    data = raw
    if raw[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is not a valid gzip file ({exc})", path=path) from None
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.strip():
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


def has_inner_blank_lines(data: bytes) -> bool:
    """True if a blank line precedes a data line, so row numbers and line numbers differ."""
    body = data.rstrip(b"\r\n\t ")
    return body.startswith((b"\n", b"\r\n")) or b"\n\n" in body or b"\n\r\n" in body


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
        try:
            return pacsv.read_csv(
                io.BytesIO(data),
                read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24),
                parse_options=pacsv.ParseOptions(delimiter="\t" if has_tab else " ", quote_char=False),
                convert_options=pacsv.ConvertOptions(
                    column_types={n: types.get(n, pa.string()) for n in names},
                    include_columns=list(types),
                    strings_can_be_null=False,
                    quoted_strings_can_be_null=False,
                ),
            )
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None
    # Mixed tabs and runs of spaces (trec_eval's own test files): pandas' C whitespace parser.
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
            dtype=dtypes,  # type: ignore[arg-type]
            quoting=csv.QUOTE_NONE,
            na_filter=False,
            engine="c",
        )
    except (ValueError, pd.errors.ParserError):
        return None
    if len(frame) != len(nonblank_line_numbers(data)) or (frame.astype(str) == "").to_numpy().any():
        return None
    return pa.Table.from_pandas(frame[list(types)], preserve_index=False)
