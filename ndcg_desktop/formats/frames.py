"""Judgments and runs given as pandas DataFrames (a notebook's, PyTerrier's), checked as the files are.

Columns: ours (``query_id, doc_id, relevance`` or ``grade`` / ``query_id, doc_id, score`` or ``rank``) or
PyTerrier's (``qid, docno, label`` / ``qid, docno, score``). Each cell goes through the readers' own checks
(:func:`~ndcg_desktop.formats.qrels.qrels_from_cells`, :func:`~ndcg_desktop.formats.runs.run_from_columns`):
IDs under rule 14, grades whole numbers on the scale (rule 12), scores finite numbers. A problem names the
frame and its row, counted from 1 (``<run DataFrame>:3: ...``). The manifest names the frame, its format
``dataframe`` and the SHA-256 of its columns written as CSV (pyarrow's writer, our column names).

ranx's and ir_measures' dicts of dicts (``{query: {doc: score}}`` for a run, ``{query: {doc: grade}}`` for
judgments) are read as the frame of their cells, query by query in the dict's order, and checked by the same
checks; a problem names the query and the document (``<run dict>: query 'q1', document 'D3': score ...``),
and the manifest's format is ``dict``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from ndcg_desktop.domain.data import OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import parse_number
from ndcg_desktop.formats.common import make_source
from ndcg_desktop.formats.qrels import qrels_from_cells
from ndcg_desktop.formats.runs import ordered_by, run_from_columns

QRELS_FRAME = "<qrels DataFrame>"
RUN_FRAME = "<run DataFrame>"
FRAME_FORMAT = "dataframe"
QRELS_DICT = "<qrels dict>"
RUN_DICT = "<run dict>"
DICT_FORMAT = "dict"

# Each column we read, and the names it may have: ours first, then PyTerrier's.
_QRELS_COLUMNS = {
    "query_id": ("query_id", "qid"),
    "doc_id": ("doc_id", "docno"),
    "grade": ("relevance", "grade", "label"),
}
_RUN_COLUMNS = {"query_id": ("query_id", "qid"), "doc_id": ("doc_id", "docno")}


def qrels_from_frame(
    frame: pd.DataFrame, *, scale: GradeScale, name: str = QRELS_FRAME, fmt: str = FRAME_FORMAT
) -> Qrels:
    """Judgments from ``frame``, refused as a judgments file would be (naming ``name`` and the row)."""
    columns = _columns(frame, _QRELS_COLUMNS, name, "query_id, doc_id, relevance (or PyTerrier's qid, docno, label)")
    cells = {ours: _text(frame[given], integral=ours == "grade") for ours, given in columns.items()}
    source = make_source(name, _digest(cells), fmt)
    return qrels_from_cells(source, cells["query_id"], cells["doc_id"], cells["grade"], scale=scale)


def run_from_frame(
    frame: pd.DataFrame, *, order: OrderKind | None = None, name: str = RUN_FRAME, fmt: str = FRAME_FORMAT
) -> Run:
    """A run from ``frame``, ordered as a CSV run is (score descending if given, else rank; ``order`` may choose)."""
    wanted = "query_id, doc_id and score or rank (or PyTerrier's qid, docno, score)"
    columns = _columns(frame, _RUN_COLUMNS, name, wanted)
    if order is OrderKind.LIST:
        raise InputError("a DataFrame run is ordered by its score or rank column; sort it and give ranks", path=name)
    given = [c for c in ("score", "rank") if c in frame.columns]
    if not given:
        raise InputError(f"needs the columns {wanted}; found {', '.join(map(str, frame.columns))}", path=name)
    by, notes = ordered_by([*columns, *given], name, ", ", order)
    cells = {ours: _text(frame[given], integral=False) for ours, given in columns.items()}
    values = _numbers(frame[by], by, name)
    cells[by] = pa.array(values)
    source = make_source(name, _digest(cells), fmt)
    return run_from_columns(source, cells["query_id"], cells["doc_id"], values, by, notes)


def qrels_from_mapping(judgments: object, *, scale: GradeScale, name: str = QRELS_DICT) -> Qrels:
    """Judgments from ranx's ``{query: {doc: grade}}``, each grade checked as a judgments file's would be.

    >>> qrels = qrels_from_mapping({"q1": {"A": 3, "B": 0}}, scale=GradeScale(0, 3))
    >>> qrels.n_judgments, qrels.source.format
    (2, 'dict')
    >>> qrels_from_mapping({"q1": {"A": 2.5}}, scale=GradeScale(0, 3))
    Traceback (most recent call last):
    ...
    ndcg_desktop.domain.errors.InputError: <qrels dict>: query 'q1', document 'A': grade '2.5' is not an integer
    """
    frame = _frame_of(judgments, name, "grade")
    with _cell_named(frame, name):
        return qrels_from_frame(frame.rename(columns={"value": "relevance"}), scale=scale, name=name, fmt=DICT_FORMAT)


def run_from_mapping(run: object, *, name: str = RUN_DICT) -> Run:
    """A run from ranx's ``{query: {doc: score}}``, ordered by score (ties as the settings break them), each score
    checked as a run file's would be (a finite number)."""
    frame = _frame_of(run, name, "score")
    with _cell_named(frame, name):
        return run_from_frame(frame.rename(columns={"value": "score"}), name=name, fmt=DICT_FORMAT)


def _frame_of(mapping: object, name: str, what: str) -> pd.DataFrame:
    """The cells of a dict of dicts, as a frame (query_id, doc_id, value); refused when it is not one."""
    if not isinstance(mapping, Mapping):
        raise InputError(f"expected a dict of query -> {{document: {what}}}, not {type(mapping).__name__}", path=name)
    queries: list[str] = []
    docs: list[str] = []
    values: list[object] = []
    for query, inner in mapping.items():
        if not isinstance(query, str):
            raise InputError(f"query {query!r}: query IDs are strings, not {type(query).__name__}", path=name)
        if not isinstance(inner, Mapping):
            raise InputError(
                f"query {query!r}: expected a dict of document -> {what}, not {type(inner).__name__}", path=name
            )
        if not inner:
            raise InputError(f"query {query!r} has no documents: leave it out or give it some", path=name)
        for doc, value in inner.items():
            if not isinstance(doc, str):
                raise InputError(
                    f"query {query!r}, document {doc!r}: document IDs are strings, not {type(doc).__name__}", path=name
                )
            queries.append(query)
            docs.append(doc)
            if isinstance(value, float) and what == "grade" and value.is_integer():
                value = int(value)  # ranx's grades may come as floats: 3.0 is the grade 3 (2.5 stays refused)
            values.append("NaN" if isinstance(value, float) and value != value else "None" if value is None else value)
    if not queries:
        raise InputError("has no queries", path=name)
    # Scores: pandas infers the column's type, so numbers stay numbers (read at numpy's pace) and anything else is
    # refused cell by cell. Grades: each cell as it is (ints and a 2.5 would all become floats: '3.0' refused first).
    # NaN and None are shown as they read (a missing cell would say '').
    column = pd.Series(values, dtype=object if what == "grade" else None)
    return pd.DataFrame({"query_id": queries, "doc_id": docs, "value": column})


@contextmanager
def _cell_named(frame: pd.DataFrame, name: str) -> Iterator[None]:
    """A problem the frame's checks find in a row, named by the row's query and document instead."""
    try:
        yield
    except InputError as exc:
        if exc.line is None or not 1 <= exc.line <= len(frame):
            raise
        query, doc = frame["query_id"].iloc[exc.line - 1], frame["doc_id"].iloc[exc.line - 1]
        raise InputError(f"query {query!r}, document {doc!r}: {exc.message}", path=name, hint=exc.hint) from None


def _columns(frame: pd.DataFrame, names: Mapping[str, tuple[str, ...]], path: str, wanted: str) -> dict[str, str]:
    """Each column we read -> the frame's column holding it; refused when one is missing or given twice."""
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"expected a pandas DataFrame or a file path, not {type(frame).__name__}", path=path)
    present = [str(c) for c in frame.columns]
    if len(set(present)) != len(present):
        twice = next(c for c in present if present.count(c) > 1)
        raise InputError(f"has the column {twice!r} twice", path=path)
    found: dict[str, str] = {}
    for ours, spellings in names.items():
        given = [c for c in spellings if c in present]
        if len(given) > 1:
            raise InputError(f"has both {' and '.join(given)} columns; keep one", path=path)
        if not given:
            raise InputError(f"needs the columns {wanted}; found {', '.join(present) or 'none'}", path=path)
        found[ours] = given[0]
    if not len(frame):
        raise InputError("has no rows", path=path)
    return found


def _text(column: pd.Series, *, integral: bool) -> pa.Array:
    """A column's cells as the text a file would hold: missing values empty (refused as empty by the checks);
    whole floats (an integer column that met a NaN) as whole numbers when ``integral``."""
    if integral and pd.api.types.is_float_dtype(column.dtype):
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        finite = np.isfinite(values)
        if (values[finite] == np.round(values[finite])).all():
            column = column.astype("Int64")
    if pd.api.types.is_bool_dtype(column.dtype):
        column = column.astype(object)  # True is no grade and no ID: shown as it reads, then refused
    text = pa.array(column.astype("string"), type=pa.string(), from_pandas=True)
    return pc.fill_null(text, "")


def _numbers(column: pd.Series, what: str, path: str) -> np.ndarray:
    """Scores or ranks as float64; a cell that is no number refused as a file's would be, naming its row."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
        values: np.ndarray = column.to_numpy(dtype=np.float64, na_value=np.nan)
        return values
    out = np.empty(len(column), dtype=np.float64)
    for row, value in enumerate(column.tolist()):
        text = "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)
        out[row] = parse_number(text, what, path, row + 1)
    return out


def _digest(cells: dict[str, pa.Array]) -> str:
    """The SHA-256 of the columns written as CSV with our names (what the manifest proves)."""
    sink = pa.BufferOutputStream()
    pa_csv.write_csv(pa.table(cells), sink)
    return hashlib.sha256(sink.getvalue().to_pybytes()).hexdigest()
