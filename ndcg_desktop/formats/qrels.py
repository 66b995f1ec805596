"""Judgment files: TREC qrels and CSV/TSV with a ``query_id,doc_id,grade`` header (and an optional ``iteration``).

The TREC iteration column (trec_eval ignores it; TREC-COVID writes each judgment's round there) is kept as written,
as text: ``0.5`` stays ``0.5`` and ``01`` stays ``01``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.arrays import strings, to_arrow, to_numpy
from ndcg_desktop.domain.data import JudgmentColumns, Qrels, Source
from ndcg_desktop.domain.errors import Advice, GradeOutsideScale, InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import brief, clean_ids, is_integer, parse_integers
from ndcg_desktop.formats.common import (
    QRELS_FORMATS,
    base_suffix,
    blank_comments,
    check_utf8,
    first_content_line,
    iter_records,
    make_source,
    names_file_on_memory_error,
    read_delimited_table,
    read_header,
    read_input,
    read_separated,
    read_whitespace_table,
    row_line_numbers,
    separated_by,
    split_fields,
)
from ndcg_desktop.formats.large import read_large_separated
from ndcg_desktop.formats.lines import read_fields
from ndcg_desktop.formats.streams import as_file
from ndcg_desktop.scoring.judged import any_repeat, id_keys, mix

_HEADER = ("query_id", "doc_id", "grade")


def detect_qrels_format(path: str | Path, data: bytes) -> str:
    r"""The format of a judgments file, from its content first: a first line (comments aside) that is a TREC line
    is no header, whatever the file is called (CIRAL's qrels are TREC lines in ``.tsv`` files, as trec_eval reads
    them); else the suffix, else a header's separator.

    >>> detect_qrels_format("ciral.tsv", b"1\tQ0\tTUKO#13640#0\t1\n")
    'trec'
    >>> detect_qrels_format("a.tsv", b"query_id\tdoc_id\tgrade\n")
    'tsv'
    """
    suffix = base_suffix(path)
    head = first_content_line(data)
    fields = split_fields(head)
    if len(fields) == 4 and is_integer(fields[3]):  # a TREC line, whatever its IDs hold (even "query_id,")
        return "trec"
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if "query_id" in [c.strip() for c in head.split(sep)]:
            return fmt
    return "trec"


@names_file_on_memory_error
def read_qrels(path: str | Path, *, scale: GradeScale | None = None, fmt: str | None = None) -> Qrels:
    """Read judgments, validating every line; raises :class:`InputError` naming file and line.

    Accepts TREC lines (``q1 0 D1 3``) or CSV/TSV with a ``query_id,doc_id,grade`` header.
    """
    scale = scale or GradeScale()
    with as_file(path, lambda head: _parse(head, path, fmt, scale)) as file:
        qrels = _read(file, fmt, scale)
    qrels.source = replace(qrels.source, path=str(path))  # a stream's copy is named as the stream
    return qrels


def _read(path: str | Path, fmt: str | None, scale: GradeScale) -> Qrels:
    if fmt in (None, "trec"):
        large = read_large_separated(
            path, _TREC_NAMES, _TREC_TEXT, lambda head: (fmt or detect_qrels_format(path, head)) == "trec"
        )
        if large is not None:
            table, sha256, lines = large
            if not pc.any(pc.starts_with(table.column("query_id"), "#")).as_py():  # comments: read in memory
                cells = _Cells(
                    table.column("query_id"),
                    table.column("doc_id"),
                    table.column("grade"),
                    lines,
                    table.column("iteration"),
                )
                del table
                columns, repeats = _validate(cells, path, scale)
                return Qrels(columns, make_source(path, sha256, "trec"), repeats, numbered=True)
            del table, large
    data, digest = read_input(path)
    fmt, columns, repeats, comments = _parse(data, path, fmt, scale)
    return Qrels(columns, make_source(path, digest, fmt), repeats, comments=comments, numbered=True)


def _parse(data: bytes, path: str | Path, fmt: str | None, scale: GradeScale) -> tuple[str, JudgmentColumns, int, int]:
    """The in-memory read of a file's bytes (or of a stream's first lines): format, columns, repeats, comments."""
    fmt = fmt or detect_qrels_format(path, data)
    if fmt not in QRELS_FORMATS:
        raise InputError(f"unknown judgments format {fmt!r}; choose one of {', '.join(QRELS_FORMATS)}")
    check_utf8(data, path)
    comments = 0
    if fmt == "trec":
        data, comments = blank_comments(data)  # trec_eval 10.0: a line starting with '#' is a comment
        cells = _read_trec(data, path)
    else:
        cells = _read_delimited(data, path, "," if fmt == "csv" else "\t")
    del data  # the file's bytes: not needed past the parse, and as large as the columns
    columns, repeats = _validate(cells, path, scale)
    return fmt, columns, repeats, comments


def qrels_from_cells(
    source: Source, query_id: pa.Array, doc_id: pa.Array, grade: pa.Array, *, scale: GradeScale
) -> Qrels:
    """Judgments given as three text columns (a DataFrame's, say), checked as a file's lines are: row i is line
    i + 1. Raises :class:`InputError` naming ``source.path`` and the row."""
    columns, repeats = _validate(_Cells(query_id, doc_id, grade, None), source.path, scale)
    return Qrels(columns, source, repeats, numbered=True)  # a frame's row i is its line i + 1


@dataclass
class _Cells:
    """The three columns as text, with each row's line: what every path hands to :func:`_validate`."""

    query_id: pa.Array | pa.ChunkedArray
    doc_id: pa.Array | pa.ChunkedArray
    grade: pa.Array | pa.ChunkedArray
    line: np.ndarray | None  # None: row i is on line i + 1
    iteration: pa.Array | pa.ChunkedArray | None = None  # None: "0" on every row (no such column)

    def line_of(self, row: int) -> int:
        return row + 1 if self.line is None else int(self.line[row])

    def __len__(self) -> int:
        return len(self.doc_id)


_TEXT = {"query_id": pa.string(), "doc_id": pa.string(), "grade": pa.string()}
_TREC_NAMES = ["query_id", "iteration", "doc_id", "grade"]
_TREC_TEXT = {**_TEXT, "iteration": pa.string()}
_ITERATION = "iteration"  # the optional column of a CSV/TSV file


def _read_trec(data: bytes, path: str | Path) -> _Cells:
    read = read_whitespace_table(data, _TREC_NAMES, _TREC_TEXT)
    if read is None:
        return _read_trec_slow(data, path)
    table, text = read
    lines = row_line_numbers(text, table.num_rows, 1)
    return _Cells(
        table.column("query_id"), table.column("doc_id"), table.column("grade"), lines, table.column("iteration")
    )


def _read_trec_slow(data: bytes, path: str | Path) -> _Cells:
    """What the fast path could not read: names the first line with a wrong number of fields exactly."""
    read = read_fields(data, path, "query_id iteration doc_id grade", (0, 1, 2, 3))
    q, i, d, g = (read.columns[j] for j in range(4))
    return _Cells(q, d, g, read.lines, i)


_TREC_HINT = "for TREC qrels (query_id iteration doc_id grade) choose --qrels-format trec"


def _read_delimited(data: bytes, path: str | Path, sep: str) -> _Cells:
    try:
        header = read_header(data, path, sep)
    except InputError as exc:  # a header that is no header: perhaps TREC lines under a .csv or .tsv name
        raise InputError(exc.message, path=path, line=exc.line, hint=_TREC_HINT) from None
    missing = [c for c in _HEADER if c not in header]
    if missing:
        raise InputError(
            f"the header must name the columns query_id, doc_id and grade{separated_by(sep)}; "
            f"missing {', '.join(missing)}",
            path=path,
            line=1,
            hint=_TREC_HINT,
        )
    rounds = _ITERATION in header
    table = read_delimited_table(data, sep, {**_TEXT, _ITERATION: pa.string()} if rounds else _TEXT)
    if table is None or table.num_rows == 0:
        return _read_delimited_slow(data, path, sep, header)
    lines = _line_numbers(data, table.num_rows, first=2)  # never None: JudgmentColumns assumes line 1 first
    iteration = table.column(_ITERATION) if rounds else None
    return _Cells(table.column("query_id"), table.column("doc_id"), table.column("grade"), lines, iteration)


def _read_delimited_slow(data: bytes, path: str | Path, sep: str, header: list[str]) -> _Cells:
    names = [*_HEADER, _ITERATION] if _ITERATION in header else list(_HEADER)
    index = [header.index(name) for name in names]
    columns: list[list[str]] = [[] for _ in names]
    lines = []
    for number, cells in iter_records(data, path, sep, len(header)):
        for column, i in zip(columns, index, strict=True):
            column.append(cells[i])
        lines.append(number)
    if not lines:
        raise InputError("has a header but no judgments", path=path, line=1)
    arrays = [strings(c) for c in columns]
    return _Cells(arrays[0], arrays[1], arrays[2], _ints(lines), arrays[3] if len(arrays) > 3 else None)


def _ints(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _line_numbers(data: bytes, n_rows: int, first: int) -> np.ndarray:
    lines = row_line_numbers(data, n_rows, first)
    return np.arange(first, first + n_rows, dtype=np.int64) if lines is None else lines


def _validate(cells: _Cells, path: str | Path, scale: GradeScale) -> tuple[JudgmentColumns, int]:
    """Check every cell and drop identical repeats: the judgments as columns, and how many repeats were dropped.

    Vectorised over Arrow columns: a 10M-line file never becomes Python strings.
    """
    if len(cells) == 0:
        raise InputError("has no judgments", path=path)
    line_of = cells.line_of

    query_ids = clean_ids(cells.query_id, "query ID", path, line_of)
    doc_ids = clean_ids(cells.doc_id, "document ID", path, line_of)
    iteration = _iterations(cells.iteration, path, line_of)
    cells.iteration = None  # all "0" (the usual case): the column read is let go at once
    grade = parse_integers(cells.grade, "grade", path, line_of)
    outside = np.flatnonzero((grade < scale.low) | (grade > scale.high))
    if len(outside):
        row = int(outside[0])
        raise GradeOutsideScale(
            int(grade[row]),
            scale,
            path=path,
            line=line_of(row),
            hint=Advice(  # no project reads its judgments here: only files and data given to score are
                "choose the judgments' scale with --scale LO..HI", 'choose the judgments\' scale with scale="LO..HI"'
            ),
        )
    queries, q = sorted_codes(query_ids)
    del query_ids
    cells.query_id = cells.grade = pa.nulls(0, pa.string())  # their columns are no longer needed: keep the peak low
    keys = id_keys(doc_ids)
    dropped = _repeats(queries, q, doc_ids, keys, grade, cells, path)
    line = cells.line
    if len(dropped):
        keep = np.ones(len(q), dtype=bool)
        keep[dropped] = False
        rows = np.flatnonzero(keep)
        q, grade, keys = q[rows], grade[rows], keys[rows]
        line = rows + 1 if line is None else line[rows]
        doc_ids = doc_ids.take(to_arrow(rows))
        iteration = None if iteration is None else iteration.take(to_arrow(rows))  # the first line's, as its grade
    columns = JudgmentColumns(queries, q, doc_ids, grade, line, doc_keys=keys, iteration=iteration)
    return columns, len(dropped)  # keys: for scoring


def _iterations(
    column: pa.Array | pa.ChunkedArray | None, path: str | Path, line_of: Callable[[int], int]
) -> pa.Array | pa.ChunkedArray | None:
    """The iteration column as written (None when every row's is ``0``, the usual case: nothing to keep), held to
    the ID rule (rule 14) since the project stores it and export-qrels writes it back."""
    if column is None or len(column) == 0 or pc.all(pc.equal(column, strings(["0"])[0])).as_py():
        return None
    return clean_ids(column, "iteration", path, line_of)


def sorted_codes(ids: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """The distinct IDs sorted (code point order, as Python sorts) and each row's int32 code into them.

    Judgment files list each query's lines together: comparing neighbours finds the few rows where
    the query changes, and only those are hashed.
    """
    chunks = [c for c in (ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]) if len(c)]
    heads, lengths = [], []
    for chunk in chunks:
        change = to_numpy(pc.not_equal(chunk.slice(1), chunk.slice(0, len(chunk) - 1)))
        first = np.flatnonzero(np.r_[True, change])
        heads.append(chunk.take(to_arrow(first)))
        lengths.append(np.diff(np.r_[first, len(chunk)]))
    grouped = pa.chunked_array(heads, pa.string()).combine_chunks() if heads else pa.nulls(0, pa.string())
    encoded = pc.dictionary_encode(grouped)
    order = to_numpy(pc.sort_indices(encoded.dictionary))  # UTF-8 byte order is code point order
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    head_codes = rank[to_numpy(encoded.indices)]
    counts = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
    return encoded.dictionary.take(to_arrow(order)), np.repeat(head_codes, counts)


def _repeats(
    queries: pa.Array,
    q: np.ndarray,
    doc_ids: pa.Array | pa.ChunkedArray,
    keys: np.ndarray,
    grade: np.ndarray,
    cells: _Cells,
    path: str | Path,
) -> np.ndarray:
    """Rows that repeat an earlier (query, document) with the same grade, to drop; a different grade is refused.

    Pairs are compared by a 64-bit key first: only rows whose key occurs twice are compared as text.
    """

    def pair_keys() -> np.ndarray:
        return mix(np.bitwise_xor(keys, mix(q.astype(np.uint64)), dtype=np.uint64))

    ordered = pair_keys()
    if len(queries) == 1 + int(np.count_nonzero(q[1:] != q[:-1])) and not any_repeat(q, ordered):
        return np.zeros(0, dtype=np.int64)  # each query's lines together (as files list them), none twice
    ordered.sort()  # in place: a 10M-line file holds few copies of its keys at once
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero(np.isin(pair_keys(), ordered[1:][same]))  # ascending: file order
    # Few rows share a key (repeats, and the rare collision): compared as text, first line first.
    query_ids = queries.take(to_arrow(q[rows])).to_pylist()
    doc_ids_of = doc_ids.take(to_arrow(rows)).to_pylist()
    lines = (rows + 1 if cells.line is None else cells.line[rows]).tolist()
    first: dict[tuple[str, str], tuple[int, int]] = {}  # (query, document) -> its first grade and line
    later: list[int] = []
    for row, query_id, doc_id, value, line in zip(
        rows.tolist(), query_ids, doc_ids_of, grade[rows].tolist(), lines, strict=True
    ):
        seen = first.setdefault((query_id, doc_id), (value, line))
        if seen[1] == line:
            continue
        if seen[0] != value:
            raise InputError(
                f"document {brief(doc_id)} for query {brief(query_id)} is graded {value} here "
                f"but {seen[0]} at line {seen[1]}",
                path=path,
                line=line,
            )
        later.append(row)
    return np.array(later, dtype=np.int64)


def judgment_lines(text: bytes) -> JudgmentColumns:
    """Judgments from ``query<TAB>doc<TAB>grade`` lines sorted by query (what the store hashes), not re-checked.

    For judgments the project already holds: their IDs were checked when they came in.
    """
    types = {"query_id": pa.string(), "doc_id": pa.string(), "grade": pa.int64()}
    table = read_separated(io.BytesIO(text), "\t", list(types), types) if text else None
    if table is None:
        if text:
            raise ValueError("stored judgments do not read back as three tab-separated columns")
        empty = pa.nulls(0, pa.string())
        return JudgmentColumns(empty, np.zeros(0, np.int32), empty, np.zeros(0, np.int64))
    queries, q = sorted_codes(table.column("query_id"))
    doc_ids = table.column("doc_id")
    return JudgmentColumns(queries, q, doc_ids, to_numpy(table.column("grade")))
