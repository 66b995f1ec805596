"""The project file: judgment pools that freeze, imported runs, and an audit trail.

One SQLite file per project. Every public method that changes something is one
committed transaction, so a grade is on disk when the call returns; imports validate
while writing inside a single transaction, so a failure or a cancel leaves the file as it was.

:class:`Project` is a thin facade: the file and its transactions live in :mod:`.core`, the
work in the repositories (:mod:`.pools`, :mod:`.judgments`, :mod:`.runs`, :mod:`.texts`,
:mod:`.evaluations`), each of which takes the open :class:`~.core.ProjectFile`.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.blind import BLIND
from ndcg_desktop.domain.chunks import ChunkMap, IdMap
from ndcg_desktop.domain.data import OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.progress import Cancelled, IsCancelled, Progress
from ndcg_desktop.domain.settings import GradeScale, TiePolicy
from ndcg_desktop.store.assessor import AssessorRepository
from ndcg_desktop.store.core import SUFFIX, ProjectFile, chain_problems, translated
from ndcg_desktop.store.errors import (
    DiskFull,
    ProjectBusy,
    ProjectDamaged,
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    StorageProblem,
)
from ndcg_desktop.store.evaluations import EvaluationRepository, SavedEvaluation
from ndcg_desktop.store.guidelines import Guidelines, GuidelinesRepository
from ndcg_desktop.store.judgments import MIN_SHARED, JudgmentRepository
from ndcg_desktop.store.pool_builds import PoolBuildRepository
from ndcg_desktop.store.pools import (
    DEFAULT_LABELS,
    FrozenVersionChanged,
    PoolRepository,
    PoolVersion,
    default_labels,
    pool_hash,
)
from ndcg_desktop.store.ratings import AssignmentRepository, RatingRepository
from ndcg_desktop.store.releases import ReleaseRepository
from ndcg_desktop.store.runs import RunChanged, RunInfo, RunRepository
from ndcg_desktop.store.schema import CHAIN_FORMAT
from ndcg_desktop.store.team import outstanding_handouts
from ndcg_desktop.store.texts import TextRepository
from ndcg_desktop.store.undo import Rows, Taken, UndoRepository, version_scope
from ndcg_desktop.store.watch import ChangeWatch

__all__ = [
    "DEFAULT_LABELS",
    "DiskFull",
    "ProjectBusy",
    "ProjectDamaged",
    "ProjectReadOnly",
    "StorageProblem",
    "SUFFIX",
    "FrozenVersionChanged",
    "Guidelines",
    "Cancelled",
    "PoolVersion",
    "Project",
    "ProjectInUse",
    "ProtectionAltered",
    "RunChanged",
    "RunInfo",
    "SavedEvaluation",
    "default_labels",
    "pool_hash",
]


def _storage_errors_translated(cls: type[Project]) -> type[Project]:
    """Every public method turns SQLite errors the user can act on into their one-line InputError.

    The one place for reads (a damaged page, a locked file); writes are translated by the
    transaction helper, opening and creating by the file core, all through :mod:`.errors`.
    """

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def translating(self: Project, *args: Any, **kwargs: Any) -> Any:
            with translated(self.file.path, os_errors=False):
                return method(self, *args, **kwargs)

        return translating

    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member) and name != "transaction":
            setattr(cls, name, wrap(member))
    return cls


@_storage_errors_translated
class Project:
    """An open project file. Use :meth:`create` or :meth:`open`; close it (or use ``with``)."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file
        self.pools = PoolRepository(file)
        self.judgments = JudgmentRepository(file, self.pools)
        self.undo_store = UndoRepository(file)
        self.rating_store = RatingRepository(file, self.pools)
        self.assignments = AssignmentRepository(file)
        self.run_store = RunRepository(file)
        self.texts = TextRepository(file)
        self.evaluations = EvaluationRepository(file)
        self.guideline_store = GuidelinesRepository(file)
        self.assessor = AssessorRepository(file, self.pools)
        self.builds = PoolBuildRepository(file, self.pools, self.judgments)
        self.releases = ReleaseRepository(file, self.pools)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | Path,
        *,
        scale: GradeScale | None = None,
        labels: list[str] | None = None,
        annotator: str,
    ) -> Project:
        """Create a new, empty project with a grade scale and a label per grade, recording ``annotator`` as its
        creator."""
        target = Path(path)
        scale = scale or GradeScale()
        labels = list(labels) if labels else default_labels(scale)
        if len(labels) != scale.high - scale.low + 1:
            raise InputError(f"the scale {scale} needs {scale.high - scale.low + 1} labels, {len(labels)} given")
        ProjectFile.create(target, scale=scale, labels=labels, created_by=annotator)
        return cls.open(target)

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False) -> Project:
        """Open a project; refuses files that are not projects, or come from a newer version.

        A second writer is refused with :class:`ProjectInUse`; readers need no lock. A file whose
        protection triggers are not the schema's is refused for writing with :class:`ProtectionAltered`
        (contract rule 15); read-only, it opens and :meth:`protection_problems` says what is wrong.
        """
        project = cls(ProjectFile.open(Path(path), read_only=read_only))
        if project.file.protection and not read_only:
            message = project._protection_refusal()
            project.close()
            raise ProtectionAltered(message, path=project.path)
        return project

    def _protection_refusal(self) -> str:
        changed = [
            f"pool version {v.version} has changed since it was frozen (recorded sha256 {v.hash}, its judgments "
            f"now hash to {now or 'nothing: it has ungraded items'})"
            for v in self.versions()
            if v.frozen and (now := self.pools.current_hash(v.version, v.scale)) != v.hash
        ]
        # A version flipped back to a draft, or removed with its link, is not among the frozen versions hashed here:
        # "every frozen version still matches" would clear what the protection problems just blamed (item 10).
        recorded = self.file.schema_version >= CHAIN_FORMAT and chain_problems(self.file.conn)
        state = (
            "; ".join(changed)
            if changed
            else "no frozen version can be proven while the record of frozen versions is not intact"
            if recorded
            else "every frozen version still matches its recorded hash"
        )
        return (
            f"its protection is not intact ({'; '.join(self.file.protection)}); {state}; the file was "
            "changed outside ndcg-desktop and is not written to: restore it from a backup, or open it read-only "
            "to inspect it"
        )

    def watch(self, committed: Callable[[], None]) -> ChangeWatch:
        """What changes in the file, for the project's events (store/watch.py); ``committed()`` after each write
        committed on the thread that opened it."""
        return self.file.watch(committed)

    def adopt(self) -> None:
        """Make the calling thread this project's own (opened on a worker, used by the window's thread): see
        :meth:`ProjectFile.adopt`."""
        self.file.adopt()

    def protection_problems(self) -> list[str]:
        """How the file's protection triggers differ from the schema's (empty when intact)."""
        return list(self.file.protection)

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> Path:
        return self.file.path

    @property
    def read_only(self) -> bool:
        return self.file.read_only

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all."""
        with self.file.transaction() as conn:
            yield conn

    def _query(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[sqlite3.Row]:
        return self.file.query(sql, params)

    # -- project settings ------------------------------------------------------------------
    @property
    def scale(self) -> GradeScale:
        return self.file.scale

    @property
    def labels(self) -> list[str]:
        return self.file.labels

    # -- queries and documents -------------------------------------------------------------
    def import_queries(self, path: str | Path, *, fmt: str | None = None) -> int:
        return len(self.texts.import_queries(path, fmt=fmt))

    def import_topics(self, path: str | Path, *, fmt: str | None = None) -> pd.DataFrame:
        """Like :meth:`import_queries`; returns the topics read (query_id, title, description, narrative, line)."""
        return self.texts.import_queries(path, fmt=fmt)

    # -- grading guidelines ----------------------------------------------------------------
    def guidelines(self) -> Guidelines | None:
        """The grading guidelines in force (Markdown), or None if never set."""
        return self.guideline_store.current()

    def set_guidelines(self, text: str, *, source: str, annotator: str) -> Guidelines:
        """Record new guidelines (audited: who, when, ``source``); the next frozen version names their hash."""
        return self.guideline_store.set(text, source=source, annotator=annotator)

    def guidelines_history(self) -> list[Guidelines]:
        return self.guideline_store.history()

    def import_documents(
        self, path: str | Path, *, progress: Progress | None = None, cancelled: IsCancelled | None = None
    ) -> int:
        return self.texts.import_documents(path, progress=progress, cancelled=cancelled)

    def query(self, query_id: str) -> dict[str, str] | None:
        return self.texts.query(query_id)

    def search_documents(self, text: str, *, limit: int = 50, cancelled: IsCancelled | None = None) -> pd.DataFrame:
        return self.texts.search_documents(text, limit=limit, cancelled=cancelled)

    def document(self, doc_id: str) -> dict[str, str] | None:
        return self.texts.document(doc_id)

    def counts(self) -> dict[str, int]:
        one = self.file.query
        return {
            "queries": one("SELECT count(*) FROM queries")[0][0],
            "documents": one("SELECT count(*) FROM documents")[0][0],
            "runs": one("SELECT count(*) FROM runs")[0][0],
            "versions": one("SELECT count(*) FROM pool_versions")[0][0],
        }

    # -- pool versions ---------------------------------------------------------------------
    def versions(self) -> list[PoolVersion]:
        return self.pools.versions()

    def version(self, number: int) -> PoolVersion:
        return self.pools.version(number)

    def draft(self) -> PoolVersion | None:
        return self.pools.draft()

    def latest_frozen(self) -> PoolVersion | None:
        return self.pools.latest_frozen()

    def ensure_draft(self, *, annotator: str) -> PoolVersion:
        return self.pools.ensure_draft(annotator=annotator)

    def new_draft_from(self, number: int, *, annotator: str) -> PoolVersion:
        return self.pools.new_draft_from(number, annotator=annotator)

    def pool_items(self, number: int, query_id: str | None = None) -> pd.DataFrame:
        return self.pools.pool_items(number, query_id)

    def query_progress(self, number: int) -> pd.DataFrame:
        return self.pools.query_progress(number)

    def pairs(self, number: int) -> tuple[pa.Array, pa.Array]:
        """A version's (query_id, doc_id) pairs as Arrow string columns (read without long GIL holds)."""
        return self.pools.pairs(number)

    def items(self, number: int) -> pd.DataFrame:
        """A version's items (query_id, doc_id, grade, note, updated_at), without the documents' titles."""
        return self.pools.items(number)

    def query_list_exceeds(self, number: int, rows: int) -> bool:
        return self.pools.query_list_exceeds(number, rows)

    def frozen_version(self, number: int | None, *, check: bool = True) -> PoolVersion:
        return self.pools.frozen_version(number, check=check)

    def qrels(self, number: int | None = None, *, team: bool = True, iterations: tuple[str, ...] = ()) -> Qrels:
        return self.pools.qrels(number, team=team, iterations=iterations)

    def iterations(self, number: int) -> list[str]:
        """Each judgment's iteration (the qrels' round, as read) in version ``number``, in key order."""
        return self.pools.iterations(number)

    def prove_team(self, number: int) -> None:
        self.pools.prove_team(number)

    def team(self, version: PoolVersion) -> dict[str, Any]:
        """Rule 16's part of a version's manifest: annotators (count and SHA-256 of each one's ratings),
        adjudication (count per way), agreement (None with fewer than two annotators). Recorded at freezing."""
        return self.pools.team(version)

    def export_qrels(
        self, path: str | Path, *, version: int | None = None, fmt: str = "trec", iterations: tuple[str, ...] = ()
    ) -> PoolVersion:
        return self.pools.export_qrels(path, version=version, fmt=fmt, iterations=iterations)

    def judging_order(self) -> str:
        """How a query's pool is ordered for judging: "blind" (the default) or "doc_id" (domain.blind)."""
        return self.file.meta("judging_order", BLIND)

    def set_judging_order(self, order: str) -> None:
        """Record the judging order used for this project (which orders there are: tasks.grading)."""
        self.file.set_meta("judging_order", order)

    # -- judgments -------------------------------------------------------------------------
    def audit_log(self, version: int | None = None) -> pd.DataFrame:
        return self.judgments.audit_log(version)

    def judging_log(self) -> pd.DataFrame:
        """The audit rows that give a grade (who, at, action, new_grade, version, query_id, doc_id, and
        ``still_graded``: whether that item holds a grade now, so an undone grade is not counted as work).

        Filtered by SQLite (which lets go of Python's GIL), on a worker's own connection, so a pace refresh
        stays off the window's key presses even when imports wrote a large audit log.
        """
        frame = pd.read_sql_query(
            "SELECT a.who, a.at, a.action, a.new_grade, a.version, a.query_id, a.doc_id, "
            "j.grade IS NOT NULL AS still_graded FROM audit_log a LEFT JOIN judgments j "
            "ON j.version = a.version AND j.query_id = a.query_id AND j.doc_id = a.doc_id "
            "WHERE a.action = 'grade' AND a.new_grade IS NOT NULL ORDER BY a.id",
            self.file.conn,
        )
        frame["still_graded"] = frame["still_graded"].astype(bool)
        return frame

    def draft_ungraded(self) -> tuple[int | None, int]:
        """The draft's version number (None without a draft) and how many of its items are ungraded."""
        conn = self.file.conn
        row = conn.execute(
            "SELECT max(version) FROM pool_versions WHERE state = 'draft'"  # at most one draft exists
        ).fetchone()
        if row[0] is None:
            return None, 0
        count = conn.execute("SELECT count(*) FROM judgments WHERE version = ? AND grade IS NULL", (row[0],))
        return int(row[0]), int(count.fetchone()[0])

    def add_items(
        self, pairs: pd.DataFrame, *, version: int | None = None, action: str = "add", annotator: str
    ) -> pd.DataFrame:
        return self.judgments.add_items(pairs, version=version, action=action, annotator=annotator)

    def remove_items(self, pairs: pd.DataFrame, *, version: int, action: str = "remove", annotator: str) -> int:
        return self.judgments.remove_items(pairs, version=version, action=action, annotator=annotator)

    def take_items(self, pairs: pd.DataFrame, *, version: int, action: str = "remove", annotator: str) -> Taken:
        return self.judgments.take_items(pairs, version=version, action=action, annotator=annotator)

    def discard_draft(self, version: int | None = None, *, expected: str | None = None, annotator: str) -> Taken:
        return self.judgments.discard_draft(version, expected=expected, annotator=annotator)

    def version_contents(self, version: int) -> Rows:
        """Every row of ``version`` in every table that refers to it: what discarding it would take."""
        return self.undo_store.preview(version_scope(version))

    def undo(self, taken: Taken, *, action: str, annotator: str) -> None:
        """Put back exactly what an operation took (discard, remove, adjudicate, merge); see :mod:`.undo`."""
        self.undo_store.undo(taken, action=action, annotator=annotator)

    def remove_ungraded(self, *, version: int | None = None, annotator: str) -> int:
        return self.judgments.remove_ungraded(version=version, annotator=annotator)

    def import_qrels(
        self, path: str | Path, *, negative_as_ungraded: bool = False, fmt: str | None = None, annotator: str
    ) -> dict[str, int]:
        return self.judgments.import_qrels(
            path, negative_as_ungraded=negative_as_ungraded, fmt=fmt, annotator=annotator
        )

    def freeze(
        self,
        *,
        version: int | None = None,
        remove_ungraded: bool = False,
        fill_from: str | None = None,
        min_shared: int = MIN_SHARED,
        work_out: bool = False,
        annotator: str,
    ) -> PoolVersion:
        return self.judgments.freeze(
            version=version,
            remove_ungraded=remove_ungraded,
            fill_from=fill_from,
            min_shared=min_shared,
            work_out=work_out,
            annotator=annotator,
        )

    def outstanding_handouts(self, version: int) -> list[tuple[str, str, int, int]]:
        """The work files of a draft still out: (annotator, work_id, items, unrated) (store.team)."""
        return outstanding_handouts(self.file.conn, version)

    # -- ratings per annotator (issue 15) --------------------------------------------------
    def ratings(self, version: int) -> pd.DataFrame:
        """Every annotator's ratings of a version: query_id, doc_id, annotator, grade, note, rated_at."""
        for v in self.versions():
            if v.version == version:
                self.pools.verified(v)
        return self.rating_store.ratings(version)

    def awaiting_adjudication(self, version: int, query_id: str) -> set[str]:
        """The documents of a query that annotators rated differently and nobody settled yet."""
        return self.rating_store.awaiting(version, query_id)

    def adjudications(self, version: int, *, query_id: str | None = None, doc_id: str | None = None) -> pd.DataFrame:
        """query_id, doc_id, how (pick, median, ...) of a version's items whose differing ratings were settled."""
        return self.rating_store.settled_items(version, query_id, doc_id)

    def meta(self, key: str) -> str | None:
        """A project-wide setting (the ``meta`` table), or None."""
        rows = self.file.query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.file.set_meta(key, value)

    # -- runs ------------------------------------------------------------------------------
    def import_run(
        self,
        path: str | Path,
        *,
        name: str,
        ties: TiePolicy = TiePolicy.DOCID_DESC,
        id_map: IdMap | None = None,
        fmt: str | None = None,
        order: OrderKind | None = None,
        annotator: str,
    ) -> RunInfo:
        return self.run_store.import_run(
            path, name=name, ties=ties, id_map=id_map, fmt=fmt, order=order, annotator=annotator
        )

    def runs(self) -> list[RunInfo]:
        return self.run_store.runs()

    def run_info(self, name: str) -> RunInfo:
        return self.run_store.run_info(name)

    def chunk_parents(self) -> dict[str, str]:
        return self.run_store.chunk_parents()

    def load_run(self, name: str) -> tuple[Run, RunInfo]:
        return self.run_store.load_run(name)

    def pool_from_runs(
        self,
        names: list[str],
        depth: int,
        *,
        annotator: str | None = None,
        version: int | None = None,
        apply: bool = True,
    ) -> pd.DataFrame:
        """Depth-k pooling: the top ``depth`` documents of each run per query join the draft, added by ``annotator``
        (given whenever it applies).

        Returns per query the candidates and how many are new. With ``apply=False`` nothing
        is written (the preview the GUI shows before applying).
        """
        if depth < 1:
            raise InputError(f"the pool depth must be a positive integer, not {depth}")
        pairs = self.run_store.top_pairs(names, depth)
        if apply:
            if annotator is None:
                raise ValueError("a pool is added by someone: give the annotator")
            return self.judgments.add_items(pairs, annotator=annotator, version=version, action="pool")
        return self.judgments.preview_items(pairs, version=version)

    # -- evaluations -----------------------------------------------------------------------
    def save_evaluation(self, run_name: str, version: int, settings_text: str, manifest: dict[str, Any]) -> int:
        return self.evaluations.save_evaluation(run_name, version, settings_text, manifest)

    def saved_evaluations(self) -> list[SavedEvaluation]:
        return self.evaluations.evaluations()

    def _changed(self, v: PoolVersion) -> str | None:
        """What changed in a frozen version since it was frozen (judgments or ratings, or the record that proves
        it), or None."""
        return self._proof(v)[0]

    def _proof(self, v: PoolVersion) -> tuple[str | None, bool]:
        """What :meth:`_changed` says, and whether it is about ``v`` itself (False: ``v`` is as recorded, but the
        record of frozen versions is not intact elsewhere, so it cannot be proven: issue 33 item 10)."""
        try:
            self.pools.verified(v)
        except FrozenVersionChanged as exc:
            return exc.what, exc.own
        return None, True

    def status(self) -> dict[str, Any]:
        """A summary for `ndcg status`: versions, pool sizes, grading progress, runs."""
        versions = []
        for v in self.versions():
            row = self.file.query(
                "SELECT count(*), count(grade), count(DISTINCT query_id) FROM judgments WHERE version = ?",
                (v.version,),
            )[0]
            versions.append(
                {
                    "version": v.version,
                    "state": v.state,
                    "parent": v.parent,
                    "hash": v.hash,
                    # rules 15 and 16: judgments and ratings proven now, as every use proves them (None: a draft)
                    **(
                        {
                            "intact": (proof := self._proof(v))[0] is None,
                            "changed": proof[0] if proof[1] else None,  # its own judgments or ratings
                            "unproven": None if proof[1] else proof[0],  # the record that proves it
                        }
                        if v.frozen
                        # a draft under a number the record of frozen versions holds: flipped back (item 5)
                        else {
                            "intact": None if (flipped := self.pools.chain_problem(v)) is None else False,
                            "changed": flipped,
                        }
                    ),
                    "items": row[0],
                    "graded": row[1],
                    "ungraded": row[0] - row[1],
                    "queries": row[2],
                    "created_at": v.created_at,
                    "frozen_at": v.frozen_at,
                    "frozen_by": v.frozen_by,
                    "guidelines_sha256": v.guidelines_sha256,
                    "pooling": [b.record() for b in self.builds.builds(v.version)],  # rule 20: how it was built
                }
            )
        return {
            "project": str(self.path),
            "protection": self.protection_problems(),
            "scale": str(self.scale),
            "labels": self.labels,
            "counts": self.counts(),
            "guidelines": _guidelines_status(self.guidelines()),
            "pool_versions": versions,
            "runs": [
                {
                    "name": r.name,
                    "source": r.source_name,
                    "sha256": r.sha256,
                    "format": r.format,
                    "rows": r.rows,
                    "queries": r.queries,
                    "ties": r.reading.ties.value,
                    "id_map": r.reading.id_map.reference()
                    if isinstance(r.reading.id_map, ChunkMap)
                    else r.reading.id_map,
                }
                for r in self.runs()
            ],
        }


def _guidelines_status(current: Guidelines | None) -> dict[str, Any] | None:
    if current is None or not current.text:
        return None
    return {"sha256": current.sha256, "set_at": current.at, "set_by": current.who, "source": current.source}
