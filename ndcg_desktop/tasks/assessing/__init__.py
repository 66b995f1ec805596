"""A machine assessor (issue 25, contract rule 18): a language model behind an OpenAI-compatible endpoint grades a
draft's items as annotator ``model:<name>``; every answer is kept, and its grades are used only by an explicit,
recorded choice after its agreement with people was measured (``freeze --fill-ungraded-from``).

The fronts use only what is imported here.
"""

from ndcg_desktop.tasks.assessing.job import (
    check_connection,
    draft_of,
    estimate,
    preview_prompt,
    run_job,
    select_items,
)
from ndcg_desktop.tasks.assessing.model import (
    SCOPES,
    AssessorSettings,
    Attempt,
    ConnectionReport,
    Estimate,
    Item,
    JobResult,
    Scope,
    Selection,
    Template,
)
from ndcg_desktop.tasks.assessing.prompt import load_template
from ndcg_desktop.tasks.assessing.record import MIN_SHARED, answers, model_runs

__all__ = [
    "MIN_SHARED",
    "answers",
    "model_runs",
    "SCOPES",
    "AssessorSettings",
    "Attempt",
    "ConnectionReport",
    "Estimate",
    "Item",
    "JobResult",
    "Scope",
    "Selection",
    "Template",
    "draft_of",
    "estimate",
    "load_template",
    "preview_prompt",
    "run_job",
    "select_items",
    "check_connection",
]
