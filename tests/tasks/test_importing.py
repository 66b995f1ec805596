"""One policy for trec_eval's negative grades in both fronts: refused unless chosen explicitly."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import AnnotatorTaken
from ndcg_desktop.tasks import NegativeGrades, NegativeGradesFound, import_judgments
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.importing import import_ratings, plan_release
from ndcg_desktop.tasks.teams import ratings_table
from tests.store.conftest import dump

QRELS = "q1 0 A 3\nq1 0 B -1\n"


def test_negative_grades_are_refused_by_default_with_file_and_line(tmp_path, write):
    path = write("j.qrels", QRELS)
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        with pytest.raises(NegativeGradesFound) as caught:
            import_judgments(project, path, annotator="ann")
        assert (
            caught.value.located() == f"{path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: "
            "pooled but not judged)"
        )
        # nothing written: not even an empty draft
        assert (project.pools.draft(), project.pools.versions()) == (None, [])
        report = import_judgments(project, path, negative=NegativeGrades.UNGRADED, annotator="ann")
        assert (report.version, report.added, report.ungraded, report.graded) == (1, 2, 1, 1)


def test_cli_refuses_the_same_way(tmp_path, write, capsys):
    path = write("j.qrels", QRELS)
    project = str(tmp_path / "p.ndcgproj")
    Project.create(project, annotator="ann").close()
    assert main(["import-qrels", project, str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged); "
        "import negative grades as ungraded items with --negative-as-ungraded"
    )
    assert main(["import-qrels", project, str(path), "--negative-as-ungraded"]) == 0


def test_a_negative_grade_for_an_item_already_graded_counts_as_unchanged_not_ungraded(tmp_path, write):
    """The report's counts add up to what happened: a -1 leaves an existing grade as it is."""
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        import_judgments(project, write("first.qrels", "q1 0 A 3\n"), annotator="ann")
        report = import_judgments(
            project, write("second.qrels", "q1 0 A -1\nq1 0 B 1\n"), negative=NegativeGrades.UNGRADED, annotator="ann"
        )
        assert (report.added, report.graded_existing, report.unchanged, report.ungraded) == (1, 0, 1, 0)
        items = project.pools.pool_items(project.pools.draft().version)
        assert sorted(zip(items["doc_id"], items["grade"], strict=True)) == [("A", 3), ("B", 1)]


# -- one assessor's file as their ratings (import-qrels --annotator, issue 27) ---------------------------------

ANA = "q1 0 A 3\nq1 0 B 0\nq1 0 C 2\nq2 0 A 1\n"
BEN = "q1 0 A 3\nq1 0 B 1\nq2 0 A 1\nq2 0 D 2\n"  # B differs; C unrated by ben; D new


def _state(project: Project) -> tuple[list[list[object]], list[list[object]]]:
    items = project.pools.pool_items(project.pools.draft().version)  # type: ignore[union-attr]
    grades = [
        [q, d, None if pd.isna(g) else int(g)] for q, d, g in items[["query_id", "doc_id", "grade"]].values.tolist()
    ]
    return grades, ratings_table(project).values.tolist()


def test_two_assessors_files_go_into_a_fresh_project_and_settle_as_after_a_merge(tmp_path, write):
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        assert project.pools.versions() == []
        first = import_ratings(project, write("ana.qrels", ANA), "ana", imported_by="lead")
        assert (first.version, first.started, first.items_added, first.totals["new"]) == (1, "an empty draft", 4, 4)
        second = import_ratings(project, write("ben.qrels", BEN), "ben", imported_by="lead")
        assert (second.version, second.started, second.items_added, second.totals["new"]) == (1, "", 1, 4)
        grades, ratings = _state(project)
        # one rating or agreeing ratings give the grade; B (0 vs 1) waits for adjudication
        assert grades == [["q1", "A", 3], ["q1", "B", None], ["q1", "C", 2], ["q2", "A", 1], ["q2", "D", 2]]
        assert second.totals["unsettled"] == 1 and second.identical == []
        assert ratings == [
            ["q1", "A", "ana", 3], ["q1", "A", "ben", 3], ["q1", "B", "ana", 0], ["q1", "B", "ben", 1],
            ["q1", "C", "ana", 2], ["q2", "A", "ana", 1], ["q2", "A", "ben", 1], ["q2", "D", "ben", 2],
        ]  # fmt: skip
        assert set(project.pools.pool_items(1)["annotator"].dropna()) == {"ana", "ben", "ana+ben"}  # no file credit
        with pytest.raises(InputError, match="1 item that annotators rated differently"):
            freeze_draft(project, annotator="lead")
        from ndcg_desktop.tasks.adjudication import pick

        pick(project, "q1", "B", 1, annotator="lead")
        assert freeze_draft(project, annotator="lead").version == 1


def test_the_same_name_twice_is_refused_and_replace_makes_the_ratings_the_files(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="lead") as project:
        import_ratings(project, write("ana.qrels", ANA), "ana", imported_by="lead")
        import_ratings(project, write("ben.qrels", BEN), "ben", imported_by="lead")
    before = dump(path)
    again = write("ana2.qrels", "q1 0 A 3\nq1 0 B 1\n")
    with Project.open(path) as project:
        with pytest.raises(AnnotatorTaken) as refused:
            import_ratings(project, again, "ana", imported_by="lead")
        assert refused.value.located() == (
            f"{path}: ana already has 4 ratings in draft version 1; import this file under another name, or replace "
            "ana's ratings with it"
        )
    assert dump(path) == before
    with Project.open(path) as project:
        done = import_ratings(project, again, "ana", replace=True, imported_by="lead")
        assert {k: done.totals[k] for k in ("new", "changed", "unchanged", "removed")} == {
            "new": 0,
            "changed": 1,  # B 0 -> 1
            "unchanged": 1,  # A
            "removed": 2,  # C and q2 A: not in the file
        }
        grades, ratings = _state(project)
        assert [r for r in ratings if r[2] == "ana"] == [["q1", "A", "ana", 3], ["q1", "B", "ana", 1]]
        # B now agrees (settled to 1); C lost its only rating (ungraded again); q2 A keeps ben's grade
        assert grades == [["q1", "A", 3], ["q1", "B", 1], ["q1", "C", None], ["q2", "A", 1], ["q2", "D", 2]]
        log = project.judgments.audit_log(1)
        removed = log[(log["action"] == "rating (ana2.qrels)") & log["new_grade"].isna()]
        assert sorted(zip(removed["query_id"], removed["doc_id"], removed["old_grade"].astype(int), strict=True)) == [
            ("q1", "C", 2),
            ("q2", "A", 1),
        ]


def test_a_refused_ratings_import_leaves_no_draft_behind(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    Project.create(path, annotator="lead").close()
    before = dump(path)
    bad_grade = write("bad.qrels", "q1 0 A 3\nq1 0 B 4\n")
    bad_id = write("odd.qrels", "q1 0 A 3\nq1 0 B\u200b 1\n")
    with Project.open(path) as project:
        with pytest.raises(InputError) as refused:
            import_ratings(project, bad_grade, "ana", imported_by="lead")
        assert refused.value.located() == f"{bad_grade}:2: grade 4 is outside the scale 0..3"
        with pytest.raises(InputError) as refused:
            import_ratings(project, bad_id, "ana", imported_by="lead")
        assert refused.value.located().startswith(f"{bad_id}:2: ")
        assert project.pools.versions() == []
    assert dump(path) == before


def test_into_a_project_with_only_frozen_versions_the_new_draft_copies_the_latest(tmp_path, write):
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        project.judgments.import_qrels(write("pool.qrels", "q1 0 A 3\nq1 0 B 0\n"), annotator="lead")
        freeze_draft(project, annotator="lead")
        done = import_ratings(project, write("cy.qrels", "q1 0 A 2\nq1 0 E 1\n"), "cy", imported_by="lead")
        assert (done.version, done.started, done.items_added) == (2, "a copy of pool version 1", 1)
        grades, ratings = _state(project)
        assert grades == [["q1", "A", None], ["q1", "B", 0], ["q1", "E", 1]]  # A: 3 (the file) vs 2 (cy)
        assert ratings == [
            ["q1", "A", "cy", 2], ["q1", "A", "import:pool.qrels", 3], ["q1", "B", "import:pool.qrels", 0],
            ["q1", "E", "cy", 1],
        ]  # fmt: skip
        # the frozen version is as it was
        assert project.pools.version(1).frozen and len(project.pools.pool_items(1)) == 2


def test_the_same_file_under_a_second_name_is_reported_as_identical(tmp_path, write):
    from ndcg_desktop.tasks.agreement import DUPLICATE_MIN_ITEMS

    many = ANA + "".join(f"q3 0 M{i} {i % 4}\n" for i in range(DUPLICATE_MIN_ITEMS - 4))  # ten items in all
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        import_ratings(project, write("ana.qrels", many), "ana", imported_by="lead")
        import_ratings(project, write("ben.qrels", BEN), "ben", imported_by="lead")
        twice = import_ratings(project, write("ana-again.qrels", many), "anna", imported_by="lead")
        assert twice.identical == [("ana", DUPLICATE_MIN_ITEMS)]  # not ben: he differs on B


def test_a_few_identical_items_are_no_evidence_of_a_duplicate(tmp_path, write):
    """Issue 36 item 10: one or a few items graded alike by two people is chance, not one file imported twice."""
    from ndcg_desktop.tasks.agreement import DUPLICATE_MIN_ITEMS

    few = "".join(f"q3 0 M{i} {i % 4}\n" for i in range(DUPLICATE_MIN_ITEMS - 1))
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        import_ratings(project, write("ana.qrels", few), "ana", imported_by="lead")
        assert import_ratings(project, write("ben.qrels", "q3 0 M1 1\n"), "ben", imported_by="lead").identical == []
        assert import_ratings(project, write("anna.qrels", few), "anna", imported_by="lead").identical == []


def test_negative_grades_join_the_pool_without_a_rating_only_when_chosen(tmp_path, write):
    path = write("neg.qrels", "q1 0 A 3\nq1 0 B -1\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="lead") as project:
        with pytest.raises(NegativeGradesFound) as refused:
            import_ratings(project, path, "ana", imported_by="lead")
        assert refused.value.located().startswith(f"{path}:2: grade -1 is outside the scale 0..3")
        assert project.pools.versions() == []
        done = import_ratings(project, path, "ana", negative=NegativeGrades.UNGRADED, imported_by="lead")
        assert (done.items_added, done.ungraded, done.totals["new"]) == (2, 1, 1)
        assert _state(project) == ([["q1", "A", 3], ["q1", "B", None]], [["q1", "A", "ana", 3]])


def test_a_release_with_a_negative_grade_names_the_option_on_the_command_line_only(tmp_path, write, capsys):
    """The store says where the negative grade is (a typed refusal, no option named); the command line's option
    is named by tasks in the words of every other import (before, a release said "trec_eval's -1" whatever the
    grade), and the window shows the located message alone, asking the same question."""
    from ndcg_desktop.store.errors import NegativeGradeOutside

    path = write("j.qrels", QRELS)
    project = tmp_path / "p.ndcgproj"
    Project.create(project, annotator="ann").close()
    assert main(["import-qrels", str(project), str(path), "--release", "--dry-run"]) == 2
    assert capsys.readouterr().err == (
        f"error: {path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged); "
        "import negative grades as ungraded items with --negative-as-ungraded\n"
    )
    with Project.open(project) as opened:
        with pytest.raises(NegativeGradeOutside) as stored:
            opened.releases.plan(path, negative_as_ungraded=False, fmt=None)
        assert (str(stored.value), stored.value.grade) == (f"{path}:2: grade -1 is outside the scale 0..3", -1)
        with pytest.raises(NegativeGradesFound) as refused:
            plan_release(opened, path)
        assert refused.value.located() == (
            f"{path}:2: grade -1 is outside the scale 0..3 (trec_eval's negative grade: pooled but not judged)"
        )


def test_the_command_line_names_the_option_the_store_leaves_out(tmp_path, write):
    """The store refuses a negative grade with the facts (tests/store/test_project.py); the hint naming the
    command line's option, which the store used to give, is worded by tasks, as for every import."""
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        import_judgments(project, write("q.txt", "q1 0 A 3\n"), annotator="ann")
        with pytest.raises(InputError, match=r"q3.txt:1: grade -2 is outside the scale 0..3 \(trec_eval's negative"):
            plan_release(project, write("q3.txt", "q1 0 C -2\n"))
        with pytest.raises(InputError, match=r"; import negative grades as ungraded items with --negative-as-ungraded"):
            plan_release(project, write("q4.txt", "q1 0 C -2\n"))


def test_every_import_words_a_negative_grade_as_before(tmp_path, write, capsys):
    """Each command-line import that meets a negative grade below the scale says what it said before the store's
    refusal became typed: a plain import and one assessor's ratings as trec_eval's "pooled but not judged", a
    release (tests above). Under --negative-as-ungraded the -1 is taken and the 0 below the 1..3 scale is the
    grade refused, named with its own line (before, the -1 was named with the option the user had given)."""
    path = write("j.qrels", "q1 0 A -1\nq1 0 B 0\n")
    project = tmp_path / "p.ndcgproj"
    Project.create(project, scale=GradeScale(1, 3), labels=["a", "b", "c"], annotator="ann").close()
    outside = f"error: {path}:1: grade -1 is outside the scale 1..3"
    found = f"{outside} (trec_eval's negative grade: pooled but not judged); "
    found += "import negative grades as ungraded items with --negative-as-ungraded\n"
    assert main(["import-qrels", str(project), str(path)]) == 2
    assert capsys.readouterr().err == found
    assert main(["import-qrels", str(project), str(path), "--annotator", "ana"]) == 2
    assert capsys.readouterr().err == found
    assert main(["import-qrels", str(project), str(path), "--negative-as-ungraded"]) == 2
    assert capsys.readouterr().err == f"error: {path}:2: grade 0 is outside the scale 1..3\n"
    assert main(["import-qrels", str(project), str(path), "--release", "--negative-as-ungraded"]) == 2
    assert capsys.readouterr().err == f"error: {path}:2: grade 0 is outside the scale 1..3\n"
    with Project.open(project) as opened:  # not the question the window asks for NegativeGradesFound, again
        with pytest.raises(InputError) as refused:
            import_judgments(opened, path, negative=NegativeGrades.UNGRADED, annotator="ann")
        assert not isinstance(refused.value, NegativeGradesFound)
        assert opened.pools.versions() == []
