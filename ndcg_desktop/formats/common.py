"""Reading bytes from disk, detecting formats, and locating lines for messages."""

from __future__ import annotations

import codecs
import csv
import functools
import gzip
import hashlib
import io
import json
import re
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Concatenate, ParamSpec, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ndcg_desktop.domain.data import Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import show
from ndcg_desktop.formats.choices import QRELS_FORMATS as QRELS_FORMATS  # the readers import them from here
from ndcg_desktop.formats.choices import RUN_FORMATS as RUN_FORMATS

BOM = b"\xef\xbb\xbf"
BLANK = b"\r\n\t "  # what has_inner_blank_lines ignores at the end of a file
MAX_LINE_BYTES = 16 << 20  # 16 MiB: the longest line any reader accepts (README.md, docs/guarantees.md)
# Text fields (docs/guarantees.md): what a person reads in the window, not a corpus in one cell. A 50 MB
# narrative once took 1 GB to import and froze the window for 30 s.
MAX_TOPIC_FIELD_CHARS = 100_000  # a query's title, description and narrative; a document's title
MAX_DOCUMENT_CHARS = 10_000_000  # a document's text (about 3,000 pages; the window shows 5 MB ones at once)
MAX_NOTE_CHARS = 10_000  # a note on a graded item
_CHUNK = 1 << 20
# A .gz expanding more than BOMB_RATIO times (and past BOMB_MIN_BYTES) is refused: real runs and
# judgments compress 5 to 20 times; a bomb of zeros or repeated lines, about 1000 times.
BOMB_RATIO = 100
BOMB_MIN_BYTES = 64 << 20
csv.field_size_limit(MAX_LINE_BYTES)  # the csv module's own limit is 128 KiB; real corpora have longer fields


def check_note(note: str, path: str | Path | None = None) -> str:
    """A note on a graded item, refused past :data:`MAX_NOTE_CHARS` (the limit a returned work file's notes meet).

    >>> check_note("on topic")
    'on topic'
    """
    if len(note) > MAX_NOTE_CHARS:
        raise InputError(f"a note holds at most {MAX_NOTE_CHARS:,} characters; this one has {len(note):,}", path=path)
    return note


# Scans of a whole file's bytes run as numpy comparisons in _CHUNK steps: numpy does not hold the
# GIL while it compares, where one ``bytes.find`` over 30 MB held it for tens of milliseconds (a
# worker thread reading a run froze the window), and 1 MiB steps keep the temporary arrays small.


def _match_starts(view: np.ndarray, needle: bytes) -> np.ndarray:
    """True where ``needle`` starts in ``view`` (a uint8 array), for each start with room for the whole needle."""
    room = len(view) - len(needle) + 1
    if room <= 0:
        return np.zeros(0, dtype=bool)
    hit: np.ndarray = view[:room] == needle[0]
    for k in range(1, len(needle)):
        hit &= view[k : room + k] == needle[k]
    return hit


def find_in(data: bytes, needle: bytes, start: int = 0, end: int | None = None) -> int:
    """``data.find(needle, start, end)``, without holding the GIL for long (see above).

    >>> find_in(b"ab" * 5, b"ba", 3)
    3
    """
    array = np.frombuffer(data, dtype=np.uint8)
    end = len(data) if end is None else min(end, len(data))
    for step in range(start, end, _CHUNK):
        stop = min(step + _CHUNK + len(needle) - 1, end)  # a match may cross into the next step
        hits = np.flatnonzero(_match_starts(array[step:stop], needle))
        if len(hits):
            return step + int(hits[0])
    return -1


def contains(data: bytes, needle: bytes) -> bool:
    """``needle in data``, without holding the GIL for long (see above)."""
    return find_in(data, needle) >= 0


def count_in(data: bytes, needle: bytes, start: int = 0, end: int | None = None) -> int:
    """``data.count(needle, start, end)`` for a needle that cannot overlap itself (b"\\n", b"\\r\\n"), GIL mostly free.

    >>> count_in(b"a\\r\\nb\\r\\n", b"\\r\\n")
    2
    """
    array = np.frombuffer(data, dtype=np.uint8)
    end = len(data) if end is None else min(end, len(data))
    total = 0
    for step in range(start, end, _CHUNK):
        total += int(np.count_nonzero(_match_starts(array[step : min(step + _CHUNK + len(needle) - 1, end)], needle)))
    return total


def is_ascii(data: bytes) -> bool:
    """``data.isascii()``, without holding the GIL for long (see above)."""
    array = np.frombuffer(data, dtype=np.uint8)
    return all(int(array[step : step + _CHUNK].max()) < 128 for step in range(0, len(data), _CHUNK))


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


_P = ParamSpec("_P")
_R = TypeVar("_R")


def out_of_memory(path: str | Path, line: int | None = None) -> InputError:
    """The one message when a file does not fit in the memory left: it names the file (and line)."""
    return InputError(
        "not enough memory to read this file (free memory, or split the file and import the parts)",
        path=path,
        line=line,
    )


def names_file_on_memory_error(
    reader: Callable[Concatenate[str | Path, _P], _R],
) -> Callable[Concatenate[str | Path, _P], _R]:
    """A reader whose MemoryError (pyarrow's too) becomes an :class:`InputError` naming its file."""

    @functools.wraps(reader)
    def wrapper(path: str | Path, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return reader(path, *args, **kwargs)
        except MemoryError:
            raise out_of_memory(path) from None

    return wrapper


def read_input(path: str | Path, fmt_hint: str | None = None) -> tuple[bytes, str]:
    """Return the file's decompressed bytes (BOM removed) and the SHA-256 of the file as stored.

    Refuses a missing path, a directory and a file with no content, naming the path.
    """
    data, digest = open_input(path)
    return data, digest.result()


def open_input(path: str | Path) -> tuple[bytes, PendingDigest]:
    """Like :func:`read_input`, with the SHA-256 still being computed in the background.

    No line may be longer than :data:`MAX_LINE_BYTES`: a decompression bomb or a stream without
    line ends (``/dev/zero``) is refused once it passes that length, not after filling memory.
    """
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=path)
    if p.is_dir():
        raise InputError("is a directory, not a file", path=path)
    try:
        if p.is_file():
            raw = p.read_bytes()
        else:  # a pipe or a device: read it in pieces, checking line lengths as it comes
            with open(p, "rb") as stream:
                raw = read_limited(stream, path)
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path=path) from None
    digest = PendingDigest(raw)
    data = raw
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
                data = read_limited(stream, path, limit=bomb_limit(len(raw)))
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is not a valid gzip file ({exc})", path=path) from None
    else:
        check_line_lengths(data, path)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data or data.isspace():  # same as ``not data.strip()``, without copying a large file
        raise InputError("is empty: no data lines", path=path)
    return data, digest


def bomb_limit(compressed_size: int) -> int:
    """The most bytes a .gz of ``compressed_size`` bytes may expand to (see :data:`BOMB_RATIO`)."""
    return max(BOMB_MIN_BYTES, BOMB_RATIO * compressed_size)


def bomb_error(path: str | Path) -> InputError:
    """The one refusal of a decompression bomb, the same from every reader."""
    return InputError(
        f"expands to more than {BOMB_RATIO} times its compressed size: refused as a likely "
        "decompression bomb (decompress it yourself if it is real data)",
        path=path,
    )


class BoundedGzip:
    """A gzip stream read line by line (documents are streamed, never held whole), refused as a bomb
    once it has given more than :func:`bomb_limit` bytes: the same bound as :func:`open_input`."""

    def __init__(self, raw: IO[bytes], path: str | Path, compressed_size: int) -> None:
        self._stream = gzip.GzipFile(fileobj=raw)
        self._path = path
        self._limit = bomb_limit(compressed_size)
        self._given = 0

    def _count(self, data: bytes) -> bytes:
        self._given += len(data)
        if self._given > self._limit:
            raise bomb_error(self._path)
        return data

    def read(self, size: int = -1) -> bytes:
        return self._count(self._stream.read(size))

    def readline(self, size: int = -1) -> bytes:
        return self._count(self._stream.readline(size))

    def seek(self, offset: int) -> int:
        self._given = offset
        return self._stream.seek(offset)

    def close(self) -> None:
        self._stream.close()


def _too_long(path: str | Path, line: int) -> InputError:
    return InputError(
        f"line is longer than {MAX_LINE_BYTES // (1 << 20)} MiB (the limit for one line of any input file)",
        path=path,
        line=line,
    )


def read_limited(stream: IO[bytes] | gzip.GzipFile, path: str | Path, *, limit: int | None = None) -> bytes:
    """All of ``stream``, refused as soon as it can be: at the first line past :data:`MAX_LINE_BYTES`, at the first
    byte that is not UTF-8, at more than :data:`MAX_LINE_BYTES` of blank lines in a row, or past ``limit`` in all.

    For the bytes that are not on disk whole (a pipe, a device, a ``.gz`` being decompressed): ``/dev/urandom``
    stops at its first MiB, a gzip of blank lines at 16 MiB, never at the memory's end.
    """
    check = StreamCheck(path, limit=limit)
    parts: list[bytes] = []
    while chunk := stream.read(_CHUNK):
        check.feed(chunk)
        parts.append(chunk)
    check.end()
    return b"".join(parts)


class StreamCheck:
    """The checks :func:`read_limited` makes on each piece of a stream as it comes (see there)."""

    def __init__(self, path: str | Path, *, limit: int | None = None) -> None:
        self._path, self._limit = path, limit
        self.total = 0
        self.lines = 0  # line ends seen so far
        self._run = 0  # bytes since the last line end
        self._blank = 0  # blank bytes since the last byte that was not blank
        self._blank_line = 1  # the line where that blank run began
        self._utf8 = codecs.getincrementaldecoder("utf-8")()

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if self._limit is not None and self.total > self._limit:
            raise bomb_error(self._path)
        first, newlines = chunk.find(b"\n"), chunk.count(b"\n")
        if first < 0 or self._run + first > MAX_LINE_BYTES:
            self._run += len(chunk) if first < 0 else first
        else:
            self._run = len(chunk) - chunk.rfind(b"\n") - 1
        if self._run > MAX_LINE_BYTES:
            raise _too_long(self._path, self.lines + 1)
        pending = self._utf8.getstate()[0]  # the start of a character cut at the last piece's end
        if pending or not chunk.isascii():
            try:
                self._utf8.decode(chunk)
            except UnicodeDecodeError as exc:
                at = max(exc.start - len(pending), 0)
                raise _not_utf8(self._path, self.lines + chunk.count(b"\n", 0, at) + 1) from None
        content = chunk.rstrip(BLANK)
        if content:
            self._blank = len(chunk) - len(content)
            self._blank_line = self.lines + content.count(b"\n") + 1
        else:
            self._blank += len(chunk)
        if self._blank > MAX_LINE_BYTES:
            raise blank_run_error(self._path, self._blank_line)
        self.lines += newlines

    def end(self) -> None:
        """The stream ended: a character cut off at the very end is not UTF-8 either."""
        try:
            self._utf8.decode(b"", final=True)
        except UnicodeDecodeError:
            raise _not_utf8(self._path, self.lines + 1) from None


def blank_run_error(path: str | Path, line: int) -> InputError:
    """The one refusal of a stream or a .gz giving more blank lines in a row than one line may hold."""
    return InputError(
        f"holds more than {MAX_LINE_BYTES >> 20} MiB of blank lines in a row: refused as input that gives "
        "no data (the limit for a stream or a .gz)",
        path=path,
        line=line,
    )


def _not_utf8(path: str | Path, line: int) -> InputError:
    return InputError("invalid UTF-8 (the file must be UTF-8 text)", path=path, line=line)


def check_line_lengths(data: bytes, path: str | Path) -> None:
    """Refuse bytes with a line longer than :data:`MAX_LINE_BYTES` (a few ``find`` calls per MiB)."""
    run_start = 0  # where the current line began
    for start in range(0, len(data), _CHUNK):
        end = min(start + _CHUNK, len(data))
        last = data.rfind(b"\n", start, end)
        if last < 0:
            if end - run_start > MAX_LINE_BYTES:
                raise _too_long(path, data.count(b"\n", 0, run_start) + 1)
            continue
        first = data.find(b"\n", start, end)
        if first - run_start > MAX_LINE_BYTES:
            raise _too_long(path, data.count(b"\n", 0, run_start) + 1)
        run_start = last + 1
    if len(data) - run_start > MAX_LINE_BYTES:
        raise _too_long(path, data.count(b"\n", 0, run_start) + 1)


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


def first_content_line(data: bytes) -> str:
    """The first line that is neither blank nor a TREC comment (what a TREC file's format is detected from)."""
    for raw in io.BytesIO(data):
        text = raw.decode("utf-8", errors="replace").strip()
        if text and not text.startswith("#"):
            return text
    return ""


# trec_eval 10.0: in qrels and runs, a line starting with '#' is a comment (leading blanks allowed: such a
# line can hold no query ID either). CSV, TSV and JSONL files keep their own rules.
_COMMENT_LINE = re.compile(rb"(?m)^[ \t]*#[^\r\n]*")
_COMMENT_START = re.compile(rb"[ \t]*#")


def separated_by(sep: str) -> str:
    r"""A file's separator in words, for a message: a tab is the word "tab", never a literal or escaped tab.

    >>> separated_by("\t"), separated_by(","), separated_by(", ")
    (' (tab-separated)', ' (comma-separated)', '')
    """
    return {"\t": " (tab-separated)", ",": " (comma-separated)"}.get(sep, "")


def blank_comments(data: bytes) -> tuple[bytes, int]:
    r"""A TREC file's bytes with every comment line emptied (its line end kept), and how many there were.

    The readers skip blank lines, so a comment is skipped and every later line keeps its number.

    >>> blank_comments(b"# judged by 2\nq1 0 d1 1\n  #x\n")
    (b'\nq1 0 d1 1\n\n', 2)
    """
    if not _may_have_comments(data):
        return data, 0
    blanked, count = _COMMENT_LINE.subn(b"", data)
    return (blanked, count) if count else (data, 0)


def _may_have_comments(data: bytes) -> bool:
    """Byte searches first: chunk IDs (``doc12#3``) put a '#' on most lines, and the regular expression over
    a 32 MB file takes 0.6 s; only indented lines need it."""
    if not contains(data, b"#"):
        return False
    if _COMMENT_START.match(data) is not None or contains(data, b"\n#"):
        return True
    return (contains(data, b"\n ") or contains(data, b"\n\t")) and _COMMENT_LINE.search(data) is not None


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
    return (
        data.startswith((b"\n", b"\r\n"))
        or find_in(data, b"\n\n", 0, end) >= 0
        or find_in(data, b"\n\r\n", 0, end) >= 0
    )


def row_line_numbers(data: bytes, n_rows: int, first: int) -> np.ndarray | None:
    """Line number of each of ``n_rows`` rows read from ``data`` by pyarrow, the first on line ``first``.

    None when row ``i`` is on line ``first + i``, the usual case. pyarrow skips empty lines, so when
    the rows fill every line up to the last data line there is no blank line and no need for the
    slower exact search; a lone CR (which pyarrow also takes for a line end) defeats that count.
    """
    end = _content_end(data)
    if count_in(data, b"\n", 0, end) + 1 == first - 1 + n_rows and find_in(data, b"\r", 0, end) < 0:
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


class JsonInt(int):
    """An integer as a JSON line wrote it: ``text`` keeps its digits (``-0`` is not the ID ``0``)."""

    text: str

    def __new__(cls, text: str) -> JsonInt:
        value = super().__new__(cls, text)
        value.text = text
        return value


def load_json(text: str, path: str | Path, line: int) -> object:
    """One JSON value, refused with file and line when invalid, ambiguous or too deep to be data.

    A key given twice, an integer too long to convert and nesting deeper than the parser's
    stack are refused like a syntax error, never resolved silently or ended in a traceback.
    """
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=JsonInt)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=path, line=line) from None
    except _DuplicateKey as exc:
        raise InputError(f"the key {exc.args[0]!r} is given twice in one object", path=path, line=line) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise InputError(f"not valid JSON ({exc})", path=path, line=line) from None
    except RecursionError:
        raise InputError("not valid JSON (nested too deeply)", path=path, line=line) from None


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key[:60])
            seen.add(key)
    return result


def check_utf8(data: bytes, path: str | Path) -> None:
    """Raise with the line number if the data is not valid UTF-8."""
    if is_ascii(data):  # the common case
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, data.count(b"\n", 0, exc.start) + 1) from None


_SEPARATORS = re.compile(rb"[ \t]+")
# The lookbehind starts a trailing run only at its first byte: without it every byte of a long inner run
# would rescan the rest of the run (quadratic: 20,000 spaces inside one line took 7 s).
_LINE_EDGES = re.compile(rb"(?m)^[ \t]+|(?<![ \t])[ \t]+(?=\r?$)")


def split_fields(text: str) -> list[str]:
    """A whitespace-separated line's fields: separated by runs of spaces and tabs, and by nothing else.

    >>> split_fields(" q1 \t0  D7\u00a0x 2 ")
    ['q1', '0', 'D7\xa0x', '2']
    """
    return [field for field in re.split(r"[ \t]+", text.strip(" \t")) if field]


def has_lone_cr(data: bytes) -> bool:
    """A CR that does not end a CR LF pair: a line end to pyarrow, text to the line-by-line readers."""
    return contains(data, b"\r") and count_in(data, b"\r") != count_in(data, b"\r\n")


def empty_fields(seps: np.ndarray, nl: np.ndarray, ends: np.ndarray, work: np.ndarray) -> bool:
    """True if a separator precedes a separator or a line end, or a line feed precedes a separator.

    Masks of one block of bytes (separators, line feeds, line ends); ``work`` is one shorter. Such a
    pair is an empty field to a reader that splits at every separator.
    """
    pair = np.logical_or(seps[1:], ends[1:], out=work)
    return bool(np.logical_and(pair, seps[:-1], out=work).any() or np.logical_and(nl[:-1], seps[1:], out=work).any())


def _has_empty_fields(text: np.ndarray, sep: int, has_cr: bool) -> bool:
    """:func:`empty_fields` over a whole text, a block at a time into masks made once: four masks of the
    whole file beside it (a 26 MB qrels file: 100 MB of fresh pages) while a run is read (issue 28)."""
    size = min(len(text), _CHUNK * 4)
    seps_, nl_, ends_, work_ = (np.empty(size, dtype=bool) for _ in range(4))
    previous_sep, previous_nl = False, True  # the byte before the text: a file starts like a line
    for start in range(0, len(text), size):
        block = text[start : start + size]
        n = len(block)
        seps, nl = np.equal(block, sep, out=seps_[:n]), np.equal(block, 10, out=nl_[:n])
        ends = np.logical_or(nl, np.equal(block, 13, out=ends_[:n]), out=ends_[:n]) if has_cr else nl
        if (
            empty_fields(seps, nl, ends, work_[: n - 1])
            or (previous_sep and bool(seps[0] or ends[0]))
            or (previous_nl and bool(seps[0]))
        ):
            return True
        previous_sep, previous_nl = bool(seps[-1]), bool(nl[-1])
    return previous_sep  # a separator at the very end


def read_whitespace_table(
    data: bytes, names: list[str], types: dict[str, pa.DataType]
) -> tuple[pa.Table, bytes] | None:
    """Vectorised read of a whitespace-separated file with exactly ``len(names)`` fields a line.

    Fields are separated by runs of spaces and tabs (as :func:`split_fields` splits a line), so a
    double space never makes an empty field that shifts the columns. Returns the table and the
    bytes it was read from (for line numbers), or None when the file needs the line-by-line
    reader: a wrong field count, a bad number, a lone CR, so that reader can name the exact line.
    """
    if has_lone_cr(data) or data.startswith(BOM):  # pyarrow would drop a (second) BOM silently
        return None
    has_tab, has_space = contains(data, b"\t"), contains(data, b" ")
    sep = b"\t" if has_tab and not has_space else b" "
    irregular = has_tab and has_space
    if not irregular and len(data) > 1:  # numpy: a bytes search for " " pairs stops at every space
        irregular = _has_empty_fields(np.frombuffer(data, dtype=np.uint8), ord(sep), contains(data, b"\r"))
    if irregular:  # runs of separators, or separators at a line's edges: one space between fields
        data = _SEPARATORS.sub(b" ", _LINE_EDGES.sub(b"", data))
        sep = b" "
        if data.startswith(BOM):
            return None
    # pyarrow reads a Python file object holding the GIL for each block copied; a BufferReader over the bytes
    # is read without the GIL (the window's GUI thread waited behind a worker importing a run).
    table = read_separated(pa.BufferReader(data), sep.decode(), names, types)
    return None if table is None else (table, data)


def read_header(data: bytes, path: str | Path, sep: str) -> list[str]:
    """The header of a CSV/TSV file, its names trimmed; a name given twice is refused."""
    try:
        header = [c.strip() for c in next(csv.reader([first_line(data)], delimiter=sep, strict=True))]
    except (csv.Error, StopIteration) as exc:
        raise InputError(f"the header is not a valid CSV line ({exc})", path=path, line=1) from None
    seen: set[str] = set()
    for name in header:
        if name and name in seen:
            raise InputError(f"the header names the column {show(name)} twice", path=path, line=1)
        seen.add(name)
    return header


def read_delimited_table(data: bytes, sep: str, types: dict[str, pa.DataType]) -> pa.Table | None:
    """pyarrow's reader over a CSV/TSV file with a header; None when the line-by-line reader must decide."""
    if has_lone_cr(data) or data.startswith(BOM):
        return None
    try:
        return pacsv.read_csv(
            pa.BufferReader(data),  # read without the GIL (see read_whitespace_table)
            parse_options=pacsv.ParseOptions(delimiter=sep),
            convert_options=pacsv.ConvertOptions(
                column_types=types,
                include_columns=list(types),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                null_values=[],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowKeyError):
        return None


def iter_records(data: bytes, path: str | Path, sep: str, columns: int) -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) of each record after the header, read with the csv module.

    A quoted cell may span lines (the record is named by its first line); an unterminated quote,
    text after a closing quote and a wrong number of cells are refused with their line.
    """
    reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""), delimiter=sep, strict=True)
    previous = 0
    header_seen = False
    try:
        for cells in reader:
            start, previous = previous + 1, reader.line_num
            # A blank line, as first_line (the header's finder) sees one: whitespace only. With a tab between
            # cells, a line of tabs and spaces is one too; it must never become the header.
            if not cells or ((len(cells) == 1 or sep.isspace()) and not "".join(cells).strip()):
                continue
            if not header_seen:
                header_seen = True
                continue
            if len(cells) != columns:
                raise InputError(
                    f"expected {columns} columns as in the header, found {len(cells)}", path=path, line=start
                )
            yield start, cells
    except csv.Error as exc:
        raise InputError(f"malformed CSV ({exc})", path=path, line=previous + 1) from None


def read_separated(
    source: str | Path | pa.BufferReader, sep: str, names: list[str], types: dict[str, pa.DataType]
) -> pa.Table | None:
    """pyarrow's reader over a file (or bytes) with one separator, on the calling thread; None if any line is bad."""
    try:
        return pacsv.read_csv(
            source,
            # 8 MiB blocks: as fast, less memory. One thread: pyarrow's pool threads took 1.5-2 times the CPU for
            # the same parse, and what they allocate is not returned when another thread frees it (mimalloc keeps
            # it for the allocating thread), so a 7M-line run's freed columns stayed resident (issue 28).
            read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 23, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={n: types.get(n, pa.string()) for n in names},
                include_columns=list(types),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                null_values=[],  # "nan" is a number here, "#N/A" is not: as the line-by-line reader decides
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
