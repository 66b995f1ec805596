"""The project file: judgment pools that freeze, imported runs, and an audit trail.

One SQLite file per project. Every public method that changes something is one
committed transaction, so a grade is on disk when the call returns; imports validate
while writing inside a single transaction, so a failure or a cancel leaves the file as it was.

:class:`Project` is the open file and its named repositories, nothing forwarded: the file and its transactions
live in :mod:`.core`, the work in the repositories a caller reaches directly (``project.pools``, ``.judgments``,
``.ratings``, ``.runs``, ``.texts``, ``.undo``, ``.assessor``, ``.builds``, ``.releases``), each over the open
:class:`~.core.ProjectFile`, each marking what writes (:mod:`.repository`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.progress import Cancelled
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store.assessor import AssessorRepository
from ndcg_desktop.store.core import SUFFIX, ProjectFile, chain_problems
from ndcg_desktop.store.errors import (
    DiskFull,
    ProjectBusy,
    ProjectDamaged,
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    StorageProblem,
)
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
from ndcg_desktop.store.ratings import RatingRepository
from ndcg_desktop.store.releases import ReleaseRepository
from ndcg_desktop.store.repository import errors_translated, writes
from ndcg_desktop.store.runs import RunChanged, RunInfo, RunRepository, SavedEvaluation
from ndcg_desktop.store.schema import CHAIN_FORMAT
from ndcg_desktop.store.texts import Guidelines, TextRepository
from ndcg_desktop.store.undo import UndoRepository
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


@errors_translated
class Project:
    """An open project file. Use :meth:`create` or :meth:`open`; close it (or use ``with``)."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file
        self.pools = PoolRepository(file)
        self.judgments = JudgmentRepository(file, self.pools)
        self.undo = UndoRepository(file)
        self.ratings = RatingRepository(file, self.pools)
        self.runs = RunRepository(file)
        self.texts = TextRepository(file)
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
            for v in self.pools.versions()
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
    @writes
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all."""
        with self.file.transaction() as conn:
            yield conn

    # -- project settings ------------------------------------------------------------------
    @property
    def scale(self) -> GradeScale:
        return self.file.scale

    @property
    def labels(self) -> list[str]:
        return self.file.labels

    def counts(self) -> dict[str, int]:
        one = self.file.query
        return {
            "queries": one("SELECT count(*) FROM queries")[0][0],
            "documents": one("SELECT count(*) FROM documents")[0][0],
            "runs": one("SELECT count(*) FROM runs")[0][0],
            "versions": one("SELECT count(*) FROM pool_versions")[0][0],
        }

    @writes
    def export_qrels(
        self, path: str | Path, *, version: int | None = None, fmt: str = "trec", iterations: tuple[str, ...] = ()
    ) -> PoolVersion:
        return self.pools.export_qrels(path, version=version, fmt=fmt, iterations=iterations)

    @writes
    def freeze(
        self,
        *,
        annotator: str,
        version: int | None = None,
        remove_ungraded: bool = False,
        fill_from: str | None = None,
        min_shared: int = MIN_SHARED,
        work_out: bool = False,
    ) -> PoolVersion:
        return self.judgments.freeze(
            annotator=annotator,
            version=version,
            remove_ungraded=remove_ungraded,
            fill_from=fill_from,
            min_shared=min_shared,
            work_out=work_out,
        )

    @writes
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
        pairs = self.runs.top_pairs(names, depth)
        if apply:
            if annotator is None:
                raise ValueError("a pool is added by someone: give the annotator")
            return self.judgments.add_items(pairs, annotator=annotator, version=version, action="pool")
        return self.judgments.preview_items(pairs, version=version)

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
        for v in self.pools.versions():
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
            "guidelines": _guidelines_status(self.texts.guidelines()),
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
                for r in self.runs.all()
            ],
        }


def _guidelines_status(current: Guidelines | None) -> dict[str, Any] | None:
    if current is None or not current.text:
        return None
    return {"sha256": current.sha256, "set_at": current.at, "set_by": current.who, "source": current.source}
