"""Adding items to a draft: every new pair lands once, ungraded, audited in the order given, across batches."""

from __future__ import annotations

import pandas as pd

from ndcg_desktop.store import Project, judgments


def test_added_items_land_in_the_pool_and_the_audit_log_across_batches(tmp_path, monkeypatch):
    monkeypatch.setattr(judgments, "_BATCH", 3)  # seven new pairs: three batches
    (tmp_path / "j.qrels").write_text("q1 0 A 1\nq2 0 B 0\n")
    pairs = pd.DataFrame(
        {
            "query_id": ["q2", "q1", "q1", "q10", "q2", "q1", "q10", "q1", "q2"],
            "doc_id": ["Z", "A", "d9", "x", "B", "d10", "x", "a", "C"],  # A and B are in the pool; (q10, x) twice
        }
    )
    with Project.create(tmp_path / "p.ndcgproj", user="tester") as p:
        p.import_qrels(tmp_path / "j.qrels")
        p.freeze()
        counts = p.add_items(pairs, action="send for judging")
        draft = p.draft()
        items = p.pool_items(draft.version)
        log = p.audit_log(draft.version)
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
