"""Judgments and runs as read from files, in columnar form.

Runs can hold millions of lines, so IDs are dictionary-encoded: each row carries integer
codes into one array of distinct query IDs and one of distinct document IDs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

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


@dataclass
class Run:
    """A ranked list of returned documents per query.

    Row ``i`` is the ``i``-th data line of the file (or, for JSONL, the ``i``-th listed
    document); ``line_of(i)`` gives its line number for messages.
    """

    queries: pa.Array  # distinct query IDs (strings)
    docs: pa.Array  # distinct document IDs (strings)
    q: np.ndarray  # int32 code into ``queries`` per row
    d: np.ndarray  # int32 code into ``docs`` per row
    score: np.ndarray | None  # float64 per row, when the file has scores
    rank: np.ndarray | None  # int64 per row, when the file has ranks
    order: OrderKind
    source: Source
    line_numbers: np.ndarray | None = None  # per row; None means row + first_line
    first_line: int = 1
    notes: list[str] = field(default_factory=list)  # how the file was read, for the manifest
    empty_queries: tuple[str, ...] = ()  # answered with an empty list (JSONL): they score 0, not "no ranking"

    def __len__(self) -> int:
        return len(self.q)

    def line_of(self, row: int) -> int:
        if self.line_numbers is not None:
            return int(self.line_numbers[row])
        return int(row) + self.first_line

    def answered_queries(self) -> list[str]:
        return self.queries.to_pylist() + list(self.empty_queries)
