"""Adding items to a draft: every new pair lands once, ungraded, audited in the order given, across batches."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.store import Project, judgments
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pooling import pool_from_runs


def test_added_items_land_in_the_pool_and_the_audit_log_across_batches(tmp_path, monkeypatch):
    monkeypatch.setattr(judgments, "_BATCH", 3)  # seven new pairs: three batches
    (tmp_path / "j.qrels").write_text("q1 0 A 1\nq2 0 B 0\n")
    pairs = pd.DataFrame(
        {
            "query_id": ["q2", "q1", "q1", "q10", "q2", "q1", "q10", "q1", "q2"],
            "doc_id": ["Z", "A", "d9", "x", "B", "d10", "x", "a", "C"],  # A and B are in the pool; (q10, x) twice
        }
    )
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        counts = p.judgments.add_items(pairs, action="send for judging", annotator="tester")
        draft = p.pools.draft()
        items = p.pools.pool_items(draft.version)
        log = p.judgments.audit_log(draft.version)
    new = [("q2", "Z"), ("q1", "d9"), ("q10", "x"), ("q1", "d10"), ("q1", "a"), ("q2", "C")]  # first seen, in order
    got = set(zip(items["query_id"], items["doc_id"], strict=True))
    assert got == {("q1", "A"), ("q2", "B"), *new} and len(items) == 2 + len(new)
    ungraded = items.set_index(["query_id", "doc_id"]).loc[new, "grade"]
    assert ungraded.isna().all()
    added = log[log["action"] == "send for judging"]
    assert list(zip(added["query_id"], added["doc_id"], strict=True)) == new
    assert set(added["who"]) == {"tester"} and added["at"].nunique() == 1 and set(added["version"]) == {draft.version}
    expected = pd.DataFrame({"query_id": ["q1", "q10", "q2"], "candidates": [4, 1, 3], "new": [3, 1, 2]})
    pd.testing.assert_frame_equal(counts.sort_values("query_id").reset_index(drop=True), expected)


def test_new_items_are_found_in_sqlite_without_reading_the_pool_into_python(tmp_path, monkeypatch):
    """The build-pool preview and every addition decided which pairs were new by reading the whole target version
    into pandas and joining there: at a million items, seconds of a worker holding the GIL in long single calls
    (the window froze ~0.2-1 s at a time). SQLite now decides through the pool's key; the counts are unchanged."""
    from ndcg_desktop.store.pools import PoolRepository

    (tmp_path / "j.qrels").write_text("q1 0 A 1\nq1 0 B 0\nq2 0 C 2\n")
    pairs = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q3", "q1", "q2"], "doc_id": ["A", "D", "C", "E", "D", "F"]})
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        pool = p.pools.pool_items(1)

        def refuse(*args, **kwargs):
            raise AssertionError("the version's items were read into Python")

        monkeypatch.setattr(PoolRepository, "pool_items", refuse)
        preview = p.judgments.preview_items(pairs)  # no draft yet: new relative to frozen version 1
        added = p.judgments.add_items(pairs, annotator="tester")
        again = p.judgments.preview_items(pairs)  # the draft now holds them all
    # Expected, from an independent pandas read: distinct pairs per query, and those not in version 1.
    distinct = pairs.drop_duplicates()
    known = set(zip(pool["query_id"], pool["doc_id"], strict=True))
    is_new = [(q, d) not in known for q, d in zip(distinct["query_id"], distinct["doc_id"], strict=True)]
    expected = (
        distinct.assign(new=is_new)
        .groupby("query_id")
        .agg(candidates=("doc_id", "size"), new=("new", "sum"))
        .reset_index()
        .astype({"candidates": "int64", "new": "int64"})
    )
    pd.testing.assert_frame_equal(preview, expected)
    pd.testing.assert_frame_equal(added, expected)
    pd.testing.assert_frame_equal(again, expected.assign(new=0))


def test_pooling_two_runs_keeps_each_shared_pair_once_without_pandas_deduplicating(tmp_path, monkeypatch):
    """The build-pool preview's worker deduplicated the runs' pairs with pandas (hashing every pair's strings,
    holding the GIL); the staging keeps each pair's first occurrence anyway. Run a's pairs come first, then b's."""
    (tmp_path / "j.qrels").write_text("q1 0 A 1\n")
    (tmp_path / "a.run").write_text("q1 Q0 A 1 3 a\nq1 Q0 B 2 2 a\nq2 Q0 C 1 1 a\n")
    (tmp_path / "b.run").write_text("q2 Q0 D 1 3 b\nq2 Q0 C 2 2 b\nq1 Q0 B 1 1 b\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
        p.runs.import_run(tmp_path / "a.run", name="a", annotator="tester")
        p.runs.import_run(tmp_path / "b.run", name="b", annotator="tester")
        monkeypatch.setattr(pd.DataFrame, "drop_duplicates", lambda *a, **k: pytest.fail("deduplicated in pandas"))
        preview = pool_from_runs(p, ["a", "b"], 10, apply=False)
        counts = pool_from_runs(p, ["a", "b"], 10, annotator="tester")
        log = p.judgments.audit_log(p.pools.draft().version)
    # candidates: q1 A, B (B twice); q2 C, D (C twice). New: all but (q1, A).
    expected = pd.DataFrame({"query_id": ["q1", "q2"], "candidates": [2, 2], "new": [1, 2]})
    pd.testing.assert_frame_equal(preview.reset_index(drop=True), expected)
    pd.testing.assert_frame_equal(counts.reset_index(drop=True), expected)
    added = log[log["action"] == "pool"]
    assert list(zip(added["query_id"], added["doc_id"], strict=True)) == [("q1", "B"), ("q2", "C"), ("q2", "D")]


def test_pairs_are_staged_in_steps_short_enough_for_the_window_to_get_the_gil_between_them(tmp_path):
    """Each step turns its pairs into Python strings and feeds them to one executemany, holding the GIL: at 50,000
    pairs a step the worker held it 70-155 ms at a time while 6.7M pairs were sent for judging."""
    from ndcg_desktop.store.judgments import _staged

    class Recording:
        def __init__(self, conn):
            self.conn, self.sizes = conn, []

        def execute(self, *args):
            return self.conn.execute(*args)

        def executemany(self, sql, rows):
            rows = list(rows)
            self.sizes.append(len(rows))
            return self.conn.executemany(sql, rows)

    pairs = pd.DataFrame({"query_id": [f"q{i % 7}" for i in range(12_001)], "doc_id": [f"d{i}" for i in range(12_001)]})
    (tmp_path / "j.qrels").write_text("q1 0 d1 1\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        recording = Recording(p.file.conn)
        with _staged(recording, pairs, 1) as staged:
            new = p.file.conn.execute(f"SELECT count(*), sum(new) FROM {staged}").fetchone()
    assert recording.sizes == [5_000, 5_000, 2_001]
    assert tuple(new) == (12_001, 12_000)  # (q1, d1) is in version 1
