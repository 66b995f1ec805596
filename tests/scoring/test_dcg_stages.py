"""Each named stage of the kernel alone, on hand-worked inputs (issue 32 item 7; ranx's _dcg, _idcg, _ndcg).

The cut at K (scoring/dcg.py) on one hand-built ranking: q1's universe A=3, B=2, C=1, D=0; the run returns
B (score 3), X (2, unjudged) and C (2): X and C tie at positions 2 and 3, so at K = 2 the tie straddles K.
The stages before it (scoring/ndcg.py) on in-memory judgments and runs, each fed what the one before gives.
"""

from __future__ import annotations

from math import log2

import numpy as np
import pyarrow as pa
import pytest

from ndcg_desktop.domain import InputError, Measure
from ndcg_desktop.domain.settings import DuplicatePolicy, EvalSettings, Gain, QuerySet, UnknownQueryPolicy
from ndcg_desktop.scoring import ndcg
from ndcg_desktop.scoring.dcg import Ranked, dcg_at_k, near_top_k, per_query_at_k, ties_at_k
from ndcg_desktop.scoring.ranking import keys_among
from tests.helpers import measure

from .test_properties import Case, in_memory

IDCG_2 = 3 / log2(2) + 2 / log2(3)  # q1's ideal at K = 2: A then B


def ranked(**changes: object) -> Ranked:
    """[B, X, C] for q1 (X unjudged), the pool's judgments A, B, C, D in that order."""
    fields: dict[str, object] = {
        "nq": 1,
        "pool_queries": np.array(["q1"], dtype=object),
        "pool_grade": np.array([3, 2, 1, 0]),
        "pool_gain": np.array([3.0, 2.0, 1.0, 0.0]),
        "idcgs": {2: np.array([IDCG_2])},
        "relevant_in_pool": np.array([3]),
        "docs": pa.array(["B", "X", "C"]),
        "sq": np.array([0, 0, 0]),
        "sk": np.array([3.0, 2.0, 2.0]),
        "sd": np.array([0, 1, 2]),
        "srow": np.array([0, 1, 2]),
        "pq": np.array([0, 0, 0]),
        "starts": np.array([0]),
        "lengths": np.array([3]),
        "judged_rows": np.array([0, 2]),  # B and C
        "judged_hit": np.array([1, 2]),  # their judgments: B=2, C=1
        "judged_q": np.array([0, 0]),
        "judged_pos": np.array([1, 3]),
        "listed": np.array([3]),
        "answered": np.array([True]),
        "returned": np.array([3]),
        "unjudged_total": np.array([1]),
        "duplicates_per_query": np.array([0]),
        "n_dup": 0,
        "unknown": [],
    }
    fields.update(changes)
    return Ranked(**fields)  # type: ignore[arg-type]


def test_near_top_k_keeps_the_top_k_and_the_rest_of_the_tie_group_at_k():
    near = near_top_k(ranked(), 2, list_order=False)
    assert near.pos.tolist() == [1, 2, 3]  # C ties X at position 2: it is kept, past K
    assert (near.judged.tolist(), near.grade.tolist()) == ([True, False, True], [2, 0, 1])
    assert near.gain.tolist() == [2.0, 0.0, 1.0]
    listed = near_top_k(ranked(), 2, list_order=True)  # a list has no ties: the top 2 only
    assert listed.pos.tolist() == [1, 2] and listed.d.tolist() == [0, 1]


def test_dcg_at_k_sums_gain_over_log2_of_the_position_plus_one_to_k():
    at = dcg_at_k(near_top_k(ranked(), 2, list_order=False), 2, 1)
    assert at.dcg.tolist() == [2 / log2(2) + 0 / log2(3)]  # C at position 3 is past K
    assert (at.relevant_found.tolist(), at.top.tolist()) == ([1], [True, True, False])
    assert at.disc.tolist() == [1 / log2(2), 1 / log2(3), 1 / log2(4)]


def test_ties_at_k_flags_the_straddle_and_averages_the_tied_gains():
    near = near_top_k(ranked(), 2, list_order=False)
    tie_at_k, tie_dcg = ties_at_k(near, dcg_at_k(near, 2, 1), 2, 1, list_order=False)
    assert tie_at_k.tolist() == [True]
    # {X, C} share positions 2 and 3; only position 2 is in the top K: their mean gain (0 + 1) / 2 there.
    assert tie_dcg.tolist() == [pytest.approx(2 / log2(2) + (0 + 1) / 2 / log2(3), abs=1e-15)]
    near = near_top_k(ranked(), 3, list_order=False)
    tie_at_k, _ = ties_at_k(near, dcg_at_k(near, 3, 1), 3, 1, list_order=False)
    assert tie_at_k.tolist() == [False]  # at K = 3 the tie ends inside the top K


def test_per_query_at_k_divides_by_the_whole_universes_ideal():
    r = ranked()
    near = near_top_k(r, 2, list_order=False)
    at = dcg_at_k(near, 2, 1)
    columns, dropped = per_query_at_k(r, 2, EvalSettings(), at, *ties_at_k(near, at, 2, 1, list_order=False))
    assert dropped == []
    assert columns["ndcg"].tolist() == [2 / IDCG_2]
    assert columns["candidate_ndcg"].tolist() == [2 / (2 / log2(2) + 1 / log2(3))]  # the ideal of {B, C}
    assert columns["tie_averaged_ndcg"].tolist() == [pytest.approx((2 + 0.5 / log2(3)) / IDCG_2, abs=1e-15)]
    assert (columns["unjudged_in_top_k"].tolist(), columns["relevant_missed"].tolist()) == ([1], [2])  # X; A, C
    # An unanswered second query: scored 0 in the pool's mean, dropped when only answered queries count.
    two = ranked(nq=2, pool_queries=np.array(["q1", "q2"], dtype=object), idcgs={2: np.array([IDCG_2, 1.0])})
    two.answered, two.listed, two.returned = np.array([True, False]), np.array([3, 0]), np.array([3, 0])
    two.relevant_in_pool, two.unjudged_total, two.duplicates_per_query = np.array([3, 1]), np.array([1, 0]), np.zeros(2)
    near = near_top_k(two, 2, list_order=False)
    at = dcg_at_k(near, 2, 2)
    ties = ties_at_k(near, at, 2, 2, list_order=False)
    pool, _ = per_query_at_k(two, 2, EvalSettings(), at, *ties)
    assert (pool["ndcg"].tolist(), pool["no_ranking"].tolist()) == ([2 / IDCG_2, 0.0], [False, True])
    run, dropped = per_query_at_k(two, 2, EvalSettings(queries=QuerySet.RUN), at, *ties)
    assert (run["query_id"].tolist(), dropped) == (["q1"], ["q2"])


UNIVERSE = Case({"q1": {"A": 3, "B": 2, "C": 1, "D": 0}, "q2": {"E": 0}}, [("q1", "B", 3.0), ("q9", "A", 2.0)])


def test_the_universe_is_each_querys_ideal_from_its_grades():
    qrels, _ = in_memory(UNIVERSE)
    query_ids, q = ndcg._pool_queries(qrels.judgments)
    u = ndcg._universe(query_ids, q, qrels.judgments.grade, Gain.LINEAR, [1, 2])
    assert (u.queries.tolist(), u.relevant.tolist(), u.nq) == (["q1", "q2"], [3, 0], 2)
    assert u.idcgs[1].tolist() == [3 / log2(2), 0.0] and u.idcgs[2].tolist() == [IDCG_2, 0.0]
    exponential = ndcg._universe(query_ids, q, qrels.judgments.grade, Gain.EXPONENTIAL, [2])
    assert exponential.idcgs[2].tolist() == [(2**3 - 1) / log2(2) + (2**2 - 1) / log2(3), 0.0]


def test_run_queries_not_in_the_pool_are_refused_or_listed():
    qrels, run = in_memory(UNIVERSE)
    u = ndcg._universe(*ndcg._pool_queries(qrels.judgments), qrels.judgments.grade, Gain.LINEAR, [2])
    to_pool, codes, unknown = ndcg._run_queries(run, u, UnknownQueryPolicy.IGNORE)
    assert (to_pool.tolist(), codes.tolist(), unknown) == ([0, -1], [1], ["q9"])
    with pytest.raises(InputError, match="query q9 is not in the judgment pool"):
        ndcg._run_queries(run, u, UnknownQueryPolicy.REJECT)


def _through_duplicates(case: Case, settings: Measure):
    """The stages up to rule 5 as ``_evaluate`` runs them."""
    qrels, run = in_memory(case)
    query_ids, q = ndcg._pool_queries(qrels.judgments)
    u = ndcg._universe(query_ids, q, qrels.judgments.grade, settings.policies.gain, [2])
    to_pool, codes, _ = ndcg._run_queries(run, u, UnknownQueryPolicy.IGNORE)
    docs, keys, rows = ndcg._ordered_rows(run, settings.terms, to_pool, codes, exact=False)
    pq = to_pool.astype(np.int32)[rows.q]
    pool_q, pool_did, _grade = ndcg._candidate_judgments(qrels.judgments, q, docs, rows.d)
    pool_ident, both = keys_among(docs, keys, pool_did)
    return run, u, docs, both, rows, pq, pool_q, pool_ident, pool_did


def test_ordered_rows_sort_by_score_and_leave_unknown_queries_out():
    _, u, docs, _, rows, pq, *_ = _through_duplicates(UNIVERSE, measure())
    assert (rows.row.tolist(), pq.tolist(), rows.key.tolist()) == ([0], [0], [3.0])  # q9's row is gone
    case = Case(UNIVERSE.judgments, [("q1", "C", 1.0), ("q1", "B", 3.0), ("q1", "A", 2.0)])
    *_, rows, pq, _, _, _ = _through_duplicates(case, measure())
    assert rows.row.tolist() == [1, 2, 0]  # B (3), A (2), C (1)


def test_duplicates_are_refused_or_the_first_kept():
    case = Case(UNIVERSE.judgments, [("q1", "B", 3.0), ("q1", "C", 2.0), ("q1", "B", 1.0)])
    run, u, docs, both, rows, pq, *_ = _through_duplicates(case, measure())
    first = measure(duplicates=DuplicatePolicy.FIRST)
    kept, kept_pq, n_dup, per_query = ndcg._without_duplicates(run, first, u, docs, both, rows, pq)
    assert (kept.row.tolist(), kept_pq.tolist(), n_dup, per_query.tolist()) == ([0, 1], [0, 0], 1, [1, 0])
    run, u, docs, both, rows, pq, *_ = _through_duplicates(case, measure())
    with pytest.raises(InputError, match=r"document B appears again for query q1 \(also at line 1; 1 duplicate"):
        ndcg._without_duplicates(run, measure(), u, docs, both, rows, pq)


def test_judged_rows_are_the_ones_in_their_querys_universe():
    # E is judged for q2 only: returned for q1 it is unjudged there (rule 6 looks up the pair).
    case = Case(UNIVERSE.judgments, [("q1", "E", 3.0), ("q1", "C", 2.0), ("q1", "A", 1.0)])
    run, u, docs, both, rows, pq, pool_q, pool_ident, pool_did = _through_duplicates(case, measure())
    rows, pq, *_ = ndcg._without_duplicates(run, measure(), u, docs, both, rows, pq)
    judged_rows, judged_hit = ndcg._judged_rows(docs, both, rows.ident, pq, rows.d, pool_q, pool_ident, pool_did)
    assert judged_rows.tolist() == [1, 2]  # C and A, not E
    assert pool_did.take(pa.array(judged_hit)).to_pylist() == ["C", "A"]
    with pytest.raises(InputError, match=r"document E for query q1 is not in the judgment pool \(unjudged; 1 "):
        ndcg._refuse_unjudged(in_memory(case)[0], run, measure(), u, docs, judged_rows, rows.d, rows.row, pq)


def test_the_unjudged_rule_keeps_zeroes_or_condenses_the_rows_after_the_lookup():
    # q1 returns E (unjudged there), C, X (unjudged), A; q2 returns E (judged 0). Positions as returned: C 2, A 4.
    rows = [("q1", "E", 4.0), ("q1", "C", 3.0), ("q1", "X", 2.0), ("q1", "A", 1.0), ("q2", "E", 1.0)]
    case = Case(UNIVERSE.judgments, rows)

    def looked_up(settings: Measure):
        run, u, docs, both, rows, pq, pool_q, pool_ident, pool_did = _through_duplicates(case, settings)
        rows, pq, *_ = ndcg._without_duplicates(run, settings, u, docs, both, rows, pq)
        return run, u, docs, ndcg._looked_up(u, docs, both, rows, pq, pool_q, pool_ident, pool_did)

    run, u, docs, looked = looked_up(measure(unjudged="zero"))
    assert (looked.listed.tolist(), looked.answered.tolist(), looked.judged_rows.tolist()) == (
        [4, 1],
        [1, 1],
        [1, 3, 4],
    )
    qrels = in_memory(case)[0]  # the pool, for a refusal to look up a negative grade in
    zero = ndcg._unjudged_rule(qrels, run, measure(unjudged="zero"), u, docs, looked)
    assert (zero.judged_rows.tolist(), zero.judged_q.tolist(), zero.judged_pos.tolist()) == (
        [1, 3, 4],
        [0, 0, 1],
        [2, 4, 1],
    )
    assert (zero.returned.tolist(), zero.unjudged_total.tolist(), len(zero.rows.sq)) == ([4, 1], [2, 0], 5)
    run, u, docs, looked = looked_up(measure(unjudged="condense"))
    condensed = ndcg._unjudged_rule(qrels, run, measure(unjudged="condense"), u, docs, looked)
    assert (condensed.rows.srow.tolist(), condensed.judged_rows.tolist(), condensed.rows.starts.tolist()) == (
        [1, 3, 4],
        [0, 1, 2],
        [0, 2],
    )
    assert (condensed.judged_pos.tolist(), condensed.returned.tolist(), condensed.unjudged_total.tolist()) == (
        [2, 4, 1],
        [2, 1],
        [2, 0],
    )  # positions and counts as returned; the rows scored close up (rule 6)
    run, u, docs, looked = looked_up(measure())
    with pytest.raises(InputError, match=r"document E for query q1 is not in the judgment pool \(unjudged; 2 "):
        ndcg._unjudged_rule(qrels, run, measure(), u, docs, looked)
