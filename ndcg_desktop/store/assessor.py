"""A machine assessor's record (issue 25, contract rule 18): its runs, every answer it gave, and its ratings.

A run names the model, the endpoint's host, every parameter and the prompt template's SHA-256; each answer is
kept as given (raw text, latency, tokens) with its grade or the reason it is not one. A graded answer is also the
rating of annotator ``model:<name>`` in the draft, written without settling the item: a model's rating never
becomes the pool's grade on its own (``freeze --fill-ungraded-from`` is the recorded choice that uses it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd

from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.fields import guard
from ndcg_desktop.store.pools import PoolRepository
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import ASSESSOR_FORMAT

# One answer as recorded: query_id, doc_id, grade (None: failed), failure (None: graded), raw, latency (s),
# prompt_tokens, completion_tokens.
AnswerRow = tuple[str, str, int | None, str | None, str, float, int | None, int | None]
ATTEMPT_COLUMNS = [
    "run_id",
    "query_id",
    "doc_id",
    "grade",
    "failure",
    "raw",
    "latency",
    "prompt_tokens",
    "completion_tokens",
    "at",
]


class AssessorRepository(Repository):
    """Runs and answers of machine assessors on a project's drafts."""

    def __init__(self, file: ProjectFile, pools: PoolRepository) -> None:
        self.file = file
        self.pools = pools

    @property
    def available(self) -> bool:
        """False for an older file opened read-only (not migrated): it has no model's answers."""
        return self.file.schema_version >= ASSESSOR_FORMAT

    @writes
    def start_run(
        self,
        version: int,
        *,
        annotator: str,
        started_by: str,
        model: str,
        endpoint_host: str,
        parameters: dict[str, Any],
        template_sha256: str,
        template_source: str,
    ) -> int:
        """Record the start of a run on draft ``version`` whose ratings are credited to ``annotator`` (the model's
        name), started by ``started_by`` (a person); returns its ID."""
        v = self.pools.writable_draft(version)
        with self.file.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO assessor_runs (version, annotator, model, endpoint_host, parameters, template_sha256, "
                "template_source, started_at, started_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    v.version,
                    annotator,
                    model,
                    endpoint_host,
                    json.dumps(parameters, sort_keys=True),
                    template_sha256,
                    template_source,
                    now(),
                    started_by,
                ),
            )
            return int(cursor.lastrowid or 0)

    @writes
    def record(self, run_id: int, answers: Sequence[AnswerRow]) -> int:
        """Keep ``answers`` of run ``run_id`` in one transaction; each grade also becomes (or replaces) the rating
        of the run's annotator, audited. An item no longer in the draft (removed meanwhile) is left out. Returns
        how many answers were kept."""
        stamp = now()
        with self.file.transaction() as conn:
            version, annotator = conn.execute(
                "SELECT version, annotator FROM assessor_runs WHERE run_id = ?", (run_id,)
            ).fetchone()
            kept = 0
            for q, d, grade, failure, raw, latency, prompt_tokens, completion_tokens in answers:
                if not conn.execute(
                    "SELECT 1 FROM judgments WHERE version = ? AND query_id = ? AND doc_id = ?", (version, q, d)
                ).fetchone():
                    continue
                conn.execute(
                    "INSERT INTO assessor_attempts (run_id, version, query_id, doc_id, grade, failure, raw, latency, "
                    "prompt_tokens, completion_tokens, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (run_id, version, q, d, grade, failure, raw, latency, prompt_tokens, completion_tokens, stamp),
                )
                kept += 1
                if grade is None:
                    continue
                old = conn.execute(
                    "SELECT grade FROM ratings WHERE version = ? AND query_id = ? AND doc_id = ? AND annotator = ?",
                    (version, q, d, annotator),
                ).fetchone()
                if old is not None and old[0] == grade:
                    continue
                conn.execute(
                    "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
                    "VALUES (?, ?, ?, ?, ?, '', ?) ON CONFLICT (version, query_id, doc_id, annotator) DO UPDATE SET "
                    "grade = excluded.grade, rated_at = excluded.rated_at",
                    (version, q, d, annotator, grade, stamp),
                )
                action = f"rating (model run {run_id})"
                was = None if old is None else old[0]
                # credited to the model the run was started for (its name, recorded with the run)
                audit(
                    conn, [change(version, q, d, action, old_grade=was, new_grade=grade)], annotator=annotator, at=stamp
                )
        return kept

    def judged(self, version: int, annotator: str, template_sha256: str) -> pd.DataFrame:
        """query_id, doc_id of the items of ``version`` that ``annotator`` graded under this template (a graded
        answer in one of its runs): a job with the same model and template does not ask for them again."""
        if not self.available:
            return pd.DataFrame({"query_id": [], "doc_id": []}, dtype=object)
        return pd.read_sql_query(
            "SELECT DISTINCT a.query_id, a.doc_id FROM assessor_attempts a JOIN assessor_runs r ON r.run_id = a.run_id "
            "WHERE a.version = ? AND r.annotator = ? AND r.template_sha256 = ? AND a.grade IS NOT NULL "
            "ORDER BY a.query_id, a.doc_id",
            self.file.conn,
            params=[version, annotator, template_sha256],
        )

    def runs(self, version: int) -> pd.DataFrame:
        """Every run on ``version``: run_id, annotator, model, endpoint_host, parameters (JSON), template_sha256,
        template_source, started_at, started_by, graded, failed."""
        if not self.available:
            return pd.DataFrame(
                columns=[
                    "run_id",
                    "annotator",
                    "model",
                    "endpoint_host",
                    "parameters",
                    "template_sha256",
                    "template_source",
                    "started_at",
                    "started_by",
                    "graded",
                    "failed",
                ]
            )
        return pd.read_sql_query(
            "SELECT r.run_id, r.annotator, r.model, r.endpoint_host, r.parameters, r.template_sha256, "
            "r.template_source, r.started_at, r.started_by, count(a.grade) AS graded, "
            "count(a.failure) AS failed FROM assessor_runs r LEFT JOIN assessor_attempts a ON a.run_id = r.run_id "
            "WHERE r.version = ? GROUP BY r.run_id ORDER BY r.run_id",
            self.file.conn,
            params=[version],
        )

    def attempts(self, version: int, annotator: str | None = None) -> pd.DataFrame:
        """Every answer kept on ``version`` (of ``annotator``'s runs if given), in the order they came."""
        where = " AND r.annotator = ?" if annotator is not None else ""
        params: list[Any] = [version] + ([annotator] if annotator is not None else [])
        if not self.available:
            return pd.DataFrame(columns=ATTEMPT_COLUMNS)
        # raw answers and failures bounded (store/fields.py) before they are read
        mine = " AND run_id IN (SELECT run_id FROM assessor_runs WHERE annotator = ?)" if annotator is not None else ""
        guard(self.file.conn, self.file.path, "assessor_attempts", f"version = ?{mine}", tuple(params))
        frame = pd.read_sql_query(
            "SELECT a.run_id, a.query_id, a.doc_id, a.grade, a.failure, a.raw, a.latency, a.prompt_tokens, "
            "a.completion_tokens, a.at FROM assessor_attempts a JOIN assessor_runs r ON r.run_id = a.run_id "
            f"WHERE a.version = ?{where} ORDER BY a.id",
            self.file.conn,
            params=params,
        )
        return frame.astype({"grade": "Int64", "prompt_tokens": "Int64", "completion_tokens": "Int64"})
