"""Explanations built on an evaluation: flag groups to resolve, the ideal ranking of a query.

Used by the desktop application's analysis view; every number comes from :func:`evaluate`
or from the frozen pool itself, never recomputed differently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.data import Qrels, Run
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.domain.settings import (
    DuplicatePolicy,
    EvalSettings,
    Gain,
    Measure,
    QuerySet,
    UnjudgedPolicy,
    UnknownQueryPolicy,
)
from ndcg_desktop.scoring.dcg import discounts, gain_values
from ndcg_desktop.scoring.ndcg import Evaluation, evaluate
from ndcg_desktop.scoring.ranking import DocIds, doc_strings, rank_run


@dataclass
class FlagReport:
    """Every problem that needs an explicit choice before a run can be scored, counted."""

    unjudged_total: int
    unjudged_in_top_k: int
    unjudged_queries: int
    duplicates: int
    unknown_queries: list[str] = field(default_factory=list)
    unanswered_queries: list[str] = field(default_factory=list)
    ties_at_k: list[str] = field(default_factory=list)
    per_query: pd.DataFrame = field(default_factory=pd.DataFrame)  # the flagged queries, one row each
    k: int = DEFAULT_K  # the cutoff the top-K counts are at

    def needs_choice(self) -> dict[str, bool]:
        """Which setting must leave its refusing default for scoring to go ahead."""
        return {
            "unjudged": self.unjudged_total > 0,
            "duplicates": self.duplicates > 0,
            "unknown_queries": bool(self.unknown_queries),
        }

    def missing_groups(self, settings: EvalSettings) -> list[str]:
        """The flag groups still refused under the policies ``settings`` (empty: ready to score)."""
        refused = {
            "unjudged": settings.unjudged is UnjudgedPolicy.REJECT,
            "duplicates": settings.duplicates is DuplicatePolicy.REJECT,
            "unknown_queries": settings.unknown_queries is UnknownQueryPolicy.REJECT,
        }
        return [group for group, needed in self.needs_choice().items() if needed and refused[group]]

    def missing(self, settings: EvalSettings) -> list[str]:
        """Sentences saying what still needs a choice under ``settings`` (empty: ready to score)."""
        sentences = {
            "unjudged": f"{self.unjudged_total} unjudged documents ({self.unjudged_in_top_k} in the top "
            f"{self.k}) need a policy",
            "duplicates": f"{self.duplicates} duplicate documents need a policy",
            "unknown_queries": f"{len(self.unknown_queries)} run queries are not in the pool",
        }
        return [sentences[group] for group in self.missing_groups(settings)]


def inspect(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> FlagReport:
    """Count every flag group at cutoff ``k`` by scoring once with permissive policies (nothing is refused)."""
    permissive = settings.with_(
        unjudged=UnjudgedPolicy.ZERO,
        duplicates=DuplicatePolicy.FIRST,
        unknown_queries=UnknownQueryPolicy.IGNORE,
        queries=QuerySet.POOL,
    )
    e = evaluate(qrels, run, permissive, k, progress=progress, cancelled=cancelled)
    pq = e.per_query
    return FlagReport(
        per_query=_flagged_queries(e),
        unjudged_total=int(pq["unjudged_total"].sum()),
        unjudged_in_top_k=int(pq["unjudged_in_top_k"].sum()),
        unjudged_queries=int((pq["unjudged_total"] > 0).sum()),
        duplicates=int(pq["duplicates_removed"].sum()),
        unknown_queries=list(e.unknown_queries),
        unanswered_queries=pq.loc[pq["no_ranking"], "query_id"].astype(str).tolist(),
        ties_at_k=pq.loc[pq["tie_at_k"], "query_id"].astype(str).tolist(),
        k=k,
    )


def _flagged_queries(e: Evaluation) -> pd.DataFrame:
    """Per flagged query: unjudged documents (and their positions in the top K), duplicates, no ranking, tie at K."""
    pos = e.per_position
    unjudged_at = pos.loc[~pos["judged"]].groupby("query_id", sort=False)["rank"].agg(lambda r: ", ".join(map(str, r)))
    pq = e.per_query
    frame = pd.DataFrame(
        {
            "query_id": pq["query_id"].astype(str),
            "unjudged_total": pq["unjudged_total"],
            "unjudged_in_top_k": pq["unjudged_in_top_k"],
            "unjudged_positions": [unjudged_at.get(q, "") for q in pq["query_id"]],
            "duplicates": pq["duplicates_removed"],
            "no_ranking": pq["no_ranking"],
            "tie_at_k": pq["tie_at_k"],
        }
    )
    flagged = (frame["unjudged_total"] > 0) | (frame["duplicates"] > 0) | frame["no_ranking"] | frame["tie_at_k"]
    return frame[flagged].reset_index(drop=True)


def query_judgments(qrels: Qrels, query_id: str) -> tuple[list[str], np.ndarray]:
    """One query's judged documents and their grades (int64), in the judgments' order.

    Read from the judgments' columns (the query's code, then its rows), not from ``qrels.frame``: the frame of
    every judgment as strings took the window's thread hundreds of milliseconds on a large pool, once per score.
    """
    c = qrels.judgments
    code = pc.index_in(pa.array([query_id], c.queries.type), value_set=c.queries)[0].as_py()
    if code is None:
        return [], np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero(c.q == code)
    docs: list[str] = c.doc_ids.take(pa.array(rows)).to_pylist()
    return docs, c.grade[rows].astype(np.int64)


def ideal_ranking(qrels: Qrels, query_id: str, k: int, gain: Gain) -> pd.DataFrame:
    """The ideal top K of a query from its whole judged universe (rule 1), with cumulative IDCG.

    Equal grades are listed by document ID; the order among them does not change the IDCG.
    """
    docs, grades = query_judgments(qrels, query_id)
    frame = pd.DataFrame({"doc_id": pd.Series(docs, dtype="str"), "grade": grades})
    frame["gain"] = gain_values(frame["grade"].to_numpy(), gain)
    frame = frame.sort_values(["gain", "doc_id"], ascending=[False, True], kind="stable").head(k)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    frame["discount"] = discounts(frame["rank"].to_numpy())
    frame["cumulative_idcg"] = (frame["gain"] * frame["discount"]).cumsum()
    return frame.reset_index(drop=True)


@dataclass
class FullRankings:
    """Every query's whole ranking (ID map and tie policy applied), kept to look past K.

    Holds two int32 codes per run row, not the rows' strings; one query's list is built on demand.
    """

    settings: Measure
    query_codes: dict[str, int]
    q: np.ndarray  # ascending query codes, one per ranked row
    d: np.ndarray
    docs: DocIds

    @classmethod
    def of(cls, run: Run, settings: Measure) -> FullRankings:
        ranking = rank_run(run, ties=settings.terms.ties, id_map=settings.terms.id_map)
        if len(ranking.q) > 1 and (ranking.q[1:] < ranking.q[:-1]).any():  # blocks kept in first-seen order
            order = np.argsort(ranking.q, kind="stable")
            q, d = ranking.q[order], ranking.d[order]
        else:
            q, d = ranking.q, ranking.d
        codes = {str(query): i for i, query in enumerate(run.queries.to_pylist())}
        return cls(settings, codes, q, d, ranking.docs)

    def ranking(self, query_id: str, judged: set[str] | None = None) -> list[str]:
        """The query's documents in scored order: repeats dropped (rule 5, keep first) and,
        when the settings condense, documents outside ``judged`` removed (rule 6)."""
        code = self.query_codes.get(query_id)
        if code is None:
            return []
        # Bounds in the codes' own dtype: a list of Python ints made numpy convert all of ``q`` first.
        lo, hi = np.searchsorted(self.q, np.array([code, code + 1], dtype=self.q.dtype))
        docs = list(dict.fromkeys(doc_strings(self.docs, self.d[lo:hi]).to_pylist()))
        if judged is not None and self.settings.policies.unjudged is UnjudgedPolicy.CONDENSE:
            docs = [d for d in docs if d in judged]
        return docs


def missed_relevant(
    qrels: Qrels,
    per_position: pd.DataFrame,
    query_id: str,
    gain: Gain,
    rankings: FullRankings | None = None,
) -> pd.DataFrame:
    """Judged documents with positive gain that the run did not place in its top K.

    With ``rankings``, column ``position`` says where each appears below K (NA: not returned).
    """
    docs, grades = query_judgments(qrels, query_id)
    pool = pd.DataFrame({"doc_id": pd.Series(docs, dtype="str"), "grade": grades})
    relevant = pool[gain_values(grades, gain) > 0]
    shown = set(per_position.loc[per_position["query_id"] == query_id, "doc_id"].astype(str))
    frame = relevant[~relevant["doc_id"].isin(shown)]
    if rankings is not None:
        ranked = rankings.ranking(query_id, judged=set(docs))
        where = {doc: i + 1 for i, doc in enumerate(ranked)}
        frame["position"] = pd.array([where.get(d) for d in frame["doc_id"]], dtype="Int64")
    return frame.sort_values(["grade", "doc_id"], ascending=[False, True]).reset_index(drop=True)


def compare(a: Evaluation, b: Evaluation) -> tuple[pd.DataFrame, dict[str, int]]:
    """Per-query nDCG of two runs under the same settings and K, and win/tie/loss counts (b against a).

    Only queries counted in both means are compared; equal scores (to 1e-12) are ties.
    """
    if a.k != b.k or a.settings.policies != b.settings.policies or a.settings.terms.scale != b.settings.terms.scale:
        raise ValueError("runs can only be compared under the same evaluation settings")
    return compare_per_query(a.per_query, b.per_query)


def compare_per_query(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """:func:`compare` on two per-query tables (``query_id``, ``ndcg``, ``in_mean``), whatever their settings.

    The Runs view compares runs each resolved with its own choices (recorded per run).
    """
    left = a.loc[a["in_mean"], ["query_id", "ndcg"]]
    right = b.loc[b["in_mean"], ["query_id", "ndcg"]]
    both = left.merge(right, on="query_id", suffixes=("_a", "_b"))
    both["difference"] = both["ndcg_b"] - both["ndcg_a"]
    tie = both["difference"].abs() <= 1e-12
    counts = {
        "wins": int(((both["difference"] > 0) & ~tie).sum()),
        "ties": int(tie.sum()),
        "losses": int(((both["difference"] < 0) & ~tie).sum()),
    }
    return both.reset_index(drop=True), counts


def histogram(per_query: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """How many of the queries in the mean fall in each nDCG bin [0, 0.1), ..., [0.9, 1.0]."""
    values = per_query.loc[per_query["in_mean"], "ndcg"].to_numpy()
    counts, edges = np.histogram(values, bins=bins, range=(0.0, 1.0))  # the last bin includes 1.0
    return pd.DataFrame({"low": edges[:-1], "high": edges[1:], "queries": counts})
