"""Readable and JSON renderings of an evaluation, and its export to a folder."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import Any

import pandas as pd

from ndcg_desktop.formats.cells import plain
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


def to_json_text(evaluation: Evaluation) -> str:
    """Exactly ``json.dumps(to_json(evaluation), indent=2, ensure_ascii=False)``, much faster.

    With ``indent`` the json module encodes in pure Python, one small piece at a time; a large
    run has thousands of per-query objects of plain values, rendered here column by column.
    """
    queries = _query_objects(evaluation.per_query)
    if queries is None:  # a value this renderer does not know: let json do all of it
        return json.dumps(to_json(evaluation), indent=2, ensure_ascii=False)
    # json.dumps never writes a newline inside a string (it escapes them), so indenting is exact.
    summary = json.dumps(evaluation.summary, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    manifest = json.dumps(evaluation.manifest, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    return f'{{\n  "summary": {summary},\n  "queries": {queries},\n  "manifest": {manifest}\n}}'


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


# How json renders each scalar type (bool before int: json checks ``True`` before integers).
_SCALARS: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    float: _float_text,
    bool: lambda value: "true" if value else "false",
    int: int.__repr__,
    type(None): lambda value: "null",
}


def _query_objects(table: pd.DataFrame) -> str | None:
    """The per-query list as to_json and json.dumps render it, or None for a value of another type."""
    names = list(table.columns)
    if not names or len(set(names)) != len(names) or not all(type(name) is str for name in names):
        return None
    if not len(table):
        return "[]"
    columns = []
    for name in names:
        prefix = f"      {encode_basestring(name)}: "
        try:  # Series.tolist gives the Python values to_dict("records") gives
            columns.append([prefix + _SCALARS[type(value)](value) for value in table[name].tolist()])
        except KeyError:
            return None
    objects = ["    {\n" + ",\n".join(row) + "\n    }" for row in zip(*columns, strict=True)]
    return "[\n" + ",\n".join(objects) + "\n  ]"


def _agreement_text(figures: dict[str, Any] | None) -> str:
    """Rule 16 in the summary line: how far the annotators agree ("" with fewer than two)."""
    if not figures:
        return ""
    alpha = figures["alpha_ordinal"]
    shown = f"{alpha:.4f}" if isinstance(alpha, float) else str(alpha)
    return f"; Krippendorff's alpha (ordinal) {shown} on {figures['shared_items']} items rated by two or more"


def _figure(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else "n/a"


def model_lines(team: Mapping[str, Any]) -> list[str]:
    """Rule 18, one line per model with ratings in a version's team record: how many of its grades came from
    the model, which host and template, and the model's measured agreement with people."""
    lines = []
    for name, found in (team.get("models") or {}).items():
        runs = found["runs"]
        templates = ", ".join(sorted({r["template_sha256"][:12] + "…" for r in runs})) or "none recorded"
        hosts = ", ".join(sorted({plain(r["endpoint_host"]) for r in runs})) or "none recorded"
        agreement = found["agreement"]
        lines.append(
            f"model      {found['grades']} grade{'s' if found['grades'] != 1 else ''} from {plain(name)} "
            f"(host {hosts}, template sha256 {templates}); agreement with people on {agreement['items']} items: "
            f"exact {_figure(agreement['exact'])}, Cohen's kappa linear {_figure(agreement['kappa_linear'])}, "
            f"quadratic {_figure(agreement['kappa_quadratic'])}"
        )
    return lines


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
        f"judgments  {plain(str(m['judgments']['path']))}"
        + (f" pool version {m['judgments']['pool_version']}" if m["judgments"].get("pool_version") else "")
        + f" ({m['judgments']['format']}, sha256 {m['judgments']['sha256'][:12]}…)"
        + _read_as(m["judgments"]),
        f"run        {plain(str(m['run']['path']))} ({m['run']['format']}, {'; '.join(m['run']['reading'])}, "
        f"sha256 {m['run']['sha256'][:12]}…)" + _read_as(m["run"]),
    ]
    annotators = m["judgments"].get("annotators")
    if annotators:  # rule 16: who graded the pool version, and how their differences were settled
        settled = m["judgments"].get("adjudication") or {}
        how = ("; adjudicated " + ", ".join(f"{n} by {rule}" for rule, n in settled.items())) if settled else ""
        names = ", ".join(plain(str(name)) for name in annotators)
        lines.append(
            f"judges     {len(annotators)} annotator{'s' if len(annotators) != 1 else ''} ({names}){how}"
            + _agreement_text(m["judgments"].get("agreement"))
        )
    lines += model_lines(m["judgments"])  # rule 18: grades that came from a model, which one, its agreement
    if evaluation.unknown_queries:
        lines.append("unknown queries ignored: " + " ".join(evaluation.unknown_queries))
    if evaluation.dropped_queries:
        lines.append("unanswered queries dropped: " + " ".join(evaluation.dropped_queries))
    return "\n".join(lines)


def _read_as(part: dict[str, Any]) -> str:
    """What the reader skipped or read as unjudged (trec_eval 10.0's reading), when anything."""
    said = []
    if part.get("comment_lines_skipped"):
        n = int(part["comment_lines_skipped"])
        said.append(f"{n} comment line{'s' if n != 1 else ''} skipped")
    if part.get("negative_grades_unjudged"):
        n = int(part["negative_grades_unjudged"])
        said.append(f"{n} negative grade{'s' if n != 1 else ''}: in the pool, not judged")
    return "; " + ", ".join(said) if said else ""
