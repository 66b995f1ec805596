"""The Runs view: every run resolved on its own, then scored and compared as `ndcg compare --project` does."""

from __future__ import annotations

from importlib import resources

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ndcg_desktop.demo import build_demo
from ndcg_desktop.domain import DataTerms, EvalSettings
from ndcg_desktop.gui.charts import points
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import COMPARISON_FILES, compare_project
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import cranfield_project, shot

RUNS_TAB = 3


@pytest.fixture
def demo_path(tmp_path):
    return build_demo(tmp_path / "demo.ndcgproj")


def runs_view(window, path, qtbot):
    window.resize(1440, 960)
    assert window.open_project(path)
    window.tabs.setCurrentIndex(RUNS_TAB)
    qtbot.wait(20)
    return window.runs


def checked(view, qtbot):
    view.inputs.check_button.click()
    qtbot.waitUntil(lambda: not view.session.unchecked(), timeout=30_000)


def scored(view, qtbot):
    view.inputs.score_button.click()
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=60_000)


def choose_for_all(view, group, value):
    combo = view.resolve.all_combos[group]
    combo.setCurrentIndex(combo.findData(value))
    view.resolve.apply_all.click()


def test_each_run_is_resolved_then_the_runs_table_equals_ndcg_compare(window, demo_path, qtbot, qtmodeltester):
    view = runs_view(window, demo_path, qtbot)
    resolve, inputs = view.resolve, view.inputs
    assert [resolve.table.item(r, 0).text() for r in range(resolve.table.rowCount())] == [
        "bm25",
        "dense",
        "For every run:",
    ]
    assert not inputs.score_button.isEnabled() and not inputs.export_button.isEnabled()
    assert resolve.missing_label.text() == "Check the runs to see what each needs decided: bm25, dense."
    checked(view, qtbot)
    found = {n: view.session.found(n, "unjudged") for n in ("bm25", "dense")}
    assert resolve.missing_label.text() == (
        "Before scoring: bm25 needs a choice for Unjudged documents; dense needs a choice for Unjudged documents."
    )
    assert resolve.table.item(0, 1).text().startswith(f"Unjudged documents: {found['bm25']} in ")
    assert not inputs.score_button.isEnabled()
    resolve.combos[("bm25", "unjudged")].setCurrentIndex(1)
    resolve.combos[("bm25", "unjudged")].activated.emit(1)
    assert view.session.choices("bm25")["unjudged"] == "zero" and view.session.choices("dense")["unjudged"] is None
    assert not inputs.score_button.isEnabled()
    choose_for_all(view, "unjudged", "zero")  # one click, recorded for each run
    assert [view.session.choices(n)["unjudged"] for n in ("bm25", "dense")] == ["zero", "zero"]
    assert [resolve.combos[(n, "unjudged")].currentData() for n in ("bm25", "dense")] == ["zero", "zero"]
    assert inputs.score_button.isEnabled() and resolve.missing_label.text() == "Ready to score and compare."
    shot(window, "runs_resolve")
    scored(view, qtbot)
    qtmodeltester.check(view.table_panel.runs)
    with Project.open(demo_path, read_only=True) as project:
        cli = compare_project(project, ["bm25", "dense"], 1, [10], EvalSettings(unjudged="zero"), StatsSettings())
    model = view.table_panel.runs
    assert model.rowCount() == 2
    for row, expected in enumerate(cli.runs.to_dict("records")):
        assert model.value(row, "run") == expected["run"]
        mark = "".join({"a": "ᵃ", "b": "ᵇ"}[c] for c in expected["superscript"])
        assert model.value(row, "mean_text") == f"{expected['mean']:.4f}{mark}"
        assert model.value(row, "ci") == f"[{expected['ci_low']:.4f}, {expected['ci_high']:.4f}]"
        assert model.value(row, "bound") == f"[{expected['bound_low']:.4f}, {expected['bound_high']:.4f}]"
        assert model.value(row, "judged_at_k") == f"{expected['judged_at_k']:.4f}"
        assert model.value(row, "queries") == str(expected["queries"])
        assert (
            model.value(row, "choices") == "unjudged: zero, duplicates: reject, unknown queries: reject, queries: pool"
        )
    assert cli.runs["superscript"].tolist() == ["", "a"]  # dense beats bm25 on the demo, significantly
    version = window.project.pools.version(1)
    from ndcg_desktop.tasks.comparison_notes import superscripts_note

    note = superscripts_note(cli.stats)  # what the superscripts are, as the command line's heading says it
    assert view.table_panel.settings_line.text() == (
        f"Against pool v1 (sha256 {version.hash[:12]}…): {cli.settings_line()}\n{note[0].upper()}{note[1:]}"
    )
    assert inputs.export_button.isEnabled()
    shot(window, "runs_view")


def test_closing_or_switching_the_project_resets_the_view(window, demo_path, qtbot, tmp_path):
    view = runs_view(window, demo_path, qtbot)
    window.activateWindow()  # shortcuts reach the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_F5)  # Check runs, from the keyboard
    qtbot.waitUntil(lambda: not view.session.unchecked(), timeout=30_000)
    choose_for_all(view, "unjudged", "zero")
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Score and compare
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=60_000)
    assert not view.resolve.isVisibleTo(window)  # folded away once compared
    other = build_demo(tmp_path / "other.ndcgproj")
    assert window.open_project(other)
    assert view.session.result is None and view.session.checks == {}
    assert view.table_panel.runs.rowCount() == 0
    assert [view.session.choices(n)["unjudged"] for n in ("bm25", "dense")] == [None, None]
    assert view.resolve.isVisibleTo(window)  # nothing compared: the choices are shown again
    window.close_project()
    assert view.session.project is None
    window.stack.setCurrentWidget(window.tabs)  # the table is rebuilt when it is next shown
    assert view.resolve.table.rowCount() == 0


@pytest.fixture
def cranfield(tmp_path, data_dir):
    """Cranfield's judgments frozen as v1, and three runs: BM25, TF-IDF and chunks judged per document."""
    return cranfield_project(tmp_path / "cran.ndcgproj", data_dir, {"bm25": None, "tfidf": None, "chunks": "#"})


def test_plot_matrix_and_a_pair_query_by_query_with_both_breakdowns(window, cranfield, qtbot, qtmodeltester, tmp_path):
    view = runs_view(window, cranfield, qtbot)
    view.inputs.ks.setText("5,10")
    view.inputs.ks.editingFinished.emit()
    assert view.session.ks == [5, 10]
    checked(view, qtbot)
    assert view.session.found("chunks", "duplicates") > 0 and view.session.found("bm25", "duplicates") == 0
    assert view.session.missing() == {"bm25": ["unjudged"], "tfidf": ["unjudged"], "chunks": ["unjudged", "duplicates"]}
    choose_for_all(view, "unjudged", "zero")
    assert view.session.missing() == {"chunks": ["duplicates"]}
    choose_for_all(view, "duplicates", "first")
    scored(view, qtbot)
    base = EvalSettings(unjudged="zero", duplicates="first")
    with Project.open(cranfield, read_only=True) as project:
        cli = compare_project(project, ["bm25", "tfidf", "chunks"], 1, [5, 10], base, StatsSettings())
    assert view.table_panel.runs.rowCount() == 6
    # The plot shows K=5 first: a dot at each run's mean, a whisker from its interval's low end to its high end.
    at5 = cli.runs[cli.runs["k"] == 5]
    chart = view.table_panel.chart
    assert points(chart.means) == [(float(i), m) for i, m in enumerate(at5["mean"])]
    for whisker, low, high in zip(chart.whiskers, at5["ci_low"], at5["ci_high"], strict=True):
        ys = [y for _, y in points(whisker)]
        assert (min(ys), max(ys)) == (low, high)
    view.table_panel.k_box.setCurrentIndex(1)
    view.table_panel.k_box.activated.emit(1)
    at10 = cli.runs[cli.runs["k"] == 10]
    assert view.session.shown_k == 10 and [y for _, y in points(chart.means)] == at10["mean"].tolist()
    assert chart.chart().title() == "nDCG@10: means and 95% confidence intervals"
    # The matrix and the pairs at K=10, as ndcg compare computes them.
    significance = view.significance
    pairs = cli.pairs[cli.pairs["k"] == 10].reset_index(drop=True)
    assert significance.pairs.rowCount() == 3
    for row, expected in enumerate(pairs.to_dict("records")):
        assert (significance.pairs.value(row, "a"), significance.pairs.value(row, "b")) == (
            expected["a"],
            expected["b"],
        )
        assert significance.pairs.value(row, "p_chosen") == f"{expected['p_t_corrected']:.3g}"
        assert significance.pairs.value(row, "wtl") == f"{expected['wins']}/{expected['ties']}/{expected['losses']}"
    bm25_tfidf = pairs.iloc[0]
    assert (bm25_tfidf["a"], bm25_tfidf["b"], bool(bm25_tfidf["significant"])) == ("bm25", "tfidf", True)
    assert bm25_tfidf["difference"] < 0  # BM25 beats TF-IDF on Cranfield (0.5105 against 0.4725)
    assert significance.matrix.text(0, 1) == f"{bm25_tfidf['p_t_corrected']:.3g} ▲"
    assert significance.matrix.text(1, 0) == f"{bm25_tfidf['p_t_corrected']:.3g} ▼"
    assert significance.matrix.text(0, 0) == ""
    qtmodeltester.check(significance.matrix)
    qtmodeltester.check(significance.pairs)
    qtbot.wait(50)  # the chart lays its new title out in the event loop
    shot(window, "runs_view_cranfield")
    # Click the matrix cell: the pair opens query by query, largest difference first.
    rect = significance.matrix_view.visualRect(significance.matrix.index(0, 1))
    qtbot.mouseClick(significance.matrix_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    pair = view.session.pair
    assert (pair.k, pair.a, pair.b) == (10, "bm25", "tfidf")
    assert view.lower_tabs.currentWidget() is view.pair_panel
    panel = view.pair_panel
    both = bm25_tfidf["queries"]
    assert panel.queries.rowCount() == both == 225
    assert pair.counts == {"wins": bm25_tfidf["wins"], "ties": bm25_tfidf["ties"], "losses": bm25_tfidf["losses"]}
    assert panel.summary.text().startswith(
        f"tfidf against bm25 at K=10, over the 225 queries in both means: {pair.counts['wins']} wins, "
    )
    first = panel.queries.value(panel.queries_proxy.mapToSource(panel.queries_proxy.index(0, 0)).row(), "query_id")
    largest = pair.table.sort_values("difference", ascending=False, kind="stable").iloc[0]
    assert first == largest["query_id"]
    assert panel.left.explain.text().startswith(f"bm25, query {first}: nDCG {largest['ndcg_a']:.4f} ")
    assert panel.right.explain.text().startswith(f"tfidf, query {first}: nDCG {largest['ndcg_b']:.4f} ")
    assert panel.left.positions.rowCount() == panel.right.positions.rowCount() == 10
    qtmodeltester.check(panel.queries)
    qtbot.wait(50)
    shot(window, "runs_pair_breakdowns")
    # Export through ndcg compare --export's task: the same tables, the workbook among them.
    written = []
    view.exported.connect(written.append)
    view.export(str(tmp_path / "out"))
    qtbot.waitUntil(lambda: bool(written), timeout=60_000)
    assert sorted(p.name for p in written[0]) == sorted(COMPARISON_FILES)
    assert window.statusBar().currentMessage() == f"Exported {len(written[0])} files into {tmp_path / 'out'}"
    runs = pd.read_csv(tmp_path / "out" / "runs.csv")
    assert runs["mean"].tolist() == cli.runs["mean"].tolist()


def test_a_hidden_runs_view_builds_its_table_when_shown_not_at_each_refresh(window, demo_path, qtbot):
    """A window refresh after an import built a row of combo boxes per run on the GUI thread, tab shown or not."""
    assert window.open_project(demo_path)
    window.tabs.setCurrentIndex(0)  # Annotate
    with resources.as_file(resources.files("ndcg_desktop.demo") / "dense.run") as path:
        window.project.runs.import_run(path, name="dense again", annotator="tester")
    window.refresh()
    view = window.runs
    assert view.session.runs == ["bm25", "dense", "dense again"]  # the session knows at once
    assert view.resolve.table.rowCount() == 0  # never shown: nothing built
    window.tabs.setCurrentIndex(RUNS_TAB)
    rows = [view.resolve.table.item(r, 0).text() for r in range(view.resolve.table.rowCount())]
    assert rows == ["bm25", "dense", "dense again", "For every run:"]
    assert (
        view.resolve.missing_label.text() == "Check the runs to see what each needs decided: bm25, dense, dense again."
    )


def test_baseline_test_and_a_refused_export(window, demo_path, qtbot, tmp_path):
    view = runs_view(window, demo_path, qtbot)
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    inputs = view.inputs
    for combo, value in ((inputs.baseline, "dense"), (inputs.test, "wilcoxon"), (inputs.correction, "none")):
        combo.setCurrentIndex(combo.findData(value))
        combo.activated.emit(combo.currentIndex())
    assert (view.session.baseline, view.session.stats.test, view.session.stats.correction) == (
        "dense",
        "wilcoxon",
        "none",
    )
    scored(view, qtbot)
    comparison = view.session.result.comparison
    pair = comparison.pairs.iloc[0]
    assert (pair["a"], pair["b"]) == ("dense", "bm25")  # each run against the baseline
    assert view.significance.pairs.value(0, "p_chosen") == f"{pair['p_wilcoxon']:.3g}"  # no correction: raw
    assert view.significance.caption.text().startswith(
        "At K=10: significant when the Wilcoxon signed-rank test's p-value after no correction is below 0.05; "
        "each run against dense."
    )
    errors = []
    view.error.connect(errors.append)
    occupied = tmp_path / "a file"
    occupied.write_text("not a folder")
    view.export(str(occupied))
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert str(occupied) in errors[0] and "Traceback" not in errors[0]
    assert occupied.read_text() == "not a folder"


def test_another_test_or_correction_updates_the_shown_comparison_at_once(window, demo_path, qtbot):
    """No rescoring and no new resampling: the figures stay on screen and the significance caption and p-values
    follow the choice as soon as it is made (the comparison's own tests: tests/tasks/test_comparing.py)."""
    view = runs_view(window, demo_path, qtbot)
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    scored(view, qtbot)
    before = view.session.result
    inputs = view.inputs
    for combo, value in ((inputs.test, "randomization"), (inputs.correction, "bh")):
        combo.setCurrentIndex(combo.findData(value))
        combo.activated.emit(combo.currentIndex())  # applied synchronously: no job, no wait
    result = view.session.result
    assert result is not None and result is not before and result.scored is before.scored
    pair = result.comparison.pairs.iloc[0]
    assert view.significance.pairs.value(0, "p_chosen") == f"{pair['p_randomization_corrected']:.3g}"
    assert view.significance.caption.text().startswith(
        "At K=10: significant when the randomization test (Fisher)'s p-value after Benjamini-Hochberg correction"
    )
    assert inputs.export_button.isEnabled() and not view.resolve_toggle.isChecked()  # still folded: still compared
    shot(window, "runs-after-another-test")


def test_every_n_a_in_the_runs_and_pairs_tables_has_its_reason_as_a_tooltip(tmp_path, qtmodeltester):
    """Identical runs over 3 queries: the pairs table's tests, effect size and queries needed are n/a, each with
    its reason (the comparison's ``*_reason``) as the cell's tooltip; figures that are numbers have none."""
    from ndcg_desktop.gui.runs.results import RUN_COLUMNS
    from ndcg_desktop.gui.runs.significance import PAIR_COLUMNS, MatrixModel
    from ndcg_desktop.gui.scores.tables import FrameModel
    from ndcg_desktop.sessions.runs import matrix_cells, pairs_rows, runs_rows
    from ndcg_desktop.tasks.comparing import compare_files

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 A 1\n{q} 0 B 0\n" for q in (1, 2, 3)))
    runs = [tmp_path / "x.run", tmp_path / "y.run"]
    for path in runs:
        path.write_text("".join(f"{q} Q0 B 1 2 {path.stem}\n{q} Q0 A 2 1 {path.stem}\n" for q in (1, 2, 3)))
    result = compare_files(qrels, runs, [10], EvalSettings().under(DataTerms()), StatsSettings(resamples=100))
    pairs = FrameModel(PAIR_COLUMNS)
    pairs.load(pairs_rows(result, 10))
    qtmodeltester.check(pairs)
    tips = {
        name: pairs.data(pairs.index(0, i), Qt.ItemDataRole.ToolTipRole) for i, (_, name, _) in enumerate(PAIR_COLUMNS)
    }
    why = "the two runs score the same on every query (differences within 1e-12): nothing to test"
    for name in ("p_t", "p_wilcoxon", "p_randomization", "p_chosen"):
        assert pairs.value(0, name) == "—" and tips[name] == why, name
    assert tips["cohens_dz"].startswith("the two runs score the same") and pairs.value(0, "cohens_dz") == "—"
    assert tips["difference"] is None and tips["difference_ci"] is None  # numbers: 0 and [0, 0]
    matrix = MatrixModel()
    matrix.load(result.names, matrix_cells(result, 10))
    assert matrix.data(matrix.index(0, 1), Qt.ItemDataRole.DisplayRole) == "n/a"
    assert matrix.data(matrix.index(0, 1), Qt.ItemDataRole.ToolTipRole).endswith("\n" + why)
    table = FrameModel(RUN_COLUMNS)
    table.load(runs_rows(result))
    assert all(table.data(table.index(0, i), Qt.ItemDataRole.ToolTipRole) is None for i in range(len(RUN_COLUMNS)))


def test_a_0_to_4_projects_settings_line_says_0_to_4(window, tmp_path, data_dir, qtbot):
    """Issue 23: the view's line (and so its captions and manifest) said the default scale, 0..3."""
    path = cranfield_project(tmp_path / "cran.ndcgproj", data_dir, {"bm25": None, "tfidf": None})
    view = runs_view(window, path, qtbot)
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    scored(view, qtbot)
    line = view.table_panel.settings_line.text()
    assert "scale=0..4" in line and "0..3" not in line
    shot(view, "runs_scale_0_4")


def test_the_settings_line_is_the_records_own_in_english_and_translated_in_chinese(qapp, demo_path):
    """Found by a new user: the Runs view's line stayed English in the Chinese window. The record (manifest,
    captions) keeps the comparison's own line; the window shows it in its words, the nDCG formula as it is."""
    from ndcg_desktop.gui import i18n
    from ndcg_desktop.gui.runs.text import settings_text
    from ndcg_desktop.sessions.runs import RunsSession

    with Project.open(demo_path, read_only=True) as project:
        session = RunsSession()
        session.set_project(project)
        session._stats = StatsSettings(resamples=100)  # as the snapshot test does: a quick bootstrap
        session.apply(job := session.check_job(), job())
        for name in session.runs:
            session.choose(name, "unjudged", "zero")
            session.choose(name, "duplicates", "first")
        session.apply(job := session.score_job(), job())
        comparison = session.result.comparison
    assert settings_text(comparison) == comparison.settings_line()
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    try:
        chinese = settings_text(comparison)
    finally:
        i18n.uninstall(qapp)
    spec = comparison.settings_line().split(";", 1)[0]  # nDCG@10(gain=linear,...): a formula in every language
    assert chinese.startswith(spec + "; 95% bootstrap 置信区间（bca；另给出 percentile），100 次重抽样")
    assert "resamples" not in chinese and "all pairs" not in chinese and chinese.endswith("所有配对")


def test_fewer_than_10_queries_are_warned_of_as_ndcg_compare_warns(window, tmp_path, qtbot):
    """Found with issue 23: three queries, and the view said nothing of what `ndcg compare` warns about."""
    qrels = "".join(f"q{i} 0 D{j} {j}\n" for i in range(3) for j in range(3))
    path = tmp_path / "few.ndcgproj"
    with Project.create(path, annotator="tester") as project:
        (tmp_path / "q.txt").write_text(qrels)
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="tester")
        freeze_draft(project, annotator="tester")
        for name, order in (("a", (2, 1, 0)), ("b", (0, 1, 2))):
            lines = [f"q{i} Q0 D{j} {r + 1} {9 - r} {name}\n" for i in range(3) for r, j in enumerate(order)]
            (tmp_path / f"{name}.run").write_text("".join(lines))
            project.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="tester")
    view = runs_view(window, path, qtbot)
    warnings = view.table_panel.warnings
    assert warnings.text() == "" and not warnings.isVisibleTo(view)
    checked(view, qtbot)
    scored(view, qtbot)
    said = view.session.result.comparison.warnings  # what `ndcg compare` prints after "warning: "
    assert len(said) == 1 and "fewer than 10 queries: a vs b (3)" in said[0]
    assert warnings.text() == "\n".join(f"Warning: {line}" for line in said)
    assert warnings.isVisibleTo(view)
    view.grab().save("/tmp/shots/T3_runs_few_queries.png")
    view.inputs.ks.setText("2")
    view.inputs.ks.editingFinished.emit()
    assert warnings.text() == "" and not warnings.isVisibleTo(view)


def test_ties_at_k_and_the_corrected_superscripts_are_shown_as_ndcg_compare_prints_them(window, tmp_path, qtbot):
    """Issue 36 items 5 and 7: the runs table has the queries with a tie at K and the tie-averaged mean, the
    warning `ndcg compare` prints when ties change a mean, and the line saying the superscripts are corrected."""
    universe = {"A": 3, "B": 2, "C": 1, "D": 0}
    queries = [f"q{i}" for i in range(1, 13)]
    path = tmp_path / "ties.ndcgproj"
    with Project.create(path, annotator="tester") as project:
        (tmp_path / "q.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q in queries for d, g in universe.items()))
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="tester")
        freeze_draft(project, annotator="tester")
        tied = "".join(f"{q} Q0 {d} 0 {s} tied\n" for q in queries for d, s in zip("ABCD", (5, 4, 4, 1), strict=True))
        plain = "".join(f"{q} Q0 {d} {r} {9 - r} plain\n" for q in queries for r, d in enumerate("ADBC", 1))
        for name, text in (("tied", tied), ("plain", plain)):
            (tmp_path / f"{name}.run").write_text(text)
            project.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="tester")
    view = runs_view(window, path, qtbot)
    view.inputs.ks.setText("2")
    view.inputs.ks.editingFinished.emit()
    checked(view, qtbot)
    scored(view, qtbot)
    comparison = view.session.result.comparison
    model = view.table_panel.runs
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    row = next(r for r in range(model.rowCount()) if model.index(r, headers.index("Run")).data() == "tied")
    expected = comparison.runs.set_index("run").loc["tied"]
    assert model.index(row, headers.index("Ties at K")).data() == "12" == str(expected["queries_with_tie_at_k"])
    assert model.index(row, headers.index("Tie-averaged mean")).data() == f"{expected['tie_averaged_mean']:.4f}"
    said = comparison.ties_texts()
    assert len(said) == 1 and said[0].startswith("K=2 tied: mean ")
    assert view.table_panel.warnings.text() == f"Warning: {said[0]}"
    assert view.table_panel.settings_line.text().endswith(
        "Superscripts: the runs it beats significantly (paired t test, p-values Holm-corrected over the pairs at "
        "each K, below alpha 0.05; ranx's look-alike superscripts are not corrected)"
    )
    view.grab().save("/tmp/reports_runs_ties.png")


def test_runs_read_differently_are_named_each_and_the_line_claims_no_ones_reading(window, tmp_path, data_dir, qtbot):
    """Found by a new user: the line named the first run's ID map as if every run's were it."""
    path = cranfield_project(tmp_path / "cran.ndcgproj", data_dir, {"bm25": None, "chunks": "#"})
    view = runs_view(window, path, qtbot)
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    choose_for_all(view, "duplicates", "first")
    scored(view, qtbot)
    line = view.table_panel.settings_line.text()
    assert "scale=0..4,id_map=per run)" in line
    assert 'choices per run: bm25: no ID map; chunks: id_map="#"' in line
    shot(view, "runs_read_differently")
