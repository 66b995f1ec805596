"""Freezing refuses whatever export-qrels refuses (issue 24 item 10): a grade in a draft that is off the scale (a
huge integer), in every graded column; one not stored as an integer (a BLOB, a REAL, a TEXT) is refused before, when
the file opens (store/fields.py, issue 33 item 9)."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.export import write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import dump

# Values the column's INTEGER affinity keeps as they are (2.0 and '2' would be stored as the integer 2).
VALUES = {"blob": "x'33'", "real": "2.5", "text": "'\uff13'", "huge int": "9223372036854775807", "huge real": "1e30"}
STORED = {"blob": "blob", "real": "real", "text": "text", "huge int": "integer", "huge real": "real"}
COLUMNS = {"judgments": "judgments", "ratings": "ratings"}


@pytest.fixture
def draft(tmp_path):
    """A draft of two items, both graded 2 by ann (grade and rating), ready to freeze."""
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ann") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "B"]}), annotator="ann")
        project.judgments.set_grade("q1", "A", 2, annotator="ann")
        project.judgments.set_grade("q1", "B", 2, annotator="ann")
    return path


@pytest.mark.parametrize("table", sorted(COLUMNS))
@pytest.mark.parametrize("kind", sorted(VALUES))
def test_a_grade_not_stored_as_a_whole_number_on_the_scale_is_refused_at_freezing(draft, table, kind):
    con = sqlite3.connect(draft, isolation_level=None)  # another program edits the draft (drafts are not guarded)
    con.execute(f"UPDATE {table} SET grade = {VALUES[kind]} WHERE doc_id = 'A'")
    assert con.execute(f"SELECT typeof(grade) FROM {table} WHERE doc_id = 'A'").fetchone()[0] == STORED[kind]
    con.close()
    before = dump(draft)
    if STORED[kind] != "integer":  # not stored as a number: refused when the file opens (issue 33 item 9)
        with pytest.raises(InputError) as refused:
            Project.open(draft)
        assert str(refused.value).startswith(f"{draft}: cannot be read as ndcg-desktop wrote it: {table}.grade of ")
        assert f"holds the {STORED[kind]} " in str(refused.value) and "where a number is stored" in str(refused.value)
    else:
        with Project.open(draft) as project, pytest.raises(InputError) as refused:
            freeze_draft(project, annotator="ann")
        assert str(refused.value).startswith(f"{draft}: draft version 1 cannot be frozen: ")
        assert "document 'A' for query 'q1'" in str(refused.value)
    assert dump(draft) == before  # still a draft, nothing written


def test_a_draft_of_whole_numbers_freezes_and_exports(draft, tmp_path):
    with Project.open(draft) as project:
        freeze_draft(project, annotator="ann")
        write_qrels(project, tmp_path / "out.qrels")
    assert (tmp_path / "out.qrels").read_text() == "q1 0 A 2\nq1 0 B 2\n"
