"""tasks.grading: the Annotate view's writes as use cases (a grade, a note, the judging order, an undo)."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.blind import JUDGING_ORDERS
from ndcg_desktop.formats.common import MAX_NOTE_CHARS
from ndcg_desktop.tasks.grading import grade_item, note_item, set_judging_order, undo
from ndcg_desktop.tasks.project import create_project, open_project


def test_the_judging_order_is_one_of_the_orders_and_a_refusal_records_nothing(tmp_path):
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="carol") as project:
        with pytest.raises(InputError) as caught:
            set_judging_order(project, "run")
        assert str(caught.value) == f"judging order must be one of {', '.join(JUDGING_ORDERS)}, not 'run'"
        assert project.judgments.judging_order() == "blind"
        set_judging_order(project, "doc_id")
    with open_project(path, read_only=True) as project:
        assert project.judgments.judging_order() == "doc_id"


def test_a_grade_and_a_note_are_put_back_exactly_by_their_undo(tmp_path):
    with create_project(tmp_path / "p.ndcgproj", annotator="carol") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "B"]}), annotator="carol")

        def items() -> list[tuple[str, object, str]]:
            rows = project.pools.pool_items(1)
            return [
                (d, None if pd.isna(g) else int(g), n)
                for d, g, n in zip(rows["doc_id"], rows["grade"], rows["note"], strict=True)
            ]

        before = items()
        graded = grade_item(project, "q1", "A", 2, version=1, annotator="carol")
        noted = note_item(project, "q1", "A", "on topic", version=1, annotator="carol")
        assert items() == [("A", 2, "on topic"), ("B", None, "")]
        undo(project, noted, action="undo note", annotator="carol")
        undo(project, graded, action="undo grade", annotator="carol")
        assert items() == before == [("A", None, ""), ("B", None, "")]
        assert project.judgments.audit_log()["action"].tolist()[-2:] == ["undo note", "undo grade"]


def test_a_note_past_the_limit_for_notes_is_refused_naming_the_project_and_writes_nothing(tmp_path):
    """Issue 23 item 6: the window's note is bounded as a returned work file's note is (MAX_NOTE_CHARS)."""
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="carol") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["A"]}), annotator="carol")
        note_item(project, "q1", "A", "n" * MAX_NOTE_CHARS, version=1, annotator="carol")  # exactly the limit is kept
        log = len(project.judgments.audit_log())
        with pytest.raises(InputError) as caught:
            note_item(project, "q1", "A", "x" * (MAX_NOTE_CHARS + 1), version=1, annotator="carol")
        assert str(caught.value) == (
            f"{path}: a note holds at most {MAX_NOTE_CHARS:,} characters; this one has {MAX_NOTE_CHARS + 1:,}"
        )
        assert (
            project.pools.pool_items(1)["note"].tolist() == ["n" * MAX_NOTE_CHARS]
            and len(project.judgments.audit_log()) == log
        )
