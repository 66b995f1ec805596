"""How a draft's documents were chosen (issue 34, contract rule 20): each pool build and its order of choice.

A build is one use of a pooling strategy: its text form and parameters, the budget, the depth, the batch size of an
adaptive build, the queries and the runs with their hashes. Its choices are, per query, the documents in the order
the strategy took them, each with the batch it came in and whether the build added it (a document already in the
draft is chosen too, at no cost). Both live with the version (``ON DELETE CASCADE``), so a discard and its undo,
and the removal of an item and its undo, take and put back their rows through the generated dump (:mod:`.undo`);
the schema's triggers keep a frozen version's record as it was.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.errors import stored_value
from ndcg_desktop.store.judgments import JudgmentRepository
from ndcg_desktop.store.pools import PoolRepository
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import POOLING_FORMAT, not_model
from ndcg_desktop.store.undo import items_scope, take

CHOICE_COLUMNS = ["query_id", "doc_id", "position", "batch"]  # what a build or a batch records, per document
_names = itertools.count()


@dataclass(frozen=True)
class PoolBuild:
    """One recorded build of a draft's pool (see the module docstring)."""

    build_id: int
    version: int
    strategy: str
    parameters: dict[str, Any]
    budget: str
    depth: int
    batch_size: int | None  # None: chosen at once
    queries: list[str]
    runs: list[dict[str, Any]]  # name, sha256 (the file's), data_hash (what is stored)
    built_at: str
    built_by: str

    @property
    def adaptive(self) -> bool:
        return self.batch_size is not None

    def record(self) -> dict[str, Any]:
        """The build as a manifest and ``ndcg status`` print it (without its order of choice)."""
        return {
            "build": self.build_id,
            "strategy": self.strategy,
            "parameters": self.parameters,
            "budget": self.budget,
            "depth": self.depth,
            "batch_size": self.batch_size,
            "queries": self.queries,
            "runs": self.runs,
            "built_at": self.built_at,
            "built_by": self.built_by,
        }


@dataclass(frozen=True)
class NewBuild:
    """What a build records before it has a number."""

    strategy: str
    parameters: dict[str, Any]
    budget: str
    depth: int
    batch_size: int | None
    queries: Sequence[str]
    runs: Sequence[dict[str, Any]]
    action: str = "pool"  # the audit log's word for the items it adds
    extra: dict[str, Any] = field(default_factory=dict)


class PoolBuildRepository(Repository):
    """Records builds with their choices, adds an adaptive build's next batches, reads both back."""

    def __init__(self, file: ProjectFile, pools: PoolRepository, judgments: JudgmentRepository) -> None:
        self.file = file
        self.pools = pools
        self.judgments = judgments

    @property
    def recorded(self) -> bool:
        """Whether the file keeps builds (an older file opened read-only does not)."""
        return self.file.schema_version >= POOLING_FORMAT

    @writes
    def record(
        self, build: NewBuild, choices: pd.DataFrame, *, annotator: str, version: int | None = None
    ) -> tuple[int, pd.DataFrame]:
        """In one transaction: the draft (made if there is none, as every write to it), the chosen documents that
        are new to it (ungraded, audited as ``build.action``), the build and its ``choices`` (CHOICE_COLUMNS), all by
        ``annotator``.

        Returns the build's number and, per query, the documents chosen (``candidates``) and how many were new.
        """
        self._writable()
        target = self.pools.draft_target(version)
        with self.file.transaction() as conn:
            number = self.pools.open_draft(conn, target, annotator=annotator)
            cursor = conn.execute(
                "INSERT INTO pool_builds (version, strategy, parameters, budget, depth, batch_size, queries, runs, "
                "built_at, built_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    number,
                    build.strategy,
                    json.dumps(build.parameters, sort_keys=True),
                    build.budget,
                    int(build.depth),
                    build.batch_size,
                    json.dumps(list(build.queries), ensure_ascii=False),
                    json.dumps(list(build.runs), ensure_ascii=False, sort_keys=True),
                    now(),
                    annotator,
                ),
            )
            build_id = int(cursor.lastrowid or 0)
            counts = self._choose(conn, build_id, number, choices, build.action, annotator=annotator)
        return build_id, counts

    @writes
    def add_batch(
        self, build_id: int, choices: pd.DataFrame, *, annotator: str, action: str = "pool batch"
    ) -> pd.DataFrame:
        """Add the next batch of an adaptive build: its new documents join the draft ungraded and every chosen one
        is recorded after the build's earlier choices (CHOICE_COLUMNS give position and batch). One transaction."""
        build = self.build(build_id)
        v = self.pools.writable_draft(build.version)
        with self.file.transaction() as conn:
            return self._choose(conn, build_id, v.version, choices, action, annotator=annotator)

    def _choose(
        self, conn: Any, build_id: int, number: int, choices: pd.DataFrame, action: str, *, annotator: str
    ) -> pd.DataFrame:
        name = f"temp.chosen_{next(_names)}"
        conn.execute(
            f"CREATE TABLE {name} (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, position INTEGER NOT NULL, "
            "batch INTEGER NOT NULL, new INTEGER)"
        )
        try:
            rows = zip(
                choices["query_id"].astype(str).tolist(),
                choices["doc_id"].astype(str).tolist(),
                choices["position"].astype("int64").tolist(),
                choices["batch"].astype("int64").tolist(),
                strict=True,
            )
            conn.executemany(f"INSERT INTO {name} (query_id, doc_id, position, batch) VALUES (?, ?, ?, ?)", rows)
            conn.execute(
                f"UPDATE {name} SET new = NOT EXISTS (SELECT 1 FROM judgments j WHERE j.version = ? "
                f"AND j.query_id = {name}.query_id AND j.doc_id = {name}.doc_id)",
                (number,),
            )
            counts = self.judgments.add_items_in(
                conn, number, choices[["query_id", "doc_id"]], action, annotator=annotator
            )
            conn.execute(
                "INSERT INTO pool_choices (build_id, version, query_id, position, doc_id, batch, new) "
                f"SELECT ?, ?, query_id, position, doc_id, batch, new FROM {name} ORDER BY query_id, position",
                (build_id, number),
            )
        finally:
            conn.execute(f"DROP TABLE IF EXISTS {name}")
        return counts

    def _writable(self) -> None:
        if not self.recorded:
            raise InputError(
                "is in an older format that keeps no record of how a pool was built; open it for writing to update it",
                path=self.file.path,
            )

    def of_version(self, version: int) -> list[PoolBuild]:
        """The builds recorded on ``version``, in the order they were made (none in a file from before them)."""
        if not self.recorded:
            return []
        rows = self.file.query(
            "SELECT build_id, version, strategy, parameters, budget, depth, batch_size, queries, runs, built_at, "
            "built_by FROM pool_builds WHERE version = ? ORDER BY build_id",
            (version,),
        )
        builds = []
        for r in rows:
            with stored_value(self.file.path, f"the record of pool build {r[0]}"):
                builds.append(
                    PoolBuild(
                        int(r[0]),
                        int(r[1]),
                        str(r[2]),
                        dict(json.loads(r[3])),
                        str(r[4]),
                        int(r[5]),
                        None if r[6] is None else int(r[6]),
                        [str(q) for q in json.loads(r[7])],
                        [dict(run) for run in json.loads(r[8])],
                        str(r[9]),
                        str(r[10]),
                    )
                )
        return builds

    def build(self, build_id: int) -> PoolBuild:
        rows = (
            self.file.query("SELECT version FROM pool_builds WHERE build_id = ?", (build_id,)) if self.recorded else []
        )
        if not rows:
            raise InputError(f"has no pool build {build_id}", path=self.file.path)
        return next(b for b in self.of_version(int(rows[0][0])) if b.build_id == build_id)

    def choices(self, version: int, build_id: int | None = None, query_id: str | None = None) -> pd.DataFrame:
        """The documents each build of ``version`` chose, in order: build_id, query_id, position, doc_id, batch,
        new, and ``grade``: the item's grade when a person gave it (a grade a model filled in is not one: missing),
        None while ungraded."""
        columns = ["build_id", "query_id", "position", "doc_id", "batch", "new", "grade"]
        if not self.recorded:
            return pd.DataFrame(columns=columns)
        sql = (
            "SELECT c.build_id, c.query_id, c.position, c.doc_id, c.batch, c.new, "
            "CASE WHEN " + not_model("j.adjudication") + " AND " + not_model("j.annotator") + " THEN j.grade END "
            "FROM pool_choices c JOIN judgments j ON (j.version, j.query_id, j.doc_id) = (c.version, c.query_id, "
            "c.doc_id) WHERE c.version = ?"
        )
        params: list[Any] = [version]
        if build_id is not None:
            sql += " AND c.build_id = ?"
            params.append(build_id)
        if query_id is not None:
            sql += " AND c.query_id = ?"
            params.append(query_id)
        rows = self.file.query(sql + " ORDER BY c.build_id, c.query_id, c.position", params)
        frame = pd.DataFrame([tuple(r) for r in rows], columns=columns)
        frame["grade"] = frame["grade"].astype("Int64")
        for column in ("build_id", "position", "batch", "new"):
            frame[column] = frame[column].astype("int64")
        return frame

    def people_grades(self, version: int, query_id: str | None = None) -> list[tuple[str, str, int]]:
        """(query_id, doc_id, grade) of every item of ``version`` (of ``query_id``) a person graded: an adaptive
        build learns from these only (a grade a model filled in at freezing, copied into a later draft, is not
        one)."""
        rows = self.file.query(
            "SELECT query_id, doc_id, grade FROM judgments WHERE version = ? AND grade IS NOT NULL AND "
            + not_model("adjudication")
            + " AND "
            + not_model("annotator")
            + ("" if query_id is None else " AND query_id = ?"),
            (version,) if query_id is None else (version, query_id),
        )
        return [(str(q), str(d), int(g)) for q, d, g in rows]

    @writes
    def take_batches(self, version: int, keys: Sequence[tuple[int, str, int]], *, annotator: str) -> int:
        """Take back batches (build_id, query_id, batch) of draft ``version``: their record of choice, and the
        documents they added, which must still be ungraded (else refused, nothing written); audited. Returns how
        many documents left the draft."""
        v = self.pools.writable_draft(version)
        with self.file.transaction() as conn:
            added: list[tuple[str, str]] = []
            for build_id, query_id, batch in keys:
                rows = conn.execute(
                    "SELECT c.doc_id, c.new, j.grade FROM pool_choices c JOIN judgments j ON (j.version, j.query_id, "
                    "j.doc_id) = (c.version, c.query_id, c.doc_id) WHERE c.build_id = ? AND c.query_id = ? AND "
                    "c.batch = ? ORDER BY c.position",
                    (build_id, query_id, batch),
                ).fetchall()
                if any(grade is not None for _, new, grade in rows if new):
                    raise InputError(
                        f"a document of batch {batch} of query {query_id} was graded since; nothing was undone",
                        path=self.file.path,
                    )
                added += [(query_id, str(doc)) for doc, new, _ in rows if new]
                conn.execute(
                    "DELETE FROM pool_choices WHERE build_id = ? AND query_id = ? AND batch = ?",
                    (build_id, query_id, batch),
                )
            take(conn, items_scope(v.version, added))
            audit(conn, (change(v.version, q, d, "undo pool batch") for q, d in added), annotator=annotator)
        return len(added)
