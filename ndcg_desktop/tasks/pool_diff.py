"""Two frozen pool versions side by side: what changed, and whether it changes the systems' order.

Items added, removed and regraded between version A and version B (per query, with who made the
change in B and when, from B's audit log), and every stored run's mean nDCG under both versions
(scored by :func:`~ndcg_desktop.tasks.scoring.score_run`, not recorded) with Kendall's tau-b
between the two orderings of the systems (``scipy.stats.kendalltau``, imported on use). A run whose
scoring is refused under the given choices (a flag group without a policy) is listed with why.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ndcg_desktop import __version__
from ndcg_desktop.domain import DataTerms, EvalSettings, InputError, Measure
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.domain.reading import NOTHING_ASKED, ReadingAsked
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.advice import frozen_version
from ndcg_desktop.tasks.scoring import NotScored, check_readings, load_inputs, not_scored, score_run


@dataclass
class PoolDiff:
    """The difference of two frozen versions (``a`` before ``b``) and what it does to the runs."""

    a: int
    b: int
    hashes: tuple[str, str]
    versions: tuple[PoolVersion, PoolVersion]  # a and b: their scales and labels
    # query_id, doc_id, change (added/removed/regraded), grade_a, grade_b, who, at, iteration_a, iteration_b; who is
    # whom the change is credited to: the item's annotator in b (import:FILE for an imported or released grade, as
    # Annotate shows it), for a removal the release that withdrew it or the person who removed it
    changes: pd.DataFrame
    per_query: pd.DataFrame  # query_id, added, removed, regraded (natural order: q2 before q10)
    means: pd.DataFrame  # run, mean_a, mean_b, difference, rank_a, rank_b
    tau: float | None  # Kendall's tau-b between the orderings (None: fewer than two runs scored)
    tau_p: float | None
    settings: Measure  # the policies on b's scale (each run scored with its own reading)
    k: int  # the cutoff every run was scored at
    refused: dict[str, NotScored] = field(default_factory=dict)  # run -> why (each front words it)
    shared_queries: bool = False  # the means are over the queries both versions judge only
    queries: tuple[int, int, int] = (0, 0, 0)  # queries judged in a, in b, in both
    releases: tuple[str, ...] = ()  # the release files (import:FILE) that changed b's draft
    runs: tuple[JsonObject, ...] = ()  # each run scored: name, file SHA-256, stored data hash

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
            **({"iteration": int(counts["iteration"])} if "iteration" in counts else {}),
            "queries_changed": len(self.per_query),
            "kendall_tau": self.tau,
            "kendall_tau_p": self.tau_p,
            "settings": self.settings.to_text(self.k),
            "refused": {run: str(why) for run, why in self.refused.items()},
            "queries_a": self.queries[0],
            "queries_b": self.queries[1],
            "queries_shared": self.queries[2],
            "means_over": "queries both versions judge" if self.shared_queries else "each version's own queries",
            "releases": list(self.releases),
        }

    def manifest(self, project: str) -> JsonObject:
        """Rule 13 for a comparison of versions: the tool, the project, both versions and hashes, the choices,
        which queries the means are over, and every run scored with its hashes."""
        return {
            "tool": "ndcg-desktop",
            "version": __version__,
            "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "measure": f"nDCG@{self.k}",
            "settings": self.settings.to_text(self.k),
            "project": project,
            "pool_versions": [
                {"version": v.version, "hash": v.hash, "frozen_at": v.frozen_at, "scale": str(v.scale)}
                for v in self.versions
            ],
            "means_over": "queries both versions judge" if self.shared_queries else "each version's own queries",
            "queries": {"a": self.queries[0], "b": self.queries[1], "shared": self.queries[2]},
            "releases": list(self.releases),
            "runs": list(self.runs),
            "not_scored": {run: str(why) for run, why in self.refused.items()},
            "rank_correlation": "Kendall's tau-b (scipy.stats.kendalltau) between the runs' orders under a and b",
        }


def diff_pools(
    project: Project,
    a: int,
    b: int,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    shared_queries: bool = False,
    iterations: bool = False,
    asked: ReadingAsked = NOTHING_ASKED,
) -> PoolDiff:
    """Compare frozen pool versions ``a`` and ``b`` (each proves its hash as it is read), the runs scored at ``k``.

    ``progress(done, total)`` counts the changes as one step and each run's two scorings as one
    each; ``cancelled()`` is asked between them (and inside each scoring) and raises
    :class:`~ndcg_desktop.scoring.Cancelled`: nothing is written either way. ``shared_queries``: each run's
    means are over the queries both versions judge (a campaign's later version adds topics: without it the change
    of a mean mixes new topics with new judgments). ``iterations``: an item whose grade stayed but whose iteration
    (its round) changed is a change too (``iteration``), counted per query in an ``iteration`` column.
    ``order``, ``ties``, ``id_map``: accepted when every stored run's own, else refused naming the run
    (:func:`~ndcg_desktop.tasks.scoring.check_readings`).
    """
    if a == b:
        raise InputError(f"give two different pool versions, not {a} twice")
    check_readings(project, [info.name for info in project.runs.all()], asked)
    version_a, version_b = frozen_version(project, a), frozen_version(project, b)
    # The scale shown is the versions' (scoring takes each one's own, and each run its reading).
    settings = base.under(DataTerms(version_b.scale))
    left = project.pools.qrels(a).frame_as_read()[["query_id", "doc_id", "grade"]]  # every grade, -1 too
    right = project.pools.qrels(b).frame_as_read()[["query_id", "doc_id", "grade"]]
    both = left.merge(right, on=["query_id", "doc_id"], how="outer", suffixes=("_a", "_b"), indicator=True)
    change = pd.Series("regraded", index=both.index)
    change[both["_merge"] == "left_only"] = "removed"
    change[both["_merge"] == "right_only"] = "added"
    both["change"] = change
    moved = pd.Series(False, index=both.index)
    if iterations:
        rounds_a = project.pools.pool_items(a)[["query_id", "doc_id", "iteration"]]
        rounds_b = project.pools.pool_items(b)[["query_id", "doc_id", "iteration"]]
        rounds = rounds_a.merge(rounds_b, on=["query_id", "doc_id"], suffixes=("_a", "_b"))
        was = both[["query_id", "doc_id"]].merge(rounds, on=["query_id", "doc_id"], how="left")
        moved = pd.Series(
            (both["_merge"] == "both").to_numpy() & (both["grade_a"] == both["grade_b"]).to_numpy()
            & (was["iteration_a"] != was["iteration_b"]).to_numpy() & was["iteration_a"].notna().to_numpy(),
            index=both.index,
        )  # fmt: skip
        both.loc[moved, "change"] = "iteration"
    changed = both[(both["_merge"] != "both") | (both["grade_a"] != both["grade_b"]) | moved].drop(columns="_merge")
    changed = changed.astype({"grade_a": "Int64", "grade_b": "Int64"})
    changed.attrs["a"] = a
    changes = _credited(project, b, changed)
    per_query = (
        pd.crosstab(changes["query_id"], changes["change"])
        .reindex(columns=["added", "removed", "regraded"] + (["iteration"] if iterations else []), fill_value=0)
        .reset_index()
        .rename_axis(columns=None)
    )
    per_query = per_query.iloc[_natural(per_query)].reset_index(drop=True)
    in_a, in_b = set(left["query_id"]), set(right["query_id"])
    shared = in_a & in_b
    audit_actions = project.judgments.audit_log(b)["action"].astype(str)
    releases = tuple(sorted({a[len("release (") : -1] for a in audit_actions if a.startswith("release (")}))
    runs = project.runs.all()
    total = 1 + 2 * len(runs)
    if progress is not None:
        progress(1, total)
    rows: list[dict[str, Any]] = []
    refused: dict[str, NotScored] = {}
    scored_runs: list[JsonObject] = []
    for i, info in enumerate(runs):
        means = []
        for j, version in enumerate((a, b)):
            if cancelled is not None and cancelled():
                raise Cancelled()
            try:
                scored = score_run(project, info.name, version, base, k, record=False, cancelled=cancelled)
            except InputError as exc:
                refused[info.name] = not_scored(load_inputs(project, info.name, version), base, k, exc)
                break
            finally:
                if progress is not None:
                    progress(2 + 2 * i + j, total)
            means.append(
                _mean(scored.evaluation.per_query, shared) if shared_queries else scored.evaluation.summary["mean_ndcg"]
            )
        if len(means) == 2:
            rows.append({"run": info.name, "mean_a": means[0], "mean_b": means[1]})
            scored_runs.append({"name": info.name, "source": info.source_name, "sha256": info.sha256})
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
    return PoolDiff(
        a, b, hashes, (version_a, version_b), changes, per_query, means, tau, tau_p, settings, k, refused,
        shared_queries=shared_queries, queries=(len(in_a), len(in_b), len(shared)), releases=releases,
        runs=tuple(scored_runs),
    )  # fmt: skip


def _natural(frame: pd.DataFrame) -> list[int]:
    """The rows of ``frame`` in natural order of query (q2 before q10), then by document where there is one."""
    docs = frame["doc_id"].astype(str).tolist() if "doc_id" in frame else [""] * len(frame)
    queries = frame["query_id"].astype(str).tolist()
    return sorted(range(len(frame)), key=lambda i: (natural_key(queries[i]), docs[i]))


def _credited(project: Project, b: int, changed: pd.DataFrame) -> pd.DataFrame:
    """The changes with whom each is credited to, when, and both versions' iterations (see :class:`PoolDiff`)."""
    audit = project.judgments.audit_log(b)
    last = audit.groupby(["query_id", "doc_id"], sort=False).tail(1)[["query_id", "doc_id", "who", "at", "action"]]
    changes = changed.merge(last, on=["query_id", "doc_id"], how="left")
    items_b = project.pools.pool_items(b)[["query_id", "doc_id", "annotator", "iteration"]]
    items_a = project.pools.pool_items(changed.attrs["a"])[["query_id", "doc_id", "iteration"]]
    changes = changes.merge(items_b.rename(columns={"iteration": "iteration_b"}), on=["query_id", "doc_id"], how="left")
    changes = changes.merge(items_a.rename(columns={"iteration": "iteration_a"}), on=["query_id", "doc_id"], how="left")
    action = changes["action"].astype(str)
    released = action.str.startswith("release (") & action.str.endswith(")")
    graded = changes["change"].isin(["added", "regraded"])  # the grade's credit; a removal or a move: its maker
    credit = changes["annotator"].where(changes["annotator"].notna() & graded)
    credit = credit.where(credit.notna(), action.str.slice(len("release ("), -1).where(released))
    changes["who"] = credit.where(credit.notna(), changes["who"])
    changes = changes[["query_id", "doc_id", "change", "grade_a", "grade_b", "who", "at", "iteration_a", "iteration_b"]]
    return changes.iloc[_natural(changes)].reset_index(drop=True)


def _mean(per_query: pd.DataFrame, queries: set[str]) -> float:
    """The macro mean of nDCG over the queries of ``queries`` that count in the mean (rule 8)."""
    counted = per_query[per_query["in_mean"] & per_query["query_id"].isin(queries)]
    return float(counted["ndcg"].mean()) if len(counted) else float("nan")
