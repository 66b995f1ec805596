"""The evaluation contract (docs/evaluation-contract.md), rule by rule, with its worked numbers written as formulas."""

from __future__ import annotations

from math import log2

import pytest

from ndcg_desktop.domain import Cutoffs, DataTerms, InputError, Measure
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from tests.helpers import measure

UNIVERSE = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\n"


@pytest.fixture
def score(write):
    """score(qrels_text, run, **settings) -> Evaluation; run is a JSONL-style dict or TREC text."""

    def _score(qrels_text: str, run: dict[str, list[str]] | str, **settings):
        qrels = read_qrels(write("qrels.txt", qrels_text), scale=settings.get("scale", DataTerms().scale))
        if isinstance(run, dict):
            import json

            text = "".join(json.dumps({"query_id": q, "doc_ids": docs}) + "\n" for q, docs in run.items())
            path = write("run.jsonl", text)
        else:
            path = write("run.txt", run)
        k = settings.pop("k", 10)
        return evaluate(qrels, read_run(path), measure(**settings), k)

    return _score


def ndcg_of(evaluation, query="q1"):
    table = evaluation.per_query.set_index("query_id")
    return table.loc[query, "ndcg"]


# Rule 1: the ideal comes from the fixed universe, never from the returned candidates.
def test_rule1_fixed_universe_worked_example(score):
    e = score(UNIVERSE, {"q1": ["B", "C"]}, k=2)
    row = e.per_query.iloc[0]
    dcg = 2 / log2(2) + 1 / log2(3)
    idcg = 3 / log2(2) + 2 / log2(3)
    assert row["dcg"] == pytest.approx(dcg, abs=1e-12)
    assert row["idcg"] == pytest.approx(idcg, abs=1e-12)
    assert row["ndcg"] == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(row["dcg"], 6) == 2.630930
    assert round(row["idcg"], 6) == 4.261860
    assert round(row["ndcg"], 6) == 0.617320
    # Candidate-only NDCG is reported beside it, as a diagnostic, and is 1.0 here.
    assert row["candidate_ndcg"] == 1.0
    assert e.summary["mean_ndcg"] == pytest.approx(dcg / idcg, abs=1e-12)


# Rule 2: linear gain by default, exponential 2^g - 1 on request.
def test_rule2_exponential_gain(score):
    e = score(UNIVERSE, {"q1": ["B", "C"]}, k=2, gain="exponential")
    dcg = (2**2 - 1) / log2(2) + (2**1 - 1) / log2(3)
    idcg = (2**3 - 1) / log2(2) + (2**2 - 1) / log2(3)
    assert ndcg_of(e) == pytest.approx(dcg / idcg, abs=1e-12)
    assert "exponential" in e.summary["settings"]
    assert e.manifest["settings"]["gain"] == "exponential"


# Rule 3: short rankings are not padded; the named cases.
@pytest.mark.parametrize(
    ("ranking", "k", "expected"),
    [
        (["B"], 1, 2 / 3),
        ([], 1, 0.0),
        (["A", "B"], 2, 1.0),
        (["D"], 1, 0.0),
        (["D"], 4, 0.0),
    ],
)
def test_rule3_short_rankings(score, ranking, k, expected):
    e = score(UNIVERSE, {"q1": ranking}, k=k)
    assert ndcg_of(e) == pytest.approx(expected, abs=1e-12)
    assert not e.per_query.iloc[0]["no_ranking"]  # an empty list is an answer, not a missing one


def test_rule3_ideal_ordering_scores_exactly_one(score):
    assert ndcg_of(score(UNIVERSE, {"q1": ["A", "B"]}, k=2)) == 1.0
    assert ndcg_of(score(UNIVERSE, {"q1": ["A", "B", "C", "D"]}, k=10)) == 1.0


def test_rule3_order_matters(score):
    assert ndcg_of(score(UNIVERSE, {"q1": ["C", "B"]}, k=2)) < ndcg_of(score(UNIVERSE, {"q1": ["B", "C"]}, k=2))


# Rule 4: K beyond the universe uses the documents that exist.
def test_rule4_k_beyond_universe(score):
    e = score(UNIVERSE, {"q1": ["B", "A", "C"]}, k=100)
    idcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    dcg = 2 / log2(2) + 3 / log2(3) + 1 / log2(4)
    assert e.per_query.iloc[0]["idcg"] == pytest.approx(idcg, abs=1e-12)
    assert ndcg_of(e) == pytest.approx(dcg / idcg, abs=1e-12)


# Rule 5: duplicates are an error by default; keep-first is explicit and cannot inflate gain.
def test_rule5_duplicate_rejected_with_file_and_line(score):
    with pytest.raises(InputError) as info:
        score(UNIVERSE, "q1 Q0 A 1 3 t\nq1 Q0 B 2 2 t\nq1 Q0 A 3 1 t\n", k=3)
    message = str(info.value)
    assert "run.txt:3:" in message and "document A" in message and "line 1" in message
    assert "--duplicates first" in message


def test_rule5_keep_first_never_exceeds_one(score):
    e = score(UNIVERSE, "q1 Q0 A 1 3 t\nq1 Q0 A 2 2 t\nq1 Q0 B 3 1 t\n", k=3, duplicates="first")
    dcg = 3 / log2(2) + 2 / log2(3)
    idcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    assert ndcg_of(e) == pytest.approx(dcg / idcg, abs=1e-12)
    assert e.summary["duplicates_removed"] == 1


# Rule 6: unjudged IDs need a policy; zero keeps the position, condense closes the gap.
def test_rule6_unjudged_rejected(score):
    with pytest.raises(InputError) as info:
        score(UNIVERSE, "q1 Q0 B 1 3 t\nq1 Q0 X 2 2 t\n", k=2)
    message = str(info.value)
    assert "run.txt:2: document X for query q1 is not in the judgment pool (unjudged" in message
    assert message.endswith("choose --unjudged zero|condense")


def test_rule6_zero_keeps_position(score):
    e = score(UNIVERSE, {"q1": ["X", "B"]}, k=2, unjudged="zero")
    dcg = 0 / log2(2) + 2 / log2(3)
    idcg = 3 / log2(2) + 2 / log2(3)
    assert ndcg_of(e) == pytest.approx(dcg / idcg, abs=1e-12)
    assert e.per_query.iloc[0]["unjudged_in_top_k"] == 1


def test_rule6_condense_closes_gaps(score):
    e = score(UNIVERSE, {"q1": ["X", "B", "Y", "C"]}, k=2, unjudged="condense")
    dcg = 2 / log2(2) + 1 / log2(3)
    idcg = 3 / log2(2) + 2 / log2(3)
    assert ndcg_of(e) == pytest.approx(dcg / idcg, abs=1e-12)
    # What the system showed in its top 2 is still reported.
    assert e.per_query.iloc[0]["unjudged_in_top_k"] == 1
    assert e.summary["unjudged_total"] == 2


# Rule 7: zero-IDCG queries score 0 and stay in the mean unless excluded.
ZERO_IDCG = UNIVERSE + "q2 0 E 0\n"


def test_rule7_zero_idcg_kept(score):
    e = score(ZERO_IDCG, {"q1": ["A", "B"], "q2": ["E"]}, k=2)
    assert e.summary["mean_ndcg"] == pytest.approx((1.0 + 0.0) / 2)
    assert (e.summary["queries_total"], e.summary["zero_idcg"], e.summary["excluded"]) == (2, 1, 0)


def test_rule7_zero_idcg_excluded(score):
    e = score(ZERO_IDCG, {"q1": ["A", "B"], "q2": ["E"]}, k=2, zero_idcg="exclude")
    assert e.summary["mean_ndcg"] == 1.0
    assert (e.summary["queries_total"], e.summary["queries_in_mean"], e.summary["excluded"]) == (2, 1, 1)


# Rule 8: macro mean is the headline; the pooled ratio is a different, labelled number.
def test_rule8_macro_mean_and_pooled_ratio(score):
    qrels = "q1 0 A 3\nq2 0 B 1\n"
    e = score(qrels, {"q1": ["A"], "q2": ["X"]}, k=1, unjudged="zero")
    assert e.summary["mean_ndcg"] == pytest.approx((3 / 3 + 0 / 1) / 2)
    assert e.summary["pooled_ndcg"] == pytest.approx((3 + 0) / (3 + 1))


# Rule 9: every pool query counts by default; unknown run queries are an error.
def test_rule9_unanswered_query_scores_zero_and_is_flagged(score):
    e = score(ZERO_IDCG.replace("q2 0 E 0", "q2 0 E 2"), {"q1": ["A", "B"]}, k=2)
    table = e.per_query.set_index("query_id")
    assert table.loc["q2", "no_ranking"] and table.loc["q2", "ndcg"] == 0.0
    assert e.summary["mean_ndcg"] == pytest.approx(0.5)
    assert e.summary["no_ranking"] == 1


def test_rule9_only_answered_queries_reports_dropped(score):
    e = score(ZERO_IDCG.replace("q2 0 E 0", "q2 0 E 2"), {"q1": ["A", "B"]}, k=2, queries="run")
    assert e.summary["mean_ndcg"] == 1.0
    assert e.summary["dropped_unanswered"] == 1 and e.dropped_queries == ["q2"]


def test_rule9_unknown_query_rejected_then_ignored_and_listed(score):
    run = "q1 Q0 A 1 2 t\nq9 Q0 A 1 2 t\n"
    with pytest.raises(InputError) as info:
        score(UNIVERSE, run, k=1)
    assert "run.txt:2:" in str(info.value) and "query q9" in str(info.value)
    assert "--unknown-queries ignore" in str(info.value)
    e = score(UNIVERSE, run, k=1, unknown_queries="ignore")
    assert e.unknown_queries == ["q9"] and e.summary["unknown_queries_ignored"] == 1
    assert e.manifest["unknown_queries_ignored"] == ["q9"]


# Rule 10: ties by a named policy; trec_eval's default is doc ID descending.
TIED = "q1 Q0 C 1 5 t\nq1 Q0 A 2 5 t\nq1 Q0 B 3 1 t\n"  # A and C tie on score 5


def test_rule10_default_docid_descending(score):
    e = score(UNIVERSE, TIED, k=1)
    assert e.per_position.iloc[0]["doc_id"] == "C"  # "C" > "A"
    assert ndcg_of(e) == pytest.approx(1 / 3)


def test_rule10_scores_compare_in_double_precision_as_trec_eval_10(score):
    """1.00000001 is above 1.0 (trec_eval 10.0 gives nDCG@1 0.0000 on these files); pytrec_eval, in single
    precision, takes them for a tie and puts B first: a known difference, pinned so that a change shows."""
    import pytrec_eval

    e = score("q1 0 A 0\nq1 0 B 3\n", "q1 Q0 A 1 1.00000001 r\nq1 Q0 B 2 1.0 r\n", k=1)
    assert e.per_position.iloc[0]["doc_id"] == "A" and ndcg_of(e) == 0.0 and not e.per_query.iloc[0]["tie_at_k"]
    peer = pytrec_eval.RelevanceEvaluator({"q1": {"A": 0, "B": 3}}, {"ndcg_cut.1"})
    assert peer.evaluate({"q1": {"A": 1.00000001, "B": 1.0}})["q1"]["ndcg_cut_1"] == 1.0


def test_rule10_policies_change_the_order(score):
    assert ndcg_of(score(UNIVERSE, TIED, k=1, ties="docid-asc")) == 1.0
    assert ndcg_of(score(UNIVERSE, TIED, k=1, ties="file-order")) == pytest.approx(1 / 3)


def test_rule10_tie_at_k_flagged_with_tie_averaged_value(score):
    e = score(UNIVERSE, TIED, k=1)
    row = e.per_query.iloc[0]
    assert row["tie_at_k"]
    # A and C share positions 1-2; at K=1 each earns its mean gain (3+1)/2 at position 1.
    assert row["tie_averaged_ndcg"] == pytest.approx(((3 + 1) / 2) / 3)
    assert e.summary["ties_at_k"] == 1
    # With K=2 the tie no longer straddles K.
    assert not score(UNIVERSE, TIED, k=2).per_query.iloc[0]["tie_at_k"]


def test_rule10_docid_comparison_is_plain_string_order(score):
    qrels = "q1 0 d10 1\nq1 0 d9 3\n"
    e = score(qrels, "q1 Q0 d10 1 1 t\nq1 Q0 d9 2 1 t\n", k=1)
    assert e.per_position.iloc[0]["doc_id"] == "d9"  # "d9" > "d10" as strings


# Rule 11: chunk IDs map to documents; repeated parents become duplicates.
def test_rule11_chunk_mapping(score):
    run = "q1 Q0 B#1 1 3 t\nq1 Q0 B#2 2 2 t\nq1 Q0 A#7 3 1 t\n"
    with pytest.raises(InputError) as info:
        score(UNIVERSE, run, k=2, id_map="#")
    assert "run.txt:2:" in str(info.value) and "B (from B#2)" in str(info.value)
    e = score(UNIVERSE, run, k=2, id_map="#", duplicates="first")
    assert ndcg_of(e) == pytest.approx((2 / log2(2) + 3 / log2(3)) / (3 / log2(2) + 2 / log2(3)), abs=1e-12)
    assert list(e.per_position["returned_id"]) == ["B#1", "A#7"]


# Rule 12: K positive; grades integral and inside the scale.
@pytest.mark.parametrize("k", [0, -1, 1.5, "3", True])
def test_rule12_k_must_be_positive_integer(k):
    with pytest.raises(InputError, match="positive integer"):
        Cutoffs((k,))


def test_rule12_grade_outside_scale(write):
    with pytest.raises(InputError) as info:
        read_qrels(write("q.txt", "q1 0 A 1\nq1 0 B 4\n"))
    assert "q.txt:2: grade 4 is outside the scale 0..3" in str(info.value)


def test_rule12_ids_compared_exactly(score):
    e = score("q1 0 a 1\n", {"q1": ["A"]}, k=1, unjudged="zero")
    assert ndcg_of(e) == 0.0


# Rule 13: the manifest carries everything needed to reproduce and prove the figure.
def test_rule13_manifest(score):
    e = score(UNIVERSE, {"q1": ["B", "C"]}, k=2, unjudged="zero")
    m = e.manifest
    assert len(m["judgments"]["sha256"]) == 64 and len(m["run"]["sha256"]) == 64
    s = m["settings"]
    for key in ("k", "gain", "discount", "ties", "unjudged", "duplicates", "zero_idcg", "queries", "scale"):
        assert key in s
    assert s["k"] == 2 and s["unjudged"] == "zero" and s["discount"] == "log2"
    assert Measure.parse(s["text"]) == (measure(unjudged="zero"), 2)
    assert m["version"] and m["counts"]["queries_total"] == 1
