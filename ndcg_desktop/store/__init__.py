"""The SQLite project file: a file/transaction core (``core``), repositories for pools, judgments, ratings, runs
(and their saved evaluations), texts (and the guidelines), undo, the assessor, pool builds and releases, and
:class:`Project`, the open file holding them under those names."""

from ndcg_desktop.domain.progress import Cancelled
from ndcg_desktop.store.core import release_thread_connections
from ndcg_desktop.store.project import (
    SUFFIX,
    DiskFull,
    FrozenVersionChanged,
    PoolVersion,
    Project,
    ProjectBusy,
    ProjectDamaged,
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    RunChanged,
    RunInfo,
    SavedEvaluation,
    StorageProblem,
    pool_hash,
)

__all__ = [
    "SUFFIX",
    "DiskFull",
    "FrozenVersionChanged",
    "Cancelled",
    "PoolVersion",
    "Project",
    "ProjectBusy",
    "ProjectDamaged",
    "ProjectInUse",
    "ProjectReadOnly",
    "ProtectionAltered",
    "RunChanged",
    "RunInfo",
    "SavedEvaluation",
    "StorageProblem",
    "pool_hash",
    "release_thread_connections",
]
