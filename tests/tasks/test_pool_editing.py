"""Editing a draft pool by hand (tasks.pool_editing): each edit, its undo, and the audit rows they leave."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_editing import (
    add_to_pool,
    discard,
    plan_discard,
    remove_from_pool,
    restore_discarded,
    undo_add,
    undo_remove,
)
from ndcg_desktop.tasks.project import start_draft


@pytest.fixture
def project(tmp_path, write):
    """v1 frozen (q1: A=3, B=0); draft v2 copies it and adds C (ungraded, noted) and D (graded 2 by bob)."""
    docs = [{"doc_id": d, "title": f"Title {d}", "text": f"text of {d}"} for d in "ABCD"]
    p = Project.create(tmp_path / "p.ndcgproj", annotator="ann")
    p.texts.import_documents(write("d.jsonl", "".join(json.dumps(d) + "\n" for d in docs)))
    p.judgments.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B 0\n"), annotator="ann")
    freeze_draft(p, annotator="ann")
    p.pools.new_draft_from(1, annotator="ann")
    p.judgments.add_items(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["C", "D"]}), version=2, annotator="ann")
    p.judgments.set_note("q1", "C", "check the date", version=2, annotator="ann")
    p.judgments.set_grade("q1", "D", 2, version=2, annotator="bob")
    yield p
    p.close()


def items(p, version=2):
    frame = p.pools.pool_items(version, "q1")
    return {r.doc_id: (None if pd.isna(r.grade) else int(r.grade), r.note) for r in frame.itertuples()}


def last_audit(p, n=1):
    log = p.judgments.audit_log()
    return log.tail(n)[["version", "query_id", "doc_id", "action", "who"]].values.tolist()


def test_add_then_undo_leaves_the_pool_as_it_was_and_audits_both(project):
    before = items(project)
    edit = add_to_pool(project, 2, "q1", "  E9 ", annotator="ann")  # trimmed (rule 14)
    assert edit.doc_id == "E9" and not edit.has_text  # no text imported for E9
    assert items(project)["E9"] == (None, "")
    assert last_audit(project) == [[2, "q1", "E9", "add", "ann"]]
    undo_add(project, edit, annotator="ann")
    assert items(project) == before
    assert last_audit(project) == [[2, "q1", "E9", "undo add", "ann"]]


def test_add_refuses_a_document_already_in_the_pool_an_invalid_id_and_a_frozen_version(project):
    with pytest.raises(InputError, match="document A is in the pool of query q1 already"):
        add_to_pool(project, 2, "q1", "A", annotator="ann")
    with pytest.raises(InputError, match=r"document ID 'E\\u200b9' contains U\+200B"):
        add_to_pool(project, 2, "q1", "E\u200b9", annotator="ann")
    with pytest.raises(InputError, match="pool version 1 is frozen"):
        add_to_pool(project, 1, "q1", "E9", annotator="ann")
    assert "E9" not in items(project)


def test_remove_an_ungraded_item_and_undo_puts_its_note_back(project):
    before = project.pools.pool_items(2, "q1")
    edit = remove_from_pool(project, 2, "q1", "C", annotator="ann")
    assert edit.has_text
    assert "C" not in items(project)
    assert last_audit(project) == [[2, "q1", "C", "remove", "ann"]]
    undo_remove(project, edit, annotator="ann")
    pd.testing.assert_frame_equal(project.pools.pool_items(2, "q1"), before)  # note, annotator, time: exactly
    assert last_audit(project) == [[2, "q1", "C", "undo remove", "ann"]]
    assert project.judgments.audit_log().iloc[-1]["new_note"] == "check the date"


def test_remove_refuses_a_graded_item(project):
    with pytest.raises(InputError, match="document D is graded 2 for query q1; only an ungraded item"):
        remove_from_pool(project, 2, "q1", "D", annotator="ann")
    assert items(project)["D"] == (2, "")


def test_discard_plan_names_what_is_lost(project):
    plan = plan_discard(project)
    assert (plan.draft.version, plan.items, plan.queries) == (2, 4, 1)
    assert plan.graded == 3  # A and B copied from v1, D graded by bob
    assert plan.notes == 1  # C's
    assert plan.annotators == ["bob", "import:q.txt"]
    assert plan.own_work == 2  # D's grade and C's note exist only in this draft; A and B stay in v1


def test_discard_then_restore_brings_the_draft_back_exactly(project):
    version_before = project.pools.version(2)
    rows_before = project.pools.pool_items(2)
    gone = discard(project, plan_discard(project), annotator="ann")
    assert project.pools.draft() is None
    assert [v.version for v in project.pools.versions()] == [1]
    log = project.judgments.audit_log(2)
    assert list(log["action"].tail(4)) == ["discard draft"] * 4
    restored = restore_discarded(project, gone, annotator="ann")
    assert restored == version_before  # number, parent, scale, labels, created_at, created_by
    pd.testing.assert_frame_equal(project.pools.pool_items(2), rows_before)
    log = project.judgments.audit_log(2)
    assert list(log["action"].tail(4)) == ["restore draft"] * 4
    assert sorted(log["doc_id"].tail(4)) == ["A", "B", "C", "D"]


def test_a_discarded_drafts_number_is_not_given_again_so_it_comes_back_whole(project):
    """Issue 23 item 3: a new draft after a discard took the discarded draft's number, and the discard's undo was
    refused for good. Numbers are never given twice: while the new draft exists, bringing the old one back is
    refused (one draft at a time), naming it and writing nothing; once the new one is gone, it comes back whole."""
    rows_before, version_before = project.pools.pool_items(2), project.pools.version(2)
    gone = discard(project, plan_discard(project), annotator="ann")
    started = start_draft(project, 1, annotator="ann").draft
    assert started.version == 3  # not 2: the discarded draft's number stays its own
    dump = {t: project.file.query(f"SELECT * FROM {t}") for t in ("pool_versions", "judgments", "ratings")}
    with pytest.raises(InputError) as refused:
        restore_discarded(project, gone, annotator="ann")
    assert str(refused.value) == (
        f"{project.path}: draft pool version 3 was started after draft 2 was discarded, and a project holds one "
        "draft at a time: undo or discard draft 3 first, then draft 2 can be brought back"
    )
    assert {t: project.file.query(f"SELECT * FROM {t}") for t in dump} == dump
    discard(project, plan_discard(project), annotator="ann")  # draft 3 goes (the window undoes its start)
    assert restore_discarded(project, gone, annotator="ann") == version_before
    pd.testing.assert_frame_equal(project.pools.pool_items(2), rows_before)
    assert project.pools.draft().version == 2
    project.judgments.discard_draft(annotator="ann")
    assert project.pools.new_draft_from(1, annotator="ann").version == 4  # 3 was given once too


def test_a_discarded_draft_is_not_brought_back_behind_a_version_frozen_since(project):
    gone = discard(project, plan_discard(project), annotator="ann")
    draft = project.pools.new_draft_from(1, annotator="ann").version
    item = project.pools.pool_items(draft).iloc[0]  # a regrade: a copy of its parent would not freeze (issue 35)
    project.judgments.set_grade(
        item["query_id"], item["doc_id"], 0 if item["grade"] else 1, version=draft, annotator="ann"
    )
    freeze_draft(project, annotator="ann")  # version 3: the frozen chain goes on from 3
    with pytest.raises(InputError, match="pool version 3 was frozen after draft 2 was discarded: a draft brought back"):
        restore_discarded(project, gone, annotator="ann")
    assert [v.version for v in project.pools.versions()] == [1, 3]


def test_discard_is_refused_when_the_draft_changed_since_the_plan(project):
    plan = plan_discard(project)
    project.judgments.discard_draft(annotator="ann")
    project.pools.new_draft_from(1, annotator="ann")  # number 3: a number is never given twice
    project.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["E"]}), version=3, annotator="ann")
    with pytest.raises(InputError, match="the draft pool changed since the confirmation; discard again"):
        discard(project, plan, annotator="ann")
    assert sorted(items(project, version=3)) == ["A", "B", "E"]


def test_search_finds_id_prefixes_first_then_titles_then_texts_and_can_be_cancelled(project, write):
    docs = [
        {"doc_id": "pool-1", "title": "x", "text": "y"},
        {"doc_id": "P2", "title": "Deep POOLS", "text": "y"},
        {"doc_id": "P3", "title": "x", "text": "a pool of water"},
    ]
    project.texts.import_documents(write("more.jsonl", "".join(json.dumps(d) + "\n" for d in docs)))
    found = project.texts.search_documents("pool")
    assert found.values.tolist() == [["pool-1", "x", "id"], ["P2", "Deep POOLS", "title"], ["P3", "x", "text"]]
    assert project.texts.search_documents("pool", limit=2)["doc_id"].tolist() == ["pool-1", "P2"]
    assert project.texts.search_documents("  ").empty
    from ndcg_desktop.store import Cancelled

    with pytest.raises(Cancelled):
        project.texts.search_documents("no such words", cancelled=lambda: True)
