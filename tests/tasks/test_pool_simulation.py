"""Pooling simulation and reusability (issue 34) on the repository's Cranfield runs and TREC DL judgments."""

from __future__ import annotations

import gzip
import json
import math

import numpy as np
import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale
from ndcg_desktop.domain.data import OrderKind, Qrels, Source
from ndcg_desktop.domain.settings import UnjudgedPolicy, UnknownQueryPolicy
from ndcg_desktop.formats.frames import run_from_frame
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.pooling import Budget, Strategy, depth_order
from ndcg_desktop.tasks.pool_runs import pool_runs_from_files
from ndcg_desktop.tasks.pool_simulation import reusability, simulate_pooling

BASE = EvalSettings().under(DataTerms(scale=GradeScale(0, 4)))


def _qrels_frame(path):
    return pd.read_csv(path, sep=r"\s+", header=None, names=["query_id", "it", "doc_id", "grade"], dtype=str)


def _dl_runs(data_dir):
    """Three runs over TREC DL 2019's judged passages, made deterministically from the judgments."""
    with gzip.open(data_dir / "trec_dl" / "qrels.dl19-passage.txt.gz", "rt") as f:
        frame = pd.read_csv(f, sep=r"\s+", header=None, names=["query_id", "it", "doc_id", "grade"], dtype=str)
    frame["grade"] = frame["grade"].astype(int)
    rng = np.random.default_rng(7)
    runs = []
    for noise in (0.5, 1.5, 3.0):
        rows = []
        for q, group in frame.groupby("query_id", sort=False):
            top = group.head(60)
            score = top["grade"].to_numpy() + rng.normal(0, noise, len(top))
            order = top["doc_id"].to_numpy()[np.argsort(-score, kind="stable")]
            rows += [{"query_id": q, "doc_id": d, "rank": r} for r, d in enumerate(order, start=1)]
        runs.append(run_from_frame(pd.DataFrame(rows), order=OrderKind.RANK, name=f"noise{noise}"))
    qrels = Qrels(frame.assign(line=np.arange(1, len(frame) + 1)), Source("dl19", "0" * 64, "trec"))
    return qrels, runs


def test_a_simulation_on_cranfield_counts_what_an_independent_read_counts(data_dir):
    folder = data_dir / "cranfield"
    pool = pool_runs_from_files(folder / "qrels.txt", [folder / "bm25.run.gz", folder / "tfidf.run.gz"], BASE)
    depth, k = 20, 10
    result = simulate_pooling(
        pool, depth=depth, k=k, strategies=[Strategy.of("depth")], budgets=[Budget.parse("10%")], base=BASE
    )
    # independent: each run's top 20 per query from the files (TREC runs, score descending, docid descending)
    qrels = _qrels_frame(folder / "qrels.txt")
    qrels = qrels[qrels["grade"].astype(int).between(-100, 100)]
    grades = {(q, d): int(g) for q, d, g in zip(qrels["query_id"], qrels["doc_id"], qrels["grade"], strict=True)}
    tops = []
    for name in ("bm25", "tfidf"):
        run = pd.read_csv(folder / f"{name}.run.gz", sep=r"\s+", header=None, dtype=str)
        run.columns = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
        run["score"] = run["score"].astype(float)
        run = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
        tops.append({q: g["doc_id"].head(depth).tolist() for q, g in run.groupby("query_id")})
    judged = relevant = 0
    chosen = {}
    for q in sorted(set(qrels["query_id"])):
        order = depth_order([t.get(q, []) for t in tops], depth)
        take = order[: len(order) * 10 // 100]
        chosen[q] = take
        judged += len(take)
        relevant += sum(1 for d in take if grades.get((q, d), 0) > 0)
    row = result.rows.iloc[0]
    assert (row["judged"], row["relevant_found"]) == (judged, relevant)
    assert row["budget_share"] == 0.1 and row["strategy"] == "depth()"
    # the full means are ndcg score --unjudged zero's
    settings = BASE.with_(unjudged=UnjudgedPolicy.ZERO, unknown_queries=UnknownQueryPolicy.IGNORE)
    for name, run in zip(pool.names, pool.runs, strict=True):
        full = evaluate(pool.oracle, run, settings, k).summary["mean_ndcg"]
        got = result.means[(result.means["run"] == name)]["mean_full"].iloc[0]
        assert got == pytest.approx(full, abs=1e-12)
    # the partial mean: the chosen documents with their grades, against an independently built qrels
    rows = [(q, d, grades.get((q, d), 0)) for q, docs in chosen.items() for d in docs]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"]).assign(line=range(1, len(rows) + 1))
    partial = Qrels(frame, Source("partial", "0" * 64, "test"))
    per_query = evaluate(partial, pool.runs[0], settings, k).per_query
    n_queries = len(set(qrels["query_id"]))  # queries with nothing chosen: zero IDCG, 0 in the mean
    expected = per_query["ndcg"].sum() / n_queries
    assert result.means.iloc[0]["mean"] == pytest.approx(expected, abs=1e-12)


def test_maxmean_finds_more_relevant_than_depth_and_everything_is_deterministic(data_dir):
    qrels, runs = _dl_runs(data_dir)
    pool = pool_runs_from_files(qrels, runs, BASE, names=["a", "b", "c"])
    strategies = [Strategy.of("depth"), Strategy.of("maxmean"), Strategy.of("rrf"), Strategy.of("rbp")]
    budgets = [Budget.parse("10%"), Budget.parse("total:500"), Budget.parse("100%")]
    first = simulate_pooling(pool, depth=50, k=10, strategies=strategies, budgets=budgets, base=BASE)
    again = simulate_pooling(pool, depth=50, k=10, strategies=strategies, budgets=budgets, base=BASE)
    pd.testing.assert_frame_equal(first.rows, again.rows)
    rows = first.rows.set_index(["strategy", "budget"])
    assert rows.loc[("maxmean()", "10%"), "relevant_found"] > rows.loc[("depth()", "10%"), "relevant_found"]
    assert rows.loc[("depth()", "total:500"), "judged"] == 500
    # the whole depth pool judged: every strategy judges the same documents and ranks the runs as the oracle does
    whole = first.rows[first.rows["budget"] == "100%"]
    assert set(whole["judged"]) == {first.pool_documents} and set(whole["relevant_share"]) == {1.0}
    assert all(not math.isnan(t) for t in whole["tau_b"])


def test_reusability_counts_each_runs_own_relevant_documents(data_dir):
    qrels, runs = _dl_runs(data_dir)
    pool = pool_runs_from_files(qrels, runs, BASE, names=["a", "b", "c"])
    depth = 5
    result = reusability(pool, depth=depth, k=10, base=BASE)
    tops = pool.rankings(depth)
    for i, name in enumerate(pool.names):
        own = 0
        for q, rankings in tops.items():
            others = {d for j, r in enumerate(rankings) if j != i for d in r}
            own += sum(1 for d in rankings[i] if d not in others and pool.grades[q].get(d, 0) > 0)
        assert result.runs.set_index("run").loc[name, "unique_relevant"] == own
    assert list(result.runs["rank_full"]) == [1, 2, 3]  # less noise, better run
    grouped = reusability(pool, depth=depth, k=10, base=BASE, groups=["x", "x", "c"])
    assert grouped.runs["unique_relevant"].iloc[0] == grouped.runs["unique_relevant"].iloc[1]


def test_the_command_lines_json_and_export(data_dir, tmp_path, capsys):
    folder = data_dir / "cranfield"
    runs = [str(folder / "bm25.run.gz"), str(folder / "tfidf.run.gz")]
    common = ["--qrels", str(folder / "qrels.txt"), "--runs", *runs, "--scale", "0..4", "--depth", "10", "--json"]
    code = main(["simulate-pooling", *common, "--strategies", "depth,maxmean", "--export", str(tmp_path / "out")])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and len(document["rows"]) == 6
    fields = {"strategy", "budget_share", "judged", "relevant_found", "tau_b", "tau_ap", "max_rank_change"}
    assert fields <= set(document["rows"][0]) and document["manifest"]["depth"] == 10
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        ["simulation.csv", "means.csv", "per_query.csv", "manifest.json"]
    )
    assert main(["reusability", *common]) == 0
    document = json.loads(capsys.readouterr().out)
    fields = {"run", "mean_full", "mean_without_own", "rank_full", "rank_without_own", "unique_relevant"}
    assert fields <= set(document["runs"][0]) and "tau_b" in document
    assert main(["simulate-pooling", *common, "--strategies", "bm25"]) == 2
    assert "unknown pooling strategy 'bm25'" in capsys.readouterr().err


def test_a_projects_frozen_version_is_the_oracle_and_gives_what_its_files_give(stored, write, tmp_path):
    from ndcg_desktop.tasks.pool_runs import pool_runs_from_project

    qrels = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 d 3\nq2 0 e 0\n"
    runs = {"sys": "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 e 1 1 t\n", "two": "q1 Q0 c 1 3 u\nq2 Q0 d 1 2 u\n"}
    project = stored(qrels, runs["sys"])
    project.runs.import_run(write("two.txt", runs["two"]), name="two", annotator="tester")
    base = EvalSettings()
    strategies, budgets = [Strategy.of("maxmean"), Strategy.of("depth")], [Budget.parse("1"), Budget.parse("50%")]
    from_project = simulate_pooling(
        pool_runs_from_project(project, ["sys", "two"], None, base),
        depth=2,
        k=2,
        strategies=strategies,
        budgets=budgets,
        base=base,
    )
    files = [write("s.txt", runs["sys"]), write("t.txt", runs["two"])]
    from_files = simulate_pooling(
        pool_runs_from_files(write("q.txt", qrels), files, base.under(DataTerms()), names=["sys", "two"]),
        depth=2,
        k=2,
        strategies=strategies,
        budgets=budgets,
        base=base,
    )
    pd.testing.assert_frame_equal(from_project.rows, from_files.rows)
    assert from_project.manifest["oracle"]["pool_version"] == 1
    # q1's pool: a, c (rank 1), b; q2's: e, d. Per query budget 1: maxmean judges a (q1) and e (q2)
    row = from_project.rows.set_index(["strategy", "budget"]).loc[("maxmean()", "1")]
    assert (row["judged"], row["relevant_found"]) == (2, 1)
