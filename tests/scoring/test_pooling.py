"""Pooling strategies (issue 34, item 1): named values, budgets, and each strategy on a hand-worked three-run case."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.scoring.pooling import (
    STRATEGIES,
    Budget,
    Strategy,
    choose,
    depth_order,
    fused_scores,
    maxmean_next_batch,
    parse_strategies,
    per_query_budgets,
    pool_size,
    strategies_help,
)

# Three runs for one query, used by every hand-worked case below.
RUNS = [
    ["a", "b", "c", "d"],
    ["b", "e", "a", "f"],
    ["g", "a", "e", "h"],
]


# -- named values ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("depth", "depth()"),
        ("depth(k=10)", "depth(k=10)"),
        (" rrf ", "rrf(k=60)"),
        ("rrf(k=5)", "rrf(k=5)"),
        ("rbp", "rbp(p=0.8,aggregate=sum)"),
        ("rbp( aggregate = max , p = 0.95 )", "rbp(p=0.95,aggregate=max)"),
        ("maxmean()", "maxmean()"),
        ("maxmean", "maxmean()"),
    ],
)
def test_a_strategys_text_round_trips(text, canonical):
    strategy = Strategy.parse(text)
    assert str(strategy) == canonical
    assert Strategy.parse(str(strategy)) == strategy
    assert hash(Strategy.parse(canonical)) == hash(strategy)


def test_defaults_are_the_published_ones():
    assert Strategy.parse("rrf")["k"] == 60  # Cormack et al. 2009
    assert Strategy.parse("rbp")["p"] == 0.8 and Strategy.parse("rbp")["aggregate"] == "sum"  # trectools
    assert Strategy.parse("depth")["k"] is None  # the pool's depth
    assert Strategy.of("rbp", p=0.5) == Strategy.parse("rbp(p=0.5,aggregate=sum)")


@pytest.mark.parametrize(
    ("parse", "text", "words"),
    [
        (Strategy.parse, text, words)
        for text, words in [
            ("bm25", "unknown pooling strategy 'bm25'"),
            ("rrf(q=1)", "strategy rrf has no parameter 'q'"),
            ("rrf(k=1,k=2)", "parameter k is given twice"),
            ("rrf(k=abc)", "rrf's k must be a whole number"),
            ("rrf(k=-1)", "rrf's k must be a number from 0"),
            ("rbp(p=1)", "rbp's p must be a number above 0 and below 1"),
            ("rbp(p=0)", "rbp's p must be a number above 0 and below 1"),
            ("rbp(aggregate=mean)", "rbp's aggregate must be one of sum|max"),
            ("rbp(p=0.5,)", "an empty parameter"),
            ("rbp(0.5)", "a parameter must be written key=value"),
            ("depth(k=0)", "depth's k must be a number from 1"),
            ("maxmean(x=1)", "strategy maxmean has no parameter 'x'"),
            ("rrf(", "must look like name or name(key=value,...)"),
        ]
    ]
    + [
        (Budget.parse, text, words)
        for text, words in [
            ("0", "at least 1 document"),
            ("0%", "above 0% and at most 100%"),
            ("101%", "above 0% and at most 100%"),
            ("ten", "a budget must be a number of documents"),
            ("x%", "a decimal number of percent"),
        ]
    ],
)
def test_a_bad_strategy_or_budget_is_refused_in_a_sentence(parse, text, words):
    with pytest.raises(InputError) as caught:
        parse(text)
    assert words in str(caught.value)


def test_strategies_lists_split_outside_parentheses():
    parsed = parse_strategies("depth,rbp(p=0.9,aggregate=max), maxmean")
    assert [str(s) for s in parsed] == ["depth()", "rbp(p=0.9,aggregate=max)", "maxmean()"]
    with pytest.raises(InputError, match="rrf\\(k=60\\) is given twice"):
        parse_strategies("rrf,rrf(k=60)")
    with pytest.raises(InputError, match="no pooling strategy"):
        parse_strategies(" , ")


def test_the_table_gives_every_parameter_a_default_or_none_and_a_description():
    assert [s.name for s in STRATEGIES] == ["depth", "rrf", "rbp", "maxmean"]
    assert [s.name for s in STRATEGIES if s.adaptive] == ["maxmean"]
    text = strategies_help()
    for spec in STRATEGIES:
        assert spec.description in text and spec.label and spec.source
        for parameter in spec.parameters:
            assert parameter.description in text and parameter.label
            Strategy.of(spec.name, **{parameter.name: parameter.default})  # the default is a value it takes


# -- budgets --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["10", "10%", "12.5%", "total:500", "total:10%", "100%", "0.5%"])
def test_a_budgets_text_round_trips(text):
    assert str(Budget.parse(text)) == text
    assert Budget.parse(str(Budget.parse(text))) == Budget.parse(text)


def test_a_share_is_rounded_down_exactly():
    assert Budget.parse("10%").for_query(37) == 37 * 10 // 100  # 3
    assert Budget.parse("29%").for_query(100) == 29  # 0.29 * 100 is 28.999... in floating point
    assert Budget.parse("12.5%").for_query(9) == 9 * 125 // 1000  # 1
    assert Budget.parse("12.5%").share == 0.125 and Budget.parse("7").share is None
    assert Budget.parse("25").for_query(7) == 7  # a number never exceeds the pool
    assert Budget.parse("total:10%").percent == Decimal(10) and Budget.parse("total:10%").total


def test_a_total_is_shared_equally_and_max_min_fair_in_natural_order():
    pools = {"q10": 9, "q2": 2, "q1": 9, "q3": 0}
    # 10 over 3 queries with documents: an equal share is 3; q2's pool (2) is smaller, so it gets 2 and the
    # other 8 are shared by q1 and q10: 4 each. q3 has nothing to judge.
    assert per_query_budgets(Budget.parse("total:10"), pools) == {"q1": 4, "q2": 2, "q3": 0, "q10": 4}
    # 11: q1 and q10 share 9; floor(9 / 2) = 4 each and the first in natural order (q1) one more
    assert per_query_budgets(Budget.parse("total:11"), pools) == {"q1": 5, "q2": 2, "q3": 0, "q10": 4}
    # 50% of the 20 together is 10
    assert per_query_budgets(Budget.parse("total:50%"), pools) == {"q1": 4, "q2": 2, "q3": 0, "q10": 4}
    assert per_query_budgets(Budget.parse("total:999"), pools) == {"q1": 9, "q2": 2, "q3": 0, "q10": 9}
    assert per_query_budgets(Budget.parse("50%"), pools) == {"q1": 4, "q2": 1, "q3": 0, "q10": 4}
    assert list(per_query_budgets(Budget.parse("3"), pools)) == ["q1", "q2", "q3", "q10"]
    with pytest.raises(InputError, match="is a total: divide it among the queries first"):
        choose(Strategy.of("depth"), RUNS, Budget.parse("total:5"), 4)


# -- depth ----------------------------------------------------------------------------------------------------


def test_depth_order_is_rank_by_rank_in_run_order_each_document_once():
    # rank 1: a, b, g; rank 2: b (seen), e, a (seen); rank 3: c, a (seen), e (seen); rank 4: d, f, h
    assert depth_order(RUNS, 4) == ["a", "b", "g", "e", "c", "d", "f", "h"]
    assert pool_size(RUNS, 4) == 8 and pool_size(RUNS, 1) == 3
    assert choose(Strategy.of("depth"), RUNS, None, 2) == ["a", "b", "g", "e"]
    assert choose(Strategy.of("depth"), RUNS, Budget.parse("50%"), 4) == ["a", "b", "g", "e"]  # 8 * 50% = 4
    assert choose(Strategy.of("depth", k=1), RUNS, None, 4) == ["a", "b", "g"]  # k cuts below the depth
    assert choose(Strategy.of("depth", k=9), RUNS, 5, 2) == ["a", "b", "g", "e"]  # the depth cuts below k


def test_a_repeated_id_counts_at_its_first_position_and_the_depth_counts_distinct_documents():
    assert depth_order([["a", "a", "b", "c"], ["d"]], 2) == ["a", "d", "b"]


# -- rrf and rbp ----------------------------------------------------------------------------------------------


def test_rrf_on_three_runs():
    k = 60
    expected = {
        "a": 1 / (k + 1) + 1 / (k + 3) + 1 / (k + 2),
        "b": 1 / (k + 2) + 1 / (k + 1),
        "c": 1 / (k + 3),
        "d": 1 / (k + 4),
        "e": 1 / (k + 2) + 1 / (k + 3),
        "f": 1 / (k + 4),
        "g": 1 / (k + 1),
        "h": 1 / (k + 4),
    }
    assert fused_scores(Strategy.of("rrf"), RUNS, 4) == pytest.approx(expected, abs=0)
    # a > b > e > g > c > d = f = h (ties by document ID ascending)
    assert choose(Strategy.of("rrf"), RUNS, None, 4) == ["a", "b", "e", "g", "c", "d", "f", "h"]
    assert choose(Strategy.of("rrf"), RUNS, 3, 4) == ["a", "b", "e"]


def test_rbp_sum_and_max_on_three_runs():
    p = 0.8

    def w(rank):
        return (1 - p) * p ** (rank - 1)

    total = {
        "a": w(1) + w(3) + w(2),
        "b": w(2) + w(1),
        "c": w(3),
        "d": w(4),
        "e": w(2) + w(3),
        "f": w(4),
        "g": w(1),
        "h": w(4),
    }
    assert fused_scores(Strategy.of("rbp"), RUNS, 4) == pytest.approx(total, rel=1e-15)
    # sum: a (0.488) > b (0.36) > e (0.288) > g (0.2) > c (0.128) > d = f = h (0.1024)
    assert choose(Strategy.of("rbp"), RUNS, None, 4) == ["a", "b", "e", "g", "c", "d", "f", "h"]
    # max: a, b, g at rank 1 (0.2, by ID), e at rank 2 (0.16), c (0.128), then d, f, h
    assert choose(Strategy.of("rbp", aggregate="max"), RUNS, None, 4) == ["a", "b", "g", "e", "c", "d", "f", "h"]
    assert choose(Strategy.of("rbp", aggregate="max"), RUNS, 2, 4) == ["a", "b"]


# -- maxmean --------------------------------------------------------------------------------------------------

ORACLE = {"a": 0, "b": 2, "c": 0, "e": 1, "g": 0, "h": 3}  # d and f: missing, non-relevant


def test_maxmean_on_three_runs_by_hand():
    # Every arm starts at (0 + 1) / (0 + 2) = 1/2; ties go to the earliest run.
    # 1. run 1 (1/2): a, judged 0 -> run 1 at 1/3.            chosen: a
    # 2. run 2 (1/2): b, judged 2 -> run 2 at 2/3.            chosen: a b
    # 3. run 2 (2/3): e, judged 1 -> run 2 at 3/4.            chosen: a b e
    # 4. run 2 (3/4): a, already judged 0: free -> 3/5.       (no cost)
    # 5. run 2 (3/5): f, judged 0 -> run 2 at 3/6 = 1/2.      chosen: a b e f ; run 2 is exhausted (depth 4)
    # 6. run 3 (1/2) beats run 1 (1/3): g, judged 0 -> 1/3.   chosen: a b e f g
    # 7. runs 1 and 3 tie at 1/3: run 1: b, already judged 2: free -> run 1 at 2/4 = 1/2
    # 8. run 1 (1/2): c, judged 0 -> 2/5.                     chosen: a b e f g c
    # 9. run 1 (2/5) beats run 3 (1/3): d, judged 0 -> 2/6; run 1 is exhausted. chosen: ... d
    # 10. run 3: a (free, 0), e (free, 1), h, judged 3.       chosen: ... h
    expected = ["a", "b", "e", "f", "g", "c", "d", "h"]
    assert choose(Strategy.of("maxmean"), RUNS, None, 4, ORACLE) == expected
    assert choose(Strategy.of("maxmean"), RUNS, 5, 4, ORACLE) == expected[:5]
    assert choose(Strategy.of("maxmean"), RUNS, 5, 4, lambda doc: ORACLE.get(doc, 0)) == expected[:5]


def test_choose_for_maxmean_is_repeated_batches_of_one():
    judged: dict[str, int] = {}
    while batch := maxmean_next_batch(RUNS, judged, 1, 4):
        judged[batch[0]] = ORACLE.get(batch[0], 0)
    assert list(judged) == choose(Strategy.of("maxmean"), RUNS, None, 4, ORACLE)


def test_a_batch_advances_without_observing_unjudged_documents():
    # Nothing judged: run 1 keeps 1/2 and wins every tie; b, its second, is taken, then c, d.
    assert maxmean_next_batch(RUNS, {}, 3, 4) == ["a", "b", "c"]
    # a judged 0: run 1 falls to 1/3. Run 2 (1/2): b, e (no observation: still 1/2), then a (judged: free,
    # 0 -> 1/3). Run 3 (1/2): g, then a (free, 0 -> 1/3). All three at 1/3: run 1: b is in the batch (passed
    # without observation), then c fills the batch.
    assert maxmean_next_batch(RUNS, {"a": 0}, 4, 4) == ["b", "e", "g", "c"]
    # Nothing judged, room for all: run 1's four; run 2 passes b and a (in the batch) for e, f; run 3: g, h.
    assert maxmean_next_batch(RUNS, {}, 8, 4) == ["a", "b", "c", "d", "e", "f", "g", "h"]
    assert maxmean_next_batch(RUNS, dict.fromkeys("abcdefgh", 1), 5, 4) == []  # everything judged
    with pytest.raises(InputError, match="batch size must be a positive integer"):
        maxmean_next_batch(RUNS, {}, 0, 4)


def test_maxmean_needs_grades():
    with pytest.raises(InputError, match="maxmean\\(\\) is adaptive"):
        choose(Strategy.of("maxmean"), RUNS, 3, 4)
