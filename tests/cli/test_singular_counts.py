"""What the command line counts reads in the singular for one (the new-user report, item 11): "1 query with a tie
at K", "in 1 query", "1 item rated differently waits for adjudication". Each fails on the code before, which
wrote every count in the plural."""

from __future__ import annotations

from pathlib import Path

from ndcg_desktop.cli.main import main
from ndcg_desktop.cli.teams import _merge_text
from ndcg_desktop.tasks.teams import MergeReport


def test_score_counts_one_query_in_the_singular(tmp_path: Path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\n", encoding="utf-8")
    run = tmp_path / "run.txt"  # d1 and d2 tie across K=1: one query with a tie at K
    run.write_text("q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 1.0 r\nq1 Q0 d3 3 0.5 r\n", encoding="utf-8")
    assert main(["score", "--qrels", str(qrels), "--run", str(run), "--k", "1"]) == 0
    out = capsys.readouterr().out
    assert "(equal-weight mean over 1 query)" in out
    assert "0 duplicates removed, 1 query with a tie at K" in out


def test_merge_words_one_item_waiting_in_the_singular():
    report = MergeReport(version=2, totals={"new": 1, "changed": 0, "unchanged": 0, "unsettled": 1})
    assert _merge_text(report) == (
        "draft version 2: 1 new rating, 0 changed, 0 unchanged; 1 item rated differently waits for adjudication"
    )
    report = MergeReport(version=2, totals={"new": 0, "changed": 0, "unchanged": 3, "unsettled": 0})
    assert _merge_text(report).endswith(
        "0 new ratings, 0 changed, 3 unchanged; 0 items rated differently wait for adjudication"
    )
