"""The use cases, written once and called by every front (the window, the `ndcg` command, the Python API).

Qt-free: every task takes an open project, plain values, and for long work a ``progress(done, total)``
callback and a ``cancelled()`` flag.

The names below are imported when first used (PEP 562), so ``ndcg score`` on two files loads
:mod:`.files` and nothing of the project store.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

# name -> the submodule that defines it
_HOMES = {
    "NegativeGrades": "importing",
    "NegativeGradesFound": "importing",
    "import_judgments": "importing",
    "import_run": "importing",
    "JudgingPlan": "pooling",
    "QueryScope": "pooling",
    "SentForJudging": "pooling",
    "apply_send_for_judging": "pooling",
    "discard_draft": "pooling",
    "plan_send_for_judging": "pooling",
    "pool_apply": "pooling",
    "pool_preview": "pooling",
    "undo_send_for_judging": "pooling",
    "CheckedRun": "scoring",
    "Inputs": "scoring",
    "ScoredRun": "scoring",
    "check_run": "scoring",
    "load_inputs": "scoring",
    "score_run": "scoring",
    "stamp": "scoring",
}

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
    "stamp",
    "undo_send_for_judging",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
