"""The vectorised scorer against the plain-loop reference, and the invariants of NDCG.

Hypothesis writes small judgment and run files (scores that often tie, unjudged documents,
unanswered and unknown queries, duplicates), the real readers read them back, and
:func:`evaluate` must agree with ``reference.py`` query by query.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log2
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import Measure
from ndcg_desktop.domain.data import OrderKind, Qrels, Run, Source
from ndcg_desktop.domain.settings import (
    DuplicatePolicy,
    Gain,
    GradeScale,
    QuerySet,
    TiePolicy,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import Evaluation, evaluate
from tests.helpers import measure

from . import reference

# -1 is trec_eval's "pooled but not judged": a grade that earns no gain.
SCALE = GradeScale(-1, 3)
EXAMPLES = settings(deadline=None)  # how many: the hypothesis profile (tests/conftest.py)
TOLERANCE = 1e-12

# IDs over an alphabet whose string order is easy to get wrong ("10" < "9", "Z" < "a" < "é" in
# UTF-8 byte order, "#" as in chunk IDs), plus words a careless reader turns into missing values.
ids = st.one_of(
    # No ID starts with '#': such a TREC line is a comment (trec_eval 10.0); '#' inside an ID stays.
    st.text("aZ09é#._-", min_size=1, max_size=3).filter(lambda s: not s.startswith("#")),
    st.sampled_from(["NA", "null", "nan", "None", "1e3", "-0"]),
)
# Multiples of 0.5 in a narrow range: exact as text and in any float width, and they tie often.
scores = st.integers(-2, 4).map(lambda i: i / 2)


@dataclass
class Case:
    judgments: dict[str, dict[str, int]]  # query -> doc -> grade
    rows: list[tuple[str, str, float]]  # run lines in file order: (query, doc, score)

    def doc_ids(self) -> set[str]:
        return {d for universe in self.judgments.values() for d in universe} | {d for _, d, _ in self.rows}


@st.composite
def cases(draw: st.DrawFn, *, distinct_scores: bool = False) -> Case:
    docs = draw(st.lists(ids, min_size=1, max_size=8, unique=True))
    strangers = [d for d in draw(st.lists(ids, max_size=3, unique=True)) if d not in docs]  # judged for no query
    queries = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    judgments = {}
    for query in queries:
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True))
        judgments[query] = {doc: draw(st.integers(SCALE.low, SCALE.high)) for doc in judged}
    unknown = [q for q in draw(st.lists(ids, max_size=1)) if q not in judgments]
    answered = draw(st.lists(st.sampled_from(queries + unknown), min_size=1, unique=True))
    rows = []
    for query in answered:
        # Not unique: the same document may come back twice (rule 5), and a document judged
        # for another query is unjudged for this one (rule 6).
        returned = draw(st.lists(st.sampled_from(docs + strangers), min_size=1, max_size=10))
        if distinct_scores:
            given_scores = [float(s) for s in draw(st.permutations(range(len(returned))))]
        else:
            given_scores = [draw(scores) for _ in returned]
        rows += [(query, doc, score) for doc, score in zip(returned, given_scores, strict=True)]
    return Case(judgments, draw(st.permutations(rows)))


@dataclass(frozen=True)
class Scoring:
    """What a property scores with: the settings and the cut-off K, which travels apart from them."""

    settings: Measure
    k: int

    def __getattr__(self, name: str) -> object:  # a policy or a data term, by its name
        settings = self.settings
        return getattr(settings.policies if hasattr(settings.policies, name) else settings.terms, name)


def eval_settings(**fixed: object) -> st.SearchStrategy[Scoring]:
    options = {
        "k": st.integers(1, 6),
        "gain": st.sampled_from(list(Gain)),
        "unjudged": st.sampled_from([UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE]),
        "duplicates": st.just(DuplicatePolicy.FIRST),
        "zero_idcg": st.sampled_from(list(ZeroIdcgPolicy)),
        "queries": st.sampled_from(list(QuerySet)),
        "unknown_queries": st.just(UnknownQueryPolicy.IGNORE),
        "ties": st.sampled_from(list(TiePolicy)),
        "scale": st.just(SCALE),
    }
    options.update({name: st.just(value) for name, value in fixed.items()})
    return st.builds(lambda k, **chosen: Scoring(measure(**chosen), k), **options)


def in_memory(case: Case) -> tuple[Qrels, Run]:
    """The case as a reader would give it, built without a file: most properties are about scoring.

    test_files_read_back_to_the_same_scores holds this to what the readers give for the same case
    written as TREC files, so the properties below cannot drift from the real input path.
    """
    judged = [(q, d, g) for q, universe in case.judgments.items() for d, g in universe.items()]
    frame = pd.DataFrame(
        {
            "query_id": [q for q, _, _ in judged],
            "doc_id": [d for _, d, _ in judged],
            "grade": np.array([g for _, _, g in judged], dtype=np.int64),
            "line": np.arange(1, len(judged) + 1, dtype=np.int64),
        }
    )
    qrels = Qrels(frame, Source("case.qrels", "0" * 64, "trec"))
    queries = list(dict.fromkeys(q for q, _, _ in case.rows))
    docs = list(dict.fromkeys(d for _, d, _ in case.rows))
    run = Run(
        pa.array(queries, pa.string()),
        pa.array(docs, pa.string()),
        np.array([queries.index(q) for q, _, _ in case.rows], dtype=np.int32),
        np.array([docs.index(d) for _, d, _ in case.rows], dtype=np.int32),
        np.array([score for _, _, score in case.rows], dtype=np.float64),
        None,
        OrderKind.SCORE,
        Source("case.run", "0" * 64, "trec"),
    )
    return qrels, run


def score(case: Case, eval_settings: Scoring) -> Evaluation:
    return evaluate(*in_memory(case), eval_settings.settings, eval_settings.k)


def write_trec(folder: Path, case: Case) -> tuple[Path, Path]:
    qrels_path, run_path = folder / "case.qrels", folder / "case.run"
    qrels_path.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, universe in case.judgments.items() for d, g in universe.items()),
        encoding="utf-8",
    )
    run_path.write_text(
        "".join(f"{q} Q0 {d} {rank} {score!r} hypothesis\n" for rank, (q, d, score) in enumerate(case.rows, 1)),
        encoding="utf-8",
    )
    return qrels_path, run_path


def by_query(evaluation: Evaluation) -> dict[str, dict]:
    return {row["query_id"]: row for row in evaluation.per_query.to_dict("records")}


def score_reference(case: Case, s: Scoring) -> dict[str, reference.QueryScore]:
    return reference.evaluate_reference(
        case.judgments,
        case.rows,
        k=s.k,
        gain_kind=s.gain.value,
        unjudged=s.unjudged.value,
        ties=s.ties.value,
        queries=s.queries.value,
    )


# --- agreement with the reference --------------------------------------------------------


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_per_query_scores_match_the_reference(case: Case, eval_settings: Scoring) -> None:
    evaluation = score(case, eval_settings)
    got = by_query(evaluation)
    want = score_reference(case, eval_settings)
    assert set(got) == set(want)
    for query, expected in want.items():
        row = got[query]
        for column in ("ndcg", "dcg", "idcg", "candidate_ndcg", "tie_averaged_ndcg"):
            assert row[column] == pytest.approx(getattr(expected, column), abs=TOLERANCE), (query, column)
        for column in ("unjudged_in_top_k", "relevant_missed", "tie_at_k", "no_ranking", "zero_idcg"):
            assert row[column] == getattr(expected, column), (query, column)
        excluded = expected.zero_idcg and eval_settings.zero_idcg is ZeroIdcgPolicy.EXCLUDE
        assert (row["excluded"], row["in_mean"]) == (excluded, not excluded), query

    summary = evaluation.summary
    policy = eval_settings.zero_idcg.value
    assert summary["mean_ndcg"] == pytest.approx(reference.mean_ndcg(want, policy), abs=TOLERANCE)
    assert summary["pooled_ndcg"] == pytest.approx(reference.pooled_ndcg(want, policy), abs=TOLERANCE)
    assert summary["queries_total"] == len(want)
    assert summary["zero_idcg"] == sum(s.zero_idcg for s in want.values())
    assert summary["no_ranking"] == sum(s.no_ranking for s in want.values())


# --- invariants --------------------------------------------------------------------------


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_ndcg_lies_between_zero_and_one(case: Case, eval_settings: Scoring) -> None:
    frame = score(case, eval_settings).per_query
    for column in ("ndcg", "candidate_ndcg", "tie_averaged_ndcg"):
        assert frame[column].between(0.0, 1.0).all(), frame[["query_id", column]]


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_the_ideal_ordering_scores_exactly_one(case: Case, eval_settings: Scoring) -> None:
    # Every query returns its whole universe with score = grade (equal grades tie, which cannot
    # matter), followed by documents it never judged.
    strangers = sorted(case.doc_ids())
    rows = []
    for query, universe in case.judgments.items():
        rows += [(query, doc, float(grade)) for doc, grade in universe.items()]
        rows += [(query, doc, -5.0) for doc in strangers if doc not in universe]
    for query, row in by_query(score(Case(case.judgments, rows), eval_settings)).items():
        if row["idcg"] > 0:
            assert row["ndcg"] == 1.0, query
            assert row["candidate_ndcg"] == 1.0, query
            assert row["tie_averaged_ndcg"] == pytest.approx(1.0, abs=TOLERANCE), query
        else:
            assert row["zero_idcg"] and row["ndcg"] == 0.0, query


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_sorting_a_ranking_by_grade_never_lowers_its_score(case: Case, eval_settings: Scoring) -> None:
    before = by_query(score(case, eval_settings))
    rows = [row for row in case.rows if row[0] not in case.judgments]  # unknown queries, unchanged
    for query, expected in score_reference(case, eval_settings).items():
        universe = case.judgments[query]
        # The same documents as the scored ranking, stably sorted by gain (unjudged: none).
        by_grade = sorted(expected.ranked, key=lambda d: -reference.gain(universe.get(d, 0), eval_settings.gain.value))
        rows += [(query, doc, float(len(by_grade) - i)) for i, doc in enumerate(by_grade)]
    after = by_query(score(Case(case.judgments, rows), eval_settings))
    assert set(after) == set(before)
    for query in before:
        assert after[query]["ndcg"] >= before[query]["ndcg"] - TOLERANCE, query


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_candidate_ndcg_is_never_below_ndcg(case: Case, eval_settings: Scoring) -> None:
    # The candidates' ideal can only be smaller than the universe's (rule 1's classic error
    # inflates scores, never deflates them).
    frame = score(case, eval_settings).per_query
    assert (frame["candidate_ndcg"] >= frame["ndcg"] - TOLERANCE).all(), frame[["query_id", "ndcg", "candidate_ndcg"]]


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings(unjudged=UnjudgedPolicy.ZERO), data=st.data())
def test_adding_an_unjudged_document_never_raises_the_score(
    case: Case, eval_settings: Scoring, data: st.DataObject
) -> None:
    query = data.draw(st.sampled_from(sorted(case.judgments)), label="query")
    returned = {d for q, d, _ in case.rows if q == query}
    choices = sorted(
        d for d in case.doc_ids() | {"never-judged"} if d not in case.judgments[query] and d not in returned
    )
    doc = data.draw(st.sampled_from(choices), label="unjudged document")
    at = data.draw(st.integers(0, len(case.rows)), label="line")
    rows = case.rows[:at] + [(query, doc, data.draw(scores, label="score"))] + case.rows[at:]

    before = by_query(score(case, eval_settings))
    after = by_query(score(Case(case.judgments, rows), eval_settings))
    for q in before:
        assert after[q]["ndcg"] <= before[q]["ndcg"] + TOLERANCE, q
        assert after[q]["tie_averaged_ndcg"] <= before[q]["tie_averaged_ndcg"] + TOLERANCE, q


@EXAMPLES
@given(case=cases(distinct_scores=True), eval_settings=eval_settings())
def test_tie_averaged_ndcg_equals_ndcg_without_ties(case: Case, eval_settings: Scoring) -> None:
    frame = score(case, eval_settings).per_query
    assert not frame["tie_at_k"].any()
    assert frame["tie_averaged_ndcg"].to_list() == pytest.approx(frame["ndcg"].to_list(), abs=TOLERANCE)


# --- the reference itself, on the contract's worked examples ------------------------------

UNIVERSE = {"A": 3, "B": 2, "C": 1, "D": 0}


@pytest.mark.parametrize(
    ("ranking", "k", "expected"),
    [
        # Rule 1: IDCG from the universe, not from {B, C}.
        (["B", "C"], 2, (2 / log2(2) + 1 / log2(3)) / (3 / log2(2) + 2 / log2(3))),
        # Rule 3: short rankings are not padded.
        (["B"], 1, 2 / 3),
        (["A", "B"], 2, 1.0),
        (["D"], 2, 0.0),
        (["C", "B"], 2, (1 / log2(2) + 2 / log2(3)) / (3 / log2(2) + 2 / log2(3))),
        # Rule 4: K beyond the universe; the ideal uses the documents that exist.
        (["A", "C", "B"], 10, (3 / log2(2) + 1 / log2(3) + 2 / log2(4)) / (3 / log2(2) + 2 / log2(3) + 1 / log2(4))),
    ],
)
def test_reference_and_scorer_reproduce_the_contract_examples(ranking: list[str], k: int, expected: float) -> None:
    rows = [("q1", doc, float(len(ranking) - i)) for i, doc in enumerate(ranking)]
    case = Case({"q1": UNIVERSE}, rows)
    eval_settings = Scoring(measure(scale=SCALE), k)
    assert score_reference(case, eval_settings)["q1"].ndcg == pytest.approx(expected, abs=TOLERANCE)
    assert by_query(score(case, eval_settings))["q1"]["ndcg"] == pytest.approx(expected, abs=TOLERANCE)


def test_an_unanswered_query_scores_zero_and_is_flagged() -> None:
    case = Case({"q1": UNIVERSE, "q2": UNIVERSE}, [("q1", "A", 1.0)])
    eval_settings = Scoring(measure(scale=SCALE), 1)
    assert score_reference(case, eval_settings)["q2"].ndcg == 0.0
    row = by_query(score(case, eval_settings))["q2"]
    assert (row["ndcg"], row["no_ranking"]) == (0.0, True)


def test_exponential_gain() -> None:
    case = Case({"q1": UNIVERSE}, [("q1", "B", 2.0), ("q1", "C", 1.0)])
    eval_settings = Scoring(measure(gain=Gain.EXPONENTIAL, scale=SCALE), 2)
    expected = ((2**2 - 1) / log2(2) + (2**1 - 1) / log2(3)) / ((2**3 - 1) / log2(2) + (2**2 - 1) / log2(3))
    assert score_reference(case, eval_settings)["q1"].ndcg == pytest.approx(expected, abs=TOLERANCE)
    assert by_query(score(case, eval_settings))["q1"]["ndcg"] == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.parametrize(
    ("unjudged", "expected"),
    [
        (UnjudgedPolicy.ZERO, 3 / log2(3) / (3 / log2(2) + 2 / log2(3))),  # X keeps position 1
        (UnjudgedPolicy.CONDENSE, 1.0),  # X removed, B moves up
    ],
)
def test_unjudged_policies(unjudged: UnjudgedPolicy, expected: float) -> None:
    case = Case({"q1": {"A": 2, "B": 3}}, [("q1", "X", 3.0), ("q1", "B", 2.0), ("q1", "A", 1.0)])
    eval_settings = Scoring(measure(unjudged=unjudged, scale=SCALE), 2)
    assert score_reference(case, eval_settings)["q1"].ndcg == pytest.approx(expected, abs=TOLERANCE)
    row = by_query(score(case, eval_settings))["q1"]
    assert row["ndcg"] == pytest.approx(expected, abs=TOLERANCE)
    assert row["unjudged_in_top_k"] == 1  # reported under either policy


def test_a_duplicate_earns_gain_once() -> None:
    case = Case({"q1": UNIVERSE}, [("q1", "B", 3.0), ("q1", "B", 2.0), ("q1", "C", 1.0)])
    eval_settings = Scoring(measure(duplicates=DuplicatePolicy.FIRST, scale=SCALE), 2)
    expected = (2 / log2(2) + 1 / log2(3)) / (3 / log2(2) + 2 / log2(3))
    assert score_reference(case, eval_settings)["q1"].ndcg == pytest.approx(expected, abs=TOLERANCE)
    assert by_query(score(case, eval_settings))["q1"]["ndcg"] == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        (TiePolicy.DOCID_DESC, 1 / 3),  # trec_eval: "C" before "B"
        (TiePolicy.DOCID_ASC, 2 / 3),
        (TiePolicy.FILE_ORDER, 2 / 3),  # "B" is on the first line
    ],
)
def test_tie_policies_and_the_tie_averaged_score(ties: TiePolicy, expected: float) -> None:
    case = Case({"q1": UNIVERSE}, [("q1", "B", 1.0), ("q1", "C", 1.0)])
    eval_settings = Scoring(measure(ties=ties, scale=SCALE), 1)
    tie_averaged = (2 + 1) / 2 / log2(2) / (3 / log2(2))
    want = score_reference(case, eval_settings)["q1"]
    row = by_query(score(case, eval_settings))["q1"]
    assert want.ndcg == pytest.approx(expected, abs=TOLERANCE)
    assert row["ndcg"] == pytest.approx(expected, abs=TOLERANCE)
    assert want.tie_averaged_ndcg == pytest.approx(tie_averaged, abs=TOLERANCE)
    assert row["tie_averaged_ndcg"] == pytest.approx(tie_averaged, abs=TOLERANCE)
    assert want.tie_at_k and row["tie_at_k"]


@pytest.mark.parametrize(
    ("zero_idcg", "mean"),
    [(ZeroIdcgPolicy.KEEP, (1.0 + 0.0) / 2), (ZeroIdcgPolicy.EXCLUDE, 1.0)],
)
def test_zero_idcg_queries_in_the_mean(zero_idcg: ZeroIdcgPolicy, mean: float) -> None:
    # Rule 7: one query scoring 1.0 plus one query without any relevant document.
    case = Case({"q1": {"A": 3}, "q2": {"B": 0}}, [("q1", "A", 1.0), ("q2", "B", 1.0)])
    eval_settings = Scoring(measure(zero_idcg=zero_idcg, scale=SCALE), 1)
    assert reference.mean_ndcg(score_reference(case, eval_settings), zero_idcg.value) == mean
    summary = score(case, eval_settings).summary
    assert (summary["mean_ndcg"], summary["zero_idcg"]) == (mean, 1)


def test_macro_mean_and_pooled_ratio_differ() -> None:
    # Rule 8: queries scoring 3/3 and 0/1.
    case = Case({"q1": {"A": 3}, "q2": {"B": 1}}, [("q1", "A", 1.0), ("q2", "X", 1.0)])
    eval_settings = Scoring(measure(unjudged=UnjudgedPolicy.ZERO, scale=SCALE), 1)
    want = score_reference(case, eval_settings)
    summary = score(case, eval_settings).summary
    assert reference.mean_ndcg(want) == summary["mean_ndcg"] == (3 / 3 + 0 / 1) / 2
    assert reference.pooled_ndcg(want) == summary["pooled_ndcg"] == (3 + 0) / (3 + 1)


# --- the one property through files ---------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module-scoped: hypothesis reruns a test body many times, which a function-scoped
    # tmp_path would not follow. Every example overwrites the same files.
    return tmp_path_factory.mktemp("properties")


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_files_read_back_to_the_same_scores(folder: Path, case: Case, eval_settings: Scoring) -> None:
    qrels_path, run_path = write_trec(folder, case)
    qrels = read_qrels(qrels_path, scale=SCALE)
    from_files = evaluate(qrels, read_run(run_path), eval_settings.settings, eval_settings.k)
    from_memory = score(case, eval_settings)
    columns = [c for c in from_memory.per_query.columns]
    assert from_files.per_query[columns].to_dict("records") == from_memory.per_query.to_dict("records")
    assert from_files.summary == from_memory.summary


@settings(max_examples=400, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 6) | st.integers(7, 30), min_size=1, max_size=12),
    values=st.data(),
    step=st.integers(1, 14),
)
def test_the_repeat_search_finds_a_repeat_exactly_when_a_group_has_one(lengths, values, step) -> None:
    """Groups of one length (a matrix already), of mixed lengths (padded matrix rows, in blocks of about ``step``
    rows) and over twice the median length (sorted in pieces): a repeat is found exactly when a group holds one."""
    from ndcg_desktop.scoring.judged import any_repeat

    groups = np.repeat(np.arange(len(lengths)), lengths)
    drawn = values.draw(st.lists(st.integers(0, 40), min_size=len(groups), max_size=len(groups)))
    pair = (groups.astype(np.uint64) << np.uint64(32)) | np.array(drawn, dtype=np.uint64)  # as pair_keys composes
    ends = np.cumsum(lengths).tolist()
    expected = any(len(set(drawn[a:b])) < b - a for a, b in zip([0, *ends[:-1]], ends, strict=True))
    assert any_repeat(groups, pair, step) == expected
