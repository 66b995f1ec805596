"""Judgment files: TREC qrels and CSV/TSV with a ``query_id,doc_id,grade`` header."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.data import Qrels
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import brief, clean_ids, is_integer, parse_integers
from ndcg_desktop.formats.common import (
    QRELS_FORMATS,
    base_suffix,
    check_utf8,
    first_line,
    iter_lines,
    iter_records,
    make_source,
    names_file_on_memory_error,
    read_delimited_table,
    read_header,
    read_input,
    read_whitespace_table,
    row_line_numbers,
    split_fields,
)

_HEADER = ("query_id", "doc_id", "grade")


def detect_qrels_format(path: str | Path, data: bytes) -> str:
    suffix = base_suffix(path)
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    head = first_line(data)
    fields = split_fields(head)
    if len(fields) == 4 and is_integer(fields[3]):  # a TREC line, whatever its IDs hold (even "query_id,")
        return "trec"
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
    data, digest = read_input(path)
    fmt = fmt or detect_qrels_format(path, data)
    if fmt not in QRELS_FORMATS:
        raise InputError(f"unknown judgments format {fmt!r}; choose one of {', '.join(QRELS_FORMATS)}")
    check_utf8(data, path)
    if fmt == "trec":
        cells = _read_trec(data, path)
    else:
        cells = _read_delimited(data, path, "," if fmt == "csv" else "\t")
    frame, repeats = _validate(cells, path, scale)
    return Qrels(frame=frame, source=make_source(path, digest, fmt), repeats=repeats)


@dataclass
class _Cells:
    """The three columns as text, with each row's line: what every path hands to :func:`_validate`."""

    query_id: pa.Array | pa.ChunkedArray
    doc_id: pa.Array | pa.ChunkedArray
    grade: pa.Array | pa.ChunkedArray
    line: np.ndarray


_TEXT = {"query_id": pa.string(), "doc_id": pa.string(), "grade": pa.string()}


def _read_trec(data: bytes, path: str | Path) -> _Cells:
    read = read_whitespace_table(data, ["query_id", "iteration", "doc_id", "grade"], _TEXT)
    if read is None:
        return _read_trec_slow(data, path)
    table, text = read
    lines = _line_numbers(text, table.num_rows, first=1)
    return _Cells(table.column("query_id"), table.column("doc_id"), table.column("grade"), lines)


def _read_trec_slow(data: bytes, path: str | Path) -> _Cells:
    """Line by line: names the first line with a wrong number of fields exactly."""
    qids, dids, grades, lines = [], [], [], []
    for number, text in iter_lines(data, path):
        parts = split_fields(text)
        if len(parts) != 4:
            raise InputError(
                f"expected 4 columns (query_id iteration doc_id grade), found {len(parts)}", path=path, line=number
            )
        qids.append(parts[0])
        dids.append(parts[2])
        grades.append(parts[3])
        lines.append(number)
    return _Cells(pa.array(qids, pa.string()), pa.array(dids, pa.string()), pa.array(grades, pa.string()), _ints(lines))


def _read_delimited(data: bytes, path: str | Path, sep: str) -> _Cells:
    header = read_header(data, path, sep)
    missing = [c for c in _HEADER if c not in header]
    if missing:
        raise InputError(
            f"header must name the columns query_id{sep}doc_id{sep}grade; missing {', '.join(missing)}",
            path=path,
            line=1,
        )
    table = read_delimited_table(data, sep, _TEXT)
    if table is None or table.num_rows == 0:
        return _read_delimited_slow(data, path, sep, header)
    lines = _line_numbers(data, table.num_rows, first=2)
    return _Cells(table.column("query_id"), table.column("doc_id"), table.column("grade"), lines)


def _read_delimited_slow(data: bytes, path: str | Path, sep: str, header: list[str]) -> _Cells:
    index = [header.index(name) for name in _HEADER]
    columns: list[list[str]] = [[], [], []]
    lines = []
    for number, cells in iter_records(data, path, sep, len(header)):
        for column, i in zip(columns, index, strict=True):
            column.append(cells[i])
        lines.append(number)
    if not lines:
        raise InputError("has a header but no judgments", path=path, line=1)
    q, d, g = (pa.array(c, pa.string()) for c in columns)
    return _Cells(q, d, g, _ints(lines))


def _ints(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _line_numbers(data: bytes, n_rows: int, first: int) -> np.ndarray:
    lines = row_line_numbers(data, n_rows, first)
    return np.arange(first, first + n_rows, dtype=np.int64) if lines is None else lines


def _validate(cells: _Cells, path: str | Path, scale: GradeScale) -> tuple[pd.DataFrame, int]:
    if len(cells.line) == 0:
        raise InputError("has no judgments", path=path)

    def line_of(row: int) -> int:
        return int(cells.line[row])

    frame = pd.DataFrame(
        {
            "query_id": clean_ids(cells.query_id, "query ID", path, line_of).to_pandas(),
            "doc_id": clean_ids(cells.doc_id, "document ID", path, line_of).to_pandas(),
            "grade": parse_integers(cells.grade, "grade", path, line_of),
            "line": cells.line,
        }
    )
    outside = (frame["grade"] < scale.low) | (frame["grade"] > scale.high)
    if outside.any():
        row = frame.loc[outside].iloc[0]
        raise InputError(
            f"grade {int(row['grade'])} is outside the scale {scale}",
            path=path,
            line=int(row["line"]),
            hint="choose the project's scale with --scale LO..HI",
        )
    frame = frame.astype({"query_id": str, "doc_id": str, "grade": np.int64, "line": np.int64})
    dup = frame.duplicated(["query_id", "doc_id"], keep=False)
    repeats = 0
    if dup.any():
        group = frame.loc[dup].sort_values("line")
        first = group.drop_duplicates(["query_id", "doc_id"])
        merged = group.merge(first, on=["query_id", "doc_id"], suffixes=("", "_first"))
        conflicts = merged[merged["grade"] != merged["grade_first"]]
        if not conflicts.empty:
            c = conflicts.sort_values("line").iloc[0]
            raise InputError(
                f"document {brief(c['doc_id'])} for query {brief(c['query_id'])} is graded {int(c['grade'])} here "
                f"but {int(c['grade_first'])} at line {int(c['line_first'])}",
                path=path,
                line=int(c["line"]),
            )
        before = len(frame)
        frame = frame.drop_duplicates(["query_id", "doc_id"], keep="first")
        repeats = before - len(frame)
    return frame.reset_index(drop=True), repeats
