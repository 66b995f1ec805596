"""One policy for trec_eval's negative grades in both fronts: refused unless chosen explicitly."""

from __future__ import annotations

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import NegativeGrades, NegativeGradesFound, import_judgments

QRELS = "q1 0 A 3\nq1 0 B -1\n"


def test_negative_grades_are_refused_by_default_with_file_and_line(tmp_path, write):
    path = write("j.qrels", QRELS)
    with Project.create(tmp_path / "p.ndcgproj", user="ann") as project:
        with pytest.raises(NegativeGradesFound) as caught:
            import_judgments(project, path)
        assert (
            caught.value.located() == f"{path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: "
            "pooled but not judged)"
        )
        assert (project.draft(), project.versions()) == (None, [])  # nothing written: not even an empty draft
        report = import_judgments(project, path, negative=NegativeGrades.UNGRADED)
        assert (report["added"], report["ungraded"]) == (2, 1)


def test_cli_refuses_the_same_way(tmp_path, write, capsys):
    path = write("j.qrels", QRELS)
    project = str(tmp_path / "p.ndcgproj")
    Project.create(project, user="ann").close()
    assert main(["import-qrels", project, str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged); "
        "import negative grades as ungraded items with --negative-as-ungraded"
    )
    assert main(["import-qrels", project, str(path), "--negative-as-ungraded"]) == 0


def test_a_negative_grade_for_an_item_already_graded_counts_as_unchanged_not_ungraded(tmp_path, write):
    """The report's counts add up to what happened: a -1 leaves an existing grade as it is."""
    with Project.create(tmp_path / "p.ndcgproj", user="ann") as project:
        import_judgments(project, write("first.qrels", "q1 0 A 3\n"))
        report = import_judgments(
            project, write("second.qrels", "q1 0 A -1\nq1 0 B 1\n"), negative=NegativeGrades.UNGRADED
        )
        assert {k: report[k] for k in ("added", "graded_existing", "unchanged", "ungraded")} == {
            "added": 1,
            "graded_existing": 0,
            "unchanged": 1,
            "ungraded": 0,
        }
        items = project.pool_items(project.draft().version)
        assert sorted(zip(items["doc_id"], items["grade"], strict=True)) == [("A", 3), ("B", 1)]
