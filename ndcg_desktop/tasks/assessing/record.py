"""What the project keeps of a machine assessor, for the fronts: its runs and every answer (contract rule 18)."""

from __future__ import annotations

import pandas as pd

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import MIN_SHARED

__all__ = ["MIN_SHARED", "answers", "model_runs"]


def model_runs(project: Project, version: int) -> pd.DataFrame:
    """Every model run on ``version``: run_id, annotator, model, endpoint_host, parameters (JSON), template_sha256,
    template_source, started_at, started_by, graded, failed."""
    return project.assessor.runs(version)


def answers(project: Project, version: int, annotator: str | None = None) -> pd.DataFrame:
    """Every answer kept on ``version`` (of ``annotator``'s runs if given): run_id, query_id, doc_id, grade,
    failure, raw, latency, prompt_tokens, completion_tokens, at."""
    return project.assessor.attempts(version, annotator)
