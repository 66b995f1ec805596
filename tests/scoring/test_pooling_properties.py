"""Pooling strategies' invariants (issue 34), and trectools' rrf and rbp pools reproduced."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import TiePolicy
from ndcg_desktop.domain.data import OrderKind
from ndcg_desktop.formats.frames import run_from_frame
from ndcg_desktop.scoring.pooling import Budget, Strategy, choose, depth_order, maxmean_next_batch, pool_size
from ndcg_desktop.scoring.ranking import top_pairs

DOCS = [f"d{i}" for i in range(12)]
rankings_st = st.lists(st.lists(st.sampled_from(DOCS), max_size=10, unique=True), min_size=1, max_size=5)
grades_st = st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3))
STRATEGIES = [
    Strategy.of("depth"),
    Strategy.of("depth", k=2),
    Strategy.of("rrf"),
    Strategy.of("rrf", k=1),
    Strategy.of("rbp"),
    Strategy.of("rbp", p=0.5, aggregate="max"),
    Strategy.of("maxmean"),
]


@settings(max_examples=150, deadline=None)
@given(rankings_st, st.integers(1, 12), st.integers(0, 15), grades_st, st.sampled_from(STRATEGIES))
def test_a_strategy_never_picks_twice_never_exceeds_the_budget_and_stays_in_the_pool(
    rankings, depth, budget, grades, strategy
):
    chosen = choose(strategy, rankings, budget, depth, grades)
    pool = {d for r in rankings for d in r[:depth]}
    assert len(chosen) == len(set(chosen))
    assert len(chosen) <= budget
    assert set(chosen) <= pool
    unlimited = choose(strategy, rankings, None, depth, grades)
    assert chosen == unlimited[: len(chosen)]  # a budget takes a prefix
    if strategy.name != "depth" or strategy["k"] is None:
        assert len(chosen) == min(budget, len(pool))  # every strategy but a smaller k can spend the budget
        assert set(unlimited) == pool
    share = choose(strategy, rankings, Budget.parse("50%"), depth, grades)
    assert len(share) <= pool_size(rankings, depth) // 2


@settings(max_examples=100, deadline=None)
@given(rankings_st, st.integers(1, 12), grades_st, st.integers(1, 6))
def test_a_batch_never_holds_a_judged_document_and_choose_is_batches_of_one(rankings, depth, grades, size):
    batch = maxmean_next_batch(rankings, grades, size, depth)
    assert len(batch) == len(set(batch)) <= size and not set(batch) & set(grades)
    judged: dict[str, int] = {}
    while step := maxmean_next_batch(rankings, judged, 1, depth):
        judged[step[0]] = grades.get(step[0], 0)
    assert list(judged) == choose(Strategy.of("maxmean"), rankings, None, depth, grades)


@settings(max_examples=60, deadline=None)
@given(rankings_st, st.integers(1, 12))
def test_the_depth_order_is_depth_pooling(rankings, depth):
    pooled: set[str] = set()
    for ranking in rankings:  # what ndcg pool adds: each run's top_pairs (store.runs.RunStore.top_pairs)
        if ranking:
            frame = pd.DataFrame({"query_id": "q1", "doc_id": ranking, "rank": range(1, len(ranking) + 1)})
            run = run_from_frame(frame, order=OrderKind.RANK)
            pooled |= set(top_pairs(run, depth, ties=TiePolicy.DOCID_DESC)["doc_id"].to_pylist())
    order = depth_order(rankings, depth)
    assert set(order) == pooled and len(order) == len(pooled)
    # rank by rank, runs in order: a document's place follows its best rank, then the first run reaching it
    best = {d: min((r.index(d), i) for i, r in enumerate(rankings) if d in r[:depth]) for d in order}
    assert order == sorted(order, key=best.__getitem__)


def _trectools_pool(runs, strategy, top_x, p=0.8, rbp_strategy="sum", rrf_den=60):
    """trectools' TrecPoolMaker.__make_pool_rrf / __make_pool_rbp (trectools/trec_pool_maker.py), on frames of
    query, docid, rank; returns the ordered top X of the one query (the set is trectools' pool)."""
    frames = []
    for ranking in runs:
        df = pd.DataFrame({"query": 1, "docid": ranking, "rank": range(1, len(ranking) + 1)})
        if strategy == "rrf":
            df["value"] = 1.0 / (rrf_den + df["rank"])
        else:
            df["value"] = (1.0 - p) * (p) ** (df["rank"] - 1)
        frames.append(df[["query", "docid", "value"]])
    big = pd.concat(frames)
    how = "sum" if strategy == "rrf" else rbp_strategy
    grouped = getattr(big.groupby(["query", "docid"])["value"], how)().reset_index()
    grouped = grouped.sort_values(by=["query", "value"], ascending=[True, False])
    return grouped.groupby("query").head(top_x)["docid"].tolist()


def test_rrf_and_rbp_are_trectools_pools():
    # ties on purpose: z and y both at rank 1 of one run, x and w both at rank 2 of one run
    runs = [["z", "x", "a", "b"], ["y", "w", "a", "c"], ["a", "b", "c", "d"]]
    for top_x in range(1, 9):
        assert choose(Strategy.of("rrf"), runs, top_x, 4) == _trectools_pool(runs, "rrf", top_x)
        assert choose(Strategy.of("rbp"), runs, top_x, 4) == _trectools_pool(runs, "rbp", top_x)
        rbp_max = Strategy.of("rbp", p=0.6, aggregate="max")
        assert choose(rbp_max, runs, top_x, 4) == _trectools_pool(runs, "rbp", top_x, p=0.6, rbp_strategy="max")
