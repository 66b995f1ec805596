"""Agreement with trec_eval's own C code (``pytrec_eval``, measure ``ndcg_cut.K``).

trec_eval's conventions, which these settings name: linear gain, grades at or below zero earn
nothing, unjudged documents count as non-relevant where they stand (``unjudged=zero``), equal
scores ordered by document ID descending (``ties=docid-desc``), run queries without judgments
ignored. trec_eval reports only the queries a run answered; with ``-c`` (our ``queries=pool``)
the others score 0, which is checked separately. trec_eval cannot see duplicates (a run is a
dict per query), so the runs here have none.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import TextIO

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import (
    EvalSettings,
    GradeScale,
    QuerySet,
    TiePolicy,
    UnjudgedPolicy,
    UnknownQueryPolicy,
)
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from tests.helpers import measure

TOLERANCE = 1e-12


def trec_settings(scale: GradeScale) -> EvalSettings:
    return measure(
        unjudged=UnjudgedPolicy.ZERO,
        queries=QuerySet.POOL,
        unknown_queries=UnknownQueryPolicy.IGNORE,
        ties=TiePolicy.DOCID_DESC,
        scale=scale,
    )


def open_text(path: Path) -> TextIO:
    """A data file as text, plain or gzipped (tests/data keeps the large ones gzipped)."""
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def trec_eval(qrels_path: Path, run_path: Path, cutoffs: tuple[int, ...]) -> dict[int, dict[str, float]]:
    """{K: {query: ndcg_cut_K}} from trec_eval's C code, files parsed by pytrec_eval itself."""
    with open_text(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open_text(run_path) as f:
        run = pytrec_eval.parse_run(f)
    measure = "ndcg_cut." + ",".join(str(k) for k in cutoffs)
    results = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    return {k: {q: values[f"ndcg_cut_{k}"] for q, values in results.items()} for k in cutoffs}


def ours(qrels_path: Path, run_path: Path, cutoffs: tuple[int, ...], scale: GradeScale) -> dict[int, dict[str, dict]]:
    """{K: {query: per-query row}} from ndcg_desktop."""
    qrels, run = read_qrels(qrels_path, scale=scale), read_run(run_path)
    return {
        k: {row["query_id"]: row for row in evaluate(qrels, run, trec_settings(scale), k).per_query.to_dict("records")}
        for k in cutoffs
    }


def assert_agree(qrels_path: Path, run_path: Path, cutoffs: tuple[int, ...], scale: GradeScale) -> None:
    theirs = trec_eval(qrels_path, run_path, cutoffs)
    mine = ours(qrels_path, run_path, cutoffs, scale)
    for k in cutoffs:
        assert set(theirs[k]) <= set(mine[k])
        for query, row in mine[k].items():
            if query in theirs[k]:
                assert row["ndcg"] == pytest.approx(theirs[k][query], abs=TOLERANCE), (k, query)
                assert not row["no_ranking"], (k, query)
            else:
                # Unanswered: trec_eval -c would score it 0.
                assert (row["ndcg"], row["no_ranking"]) == (0.0, True), (k, query)


# --- hypothesis-generated runs --------------------------------------------------------------

SCALE = GradeScale(-1, 3)
CUTOFFS = (1, 2, 3, 5, 10)
ids = st.one_of(
    # No ID starts with '#': such a TREC line is a comment (trec_eval 10.0); '#' inside an ID stays.
    st.text("aZ09é#._-", min_size=1, max_size=3).filter(lambda s: not s.startswith("#")),
    st.sampled_from(["NA", "null", "nan", "1e3"]),
)
# trec_eval keeps scores as C floats (trec_format.h: `float sim`), we keep doubles; multiples
# of 0.5 are exact in both, so only the tie-breaking rule decides ties.
scores = st.integers(-2, 4).map(lambda i: i / 2)


@st.composite
def trec_cases(draw: st.DrawFn) -> tuple[str, str]:
    """(qrels text, run text): many ties, unjudged documents, unanswered and unknown queries."""
    docs = draw(st.lists(ids, min_size=1, max_size=10, unique=True))
    strangers = [d for d in draw(st.lists(ids, max_size=3, unique=True)) if d not in docs]
    queries = draw(st.lists(ids, min_size=1, max_size=5, unique=True))
    qrels_lines = []
    for query in queries:
        for doc in draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True)):
            qrels_lines.append(f"{query} 0 {doc} {draw(st.integers(SCALE.low, SCALE.high))}\n")
    unknown = [q for q in draw(st.lists(ids, max_size=1)) if q not in queries]
    run_lines = []
    for query in draw(st.lists(st.sampled_from(queries + unknown), min_size=1, unique=True)):
        returned = draw(st.lists(st.sampled_from(docs + strangers), min_size=1, max_size=12, unique=True))
        run_lines += [f"{query} Q0 {doc} 0 {draw(scores)!r} hypothesis\n" for doc in returned]
    return "".join(qrels_lines), "".join(draw(st.permutations(run_lines)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module-scoped: hypothesis and function-scoped fixtures don't mix.
    return tmp_path_factory.mktemp("trec_eval")


@settings(deadline=None)  # how many examples: the hypothesis profile (tests/conftest.py)
@given(case=trec_cases())
def test_generated_runs_agree_with_trec_eval(folder: Path, case: tuple[str, str]) -> None:
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    qrels_path.write_text(case[0], encoding="utf-8")
    run_path.write_text(case[1], encoding="utf-8")
    assert_agree(qrels_path, run_path, CUTOFFS, SCALE)


def test_scores_equal_only_in_single_precision_are_pytrec_evals_divergence(tmp_path: Path) -> None:
    # pytrec_eval (the oracle here) reads scores into C floats, so 1.00000004 and 1.00000002 tie there and
    # docid-desc puts "dB" first; trec_eval 10.0 reads doubles and ranks "dA" first (measured: its
    # `-m ndcg_cut.1` says 1.0000, README "Known difference from pytrec_eval"), and so do we, as rule 10 says.
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("q1 0 dA 1\nq1 0 dB 0\n", encoding="utf-8")
    run_path.write_text("q1 Q0 dA 1 1.00000004 t\nq1 Q0 dB 2 1.00000002 t\n", encoding="utf-8")
    assert np.float32(1.00000004) == np.float32(1.00000002)  # why pytrec_eval ties them
    assert trec_eval(qrels_path, run_path, (1,))[1]["q1"] == 0.0  # pytrec_eval: dB (grade 0) first
    assert ours(qrels_path, run_path, (1,), GradeScale(0, 1))[1]["q1"]["ndcg"] == 1.0  # trec_eval 10.0's 1.0000


# --- the real files -------------------------------------------------------------------------


@pytest.mark.parametrize(("run_name", "mean_at_10"), [("bm25.run.gz", 0.5105), ("tfidf.run.gz", 0.4725)])
def test_cranfield_runs_agree_with_trec_eval(data_dir: Path, run_name: str, mean_at_10: float) -> None:
    qrels_path, run_path = data_dir / "cranfield" / "qrels.txt", data_dir / "cranfield" / run_name
    scale = GradeScale(0, 4)
    assert_agree(qrels_path, run_path, (1, 5, 10, 20, 100), scale)

    evaluation = evaluate(read_qrels(qrels_path, scale=scale), read_run(run_path), trec_settings(scale), 10)
    summary = evaluation.summary
    assert (summary["queries_total"], summary["queries_in_mean"], summary["zero_idcg"]) == (225, 225, 0)
    assert round(summary["mean_ndcg"], 4) == mean_at_10  # SOURCES.md's reference figure
    assert summary["mean_ndcg"] == pytest.approx(np.mean(list(trec_eval(qrels_path, run_path, (10,))[10].values())))


TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@pytest.mark.parametrize("qrels_name", ["qrels.test", "qrels.rel_level"])
def test_trec_eval_test_files_agree_with_trec_eval(data_dir: Path, qrels_name: str) -> None:
    # qrels.rel_level grades -1..4; -1 ("pooled but not judged") earns no gain, as in trec_eval.
    folder = data_dir / "trec_eval_test"
    assert_agree(folder / qrels_name, folder / "results.test", TREC_EVAL_CUTOFFS, GradeScale(-1, 4))


def test_trec_eval_expected_output_is_reproduced(data_dir: Path) -> None:
    """out.test.aql: `trec_eval -m all_trec -q -l2 qrels.rel_level results.test`, 4 decimals."""
    folder = data_dir / "trec_eval_test"
    expected: dict[int, dict[str, float]] = {}
    for line in (folder / "out.test.aql").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts and parts[0].startswith("ndcg_cut_"):
            expected.setdefault(int(parts[0].removeprefix("ndcg_cut_")), {})[parts[1]] = float(parts[2])
    assert sorted(expected) == list(TREC_EVAL_CUTOFFS)

    scale = GradeScale(-1, 4)
    qrels, run = read_qrels(folder / "qrels.rel_level", scale=scale), read_run(folder / "results.test")
    for k, values in expected.items():
        evaluation = evaluate(qrels, run, trec_settings(scale), k)
        got = dict(zip(evaluation.per_query["query_id"], evaluation.per_query["ndcg"], strict=True))
        got["all"] = evaluation.summary["mean_ndcg"]
        assert set(got) == set(values), k
        for query, value in values.items():
            assert round(got[query], 4) == value, (k, query, got[query])


def test_ids_with_hash_and_unknown_queries_agree_with_trec_eval(data_dir: Path) -> None:
    # TREC RAG 2024: IDs contain '#', compared exactly (no ID map). The run answers 301 topics,
    # 31 of them judged; trec_eval ignores the other 270, we must be told to.
    folder = data_dir / "trec_eval_test"
    qrels_path, run_path = folder / "qrels.comment.test.gz", folder / "results.comment.test.gz"
    scale = GradeScale(0, 3)
    assert_agree(qrels_path, run_path, (5, 10, 20, 100), scale)

    qrels, run = read_qrels(qrels_path, scale=scale), read_run(run_path)
    evaluation = evaluate(qrels, run, trec_settings(scale), 10)
    judged = set(qrels.query_ids())
    answered = set(run.answered_queries())
    assert len(judged) == 31 and judged <= answered
    assert evaluation.unknown_queries == sorted(answered - judged)
    assert evaluation.summary["unknown_queries_ignored"] == 270
    assert set(trec_eval(qrels_path, run_path, (10,))[10]) == judged
    assert evaluation.summary["mean_ndcg"] > 0  # IDs with '#' matched their judgments

    with pytest.raises(InputError, match="not in the judgment pool"):
        evaluate(qrels, run, trec_settings(scale).with_(unknown_queries=UnknownQueryPolicy.REJECT), 10)


@pytest.mark.parametrize("qrels_name", ["qrels.dl19-passage.txt.gz", "qrels.dl20-passage.txt.gz"])
def test_trec_dl_qrels_with_a_generated_run_agree_with_trec_eval(
    data_dir: Path, tmp_path: Path, qrels_name: str
) -> None:
    # TREC DL ships qrels without runs: rank each query's judged passages, passages judged for
    # other queries (unjudged here) and invented IDs, with coarse scores that tie often, and
    # leave some queries unanswered.
    qrels_path = data_dir / "trec_dl" / qrels_name
    universes: dict[str, list[str]] = {}
    with open_text(qrels_path) as f:
        lines_of_qrels = f.read().splitlines()
    for line in lines_of_qrels:
        query, _, doc, _ = line.split()
        universes.setdefault(query, []).append(doc)
    everything = sorted({d for docs in universes.values() for d in docs})
    rng = np.random.default_rng(20240611)
    lines = []
    for query, docs in sorted(universes.items()):
        if rng.random() < 0.15:
            continue  # unanswered
        pool = rng.choice(docs, size=min(len(docs), 40), replace=False).tolist()
        pool += rng.choice(everything, size=10, replace=False).tolist() + [f"invented-{query}-{i}" for i in range(5)]
        returned = list(dict.fromkeys(pool))  # no duplicates
        lines += [f"{query} Q0 {doc} 0 {int(rng.integers(0, 8)) / 4!r} generated\n" for doc in returned]
    run_path = tmp_path / "generated.run"
    run_path.write_text("".join(lines), encoding="utf-8")
    assert_agree(qrels_path, run_path, (1, 3, 10, 20, 100), GradeScale(0, 3))
