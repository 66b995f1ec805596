"""Whose grade a judgment is: imported grades are credited to their file; an undo restores the row exactly."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project


def rows(project):
    items = project.pools.pool_items(1).set_index("doc_id")

    def value(x):
        return None if pd.isna(x) else x

    return {d: (value(r.grade), value(r.annotator), value(r.updated_at)) for d, r in items.iterrows()}


def test_imported_grades_are_credited_to_the_file_and_the_import_to_the_user(tmp_path):
    qrels = tmp_path / "assessors-2024.qrels"
    qrels.write_text("q1 0 A 2\nq1 0 B -1\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="alice") as p:
        p.judgments.import_qrels(qrels, negative_as_ungraded=True, annotator="alice")
        got = {d: (g, who) for d, (g, who, _at) in rows(p).items()}
        assert got == {"A": (2, "import:assessors-2024.qrels"), "B": (None, None)}
        (tmp_path / "more.qrels").write_text("q1 0 B 1\n")  # fills the ungraded item
        p.judgments.import_qrels(tmp_path / "more.qrels", annotator="alice")
        assert rows(p)["B"][:2] == (1, "import:more.qrels")
        log = p.judgments.audit_log()
        log = log[log["query_id"] != ""]  # the draft's own row (issue 33 item 10: new drafts are audited) aside
        assert list(log["action"]) == ["import", "import", "import"] and set(log["who"]) == {"alice"}


def test_restore_puts_back_grade_annotator_and_time_and_is_audited(tmp_path):
    qrels = tmp_path / "j.qrels"
    qrels.write_text("q1 0 A 2\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="bob") as p:
        p.judgments.import_qrels(qrels, annotator="bob")
        before = rows(p)["A"]
        assert before[0] == 2
        taken = p.judgments.set_grade("q1", "A", 0, annotator="bob")
        assert rows(p)["A"][:2] == (0, "bob")
        p.undo.restore(taken, action="undo grade", annotator="bob")  # what the grade took, put back
        assert rows(p)["A"] == before
        log = p.judgments.audit_log()
        # the undo is audited as an undo, not as a judgment (judging pace counts only "grade" rows)
        assert log[["action", "old_grade", "new_grade", "who"]].values.tolist()[-2:] == [
            ["grade", 2, 0, "bob"],
            ["undo grade", 0, 2, "bob"],
        ]


def test_the_judging_order_is_recorded_in_the_project(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="carol") as p:
        assert p.judgments.judging_order() == "blind"  # the default: blind judging
        # which orders there are is the use case's rule: tests/tasks/test_grading.py
        p.judgments.set_judging_order("doc_id")
    with Project.open(path, read_only=True) as p:
        assert p.judgments.judging_order() == "doc_id"


def test_import_qrels_stores_exactly_the_files_judgments_ratings_and_audit_rows(tmp_path):
    """What an import stores, derived from the files here: items and ratings by key, audit rows in file order (the
    added, then the ungraded items the file grades). IDs out of order, non-ASCII, across queries."""
    first = [("q2", "Z", 1), ("q10", "b", 0), ("q2", "Ä", 3), ("q1", "a", -1), ("q10", "a", 2), ("q2", "B", 2)]
    second = [("q1", "a", 1), ("q3", "x", 0), ("q10", "b", 0), ("q1", "c", 3)]  # fills q1 a, repeats q10 b

    def write(name, lines):
        (tmp_path / name).write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in lines), encoding="utf-8")
        return tmp_path / name

    with Project.create(tmp_path / "p.ndcgproj", annotator="alice") as p:
        p.judgments.import_qrels(write("one.qrels", first), negative_as_ungraded=True, annotator="alice")
        p.judgments.import_qrels(write("two.qrels", second), annotator="alice")
        items = p.pools.pool_items(1)
        ratings = p.ratings.verified(1)
        log = p.judgments.audit_log(1)
        log = log[log["query_id"] != ""].reset_index(drop=True)  # the draft's own row (new drafts are audited)
    grades = {(q, d): (None if g < 0 else g, "import:one.qrels") for q, d, g in first}
    grades.update(
        {(q, d): (g, "import:two.qrels") for q, d, g in second if (q, d) not in grades or (q, d) == ("q1", "a")}
    )
    expected_items = sorted((q, d, g, (who if g is not None else None)) for (q, d), (g, who) in grades.items())
    got_items = [
        (
            r.query_id,
            r.doc_id,
            None if pd.isna(r.grade) else int(r.grade),
            None if pd.isna(r.annotator) else r.annotator,
        )
        for r in items.itertuples()
    ]
    assert got_items == expected_items  # sorted by query and document ID: code points, as Python sorts
    assert sorted(zip(ratings["query_id"], ratings["doc_id"], ratings["annotator"], ratings["grade"], strict=True)) == [
        (q, d, who, g) for q, d, g, who in expected_items if g is not None
    ]
    assert set(ratings["note"]) == {""}
    new = [None if pd.isna(g) else int(g) for g in log["new_grade"]]
    audited = list(zip(log["query_id"], log["doc_id"], new, strict=True))
    assert audited == [
        *[(q, d, None if g < 0 else g) for q, d, g in first],
        ("q3", "x", 0),  # two.qrels: the added in file order ...
        ("q1", "c", 3),
        ("q1", "a", 1),  # ... then the ungraded item it graded
    ]
    assert list(log["action"]) == ["import"] * 9 and set(log["who"]) == {"alice"}


@pytest.mark.parametrize("name", ["import:qrels.txt", "IMPORT:x", "import:"])
def test_nobody_can_take_the_name_a_file_import_is_credited_to(tmp_path, monkeypatch, name):
    """A person (NDCG_USER, --annotator) named like a file's credit could replace that file's ratings."""
    from ndcg_desktop.tasks.identity import open_to_grade
    from ndcg_desktop.tasks.importing import import_ratings

    path = tmp_path / "p.ndcgproj"
    (tmp_path / "qrels.txt").write_text("q1 0 A 2\n")
    with Project.create(path, annotator="alice") as project:
        project.judgments.import_qrels(tmp_path / "qrels.txt", annotator="alice")
        with pytest.raises(InputError, match="annotator name .* starts with 'import:'"):
            import_ratings(project, tmp_path / "qrels.txt", name, imported_by="alice")
    with pytest.raises(InputError, match="user name .* starts with 'import:'"):
        open_to_grade(path, name)  # who grades is decided, and checked, once the project is open
    monkeypatch.setenv("NDCG_USER", name)
    with pytest.raises(InputError, match="starts with 'import:'"):
        open_to_grade(path)


def test_a_file_whose_name_breaks_the_name_rule_is_refused_before_its_grades_are_credited(tmp_path):
    path = tmp_path / "p.ndcgproj"
    odd = tmp_path / "q\tz\u200b.txt"
    odd.write_text("q1 0 A 2\n")
    with Project.create(path, annotator="alice") as project:
        with pytest.raises(InputError, match="file name .* contains .*rename the file"):
            project.judgments.import_qrels(odd, annotator="alice")
        assert project.pools.draft() is None  # nothing written
