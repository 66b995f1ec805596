"""The use cases, written once and called by both fronts (the window and the `ndcg` command).

Qt-free: every task takes an open :class:`~ndcg_desktop.store.Project`, plain values, and for
long work a ``progress(done, total)`` callback and a ``cancelled()`` flag.
"""

from ndcg_desktop.tasks.importing import NegativeGrades, NegativeGradesFound, import_judgments, import_run
from ndcg_desktop.tasks.pooling import (
    JudgingPlan,
    QueryScope,
    SentForJudging,
    apply_send_for_judging,
    discard_draft,
    plan_send_for_judging,
    pool_apply,
    pool_preview,
    undo_send_for_judging,
)
from ndcg_desktop.tasks.scoring import CheckedRun, Inputs, ScoredRun, check_run, load_inputs, score_run, stamp

__all__ = [
    "CheckedRun",
    "Inputs",
    "JudgingPlan",
    "NegativeGrades",
    "NegativeGradesFound",
    "QueryScope",
    "ScoredRun",
    "SentForJudging",
    "apply_send_for_judging",
    "check_run",
    "discard_draft",
    "import_judgments",
    "import_run",
    "load_inputs",
    "plan_send_for_judging",
    "pool_apply",
    "pool_preview",
    "score_run",
    "undo_send_for_judging",
    "stamp",
]
