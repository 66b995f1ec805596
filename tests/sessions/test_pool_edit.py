"""The pool editor's Qt-free session: what an add or a removal would do, and the items as the file holds them now,
whoever changed them (an undo, a discard, another connection), without a refresh by hand."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.settings import GradeScale, default_labels
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.pool_edit import ITEMS, PENDING, DocumentSearch, EditRefusal, PoolEditSession
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_editing import restore_discarded
from ndcg_desktop.tasks.project import create_project, open_project

LABELS = default_labels(GradeScale())  # the projects' labels: 0..3, the default ladder


@pytest.fixture
def slot(tmp_path, write):
    """v1 frozen (q1: A=3, B=0), draft v2 copied from it with C ungraded in q1; the slot holds it open."""
    p = create_project(tmp_path / "p.ndcgproj", annotator="ann")
    p.judgments.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B 0\n"), annotator="ann")
    freeze_draft(p, annotator="ann")
    p.pools.new_draft_from(1, annotator="ann")
    p.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["C"]}), version=2, annotator="ann")
    slot = ProjectSlot()
    slot.open(p, annotator="ann")
    yield slot
    slot.close()


@pytest.fixture
def session(slot):
    session = PoolEditSession()
    session.follow(slot)
    session.show(2, "q1")
    return session


def items(session) -> dict[str, int | None]:
    return {r.doc_id: (None if pd.isna(r.grade) else int(r.grade)) for r in session.items.itertuples()}


def test_what_an_edit_would_do_is_decided_here(session):
    assert items(session) == {"A": 3, "B": 0, "C": None}
    assert session.add_refusal() is None
    with pytest.raises(InputError, match="document A is in the pool of query q1 already"):
        session.add(" A ")
    assert session.remove_refusal(None) == EditRefusal("no_document", 2, "q1")
    assert session.remove_refusal("A") == EditRefusal("graded", 2, "q1", "A", 3, f"3 · {LABELS[3]}")
    assert session.remove_refusal("Z") == EditRefusal("not_in_pool", 2, "q1", "Z")
    assert session.remove_refusal("C") is None
    session.show(2, None)
    assert session.add_refusal() == EditRefusal("no_query", 2)


def test_a_frozen_version_is_refused_and_the_store_refuses_it_too(session):
    session.show(1, "q1")
    assert session.add_refusal() == EditRefusal("frozen", 1)
    assert session.remove_refusal("B") == EditRefusal("frozen", 1)
    with pytest.raises(InputError, match="pool version 1 is frozen and cannot change"):
        session.add("D")
    assert items(session) == {"A": 3, "B": 0}


def test_a_read_only_project_is_refused(tmp_path, write):
    path = tmp_path / "r.ndcgproj"
    with create_project(path, annotator="ann") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ann")
    slot = ProjectSlot()
    slot.open(open_project(path, read_only=True), annotator="ann")
    session = PoolEditSession()
    session.follow(slot)
    session.show(1, "q1")
    assert session.add_refusal() == EditRefusal("read_only", 1)
    slot.close()
    assert session.project is None and session.add_refusal() == EditRefusal("no_pool")


def test_edits_and_their_undo_reach_the_items_through_the_projects_events(session):
    seen = []
    session.changed.connect(seen.append)
    edit = session.add(" D ")
    assert items(session) == {"A": 3, "B": 0, "C": None, "D": None} and ITEMS in seen[-1]
    session.undo(edit)
    assert items(session) == {"A": 3, "B": 0, "C": None}
    session.project.judgments.set_note("q1", "C", "maybe", version=2, annotator="ann")
    removed = session.remove("C")
    assert "C" not in items(session)
    session.undo(removed)  # back exactly, note included
    assert session.items.set_index("doc_id").loc["C", "note"] == "maybe"


def test_a_grade_written_by_another_connection_reaches_the_session(session, slot):
    """Another process grades C: once the slot checks (the window does on a timer), removing C is refused."""
    assert session.remove_refusal("C") is None
    conn = sqlite3.connect(session.project.path)
    conn.execute("UPDATE judgments SET grade = 2, annotator = 'raw' WHERE version = 2 AND doc_id = 'C'")
    conn.commit()
    conn.close()
    slot.check()
    assert items(session)["C"] == 2
    assert session.remove_refusal("C") == EditRefusal("graded", 2, "q1", "C", 2, f"2 · {LABELS[2]}")


def test_a_discarded_draft_locks_the_editor_and_its_undo_brings_the_items_back(session):
    plan = session.plan_discard()
    discarded = session.discard_job(plan)()
    assert session.pool_version is None and items(session) == {}
    assert session.add_refusal() == EditRefusal("no_pool")
    restore_discarded(session.project, discarded, annotator="ann")
    assert items(session) == {"A": 3, "B": 0, "C": None}
    assert session.add_refusal() is None


def test_a_pending_discard_whose_draft_changed_is_dropped_and_refused(session):
    seen = []
    session.changed.connect(seen.append)
    plan = session.plan_discard()
    assert session.pending is plan and (plan.items, plan.graded) == (3, 2)
    session.project.judgments.set_grade(
        "q1", "C", 1, version=2, annotator="ann"
    )  # meanwhile (another view, a worker, an undo)
    assert session.pending is None and PENDING in seen[-1]
    with pytest.raises(ValueError, match="the draft pool changed since the confirmation; discard again"):
        session.discard_job(plan)
    assert session.project.pools.draft() is not None


def test_the_document_search_drops_an_older_answer_and_marks_what_is_in_the_pool(session, tmp_path, write):
    docs = '{"doc_id": "A", "title": "pools", "text": "x"}\n{"doc_id": "D", "title": "pools too", "text": "y"}\n'
    session.project.texts.import_documents(write("d.jsonl", docs))
    search = DocumentSearch(session.project, session.in_pool())
    older, newer = search.job("pools"), search.job("pools")
    assert search.apply(older, older()) is False and search.found.empty
    assert search.apply(newer, newer()) is True
    assert dict(zip(search.found["doc_id"], search.found["in_pool"], strict=True)) == {"A": True, "D": False}
    assert (search.can_add(" D "), search.can_add("A"), search.can_add("  ")) == (True, False, False)
