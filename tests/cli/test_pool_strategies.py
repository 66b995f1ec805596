"""ndcg pool with a strategy, a budget and queries, and ndcg pool-next (issue 34 items 1 and 2)."""

from __future__ import annotations

from pathlib import Path

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project


def test_pool_with_a_strategy_then_its_next_batch(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.ndcgproj"
    run = tmp_path / "a.run"
    run.write_text("".join(f"q1 Q0 d{i} {i} {10 - i} a\n" for i in range(1, 6)) + "q2 Q0 e1 1 1 a\n")
    with Project.create(path, annotator="ana") as p:
        p.runs.import_run(run, name="a", annotator="ana")
    args = ["pool", str(path), "--runs", "a", "--depth", "5", "--strategy", "maxmean", "--budget", "3"]
    assert main([*args, "--batch-size", "2", "--queries", "q1"]) == 0
    out = capsys.readouterr().out.splitlines()
    # one run: MaxMean takes its ranking in order; the first batch is d1, d2 of q1's depth pool of 5
    assert out == [
        "q1\tadded 2 of 2 chosen (depth pool 5)",
        "added 2 documents to draft version 1 (1 query)",
        "strategy maxmean(), budget 3, depth 5, first batch of 2 a query",
    ]
    with Project.open(path) as p:
        p.judgments.set_grade("q1", "d1", 1, annotator="ana")
        p.judgments.set_grade("q1", "d2", 0, annotator="ana")
    assert main(["pool-next", str(path)]) == 0
    # budget 3, two chosen: the next batch is one document, d3
    assert capsys.readouterr().out.splitlines() == [
        "q1\tadded 1 document",
        "added 1 document to draft version 1 (1 query)",
    ]
    assert main(["status", str(path)]) == 0
    assert "pooled by maxmean(), budget 3, depth 5, batches of 2, 1 query, runs a" in capsys.readouterr().out


def test_a_bad_strategy_or_budget_is_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="ana").close()
    assert main(["pool", str(path), "--runs", "a", "--depth", "5", "--strategy", "rbp(p=2)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rbp's p must be a number above 0 and below 1" in err
    assert main(["pool", str(path), "--runs", "a", "--depth", "5", "--budget", "ten"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a budget must be a number of documents" in err
