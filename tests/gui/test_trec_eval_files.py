"""The Scores view's numbers equal `ndcg score`'s and trec_eval's own published output on its test files."""

from __future__ import annotations

import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale
from ndcg_desktop.store import Project


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))


@pytest.mark.parametrize("k", [5, 10, 100])
def test_gui_equals_cli_and_trec_eval_on_its_test_files(window, tmp_path, data_dir, qtbot, capsys, k):
    folder = data_dir / "trec_eval_test"
    path = tmp_path / "trec.ndcgproj"
    with Project.create(path, scale=GradeScale(-1, 4), user="tester") as p:
        p.import_qrels(folder / "qrels.rel_level")  # grades -1..4; -1 earns no gain, as in trec_eval
        p.freeze()
        p.import_run(folder / "results.test", name="results")
    window.open_project(path)
    view = window.analysis
    view.k.setValue(k)
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    for key, value in (("unjudged", "zero"), ("duplicates", "first"), ("unknown_queries", "ignore")):
        if view.report.needs_choice()[key]:
            choose(view.choices[key], value)
    assert view.score_button.isEnabled(), view.missing_label.text()
    view.score_button.click()
    qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
    gui = view.evaluation.per_query.set_index("query_id")["ndcg"].to_dict()

    capsys.readouterr()
    args = [
        "score",
        "--qrels",
        str(folder / "qrels.rel_level"),
        "--run",
        str(folder / "results.test"),
        "--scale",
        "-1..4",
        "--k",
        str(k),
        "--unjudged",
        "zero",
        "--json",
    ]
    if view.report.duplicates:
        args += ["--duplicates", "first"]
    if view.report.unknown_queries:
        args += ["--unknown-queries", "ignore"]
    assert main(args) == 0
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
