"""Readable and JSON renderings of an evaluation, and its export to a folder."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ndcg_desktop.formats.export import write_csv, write_json
from ndcg_desktop.scoring import Evaluation

_FLAGS = (("no_ranking", "no ranking"), ("zero_idcg", "zero IDCG"), ("excluded", "excluded"), ("tie_at_k", "tie at K"))


def _fmt(value: float | None, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def to_json(evaluation: Evaluation) -> dict[str, Any]:
    queries = []
    for row in evaluation.per_query.to_dict("records"):
        queries.append({key: (value.item() if hasattr(value, "item") else value) for key, value in row.items()})
    return {"summary": evaluation.summary, "queries": queries, "manifest": evaluation.manifest}


def to_text(evaluation: Evaluation) -> str:
    s = evaluation.summary
    k = evaluation.settings.k
    table = evaluation.per_query
    width = max([len("query"), *(len(str(q)) for q in table["query_id"])])
    header = (
        f"{'query':<{width}}  {'nDCG':>7}  {'DCG':>8}  {'IDCG':>8}  {'cand.':>7}  "
        f"{'found':>5}  {'missed':>6}  {f'unj@{k}':>6}  flags"
    )
    lines = [header, "-" * len(header)]
    for row in table.itertuples(index=False):
        flags = ", ".join(label for name, label in _FLAGS if getattr(row, name))
        lines.append(
            f"{row.query_id:<{width}}  {row.ndcg:>7.4f}  {row.dcg:>8.4f}  {row.idcg:>8.4f}  "
            f"{row.candidate_ndcg:>7.4f}  {row.relevant_found:>5}  {row.relevant_missed:>6}  "
            f"{row.unjudged_in_top_k:>6}  {flags}".rstrip()
        )
    m = evaluation.manifest
    lines += [
        "",
        f"{s['measure'] + ' mean':<22} {_fmt(s['mean_ndcg'])}   "
        f"(equal-weight mean over {s['queries_in_mean']} queries)",
        f"pooled ratio           {_fmt(s['pooled_ndcg'])}   (sum of DCG / sum of IDCG: a different number)",
        f"candidate-only mean    {_fmt(s['mean_candidate_ndcg'])}   "
        "(diagnostic: ideal taken from the returned documents only)",
        f"tie-averaged mean      {_fmt(s['mean_tie_averaged_ndcg'])}",
        "",
        f"settings   {s['settings']}",
        f"queries    {s['queries_total']} total, {s['queries_in_mean']} in the mean, {s['zero_idcg']} zero-IDCG, "
        f"{s['excluded']} excluded, {s['no_ranking']} with no ranking, "
        f"{s['unknown_queries_ignored']} unknown ignored, {s['dropped_unanswered']} unanswered dropped",
        f"documents  {s['unjudged_in_top_k']} unjudged in the top {k} ({s['unjudged_total']} in all), "
        f"{s['duplicates_removed']} duplicates removed, {s['ties_at_k']} queries with a tie at K",
        f"judgments  {m['judgments']['path']}"
        + (f" pool version {m['judgments']['pool_version']}" if m["judgments"].get("pool_version") else "")
        + f" ({m['judgments']['format']}, sha256 {m['judgments']['sha256'][:12]}…)",
        f"run        {m['run']['path']} ({m['run']['format']}, {'; '.join(m['run']['reading'])}, "
        f"sha256 {m['run']['sha256'][:12]}…)",
    ]
    if evaluation.unknown_queries:
        lines.append("unknown queries ignored: " + " ".join(evaluation.unknown_queries))
    if evaluation.dropped_queries:
        lines.append("unanswered queries dropped: " + " ".join(evaluation.dropped_queries))
    return "\n".join(lines)


def export(evaluation: Evaluation, folder: str | Path) -> list[Path]:
    """Write per_query.csv, per_position.csv and manifest.json into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "per_query.csv", out / "per_position.csv", out / "manifest.json"]
    write_csv(evaluation.per_query, paths[0])
    write_csv(evaluation.per_position, paths[1])
    write_json(evaluation.manifest, paths[2])
    return paths
