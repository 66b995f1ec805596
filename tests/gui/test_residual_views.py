"""Residual scoring in the window (issue 35, item 1; rule 21): the Scores and Runs views offer "residual from
version", kept in their Qt-free sessions, and show what ``ndcg score --residual-from`` and
``ndcg compare --project --residual-from`` give."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt

from ndcg_desktop.domain import Cutoffs, EvalSettings
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run

from .conftest import shot
from .test_runs_view import RUNS_TAB, checked, choose_for_all, scored
from .test_scores_behaviour import check_and_score, choose

# Version 1 judges A=3 and D=0 for q1 and E=1 for q2; version 2 adds B=2 and C=1 for q1 and F=2 for q2.
ROUND_1 = "q1 0 A 3\nq1 0 D 0\nq2 0 E 1\n"
ROUND_2 = "q1 0 B 2\nq1 0 C 1\nq2 0 F 2\n"
RUN = "q1 Q0 C 1 3.0 s\nq1 Q0 D 2 2.0 s\nq1 Q0 B 3 1.0 s\nq2 Q0 E 1 2.0 s\nq2 Q0 F 2 1.0 s\n"
OTHER = "q1 Q0 A 1 3.0 s\nq1 Q0 B 2 2.0 s\nq1 Q0 X 3 1.0 s\nq2 Q0 F 1 2.0 s\n"


@pytest.fixture
def rounds(tmp_path):
    path = tmp_path / "rounds.ndcgproj"
    for name, text in (("r1.qrels", ROUND_1), ("r2.qrels", ROUND_2), ("sys.run", RUN), ("other.run", OTHER)):
        (tmp_path / name).write_text(text)
    (tmp_path / "queries.tsv").write_text("q1\tfirst query\nq2\tsecond query\n")
    with Project.create(path, annotator="tester") as p:
        p.texts.import_topics(tmp_path / "queries.tsv")
        p.judgments.import_qrels(tmp_path / "r1.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
        p.judgments.import_qrels(tmp_path / "r2.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        p.runs.import_run(tmp_path / "sys.run", name="sys", annotator="tester")
        p.runs.import_run(tmp_path / "other.run", name="other", annotator="tester")
    return path


def test_scores_view_scores_residually_as_the_task_does_and_names_what_was_removed(window, rounds, qtbot):
    window.resize(1440, 960)
    assert window.open_project(rounds)
    view = window.scores
    assert view.version_box.currentData() == 2
    assert [view.residual_box.itemData(i) for i in range(view.residual_box.count())] == [None, 1]
    choose(view.residual_box, 1)
    assert view.session.residual_from == 1
    check_and_score(view, qtbot, unjudged="zero")
    settings = EvalSettings(unjudged="zero")
    with Project.open(rounds, read_only=True) as project:
        expected = score_run(project, "sys", 2, settings, 10, residual_from=1, record=False).evaluation
        v1 = project.pools.version(1).hash
    got = view.session.result.first.evaluation
    assert got.summary["mean_ndcg"] == expected.summary["mean_ndcg"]
    # q1: [C, B] over B=2, C=1; q2: [F] over F=2 (E judged in version 1 left both)
    q1 = (1 / math.log2(2) + 2 / math.log2(3)) / (2 / math.log2(2) + 1 / math.log2(3))
    assert got.summary["mean_ndcg"] == pytest.approx((q1 + 1.0) / 2, abs=1e-12)
    assert got.manifest["residual"]["from_version"] == 1
    owner = view.results_panel.owner.text()
    assert owner.endswith(
        f", residual from v1 (sha256 {v1[:12]}…): 2 documents judged there removed from the run, "
        "3 judgments removed (3 left)"
    )
    assert view.breakdown.explain.text().endswith(
        "Residual: the documents judged in v1 are removed from the pool and the ranking."
    )
    history = view.history
    column = [history.model.headerData(c, Qt.Orientation.Horizontal) for c in range(history.model.columnCount())]
    cell = history.model.index(0, column.index("Pool version")).data()
    assert cell.startswith("v2 · ") and cell.endswith(", residual from v1")  # the saved evaluation says so too
    window.tabs.setCurrentIndex(1)  # Scores
    qtbot.wait(20)
    shot(window, "scores_residual")
    choose(view.version_box, 1)  # nothing is older than version 1: not residual, and no result
    assert view.session.residual_from is None and view.session.result is None
    assert not view.residual_box.isEnabled() and view.residual_box.currentData() is None


def test_runs_view_compares_residually_as_ndcg_compare_does(window, rounds, qtbot):
    window.resize(1440, 960)
    assert window.open_project(rounds)
    window.tabs.setCurrentIndex(RUNS_TAB)
    view = window.runs
    combo = view.inputs.residual_box
    combo.setCurrentIndex(combo.findData(1))
    combo.activated.emit(combo.currentIndex())
    assert view.session.residual_from == 1
    checked(view, qtbot)
    choose_for_all(view, "unjudged", "zero")
    scored(view, qtbot)
    settings = EvalSettings(unjudged="zero")
    with Project.open(rounds, read_only=True) as project:
        expected = compare_project(
            project, ["sys", "other"], 2, Cutoffs([10]), settings, StatsSettings(), residual_from=1
        )
    got = view.session.result.comparison
    assert got.runs["mean"].tolist() == expected.runs["mean"].tolist()
    assert got.settings_line().startswith(expected.settings_line())
    assert "residual from pool version 1" in got.settings_line()
    shot(window, "runs_residual")
