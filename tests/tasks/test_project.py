"""tasks.project: freezing, starting and discarding drafts, and importing texts, as every front calls them."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.settings import GradeScale, default_labels
from ndcg_desktop.tasks.importing import NegativeGrades, import_documents, import_judgments, import_queries
from ndcg_desktop.tasks.pool_editing import plan_discard
from ndcg_desktop.tasks.project import (
    DraftStarted,
    GradeCount,
    RatedBy,
    create_project,
    freeze,
    freeze_preview,
    start_draft,
)
from ndcg_desktop.tasks.status import project_counts

QRELS = "q1 0 A 3\nq1 0 B 0\nq2 0 C 1\n"


def test_freeze_returns_the_version_and_its_team_record(tmp_path, write):
    with create_project(tmp_path / "p.ndcgproj", annotator="ana") as project:
        import_judgments(project, write("j.qrels", QRELS), annotator="ana")
        preview = freeze_preview(project, 1)
        assert (preview.version, preview.documents, preview.awaiting) == (1, len(QRELS.splitlines()), 0)
        frozen = freeze(project, annotator="ana")
        recorded = project.pools.team(frozen.version)  # rule 16's record, as the manifests carry it
        assert (frozen.version.version, frozen.version.frozen) == (1, True)
        assert frozen.annotators == tuple(
            RatedBy(name, rated["ratings"], rated["sha256"]) for name, rated in recorded["annotators"].items()
        )
        assert [a.ratings for a in frozen.annotators] == [len(QRELS.splitlines())]
        assert frozen.adjudication == tuple(recorded["adjudication"].items()) == ()


def test_a_draft_is_started_from_the_latest_frozen_version_and_discarded_after_saying_what_it_holds(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="ana") as project:
        with pytest.raises(InputError) as caught:
            plan_discard(project)
        assert str(caught.value) == f"{path}: has no draft pool to discard"
        import_judgments(project, write("j.qrels", QRELS), annotator="ana")
        freeze(project, annotator="ana")
        started = start_draft(project, annotator="ana")
        assert started == DraftStarted(project.pools.version(2), 1)
        project.judgments.add_items(pd.DataFrame({"query_id": ["q3"], "doc_id": ["D"]}), version=2, annotator="ana")
        plan = plan_discard(project)
        assert (plan.draft.version, plan.items) == (2, len(QRELS.splitlines()) + 1)


def test_texts_are_imported_with_their_counts(tmp_path, write):
    topics = "query_id\ttitle\tdescription\tnarrative\nq1\tcats\tabout cats\t\nq2\tdogs\t\t\nq3\tfish\tfish\tany fish\n"
    documents = "".join(f'{{"doc_id": "d{i}", "title": "t", "text": "x"}}\n' for i in range(5))
    with create_project(tmp_path / "p.ndcgproj", annotator="ana") as project:
        queries = import_queries(project, write("topics.tsv", topics))
        rows = [line.split("\t") for line in topics.splitlines()[1:]]
        assert (queries.count, queries.with_description, queries.with_narrative) == (
            len(rows),
            sum(1 for r in rows if r[2]),
            sum(1 for r in rows if r[3]),
        )
        assert import_documents(project, write("docs.jsonl", documents)).count == len(documents.splitlines())
        assert project_counts(project)["documents"] == len(documents.splitlines())


def test_the_freeze_preview_counts_the_items_awaiting_adjudication(tmp_path, write):
    from ndcg_desktop.tasks.importing import import_ratings

    ana, ben = "q1 0 A 3\nq1 0 B 0\nq2 0 C 1\n", "q1 0 A 3\nq1 0 B 2\nq2 0 C 1\n"  # they differ on B only
    with create_project(tmp_path / "p.ndcgproj", annotator="lead") as project:
        import_ratings(project, write("ana.qrels", ana), "ana", imported_by="lead")
        import_ratings(project, write("ben.qrels", ben), "ben", imported_by="lead")
        differ = sum(a != b for a, b in zip(ana.splitlines(), ben.splitlines(), strict=True))
        preview = freeze_preview(project, 1)
        assert (preview.documents, preview.awaiting) == (len(ana.splitlines()), differ)
        assert not preview.can_freeze(remove_ungraded=False) and not preview.can_freeze(remove_ungraded=True)
        with pytest.raises(InputError, match=f"has {differ} item that annotators rated differently"):
            freeze(project, annotator="lead")


def test_the_freeze_preview_counts_each_grade_with_its_label_and_says_what_freezing_allows(tmp_path, write):
    """Issue 23 item 2: the Freeze dialog's figures come from here; the widget only renders them."""
    qrels = "q1 0 A 3\nq1 0 B 0\nq1 0 C -1\nq2 0 D 3\nq2 0 E -1\nq3 0 F 1\n"  # -1: pooled, not judged
    rows = [line.split() for line in qrels.splitlines()]
    grades = [int(r[3]) for r in rows if int(r[3]) >= 0]
    labels = default_labels(GradeScale())
    with create_project(tmp_path / "p.ndcgproj", annotator="ana") as project:
        import_judgments(project, write("j.qrels", qrels), negative=NegativeGrades.UNGRADED, annotator="ana")
        preview = freeze_preview(project, 1)
        assert (preview.queries, preview.documents) == (len({r[0] for r in rows}), len(rows))
        assert preview.grades == tuple(
            GradeCount(g, labels[g], grades.count(g)) for g in range(GradeScale().low, GradeScale().high + 1)
        )
        assert (preview.ungraded, preview.awaiting) == (len(rows) - len(grades), 0)
        assert not preview.can_freeze(remove_ungraded=False)  # ungraded items block freezing...
        assert preview.can_freeze(remove_ungraded=True) and preview.offers_removal  # ...unless they are removed
        project.judgments.remove_items(
            pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["C", "E"]}), version=1, annotator="ana"
        )
        done = freeze_preview(project, 1)
        assert (done.ungraded, done.offers_removal, done.can_freeze(remove_ungraded=False)) == (0, False, True)
