"""The SQLite project file: schema, migrations, transactions, pools and runs."""

from ndcg_desktop.store.project import (
    SUFFIX,
    ImportCancelled,
    PoolVersion,
    Project,
    ProjectInUse,
    RunInfo,
    pool_hash,
)

__all__ = ["SUFFIX", "ImportCancelled", "PoolVersion", "Project", "ProjectInUse", "RunInfo", "pool_hash"]
