"""What a pool's judgments are worth so far (issue 34 item 5): relevant documents found against judgments made,
for the draft being judged, beside the strategy's expected curve from a simulation on the latest frozen version.

The draft's curve follows the order its latest build chose documents in: per query, the documents people have
graded, by position of choice; over all queries, by position and then query (natural order), so that rank-by-rank
pooling and adaptive batches read the same way. A document is relevant when a person graded it above 0 (a model's
grade is no judgment here: contract rules 18 and 20). The expected curve runs the same strategy with the same runs,
depth and budget on the queries the frozen version judged, that version's grades as the oracle (a document it lacks
is non-relevant), read in the same order. Both are plain numbers; the view's state is
:class:`~ndcg_desktop.sessions.pool_economics.EconomicsSession`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.pooling import Budget, Strategy, choose, pool_size
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.pool_builds import PoolBuild
from ndcg_desktop.tasks.pool_builds import WHOLE_POOL, allotment, rankings_of

ALL = ""  # the query_id of the curve over all queries
CURVE_COLUMNS = ["query_id", "judged", "relevant"]


@dataclass(frozen=True)
class Economics:
    """The curves of one draft's latest build (see the module docstring); ``expected`` is empty without a frozen
    version that judged its queries."""

    version: int
    build: PoolBuild
    actual: pd.DataFrame  # CURVE_COLUMNS, one row per judgment made (query_id ALL: over all queries)
    expected: pd.DataFrame  # CURVE_COLUMNS, one row per judgment the simulation made
    oracle: int | None  # the frozen version simulated on
    per_query: pd.DataFrame  # query_id, judged, relevant, expected_relevant (at as many judgments), budget

    def curve(self, frame: pd.DataFrame, query_id: str = ALL) -> list[tuple[int, int]]:
        rows = frame[frame["query_id"] == query_id]
        return list(zip(rows["judged"].tolist(), rows["relevant"].tolist(), strict=True))


def _curves(order: pd.DataFrame) -> pd.DataFrame:
    """``order`` (query_id, position, relevant as 0/1) as cumulative curves per query and over all (ALL)."""
    if order.empty:
        return pd.DataFrame(columns=CURVE_COLUMNS)
    order = order.assign(key=order["query_id"].map(natural_key))
    parts = []
    for query_id, rows in order.sort_values(["position"], kind="stable").groupby("query_id", sort=False):
        ranked = rows.sort_values("position", kind="stable")
        parts.append(
            pd.DataFrame(
                {
                    "query_id": str(query_id),
                    "judged": range(1, len(ranked) + 1),
                    "relevant": ranked["relevant"].cumsum().to_numpy(),
                }
            )
        )
    overall = sorted(zip(order["position"], order["key"], order["relevant"], strict=True))
    total = pd.Series([r for _, _, r in overall]).cumsum()
    parts.append(pd.DataFrame({"query_id": ALL, "judged": range(1, len(overall) + 1), "relevant": total.to_numpy()}))
    return pd.concat(parts, ignore_index=True)


def pool_economics(
    project: Project, version: int, *, progress: Progress | None = None, cancelled: IsCancelled | None = None
) -> Economics | None:
    """The curves of ``version``'s latest build (None when it was built without a record: imported judgments,
    a pool from before format 10).

    >>> # pool_economics(project, 2).curve(economics.actual) == [(1, 1), (2, 1), (3, 2), ...]
    """
    builds = project.builds.builds(version)
    if not builds:
        return None
    build = builds[-1]
    choices = project.builds.choices(version, build.build_id)
    graded = choices[choices["grade"].notna()]
    actual = _curves(
        pd.DataFrame(
            {
                "query_id": graded["query_id"],
                "position": graded["position"],
                "relevant": (graded["grade"].astype("int64") > 0).astype("int64"),
            }
        )
    )
    names = [str(run["name"]) for run in build.runs]
    oracle_version = _oracle_version(project, version)
    expected = pd.DataFrame(columns=CURVE_COLUMNS)
    rankings = rankings_of(project, names, build.depth, progress=progress, cancelled=cancelled)
    lists = {q: rankings.get(q, []) for q in build.queries}
    budget = None if build.budget == WHOLE_POOL else Budget.parse(build.budget)
    budgets = allotment(budget, {q: pool_size(v, build.depth) for q, v in lists.items()})
    if oracle_version is not None:
        items = project.pools.pool_items(oracle_version.version)
        oracle = {
            str(q): {str(d): int(g) for d, g in zip(rows["doc_id"], rows["grade"], strict=True)}
            for q, rows in items.groupby("query_id")
        }
        strategy = Strategy.parse(build.strategy)
        rows = []
        for q in build.queries:
            if cancelled is not None and cancelled():
                raise Cancelled()
            if q not in oracle:
                continue
            chosen = choose(strategy, lists[q], budgets.get(q, 0), build.depth, oracle[q])
            rows += [(q, i + 1, int(oracle[q].get(d, 0) > 0)) for i, d in enumerate(chosen)]
        expected = _curves(pd.DataFrame(rows, columns=["query_id", "position", "relevant"]))
    per_query = _per_query(build, actual, expected, budgets)
    return Economics(version, build, actual, expected, oracle_version.version if oracle_version else None, per_query)


def _oracle_version(project: Project, version: int) -> PoolVersion | None:
    """The latest frozen version other than ``version``, proven (rules 15, 16), or None."""
    frozen = [v for v in project.pools.versions() if v.frozen and v.version != version]
    return project.pools.frozen_version(frozen[-1].version) if frozen else None


def _per_query(build: PoolBuild, actual: pd.DataFrame, expected: pd.DataFrame, budgets: dict[str, int]) -> pd.DataFrame:
    rows = []
    for q in build.queries:
        mine = actual[actual["query_id"] == q]
        judged = int(mine["judged"].max()) if len(mine) else 0
        relevant = int(mine["relevant"].iloc[-1]) if len(mine) else 0
        theirs = expected[(expected["query_id"] == q) & (expected["judged"] <= judged)]
        if expected.empty or not (expected["query_id"] == q).any():
            at = float("nan")
        else:
            at = float(theirs["relevant"].iloc[-1]) if len(theirs) else 0.0
        rows.append((q, judged, relevant, at, budgets.get(q, 0)))
    return pd.DataFrame(rows, columns=["query_id", "judged", "relevant", "expected_relevant", "budget"])
