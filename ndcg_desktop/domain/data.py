"""Judgments and runs as read from files, in columnar form.

Runs can hold millions of lines, so IDs are dictionary-encoded: each row carries integer
codes into one array of distinct query IDs and one of distinct document IDs (document IDs
that are all numbers may be kept as numbers instead; see :class:`Run`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Imported where used: ``ndcg --version`` and the argument parser need none of them, and reading
    # a run needs no pandas (the command line imports it while a run is read).
    import numpy as np
    import pandas as pd
    import pyarrow as pa


class OrderKind(StrEnum):
    """How a run's file says its documents are ordered."""

    SCORE = "score"  # score descending, ties by policy (TREC runs: rank column ignored, as trec_eval)
    RANK = "rank"  # rank ascending, ties by policy
    LIST = "list"  # the order of the list itself (JSONL doc_ids)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Source:
    """Where data came from: enough to name it in messages and to prove it in a manifest."""

    path: str
    sha256: str
    format: str

    @property
    def name(self) -> str:
        return self.path


@dataclass(frozen=True)
class JudgmentColumns:
    """Judgments as columns, one row per (query, document): what readers and the store hand to scoring.

    A 10M-line qrels file never becomes ten million Python strings: query IDs are codes into the
    sorted distinct IDs, document IDs stay Arrow text.
    """

    queries: pa.Array  # distinct query IDs (strings), sorted by code point
    q: np.ndarray  # int32 code into ``queries`` per row
    doc_ids: pa.Array | pa.ChunkedArray  # the document ID (string) of each row
    grade: np.ndarray  # int64 per row
    line: np.ndarray | None = None  # int64 file line per row; None: row ``i`` is on line ``i + 1``
    doc_keys: np.ndarray | None = None  # uint64 per row, scoring.judged.id_keys of doc_ids, when a reader has them
    # The TREC iteration column of each row as written (TREC-COVID writes its round there: 0.5, 1, 1.5 ...);
    # None: every row's is "0" (a CSV file without the column, judgments a scorer needs no round of).
    iteration: pa.Array | pa.ChunkedArray | None = None
    # True: every ID in ``queries`` is a query of the pool, even one without a row (all its lines were negative
    # grades: in the pool, not judged, see :func:`judged_only`); False: an ID without a row is no query.
    keeps_queries: bool = False

    def lines(self) -> np.ndarray:
        import numpy as np

        return np.arange(1, len(self.q) + 1, dtype=np.int64) if self.line is None else self.line


class Qrels:
    """Graded judgments: one row per (query_id, doc_id) with an integer grade.

    Built from :class:`JudgmentColumns` (readers, the store) or from a pandas frame with the
    columns query_id (str), doc_id (str), grade (int64) and line (int64); each form is derived
    from the other on first use. Scoring reads :attr:`judgments`; views that filter by query read ``frame``.

    A negative grade is trec_eval's "in the pool, not judged" (its RELVALUE_UNJUDGED; ``-J`` drops such a
    document, and without it the document earns nothing where it stands): one reading on every path, files,
    DataFrames and pool versions alike. :attr:`judgments` and :attr:`frame` are the judged universe, grades of 0
    and more, so a returned document graded -1 is unjudged under every unjudged policy; :attr:`as_read` and
    :meth:`frame_as_read` keep every row (what a project imports, what a view of a version's grades shows).
    """

    def __init__(
        self,
        frame: pd.DataFrame | JudgmentColumns,
        source: Source,
        repeats: int = 0,
        *,
        comments: int = 0,
        numbered: bool = False,
    ) -> None:
        self.source = source
        self.repeats = repeats  # identical (query, doc, grade) lines tolerated and dropped
        self.comments = comments  # comment lines skipped (trec_eval 10.0: TREC lines starting with '#')
        # True: each row's line is a line (or row) of ``source.path``; a store's rows are on no line one can open.
        self.numbered = numbered
        self._read = frame if isinstance(frame, JudgmentColumns) else None
        self._given = None if isinstance(frame, JudgmentColumns) else frame
        self._judgments: JudgmentColumns | None = None
        self._frame: pd.DataFrame | None = None

    @property
    def as_read(self) -> JudgmentColumns:
        """Every row as read, negative grades included (built from the frame on first use when given one)."""
        if self._read is None:
            self._read = _columns_of(self._given)
        return self._read

    @property
    def judgments(self) -> JudgmentColumns:
        """The judged universe as columns: the rows graded 0 or more (see the class)."""
        if self._judgments is None:
            self._judgments = judged_only(self.as_read)
        return self._judgments

    @property
    def unjudged_in_pool(self) -> int:
        """Rows with a negative grade: in the pool, not judged (trec_eval), so not in :attr:`judgments`."""
        if self._given is not None and self._read is None:
            return int((self._given["grade"] < 0).sum())
        return len(self.as_read.q) - len(self.judgments.q)

    def pooled_not_judged(self, query_id: str, doc_id: str) -> tuple[int, int | None] | None:
        """The negative grade of ``doc_id`` for ``query_id`` and its line (None when not :attr:`numbered`), or None
        when it has none: what lets a refusal say "in the pool, not judged" (a scan of the rows, on errors only)."""
        import numpy as np

        from ndcg_desktop.domain.arrays import to_arrow  # not pa.array or a Python scalar: they import pandas

        read = self.as_read
        queries = read.queries.to_pylist()  # the distinct queries: few, and this is the error path
        if query_id not in queries:
            return None
        rows = np.flatnonzero((read.grade < 0) & (read.q == queries.index(query_id)))
        docs = read.doc_ids.take(to_arrow(rows)).to_pylist() if len(rows) else []
        if doc_id not in docs:
            return None
        row = int(rows[docs.index(doc_id)])
        return int(read.grade[row]), int(read.lines()[row]) if self.numbered else None

    @property
    def frame(self) -> pd.DataFrame:
        """The judged universe as a pandas DataFrame (query_id, doc_id, grade, line), built once on first use."""
        if self._frame is None:
            given = self._given
            if given is not None and self._read is None:
                judged = given["grade"] >= 0
                self._frame = given if bool(judged.all()) else given[judged].reset_index(drop=True)
            else:
                self._frame = _frame_of(self.judgments)
        return self._frame

    def frame_as_read(self) -> pd.DataFrame:
        """Every row as a pandas DataFrame, negative grades included."""
        if self._given is not None:
            return self._given
        return self.frame if self.unjudged_in_pool == 0 else _frame_of(self.as_read)

    @property
    def n_judgments(self) -> int:
        return len(self.judgments.q) if self._frame is None else len(self._frame)

    def query_ids(self) -> list[str]:
        ids: list[str] = self.judgments.queries.to_pylist()
        return ids


def judged_only(columns: JudgmentColumns) -> JudgmentColumns:
    """The rows graded 0 or more: a negative grade is trec_eval's "in the pool, not judged". Every query stays a
    query of the pool, with no row when all its lines were negative (trec_eval still counts it, under ``-c``)."""
    import numpy as np

    from ndcg_desktop.domain.arrays import to_arrow  # not pa.array: it imports pandas (issue 37)

    judged = columns.grade >= 0
    if bool(judged.all()):
        return columns
    keep = np.flatnonzero(judged)
    taken = to_arrow(keep)
    return JudgmentColumns(
        queries=columns.queries,
        q=columns.q[keep],
        doc_ids=columns.doc_ids.take(taken),
        grade=columns.grade[keep],
        line=columns.lines()[keep],
        doc_keys=None if columns.doc_keys is None else columns.doc_keys[keep],
        iteration=None if columns.iteration is None else columns.iteration.take(taken),
        keeps_queries=True,
    )


def _frame_of(c: JudgmentColumns) -> pd.DataFrame:
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    return pd.DataFrame(
        {
            "query_id": pd.Series(c.queries.take(pa.array(c.q)).to_pandas()).astype(str),
            "doc_id": pd.Series(c.doc_ids.to_pandas()).astype(str),
            "grade": c.grade.astype(np.int64, copy=False),
            "line": c.lines(),
        }
    )


def _columns_of(frame: pd.DataFrame) -> JudgmentColumns:
    """The columns of a judgments frame (small frames: tests, older callers)."""
    import numpy as np
    import pyarrow as pa

    query_ids = frame["query_id"].astype(str).to_numpy(dtype=object)
    distinct = sorted(set(query_ids.tolist()))
    index = {qid: i for i, qid in enumerate(distinct)}
    return JudgmentColumns(
        queries=pa.array(distinct, pa.string()),
        q=np.array([index[qid] for qid in query_ids.tolist()], dtype=np.int32),
        doc_ids=pa.array(frame["doc_id"].astype(str).tolist(), pa.string()),
        grade=frame["grade"].to_numpy(dtype=np.int64),
        line=frame["line"].to_numpy(dtype=np.int64),
    )


class Run:
    """A ranked list of returned documents per query.

    Row ``i`` is the ``i``-th data line of the file (or, for JSONL, the ``i``-th listed
    document); ``line_of(i)`` gives its line number for messages.

    Document IDs are held as codes ``d`` into ``docs``, the distinct IDs. Hashing millions of
    nearly distinct strings into a dictionary is the costliest part of reading a large run, and
    scoring needs none, so a reader may give instead ``doc_column``, each row's ID as a string
    (scoring keys them from their bytes, see ``scoring/idkeys.py``), or, when every ID is a
    non-negative integer written without leading zeros (MS MARCO, TREC DL, Cranfield),
    ``doc_numbers``, each row's ID as its number. ``docs`` and ``d`` are then built on first use.
    """

    def __init__(
        self,
        queries: pa.Array,
        docs: pa.Array | None,
        q: np.ndarray,
        d: np.ndarray | None,
        score: np.ndarray | None,
        rank: np.ndarray | None,
        order: OrderKind,
        source: Source,
        line_numbers: np.ndarray | None = None,
        first_line: int = 1,
        notes: list[str] | None = None,
        empty_queries: tuple[str, ...] = (),
        *,
        doc_numbers: np.ndarray | None = None,
        doc_column: pa.Array | None = None,
        tag: str | None = None,
        comments: int = 0,
    ) -> None:
        if (docs is None or d is None) and doc_numbers is None and doc_column is None:
            raise ValueError("a run needs docs and d, doc_numbers or doc_column")
        self.queries = queries  # distinct query IDs (strings)
        self.q = q  # int32 code into ``queries`` per row
        self._docs, self._d = docs, d
        self.doc_numbers = doc_numbers  # int32 per row: the document ID as a number (see above), or None
        self.doc_column = doc_column  # string per row (see above), or None
        self.score = score  # float64 per row, when the file has scores
        self.rank = rank  # int64 per row, when the file has ranks
        self.order = order
        self.source = source
        self.line_numbers = line_numbers  # per row; None means row + first_line
        self.first_line = first_line
        self.notes = notes if notes is not None else []  # how the file was read, for the manifest
        self.empty_queries = empty_queries  # answered with an empty list (JSONL): they score 0, not "no ranking"
        self.tag = tag  # a TREC run's tag (sixth column) when every line gives the same one, else None
        self.comments = comments  # comment lines skipped (trec_eval 10.0: TREC lines starting with '#')

    @property
    def docs(self) -> pa.Array:
        """Distinct document IDs (strings), in order of first appearance (numbers: ascending)."""
        if self._docs is None:
            self._docs, self._d = self._dictionary()
        return self._docs

    @property
    def d(self) -> np.ndarray:
        """int32 code into ``docs`` per row."""
        if self._d is None:
            self._docs, self._d = self._dictionary()
        return self._d

    def _dictionary(self) -> tuple[pa.Array, np.ndarray]:
        if self.doc_numbers is not None:
            return _dictionary_of_numbers(self.doc_numbers)
        if self.doc_column is None:
            raise ValueError("a run needs docs and d, doc_numbers or doc_column")
        return _dictionary_of_strings(self.doc_column)

    def doc_ids(self, rows: np.ndarray) -> pa.Array:
        """The document IDs (strings) of some rows, without building ``docs`` for them."""
        import pyarrow as pa
        import pyarrow.compute as pc

        from ndcg_desktop.domain.arrays import to_arrow

        if self.doc_numbers is not None:
            return pc.cast(to_arrow(self.doc_numbers[rows], pa.int64()), pa.string())
        if self.doc_column is not None:
            return self.doc_column.take(to_arrow(rows))
        return self.docs.take(to_arrow(self.d[rows]))

    def __len__(self) -> int:
        return len(self.q)

    def line_of(self, row: int) -> int:
        if self.line_numbers is not None:
            return int(self.line_numbers[row])
        return int(row) + self.first_line

    def answered_queries(self) -> list[str]:
        answered: list[str] = self.queries.to_pylist()
        return answered + list(self.empty_queries)


def _dictionary_of_numbers(numbers: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """The distinct numbers, ascending, as strings, and each row's int32 code into them."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from ndcg_desktop.domain.arrays import to_arrow

    if len(numbers) and int(numbers.max()) < 2 * len(numbers) + (1 << 24):
        # Dense enough for a table indexed by value: mark the values used, number them in order.
        used = np.zeros(int(numbers.max()) + 1, dtype=bool)
        used[numbers] = True
        distinct = np.flatnonzero(used)
        codes = (np.cumsum(used, dtype=np.int32) - 1)[numbers]
    else:
        distinct, inverse = np.unique(numbers, return_inverse=True)
        codes = inverse.astype(np.int32, copy=False)
    return pc.cast(to_arrow(distinct, pa.int64()), pa.string()), codes


def _dictionary_of_strings(column: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """The distinct strings in order of first appearance, and each row's int32 code into them."""
    import numpy as np
    import pyarrow.compute as pc

    from ndcg_desktop.domain.arrays import to_numpy

    encoded = pc.dictionary_encode(column)
    return encoded.dictionary, to_numpy(encoded.indices).astype(np.int32, copy=False)
