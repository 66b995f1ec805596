"""The judgments' side of scoring: the ideal DCG from grade counts, and judgments ruled out by key.

Both replace work over every judgment (a 10M-line qrels file against a small run): the ideal is
built from each query's grade counts instead of sorting every judgment, and a table of bits over
the run's document keys rules out the judgment rows no returned document can match before any of
their text is looked at. Each is held here to what it replaced, to the last bit, and to trec_eval.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from math import log2
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain import Measure
from ndcg_desktop.domain.data import JudgmentColumns, Qrels, Run, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import Gain, GradeScale, UnjudgedPolicy, UnknownQueryPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import Evaluation, evaluate
from ndcg_desktop.scoring import ndcg as ndcg_module
from ndcg_desktop.scoring.dcg import _ideal_dcg, _sum_top_k, gain_values
from ndcg_desktop.scoring.judged import id_keys
from tests.helpers import measure

from .test_properties import Case, cases, eval_settings, in_memory, write_trec
from .test_trec_eval_agreement import CUTOFFS, assert_agree, trec_cases, trec_settings

EXAMPLES = settings(deadline=None)  # how many: the hypothesis profile (tests/conftest.py)


@contextmanager
def ruling_out(on: bool) -> Iterator[None]:
    """Judgments ruled out by key always (``on``) or never, whatever their number."""
    least, ratio = (0, 0) if on else (1 << 62, 1 << 62)
    with mock.patch.object(ndcg_module, "FILTER_LEAST", least), mock.patch.object(ndcg_module, "FILTER_RATIO", ratio):
        yield


@contextmanager
def recorded() -> Iterator[list[np.ndarray | None]]:
    """What each call of the ruling-out step returned (None: it did not pay, nothing ruled out)."""
    results: list[np.ndarray | None] = []
    real = ndcg_module._maybe_returned

    def record(*args: object) -> np.ndarray | None:
        results.append(real(*args))  # type: ignore[arg-type]
        return results[-1]

    with mock.patch.object(ndcg_module, "_maybe_returned", record):
        yield results


def assert_same_evaluation(a: Evaluation, b: Evaluation) -> None:
    pd.testing.assert_frame_equal(a.per_query, b.per_query, check_exact=True)
    pd.testing.assert_frame_equal(a.per_position, b.per_position, check_exact=True)
    assert a.summary == b.summary
    assert (a.unknown_queries, a.dropped_queries) == (b.unknown_queries, b.dropped_queries)


def both_ways(qrels: Qrels, run: Run, eval_settings: Measure, k: int) -> Evaluation:
    """Scored at ``k`` with judgments ruled out by key and without: the same evaluation, to the last bit."""
    with ruling_out(True), recorded() as results:
        filtered = evaluate(qrels, run, eval_settings, k)
    assert len(results) >= 1 and all(r is not None for r in results)
    with ruling_out(False), recorded() as results:
        plain = evaluate(qrels, run, eval_settings, k)
    assert len(results) >= 1 and all(r is None for r in results)
    assert_same_evaluation(filtered, plain)
    return filtered


# --- the ideal DCG from grade counts -----------------------------------------------------------


def sorted_ideal(groups: np.ndarray, grades: np.ndarray, gain: Gain, k: int, n: int) -> np.ndarray:
    """The ideal DCG@k as it was computed before: every positive gain sorted within its group (``_sum_top_k``)."""
    return _sum_top_k(groups, gain_values(grades, gain), k, n)


@EXAMPLES
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(-2, 5)), max_size=60),
    st.integers(1, 12),
    st.sampled_from(list(Gain)),
)
def test_ideal_dcg_from_grade_counts_is_the_sorted_one_exactly(judgments, k, gain) -> None:  # noqa: ANN001
    groups = np.array([g for g, _ in judgments], dtype=np.int32)
    grades = np.array([r for _, r in judgments], dtype=np.int64)
    assert _ideal_dcg(groups, grades, gain, k, 7).tolist() == sorted_ideal(groups, grades, gain, k, 7).tolist()


def test_ideal_dcg_worked_example() -> None:
    """Rule 1's universe A=3, B=2, C=1, D=0 at K=2: IDCG = 3/log2(2) + 2/log2(3)."""
    idcg = _ideal_dcg(np.zeros(4, np.int32), np.array([1, 3, 0, 2]), Gain.LINEAR, 2, 1)
    assert idcg.tolist() == [3 / log2(2) + 2 / log2(3)]


def test_ideal_dcg_of_no_positive_grade_is_zero() -> None:
    """Grades at or below zero (trec_eval's -1 "pooled, not judged") earn nothing, so the ideal is 0."""
    assert _ideal_dcg(np.array([0, 1, 1], np.int32), np.array([0, -1, 0]), Gain.EXPONENTIAL, 3, 2).tolist() == [0, 0]
    assert _ideal_dcg(np.zeros(0, np.int32), np.zeros(0, np.int64), Gain.LINEAR, 3, 0).tolist() == []


def test_a_wide_scale_takes_the_sorting_path_with_the_same_result() -> None:
    groups = np.array([0, 0, 1, 1, 1], dtype=np.int32)
    grades = np.array([90, 3, 100, 1, 100], dtype=np.int64)
    n = 200_000  # n_groups x 100 grade columns passes the bound: sorted instead
    got = _ideal_dcg(groups, grades, Gain.LINEAR, 2, n)
    assert got.tolist() == sorted_ideal(groups, grades, Gain.LINEAR, 2, n).tolist()
    assert got[:2].tolist() == [90 / log2(2) + 3 / log2(3), 100 / log2(2) + 100 / log2(3)]


# --- judgments ruled out by key: every figure unchanged ------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("judgments")  # module-scoped: hypothesis reruns the test body


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_ruling_judgments_out_changes_no_figure_in_memory(case: Case, eval_settings: Measure) -> None:
    """Judgments built from a frame (no reader keys: computed) against a run with a dictionary of IDs."""
    both_ways(*in_memory(case), eval_settings.settings, eval_settings.k)


@EXAMPLES
@given(case=cases(), eval_settings=eval_settings())
def test_ruling_judgments_out_changes_no_figure_from_files(folder: Path, case: Case, eval_settings: Measure) -> None:
    """The readers' own columns: the qrels reader's keys, the run's IDs as read per row."""
    qrels_path, run_path = write_trec(folder, case)
    qrels = read_qrels(qrels_path, scale=eval_settings.scale)
    assert qrels.judgments.doc_keys is not None  # the reader hands its keys on
    both_ways(qrels, read_run(run_path), eval_settings.settings, eval_settings.k)


@EXAMPLES
@given(case=trec_cases())
def test_ruling_judgments_out_agrees_with_trec_eval(folder: Path, case: tuple[str, str]) -> None:
    qrels_path, run_path = folder / "trec.qrels", folder / "trec.run"
    qrels_path.write_text(case[0], encoding="utf-8")
    run_path.write_text(case[1], encoding="utf-8")
    with ruling_out(True):
        assert_agree(qrels_path, run_path, CUTOFFS, GradeScale(-1, 3))


@pytest.mark.parametrize("numeric", [False, True], ids=["string IDs", "numbered IDs"])
def test_a_large_qrels_file_against_a_small_run(tmp_path: Path, numeric: bool) -> None:
    """At its own size (70,000 judgments, 2,000 ranked rows) the step runs by itself; trec_eval agrees."""
    rng = np.random.default_rng(7)
    qrels_lines, run_lines = [], []
    for query in range(100):
        docs = rng.choice(10**6, 720, replace=False)
        names = [str(d) if numeric else f"D{d:07d}" for d in docs.tolist()]
        grades = rng.choice([-1, 0, 1, 2, 3], 700, p=[0.05, 0.5, 0.25, 0.15, 0.05])
        qrels_lines += [f"q{query} 0 {d} {g}\n" for d, g in zip(names[:700], grades.tolist(), strict=True)]
        shown = [names[i] for i in rng.choice(700, 15, replace=False)] + names[700:705]  # 5 never judged
        scores = rng.integers(0, 8, len(shown)) / 2  # ties
        run_lines += [f"q{query} Q0 {d} 0 {s!r} t\n" for d, s in zip(shown, scores.tolist(), strict=True)]
    run_lines.append("q100 Q0 D1 0 1.0 t\n")  # a query the judgments do not have
    qrels_path, run_path = tmp_path / "big.qrels", tmp_path / "small.run"
    qrels_path.write_text("".join(qrels_lines), encoding="utf-8")
    run_path.write_text("".join(run_lines), encoding="utf-8")
    scale = GradeScale(-1, 3)
    with recorded() as results:
        assert_agree(qrels_path, run_path, CUTOFFS, scale)
    assert len(results) == len(CUTOFFS)
    # 1,500 judged pairs returned pass, and about one judgment in 64 of the others (~1,070).
    assert all(r is not None and 1_500 <= len(r) < 4_000 for r in results), [
        None if r is None else len(r) for r in results
    ]
    both_ways(read_qrels(qrels_path, scale=scale), read_run(run_path), trec_settings(scale), 10)


# --- edge cases, with judgments ruled out by key ---------------------------------------------------

SCALE = GradeScale(-1, 3)


def trec_files(folder: Path, qrels: str, run: str) -> tuple[Qrels, Run]:
    (folder / "q.qrels").write_text(qrels, encoding="utf-8")
    (folder / "r.run").write_text(run, encoding="utf-8")
    return read_qrels(folder / "q.qrels", scale=SCALE), read_run(folder / "r.run")


def test_keys_that_collide_are_decided_by_the_text(tmp_path: Path) -> None:
    """Every judgment given the key of a returned document passes the table; the IDs still decide."""
    qrels, run = trec_files(tmp_path, "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq2 0 A 1\n", "q1 Q0 B 0 2 t\nq1 Q0 X 0 1 t\n")
    c = qrels.judgments
    same = np.full(len(c.q), id_keys(pa.array(["B"]))[0], dtype=np.uint64)
    colliding = Qrels(JudgmentColumns(c.queries, c.q, c.doc_ids, c.grade, c.line, doc_keys=same), qrels.source)
    s = measure(unjudged=UnjudgedPolicy.ZERO, scale=SCALE)
    row = both_ways(colliding, run, s, 2).per_query.set_index("query_id").loc["q1"]
    assert row["ndcg"] == (2 / log2(2)) / (3 / log2(2) + 2 / log2(3))
    assert (row["unjudged_total"], row["relevant_found"]) == (1, 1)


def test_no_judgments_at_all() -> None:
    empty = pa.array([], pa.string())
    qrels = Qrels(JudgmentColumns(empty, np.zeros(0, np.int32), empty, np.zeros(0, np.int64)), Source("e", "0", "pool"))
    _, run = in_memory(Case({"q1": {"A": 1}}, [("q1", "A", 1.0)]))
    s = measure(unjudged=UnjudgedPolicy.ZERO, unknown_queries=UnknownQueryPolicy.IGNORE, scale=SCALE)
    evaluation = both_ways(qrels, run, s, 3)
    assert evaluation.per_query.empty and evaluation.summary["mean_ndcg"] is None
    assert evaluation.unknown_queries == ["q1"]


def test_a_judged_query_the_run_never_answered(tmp_path: Path) -> None:
    """Its ideal comes from its grade counts alone: scored 0, flagged, its IDCG still reported."""
    qrels, run = trec_files(tmp_path, "q1 0 A 3\nq2 0 B 2\nq2 0 C 3\nq2 0 D 0\n", "q1 Q0 A 0 1 t\n")
    frame = both_ways(qrels, run, measure(scale=SCALE), 5).per_query.set_index("query_id")
    assert (frame.loc["q2", "ndcg"], frame.loc["q2", "no_ranking"]) == (0.0, True)
    assert frame.loc["q2", "idcg"] == 3 / log2(2) + 2 / log2(3)
    assert frame.loc["q2", "relevant_in_pool"] == 2
    assert frame.loc["q1", "ndcg"] == 1.0


def test_identical_repeated_judgments_keep_every_key_with_its_document(tmp_path: Path) -> None:
    """The reader drops a repeated line: the keys it hands on are those of the judgments kept, row for row."""
    qrels, run = trec_files(tmp_path, "q1 0 A 1\nq1 0 A 1\nq1 0 B 3\nq1 0 C 2\n", "q1 Q0 B 0 2 t\nq1 Q0 X 0 1 t\n")
    assert qrels.repeats == 1
    assert qrels.judgments.doc_keys.tolist() == id_keys(pa.array(["A", "B", "C"])).tolist()  # type: ignore[union-attr]
    s = measure(unjudged=UnjudgedPolicy.ZERO, scale=SCALE)
    row = both_ways(qrels, run, s, 2).per_query.iloc[0]
    assert row["ndcg"] == (3 / log2(2)) / (3 / log2(2) + 2 / log2(3))


def test_negative_grades_are_in_the_pool_not_judged(tmp_path: Path) -> None:
    """trec_eval's -1 ("in the pool, not judged", RELVALUE_UNJUDGED) is no judgment (issue 33; this test said
    "judged, earns nothing" before, which made ``--unjudged condense`` disagree with trec_eval -J): the returned
    A graded -1 is unjudged, so it is refused by default, earns nothing where it stands under ``zero``
    (trec_eval) and is removed under ``condense`` (trec_eval -J); it never enters the ideal."""
    qrels_text, run_text = "q1 0 A -1\nq1 0 B 2\nq1 0 C 0\n", "q1 Q0 A 0 2 t\nq1 Q0 B 0 1 t\n"
    qrels, run = trec_files(tmp_path, qrels_text, run_text)
    assert qrels.unjudged_in_pool == 1
    with pytest.raises(InputError, match=r"document A for query q1 is in the pool but not judged \(grade -1 at "):
        evaluate(qrels, run, measure(scale=SCALE), 2)
    pool = {"q1": {"A": -1, "B": 2, "C": 0}}
    ranked = {"q1": {"A": 2.0, "B": 1.0}}
    for gain in Gain:
        top = gain_values(np.array([2]), gain)[0]
        zero = both_ways(qrels, run, measure(gain=gain, unjudged=UnjudgedPolicy.ZERO, scale=SCALE), 2)
        row = zero.per_query.iloc[0]
        assert (row["dcg"], row["idcg"]) == pytest.approx((top / log2(3), top / log2(2)), abs=1e-12)
        assert (row["unjudged_total"], row["relevant_in_pool"], row["relevant_found"]) == (1, 1, 1)
        condensed = both_ways(qrels, run, measure(gain=gain, unjudged=UnjudgedPolicy.CONDENSE, scale=SCALE), 2)
        assert condensed.per_query.iloc[0]["ndcg"] == 1.0  # [B]: top / log2(2) over the same ideal
        assert zero.manifest["judgments"]["negative_grades_unjudged"] == 1
    for judged_only, ours in ((False, 1 / log2(3)), (True, 1.0)):  # trec_eval, and trec_eval -J
        measured = pytrec_eval.RelevanceEvaluator(pool, {"ndcg_cut.2"}, judged_docs_only_flag=judged_only)
        assert measured.evaluate(ranked)["q1"]["ndcg_cut_2"] == pytest.approx(ours, abs=1e-12)
