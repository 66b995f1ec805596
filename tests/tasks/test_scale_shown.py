"""The scale every task shows is the scale of the version it scored, never the one its caller's settings carried.

Issue 23: the window's views start from ``EvalSettings()`` (scale 0..3); in a 0..4 project the Runs view's settings
line, its Markdown/LaTeX captions and its manifest said 0..3 (tests/sessions/test_runs.py pins that view), and so
did the window's comparison of pool versions. Each task that takes settings and a pool version is checked here.
"""

from __future__ import annotations

from dataclasses import fields

import pandas as pd
import pytest

from ndcg_desktop.domain import EvalSettings, GradeScale
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.agreement import load_agreement
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_diff import diff_pools
from ndcg_desktop.tasks.scoring import check_run, score_run, score_run_at

QRELS = "q1 0 A 4\nq1 0 B 2\nq1 0 C 0\nq2 0 D 3\nq2 0 E 1\n"
RUN_X = "q1 Q0 B 1 3 x\nq1 Q0 A 2 2 x\nq2 Q0 D 1 1 x\n"
RUN_Y = "q1 Q0 A 1 3 y\nq1 Q0 C 2 2 y\nq2 Q0 E 1 1 y\n"
SHOWN = "scale=0..4"
BASE = EvalSettings(unjudged="zero")  # the caller's policies: no scale (the window's default is 0..3)


@pytest.fixture
def project(tmp_path, write):
    with Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 4), annotator="ann") as p:
        p.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
        freeze_draft(p, annotator="ann")
        p.pools.new_draft_from(1, annotator="ann")
        p.judgments.set_grade("q1", "C", 4, version=2, annotator="ann")
        freeze_draft(p, version=2, annotator="ann")
        p.runs.import_run(write("x.txt", RUN_X), name="x", annotator="ann")
        p.runs.import_run(write("y.txt", RUN_Y), name="y", annotator="ann")
        yield p


def test_the_base_settings_carry_no_scale():
    """Before issue 32 the base settings carried the default 0..3 and each task replaced it; now the policies carry
    no scale, so a caller cannot give one: each task below takes the version's."""
    assert "scale" not in {f.name for f in fields(EvalSettings)} and not hasattr(BASE, "scale")


def test_scoring_and_checking_name_the_versions_scale(project):
    assert SHOWN in score_run(project, "x", 1, BASE, record=False).evaluation.settings.to_text(10)
    assert SHOWN in score_run_at(project, "x", 1, BASE, [5, 10])[5].evaluation.manifest["settings"]["text"]
    assert SHOWN in check_run(project, "x", 1, BASE).settings.to_text(10)


def test_comparing_runs_names_the_versions_scale(project):
    result = compare_project(project, ["x", "y"], 2, [10], BASE, StatsSettings(resamples=100))
    assert SHOWN in result.settings_line() and "0..3" not in result.settings_line()
    assert result.manifest["settings_line"] == result.settings_line()


def test_comparing_pool_versions_names_their_scale(project):
    diff = diff_pools(project, 1, 2, BASE)
    assert diff.refused == {} and SHOWN in diff.summary()["settings"]


def test_agreement_names_the_versions_scale(project):
    assert str(load_agreement(project, 2, BASE).settings.terms.scale) == "0..4"


def test_the_projects_grades_use_the_whole_scale(project):
    grades = project.pools.qrels(2).frame["grade"]
    assert isinstance(grades, pd.Series) and grades.max() == 4
