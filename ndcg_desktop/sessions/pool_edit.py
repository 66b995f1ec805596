"""The pool editor's state as a Qt-free, evented session (the pattern of :mod:`ndcg_desktop.sessions.scores`).

Where the editor acts (a pool version and a query: the Annotate view's place, forwarded by the window), that
query's items as the file holds them now, whether an add or a removal may go ahead and why not, the edits with
their undo, and the discard waiting for its confirmation. The session follows the project's events: an undo, a
discard, a worker's or another program's write updates the items, and drops a discard plan whose counts no longer
hold, without anyone refreshing it by hand. A frozen version is refused (rule 15: a frozen pool never changes).

>>> import tempfile, pathlib
>>> from ndcg_desktop.sessions.events import ProjectSlot
>>> from ndcg_desktop.tasks.project import create_project
>>> slot, session = ProjectSlot(), PoolEditSession()
>>> session.follow(slot)
>>> slot.open(create_project(pathlib.Path(tempfile.mkdtemp()) / "p.ndcgproj", annotator="ana"), annotator="ana")
>>> session.add_refusal().kind  # the project has no pool yet
'no_pool'
>>> slot.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ndcg_desktop.domain.progress import IsCancelled
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.sessions.events import FollowsProject, ItemsChanged, ProjectEvent, VersionsChanged
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.pool_editing import (
    ROW_COLUMNS,
    DiscardedDraft,
    DiscardPlan,
    PoolEdit,
    add_to_pool,
    discard,
    plan_discard,
    remove_from_pool,
    undo_add,
    undo_remove,
)

# Aspects carried by PoolEditSession.changed.
PROJECT, PLACE, ITEMS, PENDING = "project", "place", "items", "pending"


@dataclass(frozen=True)
class EditRefusal:
    """Why an edit of the pool does nothing. ``kind``: no_pool (no version shown), read_only, frozen, no_query,
    no_document, graded (only an ungraded item leaves a pool), not_in_pool."""

    kind: str
    version: int | None = None
    query_id: str | None = None
    doc_id: str | None = None
    grade: int | None = None
    grade_text: str = ""  # the grade as the pool shows it, with its label ('3 · Perfect')


def _grade(value: Any) -> int | None:
    return None if pd.isna(value) else int(value)


class PoolEditSession(FollowsProject):
    """What *Pool ▸ Add document* and *Remove ungraded item* act on, and what they would do."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.version: int | None = None  # the version the editor acts on (the Annotate view's)
        self.query_id: str | None = None
        self._items = pd.DataFrame(columns=ROW_COLUMNS)
        self._pending: DiscardPlan | None = None

    # -- following the project (FollowsProject: each project, every change to it) -----------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): no place chosen yet, nothing pending."""
        self.project = project
        self.version = None
        self.query_id = None
        self._pending = None
        self._items = pd.DataFrame(columns=ROW_COLUMNS)
        self.changed.emit(frozenset({PROJECT, PLACE, ITEMS, PENDING}))

    def project_changed(self, event: ProjectEvent) -> None:
        """Items of the draft changed (here, by an undo, a worker, another program), or versions came and went."""
        aspects: set[str] = set()
        if isinstance(event, ItemsChanged):
            if self._pending is not None and event.version == self._pending.draft.version:
                self._pending = None  # its counts are no longer what the discard would take
                aspects.add(PENDING)
            if event.version == self.version and self.query_id is not None and event.touches(self.query_id):
                self._load_items()
                aspects.add(ITEMS)
        elif isinstance(event, VersionsChanged):
            if self._pending is not None:
                self._pending = None
                aspects.add(PENDING)
            if self.version in (*event.added, *event.removed, *event.frozen):
                self._load_items()  # gone: no items; back (an undone discard): its items; frozen: refused
                aspects |= {PLACE, ITEMS}
        if aspects:
            self.changed.emit(frozenset(aspects))

    def reload(self) -> None:
        self._load_items()
        self.changed.emit(frozenset({ITEMS}))

    def forget_results(self) -> None:
        """Nothing here is computed from a frozen version."""

    # -- the place -------------------------------------------------------------------------------
    def show(self, version: int | None, query_id: str | None) -> None:
        """Act on ``query_id`` of pool ``version`` (the Annotate view's place)."""
        if (version, query_id) != (self.version, self.query_id):
            self.version, self.query_id = version, query_id
            self._load_items()
            self.changed.emit(frozenset({PLACE, ITEMS}))

    @property
    def pool_version(self) -> PoolVersion | None:
        """The version acted on, as the file says now (None: none chosen, or it went)."""
        if self.project is None or self.version is None:
            return None
        return next((v for v in self.project.pools.versions() if v.version == self.version), None)

    def _load_items(self) -> None:
        version = self.pool_version
        if self.project is None or version is None or self.query_id is None:
            self._items = pd.DataFrame(columns=ROW_COLUMNS)
        else:
            self._items = self.project.pools.pool_items(version.version, self.query_id)[ROW_COLUMNS].reset_index(
                drop=True
            )

    @property
    def items(self) -> pd.DataFrame:
        """The query's items in the version acted on (ROW_COLUMNS), as the file holds them now."""
        return self._items.copy()

    def in_pool(self) -> frozenset[str]:
        return frozenset(str(d) for d in self._items["doc_id"])

    def grade_of(self, doc_id: str) -> int | None:
        rows = self._items[self._items["doc_id"] == doc_id]
        return _grade(rows["grade"].iloc[0]) if len(rows) else None

    # -- what may go ahead -----------------------------------------------------------------------
    def locked(self) -> EditRefusal | None:
        """Why nothing in the pool acted on can change, or None."""
        version = self.pool_version
        if self.project is None or version is None:
            return EditRefusal("no_pool")
        if self.project.read_only:  # first, as in Annotate: a frozen version's way on (a new draft) is closed too
            return EditRefusal("read_only", version=version.version)
        if version.frozen:
            return EditRefusal("frozen", version=version.version)
        return None

    def add_refusal(self) -> EditRefusal | None:
        """Why adding to the query's pool does nothing, or None (a document in it already is refused by the add
        itself, in the store's words, and never offered by :class:`DocumentSearch`)."""
        locked = self.locked()
        if locked is not None:
            return locked
        if self.query_id is None:
            return EditRefusal("no_query", version=self.version)
        return None

    def remove_refusal(self, doc_id: str | None) -> EditRefusal | None:
        """Why removing ``doc_id`` does nothing, or None: nothing chosen, the pool locked, or the item graded."""
        if doc_id is None or self.query_id is None:
            return EditRefusal("no_document", version=self.version, query_id=self.query_id)
        locked = self.locked()
        if locked is not None:
            return locked
        if doc_id not in self.in_pool():
            return EditRefusal("not_in_pool", self.version, self.query_id, doc_id)
        grade = self.grade_of(doc_id)
        if grade is not None:
            version = self.pool_version
            labels, low = (version.labels, version.scale.low) if version is not None else ([], 0)
            return EditRefusal("graded", self.version, self.query_id, doc_id, grade, grade_label(grade, labels, low))
        return None

    # -- the edits (each returns what its undo needs) ----------------------------------------------
    def _place(self, version: int | None, query_id: str | None) -> tuple[Project, int, str]:
        version = self.version if version is None else version
        query_id = self.query_id if query_id is None else query_id
        if self.project is None or version is None or query_id is None:
            raise ValueError("no pool version and query chosen")
        return self.project, version, query_id

    def add(self, doc_id: str, *, version: int | None = None, query_id: str | None = None) -> PoolEdit:
        """Add ``doc_id`` to the query's pool (the place shown, or the one an undo command names);
        :func:`~ndcg_desktop.tasks.pool_editing.add_to_pool` refuses what :meth:`add_refusal` names, in the
        store's words."""
        return add_to_pool(*self._place(version, query_id), doc_id, annotator=self.annotator)

    def remove(self, doc_id: str, *, version: int | None = None, query_id: str | None = None) -> PoolEdit:
        return remove_from_pool(*self._place(version, query_id), doc_id, annotator=self.annotator)

    def undo(self, edit: PoolEdit) -> None:
        """Take back an add or a removal, exactly."""
        if self.project is None:
            raise ValueError("no project open")
        if edit.taken is None:
            undo_add(self.project, edit, annotator=self.annotator)
        else:
            undo_remove(self.project, edit, annotator=self.annotator)

    # -- discarding the draft ----------------------------------------------------------------------
    @property
    def pending(self) -> DiscardPlan | None:
        """The discard waiting for its confirmation (None once the draft changed since it was counted)."""
        return self._pending

    def plan_discard(self) -> DiscardPlan:
        """Count what discarding the draft would take; the plan stays pending until the draft changes."""
        if self.project is None:
            raise ValueError("no project open")
        self._pending = plan_discard(self.project)
        self.changed.emit(frozenset({PENDING}))
        return self._pending

    def discard_job(self, plan: DiscardPlan) -> Job[DiscardedDraft]:
        """Discard the planned draft on any thread; refused (ValueError) if the draft changed since it was planned.
        The discard itself reaches every view through the project's events."""
        if plan is not self._pending or self.project is None:
            raise ValueError("the draft pool changed since the confirmation; discard again")
        project, annotator = self.project, self.annotator
        self._pending = None

        def work(progress: Any = None, cancelled: IsCancelled | None = None) -> DiscardedDraft:
            return discard(project, plan, cancelled=cancelled, annotator=annotator)

        return Job("discard", 0, work)


SEARCH_LIMIT = 50
FOUND_COLUMNS = ["doc_id", "title", "match", "in_pool"]


class DocumentSearch:
    """*Add document*'s search of the imported documents: the newest request wins, and each match says whether it
    is in the query's pool already (it cannot be added twice)."""

    def __init__(self, project: Project, in_pool: set[str] | frozenset[str], limit: int = SEARCH_LIMIT) -> None:
        self.project, self.in_pool, self.limit = project, frozenset(in_pool), limit
        self.generation = 0
        self.found = pd.DataFrame(columns=FOUND_COLUMNS)

    def job(self, text: str) -> Job[pd.DataFrame]:
        """Search for ``text`` (an ID prefix, or words of a title or text) on any thread; an older job's answer
        is dropped by :meth:`apply`."""
        self.generation += 1
        project, limit, in_pool = self.project, self.limit, self.in_pool

        def work(progress: Any = None, cancelled: IsCancelled | None = None) -> pd.DataFrame:
            if not text.strip():
                return pd.DataFrame(columns=FOUND_COLUMNS)
            found = project.texts.search_documents(text, limit=limit, cancelled=cancelled)
            return found.assign(in_pool=[d in in_pool for d in found["doc_id"]]).reset_index(drop=True)

        return Job("search", self.generation, work)

    def apply(self, job: Job[object], found: pd.DataFrame) -> bool:
        """Keep ``found`` if it answers the newest request; False (dropped) otherwise."""
        if job.generation != self.generation:
            return False
        self.found = found
        return True

    def can_add(self, doc_id: str) -> bool:
        return bool(doc_id.strip()) and doc_id.strip() not in self.in_pool
