"""Judging pace of a real project (tasks.pace) and in `ndcg status`, with the store's clock scripted."""

from __future__ import annotations

import json
from statistics import median

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.store import judgments as judgments_module
from ndcg_desktop.tasks.pace import pace_report


@pytest.fixture
def graded(tmp_path, write, monkeypatch):
    """A draft of six items (imported ungraded); ann grades four at scripted times, bob one."""
    path = tmp_path / "p.ndcgproj"
    times = [
        "2026-11-30T09:00:00+00:00",  # ann
        "2026-11-30T09:00:07+00:00",  # ann: 7 s
        "2026-11-30T09:00:10+00:00",  # ann: 3 s
        "2026-11-30T09:20:10+00:00",  # ann: a 20-minute pause, left out
        "2026-11-30T09:05:00+00:00",  # bob: his first, not timed
    ]
    clock = iter(t for t in times for _ in range(2))  # a grade reads the clock twice: its row and its audit row
    with Project.create(path, annotator="ann") as p:
        p.judgments.import_qrels(
            write("q.txt", "".join(f"q1 0 D{i} -1\n" for i in range(6))), negative_as_ungraded=True, annotator="ann"
        )
        monkeypatch.setattr(judgments_module, "now", lambda: next(clock))
        for i in range(4):
            p.judgments.set_grade("q1", f"D{i}", 1, annotator="ann")
        p.judgments.set_grade("q1", "D4", 2, annotator="bob")
    return path


def test_pace_report_of_a_project(graded):
    with Project.open(graded, read_only=True) as p:
        report = pace_report(p)
    assert report.pace.by_annotator.values.tolist()[0] == ["ann", 4, 2, median([7, 3])]
    assert report.pace.by_annotator.values.tolist()[1][:3] == ["bob", 1, 0]
    assert (report.draft, report.ungraded) == (1, 6 - 5)
    assert report.time_left_s == (6 - 5) * median([7, 3])


def test_status_prints_the_pace_and_the_time_left(graded, capsys):
    assert main(["status", str(graded)]) == 0
    out = capsys.readouterr().out
    assert (
        "judging pace (seconds per judgment = median gap between a person's consecutive grades; gaps over 10 min" in out
    )
    assert "  ann  2026-11-30  4 graded, median 5.0 s per judgment (2 timed)" in out
    assert "  bob  2026-11-30  1 graded, median - per judgment (0 timed)" in out
    assert "draft v1: 1 ungraded, about 5 s left at 5.0 s per judgment" in out


def test_status_json_carries_the_pace(graded, capsys):
    assert main(["status", str(graded), "--json"]) == 0
    pace = json.loads(capsys.readouterr().out)["pace"]
    assert pace["median_seconds"] == median([7, 3])
    assert pace["pause_seconds"] == 600
    assert pace["by_annotator"] == [
        {"who": "ann", "graded": 4, "timed": 2, "median_s": median([7, 3])},
        {"who": "bob", "graded": 1, "timed": 0, "median_s": None},
    ]
    assert pace["by_day"][0] == {"who": "ann", "day": "2026-11-30", "graded": 4, "timed": 2, "median_s": 5.0}
    assert (pace["draft"], pace["ungraded"], pace["time_left_seconds"]) == (1, 1, 1 * median([7, 3]))
    assert pace["rule"].startswith("seconds per judgment = median gap")


def test_status_of_a_project_without_grades_says_so(tmp_path, capsys):
    path = tmp_path / "e.ndcgproj"
    Project.create(path, annotator="tester").close()
    assert main(["status", str(path)]) == 0
    assert (
        "judging pace: no grades given in this project yet (imported grades are not timed)" in capsys.readouterr().out
    )


def test_an_undone_grade_is_not_counted_and_a_redone_one_counts_once(tmp_path, write):
    """Issue 36: the pace count ("Today: 34 graded") counted undone and redone grades."""
    from ndcg_desktop.tasks.grading import grade_item, undo

    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ann") as p:
        p.judgments.import_qrels(
            write("q.txt", "".join(f"q1 0 D{i} -1\n" for i in range(3))), negative_as_ungraded=True, annotator="ann"
        )
        grade_item(p, "q1", "D0", 1, version=1, annotator="ann")
        undo(
            p, grade_item(p, "q1", "D1", 2, version=1, annotator="ann"), action="undo grade", annotator="ann"
        )  # graded, then undone
        taken = grade_item(p, "q1", "D2", 3, version=1, annotator="ann")
        undo(p, taken, action="undo grade", annotator="ann")
        grade_item(p, "q1", "D2", 3, version=1, annotator="ann")  # redone
        grade_item(p, "q1", "D0", 2, version=1, annotator="ann")  # changed
        report = pace_report(p)
    assert report.pace.by_annotator[["who", "graded"]].values.tolist() == [["ann", 2]]  # D0 and D2
    assert report.pace.by_day["graded"].tolist() == [2]
