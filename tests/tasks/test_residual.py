"""Residual scoring (contract rule 21, issue 35): what an earlier frozen version judged leaves run and judgments.

The expected numbers are trec_eval's (``pytrec_eval``, trec_eval's C code) on residual qrels and run files built here
with pandas, independently of ndcg_desktop, from the repository's TREC DL 2019 judgments split into artificial rounds.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from ndcg_desktop import api
from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import Cutoffs, EvalSettings
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import check_run, score_run

DL19 = Path(__file__).resolve().parents[1] / "data" / "trec_dl" / "qrels.dl19-passage.txt.gz"
SCORING = ["--unjudged", "zero", "--unknown-queries", "ignore"]
K = 10


def _read_qrels() -> pd.DataFrame:
    with gzip.open(DL19, "rt", encoding="utf-8") as f:
        rows = [line.split() for line in f if line.strip()]
    return pd.DataFrame(
        {"query_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows], "grade": [int(r[3]) for r in rows]}
    )


def _write_qrels(frame: pd.DataFrame, path: Path) -> Path:
    path.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, d, g in frame[["query_id", "doc_id", "grade"]].itertuples(index=False))
    )
    return path


def _write_run(frame: pd.DataFrame, path: Path, tag: str) -> Path:
    path.write_text(
        "".join(
            f"{q} Q0 {d} {i + 1} {s} {tag}\n"
            for i, (q, d, s) in enumerate(frame[["query_id", "doc_id", "score"]].itertuples(index=False))
        )
    )
    return path


def _pairs(frame: pd.DataFrame) -> pd.Series:
    return frame["query_id"] + "\t" + frame["doc_id"]


@pytest.fixture(scope="module")
def rounds(tmp_path_factory) -> dict:
    """TREC DL 2019 in three cumulative rounds, frozen as versions 1, 2, 3, and two stored runs.

    Round 1 judges a third of each query's documents, except one query judged whole in round 1 and one query first
    judged in round 2; rounds 2 and 3 judge the rest. Runs: judged documents in a random order, and unjudged ones.
    """
    folder = tmp_path_factory.mktemp("residual")
    qrels = _read_qrels()
    rng = np.random.default_rng(35)
    queries = sorted(qrels["query_id"].unique())
    whole, late = queries[0], queries[1]
    draw = rng.random(len(qrels))
    round_of = np.where(draw < 1 / 3, 1, np.where(draw < 2 / 3, 2, 3))
    round_of[(qrels["query_id"] == whole).to_numpy()] = 1
    round_of[((qrels["query_id"] == late) & (round_of == 1)).to_numpy()] = 2
    qrels["round"] = round_of
    path = folder / "p.ndcgproj"
    assert main(["init", str(path)]) == 0
    for r in (1, 2, 3):
        if r > 1:
            assert main(["new-draft", str(path)]) == 0
        file = _write_qrels(qrels[qrels["round"] == r], folder / f"round{r}.qrels")
        assert main(["import-qrels", str(path), str(file)]) == 0
        assert main(["freeze", str(path)]) == 0
    runs = {}
    for tag in ("alpha", "beta"):
        rows = []
        for q in queries:
            judged = qrels.loc[qrels["query_id"] == q, "doc_id"].to_numpy()
            picked = rng.choice(judged, size=min(len(judged), 40), replace=False).tolist()
            picked += [f"x{tag}{q}{i}" for i in range(5)]  # unjudged: gain 0 where they stand
            order = rng.permutation(len(picked))
            # distinct integer scores: exact in trec_eval's C floats, so no tie is broken differently
            rows += [(q, picked[j], float(1000 - rank)) for rank, j in enumerate(order)]
        frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
        runs[tag] = frame
        file = _write_run(frame, folder / f"{tag}.run", tag)
        assert main(["import-run", str(path), str(file), "--name", tag]) == 0
    return {"path": path, "qrels": qrels, "runs": runs, "folder": folder, "whole": whole, "late": late}


def _by_hand(rounds: dict, version: int, earlier: int, tag: str) -> dict:
    """trec_eval on residual files written here: version's judgments and the run without what ``earlier`` judged."""
    qrels, run = rounds["qrels"], rounds["runs"][tag]
    judged = qrels[qrels["round"] <= version]
    seen = set(_pairs(qrels[qrels["round"] <= earlier]))
    left = judged[~_pairs(judged).isin(seen)]
    kept = run[~_pairs(run).isin(seen)]
    folder = rounds["folder"]
    qrels_file = _write_qrels(left, folder / f"residual_v{version}_from_{earlier}.qrels")
    run_file = _write_run(kept, folder / f"residual_{tag}_v{version}_from_{earlier}.run", tag)
    with open(qrels_file) as f:
        parsed_qrels = pytrec_eval.parse_qrel(f)
    with open(run_file) as f:
        parsed_run = pytrec_eval.parse_run(f)
    results = pytrec_eval.RelevanceEvaluator(parsed_qrels, {f"ndcg_cut.{K}"}).evaluate(parsed_run)
    topics = sorted(left["query_id"].unique())
    per_query = {q: results[q][f"ndcg_cut_{K}"] if q in results else 0.0 for q in topics}  # trec_eval -c
    emptied = sorted(set(judged["query_id"]) - set(left["query_id"]))
    return {
        "per_query": per_query,
        "mean": sum(per_query.values()) / len(per_query),
        "judgments_removed": len(judged) - len(left),
        "judgments_left": len(left),
        "run_documents_removed": int(_pairs(run).isin(seen).sum()),
        "emptied": emptied,
        "rows_of_emptied": int((run["query_id"].isin(emptied) & ~_pairs(run).isin(seen)).sum()),
    }


def _score_json(path: Path, capsys, *extra: str) -> dict:
    capsys.readouterr()
    assert (
        main(["score", "--project", str(path), "--run-name", "alpha", "--k", str(K), *SCORING, "--json", *extra]) == 0
    )
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("version", "earlier"), [(2, 1), (3, 1), (3, 2)])
def test_score_residual_equals_trec_eval_on_residual_files_built_by_hand(rounds, capsys, version, earlier):
    expected = _by_hand(rounds, version, earlier, "alpha")
    out = _score_json(rounds["path"], capsys, "--pool-version", str(version), "--residual-from", str(earlier))
    ours = {q["query_id"]: q["ndcg"] for q in out["queries"]}
    assert sorted(ours) == sorted(expected["per_query"])
    for query, value in expected["per_query"].items():
        assert ours[query] == pytest.approx(value, abs=1e-6), query  # pytrec_eval's C floats: 6 places
    assert out["summary"]["mean_ndcg"] == pytest.approx(expected["mean"], abs=1e-6)
    residual = out["manifest"]["residual"]
    with Project.open(rounds["path"], read_only=True) as project:
        earlier_hash = project.pools.version(earlier).hash
    assert (residual["from_version"], residual["from_hash"]) == (earlier, earlier_hash)
    assert residual["judgments_removed"] == expected["judgments_removed"]
    assert residual["judgments_left"] == expected["judgments_left"]
    assert residual["run_documents_removed"] == expected["run_documents_removed"]
    assert residual["queries_without_residual_judgments"] == expected["emptied"]
    assert residual["run_documents_of_those_queries"] == expected["rows_of_emptied"]
    assert out["manifest"]["judgments"]["pool_version"] == version


def test_the_query_judged_whole_in_round_one_leaves_the_residual_and_is_named(rounds, capsys):
    expected = _by_hand(rounds, 2, 1, "alpha")
    assert expected["emptied"] == [rounds["whole"]]  # the split made it so: a check of the test itself
    assert rounds["late"] in expected["per_query"]  # first judged in round 2: nothing of it removed
    assert main(["score", "--project", str(rounds["path"]), "--run-name", "alpha", "--pool-version", "2",
                 "--residual-from", "1", *SCORING]) == 0  # fmt: skip
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if line.startswith("residual "))
    assert "from pool version 1 (sha256 " in line
    assert f"{expected['run_documents_removed']} documents judged there removed from the run" in line
    assert f"{expected['judgments_removed']} judgments removed ({expected['judgments_left']} left)" in line
    assert line.endswith(f"1 query with every judgment removed is not scored: {rounds['whole']}")


def test_without_residual_nothing_is_removed_and_the_manifest_says_nothing(rounds, capsys):
    out = _score_json(rounds["path"], capsys, "--pool-version", "2")
    assert "residual" not in out["manifest"]
    assert out["summary"]["queries_total"] == rounds["qrels"].loc[rounds["qrels"]["round"] <= 2, "query_id"].nunique()


def test_api_project_score_residual_equals_the_command_line(rounds, capsys):
    out = _score_json(rounds["path"], capsys, "--pool-version", "3", "--residual-from", "2")
    with api.open_project(rounds["path"]) as project:
        scored = project.score("alpha", version=3, residual_from=2, k=K, unjudged="zero", unknown_queries="ignore")
    assert scored.mean == out["summary"]["mean_ndcg"]
    assert scored.manifest["residual"] == out["manifest"]["residual"]
    with api.open_project(rounds["path"]) as project, pytest.raises(api.Refused, match="newer than pool version 2"):
        project.score("alpha", version=2, residual_from=3, unjudged="zero", unknown_queries="ignore")


def test_compare_project_residual_scores_each_run_as_score_does(rounds, capsys):
    means = {tag: _by_hand(rounds, 3, 1, tag)["mean"] for tag in ("alpha", "beta")}
    capsys.readouterr()
    assert main(["compare", "--project", str(rounds["path"]), "--run-names", "alpha", "beta", "--pool-version", "3",
                 "--residual-from", "1", "--k", str(K), "--resamples", "200", *SCORING, "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    got = {row["run"]: row["mean"] for row in out["runs"]}
    assert got == pytest.approx(means, abs=1e-6)
    manifest = out["manifest"]
    assert manifest["residual"]["from_version"] == 1
    assert manifest["residual"]["judgments_removed"] == _by_hand(rounds, 3, 1, "alpha")["judgments_removed"]
    removed = {run["name"]: run["residual"]["run_documents_removed"] for run in manifest["runs"]}
    assert removed == {tag: _by_hand(rounds, 3, 1, tag)["run_documents_removed"] for tag in ("alpha", "beta")}
    assert "residual from pool version 1" in manifest["settings_line"]


def test_the_task_is_the_one_path_check_score_and_compare(rounds):
    settings = EvalSettings(unjudged="zero", unknown_queries="ignore")
    with Project.open(rounds["path"], read_only=True) as project:
        checked = check_run(project, "beta", 3, settings, K, residual_from=2)
        scored = score_run(project, "beta", 3, settings, K, residual_from=2, record=False)
        compared = compare_project(project, ["alpha", "beta"], 3, Cutoffs([K]), settings, StatsSettings(resamples=200),
                                   residual_from=2)  # fmt: skip
    expected = _by_hand(rounds, 3, 2, "beta")
    assert checked.residual is not None and checked.residual.run_documents_removed == expected["run_documents_removed"]
    run = rounds["runs"]["beta"]
    unjudged = ~_pairs(run).isin(set(_pairs(rounds["qrels"]))) & ~run["query_id"].isin(expected["emptied"])
    assert checked.report.unjudged_total == int(unjudged.sum())  # none judged before: only the emptied query's go
    assert scored.evaluation.summary["mean_ndcg"] == pytest.approx(expected["mean"], abs=1e-6)
    row = compared.runs.set_index("run").loc["beta"]
    assert row["mean"] == scored.evaluation.summary["mean_ndcg"]


@pytest.mark.parametrize(
    ("version", "earlier", "message"),
    [
        (2, 2, "--residual-from 2 is the pool version scored: every judgment would be removed"),
        (2, 3, "--residual-from 3 is newer than pool version 2, the version scored"),
        (2, 4, "--residual-from 4 is a draft; residual scoring removes what a frozen version judged"),
        (2, 9, "has no pool version 9"),
    ],
)
def test_refused_in_one_line(rounds, tmp_path, capsys, version, earlier, message):
    path = tmp_path / "p.ndcgproj"
    path.write_bytes(rounds["path"].read_bytes())
    assert main(["new-draft", str(path)]) == 0  # version 4: a draft
    capsys.readouterr()
    code = main(["score", "--project", str(path), "--run-name", "alpha", "--pool-version", str(version),
                 "--residual-from", str(earlier), *SCORING])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_residual_needs_a_project(tmp_path, capsys):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 A 1\n")
    run.write_text("q1 Q0 A 1 1.0 s\n")
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--residual-from", "1"]) == 2
    assert "--residual-from names an earlier frozen pool version: give it with --project" in capsys.readouterr().err


# The hand-worked case of docs/evaluation-contract.md, rule 21: version 1 judges A=3 and D=0, version 2 adds B=2 and
# C=1 (the running example's universe); the run returns [C, D, B]; K=2.
def test_rule21_hand_worked_residual_example(tmp_path, write):
    project = Project.create(tmp_path / "p.ndcgproj", annotator="ann")
    try:
        project.judgments.import_qrels(write("r1.txt", "q1 0 A 3\nq1 0 D 0\n"), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.pools.new_draft_from(1, annotator="ann")
        project.judgments.import_qrels(write("r2.txt", "q1 0 B 2\nq1 0 C 1\n"), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.runs.import_run(
            write("run.txt", "q1 Q0 C 1 3.0 s\nq1 Q0 D 2 2.0 s\nq1 Q0 B 3 1.0 s\n"), name="sys", annotator="ann"
        )
        settings = EvalSettings()
        whole = score_run(project, "sys", 2, settings, 2, record=False).evaluation
        left = score_run(project, "sys", 2, settings, 2, residual_from=1, record=False)
    finally:
        project.close()
    # Against version 2: [C, D] over the universe A=3, B=2, C=1, D=0.
    assert whole.summary["mean_ndcg"] == pytest.approx(
        (1 / math.log2(2)) / (3 / math.log2(2) + 2 / math.log2(3)), abs=1e-12
    )
    # Residual from version 1: A and D leave the judgments, D leaves the run: [C, B] over B=2, C=1.
    residual = (1 / math.log2(2) + 2 / math.log2(3)) / (2 / math.log2(2) + 1 / math.log2(3))
    assert left.evaluation.summary["mean_ndcg"] == pytest.approx(residual, abs=1e-12)
    assert round(residual, 6) == 0.859719
    manifest = left.evaluation.manifest["residual"]
    assert (manifest["run_documents_removed"], manifest["judgments_removed"], manifest["judgments_left"]) == (1, 2, 2)


def _run(session, job):
    assert session.apply(job, job())


def test_the_views_sessions_hold_the_residual_choice_and_score_through_the_task(rounds):
    """The window's state, Qt-free: Scores and Runs offer the older frozen versions, score as the task does, and drop
    the choice when the version scored is no longer newer than it."""
    from ndcg_desktop.sessions.runs import RunsSession
    from ndcg_desktop.sessions.scores import ScoresSession

    settings = EvalSettings(unjudged="zero", unknown_queries="ignore")
    with Project.open(rounds["path"], read_only=True) as project:
        expected = score_run(project, "alpha", 3, settings, residual_from=1, record=False).evaluation.summary
        scores = ScoresSession()
        scores.set_project(project)
        assert (scores.pool_version, [v.version for v in scores.residual_versions]) == (3, [2, 1])
        scores.set_residual_from(1)
        _run(scores, scores.check_job())
        scores.choose("unjudged", "zero")
        scores.choose("unknown_queries", "ignore")
        _run(scores, scores.score_job())
        assert scores.result.first.evaluation.summary["mean_ndcg"] == expected["mean_ndcg"]
        assert scores.result.first.residual.from_version == 1
        with pytest.raises(ValueError, match="no older frozen version"):
            scores.set_residual_from(3)
        scores.set_pool_version(1)
        assert (scores.residual_from, scores.residual_versions, scores.result) == (None, [], None)

        runs = RunsSession()
        runs.set_project(project)
        runs._stats = StatsSettings(resamples=200)
        runs.set_residual_from(1)
        _run(runs, runs.check_job())
        runs.choose_all("unjudged", "zero")
        runs.choose_all("unknown_queries", "ignore")
        _run(runs, runs.score_job())
        assert runs.result.comparison.runs.set_index("run").loc["alpha", "mean"] == expected["mean_ndcg"]
        runs.set_residual_from(None)
        assert runs.result is None and runs.checks == {}


def test_api_project_compare_residual_equals_ndcg_compare_project(rounds, capsys):
    capsys.readouterr()
    assert main(["compare", "--project", str(rounds["path"]), "--run-names", "alpha", "beta", "--pool-version", "3",
                 "--residual-from", "2", "--k", "5,10", "--resamples", "200", *SCORING, "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    with api.open_project(rounds["path"]) as project:
        compared = project.compare(["alpha", "beta"], version=3, k="5,10", residual_from=2, resamples=200,
                                   unjudged="zero", unknown_queries="ignore")  # fmt: skip
    assert compared.runs["mean"].tolist() == [row["mean"] for row in out["runs"]]
    assert compared.manifest["residual"] == out["manifest"]["residual"]
    assert [r["residual"] for r in compared.manifest["runs"]] == [r["residual"] for r in out["manifest"]["runs"]]
