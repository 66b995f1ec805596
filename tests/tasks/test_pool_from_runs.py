"""Depth-k pooling (tasks.pooling.pool_from_runs): a preview, then the same pairs added; moved from the store's tests
with the use case."""

from __future__ import annotations

import pandas as pd

from ndcg_desktop.tasks.pooling import pool_from_runs

from ..store import test_project as plain

QRELS, RUN = plain.QRELS, plain.RUN
project = plain.project  # the store tests' fixture: an empty project of ann's


def test_pooling_preview_then_apply(project, write):
    project.judgments.import_qrels(write("q.txt", QRELS), annotator="ann")
    project.runs.import_run(write("run.txt", RUN), name="sys", annotator="ann")
    preview = pool_from_runs(project, ["sys"], 2, apply=False)
    assert preview.set_index("query_id")["new"].to_dict() == {"q1": 1, "q2": 1}  # X and Y
    assert len(project.pools.pool_items(1)) == 5  # preview writes nothing
    added = pool_from_runs(project, ["sys"], 2, annotator="ann")
    assert added["new"].sum() == 2
    items = project.pools.pool_items(1).set_index("doc_id")
    assert pd.isna(items.loc["X", "grade"]) and pd.isna(items.loc["Y", "grade"])


def test_pooling_maps_chunks_and_counts_distinct_documents(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A 1\n"), annotator="ann")
    project.runs.import_run(
        write("c.txt", "q1 Q0 A#1 1 3 s\nq1 Q0 A#2 2 2 s\nq1 Q0 B#1 3 1 s\n"), name="c", id_map="#", annotator="ann"
    )
    assert pool_from_runs(project, ["c"], 2, annotator="ann")["new"].tolist() == [1]  # A, then B
