"""The SQLite project file: a file/transaction core (``core``), repositories for pools, judgments,
runs, texts and evaluations, and the :class:`Project` facade over them."""

from ndcg_desktop.store.project import (
    SUFFIX,
    FrozenVersionChanged,
    ImportCancelled,
    PoolVersion,
    Project,
    ProjectInUse,
    ProtectionAltered,
    RunInfo,
    SavedEvaluation,
    pool_hash,
)

__all__ = [
    "SUFFIX",
    "FrozenVersionChanged",
    "ImportCancelled",
    "PoolVersion",
    "Project",
    "ProjectInUse",
    "ProtectionAltered",
    "RunInfo",
    "SavedEvaluation",
    "pool_hash",
]
