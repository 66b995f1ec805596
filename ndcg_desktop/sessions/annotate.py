"""The Annotate view's state as a Qt-free, evented model (the pattern of :mod:`ndcg_desktop.sessions.scores`).

The session holds everything the view shows and decides: the pool version shown (and which one the project's
events call for: a new draft is shown, a discarded one gives way to the draft or the newest frozen version), the
query list with each query's progress, the current query and its pool in the judging order, the current item,
where a key moves next, why a key did nothing (:mod:`ndcg_desktop.sessions.annotate_rules`), whether a regrade is
confirmed first, and the note. The widgets render it and forward keys; the undoable commands call the use
cases it exposes (:meth:`AnnotateSession.grade_item`, :meth:`AnnotateSession.note_item`,
:meth:`AnnotateSession.put_back`).

It follows a :class:`~ndcg_desktop.sessions.events.ProjectSlot`: every change, by this window, an undo, a worker or
another program, reaches it as a project event. ``changed`` carries the aspects that changed.

>>> import tempfile, pathlib
>>> from ndcg_desktop.sessions.events import ProjectSlot
>>> from ndcg_desktop.tasks.project import create_project
>>> slot, session = ProjectSlot(), AnnotateSession()
>>> session.follow(slot)
>>> slot.open(create_project(pathlib.Path(tempfile.mkdtemp()) / "p.ndcgproj", annotator="ana"), annotator="ana")
>>> session.version is None, session.locked().kind
(True, 'no_pool')
>>> slot.close()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ndcg_desktop.domain.blind import BLIND, DOC_ID, JUDGING_ORDERS
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.sessions.annotate_rows import PoolRows, QueryRows
from ndcg_desktop.sessions.annotate_rules import Decision, GradingRules, Refusal, next_query_to_grade, next_ungraded
from ndcg_desktop.sessions.events import (
    FollowsProject,
    ItemsChanged,
    ProjectEvent,
    RunsChanged,
    SettingsChanged,
    TextsChanged,
    VersionRefused,
    VersionsChanged,
)
from ndcg_desktop.sessions.kit import Emitter, Job, prove_or_forget
from ndcg_desktop.store import FrozenVersionChanged, PoolVersion, Project
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks import grading, pool_builds
from ndcg_desktop.tasks.work_files import WorkOrigin, work_origin

__all__ = ["LARGE", "AnnotateSession"]

# Aspects carried by AnnotateSession.changed.
PROJECT = "project"  # another project (or none)
VERSION = "version"  # the versions listed or the one shown
QUERIES = "queries"  # the query list was read again
COUNTS = "counts"  # queries' counts changed in place
LOADING = "loading"  # the query list is read by a job (``pending``): run it and hand its rows to apply
POOL = "pool"  # another query, or its items read again
ITEMS = "items"  # the current query's items' values changed in place
CURRENT = "current"  # another current item
ORDER = "order"  # the pool's order
DOCUMENT = "document"  # the shown document's text or chunk map may have changed
REFUSED = "refused"  # a frozen version failed its proof while read (``refusal``)

# Items in the version (or queries in the project) above which the list is read by a job on a worker: reading
# 20,000 takes about 5 ms, well inside a frame.
LARGE = 20_000


class AnnotateSession(FollowsProject):
    """The state of one Annotate view. See the module docstring."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.versions: list[PoolVersion] = []
        self.version: PoolVersion | None = None
        self.queries = QueryRows()
        self.query_id: str | None = None
        self.topic: dict[str, str] | None = None
        self.pool = PoolRows()
        self.doc_id: str | None = None
        self.order = BLIND
        self.pool_sort: tuple[str, bool] = ("blind", False)  # (key, descending): the judging order until re-sorted
        self.ungraded_only = False
        self.parents: dict[str, str] = {}  # chunk ID -> its document, from the stored runs' chunk maps
        self.chunks_of: dict[str, list[str]] = {}
        self.generation = 0
        # the query list's read, while it runs elsewhere
        self.pending: Job[QueryRows | FrozenVersionChanged] | None = None
        self.refusal: FrozenVersionChanged | None = None
        self._keep: tuple[str | None, str | None] = (None, None)  # query and item to select when the list arrives
        self.query_sort: tuple[str, bool] = ("query_id", False)
        self._state_words: Mapping[str, str] | None = None  # the front's words for each state, to sort by
        self._build_states: dict[int, pool_builds.BuildState] = {}  # an adaptive build's rankings, read once

    # -- the project and its versions ------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): its draft is shown, else its newest version, else its queries."""
        self.project = project
        self._build_states = {}
        self.query_id, self.doc_id, self.topic = None, None, None
        self.versions = project.pools.versions() if project is not None else []
        self.version = self._preferred(None)
        self.order = project.judgments.judging_order() if project is not None else BLIND
        self.pool_sort = (_order_key(self.order), False)
        self._read_chunk_parents()
        self._load_queries(None, None, {PROJECT, VERSION, ORDER})

    def _preferred(self, keep: int | None) -> PoolVersion | None:
        """``keep`` if it exists, else the draft, else the newest frozen version."""
        kept = next((v for v in self.versions if v.version == keep), None)
        if kept is not None:
            return kept
        drafts = [v for v in self.versions if not v.frozen]
        return drafts[-1] if drafts else (self.versions[-1] if self.versions else None)

    def show_version(self, number: int | None) -> None:
        """The annotator chose version ``number`` (the version box)."""
        if self.project is None:
            return
        self.versions = self.project.pools.versions()
        self.version = self._preferred(number)
        self._load_queries(self.query_id, None, {VERSION})

    def reload(self) -> None:
        """Versions were added, removed or frozen: show what they call for (see :meth:`versions_changed`)."""
        self.versions_changed(VersionsChanged())

    def versions_changed(self, event: VersionsChanged) -> None:
        """A draft added (started, sent for judging, restored by an undo or a redo) is shown; a version shown that
        went (a discarded draft) gives way to the draft, else the newest frozen version; otherwise it stays."""
        if self.project is None:
            return
        shown = self.version.version if self.version is not None else None
        self.versions = self.project.pools.versions()
        added = [v.version for v in self.versions if v.version in event.added and not v.frozen]
        self.version = self._preferred(added[-1] if added else shown)
        same = self.version is not None and self.version.version == shown
        # Another version: its first ungraded item, as when it is chosen; the same one: the item stays current.
        self._load_queries(self.query_id, self.doc_id if same else None, {VERSION})

    def forget_results(self) -> None:
        """The project refused a frozen version: nothing of any pool stays on screen; its queries are listed."""
        self.version = None
        self._load_queries(None, None, {VERSION})

    def prove(self) -> None:
        """Before what is shown leaves the view: a frozen version shown still proves itself (rules 15 and 16), or
        the view forgets it and :class:`~ndcg_desktop.store.FrozenVersionChanged` is raised."""
        if self.project is not None and self.version is not None and self.version.frozen:
            prove_or_forget(self.project, self.version.version, self.forget_results)

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, VersionsChanged):
            self.versions_changed(event)
        elif isinstance(event, ItemsChanged):
            if self.version is not None and event.version == self.version.version:
                self.items_changed(event.queries)
        elif isinstance(event, TextsChanged):
            if event.queries:
                self._load_queries(self.query_id, self.doc_id, set())
            else:
                self.changed.emit(frozenset({DOCUMENT}))
        elif isinstance(event, RunsChanged):
            self._read_chunk_parents()
            self.changed.emit(frozenset({DOCUMENT}))
        elif isinstance(event, SettingsChanged):
            self._follow_order()
        elif isinstance(event, VersionRefused):
            self.forget_results()

    def grading_as(self) -> tuple[str, WorkOrigin | None]:
        """Whom grades given here are credited to (decided once by ``tasks.identity.open_to_grade``: in a work file,
        its annotator), and the work file's origin."""
        if self.project is None:
            return "", None
        return self.annotator, work_origin(self.project)

    # -- the query list ---------------------------------------------------------------------
    def _number(self) -> int:
        return self.version.version if self.version is not None else -1

    def _load_queries(self, keep: str | None, keep_doc: str | None, aspects: set[str]) -> None:
        """Read the shown version's query list (at once when small, else by a job) and select ``keep`` (else the
        first listed) and in it ``keep_doc`` (else the first ungraded item)."""
        self.generation += 1
        self.pending, self.refusal = None, None
        self._keep = (keep, keep_doc)
        self.query_id, self.doc_id, self.topic = None, None, None  # another list: the pool is read again
        self.pool = PoolRows()
        project, number = self.project, self._number()
        if project is None:
            self.queries = QueryRows()
            self.changed.emit(frozenset(aspects | {QUERIES, POOL, CURRENT}))
            return
        if project.pools.query_list_exceeds(number, LARGE):
            self.queries = QueryRows()  # nothing of the version shown before stays while this one's list is read
            self.pending = Job(
                "queries", self.generation, lambda **_: QueryRows.of(project.pools.query_progress(number))
            )
            self.changed.emit(frozenset(aspects | {QUERIES, POOL, CURRENT, LOADING}))
            return
        try:
            rows = QueryRows.of(project.pools.query_progress(number))
        except FrozenVersionChanged as exc:
            self._refused(exc, aspects)
            return
        self._queries_read(rows, aspects)

    def apply(self, job: Job[object], result: QueryRows | FrozenVersionChanged) -> bool:
        """The query list a job read: shown if nothing changed since the job was made; False (dropped) otherwise."""
        if job is not self.pending or job.generation != self.generation:
            return False
        self.pending = None
        if isinstance(result, FrozenVersionChanged):
            self._refused(result, set())
        else:
            self._queries_read(result, set())
        return True

    def _refused(self, exc: FrozenVersionChanged, aspects: set[str]) -> None:
        self.refusal, self.version, self.queries = exc, None, QueryRows()
        self.changed.emit(frozenset(aspects | {VERSION, QUERIES, POOL, CURRENT, REFUSED}))

    def _queries_read(self, rows: QueryRows, aspects: set[str]) -> None:
        self.queries = rows
        self.sort_queries(*self.query_sort, emit=False)
        keep, keep_doc = self._keep
        if keep is None or rows.row_of(keep) < 0:
            keep = rows.ids[0] if rows.ids else None
        self._select(keep, keep_doc)
        self.changed.emit(frozenset(aspects | {QUERIES, POOL, CURRENT}))

    def sort_queries(
        self, key: str, descending: bool = False, *, words: Mapping[str, str] | None = None, emit: bool = True
    ) -> None:
        """Order the query list (the list's column ``key``; the state column by the front's ``words``)."""
        self.query_sort = (key, descending)
        if words is not None:
            self._state_words = words
        frozen = self.version is not None and self.version.frozen
        self.queries.sort(key, descending=descending, frozen=frozen, words=self._state_words)

    def query_state(self, row: int) -> str:
        """The state of the query at ``row``: frozen, no pool, to grade, done, awaiting (adjudication)."""
        return self.queries.state(row, frozen=self.version is not None and self.version.frozen)

    def progress(self) -> tuple[int, int] | None:
        """(graded, items) of the version shown; None without one."""
        return self.queries.totals() if self.version is not None else None

    def items_changed(self, queries: frozenset[str] | None) -> None:
        """Items of the shown version changed (``None``: of any query): the counts and the shown pool follow, the
        current item stays current if it is still there."""
        if self.project is None or self.version is None:
            return
        listed = queries is not None and len(queries) <= 64 and all(self.queries.row_of(q) >= 0 for q in queries)
        if not listed:  # many queries, or one that joined or left the list: read the list again
            self._load_queries(self.query_id, self.doc_id, set())
            return
        assert queries is not None
        aspects = {COUNTS}
        for query_id in queries:
            items = self.project.pools.pool_items(self.version.version, query_id)
            awaiting = self._awaiting(query_id)
            self.queries.set_counts(query_id, len(items), int(items["grade"].notna().sum()), len(awaiting))
            if query_id == self.query_id:
                aspects |= self._pool_read(PoolRows.of(query_id, items, awaiting))
        self.changed.emit(frozenset(aspects))

    def _awaiting(self, query_id: str) -> frozenset[str]:
        assert self.project is not None and self.version is not None
        if self.version.frozen:
            return frozenset()
        return frozenset(self.project.ratings.awaiting(self.version.version, query_id))

    def next_query(self, shown: Sequence[str]) -> str | Refusal | None:
        """The next query (after the current one, in the order ``shown``) with items still to grade; why there is
        none to go to in a version nobody grades (a :class:`Refusal`); None when every listed query is done."""
        if self.version is None or self.version.frozen:
            return self.locked() or Refusal("no_pool")
        ungraded = [self.queries.ungraded(self.queries.row_of(q)) if self.queries.row_of(q) >= 0 else 0 for q in shown]
        current = shown.index(self.query_id) if self.query_id in shown else -1
        row = next_query_to_grade(ungraded, current)
        return None if row is None else shown[row]

    def awaiting_total(self) -> int:
        """Items of the listed queries that wait for adjudication."""
        return sum(self.queries.awaiting)

    # -- the current query and its pool ---------------------------------------------------------
    def select_query(self, query_id: str | None) -> None:
        """Show ``query_id``'s pool (a query of the list) with its first ungraded item current."""
        if query_id == self.query_id and query_id is not None and len(self.pool):
            return
        self._select(query_id, None)
        self.changed.emit(frozenset({POOL, CURRENT}))

    def _select(self, query_id: str | None, keep_doc: str | None) -> None:
        self.query_id, self.doc_id = query_id, None
        if self.project is None or query_id is None:
            self.topic, self.pool = None, PoolRows()
            return
        self.topic = self.project.texts.query(query_id)
        if self.version is None:
            self.pool = PoolRows(query_id)
            return
        items = self.project.pools.pool_items(self.version.version, query_id)
        self.pool = PoolRows.of(query_id, items, self._awaiting(query_id))
        self.pool.sort(self.pool_sort[0], descending=self.pool_sort[1])
        if keep_doc is not None and self.pool.row_of(keep_doc) >= 0:
            self.doc_id = keep_doc
        else:
            shown = self.shown_docs()
            first = self.next_ungraded(None) if not self.version.frozen else None
            self.doc_id = first if first is not None else (shown[0] if shown else None)

    def _pool_read(self, rows: PoolRows) -> set[str]:
        """The current query's items read again: values in place, or the list anew; the current item kept."""
        rows.sort(self.pool_sort[0], descending=self.pool_sort[1])
        same = rows.docs == self.pool.docs and rows.awaiting == self.pool.awaiting
        keep = self.doc_id
        shown_before = self.shown_docs()
        self.pool = rows
        if same:
            return {ITEMS, CURRENT}
        if keep is None or rows.row_of(keep) < 0:  # it left the pool: the item now at its place
            position = shown_before.index(keep) if keep in shown_before else 0
            shown = self.shown_docs()
            self.doc_id = shown[min(position, len(shown) - 1)] if shown else None
        return {POOL, CURRENT}

    @property
    def query_text(self) -> str:
        """The text whose terms the document view marks: the topic's title and description."""
        topic = self.topic or {}
        return " ".join(part for part in (topic.get("title", ""), topic.get("description", "")) if part)

    def shown_docs(self) -> list[str]:
        """The current query's items in the order shown (the judging order, or a column the annotator sorted by),
        without the graded ones when only ungraded items are shown."""
        if not self.ungraded_only:
            return list(self.pool.docs)
        return [d for d, g in zip(self.pool.docs, self.pool.grades, strict=True) if g is None]

    def accepts(self, row: int) -> bool:
        """Whether the pool's ``row`` is shown (only ungraded ones when asked)."""
        return not self.ungraded_only or self.pool.grades[row] is None

    def set_ungraded_only(self, value: bool) -> None:
        """Show only the ungraded items (or all); a current item hidden by it gives way to the next ungraded one."""
        self.ungraded_only = value
        if self.doc_id is not None and not self.accepts(self.item()):
            self.select_item(self.next_ungraded(self.doc_id))

    def sort_pool(self, key: str, descending: bool = False) -> None:
        """Order the pool by ``key`` (``annotate_rows.POOL_SORT_KEYS``); the current item stays current."""
        self.pool_sort = (key, descending)
        self.pool.sort(key, descending=descending)

    def set_judging_order(self, order: str) -> None:
        """The annotator chose the judging order: shown at once and recorded in the project (unless read-only);
        a failed write is raised after the order is shown."""
        if order not in JUDGING_ORDERS:
            raise ValueError(f"judging order must be one of {', '.join(JUDGING_ORDERS)}, not {order!r}")
        self.order = order
        self.sort_pool(_order_key(order))
        self.changed.emit(frozenset({ORDER}))
        if self.project is not None and not self.project.read_only and order != self.project.judgments.judging_order():
            grading.set_judging_order(self.project, order)

    def _follow_order(self) -> None:
        """A setting changed (maybe by another program): the judging order recorded is followed."""
        if self.project is not None and self.project.judgments.judging_order() != self.order:
            self.order = self.project.judgments.judging_order()
            self.sort_pool(_order_key(self.order))
            self.changed.emit(frozenset({ORDER}))

    def _read_chunk_parents(self) -> None:
        self.parents = self.project.runs.chunk_parents() if self.project is not None else {}
        self.chunks_of = {}  # a document -> its chunks that runs returned
        for chunk, parent in self.parents.items():
            self.chunks_of.setdefault(parent, []).append(chunk)

    # -- the current item -----------------------------------------------------------------------
    def select_item(self, doc_id: str | None) -> None:
        """Make ``doc_id`` (an item of the current query, or None) current."""
        if doc_id is not None and self.pool.row_of(doc_id) < 0:
            doc_id = None
        if doc_id != self.doc_id:
            self.doc_id = doc_id
            self.changed.emit(frozenset({CURRENT}))

    def focus(self, query_id: str, doc_id: str | None) -> None:
        """After a command ran or was undone: its query shown (if listed) and its item current (if there)."""
        if query_id != self.query_id:
            if self.queries.row_of(query_id) < 0:
                return  # the query left the pool meanwhile
            self._select(query_id, doc_id)
            self.changed.emit(frozenset({POOL, CURRENT}))
            return
        if doc_id is not None and self.pool.row_of(doc_id) >= 0 and doc_id != self.doc_id:
            self.select_item(doc_id)
        else:
            self.changed.emit(frozenset({CURRENT}))  # its values may have changed

    def item(self, doc_id: str | None = None) -> int:
        """The pool row of ``doc_id`` (default: the current item), -1 when there is none."""
        doc_id = self.doc_id if doc_id is None else doc_id
        return self.pool.row_of(doc_id) if doc_id is not None else -1

    def is_awaiting(self, doc_id: str | None = None) -> bool:
        """The item (default: the current one) was rated differently and awaits adjudication: not graded here."""
        row = self.item(doc_id)
        return row >= 0 and self.pool.is_awaiting(row)

    def next_ungraded(self, after: str | None) -> str | None:
        """The first ungraded item after ``after`` in the order shown (wrapping; items awaiting adjudication
        passed over). The filter does not matter: an ungraded item is always shown."""
        rows = list(
            zip(
                self.pool.docs, self.pool.grades, [self.pool.is_awaiting(r) for r in range(len(self.pool))], strict=True
            )
        )
        row = next_ungraded(rows, self.pool.row_of(after) if after is not None else -1)
        return None if row is None else self.pool.docs[row]

    def advance(self) -> bool:
        """After a grade: on to the next ungraded item; False (staying where it is) when none is left, since the
        next key would change a grade nobody meant to touch."""
        nxt = self.next_ungraded(self.doc_id)
        if nxt is not None:
            self.select_item(nxt)
            return True
        shown = self.shown_docs()
        if self.doc_id not in shown:  # graded while only ungraded items are shown: nothing left to show
            self.select_item(None)
        return False

    def move(self, step: int) -> None:
        """J/K: the item ``step`` rows away in the order shown (kept within the list)."""
        shown = self.shown_docs()
        if not shown:
            return
        current = shown.index(self.doc_id) if self.doc_id in shown else 0
        self.select_item(shown[min(max(current + step, 0), len(shown) - 1)])

    # -- what a key does ----------------------------------------------------------------------------
    def rules(self) -> GradingRules:
        version = self.version
        return GradingRules(
            scale=version.scale if version is not None else None,
            frozen=version is not None and version.frozen,
            read_only=self.project is None or self.project.read_only,
            user=self.annotator,
            version=version.version if version is not None else None,
        )

    def locked(self) -> Refusal | None:
        """Why nothing in the shown pool can change, or None."""
        return self.rules().locked()

    def key(self, grade: int) -> Refusal | Decision:
        """What a grading key does to the current item: why it does nothing (a :class:`Refusal`), or whether it
        grades, keeps the same grade, or confirms first that another annotator's grade is replaced."""
        rules = self.rules()
        refusal = rules.refusal(query_id=self.query_id, doc_id=self.doc_id, grade=grade, awaiting=self.is_awaiting())
        if refusal is not None:
            return refusal
        row = self.item()
        return rules.decide(grade=grade, old=self.pool.grades[row], who=self.pool.annotators[row])

    def grade_text(self, grade: int | None) -> str:
        """``grade`` as the shown version's pool shows it ('2 · Highly relevant'; '—' when ungraded)."""
        version = self.version
        return (
            grade_label(grade, version.labels, version.scale.low) if version is not None else grade_label(grade, [], 0)
        )

    def note(self) -> str:
        row = self.item()
        return self.pool.notes[row] if row >= 0 else ""

    def note_refusal(self) -> Refusal | None:
        """Why the current item's note cannot be edited, or None."""
        locked = self.locked()
        if locked is not None:
            return locked
        return Refusal("no_document") if self.doc_id is None else None

    # -- the use cases the undoable commands call (each names its version: it may no longer be shown) --------
    def _project(self) -> Project:
        if self.project is None:
            raise ValueError("no project is open")
        return self.project

    def grade_item(self, version: int, query_id: str, doc_id: str, grade: int | None) -> Taken:
        return grading.grade_item(self._project(), query_id, doc_id, grade, version=version, annotator=self.annotator)

    def note_item(self, version: int, query_id: str, doc_id: str, note: str) -> Taken:
        return grading.note_item(self._project(), query_id, doc_id, note, version=version, annotator=self.annotator)

    def put_back(self, taken: Taken, action: str) -> None:
        grading.undo(self._project(), taken, action=action, annotator=self.annotator)

    # -- an adaptive pool's next batch (tasks.pool_builds; nothing of it is shown here) ---------------
    def next_batch_after(self, version: int, query_id: str) -> pool_builds.BatchesAdded | None:
        """After a person's grade in draft ``version``: if it completed ``query_id``'s batch of an adaptive build,
        the next batch joins the pool, chosen from people's grades so far; returns what was added (for the
        grade's undo), or None. The new documents are the query's only ungraded ones, so "next ungraded" walks
        them in the blind order; no run, rank or number of the strategy reaches the view."""
        project = self._project()
        draft = project.pools.draft()
        if draft is None or draft.version != version:
            return None
        if not any(build.adaptive for build in project.builds.of_version(version)):
            return None
        added = pool_builds.next_batches(
            project, query_ids=[query_id], states=self._build_states, annotator=self.annotator
        )
        return added if added.documents else None

    def batch_arrived(self, query_id: str) -> None:
        """A grade brought ``query_id``'s next batch: the pool is read now and its first ungraded item in the order
        shown becomes current; in the blind order that is the batch's first, and "next ungraded" walks the rest
        of the batch in that order (the order of choice is never shown)."""
        self.items_changed(frozenset({query_id}))
        if query_id == self.query_id:
            first = self.next_ungraded(None)
            if first is not None:
                self.select_item(first)

    def take_back_batch(self, added: pool_builds.BatchesAdded) -> None:
        """Undo :meth:`next_batch_after`: the batch leaves the pool with its record of choice."""
        pool_builds.take_back_batches(self._project(), added, annotator=self.annotator)


def digit_keys(low: int, high: int) -> str:
    """The digit keys that give a grade of the scale ``low``..``high`` (only 0..9 have keys), as the shortcuts
    list shows them: each one up to four, else the first and the last.

    >>> digit_keys(0, 3), digit_keys(-1, 2), digit_keys(0, 9)
    ('0 1 2 3', '0 1 2', '0 … 9')
    """
    digits = [g for g in range(low, high + 1) if 0 <= g <= 9]
    return " ".join(str(d) for d in digits) if len(digits) <= 4 else f"{digits[0]} … {digits[-1]}"


def _order_key(order: str) -> str:
    return "blind" if order == BLIND else "doc_id" if order == DOC_ID else "blind"
