"""Whose grade a judgment is: imported grades are credited to their file; an undo restores the row exactly."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project


def rows(project):
    items = project.pool_items(1).set_index("doc_id")

    def value(x):
        return None if pd.isna(x) else x

    return {d: (value(r.grade), value(r.annotator), value(r.updated_at)) for d, r in items.iterrows()}


def test_imported_grades_are_credited_to_the_file_and_the_import_to_the_user(tmp_path):
    qrels = tmp_path / "assessors-2024.qrels"
    qrels.write_text("q1 0 A 2\nq1 0 B -1\n")
    with Project.create(tmp_path / "p.ndcgproj", user="alice") as p:
        p.import_qrels(qrels, negative_as_ungraded=True)
        got = {d: (g, who) for d, (g, who, _at) in rows(p).items()}
        assert got == {"A": (2, "import:assessors-2024.qrels"), "B": (None, None)}
        (tmp_path / "more.qrels").write_text("q1 0 B 1\n")  # fills the ungraded item
        p.import_qrels(tmp_path / "more.qrels")
        assert rows(p)["B"][:2] == (1, "import:more.qrels")
        log = p.audit_log()
        assert list(log["action"]) == ["import", "import", "import"] and set(log["who"]) == {"alice"}


def test_restore_puts_back_grade_annotator_and_time_and_is_audited(tmp_path):
    qrels = tmp_path / "j.qrels"
    qrels.write_text("q1 0 A 2\n")
    with Project.create(tmp_path / "p.ndcgproj", user="bob") as p:
        p.import_qrels(qrels)
        before = rows(p)["A"]
        assert p.set_grade("q1", "A", 0) == 2
        assert rows(p)["A"][:2] == (0, "bob")
        p.set_grade("q1", "A", 2, restore=(before[1], before[2]))
        assert rows(p)["A"] == before
        log = p.audit_log()
        # the undo is audited as an undo, not as a judgment (judging pace counts only "grade" rows)
        assert log[["action", "old_grade", "new_grade", "who"]].values.tolist()[-2:] == [
            ["grade", 2, 0, "bob"],
            ["undo grade", 0, 2, "bob"],
        ]


def test_the_judging_order_is_recorded_in_the_project(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, user="carol") as p:
        assert p.judging_order() == "blind"  # the default: blind judging
        p.set_judging_order("doc_id")
        with pytest.raises(InputError, match="judging order must be one of blind, doc_id"):
            p.set_judging_order("run")
    with Project.open(path, read_only=True) as p:
        assert p.judging_order() == "doc_id"
