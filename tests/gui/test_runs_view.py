"""The Runs view: every run resolved on its own, then scored and compared as `ndcg compare --project` does."""

from __future__ import annotations

import pytest

from ndcg_desktop.demo import build_demo
from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project

from .conftest import shot

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
    assert cli.runs["superscript"].tolist() == ["", "a"]  # dense beats bm25 on the demo, significantly
    version = window.project.version(1)
    assert view.table_panel.settings_line.text() == (
        f"Against pool v1 (sha256 {version.hash[:12]}…): {cli.settings_line()}"
    )
    assert inputs.export_button.isEnabled()
    shot(window, "runs_view")


def test_closing_or_switching_the_project_resets_the_view(window, demo_path, qtbot, tmp_path):
    view = runs_view(window, demo_path, qtbot)
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    scored(view, qtbot)
    other = build_demo(tmp_path / "other.ndcgproj")
    assert window.open_project(other)
    assert view.session.result is None and view.session.checks == {}
    assert view.table_panel.runs.rowCount() == 0
    assert [view.session.choices(n)["unjudged"] for n in ("bm25", "dense")] == [None, None]
    window.close_project()
    assert view.session.project is None and view.resolve.table.rowCount() == 0
