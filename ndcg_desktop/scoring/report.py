"""What one evaluation writes down besides its per-query scores: the per-position table, the summary, the manifest.

Split from :mod:`ndcg_desktop.scoring.ndcg` (which calls these once per cutoff); nothing here computes an nDCG.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ndcg_desktop import __version__
from ndcg_desktop.domain.data import Qrels, Run
from ndcg_desktop.domain.settings import Measure
from ndcg_desktop.scoring.ranking import DocIds, doc_strings

if TYPE_CHECKING:
    import pandas as pd  # the per-position frame is built on first use (issue 37: scoring loads no pandas)


def per_position_columns(
    run: Run,
    settings: Measure,
    pool_queries: np.ndarray,
    docs: DocIds,
    sq: np.ndarray,
    sd: np.ndarray,
    srow: np.ndarray,
    pos: np.ndarray,
    top: np.ndarray,
    judged: np.ndarray,
    grade: np.ndarray,
    gain: np.ndarray,
    disc: np.ndarray,
) -> dict[str, np.ndarray | pa.Array]:
    """The top K of every query, position by position, as the columns of :func:`per_position_frame`."""
    idx = np.flatnonzero(top)
    idx = idx[np.argsort(sq[idx], kind="stable")]  # queries in the pool's (sorted) order
    rows = srow[idx]
    lines = np.array([run.line_of(int(r)) for r in rows], dtype=np.int64) if run.line_numbers is not None else None
    return {
        "query_id": pool_queries[sq[idx]],
        "rank": pos[idx],
        "doc_id": doc_strings(docs, sd[idx]),
        "returned_id": run.doc_ids(rows),
        "score": run.score[rows] if run.score is not None else np.full(len(idx), np.nan),
        "judged": judged[idx],
        "grade": np.where(judged[idx], grade[idx], 0),
        "gain": gain[idx],
        "discount": disc[idx],
        "contribution": gain[idx] * disc[idx],
        "line": rows + run.first_line if lines is None else lines,
    }


def per_position_frame(columns: dict[str, np.ndarray | pa.Array]) -> pd.DataFrame:
    """The per-position table as a DataFrame: grades of unjudged rows missing, DCG accumulated per query."""
    import pandas as pd

    frame = pd.DataFrame(
        {
            name: pd.array(values, dtype="Int64")
            if name == "grade"
            else values.to_numpy(zero_copy_only=False)
            if isinstance(values, (pa.Array, pa.ChunkedArray))
            else values
            for name, values in columns.items()
        }
    )
    frame.loc[~frame["judged"], "grade"] = pd.NA
    frame["cumulative_dcg"] = frame.groupby("query_id", sort=False)["contribution"].cumsum()
    return frame


def summary_of(
    per_query: dict[str, np.ndarray],
    settings: Measure,
    k: int,
    unknown: list[str],
    dropped: list[str],
    duplicates: int,
    qrels: Qrels,
    run: Run,
) -> dict[str, Any]:
    mean = per_query["in_mean"]
    n = int(np.count_nonzero(mean))

    def of(name: str) -> np.ndarray:
        counted: np.ndarray = per_query[name][mean]
        return counted

    def total(name: str) -> int:
        return int(per_query[name].sum())

    idcg_sum = float(of("idcg").sum())
    return {
        "measure": f"nDCG@{k}",
        "settings": settings.describe(k),
        # Rule 8: the headline is the equal-weight macro mean; the pooled ratio is another number.
        "mean_ndcg": float(of("ndcg").mean()) if n else None,
        "pooled_ndcg": float(of("dcg").sum()) / idcg_sum if idcg_sum > 0 else None,
        "mean_candidate_ndcg": float(of("candidate_ndcg").mean()) if n else None,
        "mean_tie_averaged_ndcg": float(of("tie_averaged_ndcg").mean()) if n else None,
        "queries_total": len(mean),
        "queries_in_mean": n,
        "zero_idcg": total("zero_idcg"),
        "excluded": total("excluded"),
        "no_ranking": total("no_ranking"),
        "dropped_unanswered": len(dropped),
        "unknown_queries_ignored": len(unknown),
        "unjudged_in_top_k": total("unjudged_in_top_k"),
        "unjudged_total": total("unjudged_total"),
        "duplicates_removed": duplicates,
        "ties_at_k": total("tie_at_k"),
        # How the files were read (trec_eval 10.0): comment lines skipped, negative grades in the pool, not judged.
        "comment_lines_skipped": {"judgments": qrels.comments, "run": run.comments},
        "negative_grades_unjudged": qrels.unjudged_in_pool,
    }


def manifest_of(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    k: int,
    summary: dict[str, Any],
    n_pool_queries: int,
    unknown: list[str],
    dropped: list[str],
) -> dict[str, Any]:
    """Rule 13: enough to reproduce the figure, and to prove what it was computed from."""
    return {
        "tool": "ndcg-desktop",
        "version": __version__,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "settings": settings.as_dict(k),
        "judgments": {
            "path": qrels.source.path,
            "sha256": qrels.source.sha256,
            "format": qrels.source.format,
            "judgments": qrels.n_judgments,
            "queries": n_pool_queries,
            "identical_repeats_dropped": qrels.repeats,
            "comment_lines_skipped": qrels.comments,
            # trec_eval's reading: a negative grade is in the pool, not judged (a returned one is unjudged)
            "negative_grades_unjudged": qrels.unjudged_in_pool,
            "pool_version": None,
        },
        "run": {
            "path": run.source.path,
            "sha256": run.source.sha256,
            "format": run.source.format,
            "order": run.order.value,
            "reading": list(run.notes),
            "ranked_documents": len(run),
            "comment_lines_skipped": run.comments,
            "queries": len(run.answered_queries()),
        },
        "counts": {k: v for k, v in summary.items() if k not in ("measure", "settings")},
        "unknown_queries_ignored": unknown,
        "dropped_queries": dropped,
    }
