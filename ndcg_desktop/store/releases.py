"""A corrected release (issue 35 item 2): the draft's judgments made exactly a file's, every change audited.

TREC-COVID's final qrels add items to the round files, withdraw others and regrade some. An import that only adds
(:meth:`~.judgments.JudgmentRepository.import_qrels`) refuses a regrade; a release compares the file with the draft
(or with the frozen version a new draft would copy), says per query what it would add, withdraw and regrade, and,
once confirmed, makes the draft's items exactly the file's: grades and iterations as the file gives them, credited to
the file (``import:FILE``), items the file lacks removed with every row that refers to them. What it took is returned
for the project's undo (:mod:`.undo`), which puts every row back.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.incoming import read_incoming
from ndcg_desktop.store.pools import DraftTarget, PoolRepository
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import person_rating
from ndcg_desktop.store.undo import Taken, items_scope, take

KEY = ["query_id", "doc_id"]
CHANGES = ("added", "withdrawn", "regraded", "iteration")  # what a release does to an item (iteration: only that)


@dataclass(frozen=True)
class ReleasePlan:
    """What making the draft equal to ``path`` would do: each item's change (``changes``: query_id, doc_id, change,
    old_grade, new_grade, old_iteration, new_iteration), the file's SHA-256, where it goes (``target``) and a digest
    of the items it was compared with (an apply refuses a draft that changed since)."""

    path: Path
    source: str  # import:FILE, whom the grades are credited to
    sha256: str
    target: DraftTarget
    changes: pd.DataFrame
    lines: int  # the file's judgments (after identical repeats)
    digest: str


def _digest(items: pd.DataFrame) -> str:
    h = hashlib.sha256(b"ndcg-release-items-v1\n")
    ordered = items.sort_values(KEY, kind="stable")
    for row in zip(ordered["query_id"], ordered["doc_id"], ordered["grade"], ordered["iteration"], strict=True):
        h.update(repr((str(row[0]), str(row[1]), None if pd.isna(row[2]) else int(row[2]), str(row[3]))).encode())
    return h.hexdigest()


class ReleaseRepository(Repository):
    """Plans and applies releases to a project's draft."""

    def __init__(self, file: ProjectFile, pools: PoolRepository) -> None:
        self.file = file
        self.pools = pools

    def plan(self, path: str | Path, *, negative_as_ungraded: bool = False, fmt: str | None = None) -> ReleasePlan:
        """Compare the file with the draft (or the version a new draft would copy), writing nothing."""
        target = self.pools.draft_target(None)
        scale = target.scale
        source, qrels, low = read_incoming(path, scale, negative_as_ungraded=negative_as_ungraded, fmt=fmt)
        c = qrels.as_read
        grades = pd.array(c.grade, dtype="Int64")
        grades[low] = pd.NA  # trec_eval's "pooled, not judged": an ungraded item
        wanted = pd.DataFrame(
            {
                "query_id": c.queries.take(pa.array(c.q)).to_pylist(),
                "doc_id": c.doc_ids.to_pylist(),
                "grade": grades,
                "iteration": ["0"] * len(c.q) if c.iteration is None else c.iteration.to_pylist(),
            }
        )
        have = self.pools.target_items(target)[[*KEY, "grade", "iteration"]].astype({"grade": "Int64"})
        both = have.merge(wanted, on=KEY, how="outer", suffixes=("_old", "_new"), indicator=True)
        change = pd.Series("", index=both.index, dtype=object)
        change[both["_merge"] == "left_only"] = "withdrawn"
        change[both["_merge"] == "right_only"] = "added"
        on_both = both["_merge"] == "both"
        old_g, new_g = both["grade_old"], both["grade_new"]
        regraded = on_both & ((old_g.isna() != new_g.isna()) | (old_g.fillna(-(2**62)) != new_g.fillna(-(2**62))))
        change[regraded] = "regraded"
        change[on_both & ~regraded & (both["iteration_old"] != both["iteration_new"])] = "iteration"
        both["change"] = change
        changes = both[both["change"] != ""].rename(
            columns={
                "grade_old": "old_grade",
                "grade_new": "new_grade",
                "iteration_old": "old_iteration",
                "iteration_new": "new_iteration",
            }
        )[["query_id", "doc_id", "change", "old_grade", "new_grade", "old_iteration", "new_iteration"]]
        order = sorted(
            range(len(changes)), key=lambda i: (natural_key(changes["query_id"].iat[i]), changes["doc_id"].iat[i])
        )
        changes = changes.iloc[order].reset_index(drop=True)  # q2 before q10, as every list of queries
        return ReleasePlan(Path(path), source, qrels.source.sha256, target, changes, len(wanted), _digest(have))

    @writes
    def apply(self, plan: ReleasePlan, *, annotator: str) -> tuple[int, Taken]:
        """Make the draft's items the file's, in one transaction audited as ``annotator``'s; the draft's number and
        what it took.

        Refused, writing nothing, when the draft is no longer what the plan compared (an edit, another import).
        """
        with self.file.transaction() as conn:
            number = self.pools.open_draft(conn, plan.target, annotator=annotator)
            now_items = self.pools.pool_items(number)[[*KEY, "grade", "iteration"]]
            if _digest(now_items.astype({"grade": "Int64"})) != plan.digest:
                raise InputError(
                    f"draft version {number} changed since the release was compared with it; compare again",
                    path=self.file.path,
                )
            pairs = list(zip(plan.changes["query_id"], plan.changes["doc_id"], strict=True))
            action = f"release ({plan.source})"[:200]
            taken = take(conn, items_scope(number, pairs), lambda: self._write(conn, number, plan, action, annotator))
        return number, taken

    def _write(self, conn: sqlite3.Connection, number: int, plan: ReleasePlan, action: str, annotator: str) -> None:
        stamp = now()
        changes = plan.changes
        rows = [
            (
                str(r.query_id),
                str(r.doc_id),
                str(r.change),
                None if pd.isna(r.old_grade) else int(r.old_grade),
                None if pd.isna(r.new_grade) else int(r.new_grade),
                None if pd.isna(r.new_iteration) else str(r.new_iteration),
            )
            for r in changes.itertuples(index=False)
        ]
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS releasing (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, change TEXT "
            "NOT NULL, old INTEGER, grade INTEGER, iteration TEXT, PRIMARY KEY (query_id, doc_id))"
        )
        conn.execute("DELETE FROM releasing")
        conn.executemany("INSERT INTO releasing VALUES (?, ?, ?, ?, ?, ?)", rows)
        # Withdrawn: the item with every row that refers to it (ratings, pool choices, a model's answers: cascade).
        conn.execute(
            "DELETE FROM judgments WHERE version = ? AND (query_id, doc_id) IN "
            "(SELECT query_id, doc_id FROM releasing WHERE change = 'withdrawn')",
            (number,),
        )
        conn.execute(
            "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, updated_at, iteration) "
            "SELECT ?, query_id, doc_id, grade, CASE WHEN grade IS NULL THEN NULL ELSE ? END, ?, iteration "
            "FROM releasing WHERE change = 'added' ORDER BY query_id, doc_id",
            (number, plan.source, stamp),
        )
        # Regraded: the release's grade, credited to it; where a person rated otherwise, the release settled it.
        conn.execute(
            "UPDATE judgments SET grade = r.grade, annotator = CASE WHEN r.grade IS NULL THEN NULL ELSE ? END, "
            "updated_at = ?, iteration = r.iteration, adjudication = CASE WHEN EXISTS (SELECT 1 FROM ratings p "
            "WHERE p.version = judgments.version AND p.query_id = judgments.query_id AND p.doc_id = judgments.doc_id "
            "AND p.grade IS NOT r.grade AND p.annotator != ? AND " + person_rating("p") + ") THEN 'release' END "
            "FROM releasing r WHERE judgments.version = ? AND judgments.query_id = r.query_id "
            "AND judgments.doc_id = r.doc_id AND r.change = 'regraded'",
            (plan.source, stamp, plan.source, number),
        )
        conn.execute(
            "UPDATE judgments SET iteration = r.iteration FROM releasing r WHERE judgments.version = ? "
            "AND judgments.query_id = r.query_id AND judgments.doc_id = r.doc_id AND r.change = 'iteration'",
            (number,),
        )
        conn.execute(  # the release's grades are also its ratings, as an import's are
            "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
            "SELECT ?, query_id, doc_id, ?, grade, '', ? FROM releasing WHERE change IN ('added', 'regraded') "
            "AND grade IS NOT NULL ORDER BY query_id, doc_id "
            "ON CONFLICT (version, query_id, doc_id, annotator) DO UPDATE SET grade = excluded.grade, "
            "rated_at = excluded.rated_at",
            (number, plan.source, stamp),
        )
        conn.execute(  # a regrade to ungraded leaves no rating of the release's
            "DELETE FROM ratings WHERE version = ? AND annotator = ? AND (query_id, doc_id) IN "
            "(SELECT query_id, doc_id FROM releasing WHERE change = 'regraded' AND grade IS NULL)",
            (number, plan.source),
        )
        conn.execute(
            "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, who, at) "
            "SELECT ?, query_id, doc_id, ?, old, grade, ?, ? FROM releasing ORDER BY query_id, doc_id",
            (number, action, annotator, stamp),
        )
        conn.execute("DELETE FROM releasing")
