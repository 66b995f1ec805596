"""A slow, obviously-correct reference for the evaluation contract (docs/evaluation-contract.md, rules 1-10).

One query at a time, with plain dicts, lists and loops, written to be read beside the
contract rather than to be fast. The vectorised :func:`ndcg_desktop.scoring.evaluate` is
tested against it in ``test_properties.py``.

Inputs are the data as written to the files the real code reads:

- judgments: ``{query_id: {doc_id: grade}}``
- a run: ``[(query_id, doc_id, score), ...]`` in file order (TREC runs carry scores).

Duplicates are always resolved by keeping the first occurrence and unknown run queries are
always ignored (the explicit policies); where the contract's defaults would refuse such input,
the refusal is the implementation's business. Unjudged documents: ``zero``, ``condense``, or
``reject``, which scores like ``zero`` when there is nothing to refuse.

Rule 1's worked example (linear gain, universe A=3, B=2, C=1, D=0, ranking [B, C], K=2):

>>> result = score_query({"A": 3, "B": 2, "C": 1, "D": 0}, [("B", 2.0), ("C", 1.0)], k=2)
>>> round(result.dcg, 6), round(result.idcg, 6), round(result.ndcg, 6), result.candidate_ndcg
(2.63093, 4.26186, 0.61732, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Judgments = dict[str, dict[str, int]]
RunRows = list[tuple[str, str, float]]


def gain(grade: int, kind: str = "linear") -> float:
    """Gain of one grade (rule 2).

    Grades at or below zero earn nothing: trec_eval gives gain only to rel_level > 0
    (its qrels use -1 for "pooled but not judged").

    >>> gain(3), gain(3, "exponential"), gain(-1)
    (3.0, 7.0, 0.0)
    """
    if grade <= 0:
        return 0.0
    if kind == "linear":
        return float(grade)
    if kind == "exponential":
        return 2.0**grade - 1.0
    raise ValueError(f"unknown gain {kind!r}")


def discount(position: int) -> float:
    """1 / log2(position + 1) for a 1-based position (rule 2)."""
    return 1.0 / math.log2(position + 1)


def dcg(gains: list[float], k: int) -> float:
    """DCG@k of gains listed in ranking order; a short list is not padded (rule 3)."""
    total = 0.0
    for position, g in enumerate(gains, start=1):
        if position > k:
            break
        total += g * discount(position)
    return total


def order(entries: list[tuple[str, float]], ties: str = "docid-desc") -> list[tuple[str, float]]:
    """Sort ``(doc_id, score)`` pairs by score descending, equal scores by the tie policy (rule 10).

    Python compares strings by code point, which is the same order as comparing their UTF-8
    bytes, i.e. trec_eval's strcmp.

    >>> order([("a", 1.0), ("c", 2.0), ("b", 1.0)])
    [('c', 2.0), ('b', 1.0), ('a', 1.0)]
    >>> order([("a", 1.0), ("c", 2.0), ("b", 1.0)], "docid-asc")
    [('c', 2.0), ('a', 1.0), ('b', 1.0)]
    """
    if ties == "file-order":
        # sorted() is stable, so equal scores keep their file order.
        return sorted(entries, key=lambda entry: -entry[1])
    if ties == "docid-asc":
        return sorted(entries, key=lambda entry: (-entry[1], entry[0]))
    if ties == "docid-desc":
        by_doc_descending = sorted(entries, key=lambda entry: entry[0], reverse=True)
        return sorted(by_doc_descending, key=lambda entry: -entry[1])
    raise ValueError(f"unknown tie policy {ties!r}")


def tie_averaged_dcg(ranking: list[tuple[float, float]], k: int) -> float:
    """Expected DCG@k over every order of each group of equal scores (McSherry and Najork 2008).

    ``ranking`` lists ``(score, gain)`` in ranking order. Every position of a tied group earns
    the group's mean gain, because in a random order of the group each member is equally
    likely to sit at each of its positions.

    >>> tie_averaged_dcg([(1.0, 3.0), (1.0, 0.0)], k=1) == (3 + 0) / 2 / math.log2(2)
    True
    """
    total = 0.0
    position = 1
    start = 0
    while start < len(ranking):
        end = start
        while end < len(ranking) and ranking[end][0] == ranking[start][0]:
            end += 1
        group = [g for _, g in ranking[start:end]]
        mean = sum(group) / len(group)
        for _ in group:
            if position <= k:
                total += mean * discount(position)
            position += 1
        start = end
    return total


@dataclass
class QueryScore:
    """What the contract says about one query."""

    dcg: float
    idcg: float
    ndcg: float
    candidate_ndcg: float
    tie_averaged_ndcg: float
    unjudged_in_top_k: int
    relevant_missed: int
    tie_at_k: bool
    no_ranking: bool
    zero_idcg: bool
    ranked: list[str] = field(default_factory=list)  # after ties and duplicates, before the unjudged policy


def score_query(
    universe: dict[str, int],
    entries: list[tuple[str, float]] | None,
    *,
    k: int,
    gain_kind: str = "linear",
    unjudged: str = "zero",
    ties: str = "docid-desc",
) -> QueryScore:
    """Score one query's returned ``(doc_id, score)`` pairs (file order) against its universe.

    ``entries=None`` means the run did not answer the query (rule 9: it scores 0).
    """
    # trec_eval's reading (its RELVALUE_UNJUDGED): a negative grade is in the pool, not judged.
    universe = {doc: grade for doc, grade in universe.items() if grade >= 0}
    no_ranking = entries is None
    ordered = order(entries or [], ties)

    # Rule 5, explicit resolution: keep the first (best-ranked) occurrence.
    seen: set[str] = set()
    kept: list[tuple[str, float]] = []
    for doc, score in ordered:
        if doc not in seen:
            seen.add(doc)
            kept.append((doc, score))
    ranked = [doc for doc, _ in kept]

    # Rule 6: counted before any policy moves them.
    unjudged_in_top_k = sum(1 for doc in ranked[:k] if doc not in universe)
    if unjudged == "condense":
        kept = [(doc, score) for doc, score in kept if doc in universe]
    elif unjudged == "reject" and any(doc not in universe for doc in ranked):
        raise ValueError("unjudged document: a policy is required")
    elif unjudged not in ("zero", "reject"):
        raise ValueError(f"unknown unjudged policy {unjudged!r}")

    gains = [gain(universe[doc], gain_kind) if doc in universe else 0.0 for doc, _ in kept]

    # Rule 1: the ideal comes from the whole judged universe, sorted descending (rule 4: only
    # the documents that exist).
    ideal = sorted((gain(grade, gain_kind) for grade in universe.values()), reverse=True)
    the_dcg = dcg(gains, k)
    the_idcg = dcg(ideal, k)
    # Rule 1's diagnostic: the ideal of the returned candidates only.
    candidate_idcg = dcg(sorted(gains, reverse=True), k)
    tie_dcg = tie_averaged_dcg([(score, g) for (_, score), g in zip(kept, gains, strict=True)], k)

    # Rule 7: a query without positive gain anywhere scores 0.
    zero_idcg = the_idcg <= 0
    relevant = sum(1 for grade in universe.values() if gain(grade, gain_kind) > 0)
    relevant_in_top_k = sum(1 for g in gains[:k] if g > 0)
    return QueryScore(
        dcg=the_dcg,
        idcg=the_idcg,
        ndcg=0.0 if zero_idcg else the_dcg / the_idcg,
        candidate_ndcg=the_dcg / candidate_idcg if candidate_idcg > 0 else 0.0,
        tie_averaged_ndcg=0.0 if zero_idcg else tie_dcg / the_idcg,
        unjudged_in_top_k=unjudged_in_top_k,
        relevant_missed=relevant - relevant_in_top_k,
        # Rule 10: positions K and K+1 hold equal scores, so the tie policy decides the score.
        tie_at_k=len(kept) > k and kept[k - 1][1] == kept[k][1],
        no_ranking=no_ranking,
        zero_idcg=zero_idcg,
        ranked=ranked,
    )


def evaluate_reference(
    judgments: Judgments,
    rows: RunRows,
    *,
    k: int,
    gain_kind: str = "linear",
    unjudged: str = "zero",
    ties: str = "docid-desc",
    queries: str = "pool",
) -> dict[str, QueryScore]:
    """Per-query scores, keyed by query ID, for the queries that count (rule 9).

    Run queries that are not in the judgments are ignored (the explicit policy).
    """
    by_query: dict[str, list[tuple[str, float]]] = {}
    for query, doc, score in rows:
        if query in judgments:
            by_query.setdefault(query, []).append((doc, score))
    result: dict[str, QueryScore] = {}
    for query in sorted(judgments):
        if queries == "run" and query not in by_query:
            continue
        result[query] = score_query(
            judgments[query], by_query.get(query), k=k, gain_kind=gain_kind, unjudged=unjudged, ties=ties
        )
    return result


def mean_ndcg(scores: dict[str, QueryScore], zero_idcg: str = "keep") -> float | None:
    """Rules 7 and 8: the equal-weight macro mean, zero-IDCG queries kept (scoring 0) or excluded.

    >>> one = QueryScore(3, 3, 1.0, 1.0, 1.0, 0, 0, False, False, False)
    >>> none = QueryScore(0, 0, 0.0, 0.0, 0.0, 0, 0, False, False, True)
    >>> mean_ndcg({"q1": one, "q2": none}), mean_ndcg({"q1": one, "q2": none}, "exclude")
    (0.5, 1.0)
    """
    counted = [s.ndcg for s in scores.values() if not (zero_idcg == "exclude" and s.zero_idcg)]
    return sum(counted) / len(counted) if counted else None


def pooled_ndcg(scores: dict[str, QueryScore], zero_idcg: str = "keep") -> float | None:
    """Rule 8's other number: sum of DCG over sum of IDCG.

    >>> a = QueryScore(3, 3, 1.0, 1.0, 1.0, 0, 0, False, False, False)
    >>> b = QueryScore(0, 1, 0.0, 0.0, 0.0, 0, 1, False, False, False)
    >>> pooled_ndcg({"a": a, "b": b})
    0.75
    """
    counted = [s for s in scores.values() if not (zero_idcg == "exclude" and s.zero_idcg)]
    total_idcg = sum(s.idcg for s in counted)
    return sum(s.dcg for s in counted) / total_idcg if total_idcg > 0 else None
