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


@dataclass
class Qrels:
    """Graded judgments: one row per (query_id, doc_id) with an integer grade."""

    frame: pd.DataFrame  # columns query_id (str), doc_id (str), grade (int64), line (int64)
    source: Source
    repeats: int = 0  # identical (query, doc, grade) lines tolerated and dropped

    @property
    def n_judgments(self) -> int:
        return len(self.frame)

    def query_ids(self) -> list[str]:
        return sorted(self.frame["query_id"].unique().tolist())


class Run:
    """A ranked list of returned documents per query.

    Row ``i`` is the ``i``-th data line of the file (or, for JSONL, the ``i``-th listed
    document); ``line_of(i)`` gives its line number for messages.

    Document IDs are held as codes ``d`` into ``docs``, the distinct IDs. When every ID is a
    non-negative integer written without leading zeros (MS MARCO, TREC DL, Cranfield), a
    reader may give ``doc_numbers`` instead, each row's ID as its number: hashing millions of
    nearly distinct strings is the costliest part of reading a large run, and scoring needs
    no dictionary. ``docs`` and ``d`` are then built on first use.
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
    ) -> None:
        if (docs is None or d is None) and doc_numbers is None:
            raise ValueError("a run needs docs and d, or doc_numbers")
        self.queries = queries  # distinct query IDs (strings)
        self.q = q  # int32 code into ``queries`` per row
        self._docs, self._d = docs, d
        self.doc_numbers = doc_numbers  # int32 per row: the document ID as a number (see above), or None
        self.score = score  # float64 per row, when the file has scores
        self.rank = rank  # int64 per row, when the file has ranks
        self.order = order
        self.source = source
        self.line_numbers = line_numbers  # per row; None means row + first_line
        self.first_line = first_line
        self.notes = notes if notes is not None else []  # how the file was read, for the manifest
        self.empty_queries = empty_queries  # answered with an empty list (JSONL): they score 0, not "no ranking"

    @property
    def docs(self) -> pa.Array:
        """Distinct document IDs (strings)."""
        if self._docs is None:
            self._docs, self._d = _dictionary_of_numbers(self.doc_numbers)  # type: ignore[arg-type]
        return self._docs

    @property
    def d(self) -> np.ndarray:
        """int32 code into ``docs`` per row."""
        if self._d is None:
            self._docs, self._d = _dictionary_of_numbers(self.doc_numbers)  # type: ignore[arg-type]
        return self._d

    def doc_ids(self, rows: np.ndarray) -> pa.Array:
        """The document IDs (strings) of some rows, without building ``docs`` for them."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if self.doc_numbers is not None:
            return pc.cast(pa.array(self.doc_numbers[rows], pa.int64()), pa.string())
        return self.docs.take(pa.array(self.d[rows]))

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

    if len(numbers) and int(numbers.max()) < 2 * len(numbers) + (1 << 24):
        # Dense enough for a table indexed by value: mark the values used, number them in order.
        used = np.zeros(int(numbers.max()) + 1, dtype=bool)
        used[numbers] = True
        distinct = np.flatnonzero(used)
        codes = (np.cumsum(used, dtype=np.int32) - 1)[numbers]
    else:
        distinct, inverse = np.unique(numbers, return_inverse=True)
        codes = inverse.astype(np.int32, copy=False)
    return pc.cast(pa.array(distinct, pa.int64()), pa.string()), codes
