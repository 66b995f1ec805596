"""The Annotate view's two lists as plain Python columns: the queries of a pool version and one query's pool.

The window's table models index these lists (a model's ``data()`` is called thousands of times per repaint, so
the values are prepared once, here); sorting happens on them too, in Python, because a sort proxy calls
``data()`` through the bindings about 15 times per row. No Qt: a worker thread may build them.

>>> import pandas as pd
>>> frame = pd.DataFrame({"query_id": ["q10", "q2"], "text": ["b", "a"], "pool_size": [3, 2],
...                       "graded": [1, 2], "awaiting": [1, 0]})
>>> rows = QueryRows.of(frame)
>>> rows.sort("query_id", descending=False)
>>> rows.ids, rows.ungraded(0), rows.state(1, frozen=False)
(['q2', 'q10'], 0, 'to grade')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ndcg_desktop.domain.blind import blind_key
from ndcg_desktop.domain.natural import natural_key

__all__ = [
    "AWAITING",
    "DONE",
    "FROZEN",
    "NO_POOL",
    "POOL_SORT_KEYS",
    "QUERY_SORT_KEYS",
    "TO_GRADE",
    "PoolRows",
    "QueryRows",
]

# A query's state in the list (the front words each).
FROZEN, NO_POOL, TO_GRADE, DONE, AWAITING = "frozen", "no pool", "to grade", "done", "awaiting"
QUERY_SORT_KEYS = ("query_id", "graded", "state", "text")
POOL_SORT_KEYS = ("doc_id", "title", "grade", "annotator", "note", "blind")


def _text(value: Any) -> str:
    return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)


@dataclass
class QueryRows:
    """A version's queries with their progress: ``sizes`` items, ``graded``, ``awaiting`` adjudication."""

    ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    graded: list[int] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # natural-order sort keys of the IDs
    awaiting: list[int] = field(default_factory=list)  # ungraded items waiting for adjudication
    row: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.awaiting) != len(self.ids):
            self.awaiting = [0] * len(self.ids)
        self.row = {q: i for i, q in enumerate(self.ids)}

    @classmethod
    def of(cls, frame: pd.DataFrame) -> QueryRows:
        """From ``query_progress``'s frame: query_id, text, pool_size, graded, awaiting."""
        ids = [str(x) for x in frame["query_id"]]
        return cls(
            ids,
            [_text(x) for x in frame["text"]],
            [int(x) for x in frame["pool_size"]],
            [int(x) for x in frame["graded"]],
            [natural_key(x) for x in ids],
            [int(x) for x in frame["awaiting"]] if "awaiting" in frame else [],
        )

    def __len__(self) -> int:
        return len(self.ids)

    def row_of(self, query_id: str) -> int:
        return self.row.get(query_id, -1)

    def ungraded(self, row: int) -> int:
        """Items still to grade here (those awaiting adjudication are settled in the Adjudicate tab)."""
        return self.sizes[row] - self.graded[row] - self.awaiting[row]

    def state(self, row: int, *, frozen: bool) -> str:
        if frozen:
            return FROZEN
        if self.sizes[row] == 0:
            return NO_POOL
        if self.ungraded(row):
            return TO_GRADE
        return AWAITING if self.awaiting[row] else DONE

    def totals(self) -> tuple[int, int]:
        """(graded, pool items) over every query of the version."""
        return sum(self.graded), sum(self.sizes)

    def set_counts(self, query_id: str, size: int, graded: int, awaiting: int) -> None:
        row = self.row_of(query_id)
        if row >= 0:
            self.sizes[row], self.graded[row], self.awaiting[row] = size, graded, awaiting

    def sort(self, key: str, *, descending: bool, frozen: bool = False, words: Mapping[str, str] | None = None) -> None:
        """Order the rows by ``key`` (one of :data:`QUERY_SORT_KEYS`); the state column sorts by ``words`` (the
        front's words for each state) when given, as the list shows them."""
        n = len(self.ids)
        if key == "query_id":
            values: list[Any] = self.keys
        elif key == "graded":
            values = [self.graded[r] / self.sizes[r] if self.sizes[r] else -1.0 for r in range(n)]
        elif key == "state":
            states = [self.state(r, frozen=frozen) for r in range(n)]
            values = [words.get(s, s) for s in states] if words else states
        else:
            values = self.texts
        order = sorted(range(n), key=values.__getitem__, reverse=descending)
        for name in ("ids", "texts", "sizes", "graded", "keys", "awaiting"):
            column = getattr(self, name)
            setattr(self, name, [column[r] for r in order])
        self.row = {q: i for i, q in enumerate(self.ids)}


@dataclass
class PoolRows:
    """One query's pool items: document, title, grade, annotator, note, time; blind keys for the blind order."""

    query_id: str = ""
    docs: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    grades: list[int | None] = field(default_factory=list)
    annotators: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    updated: list[str | None] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    blind: list[str] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)  # each row's position as read (the store's order)
    awaiting: frozenset[str] = frozenset()  # rated differently, not settled: for the Adjudicate tab
    row: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, query_id: str, frame: pd.DataFrame, awaiting: frozenset[str] = frozenset()) -> PoolRows:
        """From ``pool_items``' frame (query_id, doc_id, title, grade, annotator, note, updated_at)."""
        docs = [str(x) for x in frame["doc_id"]]
        rows = cls(
            query_id,
            docs,
            [_text(x) for x in frame["title"]],
            [None if pd.isna(g) else int(g) for g in frame["grade"]],
            [_text(x) for x in frame["annotator"]],
            [_text(x) for x in frame["note"]],
            [None if pd.isna(x) else str(x) for x in frame["updated_at"]],
            [natural_key(x) for x in docs],
            [blind_key(query_id, d) for d in docs],
            list(range(len(docs))),
            awaiting,
        )
        rows.row = {d: i for i, d in enumerate(docs)}
        return rows

    def __len__(self) -> int:
        return len(self.docs)

    def row_of(self, doc_id: str) -> int:
        return self.row.get(doc_id, -1)

    def is_awaiting(self, row: int) -> bool:
        """Rated differently by annotators and not settled: graded in the Adjudicate tab, not here."""
        return self.grades[row] is None and self.docs[row] in self.awaiting

    def sort(self, key: str, *, descending: bool) -> None:
        """Order by ``key`` (one of :data:`POOL_SORT_KEYS`); equal values keep the order they were read in."""
        if key == "grade":
            values: list[Any] = [-1 if g is None else g for g in self.grades]
        else:
            values = {
                "doc_id": self.keys,
                "title": self.titles,
                "annotator": self.annotators,
                "note": self.notes,
                "blind": self.blind,
            }[key]
        order = sorted(range(len(self.docs)), key=self.origin.__getitem__)
        order = sorted(order, key=values.__getitem__, reverse=descending)
        for name in ("docs", "titles", "grades", "annotators", "notes", "updated", "keys", "blind", "origin"):
            column = getattr(self, name)
            setattr(self, name, [column[r] for r in order])
        self.row = {d: i for i, d in enumerate(self.docs)}

    def set_values(self, doc_id: str, *, grade: int | None, annotator: str, note: str, updated_at: str | None) -> None:
        row = self.row_of(doc_id)
        if row >= 0:
            self.grades[row], self.annotators[row], self.notes[row], self.updated[row] = (
                grade,
                annotator,
                note,
                updated_at,
            )
