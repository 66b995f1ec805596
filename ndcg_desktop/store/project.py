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
from ndcg_desktop.store.hashes import pool_hash
from ndcg_desktop.store.judgments import JudgmentRepository
from ndcg_desktop.store.pool_builds import PoolBuildRepository
from ndcg_desktop.store.pools import (
    DEFAULT_LABELS,
    FrozenVersionChanged,
    PoolRepository,
    PoolVersion,
    default_labels,
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
