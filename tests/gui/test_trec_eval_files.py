"""The Scores view's numbers equal `ndcg score`'s and trec_eval's own published output on its test files."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))


def expected_flags(folder, k: int) -> dict[str, int]:
    """The flag groups of results.test against qrels.rel_level, read independently with pandas."""
    names = ["q", "i", "doc", "g"]
    qrels = pd.read_csv(folder / "qrels.rel_level", sep=r"\s+", header=None, names=names, dtype=str)
    run = pd.read_csv(
        folder / "results.test", sep=r"\s+", header=None, names=["q", "z", "doc", "r", "s", "t"], dtype=str
    )
    # A negative grade is trec_eval's "in the pool, not judged" (issue 33): such a returned document is unjudged.
    graded = qrels[qrels["g"].astype(int) >= 0]
    judged = set(zip(graded["q"], graded["doc"], strict=True))
    pool_queries = set(qrels["q"])
    is_unjudged = [(q, d) not in judged for q, d in zip(run["q"], run["doc"], strict=True)]
    in_pool = run["q"].isin(pool_queries)
    return {
        "unjudged": int((pd.Series(is_unjudged) & in_pool).sum()),
        "duplicates": int(run.duplicated(["q", "doc"]).sum()),
        "unknown_queries": len(set(run["q"]) - pool_queries),
    }


@pytest.mark.parametrize("k", [5, 10, 100])
def test_gui_equals_cli_and_trec_eval_on_its_test_files(window, tmp_path, data_dir, qtbot, capsys, k):
    folder = data_dir / "trec_eval_test"
    path = tmp_path / "trec.ndcgproj"
    with Project.create(path, scale=GradeScale(-1, 4), annotator="tester") as p:
        p.judgments.import_qrels(
            folder / "qrels.rel_level", annotator="tester"
        )  # grades -1..4; -1 is unjudged, as in trec_eval
        freeze_draft(p, annotator="tester")
        p.runs.import_run(folder / "results.test", name="results", annotator="tester")
    window.open_project(path)
    view = window.scores
    view.k.setValue(k)
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    flags = expected_flags(folder, k)
    # Pinned, not read from the report: unjudged documents need a choice, and nothing else does.
    assert flags["unjudged"] > 0 and flags["duplicates"] == 0 and flags["unknown_queries"] == 0
    assert view.report.unjudged_total == flags["unjudged"]
    assert view.report.needs_choice() == {"unjudged": True, "duplicates": False, "unknown_queries": False}
    choose(view.choices["unjudged"], "zero")
    assert view.score_button.isEnabled(), view.missing_label.text()
    view.score_button.click()
    qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
    gui = view.evaluation.per_query.set_index("query_id")["ndcg"].to_dict()

    capsys.readouterr()
    args = ["score", "--qrels", str(folder / "qrels.rel_level"), "--run", str(folder / "results.test")]
    assert main([*args, "--scale", "-1..4", "--k", str(k), "--unjudged", "zero", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert gui == {q["query_id"]: q["ndcg"] for q in cli["queries"]}  # full precision
    assert view.evaluation.summary["mean_ndcg"] == cli["summary"]["mean_ndcg"]

    # trec_eval's own output for these files (`-m all_trec -q -l2`, 4 decimals).
    published = {}
    for line in (folder / "out.test.aql").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == f"ndcg_cut_{k}" and parts[1] != "all":
            published[parts[1]] = float(parts[2])
    assert published, f"out.test.aql has no ndcg_cut_{k} rows"
    for query, value in published.items():
        assert round(gui[query], 4) == pytest.approx(value, abs=1e-4), query
