"""Two frozen pool versions side by side: what changed, and whether it changes the systems' order.

Items added, removed and regraded between version A and version B (per query, with who made the
change in B and when, from B's audit log), and every stored run's mean nDCG under both versions
(scored by :func:`~ndcg_desktop.tasks.scoring.score_run`, not recorded) with Kendall's tau-b
between the two orderings of the systems (``scipy.stats.kendalltau``, imported on use). A run whose
scoring is refused under the given choices (a flag group without a policy) is listed with why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.ndcg import IsCancelled, Progress
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.scoring import NotScored, load_inputs, not_scored, score_run


@dataclass
class PoolDiff:
    """The difference of two frozen versions (``a`` before ``b``) and what it does to the runs."""

    a: int
    b: int
    hashes: tuple[str, str]
    versions: tuple[PoolVersion, PoolVersion]  # a and b: their scales and labels
    changes: pd.DataFrame  # query_id, doc_id, change (added/removed/regraded), grade_a, grade_b, who, at
    per_query: pd.DataFrame  # query_id, added, removed, regraded
    means: pd.DataFrame  # run, mean_a, mean_b, difference, rank_a, rank_b
    tau: float | None  # Kendall's tau-b between the orderings (None: fewer than two runs scored)
    tau_p: float | None
    settings: EvalSettings
    refused: dict[str, NotScored] = field(default_factory=dict)  # run -> why (each front words it)

    def grade_texts(self, column: str) -> list[str]:
        """``changes[column]`` (``grade_a`` or ``grade_b``) as every view shows grades: with that version's labels.

        >>> # diff.grade_texts("grade_a") -> ['3 · Perfect', '—', ...] ('—': not in that version)
        """
        v = self.versions[0 if column == "grade_a" else 1]
        return [grade_label(None if pd.isna(g) else int(g), v.labels, v.scale.low) for g in self.changes[column]]

    def summary(self) -> JsonObject:
        counts = self.changes["change"].value_counts()
        return {
            "versions": [self.a, self.b],
            "hashes": list(self.hashes),
            "added": int(counts.get("added", 0)),
            "removed": int(counts.get("removed", 0)),
            "regraded": int(counts.get("regraded", 0)),
            "queries_changed": len(self.per_query),
            "kendall_tau": self.tau,
            "kendall_tau_p": self.tau_p,
            "settings": self.settings.to_text(),
            "refused": {run: str(why) for run, why in self.refused.items()},
        }


def diff_pools(
    project: Project,
    a: int,
    b: int,
    base: EvalSettings,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> PoolDiff:
    """Compare frozen pool versions ``a`` and ``b`` (each proves its hash as it is read).

    ``progress(done, total)`` counts the changes as one step and each run's two scorings as one
    each; ``cancelled()`` is asked between them (and inside each scoring) and raises
    :class:`~ndcg_desktop.scoring.Cancelled`: nothing is written either way.
    """
    if a == b:
        raise InputError(f"give two different pool versions, not {a} twice")
    version_a, version_b = project.frozen_version(a), project.frozen_version(b)
    base = base.with_(scale=version_b.scale)  # the scale shown is the versions' (scoring takes each one's own)
    left = project.qrels(a).frame_as_read()[["query_id", "doc_id", "grade"]]  # every grade, -1 too
    right = project.qrels(b).frame_as_read()[["query_id", "doc_id", "grade"]]
    both = left.merge(right, on=["query_id", "doc_id"], how="outer", suffixes=("_a", "_b"), indicator=True)
    change = pd.Series("regraded", index=both.index)
    change[both["_merge"] == "left_only"] = "removed"
    change[both["_merge"] == "right_only"] = "added"
    both["change"] = change
    changed = both[(both["_merge"] != "both") | (both["grade_a"] != both["grade_b"])].drop(columns="_merge")
    changed = changed.astype({"grade_a": "Int64", "grade_b": "Int64"})
    audit = project.audit_log(b)
    last = audit.groupby(["query_id", "doc_id"], sort=False).tail(1)[["query_id", "doc_id", "who", "at"]]
    changes = changed.merge(last, on=["query_id", "doc_id"], how="left")
    changes = changes[["query_id", "doc_id", "change", "grade_a", "grade_b", "who", "at"]]
    changes = changes.sort_values(["query_id", "doc_id"]).reset_index(drop=True)
    per_query = (
        pd.crosstab(changes["query_id"], changes["change"])
        .reindex(columns=["added", "removed", "regraded"], fill_value=0)
        .reset_index()
        .rename_axis(columns=None)
    )
    runs = project.runs()
    total = 1 + 2 * len(runs)
    if progress is not None:
        progress(1, total)
    rows: list[dict[str, Any]] = []
    refused: dict[str, NotScored] = {}
    for i, info in enumerate(runs):
        means = []
        for j, version in enumerate((a, b)):
            if cancelled is not None and cancelled():
                raise Cancelled()
            try:
                scored = score_run(project, info.name, version, base, record=False, cancelled=cancelled)
            except InputError as exc:
                refused[info.name] = not_scored(load_inputs(project, info.name, version), base, exc)
                break
            finally:
                if progress is not None:
                    progress(2 + 2 * i + j, total)
            means.append(scored.evaluation.summary["mean_ndcg"])
        if len(means) == 2:
            rows.append({"run": info.name, "mean_a": means[0], "mean_b": means[1]})
    means = pd.DataFrame(rows, columns=["run", "mean_a", "mean_b"])
    means["difference"] = means["mean_b"] - means["mean_a"]
    means["rank_a"] = means["mean_a"].rank(ascending=False, method="min").astype("Int64")
    means["rank_b"] = means["mean_b"].rank(ascending=False, method="min").astype("Int64")
    tau = tau_p = None
    if len(means) >= 2:
        from scipy.stats import kendalltau

        result = kendalltau(means["mean_a"], means["mean_b"])
        tau = None if math.isnan(result.statistic) else float(result.statistic)
        tau_p = None if math.isnan(result.pvalue) else float(result.pvalue)
    hashes = (version_a.hash or "", version_b.hash or "")
    return PoolDiff(a, b, hashes, (version_a, version_b), changes, per_query, means, tau, tau_p, base, refused)
