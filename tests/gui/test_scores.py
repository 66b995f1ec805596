"""The Scores view: flags resolved per run before scoring, numbers equal to `ndcg score`'s, every result named."""

from __future__ import annotations

import csv
import json
import threading

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QTextBrowser

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale, UnjudgedPolicy
from ndcg_desktop.domain.natural import natural_sorted
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.bounds import unjudged_bounds
from ndcg_desktop.store import Project

from .conftest import cranfield_project as make_cranfield
from .conftest import shot


@pytest.fixture
def cranfield_project(tmp_path, data_dir):
    return make_cranfield(tmp_path / "cran.ndcgproj", data_dir, {"bm25": None, "chunks": "#"})


def bm25_top(data_dir, k: int) -> pd.DataFrame:
    """bm25's top k per query read independently with pandas (score descending, then doc ID descending as strings)."""
    cran = data_dir / "cranfield"
    run = pd.read_csv(cran / "bm25.run.gz", sep=" ", header=None, names=["q", "z", "doc", "r", "score", "t"], dtype=str)
    run["score"] = run["score"].astype(float)
    run = run.sort_values(["q", "score", "doc"], ascending=[True, False, False])
    return run.groupby("q").head(k)


def unjudged(data_dir, top: pd.DataFrame) -> pd.DataFrame:
    qrels = pd.read_csv(
        data_dir / "cranfield" / "qrels.txt", sep=r"\s+", header=None, names=["q", "i", "doc", "g"], dtype=str
    )
    judged = set(zip(qrels["q"], qrels["doc"], strict=True))
    return top[[(q, d) not in judged for q, d in zip(top["q"], top["doc"], strict=True)]]


def scores_shot(window, qtbot, name):
    """A screenshot of the Scores tab at a common laptop size."""
    window.resize(1440, 960)
    window.tabs.setCurrentIndex(1)
    qtbot.wait(30)
    return shot(window, name)


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))


def checked(view, qtbot):
    view.check()
    qtbot.waitUntil(lambda: view.session.checked(), timeout=20_000)
    return view


def scored(view, qtbot):
    view.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=20_000)
    return view


def test_flags_block_scoring_until_chosen_and_numbers_equal_the_cli(
    window, cranfield_project, qtbot, qtmodeltester, capsys, data_dir, tmp_path
):
    window.open_project(cranfield_project)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    assert view.run_box.currentData() == "bm25" and view.version_box.currentData() == 1
    checked(view, qtbot)
    top10 = unjudged(data_dir, bm25_top(data_dir, 10))
    everything = unjudged(data_dir, bm25_top(data_dir, 10_000))
    assert (view.report.unjudged_total, view.report.unjudged_in_top_k) == (len(everything), len(top10))
    assert not view.score_button.isEnabled()
    assert view.missing_label.text() == f"Before scoring: Unjudged documents (bm25: {len(everything)}) need a choice."
    resolve = view.resolve
    assert resolve.details_button.isEnabled() and resolve.flag_view.isHidden()
    resolve.details_button.click()
    assert not resolve.flag_view.isHidden()
    assert resolve.flag_details.rowCount() == len(view.report.per_query) == 225
    rows = range(225)
    assert sum(int(resolve.flag_details.raw_value(r, "unjudged_in_top_k")) for r in rows) == len(top10)
    scores_shot(window, qtbot, "resolve_panel")
    choose(view.choices["unjudged"], "zero")
    assert view.score_button.isEnabled() and view.missing_label.text() == "Ready to score."
    scored(view, qtbot)
    qtmodeltester.check(view.results_panel.results)
    scores_shot(window, qtbot, "scores")
    capsys.readouterr()  # the model tester's own notice
    cran = data_dir / "cranfield"
    args = ["score", "--qrels", str(cran / "qrels.txt"), "--run", str(cran / "bm25.run.gz"), "--scale", "0..4"]
    assert main([*args, "--unjudged", "zero", "--json"]) == 0  # the flags the check found, pinned above
    cli = json.loads(capsys.readouterr().out)
    assert view.evaluation.summary["mean_ndcg"] == cli["summary"]["mean_ndcg"]  # full precision
    assert round(cli["summary"]["mean_ndcg"], 4) == 0.5105
    gui_rows = view.evaluation.per_query.set_index("query_id")["ndcg"].to_dict()
    assert gui_rows == {q["query_id"]: q["ndcg"] for q in cli["queries"]}
    panel = view.results_panel
    assert panel.headline.text() == "nDCG@10 0.5105"
    version = window.project.pools.version(1)
    assert panel.owner.text() == f"bm25 against pool v1 (sha256 {version.hash[:12]}…)"

    # The breakdown of the selected query, and the export through `ndcg score --export`'s writer.
    panel.results_view.selectRow(0)
    breakdown = view.breakdown
    assert breakdown.positions.rowCount() == 10 and breakdown.ideal.rowCount() == 10
    query = panel.results.value(panel.results_proxy.mapToSource(panel.results_proxy.index(0, 0)).row(), "query_id")
    assert breakdown.explain.text().startswith(f"bm25, query {query}: nDCG ")
    assert f"frozen pool v1 (sha256 {version.hash[:12]}…); candidate-only" in breakdown.explain.text()
    from ndcg_desktop.gui.charts import points

    ranks = [float(breakdown.positions.raw_value(r, "rank")) for r in range(10)]
    cumulative = [float(breakdown.positions.raw_value(r, "cumulative_dcg")) for r in range(10)]
    assert points(breakdown.chart.dcg) == list(zip(ranks, cumulative, strict=True))
    ideal = [breakdown.ideal.raw_value(r, "cumulative_idcg") for r in range(10)]
    assert [y for _, y in points(breakdown.chart.idcg)] == ideal
    # Missed relevant documents, and where the run placed them below K (read independently from the file).
    order = bm25_top(data_dir, 10_000).query("q == @query")["doc"].tolist()
    assert breakdown.missed.rowCount() > 0
    for r in range(breakdown.missed.rowCount()):
        doc = breakdown.missed.value(r, "doc_id")
        expected = f"position {order.index(doc) + 1}" if doc in order else "not returned"
        assert breakdown.missed.value(r, "where") == expected
        assert doc not in order[:10]
    reader = breakdown.read_document(breakdown.positions, 0)
    assert "was not imported" in reader.findChild(QTextBrowser).toPlainText()  # Cranfield texts not imported here
    # Issue 36: the viewer had no Close button. It has one, and Esc closes it too.
    close = reader.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert close.isVisibleTo(reader)
    close.click()
    assert not reader.isVisible()
    again = breakdown.read_document(breakdown.positions, 0)
    qtbot.keyClick(again, Qt.Key.Key_Escape)
    assert not again.isVisible()
    paths = view.export(str(tmp_path / "out"))  # a folder that does not exist yet: the export makes it
    # Issue 36: nothing said that the export happened, or where.
    assert window.statusBar().currentMessage() == f"Exported {len(paths)} files into {tmp_path / 'out'}"
    with open(paths[0], encoding="utf-8", newline="") as handle:
        exported = {r["query_id"]: float(r["ndcg"]) for r in csv.DictReader(handle)}
    assert exported == gui_rows
    with Project.open(cranfield_project, read_only=True) as p:
        saved = [(s.run_name, s.pool_version, s.settings) for s in p.runs.evaluations()]
    assert saved == [("bm25", 1, view.evaluation.settings.to_text(view.evaluation.k))]


def test_filters_and_chunk_runs(window, cranfield_project, qtbot):
    window.open_project(cranfield_project)
    view = window.scores
    choose(view.run_box, "chunks")
    checked(view, qtbot)
    assert view.report.duplicates == 4118  # repeated parents of chunks (rule 11)
    choose(view.choices["unjudged"], "zero")
    assert view.missing_label.text() == "Before scoring: Duplicate documents (chunks: 4118) need a choice."
    choose(view.choices["duplicates"], "first")
    scored(view, qtbot)
    panel = view.results_panel
    total = panel.results_proxy.rowCount()
    panel.below.setValue(0.3)
    panel.below_on.setChecked(True)
    below = panel.results_proxy.rowCount()
    assert 0 < below < total
    rows = [panel.results_proxy.mapToSource(panel.results_proxy.index(r, 0)).row() for r in range(below)]
    assert all(panel.results.raw_value(row, "ndcg") < 0.3 for row in rows)
    panel.missed_only.setChecked(True)
    assert panel.results_proxy.rowCount() <= below


def shown_ids(proxy, column="query_id"):
    """The IDs of a table as the user sees them, top to bottom (through its proxy)."""
    model = proxy.sourceModel()
    return [model.value(proxy.mapToSource(proxy.index(r, 0)).row(), column) for r in range(proxy.rowCount())]


def test_query_ids_are_listed_in_natural_order(window, cranfield_project, qtbot, data_dir):
    """Cranfield's query IDs are numbers written as text: 2 comes before 10, not after 199 (issue 14)."""
    window.open_project(cranfield_project)
    view = window.scores
    checked(view, qtbot)
    flags = view.resolve.flag_details
    flagged = [flags.value(r, "query_id") for r in range(flags.rowCount())]
    choose(view.choices["unjudged"], "zero")
    scored(view, qtbot)
    qrels = pd.read_csv(data_dir / "cranfield" / "qrels.txt", sep=r"\s+", header=None, dtype=str)
    assert shown_ids(view.results_panel.results_proxy) == sorted(qrels[0].unique(), key=int)
    assert len(flagged) == 225 and flagged == sorted(flagged, key=int)  # every query has unjudged documents


def threads_of(monkeypatch, name: str, home, *users) -> list[bool]:
    """Patch function ``name`` of module ``home`` (and where ``users`` imported it) to record, per call, whether it
    ran on the GUI thread."""
    original, on_gui = getattr(home, name), []

    def spy(*args):
        on_gui.append(threading.current_thread() is threading.main_thread())
        return original(*args)

    for module in (home, *users):
        monkeypatch.setattr(module, name, spy)
    return on_gui


def test_the_check_and_results_tables_are_formatted_on_the_workers(
    window, cranfield_project, qtbot, data_dir, monkeypatch
):
    """Issue 13: after Score on a 7M-line run the GUI thread spent 1.1-1.25 s formatting 7,000 result rows (and after
    Check, formatting the flagged queries)."""
    from ndcg_desktop.gui.scores import resolve, results
    from ndcg_desktop.gui.scores import view as view_module

    # Each patched where it is called: by the view on the worker, by the panel if it had to prepare it itself.
    on_gui = threads_of(monkeypatch, "results_table", results, view_module)
    flags_on_gui = threads_of(monkeypatch, "flags_table", resolve, view_module)
    window.open_project(cranfield_project)
    view = window.scores
    checked(view, qtbot)
    choose(view.choices["unjudged"], "zero")
    scored(view, qtbot)
    assert on_gui == [False]  # once, on the worker
    assert flags_on_gui == [False]  # the check's flagged-queries table too
    qrels = pd.read_csv(data_dir / "cranfield" / "qrels.txt", sep=r"\s+", header=None, dtype=str)
    assert shown_ids(view.results_panel.results_proxy) == sorted(qrels[0].unique(), key=int)
    per_query = view.evaluation.per_query.set_index("query_id")
    model = view.results_panel.results
    first = [model.value(r, "query_id") for r in range(3)]
    assert [model.value(r, "ndcg") for r in range(3)] == [f"{per_query.loc[q, 'ndcg']:.4f}" for q in first]


def test_compare_two_runs_checks_both(window, cranfield_project, qtbot, data_dir, capsys, tmp_path, messages):
    window.open_project(cranfield_project)
    view = window.scores
    choose(view.compare_box, "chunks")
    checked(view, qtbot)
    assert sorted(view.session.checks) == ["bm25", "chunks"]
    choose(view.choices["unjudged"], "zero")
    # Before: "Ready to score", then Score failed with "choose --duplicates first". The other run's flags count.
    assert view.missing_label.text() == "Before scoring: Duplicate documents (chunks: 4118) need a choice."
    assert not view.score_button.isEnabled()
    assert view.resolve.found["duplicates"].text() == "bm25: 0 · chunks: 4118"
    view.resolve.details_button.click()
    scores_shot(window, qtbot, "comparison_flagged")
    choose(view.choices["duplicates"], "first")
    scored(view, qtbot)
    assert view.lower_tabs.isTabEnabled(1)
    view.lower_tabs.setCurrentIndex(1)
    panel = view.comparison_panel
    assert panel.comparison.rowCount() == 225
    cran = data_dir / "cranfield"
    args = ["score", "--qrels", str(cran / "qrels.txt"), "--run", str(cran / "chunks.run.gz"), "--scale", "0..4"]
    assert main([*args, "--unjudged", "zero", "--duplicates", "first", "--id-map", "#", "--json"]) == 0
    mean = json.loads(capsys.readouterr().out)["summary"]["mean_ndcg"]
    version = window.project.pools.version(1)
    text = panel.label.text()
    assert text.startswith(f"bm25 against pool v1 (sha256 {version.hash[:12]}…) · chunks: {mean:.4f} (macro mean)")
    assert text.endswith("(of 225 counted in both means)")
    from ndcg_desktop.gui.charts import points

    table = view.session.result.comparison
    assert points(panel.scatter.points) == list(zip(table["ndcg_a"], table["ndcg_b"], strict=True))
    counts = panel.histogram.counts()
    assert len(counts) == 2 and [sum(c) for c in counts] == [225, 225]
    path = view.export_comparison(str(tmp_path / "cmp.csv"))
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["query_id", "ndcg bm25", "ndcg chunks", "chunks - bm25"]
    # full precision, in the natural order of query IDs (q2 before q10) as the window lists them
    assert {r["query_id"]: float(r["chunks - bm25"]) for r in rows} == dict(
        zip(table["query_id"], table["difference"], strict=True)
    )
    assert [r["query_id"] for r in rows] == natural_sorted(table["query_id"].tolist())
    assert "comparison.csv" in [p.name for p in view.export(str(tmp_path / "all"))]
    assert messages == []
    scores_shot(window, qtbot, "comparison")
    # A row of the comparison is a query to explain: the breakdown and the results table follow it.
    third = panel.proxy.index(2, 0)
    query = panel.comparison.value(panel.proxy.mapToSource(third).row(), "query_id")
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=panel.view.visualRect(third).center())
    assert view.session.selected_query == query
    qtbot.waitUntil(lambda: view.breakdown._shown is not None, timeout=10_000)
    results = view.results_panel
    current = results.results_proxy.mapToSource(results.results_view.currentIndex()).row()
    assert results.results.value(current, "query_id") == query
    qtbot.waitUntil(lambda: view.breakdown.explain.text().startswith(f"bm25, query {query}: nDCG "), timeout=10_000)


def test_translated_settings_line_and_sentences_equal_the_core_in_english():
    from ndcg_desktop.domain import EvalSettings
    from ndcg_desktop.domain.chunks import ChunkMap
    from ndcg_desktop.gui.scores.text import describe_settings, missing_sentences
    from ndcg_desktop.scoring.explain import FlagReport

    for settings in (
        EvalSettings().under(DataTerms()),
        EvalSettings(
            gain="exponential",
            unjudged="condense",
            duplicates="first",
            zero_idcg="exclude",
            queries="run",
            unknown_queries="ignore",
        ).under(DataTerms(ties="file-order", id_map="#")),
        EvalSettings().under(DataTerms(id_map=ChunkMap("chunks.jsonl", "ab" * 32, (("c7", "B"),)))),  # a chunk map file
    ):
        assert describe_settings(settings, 3) == settings.describe(3)
        report = FlagReport(5, 2, 1, 3, unknown_queries=["q9"], k=3)
        assert missing_sentences(report, settings.policies) == report.missing(settings.policies)


def test_send_for_judging_previews_exactly_what_it_adds_then_undoes(
    window, cranfield_project, qtbot, data_dir, messages, monkeypatch
):
    window.open_project(cranfield_project)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    checked(view, qtbot)
    choose(view.choices["unjudged"], "send")
    assert view.score_button.text() == "Send for judging…"
    calls = []
    from ndcg_desktop.gui.scores import view as view_module

    real_apply = view_module.apply_send_for_judging

    def apply(project, plan, **who):
        calls.append(threading.current_thread())
        return real_apply(project, plan, **who)

    monkeypatch.setattr(view_module, "apply_send_for_judging", apply)
    from ndcg_desktop.gui.scores import send as send_module

    # The per-query table is sorted and formatted with the plan, on the worker (7,000 queries at 7M lines).
    tables_on_gui = threads_of(monkeypatch, "plan_table", send_module)
    view.score_button.click()
    dialog = view.findChild(view_module.SendForJudgingDialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=20_000)
    expected = unjudged(data_dir, bm25_top(data_dir, 10))  # depth K = 10, pool queries only
    assert dialog.depth_box.value() == 10 and dialog.plan.total == len(expected)
    per_query = expected.groupby("q").size().to_dict()
    shown = {
        dialog.model.value(r, "query_id"): int(dialog.model.raw_value(r, "to_add"))
        for r in range(dialog.model.rowCount())
    }
    assert shown == per_query
    assert dialog.summary.text().startswith(
        f"{len(expected)} documents of bm25 in {len(per_query)} queries will be added to a new draft pool"
    )
    assert window.project.pools.draft() is None  # nothing changes before the confirmation
    dialog.depth_box.setValue(3)  # debounced: one preview after the pause
    assert dialog.plan is None and not dialog.add_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=20_000)
    assert dialog.plan.total == len(unjudged(data_dir, bm25_top(data_dir, 3)))
    assert tables_on_gui == [False, False]  # one per preview, each on its worker
    listed = [dialog.model.value(r, "query_id") for r in range(dialog.model.rowCount())]
    assert listed == sorted(listed, key=int) and len(listed) == len(dialog.plan.per_query)
    shot(dialog, "send_for_judging")
    dialog.add_button.click()
    qtbot.waitUntil(lambda: bool(messages), timeout=20_000)
    assert window.tabs.currentWidget() is window.workspace
    assert calls and calls[0] is not threading.main_thread()  # applied off the GUI thread
    three = unjudged(data_dir, bm25_top(data_dir, 3))
    draft = window.project.pools.draft()
    items = window.project.pools.pool_items(draft.version)
    waiting = items[items["grade"].isna()]
    assert sorted(zip(waiting["query_id"], waiting["doc_id"], strict=True)) == sorted(
        zip(three["q"], three["doc"], strict=True)
    )
    assert messages[-1][1].startswith(f"{len(three)} documents of bm25 await grading in draft pool v{draft.version}.")
    assert window.undo_stack.undoText() == f"Send {len(three)} documents of bm25 for judging"
    window.undo_stack.undo()  # the draft was made for them: it goes
    assert window.project.pools.draft() is None
    window.undo_stack.redo()
    assert len(window.project.pools.pool_items(window.project.pools.draft().version).query("grade.isna()")) == len(
        three
    )


def test_bounds_column_shows_the_cores_interval_and_sorts_by_its_width(window, cranfield_project, qtbot, data_dir):
    window.open_project(cranfield_project)
    window.tabs.setCurrentIndex(1)
    view = window.scores
    checked(view, qtbot)
    choose(view.choices["unjudged"], "condense")  # the bounds still read the run as returned
    scored(view, qtbot)
    cran = data_dir / "cranfield"
    settings = EvalSettings(unjudged=UnjudgedPolicy.ZERO).under(DataTerms(scale=GradeScale(0, 4)))
    qrels = read_qrels(cran / "qrels.txt", scale=settings.terms.scale)
    expected = unjudged_bounds(evaluate(qrels, read_run(cran / "bm25.run.gz"), settings), qrels).set_index("query_id")
    panel = view.results_panel
    model = panel.results
    column = next(i for i, c in enumerate(model.columns) if c[1] == "unjudged_bounds")
    assert model.headerData(column, Qt.Orientation.Horizontal) == "If unjudged were 0 .. top grade"
    for row in range(model.rowCount()):
        query = model.value(row, "query_id")
        low, high = expected.loc[query, "ndcg_lower"], expected.loc[query, "ndcg_upper"]
        assert model.value(row, "unjudged_bounds") == f"[{low:.4f}, {high:.4f}]"
        assert model.raw_value(row, "unjudged_bounds") == expected.loc[query, "ndcg_gap"]
    panel.results_view.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    proxy = panel.results_proxy
    first = model.value(proxy.mapToSource(proxy.index(0, 0)).row(), "query_id")
    assert expected.loc[first, "ndcg_gap"] == expected["ndcg_gap"].max()
    scores_shot(window, qtbot, "scores_bounds")


def test_a_reload_keeps_the_shown_flagged_queries_without_formatting_them_again(
    window, cranfield_project, qtbot, monkeypatch
):
    """After an import or a send the session reloads and keeps its checks: the flagged-queries table stayed right
    but was formatted again on the GUI thread (7,000 queries at 7M lines: ~0.1 s of frozen window per refresh)."""
    from ndcg_desktop.gui.scores import resolve
    from ndcg_desktop.gui.scores import view as view_module

    on_gui = threads_of(monkeypatch, "flags_table", resolve, view_module)
    window.open_project(cranfield_project)
    view = window.scores
    checked(view, qtbot)
    flags = view.resolve.flag_details
    before = [flags.value(r, "query_id") for r in range(flags.rowCount())]
    view.reload()
    view.reload()
    assert on_gui == [False]  # once, on the checking worker
    assert [flags.value(r, "query_id") for r in range(flags.rowCount())] == before and len(before) == 225
    view.session.set_k(view.session.k + 1)  # another K drops the checks: the table empties
    assert flags.rowCount() == 0


def test_a_large_results_breakdown_is_prepared_on_a_worker_and_the_latest_query_wins(
    window, cranfield_project, qtbot, monkeypatch, data_dir
):
    """On a 7M-line run the first query's breakdown (its judgments, its ranking below K, 70,000 per-position rows
    filtered) took the GUI thread 0.2-0.4 s after each Score. Above LARGE_RESULT rows it is made on a worker; a
    query chosen meanwhile replaces the one still being prepared."""
    from ndcg_desktop.gui.scores import breakdown as breakdown_module

    monkeypatch.setattr(breakdown_module, "LARGE_RESULT", 0)  # Cranfield's 2,250 rows count as large here
    on_gui = threads_of(monkeypatch, "query_breakdown", breakdown_module)
    window.open_project(cranfield_project)
    view = window.scores
    checked(view, qtbot)
    choose(view.choices["unjudged"], "zero")
    scored(view, qtbot)
    panel, shown = view.results_panel, view.breakdown
    ids = [
        panel.results.value(panel.results_proxy.mapToSource(panel.results_proxy.index(r, 0)).row(), "query_id")
        for r in (0, 1, 2)
    ]
    qtbot.waitUntil(lambda: shown.explain.text().startswith(f"bm25, query {ids[0]}: nDCG "), timeout=10_000)
    panel.results_view.selectRow(1)
    panel.results_view.selectRow(2)  # before the worker for row 1 is done
    qtbot.waitUntil(lambda: shown.explain.text().startswith(f"bm25, query {ids[2]}: nDCG "), timeout=10_000)
    qtbot.wait(200)  # row 1's breakdown, if it arrives late, must not replace row 2's
    assert shown.explain.text().startswith(f"bm25, query {ids[2]}: nDCG ")
    assert on_gui and not any(on_gui)  # every breakdown made on a worker
    per_position = view.evaluation.per_position
    expected = per_position[per_position["query_id"].astype(str) == ids[2]]
    assert [float(shown.positions.raw_value(r, "rank")) for r in range(shown.positions.rowCount())] == [
        float(x) for x in expected["rank"]
    ]
    qrels = pd.read_csv(data_dir / "cranfield" / "qrels.txt", sep=r"\s+", header=None, dtype=str)
    assert shown.positions.rowCount() == 10 and shown.ideal.rowCount() == min(10, int((qrels[0] == ids[2]).sum()))


def test_the_translated_settings_line_reads_as_before(qapp):
    """Pinned from the code before the settings line was built from the table of choices (issue 23)."""
    from ndcg_desktop.domain import EvalSettings
    from ndcg_desktop.gui import i18n
    from ndcg_desktop.gui.scores.text import describe_settings

    every = EvalSettings(gain="exponential", unjudged="condense", duplicates="first", zero_idcg="exclude")
    every = every.with_(queries="run", unknown_queries="ignore").under(DataTerms(ties="file-order", id_map="#"))
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        assert describe_settings(EvalSettings().under(DataTerms()), 10) == (
            "nDCG@10，线性增益，log2 折扣，未判断：拒绝，重复：拒绝，零 IDCG：计入均值，查询：判断池，未知查询：拒绝，"
            "并列：文档 ID 降序，等级范围 0..3"
        )
        assert describe_settings(every, 3) == (
            "nDCG@3，指数增益，log2 折扣，未判断：压缩，重复：保留首个，零 IDCG：已排除，查询：运行结果，"
            "未知查询：忽略，并列：文件顺序，等级范围 0..3，ID 截断于 '#'"
        )
    finally:
        i18n.uninstall(qapp)
