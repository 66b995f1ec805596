"""Judgment files: TREC qrels and CSV/TSV with a ``query_id,doc_id,grade`` header."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ndcg_desktop.domain.data import Qrels
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.common import (
    QRELS_FORMATS,
    base_suffix,
    check_utf8,
    first_line,
    iter_lines,
    make_source,
    read_input,
    read_whitespace_table,
    row_line_numbers,
)

_HEADER = ("query_id", "doc_id", "grade")


def detect_qrels_format(path: str | Path, data: bytes) -> str:
    suffix = base_suffix(path)
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    head = first_line(data)
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if "query_id" in [c.strip() for c in head.split(sep)]:
            return fmt
    return "trec"


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
        frame = _read_trec(data, path)
    else:
        frame = _read_delimited(data, path, "," if fmt == "csv" else "\t")
    frame, repeats = _validate(frame, path, scale)
    return Qrels(frame=frame, source=make_source(path, digest, fmt), repeats=repeats)


def _read_trec(data: bytes, path: str | Path) -> pd.DataFrame:
    table = read_whitespace_table(
        data,
        ["query_id", "iteration", "doc_id", "grade"],
        {"query_id": pa.string(), "doc_id": pa.string(), "grade": pa.int64()},
    )
    if table is None:
        return _read_trec_slow(data, path)
    frame = table.to_pandas()
    frame["line"] = _line_numbers(data, len(frame), first=1)
    return frame


def _read_trec_slow(data: bytes, path: str | Path) -> pd.DataFrame:
    """Line by line: accepts any whitespace, and names the first bad line exactly."""
    qids, dids, grades, lines = [], [], [], []
    for number, text in iter_lines(data, path):
        parts = text.split()
        if len(parts) != 4:
            raise InputError(
                f"expected 4 columns (query_id iteration doc_id grade), found {len(parts)}", path=path, line=number
            )
        qids.append(parts[0])
        dids.append(parts[2])
        grades.append(_int_grade(parts[3], path, number))
        lines.append(number)
    return pd.DataFrame({"query_id": qids, "doc_id": dids, "grade": grades, "line": lines})


def _read_delimited(data: bytes, path: str | Path, sep: str) -> pd.DataFrame:
    header_text = first_line(data)
    header = [c.strip() for c in next(csv.reader([header_text], delimiter=sep))]
    missing = [c for c in _HEADER if c not in header]
    if missing:
        raise InputError(
            f"header must name the columns query_id{sep}doc_id{sep}grade; missing {', '.join(missing)}",
            path=path,
            line=1,
        )
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            parse_options=pacsv.ParseOptions(delimiter=sep),
            convert_options=pacsv.ConvertOptions(
                column_types={"query_id": pa.string(), "doc_id": pa.string(), "grade": pa.int64()},
                include_columns=list(_HEADER),
                strings_can_be_null=False,
            ),
        )
        if table.num_rows == 0:
            raise pa.ArrowInvalid("no rows")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return _read_delimited_slow(data, path, sep)
    frame = table.to_pandas()
    frame["line"] = _line_numbers(data, len(frame), first=2)
    return frame


def _read_delimited_slow(data: bytes, path: str | Path, sep: str) -> pd.DataFrame:
    lines_iter = iter_lines(data, path)
    header_line, header_text = next(lines_iter)
    header = [c.strip() for c in next(csv.reader([header_text], delimiter=sep))]
    index = {name: header.index(name) for name in _HEADER}
    rows: dict[str, list[Any]] = {"query_id": [], "doc_id": [], "grade": [], "line": []}
    for number, text in lines_iter:
        cells = next(csv.reader([text], delimiter=sep))
        if len(cells) != len(header):
            raise InputError(
                f"expected {len(header)} columns as in the header, found {len(cells)}", path=path, line=number
            )
        rows["query_id"].append(cells[index["query_id"]].strip())
        rows["doc_id"].append(cells[index["doc_id"]].strip())
        rows["grade"].append(_int_grade(cells[index["grade"]], path, number))
        rows["line"].append(number)
    if not rows["line"]:
        raise InputError("has a header but no judgments", path=path, line=header_line)
    return pd.DataFrame(rows)


def _int_grade(text: str, path: str | Path, line: int) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"grade {text.strip()!r} is not an integer", path=path, line=line) from None


def _line_numbers(data: bytes, n_rows: int, first: int) -> np.ndarray:
    lines = row_line_numbers(data, n_rows, first)
    return np.arange(first, first + n_rows, dtype=np.int64) if lines is None else lines


def _validate(frame: pd.DataFrame, path: str | Path, scale: GradeScale) -> tuple[pd.DataFrame, int]:
    if frame.empty:
        raise InputError("has no judgments", path=path)
    for column in ("query_id", "doc_id"):
        empty = frame[column].isna() | (frame[column].astype(str).str.strip() == "")
        if empty.any():
            line = int(frame.loc[empty, "line"].iloc[0])
            raise InputError(f"empty {column.replace('_', ' ')}", path=path, line=line)
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
                f"document {c['doc_id']} for query {c['query_id']} is graded {int(c['grade'])} here "
                f"but {int(c['grade_first'])} at line {int(c['line_first'])}",
                path=path,
                line=int(c["line"]),
            )
        before = len(frame)
        frame = frame.drop_duplicates(["query_id", "doc_id"], keep="first")
        repeats = before - len(frame)
    return frame.reset_index(drop=True), repeats
