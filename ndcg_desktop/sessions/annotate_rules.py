"""The Annotate view's decisions, Qt-free: what a grading key does, why it does nothing, where it moves next.

The window's Annotate view renders the pool and forwards keys; every rule about grading lives here, so it is
tested without Qt and is the same whichever widget asks:

- a key does nothing, with a reason, when nothing can be graded (no pool, a frozen version, a read-only
  project, no query or document chosen, a grade off the scale, an item awaiting adjudication);
- regrading another annotator's grade is a deliberate act (the front asks first); one's own is not;
- after a grade the next document is the next ungraded one in the order shown, never a graded one (the next
  key would change a grade nobody meant to touch), and items awaiting adjudication are passed over.

>>> from ndcg_desktop.domain.settings import GradeScale
>>> rules = GradingRules(scale=GradeScale(0, 3), frozen=False, read_only=False, user="ana")
>>> rules.refusal(query_id="q1", doc_id="d1", grade=7).kind
'off_scale'
>>> rules.decide(grade=2, old=1, who="ben").kind
'confirm'
>>> next_ungraded([("d1", 3, False), ("d2", None, True), ("d3", None, False)], after=0)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ndcg_desktop.domain.names import name_key
from ndcg_desktop.domain.settings import GradeScale

__all__ = [
    "Decision",
    "GradingRules",
    "Refusal",
    "next_query_to_grade",
    "next_ungraded",
]


@dataclass(frozen=True)
class Refusal:
    """Why a key did nothing. ``kind``: no_pool, frozen, read_only, no_query, no_document, off_scale, awaiting.
    The values a front needs to word it: the version, the grade, the scale, the document."""

    kind: str
    version: int | None = None
    grade: int | None = None
    low: int | None = None
    high: int | None = None
    doc_id: str | None = None


@dataclass(frozen=True)
class Decision:
    """What a grading key does to an item: ``grade`` it, nothing because it has that ``same`` grade already, or
    ``confirm`` first because ``who`` (another annotator) gave it ``old``."""

    kind: str
    old: int | None = None
    who: str | None = None


@dataclass(frozen=True)
class GradingRules:
    """The shown version's facts that decide what a key does (``version`` None: the project has no pool); ``user``
    is whom a grade given here is credited to."""

    scale: GradeScale | None
    frozen: bool
    read_only: bool
    user: str
    version: int | None = None

    def locked(self) -> Refusal | None:
        """Why nothing in the shown pool can change, or None."""
        if self.scale is None:
            return Refusal("no_pool")
        if self.read_only:  # first: a frozen version's way on (a new draft) is closed to it too
            return Refusal("read_only")
        if self.frozen:
            return Refusal("frozen", version=self.version)
        return None

    def refusal(
        self, *, query_id: str | None, doc_id: str | None, grade: int, awaiting: bool = False
    ) -> Refusal | None:
        """Why ``grade`` cannot be given to ``doc_id`` of ``query_id`` now, or None."""
        locked = self.locked()
        if locked is not None:
            return locked
        assert self.scale is not None
        if query_id is None:
            return Refusal("no_query")
        if not (self.scale.low <= grade <= self.scale.high):
            return Refusal("off_scale", grade=grade, low=self.scale.low, high=self.scale.high)
        if doc_id is None:
            return Refusal("no_document")
        if awaiting:
            return Refusal("awaiting", doc_id=doc_id)
        return None

    def decide(self, *, grade: int, old: int | None, who: str | None) -> Decision:
        """Grade, keep (the same grade), or confirm first (another annotator's grade would be replaced). Names are
        compared as everywhere else (:func:`~ndcg_desktop.domain.names.name_key`): ``Ana`` regrading ``ana`` is one
        person changing her mind."""
        if old == grade:
            return Decision("same")
        if old is not None and who and name_key(who) != name_key(self.user):
            return Decision("confirm", old=old, who=who)
        return Decision("grade")


def next_ungraded(rows: Sequence[tuple[str, int | None, bool]], after: int = -1) -> int | None:
    """The position of the first ungraded row after ``after`` in the order shown, wrapping around; rows are
    (doc_id, grade, awaiting adjudication). Items awaiting adjudication are settled elsewhere: passed over."""
    count = len(rows)
    for step in range(1, count + 1):
        row = (after + step) % count
        _doc, grade, awaiting = rows[row]
        if grade is None and not awaiting:
            return row
    return None


def next_query_to_grade(ungraded: Sequence[int], current: int) -> int | None:
    """The position of the next query (after ``current``, wrapping) that still has ungraded documents."""
    count = len(ungraded)
    for step in range(1, count + 1):
        row = (current + step) % count
        if ungraded[row] > 0:
            return row
    return None
