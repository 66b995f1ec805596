"""The analyst's view: flags must be resolved before scoring, and its numbers equal `ndcg score`'s."""

from __future__ import annotations

import csv
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextBrowser

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale
from ndcg_desktop.store import Project

from .conftest import shot


@pytest.fixture
def cranfield_project(tmp_path, data_dir):
    cran = data_dir / "cranfield"
    path = tmp_path / "cran.ndcgproj"
    with Project.create(path, scale=GradeScale(0, 4), user="tester") as p:
        p.import_queries(cran / "queries.tsv")
        p.import_qrels(cran / "qrels.txt")
        p.freeze()
        p.import_run(cran / "bm25.run.gz", name="bm25")
        p.import_run(cran / "chunks.run.gz", name="chunks", id_map="#")
    return path


def scores_shot(window, qtbot, name):
    """A screenshot of the Scores tab at a common laptop size."""
    window.resize(1440, 960)
    window.tabs.setCurrentIndex(1)
    qtbot.wait(30)
    shot(window, name)


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))


def scored(window, qtbot):
    view = window.analysis
    view.score_button.click()
    qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
    return view


def test_flags_block_scoring_until_chosen_and_numbers_equal_the_cli(
    window, cranfield_project, qtbot, qtmodeltester, capsys, data_dir, tmp_path
):
    window.open_project(cranfield_project)
    window.tabs.setCurrentIndex(1)
    view = window.analysis
    assert view.run_box.currentData() == "bm25" and view.version_box.currentData() == 1
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    assert view.report.unjudged_total == 21183 and view.report.unjudged_in_top_k == 1570
    assert not view.score_button.isEnabled()
    assert "21183 unjudged documents (1570 in the top 10) need a policy" in view.missing_label.text()
    # The flagged queries, each with its unjudged positions in the top K.
    assert view.details_button.isEnabled() and view.flag_view.isHidden()
    view.details_button.click()
    assert not view.flag_view.isHidden()
    assert view.flag_details.rowCount() == len(view.report.per_query) == 225
    assert sum(int(view.flag_details.raw_value(r, "unjudged_in_top_k")) for r in range(225)) == 1570
    row = next(r for r in range(225) if view.flag_details.value(r, "unjudged_positions"))
    positions = view.flag_details.value(row, "unjudged_positions").split(", ")
    assert len(positions) == int(view.flag_details.raw_value(row, "unjudged_in_top_k"))
    scores_shot(window, qtbot, "resolve_panel")
    choose(view.choices["unjudged"], "zero")
    assert view.score_button.isEnabled() and view.missing_label.text() == "Ready to score."
    view = scored(window, qtbot)
    qtmodeltester.check(view.results)
    view.details_button.click()
    scores_shot(window, qtbot, "scores")
    capsys.readouterr()  # the model tester's own notice
    cran = data_dir / "cranfield"
    args = ["score", "--qrels", str(cran / "qrels.txt"), "--run", str(cran / "bm25.run.gz"), "--scale", "0..4"]
    assert main([*args, "--unjudged", "zero", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert view.evaluation.summary["mean_ndcg"] == cli["summary"]["mean_ndcg"]  # full precision
    assert round(cli["summary"]["mean_ndcg"], 4) == 0.5105
    gui_rows = view.evaluation.per_query.set_index("query_id")["ndcg"].to_dict()
    assert gui_rows == {q["query_id"]: q["ndcg"] for q in cli["queries"]}
    assert "0.5105" in view.summary.text() and "pool v1" in view.settings_line.text()

    # The breakdown of the selected query, and the export through `ndcg score --export`'s writer.
    view.results_view.selectRow(0)
    assert view.positions.rowCount() == 10 and view.ideal.rowCount() == 10
    assert "candidate-only" in view.explain.text()
    # The chart draws the breakdown tables' own cumulative columns.
    from ndcg_desktop.gui.charts import points

    ranks = [float(view.positions.raw_value(r, "rank")) for r in range(10)]
    assert points(view.chart.dcg) == list(
        zip(ranks, [float(view.positions.raw_value(r, "cumulative_dcg")) for r in range(10)], strict=True)
    )
    assert [y for _, y in points(view.chart.idcg)] == [view.ideal.raw_value(r, "cumulative_idcg") for r in range(10)]
    # Missed relevant documents, and where the run placed them below K (read independently from the file).
    query = view.results.value(view.results_proxy.mapToSource(view.results_proxy.index(0, 0)).row(), "query_id")
    import pandas as pd

    ranked = pd.read_csv(
        cran / "bm25.run.gz", sep=" ", header=None, names=["q", "z", "doc", "r", "score", "t"], dtype=str
    )
    ranked = ranked[ranked["q"] == query].assign(score=lambda f: f["score"].astype(float))
    order = ranked.sort_values(["score", "doc"], ascending=[False, False])["doc"].tolist()
    assert view.missed.rowCount() > 0
    for r in range(view.missed.rowCount()):
        doc = view.missed.value(r, "doc_id")
        expected = f"position {order.index(doc) + 1}" if doc in order else "not returned"
        assert view.missed.value(r, "where") == expected
        assert doc not in order[:10]
    reader = view.read_document(view.positions, 0)
    assert "was not imported" in reader.findChild(QTextBrowser).toPlainText()  # Cranfield texts not imported here
    reader.close()
    paths = view.export(str(tmp_path / "out"))
    with open(paths[0], encoding="utf-8", newline="") as handle:
        exported = {r["query_id"]: float(r["ndcg"]) for r in csv.DictReader(handle)}
    assert exported == gui_rows
    with Project.open(cranfield_project, read_only=True) as p:
        saved = p._query("SELECT run_name, pool_version, settings FROM evaluations")
    assert saved[0][0] == "bm25" and saved[0][1] == 1 and "unjudged=zero" in saved[0][2]


def test_filters_and_chunk_runs(window, cranfield_project, qtbot):
    window.open_project(cranfield_project)
    view = window.analysis
    choose(view.run_box, "chunks")
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    assert view.report.duplicates == 4118  # repeated parents of chunks (rule 11)
    choose(view.choices["unjudged"], "zero")
    assert "4118 duplicate documents need a policy" in view.missing_label.text()
    choose(view.choices["duplicates"], "first")
    view = scored(window, qtbot)
    total = view.results_proxy.rowCount()
    view.below.setValue(0.3)
    view.below_on.setChecked(True)
    below = view.results_proxy.rowCount()
    assert 0 < below < total
    rows = [view.results_proxy.mapToSource(view.results_proxy.index(r, 0)).row() for r in range(below)]
    assert all(view.results.raw_value(row, "ndcg") < 0.3 for row in rows)
    view.missed_only.setChecked(True)
    assert view.results_proxy.rowCount() <= below


def test_send_for_judging_starts_a_draft_and_switches_to_annotation(window, small_project, qtbot, messages):
    with Project.open(small_project) as p:
        p.remove_ungraded()
        p.freeze()
    window.open_project(small_project)
    view = window.analysis
    window.tabs.setCurrentWidget(view.parentWidget().parentWidget())
    qtbot.wait(50)
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    choose(view.choices["unjudged"], "send")
    assert view.score_button.text() == "Send for judging"
    view.score_button.click()
    assert window.tabs.currentWidget() is window.workspace
    assert window.workspace.version.version == 2 and not window.workspace.version.frozen
    assert "await grading in draft pool v2" in messages[-1][1]
    view.results_view.setFocus()
    window.workspace.pool_view.setFocus()
    qtbot.keyClick(window.workspace.pool_view, Qt.Key.Key_0)  # grade X straight away

    # Grade what remains, freeze the new version and score again: the results name it.
    with Project.open(small_project, read_only=True) as p:
        left = p.pool_items(2)
        left = left[left["grade"].isna()]
    assert left[["query_id", "doc_id"]].values.tolist() == [["q2", "E"], ["q2", "Y"]]  # the run's unjudged
    window.project.set_grade("q2", "E", 2)
    window.project.set_grade("q2", "Y", 0)
    window.refresh()
    version = window.project.freeze()
    window.refresh()
    window.tabs.setCurrentWidget(view.parentWidget().parentWidget())
    assert view.version_box.currentData() == 2  # the newest frozen version comes first
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    assert view.report.unjudged_total == 0  # nothing left to resolve for this run
    choose(view.choices["unknown_queries"], "ignore") if view.report.unknown_queries else None
    assert view.score_button.isEnabled(), (view.missing_label.text(), messages)
    view = scored(window, qtbot)
    assert f"pool v2 ({version.short_hash}" in view.settings_line.text()
    assert view.evaluation.manifest["judgments"]["pool_hash"] == version.hash


def test_compare_two_runs(window, cranfield_project, qtbot, data_dir, capsys, tmp_path):
    window.open_project(cranfield_project)
    view = window.analysis
    choose(view.compare_box, "chunks")
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    choose(view.choices["unjudged"], "zero")
    choose(view.choices["duplicates"], "first")  # the chunk run needs it; harmless for bm25
    view = scored(window, qtbot)
    assert view.lower.isTabEnabled(1)
    view.lower.setCurrentIndex(1)
    assert view.comparison.rowCount() == 225
    text = view.comparison_label.text()
    assert "better on" in text and "(of 225 counted in both means)" in text
    cran = data_dir / "cranfield"
    args = ["score", "--qrels", str(cran / "qrels.txt"), "--run", str(cran / "chunks.run.gz"), "--scale", "0..4"]
    assert main([*args, "--unjudged", "zero", "--duplicates", "first", "--id-map", "#", "--json"]) == 0
    mean = json.loads(capsys.readouterr().out)["summary"]["mean_ndcg"]
    assert f"{mean:.4f}" in text
    # Scatter and histograms draw the comparison's own numbers; the export equals the table.
    from ndcg_desktop.gui.charts import points

    table = view.comparison_table
    assert points(view.scatter.points) == list(zip(table["ndcg_a"], table["ndcg_b"], strict=True))
    counts = view.histogram.counts()
    assert len(counts) == 2 and [sum(c) for c in counts] == [225, 225]
    path = view.export_comparison(str(tmp_path / "cmp.csv"))
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["query_id", "ndcg bm25", "ndcg chunks", "chunks - bm25"]
    assert [float(r["chunks - bm25"]) for r in rows] == table["difference"].tolist()  # full precision
    assert "comparison.csv" in [p.name for p in view.export(str(tmp_path / "all"))]
    scores_shot(window, qtbot, "comparison")


def test_translated_settings_line_and_sentences_equal_the_core_in_english():
    from ndcg_desktop.domain import EvalSettings
    from ndcg_desktop.gui.analysis import describe_settings, missing_sentences
    from ndcg_desktop.scoring.explain import FlagReport

    for settings in (
        EvalSettings(),
        EvalSettings(
            k=3,
            gain="exponential",
            unjudged="condense",
            duplicates="first",
            zero_idcg="exclude",
            queries="run",
            unknown_queries="ignore",
            ties="file-order",
            id_map="#",
        ),
    ):
        assert describe_settings(settings) == settings.describe()
        report = FlagReport(5, 2, 1, 3, unknown_queries=["q9"])
        assert missing_sentences(report, settings) == report.missing(settings)
