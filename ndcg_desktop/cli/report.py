"""Readable and JSON renderings of an evaluation, and its export to a folder."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.formats.cells import plain

if TYPE_CHECKING:
    import numpy as np

    from ndcg_desktop.scoring import Evaluation

# Printed from the evaluation's columns, never its DataFrame: `ndcg score` loads no pandas (issue 37).

_FLAGS = (("no_ranking", "no ranking"), ("zero_idcg", "zero IDCG"), ("excluded", "excluded"), ("tie_at_k", "tie at K"))


def _fmt(value: float | None, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def per_query_columns(evaluation: Evaluation) -> dict[str, np.ndarray]:
    """The per-query columns in natural order (q2 before q10), as the exports and the window list queries."""
    columns = evaluation.per_query_columns
    ids = columns["query_id"].tolist()
    order = sorted(range(len(ids)), key=lambda i: natural_key(str(ids[i])))
    if order == list(range(len(ids))):
        return columns
    import numpy as np  # loaded already: the columns are numpy's

    taken = np.asarray(order, dtype=np.intp)
    return {name: column[taken] for name, column in columns.items()}


def to_json(evaluation: Evaluation) -> dict[str, Any]:
    columns = per_query_columns(evaluation)
    names = list(columns)
    queries = [dict(zip(names, row, strict=True)) for row in zip(*(c.tolist() for c in columns.values()), strict=True)]
    return {"summary": evaluation.summary, "queries": queries, "manifest": evaluation.manifest}


def to_json_text(evaluation: Evaluation) -> str:
    """Exactly ``json.dumps(to_json(evaluation), indent=2, ensure_ascii=False)``, much faster.

    With ``indent`` the json module encodes in pure Python, one small piece at a time; a large
    run has thousands of per-query objects of plain values, rendered here column by column.
    """
    queries = _query_objects(per_query_columns(evaluation))
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


def _query_objects(table: Mapping[str, np.ndarray]) -> str | None:
    """The per-query list as to_json and json.dumps render it, or None for a value of another type."""
    names = list(table)
    if not names or len(set(names)) != len(names) or not all(type(name) is str for name in names):
        return None
    if not names or not len(table[names[0]]):
        return "[]"
    columns = []
    for name in names:
        prefix = f"      {encode_basestring(name)}: "
        try:  # ndarray.tolist gives Python values, as the frame's to_dict("records") did
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
    models = [str(name) for name in figures.get("annotators", []) if str(name).startswith("model:")]
    if models:  # recorded before the headline was the people's (rule 18): say whose it is
        together = ", ".join(map(plain, models))
        whose = f"Krippendorff's alpha (ordinal) of the people and {together} together (as recorded)"
    else:
        whose = "the people's Krippendorff's alpha (ordinal)"
    return f"; {whose} {shown} on {count(figures['shared_items'], 'item')} rated by two or more"


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
            f"model      {count(found['grades'], 'grade')} from {plain(name)} "
            f"(host {hosts}, template sha256 {templates}); "
            f"agreement with people on {count(agreement['items'], 'item')}: "
            f"exact {_figure(agreement['exact'])}, Cohen's kappa linear {_figure(agreement['kappa_linear'])}, "
            f"quadratic {_figure(agreement['kappa_quadratic'])}"
        )
    return lines


def residual_text(residual: Mapping[str, Any]) -> str:
    """Rule 21 in one line: the earlier version, its hash, what left the run and the judgments."""
    emptied = residual["queries_without_residual_judgments"]
    documents, judgments = residual["run_documents_removed"], residual["judgments_removed"]
    return (
        f"from pool version {residual['from_version']} (sha256 {str(residual['from_hash'])[:12]}…): "
        f"{count(documents, 'document')} judged there removed from the run, "
        f"{count(judgments, 'judgment')} removed ({residual['judgments_left']} left)"
        + (
            f"; {len(emptied)} quer{'ies' if len(emptied) != 1 else 'y'} with every judgment removed "
            f"{'are' if len(emptied) != 1 else 'is'} not scored: {' '.join(map(plain, emptied))}"
            if emptied
            else ""
        )
    )


def to_text(evaluation: Evaluation) -> str:
    s = evaluation.summary
    k = evaluation.k
    table = per_query_columns(evaluation)
    width = max([len("query"), *(len(str(q)) for q in table["query_id"])])
    header = (
        f"{'query':<{width}}  {'nDCG':>7}  {'DCG':>8}  {'IDCG':>8}  {'cand.':>7}  "
        f"{'found':>5}  {'missed':>6}  {f'unj@{k}':>6}  flags"
    )
    lines = [header, "-" * len(header)]
    shown = ("query_id", "ndcg", "dcg", "idcg", "candidate_ndcg", "relevant_found", "relevant_missed")
    names = [*shown, "unjudged_in_top_k", *(name for name, _ in _FLAGS)]
    for row in zip(*(table[name].tolist() for name in names), strict=True):
        query_id, ndcg, dcg, idcg, candidate, found, missed, unjudged = row[: len(shown) + 1]
        flags = ", ".join(label for (_, label), on in zip(_FLAGS, row[len(shown) + 1 :], strict=True) if on)
        lines.append(
            f"{query_id:<{width}}  {ndcg:>7.4f}  {dcg:>8.4f}  {idcg:>8.4f}  "
            f"{candidate:>7.4f}  {found:>5}  {missed:>6}  "
            f"{unjudged:>6}  {flags}".rstrip()
        )
    m = evaluation.manifest
    lines += [
        "",
        f"{s['measure'] + ' mean':<22} {_fmt(s['mean_ndcg'])}   "
        f"(equal-weight mean over {count(s['queries_in_mean'], 'query')})",
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
        f"{count(s['duplicates_removed'], 'duplicate')} removed, {count(s['ties_at_k'], 'query')} with a tie at K",
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
        who = ", ".join(plain(str(name)) for name in annotators)
        lines.append(
            f"judges     {count(len(annotators), 'annotator')} ({who}){how}"
            + _agreement_text(m["judgments"].get("agreement"))
        )
    lines += model_lines(m["judgments"])  # rule 18: grades that came from a model, which one, its agreement
    if m.get("residual"):  # rule 21: scored residually, what was removed first
        lines.append("residual   " + residual_text(m["residual"]))
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
        said.append(f"{count(n, 'comment line')} skipped")
    if part.get("negative_grades_unjudged"):
        n = int(part["negative_grades_unjudged"])
        said.append(f"{count(n, 'negative grade')}: in the pool, not judged")
    return "; " + ", ".join(said) if said else ""
