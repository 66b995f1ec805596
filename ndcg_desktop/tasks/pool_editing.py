"""Editing a draft pool by hand: add a document, remove an ungraded item, discard the draft; each with its undo.

Every edit returns what it did (the rows as they were), so the window's undo can put them back exactly;
every write, and every undo, is a row in the audit log (actions ``add``, ``remove``, ``discard draft`` and
``undo add``, ``undo remove``, ``restore draft``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.progress import IsCancelled
from ndcg_desktop.formats.cells import check_id
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.undo import Rows, Taken

ROW_COLUMNS = ["query_id", "doc_id", "grade", "annotator", "note", "updated_at"]


@dataclass(frozen=True)
class PoolEdit:
    """One item added to or removed from draft ``version``; ``row`` is the item as it was (ROW_COLUMNS)."""

    version: int
    query_id: str
    doc_id: str
    row: pd.DataFrame
    has_text: bool  # the document's text is in the project (an ID typed by hand may not be)
    taken: Taken | None = None  # what a removal took (the item and the rows that refer to it), for its undo


def _document_id(text: str) -> str:
    try:
        return check_id(text, "document ID", "", None)
    except InputError as exc:  # typed into the window: there is no file and line to name
        raise InputError(exc.message) from None


def _draft(project: Project, version: int) -> PoolVersion:
    v = project.pools.version(version)
    if v.frozen:
        raise InputError(
            f"pool version {v.version} is frozen and cannot change; start a new draft from it", path=project.path
        )
    return v


def _item(project: Project, version: int, query_id: str, doc_id: str) -> pd.DataFrame:
    items = project.pools.pool_items(version, query_id)
    return items[items["doc_id"] == doc_id][ROW_COLUMNS].reset_index(drop=True)


def add_to_pool(project: Project, version: int, query_id: str, doc_id: str, *, annotator: str) -> PoolEdit:
    """Add ``doc_id`` (trimmed, checked by the ID rule) to the pool of ``query_id`` in draft ``version``, ungraded.

    For example ``add_to_pool(project, 2, "q1", " D9 ")`` adds ``D9`` and returns its row (grade missing),
    which :func:`undo_add` takes out again; tests/tasks/test_pool_editing.py shows each edit with its undo.
    """
    doc = _document_id(doc_id)
    _draft(project, version)
    if len(_item(project, version, query_id, doc)):
        raise InputError(f"document {doc} is in the pool of query {query_id} already (version {version})")
    project.judgments.add_items(
        pd.DataFrame({"query_id": [query_id], "doc_id": [doc]}), version=version, action="add", annotator=annotator
    )
    return PoolEdit(
        version, query_id, doc, _item(project, version, query_id, doc), project.texts.document(doc) is not None
    )


def remove_from_pool(project: Project, version: int, query_id: str, doc_id: str, *, annotator: str) -> PoolEdit:
    """Remove an ungraded item from draft ``version`` (a graded one is refused: clear its grade first); the edit
    keeps what the removal took (the item and every row that refers to it) for :func:`undo_remove`."""
    _draft(project, version)
    row = _item(project, version, query_id, doc_id)
    if not len(row):
        raise InputError(f"document {doc_id} is not in the pool of query {query_id} (version {version})")
    if row["grade"].notna().any():
        raise InputError(
            f"document {doc_id} is graded {int(row['grade'].iloc[0])} for query {query_id}; only an ungraded item "
            "can be removed from a pool"
        )
    taken = project.judgments.take_items(
        row[["query_id", "doc_id"]], version=version, action="remove", annotator=annotator
    )
    return PoolEdit(version, query_id, doc_id, row, project.texts.document(doc_id) is not None, taken)


def undo_add(project: Project, edit: PoolEdit, *, annotator: str) -> None:
    """Take back :func:`add_to_pool` (the item is ungraded again by then: undo runs in order)."""
    if (
        project.judgments.remove_items(
            edit.row[["query_id", "doc_id"]], version=edit.version, action="undo add", annotator=annotator
        )
        != 1
    ):
        raise InputError(f"document {edit.doc_id} is no longer an ungraded item of query {edit.query_id}")


def undo_remove(project: Project, edit: PoolEdit, *, annotator: str) -> None:
    """Put back exactly what :func:`remove_from_pool` took: the item (note, annotator, time) and its ratings."""
    assert edit.taken is not None, "only a removal is undone by undo_remove"
    project.undo.restore(edit.taken, action="undo remove", annotator=annotator)


@dataclass(frozen=True)
class DiscardPlan:
    """What discarding the draft takes, counted from the rows the discard takes (``rows``), before the
    confirmation: every table that refers to the draft, a table added later included."""

    draft: PoolVersion
    rows: Rows
    items: int
    queries: int
    graded: int
    notes: int
    annotators: list[str]  # who rated the draft's items (ratings.annotator: imports are "import:<file>")
    ratings: int
    adjudicated: int  # items whose differing ratings were settled (pick, median, ...)
    assignments: int  # (annotator, query) pairs handed out in work files
    others: dict[str, int]  # rows of any other table that refers to the draft, by table
    own_work: int  # items graded or noted in this draft since it was made (the rest its parent also holds)

    @property
    def handouts(self) -> int:
        """Work files handed out for the draft (their items go with them)."""
        return self.others.get("handouts", 0)

    @property
    def model_answers(self) -> int:
        """Answers language models gave on the draft's items (their runs go with them)."""
        return self.others.get("assessor_attempts", 0)

    @property
    def pool_builds(self) -> int:
        """Records of how the draft was pooled: strategy, budget, runs and order of choice (their choices go with
        them)."""
        return self.others.get("pool_builds", 0)

    @property
    def unnamed(self) -> dict[str, int]:
        """Rows of the other tables a confirmation has no words for (one a later format adds), by table."""
        return {t: n for t, n in self.others.items() if t not in _SAID_WITH_WORDS}


@dataclass(frozen=True)
class DiscardedDraft:
    """A discarded draft and what the discard took, to bring it back with :func:`restore_discarded`."""

    draft: PoolVersion
    taken: Taken


_COUNTED = {"pool_versions", "judgments", "ratings", "assignments"}
# Tables of ``others`` a confirmation words (a work file's items and a judging job's runs are said with them).
_SAID_WITH_WORDS = {"handouts", "handout_items", "assessor_attempts", "assessor_runs", "pool_builds", "pool_choices"}


def plan_discard(project: Project) -> DiscardPlan:
    """Count what :func:`discard` would delete; refuses when there is no draft."""
    draft = project.pools.draft()
    if draft is None:
        raise InputError("has no draft pool to discard", path=project.path)
    rows = project.undo.version_contents(draft.version)  # the very rows the discard takes: the counts are theirs
    columns = [*ROW_COLUMNS, "adjudication"]
    items = pd.DataFrame(
        [dict(zip(rows.tables["judgments"].columns, r, strict=True)) for r in rows.tables["judgments"].rows]
        if rows.count("judgments")
        else [],
        columns=columns,
        dtype=object,
    )
    graded = items["grade"].notna()
    noted = items["note"] != ""
    own = graded | noted
    if draft.parent is not None and len(items):
        parent = project.pools.pool_items(draft.parent)[ROW_COLUMNS].astype(object)
        parent = parent.where(parent.notna(), None)
        same = items[ROW_COLUMNS].merge(parent, how="left", indicator=True)["_merge"] == "both"
        own &= ~same.to_numpy()
    credited = set(rows.values("ratings", "annotator"))  # every grade given is its author's rating too
    return DiscardPlan(
        draft=draft,
        rows=rows,
        items=len(items),
        queries=int(items["query_id"].nunique()),
        graded=int(graded.sum()),
        notes=int(noted.sum()),
        annotators=sorted(str(a) for a in credited),
        ratings=rows.count("ratings"),
        adjudicated=int(items["adjudication"].notna().sum()),
        assignments=rows.count("assignments"),
        others={t: rows.count(t) for t in rows.tables if t not in _COUNTED},
        own_work=int(own.sum()),
    )


def discard(
    project: Project, plan: DiscardPlan, *, cancelled: IsCancelled | None = None, annotator: str
) -> DiscardedDraft:
    """Delete the planned draft with every row that refers to it (audited, item by item), keeping what it took
    for :func:`restore_discarded`. Refused when the draft holds anything but what the plan counted."""
    draft = project.pools.draft()
    if draft != plan.draft:
        raise InputError("the draft pool changed since the confirmation; discard again", path=project.path)
    if cancelled is not None and cancelled():
        from ndcg_desktop.scoring import Cancelled

        raise Cancelled()
    taken = project.judgments.discard_draft(plan.draft.version, expected=plan.rows.digest(), annotator=annotator)
    return DiscardedDraft(plan.draft, taken)


def restore_discarded(project: Project, discarded: DiscardedDraft, *, annotator: str) -> PoolVersion:
    """Bring a discarded draft back under its number with everything the discard took (audited as
    ``restore draft``). Its number is never given to another version (:mod:`ndcg_desktop.store.pools`), so its
    handouts and audit rows name it alone; refused, writing nothing, while another draft exists (a project holds one
    at a time) or once a later version was frozen (a number joins the frozen chain in order: it could never be
    frozen), each naming that version."""
    number = discarded.draft.version
    other = project.pools.draft()
    if other is not None and other.version != number:
        raise InputError(
            f"draft pool version {other.version} was started after draft {number} was discarded, and a project "
            f"holds one draft at a time: undo or discard draft {other.version} first, then draft {number} can be "
            "brought back",
            path=project.path,
        )
    later = [v.version for v in project.pools.versions() if v.frozen and v.version > number]
    if later:
        raise InputError(
            f"pool version {later[-1]} was frozen after draft {number} was discarded: a draft brought back under "
            f"number {number} could never be frozen after it; draft {number} stays discarded",
            path=project.path,
        )
    project.undo.restore(discarded.taken, action="restore draft", annotator=annotator)
    return project.pools.version(number)
